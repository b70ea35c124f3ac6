"""Where a game's card ids and images come from: the deck library, behind a small seam.

:class:`LibraryCards` adapts :class:`dixit.decks.DeckLibrary`. When the library has no deck at
all (a checkout whose default deck has not been generated yet), :class:`PlaceholderCards` deals
84 numbered cards drawn as simple SVGs, so a server always starts and games can be played.
"""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from dixit.decks import CACHE_CONTROL, IMAGE_MEDIA_TYPE, DeckLibrary


class UnknownDeck(Exception):
    pass


@dataclass(frozen=True)
class DeckSummary:
    slug: str
    name: str
    card_count: int


@dataclass(frozen=True)
class CardWords:
    """A card's title and alt text from its deck's metadata (None where there is none)."""

    id: str
    title: str | None
    alt: str | None


@dataclass(frozen=True)
class CardImage:
    media_type: str
    path: Path | None = None
    content: bytes | None = None


class CardSource(Protocol):
    cache_control: str

    def decks(self) -> list[DeckSummary]: ...

    def card_ids(self, slugs: list[str]) -> list[str]:
        """The cards of the chosen decks (empty list: the default deck); UnknownDeck if any
        slug is not known."""
        ...

    def image(self, card_id: str) -> CardImage | None: ...

    def card_words(self, slug: str) -> list[CardWords]:
        """Every card of one deck with its title and alt text; UnknownDeck if not known."""
        ...

    async def import_upload(self, data: bytes, filename: str, name: str) -> dict[str, object]: ...


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
        return [DeckSummary(self.SLUG, "Numbered placeholder cards", len(self._ids))]

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

    def card_words(self, slug: str) -> list[CardWords]:
        if slug != self.SLUG:
            raise UnknownDeck(slug)
        return [CardWords(cid, None, None) for cid in self._ids]

    async def import_upload(self, data: bytes, filename: str, name: str) -> dict[str, object]:
        raise UnknownDeck("importing needs the deck library")


class LibraryCards:
    """The real decks; the first listed (built-in) deck is the default. While the library has
    no deck at all, the placeholder deck stands in."""

    cache_control = CACHE_CONTROL

    def __init__(self, library: DeckLibrary) -> None:
        self.library = library
        self.placeholder = PlaceholderCards()

    def _listed(self) -> list[DeckSummary]:
        try:
            return [DeckSummary(d.slug, d.name, d.card_count) for d in self.library.list()]
        except (OSError, ValueError, KeyError):
            return []

    def decks(self) -> list[DeckSummary]:
        return self._listed() or self.placeholder.decks()

    def card_ids(self, slugs: list[str]) -> list[str]:
        listed = self._listed()
        if not listed or slugs == [PlaceholderCards.SLUG]:
            return self.placeholder.card_ids(slugs)
        try:
            return self.library.cards_for(slugs or [listed[0].slug])
        except KeyError as missing:
            raise UnknownDeck(str(missing)) from None

    def image(self, card_id: str) -> CardImage | None:
        if card_id.startswith(PlaceholderCards.SLUG + "-"):
            return self.placeholder.image(card_id)
        try:
            return CardImage(IMAGE_MEDIA_TYPE, path=self.library.card_image(card_id))
        except KeyError:
            return None

    def card_words(self, slug: str) -> list[CardWords]:
        if slug == PlaceholderCards.SLUG:  # as card_ids deals it
            return self.placeholder.card_words(slug)
        try:
            deck = self.library.get(slug)
        except (KeyError, OSError, ValueError):
            raise UnknownDeck(slug) from None
        return [
            CardWords(c.id, c.title or None, c.alt_text if c.metadata is not None else None)
            for c in deck.cards
        ]

    async def import_upload(self, data: bytes, filename: str, name: str) -> dict[str, object]:
        report = await asyncio.to_thread(self.library.import_bytes, data, filename, name)
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


def card_source(data_dir: Path) -> CardSource:
    return LibraryCards(DeckLibrary(data_dir))
