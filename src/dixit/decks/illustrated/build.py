"""Build the illustrated decks (package data) from the original scans and ``curation.json``.

Inputs: the art root (its pools: ``manifest.json`` and the JPEG scans, ``../shared/art``), the
curation, and each card's six-language text: from the writers' per-plate files (``--meta-dir``)
or, by default, from the ``deck.json`` already shipped. Output: one folder per deck with
``<card id>.webp`` and ``deck.json``.
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
from dixit.decks.illustrated.legibility import FLOORS, measure
from dixit.decks.illustrated.pools import Plate, load_pools
from dixit.decks.illustrated.process import WEBP_QUALITY, encode_webp, render_card, upscale_factor
from dixit.decks.library import CLUE_BANK
from dixit.decks.phash import RECROPPED_BITS, distance, phash

LANGS = ("en", "it", "pl", "es", "pt", "fr")
TEXT_FIELDS = ("title", "description", "alt_text")
LIST_FIELDS = ("things", "themes", "moods")
CARD_LICENCE = "public domain"
DECK_LICENSE = (
    "Public domain (USA and life+70 countries). Book illustrations by artists who died in 1955 "
    "or earlier, first published before 1930 - see THIRD_PARTY_NOTICES"
)

Text = dict[str, dict[str, Any]]


class BuildError(ValueError):
    """Something in the inputs prevents a faithful build (message says what and where)."""


def check_text(plate: str, text: Any) -> Text:
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


def texts_from_meta(dirs: Iterable[Path]) -> dict[str, Text]:
    """Per-plate text from writers' ``*.json`` files, ``{"plate": "<pool>/NNN", "text": ...}``
    (later folders win)."""
    out: dict[str, Text] = {}
    for d in dirs:
        for path in sorted(Path(d).glob("*.json")):
            raw = json.loads(path.read_text("utf-8"))
            if raw.get("text"):
                out[str(raw["plate"])] = raw["text"]
    return out


def texts_from_decks(root: Path) -> dict[str, Text]:
    """Per-plate text from the illustrated decks already built under ``root``."""
    out: dict[str, Text] = {}
    for path in sorted(root.glob("*/deck.json")):
        raw = json.loads(path.read_text("utf-8"))
        if raw.get("kind") == "illustrated":
            for card in raw["cards"]:
                out[str(card["source"]["plate"])] = card["text"]
    return out


def _source(plate: Plate, spec: CardSpec) -> dict[str, Any]:
    return {
        "plate": spec.plate,
        "file": plate.path.name,
        "plate_title": plate.title,
        "work": plate.work,
        "artist": plate.artist,
        "artist_death_year": plate.artist_death_year,
        "published": plate.published,
        "source_repo": plate.source_repo,
        "source_path": plate.source_path,
        "sha1": spec.sha1,
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


def read_original(plate: Plate, sha1: str | None = None) -> Image.Image:
    """The scan, after checking (given ``sha1``) it is the very file the crop was chosen on."""
    data = plate.path.read_bytes()
    if sha1 is not None and hashlib.sha1(data).hexdigest() != sha1:
        raise BuildError(f"{plate.ref} ({plate.path.name}): sha1 differs from the curation's")
    img = Image.open(plate.path)
    img.load()
    return img


def _banks_by_plate(out: Path) -> dict[str, Any]:
    """The clue banks of the decks under ``out`` as they stand, by plate: card ids change when
    a card is rebuilt, and a plate may move to another deck."""
    banks: dict[str, Any] = {}
    for bank_file in sorted(out.glob(f"*/{CLUE_BANK}")):
        deck_file = bank_file.parent / "deck.json"
        if not deck_file.is_file():
            continue
        plate_of = {
            c["id"]: str(c["source"]["plate"])
            for c in json.loads(deck_file.read_text("utf-8"))["cards"]
            if "source" in c
        }
        bank = json.loads(bank_file.read_text("utf-8"))["cards"]
        banks.update({plate_of[cid]: clues for cid, clues in bank.items() if cid in plate_of})
    return banks


def _write_banks(folder: Path, cards: list[dict[str, Any]], banks: dict[str, Any]) -> None:
    """The bank again, under the rebuilt cards' ids (cards without one keep none)."""
    carried = {c["id"]: banks[c["source"]["plate"]] for c in cards if c["source"]["plate"] in banks}
    if carried or (folder / CLUE_BANK).exists():
        (folder / CLUE_BANK).write_text(
            json.dumps({"cards": carried}, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )


def build_decks(
    art_roots: list[Path],
    out: Path,
    curation: Curation,
    texts: dict[str, Text],
    plates: set[str] | None = None,
    quality: int = WEBP_QUALITY,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Render the curated cards (all, or only ``plates``) into ``out/<slug>/`` and return each
    deck's manifest. A deck folder's old WebP files are replaced."""
    pools = load_pools(art_roots)
    chosen = [c for c in curation.cards if plates is None or c.plate in plates]
    missing = [c.plate for c in chosen if c.plate not in texts]
    if missing:
        raise BuildError(f"no text for plates {missing}")
    absent = [c.plate for c in chosen if c.plate not in pools]
    if absent:
        raise BuildError(f"no scan under {', '.join(map(str, art_roots))} for plates {absent}")
    hashes: dict[str, tuple[str, int]] = {}
    illegible: list[str] = []
    banks = _banks_by_plate(out)
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
            plate = pools[spec.plate]
            img = render_card(read_original(plate, spec.sha1), spec.crop, spec_deck.treatment)
            failures = measure(img).failures(FLOORS[spec_deck.treatment])
            if failures:
                illegible.append(f"{spec.plate}: {', '.join(failures)}")
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
            "recommended": spec_deck.recommended,
            "license": DECK_LICENSE,
            "cards": cards,
        }
        (folder / "deck.json").write_text(
            json.dumps(deck, indent=1, ensure_ascii=False) + "\n", "utf-8"
        )
        _write_banks(folder, cards, banks)
        decks.append(deck)
    if illegible:
        raise BuildError("cards under their deck's legibility floors: " + "; ".join(illegible))
    close = [
        (pa, pb, distance(ha, hb))
        for (pa, ha), (pb, hb) in combinations(hashes.values(), 2)
        if distance(ha, hb) <= RECROPPED_BITS
    ]
    if close:
        raise BuildError(f"near-duplicate plates (plate, plate, bits): {close}")
    return decks
