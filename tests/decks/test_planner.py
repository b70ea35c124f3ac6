"""The deck planner: constraints over the full plan of both decks (no rendering)."""

from __future__ import annotations

from collections import Counter

import pytest

from dixit.decks.compositions import COMPOSITIONS
from dixit.decks.generator import DEFAULT_SEED
from dixit.decks.motifs import MOTIFS
from dixit.decks.palettes import PALETTE_BY_NAME, PALETTES, TIMES_OF_DAY
from dixit.decks.planner import DECK_SIZE, MAX_PER_COMPOSITION, plan_decks


@pytest.fixture(scope="module", params=[DEFAULT_SEED, 1, 99])
def plans(request: pytest.FixtureRequest) -> list:
    return plan_decks(request.param)


def test_at_least_fifty_composition_ideas() -> None:
    assert len(COMPOSITIONS) >= 50


def test_two_decks_of_84(plans: list) -> None:
    assert [len(d) for d in plans] == [DECK_SIZE, DECK_SIZE]
    assert [c.index for c in plans[0]] == list(range(DECK_SIZE))


def test_no_main_motif_repeats_in_a_deck_or_across_decks(plans: list) -> None:
    for deck in plans:
        mains = [c.main for c in deck]
        assert len(set(mains)) == len(mains)
    everything = [c.main for deck in plans for c in deck]
    assert len(set(everything)) == len(everything) >= 168


def test_composition_use_is_capped_and_varied(plans: list) -> None:
    for deck in plans:
        counts = Counter(c.composition for c in deck)
        assert max(counts.values()) <= MAX_PER_COMPOSITION
        assert len(counts) == len(COMPOSITIONS)


def test_times_of_day_and_palettes_are_balanced(plans: list) -> None:
    for deck in plans:
        times = Counter(c.time_of_day for c in deck)
        assert set(times) == set(TIMES_OF_DAY)
        assert max(times.values()) - min(times.values()) <= 3
        for t in TIMES_OF_DAY:
            pals = Counter(c.palette for c in deck if c.time_of_day == t)
            expected = {p.name for p in PALETTES if p.time_of_day == t}
            assert set(pals) == expected
            assert max(pals.values()) - min(pals.values()) <= 1


def test_every_card_fits_its_composition(plans: list) -> None:
    for deck in plans:
        for c in deck:
            comp = COMPOSITIONS[c.composition]
            assert c.time_of_day in comp.times
            assert PALETTE_BY_NAME[c.palette].time_of_day == c.time_of_day
            assert comp.kinds & MOTIFS[c.main].kinds
            assert c.main not in comp.exclude


def test_plan_is_deterministic_and_seed_dependent() -> None:
    assert plan_decks(5) == plan_decks(5)
    assert plan_decks(5) != plan_decks(6)


def test_every_composition_names_the_things_it_shows() -> None:
    assert all(c.things and all(c.things) for c in COMPOSITIONS.values())
