"""Numbers for a learner: a player's view as a flat integer vector, moves as one discrete space.

The action space of a game is fixed by its edition and player count:

- ``[0, H)``: tell a clue about the card in hand slot ``i`` (H = hand size);
- ``[H, H + S)``: submit the hand slots of combination ``j`` (S = C(H, k), k cards each);
- ``[H + S, H + S + T)``: vote for table slot ``t`` (T = table size);
- where the rules give two votes (Odyssey, 7 or more players), ``P = C(T, 2)`` more: vote for
  the two table slots of pair ``j`` at once (the lower slot is the first vote);
- in party play, ``T`` more: the storyteller voids table slot ``t``.

In team play a hand slot is one of the team's cards: the player's own hand, then their
partner's (H = team size x hand size), and the observation adds the partner's hand.

The observation is the engine's :class:`PlayerView` and nothing more, seats counted from the
viewer (0 = me), cards as deck indices: no hidden card of another player can appear in it.

:class:`Encoder` with :func:`action_mask` and :func:`decode_action` define the spaces from a
view. :class:`LiveObservations` is what the environment runs on: the same observations, masks
and commands, kept up to date from each step's events instead of rebuilt from a fresh view (a
test compares the two at every step of random games, for every edition and player count).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from dixit.engine import (
    CardId,
    CardsDrawn,
    CardsSubmitted,
    CardVoided,
    CastVote,
    ClueGiven,
    Code,
    Command,
    Event,
    GameError,
    GameState,
    GiveClue,
    HandsPassed,
    Phase,
    PileReshuffled,
    PlayerId,
    PlayerView,
    RoundScored,
    RoundStarted,
    Rules,
    SubmitCards,
    TableLaid,
    VoidCard,
    VoteCast,
    legal_actions,
    waiting_for,
)

PHASES = (Phase.CLUE, Phase.SUBMIT, Phase.VOTE, Phase.OVER)
HISTORY = 3  # revealed rounds shown, newest first
IntArray = npt.NDArray[np.int32]
MaskArray = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Layout:
    """Sizes of the spaces for one edition and player count."""

    players: int
    deck: tuple[CardId, ...]
    hand: int
    cards_each: int
    table: int
    combos: tuple[tuple[int, ...], ...]
    pairs: tuple[tuple[int, int], ...] = ()  # two table slots voted for at once
    voids: int = 0  # party play: table slots the storyteller may void
    team: int = 1  # team play: players in a team (hand slots span the team's hands)

    @classmethod
    def of(cls, rules: Rules, players: int, deck: tuple[CardId, ...]) -> Layout:
        hand = rules.hand_size_for(players) * rules.team_size
        each = rules.cards_each_for(players)
        table = rules.table_size_for(players)
        two = rules.votes_each_for(players) > 1
        return cls(
            players,
            deck,
            hand,
            each,
            table,
            tuple(combinations(range(hand), each)),
            tuple(combinations(range(table), 2)) if two else (),
            table if rules.everyone_votes else 0,
            rules.team_size,
        )

    @property
    def actions(self) -> int:
        return self.hand + len(self.combos) + self.table + len(self.pairs) + self.voids

    @property
    def pair0(self) -> int:
        """The first action that casts two votes."""
        return self.hand + len(self.combos) + self.table

    @property
    def void0(self) -> int:
        """The first action that voids a table slot."""
        return self.pair0 + len(self.pairs)

    @property
    def round_size(self) -> int:
        """One revealed round: storyteller seat and card, then table cards, owners and votes."""
        return 2 + self.table * 3

    @property
    def observation_size(self) -> int:
        n, d = self.players, len(self.deck)
        cards = d * (3 if self.team > 1 else 2)  # hand, my cards in play (, partner's hand)
        return len(PHASES) + 4 + n * 3 + cards + self.table + 3 + HISTORY * self.round_size


class Encoder:
    """Encodes views for one game. Seat orders, which are fixed, and revealed rounds, which
    change once a round, are cached."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.index = {card: i for i, card in enumerate(layout.deck)}
        self._seats: dict[tuple[tuple[str, ...], str | None], tuple[dict[str, int], list[str]]] = {}
        self._rounds: dict[tuple[str | None, int], list[int]] = {}
        self._history: dict[tuple[str | None, int], list[int]] = {}
        size = layout.table
        self._no_round = [-1, -1] + [-1] * (size * 2) + [0] * size

    def reset(self) -> None:
        self._rounds.clear()
        self._history.clear()

    def _seating(self, view: PlayerView) -> tuple[dict[str, int], list[str]]:
        """Seats counted from the viewer, and the players in that order."""
        key = (view.players, view.viewer)
        seating = self._seats.get(key)
        if seating is None:
            players, n = view.players, len(view.players)
            me = players.index(view.viewer) if view.viewer is not None else 0
            seats = {p: (i - me) % n for i, p in enumerate(players)}
            seating = self._seats[key] = (seats, [players[(me + i) % n] for i in range(n)])
        return seating

    def _round(self, scored: RoundScored, seats: dict[str, int]) -> list[int]:
        index, size = self.index, self.layout.table
        votes: dict[str, int] = {}
        for _, card in scored.votes:
            votes[card] = votes.get(card, 0) + 1
        owners = dict(scored.owners)
        pad = size - len(scored.table)
        return (
            [seats[scored.storyteller], index[scored.storyteller_card]]
            + [index[c] for c in scored.table]
            + [-1] * pad
            + [seats[owners[c]] for c in scored.table]
            + [-1] * pad
            + [votes.get(c, 0) for c in scored.table]
            + [0] * pad
        )

    def history(self, view: PlayerView, seats: dict[str, int]) -> list[int]:
        """The newest ``HISTORY`` revealed rounds, each encoded once per viewer."""
        me = view.viewer
        done = len(view.rounds)
        cached = self._history.get((me, done))
        if cached is None:
            cached = []
            for number in range(done - 1, done - 1 - HISTORY, -1):
                if number < 0:
                    cached += self._no_round
                    continue
                encoded = self._rounds.get((me, number))
                if encoded is None:
                    encoded = self._rounds[(me, number)] = self._round(view.rounds[number], seats)
                cached += encoded
            self._history[(me, done)] = cached
        return cached

    def encode(self, view: PlayerView) -> IntArray:
        """The view as integers (see the module docstring for what is and is not in it)."""
        layout, index = self.layout, self.index
        d = len(layout.deck)
        seats, ordered = self._seating(view)
        acted, waiting, scores, phase = view.acted, view.waiting_for, view.scores, view.phase
        storyteller = view.storyteller
        values = [int(phase is p) for p in PHASES]
        values += (
            -1 if storyteller is None else seats[storyteller],
            view.round,
            view.pile_count,
            view.discard_count,
        )
        values += [scores[p] for p in ordered]
        values += [int(p in acted) for p in ordered]
        values += [int(p in waiting) for p in ordered]
        cards = [0] * (2 * d)
        for card in view.hand or ():
            cards[index[card]] = 1
        for card in view.my_cards:
            cards[d + index[card]] = 1
        values += cards
        if layout.team > 1:
            partner = [0] * d
            for card in view.partner_hand or ():
                partner[index[card]] = 1
            values += partner
        table = view.table
        values += [index[c] for c in table]
        values += [-1] * (layout.table - len(table))
        values.append(table.index(view.my_vote) if view.my_vote in table else -1)
        values.append(table.index(view.my_second_vote) if view.my_second_vote in table else -1)
        values.append(table.index(view.my_void) if view.my_void in table else -1)
        values += self.history(view, seats)
        return np.fromiter(values, dtype=np.int32, count=len(values))


