"""The checked-in JSON Schema is what the code exports, and messages round-trip through it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dixit.protocol import ProtocolError, parse_client_message
from dixit.protocol import messages as m
from dixit.protocol.schema import protocol_schema, schema_text

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "docs" / "protocol.schema.json"
PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_checked_in_schema_is_current() -> None:
    assert SCHEMA_FILE.read_text("utf-8") == schema_text(), (
        "docs/protocol.schema.json is stale: "
        "run `.venv/bin/python -m dixit.protocol.schema > docs/protocol.schema.json`"
    )


def test_schema_export_is_deterministic() -> None:
    assert schema_text() == schema_text()


def test_every_message_type_is_in_the_schema_and_the_doc() -> None:
    defs = protocol_schema()["$defs"]
    doc = PROTOCOL_DOC.read_text("utf-8")
    client = defs["ClientMessage"]["discriminator"]["mapping"]
    server = defs["ServerMessage"]["discriminator"]["mapping"]
    assert set(client) == set(m.CLIENT_MESSAGE_TYPES)
    for kind in [*client, *server]:
        assert f"`{kind}`" in doc, f"docs/protocol.md does not document {kind!r}"
    for definition in defs.values():
        if "const" in definition.get("properties", {}).get("type", {}):
            assert "type" in definition["required"]


def test_client_messages_parse() -> None:
    msg = parse_client_message(json.dumps({"type": "cast_vote", "id": "a1", "card": "c"}))
    assert isinstance(msg, m.CastVote) and msg.card == "c"
    hello = parse_client_message('{"type": "hello", "v": 1, "token": "t", "since": 4}')
    assert isinstance(hello, m.Hello) and hello.since == 4


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "command/malformed"),
        ("[1, 2]", "command/malformed"),
        ('{"type": "fly"}', "command/unknown_type"),
        ('{"id": "x"}', "command/unknown_type"),
        ('{"type": "cast_vote", "id": "x"}', "command/malformed"),
        ('{"type": "cast_vote", "id": "x", "card": "c", "extra": 1}', "command/malformed"),
        ('{"type": "cast_vote", "id": "x", "card": 5}', "command/malformed"),
        ('{"type": "cast_vote", "v": 2, "id": "x", "card": "c"}', "command/schema_version"),
        ('{"type": "set_profile", "id": "x", "name": "' + "n" * 40 + '"}', "command/malformed"),
        ('{"type": "set_profile", "id": "x", "colour": "mauve"}', "command/malformed"),
        ('{"type": "ping", "id": "' + "x" * 20000 + '"}', "limit/message_too_large"),
    ],
)
def test_bad_messages_get_a_clear_code(text: str, code: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        parse_client_message(text)
    assert raised.value.code == code
    assert raised.value.message


def test_rejection_echoes_the_command_id_when_it_can() -> None:
    with pytest.raises(ProtocolError) as raised:
        parse_client_message('{"type": "cast_vote", "id": "abc"}')
    assert raised.value.command_id == "abc"
