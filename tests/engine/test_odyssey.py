"""Dixit Odyssey: two votes from 7 players, the 3-point cap on votes received, the single-vote
bonus, and Dixit Party. One worked round per scoring clause (docs/rules.md settles the rest)."""

from __future__ import annotations

import json

import pytest

from dixit.engine import (
    CastVote,
    Code,
    EndReason,
    GameError,
    GiveClue,
    HandsPassed,
    Outcome,
    Phase,
    SubmitCards,
    VoidCard,
    legal_actions,
    player_view,
    rules_for,
    verify,
)

SEVEN = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
SIX = SEVEN[:6]


def full(points: dict[str, int], players: tuple[str, ...]) -> dict[str, int]:
    return {p: points.get(p, 0) for p in players}


def play_round(game, votes: dict[str, tuple[str, ...]]) -> dict[str, int]:
    """Clue, everyone submits, then each voter votes for the cards of the owners listed."""
    game.clue(game.state.storyteller)
    game.submit_all()
    for voter, owners in votes.items():
        cards = [game.card_of(owner) for owner in owners]
        game.do(CastVote(voter, cards[0], cards[1] if len(cards) > 1 else None))
    return full(game.state.rounds[-1].points(), game.state.players)


def test_the_edition_as_data():
    rules = rules_for("odyssey")
    assert (rules.min_players, rules.max_players) == (3, 12)
    assert [rules.votes_each_for(n) for n in range(3, 13)] == [1] * 4 + [2] * 6
    assert rules.hand_size_for(12) == 6 and rules.hand_size_for(3) == 7
    assert rules.reshuffle_discards and rules.end_at_score == 30
    assert rules.votes_received_cap == 3 and rules_for("classic").votes_received_cap is None
    assert rules_for("2021").votes_each_for(8) == 1


def test_some_found_two_votes_single_vote_bonus_and_cap(driver):
    # Ada tells. Bo finds it with one vote (3 + 1); Cy finds it with one of two votes (3 only);
    # Di, Ed, Flo and Gus all put a vote on Bo's card (4 votes, capped at 3); Ed's second vote
    # and Gus's go on Cy's card (2).
    game = driver(SEVEN, edition="odyssey", first="Ada")
    points = play_round(
        game,
        {
            "Bo": ("Ada",),
            "Cy": ("Bo", "Ada"),
            "Di": ("Bo",),
            "Ed": ("Bo", "Cy"),
            "Flo": ("Bo",),
            "Gus": ("Cy", "Bo"),
        },
    )
    assert points == {"Ada": 3, "Bo": 4 + 3, "Cy": 3 + 2, "Di": 0, "Ed": 0, "Flo": 0, "Gus": 0}
    scored = game.state.rounds[-1]
    assert scored.outcome is Outcome.SOME
    # Both votes are in the reveal, the first one first, in seat order.
    voters = [voter for voter, _ in scored.votes]
    assert voters == ["Bo", "Cy", "Cy", "Di", "Ed", "Ed", "Flo", "Gus", "Gus"]
    assert {a.reason for a in scored.awards if a.player == "Bo"} == {
        "found_storyteller",
        "single_vote_found",
        "votes_received",
    }


def test_everybody_found_means_a_vote_of_every_voter_on_it(driver):
    # Every voter has at least one vote on Ada's card: everybody found it. The single-vote
    # bonus still goes to those who cast one vote (Bo, Di, Flo).
    game = driver(SEVEN, edition="odyssey", first="Ada")
    points = play_round(
        game,
        {
            "Bo": ("Ada",),
            "Cy": ("Ada", "Bo"),
            "Di": ("Ada",),
            "Ed": ("Cy", "Ada"),
            "Flo": ("Ada",),
            "Gus": ("Ada", "Bo"),
        },
    )
    assert game.state.rounds[-1].outcome is Outcome.EVERYBODY
    assert points == {"Ada": 0, "Bo": 2 + 1 + 2, "Cy": 2 + 1, "Di": 3, "Ed": 2, "Flo": 3, "Gus": 2}


def test_one_voter_without_a_vote_on_it_is_not_everybody(driver):
    game = driver(SEVEN, edition="odyssey", first="Ada")
    points = play_round(
        game,
        {
            "Bo": ("Ada",),
            "Cy": ("Ada", "Bo"),
            "Di": ("Ada",),
            "Ed": ("Ada",),
            "Flo": ("Ada",),
            "Gus": ("Bo", "Cy"),
        },
    )
    assert game.state.rounds[-1].outcome is Outcome.SOME
    assert points["Ada"] == 3 and points["Gus"] == 0 and points["Bo"] == 3 + 1 + 2


