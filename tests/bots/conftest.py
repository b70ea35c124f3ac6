"""Decks for bot tests: the shipped generated deck, and small six-language decks of our own."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dixit.decks.library import builtin_root

LANGS = ("en", "it", "pl", "es", "pt", "fr")

# Two cards written for these tests, the same things in six languages (list items side by side).
LIGHTHOUSE = {
    "en": (
        "lighthouse in a storm",
        ["lighthouse", "waves", "storm"],
        ["hope", "guidance"],
        ["lonely"],
    ),
    "it": (
        "faro nella tempesta",
        ["faro", "onde", "tempesta"],
        ["speranza", "guida"],
        ["solitario"],
    ),
    "pl": (
        "latarnia morska w burzy",
        ["latarnia", "fale", "burza"],
        ["nadzieja", "przewodnik"],
        ["samotny"],
    ),
    "es": (
        "faro en la tormenta",
        ["faro", "olas", "tormenta"],
        ["esperanza", "guía"],
        ["solitario"],
    ),
    "pt": (
        "farol na tempestade",
        ["farol", "ondas", "tempestade"],
        ["esperança", "guia"],
        ["solitário"],
    ),
    "fr": (
        "phare dans la tempête",
        ["phare", "vagues", "tempête"],
        ["espoir", "guide"],
        ["solitaire"],
    ),
}
CAT = {
    "en": ("a cat asleep on books", ["cat", "books", "lamp"], ["reading", "rest"], ["cosy"]),
    "it": (
        "un gatto che dorme sui libri",
        ["gatto", "libri", "lampada"],
        ["lettura", "riposo"],
        ["accogliente"],
    ),
    "pl": (
        "kot śpiący na książkach",
        ["kot", "książki", "lampa"],
        ["czytanie", "odpoczynek"],
        ["przytulny"],
    ),
    "es": (
        "un gato dormido sobre libros",
        ["gato", "libros", "lámpara"],
        ["lectura", "descanso"],
        ["acogedor"],
    ),
    "pt": (
        "um gato a dormir sobre livros",
        ["gato", "livros", "candeeiro"],
        ["leitura", "descanso"],
        ["aconchegante"],
    ),
    "fr": (
        "un chat endormi sur des livres",
        ["chat", "livres", "lampe"],
        ["lecture", "repos"],
        ["douillet"],
    ),
}


def six_language_card(card_id: str, texts: dict[str, Any]) -> dict[str, Any]:
    text = {
        lang: {"title": title, "description": title + ".", "alt_text": title,
               "things": things, "themes": themes, "moods": moods}
        for lang, (title, things, themes, moods) in texts.items()
    }  # fmt: skip
    return {"id": card_id, "text": text}


@pytest.fixture(scope="session")
def generated_cards() -> list[dict[str, Any]]:
    """The shipped generated deck's cards (English metadata at the top level)."""
    data = json.loads((builtin_root() / "default-1" / "deck.json").read_text("utf-8"))
    cards: list[dict[str, Any]] = data["cards"]
    return cards
