"""The deck library: built-in generated decks plus decks imported by players.

Stable interface used by the server, the engine glue and the computer players:

* ``DeckLibrary(data_dir).list() -> list[DeckInfo]`` - built-in decks always come first, the
  recommended one (``"recommended": true`` in its ``deck.json``) first of all, then illustrated
  before generated. ``DeckInfo.kind`` is ``"illustrated"``, ``"generated"`` or ``"imported"``;
  ``DeckInfo.licence`` the deck's licence line.
* ``.default_slugs() -> list[str]`` - the decks a room deals from when its host chose none: the
  recommended built-in deck.
* ``.get(slug) -> Deck`` with ``Deck.cards: list[Card]``; ``Deck.card_ids`` for the engine.
* ``.cards_for(slugs) -> list[str]`` - the card ids of one or several decks (a room's choice).
* ``.card_image(card_id) -> Path`` - the WebP file to serve (``IMAGE_MEDIA_TYPE``) with
  ``CACHE_CONTROL`` headers; ids are content hashes, so the URL never says who holds a card.
* ``.import_path(path, name)`` / ``.import_bytes(data, filename, name, owner) -> ImportReport``;
  ``.add_bytes(slug, data, filename)`` adds pictures to an imported deck, ``.rename(slug, name)``
  renames one, ``.remove(slug)`` deletes one.
* A deck a host uploaded has an ``owner`` (the hash of the seat token that uploaded it) and is
  private: the server shows it only to its owner and the rooms that use it. Its card ids are
  keyed with a random secret of the deck, so that nobody can name a card without being shown it
  (a deck imported by the operator, ``dixit deck import``, has no owner and is shared).
* ``check_deck_size(card_count, required) -> SizeCheck`` - rule-agnostic minimum-size check.

Card ids are opaque strings ``<deck-slug>-<12 hex digits of the image's SHA-256>`` (of the
deck's secret and the image, for an owned deck): unique across decks, stable between runs.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import os
import re
import secrets
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from dixit.decks.importer import Collected, Rejection, collect_path, collect_zip, normalise

CACHE_CONTROL = "public, max-age=31536000, immutable"
CLUE_BANK = "clues.json"
KINDS = ("illustrated", "generated", "imported")
IMAGE_MEDIA_TYPE = "image/webp"

_SLUG_RE = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$")
_CARD_RE = re.compile(r"^(?P<slug>[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?)-(?P<hash>[0-9a-f]{12})$")


@dataclass(frozen=True)
class Card:
    """One card: opaque id, short title, alt text, and metadata (None when unknown)."""

    id: str
    title: str
    alt_text: str
    metadata: dict[str, Any] | None = None


@dataclass(frozen=True)
class DeckInfo:
    """A deck as listed: name, slug, card count, built-in or imported, kind and licence."""

    slug: str
    name: str
    card_count: int
    builtin: bool
    kind: str = "generated"
    licence: str = ""
    recommended: bool = False
    owner: str | None = None  # the uploader's token hash: a private deck

    @property
    def origin(self) -> str:
        return "built-in" if self.builtin else "imported"


@dataclass(frozen=True)
class Deck:
    """A deck's cards."""

    slug: str
    name: str
    builtin: bool
    cards: list[Card]
    directory: Path
    kind: str = "generated"
    licence: str = ""
    recommended: bool = False
    owner: str | None = None  # the uploader's token hash: a private deck

    @property
    def card_ids(self) -> list[str]:
        return [c.id for c in self.cards]

    def info(self) -> DeckInfo:
        return DeckInfo(
            self.slug,
            self.name,
            len(self.cards),
            self.builtin,
            self.kind,
            self.licence,
            self.recommended,
            self.owner,
        )


@dataclass
class ImportReport:
    """Outcome of an import: the new deck's slug, accepted cards, and rejected files."""

    name: str
    slug: str | None
    accepted: list[Card] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.accepted)

    def summary(self) -> str:
        lines = [
            f"{len(self.accepted)} card(s) imported into "
            f"{self.slug or '(no deck created)'}; {len(self.rejected)} file(s) rejected"
        ]
        lines += [f"  rejected {r.filename}: {r.reason} ({r.message})" for r in self.rejected]
        return "\n".join(lines)


