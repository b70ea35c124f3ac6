"""Word tables of the generated decks' card text (read by :mod:`dixit.decks.lexicon`)."""
