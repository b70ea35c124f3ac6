"""What an open room socket costs a real ``dixit serve``: resident memory per socket.

Starts ``dixit serve`` (SQLite in a temporary directory), creates ``--sockets / 4`` lobby
rooms of four seats over HTTP, reads the server's RSS, then opens every seat's WebSocket,
says ``hello`` and reads what the server sends, and reads the RSS again: the difference per
socket is the WebSocket layer's, the socket's ``Connection`` and its handler's (the rooms were
loaded before the first reading). Loopback only.

    .venv/bin/python bench/sockets.py --sockets 2000
    PYTHONPATH=/other/checkout/src .venv/bin/python bench/sockets.py   # another build's server
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return dict(json.loads(answer.read()))


def _masked_text(payload: bytes) -> bytes:
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    n = len(payload)
    head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
    return head + mask + body


async def _open(port: int, ticket: dict[str, Any]) -> tuple[Any, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /ws/{ticket['code']} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await reader.readuntil(b"\r\n\r\n")
    hello = {"type": "hello", "v": 1, "token": ticket["token"]}
    writer.write(_masked_text(json.dumps(hello).encode()))
    return reader, writer


async def _drain(reader: Any) -> None:
    try:
        while await asyncio.wait_for(reader.read(65536), 0.5):
            pass
    except (TimeoutError, ConnectionError):
        pass


async def run(args: argparse.Namespace) -> dict[str, Any]:
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="dixit-sockets-") as tmp:
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "dixit.cli.main", "serve", "--port", str(port)),
                *("--rate-limits", "off"),
                *("--database", f"sqlite:///{tmp}/bench.sqlite3", "--log-level", "warning"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=dict(os.environ, DIXIT_DATA_DIR=tmp),
        )
        try:
            for _ in range(300):
                try:
                    urllib.request.urlopen(f"{base}/api/health", timeout=1)
                    break
                except OSError:
                    time.sleep(0.1)
            tickets: list[dict[str, Any]] = []
            for _ in range(args.sockets // 4):
                host = _post(base, "/api/rooms", {"name": "Ann"})
                tickets.append(host)
                for name in ("Bo", "Cy", "Di"):
                    tickets.append(_post(base, f"/api/rooms/{host['code']}/join", {"name": name}))
            await asyncio.sleep(1.0)
            before = _rss_kib(server.pid)
            links = []
            for start in range(0, len(tickets), 200):
                batch = tickets[start : start + 200]
                links += await asyncio.gather(*(_open(port, t) for t in batch))
            for _ in range(3):
                await asyncio.gather(*(_drain(reader) for reader, _ in links))
            after = _rss_kib(server.pid)
            for _, writer in links:
                writer.close()
        finally:
            server.terminate()
            server.wait(30)
    return {
        "sockets": len(tickets),
        "rss_mib_rooms_loaded": round(before / 1024, 1),
        "rss_mib_sockets_open": round(after / 1024, 1),
        "kib_per_socket": round((after - before) / len(tickets), 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=2000)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(json.dumps(asyncio.run(run(args))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
