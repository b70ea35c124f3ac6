"""Readiness: every dependency checked at once, each within a time limit."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

Check = Callable[[], Awaitable[None]]


async def check_dependencies(
    checks: Mapping[str, Check], timeout_s: float = 2.0
) -> dict[str, str | None]:
    """``{name: None}`` for each dependency that answered, else ``{name: "code: reason"}``."""

    async def one(check: Check) -> str | None:
        try:
            await asyncio.wait_for(check(), timeout_s)
        except TimeoutError:
            return f"timeout: no answer within {timeout_s:g} s"
        except Exception as error:
            code = getattr(error, "code", type(error).__name__)
            return f"{code}: {getattr(error, 'message', str(error))}"
        return None

    names = list(checks)
    results = await asyncio.gather(*(one(checks[n]) for n in names))
    return dict(zip(names, results, strict=True))
