"""Commands in, events out. ``decide`` validates everything first, so a rejection changes nothing.

Randomness (shuffling the deck, laying the table, reshuffling discards) comes from the ``rng`` the
caller passes in and is written into the events, so replaying never draws a random number.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .chance import shuffle
from .commands import (
    CardId,
    CastVote,
    Command,
    EndGame,
    GiveClue,
    PlayerId,
    StartGame,
    SubmitCards,
    VoidCard,
)
from .errors import Code, GameError
from .events import (
    CardsDrawn,
    CardsSubmitted,
    CardVoided,
    ClueGiven,
    Event,
    GameEnded,
    GameStarted,
    HandsPassed,
    PileReshuffled,
    RoundScored,
    RoundStarted,
    TableLaid,
    VoteCast,
)
from .results import RULES_ENDINGS, EndReason
from .rules import check_players, validate
from .scoring import score_party_round, score_round, score_team_round
from .state import CLUE, OVER, SUBMIT, VOTE, GameState, Phase, evolve_all


def decide(state: GameState | None, command: Command, rng: random.Random) -> list[Event]:
    """The events ``command`` causes, or a :class:`GameError` (and no change)."""
    if (
        isinstance(command, (GiveClue, SubmitCards, CastVote, VoidCard))
        and state is not None
        and state.phase is not OVER
        and command.player in state.hands
    ):
        return _MOVES[type(command)](state, command, rng)  # a move in a running game: hot path
    if isinstance(command, StartGame):
        if state is not None:
            raise GameError(Code.GAME_ALREADY_STARTED, "the game has already started")
        return _start(command, rng)
    if state is None:
        raise GameError(Code.GAME_NOT_STARTED, "the game has not started")
    if state.phase is OVER:
        raise GameError(Code.GAME_OVER, "the game is over")
    if isinstance(command, EndGame):
        reason = command.reason if isinstance(command.reason, str) else ""
        if not reason or len(reason) > 64 or reason in RULES_ENDINGS:
            raise GameError(
                Code.MALFORMED, "an end reason is 1 to 64 characters and not a rules ending"
            )
        return [_game_over(state.scores, reason)]
    if command.player not in state.hands:
        raise GameError(Code.NOT_A_PLAYER, f"{command.player!r} is not playing in this game")
    move = _MOVES.get(type(command))
    if move is None:
        raise GameError(Code.UNKNOWN_COMMAND, f"unknown command {type(command).__name__}")
    return move(state, command, rng)


def execute(
    state: GameState | None, command: Command, rng: random.Random
) -> tuple[GameState, list[Event]]:
    """Decide and fold: the new state and the events that made it."""
    events = decide(state, command, rng)
    return evolve_all(state, events), events


def _start(command: StartGame, rng: random.Random) -> list[Event]:
    rules, players, deck = command.rules, tuple(command.players), tuple(command.deck)
    validate(rules)
    check_players(rules, len(players))
    if len(set(players)) != len(players) or not all(isinstance(p, str) and p for p in players):
        raise GameError(Code.DUPLICATE_PLAYER, "players must be distinct non-empty names")
    if len(set(deck)) != len(deck):
        raise GameError(Code.DUPLICATE_CARD_IN_DECK, "the deck holds the same card twice")
    need = rules.min_deck_size_for(len(players))
    if len(deck) < need:
        raise GameError(
            Code.DECK_TOO_SMALL,
            f"{len(players)} players need at least {need} cards; the deck has {len(deck)}",
        )
    first = command.first_storyteller
    if first is not None and first not in players:
        raise GameError(Code.UNKNOWN_PLAYER, f"first storyteller {first!r} is not playing")
    pile = list(deck)
    shuffle(rng, pile)
    hand = rules.hand_size_for(len(players))
    # Players draw in seat order from the top of the shuffled pile.
    draws = tuple((p, tuple(pile[i * hand : (i + 1) * hand])) for i, p in enumerate(players))
    return [
        GameStarted(rules=rules, players=players, pile=tuple(pile)),
        CardsDrawn(draws=draws),
        RoundStarted(round=1, storyteller=first),
    ]


def _own(cards: tuple[CardId, ...], card: object) -> CardId | None:
    """The game's own id for ``card`` when ``cards`` holds it, else None. Events hold that
    string, not the command's equal copy: a server keeps a game's events while it lasts."""
    try:
        return cards[cards.index(card)]
    except ValueError:
        return None


def _check_phase(state: GameState, phase: Phase, doing: str) -> None:
    if state.phase is not phase:
        raise GameError(Code.WRONG_PHASE, f"cannot {doing} now: the game is in {state.phase}")


def _give_clue(state: GameState, command: GiveClue, rng: random.Random) -> list[Event]:
    if state.phase is not CLUE:
        _check_phase(state, CLUE, "give a clue")
    player, teller = command.player, state.storyteller
    if teller is not None and teller != player and player not in state.team_of(teller):
        raise GameError(Code.NOT_YOUR_TURN, f"{teller} is the storyteller")
    card = _own(state.team_cards(player), command.card)
    if card is None:
        raise GameError(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
    clue = command.clue.strip() if isinstance(command.clue, str) else ""
    if not clue:
        raise GameError(Code.CLUE_EMPTY, "the clue is empty")
    if len(clue) > state.rules.clue_max_length:
        raise GameError(
            Code.CLUE_TOO_LONG, f"a clue has at most {state.rules.clue_max_length} characters"
        )
    return [ClueGiven(player, card, clue)]


def _submit(state: GameState, command: SubmitCards, rng: random.Random) -> list[Event]:
    player = command.player
    if state.phase is not SUBMIT:
        if state.phase is CLUE and state.storyteller is None:
            raise GameError(Code.WRONG_PHASE, "no clue has been given yet")
        _check_phase(state, SUBMIT, "submit cards")
    teams = state.rules.team_size > 1
    if player == state.storyteller or (teams and state.storyteller in state.team_of(player)):
        raise GameError(Code.STORYTELLER_CANNOT_SUBMIT, "the storyteller does not submit")
    if player in state.submissions or (teams and _team_in(state, player, state.submissions)):
        raise GameError(Code.ALREADY_SUBMITTED, "you have already submitted this round")
    cards = command.cards
    count = state.rules.cards_each_for(len(state.players))
    if len(cards) != count:
        raise GameError(Code.WRONG_CARD_COUNT, f"submit exactly {count} card(s)")
    if count > 1 and len(set(cards)) != count:
        raise GameError(Code.DUPLICATE_CARD, "the same card twice")
    hand = state.team_cards(player)
    owned = []
    for card in cards:
        own = _own(hand, card)
        if own is None:
            raise GameError(Code.CARD_NOT_IN_HAND, "that card is not in your hand")
        owned.append(own)
    cards = tuple(owned)
    events: list[Event] = [CardsSubmitted(player, cards)]
    if len(state.submissions) + 2 == len(state.players) // state.rules.team_size:
        assert state.storyteller_card is not None
        # Canonical order before the shuffle, so the order players acted in cannot matter.
        submissions = {**state.submissions, player: cards}
        table = [state.storyteller_card]
        for p in state.players:
            table.extend(submissions.get(p, ()))
        shuffle(rng, table)
        events.append(TableLaid(tuple(table)))
    return events


def _vote(state: GameState, command: CastVote, rng: random.Random) -> list[Event]:
    player = command.player
    if state.phase is not VOTE:
        _check_phase(state, VOTE, "vote")
    everyone, size = state.rules.everyone_votes, state.rules.team_size
    teams = size > 1
    if (player == state.storyteller and not everyone) or (
        teams and state.storyteller in state.team_of(player)
    ):
        raise GameError(Code.STORYTELLER_CANNOT_VOTE, "the storyteller does not vote")
    if player in state.votes or (teams and _team_in(state, player, state.votes)):
        raise GameError(Code.ALREADY_VOTED, "you have already voted this round")
    card = _votable(state, player, command.card, everyone)
    second = command.second
    if second is not None:
        if state.rules.votes_each_for(len(state.players)) < 2:
            raise GameError(Code.ONE_VOTE_ONLY, "each player has one vote at this table")
        second = _votable(state, player, second, everyone)
        if second == card:
            raise GameError(Code.DUPLICATE_CARD, "the second vote goes on another card")
    events: list[Event] = [VoteCast(player, card, second)]
    voters = len(state.players) if everyone else len(state.players) // size - 1
    if len(state.votes) + 1 == voters and (not everyone or state.void is not None):
        votes = dict(state.votes)
        votes[player] = card
        second_votes = state.second_votes
        if second is not None:
            second_votes = {**second_votes, player: second}
        events.extend(_end_round(state, votes, second_votes, state.void, rng))
    return events


def _votable(state: GameState, player: PlayerId, card: object, own_allowed: bool) -> CardId:
    """The table's own id for a card ``player`` may vote for, or the rejection."""
    own = _own(state.table, card)
    if own is None:
        raise GameError(Code.CARD_NOT_ON_TABLE, "that card is not on the table")
    if not own_allowed and own in _team_played(state, player):
        raise GameError(Code.CANNOT_VOTE_OWN_CARD, "you cannot vote for your own card")
    return own


