"""Colour palettes, each tied to a time of day."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Palette:
    """Colours for one card's scenery (hex strings)."""

    name: str
    time_of_day: str
    sky: tuple[str, ...]  # top to horizon
    far: str  # distant hills
    near: str  # near hills / ground
    water: str
    cloud: str
    mist: str
    moon: str
    dark: str  # silhouettes
    stars: int  # how many stars
    words: tuple[str, ...]  # colour words for metadata

    @property
    def is_dark(self) -> bool:
        return self.time_of_day in ("night", "twilight")


PALETTES: tuple[Palette, ...] = (
    Palette(
        "lavender dawn",
        "dawn",
        ("#8e9be0", "#c3b5e8", "#f2c7d6", "#f9dcc4"),
        "#a99ad0",
        "#6f5f9e",
        "#7d83c6",
        "#f5e8f5",
        "#efe3f3",
        "#fff6e0",
        "#2b2140",
        25,
        ("lavender", "pink", "peach"),
    ),
    Palette(
        "golden dawn",
        "dawn",
        ("#4f7bb5", "#9fb6c9", "#f3d9a0", "#ffc978"),
        "#b0987a",
        "#6e5a48",
        "#8fa3b8",
        "#fff1d6",
        "#fbe9cc",
        "#fff8e6",
        "#2a2018",
        15,
        ("blue", "gold", "honey"),
    ),
    Palette(
        "pale morning",
        "day",
        ("#6fa8dc", "#9fcbe8", "#d3ecf2", "#eef6e8"),
        "#8fb3a8",
        "#5e8a6e",
        "#6a9fbf",
        "#ffffff",
        "#f1f6f4",
        "#fbfbf2",
        "#24323a",
        0,
        ("sky blue", "mint", "white"),
    ),
    Palette(
        "sunny meadow",
        "day",
        ("#4a90c9", "#86bde0", "#cde7ef", "#f6efd0"),
        "#9cc49a",
        "#5f9a5a",
        "#5c9bc4",
        "#ffffff",
        "#eef3e3",
        "#fffbe8",
        "#1f3324",
        0,
        ("blue", "green", "cream"),
    ),
    Palette(
        "amber sunset",
        "dusk",
        ("#3c3a78", "#a05a8a", "#f08a5d", "#ffc46b"),
        "#8a4a6e",
        "#4a2a4e",
        "#b0607a",
        "#ffd2b0",
        "#f6c9a8",
        "#fff0c9",
        "#24142a",
        12,
        ("violet", "orange", "gold"),
    ),
    Palette(
        "crimson dusk",
        "dusk",
        ("#2d2452", "#7a2f5c", "#d4535e", "#f7a072"),
        "#6e2f52",
        "#35183a",
        "#a24a63",
        "#f5b3a5",
        "#e8a49a",
        "#ffe6c7",
        "#1c0d20",
        20,
        ("plum", "crimson", "coral"),
    ),
    Palette(
        "teal twilight",
        "twilight",
        ("#0f2c45", "#1e5566", "#4d8f8c", "#a9cdb5"),
        "#2d5e63",
        "#173a42",
        "#2f6a72",
        "#cfe6de",
        "#b8d8cf",
        "#f4f7dc",
        "#0a1a20",
        60,
        ("teal", "sea green", "pale jade"),
    ),
    Palette(
        "violet twilight",
        "twilight",
        ("#1a1540", "#3f2a6e", "#8a5aa8", "#e0a6c8"),
        "#4f3a7a",
        "#2a1d4a",
        "#5d4a8e",
        "#e9cde6",
        "#d7bde0",
        "#fff4e6",
        "#120b24",
        70,
        ("indigo", "violet", "orchid"),
    ),
    Palette(
        "indigo night",
        "night",
        ("#070b24", "#121a4a", "#26306e", "#44508f"),
        "#2a3266",
        "#151a3d",
        "#1f2a5e",
        "#8d96c8",
        "#6f7ab0",
        "#fbf4d8",
        "#05071a",
        160,
        ("midnight blue", "indigo", "silver"),
    ),
    Palette(
        "emerald night",
        "night",
        ("#06140f", "#0f2e24", "#1f5241", "#4f8a6c"),
        "#1d4636",
        "#0c2219",
        "#1a4a3b",
        "#9cc7b0",
        "#7fb29a",
        "#f7f5d2",
        "#040d09",
        140,
        ("deep green", "emerald", "moonlight"),
    ),
    Palette(
        "ink blue night",
        "night",
        ("#02050f", "#0b1833", "#183a5e", "#2f6284"),
        "#1b3c5a",
        "#0b1c30",
        "#143a58",
        "#7ea7c4",
        "#5f8cab",
        "#eef6ff",
        "#02060e",
        200,
        ("black", "navy", "steel blue"),
    ),
    Palette(
        "misty grey",
        "day",
        ("#7f8da3", "#a8b3c2", "#cfd5d9", "#e6e4dc"),
        "#9aa3ab",
        "#6a737c",
        "#8c99a6",
        "#f2f2f0",
        "#f0efea",
        "#fbfaf2",
        "#2a2e33",
        0,
        ("grey", "pearl", "slate"),
    ),
)

TIMES_OF_DAY: tuple[str, ...] = ("dawn", "day", "dusk", "twilight", "night")

PALETTE_BY_NAME = {p.name: p for p in PALETTES}
