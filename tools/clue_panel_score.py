"""Score a picture-only panel: the raters' answers against the keys, as figures and a table.

For each language with ``<lang>-key.json`` (written by ``tools/clue_panel.py``) and the rater's
``<lang>.json`` in ``--round`` (a folder such as ``docs/clue-panel/round3``), prints the figures
(mean rating, share rated 4-5 and 1, how often the rater found the card, the computer
listeners' votes on it, the mean rating by kind of clue) and, with ``--markdown``, the table of
rounds: clue, source, the storyteller's card (its English title, which the rater never saw),
where it lay, the guess, the rating and the rater's note.

    .venv/bin/python tools/clue_panel_score.py --round docs/clue-panel/round3 --markdown
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402

LANGS = ("en", "it", "pl", "es", "pt", "fr")


def titles() -> dict[str, str]:
    out: dict[str, str] = {}
    for cards in load_decks(None).values():
        for card in cards:
            text = card.get("text", {}).get("en", {})
            out[card["id"]] = str(text.get("title", card["id"]))
    return out


def score(folder: Path, lang: str) -> tuple[dict[str, Any], list[list[str]]] | None:
    key_path, answers_path = folder / f"{lang}-key.json", folder / f"{lang}.json"
    if not (key_path.is_file() and answers_path.is_file()):
        return None
    key = json.loads(key_path.read_text())
    answers = json.loads(answers_path.read_text())["rounds"]
    names = titles()
    ratings: list[int] = []
    found = bot_on = bot_all = 0
    by_kind: dict[str, list[int]] = defaultdict(list)
    rows = []
    for image, k in sorted(key.items()):
        a = answers[str(int(image.removeprefix("round-").removesuffix(".png")))]
        ratings.append(a["rating"])
        found += a["guess"] == k["position"]
        bot_on += k.get("bot_votes_on_it", 0)  # none in a round of clue pairs (no game)
        bot_all += k.get("bot_votes", 0)
        kind = k["kind"] if k["source"] == "bank" else "text"
        by_kind[kind].append(a["rating"])
        source = f"bank: {k['kind']}" if k["source"] == "bank" else "text"
        if "variant" in k:  # a blind A/B round (clue_panel_mix.py)
            source += f", {k['variant']}"
        note = str(a.get("note", "")).replace("|", "/")
        rows.append([str(len(rows) + 1), k["clue"], source, names.get(k["storyteller_card"], "?"),
                     str(k["position"]), str(a["guess"]), str(a["rating"]), note])  # fmt: skip
    n = len(ratings)
    figures = {
        "rounds": n,
        "mean": round(sum(ratings) / n, 2),
        "rated_4_5": round(sum(r >= 4 for r in ratings) / n, 2),
        "rated_1": round(sum(r == 1 for r in ratings) / n, 2),
        "found": round(found / n, 2),
        "bot_votes_on_it": round(bot_on / bot_all, 2) if bot_all else None,
        "by_kind": {k: [len(v), round(sum(v) / len(v), 2)] for k, v in sorted(by_kind.items())},
    }
    return figures, rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=Path, required=True)
    parser.add_argument("--markdown", action="store_true", help="also the table of rounds")
    args = parser.parse_args()
    every: list[int] = []
    for lang in LANGS:
        scored = score(args.round, lang)
        if scored is None:
            continue
        figures, rows = scored
        every += [int(r[6]) for r in rows]
        print(lang, json.dumps(figures, ensure_ascii=False))
        if args.markdown:
            print(f"\n### {lang}\n")
            print("| # | clue | source | storyteller's card | at | guess | rating | note |")
            print("| --- | --- | --- | --- | --- | --- | --- | --- |")
            for row in rows:
                print("| " + " | ".join(row) + " |")
            print()
    if every:
        print("all", len(every), round(sum(every) / len(every), 2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
