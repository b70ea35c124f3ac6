"""Scenes of two or more motifs in a strange relationship, each with two stagings.

A deck uses a scene at most twice, and its two cards then differ in staging (viewpoint,
ground, scale, secondary motifs), chosen by :meth:`~dixit.decks.stage.Ctx.staging`.
"""

from __future__ import annotations

import math

import numpy as np

from dixit.decks import painter as p
from dixit.decks.motifs import MOTIFS
from dixit.decks.palettes import PALETTES, Palette
from dixit.decks.stage import (
    Ctx,
    backdrop,
    bubble,
    ellipse_mask,
    figure,
    ground_y,
    night_tint,
)

Pt = tuple[float, float]


# ---------------------------------------------------------------- helpers


def spr(x: Ctx, name: str, height: float, wobble: float = 1.0) -> p.Array:
    return p.sprite(name, height, x.rng, wobble)


def top_edge(mask: p.Array, col: int) -> int:
    """The first row where ``mask`` is solid in column ``col`` (or -1)."""
    colv = mask[:, max(0, min(mask.shape[1] - 1, col))] > 0.5
    return int(np.argmax(colv)) if colv.any() else -1


def puff(x: Ctx, cx: float, cy: float, w: float, h: float, col: p.RGB, op: float = 0.95) -> None:
    """A soft round cloud of a few overlapping ellipses."""
    c = x.c
    m = np.zeros((c.h, c.w), np.float32)
    for i in range(6):
        t = i / 5 - 0.5
        m = np.maximum(
            m,
            ellipse_mask(
                c,
                cx + t * w * 0.8,
                cy - (0.25 - abs(t)) * h * 0.8 + x.uniform(-4, 4),
                w * x.uniform(0.22, 0.32),
                h * x.uniform(0.45, 0.6),
            ),
        )
    c.blend(p._blur(m, 3), col, op)


def submerge(x: Ctx, s: p.Array, cx: float, cy: float, line: float, anchor: str = "center") -> None:
    """Veil the part of a placed sprite below the waterline ``line`` with water."""
    c = x.c
    m = p.sprite_mask(c, s, cx, cy, anchor)
    m[: int(line)] = 0
    c.blend(m, x.col(x.pal.water), 0.72)
    p.line(c, [(cx - s.shape[1] * 0.55, line), (cx + s.shape[1] * 0.55, line)], (1, 1, 1), 2, 0.35)


def other_palette(x: Ctx, dark: bool) -> Palette:
    pool = [q for q in PALETTES if q.is_dark == dark and q.time_of_day != x.pal.time_of_day]
    return pool[int(x.rng.integers(len(pool)))]


def rays(x: Ctx, cx: float, cy: float, n: int, col: p.RGB, k: float) -> None:
    c = x.c
    yy, xx = c.yy_xx()
    ang = np.arctan2(yy - cy, xx - cx)
    d = np.hypot(yy - cy, xx - cx)
    m = (np.cos(ang * n) > 0.6) * np.clip(1 - d / (c.w * 0.9), 0, 1)
    c.add_light(p._blur(m.astype(np.float32), 6), col, k)


def buildings(x: Ctx) -> list[str]:
    odd = {"volcano", "moai", "fountain", "statue-of-liberty", "roller-coaster", "carousel-horse"}
    return [m.name for m in MOTIFS.values() if "building" in m.kinds and m.name not in odd]


def pick_from(x: Ctx, names: list[str]) -> str:
    pool = [n for n in names if n != x.main.name]
    return pool[int(x.rng.integers(len(pool)))]


BIRDS = ["dove", "bird", "blackbird", "parrot", "owl", "eagle", "swan", "duck"]


# ---------------------------------------------------------------- the scenes


def carrier(x: Ctx) -> None:
    """A big creature carries a building on its back (through clouds, or wading the sea)."""
    c = x.c
    cargo = pick_from(x, buildings(x))
    stage = x.staging()
    if stage == 0:
        backdrop(x, "water", horizon=x.uniform(0.8, 0.86))
        cx, cy = x.uniform(0.42, 0.58) * c.w, x.uniform(0.48, 0.56) * c.h
        s = night_tint(x, spr(x, x.main.name, x.uniform(0.3, 0.36) * c.h))
    else:
        backdrop(x, "water", horizon=x.uniform(0.5, 0.56))
        cx, cy = x.uniform(0.4, 0.6) * c.w, c.horizon + x.uniform(0.1, 0.14) * c.h
        s = night_tint(x, spr(x, x.main.name, x.uniform(0.3, 0.36) * c.h))
    if x.rng.random() < 0.5:
        s = p.flip_h(s)
    m = p.sprite_mask(c, s, cx, cy)
    p.place(c, s, cx, cy)
    top = top_edge(m, int(cx))
    b = night_tint(x, spr(x, cargo, s.shape[0] * x.uniform(0.55, 0.75), 0.6))
    p.place(c, b, cx, top + s.shape[0] * 0.06, anchor="bottom")
    if stage == 0:
        for _ in range(3):
            puff(
                x,
                x.uniform(0.1, 0.9) * c.w,
                cy + s.shape[0] * x.uniform(0.35, 0.6),
                x.uniform(160, 260),
                x.uniform(40, 70),
                x.col(x.pal.cloud),
                0.8,
            )
        x.form = "sky"
    else:
        submerge(x, s, cx, cy, cy + s.shape[0] * 0.1)
        for _ in range(2):
            boat = p.silhouette(spr(x, "sailboat", 0.04 * c.h, 0.4), x.col(x.pal.dark))
            p.place(c, boat, x.uniform(0.1, 0.9) * c.w, c.horizon + 6, anchor="bottom")
        x.add("sailboat", "far boats")
        x.form = "sea"
    x.add(x.main.name, "carrier")
    x.add(cargo, "carried on its back")
    x.name(b=cargo)
    x.scenery.append("clouds")


def pouring(x: Ctx) -> None:
    """A giant cup or jug in the clouds pours a waterfall (or stars) onto a village."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills", "none", horizon=x.uniform(0.7, 0.76))
    cx, cy = x.uniform(0.55, 0.7) * c.w, x.uniform(0.18, 0.26) * c.h
    s = spr(x, x.main.name, x.uniform(0.2, 0.26) * c.h)
    s = p.rotate(s, x.uniform(38, 55))
    lip = (cx - s.shape[1] * 0.42, cy + s.shape[0] * 0.1)
    gx, gy = x.uniform(0.3, 0.45) * c.w, ground_y(x)
    pts = [
        (lip[0] + (gx - lip[0]) * t + math.sin(t * 3) * 10 * t, lip[1] + (gy - lip[1]) * t**1.2)
        for t in np.linspace(0, 1, 30)
    ]
    if stage == 0:
        for w, col, op in (
            (34, x.col(x.pal.water), 0.9),
            (18, (0.8, 0.9, 1.0), 0.8),
            (6, (1, 1, 1), 0.7),
        ):
            p.line(c, pts, col, w, op)
        c.add_light(p._blur(ellipse_mask(c, gx, gy, 90, 40), 10), (1, 1, 1), 0.5)
        c.blend(ellipse_mask(c, gx, gy + 6, 120, 18), x.col(x.pal.water), 0.9)
        x.scenery += ["waterfall", "lake"]
        x.form = "water"
    else:
        star = np.zeros((c.h, c.w), np.float32)
        for px, py in pts:
            for _ in range(6):
                iy = int(py + x.uniform(-12, 12))
                ix = int(px + x.uniform(-12, 12))
                if 0 <= iy < c.h and 0 <= ix < c.w:
                    star[iy, ix] = 1.0
        gold = (1.0, 0.86, 0.45)
        c.add_light(np.clip(p._blur(star, 12) * 40, 0, 1), gold, 0.45)
        c.blend(np.clip(p._blur(star, 2.0) * 16, 0, 1), p.mix(gold, (1, 1, 1), 0.5), 1.0)
        x.scenery.append("stars")
        x.form = "stars"
    puff(x, cx + 40, cy + s.shape[0] * 0.35, 300, 70, x.col(x.pal.cloud), 0.9)
    p.place(c, s, cx, cy)
    village = pick_from(x, ["house", "houses", "church", "hut", "house-with-garden"])
    for i in range(5):
        hx = gx + (i - 2) * x.uniform(60, 80) + 20
        hs = night_tint(x, spr(x, village if i % 2 else "house", 0.05 * c.h, 0.4))
        p.place(c, hs, hx, gy + 30 + abs(i - 2) * 6, anchor="bottom")
    x.add(x.main.name, "pouring from the sky")
    x.add(village, "village below")
    x.name(b=village)
    x.scenery.append("clouds")


def shaped_island(x: Ctx) -> None:
    """Seen from above: an island in the shape of the main motif (a sea chart, or a map)."""
    c = x.c
    stage = x.staging()
    yy, _ = c.yy_xx()
    if stage == 0:
        deep = p.mix(x.col(x.pal.water), (0.08, 0.36, 0.52), 0.65)
        shallow = p.mix(deep, (0.5, 0.85, 0.85), 0.35)
        sand, green = (0.93, 0.85, 0.62), p.mix(x.col(x.pal.near), (0.25, 0.6, 0.3), 0.5)
        x.scenery += ["sea", "waves"]
    else:
        deep, shallow = (0.62, 0.55, 0.42), (0.78, 0.7, 0.55)
        sand, green = (0.86, 0.76, 0.56), (0.62, 0.6, 0.38)
        x.scenery += ["map", "compass rose"]
    c.rgb[:] = np.asarray(deep, np.float32)
    c.blend(p.noise(x.rng, c.h, c.w, 40, 3), shallow, 0.5)
    waves = (np.sin(yy * 0.09 + p.noise(x.rng, c.h, c.w, 30, 2) * 9) > 0.93).astype(np.float32)
    c.blend(waves, p.mix(shallow, (1, 1, 1), 0.4), 0.35)
    s = spr(x, x.main.name, x.uniform(0.5, 0.6) * c.h, 1.4)
    s = p.rotate(s, x.uniform(-25, 25))
    cx, cy = c.w / 2 + x.uniform(-30, 30), c.h * 0.48
    m = p.sprite_mask(c, s, cx, cy)
    shore = np.clip(p._blur(m, 16) * 2.2, 0, 1)
    c.blend(np.clip(p._blur(m, 34) * 2, 0, 1), shallow, 0.6)
    c.blend(shore, sand, 1.0)
    inner = np.clip((p._blur(m, 4) - 0.55) * 4, 0, 1)
    c.blend(inner * (0.75 + 0.25 * p.noise(x.rng, c.h, c.w, 12, 2)), green, 0.95)
    ys, xs = np.nonzero(inner > 0.9)
    dots = []
    for _ in range(7):
        if not len(ys):
            break
        k = int(x.rng.integers(len(ys)))
        dots.append((float(xs[k]), float(ys[k])))
    for i, (hx, hy) in enumerate(dots):
        name = "house" if i % 3 == 0 else "evergreen-tree"
        hs = spr(x, name, 0.035 * c.h, 0.3)
        if stage == 1:
            hs = p.tint(hs, (0.45, 0.35, 0.2), 0.6)
        p.place(c, hs, hx, hy, anchor="bottom")
    bx, by = x.uniform(0.15, 0.3) * c.w, x.uniform(0.82, 0.9) * c.h
    boat = spr(x, "sailboat", 0.06 * c.h, 0.4)
    if stage == 1:
        boat = p.tint(boat, (0.4, 0.3, 0.2), 0.55)
        path = [
            (bx + (cx - bx) * t, by + (cy - by) * t - math.sin(t * 3) * 60)
            for t in np.linspace(0, 0.8, 16)
        ]
        for a, b in zip(path[::2], path[1::2], strict=False):
            p.line(c, [a, b], (0.45, 0.2, 0.12), 3, 0.8)
        p.line(c, [(c.w - 110, 90), (c.w - 60, 140)], (0.4, 0.25, 0.15), 3, 0.9)
        p.line(c, [(c.w - 60, 90), (c.w - 110, 140)], (0.4, 0.25, 0.15), 3, 0.9)
        x.form = "map"
    else:
        p.line(c, [(bx - 30, by + 40), (bx, by + 10), (bx + 30, by + 40)], (1, 1, 1), 3, 0.4)
        x.form = "sea"
    p.place(c, boat, bx, by + 15, anchor="bottom")
    x.add(x.main.name, "shape of the island")
    x.add("sailboat", "boat")
    x.scenery += ["island", "beach"]


MOON_FACES = ["first-quarter-moon-face", "last-quarter-moon-face"]


def bedtime_story(x: Ctx) -> None:
    """A creature reads from a book to moons asleep on clouds (or floating on a lake)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", "none", horizon=x.uniform(0.66, 0.72))
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.2, 0.26) * c.h))
    book = spr(x, "open-book", s.shape[0] * 0.38, 0.5)
    if stage == 0:
        cx, bottom = x.uniform(0.25, 0.38) * c.w, ground_y(x) + 20
        spots = [(x.uniform(0.55, 0.88) * c.w, (0.18 + 0.14 * i) * c.h) for i in range(3)]
        x.form = "clouds"
    else:
        cx, bottom = x.uniform(0.24, 0.32) * c.w, c.horizon + 0.16 * c.h
        boat = night_tint(x, spr(x, "canoe", s.shape[1] * 1.1, 0.5))
        p.place(c, boat, cx, bottom + boat.shape[0] * 0.5, anchor="bottom")
        x.add("canoe", "boat")
        spots = [
            (c.w * (0.66 + 0.1 * i), c.horizon + (0.04 + 0.1 * (i % 2)) * c.h) for i in range(3)
        ]
        x.form = "lake"
    p.place(c, s, cx, bottom, anchor="bottom")
    p.sprite_glow(
        c, book, cx + s.shape[1] * 0.45, bottom - s.shape[0] * 0.4, (1, 0.9, 0.6), 16, 0.6
    )
    p.place(c, book, cx + s.shape[1] * 0.45, bottom - s.shape[0] * 0.4)
    for i, (mx, my) in enumerate(spots):
        if stage == 0:
            puff(x, mx, my + 30, 170, 46, x.col(x.pal.cloud), 0.9)
        mf = spr(x, MOON_FACES[i % 2], 0.085 * c.h, 0.5)
        p.sprite_glow(c, mf, mx, my, x.col(x.pal.moon), 14, 0.4)
        p.place(c, p.rotate(mf, x.uniform(-50, -30)), mx, my)
        if stage == 1:
            r = p.flip_v(p.tint(mf, x.col(x.pal.water), 0.5))
            p.place(c, r, mx, my + mf.shape[0], opacity=0.4)
    z = spr(x, "zzz", 0.05 * c.h, 0.4)
    p.place(c, z, spots[0][0] + 60, spots[0][1] - 60)
    x.add(x.main.name, "reader")
    x.add("open-book", "book")
    x.add(MOON_FACES[0], "sleeping moons")
    x.name(b="open-book")
    x.count = 3


