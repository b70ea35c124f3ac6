"""The baseline: a uniformly random legal move, from the view's legal actions alone."""

from __future__ import annotations

import random

from dixit.engine import CastVote, GiveClue, PlayerView, SubmitCards, VoidCard

from .base import BotCommand

_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("dream", "journey", "silence", "home", "lost", "hope", "night", "secret", "childhood",
           "freedom", "memory", "balance", "storm", "wonder", "alone", "together", "light",
           "shadow"),
    "it": ("sogno", "viaggio", "silenzio", "casa", "perduto", "speranza", "notte", "segreto",
           "infanzia", "libertà", "ricordo", "equilibrio", "tempesta", "meraviglia", "solo",
           "insieme", "luce", "ombra"),
    "pl": ("sen", "podróż", "cisza", "dom", "zagubiony", "nadzieja", "noc", "sekret",
           "dzieciństwo", "wolność", "wspomnienie", "równowaga", "burza", "cud", "samotny",
           "razem", "światło", "cień"),
    "es": ("sueño", "viaje", "silencio", "hogar", "perdido", "esperanza", "noche", "secreto",
           "infancia", "libertad", "recuerdo", "equilibrio", "tormenta", "asombro", "solo",
           "juntos", "luz", "sombra"),
    "pt": ("sonho", "viagem", "silêncio", "lar", "perdido", "esperança", "noite", "segredo",
           "infância", "liberdade", "memória", "equilíbrio", "tempestade", "maravilha",
           "sozinho", "juntos", "luz", "sombra"),
    "fr": ("rêve", "voyage", "silence", "maison", "perdu", "espoir", "nuit", "secret",
           "enfance", "liberté", "souvenir", "équilibre", "tempête", "merveille", "seul",
           "ensemble", "lumière", "ombre"),
}  # fmt: skip


def words_for(lang: str) -> tuple[str, ...]:
    """Our small vocabulary of evocative words in ``lang`` (English for an unknown one)."""
    return _WORDS.get(lang, _WORDS["en"])


class RandomBot:
    """Any legal card; clues are random words in ``lang``; reads no card (``book`` is ignored).

    Deterministic for a seeded ``rng``.
    """

    name = "random"

    def __init__(
        self, rng: random.Random | None = None, *, lang: str = "en", book: object = None
    ) -> None:
        self.rng = rng or random.Random()
        self.lang = lang

    def rank(self, clue: str, cards: tuple[str, ...] | list[str]) -> list[str]:
        """The cards in random order (it does not read)."""
        return self.rng.sample(list(cards), len(cards))

    def choose_clue(
        self, hand: list[str], players: int, per_player: int, seen: set[str]
    ) -> tuple[str, str]:
        """Any card of ``hand`` and one to three random words."""
        clue = " ".join(self.rng.sample(words_for(self.lang), self.rng.randint(1, 3)))
        return self.rng.choice(hand), clue

    def act(self, view: PlayerView) -> BotCommand | None:
        legal, player = view.legal, view.viewer
        if player is None:
            return None
        if legal.give_clue:
            clue = " ".join(self.rng.sample(words_for(self.lang), self.rng.randint(1, 3)))
            return GiveClue(player, self.rng.choice(legal.give_clue), clue)
        if legal.submit:
            return SubmitCards(player, tuple(self.rng.sample(legal.submit, legal.submit_count)))
        if legal.void:
            return VoidCard(player, self.rng.choice(legal.void))
        if legal.vote:
            if legal.vote_count > 1 and len(legal.vote) > 1 and self.rng.random() < 0.5:
                first, second = self.rng.sample(legal.vote, 2)
                return CastVote(player, first, second)
            return CastVote(player, self.rng.choice(legal.vote))
        return None
