"""Every lobby API failure answers ``ApiError`` ``{code, message}`` with a 4xx status.

A body FastAPI cannot validate (not JSON, not UTF-8, NaN or infinities, lone surrogates, the
wrong shape) is ``request/malformed`` 422, its message naming where and what but never echoing
the client's values (which may not even be sendable). A JSON body over
:data:`MAX_BODY_BYTES` is ``limit/body_too_large`` 413 before it is read in full. A
storage failure is its ``store/…`` code with 503 (try again later); a room another process
kept changing, ``server/conflict`` 409. Anything else unexpected is ``server/internal`` 500, logged.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dixit.protocol.codes import ErrorCode
from dixit.protocol.messages import ApiError
from dixit.storage import StorageError, VersionConflict

from .errors import ServerError

log = logging.getLogger("dixit.server")

MAX_BODY_BYTES = 64 * 1024
UPLOAD_PATHS = re.compile(r"/api/decks(/[^/]+/cards)?")  # uploads have their own limit
_HTTP_CODES = {404: ErrorCode.REQUEST_NOT_FOUND, 405: ErrorCode.METHOD_NOT_ALLOWED}
# The statuses a lobby route may answer with an ApiError (for the OpenAPI description).
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ApiError} for status in (400, 403, 404, 409, 413, 422, 429, 503)
}


def api_error(code: ErrorCode, message: str, status: int) -> JSONResponse:
    return JSONResponse({"code": code.value, "message": message}, status)


def _where(loc: tuple[object, ...]) -> str:
    text = ".".join(str(p) for p in loc if p != "body") or "body"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")[:60]


def describe(error: RequestValidationError) -> str:
    parts = []
    for item in list(error.errors())[:3]:
        parts.append(f"{_where(tuple(item.get('loc', ())))}: {item.get('msg', 'invalid')}")
    return "; ".join(parts) or "invalid request"


class BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes (uploads excepted).

    Lobby bodies are small, so the body is read here in full (up to the limit) and handed on."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (
            scope["method"] == "POST" and UPLOAD_PATHS.fullmatch(scope["path"])
        ):
            await self.app(scope, receive, send)
            return
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                response = api_error(
                    ErrorCode.BODY_TOO_LARGE, f"a request body has at most {self.limit} bytes", 413
                )
                await response(scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        handed = False

        async def replay() -> Message:
            nonlocal handed
            if handed:
                return await receive()
            handed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def install(app: FastAPI) -> None:
    """The exception handlers and the body limit."""

    @app.exception_handler(ServerError)
    async def server_error(request: Request, error: ServerError) -> JSONResponse:
        return api_error(error.code, error.message, error.status)

    @app.exception_handler(StorageError)
    async def storage_error(request: Request, error: StorageError) -> JSONResponse:
        log.warning("%s %s: %s", request.method, request.url.path, error)
        return JSONResponse({"code": error.code, "message": error.message}, 503)

    @app.exception_handler(VersionConflict)
    async def conflict(request: Request, error: VersionConflict) -> JSONResponse:
        return api_error(ErrorCode.CONFLICT, "the room kept changing; try again", 409)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        return api_error(ErrorCode.REQUEST_MALFORMED, describe(error), 422)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        if error.status_code == 400:  # FastAPI's "error parsing the body": bytes, not JSON text
            return api_error(ErrorCode.REQUEST_MALFORMED, "the body is not JSON text", 422)
        code = _HTTP_CODES.get(error.status_code, ErrorCode.REQUEST_MALFORMED)
        return api_error(code, str(error.detail)[:200], error.status_code)

    @app.exception_handler(Exception)
    async def internal(request: Request, error: Exception) -> JSONResponse:
        log.exception("%s %s failed", request.method, request.url.path)
        return api_error(ErrorCode.INTERNAL, "the server failed; nothing changed", 500)

    app.add_middleware(BodyLimit)
