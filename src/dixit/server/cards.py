"""Where a game's card ids, images and words come from: the deck library, behind a small seam.

:class:`LibraryCards` adapts :class:`dixit.decks.DeckLibrary`. When the library has no deck at
all (a checkout whose default deck has not been generated yet), :class:`PlaceholderCards` deals
84 numbered cards drawn as simple SVGs, so a server always starts and games can be played.

A room that chooses no deck gets the library's default: the recommended built-in deck where
present, else the first deck. Card words come in the asked language from each card's ``text[lang]``
(fallback English, then the card's top-level English fields).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from dixit.decks import CACHE_CONTROL, IMAGE_MEDIA_TYPE, Deck, DeckLibrary, ImportReport

DeckKind = Literal["illustrated", "generated", "imported"]
PREVIEW_SIZE = 4


class UnknownDeck(Exception):
    pass


class UnknownCard(Exception):
    pass


class NotImported(Exception):
    """Captions can be written only for an imported deck."""


@dataclass(frozen=True)
class DeckSummary:
    slug: str
    name: str
    card_count: int
    kind: DeckKind = "generated"
    licence: str | None = None
    preview: tuple[str, ...] = ()
    described: int = 0
    default: bool = False
    owner: str | None = None  # the uploader's token hash: private to them and its rooms
    modified: float = 0.0  # when its manifest last changed (Unix time; 0: unknown)


@dataclass(frozen=True)
class Credits:
    artist: str
    work: str
    published: str | None


@dataclass(frozen=True)
class CardWords:
    """A card's words in one language from its deck's metadata (None where there is none)."""

    id: str
    title: str | None
    alt: str | None
    description: str | None = None
    credits: Credits | None = None


def words_in(card_id: str, title: str, meta: Mapping[str, Any] | None, lang: str) -> CardWords:
    """A card's words in ``lang``: its ``text[lang]``, else ``text["en"]``, else the card's
    top-level English fields; no alt text or description for a card without metadata."""
    if meta is None:
        return CardWords(card_id, title or None, None)
    texts = meta.get("text") or {}
    text: Mapping[str, Any] = texts.get(lang) or texts.get("en") or meta
    source = meta.get("source")
    credits = None
    if isinstance(source, Mapping) and source.get("artist"):
        published = source.get("published")
        credits = Credits(
            str(source["artist"]),
            str(source.get("work") or ""),
            str(published) if published else None,
        )
    return CardWords(
        card_id,
        text.get("title") or title or None,
        text.get("alt_text") or text.get("description") or None,
        text.get("description") or None,
        credits,
    )


def preview_of(card_ids: list[str]) -> tuple[str, ...]:
    """A few cards spread over the deck."""
    if len(card_ids) <= PREVIEW_SIZE:
        return tuple(card_ids)
    step = len(card_ids) // PREVIEW_SIZE
    return tuple(card_ids[i * step] for i in range(PREVIEW_SIZE))


@dataclass(frozen=True)
class CardImage:
    media_type: str
    path: Path | None = None
    content: bytes | None = None
    deck: str = ""  # the slug of the card's deck
    owner: str | None = None  # the deck's uploader (a token hash): a private picture


class CardSource(Protocol):
    cache_control: str

    def decks(self) -> list[DeckSummary]: ...

    def card_ids(self, slugs: list[str]) -> list[str]:
        """The cards of the chosen decks (empty list: the default deck); UnknownDeck if any
        slug is not known."""
        ...

    def image(self, card_id: str) -> CardImage | None: ...

    def card_words(self, slug: str, lang: str) -> list[CardWords]:
        """Every card of one deck with its words in ``lang``; UnknownDeck if not known."""
        ...

    def set_captions(self, slug: str, captions: dict[str, str]) -> int:
        """Describe cards of an imported deck; how many of its cards are described after it.
        UnknownDeck, UnknownCard or NotImported (nothing written)."""
        ...

    async def import_upload(
        self, data: bytes, filename: str, name: str, owner: str | None
    ) -> dict[str, object]:
        """A new deck of the upload's pictures, private to ``owner`` (a token hash)."""
        ...

    async def add_upload(self, slug: str, data: bytes, filename: str) -> dict[str, object]:
        """The upload's pictures added to an imported deck (UnknownDeck, NotImported)."""
        ...

    def rename(self, slug: str, name: str) -> None:
        """UnknownDeck or NotImported (nothing written)."""
        ...

    def remove(self, slug: str) -> None:
        """Delete an imported deck and its pictures (UnknownDeck, NotImported)."""
        ...


