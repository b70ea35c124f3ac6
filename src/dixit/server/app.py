"""The ASGI application: lobby HTTP API, room WebSockets, card images, the web client."""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import Response

from dixit.ops.observe import ServerMetrics, timed_store
from dixit.protocol import messages as m
from dixit.protocol.schema import protocol_schema
from dixit.pubsub import open_presence, open_pubsub
from dixit.storage import open_store

from . import http_errors
from .cards import card_source
from .config import ServerConfig
from .deck_routes import Seats, add_deck_routes
from .health_routes import add_health_routes
from .http_errors import ERRORS
from .hub import Hub
from .limits import Limiter
from .public_rooms import add_table_routes
from .retention import sweep_forever
from .security import Guard, socket_admission
from .services import Services
from .static import ClientFiles
from .tokens import held_for
from .websocket import STATE_KEY, room_endpoint
from .ws import room_socket

log = logging.getLogger("dixit.server")


def create_app(config: ServerConfig) -> FastAPI:
    state: dict[str, Hub] = {}
    metrics = ServerMetrics()
    refused = metrics.registry.counter(
        "dixit_rate_limited_total",
        "Requests, socket connects and hellos refused with limit/rate, per route",
    )
    limiter = Limiter(config.rate_limits, lambda route: refused.inc(labels=(("route", route),)))
    _export_limits(metrics, limiter)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[dict[str, Any]]:
        store = open_store(config.database)
        await store.open()
        pubsub = open_pubsub(config.pubsub)
        await pubsub.open()
        presence = open_presence(config.pubsub)  # who is connected, shared like the fan-out
        await presence.open()
        services = Services(
            config=config,
            store=timed_store(store, metrics),
            cards=card_source(config.data_dir),
            pubsub=pubsub,
            origin=secrets.token_hex(6),
            presence=presence,
        )
        hub = Hub(services)
        metrics.live_rooms = lambda: len(hub.rooms)
        metrics.gc.install()
        await hub.start()
        state["hub"] = hub
        warm_up = asyncio.get_running_loop().create_task(_warm_up())
        # One process of several sweeps the shared store (:mod:`.retention`).
        sweeper = (
            asyncio.get_running_loop().create_task(
                sweep_forever(
                    services.store, config.retention, hub.rooms.__contains__, services.cards
                )
            )
            if config.worker == 1
            else None
        )
        try:
            # Room sockets (/ws/{code}) are served by the transport of dixit.infra, which
            # finds what to run on them in the lifespan's state (:mod:`.websocket`).
            sockets = room_endpoint(
                hub,
                metrics,
                room_socket,
                admit=socket_admission(limiter, config.allowed_origins),
                hello_wait=lambda client: limiter.check("hello", client),
            )
            yield {STATE_KEY: sockets}
        finally:
            warm_up.cancel()
            if sweeper is not None:
                sweeper.cancel()
            metrics.gc.remove()
            rooms = list(hub.rooms.values())
            await hub.stop()
            # Leases given back and presence left before the store and Redis go.
            await asyncio.gather(
                *(room.driver.released() for room in rooms),
                *(room.attendance.left() for room in rooms),
                return_exceptions=True,
            )
            await presence.close()
            await pubsub.close()
            await store.close()

    app = FastAPI(
        title="Dixit",
        version=f"protocol {m.PROTOCOL_VERSION}",
        summary="Lobby API of the Dixit game server. Play happens on /ws/{code}: see "
        "docs/protocol.md and /api/protocol/schema.",
        lifespan=lifespan,
        # No OpenTelemetry here (/metrics is ours): FastAPI's check for it cost every request
        # about 7 µs of CPU (a third of a refused one's; docs/benchmarks.md, flood campaign).
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    client = ClientFiles(config.client_dir)

    def hub() -> Hub:
        return state["hub"]

    http_errors.install(app)
    app.add_middleware(Guard, limiter=limiter)  # outermost: refused before a body is read

    @app.post("/api/rooms", response_model=m.SeatTicket, responses=ERRORS, tags=["rooms"])
    async def create_room(body: m.CreateRoomRequest) -> m.SeatTicket:
        """Create a room; the creator gets the first seat and is its host."""
        _, ticket = await hub().create(body)
        return ticket

    @app.post(
        "/api/rooms/{code}/join", response_model=m.SeatTicket, responses=ERRORS, tags=["rooms"]
    )
    async def join_room(code: str, body: m.JoinRoomRequest, seats: Seats = None) -> m.SeatTicket:
        """Take a seat (in the lobby) with a name and a rabbit colour."""
        return await hub().join(code, body, held_for(seats, code))

    @app.post(
        "/api/rooms/{code}/spectate", response_model=m.SeatTicket, responses=ERRORS, tags=["rooms"]
    )
    async def spectate_room(code: str, seats: Seats = None) -> m.SeatTicket:
        """A token to watch the room (no hand is ever shown to it)."""
        return await hub().spectate(code, held_for(seats, code))

    @app.get("/api/rooms/{code}", response_model=m.RoomState, responses=ERRORS, tags=["rooms"])
    async def room_info(code: str) -> m.RoomState:
        """The public state of a room: seats, host, status, settings."""
        room = await hub().require(code)
        return room.room_state()

    add_table_routes(app, hub)

    add_deck_routes(app, hub)

    @app.get("/api/protocol/schema", tags=["protocol"])
    async def schema() -> dict[str, Any]:
        """The JSON Schema of every WebSocket message (also docs/protocol.schema.json)."""
        return protocol_schema()

    add_health_routes(app, hub, metrics)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return client.response("")

    @app.get("/{path:path}", include_in_schema=False)
    async def spa(path: str) -> Response:
        return client.response(path)

    return app


async def _warm_up() -> None:
    """Import the computer players (``dixit.bots`` with numpy: 0.3 s of CPU) in a thread
    once the server is up. A restart answers ``/api/health`` without them (no request needs
    them before a computer player moves, and autoplay imports them where it does), and the
    first such move after a restart seldom waits for them. What they made is frozen out of
    the collector's sight like the rest of start-up (``Hub.start``)."""
    await asyncio.to_thread(importlib.import_module, "dixit.bots")
    gc.freeze()


def _export_limits(metrics: ServerMetrics, limiter: Limiter) -> None:
    """Each rate-limited route's rate, and how many clients it tracks, on ``/metrics``."""
    r = metrics.registry
    rates = limiter.limits.rates
    on = limiter.limits.enabled
    r.gauge(
        "dixit_rate_limit_burst",
        "Requests a client may make at once, per rate-limited route (0: limits off)",
        lambda: [((("route", k),), float(v.burst if on else 0)) for k, v in rates.items()],
    )
    r.gauge(
        "dixit_rate_limit_per_minute",
        "Requests a client may make a minute after its burst, per route (0: limits off)",
        lambda: [((("route", k),), v.per_minute if on else 0.0) for k, v in rates.items()],
    )
    r.gauge(
        "dixit_rate_limit_clients",
        "Client addresses with a bucket, per route",
        lambda: [((("route", k),), float(limiter.clients(k))) for k in rates],
    )
