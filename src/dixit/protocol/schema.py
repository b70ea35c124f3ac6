"""The protocol as one JSON Schema document (all messages under ``$defs``), deterministic.

``python -m dixit.protocol.schema > docs/protocol.schema.json`` regenerates the checked-in copy
the web client builds its TypeScript types from; a test checks it is current.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from . import messages as m

SCHEMA_MODELS: tuple[type[BaseModel], ...] = (
    m.ClientMessage,
    m.ServerMessage,
    m.CreateRoomRequest,
    m.JoinRoomRequest,
    m.SeatTicket,
    m.DeckList,
    m.DeckCards,
    m.CaptionsRequest,
    m.DeckEditRequest,
    m.ApiError,
    m.RoomState,
    m.PublicTableList,
)


def protocol_schema() -> dict[str, Any]:
    _, defs = models_json_schema(
        [(model, "serialization") for model in SCHEMA_MODELS],
        ref_template="#/$defs/{model}",
    )
    for definition in defs["$defs"].values():
        # The discriminator is always sent, by clients too: TypeScript unions need it required.
        props = definition.get("properties", {})
        if "const" in props.get("type", {}):
            required = definition.setdefault("required", [])
            if "type" not in required:
                required.insert(0, "type")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://dixit.invalid/protocol.schema.json",
        "title": f"Dixit wire protocol, version {m.PROTOCOL_VERSION}",
        "description": (
            "WebSocket messages (ClientMessage, ServerMessage) and HTTP lobby bodies. "
            "See docs/protocol.md."
        ),
        "x-protocol-version": m.PROTOCOL_VERSION,
        "$defs": dict(sorted(defs["$defs"].items())),
        "anyOf": [{"$ref": "#/$defs/ClientMessage"}, {"$ref": "#/$defs/ServerMessage"}],
    }


def schema_text() -> str:
    return json.dumps(protocol_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    sys.stdout.write(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
