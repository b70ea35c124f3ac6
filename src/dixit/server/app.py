"""The ASGI application: lobby HTTP API, room WebSockets, card images, the web client."""

from __future__ import annotations

import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, File, Form, Request, UploadFile, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response

from dixit.protocol import messages as m
from dixit.protocol.schema import protocol_schema
from dixit.pubsub import open_pubsub
from dixit.storage import open_store

from . import errors as err
from .cards import UnknownDeck, card_source
from .config import ServerConfig
from .errors import ServerError
from .hub import Hub
from .public_rooms import add_table_routes
from .room import Services
from .static import ClientFiles
from .ws import room_socket

log = logging.getLogger("dixit.server")

ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": m.ApiError},
    404: {"model": m.ApiError},
    409: {"model": m.ApiError},
    503: {"model": m.ApiError},
}


def create_app(config: ServerConfig) -> FastAPI:
    state: dict[str, Hub] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = open_store(config.database)
        await store.open()
        pubsub = open_pubsub(config.pubsub)
        await pubsub.open()
        services = Services(
            config=config,
            store=store,
            cards=card_source(config.data_dir),
            pubsub=pubsub,
            origin=secrets.token_hex(6),
        )
        hub = Hub(services)
        await hub.start()
        state["hub"] = hub
        try:
            yield
        finally:
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
    client = ClientFiles(config.client_dir)

    def hub() -> Hub:
        return state["hub"]

    @app.exception_handler(ServerError)
    async def server_error(request: Request, error: ServerError) -> JSONResponse:
        return JSONResponse({"code": error.code, "message": error.message}, error.status)

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
        return m.DeckList(
            decks=[
                m.DeckInfo(slug=d.slug, name=d.name, card_count=d.card_count)
                for d in hub().services.cards.decks()
            ]
        )

    @app.get(
        "/api/decks/{slug}/cards", response_model=m.DeckCards, responses=ERRORS, tags=["decks"]
    )
    async def deck_cards(slug: str) -> Response:
        """A deck's cards with their titles and alt text (deck data only, cacheable for good:
        card ids are content hashes)."""
        try:
            words = hub().services.cards.card_words(slug)
        except UnknownDeck:
            raise ServerError("deck/not_found", f"no deck {slug!r}", 404) from None
        body = m.DeckCards(
            slug=slug, cards=[m.CardText(id=w.id, title=w.title, alt=w.alt) for w in words]
        )
        return Response(
            body.model_dump_json(),
            media_type="application/json",
            headers={"Cache-Control": "public, max-age=86400"},
        )

    @app.post("/api/decks", responses=ERRORS, tags=["decks"])
    async def import_deck(
        file: Annotated[UploadFile, File(description="a zip of images, or one image")],
        name: Annotated[str, Form(max_length=60)],
        token: Annotated[str, Form(description="the seat token of a room's host")],
    ) -> dict[str, object]:
        """A host uploads a deck of their own pictures."""
        if not hub().host_of_token(token):
            raise ServerError(err.NOT_HOST, "only a room's host can import a deck", 403)
        limit = hub().services.config.limits.max_upload_bytes
        data = await file.read(limit + 1)
        if len(data) > limit:
            raise ServerError("limit/upload_too_large", f"at most {limit} bytes", 413)
        try:
            return await hub().services.cards.import_upload(data, file.filename or "upload", name)
        except Exception as error:
            raise ServerError(err.UNKNOWN_DECK, f"cannot import: {error}") from None

    @app.get("/api/protocol/schema", tags=["protocol"])
    async def schema() -> dict[str, Any]:
        """The JSON Schema of every WebSocket message (also docs/protocol.schema.json)."""
        return protocol_schema()

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
        return {"ok": True, "rooms": len(hub().rooms)}

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