def test_nobody_found(driver):
    game = driver(SEVEN, edition="odyssey", first="Ada")
    points = play_round(
        game,
        {
            "Bo": ("Cy",),
            "Cy": ("Bo", "Di"),
            "Di": ("Cy",),
            "Ed": ("Cy", "Di"),
            "Flo": ("Cy",),
            "Gus": ("Cy", "Bo"),
        },
    )
    assert game.state.rounds[-1].outcome is Outcome.NOBODY
    # Cy's card drew five votes: capped at 3.
    assert points == {"Ada": 0, "Bo": 4, "Cy": 5, "Di": 4, "Ed": 2, "Flo": 2, "Gus": 2}


def test_cap_at_six_players_is_the_editions_default_and_an_option(driver):
    # Bo finds Ada's card and the four others vote for Bo's: 4 votes, 3 with the cap.
    votes = {"Bo": ("Ada",), "Cy": ("Bo",), "Di": ("Bo",), "Ed": ("Bo",), "Flo": ("Bo",)}
    odyssey = play_round(driver(SIX, edition="odyssey", first="Ada"), votes)
    classic = play_round(driver(SIX, edition="classic", first="Ada"), votes)
    assert odyssey == {"Ada": 3, "Bo": 3 + 3, "Cy": 0, "Di": 0, "Ed": 0, "Flo": 0}
    assert classic == {"Ada": 3, "Bo": 3 + 4, "Cy": 0, "Di": 0, "Ed": 0, "Flo": 0}
    capped = driver(SIX, edition="classic", first="Ada", votes_received_cap=3)
    assert play_round(capped, votes)["Bo"] == 6
    uncapped = driver(SIX, edition="odyssey", first="Ada", votes_received_cap=None)
    assert play_round(uncapped, votes)["Bo"] == 7
    # With one vote each there is no single-vote bonus.
    assert "single_vote_found" not in {a.reason for a in uncapped.state.rounds[-1].awards}


def test_second_vote_rules(driver):
    game = driver(SEVEN, edition="odyssey", first="Ada")
    game.clue("Ada")
    game.submit_all()
    ada, bo = game.card_of("Ada"), game.card_of("Bo")
    assert legal_actions(game.state, "Cy").vote_count == 2
    before = json.dumps(str(game.state))
    for command, code in [
        (CastVote("Cy", ada, ada), Code.DUPLICATE_CARD),
        (CastVote("Cy", ada, game.card_of("Cy")), Code.CANNOT_VOTE_OWN_CARD),
        (CastVote("Cy", ada, "nowhere"), Code.CARD_NOT_ON_TABLE),
    ]:
        with pytest.raises(GameError) as error:
            game.do(command)
        assert error.value.code == code
        assert json.dumps(str(game.state)) == before
    game.do(CastVote("Cy", ada, bo))
    view = player_view(game.state, "Cy")
    assert (view.my_vote, view.my_second_vote) == (ada, bo)
    assert player_view(game.state, "Di").my_second_vote is None
    with pytest.raises(GameError) as error:
        game.do(CastVote("Cy", bo))
    assert error.value.code == Code.ALREADY_VOTED


def test_one_vote_below_seven_players(driver):
    game = driver(SIX, edition="odyssey", first="Ada")
    game.clue("Ada")
    game.submit_all()
    assert legal_actions(game.state, "Bo").vote_count == 1
    with pytest.raises(GameError) as error:
        game.do(CastVote("Bo", game.card_of("Ada"), game.card_of("Cy")))
    assert error.value.code == Code.ONE_VOTE_ONLY


def test_twelve_players_refill_to_six_and_end_at_thirty(driver):
    names = tuple(f"p{i:02}" for i in range(12))
    game = driver(names, edition="odyssey", first="p00")
    assert all(len(h) == 6 for h in game.state.hands.values())
    while game.state.phase is not Phase.OVER:
        teller = game.state.storyteller
        assert teller is not None
        play_round(
            game, {v: (teller,) if v == names[1] else (names[1],) for v in game.state.voters}
        )
        if game.state.phase is not Phase.OVER:
            assert all(len(h) == 6 for h in game.state.hands.values())
    assert game.state.end_reason == EndReason.SCORE_REACHED
    assert max(game.state.scores.values()) >= 30
    assert any(type(e).__name__ == "PileReshuffled" for e in game.events)
    assert verify(game.events) == game.state


# --------------------------------------------------------------------------- Dixit Party


