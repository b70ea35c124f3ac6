"""The awkward cases: outcomes, rejections, 3-player rounds, how each edition ends."""

from __future__ import annotations

import random

import pytest

from dixit.engine import (
    CastVote,
    GameError,
    GiveClue,
    Phase,
    StartGame,
    SubmitCards,
    execute,
    legal_actions,
    rules_for,
)

FOUR = ("ann", "bob", "cat", "dan")


def test_everybody_found(driver):
    game = driver(FOUR, first="ann")
    points = game.round("ann", {"bob": "ann", "cat": "ann", "dan": "ann"})
    assert points == {"bob": 2, "cat": 2, "dan": 2}
    assert game.state.rounds[-1].outcome == "everybody"
    assert game.state.scores == {"ann": 0, "bob": 2, "cat": 2, "dan": 2}


def test_nobody_found_scores_two_plus_one_per_vote(driver):
    game = driver(FOUR, first="ann")
    points = game.round("ann", {"bob": "cat", "cat": "bob", "dan": "bob"})
    assert points == {"bob": 4, "cat": 3, "dan": 2}
    assert game.state.rounds[-1].outcome == "nobody"
    assert game.state.scores["ann"] == 0


def test_vote_for_own_card_is_rejected_and_changes_nothing(driver):
    game = driver(FOUR, first="ann")
    game.clue("ann")
    game.submit_all()
    before = game.state
    with pytest.raises(GameError) as error:
        game.do(CastVote("bob", game.card_of("bob")))
    assert error.value.code == "action/cannot_vote_own_card"
    assert game.state is before
    assert game.card_of("bob") not in legal_actions(game.state, "bob").vote


@pytest.mark.parametrize(
    ("command", "code"),
    [
        (lambda g: GiveClue("bob", g.state.hands["bob"][0], "x"), "action/not_your_turn"),
        (lambda g: GiveClue("ann", "card-999", "x"), "action/card_not_in_hand"),
        (lambda g: GiveClue("ann", g.state.hands["ann"][0], "   "), "action/clue_empty"),
        (lambda g: GiveClue("ann", g.state.hands["ann"][0], "x" * 201), "action/clue_too_long"),
        (lambda g: SubmitCards("bob", g.state.hands["bob"][:1]), "action/wrong_phase"),
        (lambda g: CastVote("bob", "card-000"), "action/wrong_phase"),
        (lambda g: GiveClue("zed", "card-000", "x"), "action/not_a_player"),
    ],
)
def test_clue_phase_rejections(driver, command, code):
    game = driver(FOUR, first="ann")
    before = game.state
    with pytest.raises(GameError) as error:
        game.do(command(game))
    assert error.value.code == code
    assert game.state == before


def test_submission_rejections(driver):
    game = driver(FOUR, first="ann")
    game.clue("ann")
    game.submit("bob")
    cases = [
        (SubmitCards("bob", game.state.hands["bob"][:1]), "action/already_submitted"),
        (SubmitCards("ann", game.state.hands["ann"][:1]), "action/storyteller_cannot_submit"),
        (SubmitCards("cat", game.state.hands["cat"][:2]), "action/wrong_card_count"),
        (SubmitCards("cat", game.state.hands["dan"][:1]), "action/card_not_in_hand"),
        (CastVote("cat", game.card_of("ann")), "action/wrong_phase"),
    ]
    for command, code in cases:
        before = game.state
        with pytest.raises(GameError) as error:
            game.do(command)
        assert error.value.code == code, command
        assert game.state is before


def test_second_vote_and_storyteller_vote_rejected(driver):
    game = driver(FOUR, first="ann")
    game.clue("ann")
    game.submit_all()
    game.vote_for("bob", "cat")
    for command, code in [
        (CastVote("bob", game.card_of("ann")), "action/already_voted"),
        (CastVote("ann", game.card_of("bob")), "action/storyteller_cannot_vote"),
        (CastVote("cat", "card-999"), "action/card_not_on_table"),
    ]:
        with pytest.raises(GameError) as error:
            game.do(command)
        assert error.value.code == code
    assert game.state.votes == {"bob": game.card_of("cat")}


