"""GET /api/decks and /api/decks/{slug}/cards: decks to choose from, card words in the
viewer's language, public and cacheable; POST /api/decks/{slug}/captions: a host describes an
imported deck."""

from __future__ import annotations

import asyncio
import io
import json
import urllib.request
import uuid
import zipfile

from .harness import Client, ServerProcess, create_room, http, join_room, seats


def test_default_deck_cards_have_alt_text(server: ServerProcess) -> None:
    status, decks = http(server.base, "GET", "/api/decks")
    assert status == 200
    default = next(d for d in decks["decks"] if d["default"])
    with urllib.request.urlopen(f"{server.base}/api/decks/{default['slug']}/cards") as answer:
        assert answer.status == 200
        cache = answer.headers["Cache-Control"]
        body = json.loads(answer.read())
    assert "public" in cache and "max-age" in cache
    assert set(body) == {"slug", "lang", "cards"} and body["slug"] == default["slug"]
    cards = body["cards"]
    assert len(cards) == default["card_count"] >= 84
    assert len({c["id"] for c in cards}) == len(cards)
    for card in cards:
        assert set(card) == {"id", "title", "alt", "description", "credits"}
        assert card["id"].startswith(default["slug"] + "-")
        assert isinstance(card["alt"], str) and card["alt"].strip()


def test_every_deck_answers_deck_data_only(server: ServerProcess) -> None:
    """Each listed deck answers with its own cards and nothing about any room."""
    room = create_room(server.base, "Ann")
    status, decks = http(server.base, "GET", "/api/decks")
    slugs = [d["slug"] for d in decks["decks"]]
    for slug in slugs:
        status, body = http(server.base, "GET", f"/api/decks/{slug}/cards")
        assert status == 200
        assert all(c["id"].startswith(slug + "-") for c in body["cards"])
        text = json.dumps(body)
        assert room["code"] not in text and room["token"] not in text


def test_unknown_deck_is_404(server: ServerProcess) -> None:
    for slug in ("no-such-deck", "..", "Default-1"):
        status, body = http(server.base, "GET", f"/api/decks/{slug}/cards")
        assert status == 404, (slug, body)
        assert body["code"] == "deck/not_found" and body["message"]


def archive_with_one_caption() -> bytes:
    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(3):
            picture = io.BytesIO()
            Image.new("RGB", (400, 600), (60 * i, 90, 160)).save(picture, "PNG")
            zf.writestr(f"card_{i}.png", picture.getvalue())
        zf.writestr("captions.csv", "file,description\ncard_0.png,A red door in the sea\n")
    return archive.getvalue()


def import_deck(base: str, token: str, archive: bytes, name: str) -> str:
    boundary = uuid.uuid4().hex
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in {"name": name, "token": token}.items()
    )
    body += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.zip"\r\n'
        "Content-Type: application/zip\r\n\r\n"
    ).encode()
    body += archive + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        f"{base}/api/decks", data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as answer:
        slug: str = json.loads(answer.read())["slug"]
    return slug


def test_imported_deck_gives_its_captions_and_null_without(server: ServerProcess) -> None:
    ticket = create_room(server.base, "Ann")
    slug = import_deck(server.base, ticket["token"], archive_with_one_caption(), "Captioned")
    status, deck = http(server.base, "GET", f"/api/decks/{slug}/cards", headers=seats(ticket))
    assert status == 200 and deck["slug"] == slug and len(deck["cards"]) == 3
    alts = sorted((c["alt"] or "") for c in deck["cards"])
    assert alts == ["", "", "A red door in the sea"]
    assert sum(c["alt"] is None for c in deck["cards"]) == 2
    listed = next(
        d
        for d in http(server.base, "GET", "/api/decks", headers=seats(ticket))[1]["decks"]
        if d["slug"] == slug
    )
    assert listed["kind"] == "imported" and listed["described"] == 1 and not listed["default"]
    assert len(listed["preview"]) == 3


def test_deck_list_gives_kind_count_preview_and_one_default(server: ServerProcess) -> None:
    status, body = http(server.base, "GET", "/api/decks")
    assert status == 200
    decks = body["decks"]
    assert any(d["default"] for d in decks)
    for d in decks:
        assert d["kind"] in ("illustrated", "generated", "imported")
        assert 1 <= len(d["preview"]) <= 4 and len(set(d["preview"])) == len(d["preview"])
        assert all(cid.startswith(d["slug"] + "-") for cid in d["preview"])
        assert 0 <= d["described"] <= d["card_count"]
    builtin = [d for d in decks if d["kind"] != "imported"]
    assert builtin and all(d["described"] == d["card_count"] for d in builtin)


