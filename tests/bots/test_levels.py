"""Every level plays only legal moves from its own view, in every language, with or without
card text; make_bot's contract; seeded play is reproducible."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dixit.bots import LANGS, LEVELS, CardBook, make_bot
from dixit.bots.arena import bot_rng
from dixit.engine import (
    CastVote,
    GameError,
    Phase,
    PlayerView,
    StartGame,
    VoidCard,
    execute,
    player_view,
    rules_for,
    waiting_for,
)


def play(
    cards: list[dict[str, Any]], levels: list[str], lang: str, edition: str, seed: int,
    rounds: int = 3,
) -> list[object]:  # fmt: skip
    """A game cut at ``rounds`` rounds; every command goes through the engine (which raises on an
    illegal one) and every bot gets only its own player view."""
    book = CardBook.from_cards(cards)
    players = tuple(f"p{i}" for i in range(len(levels)))
    bots = {p: make_bot(lv, rng=bot_rng(seed, i), lang=lang, book=book)
            for i, (p, lv) in enumerate(zip(players, levels, strict=True))}  # fmt: skip
    rng = random.Random(seed)
    rules = rules_for(*edition.split("/"), max_rounds=rounds)
    state, _ = execute(None, StartGame(players, tuple(c["id"] for c in cards), rules), rng)
    moves: list[object] = []
    while state.phase is not Phase.OVER:
        player = waiting_for(state)[0]  # the first of those the game waits for, then ask again
        command = bots[player].act(player_view(state, player))
        assert command is not None, f"{player} had nothing to do in {state.phase}"
        assert getattr(command, "player", None) == player
        state, _ = execute(state, command, rng)
        moves.append(command)
    assert len(state.rounds) == rounds
    return moves


def text_less(cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An imported deck without captions: ids only."""
    return [{"id": f"imported-{c['id'][-12:]}"} for c in cards]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    edition=st.sampled_from(["classic", "2021", "odyssey", "odyssey/party", "odyssey/teams"]),
    lang=st.sampled_from(LANGS),
    deck=st.sampled_from(["text", "none", "mixed"]),
    seed=st.integers(0, 10_000),
)
def test_every_level_plays_legally_from_its_view(
    generated_cards: list[dict[str, Any]], data: st.DataObject, edition: str, lang: str,
    deck: str, seed: int,
) -> None:  # fmt: skip
    rules = rules_for(*edition.split("/"))
    count = data.draw(st.integers(rules.min_players, rules.max_players))
    count -= count % rules.team_size
    levels = data.draw(st.lists(st.sampled_from(LEVELS), min_size=count, max_size=count))
    cards = list(generated_cards)
    if deck == "none":
        cards = text_less(cards)
    elif deck == "mixed":
        cards = cards[:40] + text_less(cards[40:])
    play(cards, levels, lang, edition, seed)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("lang", ["it", "pl"])
def test_same_seed_same_moves(generated_cards: list[dict[str, Any]], level: str, lang: str) -> None:
    levels = [level, "strong", "medium", "easy", "random"]
    first = play(generated_cards, levels, lang, "classic", 5)
    assert first == play(generated_cards, levels, lang, "classic", 5)
    assert first != play(generated_cards, levels, lang, "classic", 6)


def test_make_bot_rejects_unknown_levels_and_languages() -> None:
    book = CardBook.from_cards([])
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster", rng=random.Random(1), lang="en", book=book)
    with pytest.raises(ValueError, match="unknown language"):
        make_bot("strong", rng=random.Random(1), lang="de", book=book)
    assert LEVELS == ("random", "easy", "medium", "strong")


def test_a_bot_with_nothing_to_do_passes(generated_cards: list[dict[str, Any]]) -> None:
    book = CardBook.from_cards(generated_cards)
    ids = tuple(c["id"] for c in generated_cards)
    state, _ = execute(None, StartGame(("a", "b", "c"), ids, first_storyteller="a"),
                       random.Random(1))  # fmt: skip
    for level in LEVELS:
        bot = make_bot(level, rng=random.Random(1), lang="fr", book=book)
        assert bot.act(player_view(state, "b")) is None
        assert bot.act(player_view(state, None)) is None
        assert bot.act(player_view(state, "a")) is not None