def meeting(x: Ctx) -> None:
    """Two creatures sit at a small table with tea, on a cloud or in the shallow sea."""
    c = x.c
    stage = x.staging()
    guest = x.pick("creature", "butterfly", "honeybee", "lady-beetle", "beetle", "spider")
    if stage == 0:
        backdrop(x, "hills", horizon=x.uniform(0.8, 0.86))
        ty = x.uniform(0.52, 0.58) * c.h
        puff(x, c.w / 2, ty + 40, 560, 120, p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.3), 0.97)
        x.form = "cloud"
    else:
        backdrop(x, "water", horizon=x.uniform(0.5, 0.56))
        ty = c.horizon + 0.2 * c.h
        x.form = "sea"
    wood = p.mix(x.col(x.pal.dark), (0.55, 0.4, 0.3), 0.55)
    tw = 0.3 * c.w
    p.line(c, [(c.w / 2 - tw * 0.35, ty), (c.w / 2 - tw * 0.3, ty + 70)], wood, 5, 1)
    p.line(c, [(c.w / 2 + tw * 0.35, ty), (c.w / 2 + tw * 0.3, ty + 70)], wood, 5, 1)
    c.blend(ellipse_mask(c, c.w / 2, ty, tw / 2, 12), p.mix(wood, (1, 1, 1), 0.5), 1)
    h = x.uniform(0.16, 0.2) * c.h
    a = night_tint(x, spr(x, x.main.name, h))
    b = night_tint(x, spr(x, guest.name, h * x.uniform(0.8, 1.1)))
    p.place(c, a, c.w / 2 - tw * 0.55 - a.shape[1] * 0.3, ty + 70, anchor="bottom")
    p.place(c, p.flip_h(b), c.w / 2 + tw * 0.55 + b.shape[1] * 0.3, ty + 70, anchor="bottom")
    tea = spr(x, "teapot", 0.05 * c.h, 0.4)
    p.place(c, tea, c.w / 2 - 30, ty + 4, anchor="bottom")
    cup = spr(x, "teacup-without-handle", 0.025 * c.h, 0.3)
    p.place(c, cup, c.w / 2 + 40, ty + 4, anchor="bottom")
    if stage == 1:
        m = np.zeros((c.h, c.w), np.float32)
        m[int(ty + 50) :] = 1
        c.blend(m, x.col(x.pal.water), 0.45)
    x.add(x.main.name, "host")
    x.add(guest.name, "guest")
    x.add("teapot", "tea")
    x.name(b=guest.name)


def split_day_night(x: Ctx) -> None:
    """The card is cut in two times of day; the main motif stands across the seam."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=0.7)
    first = c.rgb.copy()
    keep_pal = x.pal
    x.pal = other_palette(x, not x.pal.is_dark)
    x.c = p.Canvas(np.zeros_like(c.rgb), c.horizon)
    backdrop(x, "hills" if stage == 0 else "sky", horizon=0.7)
    second = x.c.rgb
    x.c, x.pal = c, keep_pal
    yy, xx = c.yy_xx()
    if stage == 0:
        seam = c.w / 2 + np.sin(yy / 90) * 14
        m = np.clip((xx - seam) / 3, 0, 1)[..., None]
        x.form = "vertical"
    else:
        rows = np.clip(2 * c.horizon - np.arange(c.h), 0, c.h - 1)
        second = second[rows] * 0.8 + np.asarray(x.col(x.pal.water), np.float32) * 0.2
        m = np.clip((yy - c.horizon) / 3, 0, 1)[..., None]
        x.form = "water"
    c.rgb = (first * (1 - m) + second * m).astype(np.float32)
    h = x.uniform(0.3, 0.38) * c.h
    s = spr(x, x.main.name, h)
    if stage == 0:
        p.place(c, s, c.w / 2, ground_y(x) + 10, anchor="bottom")
        figure(x, c.w * 0.18, ground_y(x) + 20, 0.045 * c.h)
    else:
        p.place(c, s, c.w / 2, c.horizon + 4, anchor="bottom")
        r = p.flip_v(p.tint(spr(x, x.main.name, h), (0.1, 0.12, 0.3), 0.45))
        p.place(c, r, c.w / 2, c.horizon + 4, opacity=0.6, anchor="top")
    x.add(x.main.name, "between day and night")
    x.scenery.append(f"{x.pal.time_of_day} sky")


def pop_up_book(x: Ctx) -> None:
    """A giant open book: a world grows out of its pages (on the hills, or adrift on the sea)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=x.uniform(0.6, 0.66))
    book = night_tint(x, spr(x, "open-book", 0.62 * c.w, 0.5))
    by = c.h * (0.86 if stage == 0 else 0.8)
    p.shadow_ellipse(c, c.w / 2, by, book.shape[1] * 0.5, 26, 0.4)
    box = p.place(c, book, c.w / 2, by, anchor="bottom")
    page_y = box[1] + (box[3] - box[1]) * 0.3
    hill = ellipse_mask(c, c.w / 2, page_y + 30, book.shape[1] * 0.36, 60)
    hill[int(page_y + 30) :] = 0
    c.blend(hill, p.mix(x.col(x.pal.near), (0.3, 0.6, 0.3), 0.45), 1)
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.22, 0.28) * c.h))
    p.sprite_glow(c, s, c.w / 2, page_y - s.shape[0] / 2, x.col(x.pal.moon), 26, 0.4)
    p.place(c, s, c.w / 2, page_y - 6, anchor="bottom")
    fx = c.w / 2 + book.shape[1] * 0.3
    fall = [(fx, page_y + 20), (fx + 8, box[3] - 10), (fx + 10, by + 30)]
    p.line(c, fall, (0.85, 0.93, 1.0), 14, 0.55)
    p.line(c, fall, (1.0, 1.0, 1.0), 4, 0.6)
    if stage == 0:
        figure(x, c.w / 2 - book.shape[1] * 0.55, by + 10, 0.05 * c.h)
        x.form = "hills"
    else:
        for _ in range(4):
            b = spr(x, "bird", 0.03 * c.h, 0.4)
            p.place(
                c,
                p.silhouette(b, x.col(x.pal.dark)),
                x.uniform(0.2, 0.8) * c.w,
                x.uniform(0.15, 0.35) * c.h,
            )
        x.add("bird", "birds")
        x.form = "sea"
    x.add("open-book", "book")
    x.add(x.main.name, "growing out of the pages")
    x.name(b="open-book")
    x.scenery.append("waterfall")


