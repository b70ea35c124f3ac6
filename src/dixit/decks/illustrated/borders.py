"""Finding the book's mount, page border, frame rules and caption strips at a crop's edges.

A line of pixels (a row or a column) is *plain* when almost all of it is one shade: the cream
mount, a dark frame rule, the white page. A light line that is mostly one shade with some ink
(a printed caption) counts as plain too. Plain lines running in from an edge are a band to trim.
The detector only proposes: every card's crop is then checked by eye and recorded in
``curation.json``.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from dixit.decks.illustrated.process import Box

SIDES = ("top", "bottom", "left", "right")
MAX_BAND = 0.12  # a band is looked for in the outer 12% of each side
SHADE_TOLERANCE = 18  # grey levels around the line's median that count as "one shade"
PLAIN = 0.92  # share of a line in one shade
PLAIN_LIGHT = 0.78  # ... for a light line (paper with a printed caption)
BAND_FILL = 0.8  # share of plain lines in the band from the edge to its last plain line


def _plain_lines(grey: np.ndarray) -> np.ndarray:
    """For each row of ``grey`` (2D uint8): is it plain?"""
    med = np.median(grey, axis=1, keepdims=True)
    share = (np.abs(grey.astype(np.int16) - med) <= SHADE_TOLERANCE).mean(axis=1)
    light = med[:, 0] >= 170
    return np.asarray((share >= PLAIN) | (light & (share >= PLAIN_LIGHT)))


def band_depth(plain: np.ndarray) -> int:
    """How many lines from the edge belong to the band, given each line's plainness."""
    depth, count = 0, 0
    for i, is_plain in enumerate(plain):
        count += int(is_plain)
        if is_plain and count >= BAND_FILL * (i + 1):
            depth = i + 1
        elif count < BAND_FILL * (i + 1) - 3:
            break
    return depth


def edge_bands(original: Image.Image, crop: Box) -> dict[str, int]:
    """Depth in original pixels of the band at each side of ``crop`` (0: none)."""
    grey = np.asarray(original.convert("L").crop(crop.pil()))
    scale = max(1, crop.w // 400)
    small = grey[::scale, ::scale]
    h, w = small.shape
    dh, dw = int(h * MAX_BAND), int(w * MAX_BAND)
    views = {
        "top": small[:dh],
        "bottom": small[::-1][:dh],
        "left": small[:, :dw].T,
        "right": small[:, ::-1][:, :dw].T,
    }
    return {side: band_depth(_plain_lines(v)) * scale for side, v in views.items()}
