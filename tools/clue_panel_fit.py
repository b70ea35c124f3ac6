"""Fit the storyteller's model of a person (``PICTURE_READER``) on picture-only panel rounds.

For every scored round whose clue came from the bank (the key names the clue, the card, the
table, the clue's kind and the visible thing the bank says it hangs on, its anchor), the
features of :class:`dixit.bots.players.PictureReader` on the round's real table: the margins of
the storyteller's card over the best other card by the clue and by its anchor (as the
descriptions read them, the ``SEEN`` reading), the rival cards (another card fitting the clue
at least ``RIVAL`` as well), the clue's length and its kind (feeling, thing). A logistic
regression (a little ridge) of "the rater found the card" on them gives ``PICTURE_READER``.

It prints the fit; the log-loss per round, leaving one panel round out at a time (fit on the
others, scored on it), of a constant, of the two margins alone (the model before) and of the
whole model, and the model as shipped in players.py; the held-out calibration; and a
regression of the rating on the found chance, the kind and a short clue (at most two words),
which gives the storyteller's taste facing people (``PEOPLE_TASTE``).

    .venv/bin/python tools/clue_panel_fit.py docs/clue-panel/round1 docs/clue-panel/round2 \
        docs/clue-panel/round3 docs/clue-panel/round4

``--predict`` reads keys only (rounds not yet rated, from ``tools/clue_panel.py``) and prints,
per language, the chance the shipped model gives a person of finding the card, the kinds told
and ``--show`` clues next to their cards.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402
from dixit.bots import CardBook  # noqa: E402
from dixit.bots.cardbook import SEEN  # noqa: E402
from dixit.bots.players import (  # noqa: E402
    MARGIN_FLOOR,
    PEOPLE_SHORT,
    PEOPLE_TASTE,
    PICTURE_READER,
    RIVAL,
    SHORT_CLUE,
    clue_length,
    rivals,
)

LANGS = ("en", "it", "pl", "es", "pt", "fr")
NAMES = ("bias", "clue", "anchor", "rivals", "words", "feeling", "thing")
KINDS = ("feeling", "thing")  # the kinds the found model weighs (others: as a saying)
TASTE_KINDS = ("idea", "feeling", "situation", "thing")  # rated against a saying
RIDGE = 1.0


@dataclass(frozen=True, slots=True)
class Round:
    panel: int  # which folder (panel round) it came from
    lang: str
    clue: str
    kind: str
    card: str
    x: npt.NDArray[np.float64]  # the features, in NAMES' order
    found: bool | None  # None: not rated
    rating: int | None


def margin(fits: list[float], at: int) -> float:
    """How much better the card at ``at`` fits than the best other one, as a share of the best
    (at least ``MARGIN_FLOOR``)."""
    others = max(f for i, f in enumerate(fits) if i != at)
    return max((fits[at] - others) / max(fits[at], others, 1e-9), MARGIN_FLOOR)


def rounds(book: CardBook, folders: list[Path]) -> list[Round]:
    out: list[Round] = []
    for panel, folder in enumerate(folders):
        for lang in LANGS:
            key_path, answers_path = folder / f"{lang}-key.json", folder / f"{lang}.json"
            if not key_path.is_file():
                continue
            answers = (
                json.loads(answers_path.read_text())["rounds"] if answers_path.is_file() else {}
            )
            for image, k in json.loads(key_path.read_text()).items():
                if not k.get("anchor"):  # not from the bank: no anchor, not told any more
                    continue
                at = k["position"] - 1
                fits = book.fit(k["clue"], k["table"], SEEN)
                near = sum(f >= RIVAL * fits[at] for i, f in enumerate(fits) if i != at)
                x = [1.0, margin(fits, at), margin(book.fit(k["anchor"], k["table"], SEEN), at),
                     float(rivals(near)), clue_length(k["clue"])]  # fmt: skip
                x += [float(k["kind"] == kind) for kind in KINDS]
                answer = answers.get(str(int(image.removeprefix("round-").removesuffix(".png"))))
                found = None if answer is None else answer["guess"] == k["position"]
                rating = None if answer is None else int(answer["rating"])
                out.append(Round(panel, lang, k["clue"], k["kind"], k["storyteller_card"],
                                 np.array(x), found, rating))  # fmt: skip
    return out


def logistic(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Maximum-likelihood weights (Newton's method) with a ridge of :data:`RIDGE` (not on the
    bias): a few features on some hundred rounds."""
    w = np.zeros(x.shape[1])
    ridge = RIDGE * np.eye(len(w))
    ridge[0, 0] = 1e-3
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + ridge
        w += np.linalg.solve(hessian, x.T @ (y - p) - ridge @ w)
    return w


def sigmoid(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-z))
    return out


