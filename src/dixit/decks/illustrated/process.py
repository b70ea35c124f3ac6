"""From a scanned book plate to a card picture: crop, size, tone, sharpen, WebP.

Every step is deterministic (Pillow only), so the shipped cards can be rebuilt from the
original files and ``curation.json``.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageEnhance, ImageFilter, ImageOps

Tone = Literal["colour", "sepia"]
TONES: tuple[Tone, ...] = ("colour", "sepia")

CARD_WIDTHS = (800, 720, 600)  # the card is the first of these its crop reaches (else 600)
MIN_WIDTH = 600
MAX_UPSCALE = 1.5
WEBP_QUALITY = 76
SHARPEN_BELOW = 0.8  # sharpen cards enlarged or reduced by less than 1.25x

# The warm duotone for grey engravings: ink, half-tone and paper of an old sepia print.
SEPIA_INK = (40, 27, 18)
SEPIA_MID = (158, 127, 94)
SEPIA_PAPER = (247, 238, 219)
SEPIA_GAMMA = 0.8


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


def _percentile(hist: list[int], share: float) -> int:
    """The grey level below which ``share`` of a 256-bin histogram lies."""
    total, acc = sum(hist), 0
    for level, count in enumerate(hist):
        acc += count
        if acc >= total * share:
            return level
    return 255


def _neutralise_paper(img: Image.Image) -> Image.Image:
    """Half-way white balance on the paper: a print yellowed with age (its lightest tones far
    from grey) is pulled part of the way back; a print on white paper is left as it is."""
    lightest = [max(1, _percentile(img.getchannel(c).histogram(), 0.98)) for c in "RGB"]
    ref = max(lightest)
    gains = [min(1.25, (ref / v) ** 0.5) for v in lightest]
    luts = [min(255, round(i * g)) for g in gains for i in range(256)]
    return img.point(luts)


def _balance_colour(img: Image.Image) -> Image.Image:
    """Paper half-neutralised, mild auto-contrast on the luminance (same stretch on R, G and B,
    so hues stay), and a touch of saturation for faded prints."""
    img = _neutralise_paper(img)
    hist = img.convert("L").histogram()
    total = sum(hist)
    lo, hi, acc = 0, 255, 0
    for i, n in enumerate(hist):
        acc += n
        if acc >= total * 0.004:
            lo = i
            break
    acc = 0
    for i in range(255, -1, -1):
        acc += hist[i]
        if acc >= total * 0.004:
            hi = i
            break
    lo, hi = min(lo, 24), max(hi, 232)  # never stretch more than about 1.25x
    scale = 255 / max(1, hi - lo)
    lut = [max(0, min(255, round((i - lo) * scale))) for i in range(256)]
    return ImageEnhance.Color(img.point(lut * 3)).enhance(1.08)


def _sepia(img: Image.Image) -> Image.Image:
    """Grey engravings as warm duotones, so they sit among colour plates; the mid-tones are
    lifted (gamma 0.8) so dark engravings stay readable at phone size."""
    grey = ImageOps.autocontrast(img.convert("L"), cutoff=(1.0, 0.5))
    grey = grey.point([round(255 * (i / 255) ** SEPIA_GAMMA) for i in range(256)])
    return ImageOps.colorize(grey, black=SEPIA_INK, white=SEPIA_PAPER, mid=SEPIA_MID)


def render_card(original: Image.Image, crop: Box, tone: Tone) -> Image.Image:
    """The card picture: ``crop`` of ``original`` at its card size, toned and sharpened."""
    if not crop.is_2x3():
        raise ValueError(f"crop {crop} is not 2:3")
    if not crop.inside(*original.size):
        raise ValueError(f"crop {crop} leaves the {original.size} picture")
    width = card_width(crop.w)
    if width / crop.w > MAX_UPSCALE + 1e-9:
        raise ValueError(f"crop {crop} would need a {width / crop.w:.2f}x upscale")
    img = original.convert("RGB").crop(crop.pil())
    img = img.resize((width, width * 3 // 2), Image.Resampling.LANCZOS)
    img = _sepia(img) if tone == "sepia" else _balance_colour(img)
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
