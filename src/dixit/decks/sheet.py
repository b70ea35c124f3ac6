"""Contact sheets: every card of a deck on one image, for reviewing the art."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from dixit.decks.library import Deck


def contact_sheet(
    deck: Deck, dest: Path, columns: int = 12, thumb_width: int = 150, gap: int = 6
) -> Path:
    """Write a JPEG (or PNG, by suffix) grid of all the deck's cards to ``dest``."""
    th = thumb_width * 3 // 2
    rows = max(1, -(-len(deck.cards) // columns))
    header = 40
    sheet = Image.new(
        "RGB",
        (columns * (thumb_width + gap) + gap, header + rows * (th + gap) + gap),
        (24, 22, 32),
    )
    draw = ImageDraw.Draw(sheet)
    draw.text(
        (gap + 4, 12), f"{deck.name} ({deck.slug}) - {len(deck.cards)} cards", fill=(230, 226, 240)
    )
    for i, card in enumerate(deck.cards):
        with Image.open(deck.directory / f"{card.id}.webp") as im:
            thumb = im.convert("RGB").resize((thumb_width, th), Image.Resampling.LANCZOS)
        x = gap + (i % columns) * (thumb_width + gap)
        y = header + gap + (i // columns) * (th + gap)
        sheet.paste(thumb, (x, y))
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.suffix.lower() in (".jpg", ".jpeg"):
        sheet.save(dest, "JPEG", quality=84, optimize=True)
    else:
        sheet.save(dest)
    return dest
