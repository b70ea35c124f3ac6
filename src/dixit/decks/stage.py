"""The stage every composition paints on: :class:`Ctx` and the shared scenery helpers.

A composition paints onto a :class:`Ctx` (canvas, palette, main motif, seeded random
generator) and records what it drew: motifs with roles, the motifs its caption names
(``slots``), which caption form it used and the scenery (keys of the lexicon).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dixit.decks import painter as p
from dixit.decks.motifs import Motif, motifs_of
from dixit.decks.palettes import PALETTES, Palette

RGB = p.RGB


@dataclass
class Ctx:
    """Everything a composition needs, and what it reports back."""

    c: p.Canvas
    rng: np.random.Generator
    pal: Palette
    main: Motif
    motifs: list[tuple[str, str]] = field(default_factory=list)  # (icon name, role)
    scenery: list[str] = field(default_factory=list)  # lexicon keys ("stars", "hills")
    slots: dict[str, str] = field(default_factory=dict)  # caption slot -> icon name
    count: int = 0  # a number the caption may say ({n})
    form: str = ""  # which caption of the composition (a staging), "" for the first
    variant: int = 0
    salt: int = 0

    def col(self, h: str) -> RGB:
        return p.hex_rgb(h)

    def pick(self, kind: str, *exclude: str) -> Motif:
        """A secondary motif of ``kind`` (never the main motif)."""
        pool = [m for m in motifs_of(kind) if m.name != self.main.name and m.name not in exclude]
        return pool[int(self.rng.integers(len(pool)))]

    def vary(self, options: list[str]) -> str:
        """Cycle through ``options`` over a deck's uses of a composition (variety)."""
        return options[(self.variant + self.salt) % len(options)]

    def sign(self) -> float:
        return 1.0 if self.rng.random() < 0.5 else -1.0

    def choose(self, options: list[str]) -> str:
        return options[int(self.rng.integers(len(options)))]

    def uniform(self, a: float, b: float) -> float:
        return float(self.rng.uniform(a, b))

    def add(self, name: str, role: str) -> None:
        self.motifs.append((name, role))

    def name(self, **slots: str) -> None:
        """Say which motifs the caption names (``a`` is the main motif unless given)."""
        self.slots.update(slots)

    def staging(self, n: int = 2) -> int:
        """Which of ``n`` stagings this card uses: the deck's uses of a composition differ."""
        return (self.variant + self.salt) % n


# ---------------------------------------------------------------- shared scenery


def backdrop(
    x: Ctx,
    ground: str = "hills",
    celestial: str = "auto",
    horizon: float | None = None,
    moon_at: tuple[float, float, float] | None = None,
) -> tuple[float, float, float] | None:
    """Paint sky, stars, moon or sun, clouds, hills or water. Returns the moon (x, y, r)."""
    c, rng, pal = x.c, x.rng, x.pal
    c.horizon = int((horizon if horizon is not None else x.uniform(0.66, 0.76)) * c.h)
    p.sky(c, pal.sky, rng)
    x.scenery.append(f"{pal.time_of_day} sky")
    if pal.stars:
        p.stars(c, rng, pal.stars + int(rng.integers(0, 40)))
        x.scenery.append("stars")
    if celestial == "auto":
        if pal.time_of_day in ("night", "twilight"):
            celestial = x.choose(["moon", "moon", "crescent", "none"])
        elif pal.time_of_day in ("dawn", "dusk"):
            celestial = x.choose(["sun", "moon", "crescent", "none"])
        else:
            celestial = x.choose(["sun", "none", "none"])
    moon_info = None
    if celestial in ("moon", "crescent"):
        if moon_at is None:
            mx = x.uniform(0.18, 0.82) * c.w
            my = x.uniform(0.08, 0.24) * c.h
            mr = x.uniform(0.045, 0.08) * c.w
        else:
            mx, my, mr = moon_at
        phase = 0.0 if celestial == "moon" else x.uniform(0.35, 0.6)
        p.moon(c, rng, mx, my, mr, x.col(pal.moon), phase)
        moon_info = (mx, my, mr)
        x.scenery.append("full moon" if phase == 0 else "crescent moon")
    elif celestial == "sun":
        p.sun(
            c,
            x.uniform(0.2, 0.8) * c.w,
            c.horizon - x.uniform(0.04, 0.12) * c.h,
            x.uniform(0.04, 0.07) * c.w,
            x.col(pal.moon),
        )
        x.scenery.append("sun")
    p.clouds(
        c,
        rng,
        x.col(pal.cloud),
        x.uniform(0.12, 0.5),
        x.uniform(0.06, 0.14),
        x.uniform(0.3, 0.55),
        0.35 if pal.is_dark else 0.55,
    )
    x.scenery.append("clouds")
    if ground in ("hills", "shore"):
        p.hills(
            c,
            rng,
            c.horizon / c.h + 0.01,
            x.uniform(0.06, 0.14),
            x.col(pal.far),
            cell=x.uniform(160, 320),
        )
        p.mist(c, rng, c.horizon / c.h, 0.03, x.col(pal.mist), 0.35)
    if ground == "water":
        p.hills(
            c,
            rng,
            c.horizon / c.h + 0.002,
            x.uniform(0.015, 0.04),
            x.col(pal.far),
            cell=x.uniform(90, 200),
        )
        p.water(c, rng, x.col(pal.water), 0.35)
        x.scenery.append("water")
    elif ground == "hills":
        p.hills(
            c,
            rng,
            c.horizon / c.h + 0.1,
            x.uniform(0.04, 0.1),
            x.col(pal.near),
            cell=x.uniform(200, 400),
        )
        x.scenery.append("hills")
    elif ground == "shore":
        p.water(c, rng, x.col(pal.water), 0.35)
        p.hills(c, rng, 0.93, 0.08, x.col(pal.near), cell=x.uniform(250, 450))
        x.scenery.append("lake")
    return moon_info