def party_round(game, votes: dict[str, str], void: str) -> dict[str, int]:
    game.clue(game.state.storyteller)
    game.submit_all()
    teller = game.state.storyteller
    for voter, owner in votes.items():
        game.do(CastVote(voter, game.card_of(owner)))
    assert game.state.phase is Phase.VOTE  # the round waits for the void
    game.do(VoidCard(teller, game.card_of(void)))
    return full(game.state.rounds[-1].points(), game.state.players)


def test_party_mode_as_data():
    rules = rules_for("odyssey", "party")
    assert (rules.min_players, rules.max_players, rules.hand_size_for(6)) == (6, 12, 5)
    assert rules.max_rounds_for(9) == 9 and rules.votes_each_for(12) == 1
    with pytest.raises(GameError) as error:
        rules_for("odyssey", "chess")
    assert error.value.code == Code.BAD_OPTION


def test_party_scores_the_voters_on_the_same_card(driver):
    # Ada tells and voids Di's card. Three voters on Bo's card (Bo's own vote among them) score
    # 3 each; Ada votes too, for her own card, with Cy: 2 each; Flo votes alone: 0.
    game = driver(SIX, edition="odyssey", mode="party", first="Ada")
    points = party_round(
        game,
        {"Ada": "Ada", "Bo": "Bo", "Cy": "Ada", "Di": "Bo", "Ed": "Bo", "Flo": "Cy"},
        void="Di",
    )
    assert points == {"Ada": 2, "Bo": 3, "Cy": 2, "Di": 3, "Ed": 3, "Flo": 0}
    points = party_round(
        game,
        {"Ada": "Cy", "Bo": "Cy", "Cy": "Ada", "Di": "Cy", "Ed": "Ada", "Flo": "Ada"},
        void="Flo",
    )
    assert points == {"Ada": 3, "Bo": 3, "Cy": 3, "Di": 3, "Ed": 3, "Flo": 3}
    scored = game.state.rounds[-1]
    assert scored.outcome is Outcome.PARTY and scored.void is not None
    assert dict(scored.owners)[scored.void] == "Flo" and scored.storyteller == "Bo"


def test_party_three_on_a_card_and_the_cap_of_five(driver):
    game = driver(SEVEN, edition="odyssey", mode="party", first="Ada")
    points = party_round(game, {p: "Bo" for p in SEVEN[:6]} | {"Gus": "Cy"}, void="Di")
    assert points == {p: 5 for p in SEVEN[:6]} | {"Gus": 0}


def test_party_a_voided_card_scores_nothing(driver):
    game = driver(SIX, edition="odyssey", mode="party", first="Ada")
    points = party_round(game, {p: "Bo" for p in SIX[:4]} | {"Ed": "Cy", "Flo": "Cy"}, void="Bo")
    assert points == {p: 0 for p in SIX[:4]} | {"Ed": 2, "Flo": 2}


def test_party_void_rules_and_hands_pass_left(driver):
    game = driver(SIX, edition="odyssey", mode="party", first="Ada")
    game.clue("Ada")
    game.submit_all()
    assert legal_actions(game.state, "Ada").void == game.state.table
    assert legal_actions(game.state, "Bo").void == ()
    assert legal_actions(game.state, "Bo").vote == game.state.table  # own card allowed
    for command, code in [
        (VoidCard("Bo", game.card_of("Cy")), Code.CANNOT_VOID),
        (VoidCard("Ada", "nowhere"), Code.CARD_NOT_ON_TABLE),
    ]:
        with pytest.raises(GameError) as error:
            game.do(command)
        assert error.value.code == code
    game.do(VoidCard("Ada", game.card_of("Cy")))
    assert player_view(game.state, "Ada").my_void == game.card_of("Cy")
    assert player_view(game.state, "Bo").my_void is None
    with pytest.raises(GameError) as error:
        game.do(VoidCard("Ada", game.card_of("Bo")))
    assert error.value.code == Code.ALREADY_VOIDED
    held = {p: game.state.hands[p] for p in SIX}
    for p in SIX:
        game.do(CastVote(p, game.card_of("Bo")))
    assert any(isinstance(e, HandsPassed) for e in game.events)
    for i, p in enumerate(SIX):
        assert game.state.hands[p][:4] == held[SIX[i - 1]]
        assert len(game.state.hands[p]) == 5


def test_party_ends_when_everyone_has_told_once(driver):
    game = driver(SIX, edition="odyssey", mode="party", first="Cy")
    tellers = []
    while game.state.phase is not Phase.OVER:
        tellers.append(game.state.storyteller)
        party_round(game, {p: "Bo" for p in SIX}, void="Ada")
    assert sorted(tellers) == sorted(SIX) and tellers[0] == "Cy"
    assert game.state.end_reason == EndReason.ROUND_LIMIT
    assert verify(game.events) == game.state


