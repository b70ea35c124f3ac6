"""Composition ideas: how motifs are arranged on a card.

Each composition is a function painting onto a :class:`~dixit.decks.stage.Ctx`; the newer
scenes of two or more motifs live in :mod:`dixit.decks.scenes`. :data:`COMPOSITIONS` says which
motif kinds may be the main motif, which times of day suit the idea, how often a deck may use
it, and what it evokes; captions in six languages are in :mod:`dixit.decks.captions`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dixit.decks import painter as p
from dixit.decks import scenes
from dixit.decks.motifs import MOTIFS
from dixit.decks.palettes import PALETTES
from dixit.decks.stage import (
    Ctx,
    backdrop,
    bubble,
    ellipse_mask,
    figure,
    ground_y,
    mini_world,
    night_tint,
)

# ---------------------------------------------------------------- the ideas


def giant_tiny(x: Ctx) -> None:
    sea = x.staging() == 1
    backdrop(x, "water" if sea else "hills", horizon=x.uniform(0.6, 0.66) if sea else None)
    c = x.c
    gy = c.horizon + 0.16 * c.h if sea else ground_y(x)
    s = night_tint(x, p.sprite(x.main.name, x.uniform(0.42, 0.58) * c.h, x.rng))
    if x.rng.random() < 0.5:
        s = p.flip_h(s)
    cx = x.uniform(0.42, 0.58) * c.w
    p.shadow_ellipse(c, cx, gy, s.shape[1] * 0.45, 14)
    p.place(c, s, cx, gy + 6, anchor="bottom")
    side = 1 if x.rng.random() < 0.5 else -1
    fx = cx + side * (s.shape[1] * 0.5 + x.uniform(20, 70))
    fx = min(max(fx, 60), c.w - 60)
    if sea:
        line = gy - s.shape[0] * 0.22
        m = p.sprite_mask(c, s, cx, gy + 6, anchor="bottom")
        m[: int(line)] = 0
        c.blend(m, x.col(x.pal.water), 0.7)
        fig = figure(
            x, fx, gy - s.shape[0] * 0.18, x.uniform(0.04, 0.05) * c.h, "person-rowing-boat"
        )
        x.form = "sea"
    else:
        fig = figure(x, fx, gy + 8, x.uniform(0.045, 0.06) * c.h)
    x.add(x.main.name, "giant")
    x.name(b=fig)


def moon_silhouette(x: Ctx) -> None:
    c = x.c
    mr = x.uniform(0.25, 0.31) * c.w
    my = x.uniform(0.3, 0.38) * c.h
    sea = x.staging() == 1
    horizon = x.uniform(0.62, 0.68) if sea else x.uniform(0.72, 0.78)
    backdrop(x, "water" if sea else "hills", "moon", horizon=horizon, moon_at=(c.w / 2, my, mr))
    s = p.silhouette(p.sprite(x.main.name, mr * x.uniform(1.0, 1.3), x.rng), x.col(x.pal.dark))
    if x.rng.random() < 0.5:
        s = p.flip_h(s)
    p.place(c, s, c.w / 2 + x.uniform(-0.1, 0.1) * mr, my + x.uniform(0, 0.2) * mr)
    x.add(x.main.name, "silhouette")
    if sea:
        figure(
            x, x.uniform(0.2, 0.8) * c.w, c.horizon + 0.1 * c.h, 0.05 * c.h, "person-rowing-boat"
        )
        x.form = "sea"
    else:
        figure(x, x.uniform(0.15, 0.85) * c.w, ground_y(x) - x.uniform(0, 30), 0.045 * c.h)


def false_reflection(x: Ctx) -> None:
    backdrop(x, "water", horizon=x.uniform(0.58, 0.66))
    c = x.c
    other = x.pick(x.vary(["creature", "object", "plant", "building"]))
    h = x.uniform(0.26, 0.34) * c.h
    s = night_tint(x, p.sprite(x.main.name, h, x.rng))
    cx = x.uniform(0.4, 0.6) * c.w
    r = p.sprite(other.name, h * x.uniform(0.9, 1.15), x.rng)
    r = p.flip_v(p.tint(r, x.col(x.pal.water), 0.45))
    # ripple the reflection
    shift = (np.sin(np.arange(r.shape[0]) * 0.35) * 4).astype(int)
    r = np.stack([np.roll(r[i], shift[i], axis=0) for i in range(r.shape[0])])
    p.place(c, r, cx, c.horizon + 4 + r.shape[0], opacity=0.75, anchor="bottom")
    p.shadow_ellipse(c, cx, c.horizon + 2, s.shape[1] * 0.4, 8, 0.3)
    p.place(c, s, cx, c.horizon + 6, anchor="bottom")
    x.add(x.main.name, "subject")
    x.add(other.name, "reflection")
    x.name(b=other.name)


def _island(x: Ctx, cx: float, top: float, half: float) -> None:
    c, rng = x.c, x.rng
    n = 24
    pts_top = [(cx - half + 2 * half * i / n, top + math.sin(i) * 3) for i in range(n + 1)]
    depth = half * x.uniform(0.9, 1.3)
    bottom = []
    for i in range(n, -1, -1):
        u = i / n
        yy = top + 10 + depth * (1 - abs(u - 0.5) * 2) ** 0.8 * float(rng.uniform(0.7, 1.0))
        bottom.append((cx - half + 2 * half * u, yy))
    rock = p.polygon_mask(c, pts_top + bottom)
    rock_col = p.mix(x.col(x.pal.near), (0.35, 0.25, 0.2), 0.45)
    c.blend(rock, rock_col, 1.0)
    shade = p.noise(rng, c.h, c.w, 14, 2)
    c.blend((rock * (shade > 0.55)).astype(np.float32), p.mix(rock_col, (0, 0, 0), 0.3), 0.5)
    grass = p.polygon_mask(c, [*pts_top, (cx + half, top + 14), (cx - half, top + 14)])
    c.blend(grass, p.mix(x.col(x.pal.near), (0.3, 0.6, 0.3), 0.4), 1.0)
    for _ in range(5):
        rx = cx + x.uniform(-0.6, 0.6) * half
        p.line(
            c,
            [(rx, top + 20), (rx + x.uniform(-8, 8), top + depth * x.uniform(0.5, 1.1))],
            p.mix(rock_col, (0, 0, 0), 0.4),
            1.5,
            0.7,
        )
    if rng.random() < 0.6:
        wx = cx + half * x.uniform(0.5, 0.85) * (1 if rng.random() < 0.5 else -1)
        fall = np.zeros((c.h, c.w), np.float32)
        y0, y1 = int(top + 8), int(min(c.h - 1, top + depth + x.uniform(80, 260)))
        for yy in range(y0, y1):
            k = (yy - y0) / max(1, y1 - y0)
            fall[yy, int(wx) - 3 : int(wx) + 3] = 1 - k
        c.blend(p._blur(fall, 2), (0.85, 0.92, 1.0), 0.7)
        x.scenery.append("waterfall")


def floating_island(x: Ctx) -> None:
    backdrop(x, "hills" if x.staging() == 1 else x.choose(["hills", "water"]))
    c = x.c
    cx = x.uniform(0.4, 0.6) * c.w
    top = x.uniform(0.38, 0.48) * c.h
    half = x.uniform(0.2, 0.28) * c.w
    s = night_tint(x, p.sprite(x.main.name, x.uniform(0.18, 0.26) * c.h, x.rng))
    _island(x, cx, top, max(half, s.shape[1] * 0.6))
    p.place(c, s, cx, top + 10, anchor="bottom")
    x.add(x.main.name, "on the island")
    if x.staging() == 1:
        fx, gy = x.uniform(0.15, 0.35) * c.w, ground_y(x) + 10
        rope = [
            (cx + (fx - cx) * t, top + 60 + (gy - 0.05 * c.h - top - 60) * t + math.sin(t * 3) * 30)
            for t in np.linspace(0, 1, 20)
        ]
        p.line(c, rope, x.col(x.pal.dark), 1.5, 0.9)
        figure(x, fx, gy, 0.055 * c.h, "person-standing")
        x.scenery.append("rope")
        x.form = "tethered"
    elif x.rng.random() < 0.6:
        figure(x, cx + max(half, s.shape[1] * 0.6) * x.uniform(0.55, 0.85), top + 10, 0.04 * c.h)
    x.scenery.append("island")


def lifted(x: Ctx) -> None:
    high = x.staging() == 1
    backdrop(x, "water" if high else x.choose(["hills", "shore"]))
    c = x.c
    lifter = MOTIFS[x.vary(LIFTERS)]
    if lifter.name == x.main.name:
        lifter = MOTIFS["balloon" if x.main.name != "balloon" else "butterfly"]
    cx = x.uniform(0.38, 0.62) * c.w
    cy = x.uniform(0.42, 0.5) * c.h if high else x.uniform(0.55, 0.68) * c.h
    s = night_tint(x, p.sprite(x.main.name, x.uniform(0.16, 0.22) * c.h, x.rng))
    top = cy - s.shape[0] / 2
    n = int(x.rng.integers(5, 10))
    lh = x.uniform(0.05, 0.075) * c.h
    anchors = []
    for _ in range(n):
        lx = cx + x.uniform(-0.26, 0.26) * c.w
        ly = top - x.uniform(0.12, 0.3) * c.h
        anchors.append((lx, ly))
    string = p.mix(x.col(x.pal.cloud), (1, 1, 1), 0.4)
    for lx, ly in anchors:
        p.line(
            c,
            [
                (lx, ly + lh * 0.4),
                ((lx + cx) / 2 + x.uniform(-10, 10), (ly + top) / 2),
                (cx, top + 6),
            ],
            string,
            1.2,
            0.6,
        )
    for lx, ly in anchors:
        ls = p.sprite(lifter.name, lh * x.uniform(0.8, 1.2), x.rng, 0.5)
        p.place(c, p.rotate(ls, x.uniform(-15, 15)), lx, ly)
    p.place(c, s, cx, cy)
    x.add(x.main.name, "lifted")
    if high:
        figure(
            x, x.uniform(0.2, 0.8) * c.w, c.horizon + 0.14 * c.h, 0.05 * c.h, "person-rowing-boat"
        )
    x.add(lifter.name, "lifting it")
    x.name(b=lifter.name)
    x.count = n


def night_inside(x: Ctx) -> None:
    backdrop(x, "hills", x.choose(["sun", "none"]))
    c = x.c
    s = p.sprite(x.main.name, x.uniform(0.42, 0.55) * c.h, x.rng)
    cx, cy = x.uniform(0.42, 0.58) * c.w, x.uniform(0.4, 0.48) * c.h
    m = p.sprite_mask(c, s, cx, cy)
    night = p.Canvas(np.zeros_like(c.rgb))
    night.horizon = c.h
    q = [pl for pl in PALETTES if pl.time_of_day == "night"]
    nq = q[int(x.rng.integers(len(q)))]
    p.sky(night, nq.sky, x.rng)
    p.stars(night, x.rng, 900)
    ys, xs = np.nonzero(m > 0.5)
    if len(ys):
        iy, ix = int(np.median(ys)), int(np.median(xs))
        p.moon(
            night,
            x.rng,
            ix,
            iy - s.shape[0] * 0.05,
            s.shape[1] * 0.06,
            p.hex_rgb(nq.moon),
            0.5,
            0.6,
        )
    m3 = m[..., None]
    edge_col = p.mix(p.hex_rgb(nq.sky[-1]), p.hex_rgb(x.pal.near), 0.3)
    p.sprite_glow(c, s, cx, cy, x.col(x.pal.cloud), 14, 0.25)
    c.rgb = c.rgb * (1 - m3) + night.rgb * m3
    ring = np.clip(m - np.clip(p._blur(m, 3) * 1.4 - 0.4, 0, 1), 0, 1)
    c.blend(ring.astype(np.float32), edge_col, 0.6)
    x.add(x.main.name, "holds the night")
    gy = ground_y(x)
    figure(x, x.uniform(0.15, 0.85) * c.w, gy, 0.04 * c.h)


LIFTERS = [
    "balloon",
    "butterfly",
    "red-paper-lantern",
    "dove",
    "carp-streamer",
    "bird",
    "leaf-fluttering-in-wind",
    "feather",
]

# Where the glass is in each container sprite, as fractions of its bounding box.
GLASS: dict[str, tuple[float, float, float, float]] = {
    "jar": (0.5, 0.6, 0.4, 0.32),
    "light-bulb": (0.5, 0.36, 0.4, 0.33),
    "crystal-ball": (0.5, 0.4, 0.42, 0.38),
    "mirror": (0.5, 0.42, 0.36, 0.38),
}


def world_in_container(x: Ctx) -> None:
    backdrop(x, "water" if x.staging() == 0 else "hills")
    c = x.c
    cont = x.vary(sorted(GLASS))
    s = night_tint(x, p.sprite(cont, x.uniform(0.4, 0.5) * c.h, x.rng, 0.6))
    cx = x.uniform(0.42, 0.58) * c.w
    bottom = c.horizon + 0.06 * c.h
    p.shadow_ellipse(c, cx, bottom - 4, s.shape[1] * 0.45, 12, 0.35)
    box = p.place(c, s, cx, bottom, anchor="bottom")
    gx, gy, rx, ry = GLASS[cont]
    bw, bh = box[2] - box[0], box[3] - box[1]
    ex, ey = box[0] + gx * bw, box[1] + gy * bh
    erx, ery = rx * bw, ry * bh
    mask = ellipse_mask(c, ex, ey, erx, ery)
    mini_world(x, mask, (ex - erx, ey - ery, ex + erx, ey + ery), x.main.name)
    bubble(x, ex, ey, max(erx, ery) * 0.98, 0.5)
    x.add(cont, "container")
    x.add(x.main.name, "inside")
    x.name(b=cont)


def _ladder(x: Ctx, x0: float, y0: float, x1: float, y1: float, width: float) -> None:
    c = x.c
    col = p.mix(x.col(x.pal.dark), (0.6, 0.45, 0.3), 0.35 if x.pal.is_dark else 0.6)
    ang = math.atan2(y1 - y0, x1 - x0)
    nx, ny = -math.sin(ang) * width / 2, math.cos(ang) * width / 2
    p.line(c, [(x0 + nx, y0 + ny), (x1 + nx * 0.7, y1 + ny * 0.7)], col, 4, 0.95)
    p.line(c, [(x0 - nx, y0 - ny), (x1 - nx * 0.7, y1 - ny * 0.7)], col, 4, 0.95)
    length = math.hypot(x1 - x0, y1 - y0)
    k = int(length / 34)
    for i in range(1, k):
        t = i / k
        w = 1 - 0.3 * t
        px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
        p.line(c, [(px + nx * w, py + ny * w), (px - nx * w, py - ny * w)], col, 3, 0.9)


def ladder_to(x: Ctx) -> None:
    backdrop(x, "hills", "none")
    c = x.c
    tx, ty = x.uniform(0.3, 0.7) * c.w, x.uniform(0.13, 0.24) * c.h
    s = p.sprite(x.main.name, x.uniform(0.17, 0.24) * c.h, x.rng)
    ty = max(ty, s.shape[0] / 2 + 0.05 * c.h)
    tx = min(max(tx, s.shape[1] / 2 + 30), c.w - s.shape[1] / 2 - 30)
    gx = tx + x.uniform(-0.25, 0.25) * c.w
    gy = ground_y(x)
    p.sprite_glow(c, s, tx, ty, x.col(x.pal.moon), 30, 0.5)
    _ladder(x, gx, gy, tx, ty + s.shape[0] * 0.45, 36)
    p.place(c, s, tx, ty)
    t = x.uniform(0.45, 0.7)
    climber = p.silhouette(p.sprite("person-standing", 0.045 * c.h, x.rng, 0.5), x.col(x.pal.dark))
    p.place(c, climber, gx + (tx - gx) * t, gy + (ty - gy) * t)
    x.add("person-standing", "climber")
    x.add(x.main.name, "destination")
    x.scenery.append("ladder")


def door_in_field(x: Ctx) -> None:
    sea = x.staging() == 1
    backdrop(x, "water" if sea else "hills", horizon=x.uniform(0.55, 0.6) if sea else None)
    c = x.c
    dw, dh = x.uniform(0.2, 0.26) * c.w, x.uniform(0.3, 0.36) * c.h
    cx = x.uniform(0.4, 0.6) * c.w
    bottom = c.horizon + 0.18 * c.h if sea else ground_y(x) + 10
    if sea:
        x.form = "sea"
    x0, y0, x1, y1 = cx - dw / 2, bottom - dh, cx + dw / 2, bottom
    inner = p.polygon_mask(c, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    other = mini_world(x, inner, (x0, y0, x1, y1), x.main.name)
    fcol = p.mix(x.col(x.pal.dark), (0.55, 0.4, 0.3), 0.5)
    for a, b in [((x0, y0), (x1, y0)), ((x0, y0), (x0, y1)), ((x1, y0), (x1, y1))]:
        p.line(c, [a, b], fcol, 9, 1.0)
    leaf = p.polygon_mask(
        c, [(x1, y0), (x1 + dw * 0.45, y0 + dh * 0.08), (x1 + dw * 0.45, y1 - dh * 0.02), (x1, y1)]
    )
    c.blend(leaf, p.mix(fcol, (0.7, 0.5, 0.35), 0.3), 1.0)
    spill = p.polygon_mask(c, [(x0, y1), (x1, y1), (x1 + dw * 0.6, c.h), (x0 - dw * 0.6, c.h)])
    c.add_light(p._blur(spill, 8), p.hex_rgb(other.sky[-1]), 0.35)
    x.add(x.main.name, "through the door")
    x.scenery.append("door")
    if x.rng.random() < 0.6:
        figure(
            x,
            cx + x.sign() * dw * x.uniform(1.1, 1.6),
            bottom + 20,
            0.05 * c.h,
            "person-rowing-boat" if sea else None,
        )


def path_river(x: Ctx) -> None:
    backdrop(x, "hills")
    c = x.c
    vx = x.uniform(0.35, 0.65) * c.w
    vy = c.horizon + 0.08 * c.h
    xs = np.linspace(0, 1, 40)
    bend = x.uniform(80, 160) * x.sign()
    left, right = [], []
    for t in xs:
        yy = vy + (c.h - vy) * t
        cx = vx + math.sin(t * 3.2) * bend * t + (c.w / 2 - vx) * t
        w = 6 + 220 * t**1.3
        left.append((cx - w, yy))
        right.append((cx + w, yy))
    full = p.polygon_mask(c, left + right[::-1])
    ys = np.arange(c.h, dtype=np.float32)[:, None]
    split = vy + (c.h - vy) * x.uniform(0.4, 0.6)
    wmask = full * np.clip((split - ys) / 30, 0, 1)
    pmask = full * np.clip((ys - split) / 30 + 1, 0, 1)
    sand = p.mix(x.col(x.pal.near), (0.85, 0.78, 0.6), 0.55)
    c.blend(pmask.astype(np.float32), sand, 0.95)
    c.blend(wmask.astype(np.float32), x.col(x.pal.water), 0.95)
    c.add_light(
        (wmask * (p.noise(x.rng, c.h, c.w, 8, 2) > 0.7)).astype(np.float32), (1, 1, 1), 0.35
    )
    s = p.sprite(x.main.name, x.uniform(0.16, 0.24) * c.h, x.rng)
    p.sprite_glow(c, s, vx, vy - s.shape[0] / 2, x.col(x.pal.moon), 20, 0.35)
    p.place(c, night_tint(x, s), vx, vy + 4, anchor="bottom")
    t = x.uniform(0.7, 0.85)
    figure(x, left[int(t * 39)][0] / 2 + right[int(t * 39)][0] / 2, vy + (c.h - vy) * t, 0.06 * c.h)
    x.add(x.main.name, "destination")
    x.scenery += ["path", "river"]


def object_house(x: Ctx) -> None:
    backdrop(x, "hills")
    c = x.c
    s = night_tint(x, p.sprite(x.main.name, x.uniform(0.34, 0.44) * c.h, x.rng))
    cx = x.uniform(0.42, 0.58) * c.w
    bottom = ground_y(x) + 10
    p.shadow_ellipse(c, cx, bottom - 4, s.shape[1] * 0.5, 14)
    box = p.place(c, s, cx, bottom, anchor="bottom")
    bw, bh = box[2] - box[0], box[3] - box[1]
    warm = (1.0, 0.82, 0.45)
    mask = p.sprite_mask(c, s, cx, bottom, anchor="bottom")
    ww, wh = max(9.0, bw * 0.05), max(11.0, bh * 0.055)
    # windows only where the object is solid all around them (an eroded mask)
    solid = p._blur((mask > 0.9).astype(np.float32), max(ww, wh) * 1.2) > 0.985
    wins = np.zeros((c.h, c.w), np.float32)
    bars = np.zeros((c.h, c.w), np.float32)
    placed: list[tuple[float, float]] = []
    want = int(x.rng.integers(2, 5))
    for _ in range(40):
        if len(placed) >= want:
            break
        wx = box[0] + bw * x.uniform(0.15, 0.85)
        wy = box[1] + bh * x.uniform(0.2, 0.7)
        iy, ix = int(wy), int(wx)
        if not (0 <= iy < c.h and 0 <= ix < c.w) or not solid[iy, ix]:
            continue
        if any(abs(wx - px) < ww * 3 and abs(wy - py) < wh * 3 for px, py in placed):
            continue
        placed.append((wx, wy))
        wins += p.polygon_mask(
            c, [(wx - ww, wy - wh), (wx + ww, wy - wh), (wx + ww, wy + wh), (wx - ww, wy + wh)]
        )
        bars[int(wy - wh) : int(wy + wh), int(wx) - 1 : int(wx) + 2] = 1
        bars[int(wy) - 1 : int(wy) + 2, int(wx - ww) : int(wx + ww)] = 1
    dx = box[0] + bw * x.uniform(0.4, 0.6)
    door = p.polygon_mask(
        c,
        [
            (dx - bw * 0.07, bottom - 3),
            (dx - bw * 0.07, bottom - bh * 0.2),
            (dx + bw * 0.07, bottom - bh * 0.2),
            (dx + bw * 0.07, bottom - 3),
        ],
    )
    wins = np.clip(wins + door * (mask > 0.5), 0, 1)
    c.add_light(p._blur(wins.astype(np.float32), 12), warm, 0.5)
    c.blend(wins.astype(np.float32), warm, 0.95)
    c.blend(bars * wins, p.mix(warm, (0.3, 0.15, 0.05), 0.7), 0.8)
    # chimney smoke
    sx = box[0] + bw * x.uniform(0.3, 0.7)
    smoke = np.zeros((c.h, c.w), np.float32)
    for i in range(12):
        yy = int(box[1] - 10 - i * 22)
        xx = int(sx + math.sin(i * 0.7) * 16 + i * 3)
        if 0 <= yy < c.h and 0 <= xx < c.w:
            smoke[yy, xx] = 1.0
    c.blend(np.clip(p._blur(smoke, 9) * 180, 0, 1), x.col(x.pal.cloud), 0.45)
    x.add(x.main.name, "turned into a house")


def shadow_mismatch(x: Ctx) -> None:
    backdrop(x, "hills", x.choose(["sun", "moon"]))
    c = x.c
    other = x.pick("profile")
    h = x.uniform(0.22, 0.3) * c.h
    s = night_tint(x, p.sprite(x.main.name, h, x.rng))
    cx = x.uniform(0.38, 0.62) * c.w
    bottom = c.horizon + x.uniform(0.02, 0.06) * c.h
    sh = p.silhouette(p.sprite(other.name, h * 1.2, x.rng), (0.02, 0.02, 0.08))
    sh = p.flip_v(sh)
    sh = p.scale(sh, 1.0)
    from PIL import Image

    hh, ww = sh.shape[:2]
    nh = max(4, int(hh * x.uniform(0.8, 0.95)))
    shear = x.uniform(-0.35, 0.35)
    chans = []
    for k in range(4):
        img = Image.fromarray(sh[..., k], mode="F").resize((ww, nh))
        img = img.transform(
            (int(ww + nh * abs(shear)), nh),
            Image.Transform.AFFINE,
            (1, shear, -nh * shear if shear > 0 else 0, 0, 1, 0),
            Image.Resampling.BILINEAR,
        )
        chans.append(np.asarray(img, np.float32))
    sh = np.stack(chans, axis=-1)
    sh[..., 3] = p._blur(sh[..., 3], 1)
    p.place(c, sh, cx, bottom - 6, opacity=0.6, anchor="top")
    p.place(c, s, cx, bottom, anchor="bottom")
    x.add(x.main.name, "subject")
    x.add(other.name, "its shadow")
    x.name(b=other.name)


def window_in_sea(x: Ctx) -> None:
    backdrop(x, "water", horizon=x.uniform(0.5, 0.6))
    c = x.c
    ww, wh = x.uniform(0.36, 0.46) * c.w, x.uniform(0.28, 0.34) * c.h
    cx = x.uniform(0.4, 0.6) * c.w
    bottom = c.horizon + x.uniform(0.12, 0.2) * c.h
    x0, y0, x1, y1 = cx - ww / 2, bottom - wh, cx + ww / 2, bottom
    inner = p.polygon_mask(c, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    mini_world(x, inner, (x0, y0, x1, y1), x.main.name)
    fcol = p.mix(x.col(x.pal.cloud), (0.9, 0.9, 0.85), 0.5)
    p.line(c, [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], fcol, 8, 1.0)
    p.line(c, [(cx, y0), (cx, y1)], fcol, 5, 1.0)
    p.line(c, [(x0, (y0 + y1) / 2), (x1, (y0 + y1) / 2)], fcol, 5, 1.0)
    ripple = ellipse_mask(c, cx, y1, ww * 0.7, 10) - ellipse_mask(c, cx, y1, ww * 0.6, 7)
    c.add_light(np.clip(ripple, 0, 1), (1, 1, 1), 0.3)
    x.add(x.main.name, "seen through the window")
    x.scenery += ["window", "sea"]


def fishing_sky(x: Ctx) -> None:
    backdrop(x, "water", x.choose(["none", "crescent"]), horizon=x.uniform(0.6, 0.7))
    c = x.c
    bx = x.uniform(0.25, 0.45) * c.w
    by = c.horizon + x.uniform(0.08, 0.14) * c.h
    boat = night_tint(x, p.sprite("canoe", 0.07 * c.h, x.rng, 0.5))
    fig = p.silhouette(p.sprite("person-standing", 0.065 * c.h, x.rng, 0.5), x.col(x.pal.dark))
    p.place(c, fig, bx, by - boat.shape[0] * 0.3, anchor="bottom")
    p.place(c, boat, bx, by, anchor="bottom")
    rod_tip = (bx + 60, by - 0.14 * c.h)
    p.line(c, [(bx + 8, by - 0.05 * c.h), rod_tip], x.col(x.pal.dark), 3, 1.0)
    tx, ty = x.uniform(0.55, 0.8) * c.w, x.uniform(0.12, 0.3) * c.h
    pts = []
    for i in range(21):
        t = i / 20
        pts.append(
            (
                rod_tip[0] + (tx - rod_tip[0]) * t,
                rod_tip[1] + (ty - rod_tip[1]) * t + math.sin(t * math.pi) * 40,
            )
        )
    p.line(c, pts, p.mix(x.col(x.pal.moon), (1, 1, 1), 0.3), 1.2, 0.8)
    s = p.sprite(x.main.name, x.uniform(0.16, 0.22) * c.h, x.rng)
    p.sprite_glow(c, s, tx, ty + s.shape[0] / 2, x.col(x.pal.moon), 22, 0.45)
    p.place(c, s, tx, ty + s.shape[0] / 2)
    x.add("person-standing", "fisher")
    x.add("canoe", "boat")
    x.scenery.append("fishing line")
    x.add(x.main.name, "caught in the sky")


def sky_swimmer(x: Ctx) -> None:
    backdrop(x, x.choose(["hills", "shore"]))
    c = x.c
    s = p.sprite(x.main.name, x.uniform(0.24, 0.34) * c.h, x.rng)
    s = p.rotate(s, x.uniform(-14, 14))
    if x.rng.random() < 0.5:
        s = p.flip_h(s)
    cx, cy = x.uniform(0.4, 0.6) * c.w, x.uniform(0.28, 0.4) * c.h
    p.place(c, night_tint(x, s), cx, cy)
    p.clouds(c, x.rng, x.col(x.pal.cloud), cy / c.h + 0.08, 0.04, 0.5, 0.5)
    for _ in range(int(x.rng.integers(4, 9))):
        bubble(
            x,
            cx + x.uniform(-0.2, 0.2) * c.w,
            cy - s.shape[0] * x.uniform(0.6, 1.4),
            x.uniform(6, 16),
        )
    gy = ground_y(x)
    houses = x.rng.random() < 0.5
    if houses:
        for _ in range(3):
            hs = p.silhouette(p.sprite("house", 0.05 * c.h, x.rng, 0.4), x.col(x.pal.dark))
            p.place(c, hs, x.uniform(0.15, 0.85) * c.w, gy, anchor="bottom")
        x.add("house", "village below")
        x.form = "village"
    figure(x, x.uniform(0.2, 0.8) * c.w, gy + 8, 0.04 * c.h)
    x.add(x.main.name, "swimming in the sky")


def tree_of_things(x: Ctx) -> None:
    backdrop(x, "hills")
    c = x.c
    cx = x.uniform(0.42, 0.58) * c.w
    bottom = ground_y(x) + 10
    trunk_col = p.mix(x.col(x.pal.dark), (0.4, 0.3, 0.25), 0.4)
    top = bottom - x.uniform(0.3, 0.38) * c.h
    p.line(c, [(cx, bottom), (cx + 6, (bottom + top) / 2), (cx - 4, top + 60)], trunk_col, 22, 1)
    branches = []
    nb = int(x.rng.integers(5, 8))
    for i in range(nb):
        ang = -2.75 + 2.35 * i / (nb - 1) + x.uniform(-0.12, 0.12)
        ln = x.uniform(150, 230)
        by = top + x.uniform(60, 170)
        ex, ey = cx + math.cos(ang) * ln, by + math.sin(ang) * ln
        p.line(c, [(cx, by), ((cx + ex) / 2, (by + ey) / 2 - 10), (ex, ey)], trunk_col, 7, 1)
        branches.append((ex, ey))
    canopy = np.zeros((c.h, c.w), np.float32)
    for ex, ey in branches:
        canopy = np.maximum(canopy, ellipse_mask(c, ex, ey, x.uniform(60, 95), x.uniform(45, 70)))
    leaf = p.mix(x.col(x.pal.dark), (0.2, 0.45, 0.3), 0.6)
    canopy = canopy * (0.6 + 0.4 * p.noise(x.rng, c.h, c.w, 20, 2))
    c.blend(np.clip(canopy * 1.6, 0, 1).astype(np.float32), leaf, 0.92)
    for ex, ey in branches:
        s = p.sprite(x.main.name, x.uniform(0.065, 0.085) * c.h, x.rng, 0.6)
        p.line(c, [(ex, ey - 10), (ex, ey + 10)], trunk_col, 2, 1)
        p.sprite_glow(c, s, ex, ey + 10 + s.shape[0] / 2, x.col(x.pal.moon), 10, 0.3)
        p.place(c, s, ex, ey + 10 + s.shape[0] / 2)
    x.add(x.main.name, "fruit of the tree")
    x.scenery.append("tree")
    figure(x, cx + x.sign() * x.uniform(120, 200), bottom + 10, 0.05 * c.h)


def procession(x: Ctx) -> None:
    backdrop(x, "hills")
    c = x.c
    gy = c.horizon + 0.06 * c.h
    lead_x = x.uniform(0.7, 0.82) * c.w if x.rng.random() < 0.5 else x.uniform(0.18, 0.3) * c.w
    s = p.sprite(x.main.name, x.uniform(0.16, 0.22) * c.h, x.rng)
    p.sprite_glow(c, s, lead_x, gy - s.shape[0] / 2, x.col(x.pal.moon), 30, 0.55)
    p.place(c, s, lead_x, gy, anchor="bottom")
    follower = x.pick("profile")
    n = int(x.rng.integers(4, 8))
    direction = 1 if lead_x < c.w / 2 else -1
    for i in range(n):
        fx = lead_x + direction * (110 + i * x.uniform(72, 92))
        fy = gy + i * x.uniform(20, 30)
        fs = p.silhouette(
            p.sprite(follower.name, (0.045 + 0.006 * i) * c.h, x.rng, 0.5), x.col(x.pal.dark)
        )
        if direction > 0:
            fs = p.flip_h(fs)
        p.place(c, fs, fx, fy, anchor="bottom")
    x.add(x.main.name, "leader")
    x.add(follower.name, "followers")
    x.name(b=follower.name)


def tiny_planet(x: Ctx) -> None:
    c = x.c
    p.sky(c, x.pal.sky if x.pal.is_dark else ("#0b1030", "#1a2258", "#2c3a7a"), x.rng)
    c.horizon = c.h
    p.stars(c, x.rng, 240)
    x.scenery += ["space", "stars"]
    r = x.uniform(0.3, 0.4) * c.w
    cx, cy = c.w / 2 + x.uniform(-0.08, 0.08) * c.w, c.h * x.uniform(0.78, 0.86) + r * 0.3
    ground = p.mix(p.mix(x.col(x.pal.far), x.col(x.pal.cloud), 0.35), (0.35, 0.6, 0.4), 0.3)
    p.glow_disc(c, cx, cy, r * 1.5, x.col(x.pal.cloud), 0.4)
    c.blend(ellipse_mask(c, cx, cy, r, r), ground, 1.0)
    shade = ellipse_mask(c, cx + r * 0.3, cy + r * 0.3, r * 1.05, r * 1.05)
    c.blend(np.clip(ellipse_mask(c, cx, cy, r, r) - shade, 0, 1), (0, 0, 0.05), 0.25)
    s = p.sprite(x.main.name, x.uniform(0.2, 0.28) * c.h, x.rng)
    p.place(c, s, cx, cy - r + 8, anchor="bottom")
    extra = x.pick(x.choose(["plant", "building"]))
    es = p.rotate(p.sprite(extra.name, 0.07 * c.h, x.rng, 0.5), -38)
    p.place(c, es, cx + r * 0.72, cy - r * 0.72, anchor="center")
    x.add(x.main.name, "on the little planet")
    x.add(extra.name, "neighbour")
    x.name(b=extra.name)
    ringed = x.rng.random() < 0.5
    if ringed:
        rp = p.sprite("ringed-planet", 0.08 * c.h, x.rng, 0.5)
        p.place(c, rp, x.uniform(0.15, 0.85) * c.w, x.uniform(0.1, 0.25) * c.h)
        x.add("ringed-planet", "distant planet")


def rain_of_things(x: Ctx) -> None:
    backdrop(x, "hills", "none")
    c = x.c
    ccol = p.mix(x.col(x.pal.cloud), x.col(x.pal.far), 0.35)
    cloud = np.zeros((c.h, c.w), np.float32)
    cy = x.uniform(0.12, 0.2) * c.h
    for _ in range(9):
        cloud = np.maximum(
            cloud,
            ellipse_mask(
                c,
                x.uniform(0.2, 0.8) * c.w,
                cy + x.uniform(-40, 40),
                x.uniform(80, 150),
                x.uniform(50, 80),
            ),
        )
    c.blend(p._blur(cloud, 4), ccol, 0.95)
    s0 = p.sprite(x.main.name, x.uniform(0.04, 0.06) * c.h, x.rng, 0.4)
    for _ in range(int(x.rng.integers(14, 24))):
        s = p.rotate(p.scale(s0, x.uniform(0.7, 1.3)), x.uniform(-40, 40))
        p.place(c, s, x.uniform(0.12, 0.88) * c.w, x.uniform(cy / c.h + 0.1, 0.75) * c.h)
    gy = ground_y(x)
    fx = x.uniform(0.3, 0.7) * c.w
    um = night_tint(x, p.sprite("umbrella", 0.08 * c.h, x.rng, 0.5))
    figure(x, fx, gy + 10, 0.06 * c.h, "person-standing")
    p.place(c, um, fx + 6, gy + 10 - 0.06 * c.h + 10, anchor="bottom")
    x.add("umbrella", "shelter")
    x.add(x.main.name, "falling like rain")


def sleeping_giant(x: Ctx) -> None:
    sea = x.staging() == 1
    backdrop(x, "water" if sea else "hills", horizon=x.uniform(0.62, 0.7))
    c = x.c
    s = p.sprite(x.main.name, 1.0 * c.w, x.rng, 0.8)
    s = p.scale(s, c.w * 1.05 / s.shape[1])  # the planner only gives it wide motifs
    s = p.tint(s, x.col(x.pal.near), 0.4)
    bottom = c.h * 0.98
    if sea:
        s = p.scale(s, 0.8)
        bottom = c.h * 0.9
    p.place(c, s, c.w / 2, bottom + s.shape[0] * 0.2, anchor="bottom")
    m = p.sprite_mask(c, s, c.w / 2, bottom + s.shape[0] * 0.2, anchor="bottom")
    cols = np.argmax(m > 0.5, axis=0)
    houses = x.pick("building", "statue-of-liberty", "tokyo-tower", "roller-coaster")
    for _ in range(4):
        hx = int(x.uniform(0.2, 0.8) * c.w)
        top = cols[hx]
        if top <= 0:
            continue
        hs = night_tint(
            x,
            p.sprite(
                houses.name if x.rng.random() < 0.6 else "evergreen-tree", 0.05 * c.h, x.rng, 0.4
            ),
        )
        p.place(c, hs, hx, top + 6, anchor="bottom")
    if sea:
        line = bottom - s.shape[0] * 0.1
        m[: int(line)] = 0
        c.blend(m, x.col(x.pal.water), 0.75)
        boat = p.silhouette(p.sprite("sailboat", 0.07 * c.h, x.rng, 0.4), x.col(x.pal.dark))
        p.place(c, boat, x.uniform(0.1, 0.25) * c.w, c.h * 0.97, anchor="bottom")
        x.add("sailboat", "boat")
        x.form = "sea"
    x.add(x.main.name, "sleeping giant")
    x.add(houses.name, "on its back")
    x.name(b=houses.name)


def bubble_drift(x: Ctx) -> None:
    backdrop(x, "hills" if x.staging() == 1 else "water")
    c = x.c
    r = x.uniform(0.22, 0.3) * c.w
    cx, cy = x.uniform(0.4, 0.6) * c.w, x.uniform(0.38, 0.48) * c.h
    s = p.sprite(x.main.name, r * 1.1, x.rng)
    p.place(c, night_tint(x, s), cx, cy + r * 0.1)
    bubble(x, cx, cy, r)
    if x.staging() == 1:
        fx = x.uniform(0.15, 0.25) * c.w if cx > c.w / 2 else x.uniform(0.75, 0.85) * c.w
        gy = ground_y(x) + 10
        figure(x, fx, gy, 0.07 * c.h, "person-standing")
        for k in range(6):
            t = (k + 1) / 7
            bubble(x, fx + (cx - fx) * t, gy - 0.06 * c.h + (cy - gy) * t, 6 + 14 * t)
        x.form = "blown"
    else:
        for _ in range(int(x.rng.integers(3, 7))):
            bubble(x, x.uniform(0.1, 0.9) * c.w, x.uniform(0.15, 0.6) * c.h, x.uniform(10, 30))
    x.add(x.main.name, "inside a bubble")


def kite_flyer(x: Ctx) -> None:
    backdrop(x, "hills")
    c = x.c
    gy = ground_y(x) - 10
    fx = x.uniform(0.15, 0.3) * c.w if x.rng.random() < 0.5 else x.uniform(0.7, 0.85) * c.w
    fig = figure(
        x, fx, gy, 0.05 * c.h, x.choose(["person-standing", "person-walking", "woman-dancing"])
    )
    tx, ty = c.w - fx + x.uniform(-60, 60), x.uniform(0.15, 0.28) * c.h
    s = p.sprite(x.main.name, x.uniform(0.15, 0.2) * c.h, x.rng)
    half = max(s.shape[0], s.shape[1]) / 2
    tx = min(max(tx, half + 30), c.w - half - 30)
    ty = max(ty, half + 30)
    pts = []
    for i in range(25):
        t = i / 24
        pts.append((fx + (tx - fx) * t, gy - 0.04 * c.h + (ty - gy) * t + math.sin(t * 3) * 40))
    p.line(c, pts, p.mix(x.col(x.pal.dark), x.col(x.pal.cloud), 0.3), 1.6, 0.85)
    tail = [
        (tx + i * 14 * (1 if tx < fx else -1) * 0.3, ty + 30 + i * 22 + math.sin(i) * 10)
        for i in range(7)
    ]
    p.line(c, tail, (0.95, 0.5, 0.45), 2.5, 0.85)
    p.place(c, p.rotate(s, x.uniform(-20, 20)), tx, ty)
    x.add(x.main.name, "flown like a kite")
    x.name(b=fig)


@dataclass(frozen=True)
class Composition:
    """A composition idea: what may be its main motif, which times suit it, how it feels."""

    name: str
    paint: Callable[[Ctx], None]
    kinds: frozenset[str]
    times: frozenset[str]
    themes: tuple[str, ...]
    moods: tuple[str, ...]
    things: tuple[str, ...]  # concrete things every card of the idea shows (lexicon keys)
    uses: int = 1  # at most this many cards per deck (2: the two stagings differ)
    exclude: frozenset[str] = frozenset()
    wide_only: bool = False  # the main motif must be wider than tall (it lies down)


ALL_TIMES = frozenset({"dawn", "day", "dusk", "twilight", "night"})
NOT_DAY = frozenset({"dawn", "dusk", "twilight", "night"})
DARKISH = frozenset({"dusk", "twilight", "night"})
SMALL = "butterfly honeybee lady-beetle beetle spider scorpion"
ODD_PLACES = "roller-coaster carousel-horse fountain statue-of-liberty"
NOT_THINGS = "hole footprints eye"


def _c(
    fn: Callable[[Ctx], None],
    kinds: str,
    times: frozenset[str],
    themes: str,
    moods: str,
    things: str,
    uses: int = 1,
    exclude: str = "",
    wide_only: bool = False,
) -> Composition:
    return Composition(
        fn.__name__,
        fn,
        frozenset(kinds.split()),
        times,
        tuple(themes.split(",")),
        tuple(moods.split(",")),
        tuple(things.split(",")),
        uses,
        frozenset(exclude.split()),
        wide_only,
    )


S = scenes
COMPOSITIONS: dict[str, Composition] = {
    c.name: c
    for c in (
        _c(
            giant_tiny,
            "creature",
            ALL_TIMES,
            "scale,humility,awe,friendship",
            "wonder,calm,curious",
            "giant,person",
            2,
            SMALL,
        ),
        _c(
            moon_silhouette,
            "profile",
            NOT_DAY,
            "mystery,journey,night,freedom",
            "mysterious,quiet,solemn",
            "full moon,silhouette,person",
            2,
        ),
        _c(
            false_reflection,
            "creature object building",
            ALL_TIMES,
            "identity,secret self,illusion,truth",
            "uncanny,thoughtful,mysterious",
            "reflection,water",
        ),
        _c(
            floating_island,
            "building plant",
            ALL_TIMES,
            "isolation,home,escape,utopia",
            "dreamy,peaceful,lonely",
            "floating island,rock,roots",
            2,
        ),
        _c(
            lifted,
            "creature object building",
            ALL_TIMES,
            "freedom,escape,help,lightness",
            "hopeful,whimsical,playful",
            "strings",
            2,
            "butterfly dove balloon",
        ),
        _c(
            night_inside,
            "profile",
            frozenset({"dawn", "day", "dusk"}),
            "inner life,secrets,dreams,depth",
            "dreamy,mysterious,tender",
            "night sky,crescent moon,stars,person",
        ),
        _c(
            world_in_container,
            "creature building plant vessel",
            ALL_TIMES,
            "memory,nostalgia,captivity,imagination",
            "nostalgic,wistful,enchanted",
            "miniature world,glass",
            2,
            "whale spouting-whale",
        ),
        _c(
            ladder_to,
            "sky object glow",
            ALL_TIMES,
            "ambition,effort,aspiration,reach",
            "hopeful,determined,yearning",
            "ladder,person",
            1,
            "ladder",
        ),
        _c(
            door_in_field,
            "creature plant building",
            ALL_TIMES,
            "opportunity,choice,threshold,elsewhere",
            "curious,inviting,uncanny",
            "door,another world",
            2,
        ),
        _c(
            path_river,
            "building plant glow",
            ALL_TIMES,
            "change,journey,destination,flow",
            "contemplative,calm,uncertain",
            "path,river,person",
        ),
        _c(
            object_house,
            "housey",
            DARKISH,
            "home,shelter,comfort,belonging",
            "cosy,warm,whimsical",
            "windows,door,smoke",
        ),
        _c(
            shadow_mismatch,
            "creature object",
            frozenset({"dawn", "dusk", "day"}),
            "hidden nature,desire,past,identity",
            "uncanny,ironic,wistful",
            "shadow,grass",
        ),
        _c(
            window_in_sea,
            "creature vessel plant building",
            ALL_TIMES,
            "longing,escape,perspective,elsewhere",
            "wistful,dreamy,serene",
            "window,sea,another world",
        ),
        _c(
            fishing_sky,
            "sky glow object swimmer",
            NOT_DAY,
            "patience,desire,luck,dreams",
            "patient,playful,hopeful",
            "fishing rod,boat,person",
        ),
        _c(
            sky_swimmer,
            "swimmer",
            ALL_TIMES,
            "freedom,displacement,wonder,otherness",
            "dreamy,weightless,serene",
            "bubbles,clouds,person",
        ),
        _c(
            tree_of_things,
            "object",
            ALL_TIMES,
            "abundance,growth,reward,nature",
            "whimsical,generous,strange",
            "tree,branches,person",
        ),
        _c(
            procession,
            "glow building",
            NOT_DAY,
            "faith,following,community,guidance",
            "solemn,hopeful,mysterious",
            "procession,light",
        ),
        _c(
            tiny_planet,
            "creature building plant",
            frozenset({"night", "twilight"}),
            "solitude,self-sufficiency,world,smallness",
            "lonely,tender,contemplative",
            "planet,space,stars,grass,glow",
        ),
        _c(
            rain_of_things,
            "object plant",
            ALL_TIMES,
            "abundance,surprise,weather,luck",
            "playful,absurd,overwhelmed",
            "rain cloud,umbrella,person",
        ),
        _c(
            sleeping_giant,
            "creature",
            ALL_TIMES,
            "rest,history,foundations,nature",
            "peaceful,hushed,ancient",
            "giant,village,trees",
            2,
            wide_only=True,
        ),
        _c(
            bubble_drift,
            "creature object plant",
            ALL_TIMES,
            "fragility,protection,distance",
            "delicate,dreamy,anxious",
            "soap bubble,bubbles",
            2,
        ),
        _c(
            kite_flyer,
            "creature swimmer sky vessel",
            frozenset({"dawn", "day", "dusk"}),
            "control,play,letting go,connection",
            "playful,free,nostalgic",
            "kite string,person",
            1,
            "cloud",
        ),
        # scenes of two or more motifs, two stagings each
        _c(
            S.carrier,
            "bearer",
            ALL_TIMES,
            "home,journey,burden,shelter,migration",
            "dreamy,majestic,serene",
            "back,clouds,sea",
            2,
        ),
        _c(
            S.pouring,
            "pourer",
            ALL_TIMES,
            "abundance,gift,flood,creation,care",
            "absurd,generous,wondrous",
            "village,clouds,houses",
            2,
        ),
        _c(
            S.shaped_island,
            "profile object",
            ALL_TIMES,
            "discovery,treasure,voyage,map",
            "adventurous,curious,sunny",
            "island,sea,boat,houses,trees",
            2,
            NOT_THINGS,
        ),
        _c(
            S.bedtime_story,
            "creature",
            DARKISH,
            "bedtime,storytelling,care,dreams,childhood",
            "tender,sleepy,cosy",
            "book,moons,clouds",
            2,
            SMALL,
        ),
        _c(
            S.meeting,
            "creature",
            ALL_TIMES,
            "friendship,conversation,unlikely pair,meeting",
            "cosy,polite,absurd",
            "table,teapot,cup",
            2,
            SMALL,
        ),
        _c(
            S.split_day_night,
            "creature building plant",
            ALL_TIMES,
            "duality,time,change,balance,two sides",
            "uncanny,contemplative,strange",
            "day,night,seam",
            2,
            SMALL,
        ),
        _c(
            S.pop_up_book,
            "building plant",
            ALL_TIMES,
            "stories,imagination,reading,creation",
            "enchanted,wondrous,nostalgic",
            "book,pages,waterfall,hill",
            2,
        ),
        _c(
            S.caged,
            "sky glow",
            ALL_TIMES,
            "captivity,freedom,desire,possession",
            "melancholy,longing,tense",
            "birdcage,bird",
            2,
        ),
        _c(
            S.tower_of_things,
            "object",
            ALL_TIMES,
            "ambition,balance,obsession,reaching",
            "precarious,absurd,daring",
            "tower,moon,person",
            2,
            NOT_THINGS,
        ),
        _c(
            S.sunken,
            "building vessel",
            ALL_TIMES,
            "memory,loss,depth,forgotten worlds",
            "quiet,melancholy,mysterious",
            "sea,fish,bubbles,seabed",
            2,
        ),
        _c(
            S.burrow,
            "creature",
            ALL_TIMES,
            "safety,hiding,hibernation,secret world",
            "cosy,secret,peaceful",
            "burrow,roots,tree,earth",
            2,
            SMALL,
        ),
        _c(
            S.rising_sun,
            "creature object plant",
            frozenset({"dawn", "dusk", "twilight"}),
            "new beginnings,glory,worship,a new day",
            "radiant,solemn,hopeful",
            "horizon,rays,glow",
            2,
            SMALL,
        ),
        _c(
            S.clothesline,
            "object",
            ALL_TIMES,
            "chores,everyday magic,time,patience",
            "homely,whimsical,calm",
            "clothesline,pegs,moons",
            2,
            NOT_THINGS,
        ),
        _c(
            S.beam,
            "swimmer vessel profile",
            DARKISH,
            "revelation,search,hidden things,truth",
            "mysterious,eerie,awed",
            "beam of light,night sky",
            2,
        ),
        _c(
            S.sky_road,
            "vessel",
            ALL_TIMES,
            "journey,departure,ambition,the way up",
            "adventurous,hopeful,dreamy",
            "track,sky,moon",
            2,
        ),
        _c(
            S.hatching,
            "building plant sky glow",
            ALL_TIMES,
            "birth,surprise,potential,origins",
            "wondrous,tense,hopeful",
            "egg,shell,crack",
            2,
        ),
        _c(
            S.music_birds,
            "instrument",
            ALL_TIMES,
            "music,inspiration,art,transformation",
            "joyful,lyrical,free",
            "musical notes,birds",
            2,
        ),
        _c(
            S.object_balloon,
            "object",
            ALL_TIMES,
            "travel,invention,escape,daydreaming",
            "whimsical,adventurous,light-hearted",
            "basket,ropes,person",
            2,
            NOT_THINGS,
        ),
        _c(
            S.own_weather,
            "creature",
            ALL_TIMES,
            "mood,sadness,optimism,personal cloud",
            "gloomy,ironic,tender",
            "cloud,rain,puddle",
            2,
            SMALL,
        ),
        _c(
            S.constellation,
            "profile object",
            DARKISH,
            "destiny,myth,stargazing,imagination",
            "mysterious,awed,quiet",
            "stars,constellation,night sky",
            2,
            NOT_THINGS,
        ),
        _c(
            S.upside_down,
            "building plant",
            ALL_TIMES,
            "mirror worlds,perspective,otherness",
            "dizzy,uncanny,dreamy",
            "upside-down world,hills,sky",
            2,
            ODD_PLACES,
        ),
        _c(
            S.nest,
            "sky glow",
            ALL_TIMES,
            "care,nurture,treasure,motherhood",
            "tender,protective,strange",
            "nest,bird,branches",
            2,
        ),
        _c(
            S.cloud_shape,
            "profile",
            frozenset({"dawn", "day", "dusk"}),
            "imagination,daydreaming,childhood,pareidolia",
            "dreamy,lazy,playful",
            "cloud,grass,sky",
            2,
        ),
        _c(
            S.moon_swing,
            "creature",
            NOT_DAY,
            "play,dreams,lullaby,carefree",
            "playful,dreamy,tender",
            "crescent moon,swing,ropes",
            2,
            SMALL,
        ),
        _c(
            S.metamorphosis,
            "object",
            ALL_TIMES,
            "transformation,freedom,letting go,change",
            "wondrous,light-hearted,hopeful",
            "birds,sky,flight",
            2,
            NOT_THINGS,
        ),
        _c(
            S.storm_in_cup,
            "cup",
            ALL_TIMES,
            "exaggeration,drama,small troubles,storms",
            "ironic,stormy,absurd",
            "storm cloud,sailboat,waves",
            2,
        ),
        _c(
            S.seesaw,
            "creature",
            ALL_TIMES,
            "balance,weight,paradox,justice",
            "absurd,tense,playful",
            "seesaw,rock",
            2,
            SMALL,
        ),
        _c(
            S.tightrope,
            "building plant",
            ALL_TIMES,
            "risk,courage,balance,ambition",
            "tense,daring,breathless",
            "tightrope,moon,person",
            2,
            ODD_PLACES,
        ),
        _c(
            S.torn_sky,
            "creature object sky",
            ALL_TIMES,
            "hidden worlds,the unknown,repair,curiosity",
            "eerie,curious,wondrous",
            "tear,sky,space,stars",
            2,
            NOT_THINGS,
        ),
        _c(
            S.out_of_hat,
            "creature building plant",
            ALL_TIMES,
            "magic,surprise,illusion,performance",
            "wondrous,playful,absurd",
            "top hat,sparkles",
            2,
            SMALL + " " + ODD_PLACES,
        ),
        _c(
            S.moon_garden,
            "creature",
            DARKISH,
            "growth,care,patience,harvest,night work",
            "tender,quiet,whimsical",
            "garden,moons,stems,soil",
            2,
            SMALL,
        ),
        _c(
            S.room,
            "swimmer vessel",
            ALL_TIMES,
            "home,the outside coming in,dreams,overflowing",
            "strange,dreamy,calm",
            "room,window,floor,wall",
            2,
        ),
        _c(
            S.night_walk,
            "creature",
            DARKISH,
            "guidance,courage,solitude,hope",
            "hushed,brave,warm",
            "light,fireflies,night",
            2,
            SMALL,
        ),
    )
}
