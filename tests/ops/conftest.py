from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .services import OwnPostgres, OwnRedis, postgres_missing, redis_missing


@pytest.fixture
def own_postgres() -> Iterator[OwnPostgres]:
    """A running PostgreSQL server of this test's own (the test may stop and start it)."""
    reason = postgres_missing()
    if reason:
        pytest.skip(reason)
    server = OwnPostgres()
    try:
        server.start()
        yield server
    finally:
        server.destroy()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A running redis-server of this test's own (the test may stop and start it)."""
    reason = redis_missing()
    if reason:
        pytest.skip(reason)
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.stop()
