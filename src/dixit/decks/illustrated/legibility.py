"""Does a card read on a phone? Measures of a card at the table's size (240 x 360), and floors.

The eye judges every card; these numbers keep what the eye kept from sliding back:

* ``saturation``: mean HSV saturation, 0-255 (the official cards about 124).
* ``luma``: mean luminance, 0-255 (too dark or too pale to read below or above the floors).
* ``squint``: how different the big shapes are, what a person squinting at a thumbnail sees:
  the RMS colour distance (CIE L*a*b*, delta E) of the card reduced to 12 x 18 from its mean.
  A murky plate, a washed-out one and a uniformly busy engraving all score low; a figure
  against a sky, a red cloak in a green wood score high.
* ``blank``: share of the card that is empty paper (light, colourless, flat).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

TABLE_SIZE = (240, 360)
SQUINT_SIZE = (12, 18)


@dataclass(frozen=True)
class Floors:
    """What every card of a deck must reach."""

    min_saturation: float
    min_luma: float
    max_luma: float
    min_squint: float
    max_blank: float


# The watercolour decks: measured on the candidates judged by eye (docs/deck/README.md).
WATERCOLOUR_FLOORS = Floors(
    min_saturation=60, min_luma=80, max_luma=175, min_squint=16.5, max_blank=0.12
)
# The engravings have no colour to lean on: their shapes must carry more.
ENGRAVING_FLOORS = Floors(
    min_saturation=0, min_luma=80, max_luma=185, min_squint=15, max_blank=0.25
)


FLOORS = {"watercolour": WATERCOLOUR_FLOORS, "engraving": ENGRAVING_FLOORS}


@dataclass(frozen=True)
class Legibility:
    saturation: float
    luma: float
    squint: float
    blank: float

    def failures(self, floors: Floors) -> list[str]:
        """The floors this card misses, in words (empty: it passes)."""
        out = []
        if self.saturation < floors.min_saturation:
            out.append(f"saturation {self.saturation:.0f} < {floors.min_saturation:.0f}")
        if self.luma < floors.min_luma:
            out.append(f"too dark: luma {self.luma:.0f} < {floors.min_luma:.0f}")
        if self.luma > floors.max_luma:
            out.append(f"too pale: luma {self.luma:.0f} > {floors.max_luma:.0f}")
        if self.squint < floors.min_squint:
            out.append(f"no big shapes: squint {self.squint:.1f} < {floors.min_squint:g}")
        if self.blank > floors.max_blank:
            out.append(f"blank paper {self.blank:.0%} > {floors.max_blank:.0%}")
        return out


def _lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0-1) to CIE L*a*b* (D65)."""
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = (
        lin
        @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    )
    xyz /= np.array([0.9505, 1.0, 1.089])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack(
        [116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1
    )


def measure(card: Image.Image) -> Legibility:
    """The card's numbers at the size it has on a phone's table."""
    table = card.convert("RGB").resize(TABLE_SIZE, Image.Resampling.BOX)
    rgb = np.asarray(table, np.float64) / 255
    hsv = np.asarray(table.convert("HSV"), np.float64)
    lab = _lab(rgb)
    squint = _lab(np.asarray(table.resize(SQUINT_SIZE, Image.Resampling.BOX), np.float64) / 255)
    spread = float(np.sqrt(((squint - squint.mean((0, 1))) ** 2).sum(-1).mean()))
    lightness = lab[..., 0]
    grey = Image.fromarray(np.uint8(np.clip(lightness * 2.55, 0, 255)))
    local_mean = np.asarray(grey.filter(ImageFilter.BoxBlur(3)), np.float64) / 2.55
    flat = np.abs(lightness - local_mean) < 3
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    blank = float(((lightness > 82) & (chroma < 14) & flat).mean())
    return Legibility(
        saturation=float(hsv[..., 1].mean()),
        luma=float((rgb @ np.array([0.299, 0.587, 0.114])).mean() * 255),
        squint=spread,
        blank=blank,
    )
