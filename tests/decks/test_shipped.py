"""The rendered default decks shipped with the package: complete, distinct, well-formed."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from dixit.decks import DeckLibrary, check_deck_size
from dixit.decks.compositions import COMPOSITIONS
from dixit.decks.library import CLUE_BANK, builtin_root
from dixit.decks.motifs import MOTIFS
from dixit.decks.palettes import PALETTE_BY_NAME, TIMES_OF_DAY
from dixit.decks.planner import MAX_PER_COMPOSITION

HEX = re.compile(r"^#[0-9a-f]{6}$")
ID = re.compile(r"^default-[12]-[0-9a-f]{12}$")


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> DeckLibrary:
    return DeckLibrary(tmp_path_factory.mktemp("data"))


def _size(path: Path) -> tuple[int, int]:
    """Width and height as the image header says (Pillow reads no pixels for this)."""
    with Image.open(path) as im:
        assert im.format == "WEBP", path
        return im.size


def test_two_builtin_decks_of_84_distinct_cards(lib: DeckLibrary) -> None:
    infos = [d for d in lib.list() if d.kind == "generated"]
    assert [d.slug for d in infos] == ["default-1", "default-2"]
    assert all(d.card_count == 84 for d in infos)
    ids = lib.cards_for(["default-1", "default-2"])
    assert len(ids) == len(set(ids)) == 168
    assert all(ID.match(i) for i in ids)


def test_every_card_has_complete_metadata(lib: DeckLibrary) -> None:
    for slug in ("default-1", "default-2"):
        for card in lib.get(slug).cards:
            m = card.metadata
            assert m is not None, card.id
            assert card.title and card.alt_text and m["description"], card.id
            assert m["motifs"] and all(x["name"] and x["role"] for x in m["motifs"]), card.id
            assert len(m["keywords"]) >= 5 and m["themes"] and m["moods"], card.id
            assert m["colours"] and all(HEX.match(c) for c in m["colours"]), card.id
            assert m["time_of_day"] in TIMES_OF_DAY
            assert PALETTE_BY_NAME[m["palette"]].time_of_day == m["time_of_day"]
            assert m["composition"] in COMPOSITIONS


def test_images_are_800x1200_webp_and_the_deck_is_small_enough(lib: DeckLibrary) -> None:
    total = 0
    for slug in ("default-1", "default-2"):
        for card in lib.get(slug).cards:
            path = lib.card_image(card.id)
            assert _size(path) == (800, 1200)
            total += path.stat().st_size
    assert total <= 25 * 1024 * 1024


def test_shipped_decks_respect_the_planner_constraints(lib: DeckLibrary) -> None:
    mains_all = []
    for slug in ("default-1", "default-2"):
        cards = lib.get(slug).cards
        comps = Counter(c.metadata["composition"] for c in cards if c.metadata)
        assert max(comps.values()) <= MAX_PER_COMPOSITION and len(comps) >= 20
        mains = [c.metadata["main_motif"] for c in cards if c.metadata]
        assert len(mains) == len(set(mains)) == 84
        assert all(m in MOTIFS for m in mains)
        mains_all += mains
    assert len(set(mains_all)) == 168


def test_no_stray_files_in_the_package() -> None:
    for deck_dir in builtin_root().iterdir():
        if deck_dir.is_dir():
            listed = {p.name for p in deck_dir.iterdir()}
            lib = DeckLibrary(Path("/nonexistent"))
            deck = lib.get(deck_dir.name)
            expected = {"deck.json", CLUE_BANK} | {f"{c.id}.webp" for c in deck.cards}
            assert listed == expected


def test_check_deck_size() -> None:
    assert check_deck_size(84, 84).ok
    small = check_deck_size(30, 42)
    assert not small.ok and small.missing == 12 and "12" in small.message
    with pytest.raises(ValueError):
        check_deck_size(10, -1)


def test_shipped_cards_are_reproducible_from_the_seed(lib: DeckLibrary) -> None:
    import numpy as np
    from PIL import Image

    from dixit.decks.generator import DEFAULT_SEED, render_card
    from dixit.decks.planner import plan_decks

    plans = plan_decks(DEFAULT_SEED)
    for d, slug in enumerate(("default-1", "default-2")):
        cards = lib.get(slug).cards
        assert [c.metadata["seed"] for c in cards if c.metadata] == [p.seed for p in plans[d]]
        plan = plans[d][5]
        img, meta = render_card(plan)
        shipped = cards[5]
        assert shipped.metadata is not None
        for key in ("title", "description", "motifs", "keywords", "composition", "palette"):
            assert meta[key] == shipped.metadata[key], key
        # Compare at thumbnail size: WebP noise and film grain average out, the picture does not.
        with Image.open(lib.card_image(shipped.id)) as im:
            old = np.asarray(im.convert("RGB").resize((80, 120), Image.Resampling.BOX), "f4")
        new = np.asarray(img.resize((80, 120), Image.Resampling.BOX), dtype=np.float32)
        assert float(np.abs(old - new).mean()) < 2.0
