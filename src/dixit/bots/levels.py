"""The levels of computer players and :func:`make_bot`, the one way to make one."""

from __future__ import annotations

import random
from dataclasses import replace

from .base import Bot
from .cardbook import FULL, LITERAL, SEEN, CardBook, Reading
from .players import People, ReadingBot, Skill, nobody
from .random_bot import RandomBot
from .text import LANGS

LEVELS = ("random", "easy", "medium", "strong")

MEDIUM_READING = Reading(FULL.weights, semantic=0.5)
# The strong listener also reads each clue word against what the pictures show in all six
# languages at once (pivot.py): the same clue in another language ranks the cards more alike.
# Its storyteller predicts the computer listeners with the same pivot (#27, docs/ai.md).
PIVOT = 1.0
STRONG_READING = replace(FULL, pivot=PIVOT)
STRONG_PREDICTS = replace(SEEN, pivot=PIVOT)

# Mean rating of each kind of clue by the picture-only panel, rounds 1 and 2 (320 rounds,
# docs/clue-panel/): sayings and titles that hang on a detail rate best, plain things worst.
PANEL_RATING = {"saying": 3.80, "idea": 3.65, "feeling": 3.53, "situation": 3.34, "thing": 2.67}
PANEL_MEAN = 3.4


def kind_taste(weight: float) -> dict[str, float]:
    """Leaning towards the kinds of clue people rated higher: ``weight`` per point of rating."""
    return {kind: round(weight * (rating - PANEL_MEAN), 4) for kind, rating in PANEL_RATING.items()}


SKILLS: dict[str, Skill] = {
    "easy": Skill(LITERAL, vote_noise=0.35, decoy_noise=0.5, tell_cards=1, tell_clues=3, tables=0),
    "medium": Skill(
        MEDIUM_READING,
        vote_noise=0.15,
        decoy_noise=0.2,
        tell_cards=2,
        tell_clues=6,
        tables=8,
        model_noise=0.15,
        kind_taste=kind_taste(0.05),
    ),
    "strong": Skill(
        STRONG_READING,
        vote_noise=0.04,
        decoy_noise=0.0,
        tell_cards=7,
        tell_clues=40,
        tables=32,
        model_noise=0.05,
        adapts=True,
        predicts_with=STRONG_PREDICTS,
        taste=0.1,
        kind_taste=kind_taste(0.1),
    ),
}


def make_bot(
    level: str, *, rng: random.Random, lang: str, book: CardBook, people: People = nobody
) -> Bot:
    """A computer player of ``level`` (one of :data:`LEVELS`) telling clues in ``lang``.

    ``people``: the seats that are people, asked when it tells a clue (public: the table
    marks its computer players); it models a person as a reader of the pictures and a
    computer as a computer listener. By default every other seat counts as a computer.

    Raises ValueError for an unknown level or language.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    if level == "random":
        return RandomBot(rng, lang=lang)
    skill = SKILLS.get(level)
    if skill is None:
        raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}")
    return ReadingBot(level, skill, rng=rng, lang=lang, book=book, people=people)
