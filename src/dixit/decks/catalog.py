"""Build and read ``catalog.json``: the icon bodies and keywords of the motifs the deck uses.

The catalog is extracted from two npm packages installed in ``tools/deckgen``:
``@iconify-json/fluent-emoji-flat`` (Fluent Emoji Flat, MIT, (c) Microsoft Corporation) and
``emojilib`` (MIT, (c) Mu-An Chiou). Only the motifs listed in :mod:`dixit.decks.motifs` are
copied, so generation and tests work on a machine without npm. Rebuild it with
``dixit deck generate --refresh-catalog`` after ``npm ci`` in ``tools/deckgen``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from dixit.decks.motifs import MOTIFS

ICONIFY_PACKAGE = "@iconify-json/fluent-emoji-flat"
EMOJILIB_PACKAGE = "emojilib"


@dataclass(frozen=True)
class Icon:
    """An icon of the catalog: SVG body on a ``size``-unit square, and its keywords."""

    name: str
    body: str
    size: int
    hflip: bool
    keywords: tuple[str, ...]

    def svg(self, px: int) -> str:
        """A standalone SVG document rendering the icon at ``px`` x ``px`` pixels."""
        body = self.body
        if self.hflip:
            body = f'<g transform="translate({self.size} 0) scale(-1 1)">{body}</g>'
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{px}" height="{px}" '
            f'viewBox="0 0 {self.size} {self.size}">{body}</svg>'
        )


def default_node_modules() -> Path:
    """``tools/deckgen/node_modules`` of the source checkout this package lives in."""
    return Path(__file__).resolve().parents[3] / "tools" / "deckgen" / "node_modules"


def build_catalog(node_modules: Path) -> dict[str, Any]:
    """Extract the motifs of :data:`MOTIFS` from the installed npm packages."""
    iconify_dir = node_modules / ICONIFY_PACKAGE
    icons_file = iconify_dir / "icons.json"
    if not icons_file.is_file():
        raise FileNotFoundError(
            f"{icons_file} not found: run `npm ci` in tools/deckgen first "
            "(it installs @iconify-json/fluent-emoji-flat and emojilib)"
        )
    icons = json.loads(icons_file.read_text("utf-8"))
    chars = json.loads((iconify_dir / "chars.json").read_text("utf-8"))
    info = json.loads((iconify_dir / "info.json").read_text("utf-8"))
    pkg = json.loads((iconify_dir / "package.json").read_text("utf-8"))
    emojilib_dir = node_modules / EMOJILIB_PACKAGE
    emojilib = json.loads((emojilib_dir / "dist" / "emoji-en-US.json").read_text("utf-8"))
    emojilib_pkg = json.loads((emojilib_dir / "package.json").read_text("utf-8"))
    by_name: dict[str, str] = {}
    for hexes, name in chars.items():
        char = "".join(chr(int(h, 16)) for h in hexes.split("-"))
        by_name.setdefault(name, char)
    size = int(icons.get("width", 32))
    out: dict[str, Any] = {}
    for name in sorted(MOTIFS):
        hflip = False
        entry = icons["icons"].get(name)
        if entry is None:
            alias = icons["aliases"][name]
            entry = icons["icons"][alias["parent"]]
            hflip = bool(alias.get("hFlip", False))
        char = by_name.get(name, "")
        bare = char.replace("\ufe0f", "")
        words = emojilib.get(char) or emojilib.get(bare) or emojilib.get(bare + "\ufe0f") or []
        keywords = []
        for w in words:
            w = w.replace("_", " ").strip().lower()
            if w and w not in keywords and w.isascii() and any(c.isalpha() for c in w):
                keywords.append(w)
        out[name] = {"body": entry["body"], "hflip": hflip, "keywords": keywords, "char": char}
    return {
        "source": {
            "icons": f"{ICONIFY_PACKAGE}@{pkg['version']}",
            "icons_license": info["license"]["spdx"],
            "icons_author": info["author"]["name"],
            "keywords": f"{EMOJILIB_PACKAGE}@{emojilib_pkg['version']}",
            "keywords_license": emojilib_pkg.get("license", "MIT"),
        },
        "size": size,
        "icons": out,
    }


def write_catalog(node_modules: Path, dest: Path | None = None) -> Path:
    """Rebuild the shipped ``catalog.json`` (or ``dest``) from ``node_modules``."""
    data = build_catalog(node_modules)
    path = dest or Path(__file__).with_name("catalog.json")
    path.write_text(json.dumps(data, indent=0, sort_keys=True, ensure_ascii=False) + "\n", "utf-8")
    return path


@cache
def load_catalog() -> dict[str, Icon]:
    """The shipped catalog, as :class:`Icon` by name."""
    raw = json.loads(resources.files("dixit.decks").joinpath("catalog.json").read_text("utf-8"))
    size = int(raw["size"])
    return {
        name: Icon(name, d["body"], size, bool(d["hflip"]), tuple(d["keywords"]))
        for name, d in raw["icons"].items()
    }
