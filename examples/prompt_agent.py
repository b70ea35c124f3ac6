"""An example outside agent: asks a model of yours, through a function you supply, for each move.

Plug it into the arena (``dixit arena --agent examples.prompt_agent:PromptAgent``) or the
environment (``env.step(env.unwrapped.action_for(agent.act(view)))``). Our code opens no network
connection: ``ask`` is yours — call a local model server, a notebook, a person at a keyboard.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from dixit.bots import CardBook
from dixit.engine import CastVote, Command, GiveClue, PlayerView, SubmitCards

Ask = Callable[[str], str]
Describe = Callable[[str], str]


def echo_first_number(prompt: str) -> str:
    """A stand-in model for trying the plumbing: always answers with the first option."""
    return "1"


def _description(book: CardBook | None, card: str, lang: str) -> str:
    text = book.text(card, lang) if book is not None else None
    return str(text.get("description") or card) if text else card


class PromptAgent:
    """A player that turns its view into a short prompt and reads a number (and clue) back."""

    name = "prompt"

    def __init__(
        self,
        ask: Ask = echo_first_number,
        describe: Describe | None = None,
        rng: random.Random | None = None,
        lang: str = "en",
        book: CardBook | None = None,
    ) -> None:
        """``describe`` turns a card id into text for the prompt; by default the card's
        description in ``lang`` from ``book`` (the arena passes both), else the id."""
        self.ask = ask
        self.describe = describe or (lambda card: _description(book, card, lang))
        self.rng = rng or random.Random(0)

    def _choose(self, question: str, options: tuple[str, ...]) -> tuple[int, str]:
        lines = [question] + [f"{i + 1}. {self.describe(c)}" for i, c in enumerate(options)]
        answer = self.ask("\n".join(lines))
        match = re.search(r"\d+", answer)
        index = int(match.group()) - 1 if match else -1
        if not 0 <= index < len(options):
            index = self.rng.randrange(len(options))  # an unreadable answer: any legal move
        rest = answer[match.end() :].strip(" :.-\n") if match else ""
        return index, rest

    def act(self, view: PlayerView) -> Command | None:
        legal, player = view.legal, view.viewer
        if player is None:
            return None
        if legal.give_clue:
            index, clue = self._choose(
                "You are the storyteller. Answer with a card number and a clue.", legal.give_clue
            )
            return GiveClue(player, legal.give_clue[index], clue or "a dream")
        if legal.submit:
            cards = list(legal.submit)
            chosen = []
            for _ in range(legal.submit_count):
                index, _ = self._choose(f"Which card fits the clue {view.clue!r}?", tuple(cards))
                chosen.append(cards.pop(index))
            return SubmitCards(player, tuple(chosen))
        if legal.vote:
            index, _ = self._choose(
                f"Which card is the storyteller's for the clue {view.clue!r}?", legal.vote
            )
            return CastVote(player, legal.vote[index])
        return None