def _cage(x: Ctx, cx: float, top: float, w: float, h: float, door_open: bool) -> None:
    c = x.c
    col = p.mix(x.col(x.pal.moon), (0.85, 0.7, 0.35), 0.5)
    n = 9
    for i in range(n):
        t = i / (n - 1)
        bx = cx - w / 2 + w * t
        arc = top + h * 0.28 * (1 - math.sin(t * math.pi))
        if door_open and 0.35 < t < 0.65:
            continue
        p.line(c, [(bx, arc), (bx, top + h)], col, 2.5, 0.95)
    dome = [
        (cx - w / 2 + w * t, top + h * 0.28 * (1 - math.sin(t * math.pi)))
        for t in np.linspace(0, 1, 30)
    ]
    p.line(c, dome, col, 3.5, 1)
    p.line(c, [(cx - w / 2 - 6, top + h), (cx + w / 2 + 6, top + h)], col, 7, 1)
    p.line(c, [(cx - w / 2, top + h * 0.55), (cx + w / 2, top + h * 0.55)], col, 2, 0.8)
    c.blend(ellipse_mask(c, cx, top - 12, 12, 12) - ellipse_mask(c, cx, top - 12, 7, 7), col, 1)
    if door_open:
        door = [
            (cx - w * 0.15, top + h * 0.55),
            (cx - w * 0.45, top + h * 0.62),
            (cx - w * 0.45, top + h),
            (cx - w * 0.15, top + h),
        ]
        p.line(c, [*door, door[0]], col, 2.5, 0.9)


def caged(x: Ctx) -> None:
    """A birdcage holds a shining thing; a bird watches from outside (or it has escaped)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills", "none" if stage == 0 else "auto")
    bird = pick_from(x, BIRDS)
    w, h = 0.36 * c.w, 0.34 * c.h
    cx = x.uniform(0.42, 0.58) * c.w
    if stage == 0:
        top = x.uniform(0.2, 0.26) * c.h
        p.line(c, [(cx, 0), (cx, top - 24)], x.col(x.pal.dark), 3, 0.9)
        s = spr(x, x.main.name, h * 0.5)
        p.glow_disc(c, cx, top + h * 0.6, h * 0.7, x.col(x.pal.moon), 0.5)
        p.place(c, s, cx, top + h * 0.62)
        _cage(x, cx, top, w, h, False)
        b = night_tint(x, spr(x, bird, 0.09 * c.h))
        p.place(c, b, cx + w * 0.25, top + 10, anchor="bottom")
        x.add(bird, "watching from outside")
        x.form = "inside"
    else:
        top = ground_y(x) - h + 20
        _cage(x, cx, top, w, h, True)
        s = spr(x, x.main.name, h * 0.42)
        sx, sy = x.uniform(0.2, 0.8) * c.w, x.uniform(0.12, 0.22) * c.h
        p.sprite_glow(c, s, sx, sy, x.col(x.pal.moon), 24, 0.6)
        p.place(c, s, sx, sy)
        b = night_tint(x, spr(x, bird, 0.08 * c.h))
        p.place(c, b, cx, top + h - 6, anchor="bottom")
        x.add(bird, "left inside the cage")
        x.form = "escaped"
    x.add(x.main.name, "caged")
    x.name(b=bird)
    x.scenery.append("birdcage")


def tower_of_things(x: Ctx) -> None:
    """A wobbling tower of the same thing reaches the moon; someone climbs it."""
    c = x.c
    stage = x.staging()
    horizon = x.uniform(0.76, 0.82) if stage == 0 else x.uniform(0.7, 0.75)
    backdrop(x, "hills" if stage == 0 else "water", "none", horizon=horizon)
    mx, my, mr = x.uniform(0.35, 0.65) * c.w, 0.1 * c.h, 0.07 * c.w
    p.moon(c, x.rng, mx, my, mr, x.col(x.pal.moon), 0.0 if stage == 0 else 0.5)
    base_y = ground_y(x) + 10 if stage == 0 else c.horizon + 0.12 * c.h
    if stage == 1:
        raft = night_tint(x, spr(x, "canoe", 0.34 * c.w, 0.5))
        p.place(c, raft, c.w / 2, base_y + raft.shape[0] * 0.4, anchor="bottom")
        x.add("canoe", "boat")
    yb, k = base_y, 0
    size = 0.12 * c.h
    while yb > my + mr * 2.2 and k < 14:
        s = night_tint(x, p.rotate(spr(x, x.main.name, size, 0.6), x.uniform(-14, 14)))
        px = c.w / 2 + (mx - c.w / 2) * (1 - (yb - my) / (base_y - my)) + x.uniform(-14, 14)
        p.place(c, s, px, yb, anchor="bottom")
        yb -= s.shape[0] * 0.85
        size *= 0.88
        k += 1
    fig = p.silhouette(spr(x, "person-standing", 0.035 * c.h, 0.5), x.col(x.pal.dark))
    p.place(c, fig, mx + 10, yb + 6, anchor="bottom")
    x.add("person-standing", "reaching for the moon")
    x.add(x.main.name, "stacked high")
    x.count = k
    x.form = "land" if stage == 0 else "boat"
    x.scenery.append("full moon" if stage == 0 else "crescent moon")


def sunken(x: Ctx) -> None:
    """Under the sea (cut open at the surface): a drowned place where fish swim."""
    c = x.c
    stage = x.staging()
    surface = x.uniform(0.18, 0.26) * c.h if stage == 0 else -10.0
    c.horizon = int(max(surface, 1))
    if stage == 0:
        p.sky(c, x.pal.sky, x.rng)
        x.scenery.append(f"{x.pal.time_of_day} sky")
    yy, xx = c.yy_xx()
    deep = p.mix(x.col(x.pal.water), (0.0, 0.08, 0.18), 0.5)
    t = np.clip((yy - surface) / (c.h - surface), 0, 1)[..., None]
    sea = (
        np.asarray(p.mix(x.col(x.pal.water), (0.3, 0.6, 0.65), 0.3), np.float32) * (1 - t)
        + np.asarray(deep, np.float32) * t
    )
    under = (yy >= surface)[..., None]
    c.rgb = np.where(under, sea, c.rgb).astype(np.float32)
    shafts = (
        (np.sin(xx * 0.03 + yy * 0.012) > 0.8)
        * np.clip(1 - (yy - surface) / (c.h * 0.7), 0, 1)
        * (yy > surface)
    )
    c.add_light(p._blur(shafts.astype(np.float32), 8), (0.8, 0.95, 1.0), 0.22)
    floor = c.h * 0.88
    c.blend(
        np.clip((yy - floor - p.noise(x.rng, c.h, c.w, 60, 2) * 30) / 4, 0, 1),
        (0.75, 0.68, 0.5),
        0.9,
    )
    s = spr(x, x.main.name, x.uniform(0.3, 0.38) * c.h)
    s = p.tint(s, deep, 0.3)
    p.place(c, s, x.uniform(0.42, 0.58) * c.w, floor + 20, anchor="bottom")
    fish = pick_from(x, ["tropical-fish", "fish", "blowfish", "jellyfish", "octopus", "squid"])
    for _ in range(int(x.rng.integers(4, 7))):
        f = spr(x, fish, x.uniform(0.03, 0.05) * c.h, 0.5)
        if x.rng.random() < 0.5:
            f = p.flip_h(f)
        p.place(
            c,
            p.tint(f, deep, 0.2),
            x.uniform(0.1, 0.9) * c.w,
            x.uniform(surface / c.h + 0.08, 0.8) * c.h,
        )
    for _ in range(10):
        bubble(
            x,
            x.uniform(0.3, 0.7) * c.w,
            x.uniform(surface / c.h + 0.05, 0.7) * c.h,
            x.uniform(4, 10),
            0.7,
        )
    if stage == 0:
        p.line(c, [(0, surface), (c.w, surface)], (1, 1, 1), 3, 0.5)
        boat = night_tint(x, spr(x, "sailboat", 0.08 * c.h, 0.5))
        p.place(c, boat, x.uniform(0.2, 0.8) * c.w, surface + 8, anchor="bottom")
        x.add("sailboat", "boat above")
        x.form = "surface"
    else:
        whale = p.silhouette(spr(x, "whale", 0.2 * c.h, 0.6), deep)
        p.place(c, whale, x.uniform(0.3, 0.7) * c.w, 0.14 * c.h, opacity=0.5)
        x.add("whale", "shadow passing above")
        x.form = "deep"
    x.add(x.main.name, "under the sea")
    x.add(fish, "swimming around")
    x.name(b=fish)
    x.scenery += ["sea", "bubbles"]


def burrow(x: Ctx) -> None:
    """Cut-away ground: under a tree, a creature sleeps in a burrow lit by a star."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills", horizon=x.uniform(0.34, 0.4))
    yy, _xx = c.yy_xx()
    g = c.horizon + 0.05 * c.h
    edge = g + (p.noise(x.rng, c.h, c.w, 80, 2)[:1] - 0.5) * 16
    earth = np.clip((yy - edge) / 2, 0, 1).astype(np.float32)
    soil = p.mix(x.col(x.pal.dark), (0.42, 0.28, 0.18), 0.6)
    c.blend(earth, soil, 1.0)
    bands = (np.sin(yy * 0.05 + p.noise(x.rng, c.h, c.w, 50, 2) * 5) > 0.7) * earth
    c.blend(bands.astype(np.float32), p.mix(soil, (0, 0, 0), 0.25), 0.5)
    tx = x.uniform(0.3, 0.7) * c.w
    tree = night_tint(x, spr(x, "deciduous-tree", 0.26 * c.h))
    p.place(c, tree, tx, g + 6, anchor="bottom")
    root = p.mix(soil, (0.7, 0.55, 0.4), 0.3)
    for i in range(7):
        ang = math.pi * (0.15 + 0.7 * i / 6)
        ln = x.uniform(0.15, 0.3) * c.h
        pts = [
            (tx + math.cos(ang) * ln * t + math.sin(t * 5 + i) * 10, g + math.sin(ang) * ln * t)
            for t in np.linspace(0, 1, 10)
        ]
        p.line(c, pts, root, 4, 0.8)
    hx, hy = x.uniform(0.35, 0.65) * c.w, x.uniform(0.7, 0.78) * c.h
    hole = ellipse_mask(c, hx, hy, 0.3 * c.w, 0.11 * c.h)
    s = spr(x, x.main.name, 0.12 * c.h)
    if stage == 0:
        c.blend(hole, p.mix(soil, (0.95, 0.75, 0.45), 0.35), 1)
        p.place(
            c,
            p.rotate(s, 80 if x.rng.random() < 0.5 else -80),
            hx + 40,
            hy + 0.05 * c.h,
            anchor="bottom",
        )
        st = spr(x, "glowing-star", 0.06 * c.h, 0.5)
        p.glow_disc(c, hx - 0.17 * c.w, hy - 20, 90, (1, 0.9, 0.6), 0.6)
        p.place(c, st, hx - 0.17 * c.w, hy - 20)
        x.add("glowing-star", "night light")
        x.form = "asleep"
    else:
        night = next(q for q in PALETTES if q.time_of_day == "night")
        c.blend(hole, p.hex_rgb(night.sky[0]), 1)
        dots = (x.rng.random((c.h, c.w)) > 0.9985) * (hole > 0.9)
        c.add_light(p._blur(dots.astype(np.float32), 0.8) * 4, (1, 1, 0.9), 1)
        p.moon(c, x.rng, hx + 0.12 * c.w, hy - 10, 0.035 * c.w, p.hex_rgb(night.moon), 0.5, 0.5)
        p.place(c, s, max(0.14 * c.w, hx - 0.3 * c.w), hy - 0.06 * c.h)
        x.scenery += ["crescent moon", "stars"]
        x.form = "sky below"
    x.add(x.main.name, "underground")
    x.add("deciduous-tree", "tree above")
    x.name(b="deciduous-tree")
    x.scenery += ["roots", "earth"]


