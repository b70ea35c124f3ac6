"""Procedural painting: skies, moons, stars, clouds, hills, water, mist, grain, and sprites.

A :class:`Canvas` is a float32 RGB array in [0, 1] (rows, cols, 3). Sprites are float32 RGBA
arrays rendered from the motif catalog with resvg, then made to look hand-painted (wobbly
edges, soft texture). Everything random takes a ``numpy.random.Generator`` so a card is
reproducible from its seed.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import resvg_py
from numpy.typing import NDArray
from PIL import Image

from dixit.decks.catalog import load_catalog

Array = NDArray[np.float32]
RGB = tuple[float, float, float]

WIDTH = 800
HEIGHT = 1200


def hex_rgb(h: str) -> RGB:
    """``"#rrggbb"`` to floats in [0, 1]."""
    h = h.lstrip("#")
    return (int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255)


def rgb_hex(c: Sequence[float]) -> str:
    """Floats in [0, 1] to ``"#rrggbb"``."""
    return "#" + "".join(f"{round(max(0.0, min(1.0, float(v))) * 255):02x}" for v in c[:3])


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend of two colours."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t)


def _box(a: Array, r: int, axis: int) -> Array:
    """Box filter of radius ``r`` along ``axis`` (edges clamped)."""
    if r < 1:
        return a
    pad = [(0, 0), (0, 0)]
    pad[axis] = (r + 1, r)
    b = np.pad(a, pad, mode="edge")
    cs = np.cumsum(b, axis=axis, dtype=np.float64)
    n = a.shape[axis]
    hi = np.take(cs, np.arange(2 * r + 1, 2 * r + 1 + n), axis=axis)
    lo = np.take(cs, np.arange(0, n), axis=axis)
    return ((hi - lo) / (2 * r + 1)).astype(np.float32)


def _blur(a: Array, radius: float) -> Array:
    """Approximate Gaussian blur of a 2-D float array (three box passes)."""
    if radius <= 0:
        return a
    h, w = a.shape
    scale = max(1, int(radius // 4))
    src = a.astype(np.float32)
    if scale > 1:
        img = Image.fromarray(src, mode="F")
        src = np.asarray(
            img.resize((max(1, w // scale), max(1, h // scale)), Image.Resampling.BILINEAR),
            dtype=np.float32,
        )
    r = max(1, round(radius / scale * 0.58))
    for _ in range(3):
        src = _box(_box(src, r, 0), r, 1)
    if scale > 1:
        src = np.asarray(
            Image.fromarray(src, mode="F").resize((w, h), Image.Resampling.BILINEAR),
            dtype=np.float32,
        )
    return src


def noise(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 4) -> Array:
    """Smooth fractal value noise in [0, 1], features about ``cell`` pixels wide."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
        grid = rng.random((gh, gw), dtype=np.float32)
        img = Image.fromarray(grid, mode="F").resize((w, h), Image.Resampling.BICUBIC)
        out += np.asarray(img, dtype=np.float32) * amp
        total += amp
        amp *= 0.5
        cell = max(2.0, cell / 2)
    out /= total
    lo, hi = float(out.min()), float(out.max())
    return ((out - lo) / max(1e-6, hi - lo)).astype(np.float32)


def noise1d(rng: np.random.Generator, n: int, cell: float, octaves: int = 4) -> Array:
    """Smooth 1-D fractal noise in [0, 1] of length ``n``."""
    xs = np.arange(n, dtype=np.float32)
    out = np.zeros(n, np.float32)
    cell_smooth = min(cell / 2 ** (octaves - 1), 24.0)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        k = max(2, int(n / cell) + 3)
        pts = rng.random(k).astype(np.float32)
        out += np.interp(xs / cell, np.arange(k), pts).astype(np.float32) * amp
        total += amp
        amp *= 0.5
        cell = max(2.0, cell / 2)
    out /= total
    # soften the piecewise-linear joints into rounded crests
    k = max(1, int(cell_smooth / 3))
    pad = np.pad(out, (3 * k, 3 * k), mode="edge")
    for _ in range(3):
        cs = np.cumsum(np.concatenate([[0.0], pad]))
        pad = ((cs[2 * k + 1 :] - cs[: -2 * k - 1]) / (2 * k + 1)).astype(np.float32)
        pad = np.pad(pad, (k, k), mode="edge")
    out = pad[3 * k : 3 * k + n]
    lo, hi = float(out.min()), float(out.max())
    return ((out - lo) / max(1e-6, hi - lo)).astype(np.float32)


