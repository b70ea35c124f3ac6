"""Rendering: reproducible from the seed, with complete metadata (a few cards only)."""

from __future__ import annotations

import io
import re

from PIL import Image

from dixit.decks.generator import card_id, encode_webp, render_card
from dixit.decks.planner import plan_decks

HEX = re.compile(r"^#[0-9a-f]{6}$")


def _sample() -> list:
    deck = plan_decks(7)[0]
    wanted = ["world_in_container", "night_inside", "false_reflection"]
    return [next(c for c in deck if c.composition == w) for w in wanted]


def test_same_plan_gives_same_bytes_and_metadata() -> None:
    for plan in _sample():
        img1, meta1 = render_card(plan)
        img2, meta2 = render_card(plan)
        b1, b2 = encode_webp(img1), encode_webp(img2)
        assert b1 == b2
        assert meta1 == meta2
        assert card_id("default-1", b1) == card_id("default-1", b2)


def test_cards_are_portrait_webp_and_differ() -> None:
    seen = set()
    for plan in _sample()[:2]:
        img, _ = render_card(plan)
        data = encode_webp(img)
        with Image.open(io.BytesIO(data)) as im:
            assert im.format == "WEBP"
            assert im.size == (800, 1200)
        seen.add(data)
    assert len(seen) == 2


def test_rendered_metadata_is_complete() -> None:
    plan = _sample()[0]
    _, meta = render_card(plan)
    assert meta["title"] and meta["description"] and meta["alt_text"]
    assert meta["composition"] == plan.composition
    assert meta["time_of_day"] == plan.time_of_day and meta["palette"] == plan.palette
    roles = {m["role"] for m in meta["motifs"]}
    assert "inside" in roles and "container" in roles
    assert all(m["name"] and m["role"] for m in meta["motifs"])
    assert len(meta["keywords"]) >= 5 and meta["themes"] and meta["moods"]
    assert meta["colours"] and all(HEX.match(c) for c in meta["colours"])