def rising_sun(x: Ctx) -> None:
    """A creature or thing rises over the sea like the sun (or sets behind the hills)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "water" if stage == 0 else "hills", "none", horizon=x.uniform(0.56, 0.64))
    s = spr(x, x.main.name, x.uniform(0.36, 0.44) * c.h)
    cx = c.w / 2 + x.uniform(-40, 40)
    line = c.horizon + 2
    glow = x.col(x.pal.moon)
    rays(x, cx, line - s.shape[0] * 0.3, 14, glow, 0.25)
    p.glow_disc(c, cx, line - s.shape[0] * 0.3, s.shape[0] * 1.1, glow, 0.6)
    sub = p.Canvas(c.rgb.copy(), c.horizon)
    p.place(sub, p.tint(s, glow, 0.35), cx, line + s.shape[0] * 0.35, anchor="bottom")
    m = np.zeros((c.h, 1), np.float32)
    m[: int(line)] = 1
    c.rgb = sub.rgb * m[..., None] + c.rgb * (1 - m[..., None])
    if stage == 0:
        col = p.polygon_mask(c, [(cx - 50, line), (cx + 50, line), (cx + 16, c.h), (cx - 16, c.h)])
        c.add_light(col * (p.noise(x.rng, c.h, c.w, 6, 2) > 0.5), glow, 0.6)
        for _ in range(2):
            b = p.silhouette(spr(x, "sailboat", 0.05 * c.h, 0.4), x.col(x.pal.dark))
            p.place(
                c, b, x.uniform(0.1, 0.9) * c.w, line + x.uniform(0.04, 0.12) * c.h, anchor="bottom"
            )
        x.add("sailboat", "boats")
        x.form = "sea"
    else:
        p.hills(c, x.rng, line / c.h + 0.05, 0.06, x.col(x.pal.near), cell=300)
        for i in range(4):
            hs = p.silhouette(spr(x, "house", 0.04 * c.h, 0.4), x.col(x.pal.dark))
            p.place(c, hs, c.w * (0.2 + 0.18 * i), ground_y(x) + 10, anchor="bottom")
        x.add("house", "village")
        x.form = "hills"
    x.add(x.main.name, "rising like the sun")
    x.scenery.append("sunrise")


def clothesline(x: Ctx) -> None:
    """Things hung out to dry among little moons (on a hill, or between two crescents)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills", "none")
    rope = p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.3)
    if stage == 0:
        x0, x1, y = 0.12 * c.w, 0.88 * c.w, ground_y(x) - 0.22 * c.h
        for px in (x0, x1):
            p.line(c, [(px, ground_y(x) + 10), (px, y - 10)], x.col(x.pal.dark), 6, 1)
        figure(x, c.w * 0.7, ground_y(x) + 14, 0.06 * c.h, "person-standing")
        x.form = "hill"
    else:
        x0, x1, y = 0.14 * c.w, 0.86 * c.w, 0.3 * c.h
        for px in (x0, x1):
            p.moon(c, x.rng, px, y - 20, 0.07 * c.w, x.col(x.pal.moon), 0.5)
        x.form = "moons"
    pts = [(x0 + (x1 - x0) * t, y + math.sin(t * math.pi) * 50) for t in np.linspace(0, 1, 24)]
    p.line(c, pts, p.mix(rope, x.col(x.pal.dark), 0.6), 3, 0.95)
    n = 5
    for i in range(n):
        t = (i + 0.6) / (n + 0.2)
        px, py = x0 + (x1 - x0) * t, y + math.sin(t * math.pi) * 50
        p.line(c, [(px, py - 8), (px, py + 10)], (0.75, 0.55, 0.35), 4, 1)
        if i % 2 == 0:
            s = spr(x, x.main.name, 0.13 * c.h, 0.6)
            p.place(c, night_tint(x, s), px, py + 6, anchor="top")
        else:
            p.moon(c, x.rng, px, py + 34, 26, x.col(x.pal.moon), 0.0 if i == 1 else 0.45, 0.3)
    x.add(x.main.name, "hung out to dry")
    x.count = 3
    x.scenery += ["clothesline", "moon"]


def beam(x: Ctx) -> None:
    """A beam of light reveals a creature in the night sky (a lighthouse, or a torch)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "water" if stage == 0 else "hills", "none", horizon=x.uniform(0.72, 0.78))
    if stage == 0:
        lx, lb = 0.78 * c.w, c.horizon + 0.08 * c.h
        c.blend(ellipse_mask(c, lx, lb, 110, 30), x.col(x.pal.dark), 1)
        th = 0.3 * c.h
        tower = p.polygon_mask(
            c, [(lx - 34, lb), (lx + 34, lb), (lx + 20, lb - th), (lx - 20, lb - th)]
        )
        c.blend(tower, (0.92, 0.9, 0.86), 1)
        yy, _ = c.yy_xx()
        c.blend(tower * (np.sin(yy / (th / 8) * math.pi) > 0.3), (0.75, 0.2, 0.2), 0.9)
        src = (lx, lb - th - 18)
        c.blend(ellipse_mask(c, src[0], src[1], 24, 18), (1, 0.95, 0.7), 1)
        x.scenery.append("lighthouse")
        x.form = "lighthouse"
    else:
        fx = 0.75 * c.w
        figure(x, fx, ground_y(x) + 10, 0.06 * c.h, "person-standing")
        src = (fx - 6, ground_y(x) - 0.045 * c.h)
        x.scenery.append("torch")
        x.form = "torch"
    tx, ty = x.uniform(0.2, 0.4) * c.w, x.uniform(0.18, 0.3) * c.h
    ang = math.atan2(ty - src[1], tx - src[0])
    spread = 0.16
    far = 1.6 * c.h
    cone = p.polygon_mask(
        c,
        [
            src,
            (src[0] + math.cos(ang - spread) * far, src[1] + math.sin(ang - spread) * far),
            (src[0] + math.cos(ang + spread) * far, src[1] + math.sin(ang + spread) * far),
        ],
    )
    cone = p._blur(cone, 6)
    c.add_light(cone, (1, 0.95, 0.75), 0.35)
    s = spr(x, x.main.name, x.uniform(0.22, 0.3) * c.h)
    sub = p.Canvas(c.rgb.copy(), c.horizon)
    p.place(sub, s, tx, ty)
    k = np.clip(cone * 1.3, 0, 1)[..., None]
    c.rgb = c.rgb * (1 - k) + sub.rgb * k
    ghost = p.silhouette(s, x.col(x.pal.cloud))
    p.place(c, ghost, tx, ty, opacity=0.08)
    x.add(x.main.name, "revealed by the beam")
    x.scenery.append("beam of light")


def sky_road(x: Ctx) -> None:
    """Rails (or a river) climb from the land into the sky; something travels up them."""
    c = x.c
    stage = x.staging()
    backdrop(
        x, "hills", "moon" if stage == 0 else "auto", moon_at=(0.7 * c.w, 0.1 * c.h, 0.06 * c.w)
    )
    sx, sy = x.uniform(0.2, 0.4) * c.w, c.h * 1.02
    tx, ty = 0.7 * c.w, 0.14 * c.h
    pts = [
        (sx + (tx - sx) * t + math.sin(t * 5) * 90 * (1 - t), sy + (ty - sy) * t)
        for t in np.linspace(0, 1, 60)
    ]
    if stage == 0:
        rail = p.mix(x.col(x.pal.dark), (0.6, 0.55, 0.5), 0.4)
        for side in (-1, 1):
            p.line(
                c,
                [(px + side * 26 * (1 - i / 60), py) for i, (px, py) in enumerate(pts)],
                rail,
                3,
                1,
            )
        for i in range(0, 60, 3):
            px, py = pts[i]
            w = 34 * (1 - i / 60) + 4
            p.line(c, [(px - w, py), (px + w, py)], p.mix(rail, (0.5, 0.35, 0.2), 0.5), 3, 0.9)
        x.scenery.append("railway")
        x.form = "rails"
    else:
        for i, (px, py) in enumerate(pts[:-1]):
            w = 80 * (1 - i / 60) + 6
            c.blend(ellipse_mask(c, px, py, w, 12), x.col(x.pal.water), 0.9)
        x.scenery.append("river")
        x.form = "river"
    t = x.uniform(0.35, 0.5)
    vx, vy = pts[int(t * 59)]
    s = spr(x, x.main.name, (0.25 - 0.1 * t) * c.h)
    p.sprite_glow(c, s, vx, vy + 10 - s.shape[0] / 2, x.col(x.pal.moon), 18, 0.45)
    p.place(c, s, vx, vy + 10, anchor="bottom")
    x.add(x.main.name, "travelling into the sky")


def hatching(x: Ctx) -> None:
    """A giant egg cracks open and something unexpected comes out."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water")
    ex = x.uniform(0.42, 0.58) * c.w
    ey = ground_y(x) - 0.1 * c.h if stage == 0 else c.horizon + 0.02 * c.h
    rx, ry = 0.2 * c.w, 0.13 * c.h
    shell = (0.97, 0.94, 0.86)
    if stage == 0:
        nest = ellipse_mask(c, ex, ey + ry * 0.9, rx * 1.45, ry * 0.45)
        c.blend(nest * (0.6 + 0.4 * p.noise(x.rng, c.h, c.w, 5, 2)), (0.45, 0.32, 0.2), 1)
        x.scenery.append("nest")
        x.form = "nest"
    else:
        x.form = "sea"
    yy, _ = c.yy_xx()
    lower = ellipse_mask(c, ex, ey, rx, ry * 1.25) * (yy > ey - ry * 0.1)
    c.blend(lower, p.mix(shell, x.col(x.pal.far), 0.15), 1)
    zig = [(ex - rx + 2 * rx * i / 8, ey - ry * 0.1 + (14 if i % 2 else -10)) for i in range(9)]
    p.line(c, zig, (0.6, 0.55, 0.45), 2, 0.9)
    s = spr(x, x.main.name, x.uniform(0.26, 0.32) * c.h)
    p.sprite_glow(c, s, ex, ey - ry * 0.1 - s.shape[0] / 2, x.col(x.pal.moon), 30, 0.6)
    p.place(c, s, ex, ey + ry * 0.2, anchor="bottom")
    front = [(ex - rx + 2 * rx * i / 8, ey + (10 if i % 2 else -14)) for i in range(9)]
    front += [
        (ex + rx * math.cos(u), ey + ry * 1.25 * math.sin(u)) for u in np.linspace(0, math.pi, 24)
    ]
    fm = p.polygon_mask(c, front)
    c.blend(fm, shell, 1)
    _, xx = c.yy_xx()
    c.blend(np.clip((xx - ex) / rx, 0, 1) * fm, p.mix(shell, (0.45, 0.4, 0.38), 0.5), 0.35)
    c.blend(np.clip(p._blur(fm, 1.5) * 2.5 - fm * 2.2, 0, 1), (0.45, 0.4, 0.36), 0.8)
    capx, capy = ex + x.sign() * rx * 1.25, ey - ry * 1.5
    tilt = x.uniform(0.3, 0.7) * x.sign()
    cap = [
        (
            capx
            + math.cos(u) * rx * 0.8 * math.cos(tilt)
            - math.sin(u) * ry * 0.7 * math.sin(tilt),
            capy
            + math.cos(u) * rx * 0.8 * math.sin(tilt)
            + math.sin(u) * ry * 0.7 * math.cos(tilt),
        )
        for u in np.linspace(math.pi, 2 * math.pi, 20)
    ]
    cm = p.polygon_mask(c, cap)
    c.blend(cm, shell, 1)
    c.blend(np.clip(p._blur(cm, 1.5) * 2.5 - cm * 2.2, 0, 1), (0.45, 0.4, 0.36), 0.8)
    if stage == 1:
        wet = lower * (yy > ey + ry * 0.75)
        c.blend(wet.astype(np.float32), x.col(x.pal.water), 0.7)
    x.add(x.main.name, "hatching")
    x.scenery.append("egg")