@dataclass
class Canvas:
    """A card being painted."""

    rgb: Array
    horizon: int = int(HEIGHT * 0.72)

    @classmethod
    def blank(cls) -> Canvas:
        return cls(np.zeros((HEIGHT, WIDTH, 3), np.float32))

    @property
    def h(self) -> int:
        return int(self.rgb.shape[0])

    @property
    def w(self) -> int:
        return int(self.rgb.shape[1])

    def blend(self, mask: Array, color: RGB | Array, opacity: float = 1.0) -> None:
        """Paint ``color`` through a 2-D coverage ``mask`` in [0, 1]."""
        m = np.clip(mask * opacity, 0.0, 1.0)[..., None]
        col = np.asarray(color, np.float32)
        self.rgb = self.rgb * (1 - m) + col * m

    def add_light(self, mask: Array, color: RGB, strength: float = 1.0) -> None:
        """Screen-blend light (glows, halos)."""
        m = np.clip(mask * strength, 0.0, 1.0)[..., None]
        col = np.asarray(color, np.float32)
        self.rgb = 1 - (1 - self.rgb) * (1 - m * col)

    def yy_xx(self) -> tuple[Array, Array]:
        yy, xx = np.mgrid[0 : self.h, 0 : self.w].astype(np.float32)
        return yy, xx


# ---------------------------------------------------------------- scenery