def team_hand(view: PlayerView) -> tuple[CardId, ...]:
    """The hand slots: the viewer's hand, then (team play) their partner's."""
    return (view.hand or ()) + (view.partner_hand or ())


def action_mask(view: PlayerView, layout: Layout) -> npt.NDArray[np.int8]:
    """1 where the action is legal for the viewer now."""
    mask = np.zeros(layout.actions, dtype=np.int8)
    legal, hand = view.legal, team_hand(view)
    if legal.give_clue:
        mask[: len(hand)] = 1
    elif legal.submit:
        for j, slots in enumerate(layout.combos):
            if slots[-1] < len(hand):
                mask[layout.hand + j] = 1
    else:
        base = layout.hand + len(layout.combos)
        votable = [t for t, card in enumerate(view.table) if card in legal.vote]
        for t in votable:
            mask[base + t] = 1
        if legal.vote_count > 1:
            for j, (a, b) in enumerate(layout.pairs):
                if a in votable and b in votable:
                    mask[layout.pair0 + j] = 1
        if legal.void:
            for t, card in enumerate(view.table):
                if card in legal.void:
                    mask[layout.void0 + t] = 1
    return mask


def decode_action(action: int, clue: str | None, view: PlayerView, layout: Layout) -> Command:
    """The engine command for an action index; a GameError if it is not legal now."""
    player, hand, legal = view.viewer, team_hand(view), view.legal
    if player is None or isinstance(action, bool) or not 0 <= action < layout.actions:
        raise GameError(Code.MALFORMED, f"action {action!r} is outside 0..{layout.actions - 1}")
    if action < layout.hand:
        if not legal.give_clue or action >= len(hand):
            raise GameError(Code.WRONG_PHASE, "no clue can be told with this card now")
        if clue is None:
            raise GameError(Code.CLUE_EMPTY, "a clue action needs its text")
        return GiveClue(player, hand[action], clue)
    action -= layout.hand
    if action < len(layout.combos):
        slots = layout.combos[action]
        if not legal.submit or slots[-1] >= len(hand):
            raise GameError(Code.WRONG_PHASE, "these cards cannot be submitted now")
        return SubmitCards(player, tuple(hand[s] for s in slots))
    table = view.table
    if action + layout.hand >= layout.void0:
        slot = action + layout.hand - layout.void0
        if slot >= len(table) or table[slot] not in legal.void:
            raise GameError(Code.CANNOT_VOID, "this table slot cannot be voided now")
        return VoidCard(player, table[slot])
    if action + layout.hand >= layout.pair0:
        a, b = layout.pairs[action + layout.hand - layout.pair0]
        if legal.vote_count < 2 or b >= len(table) or not {table[a], table[b]} <= set(legal.vote):
            raise GameError(Code.CARD_NOT_ON_TABLE, "no votes for these table slots now")
        return CastVote(player, table[a], table[b])
    slot = action - len(layout.combos)
    if not legal.vote or slot >= len(table) or table[slot] not in legal.vote:
        raise GameError(Code.CARD_NOT_ON_TABLE, "no vote for this table slot now")
    return CastVote(player, table[slot])