class PlaceholderCards:
    """84 numbered cards with drawn placeholder images, for a library without decks."""

    cache_control = "public, max-age=31536000, immutable"
    SLUG = "placeholder"

    def __init__(self, count: int = 84) -> None:
        self._ids = [
            f"{self.SLUG}-{hashlib.sha256(str(i).encode()).hexdigest()[:12]}" for i in range(count)
        ]
        self._number = {cid: i + 1 for i, cid in enumerate(self._ids)}

    def decks(self) -> list[DeckSummary]:
        name = "Numbered placeholder cards"
        return [
            DeckSummary(
                self.SLUG, name, len(self._ids), preview=preview_of(self._ids), default=True
            )
        ]

    def card_ids(self, slugs: list[str]) -> list[str]:
        for slug in slugs:
            if slug != self.SLUG:
                raise UnknownDeck(slug)
        return list(self._ids)

    def image(self, card_id: str) -> CardImage | None:
        number = self._number.get(card_id)
        if number is None:
            return None
        hue = (number * 47) % 360
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" '
            'viewBox="0 0 400 600">'
            f'<rect width="400" height="600" rx="24" fill="hsl({hue},55%,70%)"/>'
            f'<circle cx="200" cy="260" r="120" fill="hsl({(hue + 180) % 360},50%,60%)"/>'
            '<text x="200" y="300" font-size="120" text-anchor="middle" font-family="sans-serif" '
            f'fill="#222">{number}</text></svg>'
        )
        return CardImage("image/svg+xml", content=svg.encode())

    def card_words(self, slug: str, lang: str) -> list[CardWords]:
        if slug != self.SLUG:
            raise UnknownDeck(slug)
        return [CardWords(cid, None, None) for cid in self._ids]

    def set_captions(self, slug: str, captions: dict[str, str]) -> int:
        if slug != self.SLUG:
            raise UnknownDeck(slug)
        raise NotImported(slug)

    async def import_upload(
        self, data: bytes, filename: str, name: str, owner: str | None
    ) -> dict[str, object]:
        raise UnknownDeck("importing needs the deck library")

    async def add_upload(self, slug: str, data: bytes, filename: str) -> dict[str, object]:
        raise UnknownDeck(slug)

    def rename(self, slug: str, name: str) -> None:
        raise UnknownDeck(slug)

    def remove(self, slug: str) -> None:
        raise UnknownDeck(slug)