INSTRUMENT_BIRDS = ["dove", "bird", "butterfly", "blackbird"]


def music_birds(x: Ctx) -> None:
    """Notes rising from an instrument turn into birds (or into stars over the sea)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", "none" if stage == 0 else "auto")
    flier = pick_from(x, INSTRUMENT_BIRDS)
    s = night_tint(
        x, p.rotate(spr(x, x.main.name, x.uniform(0.22, 0.28) * c.h), x.uniform(-25, 25))
    )
    if stage == 0:
        ix, iy = x.uniform(0.25, 0.4) * c.w, ground_y(x) + 10
        p.place(c, s, ix, iy, anchor="bottom")
        figure(x, ix + s.shape[1] * 0.7, iy + 8, 0.05 * c.h)
        x.form = "birds"
    else:
        ix, iy = x.uniform(0.3, 0.45) * c.w, c.horizon + 0.1 * c.h
        p.place(c, s, ix, iy, anchor="bottom")
        submerge(x, s, ix, iy, iy - s.shape[0] * 0.15, anchor="bottom")
        x.form = "stars"
    n = 9
    for i in range(n):
        t = i / (n - 1)
        px = ix + (0.85 * c.w - ix) * t + math.sin(t * 6) * 50
        py = iy - s.shape[0] * 0.8 - (iy - 0.12 * c.h - s.shape[0] * 0.8) * t
        if t < 0.45:
            note = spr(x, "musical-note" if i % 2 else "musical-notes", 0.045 * c.h, 0.5)
            p.place(c, p.silhouette(note, x.col(x.pal.moon)), px, py)
        elif stage == 0:
            b = spr(x, flier, (0.03 + 0.03 * t) * c.h, 0.5)
            p.place(c, p.rotate(b, x.uniform(-20, 20)), px, py)
        else:
            p.glow_disc(c, px, py, 30 + 20 * t, x.col(x.pal.moon), 0.8)
    x.add(x.main.name, "played")
    x.add("musical-notes", "notes")
    if stage == 0:
        x.add(flier, "notes turned into")
        x.name(b=flier)
    else:
        x.scenery.append("stars")


def object_balloon(x: Ctx) -> None:
    """An everyday thing used as a hot-air balloon (or as a boat with a sail)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=x.uniform(0.62, 0.72))
    wood = p.mix(x.col(x.pal.dark), (0.55, 0.38, 0.25), 0.5)
    if stage == 0:
        cx, cy = x.uniform(0.4, 0.6) * c.w, x.uniform(0.3, 0.4) * c.h
        s = spr(x, x.main.name, x.uniform(0.26, 0.32) * c.h)
        p.place(c, night_tint(x, s), cx, cy)
        by = cy + s.shape[0] * 0.5 + 0.08 * c.h
        for dx in (-0.3, 0.3):
            p.line(
                c,
                [(cx + dx * s.shape[1], cy + s.shape[0] * 0.4), (cx + dx * 50, by)],
                wood,
                1.5,
                0.9,
            )
        c.blend(
            p.polygon_mask(
                c, [(cx - 30, by), (cx + 30, by), (cx + 24, by + 34), (cx - 24, by + 34)]
            ),
            wood,
            1,
        )
        fig = p.silhouette(spr(x, "person-standing", 0.03 * c.h, 0.4), x.col(x.pal.dark))
        p.place(c, fig, cx, by + 4, anchor="bottom")
        x.scenery.append("basket")
        x.form = "balloon"
    else:
        cx, wl = x.uniform(0.4, 0.6) * c.w, c.horizon + 0.14 * c.h
        s = spr(x, x.main.name, x.uniform(0.16, 0.2) * c.h)
        mast_top = wl - s.shape[0] * 0.4 - 0.22 * c.h
        p.line(c, [(cx, wl - s.shape[0] * 0.4), (cx, mast_top)], wood, 4, 1)
        sail = p.polygon_mask(
            c,
            [
                (cx + 4, mast_top),
                (cx + 4, wl - s.shape[0] * 0.5),
                (cx + 0.18 * c.w, wl - s.shape[0] * 0.55),
            ],
        )
        c.blend(sail, p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.5), 0.95)
        p.place(c, night_tint(x, s), cx, wl, anchor="bottom")
        fig = p.silhouette(spr(x, "person-standing", 0.035 * c.h, 0.4), x.col(x.pal.dark))
        p.place(c, fig, cx - 20, wl - s.shape[0] * 0.55, anchor="bottom")
        r = p.flip_v(p.tint(s, x.col(x.pal.water), 0.5))
        p.place(c, r, cx, wl, opacity=0.35, anchor="top")
        x.scenery.append("sail")
        x.form = "boat"
    x.add(x.main.name, "used as a vehicle")
    x.add("person-standing", "traveller")


def own_weather(x: Ctx) -> None:
    """A creature carries its own weather: a rain cloud on a sunny day, or sun in the night."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills")
    cx, gy = x.uniform(0.4, 0.6) * c.w, ground_y(x) + 10
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.2, 0.26) * c.h))
    if stage == 0:
        cy = gy - s.shape[0] - 0.1 * c.h
        rain = np.zeros((c.h, c.w), np.float32)
        for _ in range(60):
            rx0, ry0 = cx + x.uniform(-0.7, 0.7) * s.shape[1] * 0.6, x.uniform(cy, gy)
            rain[int(ry0) : int(ry0) + 14, int(rx0)] = 1
        c.blend(p._blur(rain, 0.7), (0.75, 0.85, 1.0), 0.7)
        puff(x, cx, cy, s.shape[1] * 1.4, 70, p.mix(x.col(x.pal.cloud), (0.3, 0.33, 0.4), 0.5), 1)
        c.blend(ellipse_mask(c, cx, gy + 4, s.shape[1] * 0.6, 12), x.col(x.pal.water), 0.7)
        x.scenery += ["rain cloud", "puddle"]
        x.form = "rain"
    else:
        c.rgb *= 0.55
        cone = p.polygon_mask(
            c,
            [
                (cx - 30, 0.1 * c.h),
                (cx + 30, 0.1 * c.h),
                (cx + s.shape[1], gy + 10),
                (cx - s.shape[1], gy + 10),
            ],
        )
        c.add_light(p._blur(cone, 20), (1, 0.9, 0.6), 0.55)
        sun = spr(x, "sun-with-face", 0.07 * c.h, 0.4)
        p.place(c, sun, cx, 0.1 * c.h)
        for i in range(5):
            f = spr(x, "tulip", 0.04 * c.h, 0.4)
            p.place(c, f, cx + (i - 2) * s.shape[1] * 0.35, gy + 14, anchor="bottom")
        x.add("sun-with-face", "its own sun")
        x.scenery.append("sunbeam")
        x.form = "sun"
    p.place(c, s, cx, gy, anchor="bottom")
    x.add(x.main.name, "under its own weather")


def constellation(x: Ctx) -> None:
    """Stars joined into the main motif's shape; someone on a hill watches (or it climbs down)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills", "none", horizon=x.uniform(0.74, 0.8))
    s = spr(x, x.main.name, x.uniform(0.46, 0.54) * c.h, 1.2)
    cx, cy = c.w / 2, x.uniform(0.34, 0.4) * c.h
    m = p.sprite_mask(c, s, cx, cy)
    edge = np.clip(m - np.clip(p._blur(m, 3) * 1.3 - 0.3, 0, 1), 0, 1) > 0.3
    ys, xs = np.nonzero(edge)
    pts = _spread(x, np.stack([xs, ys], axis=1).astype(np.float64), 15)
    p.place(c, p.silhouette(s, x.col(x.pal.cloud)), cx, cy, opacity=0.2)
    starc = (1.0, 0.97, 0.85)
    for i, j in _tree(pts):
        p.line(c, [pts[i], pts[j]], starc, 2.2, 0.6)
    for px, py in pts:
        p.glow_disc(c, px, py, 30, starc, 0.8)
        c.blend(ellipse_mask(c, px, py, 6, 6), starc, 1)
    if stage == 0:
        tel = night_tint(x, spr(x, "telescope", 0.07 * c.h, 0.5))
        fx = x.uniform(0.2, 0.3) * c.w
        p.place(c, tel, fx + 40, ground_y(x) + 6, anchor="bottom")
        figure(x, fx, ground_y(x) + 8, 0.05 * c.h, "person-standing")
        x.add("telescope", "telescope")
        x.form = "watched"
    else:
        real = night_tint(x, spr(x, x.main.name, 0.12 * c.h))
        p.place(c, real, x.uniform(0.3, 0.7) * c.w, ground_y(x) + 10, anchor="bottom")
        x.form = "come down"
    x.add(x.main.name, "constellation")
    x.scenery.append("constellation")


