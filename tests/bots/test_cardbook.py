"""The card book: six-language reading, the concept lexicon, learned clues, cards without text."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dixit.bots import LANGS, CardBook, make_bot
from dixit.bots.cardbook import FULL, SEEN, Reading
from dixit.bots.levels import PANEL_RATING, SKILLS
from dixit.bots.players import ReadingBot, said_key
from dixit.bots.text import forms, stem

from .conftest import CAT, LIGHTHOUSE, six_language_card

CLUES = {
    "en": ("a storm at sea", "sleeping cat"),
    "it": ("la tempesta", "il gatto dorme"),
    "pl": ("burza na morzu", "śpiący kot"),
    "es": ("la tormenta", "un gato dormido"),
    "pt": ("a tempestade", "o gato a dormir"),
    "fr": ("la tempête", "le chat endormi"),
}


@pytest.fixture
def book() -> CardBook:
    return CardBook.from_cards(
        [six_language_card("deck-lighthouse", LIGHTHOUSE), six_language_card("deck-cat", CAT)]
    )


@pytest.mark.parametrize("lang", LANGS)
def test_a_clue_in_any_language_finds_its_card(book: CardBook, lang: str) -> None:
    storm, cat = CLUES[lang]
    cards = ["deck-lighthouse", "deck-cat"]
    for level in ("easy", "medium", "strong"):
        bot = make_bot(level, rng=random.Random(1), lang="en", book=book)
        assert isinstance(bot, ReadingBot)
        assert bot.rank(storm, cards)[0] == "deck-lighthouse", (level, storm)
        assert bot.rank(cat, cards)[0] == "deck-cat", (level, cat)


def test_parallel_texts_carry_a_clue_to_a_card_written_in_english_only() -> None:
    """The lighthouse card's side-by-side lists teach that 'burza' is 'storm'; a card with only
    English text then fits the Polish clue through that concept (not at the literal level)."""
    english_only = {"id": "gen-storm", "title": "Night sea", "keywords": ["storm", "ship"]}
    other = {"id": "gen-meadow", "title": "Meadow", "keywords": ["flowers", "bees"]}
    cards = [six_language_card("deck-lighthouse", LIGHTHOUSE), english_only, other]
    book = CardBook.from_cards(cards)
    strong = make_bot("strong", rng=random.Random(1), lang="pl", book=book)
    easy = make_bot("easy", rng=random.Random(1), lang="pl", book=book)
    assert isinstance(strong, ReadingBot) and isinstance(easy, ReadingBot)
    fits = book.fit("burza", ["gen-storm", "gen-meadow"], strong.skill.reading)
    assert fits[0] > fits[1]
    literal = book.fit("burza", ["gen-storm", "gen-meadow"], easy.skill.reading)
    assert literal == [0.0, 0.0]


def test_learned_clues_become_text_and_unknown_cards_join(book: CardBook) -> None:
    assert book.fit("zeppelin", ["deck-cat"]) == [0.0]
    book.learn("deck-cat", "zeppelin", "en")
    assert book.fit("zeppelin", ["deck-cat", "deck-lighthouse"])[0] > 0
    assert book.clues("deck-cat", "en") == ["zeppelin"]
    assert "imported-abc" not in book
    book.learn("imported-abc", "rainbow bridge", "it")
    assert book.knows("imported-abc")
    assert book.fit("ponte arcobaleno", ["imported-abc", "deck-cat"])[0] > 0
    with pytest.raises(ValueError, match="unknown language"):
        book.learn("deck-cat", "x", "de")


def test_cards_without_text_are_played_by_the_weaker_strategy() -> None:
    cards: list[dict[str, Any]] = [{"id": f"imported-{i:012x}"} for i in range(10)]
    book = CardBook.from_cards(cards)
    assert not book.readable and not book.knows(cards[0]["id"])
    bot = make_bot("strong", rng=random.Random(2), lang="it", book=book)
    assert isinstance(bot, ReadingBot)
    hand = [c["id"] for c in cards[:6]]
    card, clue = bot.choose_clue(hand, 4, 1, set(hand))
    assert card in hand and clue  # an Italian word of our own vocabulary
    assert sorted(bot.rank("qualcosa", hand)) == sorted(hand)


def test_storyteller_clues_are_in_the_rooms_language(book: CardBook) -> None:
    hand = ["deck-lighthouse", "deck-cat"]
    for lang in LANGS:
        bot = make_bot("strong", rng=random.Random(4), lang=lang, book=book)
        assert isinstance(bot, ReadingBot)
        card, clue = bot.choose_clue(hand, 5, 1, set(hand))
        offered = [phrase for _, phrase in book.phrases(card, lang)]
        assert clue in offered, (lang, clue)


BANK = {
    "en": [
        {"clue": "a light for the lost", "kind": "saying", "anchor": "the beam"},
        {"clue": "keeping watch all night", "kind": "situation", "anchor": "the tower"},
        {"clue": "lighthouse", "kind": "thing", "anchor": "the lighthouse"},
    ],
    "it": [{"clue": "la luce nel buio", "kind": "idea", "anchor": "the beam"}],
}


def _banked_book() -> CardBook:
    cards = [six_language_card("deck-lighthouse", LIGHTHOUSE), six_language_card("deck-cat", CAT)]
    cards[0]["bank"] = BANK
    return CardBook.from_cards(cards)


def test_the_storyteller_tells_from_the_bank_never_a_label_never_twice() -> None:
    book = _banked_book()
    assert [c.clue for c in book.bank("deck-lighthouse", "en")][:2] == [
        "a light for the lost",
        "keeping watch all night",
    ]
    bot = make_bot("strong", rng=random.Random(4), lang="en", book=book)
    assert isinstance(bot, ReadingBot)
    offered = [(c.clue, c.kind) for c in bot.candidates("deck-lighthouse")]
    assert ("a light for the lost", "saying") in offered
    assert "lighthouse" not in {clue for clue, _ in offered}  # a bank clue naming its main thing
    assert "hope" not in {clue for clue, _ in offered}  # a card with a bank tells only from it
    # ... a card without one tells its title and themes
    unbanked = {c.clue for c in bot.candidates("deck-cat")}
    assert {"a cat asleep on books", "reading", "rest"} <= unbanked
    it = make_bot("strong", rng=random.Random(4), lang="it", book=book)
    assert isinstance(it, ReadingBot)
    assert [c.clue for c in it.candidates("deck-lighthouse")] == ["la luce nel buio"]
    said = {said_key("A light, for the lost!")}
    later = [c.clue for c in bot.candidates("deck-lighthouse", said)]
    assert "a light for the lost" not in later and "keeping watch all night" in later
    assert bot.kind_told("deck-lighthouse", "Keeping watch all night") == "situation"
    book.learn("deck-lighthouse", "keeping watch all night", "en")  # as the server does
    assert bot.kind_told("deck-lighthouse", "keeping watch all night") == "situation"
    assert "keeping watch all night" not in [c.clue for c in bot.candidates("deck-lighthouse")]
    for seed in range(20):
        bot = make_bot("strong", rng=random.Random(seed), lang="en", book=book)
        assert isinstance(bot, ReadingBot)
        hand = ["deck-lighthouse", "deck-cat"]
        _, clue = bot.choose_clue(hand, 5, 1, set(hand), said=said)
        assert said_key(clue) not in said


def test_no_reading_scores_a_clue_against_the_bank() -> None:
    """Listeners do not share the storyteller's list: a clue found only in the bank fits the
    card no better than any other (its words are nowhere in the card's text)."""
    book = _banked_book()
    for reading in (FULL, SEEN, Reading(FULL.weights, semantic=0.0)):
        plain = book.fit("keeping watch all night", ["deck-lighthouse", "deck-cat"], reading)
        unbanked = CardBook.from_cards(
            [six_language_card("deck-lighthouse", LIGHTHOUSE), six_language_card("deck-cat", CAT)]
        ).fit("keeping watch all night", ["deck-lighthouse", "deck-cat"], reading)
        assert plain == unbanked


def test_the_person_model_reads_what_the_picture_shows_not_the_themes(book: CardBook) -> None:
    cards = ["deck-lighthouse", "deck-cat"]
    assert book.fit("hope", cards, FULL)[0] > 0  # a theme of the lighthouse card
    assert book.fit("hope", cards, Reading(SEEN.weights, semantic=0.0, seen_only=True)) == [0, 0]
    assert book.fit("waves", cards, SEEN)[0] > book.fit("waves", cards, SEEN)[1]


def test_stemmers_join_inflected_forms() -> None:
    assert stem("tempeste", "it") == stem("tempesta", "it")
    assert stem("książkami", "pl")[:5] == stem("książki", "pl")[:5]
    assert stem("lumières", "fr") == stem("lumière", "fr")
    assert stem("dreaming", "en") == stem("dreams", "en")
    assert stem("tormentas", "es") == stem("tormenta", "es")
    assert stem("tempestades", "pt") == stem("tempestade", "pt")
    assert "~tempe" in forms("tempestuoso")


def test_cached_fits_never_mix_readings_or_outlive_learning(book: CardBook) -> None:
    from dixit.bots.cardbook import FULL, LITERAL, Reading

    cards = ["deck-lighthouse", "deck-cat"]
    words_only = Reading(FULL.weights, semantic=0.0)
    first = book.fit("tempesta", cards, words_only)
    assert book.fit("tempesta", cards, FULL) != first  # the vectors add to the words
    assert book.fit("tempesta", cards, Reading(FULL.weights, semantic=0.0)) == first
    assert (
        CardBook.from_cards(
            [
                six_language_card(c, t)
                for c, t in (("deck-lighthouse", LIGHTHOUSE), ("deck-cat", CAT))
            ]
        ).fit("tempesta", cards, words_only)
        == first
    )
    assert book.fit("tempesta", cards, LITERAL)[1] == 0.0
    before = book.fit("nuvola", cards)
    book.learn("deck-cat", "nuvola", "it")
    assert book.fit("nuvola", cards)[1] > before[1]


def test_better_storytellers_lean_towards_the_kinds_people_rate_higher() -> None:
    """The panel rated sayings best and plain things worst; strong leans more than medium."""
    by_rating = sorted(PANEL_RATING, key=PANEL_RATING.__getitem__, reverse=True)
    assert by_rating[0] == "saying" and by_rating[-1] == "thing"
    strong, medium, easy = (SKILLS[level].kind_taste for level in ("strong", "medium", "easy"))
    assert sorted(strong, key=strong.__getitem__, reverse=True) == by_rating
    assert strong["thing"] < medium["thing"] < 0 < medium["saying"] < strong["saying"]
    assert not easy


LEARNED = [  # (card index in the deck, clue, language): clues of earlier games
    (0, "a lonely voyage", "en"),
    (3, "il sogno del re", "it"),
    (0, "podróż", "pl"),
    (7, "la tormenta dorada", "es"),
    (3, "o guardião", "pt"),
    (12, "le dernier souffle", "fr"),
]
ASKED = ["voyage", "sogno", "podróż", "tormenta dorada", "guardião", "souffle", "storm", "cat"]


def _fits(book: CardBook, clues: list[str]) -> list[list[float]]:
    readings = [FULL, SEEN, *(SKILLS[level].reading for level in SKILLS)]
    return [book.fit_all(c, r).tolist() for c in clues for r in readings]


def _weighed_from_scratch(book: CardBook) -> None:
    """The weights a book keeps as it learns equal those counted over its whole index."""
    import math

    n = len(book)
    assert book._idf == {f: math.log(1.0 + n / len(p)) for f, p in book._index.items()}
    lengths = [0.0] * n
    for posts in book._index.values():
        for i, fields in posts.items():
            lengths[i] += sum(fields.values())
    assert book._lengths == lengths


def test_a_copy_that_learns_reads_as_a_fresh_book_and_leaves_the_shared_one_alone() -> None:
    """A room's book is a copy of the deck's shared book plus the room's learned clues: its fits
    equal a freshly built book's with the same clues (same play), bit for bit, and neither the
    shared book nor another room's copy sees what it learned."""
    from dixit.decks.library import DeckLibrary, builtin_root

    deck = DeckLibrary(builtin_root().parent).get("golden-tales")
    cards = [{"id": c.id, **(c.metadata or {})} for c in deck.cards]
    ids = [c["id"] for c in cards]
    learned = [(ids[n], clue, lang) for n, clue, lang in LEARNED] + [("imported-x", "nebbia", "it")]
    shared = CardBook.from_cards(cards)
    untouched = _fits(shared, ASKED)
    room, other = shared.copy(), shared.copy()
    fresh = CardBook.from_cards(cards)
    for card, clue, lang in learned:
        room.learn(card, clue, lang)
        room.fit_all(clue)  # weights refreshed after each clue, only where it changed them
        fresh.learn(card, clue, lang)
    assert _fits(room, [*ASKED, "nebbia"]) == _fits(fresh, [*ASKED, "nebbia"])
    _weighed_from_scratch(room)
    assert _fits(shared, ASKED) == untouched
    assert _fits(other, ASKED) == untouched
    assert "imported-x" not in shared and "imported-x" not in other
    assert shared.clues(ids[0], "en") == [] and room.clues(ids[0], "en") == ["a lonely voyage"]
    assert _fits(room, ASKED) != untouched  # the learned clues do count
    again = room.copy()  # a copy of a copy that learned
    again.learn(ids[5], "eclipse", "en")
    fresh.learn(ids[5], "eclipse", "en")
    assert _fits(again, ["eclipse", *ASKED]) == _fits(fresh, ["eclipse", *ASKED])
    _weighed_from_scratch(again)
    assert _fits(room, ["eclipse"]) != _fits(again, ["eclipse"])


def test_a_game_is_the_same_with_a_copied_book_as_with_a_built_one() -> None:
    """Same seed, same game: computer players reading a copy of the shared book that learned a
    first game's clues play the second game exactly as with a book built for the room."""
    from dixit.bots.arena import bot_rng, play_game
    from dixit.decks.library import DeckLibrary, builtin_root
    from dixit.engine import RoundScored, rules_for

    deck = DeckLibrary(builtin_root().parent).get("golden-tales")
    cards = [{"id": c.id, **(c.metadata or {})} for c in deck.cards]
    names = ["p1", "p2", "p3", "p4"]
    levels = ["strong", "medium", "easy", "strong"]

    def game(book: CardBook, seed: int) -> list[Any]:
        bots = [make_bot(level, rng=bot_rng(seed, i), lang="it", book=book)
                for i, level in enumerate(levels)]  # fmt: skip
        return play_game(rules_for("classic"), names, bots, list(book.ids), seed)[1]

    first = game(CardBook.from_cards(cards), 3)
    told = [(e.storyteller_card, e.clue) for e in first if isinstance(e, RoundScored)]
    assert told
    built, copied = CardBook.from_cards(cards), CardBook.from_cards(cards).copy()
    for book in (built, copied):
        for card, clue in told:
            book.learn(card, clue, "it")
    assert game(copied, 4) == game(built, 4)
