"""Server-side rejections: a stable code (:class:`~dixit.protocol.codes.ErrorCode`), a message
for people, an HTTP status for the lobby API."""

from __future__ import annotations

from dixit.protocol.codes import ErrorCode


class ServerError(Exception):
    def __init__(self, code: ErrorCode, message: str, status: int = 400) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status
