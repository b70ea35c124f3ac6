"""Pictures of the table for people watching a learner play: text, or an RGB frame."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from PIL import Image, ImageDraw

from dixit.engine import CardId, PlayerView

CARD_W, CARD_H, GAP = 120, 180, 8


def render_ansi(view: PlayerView) -> str:
    """A few lines: round, phase, storyteller and clue, the viewer's hand, the table, scores."""
    lines = [
        f"round {view.round} · {view.phase} · storyteller {view.storyteller or '(to claim)'}"
        f" · clue {view.clue!r}",
        f"{view.viewer} holds: {' '.join(view.hand or ())}",
        f"table: {' '.join(f'{i + 1}:{c}' for i, c in enumerate(view.table)) or '-'}",
        "scores: " + ", ".join(f"{p} {view.scores[p]}" for p in view.players),
    ]
    if view.winners:
        lines.append(f"winners: {', '.join(view.winners)}")
    return "\n".join(lines)


def _card(card: CardId, image: Callable[[CardId], Any] | None) -> Image.Image:
    if image is not None:
        picture = image(card)
        if picture is not None:
            source = picture if isinstance(picture, Image.Image) else Image.open(picture)
            return source.convert("RGB").resize((CARD_W, CARD_H))
    tile = Image.new("RGB", (CARD_W, CARD_H), (236, 228, 210))
    draw = ImageDraw.Draw(tile)
    draw.rectangle((2, 2, CARD_W - 3, CARD_H - 3), outline=(90, 70, 50), width=2)
    draw.text((10, CARD_H // 2 - 6), card[-12:], fill=(40, 30, 20))
    return tile


def _row(cards: Sequence[CardId], image: Callable[[CardId], Any] | None, width: int) -> Image.Image:
    row = Image.new("RGB", (width, CARD_H + 2 * GAP), (28, 36, 48))
    for i, card in enumerate(cards):
        row.paste(_card(card, image), (GAP + i * (CARD_W + GAP), GAP))
    return row


def render_rgb(
    view: PlayerView, image: Callable[[CardId], Any] | None = None
) -> npt.NDArray[np.uint8]:
    """The viewer's hand above the table, card pictures from ``image`` (a card id to a PIL image
    or a file path) or numbered tiles, as an (H, W, 3) uint8 array."""
    hand, table = tuple(view.hand or ()), view.table
    slots = max(len(hand), len(table), 1)
    width = GAP + slots * (CARD_W + GAP)
    frame = Image.new("RGB", (width, 2 * (CARD_H + 2 * GAP)), (28, 36, 48))
    frame.paste(_row(hand, image, width), (0, 0))
    frame.paste(_row(table, image, width), (0, CARD_H + 2 * GAP))
    return np.asarray(frame, dtype=np.uint8)
