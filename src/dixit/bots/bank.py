"""Clue banks: clues written by people looking at a card's picture, per language.

Each built-in deck has one (``clues.json``, read by the deck library into the card's metadata
as ``bank``): for every card and each of the six languages, ten or more clues from literal to
poetic, each with its ``kind`` and the visible ``anchor`` it hangs on. Only storytellers draw on
it; no listener reads it (a listener that knew the storyteller's list would share a secret
vocabulary no person at the table has).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .text import LANGS

KINDS = ("thing", "feeling", "saying", "situation", "idea")


@dataclass(frozen=True, slots=True)
class BankClue:
    clue: str
    kind: str  # one of KINDS
    anchor: str  # what in the picture it hangs on (English)


def parse_bank(raw: Any) -> dict[str, tuple[BankClue, ...]]:
    """A card's ``bank`` metadata as clues per language (unknown languages, kinds and empty
    clues are left out)."""
    out: dict[str, tuple[BankClue, ...]] = {}
    if not isinstance(raw, Mapping):
        return out
    for lang in LANGS:
        items = raw.get(lang)
        if not isinstance(items, list):
            continue
        clues = tuple(
            BankClue(str(c["clue"]).strip(), str(c["kind"]), str(c.get("anchor", "")))
            for c in items
            if isinstance(c, Mapping) and str(c.get("clue", "")).strip() and c.get("kind") in KINDS
        )
        if clues:
            out[lang] = clues
    return out
