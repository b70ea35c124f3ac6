"""Helpers the ``score``, ``simulate`` and ``replay`` sub-commands share."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from dixit.bots import CardBook, RandomBot
from dixit.engine import (
    Code,
    Event,
    GameError,
    GameState,
    Rules,
    player_view,
    random_playthrough,
)
from dixit.engine.serialize import event_from_json, event_to_json

EXIT_BAD_INPUT = 2


def print_error(code: str, message: str, stream: TextIO | None = None, **extra: Any) -> int:
    """Write ``{"error": {"code", "message", ...}}`` on stderr; return the bad-input status."""
    body: dict[str, Any] = {"code": code, "message": message, **extra}
    print(json.dumps({"error": body}, ensure_ascii=False), file=stream or sys.stderr)
    return EXIT_BAD_INPUT


def quiet_broken_pipe() -> int:
    """The reader of stdout went away: stop quietly (and keep Python's exit flush quiet)."""
    import os

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


def synthetic_deck(size: int = 84) -> tuple[str, ...]:
    """Card ids ``c00`` … ``c83``: enough for simulations, which never look at pictures."""
    return tuple(f"c{i:02}" for i in range(size))


def seat_names(count: int) -> tuple[str, ...]:
    return tuple(f"p{i + 1}" for i in range(count))


def bot_rng(seed: int, seat: int) -> random.Random:
    """A bot's own random stream, a pure function of the game seed and the seat."""
    return random.Random(f"dixit-bot/{seed}/{seat}")


def play_bot_game(
    rules: Rules, players: Sequence[str], seed: int, deck: Sequence[str] | None = None
) -> tuple[GameState, list[Event]]:
    """One complete game of :class:`RandomBot` players, each seeing only its own view.

    ``seed`` drives the engine's shuffles and (through :func:`bot_rng`) every bot.
    """
    bots = {p: RandomBot(bot_rng(seed, seat)) for seat, p in enumerate(players)}
    return random_playthrough(
        rules,
        players,
        deck or synthetic_deck(),
        seed,
        first_storyteller=players[0],
        choose=lambda state, player: bots[player].act(player_view(state, player)),
    )


def events_to_jsonl(events: Iterable[Event]) -> str:
    """The saved-game format: JSON Lines, one :func:`event_to_json` object per line."""
    return "".join(
        json.dumps(event_to_json(e), ensure_ascii=False, separators=(",", ":")) + "\n"
        for e in events
    )


def save_game(path: Path, events: Iterable[Event]) -> None:
    path.write_text(events_to_jsonl(events), encoding="utf-8")


class LogError(Exception):
    """A saved game that cannot be read or is not a legal game; ``index`` is the event's."""

    def __init__(self, code: str, message: str, index: int | None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.index = index


def parse_events_text(text: str) -> list[Event]:
    """Decode a saved game: JSON Lines (one event a line) or a JSON array of events."""
    raw: list[Any]
    stripped = text.lstrip()
    if stripped.startswith("["):
        try:
            loaded = json.loads(text)
        except json.JSONDecodeError as bad:
            raise LogError(Code.MALFORMED, f"not valid JSON: {bad}", None) from None
        if not isinstance(loaded, list):  # pragma: no cover - '[' always starts a list
            raise LogError(Code.MALFORMED, "expected a JSON array of events", None)
        raw = loaded
    else:
        raw = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                raw.append(json.loads(line))
            except json.JSONDecodeError as bad:
                raise LogError(
                    Code.MALFORMED, f"line {number} is not valid JSON: {bad}", len(raw)
                ) from None
    events: list[Event] = []
    for index, data in enumerate(raw):
        try:
            events.append(event_from_json(data))
        except GameError as bad:
            raise LogError(bad.code, bad.message, index) from None
    if not events:
        raise LogError(Code.GAME_NOT_STARTED, "the log holds no events", None)
    return events


def library_book(data_dir: Path | None) -> CardBook:
    """A :class:`CardBook` of every deck the server would list (built-in and imported)."""
    return book_of(deck_cards(data_dir, None))


def book_of(cards: Iterable[dict[str, Any]]) -> CardBook:
    return CardBook.from_cards(cards)


def deck_cards(data_dir: Path | None, slugs: Sequence[str] | None) -> list[dict[str, Any]]:
    """Card dicts (id and metadata) of the decks ``slugs`` (every deck when None).

    Raises KeyError naming a slug no deck has.
    """
    from dixit.decks.library import DeckLibrary
    from dixit.storage import default_data_dir

    library = DeckLibrary(data_dir if data_dir is not None else default_data_dir())
    chosen = [i.slug for i in library.list()] if slugs is None else list(slugs)
    cards: list[dict[str, Any]] = []
    for slug in chosen:
        cards.extend({"id": c.id, **(c.metadata or {})} for c in library.get(slug).cards)
    return cards


def default_bot_decks(data_dir: Path | None) -> list[str]:
    """The deck bots play on unless told: a room's default (the recommended deck)."""
    from dixit.decks.library import DeckLibrary
    from dixit.storage import default_data_dir

    return DeckLibrary(data_dir or default_data_dir()).default_slugs()
