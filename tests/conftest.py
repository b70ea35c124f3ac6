"""Fixtures shared across test packages."""

from __future__ import annotations

import os

import pytest

REDIS_URL = os.environ.get("DIXIT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_unreachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return None
    except Exception as error:
        return f"Redis not reachable at {REDIS_URL}: {error}"


@pytest.fixture(params=["memory", "redis"])
def pubsub_url(request: pytest.FixtureRequest) -> str:
    """Each test once in memory and once on the real Redis (skipped, with the reason, if
    Redis cannot be reached)."""
    if request.param == "memory":
        return "memory://"
    reason = _redis_unreachable()
    if reason:
        pytest.skip(reason)
    return REDIS_URL
