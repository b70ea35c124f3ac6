"""The folders of original scans (pools) and their manifests, read into one shape.

A pool is a folder with a ``manifest.json`` and its scans: ``public-domain`` (the first research
pass, in ``../shared/art``: ``{"images": [{"id", "file", "title", "work", ...}]}``),
``public-domain-2`` (the second, also in ``../shared/art``: a list of ``{"file", "book", "year",
"artist_died", ...}``) and ``public-domain-3`` (ours: the same list form, its manifest in
``tools/art``, its scans fetched by ``tools/art/fetch.py``). A plate is named by its pool and
number, ``public-domain-2/036``, in the curation and in each card's source.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

POOLS = ("public-domain", "public-domain-2", "public-domain-3")


@dataclass(frozen=True)
class Plate:
    """One original scan and what is known of it."""

    ref: str  # "<pool>/<number, 3 digits>"
    path: Path
    title: str
    work: str
    artist: str
    artist_death_year: int
    published: str
    source_repo: str
    source_path: str
    colour: bool


def plate_ref(pool: str, number: int) -> str:
    return f"{pool}/{number:03d}"


def _first_pool_plate(pool_dir: Path, p: dict[str, Any]) -> Plate:
    """A plate of the first research pass's manifest (``{"images": [...]}``)."""
    return Plate(
        ref=plate_ref(pool_dir.name, int(p["id"])),
        path=pool_dir / p["file"],
        title=p["title"],
        work=p["work"],
        artist=p["artist"],
        artist_death_year=int(p["artist_death_year"]),
        published=str(p["original_publication_year"]),
        source_repo=p["source_repo"],
        source_path=p["source_path"],
        colour=bool(p["colour"]),
    )


def _list_pool_plate(pool_dir: Path, p: dict[str, Any]) -> Plate:
    """A plate of a manifest in the list form (the second pass's and ours)."""
    return Plate(
        ref=plate_ref(pool_dir.name, int(p["file"][:3])),
        path=pool_dir / p["file"],
        title=f"plate {Path(p['source_path']).stem}",
        work=f"{p['book']}, PG #{p['gutenberg_number']}",
        artist=p["artist"],
        artist_death_year=int(p["artist_died"]),
        published=str(p["year"]),
        source_repo=p["source_repo"],
        source_path=p["source_path"],
        colour=bool(p["colour"]),
    )


def load_pools(art_roots: Iterable[Path]) -> dict[str, Plate]:
    """Every plate of the pools found under the ``art_roots`` (a pool found nowhere adds none;
    a pool's scans are read from the first root that holds its manifest)."""
    plates: dict[str, Plate] = {}
    roots = list(art_roots)
    for name in POOLS:
        for root in roots:
            manifest = root / name / "manifest.json"
            if manifest.is_file():
                raw = json.loads(manifest.read_text("utf-8"))
                if isinstance(raw, list):
                    found = [_list_pool_plate(manifest.parent, p) for p in raw]
                else:
                    found = [_first_pool_plate(manifest.parent, p) for p in raw["images"]]
                plates.update((plate.ref, plate) for plate in found)
                break
    return plates
