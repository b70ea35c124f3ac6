"""Playing a game through: one loop for bots, tests, benchmarks and simulations.

``playthrough`` asks a chooser for each move the game waits on, in seat order, and folds it in;
``random_command`` is the uniform random chooser (any legal move, as :func:`legal_actions`
lists them). Chance comes only from the ``rng`` passed in, so a seed fixes the whole game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from .chance import pick
from .commands import (
    CardId,
    CastVote,
    Command,
    GiveClue,
    PlayerId,
    StartGame,
    SubmitCards,
    VoidCard,
)
from .decide import decide, execute
from .events import Event
from .legal import legal_actions, waiting_for
from .rules import Rules
from .state import CLUE, OVER, SUBMIT, VOTE, GameState, fold_into

Chooser = Callable[[GameState, PlayerId], Command | None]
"""A player's move in a state, or None when that player has nothing to do."""

CLUE_WORDS = ("dream", "storm", "home", "light", "journey", "secret", "memory", "wonder")


def random_command(state: GameState, player: PlayerId, rng: random.Random) -> Command | None:
    """A uniformly random legal move for ``player`` (a clue is one of a few words).

    The moves are :func:`legal_actions`' own, read straight from the state (this is the hot
    loop of every simulation): a clue about any card in hand, any ``cards_each_for`` distinct
    cards in hand, a vote for any table card that is not the player's (any table card in party
    play, where the storyteller first voids any), with a second vote on another such card half
    the time where the rules give two.
    """
    hand = state.hands.get(player)
    if hand is None:
        return None
    if state.rules.team_size > 1:
        return _random_team_command(state, player, rng)
    phase, storyteller = state.phase, state.storyteller
    if phase is CLUE:
        if storyteller is None or storyteller == player:
            return GiveClue(player, pick(rng, hand), pick(rng, CLUE_WORDS))
        return None
    if phase is SUBMIT:
        if player == storyteller or player in state.submissions:
            return None
        count = state.rules.cards_each_for(len(state.players))
        if count == 1:
            return SubmitCards(player, (pick(rng, hand),))
        return SubmitCards(player, tuple(rng.sample(hand, count)))
    if phase is VOTE:
        rules = state.rules
        if rules.everyone_votes:
            if player == storyteller and state.void is None:
                return VoidCard(player, pick(rng, state.table))
            if player in state.votes:
                return None
            return CastVote(player, pick(rng, state.table))
        if player == storyteller or player in state.votes:
            return None
        own = state.submissions[player]
        choices = [c for c in state.table if c not in own]
        if rules.two_votes_from is None or rules.votes_each_for(len(state.players)) == 1:
            return CastVote(player, pick(rng, choices))
        if rng.getrandbits(1):
            return CastVote(player, pick(rng, choices))
        first, second = rng.sample(choices, 2)
        return CastVote(player, first, second)
    return None


def _random_team_command(state: GameState, player: PlayerId, rng: random.Random) -> Command | None:
    """Team play: any legal move (from :func:`legal_actions`, which knows the partners)."""
    legal = legal_actions(state, player)
    if legal.give_clue:
        return GiveClue(player, pick(rng, legal.give_clue), pick(rng, CLUE_WORDS))
    if legal.submit:
        return SubmitCards(player, (pick(rng, legal.submit),))
    if legal.vote:
        return CastVote(player, pick(rng, legal.vote))
    return None


def playthrough(
    state: GameState, rng: random.Random, choose: Chooser, max_moves: int = 100_000
) -> Iterator[tuple[Command, GameState, list[Event]]]:
    """Each move until the game is over: (command, state after it, its events).

    Everyone the game waits on is asked in seat order; in a simultaneous phase nobody is asked
    twice before the phase moves on. Raises RuntimeError if a pass makes no move (a chooser
    that never acts would otherwise loop forever) or after ``max_moves``.
    """
    moves = 0
    while state.phase is not OVER:
        moved = False
        for player in waiting_for(state):
            command = choose(state, player)
            if command is None:
                continue
            state, events = execute(state, command, rng)
            moves += 1
            moved = True
            yield command, state, events
            if state.phase is OVER:
                return
        if not moved or moves >= max_moves:
            raise RuntimeError(f"no progress in {state.phase} after {moves} moves")


def random_playthrough(
    rules: Rules,
    players: Sequence[PlayerId],
    deck: Sequence[CardId],
    seed: int,
    first_storyteller: PlayerId | None = None,
    choose: Chooser | None = None,
) -> tuple[GameState, list[Event]]:
    """A complete game from ``seed``: the final state and every event.

    The seed drives the engine's shuffles; a separate generator derived from it drives the
    random chooser (used unless ``choose`` is given).
    """
    rng = random.Random(seed)
    start = StartGame(tuple(players), tuple(deck), rules, first_storyteller=first_storyteller)
    state, log = execute(None, start, rng)
    if choose is not None:
        for _command, after, events in playthrough(state, rng, choose):
            log.extend(events)
            state = after
        return state, log
    # The same loop as ``playthrough`` with ``random_command``, without a generator in between,
    # and in one state: no move's state is seen by anyone, so each is folded into the last.
    chooser_rng = random.Random(seed ^ 0x5EED)
    while state.phase is not OVER:
        moved = False
        for player in waiting_for(state):
            command = random_command(state, player, chooser_rng)
            if command is None:
                continue
            events = decide(state, command, rng)
            state = fold_into(state, events)
            log.extend(events)
            moved = True
            if state.phase is OVER:
                break
        if not moved:
            raise RuntimeError(f"no progress in {state.phase}")
    return state, log
