"""Build the illustrated decks (package data) from the original scans and ``curation.json``.

Inputs: the art folder (``manifest.json`` and the JPEG scans, ``../shared/art/public-domain``),
the curation, and each card's six-language text: from the writers' per-plate files
(``--meta-dir``) or, by default, from the ``deck.json`` already shipped. Output: one folder per
deck with ``<card id>.webp`` and ``deck.json``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

from PIL import Image

from dixit.decks.illustrated.curation import CardSpec, Curation
from dixit.decks.illustrated.process import WEBP_QUALITY, encode_webp, render_card, upscale_factor
from dixit.decks.phash import RECROPPED_BITS, distance, phash

LANGS = ("en", "it", "pl", "es", "pt", "fr")
TEXT_FIELDS = ("title", "description", "alt_text")
LIST_FIELDS = ("things", "themes", "moods")
CARD_LICENCE = "public domain"
DECK_LICENSE = (
    "Public domain (USA and life+80 countries). Book illustrations by artists who died in 1945 "
    "or earlier, first published before 1930 - see THIRD_PARTY_NOTICES"
)

Text = dict[str, dict[str, Any]]


class BuildError(ValueError):
    """Something in the inputs prevents a faithful build (message says what and where)."""


def check_text(plate: int, text: Any) -> Text:
    """The six-language text of a card, checked: every language, every field, non-empty."""
    if not isinstance(text, dict):
        raise BuildError(f"plate {plate}: no text")
    for lang in LANGS:
        entry = text.get(lang)
        if not isinstance(entry, dict):
            raise BuildError(f"plate {plate}: no {lang!r} text")
        for key in TEXT_FIELDS:
            if not isinstance(entry.get(key), str) or not entry[key].strip():
                raise BuildError(f"plate {plate}: {lang}.{key} is missing or empty")
        for key in LIST_FIELDS:
            items = entry.get(key)
            if not isinstance(items, list) or not items:
                raise BuildError(f"plate {plate}: {lang}.{key} is missing or empty")
            if not all(isinstance(s, str) and s.strip() for s in items):
                raise BuildError(f"plate {plate}: {lang}.{key} has an empty item")
    return {lang: text[lang] for lang in LANGS}


def texts_from_meta(dirs: Iterable[Path]) -> dict[int, Text]:
    """Per-plate text from writers' ``NNN.json`` files (later folders win)."""
    out: dict[int, Text] = {}
    for d in dirs:
        for path in sorted(Path(d).glob("[0-9][0-9][0-9].json")):
            raw = json.loads(path.read_text("utf-8"))
            if raw.get("text"):
                out[int(raw["plate"])] = raw["text"]
    return out


def texts_from_decks(root: Path) -> dict[int, Text]:
    """Per-plate text from the illustrated decks already built under ``root``."""
    out: dict[int, Text] = {}
    for path in sorted(root.glob("*/deck.json")):
        raw = json.loads(path.read_text("utf-8"))
        if raw.get("kind") == "illustrated":
            for card in raw["cards"]:
                out[int(card["source"]["plate"])] = card["text"]
    return out


def load_manifest(art_dir: Path) -> dict[int, dict[str, Any]]:
    raw = json.loads((art_dir / "manifest.json").read_text("utf-8"))
    return {int(p["id"]): p for p in raw["images"]}


def _source(plate: dict[str, Any], spec: CardSpec) -> dict[str, Any]:
    return {
        "plate": spec.plate,
        "file": plate["file"],
        "plate_title": plate["title"],
        "work": plate["work"],
        "artist": plate["artist"],
        "artist_death_year": int(plate["artist_death_year"]),
        "published": str(plate["original_publication_year"]),
        "source_repo": plate["source_repo"],
        "source_path": plate["source_path"],
        "sha1": plate["sha1"],
        "crop": spec.crop.as_dict(),
        "upscale": upscale_factor(spec.crop.w),
    }


def card_entry(card_id: str, text: Text, source: dict[str, Any]) -> dict[str, Any]:
    """A card of ``deck.json``: English fields on top (as the generated decks), then all six."""
    en = text["en"]
    return {
        "id": card_id,
        "file": f"{card_id}.webp",
        "title": en["title"],
        "description": en["description"],
        "alt_text": en["alt_text"],
        "keywords": list(en["things"]),
        "themes": list(en["themes"]),
        "moods": list(en["moods"]),
        "text": text,
        "source": source,
        "licence": CARD_LICENCE,
    }


def read_original(art_dir: Path, plate: dict[str, Any]) -> Image.Image:
    """The scan, after checking it is the very file the manifest describes."""
    data = (art_dir / plate["file"]).read_bytes()
    if hashlib.sha1(data).hexdigest() != plate["sha1"]:
        raise BuildError(f"{plate['file']}: sha1 differs from the manifest")
    img = Image.open(art_dir / plate["file"])
    img.load()
    return img


def build_decks(
    art_dir: Path,
    out: Path,
    curation: Curation,
    texts: dict[int, Text],
    plates: set[int] | None = None,
    quality: int = WEBP_QUALITY,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Render the curated cards (all, or only ``plates``) into ``out/<slug>/`` and return each
    deck's manifest. A deck folder's old WebP files are replaced."""
    manifest = load_manifest(art_dir)
    chosen = [c for c in curation.cards if plates is None or c.plate in plates]
    missing = [c.plate for c in chosen if c.plate not in texts]
    if missing:
        raise BuildError(f"no text for plates {missing}")
    hashes: dict[str, tuple[int, int]] = {}
    decks = []
    for spec_deck in curation.decks:
        specs = [c for c in chosen if c.deck == spec_deck.slug]
        if not specs:
            continue
        folder = out / spec_deck.slug
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("*.webp"):
            old.unlink()
        cards = []
        for i, spec in enumerate(specs, 1):
            plate = manifest[spec.plate]
            img = render_card(read_original(art_dir, plate), spec.crop, spec.tone)
            data = encode_webp(img, quality)
            card_id = f"{spec_deck.slug}-{hashlib.sha256(data).hexdigest()[:12]}"
            (folder / f"{card_id}.webp").write_bytes(data)
            hashes[card_id] = (spec.plate, phash(img))
            cards.append(
                card_entry(card_id, check_text(spec.plate, texts[spec.plate]), _source(plate, spec))
            )
            if progress:
                progress(spec_deck.slug, i, len(specs))
        deck = {
            "slug": spec_deck.slug,
            "name": spec_deck.name,
            "builtin": True,
            "kind": "illustrated",
            "license": DECK_LICENSE,
            "cards": cards,
        }
        (folder / "deck.json").write_text(
            json.dumps(deck, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )
        decks.append(deck)
    close = [
        (pa, pb, distance(ha, hb))
        for (pa, ha), (pb, hb) in combinations(hashes.values(), 2)
        if distance(ha, hb) <= RECROPPED_BITS
    ]
    if close:
        raise BuildError(f"near-duplicate plates (plate, plate, bits): {close}")
    return decks
