"""How long the store keeps each kind of room: the retention rules (:mod:`dixit.server.retention`
sweeps by them), and the durations operators write them in."""

from __future__ import annotations

import re
from dataclasses import dataclass

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class Retention:
    """How long each kind of room is kept after its last change (None: for ever)."""

    lobby_s: float | None = DAY  # a room whose first game never started
    abandoned_s: float | None = 7 * DAY  # a game nobody played on for this long
    finished_s: float | None = None  # finished games: kept for the dataset
    uploads_s: float | None = DAY  # an uploaded deck no stored room deals from
    every_s: float = 600.0  # how often the server sweeps

    def rules(self) -> list[tuple[str, str, bool, float]]:
        """(kind, status, first game only, seconds) for each kind that is not kept for ever.
        A lobby after a rematch holds finished games: it is kept as finished games are."""
        kinds = (
            ("lobby", "lobby", True, self.lobby_s),
            ("abandoned", "playing", False, self.abandoned_s),
            ("finished", "over", False, self.finished_s),
            ("finished", "lobby", False, self.finished_s),
        )
        return [(k, s, first, keep) for k, s, first, keep in kinds if keep is not None]


_DURATION = re.compile(r"(\d+(?:\.\d+)?)\s*([smhd]?)")
_UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": HOUR, "d": DAY}


def parse_duration(text: str) -> float | None:
    """``90s``, ``30m``, ``24h``, ``7d`` (plain numbers are seconds), or ``forever`` (None)."""
    if text.strip().lower() in ("forever", "never", "none"):
        return None
    match = _DURATION.fullmatch(text.strip().lower())
    if match is None:
        raise ValueError(f"{text!r}: write a duration such as 90s, 30m, 24h, 7d, or forever")
    return float(match.group(1)) * _UNITS[match.group(2)]
