"""Our association vocabulary: idioms, proverbs, titles, figures and feelings in six languages.

Each entry links phrases a player might say (per language) to plain English cue words for the
ideas they evoke. Storytellers use the phrases as clues for cards whose English text holds a cue;
listeners who hear a phrase look for cards with its cues. The table lives in
``data/associations.json`` and is ours (written for this project).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from .text import LANGS, content_words, stem


@dataclass(frozen=True, slots=True)
class Association:
    cues: tuple[str, ...]  # English words for the ideas evoked
    clues: dict[str, tuple[str, ...]]  # lang -> phrases
    cue_stems: frozenset[str]
    phrase_stems: tuple[frozenset[str], ...]  # content stems of every phrase, any language

    def matches(self, clue_forms: set[str]) -> bool:
        """Whether a clue (its word forms) says one of the phrases: all its words, or 3 of 4."""
        for need in self.phrase_stems:
            hit = len(need & clue_forms)
            if hit == len(need) or (len(need) >= 3 and hit >= 0.75 * len(need)):
                return True
        return False


def _load() -> tuple[Association, ...]:
    raw = json.loads(
        resources.files(__package__).joinpath("data/associations.json").read_text("utf-8")
    )
    out: list[Association] = []
    for entry in raw:
        clues = {lang: tuple(entry["clues"].get(lang, ())) for lang in LANGS}
        phrase_stems = tuple(
            frozenset(stem(w, lang) for w in content_words(p))
            for lang, phrases in clues.items()
            for p in phrases
        )
        cues = tuple(entry["cues"])
        out.append(
            Association(
                cues=cues,
                clues=clues,
                cue_stems=frozenset(stem(w, "en") for c in cues for w in content_words(c)),
                phrase_stems=tuple(s for s in phrase_stems if s),
            )
        )
    return tuple(out)


ASSOCIATIONS: tuple[Association, ...] = _load()