class LibraryCards:
    """The real decks (see the module docstring for the default). While the library has no
    deck at all, the placeholder deck stands in."""

    cache_control = CACHE_CONTROL

    def __init__(self, library: DeckLibrary) -> None:
        self.library = library
        self.placeholder = PlaceholderCards()

    def _listed(self) -> list[DeckSummary]:
        try:
            decks = [self.library.get(d.slug) for d in self.library.list()]
        except (OSError, ValueError, KeyError):
            return []
        defaults = self.library.default_slugs()
        return [self._summary(d, d.slug in defaults) for d in decks]

    @staticmethod
    def _summary(deck: Deck, default: bool) -> DeckSummary:
        head = _deck_head(deck.directory / "deck.json")
        kind: DeckKind = "imported"
        if deck.builtin:
            kind = "illustrated" if head.get("kind") == "illustrated" else "generated"
        licence = head.get("license") or head.get("licence")
        return DeckSummary(
            deck.slug,
            deck.name,
            len(deck.cards),
            kind,
            str(licence) if licence else None,
            preview_of(deck.card_ids),
            sum(1 for c in deck.cards if described(c.metadata)),
            default,
            deck.owner,
            _modified(deck.directory / "deck.json"),
        )

    def decks(self) -> list[DeckSummary]:
        return self._listed() or self.placeholder.decks()

    def card_ids(self, slugs: list[str]) -> list[str]:
        listed = self._listed()
        if not listed or slugs == [PlaceholderCards.SLUG]:
            return self.placeholder.card_ids(slugs)
        try:
            return self.library.cards_for(slugs or [d.slug for d in listed if d.default])
        except KeyError as missing:
            raise UnknownDeck(str(missing)) from None

    def image(self, card_id: str) -> CardImage | None:
        if card_id.startswith(PlaceholderCards.SLUG + "-"):
            return self.placeholder.image(card_id)
        try:
            path = self.library.card_image(card_id)
            deck = self.library.get(path.parent.name)
        except KeyError:
            return None
        return CardImage(IMAGE_MEDIA_TYPE, path=path, deck=deck.slug, owner=deck.owner)

    def _deck(self, slug: str) -> Deck:
        try:
            return self.library.get(slug)
        except (KeyError, OSError, ValueError):
            raise UnknownDeck(slug) from None

    def card_words(self, slug: str, lang: str) -> list[CardWords]:
        if slug == PlaceholderCards.SLUG:  # as card_ids deals it
            return self.placeholder.card_words(slug, lang)
        return [words_in(c.id, c.title, c.metadata, lang) for c in self._deck(slug).cards]

    def set_captions(self, slug: str, captions: dict[str, str]) -> int:
        if slug == PlaceholderCards.SLUG or self._deck(slug).builtin:
            raise NotImported(slug)
        try:
            deck = self.library.set_captions(slug, captions)
        except KeyError as missing:
            raise UnknownCard(str(missing)) from None
        return sum(1 for c in deck.cards if described(c.metadata))

    async def import_upload(
        self, data: bytes, filename: str, name: str, owner: str | None
    ) -> dict[str, object]:
        report = await asyncio.to_thread(self.library.import_bytes, data, filename, name, owner)
        return _report(report)

    def _imported(self, slug: str) -> Deck:
        if slug == PlaceholderCards.SLUG:
            raise NotImported(slug)
        deck = self._deck(slug)
        if deck.builtin:
            raise NotImported(slug)
        return deck

    async def add_upload(self, slug: str, data: bytes, filename: str) -> dict[str, object]:
        self._imported(slug)
        return _report(await asyncio.to_thread(self.library.add_bytes, slug, data, filename))

    def rename(self, slug: str, name: str) -> None:
        self._imported(slug)
        self.library.rename(slug, name)

    def remove(self, slug: str) -> None:
        self._imported(slug)
        self.library.remove(slug)


def _report(report: ImportReport) -> dict[str, object]:
    """What an upload answers: the deck, how many pictures it took, and the files it did not."""
    return {
        "name": report.name,
        "slug": report.slug,
        "accepted": len(report.accepted),
        "rejected": [
            {"filename": r.filename, "reason": r.reason, "message": r.message}
            for r in report.rejected
        ],
        "ok": report.ok,
    }


def described(meta: Mapping[str, Any] | None) -> bool:
    """Does a card's metadata give it text (a description, or words in some language)?"""
    return meta is not None and bool(meta.get("text") or meta.get("description"))


_heads: dict[Path, tuple[float, dict[str, Any]]] = {}


def _modified(manifest: Path) -> float:
    try:
        return manifest.stat().st_mtime
    except OSError:
        return 0.0


def _deck_head(manifest: Path) -> dict[str, Any]:
    """A deck's own fields (kind, licence) without its cards; read again when the file changes."""
    try:
        stamp = manifest.stat().st_mtime
    except OSError:
        return {}
    cached = _heads.get(manifest)
    if cached is None or cached[0] != stamp:
        raw = json.loads(manifest.read_text("utf-8"))
        cached = (stamp, {k: v for k, v in raw.items() if k != "cards"})
        _heads[manifest] = cached
    return cached[1]


def card_source(data_dir: Path) -> CardSource:
    return LibraryCards(DeckLibrary(data_dir))
