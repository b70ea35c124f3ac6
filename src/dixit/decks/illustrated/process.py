"""From a scanned book plate to a card picture: crop, size, grade, sharpen, WebP.

Every step is deterministic (Pillow only), so the shipped cards can be rebuilt from the
original files and ``curation.json``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageFilter

from dixit.decks.illustrated.grade import Treatment, apply

CARD_WIDTHS = (800, 720, 600)  # the card is the first of these its crop reaches (else 600)
MIN_WIDTH = 600
MAX_UPSCALE = 1.5
WEBP_QUALITY = 76
SHARPEN_BELOW = 0.8  # sharpen cards enlarged or reduced by less than 1.25x


@dataclass(frozen=True)
class Box:
    """A crop box in the original's pixels."""

    x: int
    y: int
    w: int
    h: int

    def as_dict(self) -> dict[str, int]:
        return {"x": self.x, "y": self.y, "w": self.w, "h": self.h}

    def pil(self) -> tuple[int, int, int, int]:
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    def is_2x3(self) -> bool:
        return abs(self.w * 3 - self.h * 2) <= 3

    def inside(self, width: int, height: int) -> bool:
        return (
            self.x >= 0 and self.y >= 0 and self.x + self.w <= width and self.y + self.h <= height
        )


def card_width(crop_w: int) -> int:
    """The card's width for a crop ``crop_w`` pixels wide (its height is 1.5 times that)."""
    for width in CARD_WIDTHS:
        if crop_w >= width:
            return width
    return MIN_WIDTH


def upscale_factor(crop_w: int) -> float:
    """How much the crop is enlarged (1.0: not at all), rounded to 3 decimals."""
    return round(max(1.0, card_width(crop_w) / crop_w), 3)


def render_card(original: Image.Image, crop: Box, treatment: Treatment) -> Image.Image:
    """The card picture: ``crop`` of ``original`` at its card size, graded and sharpened."""
    if not crop.is_2x3():
        raise ValueError(f"crop {crop} is not 2:3")
    if not crop.inside(*original.size):
        raise ValueError(f"crop {crop} leaves the {original.size} picture")
    width = card_width(crop.w)
    if width / crop.w > MAX_UPSCALE + 1e-9:
        raise ValueError(f"crop {crop} would need a {width / crop.w:.2f}x upscale")
    img = original.convert("RGB").crop(crop.pil())
    img = img.resize((width, width * 3 // 2), Image.Resampling.LANCZOS)
    img = apply(img, treatment)
    if width < crop.w * SHARPEN_BELOW:
        return img  # a strong reduction with Lanczos is crisp already; sharpening adds bytes
    upscaled = width > crop.w
    return img.filter(
        ImageFilter.UnsharpMask(radius=1.2 if upscaled else 0.8, percent=60, threshold=3)
    )


def encode_webp(img: Image.Image, quality: int = WEBP_QUALITY) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "WEBP", quality=quality, method=5)
    return buf.getvalue()