def _team_in(state: GameState, player: PlayerId, acted: dict[PlayerId, Any]) -> bool:
    """Whether ``player``'s team has already done what ``acted`` records."""
    return any(p in acted for p in state.team_of(player))


def _team_played(state: GameState, player: PlayerId) -> tuple[CardId, ...]:
    """The card(s) ``player``'s team put on the table (their own, outside team play)."""
    if state.rules.team_size == 1:
        return state.submissions[player]
    return tuple([c for p in state.team_of(player) for c in state.submissions.get(p, ())])


def _void(state: GameState, command: VoidCard, rng: random.Random) -> list[Event]:
    player = command.player
    if state.phase is not VOTE:
        _check_phase(state, VOTE, "void a card")
    if not state.rules.everyone_votes or player != state.storyteller:
        raise GameError(Code.CANNOT_VOID, "only the storyteller voids a card, in party play")
    if state.void is not None:
        raise GameError(Code.ALREADY_VOIDED, "you have already voided a card this round")
    card = _own(state.table, command.card)
    if card is None:
        raise GameError(Code.CARD_NOT_ON_TABLE, "that card is not on the table")
    events: list[Event] = [CardVoided(player, card)]
    if len(state.votes) == len(state.voters):
        events.extend(_end_round(state, state.votes, state.second_votes, card, rng))
    return events


