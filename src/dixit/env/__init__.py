"""Research environments over the rules engine (install the ``research`` extra).

``from dixit.env import dixit_v0; env = dixit_v0.env(edition="2021", players=6)`` — see
``docs/research.md``.
"""
