"""A room's settings as the engine's rules."""

from __future__ import annotations

from typing import Any

from dixit.engine import rules_for
from dixit.engine.rules import Rules
from dixit.protocol import messages as m


def rules_from_settings(settings: m.RoomSettings) -> Rules:
    """The engine's rules for a room's settings; GameError (setup/…) when they do not fit."""
    options: dict[str, Any] = {}
    base = rules_for(settings.edition, settings.mode)
    if settings.lone_finder_bonus is not None:
        options["lone_finder_bonus"] = settings.lone_finder_bonus
    if settings.end_at_score is not None:
        options["end_at_score"] = settings.end_at_score
    if settings.max_rounds is not None:
        options["max_rounds"] = settings.max_rounds
    if settings.clue_max_length is not None:
        options["clue_max_length"] = settings.clue_max_length
    if settings.max_players is not None:
        options["max_players"] = max(base.min_players, min(settings.max_players, base.max_players))
    return rules_for(settings.edition, settings.mode, **options)
