"""Health and metrics: liveness, readiness (each dependency answers now) and Prometheus text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response

from dixit.ops.health import check_dependencies
from dixit.ops.metrics import CONTENT_TYPE
from dixit.ops.observe import ServerMetrics

from .hub import Hub


def add_health_routes(app: FastAPI, hub: Callable[[], Hub], metrics: ServerMetrics) -> None:
    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        """Liveness (as /api/health/live), with the number of rooms held."""
        return {"ok": True, "live": True, "rooms": len(hub().rooms)}

    @app.get("/api/health/live", tags=["server"])
    async def live() -> dict[str, Any]:
        """The process answers: restart it only when this fails."""
        return {"live": True}

    async def dependencies() -> dict[str, str | None]:
        services = hub().services
        found = await check_dependencies(
            {"store": services.store.check, "pubsub": services.pubsub.check}
        )
        for name, problem in found.items():
            metrics.dependency_up.set(0.0 if problem else 1.0, (("dependency", name),))
        return found

    @app.get("/api/health/ready", tags=["server"], responses={503: {"description": "not ready"}})
    async def ready(response: Response) -> dict[str, Any]:
        """Ready for players: the event store and the fan-out answer now. 503 names the
        dependency that does not (send no new players here meanwhile)."""
        found = await dependencies()
        ok = not any(found.values())
        response.status_code = 200 if ok else 503
        return {"ready": ok, "dependencies": {k: v or "ok" for k, v in found.items()}}

    @app.get("/metrics", tags=["server"], include_in_schema=False)
    async def prometheus() -> Response:
        """Prometheus text format: rooms, sockets, commands, latency, store, GC, dependencies."""
        await dependencies()
        return Response(metrics.render(), media_type=CONTENT_TYPE)
