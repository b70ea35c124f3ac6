"""GET /api/decks/{slug}/cards: a deck's titles and alt text, public and cacheable."""

from __future__ import annotations

import io
import json
import urllib.request
import uuid
import zipfile

from .harness import ServerProcess, create_room, http


def test_default_deck_cards_have_alt_text(server: ServerProcess) -> None:
    status, decks = http(server.base, "GET", "/api/decks")
    assert status == 200
    default = decks["decks"][0]
    with urllib.request.urlopen(f"{server.base}/api/decks/{default['slug']}/cards") as answer:
        assert answer.status == 200
        cache = answer.headers["Cache-Control"]
        body = json.loads(answer.read())
    assert "public" in cache and "max-age" in cache
    assert set(body) == {"slug", "cards"} and body["slug"] == default["slug"]
    cards = body["cards"]
    assert len(cards) == 84 == default["card_count"]
    assert len({c["id"] for c in cards}) == 84
    for card in cards:
        assert set(card) == {"id", "title", "alt"}
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


def test_imported_deck_gives_its_captions_and_null_without(server: ServerProcess) -> None:
    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(3):
            picture = io.BytesIO()
            Image.new("RGB", (400, 600), (60 * i, 90, 160)).save(picture, "PNG")
            zf.writestr(f"card_{i}.png", picture.getvalue())
        zf.writestr("captions.csv", "file,description\ncard_0.png,A red door in the sea\n")
    boundary = uuid.uuid4().hex
    token = create_room(server.base, "Ann")["token"]
    body = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in {"name": "Captioned", "token": token}.items()
    )
    body += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.zip"\r\n'
        "Content-Type: application/zip\r\n\r\n"
    ).encode()
    body += archive.getvalue() + f"\r\n--{boundary}--\r\n".encode()
    request = urllib.request.Request(
        f"{server.base}/api/decks", data=body, method="POST",
        headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as answer:
        slug = json.loads(answer.read())["slug"]
    status, deck = http(server.base, "GET", f"/api/decks/{slug}/cards")
    assert status == 200 and deck["slug"] == slug and len(deck["cards"]) == 3
    alts = sorted((c["alt"] or "") for c in deck["cards"])
    assert alts == ["", "", "A red door in the sea"]
    assert sum(c["alt"] is None for c in deck["cards"]) == 2