def test_host_captions_an_imported_deck(server: ServerProcess) -> None:
    host = create_room(server.base, "Ann")
    slug = import_deck(server.base, host["token"], archive_with_one_caption(), "To describe")
    cards = http(server.base, "GET", f"/api/decks/{slug}/cards", headers=seats(host))[1]["cards"]
    bare = [c["id"] for c in cards if c["alt"] is None]
    status, info = http(
        server.base, "POST", f"/api/decks/{slug}/captions",
        {"token": host["token"], "captions": {bare[0]: "  a blue   lantern ", bare[1]: "a fox"}},
    )  # fmt: skip
    assert status == 200, info
    assert info["slug"] == slug and info["described"] == 3
    words = http(server.base, "GET", f"/api/decks/{slug}/cards", headers=seats(host))[1]
    after = {c["id"]: c for c in words["cards"]}
    assert after[bare[0]]["alt"] == after[bare[0]]["description"] == "a blue lantern"
    assert after[bare[1]]["alt"] == "a fox"
    # An empty caption takes the description away again.
    status, info = http(
        server.base, "POST", f"/api/decks/{slug}/captions",
        {"token": host["token"], "captions": {bare[1]: ""}},
    )  # fmt: skip
    assert status == 200 and info["described"] == 2


def test_captions_refused_change_nothing(server: ServerProcess) -> None:
    host = create_room(server.base, "Ann")
    slug = import_deck(server.base, host["token"], archive_with_one_caption(), "Guarded")
    before = http(server.base, "GET", f"/api/decks/{slug}/cards", headers=seats(host))[1]
    some_id = before["cards"][0]["id"]
    guest = join_room(server.base, host["code"], "Bo")
    builtin = next(d for d in http(server.base, "GET", "/api/decks")[1]["decks"] if d["default"])
    cases = [
        (slug, guest["token"], {some_id: "x"}, 404, "deck/not_found"),  # not the uploader
        ("no-such-deck", host["token"], {some_id: "x"}, 404, "deck/not_found"),
        (
            slug,
            host["token"],
            {some_id: "x", f"{slug}-000000000000": "y"},
            400,
            "deck/unknown_card",
        ),
        (builtin["slug"], host["token"], {builtin["preview"][0]: "x"}, 409, "deck/not_imported"),
    ]
    for deck, token, captions, code, error in cases:
        status, body = http(
            server.base, "POST", f"/api/decks/{deck}/captions",
            {"token": token, "captions": captions},
        )  # fmt: skip
        assert status == code and body["code"] == error, (deck, body)
    assert http(server.base, "GET", f"/api/decks/{slug}/cards", headers=seats(host))[1] == before


def test_unknown_language_is_a_clear_error(server: ServerProcess) -> None:
    slug = http(server.base, "GET", "/api/decks")[1]["decks"][0]["slug"]
    status, body = http(server.base, "GET", f"/api/decks/{slug}/cards?lang=xx")
    assert status == 400 and body["code"] == "deck/bad_language"
    status, body = http(server.base, "GET", f"/api/decks/{slug}/cards?lang=it")
    assert status == 200 and body["lang"] == "it"


def test_computers_read_only_when_every_card_has_words_and_the_room_hears_new_captions(
    server: ServerProcess,
) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann")
        slug = import_deck(server.base, ticket["token"], archive_with_one_caption(), "Half told")
        builtin = next(
            d["slug"] for d in http(server.base, "GET", "/api/decks")[1]["decks"] if d["default"]
        )
        host = Client(server.ws_base, ticket)
        welcome = await host.connect()
        assert welcome["room"]["bots_can_read"]  # the default decks: every card described
        settings = {**welcome["room"]["settings"], "decks": [builtin, slug]}
        assert (await host.command("update_settings", settings=settings))["type"] == "ack"
        await host.drain()
        assert host.room is not None and not host.room["bots_can_read"]  # 2 of 3 have no words
        path = f"/api/decks/{slug}/cards"
        cards = http(server.base, "GET", path, headers=seats(ticket))[1]["cards"]
        bare = [c["id"] for c in cards if c["alt"] is None]
        captions = {"token": ticket["token"], "captions": {bare[0]: "a kite"}}
        assert http(server.base, "POST", f"/api/decks/{slug}/captions", captions)[0] == 200
        await host.drain(0.3)
        assert not host.room["bots_can_read"]  # one card still has none
        captions = {"token": ticket["token"], "captions": {bare[1]: "a moth"}}
        assert http(server.base, "POST", f"/api/decks/{slug}/captions", captions)[0] == 200
        update = await host.until(lambda m: m["type"] == "room" and m["room"]["bots_can_read"])
        assert update["room"]["settings"]["decks"] == [builtin, slug]
        await host.close()

    asyncio.run(main())
