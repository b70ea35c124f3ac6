"""Builders of good and hostile image files for the deck tests."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image


def png_bytes(w: int = 600, h: int = 900, seed: int = 0, **save: object) -> bytes:
    rng = np.random.default_rng(seed)
    arr = (rng.random((h // 10 + 1, w // 10 + 1, 3)) * 255).astype(np.uint8)
    img = Image.fromarray(arr, "RGB").resize((w, h))
    buf = io.BytesIO()
    img.save(buf, "PNG", **save)
    return buf.getvalue()


def jpeg_bytes(w: int = 800, h: int = 800, seed: int = 1, **save: object) -> bytes:
    rng = np.random.default_rng(seed)
    arr = (rng.random((h, w, 3)) * 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr, "RGB").save(buf, "JPEG", quality=90, **save)
    return buf.getvalue()


def webp_bytes(w: int = 500, h: int = 750, seed: int = 2) -> bytes:
    rng = np.random.default_rng(seed)
    arr = (rng.random((h // 5, w // 5, 3)) * 255).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(arr, "RGB").resize((w, h)).save(buf, "WEBP", quality=80)
    return buf.getvalue()


def _chunk(kind: bytes, payload: bytes) -> bytes:
    body = kind + payload
    return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body))


def png_bomb(width: int = 10_000, height: int = 10_000, size: int = 12 * 1024) -> bytes:
    """A ~12 KB PNG whose header claims width x height pixels (100 megapixels)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    # A valid zlib stream start that would inflate to a lot of zero rows.
    idat = zlib.compress(b"\x00" * (4 * 1024 * 1024), 9)
    idat = (idat + b"\x00" * size)[: size - 60]
    return (
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")
    )


class Files:
    """The builders above, handed to tests as the ``files`` fixture."""

    png = staticmethod(png_bytes)
    jpeg = staticmethod(jpeg_bytes)
    webp = staticmethod(webp_bytes)
    png_bomb = staticmethod(png_bomb)


@pytest.fixture
def files() -> type[Files]:
    return Files