def _spread(x: Ctx, cand: np.ndarray, n: int) -> list[Pt]:
    """``n`` points of ``cand`` spread far apart (farthest-point sampling)."""
    chosen = [int(x.rng.integers(len(cand)))]
    dist = np.hypot(*(cand - cand[chosen[0]]).T)
    for _ in range(n - 1):
        k = int(np.argmax(dist))
        chosen.append(k)
        dist = np.minimum(dist, np.hypot(*(cand - cand[k]).T))
    return [(float(cand[k][0]), float(cand[k][1])) for k in chosen]


def _tree(pts: list[Pt]) -> list[tuple[int, int]]:
    """Edges of the shortest tree joining ``pts`` (how star charts join a figure)."""
    inside, edges = {0}, []
    while len(inside) < len(pts):
        i, j = min(
            ((i, j) for i in inside for j in range(len(pts)) if j not in inside),
            key=lambda e: math.dist(pts[e[0]], pts[e[1]]),
        )
        inside.add(j)
        edges.append((i, j))
    return edges


def upside_down(x: Ctx) -> None:
    """A second world hangs upside down from the top of the sky."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=x.uniform(0.76, 0.82))
    before = c.rgb.copy()
    top = p.Canvas(c.rgb.copy(), int(0.8 * c.h))
    p.hills(top, x.rng, 0.7, 0.07, x.col(x.pal.far), cell=260)
    p.hills(top, x.rng, 0.8, 0.05, x.col(x.pal.near), cell=320)
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.26, 0.32) * c.h))
    p.place(top, s, c.w / 2 + x.uniform(-60, 60), 0.9 * c.h, anchor="bottom")
    fig = p.silhouette(spr(x, "person-standing", 0.05 * c.h, 0.5), x.col(x.pal.dark))
    p.place(top, fig, x.uniform(0.15, 0.3) * c.w, 0.9 * c.h, anchor="bottom")
    m = np.clip(np.abs(top.rgb - before).sum(-1) * 20, 0, 1)[::-1, ..., None]
    c.rgb = top.rgb[::-1] * m + c.rgb * (1 - m)
    gy = (ground_y(x) + 10) if stage == 0 else c.horizon + 0.06 * c.h
    figure(x, x.uniform(0.55, 0.8) * c.w, gy, 0.05 * c.h, "person-standing")
    if stage == 1:
        boat = night_tint(x, spr(x, "canoe", 0.06 * c.h, 0.5))
        p.place(c, boat, x.uniform(0.3, 0.5) * c.w, c.horizon + 0.07 * c.h, anchor="bottom")
        x.add("canoe", "boat")
        x.form = "sea"
    else:
        x.form = "hills"
    x.add(x.main.name, "hanging upside down")
    x.scenery.append("upside-down world")


def nest(x: Ctx) -> None:
    """A bird's nest high up holds something that is not an egg."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills")
    bird = pick_from(x, BIRDS)
    cx = x.uniform(0.4, 0.6) * c.w
    trunk = p.mix(x.col(x.pal.dark), (0.35, 0.25, 0.2), 0.4)
    if stage == 0:
        ny = x.uniform(0.36, 0.44) * c.h
        p.line(
            c,
            [(cx + 20, ground_y(x) + 20), (cx + 30, (ny + ground_y(x)) / 2), (cx, ny + 30)],
            trunk,
            18,
            1,
        )
        for sgn in (-1, 1):
            p.line(
                c,
                [(cx, ny + 40), (cx + sgn * 120, ny - 30), (cx + sgn * 170, ny - 80)],
                trunk,
                6,
                1,
            )
        x.scenery.append("bare tree")
        x.form = "tree"
    else:
        ny = ground_y(x) - 0.26 * c.h
        house = night_tint(x, spr(x, "house", 0.3 * c.h))
        p.place(c, house, cx - 40, ground_y(x) + 10, anchor="bottom")
        x.add("house", "house below")
        x.form = "roof"
    s = spr(x, x.main.name, 0.1 * c.h, 0.6)
    p.sprite_glow(c, s, cx, ny - 10, x.col(x.pal.moon), 18, 0.5)
    for dx in (-0.07, 0.07):
        p.place(c, s, cx + dx * c.w, ny - 10)
    p.place(c, s, cx, ny - 20)
    nestm = ellipse_mask(c, cx, ny + 20, 0.2 * c.w, 0.045 * c.h)
    c.blend(nestm * (0.5 + 0.5 * p.noise(x.rng, c.h, c.w, 4, 2)), (0.5, 0.36, 0.22), 1)
    b = night_tint(x, spr(x, bird, 0.1 * c.h))
    p.place(
        c, p.flip_h(b) if x.rng.random() < 0.5 else b, cx + 0.22 * c.w, ny + 10, anchor="bottom"
    )
    x.add(x.main.name, "in the nest")
    x.add(bird, "sitting beside it")
    x.name(b=bird)
    x.scenery.append("nest")


def cloud_shape(x: Ctx) -> None:
    """A cloud has the shape of a creature; below, someone (or the creature itself) looks up."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "shore", "auto")
    s = spr(x, x.main.name, x.uniform(0.36, 0.44) * c.h, 1.6)
    cx, cy = c.w / 2 + x.uniform(-40, 40), x.uniform(0.28, 0.34) * c.h
    m = p.sprite_mask(c, s, cx, cy)
    soft = np.clip(p._blur(m, 10) * 1.5, 0, 1) * (0.75 + 0.25 * p.noise(x.rng, c.h, c.w, 20, 3))
    cc = p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.2)
    c.blend(soft.astype(np.float32), cc, 0.92)
    shade = np.clip(soft - np.roll(soft, -10, axis=0), 0, 1)
    c.blend(shade.astype(np.float32), p.mix(cc, x.col(x.pal.far), 0.6), 0.6)
    halo = np.clip(p._blur(m, 18) * 1.4 - soft, 0, 1)
    c.blend(halo.astype(np.float32), p.mix(x.col(x.pal.far), x.col(x.pal.dark), 0.3), 0.25)
    if stage == 0:
        lie = p.rotate(
            p.silhouette(spr(x, "person-standing", 0.05 * c.h, 0.5), x.col(x.pal.dark)), 90
        )
        for i in range(2):
            p.place(c, lie, c.w * (0.35 + 0.2 * i), ground_y(x) + 4 + i * 6, anchor="bottom")
        x.add("person-standing", "watchers lying in the grass")
        x.form = "watchers"
    else:
        small = night_tint(x, spr(x, x.main.name, 0.08 * c.h))
        p.place(c, small, x.uniform(0.3, 0.7) * c.w, c.h * 0.93, anchor="bottom")
        x.form = "itself"
    x.add(x.main.name, "shape of the cloud")
    x.scenery.append("clouds")


def moon_swing(x: Ctx) -> None:
    """A creature on a swing hung from the crescent moon (or sailing in it as a boat)."""
    c = x.c
    stage = x.staging()
    backdrop(
        x,
        "hills" if stage == 0 else "water",
        "none",
        horizon=x.uniform(0.74, 0.8) if stage == 0 else x.uniform(0.56, 0.62),
    )
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.14, 0.18) * c.h))
    if stage == 0:
        mx, my, mr = x.uniform(0.45, 0.6) * c.w, 0.16 * c.h, 0.16 * c.w
        p.moon(c, x.rng, mx, my, mr, x.col(x.pal.moon), 0.5)
        sy = my + 0.36 * c.h
        rope = p.mix(x.col(x.pal.moon), (0.6, 0.5, 0.4), 0.4)
        for dx in (-50, 50):
            p.line(
                c,
                [(mx - mr * 0.3 + dx * 0.2, my + mr * 0.6), (mx - mr * 0.3 + dx, sy)],
                rope,
                2,
                0.9,
            )
        p.line(c, [(mx - mr * 0.3 - 70, sy), (mx - mr * 0.3 + 70, sy)], (0.6, 0.42, 0.3), 7, 1)
        p.place(c, s, mx - mr * 0.3, sy + 4, anchor="bottom")
        x.form = "swing"
    else:
        mx, my, r = x.uniform(0.4, 0.6) * c.w, c.horizon + 0.1 * c.h, 0.22 * c.w
        boat = np.clip(p._disc(c, mx, my, r) - p._disc(c, mx, my - r * 0.55, r * 1.02), 0, 1)
        p.glow_disc(c, mx, my + r * 0.6, r * 1.6, x.col(x.pal.moon), 0.4)
        c.blend(boat, x.col(x.pal.moon), 1)
        p.place(c, s, mx, my + r * 0.5, anchor="bottom")
        wet = boat * (np.arange(c.h)[:, None] > my + r * 0.8)
        c.blend(wet.astype(np.float32), x.col(x.pal.water), 0.55)
        x.form = "boat"
    x.add(x.main.name, "with the moon")
    x.scenery.append("crescent moon")


def metamorphosis(x: Ctx) -> None:
    """A flight of things leaves a chimney (or a person's hands) and turns into birds."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills")
    flier = pick_from(x, INSTRUMENT_BIRDS)
    if stage == 0:
        ox, oy = x.uniform(0.2, 0.3) * c.w, ground_y(x) - 0.02 * c.h
        house = night_tint(x, spr(x, "house", 0.14 * c.h))
        p.place(c, house, ox, ground_y(x) + 14, anchor="bottom")
        oy = ground_y(x) + 14 - house.shape[0]
        x.add("house", "chimney")
        x.form = "house"
    else:
        ox = x.uniform(0.2, 0.3) * c.w
        figure(x, ox, ground_y(x) + 10, 0.07 * c.h, "person-standing")
        oy = ground_y(x) - 0.06 * c.h
        x.form = "hands"
    n = 11
    for i in range(n):
        t = i / (n - 1)
        px = ox + (0.85 * c.w - ox) * t + math.sin(t * 5) * 40
        py = oy - (oy - 0.12 * c.h) * t**0.8
        h = (0.04 + 0.03 * t) * c.h
        name = x.main.name if t < 0.5 else flier
        p.place(c, p.rotate(night_tint(x, spr(x, name, h, 0.5)), x.uniform(-25, 25)), px, py)
    x.add(x.main.name, "flying away")
    x.add(flier, "turning into")
    x.name(b=flier)


CUPS = [
    "teacup-without-handle",
    "hot-beverage",
    "bathtub",
    "bucket",
    "basket",
    "jar",
    "hiking-boot",
]


def storm_in_cup(x: Ctx) -> None:
    """A storm at sea inside a cup (on a hill, or floating on a calm sea)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=x.uniform(0.6, 0.68))
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.3, 0.36) * c.h))
    cx = x.uniform(0.42, 0.58) * c.w
    bottom = ground_y(x) + 14 if stage == 0 else c.horizon + 0.18 * c.h
    box = p.place(c, s, cx, bottom, anchor="bottom")
    rim_y = box[1] + (box[3] - box[1]) * 0.16
    rx = (box[2] - box[0]) * 0.36
    sea = ellipse_mask(c, cx, rim_y, rx, 22)
    c.blend(sea, p.mix(x.col(x.pal.water), (0.1, 0.2, 0.3), 0.4), 1)
    c.add_light(sea * (p.noise(x.rng, c.h, c.w, 5, 2) > 0.6), (1, 1, 1), 0.5)
    boat = spr(x, "sailboat", 0.07 * c.h, 0.4)
    p.place(
        c,
        p.rotate(boat, x.uniform(15, 30) * x.sign()),
        cx + x.uniform(-0.3, 0.3) * rx,
        rim_y + 6,
        anchor="bottom",
    )
    cloud = spr(x, "cloud-with-lightning", 0.14 * c.h, 0.6)
    p.place(c, cloud, cx, rim_y - 0.17 * c.h)
    if stage == 1:
        r = p.flip_v(p.tint(s, x.col(x.pal.water), 0.5))
        p.place(c, r, cx, bottom, opacity=0.3, anchor="top")
        x.form = "afloat"
    else:
        x.form = "hill"
    x.add(x.main.name, "holding a storm")
    x.add("sailboat", "boat in the storm")
    x.add("cloud-with-lightning", "storm cloud")
    x.scenery += ["storm", "waves"]


LIGHT_THINGS = ["feather", "leaf-fluttering-in-wind", "butterfly", "four-leaf-clover", "maple-leaf"]


def seesaw(x: Ctx) -> None:
    """A seesaw where a feather outweighs a heavy creature (on a hilltop, or a rock at sea)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=x.uniform(0.62, 0.7))
    light = pick_from(x, LIGHT_THINGS)
    px = x.uniform(0.45, 0.55) * c.w
    py = ground_y(x) - 0.06 * c.h if stage == 0 else c.horizon + 0.04 * c.h
    rock = p.mix(x.col(x.pal.dark), x.col(x.pal.near), 0.5)
    c.blend(p.polygon_mask(c, [(px - 60, py + 80), (px, py), (px + 60, py + 80)]), rock, 1)
    if stage == 1:
        c.blend(ellipse_mask(c, px, py + 90, 160, 40), rock, 1)
        x.form = "sea"
    else:
        x.form = "hill"
    tilt = math.radians(x.uniform(12, 18)) * x.sign()
    half = 0.36 * c.w
    a = (px - math.cos(tilt) * half, py - math.sin(tilt) * half)
    b = (px + math.cos(tilt) * half, py + math.sin(tilt) * half)
    p.line(c, [a, b], p.mix(rock, (0.6, 0.45, 0.3), 0.6), 9, 1)
    heavy, feather = (a, b) if a[1] < b[1] else (b, a)  # the heavy end is up in the air
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.15, 0.2) * c.h))
    p.place(c, s, heavy[0], heavy[1] - 2, anchor="bottom")
    f = spr(x, light, 0.06 * c.h, 0.5)
    p.place(c, f, feather[0], feather[1] - 2, anchor="bottom")
    x.add(x.main.name, "outweighed")
    x.add(light, "heavier than it looks")
    x.name(b=light)
    x.scenery.append("seesaw")


