"""One look per deck: the colour grade of the watercolour decks and the ink of the engravings.

A deck's cards come from a dozen books printed a century apart on papers gone cream, grey or
brown, with inks from washed-out to near-black. Each treatment brings every plate to the same
paper tone, the same black, a mid-tone that reads on a phone, the same local contrast and (for
colour) the same saturation, measuring each plate and correcting it towards fixed targets
instead of applying one fixed curve. Deterministic: numpy and Pillow only.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from PIL import Image, ImageFilter, ImageOps

Treatment = Literal["watercolour", "engraving"]
TREATMENTS: tuple[Treatment, ...] = ("watercolour", "engraving")

PAPER = np.array([0.957, 0.929, 0.863])  # the one paper tone of the watercolour decks
INK = 0.05  # their darkest shade (a printed black, not a screen black)
MID_TARGET = 0.46  # median luminance a plate is brought towards
GAMMA_RANGE = (0.68, 1.4)
CLARITY_RADIUS = 0.025  # of the card's width
CLARITY = 0.4
SATURATION_TARGET = 0.44  # mean HSV saturation (0-1) a faded plate is brought towards
MAX_VIBRANCE = 1.5

# The engravings' duotone: ink, half-tone and paper of an old sepia print.
SEPIA_INK = (40, 27, 18)
SEPIA_MID = (158, 127, 94)
SEPIA_PAPER = (247, 238, 219)

_LUMA = np.array([0.299, 0.587, 0.114])
Pixels = np.ndarray


def _luma(rgb: Pixels) -> Pixels:
    return np.asarray(rgb @ _LUMA)


def _scale_luma(rgb: Pixels, old: Pixels, new: Pixels) -> Pixels:
    """Change each pixel's luminance from ``old`` to ``new`` keeping its hue and saturation."""
    ratio = np.where(old > 1e-4, new / np.maximum(old, 1e-4), 1.0)
    return np.asarray(np.clip(rgb * ratio[..., None], 0.0, 1.0))


def _paper_balance(rgb: Pixels) -> Pixels:
    """White-balance the plate's paper (its lightest, least coloured tenth) to ``PAPER``."""
    luma = _luma(rgb)
    spread = rgb.max(-1) - rgb.min(-1)
    bright = luma >= np.percentile(luma, 90)
    plain = bright & (spread <= np.percentile(spread[bright], 50))
    if plain.sum() >= 50:
        ref = np.median(rgb[plain], axis=0)
    else:
        ref = np.percentile(rgb, 98, axis=(0, 1))
    gains = np.clip(PAPER / np.maximum(ref, 1e-3), 0.8, 1.35)
    return np.asarray(np.clip(rgb * gains, 0.0, 1.0))


def _levels(rgb: Pixels) -> Pixels:
    """Black to ``INK``, the lightest tones to the paper's luminance, then a gamma that brings
    the median luminance towards ``MID_TARGET`` (dark plates lifted, pale ones deepened)."""
    luma = _luma(rgb)
    lo = min(float(np.percentile(luma, 0.5)), 0.25)
    hi = max(float(np.percentile(luma, 99.7)), 0.75)
    top = float(PAPER @ _LUMA)
    stretched = np.clip((luma - lo) * (top - INK) / (hi - lo) + INK, 0.0, 1.0)
    rgb = _scale_luma(rgb, luma, stretched)
    # The picture's mid-tone, not the paper's: a vignette on a wide page is judged by its ink.
    picture = stretched[stretched < top - 0.06]
    median = float(np.median(picture if picture.size > stretched.size // 10 else stretched))
    unit = (median - INK) / (top - INK)
    target = (MID_TARGET - INK) / (top - INK)
    gamma = float(np.clip(np.log(target) / np.log(np.clip(unit, 0.02, 0.98)), *GAMMA_RANGE))
    curved = INK + (top - INK) * np.clip((stretched - INK) / (top - INK), 0.0, 1.0) ** gamma
    return _scale_luma(rgb, stretched, curved)


def _local_contrast(grey: Pixels, radius: float, amount: float) -> Pixels:
    """``grey`` with its difference from a blurred copy amplified (shapes read when small)."""
    img = Image.fromarray(np.uint8(np.clip(grey * 255 + 0.5, 0, 255)))
    blurred = np.asarray(img.filter(ImageFilter.GaussianBlur(radius)), np.float64) / 255
    return np.asarray(np.clip(grey + amount * (grey - blurred), 0.0, 1.0))


def _vibrance(rgb: Pixels) -> Pixels:
    """Raise saturation towards ``SATURATION_TARGET``, more for dull pixels than for vivid ones,
    sparing the paper and near-whites (snow, clouds) so they stay neutral."""
    hsv = np.asarray(Image.fromarray(np.uint8(rgb * 255 + 0.5)).convert("HSV"), np.float64) / 255
    sat, value = hsv[..., 1], hsv[..., 2]
    spare = np.clip((0.96 - value) / 0.2, 0.0, 1.0) * np.clip(sat / 0.12, 0.0, 1.0)

    def boosted(k: float) -> Pixels:
        return np.asarray(np.clip(sat * (1 + k * spare * (1 - sat)), 0.0, 1.0))

    lo, hi = 0.0, MAX_VIBRANCE
    if float(sat.mean()) < SATURATION_TARGET:
        for _ in range(16):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if float(boosted(mid).mean()) < SATURATION_TARGET else (lo, mid)
    hsv[..., 1] = boosted(lo)
    out = Image.fromarray(np.uint8(np.clip(hsv * 255 + 0.5, 0, 255)), "HSV").convert("RGB")
    return np.asarray(out, np.float64) / 255


def watercolour(img: Image.Image) -> Image.Image:
    """The watercolour decks' grade: one paper, one black, readable mid-tones, local contrast,
    and saturation lifted towards the official cards' (never lowered)."""
    rgb = np.asarray(img.convert("RGB"), np.float64) / 255
    rgb = _levels(_paper_balance(rgb))
    luma = _luma(rgb)
    rgb = _scale_luma(rgb, luma, _local_contrast(luma, CLARITY_RADIUS * img.width, CLARITY))
    return Image.fromarray(np.uint8(_vibrance(rgb) * 255 + 0.5))


def engraving(img: Image.Image) -> Image.Image:
    """Engravings and line art as one warm duotone: auto-contrast, mid-tones brought towards
    ``MID_TARGET``, local contrast, then ink, half-tone and paper of a sepia print."""
    grey = np.asarray(ImageOps.autocontrast(img.convert("L"), cutoff=(1.0, 0.5)), np.float64)
    grey /= 255
    median = float(np.clip(np.median(grey), 0.05, 0.95))
    gamma = float(np.clip(np.log(MID_TARGET + 0.1) / np.log(median), *GAMMA_RANGE))
    grey = _local_contrast(grey**gamma, CLARITY_RADIUS * img.width, CLARITY)
    toned = Image.fromarray(np.uint8(grey * 255 + 0.5))
    return ImageOps.colorize(toned, black=SEPIA_INK, white=SEPIA_PAPER, mid=SEPIA_MID)


def apply(img: Image.Image, treatment: Treatment) -> Image.Image:
    return watercolour(img) if treatment == "watercolour" else engraving(img)