def encode_command(command: Command, view: PlayerView, layout: Layout) -> tuple[int, str | None]:
    """The action (index, clue text or None) for an engine command: how an agent that answers
    views with commands (``dixit.bots.Bot``) plays in the environment."""
    hand = team_hand(view)
    if isinstance(command, GiveClue):
        return hand.index(command.card), command.clue
    if isinstance(command, SubmitCards):
        slots = tuple(sorted(hand.index(c) for c in command.cards))
        return layout.hand + layout.combos.index(slots), None
    if isinstance(command, CastVote):
        slot = view.table.index(command.card)
        if command.second is not None:
            other = view.table.index(command.second)
            pair = (min(slot, other), max(slot, other))
            return layout.pair0 + layout.pairs.index(pair), None
        return layout.hand + len(layout.combos) + slot, None
    if isinstance(command, VoidCard):
        return layout.void0 + view.table.index(command.card), None
    raise GameError(Code.UNKNOWN_COMMAND, f"{type(command).__name__} is not a player's move")


_NONE: frozenset[PlayerId] = frozenset()
_TEAM_EVENTS = (CardsDrawn, CardsSubmitted, ClueGiven, VoteCast)
# Phases as module constants (Python 3.11 reads ``Phase.CLUE`` through an enum descriptor, and
# hashes an enum member with a Python-level call).
_CLUE, _SUBMIT, _VOTE, _OVER = PHASES


