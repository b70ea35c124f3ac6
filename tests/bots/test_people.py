"""The storyteller models each other seat as what it is: a person reads the pictures."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from dixit.bots import CardBook, make_bot
from dixit.bots.arena import play_game
from dixit.bots.players import (
    PICTURE_READER,
    Candidate,
    ReadingBot,
    people_taste,
    picture_readers,
)
from dixit.engine import rules_for

from .conftest import CAT, LIGHTHOUSE, six_language_card


def test_a_person_finds_the_only_card_that_shows_the_clues_anchor() -> None:
    """Alone in showing what the clue hangs on, the card is found more often than when
    another card on the table shows it as well; a second vote finds it more often still."""
    decoys = np.array([[[0.9], [0.8]]])  # one table, two seats, one card each
    alone = picture_readers((1.0, decoys), (1.0, np.array([[[0.2], [0.1]]])))
    shared = picture_readers((1.0, decoys), (1.0, np.array([[[1.3], [0.1]]])))
    assert alone.shape == (1, 2)
    assert (alone > 0.9).all()
    # the listener in seat 1 sees seat 0's card, which shows the anchor better than the clue's
    assert shared[0, 1] < alone[0, 1] - 0.05
    assert shared[0, 0] == alone[0, 0]  # its own card is not among those it chooses from
    assert (picture_readers((1.0, decoys), (1.0, decoys), votes=2) > picture_readers(
        (1.0, decoys), (1.0, decoys))).all()  # fmt: skip


def test_the_storyteller_asks_which_seats_are_people(generated_cards: list[dict[str, Any]]) -> None:
    book = CardBook.from_cards(generated_cards)
    asked: list[int] = []

    def people() -> frozenset[str]:
        asked.append(1)
        return frozenset({"p2", "p3"})

    names = ["p1", "p2", "p3", "p4"]
    bots = [make_bot("strong", rng=random.Random(i), lang="en", book=book, people=people)
            for i in range(4)]  # fmt: skip
    state, _ = play_game(rules_for("classic"), names, bots, list(book.ids), 5)
    assert len(asked) == len(state.rounds) > 0  # once per clue told

    bot = bots[0]
    assert isinstance(bot, ReadingBot)
    ids = list(book.ids)
    card, pool = ids[0], ids[6:40]
    candidate = Candidate(
        "a long journey", "idea", anchor=str((book.text(card, "en") or {}).get("title"))
    )
    trust = np.full(4, 0.9)
    computers = bot.success(card, candidate, pool, trust, 1, 7)
    every = np.ones(4, dtype=bool)
    persons = bot.success(card, candidate, pool, trust, 1, 7, people=every)
    assert 0 <= computers <= 1 and 0 <= persons <= 1 and persons != computers
    assert bot.success(card, candidate, pool, trust, 1, 7, people=~every) == computers


def test_rival_cards_and_the_clue_itself_make_a_person_hesitate() -> None:
    """Other cards fitting the clue nearly as well as the card make it harder to find, and so
    does a feeling or a short clue; a plain "thing" makes it easier."""
    mine = (1.0, np.array([[[0.5], [0.5], [0.5]]]))
    rivals = (1.0, np.array([[[0.5], [0.85], [0.9]]]))  # seat 0 sees two cards nearly as good
    shows = (1.0, np.zeros((1, 3, 1)))
    alone, crowded = picture_readers(mine, shows), picture_readers(rivals, shows)
    assert crowded[0, 0] < alone[0, 0] - 0.04
    prior = PICTURE_READER.prior
    assert prior("a cold sweat", "feeling") < prior("a cold sweat", "saying")
    assert prior("a cold sweat", "thing") > prior("a cold sweat", "saying")
    assert prior("remorse", "idea") < prior("the price of a long remorse", "idea")
    assert (picture_readers(mine, shows, prior=prior("remorse", "feeling")) < alone).all()


def test_a_persons_record_does_not_discount_the_person_model(
    generated_cards: list[dict[str, Any]],
) -> None:
    """How reliably the computer model reads is for computers: a table of people is read by
    the person model alone, which holds people's misses."""
    book = CardBook.from_cards(generated_cards)
    bot = make_bot("strong", rng=random.Random(1), lang="en", book=book)
    assert isinstance(bot, ReadingBot)
    ids = list(book.ids)
    card, pool = ids[0], ids[6:40]
    candidate = Candidate("a long journey", "idea", anchor="a road")
    every = np.ones(4, dtype=bool)
    sure = bot.success(card, candidate, pool, np.full(4, 0.9), 1, 7, people=every)
    sloppy = bot.success(card, candidate, pool, np.full(4, 0.2), 1, 7, people=every)
    assert abs(sure - sloppy) < 0.05  # only the imagined decoys move (a sloppier table)
    computers = [bot.success(card, candidate, pool, np.full(4, r), 1, 7) for r in (0.9, 0.2)]
    assert abs(computers[0] - computers[1]) > 0.2


def test_facing_people_the_storyteller_leans_to_what_they_rated_higher() -> None:
    saying = Candidate("a bolt from the blue", "saying")
    assert people_taste(saying) == 0.0
    assert people_taste(Candidate("a kiss on the nose", "thing")) < people_taste(
        Candidate("a kiss on the nose", "idea")
    )
    assert people_taste(Candidate("remorse", "saying")) < 0.0  # at most two words


def test_facing_people_no_one_word_clue_while_another_is_offered() -> None:
    cards = [six_language_card("deck-lighthouse", LIGHTHOUSE), six_language_card("deck-cat", CAT)]
    cards[0]["bank"] = {
        "en": [
            {"clue": "loneliness", "kind": "feeling", "anchor": "the lone tower"},
            {"clue": "solitude", "kind": "idea", "anchor": "the lone tower"},
            {"clue": "a light for the lost", "kind": "saying", "anchor": "the beam"},
        ]
    }
    book = CardBook.from_cards(cards)
    hand = ["deck-lighthouse", "deck-cat"]
    told: dict[bool, set[str]] = {True: set(), False: set()}
    for seed in range(30):
        for facing in (True, False):
            bot = make_bot("strong", rng=random.Random(seed), lang="en", book=book)
            assert isinstance(bot, ReadingBot)
            people = [facing] * 4
            told[facing].add(bot.choose_clue(hand, 5, 1, set(hand), people=people)[1])
    assert all(len(clue.split()) > 1 for clue in told[True])
    assert any(len(clue.split()) == 1 for clue in told[False])  # computers may hear one
