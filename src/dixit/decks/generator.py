"""Render planned cards and write a deck folder (WebP images plus ``deck.json``).

``generate_decks(seed, out_dir)`` is what ``dixit deck generate`` runs. A card's image depends
only on its :class:`~dixit.decks.planner.CardPlan`, so single cards can be re-rendered (tests
do this) and the whole deck is reproducible from the seed.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from dixit.decks import painter as p
from dixit.decks.catalog import load_catalog
from dixit.decks.compositions import COMPOSITIONS
from dixit.decks.lexicon import card_text
from dixit.decks.motifs import MOTIFS
from dixit.decks.palettes import PALETTE_BY_NAME
from dixit.decks.planner import DECK_SIZE, CardPlan, plan_decks
from dixit.decks.stage import Ctx

DEFAULT_SEED = 20261122
WEBP_QUALITY = 72
BUILTIN_DECKS = (
    ("default-1", "Dreamlands I"),
    ("default-2", "Dreamlands II"),
)


def render_card(plan: CardPlan) -> tuple[Image.Image, dict[str, Any]]:
    """Paint one card. Returns the image and its metadata (without ``id``)."""
    rng = np.random.default_rng(plan.seed)
    pal = PALETTE_BY_NAME[plan.palette]
    ctx = Ctx(p.Canvas.blank(), rng, pal, MOTIFS[plan.main], variant=plan.variant)
    ctx.salt = plan.deck * 3
    comp = COMPOSITIONS[plan.composition]
    comp.paint(ctx)
    p.grain(ctx.c, rng, 0.028)
    p.frame(ctx.c)
    img = p.to_image(ctx.c)
    return img, _metadata(plan, ctx, img)


def _metadata(plan: CardPlan, ctx: Ctx, img: Image.Image) -> dict[str, Any]:
    comp = COMPOSITIONS[plan.composition]
    cat = load_catalog()
    main = MOTIFS[plan.main]
    named = _unique([plan.main, *(name for name, _ in ctx.motifs)])
    motifs = []
    seen: set[tuple[str, str]] = set()
    for name, role in sorted(ctx.motifs, key=lambda nr: nr[0] != plan.main):  # main first
        if (name, role) not in seen:
            seen.add((name, role))
            motifs.append({"name": MOTIFS[name].label, "icon": name, "role": role})
    scenery = _unique(ctx.scenery)
    themes = _unique([*comp.themes, *_kind_themes(main.kinds)])
    moods = _unique([*comp.moods, *TIME_MOODS[plan.time_of_day]])
    slots = {"a": plan.main, **ctx.slots}
    text = card_text(
        plan.composition,
        ctx.form,
        slots,
        ctx.count,
        plan.variant + ctx.salt,
        named,
        scenery,
        list(comp.things),
        themes,
        moods,
    )
    keywords = [main.label, *cat[plan.main].keywords]
    for name in named[1:]:
        keywords += [MOTIFS[name].label, *cat[name].keywords[:4]]
    keywords += [*comp.things, *scenery, plan.time_of_day]
    en = text["en"]
    return {
        "title": en["title"],
        "description": en["description"],
        "alt_text": en["alt_text"],
        "motifs": motifs,
        "keywords": _unique(k.strip().lower() for k in keywords if k.strip()),
        "themes": themes,
        "moods": moods,
        "colours": dominant_colours(img),
        "time_of_day": plan.time_of_day,
        "palette": plan.palette,
        "palette_words": list(PALETTE_BY_NAME[plan.palette].words),
        "composition": plan.composition,
        "form": ctx.form,
        "main_motif": plan.main,
        "variant": plan.variant,
        "seed": plan.seed,
        "text": text,
    }


KIND_THEMES = {
    "creature": ("animals", "nature"),
    "building": ("home", "places"),
    "vessel": ("travel", "departure"),
    "plant": ("growth", "nature"),
    "sky": ("cosmos", "the infinite"),
    "glow": ("light",),
    "object": ("everyday things",),
}
TIME_MOODS = {
    "dawn": ("fresh", "hopeful"),
    "day": ("bright", "open"),
    "dusk": ("warm", "nostalgic"),
    "twilight": ("hushed", "dreamy"),
    "night": ("quiet", "mysterious"),
}


def _kind_themes(kinds: frozenset[str]) -> list[str]:
    out: list[str] = []
    for kind, themes in KIND_THEMES.items():
        if kind in kinds:
            out += themes
    return out


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def dominant_colours(img: Image.Image, n: int = 5) -> list[str]:
    """The ``n`` most common colours of a card, as hex strings."""
    small = img.convert("RGB").resize((60, 90), Image.Resampling.BILINEAR)
    q = small.quantize(colors=n, method=Image.Quantize.MEDIANCUT)
    pal: list[int] = list(q.getpalette() or [])
    counts = sorted(q.getcolors() or [], reverse=True)
    out = []
    for _, idx in counts:
        i = int(idx)  # type: ignore[call-overload]
        r, g, b = pal[i * 3 : i * 3 + 3]
        out.append(f"#{r:02x}{g:02x}{b:02x}")
    return out


def encode_webp(img: Image.Image, quality: int = WEBP_QUALITY) -> bytes:
    """Encode deterministically (no metadata, fixed method)."""
    buf = io.BytesIO()
    img.save(buf, "WEBP", quality=quality, method=4)
    return buf.getvalue()


def card_id(slug: str, data: bytes) -> str:
    """Opaque, content-derived card id: ``<deck-slug>-<12 hex of sha256(image)>``."""
    return f"{slug}-{hashlib.sha256(data).hexdigest()[:12]}"


def write_deck(
    plans: list[CardPlan],
    slug: str,
    name: str,
    out_dir: Path,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Render ``plans`` into ``out_dir/<id>.webp`` and ``out_dir/deck.json``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    cards = []
    for i, plan in enumerate(plans):
        img, meta = render_card(plan)
        data = encode_webp(img)
        cid = card_id(slug, data)
        (out_dir / f"{cid}.webp").write_bytes(data)
        cards.append({"id": cid, "file": f"{cid}.webp", **meta})
        if progress:
            progress(i + 1, len(plans))
    deck = {
        "slug": slug,
        "name": name,
        "builtin": True,
        "kind": "generated",
        "seed": seed,
        "license": "MIT (same as the project). Motifs: Fluent Emoji Flat "
        "(MIT, (c) Microsoft Corporation) - see THIRD_PARTY_NOTICES",
        "cards": cards,
    }
    (out_dir / "deck.json").write_text(json.dumps(deck, indent=1, ensure_ascii=False) + "\n")
    return deck


def generate_decks(
    out_dir: Path,
    seed: int = DEFAULT_SEED,
    decks: int = 2,
    size: int = DECK_SIZE,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Plan and render the built-in decks into ``out_dir/<slug>/``. Returns their manifests."""
    plans = plan_decks(seed, decks, size)
    out = []
    for d, deck_plans in enumerate(plans):
        slug, name = (
            BUILTIN_DECKS[d]
            if d < len(BUILTIN_DECKS)
            else (f"default-{d + 1}", f"Dreamlands {d + 1}")
        )
        target = out_dir / slug
        if target.exists():
            for old in target.glob("*.webp"):
                old.unlink()
        t0 = time.perf_counter()
        cb = (lambda i, n, s=slug: progress(s, i, n)) if progress else None
        out.append(write_deck(deck_plans, slug, name, target, seed, cb))
        out[-1]["_seconds"] = time.perf_counter() - t0
    for manifest in out:
        manifest.pop("_seconds", None)
    return out
