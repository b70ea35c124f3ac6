"""The deck planner: which composition, main motif, palette and time of day each card gets.

Planning is cheap (no rendering) and deterministic for a seed. Constraints, per deck:

* no main motif appears twice (and none is reused across the decks planned together);
* every composition is used once, and those with two stagings (``uses == 2``) may be used
  twice; the two cards then get different ``variant`` numbers, hence different stagings;
* times of day are balanced (counts differ by at most a few cards) and so are the palettes
  within each time of day.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from functools import cache

import numpy as np

from dixit.decks.compositions import COMPOSITIONS, Composition
from dixit.decks.motifs import MOTIFS, Motif
from dixit.decks.painter import icon
from dixit.decks.palettes import PALETTES, TIMES_OF_DAY

DECK_SIZE = 84
MAX_PER_COMPOSITION = 2


@dataclass(frozen=True)
class CardPlan:
    """Everything needed to render one card."""

    deck: int
    index: int
    composition: str
    main: str
    palette: str
    time_of_day: str
    seed: int
    variant: int = 0  # how many earlier cards of this deck use the same composition


def card_seed(seed: int, deck: int, index: int, main: str) -> int:
    """A per-card seed, stable under changes elsewhere in the deck."""
    h = hashlib.sha256(f"{seed}:{deck}:{index}:{main}".encode()).digest()
    return int.from_bytes(h[:8], "big")


def _eligible(comp: Composition, motif: Motif) -> bool:
    return (
        bool(comp.kinds & motif.kinds)
        and motif.name not in comp.exclude
        and not ({"figure", "prop"} & motif.kinds)
        and (not comp.wide_only or is_wide(motif.name))
    )


@cache
def is_wide(name: str) -> bool:
    """Whether the motif's icon is clearly wider than tall (so it can lie down as a hill)."""
    h, w = icon(name, 48).shape[:2]
    return bool(w > 1.15 * h)


def _composition_counts(rng: np.random.Generator, n: int) -> dict[str, int]:
    """Every composition once, then second uses (of two-staging ideas) drawn at random."""
    names = sorted(COMPOSITIONS)
    if n < len(names):
        return {str(k): 1 for k in rng.permutation(names)[:n]}
    twice = [k for k in names if COMPOSITIONS[k].uses >= 2]
    extra = n - len(names)
    if extra > len(twice):
        raise RuntimeError(f"{n} cards need more compositions (at most {len(names) + len(twice)})")
    counts = dict.fromkeys(names, 1)
    for k in rng.permutation(twice)[:extra]:
        counts[str(k)] += 1
    return counts


def plan_decks(seed: int, decks: int = 2, size: int = DECK_SIZE) -> list[list[CardPlan]]:
    """Plan ``decks`` decks of ``size`` cards with all-different main motifs."""
    rng = np.random.default_rng(seed)
    used: set[str] = set()
    out: list[list[CardPlan]] = []
    for d in range(decks):
        counts = _composition_counts(rng, size)
        slots = [name for name in sorted(counts) for _ in range(counts[name])]
        # Times of day: a balanced multiset, then matched to compositions that accept them.
        times = [TIMES_OF_DAY[i % len(TIMES_OF_DAY)] for i in range(size)]
        rng.shuffle(times)
        slot_time = _assign_times(rng, slots, times)
        # Motifs: fill the most constrained compositions first.
        pool = [m for m in MOTIFS.values() if m.name not in used]
        order = sorted(
            range(size),
            key=lambda i: sum(_eligible(COMPOSITIONS[slots[i]], m) for m in pool),
        )
        mains: dict[int, str] = {}
        kind_use: Counter[str] = Counter()
        for i in order:
            comp = COMPOSITIONS[slots[i]]
            cands = [m for m in pool if m.name not in used and _eligible(comp, m)]
            if not cands:
                raise RuntimeError(f"no motif left for {comp.name} in deck {d}")
            # prefer kinds used least so far, then random
            best = min(_kind_key(m, kind_use) for m in cands)
            cands = [m for m in cands if _kind_key(m, kind_use) == best]
            pick = cands[int(rng.integers(len(cands)))]
            used.add(pick.name)
            mains[i] = pick.name
            kind_use[_primary_kind(pick)] += 1
        # Palettes: balanced within each time of day.
        pal_cycle: dict[str, list[str]] = {}
        for t in TIMES_OF_DAY:
            names = [p.name for p in PALETTES if p.time_of_day == t]
            pal_cycle[t] = [str(n) for n in rng.permutation(names)]
        pal_count: Counter[str] = Counter()
        comp_seen: Counter[str] = Counter()
        plans = []
        perm = [int(i) for i in rng.permutation(size)]
        for pos, i in enumerate(perm):
            t = slot_time[i]
            pal_names = pal_cycle[t]
            low = min(pal_count[c] for c in pal_names)
            pal = next(c for c in pal_names if pal_count[c] == low)
            pal_count[pal] += 1
            variant = comp_seen[slots[i]]
            comp_seen[slots[i]] += 1
            plans.append(
                CardPlan(
                    d, pos, slots[i], mains[i], pal, t, card_seed(seed, d, pos, mains[i]), variant
                )
            )
        out.append(plans)
    return out


def _primary_kind(m: Motif) -> str:
    for k in ("creature", "building", "vessel", "plant", "sky", "object"):
        if k in m.kinds:
            return k
    return "object"


def _kind_key(m: Motif, use: Counter[str]) -> int:
    return use[_primary_kind(m)]


def _assign_times(rng: np.random.Generator, slots: list[str], times: list[str]) -> list[str]:
    """Give each slot a time of day its composition accepts, keeping the multiset balanced."""
    n = len(slots)
    remaining = Counter(times)
    out = [""] * n
    order = sorted(range(n), key=lambda i: len(COMPOSITIONS[slots[i]].times))
    for i in order:
        ok = [t for t in TIMES_OF_DAY if t in COMPOSITIONS[slots[i]].times and remaining[t] > 0]
        if not ok:
            ok = sorted(COMPOSITIONS[slots[i]].times)
        top = max(remaining[t] for t in ok)
        best = [t for t in ok if remaining[t] == top]
        t = best[int(rng.integers(len(best)))]
        remaining[t] -= 1
        out[i] = t
    return out
