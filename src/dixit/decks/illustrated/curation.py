"""``curation.json``: which plate goes in which illustrated deck, with its checked crop.

It is the source of truth for the shipped *Storybook* decks together with the per-card text in
their ``deck.json``; the original scans stay outside the repository (``../shared/art``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from dixit.decks.illustrated.process import TONES, Box, Tone


@dataclass(frozen=True)
class DeckSpec:
    slug: str
    name: str


@dataclass(frozen=True)
class CardSpec:
    """One curated card: the plate (manifest id), its deck, crop box and tone."""

    plate: int
    deck: str
    crop: Box
    tone: Tone
    note: str = ""


@dataclass(frozen=True)
class Curation:
    decks: list[DeckSpec]
    cards: list[CardSpec]
    rejected: dict[int, str]


def curation_path() -> Path:
    return Path(str(resources.files("dixit.decks.illustrated").joinpath("curation.json")))


def _card(raw: dict[str, Any], slugs: set[str]) -> CardSpec:
    crop = Box(**{k: int(raw["crop"][k]) for k in ("x", "y", "w", "h")})
    if raw["deck"] not in slugs:
        raise ValueError(f"plate {raw['plate']}: unknown deck {raw['deck']!r}")
    if raw["tone"] not in TONES:
        raise ValueError(f"plate {raw['plate']}: tone must be one of {TONES}")
    if not crop.is_2x3():
        raise ValueError(f"plate {raw['plate']}: crop {crop} is not 2:3")
    return CardSpec(int(raw["plate"]), raw["deck"], crop, raw["tone"], raw.get("note", ""))


def load_curation(path: Path | None = None) -> Curation:
    """Read and check ``curation.json`` (``ValueError`` on a bad entry or a repeated plate)."""
    raw = json.loads((path or curation_path()).read_text("utf-8"))
    decks = [DeckSpec(d["slug"], d["name"]) for d in raw["decks"]]
    slugs = {d.slug for d in decks}
    cards = [_card(c, slugs) for c in raw["cards"]]
    plates = [c.plate for c in cards]
    repeated = sorted({p for p in plates if plates.count(p) > 1})
    if repeated:
        raise ValueError(f"plates used twice: {repeated}")
    rejected = {int(k): str(v) for k, v in raw.get("rejected", {}).items()}
    return Curation(decks, cards, rejected)