def sky(c: Canvas, stops: Sequence[str], rng: np.random.Generator) -> None:
    """Vertical gradient through ``stops`` (top to horizon), with painterly unevenness."""
    cols = np.array([hex_rgb(s) for s in stops], np.float32)
    t = np.linspace(0, 1, len(stops))
    ys = np.clip(np.arange(c.h, dtype=np.float32) / max(1, c.horizon), 0, 1)
    grad = np.stack([np.interp(ys, t, cols[:, k]) for k in range(3)], axis=1)
    c.rgb[:] = grad[:, None, :]
    n = noise(rng, c.h, c.w, 260, 3) - 0.5
    c.rgb += n[..., None] * 0.06
    # horizontal brush streaks
    streak = noise(rng, c.h // 3, c.w // 24, 4, 3)
    streak_img = Image.fromarray(streak, mode="F").resize((c.w, c.h), Image.Resampling.BICUBIC)
    c.rgb += (np.asarray(streak_img, dtype=np.float32) - 0.5)[..., None] * 0.045


def glow_disc(c: Canvas, cx: float, cy: float, r: float, color: RGB, strength: float) -> None:
    """A soft halo around a point."""
    yy, xx = c.yy_xx()
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
    halo = np.exp(-((d / max(1.0, r)) ** 2))
    c.add_light(halo.astype(np.float32), color, strength)


def _disc(c: Canvas, cx: float, cy: float, r: float, soft: float = 1.5) -> Array:
    yy, xx = c.yy_xx()
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
    return np.clip((r - d) / soft + 0.5, 0, 1).astype(np.float32)


def moon(
    c: Canvas,
    rng: np.random.Generator,
    cx: float,
    cy: float,
    r: float,
    color: RGB = (0.98, 0.95, 0.82),
    phase: float = 0.0,
    glow: float = 0.55,
) -> Array:
    """Paint a moon (full when ``phase`` is 0, a crescent as it grows). Returns its mask."""
    glow_disc(c, cx, cy, r * 2.6, mix(color, (1, 1, 1), 0.2), glow * 0.6)
    glow_disc(c, cx, cy, r * 1.35, color, glow * 0.5)
    mask = _disc(c, cx, cy, r)
    edge = noise(rng, c.h, c.w, 18, 2)
    mask = np.clip(mask * (0.85 + 0.3 * edge), 0, 1).astype(np.float32)
    if phase > 0:
        off = r * (0.35 + 0.9 * phase)
        bite = _disc(c, cx + off * 0.8, cy - off * 0.45, r * 0.98)
        mask = np.clip(mask - bite, 0, 1).astype(np.float32)
    craters = noise(rng, c.h, c.w, r * 0.35 + 4, 3)
    shade = mix(color, (0.75, 0.72, 0.68), 0.5)
    tex = np.where(craters[..., None] > 0.62, np.asarray(shade, np.float32), np.asarray(color))
    m = mask[..., None]
    c.rgb = c.rgb * (1 - m) + tex.astype(np.float32) * m
    return mask


def sun(c: Canvas, cx: float, cy: float, r: float, color: RGB) -> None:
    """A low hazy sun."""
    glow_disc(c, cx, cy, r * 4, color, 0.45)
    c.blend(_disc(c, cx, cy, r, 3), mix(color, (1, 1, 0.9), 0.5), 0.9)


def stars(
    c: Canvas, rng: np.random.Generator, count: int, color: RGB = (1, 1, 0.95), top: float = 0.0
) -> None:
    """Scatter stars above the horizon; a few larger ones get a four-pointed sparkle."""
    bottom = int(c.horizon * 0.92)
    y0 = int(top * c.h)
    mask = np.zeros((c.h, c.w), np.float32)
    for _ in range(count):
        x = int(rng.integers(4, c.w - 4))
        y = int(rng.integers(y0 + 4, max(y0 + 5, bottom)))
        fade = 1.0 - (y - y0) / max(1, bottom - y0) * 0.6
        b = float(rng.uniform(0.35, 1.0)) * fade
        mask[y, x] = max(mask[y, x], b)
        if rng.random() < 0.08:
            arm = int(rng.integers(5, 12))
            for k in range(1, arm):
                v = b * (1 - k / arm)
                if x - k >= 0 and x + k < c.w:
                    mask[y, x - k] = max(mask[y, x - k], v)
                    mask[y, x + k] = max(mask[y, x + k], v)
                if y - k >= 0 and y + k < c.h:
                    mask[y - k, x] = max(mask[y - k, x], v)
                    mask[y + k, x] = max(mask[y + k, x], v)
    soft = _blur(mask, 1.1) * 3.0
    c.add_light(np.clip(np.maximum(mask, soft), 0, 1), color, 1.0)


def clouds(
    c: Canvas,
    rng: np.random.Generator,
    color: RGB,
    y_center: float,
    spread: float,
    cover: float = 0.5,
    opacity: float = 0.55,
) -> None:
    """Horizontal drifting cloud banks around ``y_center`` (fraction of the height)."""
    n = noise(rng, c.h // 2, c.w // 6, 10, 4)
    img = Image.fromarray(n, mode="F").resize((c.w, c.h), Image.Resampling.BICUBIC)
    field = np.asarray(img, dtype=np.float32)
    ys = np.arange(c.h, dtype=np.float32)[:, None] / c.h
    band = np.exp(-(((ys - y_center) / max(0.02, spread)) ** 2))
    thr = 1.0 - cover
    mask = np.clip((field - thr) / 0.18, 0, 1) * band
    mask = _blur(mask.astype(np.float32), 6)
    c.blend(mask, color, opacity)


def hills(
    c: Canvas,
    rng: np.random.Generator,
    base: float,
    amp: float,
    color: RGB,
    cell: float = 260,
    opacity: float = 1.0,
) -> Array:
    """A ridge of hills whose crest wanders around ``base`` (fraction of height)."""
    ridge = noise1d(rng, c.w, cell, 3)
    crest = (base - amp * ridge) * c.h
    ys = np.arange(c.h, dtype=np.float32)[:, None]
    mask = np.clip(ys - crest[None, :] + 0.5, 0, 1).astype(np.float32)
    # darker towards the bottom: a little depth
    shade = np.clip((ys - crest[None, :]) / (c.h * 0.5), 0, 1)
    tex = noise(rng, c.h // 2, c.w // 2, 40, 3)
    tex_img = Image.fromarray(tex, mode="F").resize((c.w, c.h), Image.Resampling.BICUBIC)
    tex_full = np.asarray(tex_img, dtype=np.float32)
    col = np.asarray(color, np.float32)[None, None, :] * (0.9 + 0.2 * tex_full[..., None])
    c.blend(mask, col, opacity)
    c.rgb *= (1 - 0.25 * (shade * mask))[..., None]
    return mask


def water(
    c: Canvas, rng: np.random.Generator, tint: RGB, strength: float = 0.35, ripple: float = 6
) -> None:
    """Everything below the horizon becomes water reflecting what is above it."""
    hz = c.horizon
    depth = c.h - hz
    rows = np.arange(depth)
    src = np.clip(hz - 1 - rows, 0, hz - 1)
    refl = c.rgb[src].copy()
    # horizontal ripples, growing towards the viewer
    xs = np.arange(c.w)
    out = np.empty_like(refl)
    phase = rng.uniform(0, 6.28)
    for i in range(depth):
        k = (i / max(1, depth)) ** 0.7
        shift = round(math.sin(i * 0.45 + phase) * ripple * (0.3 + k))
        out[i] = refl[i, np.clip(xs + shift, 0, c.w - 1)]
    out = out * (1 - strength) + np.asarray(tint, np.float32) * strength
    fade = np.linspace(0.95, 0.7, depth, dtype=np.float32)[:, None, None]
    c.rgb[hz:] = (out * fade).astype(np.float32)
    # small horizontal glints
    glint = np.zeros((depth, c.w), np.float32)
    for _ in range(int(depth * 0.35)):
        y = int(rng.integers(0, depth))
        x = int(rng.integers(0, c.w))
        ln = int(rng.integers(6, 26))
        glint[y, x : x + ln] = rng.uniform(0.15, 0.45)
    full = np.zeros((c.h, c.w), np.float32)
    full[hz:] = glint
    c.add_light(full, (1, 1, 1), 0.5)
    line = np.zeros((c.h, c.w), np.float32)
    line[hz - 1 : hz + 2] = 0.25
    c.add_light(_blur(line, 2), (1, 1, 1), 0.6)


def reflect_region(c: Canvas, mask: Array, top: int, bottom: int, opacity: float = 0.55) -> None:
    """Mirror rows [top, bottom) below the horizon, only where ``mask`` (same rows) is set."""
    hz = c.horizon
    for i, y in enumerate(range(bottom - 1, top - 1, -1)):
        ty = hz + i + 2
        if ty >= c.h:
            break
        shift = round(math.sin(i * 0.5) * (2 + i * 0.03))
        row_m = np.roll(mask[y], shift) * opacity * (1 - i / max(1, c.h - hz))
        row_c = np.roll(c.rgb[y], shift, axis=0)
        c.rgb[ty] = c.rgb[ty] * (1 - row_m[:, None]) + row_c * 0.8 * row_m[:, None]


def mist(
    c: Canvas, rng: np.random.Generator, y: float, height: float, color: RGB, op: float
) -> None:
    """A band of low mist centred at ``y`` (fraction of height)."""
    n = noise(rng, c.h // 4, c.w // 8, 6, 3)
    img = Image.fromarray(n, mode="F").resize((c.w, c.h), Image.Resampling.BICUBIC)
    field = np.asarray(img, dtype=np.float32)
    ys = np.arange(c.h, dtype=np.float32)[:, None] / c.h
    band = np.exp(-(((ys - y) / max(0.01, height)) ** 2))
    c.blend((band * (0.4 + 0.6 * field)).astype(np.float32), color, op)


def grain(c: Canvas, rng: np.random.Generator, amount: float = 0.035) -> None:
    """Film grain plus a faint paper texture and a soft vignette."""
    g = rng.normal(0, amount, (c.h, c.w)).astype(np.float32)
    paper = (noise(rng, c.h, c.w, 3, 2) - 0.5) * amount * 0.8
    c.rgb += (g + paper)[..., None]
    yy, xx = c.yy_xx()
    d = np.sqrt(((xx - c.w / 2) / (c.w * 0.75)) ** 2 + ((yy - c.h / 2) / (c.h * 0.75)) ** 2)
    c.rgb *= (1 - 0.28 * np.clip(d - 0.35, 0, 1) ** 1.5)[..., None]


def frame(c: Canvas, color: RGB = (1, 1, 1), opacity: float = 0.22) -> None:
    """A thin inner border, like the printed cards."""
    m = np.zeros((c.h, c.w), np.float32)
    inset, r = 22, 26
    yy, xx = c.yy_xx()
    dx = np.maximum(np.maximum(inset + r - xx, xx - (c.w - inset - r)), 0)
    dy = np.maximum(np.maximum(inset + r - yy, yy - (c.h - inset - r)), 0)
    d = np.sqrt(dx**2 + dy**2)
    m = np.clip(1.2 - np.abs(d - r), 0, 1).astype(np.float32)
    c.add_light(m, color, opacity)


# ---------------------------------------------------------------- sprites


@lru_cache(maxsize=512)
def _icon_png(name: str, px: int) -> bytes:
    icon = load_catalog()[name]
    return bytes(resvg_py.svg_to_bytes(svg_string=icon.svg(px), width=px, height=px))


def icon(name: str, px: int) -> Array:
    """The motif ``name`` rendered at ``px`` pixels, tightly cropped, RGBA float32."""
    px = max(8, int(px))
    img = Image.open(io.BytesIO(_icon_png(name, px))).convert("RGBA")
    a = np.asarray(img, dtype=np.float32) / 255.0
    alpha = a[..., 3]
    ys, xs = np.nonzero(alpha > 0.02)
    if len(ys) == 0:
        return a
    return np.ascontiguousarray(a[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1])


def sprite(name: str, height: float, rng: np.random.Generator, wobble: float = 1.0) -> Array:
    """An icon scaled so its visible height is ``height`` px, with a hand-painted wobble."""
    base = icon(name, 64)
    ratio = base.shape[0] / 64
    aspect = base.shape[1] / max(1, base.shape[0])
    # very wide motifs would overflow the card: cap the width
    height = min(height, min(1.6 * height, 0.92 * WIDTH) / max(aspect, 1e-3))
    px = int(height / max(0.2, ratio))
    s = icon(name, px)
    return painterly(s, rng, wobble)


def painterly(s: Array, rng: np.random.Generator, wobble: float = 1.0) -> Array:
    """Wobbly edges (smooth random displacement) and a soft brush texture."""
    h, w = s.shape[:2]
    pad = 6
    s = np.pad(s, ((pad, pad), (pad, pad), (0, 0)))
    h, w = s.shape[:2]
    size = max(h, w)
    amp = wobble * max(1.5, size / 90)
    cell = max(8.0, size / 7)
    dx = (noise(rng, h, w, cell, 2) - 0.5) * 2 * amp
    dy = (noise(rng, h, w, cell, 2) - 0.5) * 2 * amp
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    sy = np.clip(np.round(yy + dy), 0, h - 1).astype(np.int32)
    sx = np.clip(np.round(xx + dx), 0, w - 1).astype(np.int32)
    out = s[sy, sx]
    tex = (noise(rng, h, w, max(3.0, size / 40), 2) - 0.5) * 0.09
    out[..., :3] = np.clip(out[..., :3] + tex[..., None], 0, 1)
    a = out[..., 3]
    a = np.clip((_blur(a, 0.8) - 0.5) * 1.6 + 0.5, 0, 1)
    out[..., 3] = a
    res: Array = out.astype(np.float32)
    return res


def silhouette(s: Array, color: RGB) -> Array:
    """The sprite's shape in one colour."""
    out = s.copy()
    out[..., :3] = np.asarray(color, np.float32)
    return out


def tint(s: Array, color: RGB, amount: float) -> Array:
    """Blend the sprite's colours toward ``color`` (atmosphere, night)."""
    out = s.copy()
    out[..., :3] = out[..., :3] * (1 - amount) + np.asarray(color, np.float32) * amount
    return out


def flip_h(s: Array) -> Array:
    return np.ascontiguousarray(s[:, ::-1])


def flip_v(s: Array) -> Array:
    return np.ascontiguousarray(s[::-1])


def rotate(s: Array, degrees: float) -> Array:
    """Rotate a sprite (expands the bounds)."""
    chans = []
    for k in range(4):
        img = Image.fromarray(s[..., k], mode="F")
        chans.append(
            np.asarray(img.rotate(degrees, Image.Resampling.BILINEAR, expand=True), np.float32)
        )
    return np.stack(chans, axis=-1)


def scale(s: Array, factor: float) -> Array:
    """Resize a sprite by ``factor``."""
    h, w = s.shape[:2]
    nh, nw = max(2, int(h * factor)), max(2, int(w * factor))
    chans = []
    for k in range(4):
        img = Image.fromarray(s[..., k], mode="F")
        chans.append(np.asarray(img.resize((nw, nh), Image.Resampling.BILINEAR), np.float32))
    return np.stack(chans, axis=-1)


def place(
    c: Canvas, s: Array, cx: float, cy: float, opacity: float = 1.0, anchor: str = "center"
) -> tuple[int, int, int, int]:
    """Composite sprite ``s`` with its centre (or bottom centre) at (cx, cy); returns its box."""
    h, w = s.shape[:2]
    x0 = round(cx - w / 2)
    y0 = {"center": round(cy - h / 2), "top": round(cy)}.get(anchor, round(cy - h))
    x1, y1 = x0 + w, y0 + h
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(c.w, x1), min(c.h, y1)
    if cx0 >= cx1 or cy0 >= cy1:
        return (x0, y0, x1, y1)
    part = s[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0]
    a = np.clip(part[..., 3:4] * opacity, 0, 1)
    region = c.rgb[cy0:cy1, cx0:cx1]
    c.rgb[cy0:cy1, cx0:cx1] = region * (1 - a) + part[..., :3] * a
    return (x0, y0, x1, y1)


def sprite_mask(c: Canvas, s: Array, cx: float, cy: float, anchor: str = "center") -> Array:
    """A full-canvas mask of where ``s`` would be placed."""
    m = np.zeros((c.h, c.w), np.float32)
    h, w = s.shape[:2]
    x0 = round(cx - w / 2)
    y0 = round(cy - h / 2) if anchor == "center" else round(cy - h)
    cx0, cy0 = max(0, x0), max(0, y0)
    cx1, cy1 = min(c.w, x0 + w), min(c.h, y0 + h)
    if cx0 < cx1 and cy0 < cy1:
        m[cy0:cy1, cx0:cx1] = s[cy0 - y0 : cy1 - y0, cx0 - x0 : cx1 - x0, 3]
    return m


def sprite_glow(
    c: Canvas, s: Array, cx: float, cy: float, color: RGB, radius: float, k: float
) -> None:
    """A halo shaped like the sprite."""
    m = sprite_mask(c, s, cx, cy)
    c.add_light(np.clip(_blur(m, radius) * 1.6, 0, 1), color, k)


def shadow_ellipse(c: Canvas, cx: float, cy: float, rx: float, ry: float, op: float = 0.35) -> None:
    """A soft contact shadow on the ground."""
    yy, xx = c.yy_xx()
    d = ((xx - cx) / max(1, rx)) ** 2 + ((yy - cy) / max(1, ry)) ** 2
    m = np.clip(1 - d, 0, 1) ** 1.5
    c.blend(m.astype(np.float32), (0.02, 0.02, 0.06), op)


def line(
    c: Canvas,
    pts: Sequence[tuple[float, float]],
    color: RGB,
    width: float = 1.5,
    opacity: float = 0.8,
) -> None:
    """A thin (string, rope) polyline."""
    m = np.zeros((c.h, c.w), np.float32)
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        n = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        xs = np.clip(np.round(np.linspace(x0, x1, n)).astype(int), 0, c.w - 1)
        ys = np.clip(np.round(np.linspace(y0, y1, n)).astype(int), 0, c.h - 1)
        m[ys, xs] = 1.0
    if width > 1:
        m = np.clip(_blur(m, width * 0.5) * width * 1.6, 0, 1)
    c.blend(m, color, opacity)


def polygon_mask(c: Canvas, pts: Sequence[tuple[float, float]]) -> Array:
    """Coverage of a polygon (anti-aliased by supersampling via Pillow)."""
    from PIL import ImageDraw

    s = 2
    img = Image.new("L", (c.w * s, c.h * s), 0)
    ImageDraw.Draw(img).polygon([(x * s, y * s) for x, y in pts], fill=255)
    img = img.resize((c.w, c.h), Image.Resampling.BILINEAR)
    out: Array = np.asarray(img, dtype=np.float32) / 255.0
    return out


def to_image(c: Canvas) -> Image.Image:
    """The finished card as an 8-bit RGB Pillow image."""
    arr = np.clip(c.rgb * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return Image.fromarray(arr, mode="RGB")