@dataclass(frozen=True)
class SizeCheck:
    """Result of :func:`check_deck_size`."""

    ok: bool
    card_count: int
    required: int
    message: str

    @property
    def missing(self) -> int:
        return max(0, self.required - self.card_count)


def check_deck_size(card_count: int, required: int) -> SizeCheck:
    """Is a deck (or a union of decks) of ``card_count`` cards big enough?

    The caller (the rules engine) decides ``required`` from the player count and edition,
    e.g. players x hand size plus the cards needed for the rounds to be played.
    """
    if required < 0:
        raise ValueError("required must be >= 0")
    if card_count >= required:
        return SizeCheck(True, card_count, required, f"{card_count} cards, {required} needed")
    return SizeCheck(
        False,
        card_count,
        required,
        f"only {card_count} cards: {required} are needed, add {required - card_count} more "
        "or choose another deck as well",
    )


def slugify(name: str) -> str:
    """A lowercase ascii slug for a deck name."""
    s = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:40].strip("-")
    return s or "deck"


def builtin_root() -> Path:
    """Folder of the shipped decks (package data)."""
    return Path(str(resources.files("dixit.decks").joinpath("default")))


def _load_manifest(directory: Path, builtin: bool) -> Deck:
    raw = json.loads((directory / "deck.json").read_text("utf-8"))
    bank = _clue_bank(directory) if builtin else {}
    cards = []
    for c in raw["cards"]:
        meta = {k: v for k, v in c.items() if k not in ("id", "file")}
        if c["id"] in bank:
            meta["bank"] = bank[c["id"]]
        has_meta = builtin or bool(c.get("description"))
        cards.append(
            Card(
                id=c["id"],
                title=c.get("title") or "",
                alt_text=c.get("alt_text") or c.get("description") or c.get("title") or "A card",
                metadata=meta if has_meta else None,
            )
        )
    kind = raw.get("kind") or ("generated" if builtin else "imported")
    if kind not in KINDS:
        raise ValueError(f"{directory}: unknown deck kind {kind!r}")
    recommended = builtin and bool(raw.get("recommended"))
    licence = raw.get("license", "")
    owner = None if builtin else raw.get("owner")
    return Deck(
        raw["slug"], raw["name"], builtin, cards, directory, kind, licence, recommended, owner
    )


def _clue_bank(directory: Path) -> dict[str, Any]:
    """A built-in deck's clue bank (``clues.json``: card id -> language -> clues written from
    the picture, each ``{"clue", "kind", "anchor"}``), for computer storytellers only; it goes
    into each card's metadata as ``bank`` and nowhere else (no API answers it)."""
    path = directory / CLUE_BANK
    if not path.is_file():
        return {}
    cards: dict[str, Any] = json.loads(path.read_text("utf-8"))["cards"]
    return cards


