"""The deck routes: the list of decks, a deck's card words per language, host captions,
imports and card images."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Annotated, cast, get_args

from fastapi import FastAPI, File, Form, UploadFile
from fastapi.responses import FileResponse, Response

from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code

from .cards import DeckSummary, NotImported, UnknownCard, UnknownDeck
from .errors import ServerError
from .http_errors import ERRORS
from .hub import Hub


def deck_info(deck: DeckSummary) -> m.DeckInfo:
    return m.DeckInfo(
        slug=deck.slug,
        name=deck.name,
        card_count=deck.card_count,
        kind=deck.kind,
        licence=deck.licence,
        preview=list(deck.preview),
        described=deck.described,
        default=deck.default,
    )


def add_deck_routes(app: FastAPI, hub: Callable[[], Hub]) -> None:
    @app.get("/api/decks", response_model=m.DeckList, tags=["decks"])
    async def decks() -> m.DeckList:
        """Every deck with its kind, count, licence and a few cards to preview; built-in first."""
        return m.DeckList(decks=[deck_info(d) for d in hub().services.cards.decks()])

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
        if not await hub().host_of_token(body.token):
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
        return deck_info(next(d for d in cards.decks() if d.slug == slug))

    @app.post("/api/decks", responses=ERRORS, tags=["decks"])
    async def import_deck(
        file: Annotated[UploadFile, File(description="a zip of images, or one image")],
        name: Annotated[str, Form(max_length=60)],
        token: Annotated[str, Form(description="the seat token of a room's host")],
    ) -> dict[str, object]:
        """A host uploads a deck of their own pictures."""
        if not await hub().host_of_token(token):
            raise ServerError(Code.NOT_HOST, "only a room's host can import a deck", 403)
        limit = hub().services.config.limits.max_upload_bytes
        data = await file.read(limit + 1)
        if len(data) > limit:
            raise ServerError(Code.UPLOAD_TOO_LARGE, f"at most {limit} bytes", 413)
        try:
            return await hub().services.cards.import_upload(data, file.filename or "upload", name)
        except Exception as error:
            raise ServerError(Code.UNKNOWN_DECK, f"cannot import: {error}") from None

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
