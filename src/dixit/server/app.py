"""The ASGI application: lobby HTTP API, room WebSockets, card images, the web client."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, cast, get_args

from fastapi import FastAPI, File, Form, UploadFile, WebSocket
from fastapi.responses import FileResponse, Response

from dixit.ops.health import check_dependencies
from dixit.ops.metrics import CONTENT_TYPE
from dixit.ops.observe import ServerMetrics, SocketProbe, timed_store
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.protocol.schema import protocol_schema
from dixit.pubsub import open_pubsub
from dixit.storage import open_store

from . import http_errors
from .cards import NotImported, UnknownCard, UnknownDeck, card_source
from .config import ServerConfig
from .errors import ServerError
from .hub import Hub
from .public_rooms import add_table_routes
from .room import Services
from .static import ClientFiles
from .ws import room_socket

log = logging.getLogger("dixit.server")

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": m.ApiError} for status in (400, 403, 404, 409, 413, 422, 503)
}


def create_app(config: ServerConfig) -> FastAPI:
    state: dict[str, Hub] = {}
    metrics = ServerMetrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(config.database)
        await store.open()
        pubsub = open_pubsub(config.pubsub)
        await pubsub.open()
        services = Services(
            config=config,
            store=timed_store(store, metrics),
            cards=card_source(config.data_dir),
            pubsub=pubsub,
            origin=secrets.token_hex(6),
        )
        hub = Hub(services)
        metrics.live_rooms = lambda: len(hub.rooms)
        metrics.gc.install()
        await hub.start()
        state["hub"] = hub
        try:
            yield
        finally:
            metrics.gc.remove()
            await hub.stop()
            await pubsub.close()
            await store.close()

    app = FastAPI(
        title="Dixit",
        version=f"protocol {m.PROTOCOL_VERSION}",
        summary="Lobby API of the Dixit game server. Play happens on /ws/{code}: see "
        "docs/protocol.md and /api/protocol/schema.",
        lifespan=lifespan,
    )
    app.add_middleware(SocketProbe, metrics=metrics)
    client = ClientFiles(config.client_dir)

    def hub() -> Hub:
        return state["hub"]

    http_errors.install(app)

    @app.post("/api/rooms", response_model=m.SeatTicket, responses=ERRORS, tags=["rooms"])
    async def create_room(body: m.CreateRoomRequest) -> m.SeatTicket:
        """Create a room; the creator gets the first seat and is its host."""
        _, ticket = await hub().create(body)
        return ticket

    @app.post(
        "/api/rooms/{code}/join", response_model=m.SeatTicket, responses=ERRORS, tags=["rooms"]
    )
    async def join_room(code: str, body: m.JoinRoomRequest) -> m.SeatTicket:
        """Take a seat (in the lobby) with a name and a rabbit colour."""
        return await hub().join(code, body)

    @app.post(
        "/api/rooms/{code}/spectate", response_model=m.SeatTicket, responses=ERRORS, tags=["rooms"]
    )
    async def spectate_room(code: str) -> m.SeatTicket:
        """A token to watch the room (no hand is ever shown to it)."""
        return await hub().spectate(code)

    @app.get("/api/rooms/{code}", response_model=m.RoomState, responses=ERRORS, tags=["rooms"])
    async def room_info(code: str) -> m.RoomState:
        """The public state of a room: seats, host, status, settings."""
        room = await hub().require(code)
        return room.room_state()

    add_table_routes(app, hub)

    @app.get("/api/decks", response_model=m.DeckList, tags=["decks"])
    async def decks() -> m.DeckList:
        """Every deck with its kind, count, licence and a few cards to preview; built-in first."""
        return m.DeckList(
            decks=[
                m.DeckInfo(
                    slug=d.slug,
                    name=d.name,
                    card_count=d.card_count,
                    kind=d.kind,
                    licence=d.licence,
                    preview=list(d.preview),
                    described=d.described,
                    default=d.default,
                )
                for d in hub().services.cards.decks()
            ]
        )

    @app.get(
        "/api/decks/{slug}/cards", response_model=m.DeckCards, responses=ERRORS, tags=["decks"]
    )
    async def deck_cards(slug: str, lang: str = "en") -> Response:
        """A deck's cards with their words in ``lang`` (it, pl, es, pt, fr, en; fallback
        English) and the credits of illustrated cards. Deck data only; an imported deck's
        captions may change, so it is cached for a short while."""
        if lang not in get_args(m.Language):
            raise ServerError(Code.DECK_BAD_LANGUAGE, f"no language {lang[:8]!r}", 400)
        try:
            words = hub().services.cards.card_words(slug, lang)
        except UnknownDeck:
            raise ServerError(Code.DECK_NOT_FOUND, f"no deck {slug!r}", 404) from None
        body = m.DeckCards(
            slug=slug,
            lang=cast(m.Language, lang),  # checked above
            cards=[
                m.CardText(
                    id=w.id,
                    title=w.title,
                    alt=w.alt,
                    description=w.description,
                    credits=None
                    if w.credits is None
                    else m.CardCredits(
                        artist=w.credits.artist, work=w.credits.work, published=w.credits.published
                    ),
                )
                for w in words
            ],
        )
        return Response(
            body.model_dump_json(),
            media_type="application/json",
            headers={"Cache-Control": "public, max-age=60", "Vary": "Accept-Encoding"},
        )

    @app.post(
        "/api/decks/{slug}/captions", response_model=m.DeckInfo, responses=ERRORS, tags=["decks"]
    )
    async def deck_captions(slug: str, body: m.CaptionsRequest) -> m.DeckInfo:
        """A host describes cards of an imported deck (what computer players and screen
        readers read); an empty caption removes one. Answers the deck as listed."""
        cards = hub().services.cards
        if not hub().host_of_token(body.token):
            raise ServerError(Code.NOT_HOST, "only a room's host can describe cards", 403)
        try:
            await asyncio.to_thread(cards.set_captions, slug, dict(body.captions))
        except UnknownDeck:
            raise ServerError(Code.DECK_NOT_FOUND, f"no deck {slug!r}", 404) from None
        except UnknownCard as missing:
            raise ServerError(
                Code.DECK_UNKNOWN_CARD, f"no card {missing} in {slug!r}", 400
            ) from None
        except NotImported:
            raise ServerError(
                Code.DECK_NOT_IMPORTED, "only imported decks take captions", 409
            ) from None
        for room in list(hub().rooms.values()):
            room.captions_changed(slug)
        info = next(d for d in cards.decks() if d.slug == slug)
        return m.DeckInfo(
            slug=info.slug,
            name=info.name,
            card_count=info.card_count,
            kind="imported",
            licence=info.licence,
            preview=list(info.preview),
            described=info.described,
            default=info.default,
        )

    @app.post("/api/decks", responses=ERRORS, tags=["decks"])
    async def import_deck(
        file: Annotated[UploadFile, File(description="a zip of images, or one image")],
        name: Annotated[str, Form(max_length=60)],
        token: Annotated[str, Form(description="the seat token of a room's host")],
    ) -> dict[str, object]:
        """A host uploads a deck of their own pictures."""
        if not hub().host_of_token(token):
            raise ServerError(Code.NOT_HOST, "only a room's host can import a deck", 403)
        limit = hub().services.config.limits.max_upload_bytes
        data = await file.read(limit + 1)
        if len(data) > limit:
            raise ServerError(Code.UPLOAD_TOO_LARGE, f"at most {limit} bytes", 413)
        try:
            return await hub().services.cards.import_upload(data, file.filename or "upload", name)
        except Exception as error:
            raise ServerError(Code.UNKNOWN_DECK, f"cannot import: {error}") from None

    @app.get("/api/protocol/schema", tags=["protocol"])
    async def schema() -> dict[str, Any]:
        """The JSON Schema of every WebSocket message (also docs/protocol.schema.json)."""
        return protocol_schema()

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

    @app.get("/cards/{card_id}", tags=["decks"], responses={404: {"description": "no such card"}})
    async def card_image(card_id: str) -> Response:
        cards = hub().services.cards
        image = cards.image(card_id)
        if image is None:
            return Response(status_code=404)
        headers = {"Cache-Control": cards.cache_control}
        if image.path is not None:
            return FileResponse(image.path, media_type=image.media_type, headers=headers)
        return Response(image.content or b"", media_type=image.media_type, headers=headers)

    @app.websocket("/ws/{code}")
    async def websocket(ws: WebSocket, code: str) -> None:
        await room_socket(ws, hub(), code)

    @app.get("/", include_in_schema=False)
    async def index() -> Response:
        return client.response("")

    @app.get("/{path:path}", include_in_schema=False)
    async def spa(path: str) -> Response:
        return client.response(path)

    return app
