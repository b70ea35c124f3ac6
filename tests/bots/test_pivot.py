"""The pivot: a clue word read against what the pictures show in every language at once."""

from __future__ import annotations

import numpy as np
import pytest

from dixit.bots.cardbook import SEEN, CardBook
from dixit.bots.levels import SKILLS
from dixit.bots.pivot import Pivot
from dixit.bots.vectors import WordVectors, load

# Three toy directions: sea, mountain, and a word halfway between them.
WORDS = ["mare", "montagna", "ocean", "peak", "shore"]
TABLE = np.array(
    [[100, 0, 0], [0, 100, 0], [98, 10, 0], [5, 99, 0], [70, 70, 0]], dtype=np.int8
)  # fmt: skip


@pytest.fixture
def pivot() -> Pivot:
    vectors = WordVectors(WORDS, TABLE)
    return Pivot(vectors, lambda: [["mare"], ["montagna"], ["unknownword"]])


def test_a_word_reaches_the_card_that_shows_it_in_another_language(pivot: Pivot) -> None:
    ocean = pivot.word("ocean")
    assert ocean is not None
    assert ocean[0] > 0.9 and ocean[1] == 0.0 and ocean[2] == 0.0  # no word: no likeness
    peak = pivot.word("peak")
    assert peak is not None and peak[1] > 0.9 > peak[0]


def test_a_clue_is_the_mean_of_its_words_and_words_without_a_vector_are_left_out(
    pivot: Pivot,
) -> None:
    both = pivot.clue("ocean peak zzzz", 3)
    ocean, peak = pivot.word("ocean"), pivot.word("peak")
    assert both is not None and ocean is not None and peak is not None
    np.testing.assert_allclose(both, (ocean + peak) / 2)
    assert pivot.clue("zzzz qqqq", 3) is None
    assert pivot.word("zzzz") is None


def test_a_card_that_joined_after_the_pivot_was_built_scores_nothing(pivot: Pivot) -> None:
    scores = pivot.clue("ocean", 5)
    assert scores is not None and scores.shape == (5,) and scores[3:].tolist() == [0.0, 0.0]


@pytest.mark.skipif(load() is None, reason="the word vectors are not built")
def test_the_strong_listener_reaches_an_english_only_card_from_a_polish_clue() -> None:
    """No Polish stem and no concept lists: only the pivot links "morze" to "sea"."""
    book = CardBook.from_cards(
        [
            {"id": "d-sea", "text": {"en": {"description": "a wild sea under a storm"}}},
            {"id": "d-hill", "text": {"en": {"description": "a goat on a green hill"}}},
        ]
    )
    strong = SKILLS["strong"]
    assert strong.reading.pivot > 0 and strong.predicts_with.pivot > 0
    assert SEEN.pivot == 0  # the person model reads as it was fitted
    with_pivot = book.fit("morze", ["d-sea", "d-hill"], strong.predicts_with)
    without = book.fit("morze", ["d-sea", "d-hill"], SEEN)
    assert with_pivot[0] - with_pivot[1] > without[0] - without[1]
    assert with_pivot[0] > with_pivot[1]
