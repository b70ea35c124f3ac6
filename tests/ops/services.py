"""A PostgreSQL and a Redis server of a test's own, on free ports in a temporary directory, so a
test can stop and restart them without touching the machine's shared services (or other
tests). ``None`` from :func:`postgres_missing` / :func:`redis_missing` means the binaries are
there; otherwise the reason a test skips."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

PG_BINS = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
REDIS_SERVER = shutil.which("redis-server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, up: bool, timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                if up:
                    return
        except OSError:
            if not up:
                return
        time.sleep(0.02)
    raise TimeoutError(f"port {port} still {'down' if up else 'up'} after {timeout_s} s")


def postgres_missing() -> str | None:
    if not PG_BINS or not os.path.exists(f"{PG_BINS[-1]}/initdb"):
        return "no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt postgresql)"
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and no 'postgres' user to run initdb as"
    return None


def redis_missing() -> str | None:
    return None if REDIS_SERVER else "no redis-server on PATH (apt redis-server)"


class OwnPostgres:
    """``initdb`` + ``pg_ctl`` in a fresh directory of /tmp (pytest's are closed to the
    postgres user); trust authentication, user postgres, database postgres."""

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="dixit-pg-"))
        self.data = self.root / "pgdata"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root
            shutil.chown(self.root, "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]
        self._bin = PG_BINS[-1]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self._as, f"{self._bin}/{tool}", *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off"
        )
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        wait_port(self.port, up=False)

    def destroy(self) -> None:
        subprocess.run(
            [*self._as, f"{self._bin}/pg_ctl", "-D", str(self.data), "-m", "immediate", "stop"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(self.root, ignore_errors=True)


class OwnRedis:
    """A ``redis-server`` with no persistence (a restart loses everything, like a crash)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self._proc = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_port(self.port, up=True)

    def pause(self) -> None:
        """SIGSTOP: connections stay open, nothing answers."""
        assert self._proc is not None
        self._proc.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self._proc is not None
        self._proc.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            self._proc.wait(10)
            self._proc = None
        wait_port(self.port, up=False)


def server_module(stem: str) -> Any:
    """tests/server/STEM.py, loaded by path: test packages are not importable from one another
    in pytest's importlib mode."""
    name = f"dixit_tests_server_{stem}"
    if name not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "server" / f"{stem}.py"
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def server_harness() -> Any:
    """tests/server/harness.py: real ``dixit serve`` processes and socket clients."""
    return server_module("harness")