class DeckLibrary:
    """All decks available to a server: built-in ones and those under ``data_dir/decks``."""

    def __init__(self, data_dir: Path, builtin_dir: Path | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.imported_dir = self.data_dir / "decks"
        self.builtin_dir = builtin_dir if builtin_dir is not None else builtin_root()
        self._lock = threading.Lock()
        self._cache: dict[str, Deck] = {}

    # ------------------------------------------------------------ reading

    def _deck_dirs(self) -> list[tuple[Path, bool]]:
        out: list[tuple[Path, bool]] = []
        for root, builtin in ((self.builtin_dir, True), (self.imported_dir, False)):
            if root.is_dir():
                dirs = sorted(d for d in root.iterdir() if (d / "deck.json").is_file())
                out += [(d, builtin) for d in dirs]
        return out

    def _load(self, directory: Path, builtin: bool) -> Deck:
        key = str(directory)
        deck = self._cache.get(key)
        if deck is None:
            deck = _load_manifest(directory, builtin)
            self._cache[key] = deck
        return deck

    def list(self) -> list[DeckInfo]:
        """Every deck: built-in ones (the recommended first, illustrated before generated),
        then imported ones, each group by slug."""
        infos = [self._load(d, b).info() for d, b in self._deck_dirs()]
        return sorted(
            infos, key=lambda i: (not i.builtin, not i.recommended, KINDS.index(i.kind), i.slug)
        )

    def default_slugs(self) -> builtins.list[str]:
        """The decks of a room whose host chose none: the recommended built-in deck where
        shipped, else the first listed deck (none: empty)."""
        listed = self.list()
        return [d.slug for d in listed if d.recommended] or [d.slug for d in listed[:1]]

    def get(self, slug: str) -> Deck:
        """The deck with this slug (``KeyError`` if none)."""
        if not _SLUG_RE.match(slug):
            raise KeyError(slug)
        for root, builtin in ((self.builtin_dir, True), (self.imported_dir, False)):
            d = root / slug
            if (d / "deck.json").is_file():
                return self._load(d, builtin)
        raise KeyError(slug)

    def cards_for(self, slugs: builtins.list[str]) -> builtins.list[str]:
        """Card ids of the chosen decks, in order, without duplicates."""
        seen: dict[str, None] = {}
        for slug in slugs:
            for cid in self.get(slug).card_ids:
                seen.setdefault(cid, None)
        return list(seen)

    def card(self, card_id: str) -> Card:
        """The card with this id (``KeyError`` if none)."""
        m = _CARD_RE.match(card_id)
        if not m:
            raise KeyError(card_id)
        for c in self.get(m.group("slug")).cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def card_image(self, card_id: str) -> Path:
        """Path of the card's WebP image. Ids are validated: no path can be smuggled in."""
        m = _CARD_RE.match(card_id)
        if not m:
            raise KeyError(card_id)
        deck = self.get(m.group("slug"))
        path = deck.directory / f"{card_id}.webp"
        if not path.is_file():
            raise KeyError(card_id)
        return path

    def _imported(self, slug: str) -> Deck:
        """An imported deck (``KeyError`` if unknown, ``PermissionError`` for a built-in one)."""
        deck = self.get(slug)
        if deck.builtin:
            raise PermissionError(f"{slug} is a built-in deck")
        return deck

    @contextmanager
    def _editing(self, deck: Deck) -> Iterator[dict[str, Any]]:
        """An imported deck's manifest to change under the lock: written back unless the
        change raises (then nothing is written)."""
        with self._lock:
            path = deck.directory / "deck.json"
            raw = json.loads(path.read_text("utf-8"))
            yield raw
            _write_json(path, raw)
            self._cache.pop(str(deck.directory), None)

    def remove(self, slug: str) -> None:
        """Delete an imported deck (built-in decks cannot be removed; ``KeyError`` if unknown)."""
        deck = self._imported(slug)
        with self._lock:
            self._cache.pop(str(deck.directory), None)
            shutil.rmtree(deck.directory)

    # ------------------------------------------------------------ importing

    def _unique_slug(self, name: str, private: bool = False) -> str:
        base = slugify(name)
        if private:  # not guessable from the name
            base = f"{base[:33].strip('-')}-{secrets.token_hex(3)}"
        taken = {d.name for d, _ in self._deck_dirs()}
        if self.builtin_dir.is_dir():
            taken |= {d.name for d in self.builtin_dir.iterdir()}
        slug, n = base, 2
        while slug in taken:
            slug = f"{base}-{n}"
            n += 1
        return slug

    def import_path(self, path: Path, name: str) -> ImportReport:
        """Import a folder of images, a zip, or a single image as a new deck called ``name``."""
        return self._store(collect_path(Path(path)), name)

    def import_bytes(
        self, data: bytes, filename: str, name: str, owner: str | None = None
    ) -> ImportReport:
        """Import an upload (a zip, or a single image) as a new deck called ``name``, private
        to ``owner`` when one is given."""
        return self._store(_collect_bytes(data, filename), name, owner)

    def add_bytes(self, slug: str, data: bytes, filename: str) -> ImportReport:
        """Add the pictures of an upload to an imported deck (``KeyError`` if unknown,
        ``PermissionError`` for a built-in deck); a picture it already has is rejected."""
        deck = self._imported(slug)
        col = _collect_bytes(data, filename)
        report = ImportReport(name=deck.name, slug=slug, rejected=list(col.rejected))
        with self._editing(deck) as raw:
            seen = {c["id"] for c in raw["cards"]}
            raw["cards"] += self._write_cards(col, raw, deck.directory, seen, report)
        return report

    def rename(self, slug: str, name: str) -> Deck:
        """Give an imported deck another name (its slug and card ids stay)."""
        with self._editing(self._imported(slug)) as raw:
            raw["name"] = " ".join(name.split())[:60] or raw["name"]
        return self.get(slug)

    def _store(self, col: Collected, name: str, owner: str | None = None) -> ImportReport:
        name = " ".join(name.split())[:60] or "Imported deck"
        report = ImportReport(name=name, slug=None, rejected=list(col.rejected))
        if not col.images:
            return report
        with self._lock:
            slug = self._unique_slug(name, private=owner is not None)
            self.imported_dir.mkdir(parents=True, exist_ok=True)
            tmp = Path(tempfile.mkdtemp(prefix=f".{slug}-", dir=self.imported_dir))
            try:
                manifest: dict[str, Any] = {"slug": slug, "name": name, "builtin": False}
                if owner is not None:
                    manifest |= {"owner": owner, "secret": secrets.token_hex(16)}
                manifest["cards"] = self._write_cards(col, manifest, tmp, set(), report)
                _write_json(tmp / "deck.json", manifest)
                os.replace(tmp, self.imported_dir / slug)
            except BaseException:
                shutil.rmtree(tmp, ignore_errors=True)
                raise
        report.slug = slug
        return report

    @staticmethod
    def _write_cards(
        col: Collected,
        manifest: dict[str, Any],
        directory: Path,
        seen: set[str],
        report: ImportReport,
    ) -> builtins.list[dict[str, Any]]:
        """Write each new picture of ``col`` into ``directory``; their manifest entries."""
        cards_json = []
        secret = str(manifest.get("secret", "")).encode()
        for img in col.images:
            cid = f"{manifest['slug']}-{hashlib.sha256(secret + img.webp).hexdigest()[:12]}"
            if cid in seen:
                report.rejected.append(
                    Rejection(img.source, "duplicate", "same picture as another file")
                )
                continue
            seen.add(cid)
            (directory / f"{cid}.webp").write_bytes(img.webp)
            base = Path(img.source).name
            caption = col.captions.get(base, "")
            title = Path(base).stem.replace("_", " ").replace("-", " ").strip()[:60]
            entry = {
                "id": cid,
                "file": f"{cid}.webp",
                "title": title,
                "description": caption,
                "alt_text": caption or title or "An imported card",
                "source": base,
            }
            cards_json.append(entry)
            report.accepted.append(
                Card(cid, title, entry["alt_text"], dict(entry) if caption else None)
            )
        return cards_json

    # ------------------------------------------------------------ captions (web helper)

    def set_captions(self, slug: str, captions: dict[str, str]) -> Deck:
        """Describe cards of an imported deck: ``{card_id: caption}``; an empty caption removes
        the card's description. ``KeyError`` for an unknown deck or card (nothing is written),
        ``PermissionError`` for a built-in deck."""
        with self._editing(self._imported(slug)) as raw:
            by_id = {c["id"]: c for c in raw["cards"]}
            unknown = [cid for cid in captions if cid not in by_id]
            if unknown:
                raise KeyError(unknown[0])
            for cid, caption in captions.items():
                entry = by_id[cid]
                text = " ".join(caption.split())
                entry["description"] = text
                entry["alt_text"] = text or entry.get("title") or "An imported card"
        return self.get(slug)


def _collect_bytes(data: bytes, filename: str) -> Collected:
    """The pictures (and captions) of an upload: a zip, or one image."""
    if data[:2] == b"PK":
        return collect_zip(data, filename)
    col = Collected()
    res = normalise(filename, data)
    if isinstance(res, Rejection):
        col.rejected.append(res)
    else:
        col.images.append(res)
    return col


def _write_json(path: Path, raw: dict[str, Any]) -> None:
    """Replace ``path`` whole: a reader sees the old file or the new one."""
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(raw, indent=1), "utf-8")
    os.replace(tmp, path)
