"""Numbers for a learner: a player's view as a flat integer vector, moves as one discrete space.

The action space of a game is fixed by its edition and player count:

- ``[0, H)``: tell a clue about the card in hand slot ``i`` (H = hand size);
- ``[H, H + S)``: submit the hand slots of combination ``j`` (S = C(H, k), k cards each);
- ``[H + S, H + S + T)``: vote for table slot ``t`` (T = table size).

The observation is the engine's :class:`PlayerView` and nothing more, seats counted from the
viewer (0 = me), cards as deck indices: no hidden card of another player can appear in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from dixit.engine import (
    CardId,
    CastVote,
    Code,
    Command,
    GameError,
    GiveClue,
    Phase,
    PlayerView,
    Rules,
    SubmitCards,
)

PHASES = (Phase.CLUE, Phase.SUBMIT, Phase.VOTE, Phase.OVER)
HISTORY = 3  # revealed rounds shown, newest first
IntArray = npt.NDArray[np.int32]


@dataclass(frozen=True)
class Layout:
    """Sizes of the spaces for one edition and player count."""

    players: int
    deck: tuple[CardId, ...]
    hand: int
    cards_each: int
    table: int

    @classmethod
    def of(cls, rules: Rules, players: int, deck: tuple[CardId, ...]) -> Layout:
        return cls(
            players,
            deck,
            rules.hand_size_for(players),
            rules.cards_each_for(players),
            rules.table_size_for(players),
        )

    @property
    def combos(self) -> tuple[tuple[int, ...], ...]:
        return _combos(self.hand, self.cards_each)

    @property
    def actions(self) -> int:
        return self.hand + len(self.combos) + self.table

    @property
    def observation_size(self) -> int:
        n, d = self.players, len(self.deck)
        per_round = 1 + 1 + self.table * 3  # storyteller seat, storyteller card, table/owners/votes
        return len(PHASES) + 4 + n * 3 + d * 2 + self.table + 1 + HISTORY * per_round


_COMBOS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}


def _combos(hand: int, k: int) -> tuple[tuple[int, ...], ...]:
    key = (hand, k)
    if key not in _COMBOS:
        _COMBOS[key] = tuple(combinations(range(hand), k))
    return _COMBOS[key]


def encode_view(view: PlayerView, layout: Layout, index: dict[CardId, int]) -> IntArray:
    """The view as integers (see the module docstring for what is and is not in it)."""
    n = layout.players
    players = view.players
    me = players.index(view.viewer) if view.viewer is not None else 0

    def seat(player: str | None) -> int:
        return -1 if player is None else (players.index(player) - me) % n

    out: list[int] = [int(view.phase is p) for p in PHASES]
    out += [seat(view.storyteller), view.round, view.pile_count, view.discard_count]
    ordered = [players[(me + i) % n] for i in range(n)]
    acted = set(view.acted)
    waiting = set(view.waiting_for)
    out += [view.scores[p] for p in ordered]
    out += [int(p in acted) for p in ordered]
    out += [int(p in waiting) for p in ordered]
    d = len(layout.deck)
    hand = [0] * d
    for card in view.hand or ():
        hand[index[card]] = 1
    mine = [0] * d
    for card in view.my_cards:
        mine[index[card]] = 1
    out += hand + mine
    table = [index[c] for c in view.table]
    out += table + [-1] * (layout.table - len(table))
    out.append(view.table.index(view.my_vote) if view.my_vote in view.table else -1)
    for back in range(HISTORY):
        if back < len(view.rounds):
            scored = view.rounds[-1 - back]
            owners = dict(scored.owners)
            votes: dict[str, int] = {}
            for _, card in scored.votes:
                votes[card] = votes.get(card, 0) + 1
            cards = list(scored.table) + [None] * (layout.table - len(scored.table))
            out += [seat(scored.storyteller), index[scored.storyteller_card]]
            out += [index[c] if c is not None else -1 for c in cards]
            out += [seat(owners[c]) if c is not None else -1 for c in cards]
            out += [votes.get(c, 0) if c is not None else 0 for c in cards]
        else:
            out += [-1, -1] + [-1] * (layout.table * 2) + [0] * layout.table
    return np.asarray(out, dtype=np.int32)


def action_mask(view: PlayerView, layout: Layout) -> npt.NDArray[np.int8]:
    """1 where the action is legal for the viewer now."""
    mask = np.zeros(layout.actions, dtype=np.int8)
    legal, hand = view.legal, view.hand or ()
    if legal.give_clue:
        mask[: len(hand)] = 1
    elif legal.submit:
        for j, slots in enumerate(layout.combos):
            if slots[-1] < len(hand):
                mask[layout.hand + j] = 1
    elif legal.vote:
        base = layout.hand + len(layout.combos)
        for t, card in enumerate(view.table):
            if card in legal.vote:
                mask[base + t] = 1
    return mask


def decode_action(action: int, clue: str | None, view: PlayerView, layout: Layout) -> Command:
    """The engine command for an action index; a GameError if it is not legal now."""
    player, hand, legal = view.viewer, view.hand or (), view.legal
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
    slot = action - len(layout.combos)
    if not legal.vote or slot >= len(view.table) or view.table[slot] not in legal.vote:
        raise GameError(Code.CARD_NOT_ON_TABLE, "no vote for this table slot now")
    return CastVote(player, view.table[slot])
