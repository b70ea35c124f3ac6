"""Seat tokens and room codes, and the header by which a browser says which seats it holds."""

from __future__ import annotations

import hashlib
import secrets

# No vowels (no words), no look-alikes (0/O, 1/I/L, 5/S): easy to read out across a table.
CODE_ALPHABET = "BCDFGHJKMNPQRTVWXZ2346789"
CODE_LENGTH = 6


def new_token() -> str:
    """192 random bits, URL-safe: the only key to a seat."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the server keeps: a leaked database does not hand out seats."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_room_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(code: str) -> str:
    return code.strip().upper()


SEATS_HEADER = "x-dixit-seats"
MAX_SEATS = 16  # seats read from one header: a browser keeps a few


def seats_in(header: str | None) -> list[tuple[str, str]]:
    """``(code, token)`` pairs of an ``X-Dixit-Seats: CODE:TOKEN, CODE:TOKEN`` header (at most
    :data:`MAX_SEATS`). Tokens travel in a header, never in a URL, where logs would keep them."""
    pairs = []
    for item in (header or "").split(",")[:MAX_SEATS]:
        code, _, token = item.strip().partition(":")
        if code and token:
            pairs.append((normalise_code(code), token))
    return pairs


def held_for(header: str | None, code: str) -> frozenset[str]:
    """The hashes of the tokens a request's ``X-Dixit-Seats`` shows for room ``code``."""
    code = normalise_code(code)
    return frozenset(token_hash(t) for c, t in seats_in(header) if c == code)
