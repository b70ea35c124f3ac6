"""The levels of computer players and :func:`make_bot`, the one way to make one."""

from __future__ import annotations

import random

from .base import Bot
from .cardbook import FULL, LITERAL, CardBook, Reading
from .players import ReadingBot, Skill
from .random_bot import RandomBot
from .text import LANGS

LEVELS = ("random", "easy", "medium", "strong")

MEDIUM_READING = Reading(FULL.weights, semantic=0.5)

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
        literal_cost=0.02,
    ),
    "strong": Skill(
        FULL,
        vote_noise=0.04,
        decoy_noise=0.0,
        tell_cards=7,
        tell_clues=40,
        tables=32,
        model_noise=0.05,
        adapts=True,
        taste=0.1,
        literal_cost=0.05,
    ),
}


def make_bot(level: str, *, rng: random.Random, lang: str, book: CardBook) -> Bot:
    """A computer player of ``level`` (one of :data:`LEVELS`) telling clues in ``lang``.

    Raises ValueError for an unknown level or language.
    """
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    if level == "random":
        return RandomBot(rng, lang=lang)
    skill = SKILLS.get(level)
    if skill is None:
        raise ValueError(f"unknown bot level {level!r}; expected one of {', '.join(LEVELS)}")
    return ReadingBot(level, skill, rng=rng, lang=lang, book=book)
