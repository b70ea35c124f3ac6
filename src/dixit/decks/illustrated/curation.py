"""``curation.json``: the illustrated decks, which plate goes in which, with its checked crop.

It is the source of truth for the shipped illustrated decks together with the per-card text in
their ``deck.json``; the original scans stay outside the repository (``../shared/art``). Each
deck has one treatment (its one look); each card names its plate (``public-domain-2/036``), the
SHA-1 of the scan its crop was chosen on, and why its crop is where it is when that is not
obvious. ``rejected`` keeps the reason for every plate looked at and left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from dixit.decks.illustrated.grade import TREATMENTS, Treatment
from dixit.decks.illustrated.process import Box

_REF = re.compile(r"^[a-z0-9-]+/\d{3}$")
_SHA1 = re.compile(r"^[0-9a-f]{40}$")


@dataclass(frozen=True)
class DeckSpec:
    slug: str
    name: str
    treatment: Treatment
    recommended: bool = False


@dataclass(frozen=True)
class CardSpec:
    """One curated card: the plate, its deck, the scan's SHA-1 and the crop box."""

    plate: str
    deck: str
    sha1: str
    crop: Box
    note: str = ""


@dataclass(frozen=True)
class Curation:
    decks: list[DeckSpec]
    cards: list[CardSpec]
    rejected: dict[str, str]

    def deck(self, slug: str) -> DeckSpec:
        (spec,) = (d for d in self.decks if d.slug == slug)
        return spec


def curation_path() -> Path:
    return Path(str(resources.files("dixit.decks.illustrated").joinpath("curation.json")))


def _deck(raw: dict[str, Any]) -> DeckSpec:
    if raw["treatment"] not in TREATMENTS:
        raise ValueError(f"deck {raw['slug']}: treatment must be one of {TREATMENTS}")
    return DeckSpec(raw["slug"], raw["name"], raw["treatment"], bool(raw.get("recommended")))


def _card(raw: dict[str, Any], slugs: set[str]) -> CardSpec:
    plate = str(raw["plate"])
    if not _REF.match(plate):
        raise ValueError(f"plate {plate!r}: not '<pool>/<3 digits>'")
    if raw["deck"] not in slugs:
        raise ValueError(f"plate {plate}: unknown deck {raw['deck']!r}")
    if not _SHA1.match(str(raw.get("sha1", ""))):
        raise ValueError(f"plate {plate}: no sha1 of its scan")
    crop = Box(**{k: int(raw["crop"][k]) for k in ("x", "y", "w", "h")})
    if not crop.is_2x3():
        raise ValueError(f"plate {plate}: crop {crop} is not 2:3")
    return CardSpec(plate, raw["deck"], raw["sha1"], crop, raw.get("note", ""))


def load_curation(path: Path | None = None) -> Curation:
    """Read and check ``curation.json`` (``ValueError`` on a bad entry or a repeated plate)."""
    raw = json.loads((path or curation_path()).read_text("utf-8"))
    decks = [_deck(d) for d in raw["decks"]]
    if sum(d.recommended for d in decks) != 1:
        raise ValueError("exactly one illustrated deck must be the recommended one")
    slugs = {d.slug for d in decks}
    cards = [_card(c, slugs) for c in raw["cards"]]
    plates = [c.plate for c in cards]
    repeated = sorted({p for p in plates if plates.count(p) > 1})
    if repeated:
        raise ValueError(f"plates used twice: {repeated}")
    rejected = {str(k): str(v) for k, v in raw.get("rejected", {}).items()}
    both = sorted(set(plates) & set(rejected))
    if both:
        raise ValueError(f"plates both kept and rejected: {both}")
    return Curation(decks, cards, rejected)
