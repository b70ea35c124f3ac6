"""The only counted texts the server makes for players: the generated decks' captions ({n})."""

from __future__ import annotations

import json
import re

import pytest

from dixit.decks.lexicon import LANGS, captions, fill, nouns
from dixit.decks.library import builtin_root

COUNTED = [
    (name, form, lang, template)
    for name, caption in captions().items()
    for form, by_lang in caption.forms.items()
    for lang, template in by_lang.items()
    if "{n}" in template
]


def test_some_captions_are_counted_in_every_language() -> None:
    assert {lang for _, _, lang, _ in COUNTED} >= set(LANGS) - {"pl"}
    assert len(COUNTED) >= 10


def test_polish_never_puts_a_number_before_a_noun() -> None:
    """After a number a Polish noun takes a case that depends on it (2 balony, 5 balonów);
    the slots are nominative, so a Polish caption says "(razem 5)" or leaves the number out."""
    polish = [t for name, form, lang, t in COUNTED if lang == "pl"]
    assert [t for t in polish if re.search(r"\{n\}\s*\{", t)] == []


@pytest.mark.parametrize("count", [2, 5, 22])
def test_a_counted_caption_reads_with_its_number(count: int) -> None:
    noun = next(iter(nouns()))
    for name, form, lang, template in COUNTED:
        text = fill(template, lang, {"a": noun, "b": noun}, count)
        assert str(count) in text and "{" not in text, (name, form, lang, text)


def test_the_shipped_generated_cards_count_two_or_more() -> None:
    """Captions put a plural noun after {n}, which is right because a scene never draws
    fewer than two: no shipped card says "1 balloons" (or "0")."""
    seen = 0
    for deck in ("default-1", "default-2"):
        cards = json.loads((builtin_root() / deck / "deck.json").read_text("utf-8"))["cards"]
        for card in cards:
            for m in re.finditer(r"\b(\d+) [a-z]", card["text"]["en"]["description"]):
                seen += 1
                assert int(m.group(1)) >= 2, (card["id"], card["text"]["en"]["description"])
    assert seen > 0
