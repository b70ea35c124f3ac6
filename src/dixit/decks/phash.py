"""Perceptual hashes of card pictures, to keep every built-in card distinct.

A DCT hash (pHash): the picture is reduced to a grey 32 x 32 thumbnail, transformed with a 2D
discrete cosine transform, and the 8 x 8 lowest frequencies but the constant one give 63 bits,
each saying whether that frequency is above their median. Re-encoding, resizing, a tint or a
crop shifted by a few per cent change few bits; another picture changes about half of them.
The threshold is justified, with measured distances, in docs/deck/README.md.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image

_N = 32
_LOW = 8
_K = np.arange(_N)
_DCT = np.cos(np.pi * (2 * _K[None, :] + 1) * _K[:, None] / (2 * _N))  # DCT-II basis, rows = k

# Two built-in cards must differ in more bits than SAME_PICTURE_BITS (a re-encoded, resized or
# tinted copy differs in at most 4); a card made from a book plate must differ from every other
# card in more than RECROPPED_BITS (the same plate cropped 3% apart: 99% within 12; different
# plates: at least 14).
SAME_PICTURE_BITS = 6
RECROPPED_BITS = 12


def phash(image: Image.Image) -> int:
    """The 63-bit DCT hash of ``image``."""
    grey = np.asarray(image.convert("L").resize((_N, _N), Image.Resampling.BOX), np.float64)
    low = (_DCT @ grey @ _DCT.T)[:_LOW, :_LOW].flatten()[1:]
    bits = 0
    for above in low > np.median(low):
        bits = (bits << 1) | int(above)
    return bits


def phash_file(path: Path) -> int:
    with Image.open(path) as im:
        return phash(im)


def distance(a: int, b: int) -> int:
    """Hamming distance: the number of differing bits."""
    return (a ^ b).bit_count()
