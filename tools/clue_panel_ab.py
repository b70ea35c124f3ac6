"""Score a blind A/B round of the picture-only panel: two versions of the storyteller played the
same seeds, their rounds shuffled together into one folder per language, so each rater rated
both without knowing which was which. The key (``<lang>-key.json``) names each round's
``variant``; the answers are ``<lang>.json`` as in every round.

    .venv/bin/python tools/clue_panel_ab.py --round docs/clue-panel/round6
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

LANGS = ("en", "it", "pl", "es", "pt", "fr")


def summary(ratings: list[int], found: list[bool], kinds: Counter[str]) -> dict[str, Any]:
    return {
        "rounds": len(ratings),
        "mean": round(statistics.mean(ratings), 3),
        "rated_4_5": round(sum(r >= 4 for r in ratings) / len(ratings), 3),
        "rated_1": round(sum(r == 1 for r in ratings) / len(ratings), 3),
        "found": round(sum(found) / len(found), 3),
        "kinds": dict(kinds.most_common()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--round", type=Path, required=True)
    args = parser.parse_args()
    total: dict[str, tuple[list[int], list[bool], Counter[str]]] = {}
    for lang in LANGS:
        answers_path = args.round / f"{lang}.json"
        if not answers_path.is_file():
            continue
        answers = json.loads(answers_path.read_text())["rounds"]
        key = json.loads((args.round / f"{lang}-key.json").read_text())
        per: dict[str, tuple[list[int], list[bool], Counter[str]]] = {}
        for image, row in sorted(key.items()):
            answer = answers.get(str(int(image.removeprefix("round-").removesuffix(".png"))))
            if answer is None:
                continue
            for bucket in (per, total):
                ratings, found, kinds = bucket.setdefault(row["variant"], ([], [], Counter()))
                ratings.append(int(answer["rating"]))
                found.append(answer["guess"] == row["position"])
                kinds[str(row.get("kind"))] += 1
        print(lang, json.dumps({v: summary(*per[v]) for v in sorted(per)}))
    print("all", json.dumps({v: summary(*total[v]) for v in sorted(total)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
