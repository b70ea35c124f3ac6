from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One real ``dixit serve`` process (SQLite) per test module."""
    workdir: Path = tmp_path_factory.mktemp("server")
    proc = ServerProcess(database=f"sqlite:///{workdir / 'dixit.sqlite3'}", workdir=workdir)
    proc.start()
    yield proc
    proc.stop()
