"""Card words in the viewer's language, credits, and the default decks (cards.LibraryCards over a
small fixture library: an illustrated deck with six-language text, a generated one without)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dixit.decks import DeckLibrary
from dixit.server.cards import LibraryCards, NotImported, UnknownDeck

LANGS = ("it", "pl", "es", "pt", "fr", "en")


def _text(lang: str, n: int) -> dict[str, object]:
    return {
        "title": f"{lang} title {n}",
        "description": f"{lang} description {n}.",
        "alt_text": f"{lang} alt {n}",
        "things": ["moon"],
        "themes": ["night"],
        "moods": ["calm"],
    }


def _deck(
    root: Path, slug: str, kind: str, count: int, text: bool, langs=LANGS, recommended=False
) -> list[str]:
    d = root / slug
    d.mkdir(parents=True)
    cards = []
    for n in range(count):
        cid = f"{slug}-{n:012x}"
        (d / f"{cid}.webp").write_bytes(b"RIFF")
        card: dict[str, object] = {
            "id": cid, "file": f"{cid}.webp", "title": f"English {n}",
            "description": f"English description {n}.", "alt_text": f"English alt {n}",
        }  # fmt: skip
        if text:
            card["text"] = {lang: _text(lang, n) for lang in langs}
            card["source"] = {"artist": "Arthur Rackham", "work": "Peter Pan", "published": "1906"}
        cards.append(card)
    manifest = {"slug": slug, "name": slug.title(), "builtin": True, "kind": kind,
                "recommended": recommended, "license": "public domain", "cards": cards}  # fmt: skip
    (d / "deck.json").write_text(json.dumps(manifest), "utf-8")
    return [str(c["id"]) for c in cards]


@pytest.fixture
def cards(tmp_path: Path) -> LibraryCards:
    builtin = tmp_path / "builtin"
    _deck(builtin, "default-1", "generated", 9, text=False)
    _deck(builtin, "golden-tales", "illustrated", 6, text=True, recommended=True)
    _deck(builtin, "golden-tales-2", "illustrated", 5, text=True, langs=("en",))
    return LibraryCards(DeckLibrary(tmp_path / "data", builtin_dir=builtin))


def test_words_come_in_the_asked_language(cards: LibraryCards) -> None:
    for lang in LANGS:
        words = cards.card_words("golden-tales", lang)
        assert [w.alt for w in words] == [f"{lang} alt {n}" for n in range(6)]
        assert words[2].title == f"{lang} title 2"
        assert words[2].description == f"{lang} description 2."
        assert words[2].credits is not None and words[2].credits.artist == "Arthur Rackham"
        assert words[2].credits.work == "Peter Pan" and words[2].credits.published == "1906"


def test_missing_language_falls_back_to_english(cards: LibraryCards) -> None:
    assert cards.card_words("golden-tales-2", "pl")[0].alt == "en alt 0"
    plain = cards.card_words("default-1", "fr")[3]
    assert (plain.title, plain.alt, plain.credits) == ("English 3", "English alt 3", None)


def test_the_recommended_deck_is_the_default_and_listed_first_with_previews(
    cards: LibraryCards,
) -> None:
    listed = {d.slug: d for d in cards.decks()}
    assert [d.slug for d in cards.decks()] == ["golden-tales", "golden-tales-2", "default-1"]
    assert {s for s, d in listed.items() if d.default} == {"golden-tales"}
    assert listed["golden-tales"].kind == "illustrated" and listed["default-1"].kind == "generated"
    assert listed["golden-tales"].licence == "public domain"
    assert len(listed["default-1"].preview) == 4 and len(set(listed["default-1"].preview)) == 4
    assert listed["golden-tales-2"].described == 5
    dealt = cards.card_ids([])
    assert dealt == [f"golden-tales-{n:012x}" for n in range(6)]


def test_first_builtin_deck_is_the_default_without_a_recommended_one(tmp_path: Path) -> None:
    builtin = tmp_path / "builtin"
    _deck(builtin, "default-1", "generated", 4, text=False)
    _deck(builtin, "default-2", "generated", 4, text=False)
    cards = LibraryCards(DeckLibrary(tmp_path / "data", builtin_dir=builtin))
    assert [d.slug for d in cards.decks() if d.default] == ["default-1"]
    assert cards.card_ids([]) == [f"default-1-{n:012x}" for n in range(4)]


def test_captions_only_for_imported_decks_and_known_cards(cards: LibraryCards) -> None:
    with pytest.raises(NotImported):
        cards.set_captions("golden-tales", {"golden-tales-000000000000": "x"})
    with pytest.raises(UnknownDeck):
        cards.set_captions("nope", {"nope-000000000000": "x"})
    with pytest.raises(UnknownDeck):
        cards.card_words("nope", "en")
