"""Uploaded decks are private: listed, previewed and read only by the host token that uploaded
them and the rooms that deal from them; the uploader adds pictures, renames and deletes."""

from __future__ import annotations

import asyncio
import io
import json
import random
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
import zipfile
from typing import Any

from PIL import Image

from .harness import Client, Message, ServerProcess, create_room, http, join_room, seats


def picture(seed: int) -> bytes:
    """A noisy PNG (well over the 64 KiB lobby body limit), different for each seed."""
    rng = random.Random(seed)
    image = Image.frombytes("RGB", (300, 450), rng.randbytes(300 * 450 * 3))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def pictures_zip(count: int, first_seed: int) -> bytes:
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(count):
            zf.writestr(f"photo_{i}.png", picture(first_seed + i))
    return archive.getvalue()


def upload(base: str, path: str, fields: dict[str, str], data: bytes, filename: str) -> Any:
    boundary = uuid.uuid4().hex
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in fields.items()
    )
    body += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()
    body += data + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        base + path, data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )  # fmt: skip
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def listed(base: str, *tickets: Message) -> dict[str, Message]:
    status, body = http(base, "GET", "/api/decks", headers=seats(*tickets) if tickets else None)
    assert status == 200
    return {d["slug"]: d for d in body["decks"]}


def words(base: str, slug: str, *tickets: Message) -> tuple[int, Any]:
    return http(
        base, "GET", f"/api/decks/{slug}/cards", headers=seats(*tickets) if tickets else None
    )


def new_deck(base: str, host: Message, name: str, first_seed: int) -> str:
    status, report = upload(
        base, "/api/decks", {"name": name, "token": host["token"]},
        pictures_zip(3, first_seed), "holiday.zip",
    )  # fmt: skip
    assert status == 200 and report["accepted"] == 3, report
    slug: str = report["slug"]
    return slug


