"""Server-side rejections: a stable code (:class:`~dixit.protocol.codes.ErrorCode`), a message
for people, an HTTP status for the lobby API. Like the engine's and the protocol's errors, a
:class:`~dixit.engine.CodedError`."""

from __future__ import annotations

from dixit.engine import CodedError
from dixit.protocol.codes import ErrorCode


class ServerError(CodedError):
    def __init__(self, code: ErrorCode, message: str, status: int = 400) -> None:
        super().__init__(code, message)
        self.code: ErrorCode = code
        self.status = status
