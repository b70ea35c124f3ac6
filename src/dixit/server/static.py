"""The web client's built files (``web/dist``) with an SPA fallback, or a page saying how to
build it."""

from __future__ import annotations

from pathlib import Path

from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

from dixit.protocol.codes import ErrorCode

RESERVED = ("api/", "ws/", "cards/", "docs", "openapi.json", "redoc")

NOT_BUILT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dixit server</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>Dixit server is running</h1>
<p>The web client has not been built: no <code>{index}</code>.</p>
<p>Build it with <code>make web-build</code> (or <code>cd web &amp;&amp; npm ci &amp;&amp;
npm run build</code>) and reload, or start the server with <code>--client-dir</code>.</p>
<p>The lobby API is documented at <a href="/docs">/docs</a>.</p>
</body></html>
"""


class ClientFiles:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    def response(self, path: str) -> Response:
        if path.startswith("api/"):
            answer = {"code": ErrorCode.REQUEST_NOT_FOUND.value, "message": "no such API path"}
            return JSONResponse(answer, status_code=404)
        if path.startswith(RESERVED):
            return Response(status_code=404)
        index = self.root / "index.html"
        if path:
            try:
                candidate = (self.root / path).resolve()
                found = candidate.is_relative_to(self.root) and candidate.is_file()
            except (OSError, ValueError):  # a NUL byte, a name too long for the file system
                return Response(status_code=404)
            if found:
                cache = (
                    "public, max-age=31536000, immutable"
                    if path.startswith("assets/")
                    else "no-cache"
                )
                return FileResponse(candidate, headers={"Cache-Control": cache})
            if "." in path.rsplit("/", 1)[-1]:
                return Response(status_code=404)  # a missing file, not an app route
        if index.is_file():
            return FileResponse(index, headers={"Cache-Control": "no-cache"})
        return HTMLResponse(NOT_BUILT.format(index=index), status_code=200)
