"""Keeping the open tables pleasant: a word filter on the names the public list shows, and
visitors' reports of a table.

The word lists are glin-profanity's (MIT licence, a PyPI dependency; THIRD_PARTY_NOTICES) for
the six languages the game speaks, read from the installed package: nothing is downloaded.
A name is offensive when one of its words, or a run of its words, is on a list, compared
without case, accents or the usual digit-for-letter swaps (``c4zz0``). Whole words only: a
listed word inside a longer one does not count (Scunthorpe, Sussex).

A report hides nothing at once: a table reported by :data:`REPORTS_TO_HIDE` different clients
leaves the public list of this process, and every report is logged for the operator. Reports
live in memory: a restart forgets them.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import unicodedata
from importlib import resources

log = logging.getLogger("dixit.server.moderation")

LISTS = ("english", "italian", "polish", "spanish", "portuguese", "french")
REPORTS_TO_HIDE = 3
MAX_REPORTED = 10_000  # tables with reports kept; past it, those not hidden are forgotten
MAX_PHRASE = 4  # the longest listed phrase we look for, in words
_SWAPS = str.maketrans("013457@$", "oieastas")
_WORD = re.compile(r"[^\W_]+")


def _plain(text: str) -> str:
    """Lower case, no accents, digits read as the letters they stand for."""
    stripped = "".join(
        ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch)
    )
    return stripped.casefold().translate(_SWAPS)


@functools.cache
def listed_words() -> frozenset[str]:
    """Every listed word and phrase, plain (words of a phrase joined by one space)."""
    words: set[str] = set()
    root = resources.files("glin_profanity").joinpath("data", "dictionaries")
    for name in LISTS:
        data = json.loads(root.joinpath(f"{name}.json").read_text("utf-8"))
        for entry in data["words"]:
            plain = " ".join(_WORD.findall(_plain(str(entry))))
            if plain:
                words.add(plain)
    return frozenset(words)


def offensive(text: str) -> bool:
    """Does ``text`` hold a listed word or phrase (see the module)?"""
    words = _WORD.findall(_plain(text))
    listed = listed_words()
    for start in range(len(words)):
        for size in range(1, min(MAX_PHRASE, len(words) - start) + 1):
            if " ".join(words[start : start + size]) in listed:
                return True
    return False


class Reports:
    """Who reported which table (per client address, each counted once)."""

    def __init__(self, to_hide: int = REPORTS_TO_HIDE) -> None:
        self.to_hide = to_hide
        self._by: dict[str, set[str]] = {}

    def report(self, code: str, client: str, name: str) -> None:
        if code not in self._by and len(self._by) >= MAX_REPORTED:
            self._by = {c: who for c, who in self._by.items() if len(who) >= self.to_hide}
        reporters = self._by.setdefault(code, set())
        if client in reporters:
            return
        reporters.add(client)
        log.warning(
            "table %s (%r) reported by %s: %d report(s)%s",
            code,
            name,
            client,
            len(reporters),
            "; hidden from the public list" if len(reporters) == self.to_hide else "",
        )

    def hidden(self, code: str) -> bool:
        return len(self._by.get(code, ())) >= self.to_hide
