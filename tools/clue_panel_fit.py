"""Fit the storyteller's model of a person (``PICTURE_READER``) on picture-only panel rounds.

For every scored round whose clue came from the bank (the key names the clue, the card and the
table; the bank names the visible thing the clue hangs on, its anchor), two margins of the
storyteller's card over the best other card on the table, as the card's description reads them
(the ``SEEN`` reading): by the clue, and by its anchor; each as ``(mine - best) / max``. A
logistic regression of "the rater found the card" on the two gives the three numbers of
:data:`dixit.bots.players.PICTURE_READER`. It prints them, the log-likelihood against a constant
and the found rate by quartile of each margin.

    .venv/bin/python tools/clue_panel_fit.py docs/clue-panel/round1 docs/clue-panel/round2 \
        docs/clue-panel/round3
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402
from dixit.bots import CardBook  # noqa: E402
from dixit.bots.cardbook import SEEN  # noqa: E402
from dixit.bots.players import said_key  # noqa: E402

LANGS = ("en", "it", "pl", "es", "pt", "fr")


def margin(fits: list[float], at: int) -> float:
    """How much better the card at ``at`` fits than the best other one, as a share of the best."""
    others = max(f for i, f in enumerate(fits) if i != at)
    return (fits[at] - others) / max(fits[at], others, 1e-9)


def rows(book: CardBook, folders: list[Path]) -> tuple[npt.NDArray[np.float64], list[bool]]:
    features: list[list[float]] = []
    found: list[bool] = []
    for folder in folders:
        for lang in LANGS:
            key_path, answers_path = folder / f"{lang}-key.json", folder / f"{lang}.json"
            if not (key_path.is_file() and answers_path.is_file()):
                continue
            answers = json.loads(answers_path.read_text())["rounds"]
            for image, k in json.loads(key_path.read_text()).items():
                told = said_key(k["clue"])
                anchor = next((b.anchor for b in book.bank(k["storyteller_card"], lang)
                               if said_key(b.clue) == told and b.anchor), None)  # fmt: skip
                if anchor is None:
                    continue
                at = k["position"] - 1
                clue = margin(book.fit(k["clue"], k["table"], SEEN), at)
                shows = margin(book.fit(anchor, k["table"], SEEN), at)
                features.append([1.0, clue, shows])
                guess = answers[str(int(image.removeprefix("round-").removesuffix(".png")))]
                found.append(guess["guess"] == k["position"])
    return np.array(features), found


def logistic(x: npt.NDArray[np.float64], y: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Maximum-likelihood weights (Newton's method, a little ridge for stability)."""
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        hessian = (x * (p * (1 - p))[:, None]).T @ x + 1e-3 * np.eye(len(w))
        w += np.linalg.solve(hessian, x.T @ (y - p))
    return w


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", type=Path, nargs="+", help="panel folders with keys and answers")
    parser.add_argument("--deck", default="golden-tales")
    args = parser.parse_args()
    book = CardBook.from_cards(load_decks(None)[args.deck])
    x, found = rows(book, args.rounds)
    y = np.array(found, dtype=float)
    w = logistic(x, y)
    p = 1.0 / (1.0 + np.exp(-x @ w))
    fitted = float(np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
    base = float(np.mean(y * np.log(y.mean()) + (1 - y) * np.log(1 - y.mean())))
    print(f"{len(y)} rounds, found {y.mean():.3f}")
    print(f"PICTURE_READER = ({w[0]:.2f}, {w[1]:.2f}, {w[2]:.2f})")
    print(f"log-likelihood per round {fitted:.4f} (a constant: {base:.4f})")
    for j, name in ((1, "clue margin"), (2, "anchor margin")):
        cuts = np.quantile(x[:, j], [0.25, 0.5, 0.75])
        bins = np.digitize(x[:, j], cuts)
        shares = [f"{y[bins == b].mean():.2f}" for b in range(4)]
        print(f"found by quartile of the {name}: {' '.join(shares)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