def test_opening_round_storyteller_is_who_claims_it(driver):
    game = driver(FOUR)
    assert game.state.storyteller is None
    assert all(legal_actions(game.state, p).give_clue for p in FOUR)
    with pytest.raises(GameError) as error:
        game.do(SubmitCards("bob", game.state.hands["bob"][:1]))
    assert error.value.code == "action/wrong_phase"
    game.clue("cat")
    assert game.state.storyteller == "cat"
    assert game.state.phase is Phase.SUBMIT
    game.submit_all()
    for voter in game.state.voters:
        game.vote_for(voter, "cat")
    assert game.state.storyteller == "dan"


THREE = ("ann", "bob", "cat")


def test_three_players_submit_two_cards_each_five_on_the_table(driver):
    game = driver(THREE, first="ann")
    assert all(len(hand) == 7 for hand in game.state.hands.values())
    game.clue("ann")
    with pytest.raises(GameError) as error:
        game.submit("bob", count=1)
    assert error.value.code == "action/wrong_card_count"
    game.submit_all()
    assert len(game.state.table) == 5
    legal = legal_actions(game.state, "bob")
    assert len(legal.vote) == 3
    assert not set(game.state.submissions["bob"]) & set(legal.vote)
    with pytest.raises(GameError) as error:
        game.do(CastVote("bob", game.card_of("bob", 1)))
    assert error.value.code == "action/cannot_vote_own_card"


def test_three_player_classic_lone_finder_scores_four_and_votes_on_either_card(driver):
    game = driver(THREE, first="ann")
    game.clue("ann")
    game.submit_all()
    game.vote_for("bob", "ann")
    game.vote_for("cat", "bob", index=1)
    points = game.state.rounds[-1].points()
    assert points == {"ann": 4, "bob": 5}
    assert all(len(hand) == 7 for hand in game.state.hands.values())


def test_lone_finder_bonus_is_an_option_for_any_player_count(driver):
    off = driver(THREE, edition="2021", first="ann")
    assert off.round("ann", {"bob": "ann", "cat": "bob"}) == {"ann": 3, "bob": 4}
    on = driver(FOUR, first="ann", lone_finder_bonus=True)
    assert on.round("ann", {"bob": "ann", "cat": "bob", "dan": "bob"}) == {"ann": 4, "bob": 6}
    two_finders = driver(FOUR, first="ann", lone_finder_bonus=True)
    points = two_finders.round("ann", {"bob": "ann", "cat": "ann", "dan": "bob"})
    assert points == {"ann": 3, "bob": 4, "cat": 3}


@pytest.mark.parametrize(("players", "rounds"), [(4, 15), (5, 11), (6, 8), (3, 13)])
@pytest.mark.parametrize("seed", [1, 2])
def test_classic_ends_when_the_last_card_is_drawn(players, rounds, seed):
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    deck = tuple(f"c{i}" for i in range(84))
    state, _ = execute(None, StartGame(names, deck, rules_for("classic")), rng)
    while state.phase is not Phase.OVER:
        for player in names:
            legal = legal_actions(state, player)
            if legal.give_clue:
                state, _ = execute(state, GiveClue(player, rng.choice(legal.give_clue), "x"), rng)
            elif legal.submit:
                cards = tuple(rng.sample(legal.submit, legal.submit_count))
                state, _ = execute(state, SubmitCards(player, cards), rng)
            elif legal.vote:
                state, _ = execute(state, CastVote(player, rng.choice(legal.vote)), rng)
    assert len(state.rounds) == rounds
    assert state.end_reason == "deck_exhausted"
    assert state.pile == ()
    best = max(state.scores.values())
    assert state.winners == tuple(p for p in names if state.scores[p] == best)


def test_2021_ends_at_thirty_and_tied_players_share_the_victory(driver):
    players = ("ann", "bob", "cat", "dan")
    game = driver(players, edition="2021", first="ann")
    while game.state.phase is not Phase.OVER:
        others = game.state.voters
        # Each voter picks the next voter's card: nobody finds, everyone but the teller scores 3.
        game.round(None, {p: others[(i + 1) % len(others)] for i, p in enumerate(others)})
    state = game.state
    assert state.end_reason == "score_reached"
    # 13 rounds: bob, cat and dan told 3 times and scored 10 x 3; ann told 4 times (27).
    assert len(state.rounds) == 13
    assert state.scores == {"ann": 27, "bob": 30, "cat": 30, "dan": 30}
    assert state.winners == ("bob", "cat", "dan")


