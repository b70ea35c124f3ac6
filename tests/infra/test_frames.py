"""The frame codec of dixit.infra.frames with bytes only: no socket, no loop. Examples from
RFC 6455 and RFC 7692 where they give them."""

from __future__ import annotations

import os

import pytest

from dixit.infra.frames import (
    FIN,
    INVALID_DATA,
    OP_BINARY,
    OP_CLOSE,
    OP_CONT,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    PROTOCOL_ERROR,
    RSV1,
    TOO_BIG,
    Deflate,
    Fault,
    FrameReader,
    accept_key,
    close_frame,
    frame,
    masked_frame,
    valid_key,
)

MASK = b"\x37\xfa\x21\x3d"  # RFC 6455 §5.7's


class Recorder(FrameReader):
    """A reader that keeps what it was given."""

    __slots__ = ("got",)

    def __init__(self, max_size: int = 1024, deflate: Deflate | None = None) -> None:
        super().__init__(max_size)
        self.deflate = deflate
        self.got: list[tuple[str, object]] = []

    def on_message(self, text: str | None) -> None:
        self.got.append(("message", text))

    def on_ping(self, payload: bytes) -> None:
        self.got.append(("ping", payload))

    def on_pong(self, payload: bytes) -> None:
        self.got.append(("pong", payload))


def test_the_handshake_key_of_the_rfc() -> None:
    assert accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert valid_key("dGhlIHNhbXBsZSBub25jZQ==")
    assert not valid_key("dGhlIHNhbXBsZQ==")  # 11 bytes
    assert not valid_key("not base64!")
    assert not valid_key("ключ")


def test_server_frames_carry_the_length_in_one_of_three_sizes() -> None:
    assert frame(FIN | OP_TEXT, b"Hello") == b"\x81\x05Hello"  # RFC 6455 §5.7
    assert frame(FIN | OP_TEXT, b"x" * 125)[:2] == b"\x81\x7d"
    assert frame(FIN | OP_TEXT, b"x" * 126)[:4] == b"\x81\x7e\x00\x7e"
    assert frame(FIN | OP_BINARY, b"x" * 65535)[:4] == b"\x82\x7e\xff\xff"
    assert frame(FIN | OP_BINARY, b"x" * 65536)[:10] == b"\x82\x7f" + (65536).to_bytes(8, "big")
    assert close_frame(1000) == b"\x88\x02\x03\xe8"
    long_reason = close_frame(1002, "é" * 100)
    assert len(long_reason) == 2 + 125  # a control frame's payload is at most 125 bytes


def test_a_masked_text_frame_of_the_rfc() -> None:
    sent = bytes.fromhex("818537fa213d7f9f4d5158")  # "Hello", masked (RFC 6455 §5.7)
    assert masked_frame(FIN | OP_TEXT, b"Hello", MASK) == sent
    reader = Recorder()
    assert reader.read_frames(sent) is None
    assert reader.got == [("message", "Hello")]


def test_frames_split_anywhere_read_the_same() -> None:
    data = (
        masked_frame(FIN | OP_TEXT, "één".encode(), os.urandom(4))
        + masked_frame(FIN | OP_PING, b"are you there", os.urandom(4))
        + masked_frame(OP_TEXT, b"x" * 200, os.urandom(4))
        + masked_frame(FIN | OP_PONG, b"", os.urandom(4))  # between fragments, as allowed
        + masked_frame(FIN | OP_CONT, b"y" * 70000, os.urandom(4))
        + masked_frame(FIN | OP_BINARY, b"\x00\x01", os.urandom(4))
    )
    expected = [
        ("message", "één"),
        ("ping", b"are you there"),
        ("pong", b""),
        ("message", "x" * 200 + "y" * 70000),
        ("message", None),
    ]
    whole = Recorder(max_size=100_000)
    whole.read_frames(data)
    assert whole.got == expected
    for step in (1, 3, 7, 1000):
        pieces = Recorder(max_size=100_000)
        for at in range(0, len(data), step):
            assert pieces.read_frames(data[at : at + step]) is None
        assert pieces.got == expected


