"""Keeping the open tables pleasant: a word filter on the names the public list shows, and
visitors' reports of a table.

The word lists are glin-profanity's (MIT licence, a PyPI dependency; THIRD_PARTY_NOTICES) for
the six languages the game speaks, read from the installed package: nothing is downloaded.
A name is offensive when one of its words, or a run of its words, is on a list, compared
without case, accents or the usual digit-for-letter swaps (``c4zz0``). Whole words only: a
listed word inside a longer one does not count (Scunthorpe, Sussex).

A report hides nothing at once: a table reported by :data:`REPORTS_TO_HIDE` different clients
leaves the public list, and every report is logged for the operator. Reports are kept in the
store (a hash of the reporter's address, once per table), so every server process counts the
same reports and a restart forgets none; they go when the room is deleted.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import math
import re
import time
import unicodedata
from collections.abc import Awaitable, Callable
from importlib import resources

log = logging.getLogger("dixit.server.moderation")

LISTS = ("english", "italian", "polish", "spanish", "portuguese", "french")
REPORTS_TO_HIDE = 3
REFRESH_S = 2.0  # how stale the list's view of other processes' reports may be
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
    """Visitors' reports of open tables, counted by the store (``record``: the table's code and
    the reporter, answering how many reporters it has; ``reported``: the tables with at least
    so many). The list asks the store for the hidden tables at most every ``refresh_s``: a
    table reported through another process leaves this one's list within that time."""

    def __init__(
        self,
        record: Callable[[str, str], Awaitable[int]],
        reported: Callable[[int], Awaitable[list[str]]],
        to_hide: int = REPORTS_TO_HIDE,
        refresh_s: float = REFRESH_S,
    ) -> None:
        self._record, self._reported = record, reported
        self.to_hide, self.refresh_s = to_hide, refresh_s
        self._hidden: frozenset[str] = frozenset()
        self._read_at = -math.inf

    async def report(self, code: str, client: str, name: str) -> None:
        reporter = hashlib.sha256(client.encode()).hexdigest()[:24]
        count = await self._record(code, reporter)
        if count >= self.to_hide:
            self._hidden |= {code}
        log.warning(
            "table %s (%r) reported by %s: %d reporter(s)%s",
            code,
            name,
            client,
            count,
            "; hidden from the public list" if count >= self.to_hide else "",
        )

    async def hidden(self) -> frozenset[str]:
        """The tables reported enough to leave the list (read again every ``refresh_s``)."""
        now = time.monotonic()
        if now - self._read_at >= self.refresh_s:
            self._read_at = now  # the requests meanwhile take the last answer
            self._hidden = frozenset(await self._reported(self.to_hide))
        return self._hidden