def test_moves_follow_the_view_alone(generated_cards: list[dict[str, Any]]) -> None:
    """Two games that differ only in what a bot cannot see (the others' hands) get the same
    move from it: it reads nothing but its view."""
    book = CardBook.from_cards(generated_cards)
    ids = tuple(c["id"] for c in generated_cards)
    state, _ = execute(None, StartGame(("a", "b", "c", "d"), ids, first_storyteller="a"),
                       random.Random(3))  # fmt: skip
    other = state.hands["b"]
    swapped = {**state.hands, "b": state.hands["c"], "c": other}
    twin = type(state)(**{**{f: getattr(state, f) for f in state.__dataclass_fields__},
                          "hands": swapped})  # fmt: skip
    view, twin_view = player_view(state, "a"), player_view(twin, "a")
    assert isinstance(view, PlayerView) and view == twin_view
    for level in LEVELS:
        one = make_bot(level, rng=random.Random(9), lang="es", book=book).act(view)
        two = make_bot(level, rng=random.Random(9), lang="es", book=book).act(twin_view)
        assert one == two


def test_illegal_moves_would_be_caught() -> None:
    """The games above prove legality only because the engine rejects illegal commands."""
    ids = tuple(f"c{i:02}" for i in range(84))
    state, _ = execute(None, StartGame(("a", "b", "c"), ids, first_storyteller="a"),
                       random.Random(1))  # fmt: skip
    from dixit.engine import GiveClue

    with pytest.raises(GameError):
        execute(state, GiveClue("a", state.hands["b"][0], "x"), random.Random(1))


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_second_votes_only_when_they_pay(generated_cards: list[dict[str, Any]], level: str) -> None:
    """At nine players the listeners add a second vote on some rounds and not on others: only
    where the runner-up card is likely enough to beat the one-vote bonus."""
    moves = play(generated_cards, [level] * 9, "en", "odyssey", 4, rounds=4)
    votes = [m for m in moves if isinstance(m, CastVote)]
    assert len(votes) == 4 * 8
    seconds = sum(v.second is not None for v in votes)
    assert 0 < seconds < len(votes)
    assert all(v.second != v.card for v in votes)


@pytest.mark.parametrize("level", ["easy", "medium", "strong"])
def test_party_storyteller_voids_the_crowded_card_and_votes_elsewhere(
    generated_cards: list[dict[str, Any]], level: str
) -> None:
    book = CardBook.from_cards(generated_cards)
    ids = tuple(c["id"] for c in generated_cards)
    players = tuple(f"p{i}" for i in range(6))
    rng = random.Random(2)
    rules = rules_for("odyssey", "party")
    state, _ = execute(None, StartGame(players, ids, rules, first_storyteller="p0"), rng)
    bots = {p: make_bot(level, rng=random.Random(i), lang="en", book=book)
            for i, p in enumerate(players)}  # fmt: skip
    while state.phase is not Phase.VOTE:
        player = waiting_for(state)[0]
        state, _ = execute(state, bots[player].act(player_view(state, player)), rng)
    void = bots["p0"].act(player_view(state, "p0"))
    assert isinstance(void, VoidCard)
    reading = bots["p0"].skill.reading  # type: ignore[attr-defined]
    fits = book.fit(state.clue or "", list(state.table), reading)
    assert fits[state.table.index(void.card)] == max(fits)
    state, _ = execute(state, void, rng)
    vote = bots["p0"].act(player_view(state, "p0"))
    assert isinstance(vote, CastVote) and vote.card != void.card


def test_a_team_plays_the_best_card_of_either_partner(
    generated_cards: list[dict[str, Any]],
) -> None:
    """In team play a bot tells and hands in from its team's cards: its partner's too."""
    book = CardBook.from_cards(generated_cards)
    ids = tuple(c["id"] for c in generated_cards)
    players = tuple(f"p{i}" for i in range(8))
    rng = random.Random(5)
    rules = rules_for("odyssey", "teams", max_rounds=6)
    state, _ = execute(None, StartGame(players, ids, rules, first_storyteller="p0"), rng)
    bots = {p: make_bot("medium", rng=random.Random(i), lang="en", book=book)
            for i, p in enumerate(players)}  # fmt: skip
    from_partner = 0
    while state.phase is not Phase.OVER:
        player = waiting_for(state)[0]
        command = bots[player].act(player_view(state, player))
        cards = getattr(command, "cards", None) or (getattr(command, "card", None),)
        if not isinstance(command, CastVote):
            from_partner += not set(cards) <= set(state.hands[player])
        state, _ = execute(state, command, rng)
    assert len(state.rounds) == 6 and from_partner > 0