def tightrope(x: Ctx) -> None:
    """Someone walks a rope stretched from the main motif to the moon, over clouds or sea."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", "none", horizon=x.uniform(0.78, 0.84))
    side = x.sign()
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.34, 0.42) * c.h))
    half = s.shape[1] / 2 + 24
    bx = min(max(c.w / 2 - side * 0.28 * c.w, half), c.w - half)
    p.place(c, s, bx, c.horizon + 0.1 * c.h, anchor="bottom")
    top = (bx, c.horizon + 0.1 * c.h - s.shape[0] * 0.92)
    mx, my = c.w / 2 + side * 0.3 * c.w, 0.14 * c.h
    p.moon(c, x.rng, mx, my, 0.08 * c.w, x.col(x.pal.moon), 0.0 if stage == 0 else 0.5)
    rope = [
        (top[0] + (mx - top[0]) * t, top[1] + (my - top[1]) * t + math.sin(t * math.pi) * 40)
        for t in np.linspace(0, 1, 30)
    ]
    p.line(c, rope, p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.3), 1.5, 0.9)
    t = x.uniform(0.4, 0.6)
    fx, fy = rope[int(t * 29)]
    fig = p.silhouette(spr(x, "person-standing", 0.05 * c.h, 0.5), x.col(x.pal.dark))
    p.place(c, fig, fx, fy + 2, anchor="bottom")
    p.line(
        c, [(fx - 50, fy - 0.03 * c.h + 6), (fx + 50, fy - 0.03 * c.h - 6)], x.col(x.pal.dark), 2, 1
    )
    if stage == 0:
        for _ in range(3):
            puff(
                x,
                x.uniform(0.1, 0.9) * c.w,
                x.uniform(0.55, 0.7) * c.h,
                240,
                60,
                x.col(x.pal.cloud),
                0.85,
            )
        x.form = "clouds"
    else:
        x.form = "sea"
    x.add(x.main.name, "one end of the rope")
    x.add("person-standing", "tightrope walker")
    x.scenery += ["tightrope", "moon"]


LANTERNS = ["red-paper-lantern", "diya-lamp", "candle", "flashlight", "light-bulb", "glowing-star"]


def night_walk(x: Ctx) -> None:
    """A creature walks through a dark wood (or over a frozen lake) carrying a light."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", "none", horizon=x.uniform(0.64, 0.7))
    c.rgb *= 0.7
    lamp = pick_from(x, LANTERNS)
    if stage == 0:
        for i in range(9):
            tx = (i + x.uniform(-0.3, 0.3)) / 8 * c.w
            tree = p.silhouette(
                spr(x, "evergreen-tree", x.uniform(0.25, 0.45) * c.h, 0.6), x.col(x.pal.dark)
            )
            p.place(c, tree, tx, ground_y(x) + x.uniform(0, 40), anchor="bottom")
        x.scenery.append("forest")
        x.form = "wood"
    else:
        c.add_light(
            p.noise(x.rng, c.h, c.w, 30, 2) * (np.arange(c.h)[:, None] > c.horizon),
            (0.8, 0.9, 1),
            0.2,
        )
        x.scenery.append("ice")
        x.form = "ice"
    cx, gy = x.uniform(0.4, 0.6) * c.w, ground_y(x) + 0.06 * c.h
    s = spr(x, x.main.name, x.uniform(0.16, 0.2) * c.h)
    p.glow_disc(c, cx + s.shape[1] * 0.5, gy - s.shape[0] * 0.6, 0.35 * c.w, (1, 0.85, 0.55), 0.55)
    p.place(c, p.tint(s, (1, 0.8, 0.5), 0.15), cx, gy, anchor="bottom")
    ls = spr(x, lamp, 0.06 * c.h, 0.5)
    p.sprite_glow(c, ls, cx + s.shape[1] * 0.5, gy - s.shape[0] * 0.6, (1, 0.9, 0.6), 16, 0.8)
    p.place(c, ls, cx + s.shape[1] * 0.5, gy - s.shape[0] * 0.6)
    for _ in range(14):
        fx, fy = x.uniform(0.1, 0.9) * c.w, x.uniform(0.4, 0.85) * c.h
        p.glow_disc(c, fx, fy, 8, (1, 0.95, 0.6), 0.9)
    x.add(x.main.name, "walker in the dark")
    x.add(lamp, "carried light")
    x.name(b=lamp)
    x.scenery.append("fireflies")


def _reflect(pt: Pt, a: Pt, b: Pt) -> Pt:
    """``pt`` mirrored across the line through ``a`` and ``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / (dx * dx + dy * dy)
    fx, fy = a[0] + t * dx, a[1] + t * dy
    return (2 * fx - pt[0], 2 * fy - pt[1])


def torn_sky(x: Ctx) -> None:
    """The sky is torn (and being stitched) or peeled back; behind it, space and the motif."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", "none")
    t = np.linspace(0, 1, c.h, dtype=np.float32)[:, None, None]
    top_col, low_col = np.array([0.02, 0.02, 0.07], "f4"), np.array([0.1, 0.12, 0.3], "f4")
    grad = (top_col * (1 - t) + low_col * t).astype(np.float32)
    space = p.Canvas(np.broadcast_to(grad, c.rgb.shape).copy(), c.h)
    p.stars(space, x.rng, 500)
    if stage == 0:
        cx, top, bot = x.uniform(0.42, 0.58) * c.w, 0.06 * c.h, 0.56 * c.h
        left, right = [], []
        for t in np.linspace(0, 1, 16):
            y = top + (bot - top) * t
            w = math.sin(t * math.pi) * 0.2 * c.w + x.uniform(0, 10)
            bend = math.sin(t * 5) * 24
            left.append((cx - w + bend + x.uniform(-12, 12), y))
            right.append((cx + w + bend + x.uniform(-12, 12), y))
        mask = p.polygon_mask(c, left + right[::-1])
        sx, sy = cx, (top + bot) / 2
        x.form = "stitched"
    else:
        fold_a, fold_b = (0.35 * c.w, 0.0), (float(c.w), 0.5 * c.h)
        mask = p.polygon_mask(c, [fold_a, (c.w, 0), fold_b])
        sx, sy = 0.8 * c.w, 0.13 * c.h
        x.form = "peeled"
    s = spr(x, x.main.name, x.uniform(0.2, 0.26) * c.h)
    p.sprite_glow(space, s, sx, sy, (0.7, 0.75, 1.0), 26, 0.4)
    p.place(space, s, sx, sy)
    m3 = mask[..., None]
    c.rgb = c.rgb * (1 - m3) + space.rgb * m3
    paper = p.mix(x.col(x.pal.cloud), (1, 0.97, 0.9), 0.5)
    rim = np.clip(p._blur(mask, 4) * 2.2, 0, 1) * (1 - mask)
    c.blend(rim.astype(np.float32), paper, 0.9)
    thread = (0.85, 0.2, 0.2)
    if stage == 0:
        n = 5
        for i in range(n):
            k = 5 + i * 2
            (lx, ly), (rx, ry) = left[k], right[k]
            p.line(c, [(lx - 14, ly - 12), (rx + 14, ry + 12)], thread, 2.5, 1)
        nx, ny = right[5 + n * 2][0] + 30, right[5 + n * 2][1]
        needle = p.rotate(spr(x, "sewing-needle", 0.12 * c.h, 0.4), -30)
        p.place(c, needle, nx + 40, ny)
        fx, gy = x.uniform(0.15, 0.25) * c.w, ground_y(x) + 10
        p.line(
            c,
            [(nx + 20, ny + 30), ((nx + fx) / 2, (ny + gy) / 2 + 60), (fx + 10, gy - 0.05 * c.h)],
            thread,
            1.5,
            0.9,
        )
        figure(x, fx, gy, 0.06 * c.h, "person-standing")
        x.add("sewing-needle", "stitching the sky")
    else:
        corner = _reflect((c.w, 0.0), fold_a, fold_b)
        flap = p.polygon_mask(c, [fold_a, corner, fold_b])
        c.blend(flap, paper, 1)
        c.blend(
            flap * np.clip(p.noise(x.rng, c.h, c.w, 30, 2), 0, 1), p.mix(paper, (0, 0, 0), 0.2), 0.4
        )
        p.line(c, [fold_a, fold_b], p.mix(paper, (0, 0, 0), 0.35), 2, 0.8)
        figure(
            x, x.uniform(0.2, 0.5) * c.w, c.horizon + 0.1 * c.h, 0.05 * c.h, "person-rowing-boat"
        )
    x.add(x.main.name, "behind the sky")
    x.scenery += ["space", "stars"]