def picture_status(base: str, card: str, *tickets: Message) -> tuple[int, str | None]:
    """Fetch a card picture as a browser does: the seats it holds in the dixit_seats cookie."""
    held = ".".join(f"{t['code']}:{t['token']}" for t in tickets)
    headers = {"Cookie": f"dixit_seats={held}"} if tickets else {}
    request = urllib.request.Request(f"{base}/cards/{card}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            answer.read()
            return answer.status, answer.headers.get("Cache-Control")
    except urllib.error.HTTPError as error:
        return error.code, None


async def choose(base: str, ticket: Message, decks: list[str]) -> Message:
    client = Client(base.replace("http", "ws"), ticket)
    welcome = await client.connect()
    try:
        settings = {**welcome["room"]["settings"], "decks": decks}
        return await client.command("update_settings", settings=settings)
    finally:
        await client.close()


def test_nobody_else_lists_previews_or_reads_an_uploaded_deck(server: ServerProcess) -> None:
    base = server.base
    ann = create_room(base, "Ann")
    slug = new_deck(base, ann, "Our holiday", 100)
    ann_player = join_room(base, ann["code"], "Abe")  # in Ann's room, before it uses the deck
    bo = create_room(base, "Bo")  # another host
    bo_player = join_room(base, bo["code"], "Cy")  # a player of another room
    # The uploader sees it as theirs, with a preview.
    mine = listed(base, ann)[slug]
    assert mine["mine"] and mine["kind"] == "imported" and len(mine["preview"]) == 3
    assert words(base, slug, ann)[0] == 200
    # Nobody else lists it, previews it or reads its cards (as if there were no such deck).
    for who in ((bo,), (bo_player,), (), (ann_player,), (bo, bo_player)):
        assert slug not in listed(base, *who), who
        status, body = words(base, slug, *who)
        assert (status, body["code"]) == (404, "deck/not_found"), who
    # A seat names a room only with its own token there: Ann's code with Bo's token is nothing.
    forged = {"code": ann["code"], "token": bo["token"]}
    assert slug not in listed(base, forged)
    # Nobody else may deal from it, describe it, add to it, rename or delete it.
    refused = asyncio.run(choose(base, bo, [slug]))
    assert (refused["type"], refused["code"]) == ("error", "deck/unknown")
    status, answer = http(base, "POST", "/api/rooms", {"name": "Di", "settings": {"decks": [slug]}})
    assert (status, answer["code"]) == (400, "deck/unknown")
    card = mine["preview"][0]
    captions = {"token": bo["token"], "captions": {card: "mine now"}}
    assert http(base, "POST", f"/api/decks/{slug}/captions", captions)[0] == 404
    status, _ = upload(
        base, f"/api/decks/{slug}/cards", {"token": bo["token"]}, picture(1), "x.png"
    )
    assert status == 404
    assert http(base, "PATCH", f"/api/decks/{slug}", {"token": bo["token"], "name": "X"})[0] == 404
    assert http(base, "DELETE", f"/api/decks/{slug}", {"token": bo["token"]})[0] == 404
    assert listed(base, ann)[slug]["name"] == "Our holiday"  # nothing changed
    assert words(base, slug, ann)[1]["cards"][0]["description"] is None
    # Nor fetches its pictures, even knowing a card's id: 404, as for no card at all.
    assert picture_status(base, card, ann) == (200, "private, max-age=31536000, immutable")
    strangers: list[tuple[Message, ...]] = [
        (bo,), (bo_player,), (), (ann_player,), (forged,), (bo, bo_player, forged)
    ]  # fmt: skip
    for stranger in strangers:
        assert picture_status(base, card, *stranger)[0] == 404, stranger


def test_the_rooms_that_deal_from_it_read_it(server: ServerProcess) -> None:
    base = server.base
    ann = create_room(base, "Ann")
    slug = new_deck(base, ann, "Garden", 200)
    abe = join_room(base, ann["code"], "Abe")
    assert slug not in listed(base, abe)
    assert asyncio.run(choose(base, ann, [slug]))["type"] == "ack"
    # Now a player of that room (and only of that room) lists it and reads its words.
    theirs = listed(base, abe)[slug]
    assert not theirs["mine"] and len(theirs["preview"]) == 3
    assert words(base, slug, abe)[0] == 200
    watching, watch = http(base, "POST", f"/api/rooms/{ann['code']}/spectate", {})
    assert watching == 200
    card = theirs["preview"][0]
    assert picture_status(base, card, abe)[0] == 200  # a player of the room
    assert picture_status(base, card, watch)[0] == 200  # a spectator of the room (a TV)
    other = create_room(base, "Bo")
    assert slug not in listed(base, other)
    assert picture_status(base, card, other)[0] == 404
    assert picture_status(base, card, other, abe)[0] == 200  # any seat that sees it will do
    # A player is no uploader: they cannot change it.
    assert http(base, "DELETE", f"/api/decks/{slug}", {"token": abe["token"]})[0] == 404


def test_card_ids_of_an_upload_cannot_be_worked_out_from_the_pictures(
    server: ServerProcess,
) -> None:
    base = server.base
    ann, bo = create_room(base, "Ann"), create_room(base, "Bo")
    first, second = new_deck(base, ann, "Same", 300), new_deck(base, bo, "Same", 300)
    assert first != second
    hashes = [
        {c["id"].rsplit("-", 1)[1] for c in words(base, slug, who)[1]["cards"]}
        for slug, who in ((first, ann), (second, bo))
    ]
    assert len(hashes[0]) == 3 and not hashes[0] & hashes[1]  # same pictures, other ids


def test_the_uploader_adds_renames_and_deletes(server: ServerProcess) -> None:
    base = server.base
    ann = create_room(base, "Ann")
    slug = new_deck(base, ann, "Beach", 400)
    # One picture at a time goes into the same deck (no new deck each time).
    for seed in (410, 411):
        status, report = upload(
            base, f"/api/decks/{slug}/cards", {"token": ann["token"]}, picture(seed), "p.png"
        )
        assert status == 200 and report["slug"] == slug and report["accepted"] == 1, report
    status, report = upload(
        base, f"/api/decks/{slug}/cards", {"token": ann["token"]}, picture(410), "again.png"
    )
    assert status == 200 and report["accepted"] == 0
    assert report["rejected"][0]["reason"] == "duplicate"
    assert listed(base, ann)[slug]["card_count"] == 5
    assert sum(d["kind"] == "imported" for d in listed(base, ann).values()) >= 1
    status, info = http(base, "PATCH", f"/api/decks/{slug}", {"token": ann["token"], "name": "Sea"})
    assert status == 200 and info["name"] == "Sea" and info["mine"]
    assert listed(base, ann)[slug]["name"] == "Sea"
    cards = [c["id"] for c in words(base, slug, ann)[1]["cards"]]
    assert picture_status(base, cards[0], ann)[0] == 200
    status, answer = http(base, "DELETE", f"/api/decks/{slug}", {"token": ann["token"]})
    assert status == 200 and answer == {"deleted": slug}
    assert slug not in listed(base, ann)
    assert words(base, slug, ann)[0] == 404
    assert picture_status(base, cards[0], ann)[0] == 404


def test_built_in_and_operator_decks_stay_shared_and_unchangeable(
    server: ServerProcess,
) -> None:
    base = server.base
    ann = create_room(base, "Ann")
    shared = listed(base)
    assert shared and all(not d["mine"] for d in shared.values())
    builtin = next(iter(shared))
    assert listed(base, ann).keys() >= shared.keys()
    status, body = http(base, "DELETE", f"/api/decks/{builtin}", {"token": ann["token"]})
    assert (status, body["code"]) == (403, "deck/not_yours")
    status, body = http(
        base, "PATCH", f"/api/decks/{builtin}", {"token": ann["token"], "name": "Mine"}
    )
    assert (status, body["code"]) == (403, "deck/not_yours")
    assert builtin in listed(base)
    # A deck the operator imports with `dixit deck import` is shared with every host.
    archive = server.workdir / "operator.zip"
    archive.write_bytes(pictures_zip(3, 500))
    subprocess.run(
        [sys.executable, "-m", "dixit.cli.main", "deck", "import", str(archive),
         "--name", "Operator set", "--data-dir", str(server.workdir / "data")],
        check=True, capture_output=True,
    )  # fmt: skip
    operator = next(d for d in listed(base).values() if d["name"] == "Operator set")
    assert not operator["mine"] and words(base, operator["slug"])[0] == 200
    assert picture_status(base, operator["preview"][0]) == (
        200,
        "public, max-age=31536000, immutable",
    )
    status, body = http(base, "DELETE", f"/api/decks/{operator['slug']}", {"token": ann["token"]})
    assert (status, body["code"]) == (403, "deck/not_yours")
