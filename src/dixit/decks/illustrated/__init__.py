"""The illustrated *Storybook* decks: public-domain book plates made into Dixit cards.

``python -m dixit.decks.illustrated build --art-dir ../shared/art/public-domain`` rebuilds the
shipped cards from the original scans and ``curation.json``; see docs/deck/README.md.
"""