def ground_y(x: Ctx) -> float:
    """Where things stand on the near hills."""
    return x.c.horizon + 0.12 * x.c.h


def night_tint(x: Ctx, s: p.Array) -> p.Array:
    """Let the atmosphere colour a sprite a little, more at night."""
    amount = {"night": 0.32, "twilight": 0.22, "dusk": 0.15, "dawn": 0.1}.get(
        x.pal.time_of_day, 0.05
    )
    return p.tint(s, x.col(x.pal.far), amount)


def figure(x: Ctx, cx: float, bottom: float, height: float, name: str | None = None) -> str:
    """A tiny silhouetted person."""
    name = name or x.pick("figure", "ghost", "person-rowing-boat", "person-fairy").name
    s = p.silhouette(p.sprite(name, height, x.rng, 0.6), x.col(x.pal.dark))
    if x.rng.random() < 0.5:
        s = p.flip_h(s)
    p.place(x.c, s, cx, bottom, anchor="bottom")
    x.add(name, "tiny figure")
    return name


def bubble(x: Ctx, cx: float, cy: float, r: float, strength: float = 1.0) -> None:
    """A translucent soap bubble."""
    c = x.c
    yy, xx = c.yy_xx()
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2) / r
    rim = np.clip(1 - np.abs(d - 0.97) * 14, 0, 1) * 0.6
    body = np.clip(1 - d, 0, 1) ** 0.3 * 0.08 * (d < 1)
    hl = np.exp(-(((xx - (cx - r * 0.4)) ** 2 + (yy - (cy - r * 0.45)) ** 2) / (r * 0.18) ** 2))
    c.add_light(((rim + body + hl * 0.8) * strength).astype(np.float32), (0.95, 0.97, 1.0), 0.9)


def ellipse_mask(c: p.Canvas, cx: float, cy: float, rx: float, ry: float) -> p.Array:
    yy, xx = c.yy_xx()
    d = np.sqrt(((xx - cx) / max(1.0, rx)) ** 2 + ((yy - cy) / max(1.0, ry)) ** 2)
    return np.clip((1 - d) * min(rx, ry) / 1.5, 0, 1).astype(np.float32)


def contrasting(x: Ctx) -> Palette:
    """A palette from the other side of the day (night for day, day for night)."""
    want = ("day", "dawn") if x.pal.is_dark else ("night", "twilight")
    pool = [q for q in PALETTES if q.time_of_day in want]
    return pool[int(x.rng.integers(len(pool)))]


def mini_world(
    x: Ctx, mask: p.Array, box: tuple[float, float, float, float], inner: str
) -> Palette:
    """Paint a small other world (sky, moon, hills, a motif) inside ``mask``."""
    cx0, cy0, cx1, cy1 = box
    other = contrasting(x)
    sub = p.Canvas(np.zeros_like(x.c.rgb))
    h0, h1 = int(cy0), int(cy1)
    sub.horizon = int(cy0 + (cy1 - cy0) * 0.7)
    cols = np.array([p.hex_rgb(s) for s in other.sky], np.float32)
    t = np.linspace(0, 1, len(other.sky))
    ys = np.clip((np.arange(sub.h, dtype=np.float32) - h0) / max(1, sub.horizon - h0), 0, 1)
    grad = np.stack([np.interp(ys, t, cols[:, k]) for k in range(3)], axis=1)
    sub.rgb[:] = grad[:, None, :]
    w = cx1 - cx0
    if other.stars:
        m = np.zeros((sub.h, sub.w), np.float32)
        for _ in range(60):
            m[
                int(x.rng.integers(max(0, h0), max(h0 + 1, sub.horizon))),
                int(x.rng.integers(max(0, int(cx0)), min(sub.w - 1, int(cx1)))),
            ] = 1.0
        sub.add_light(m, (1, 1, 1), 1.0)
    p.moon(
        sub,
        x.rng,
        cx0 + w * x.uniform(0.25, 0.75),
        h0 + (h1 - h0) * 0.2,
        w * 0.09,
        p.hex_rgb(other.moon),
        0.0 if x.rng.random() < 0.5 else 0.5,
        0.5,
    )
    p.hills(sub, x.rng, sub.horizon / sub.h, 0.03, p.hex_rgb(other.near), cell=w / 3)
    s = p.sprite(inner, (h1 - h0) * 0.42, x.rng, 0.5)
    p.place(sub, s, (cx0 + cx1) / 2, sub.horizon + (h1 - h0) * 0.08, anchor="bottom")
    m3 = mask[..., None]
    x.c.rgb = x.c.rgb * (1 - m3) + sub.rgb * m3
    return other