def _end_round(
    state: GameState,
    votes: dict[PlayerId, CardId],
    second_votes: dict[PlayerId, CardId],
    void: CardId | None,
    rng: random.Random,
) -> list[Event]:
    """Reveal and score; then end the game or refill hands and start the next round."""
    players, rules, storyteller = state.players, state.rules, state.storyteller
    assert storyteller is not None and state.storyteller_card is not None
    owner_of = {state.storyteller_card: storyteller}
    for p, cards in state.submissions.items():
        for card in cards:
            owner_of[card] = p
    count = len(players)
    if rules.everyone_votes:
        assert void is not None
        outcome, awards = score_party_round(players, votes, void, rules.party_cap)
    elif rules.team_size > 1:
        outcome, awards = score_team_round(
            players, rules.team_size, storyteller, owner_of, votes, rules.votes_received_cap
        )
    else:
        outcome, awards = score_round(
            players,
            storyteller,
            owner_of,
            votes,
            rules.lone_finder_bonus_for(count),
            second_votes=second_votes,
            received_cap=rules.votes_received_cap,
            single_vote_bonus=rules.single_vote_bonus if rules.votes_each_for(count) > 1 else 0,
        )
    cast: list[tuple[PlayerId, CardId]] = []
    for p in players:
        if p in votes:
            cast.append((p, votes[p]))
            if p in second_votes:
                cast.append((p, second_votes[p]))
    scored = RoundScored(
        state.round,
        storyteller,
        state.clue or "",
        state.storyteller_card,
        state.table,
        tuple([(card, owner_of[card]) for card in state.table]),  # owners
        tuple(cast),  # votes
        outcome,
        awards,
        void,
    )
    events: list[Event] = [scored]
    scores = dict(state.scores)
    for award in awards:
        scores[award.player] += award.points
    if rules.end_at_score is not None and max(scores.values()) >= rules.end_at_score:
        return [*events, _game_over(scores, EndReason.SCORE_REACHED)]
    last = rules.max_rounds_for(count)
    if last is not None and state.round >= last:
        return [*events, _game_over(scores, EndReason.ROUND_LIMIT)]

    hands = state.hands
    if rules.pass_hands:
        events.append(HandsPassed())
        hands = {p: hands[players[i - 1]] for i, p in enumerate(players)}
    # Refill: every player draws back to a full hand, in seat order.
    hand_size = rules.hand_size_for(count)
    needs = [(p, hand_size - len(hands[p])) for p in players]
    pile = state.pile
    total = sum(n for _, n in needs)
    if len(pile) < total and rules.reshuffle_discards:
        new_pile = [*pile, *state.discard, *state.table]
        shuffle(rng, new_pile)
        pile = tuple(new_pile)
        events.append(PileReshuffled(pile=pile))
    draws = []
    taken = 0
    for p, n in needs:
        cards = pile[taken : taken + n]
        taken += len(cards)
        if cards:
            draws.append((p, cards))
    events.append(CardsDrawn(tuple(draws)))
    if taken == len(pile) and (not rules.reshuffle_discards or taken < total):
        return [*events, _game_over(scores, EndReason.DECK_EXHAUSTED)]
    next_storyteller = state.next_storyteller()
    events.append(RoundStarted(state.round + 1, next_storyteller))
    return events


def _game_over(scores: dict[PlayerId, int], reason: EndReason | str) -> GameEnded:
    """Players tied for the most points share the victory."""
    best = max(scores.values())
    return GameEnded(winners=tuple([p for p, s in scores.items() if s == best]), reason=reason)


_MOVES: dict[type[Any], Callable[[GameState, Any, random.Random], list[Event]]] = {
    GiveClue: _give_clue,
    SubmitCards: _submit,
    CastVote: _vote,
    VoidCard: _void,
}