def test_the_close_frame_ends_reading() -> None:
    reader = Recorder()
    data = (
        masked_frame(FIN | OP_TEXT, b"last", MASK)
        + masked_frame(FIN | OP_CLOSE, b"\x03\xe8bye", MASK)
        + masked_frame(FIN | OP_TEXT, b"after the close", MASK)
    )
    assert reader.read_frames(data) == b"\x03\xe8bye"
    assert reader.got == [("message", "last")]
    assert Recorder().read_frames(masked_frame(FIN | OP_CLOSE, b"", MASK)) == b""
    assert Recorder().read_frames(masked_frame(FIN | OP_CLOSE, b"\x0f\xa0", MASK)) == b"\x0f\xa0"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"\x81\x05Hello", PROTOCOL_ERROR),  # not masked
        (masked_frame(FIN | 0x20 | OP_TEXT, b"x", MASK), PROTOCOL_ERROR),  # RSV2
        (masked_frame(FIN | RSV1 | OP_TEXT, b"x", MASK), PROTOCOL_ERROR),  # no deflate agreed
        (masked_frame(FIN | OP_PING, b"x" * 126, MASK), PROTOCOL_ERROR),  # control too long
        (masked_frame(OP_PING, b"x", MASK), PROTOCOL_ERROR),  # control in fragments
        (masked_frame(FIN | RSV1 | OP_PING, b"x", MASK), PROTOCOL_ERROR),
        (masked_frame(FIN | 3, b"x", MASK), PROTOCOL_ERROR),  # reserved opcode
        (masked_frame(FIN | OP_CONT, b"x", MASK), PROTOCOL_ERROR),  # nothing to continue
        (masked_frame(OP_TEXT, b"x", MASK) + masked_frame(FIN | OP_TEXT, b"y", MASK), 1002),
        (masked_frame(FIN | OP_TEXT, b"\xff\xfe", MASK), INVALID_DATA),  # not UTF-8
        (masked_frame(FIN | OP_CLOSE, b"\x03", MASK), PROTOCOL_ERROR),  # half a code
        (masked_frame(FIN | OP_CLOSE, b"\x03\xed", MASK), PROTOCOL_ERROR),  # 1005: never sent
        (masked_frame(FIN | OP_CLOSE, b"\x03\xe8\xff", MASK), INVALID_DATA),
        (masked_frame(FIN | OP_TEXT, b"x" * 1025, MASK), TOO_BIG),
        (masked_frame(OP_TEXT, b"x" * 1000, MASK) + masked_frame(OP_CONT, b"x" * 25, MASK), 1009),
    ],
)
def test_protocol_errors_raise_their_close_code(data: bytes, code: int) -> None:
    with pytest.raises(Fault) as fault:
        Recorder().read_frames(data)
    assert fault.value.code == code


def test_a_frame_announcing_too_much_is_refused_from_its_header() -> None:
    header = b"\x81\xff" + (1 << 40).to_bytes(8, "big") + MASK  # a terabyte, none of it sent
    with pytest.raises(Fault) as fault:
        Recorder().read_frames(header)
    assert fault.value.code == TOO_BIG


def test_per_message_deflate_of_the_rfc_and_back() -> None:
    # RFC 7692 §7.2.3.1: "Hello" compressed, in one frame and in two fragments.
    compressed = bytes.fromhex("f248cdc9c90700")
    reader = Recorder(deflate=Deflate())
    reader.read_frames(masked_frame(FIN | RSV1 | OP_TEXT, compressed, MASK))
    reader.read_frames(
        masked_frame(RSV1 | OP_TEXT, compressed[:3], MASK)
        + masked_frame(FIN | OP_CONT, compressed[3:], MASK)
    )
    assert reader.got == [("message", "Hello"), ("message", "Hello")]
    text = ('{"type":"game","view":' + '"abc",' * 200 + "}").encode()
    packed = Deflate(window_bits=10).compress(text)
    assert len(packed) < len(text) // 10
    again = Recorder(max_size=len(text), deflate=Deflate())
    again.read_frames(masked_frame(FIN | RSV1 | OP_TEXT, packed, MASK))
    assert again.got == [("message", text.decode())]
    with pytest.raises(Fault) as fault:  # small on the wire, over the limit once inflated
        Recorder(max_size=len(text) - 1, deflate=Deflate()).read_frames(
            masked_frame(FIN | RSV1 | OP_TEXT, packed, MASK)
        )
    assert fault.value.code == TOO_BIG