# --------------------------------------------------------------------------- Team Dixit

EIGHT = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")  # teams: Ada+Bo, Cy+Di, ...


def test_teams_mode_as_data():
    rules = rules_for("odyssey", "teams")
    assert (rules.min_players, rules.max_players, rules.hand_size_for(8)) == (6, 12, 4)
    assert rules.table_size_for(8) == 4 and rules.table_size_for(12) == 6
    for players in (6, 8, 10, 12):
        assert rules.min_deck_size_for(players) <= 84


def test_an_odd_table_cannot_play_in_teams(driver):
    with pytest.raises(GameError) as error:
        driver(EIGHT[:7], edition="odyssey", mode="teams")
    assert error.value.code == Code.PLAYER_COUNT


def test_partners_decide_together_and_score_as_one(driver):
    # Bo tells for the Ada+Bo team with a card from Ada's hand. Cy+Di hand in a card from Di's
    # hand (Cy submits it); Ed+Flo and Gus+Hal hand in theirs. Di finds the storyteller's card;
    # Ed and Hal vote for the Cy+Di card: some found it.
    game = driver(EIGHT, edition="odyssey", mode="teams", first="Ada")
    state = game.state
    assert player_view(state, "Ada").partner_hand == state.hands["Bo"]
    assert player_view(state, "Cy").partner_hand == state.hands["Di"]
    assert legal_actions(state, "Bo").give_clue == state.hands["Bo"] + state.hands["Ada"]
    assert legal_actions(state, "Cy").give_clue == ()
    told = state.hands["Ada"][0]
    game.do(GiveClue("Bo", told, "a clue"))
    assert told not in game.state.hands["Ada"] and len(game.state.hands["Ada"]) == 3
    with pytest.raises(GameError) as error:
        game.do(SubmitCards("Ada", (game.state.hands["Ada"][0],)))
    assert error.value.code == Code.STORYTELLER_CANNOT_SUBMIT
    given = game.state.hands["Di"][0]
    game.do(SubmitCards("Cy", (given,)))
    with pytest.raises(GameError) as error:
        game.do(SubmitCards("Di", (game.state.hands["Di"][0],)))
    assert error.value.code == Code.ALREADY_SUBMITTED
    game.do(SubmitCards("Flo", (game.state.hands["Flo"][0],)))
    game.do(SubmitCards("Gus", (game.state.hands["Hal"][0],)))
    assert game.state.phase is Phase.VOTE and len(game.state.table) == 4
    assert player_view(game.state, "Di").my_cards == (given,)
    with pytest.raises(GameError) as error:
        game.do(CastVote("Di", given))
    assert error.value.code == Code.CANNOT_VOTE_OWN_CARD
    with pytest.raises(GameError) as error:
        game.do(CastVote("Ada", given))
    assert error.value.code == Code.STORYTELLER_CANNOT_VOTE
    game.do(CastVote("Di", told))
    assert player_view(game.state, "Cy").my_vote == told
    with pytest.raises(GameError) as error:
        game.do(CastVote("Cy", given))
    assert error.value.code == Code.ALREADY_VOTED
    game.do(CastVote("Ed", given))
    game.do(CastVote("Hal", given))
    points = full(game.state.rounds[-1].points(), EIGHT)
    assert points == {
        "Ada": 3, "Bo": 3, "Cy": 3 + 2, "Di": 3 + 2, "Ed": 0, "Flo": 0, "Gus": 0, "Hal": 0,
    }  # fmt: skip
    assert game.state.rounds[-1].outcome is Outcome.SOME
    # Every hand is refilled to four, and the next team tells.
    assert all(len(h) == 4 for h in game.state.hands.values())
    assert game.state.storyteller == "Cy"
    assert verify(game.events) == game.state


def test_teams_everybody_found_and_the_game_ends_with_partners_sharing_the_win(driver):
    game = driver(EIGHT[:6], edition="odyssey", mode="teams", first="Ada")
    while game.state.phase is not Phase.OVER:
        teller = game.state.storyteller
        assert teller is not None
        game.do(GiveClue(teller, game.state.hands[teller][0], "a clue"))
        tellers = game.state.team_of(teller)
        for first in game.state.players[::2]:
            if first not in tellers:
                game.do(SubmitCards(first, (game.state.hands[first][0],)))
        for first in game.state.players[::2]:
            if first not in tellers:
                game.do(CastVote(first, game.state.storyteller_card))
        assert game.state.rounds[-1].outcome is Outcome.EVERYBODY
    winners = set(game.state.winners)
    assert winners and all(set(game.state.team_of(w)) <= winners for w in winners)
    assert verify(game.events) == game.state