class LiveObservations:
    """Every agent's observation for one game, kept current from the events of each step.

    Each agent has a row, written when an event changes what that agent sees: their own draws
    and cards, the laid table, their vote, the reveal (history), the counts and scores. The
    turn (phase, storyteller, who has acted, who is waited on) changes with every move; its
    encoding is computed from the state once per viewer and turn and then reused.
    :meth:`observation`, :meth:`mask` and :meth:`decode` give exactly what
    :meth:`Encoder.encode`, :func:`action_mask` and :func:`decode_action` give for the engine's
    ``player_view(state, agent)``, for the state made by the events last applied.

    (Single values are written through memoryviews of the rows: about half the cost of a NumPy
    item or slice assignment, which matters at a hundred steps a game.)
    """

    def __init__(self, layout: Layout, players: tuple[PlayerId, ...]) -> None:
        n, d, t = layout.players, len(layout.deck), layout.table
        self.layout = layout
        self.players = players
        self.actions = layout.actions
        self.hand_size = layout.hand
        self.combos = layout.combos
        self.vote0 = layout.hand + len(layout.combos)
        self.pair0, self.void0, self.pairs = layout.pair0, layout.void0, layout.pairs
        self.voided_bit = 1 << n  # in ``acted``: the party storyteller has voided a card
        self.index = {card: i for i, card in enumerate(layout.deck)}
        self.row = {p: i for i, p in enumerate(players)}
        self.bit = {p: 1 << i for i, p in enumerate(players)}
        self.ordered = [tuple(players[(me + i) % n] for i in range(n)) for me in range(n)]
        self.seats = [{p: (i - me) % n for i, p in enumerate(players)} for me in range(n)]
        self.relative = (np.arange(n)[None, :] - np.arange(n)[:, None]) % n  # [me, seat]
        rotation = (np.arange(n)[None, :] + np.arange(n)[:, None]) % n  # [me, i]: seat
        # [me, j]: where the j-th count of a viewer's row comes from in (round, pile, discard,
        # scores in seat order): the three counts, then the scores from the viewer's seat on
        self.count_index = np.concatenate(
            [np.broadcast_to(np.arange(3), (n, 3)), 3 + rotation], axis=1
        )
        self.counts0 = len(PHASES) + 1  # round, pile, discard, then scores
        self.acted0 = self.counts0 + 3 + n  # acted, then waiting
        self.head = len(PHASES) + 4 + 3 * n
        self.hand0 = self.head
        self.mine0 = self.head + d
        self.teams = layout.team > 1
        self.partner0 = self.head + 2 * d  # team play: the partner's hand
        self.table0 = self.head + (3 if self.teams else 2) * d
        size = layout.team
        self.team_of = {
            p: players[i - i % size : i - i % size + size] for i, p in enumerate(players)
        }
        self.vote_at = self.table0 + t
        self.second_at = self.vote_at + 1
        self.void_at = self.vote_at + 2
        self.history0 = self.vote_at + 3
        self.template = np.zeros(layout.observation_size, dtype=np.int32)
        self.template[self.table0 : self.history0] = -1
        self.template[self.history0 :] = np.tile(
            np.array([-1, -1] + [-1] * (2 * t) + [0] * t, dtype=np.int32), HISTORY
        )
        self.rows: IntArray = np.empty((n, layout.observation_size), dtype=np.int32)
        self.arrays: list[IntArray] = [self.rows[me] for me in range(n)]
        self.views = [array.data for array in self.arrays]
        self.table: tuple[CardId, ...] = ()
        self.acted = 0  # a bit per seat: who has acted in this phase
        self.turn: tuple[int, PlayerId | None, int] = (4, None, 0)
        # per turn: the first player waited on, and each viewer's two encoded parts
        self.turns: dict[
            tuple[int, PlayerId | None, int],
            tuple[PlayerId | None, list[tuple[memoryview, memoryview] | None]],
        ] = {}
        self.current = self._NO_TURN  # the entry of ``turns`` for the turn now
        self.masks: dict[tuple[int, int | tuple[int, ...]], MaskArray] = {}
        self.vote_keys: dict[tuple[int, int], tuple[int, tuple[int, ...]]] = {}
        self.mask_keys: tuple[int, int, tuple[int, int | tuple[int, ...]]] = (-1, -1, (3, 0))

    def reset(self, state: GameState, events: list[Event]) -> PlayerId | None:
        """A new game: ``events`` are its opening events, which made ``state``; returns the
        first player it waits on, as :meth:`apply` does."""
        self.rows[:] = self.template
        self.table = ()
        self.acted = 0
        self.mask_keys = (-1, -1, (3, 0))
        return self.apply(state, events)

    _NO_TURN: tuple[PlayerId | None, list[tuple[memoryview, memoryview] | None]] = (None, [])

    def apply(self, state: GameState, events: list[Event]) -> PlayerId | None:
        """Bring every agent's row up to date with ``events``, which made ``state``; returns
        the first player the game now waits on (``waiting_for(state)[0]``), or None."""
        views, index, row = self.views, self.index, self.row
        counts = False
        event: Any  # narrowed by ``kind is …``, which mypy does not follow
        for event in events:
            kind = type(event)  # the engine's own classes: `is` is cheaper than isinstance
            if self.teams and kind in _TEAM_EVENTS:
                counts |= self._team_event(event)
                continue
            if kind is CardsSubmitted:
                view = views[row[event.player]]
                hand0, mine0 = self.hand0, self.mine0
                for card in event.cards:
                    i = index[card]
                    view[hand0 + i] = 0
                    view[mine0 + i] = 1
                self.acted |= self.bit[event.player]
            elif kind is VoteCast:
                view = views[row[event.player]]
                view[self.vote_at] = self.table.index(event.card)
                if event.second is not None:
                    view[self.second_at] = self.table.index(event.second)
                self.acted |= self.bit[event.player]
            elif kind is CardVoided:
                views[row[event.storyteller]][self.void_at] = self.table.index(event.card)
                self.acted |= self.voided_bit
            elif kind is HandsPassed:
                hands = self.rows[:, self.hand0 : self.mine0]
                hands[:] = np.roll(hands, 1, axis=0)  # seat i now holds seat i-1's hand
            elif kind is ClueGiven:
                i = index[event.card]
                view = views[row[event.storyteller]]
                view[self.hand0 + i] = 0
                view[self.mine0 + i] = 1
                self.acted = 0
            elif kind is TableLaid:
                self.table = event.cards
                self.rows[:, self.table0 : self.table0 + len(event.cards)] = [
                    index[c] for c in event.cards
                ]
                self.acted = 0
            elif kind is CardsDrawn:
                hand0 = self.hand0
                for player, cards in event.draws:
                    view = views[row[player]]
                    for card in cards:
                        view[hand0 + index[card]] = 1
                counts = True
            elif kind is RoundScored:
                self._reveal(event)
                counts = True
            elif kind is RoundStarted or kind is PileReshuffled:
                self.acted = 0
                counts = True
        if counts:
            scores = state.scores
            counts_now = np.array(
                [state.round, len(state.pile), len(state.discard)]
                + [scores[p] for p in self.players],
                dtype=np.int32,
            )
            c0 = self.counts0
            self.rows[:, c0 : c0 + 3 + len(self.players)] = counts_now[self.count_index]
        phase = state.phase  # its number, inline (an enum member hashes in Python code)
        if phase is _SUBMIT:
            number = 1
        elif phase is _VOTE:
            number = 2
        elif phase is _CLUE:
            number = 0
        else:
            number = 3 if phase is _OVER else 4
        self.turn = turn = (number, state.storyteller, self.acted)
        current = self.turns.get(turn)
        if current is None:
            current = self._this_turn(state)
        self.current = current
        return current[0]

    def _team_event(self, event: Any) -> bool:
        """Team play: a card leaves either partner's hand and is the team's on the table; a
        draw shows in the partner's row too; a vote is the team's. True for a draw."""
        views, index, row = self.views, self.index, self.row
        kind = type(event)
        if kind is CardsDrawn:
            for player, cards in event.draws:
                for member in self.team_of[player]:
                    view = views[row[member]]
                    at = self.hand0 if member == player else self.partner0
                    for card in cards:
                        view[at + index[card]] = 1
            return True
        if kind is VoteCast:
            for member in self.team_of[event.player]:
                views[row[member]][self.vote_at] = self.table.index(event.card)
            self.acted |= self.bit[event.player]
            return False
        player, cards = (
            (event.player, event.cards)
            if kind is CardsSubmitted
            else (event.storyteller, (event.card,))
        )
        for member in self.team_of[player]:
            view = views[row[member]]
            for card in cards:
                i = index[card]
                view[self.hand0 + i] = 0
                view[self.partner0 + i] = 0
                view[self.mine0 + i] = 1
        self.acted = self.acted | self.bit[player] if kind is CardsSubmitted else 0
        return False

    def _reveal(self, scored: RoundScored) -> None:
        """The round is over: its cards leave the table, and it becomes the newest history."""
        rows, index, row, t = self.rows, self.index, self.row, self.layout.table
        rows[:, self.table0 : self.history0] = -1
        for card, owner in scored.owners:
            for member in self.team_of[owner]:
                self.views[row[member]][self.mine0 + index[card]] = 0
        self.table = ()
        size, h0 = self.layout.round_size, self.history0
        rows[:, h0 + size :] = rows[:, h0 : h0 + (HISTORY - 1) * size]  # (NumPy copes with overlap)
        votes: dict[CardId, int] = {}
        for _, card in scored.votes:
            votes[card] = votes.get(card, 0) + 1
        owners = dict(scored.owners)
        laid = len(scored.table)
        pad = t - laid
        rows[:, h0 : h0 + size] = (
            [0, index[scored.storyteller_card]]
            + [index[c] for c in scored.table]
            + [-1] * pad
            + [0] * laid
            + [-1] * pad
            + [votes.get(c, 0) for c in scored.table]
            + [0] * pad
        )
        rows[:, h0] = self.relative[:, row[scored.storyteller]]
        at = h0 + 2 + t
        rows[:, at : at + laid] = self.relative[:, [row[owners[c]] for c in scored.table]]

    def _this_turn(
        self, state: GameState
    ) -> tuple[PlayerId | None, list[tuple[memoryview, memoryview] | None]]:
        turn = self.turns.get(self.turn)
        if turn is None:
            waiting = waiting_for(state)
            turn = self.turns[self.turn] = (
                waiting[0] if waiting else None,
                [None] * len(self.players),
            )
        return turn

    def first_waited_on(self, state: GameState) -> PlayerId | None:
        """``waiting_for(state)[0]``, or None when the game waits on nobody (``state`` is the
        one the events last applied made)."""
        return self.current[0]

    def observation(self, state: GameState, agent: PlayerId) -> IntArray:
        """What ``Encoder.encode(player_view(state, agent))`` gives, as a fresh array."""
        me = self.row[agent]
        self._write_turn(state, me)
        return self.arrays[me].copy()

    def _write_turn(self, state: GameState, me: int) -> None:
        """Write this turn's parts into ``me``'s row (made once per viewer and turn)."""
        parts = self.current[1]
        mine = parts[me]
        if mine is None:
            mine = parts[me] = self._turn_parts(state, me)
        view = self.views[me]
        view[: self.counts0] = mine[0]
        view[self.acted0 : self.head] = mine[1]

    def _turn_parts(self, state: GameState, me: int) -> tuple[memoryview, memoryview]:
        """Phase and storyteller seat; has-acted and waited-on flags, seen from ``me``."""
        ordered, seats = self.ordered[me], self.seats[me]
        phase, storyteller = state.phase, state.storyteller
        if phase is _SUBMIT:
            acted: Collection[PlayerId] = state.submissions
        elif phase is _VOTE:
            acted = state.votes
        else:
            acted = _NONE
        waiting = waiting_for(state)
        seat = -1 if storyteller is None else seats[storyteller]
        first = [int(phase is p) for p in PHASES] + [seat]
        flags = [int(p in acted) for p in ordered] + [int(p in waiting) for p in ordered]
        return (
            np.array(first, dtype=np.int32).data,
            np.array(flags, dtype=np.int32).data,
        )

    def _mask_key(self, state: GameState, agent: PlayerId) -> tuple[int, int | tuple[int, ...]]:
        """What ``agent`` may do now (the same for the mask and the decoding of a step)."""
        version, me, key = self.mask_keys
        if version == state.version and me == self.row[agent]:
            return key
        key = self._new_mask_key(state, agent)
        self.mask_keys = (state.version, self.row[agent], key)
        return key

    def _new_mask_key(self, state: GameState, agent: PlayerId) -> tuple[int, int | tuple[int, ...]]:
        phase, storyteller = state.phase, state.storyteller
        if self.teams:
            return self._team_key(state, agent)
        if phase is _VOTE and (self.pairs or self.layout.voids):
            return self._votes_key(state, agent)
        if phase is _CLUE:
            if storyteller is None or storyteller == agent:
                return 0, len(state.hands[agent])
        elif phase is _SUBMIT:
            if agent != storyteller and agent not in state.submissions:
                return 1, len(state.hands[agent])
        elif phase is _VOTE and agent != storyteller and agent not in state.votes:
            own, table = state.submissions[agent], state.table
            if len(own) == 1:  # every slot but the one of the voter's card, cached
                at = (len(table), table.index(own[0]))
                key = self.vote_keys.get(at)
                if key is None:
                    key = self.vote_keys[at] = (2, tuple([t for t in range(at[0]) if t != at[1]]))
                return key
            return 2, tuple([t for t, card in enumerate(table) if card not in own])
        return 3, 0

    def _team_key(self, state: GameState, agent: PlayerId) -> tuple[int, int | tuple[int, ...]]:
        """Team play: the kinds of :meth:`_new_mask_key`, from the engine's legal actions."""
        legal = legal_actions(state, agent)
        if legal.give_clue:
            return 0, len(legal.give_clue)
        if legal.submit:
            return 1, len(legal.submit)
        if legal.vote:
            return 2, tuple([t for t, card in enumerate(state.table) if card in legal.vote])
        return 3, 0

    def _votes_key(self, state: GameState, agent: PlayerId) -> tuple[int, tuple[int, ...]]:
        """Kind 4, where a player may cast two votes or void a card: (two votes, may void,
        the table slots they may vote for...)."""
        table = state.table
        if state.rules.everyone_votes:
            void = int(agent == state.storyteller and state.void is None)
            slots = () if agent in state.votes else tuple(range(len(table)))
            return (4, (0, void, *slots)) if void or slots else (3, ())
        if agent == state.storyteller or agent in state.votes:
            return 3, ()
        own = state.submissions[agent]
        return 4, (1, 0, *[t for t, card in enumerate(table) if card not in own])

    def mask(self, state: GameState, agent: PlayerId) -> MaskArray:
        """What ``action_mask(player_view(state, agent), layout)`` gives, as a fresh array."""
        key = self._mask_key(state, agent)
        mask = self.masks.get(key)
        if mask is None:
            mask = self._new_mask(key)
        return mask.copy()

    def _new_mask(self, key: tuple[int, int | tuple[int, ...]]) -> MaskArray:
        mask = self.masks[key] = np.zeros(self.actions, dtype=np.int8)
        kind, what = key
        if kind == 0:
            assert isinstance(what, int)
            mask[:what] = 1
        elif kind == 1:
            assert isinstance(what, int)
            for j, slots in enumerate(self.combos):
                if slots[-1] < what:
                    mask[self.hand_size + j] = 1
        elif kind == 2:
            assert isinstance(what, tuple)
            for t in what:
                mask[self.vote0 + t] = 1
        elif kind == 4:
            assert isinstance(what, tuple)
            two, void, slots = what[0], what[1], what[2:]
            for t in slots:
                mask[self.vote0 + t] = 1
            if two:
                for j, (a, b) in enumerate(self.pairs):
                    if a in slots and b in slots:
                        mask[self.pair0 + j] = 1
            if void:
                mask[self.void0 : self.void0 + self.layout.table] = 1
        return mask

    def observe(self, state: GameState, agent: PlayerId) -> dict[str, IntArray | MaskArray]:
        """``{"observation": observation(state, agent), "action_mask": mask(state, agent)}``,
        in one call (the environment's ``observe`` and ``last`` run once a step)."""
        me = self.row[agent]
        self._write_turn(state, me)
        version, who, key = self.mask_keys
        if version != state.version or who != me:
            key = self._new_mask_key(state, agent)
            self.mask_keys = (state.version, me, key)
        mask = self.masks.get(key)
        if mask is None:
            mask = self._new_mask(key)
        return {"observation": self.arrays[me].copy(), "action_mask": mask.copy()}

    def may_clue(self, state: GameState, agent: PlayerId) -> bool:
        """Whether ``agent`` may tell a clue now (with some card in hand)."""
        kind, what = self._mask_key(state, agent)
        return kind == 0 and what != 0

    def decode(self, state: GameState, agent: PlayerId, action: int, clue: str | None) -> Command:
        """What ``decode_action(action, clue, player_view(state, agent), layout)`` gives."""
        if isinstance(action, bool) or not 0 <= action < self.actions:
            raise GameError(Code.MALFORMED, f"action {action!r} is outside 0..{self.actions - 1}")
        version, me, key = self.mask_keys  # (``_mask_key``, inline: observe() made it)
        if version != state.version or me != self.row[agent]:
            key = self._mask_key(state, agent)
        kind, what = key
        hand = state.team_cards(agent)
        if action < self.hand_size:
            if kind != 0 or action >= len(hand):
                raise GameError(Code.WRONG_PHASE, "no clue can be told with this card now")
            if clue is None:
                raise GameError(Code.CLUE_EMPTY, "a clue action needs its text")
            return GiveClue(agent, hand[action], clue)
        if action < self.vote0:
            slots = self.combos[action - self.hand_size]
            if kind != 1 or slots[-1] >= len(hand):
                raise GameError(Code.WRONG_PHASE, "these cards cannot be submitted now")
            if len(slots) == 1:
                return SubmitCards(agent, (hand[slots[0]],))
            return SubmitCards(agent, tuple([hand[s] for s in slots]))
        if kind == 4:
            return self._decode_votes(state, agent, action, what)  # type: ignore[arg-type]
        if action >= self.pair0:
            if action >= self.void0:
                raise GameError(Code.CANNOT_VOID, "this table slot cannot be voided now")
            raise GameError(Code.CARD_NOT_ON_TABLE, "no votes for these table slots now")
        slot = action - self.vote0
        if kind != 2 or slot not in what:  # type: ignore[operator]
            raise GameError(Code.CARD_NOT_ON_TABLE, "no vote for this table slot now")
        return CastVote(agent, state.table[slot])

    def _decode_votes(
        self, state: GameState, agent: PlayerId, action: int, what: tuple[int, ...]
    ) -> Command:
        """A vote, two votes or a void (:meth:`_votes_key`'s kind 4)."""
        two, void, slots = what[0], what[1], what[2:]
        table = state.table
        if action >= self.void0:
            slot = action - self.void0
            if not void or slot >= len(table):
                raise GameError(Code.CANNOT_VOID, "this table slot cannot be voided now")
            return VoidCard(agent, table[slot])
        if action >= self.pair0:
            a, b = self.pairs[action - self.pair0]
            if not two or a not in slots or b not in slots:
                raise GameError(Code.CARD_NOT_ON_TABLE, "no votes for these table slots now")
            return CastVote(agent, table[a], table[b])
        slot = action - self.vote0
        if slot not in slots:
            raise GameError(Code.CARD_NOT_ON_TABLE, "no vote for this table slot now")
        return CastVote(agent, table[slot])
