"""Seat tokens and room codes."""

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
