"""The generated Dreamlands decks: varied compositions and card text in six languages."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from dixit.decks.compositions import COMPOSITIONS
from dixit.decks.generator import DEFAULT_SEED, render_card
from dixit.decks.lexicon import LANGS, MAX_ALT, captions, fill, nouns, words
from dixit.decks.library import builtin_root
from dixit.decks.motifs import MOTIFS
from dixit.decks.planner import _eligible, plan_decks

FIELDS = {"title", "description", "alt_text", "things", "themes", "moods"}
LEFTOVER = re.compile(r"[{}|]")
FR_NO_ELISION = re.compile(r"\b[DdQq]u?e une?\b")


def _clean(text: str, lang: str) -> bool:
    return not LEFTOVER.search(text) and not (lang == "fr" and FR_NO_ELISION.search(text))


@pytest.fixture(scope="module", params=[DEFAULT_SEED, 1, 99])
def plans(request: pytest.FixtureRequest) -> list:
    return plan_decks(request.param)


def test_no_composition_more_than_twice_and_never_the_same_staging(plans: list) -> None:
    for deck in plans:
        counts = Counter(c.composition for c in deck)
        for name, n in counts.items():
            assert n <= COMPOSITIONS[name].uses <= 2, name
        pairs = [(c.composition, c.variant) for c in deck]
        assert len(pairs) == len(set(pairs))


def test_the_two_cards_of_a_composition_are_staged_differently() -> None:
    deck = plan_decks(DEFAULT_SEED)[0]
    twice = [n for n, k in Counter(c.composition for c in deck).items() if k == 2]
    for name in sorted(twice)[:3]:
        a, b = (render_card(c)[1] for c in deck if c.composition == name)
        assert a["form"] != b["form"], name
        assert a["text"]["en"]["title"] != b["text"]["en"]["title"], name


def test_every_caption_exists_in_six_languages_and_fills_for_every_main_motif() -> None:
    caps = captions()
    assert set(caps) == set(COMPOSITIONS)
    for name, comp in COMPOSITIONS.items():
        cap = caps[name]
        assert all(len(cap.titles[lang]) == 2 for lang in LANGS), name
        mains = [m.name for m in MOTIFS.values() if _eligible(comp, m)]
        assert mains, name
        for form, by_lang in cap.forms.items():
            assert set(by_lang) == set(LANGS), (name, form)
            for lang in LANGS:
                for main in mains:
                    text = fill(by_lang[lang], lang, {"a": main, "b": "house"}, 5)
                    assert _clean(text, lang), (name, form, lang, text)


def test_every_motif_and_word_is_translated() -> None:
    assert all(set(nouns()[m]) == set(LANGS) for m in MOTIFS)
    for key, row in words().items():
        assert all(row[lang] for lang in LANGS), key
    used = {w for c in COMPOSITIONS.values() for w in (*c.themes, *c.moods, *c.things)}
    assert used <= set(words())


def test_a_card_is_regenerated_identically_with_its_text() -> None:
    plan = plan_decks(DEFAULT_SEED)[1][7]
    img1, meta1 = render_card(plan)
    img2, meta2 = render_card(plan)
    assert img1.tobytes() == img2.tobytes()
    assert meta1["text"] == meta2["text"] and set(meta1["text"]) == set(LANGS)


@pytest.mark.parametrize("slug", ["default-1", "default-2"])
def test_shipped_generated_cards_have_complete_six_language_text(slug: str) -> None:
    deck = json.loads((builtin_root() / slug / "deck.json").read_text("utf-8"))
    assert deck["kind"] == "generated" and len(deck["cards"]) == 84
    for card in deck["cards"]:
        text = card["text"]
        assert set(text) == set(LANGS), card["id"]
        assert text["en"]["title"] == card["title"]
        for lang in LANGS:
            t = text[lang]
            assert set(t) == FIELDS, (card["id"], lang)
            assert t["title"] and t["description"] and t["alt_text"], (card["id"], lang)
            assert len(t["alt_text"]) <= MAX_ALT, (card["id"], lang)
            assert 6 <= len(t["things"]) <= 15, (card["id"], lang, t["things"])
            assert 4 <= len(t["themes"]) <= 10, (card["id"], lang)
            assert 3 <= len(t["moods"]) <= 6, (card["id"], lang)
            for s in (t["title"], t["description"], *t["things"], *t["themes"], *t["moods"]):
                assert s.strip() and _clean(s, lang), (card["id"], lang, s)
