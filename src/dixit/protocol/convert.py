"""From the engine's values to wire JSON, redacting per viewer.

Plain dicts, not pydantic models: this runs for every player after every action, and building
~40 models per update cost a third of the server's time. The models in :mod:`.messages` stay the
contract (and the exported schema); tests/protocol/test_convert.py validates this output
against them for every state and viewer of random games.

Events are the engine's trusted facts and hold secrets (the shuffled pile, everyone's draws,
submitted cards, votes before the reveal). :func:`redact_dict` is the one place that shows a
viewer only what the rules let them know; views come from the engine's own
:func:`~dixit.engine.player_view`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

import orjson

from dixit.engine import (
    CardsDrawn,
    CardsSubmitted,
    CardVoided,
    ClueGiven,
    Event,
    GameEnded,
    GameStarted,
    HandsPassed,
    PileReshuffled,
    PlayerView,
    RoundScored,
    RoundStarted,
    SeatView,
    TableLaid,
    VoteCast,
)
from dixit.engine import LegalActions as EngineLegal
from dixit.engine import Rules as EngineRules

from . import messages as m

_RULES_CACHE: dict[EngineRules, dict[str, object]] = {}


def rules_dict(rules: EngineRules) -> dict[str, object]:
    cached = _RULES_CACHE.get(rules)
    if cached is None:
        cached = _RULES_CACHE[rules] = dataclasses.asdict(rules)
    return cached


def round_dict(scored: RoundScored) -> dict[str, object]:
    """A revealed round (``RoundResult``): everything about it is public now."""
    return {
        "round": scored.round,
        "storyteller": scored.storyteller,
        "clue": scored.clue,
        "storyteller_card": scored.storyteller_card,
        "table": list(scored.table),
        "owners": [{"card": c, "player": p} for c, p in scored.owners],
        "votes": [{"player": p, "card": c} for p, c in scored.votes],
        "outcome": scored.outcome,
        "awards": [
            {"player": a.player, "points": a.points, "reason": a.reason} for a in scored.awards
        ],
        "void": scored.void,
    }


def legal_dict(legal: EngineLegal) -> dict[str, object]:
    return {
        "give_clue": list(legal.give_clue),
        "submit": list(legal.submit),
        "submit_count": legal.submit_count,
        "vote": list(legal.vote),
        "max_clue_length": legal.max_clue_length,
        "vote_count": legal.vote_count,
        "void": list(legal.void),
    }


def view_dict(
    view: PlayerView, *, with_rounds: bool = True, legal: EngineLegal | None = None
) -> dict[str, object]:
    """A ``GameView``; ``with_rounds=False`` leaves ``rounds`` empty (the caller splices in a
    cached copy), ``legal`` overrides the legal actions."""
    return {**seat_dict(view, legal), **shared_view_dict(view, with_rounds=with_rounds)}


def seat_dict(seat: SeatView | PlayerView, legal: EngineLegal | None = None) -> dict[str, object]:
    """The fields of a ``GameView`` only its viewer sees (``legal`` overrides theirs)."""
    return {
        "viewer": seat.viewer,
        "hand": None if seat.hand is None else list(seat.hand),
        "my_cards": list(seat.my_cards),
        "my_vote": seat.my_vote,
        "my_second_vote": seat.my_second_vote,
        "my_void": seat.my_void,
        "partner_hand": None if seat.partner_hand is None else list(seat.partner_hand),
        "legal": legal_dict(seat.legal if legal is None else legal),
    }


def shared_view_dict(view: PlayerView, *, with_rounds: bool = True) -> dict[str, object]:
    """The fields of a ``GameView`` every viewer sees alike (:func:`seat_dict` has the rest)."""
    return {
        "version": view.version,
        "rules": rules_dict(view.rules),
        "players": list(view.players),
        "phase": view.phase.value,
        "round": view.round,
        "storyteller": view.storyteller,
        "clue": view.clue,
        "table": list(view.table),
        "acted": list(view.acted),
        "waiting_for": list(view.waiting_for),
        "scores": dict(view.scores),
        "pile_count": view.pile_count,
        "discard_count": view.discard_count,
        "rounds": [round_dict(r) for r in view.rounds] if with_rounds else [],
        "winners": list(view.winners),
        "end_reason": view.end_reason,
    }


def redact_dict(event: Event, viewer: str | None) -> dict[str, object]:
    """``event`` as ``viewer`` (a seat id, or None for a spectator) may see it, as wire JSON."""
    if isinstance(event, GameStarted):
        return {
            "type": "GameStarted",
            "rules": rules_dict(event.rules),
            "players": list(event.players),
            "pile_count": len(event.pile),
        }
    if isinstance(event, CardsDrawn):
        return {
            "type": "CardsDrawn",
            "draws": [
                {"player": p, "count": len(cards), "cards": list(cards) if p == viewer else None}
                for p, cards in event.draws
            ],
        }
    if isinstance(event, RoundStarted):
        return {"type": "RoundStarted", "round": event.round, "storyteller": event.storyteller}
    if isinstance(event, ClueGiven):
        mine = viewer is not None and event.storyteller == viewer
        return {
            "type": "ClueGiven",
            "storyteller": event.storyteller,
            "clue": event.clue,
            "card": event.card if mine else None,
        }
    if isinstance(event, CardsSubmitted):
        mine = viewer is not None and event.player == viewer
        return {
            "type": "CardsSubmitted",
            "player": event.player,
            "count": len(event.cards),
            "cards": list(event.cards) if mine else None,
        }
    if isinstance(event, TableLaid):
        return {"type": "TableLaid", "cards": list(event.cards)}
    if isinstance(event, VoteCast):
        mine = viewer is not None and event.player == viewer
        return {
            "type": "VoteCast",
            "player": event.player,
            "card": event.card if mine else None,
            "second": event.second if mine else None,
        }
    if isinstance(event, CardVoided):
        mine = viewer is not None and event.storyteller == viewer
        return {
            "type": "CardVoided",
            "storyteller": event.storyteller,
            "card": event.card if mine else None,
        }
    if isinstance(event, HandsPassed):
        return {"type": "HandsPassed"}
    if isinstance(event, RoundScored):
        return {"type": "RoundScored", "result": round_dict(event)}
    if isinstance(event, PileReshuffled):
        return {"type": "PileReshuffled", "pile_count": len(event.pile)}
    if isinstance(event, GameEnded):
        return {"type": "GameEnded", "winners": list(event.winners), "reason": event.reason}
    raise TypeError(f"no redaction for {type(event).__name__}")


# Events whose wire form depends on the viewer; every other event is the same for everyone and
# is built once per broadcast (:func:`shared_event_dicts`).
VIEWER_DEPENDENT = (CardsDrawn, ClueGiven, CardsSubmitted, VoteCast, CardVoided)


def shared_event_dicts(events: Sequence[Event]) -> list[dict[str, object] | None]:
    """For each event: its wire dict when every viewer sees the same, else None."""
    return [None if isinstance(e, VIEWER_DEPENDENT) else redact_dict(e, None) for e in events]


def to_json(value: Any) -> str:
    """Compact JSON text, as ``json.dumps(value, separators=(",", ":"), ensure_ascii=False)``.

    orjson is several times faster; what it refuses (a lone surrogate in a clue, an integer
    beyond 64 bits) goes through the standard library instead, with the same result.
    """
    try:
        return orjson.dumps(value).decode()
    except (TypeError, UnicodeDecodeError):  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def ack_json(command_id: str, version: int, duplicate: bool) -> str:
    """``Ack(id=…, version=…, duplicate=…).model_dump_json()``, without building the model."""
    return to_json(
        {
            "type": "ack",
            "v": m.PROTOCOL_VERSION,
            "id": command_id,
            "version": version,
            "duplicate": duplicate,
        }
    )


def error_json(command_id: str | None, code: str, message: str) -> str:
    """``Error(id=…, code=…, message=…).model_dump_json()``; never raises: a code the enum
    lacks (tests keep the enum complete) is sent as it is rather than losing the answer."""
    return to_json(
        {
            "type": "error",
            "v": m.PROTOCOL_VERSION,
            "id": command_id,
            "code": code,
            "message": message,
        }
    )
