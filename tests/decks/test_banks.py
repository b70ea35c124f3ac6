"""The clue banks of the built-in decks: every card, six languages, ten clues or more, of several
kinds, each with the visible thing it hangs on; and the library gives them to storytellers
only (card metadata), never to an API a client reads."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import fields
from pathlib import Path

import pytest

from dixit.bots.bank import KINDS
from dixit.bots.players import said_key
from dixit.decks import DeckLibrary
from dixit.decks.library import CLUE_BANK, builtin_root

LANGS = ("en", "it", "pl", "es", "pt", "fr")
DECKS = sorted(p.parent.name for p in builtin_root().glob("*/deck.json"))
MAX_CLUE = 60


@pytest.mark.parametrize("slug", DECKS)
def test_every_card_of_every_builtin_deck_has_its_bank(slug: str) -> None:
    folder = builtin_root() / slug
    cards = [c["id"] for c in json.loads((folder / "deck.json").read_text("utf-8"))["cards"]]
    bank = json.loads((folder / CLUE_BANK).read_text("utf-8"))["cards"]
    assert set(bank) == set(cards)
    for card in cards:
        for lang in LANGS:
            clues = bank[card][lang]
            assert len(clues) >= 10, (card, lang)
            kinds = Counter(c["kind"] for c in clues)
            assert set(kinds) <= set(KINDS) and len(kinds) >= 4, (card, lang, kinds)
            keys = [said_key(c["clue"]) for c in clues]
            assert len(keys) == len(set(keys)), (card, lang)
            for c in clues:
                assert 0 < len(c["clue"]) <= MAX_CLUE and c["anchor"].strip(), (card, lang, c)


def test_the_recommended_deck_is_a_builtin_deck(tmp_path: Path) -> None:
    recommended = DeckLibrary(tmp_path).default_slugs()
    assert recommended and set(recommended) <= set(DECKS)


@pytest.mark.parametrize("slug", DECKS)
def test_each_clue_of_a_builtin_deck_belongs_to_one_card(slug: str) -> None:
    """A clue hangs on one picture: in a built-in deck no clue (as compared for repeats) is in
    the bank of two cards in any language."""
    bank = json.loads((builtin_root() / slug / CLUE_BANK).read_text("utf-8"))["cards"]
    for lang in LANGS:
        owners: dict[str, set[str]] = {}
        for card, clues in bank.items():
            for c in clues[lang]:
                owners.setdefault(said_key(c["clue"]), set()).add(card)
        shared = {k: v for k, v in owners.items() if len(v) > 1}
        assert not shared, (slug, lang, shared)


def test_the_library_attaches_the_bank_to_card_metadata_only(tmp_path: Path) -> None:
    from dixit.server.cards import LibraryCards

    library = DeckLibrary(tmp_path)
    card = library.get("golden-tales").cards[0]
    assert card.metadata is not None and set(card.metadata["bank"]) == set(LANGS)
    words = LibraryCards(library).card_words("golden-tales", "en")[0]  # what the API answers
    assert {f.name for f in fields(words)} == {"id", "title", "alt", "description", "credits"}


def test_a_rebuilt_deck_keeps_its_bank_under_the_new_card_ids(tmp_path: Path) -> None:
    """Card ids change when a card is rebuilt; its bank follows its plate, also into another
    deck."""
    from dixit.decks.illustrated.build import _banks_by_plate, _write_banks

    old = tmp_path / "d"
    old.mkdir()
    cards = [{"id": "d-000000000001", "source": {"plate": "p/001"}},
             {"id": "d-000000000002", "source": {"plate": "p/002"}}]  # fmt: skip
    (old / "deck.json").write_text(json.dumps({"cards": cards}), "utf-8")
    clues = {"en": [{"clue": "x", "kind": "idea", "anchor": "y"}]}
    (old / CLUE_BANK).write_text(json.dumps({"cards": {"d-000000000002": clues}}), "utf-8")
    by_plate = _banks_by_plate(tmp_path)
    assert by_plate == {"p/002": clues}
    rebuilt = [{"id": "d-00000000000a", "source": {"plate": "p/002"}},
               {"id": "d-00000000000b", "source": {"plate": "p/003"}}]  # fmt: skip
    _write_banks(old, rebuilt, by_plate)
    assert json.loads((old / CLUE_BANK).read_text("utf-8")) == {"cards": {"d-00000000000a": clues}}
    other = tmp_path / "e"
    other.mkdir()
    _write_banks(other, [{"id": "e-00000000000c", "source": {"plate": "p/002"}}], by_plate)
    assert json.loads((other / CLUE_BANK).read_text("utf-8")) == {
        "cards": {"e-00000000000c": clues}
    }