def log_loss(p: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> float:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def shipped(x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The found chance :data:`PICTURE_READER` gives, for rows of features."""
    m = PICTURE_READER
    w = np.array(
        [m.bias, m.clue, m.anchor, m.rivals, m.words, *(m.kinds.get(k, 0.0) for k in KINDS)]
    )
    return sigmoid(x @ w)


def held_out(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64], panel: npt.NDArray[np.int_],
             columns: list[int]) -> npt.NDArray[np.float64]:  # fmt: skip
    """Each row's found chance from a fit on the other panel rounds."""
    p = np.zeros(len(y))
    for k in np.unique(panel):
        out = panel == k
        if columns == [0]:
            p[out] = y[~out].mean()
        else:
            p[out] = sigmoid(x[out][:, columns] @ logistic(x[~out][:, columns], y[~out]))
    return p


def ratings(rated: list[Round], p: npt.NDArray[np.float64]) -> None:
    """Least squares of the rating on the found chance, the kind (against a saying) and a short
    clue: what people rate higher at an equal chance of finding the card."""
    names = ["1", "found chance", *TASTE_KINDS, f"at most {SHORT_CLUE} words"]
    kinds = [[r.kind == kind for r in rated] for kind in TASTE_KINDS]
    short = [len(r.clue.split()) <= SHORT_CLUE for r in rated]
    z = np.column_stack([np.ones(len(rated)), p, *kinds, short]).astype(float)
    t = np.array([r.rating for r in rated], dtype=float)
    b = np.linalg.lstsq(z, t, rcond=None)[0]
    res = t - z @ b
    se = np.sqrt(np.diag(res @ res / (len(t) - z.shape[1]) * np.linalg.inv(z.T @ z)))
    print(
        "rating = "
        + " ".join(f"{bi:+.2f} ({se_:.2f}) {n}" for n, bi, se_ in zip(names, b, se, strict=True))
    )
    taste = ", ".join(f'"{k}": {0.1 * b[2 + i]:.3f}' for i, k in enumerate(TASTE_KINDS))
    print(f"PEOPLE_TASTE = {{{taste}}}, PEOPLE_SHORT = {0.1 * b[-1]:.3f} (0.1 a point)")
    print(f"  shipped: {dict(PEOPLE_TASTE)}, {PEOPLE_SHORT}")
    for kind in ("saying", *TASTE_KINDS):
        mine = [r.rating for r in rated if r.kind == kind]
        print(f"  {kind:9s} {len(mine):3d} rounds, mean rating {np.mean(mine):.2f}")


def fit(data: list[Round]) -> None:
    rated = [r for r in data if r.found is not None]
    x = np.array([r.x for r in rated])
    y = np.array([r.found for r in rated], dtype=float)
    panel = np.array([r.panel for r in rated])
    w = logistic(x, y)
    print(f"{len(y)} rated banked rounds, found {y.mean():.3f}")
    kinds = ", ".join(f'"{k}": {w[5 + i]:.2f}' for i, k in enumerate(KINDS))
    print(f"PICTURE_READER = PictureReader(bias={w[0]:.2f}, clue={w[1]:.2f}, anchor={w[2]:.2f}, "
          f"rivals={w[3]:.2f}, words={w[4]:.2f}, kinds={{{kinds}}})")  # fmt: skip
    print("log-loss per round, each panel round held out (lower is better):")
    models = {"a constant": [0], "the two margins (before)": [0, 1, 2],
              "the whole model": list(range(len(NAMES)))}  # fmt: skip
    whole = np.zeros(len(y))
    for name, columns in models.items():
        p = held_out(x, y, panel, columns)
        per = " ".join(f"{log_loss(p[panel == k], y[panel == k]):.3f}" for k in np.unique(panel))
        print(f"  {name:26s} {log_loss(p, y):.4f}  (by round: {per})")
        whole = p
    print(f"  {'as shipped, in sample':26s} {log_loss(shipped(x), y):.4f}")
    cuts = np.quantile(whole, [0.2, 0.4, 0.6, 0.8])
    bins = np.digitize(whole, cuts)
    t = np.array([r.rating for r in rated], dtype=float)
    print("held-out fifths of the whole model's found chance: expected / found / mean rating")
    for b in range(5):
        m = bins == b
        print(f"  {whole[m].mean():.2f} / {y[m].mean():.2f} / {t[m].mean():.2f}")
    ratings(rated, shipped(x))


def predict(data: list[Round], folders: list[Path], show: int) -> None:
    print("folder lang rounds expected-found kinds")
    for panel, folder in enumerate(folders):
        for lang in LANGS:
            mine = [r for r in data if r.lang == lang and r.panel == panel]
            if not mine:
                continue
            p = shipped(np.array([r.x for r in mine]))
            kinds = Counter(r.kind for r in mine)
            mix = " ".join(f"{k} {n / len(mine):.0%}" for k, n in kinds.most_common())
            print(f"{folder} {lang} {len(mine)} {p.mean():.2f} {mix}")
            for r, chance in list(zip(mine, p, strict=True))[:show]:
                print(f"    {r.card}  {chance:.2f}  {r.kind:9s} {r.clue}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "rounds", type=Path, nargs="+", help="panel folders with keys (and answers)"
    )
    parser.add_argument("--deck", default="golden-tales")
    parser.add_argument("--predict", action="store_true", help="the shipped model on the keys")
    parser.add_argument("--show", type=int, default=0, help="with --predict: clues per language")
    args = parser.parse_args()
    book = CardBook.from_cards(load_decks(None)[args.deck])
    data = rounds(book, args.rounds)
    if args.predict:
        predict(data, args.rounds, args.show)
    else:
        fit(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
