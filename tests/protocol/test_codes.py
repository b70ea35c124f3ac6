"""One enum of codes: complete (the engine's too), exported in the schema, documented."""

from __future__ import annotations

from pathlib import Path

from dixit.engine import CodedError
from dixit.engine import errors as engine_errors
from dixit.protocol import ProtocolError
from dixit.protocol.codes import DESCRIPTIONS, ErrorCode, NoticeCode
from dixit.protocol.codes_doc import codes_markdown, with_codes
from dixit.protocol.schema import protocol_schema
from dixit.server.errors import ServerError

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_every_engine_code_is_in_the_enum() -> None:
    engine = {c.value for c in engine_errors.Code}
    assert engine, "the engine's codes were not found"
    assert engine <= {c.value for c in ErrorCode}, engine - {c.value for c in ErrorCode}


def test_codes_are_namespaced_unique_and_described() -> None:
    values = [c.value for c in ErrorCode] + [c.value for c in NoticeCode]
    assert len(values) == len(set(values))
    for value in values:
        namespace, _, what = value.partition("/")
        assert namespace and what and value == value.lower(), value
    assert set(DESCRIPTIONS) == set(ErrorCode) | set(NoticeCode)


def test_the_schema_exports_both_enums_on_the_messages_that_carry_them() -> None:
    defs = protocol_schema()["$defs"]
    assert defs["ErrorCode"]["enum"] == [c.value for c in ErrorCode]
    assert defs["NoticeCode"]["enum"] == [c.value for c in NoticeCode]
    for name in ("Error", "Closed", "ApiError"):
        assert defs[name]["properties"]["code"] == {"$ref": "#/$defs/ErrorCode"}, name
    assert defs["Notice"]["properties"]["code"] == {"$ref": "#/$defs/NoticeCode"}


def test_the_protocol_doc_lists_every_code_as_generated() -> None:
    doc = PROTOCOL_DOC.read_text("utf-8")
    assert with_codes(doc) == doc, (
        "docs/protocol.md's code table is stale: "
        "run `.venv/bin/python -m dixit.protocol.codes_doc --write docs/protocol.md`"
    )
    for code in [*ErrorCode, *NoticeCode]:
        assert f"`{code.value}`" in codes_markdown()


def test_one_coded_error_base_for_engine_protocol_and_server() -> None:
    for error in (
        engine_errors.GameError(engine_errors.Code.GAME_OVER, "over"),
        ProtocolError(ErrorCode.MALFORMED, "bad"),
        ServerError(ErrorCode.ROOM_FULL, "full", 409),
    ):
        assert isinstance(error, CodedError)
        assert error.code in {c.value for c in ErrorCode} and error.message