def test_2021_reshuffles_the_discard_pile_when_the_draw_pile_runs_short(driver):
    names = ("ann", "bob", "cat", "dan", "eve")
    game = driver(names, edition="2021", first="ann", seed=3)
    # Everybody finds the storyteller's card every round: only 2 points a round, no early end.
    while not any(type(e).__name__ == "PileReshuffled" for e in game.events):
        pile_before = len(game.state.pile)
        game.round(None, {p: game.state.storyteller for p in game.state.voters})
    assert pile_before < 5  # the pile could not give every player a card
    state = game.state
    assert state.phase is Phase.CLUE
    assert all(len(hand) == 6 for hand in state.hands.values())
    assert sorted(state.all_cards()) == sorted(f"card-{i:03}" for i in range(84))
    assert state.discard == ()
    assert len(state.pile) == 84 - 30


@pytest.mark.parametrize("players", [7, 8])
def test_2021_plays_seven_and_eight(driver, players):
    names = tuple(f"p{i}" for i in range(players))
    game = driver(names, edition="2021", first="p0")
    votes = {v: "p0" for v in names[1:4]} | {v: "p1" for v in names[4:]}
    points = game.round("p0", votes)
    assert len(game.state.rounds[-1].table) == players
    assert points["p0"] == 3 and points["p1"] == 3 + players - 4
    assert game.state.storyteller == "p1"


def test_classic_refuses_seven_players(deck):
    with pytest.raises(GameError) as error:
        execute(None, StartGame(tuple("abcdefg"), deck(84), rules_for("classic")), random.Random())
    assert error.value.code == "setup/player_count"


def test_rules_lookup_and_option_checks():
    assert rules_for("2021").end_at_score == 30
    assert rules_for("classic", end_at_score=20).options() == {"end_at_score": 20}
    for bad, code in [
        ({"edition": "nope"}, "setup/unknown_edition"),
        ({"edition": "classic", "colour": 1}, "setup/unknown_option"),
        ({"edition": "classic", "hand_size": "6"}, "setup/bad_option"),
        ({"edition": "2021", "end_at_score": None}, "setup/bad_option"),
    ]:
        with pytest.raises(GameError) as error:
            rules_for(**bad)
        assert error.value.code == code


def test_deck_too_small_and_duplicates_rejected(deck):
    rng = random.Random()
    for players, cards, code in [
        (("a", "b", "c", "d"), deck(27), "setup/deck_too_small"),
        (("a", "b", "c", "a"), deck(84), "setup/duplicate_player"),
        (("a", "b", "c", "d"), (*deck(83), "card-000"), "setup/duplicate_card"),
    ]:
        with pytest.raises(GameError) as error:
            execute(None, StartGame(players, cards), rng)
        assert error.value.code == code


def test_game_over_rejects_everything(driver):
    game = driver(FOUR, first="ann", max_rounds=1)
    game.round("ann", {"bob": "ann", "cat": "dan", "dan": "cat"})
    assert game.state.phase is Phase.OVER
    assert game.state.end_reason == "round_limit"
    with pytest.raises(GameError) as error:
        game.clue("bob")
    assert error.value.code == "game/over"


def test_the_game_can_be_ended_early_and_the_leaders_win(driver):
    from dixit.engine import EndGame

    game = driver(FOUR, first="ann")
    game.round("ann", {"bob": "ann", "cat": "dan", "dan": "cat"})
    game.clue("bob")
    game.submit("cat")
    for reason in ("", "deck_exhausted", "x" * 65):
        with pytest.raises(GameError) as error:
            game.do(EndGame(reason))
        assert error.value.code == "command/malformed"
    game.do(EndGame())
    assert game.state.phase is Phase.OVER
    assert game.state.end_reason == "ended_by_host"
    assert game.state.winners == ("ann", "bob")  # 3 each
    assert len(game.state.all_cards()) == 84
