"""Pictures for the curator's eye: a plate with a pixel grid (to choose a crop), and a crop as
the card it makes, at the sizes a phone shows (the table's 240 x 360, the hand's 120 x 180)."""

from __future__ import annotations

from PIL import Image, ImageDraw

from dixit.decks.illustrated.grade import Treatment
from dixit.decks.illustrated.legibility import Legibility, measure
from dixit.decks.illustrated.process import Box, render_card

GRID_HEIGHT = 900
BACKGROUND = (30, 30, 34)
LABEL = (255, 230, 0)


def plate_with_grid(original: Image.Image, crop: Box | None = None) -> Image.Image:
    """The whole plate, ``GRID_HEIGHT`` tall, with a line and its pixel coordinate every 100
    original pixels (every 200 on big scans) and ``crop`` outlined."""
    w, h = original.size
    scale = GRID_HEIGHT / h
    img = original.convert("RGB").resize((round(w * scale), GRID_HEIGHT), Image.Resampling.LANCZOS)
    draw = ImageDraw.Draw(img)
    step = 100 if max(w, h) <= 1600 else 200
    for x in range(step, w, step):
        draw.line([(x * scale, 0), (x * scale, GRID_HEIGHT)], fill=(0, 255, 255), width=1)
        draw.text((x * scale + 2, 2), str(x), fill=LABEL)
    for y in range(step, h, step):
        draw.line([(0, y * scale), (img.width, y * scale)], fill=(0, 255, 255), width=1)
        draw.text((2, y * scale + 2), str(y), fill=LABEL)
    if crop is not None:
        x0, y0, x1, y1 = (v * scale for v in crop.pil())
        draw.rectangle([x0, y0, x1, y1], outline=(255, 40, 40), width=3)
    return img


def card_views(
    original: Image.Image, crop: Box, treatment: Treatment
) -> tuple[Image.Image, Legibility]:
    """The plate with the crop outlined, the graded card at 240 x 360 and at 120 x 180 side by
    side, and the card's legibility numbers."""
    card = render_card(original, crop, treatment)
    plate = plate_with_grid(original, crop).resize(
        (round(original.width * 360 / original.height), 360), Image.Resampling.LANCZOS
    )
    table = card.resize((240, 360), Image.Resampling.LANCZOS)
    hand = card.resize((120, 180), Image.Resampling.LANCZOS)
    out = Image.new("RGB", (plate.width + 240 + 120 + 40, 370), BACKGROUND)
    out.paste(plate, (5, 5))
    out.paste(table, (plate.width + 15, 5))
    out.paste(hand, (plate.width + 265, 5))
    return out, measure(card)
