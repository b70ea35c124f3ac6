"""The deck routes: the list of decks, a deck's card words per language, host captions,
uploads (new decks, more pictures, rename, delete) and card images. Who sees an uploaded deck:
:mod:`.deck_access`."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, cast, get_args

from fastapi import Cookie, FastAPI, File, Form, Header, UploadFile
from fastapi.responses import FileResponse, Response

from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code

from .cards import DeckSummary, NotImported, UnknownCard, UnknownDeck
from .deck_access import SEATS_COOKIE, Viewer, may_fetch, viewer
from .errors import ServerError
from .http_errors import ERRORS
from .hub import Hub
from .records import RoomRecordData
from .tokens import SEATS_HEADER, token_hash

# A private picture: the browser may keep it (its id changes with its content), no proxy may.
PRIVATE_PICTURE = "private, max-age=31536000, immutable"


def deck_info(deck: DeckSummary, mine: bool = False) -> m.DeckInfo:
    return m.DeckInfo(
        slug=deck.slug,
        name=deck.name,
        card_count=deck.card_count,
        kind=deck.kind,
        licence=deck.licence,
        preview=list(deck.preview),
        described=deck.described,
        default=deck.default,
        mine=mine,
    )


Seats = Annotated[
    str | None,
    Header(
        alias=SEATS_HEADER,
        description="CODE:TOKEN, CODE:TOKEN: the seats the asker holds (their uploaded decks "
        "and those of their rooms are listed too)",
    ),
]


def add_deck_routes(app: FastAPI, hub: Callable[[], Hub]) -> None:
    async def room_data(code: str) -> RoomRecordData | None:
        room = hub().rooms.get(code)
        if room is not None:
            return room.data
        stored = await hub().services.store.load_room(code)
        return RoomRecordData.from_json(stored) if stored else None

    def summary(slug: str, who: Viewer) -> DeckSummary:
        """The deck if ``who`` may see it; deck/not_found as for no deck at all otherwise."""
        deck = next((d for d in hub().services.cards.decks() if d.slug == slug), None)
        if deck is None or not who.sees(deck):
            raise ServerError(Code.DECK_NOT_FOUND, f"no deck {slug[:60]!r}", 404)
        return deck

    def owned(slug: str, token: str) -> DeckSummary:
        """The deck, if ``token`` uploaded it."""
        who = Viewer(tokens=frozenset({token_hash(token)}))
        deck = summary(slug, who)
        if not who.owns(deck):
            raise ServerError(Code.DECK_NOT_YOURS, "only the deck's uploader can change it", 403)
        return deck

    @app.get("/api/decks", response_model=m.DeckList, tags=["decks"])
    async def decks(seats: Seats = None) -> m.DeckList:
        """Every deck the asker may deal from, with its kind, count, licence and a few cards to
        preview; built-in first. Uploaded decks are listed to their uploader and their rooms."""
        who = await viewer(seats, room_data)
        listed = hub().services.cards.decks()
        return m.DeckList(decks=[deck_info(d, who.owns(d)) for d in listed if who.sees(d)])

    @app.get(
        "/api/decks/{slug}/cards", response_model=m.DeckCards, responses=ERRORS, tags=["decks"]
    )
    async def deck_cards(slug: str, lang: str = "en", seats: Seats = None) -> Response:
        """A deck's cards with their words in ``lang`` (it, pl, es, pt, fr, en; fallback
        English) and the credits of illustrated cards. Deck data only; an imported deck's
        captions may change, so it is cached for a short while."""
        if lang not in get_args(m.Language):
            raise ServerError(Code.DECK_BAD_LANGUAGE, f"no language {lang[:8]!r}", 400)
        deck = summary(slug, await viewer(seats, room_data))
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
        # An upload's words are the asker's alone and change as its uploader adds pictures.
        cache = "private, no-cache" if deck.owner is not None else "public, max-age=60"
        return Response(
            body.model_dump_json(),
            media_type="application/json",
            headers={"Cache-Control": cache, "Vary": "Accept-Encoding"},
        )

    @app.post(
        "/api/decks/{slug}/captions", response_model=m.DeckInfo, responses=ERRORS, tags=["decks"]
    )
    async def deck_captions(slug: str, body: m.CaptionsRequest) -> m.DeckInfo:
        """A host describes cards of an imported deck (what computer players and screen
        readers read); an empty caption removes one. An uploaded deck is described by its
        uploader only. Answers the deck as listed."""
        cards = hub().services.cards
        deck = summary(slug, Viewer(tokens=frozenset({token_hash(body.token)})))
        if deck.owner is not None:
            owned(slug, body.token)
        elif not await hub().host_of_token(body.token):
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
        listed = next(d for d in cards.decks() if d.slug == slug)
        return deck_info(listed, listed.owner is not None)

    async def read_upload(file: UploadFile) -> bytes:
        limit = hub().services.config.limits.max_upload_bytes
        data = await file.read(limit + 1)
        if len(data) > limit:
            raise ServerError(Code.UPLOAD_TOO_LARGE, f"at most {limit} bytes", 413)
        return data

    @app.post("/api/decks", responses=ERRORS, tags=["decks"])
    async def import_deck(
        file: Annotated[UploadFile, File(description="a zip of images, or one image")],
        name: Annotated[str, Form(max_length=60)],
        token: Annotated[str, Form(description="the seat token of a room's host")],
    ) -> dict[str, object]:
        """A host uploads a deck of their own pictures: it is theirs (this token's) and their
        rooms', listed to nobody else."""
        if not await hub().host_of_token(token):
            raise ServerError(Code.NOT_HOST, "only a room's host can import a deck", 403)
        data = await read_upload(file)
        try:
            return await hub().services.cards.import_upload(
                data, file.filename or "upload", name, token_hash(token)
            )
        except Exception as error:
            raise ServerError(Code.UNKNOWN_DECK, f"cannot import: {error}") from None

    @app.post("/api/decks/{slug}/cards", responses=ERRORS, tags=["decks"])
    async def add_pictures(
        slug: str,
        file: Annotated[UploadFile, File(description="a zip of images, or one image")],
        token: Annotated[str, Form(description="the seat token that uploaded the deck")],
    ) -> dict[str, object]:
        """The uploader adds pictures to their deck (one at a time, or a zip)."""
        owned(slug, token)
        data = await read_upload(file)
        try:
            report = await hub().services.cards.add_upload(slug, data, file.filename or "upload")
        except Exception as error:
            raise ServerError(Code.UNKNOWN_DECK, f"cannot import: {error}") from None
        for room in list(hub().rooms.values()):
            room.captions_changed(slug)
        return report

    @app.patch("/api/decks/{slug}", response_model=m.DeckInfo, responses=ERRORS, tags=["decks"])
    async def rename_deck(slug: str, body: m.DeckEditRequest) -> m.DeckInfo:
        """The uploader renames their deck (``name``)."""
        owned(slug, body.token)
        if body.name is None or not body.name.strip():
            raise ServerError(Code.REQUEST_MALFORMED, "a new name is needed", 422)
        await asyncio.to_thread(hub().services.cards.rename, slug, body.name)
        return deck_info(next(d for d in hub().services.cards.decks() if d.slug == slug), True)

    @app.delete("/api/decks/{slug}", responses=ERRORS, tags=["decks"])
    async def delete_deck(slug: str, body: m.DeckEditRequest) -> dict[str, object]:
        """The uploader deletes their deck and its pictures. A room that dealt from it keeps
        its game; in the lobby it deals from its other decks or the default."""
        owned(slug, body.token)
        await asyncio.to_thread(hub().services.cards.remove, slug)
        return {"deleted": slug}

    @app.get("/cards/{card_id}", tags=["decks"], responses={404: {"description": "no such card"}})
    async def card_image(
        card_id: str, seats: Annotated[str | None, Cookie(alias=SEATS_COOKIE)] = None
    ) -> Response:
        """A card's picture. One of an uploaded deck only to its uploader and the seats and
        spectators of the rooms that deal from it (the ``dixit_seats`` cookie; else 404, as
        for no card), and never kept by a shared cache."""
        cards = hub().services.cards
        image = cards.image(card_id)
        if image is None:
            return Response(status_code=404)
        headers = {"Cache-Control": cards.cache_control}
        if image.owner is not None:
            if not await may_fetch(seats, image.deck, image.owner, room_data):
                return Response(status_code=404)
            headers["Cache-Control"] = PRIVATE_PICTURE
        if image.path is not None:
            return FileResponse(image.path, media_type=image.media_type, headers=headers)
        return Response(image.content or b"", media_type=image.media_type, headers=headers)
