"""``dixit serve`` with its defaults, and the limits: rate, rooms per process, uploads."""

from __future__ import annotations

import asyncio
import io
import os
import subprocess
import sys
import time
import urllib.request
import uuid
import zipfile
from pathlib import Path

from .harness import Client, ServerProcess, create_room, free_port, http


def test_serve_defaults_to_sqlite_in_the_data_dir_and_prints_the_url(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, DIXIT_DATA_DIR=str(tmp_path / "data"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "dixit.cli.main", "serve", "--port", str(port),
         "--log-level", "warning"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode()
        assert f"http://localhost:{port}/" in line
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not come up"
                time.sleep(0.1)
        ticket = create_room(f"http://127.0.0.1:{port}", "Ann")
        assert len(ticket["token"]) >= 32  # ≥ 128 bits, URL-safe base64
        assert (tmp_path / "data" / "dixit.sqlite3").is_file()
    finally:
        proc.terminate()
        proc.wait(20)
        if proc.stdout is not None:
            proc.stdout.close()


def test_rate_limit_answers_and_keeps_the_connection(server: ServerProcess) -> None:
    async def main() -> None:
        client = Client(server.ws_base, create_room(server.base, "Ann"))
        await client.connect()
        for i in range(80):
            await client.send({"type": "ping", "id": f"p{i}"})
        await client.drain(1.0)
        codes = [m.get("code") for m in client.inbox if m["type"] == "error"]
        assert "limit/rate" in codes
        assert sum(m["type"] == "pong" for m in client.inbox) >= 30
        await asyncio.sleep(1.0)
        await client.send({"type": "ping", "id": "after"})
        pong = await client.until(lambda m: m["type"] == "pong")
        assert pong["id"] == "after"
        await client.close()

    asyncio.run(main())


def test_rooms_per_process_are_limited(tmp_path: Path) -> None:
    proc = ServerProcess(database="memory://", workdir=tmp_path, extra=("--max-rooms", "2"))
    proc.start()
    try:

        async def main() -> None:
            # Live rooms count (an idle one would make way: tests/server/test_unload.py).
            clients = [Client(proc.ws_base, create_room(proc.base)) for _ in "ab"]
            for client in clients:
                await client.connect()
            status, answer = http(proc.base, "POST", "/api/rooms", {"name": "Cy"})
            assert status == 503 and answer["code"] == "limit/rooms"
            for client in clients:
                await client.close()

        asyncio.run(main())
    finally:
        proc.stop()


def _multipart(fields: dict[str, str], filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = []
    for name, value in fields.items():
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
        )
    head = "".join(parts).encode()
    head += (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
        "Content-Type: application/zip\r\n\r\n"
    ).encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), boundary


def test_only_a_host_imports_a_deck(server: ServerProcess) -> None:
    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(3):
            picture = io.BytesIO()
            Image.new("RGB", (400, 600), (40 * i, 90, 160)).save(picture, "PNG")
            zf.writestr(f"card_{i}.png", picture.getvalue())

    def upload(token: str) -> tuple[int, bytes]:
        body, boundary = _multipart(
            {"name": "Our holiday", "token": token}, "deck.zip", archive.getvalue()
        )
        request = urllib.request.Request(
            f"{server.base}/api/decks", data=body, method="POST",
            headers={"Content-Type": f"multipart/form-data; boundary={boundary}"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    status, body = upload("not-a-token")
    assert status == 403 and b"room/not_host" in body
    status, body = upload(create_room(server.base, "Ann")["token"])
    assert status == 200, body
    assert b'"accepted":3' in body.replace(b" ", b"")