def out_of_hat(x: Ctx) -> None:
    """Something far too big climbs out of a top hat (in a field, or afloat at sea)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills" if stage == 0 else "water", horizon=x.uniform(0.6, 0.66))
    hat = p.flip_v(night_tint(x, spr(x, "top-hat", 0.24 * c.h)))  # upturned, as in the trick
    cx = x.uniform(0.42, 0.58) * c.w
    bottom = ground_y(x) + 30 if stage == 0 else c.horizon + 0.2 * c.h
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.3, 0.36) * c.h))
    top = bottom - hat.shape[0]
    rim = top + hat.shape[0] * 0.14
    p.sprite_glow(c, s, cx, rim - s.shape[0] / 2, x.col(x.pal.moon), 24, 0.45)
    p.place(c, s, cx, rim, anchor="bottom")
    p.place(c, hat, cx, bottom, anchor="bottom")
    for _ in range(12):
        p.glow_disc(
            c,
            cx + x.uniform(-0.3, 0.3) * c.w,
            top - x.uniform(0, 0.35) * c.h,
            9,
            (1, 0.95, 0.7),
            0.9,
        )
    if stage == 0:
        figure(x, cx + x.sign() * 0.3 * c.w, ground_y(x) + 24, 0.06 * c.h, "person-standing")
        x.form = "field"
    else:
        r = p.flip_v(p.tint(hat, x.col(x.pal.water), 0.5))
        p.place(c, r, cx, bottom, opacity=0.35, anchor="top")
        x.form = "sea"
    x.add(x.main.name, "coming out of the hat")
    x.add("top-hat", "hat")
    x.name(b="top-hat")
    x.scenery.append("sparkles")


def moon_garden(x: Ctx) -> None:
    """Little moons grow on stems in a garden that a creature tends (or carries in a basket)."""
    c = x.c
    stage = x.staging()
    backdrop(x, "hills", "none", horizon=x.uniform(0.62, 0.68))
    soil = p.mix(x.col(x.pal.dark), (0.35, 0.25, 0.18), 0.5)
    bed_y = ground_y(x) + 40
    c.blend(ellipse_mask(c, c.w * 0.55, bed_y + 20, 0.42 * c.w, 0.05 * c.h), soil, 1)
    stem = p.mix(x.col(x.pal.near), (0.2, 0.5, 0.25), 0.6)
    n = 6
    for i in range(n):
        sx = c.w * (0.2 + 0.12 * i) + x.uniform(-10, 10)
        h = x.uniform(0.14, 0.3) * c.h
        tip = (sx + x.uniform(-30, 30), bed_y - h)
        p.line(
            c, [(sx, bed_y + 10), ((sx + tip[0]) / 2 + 12, (bed_y + tip[1]) / 2), tip], stem, 4, 1
        )
        c.blend(ellipse_mask(c, sx + 14, bed_y - h * 0.4, 16, 7), stem, 1)
        p.moon(
            c,
            x.rng,
            tip[0],
            tip[1] - 18,
            x.uniform(16, 26),
            x.col(x.pal.moon),
            [0.0, 0.5][i % 2],
            0.5,
        )
    s = night_tint(x, spr(x, x.main.name, x.uniform(0.17, 0.22) * c.h))
    sx = s.shape[1] / 2 + 20 if stage == 0 else c.w - s.shape[1] / 2 - 20
    p.place(c, s, sx, bed_y + 30, anchor="bottom")
    if stage == 0:
        can = night_tint(x, spr(x, "bucket", 0.05 * c.h, 0.4))
        p.place(c, can, sx + s.shape[1] * 0.5, bed_y + 30, anchor="bottom")
        x.add("bucket", "watering")
        x.form = "tending"
    else:
        basket = night_tint(x, spr(x, "basket", 0.08 * c.h, 0.4))
        bx = sx - s.shape[1] * 0.6
        p.place(c, basket, bx, bed_y + 30, anchor="bottom")
        for k in range(3):
            p.moon(
                c,
                x.rng,
                bx - 14 + 14 * k,
                bed_y + 30 - basket.shape[0] * 0.8,
                12,
                x.col(x.pal.moon),
                0.0,
                0.3,
            )
        x.add("basket", "harvest")
        x.form = "harvest"
    x.add(x.main.name, "gardener")
    x.scenery += ["garden", "moons"]


def room(x: Ctx) -> None:
    """Indoors: the sea pours in through the window (or clouds drift in over the bed)."""
    c = x.c
    stage = x.staging()
    outside = p.Canvas(np.zeros_like(c.rgb), c.horizon)
    keep = x.c
    x.c = outside
    backdrop(x, "water", horizon=0.42)
    x.c = keep
    wall = p.mix(x.col(x.pal.cloud), (0.8, 0.68, 0.55), 0.55)
    if x.pal.is_dark:
        wall = p.mix(wall, (0.15, 0.12, 0.2), 0.45)
    c.rgb[:] = np.asarray(wall, np.float32)
    _, xx = c.yy_xx()
    c.blend((np.sin(xx / 18) > 0.75).astype(np.float32), p.mix(wall, (1, 1, 1), 0.25), 0.5)
    floor_y = 0.74 * c.h
    wood = p.mix(wall, (0.45, 0.3, 0.2), 0.6)
    c.blend(p.polygon_mask(c, [(0, floor_y), (c.w, floor_y), (c.w, c.h), (0, c.h)]), wood, 1)
    for i in range(9):
        p.line(
            c,
            [(c.w * i / 8, floor_y), (c.w * (i / 8 - 0.5) * 1.8 + c.w / 2, c.h)],
            p.mix(wood, (0, 0, 0), 0.3),
            2,
            0.6,
        )
    wx0, wy0, wx1, wy1 = 0.3 * c.w, 0.16 * c.h, 0.7 * c.w, 0.46 * c.h
    win = p.polygon_mask(c, [(wx0, wy0), (wx1, wy0), (wx1, wy1), (wx0, wy1)])
    c.rgb = c.rgb * (1 - win[..., None]) + outside.rgb * win[..., None]
    frame = p.mix(wall, (1, 1, 1), 0.5)
    p.line(c, [(wx0, wy0), (wx1, wy0), (wx1, wy1), (wx0, wy1), (wx0, wy0)], frame, 10, 1)
    p.line(c, [((wx0 + wx1) / 2, wy0), ((wx0 + wx1) / 2, wy1)], frame, 5, 1)
    s = spr(x, x.main.name, x.uniform(0.16, 0.2) * c.h)
    if stage == 0:
        mid = (wx0 + wx1) / 2
        band = p.polygon_mask(
            c,
            [
                (mid - 70, wy1 - 6),
                (mid + 70, wy1 - 6),
                (mid + 120, floor_y + 50),
                (mid - 120, floor_y + 50),
            ],
        )
        c.blend(band, x.col(x.pal.water), 0.92)
        yy, _ = c.yy_xx()
        streaks = (np.sin(xx / 7 + p.noise(x.rng, c.h, c.w, 40, 2) * 6) > 0.6) * band
        c.blend(streaks.astype(np.float32), (0.92, 0.97, 1.0), 0.45)
        sea = p.polygon_mask(c, [(0, floor_y + 40), (c.w, floor_y + 40), (c.w, c.h), (0, c.h)])
        c.blend(sea, x.col(x.pal.water), 0.88)
        ripples = (np.sin(yy / 5 + p.noise(x.rng, c.h, c.w, 50, 2) * 8) > 0.85) * sea
        c.add_light(ripples.astype(np.float32), (1, 1, 1), 0.2)
        c.add_light(p._blur(ellipse_mask(c, mid, floor_y + 50, 160, 20), 6), (1, 1, 1), 0.5)
        chair = spr(x, "chair", 0.16 * c.h, 0.5)
        p.place(c, chair, 0.18 * c.w, floor_y + 60, anchor="bottom")
        submerge(x, chair, 0.18 * c.w, floor_y + 60, floor_y + 40, anchor="bottom")
        p.place(c, p.rotate(s, x.uniform(-15, 15)), 0.62 * c.w, 0.6 * c.h)
        x.add("chair", "half under water")
        x.scenery += ["waterfall", "sea"]
        x.form = "flood"
    else:
        bed = spr(x, "bed", 0.16 * c.h, 0.5)
        p.place(c, bed, 0.5 * c.w, floor_y + 70, anchor="bottom")
        for _ in range(4):
            puff(
                x,
                x.uniform(0.15, 0.85) * c.w,
                x.uniform(0.08, 0.3) * c.h,
                x.uniform(140, 220),
                x.uniform(40, 60),
                p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.4),
                0.9,
            )
        p.place(c, s, x.uniform(0.3, 0.7) * c.w, 0.55 * c.h)
        x.add("bed", "bed")
        x.scenery += ["clouds", "bed"]
        x.form = "clouds"
    x.add(x.main.name, "indoors")
    x.scenery += ["room", "window"]
