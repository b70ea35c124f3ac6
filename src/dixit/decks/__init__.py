"""Decks: the generated default decks, imported decks, and the library serving both.

See :mod:`dixit.decks.library` for the interface other parts use.
"""

from dixit.decks.importer import Rejection
from dixit.decks.library import (
    CACHE_CONTROL,
    IMAGE_MEDIA_TYPE,
    Card,
    Deck,
    DeckInfo,
    DeckLibrary,
    ImportReport,
    SizeCheck,
    check_deck_size,
)

__all__ = [
    "CACHE_CONTROL",
    "IMAGE_MEDIA_TYPE",
    "Card",
    "Deck",
    "DeckInfo",
    "DeckLibrary",
    "ImportReport",
    "Rejection",
    "SizeCheck",
    "check_deck_size",
]
