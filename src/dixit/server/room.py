"""One room: its seats and settings, its current game, its sockets, timers and computer players.

Every change goes through the room's lock, one at a time: validate (the engine never mutates),
append the events to the store with an expected-version check, and only then tell anyone.
Randomness is derived from the room's seed, the game number and the game version, so a command
retried after a crash deals exactly the same cards.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dixit.bots import RandomBot
from dixit.engine import (
    CastVote,
    Command,
    EndGame,
    Event,
    GameError,
    GameState,
    GiveClue,
    LegalActions,
    Phase,
    StartGame,
    SubmitCards,
    evolve,
    execute,
    legal_actions,
    player_view,
    replay,
    rules_for,
    waiting_for,
)
from dixit.engine.rules import Rules
from dixit.engine.serialize import event_from_json, event_to_json
from dixit.protocol import messages as m
from dixit.protocol.convert import (
    ack_json,
    redact_dict,
    round_dict,
    shared_event_dicts,
    to_json,
    view_dict,
)
from dixit.pubsub import PubSub, Subscription
from dixit.storage import EventStore, RoomRecord, StoredEvent, VersionConflict

from . import errors as err
from .cards import CardSource, UnknownDeck
from .chat import TALK_MESSAGES, TableTalk
from .config import ServerConfig
from .connection import Connection
from .errors import ServerError
from .records import DeadlineRecord, RoomRecordData, SeatRecord
from .tokens import token_hash

log = logging.getLogger("dixit.server")

TIMED_PHASES = (Phase.CLUE, Phase.SUBMIT, Phase.VOTE)
CATCH_UP_LIMIT = 1000  # beyond this many missed events a client gets a fresh view instead


@dataclass(frozen=True)
class Services:
    config: ServerConfig
    store: EventStore
    cards: CardSource
    pubsub: PubSub
    origin: str  # this process, in fan-out messages (several processes may share a store)


def rules_from_settings(settings: m.RoomSettings) -> Rules:
    """The engine's rules for a room's settings; GameError (setup/…) when they do not fit."""
    options: dict[str, Any] = {}
    base = rules_for(settings.edition)
    if settings.lone_finder_bonus is not None:
        options["lone_finder_bonus"] = settings.lone_finder_bonus
    if settings.end_at_score is not None:
        options["end_at_score"] = settings.end_at_score
    if settings.max_rounds is not None:
        options["max_rounds"] = settings.max_rounds
    if settings.clue_max_length is not None:
        options["clue_max_length"] = settings.clue_max_length
    if settings.max_players is not None:
        options["max_players"] = max(base.min_players, min(settings.max_players, base.max_players))
    return rules_for(settings.edition, **options)


class Room:
    def __init__(self, data: RoomRecordData, services: Services) -> None:
        self.data = data
        self.services = services
        self.settings = m.RoomSettings.model_validate(data.settings)
        self.lock = asyncio.Lock()
        self.state: GameState | None = None
        self.log: list[Event] = []
        self.seen: dict[tuple[str, str], int] = {}
        self._round_texts: list[str] = []
        self._rounds_text: tuple[int, str] = (0, "[]")  # the joined texts, and how many
        self.conns: dict[int, Connection] = {}
        self._timer: asyncio.Task[None] | None = None
        self._timer_for: DeadlineRecord | None = None
        self._bots: asyncio.Task[None] | None = None
        self._listener: asyncio.Task[None] | None = None
        self._subscription: Subscription | None = None
        self.closed = False
        self.talk = TableTalk(self, self.broadcast)

    @property
    def code(self) -> str:
        return self.data.code

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else 0

    # ------------------------------------------------------------------ loading

    async def load(self) -> None:
        """Rebuild the current game from the store, then re-arm its timer and computer players."""
        if self.data.status != "lobby":
            stored = await self.services.store.read(self.data.stream)
            self.log = [event_from_json(s.data) for s in stored]
            self.state = replay(self.log) if self.log else None
            self._remember_commands(stored)
        self._after_change()

    def _remember_commands(self, stored: Sequence[StoredEvent]) -> None:
        """Command ids already applied (a resend is acknowledged, never applied again)."""
        key: tuple[str, str] | None = None
        for event in stored:
            if event.command_id is not None and event.actor is not None:
                key = (event.actor, event.command_id)
            elif event.command_id is not None or event.actor is not None:
                key = None
            if key is not None:
                self.seen[key] = event.version

    @property
    def channel(self) -> str:
        return f"dixit:room:{self.code}"

    async def listen(self) -> None:
        """Follow the changes other server processes make to this room."""
        self._subscription = await self.services.pubsub.subscribe(self.channel)
        self._listener = asyncio.get_running_loop().create_task(self._listen(self._subscription))
        await self.talk.listen()

    async def _listen(self, subscription: Subscription) -> None:
        own = json.dumps({"origin": self.services.origin})[:-1] + ","
        while True:
            text = await subscription.get()
            if text is None:
                return
            if text.startswith(own) and not subscription.dropped:
                continue  # our own change (_notify writes the origin first)
            try:
                origin = json.loads(text).get("origin")
            except ValueError:
                continue
            if origin == self.services.origin and not subscription.dropped:
                continue
            subscription.dropped = 0
            async with self.lock:
                try:
                    await self._sync_from_store()
                except Exception:  # keep following; the next change syncs again
                    log.exception("room %s: could not follow a change", self.code)

    async def _notify(self) -> None:
        message = {"origin": self.services.origin, "game": self.data.game_number, "v": self.version}
        try:
            await self.services.pubsub.publish(self.channel, json.dumps(message))
        except Exception:  # fan-out is best effort: the store has the truth
            log.exception("room %s: could not publish a change", self.code)

    async def _sync_from_store(self) -> None:
        """Another process changed this room: take the store's word and tell our sockets."""
        stored = await self.services.store.load_room(self.code)
        if stored is not None:
            data = RoomRecordData.from_json(stored)
            if data.game_number != self.data.game_number:
                self.state, self.log, self.seen = None, [], {}
                self._round_texts.clear()
            self.data = data
            self.settings = m.RoomSettings.model_validate(data.settings)
        if self.data.status != "lobby":
            before = self.version
            stored_events = await self.services.store.read(self.data.stream, after=before)
            if stored_events:
                events = [event_from_json(e.data) for e in stored_events]
                state = self.state
                for event in events:
                    state = evolve(state, event)
                self.state = state
                self.log.extend(events)
                self._remember_commands(stored_events)
                self._broadcast_game(before, events)
        self._broadcast_room()
        self._after_change()

    def shutdown(self) -> None:
        self.closed = True
        if self._subscription is not None:
            self._subscription.close()
        self.talk.close()
        for task in (self._timer, self._bots, self._listener):
            if task is not None:
                task.cancel()
        for conn in list(self.conns.values()):
            conn.close()

    # ------------------------------------------------------------------ who is who

    def authenticate(self, token: str) -> tuple[str, str | None] | None:
        """("player", seat id) or ("spectator", None) for a valid token, else None."""
        hashed = token_hash(token)
        for seat in self.data.seats:
            if seat.token_hash == hashed and not seat.left:
                return "player", seat.id
        if hashed in self.data.spectators:
            return "spectator", None
        return None

    def _you(self, conn: Connection) -> m.You:
        return m.You(
            role="player" if conn.seat else "spectator",
            seat=conn.seat,
            is_host=conn.seat is not None and conn.seat == self.data.host,
        )

    def room_state(self) -> m.RoomState:
        connected = {c.seat for c in self.conns.values() if c.seat is not None and not c.closed}
        deadline = None
        d = self.data.deadline
        if d is not None and self.state is not None:
            deadline = m.Deadline(
                phase=d.phase,  # type: ignore[arg-type]
                version=d.version,
                at=d.at_ms,
                seconds=d.seconds,
                players=list(waiting_for(self.state)),
            )
        return m.RoomState(
            code=self.code,
            status=self.data.status,  # type: ignore[arg-type]
            game_number=self.data.game_number,
            host=self.data.host,
            seats=[
                m.Seat(
                    id=s.id,
                    name=s.name,
                    colour=s.colour,  # type: ignore[arg-type]
                    is_host=s.id == self.data.host,
                    is_bot=s.is_bot,
                    bot_kind=s.bot_kind if s.is_bot else None,
                    connected=s.id in connected,
                    left=s.left,
                )
                for s in self.data.seats
            ],
            spectators=sum(1 for c in self.conns.values() if c.seat is None),
            settings=self.settings,
            deadline=deadline,
            version=self.version,
        )

    # ------------------------------------------------------------------ sockets

    def attach(self, conn: Connection, since: int | None, game_number: int | None = None) -> None:
        """Seat a new socket (replacing an older one of the same seat) and welcome it."""
        if conn.seat is not None:
            for old in [c for c in self.conns.values() if c.seat == conn.seat]:
                old.send(m.Closed(code=err.REPLACED, message="this seat connected elsewhere"))
                old.close()
                del self.conns[old.id]
        self.conns[conn.id] = conn
        if game_number is not None and game_number != self.data.game_number:
            since = None
        conn.send(
            m.Welcome(
                you=self._you(conn), room=self.room_state(), game=self.catch_up(conn.seat, since)
            )
        )
        conn.send(self.talk.state())
        self._broadcast_room(skip=conn.id)

    def detach(self, conn: Connection) -> None:
        if self.conns.pop(conn.id, None) is not None:
            self._broadcast_room()

    def catch_up(self, viewer: str | None, since: int | None) -> m.GameUpdate | None:
        """The events after ``since`` (redacted) and a fresh view; or a reset to the view."""
        if self.state is None:
            return None
        version = self.state.version
        if since is None or since > version or version - since > CATCH_UP_LIMIT:
            return self._game_update(viewer, version, (), reset=True)
        missed = [(since + i + 1, e) for i, e in enumerate(self.log[since:])]
        return self._game_update(viewer, since, missed, reset=False)

    def _game_update(
        self,
        viewer: str | None,
        from_version: int,
        events: Sequence[tuple[int, Event]],
        reset: bool,
    ) -> m.GameUpdate:
        return m.GameUpdate.model_validate_json(
            self._game_update_text(viewer, from_version, events, reset)
        )

    def _game_update_text(
        self,
        viewer: str | None,
        from_version: int,
        events: Sequence[tuple[int, Event]],
        reset: bool,
        shared: Sequence[dict[str, object] | None] | None = None,
    ) -> str:
        """The ``game`` message for one viewer, as JSON text.

        The revealed rounds are the same for every viewer and only grow, so each is serialized
        once and spliced in: the update's cost stays flat as a game goes on. ``shared``: the
        events' wire dicts that are the same for every viewer (None where they differ), built
        once per broadcast.
        """
        assert self.state is not None
        view = player_view(self.state, viewer)
        legal = None if self.data.status == "playing" else LegalActions()
        if shared is None:
            shared = [None] * len(events)
        update = {
            "type": "game",
            "v": m.PROTOCOL_VERSION,
            "from_version": from_version,
            "events": [
                {"version": v, "event": redact_dict(e, viewer) if s is None else s}
                for (v, e), s in zip(events, shared, strict=True)
            ],
            "view": view_dict(view, with_rounds=False, legal=legal),
            "reset": reset,
        }
        text = to_json(update)
        return text.replace('"rounds":[]', '"rounds":' + self._rounds_json(), 1)

    def _rounds_json(self) -> str:
        assert self.state is not None
        rounds = self.state.rounds
        cache = self._round_texts
        if len(cache) > len(rounds):
            cache.clear()
        if len(cache) < len(rounds) or self._rounds_text[0] != len(cache):
            for scored in rounds[len(cache) :]:
                cache.append(to_json(round_dict(scored)))
            self._rounds_text = (len(cache), "[" + ",".join(cache) + "]")
        return self._rounds_text[1]

    def _broadcast_game(self, from_version: int, events: Sequence[Event]) -> None:
        if not self.conns:
            return
        numbered = [(from_version + i + 1, e) for i, e in enumerate(events)]
        shared = shared_event_dicts(events)
        texts: dict[str | None, str] = {}
        for conn in list(self.conns.values()):
            text = texts.get(conn.seat)
            if text is None:
                text = self._game_update_text(conn.seat, from_version, numbered, False, shared)
                texts[conn.seat] = text
            conn.send(text)

    def _broadcast_room(self, skip: int | None = None) -> None:
        if not self.conns:
            return
        room = self.room_state()
        for conn in list(self.conns.values()):
            if conn.id != skip:
                conn.send(m.RoomUpdate(room=room, you=self._you(conn)))

    def broadcast(self, message: m.ServerModel) -> None:
        text = message.model_dump_json()
        for conn in list(self.conns.values()):
            conn.send(text)

    def _close_seat(self, seat_id: str, code: str, message: str) -> None:
        for conn in [c for c in self.conns.values() if c.seat == seat_id]:
            conn.send(m.Closed(code=code, message=message))
            conn.close()
            del self.conns[conn.id]

    # ------------------------------------------------------------------ commands

    async def handle(self, conn: Connection, msg: m.ClientModel) -> None:
        """Apply one client message and answer it (ack or error)."""
        if isinstance(msg, m.Ping):
            conn.send(m.Pong(id=msg.id))
            return
        if isinstance(msg, m.Sync):
            update = self.catch_up(conn.seat, msg.since)
            conn.send(m.RoomUpdate(room=self.room_state(), you=self._you(conn)))
            if update is not None:
                conn.send(update)
            return
        if isinstance(msg, TALK_MESSAGES):
            self.talk.handle(conn, msg)
            return
        command_id: str | None = getattr(msg, "id", None)
        if isinstance(msg, m.Hello) or command_id is None:
            conn.send(m.Error(id=None, code="command/malformed", message="already said hello"))
            return
        if conn.seat is None:
            conn.send(m.Error(id=command_id, code=err.SPECTATOR, message="spectators watch"))
            return
        async with self.lock:
            key = (conn.seat, command_id)
            done = self.seen.get(key)
            if done is not None:
                conn.send(ack_json(command_id, done, True))
                return
            seat = self.data.seat(conn.seat)
            if seat is None or seat.left or seat.token_hash != conn.token_hash:
                conn.send(
                    m.Error(id=command_id, code=err.BAD_TOKEN, message="not your seat any more")
                )
                return
            try:
                try:
                    version = await self._dispatch(seat, msg, command_id)
                except VersionConflict:
                    # Another process wrote first: catch up, then decide again on the new state.
                    await self._sync_from_store()
                    done = self.seen.get(key)
                    if done is not None:
                        conn.send(ack_json(command_id, done, True))
                        return
                    seat = self.data.seat(conn.seat) or seat
                    version = await self._dispatch(seat, msg, command_id)
            except (GameError, ServerError) as error:
                conn.send(m.Error(id=command_id, code=error.code, message=error.message))
                return
            except VersionConflict:
                await self._sync_from_store()
                conn.send(
                    m.Error(id=command_id, code=err.CONFLICT, message="the game moved on; retry")
                )
                return
            self.seen[key] = version
            conn.send(ack_json(command_id, version, False))
            if isinstance(msg, m.Leave):
                self._close_seat(seat.id, err.LEFT, "you left the room")

    async def _dispatch(self, seat: SeatRecord, msg: m.ClientModel, command_id: str) -> int:
        if isinstance(msg, m.GiveClue):
            return await self._play(seat, GiveClue(seat.id, msg.card, msg.clue), command_id)
        if isinstance(msg, m.SubmitCards):
            return await self._play(seat, SubmitCards(seat.id, tuple(msg.cards)), command_id)
        if isinstance(msg, m.CastVote):
            return await self._play(seat, CastVote(seat.id, msg.card), command_id)
        if isinstance(msg, m.SetProfile):
            return await self._set_profile(seat, msg)
        if isinstance(msg, m.Leave):
            return await self._leave(seat)
        # Everything else is the host's.
        if seat.id != self.data.host:
            raise ServerError(err.NOT_HOST, "only the host can do that", 403)
        if isinstance(msg, m.StartGame):
            return await self._start(seat, command_id)
        if isinstance(msg, m.UpdateSettings):
            return await self._update_settings(msg.settings)
        if isinstance(msg, m.AddBot):
            return await self._add_bot()
        if isinstance(msg, m.Kick):
            return await self._kick(seat, msg.seat)
        if isinstance(msg, m.SetBot):
            return await self._set_bot(msg.seat, msg.bot)
        if isinstance(msg, m.TransferHost):
            return await self._transfer_host(msg.seat)
        if isinstance(msg, m.EndGame):
            return await self._end_game(seat, command_id)
        if isinstance(msg, m.Rematch):
            return await self._rematch()
        raise ServerError("command/unknown_type", f"unexpected {type(msg).__name__}")

    async def _play(self, seat: SeatRecord, command: Command, command_id: str) -> int:
        if self.data.status != "playing":
            raise ServerError(err.NOT_PLAYING, "no game is being played")
        if seat.is_bot:
            raise ServerError(
                err.SEAT_IS_BOT, "a computer player plays your seat now; ask the host"
            )
        return await self._apply(command, command_id, seat.id)

    async def _apply(
        self,
        command: Command,
        command_id: str | None,
        actor: str,
        changes: dict[str, Any] | None = None,
    ) -> int:
        """Decide, store (expected version, one transaction), then tell everyone."""
        old = self.state
        version = old.version if old is not None else 0
        rng = random.Random(f"{self.data.seed}:{self.data.game_number}:{version}")
        state, events = execute(old, command, rng)
        fields: dict[str, Any] = dict(changes or {})
        if state.phase is Phase.OVER:
            fields.update(status="over")
        new_data = dataclasses.replace(self.data, **fields) if fields else self.data
        deadline = self._plan_deadline(state, new_data)
        if deadline != new_data.deadline:
            new_data = dataclasses.replace(new_data, deadline=deadline)
        room = RoomRecord(self.code, new_data.to_json()) if new_data is not self.data else None
        await self.services.store.append(
            new_data.stream,
            version,
            [event_to_json(e) for e in events],
            command_id=command_id,
            actor=actor,
            room=room,
        )
        room_changed = new_data is not self.data
        self.data = new_data
        self.state = state
        self.log.extend(events)
        self._broadcast_game(version, events)
        if room_changed or self.data.deadline is not None:
            self._broadcast_room()
        self._after_change()
        await self._notify()
        return state.version

    async def _save(self) -> int:
        await self.services.store.save_room(RoomRecord(self.code, self.data.to_json()))
        self._broadcast_room()
        self._after_change()
        await self._notify()
        return self.version

    # ------------------------------------------------------------------ lobby and host

    def _free_colour(self) -> str:
        taken = {s.colour for s in self.data.seats}
        return next((c for c in m.RABBIT_COLOURS if c not in taken), m.RABBIT_COLOURS[0])

    def seat_limit(self) -> int:
        return rules_from_settings(self.settings).max_players

    def add_person(self, name: str, colour: str | None, token: str) -> SeatRecord:
        """A new seat for a person (the caller saves). Lobby only."""
        if self.data.status != "lobby":
            raise ServerError(err.NOT_IN_LOBBY, "the game has started; watch instead", 409)
        if len(self.data.seats) >= self.seat_limit():
            raise ServerError(err.ROOM_FULL, "every seat is taken", 409)
        if colour is not None and any(s.colour == colour for s in self.data.seats):
            raise ServerError(err.COLOUR_TAKEN, f"the {colour} rabbit is taken", 409)
        seat = SeatRecord(
            id=f"p{self.data.next_seat}",
            name=name.strip() or "Player",
            colour=colour or self._free_colour(),
            token_hash=token_hash(token),
        )
        self.data.next_seat += 1
        self.data.seats.append(seat)
        if self.data.host is None:
            self.data.host = seat.id
        return seat

    def add_computer(self) -> SeatRecord:
        if len(self.data.seats) >= self.seat_limit():
            raise ServerError(err.ROOM_FULL, "every seat is taken", 409)
        number = sum(1 for s in self.data.seats if s.token_hash is None and s.is_bot) + 1
        seat = SeatRecord(
            id=f"p{self.data.next_seat}",
            name=f"Robot {number}",
            colour=self._free_colour(),
            token_hash=None,
            is_bot=True,
            bot_kind="random",
        )
        self.data.next_seat += 1
        self.data.seats.append(seat)
        return seat

    async def notify_joined(self) -> None:
        """After an HTTP join or spectate (already saved): tell the room."""
        self._broadcast_room()
        await self._notify()

    async def _set_profile(self, seat: SeatRecord, msg: m.SetProfile) -> int:
        if msg.colour is not None and msg.colour != seat.colour:
            if any(s.colour == msg.colour for s in self.data.seats if s.id != seat.id):
                raise ServerError(err.COLOUR_TAKEN, f"the {msg.colour} rabbit is taken")
            seat.colour = msg.colour
        if msg.name is not None:
            name = msg.name.strip()
            if not name:
                raise ServerError("command/malformed", "a name cannot be blank")
            seat.name = name
        return await self._save()

    def _require_lobby(self) -> None:
        if self.data.status != "lobby":
            raise ServerError(err.NOT_IN_LOBBY, "only in the lobby, before the game starts")

    async def _update_settings(self, settings: m.RoomSettings) -> int:
        self._require_lobby()
        settings = settings.model_copy(update={"bots": self.settings.bots})
        rules = rules_from_settings(settings)
        try:
            self.services.cards.card_ids(list(settings.decks))
        except UnknownDeck as unknown:
            raise ServerError(err.UNKNOWN_DECK, f"unknown deck {unknown}") from None
        if len(self.data.seats) > rules.max_players:
            raise ServerError(err.ROOM_FULL, f"{len(self.data.seats)} seats are taken already")
        self.settings = settings
        self.data.settings = settings.model_dump(mode="json")
        return await self._save()

    async def _add_bot(self) -> int:
        self._require_lobby()
        self.add_computer()
        return await self._save()

    async def _start(self, host: SeatRecord, command_id: str) -> int:
        self._require_lobby()
        rules = rules_from_settings(self.settings)
        players = tuple(s.id for s in self.data.seats)
        if len(players) < rules.min_players:
            raise ServerError(
                err.TOO_FEW_PLAYERS,
                f"{rules.min_players} players are needed, {len(players)} seated",
            )
        try:
            deck = self.services.cards.card_ids(list(self.settings.decks))
        except UnknownDeck as unknown:
            raise ServerError(err.UNKNOWN_DECK, f"unknown deck {unknown}") from None
        first: str | None = None
        if self.settings.first_storyteller == "host":
            first = host.id
        elif self.settings.first_storyteller == "random":
            first = random.Random(f"{self.data.seed}:{self.data.game_number}:first").choice(players)
        command = StartGame(players=players, deck=tuple(deck), rules=rules, first_storyteller=first)
        return await self._apply(
            command,
            command_id,
            host.id,
            {"status": "playing"},
        )

    def _next_host(self, leaving: str) -> str | None:
        people = [s for s in self.data.seats if s.id != leaving and s.token_hash and not s.left]
        online = {c.seat for c in self.conns.values()}
        people.sort(key=lambda s: s.id not in online)
        return people[0].id if people else None

    def _remove_or_hand_to_bot(self, seat: SeatRecord) -> None:
        if self.data.status == "lobby":
            self.data.seats.remove(seat)
        else:
            seat.left, seat.token_hash, seat.is_bot, seat.bot_kind = True, None, True, "random"
        if self.data.host == seat.id:
            self.data.host = self._next_host(seat.id)

    async def _kick(self, host: SeatRecord, seat_id: str) -> int:
        target = self.data.seat(seat_id)
        if target is None:
            raise ServerError(err.UNKNOWN_SEAT, f"no seat {seat_id!r}")
        if target.id == host.id:
            raise ServerError(err.UNKNOWN_SEAT, "to leave your own seat, use leave")
        if self.data.status != "lobby" and target.token_hash is None:
            raise ServerError(err.NOT_IN_LOBBY, "a computer player keeps its seat until the end")
        self._remove_or_hand_to_bot(target)
        self._close_seat(seat_id, err.KICKED, "the host removed you from the room")
        return await self._save()

    async def _leave(self, seat: SeatRecord) -> int:
        self._remove_or_hand_to_bot(seat)
        return await self._save()  # the socket closes after the ack

    async def _set_bot(self, seat_id: str, bot: bool) -> int:
        target = self.data.seat(seat_id)
        if target is None:
            raise ServerError(err.UNKNOWN_SEAT, f"no seat {seat_id!r}")
        if not bot and target.token_hash is None:
            raise ServerError(err.UNKNOWN_SEAT, "no person holds this seat to give it back to")
        target.is_bot = bot
        target.bot_kind = "random" if bot else None
        return await self._save()

    async def _transfer_host(self, seat_id: str) -> int:
        target = self.data.seat(seat_id)
        if target is None or target.token_hash is None or target.left:
            raise ServerError(err.UNKNOWN_SEAT, "the host must be a person in the room")
        self.data.host = target.id
        return await self._save()

    async def _end_game(self, host: SeatRecord, command_id: str | None) -> int:
        """The engine ends the game (the leaders win); the log records it like any move."""
        if self.data.status != "playing" or self.state is None:
            raise ServerError(err.NOT_PLAYING, "no game is being played")
        return await self._apply(EndGame(), command_id, host.id)

    async def _rematch(self) -> int:
        if self.data.status != "over":
            raise ServerError(err.NOT_OVER, "a rematch follows a finished game")
        self.data.status = "lobby"
        self.data.game_number += 1
        self.data.seats = [s for s in self.data.seats if not s.left]
        self.data.deadline = None
        self.state, self.log, self.seen = None, [], {}
        self._round_texts.clear()
        return await self._save()

    # ------------------------------------------------------------------ timers and bots

    def _plan_deadline(self, state: GameState, data: RoomRecordData) -> DeadlineRecord | None:
        if data.status != "playing" or state.phase not in TIMED_PHASES:
            return None
        seconds = getattr(self.settings.timers, state.phase.value)
        if not seconds:
            return None
        current = data.deadline
        if (
            current is not None
            and current.phase == state.phase.value
            and current.round == state.round
        ):
            return current
        at_ms = int(time.time() * 1000) + seconds * 1000
        return DeadlineRecord(state.phase.value, state.round, state.version, at_ms, seconds)

    def _after_change(self) -> None:
        if self.closed:
            return
        self._arm_timer()
        self._schedule_bots()

    def _arm_timer(self) -> None:
        deadline = self.data.deadline if self.data.status == "playing" else None
        running = self._timer is not None and self._timer is not asyncio.current_task()
        if running and self._timer_for == deadline:
            return
        if running and self._timer is not None:
            self._timer.cancel()
        self._timer, self._timer_for = None, deadline
        if deadline is not None:
            self._timer = asyncio.get_running_loop().create_task(self._expire(deadline))

    async def _expire(self, deadline: DeadlineRecord) -> None:
        await asyncio.sleep(max(0.0, deadline.at_ms / 1000 - time.time()))
        async with self.lock:
            if self._timer is asyncio.current_task():
                self._timer = None
            state = self.state
            if self.data.deadline != deadline or state is None or self.data.status != "playing":
                return
            late = list(waiting_for(state))
            if state.phase is Phase.CLUE and state.storyteller is None:
                rng = random.Random(f"{self.data.seed}:{self.data.game_number}:{state.version}:t")
                late = [rng.choice(state.players)]
            for seat_id in late:
                state = self.state
                if state is None or self.data.status != "playing":
                    break
                if state.phase.value != deadline.phase or state.round != deadline.round:
                    break
                if not legal_actions(state, seat_id):
                    continue
                command = self._bot_move(seat_id)
                if command is None:
                    continue
                try:
                    await self._apply(command, None, f"timer:{seat_id}")
                except VersionConflict:  # another process moved first
                    await self._sync_from_store()
                    break
                except GameError as error:
                    log.warning("room %s: timer move for %s failed: %s", self.code, seat_id, error)
                    break
                seat = self.data.seat(seat_id)
                name = seat.name if seat else seat_id
                self.broadcast(
                    m.Notice(
                        code="timer/auto_played",
                        message=f"Time ran out: a computer player played for {name}.",
                        seat=seat_id,
                    )
                )

    def _bot_move(self, seat_id: str) -> Command | None:
        assert self.state is not None
        rng = random.Random(
            f"{self.data.seed}:{self.data.game_number}:{self.state.version}:{seat_id}"
        )
        return RandomBot(rng).act(player_view(self.state, seat_id))

    def _schedule_bots(self) -> None:
        if self._bots is not None or self.data.status != "playing" or self.state is None:
            return
        state = self.state
        if any(s.is_bot and legal_actions(state, s.id) for s in self.data.seats):
            self._bots = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        try:
            while not self.closed:
                await asyncio.sleep(self.services.config.bot_delay_s)
                async with self.lock:
                    state = self.state
                    if state is None or self.data.status != "playing":
                        return
                    mover = next(
                        (s for s in self.data.seats if s.is_bot and legal_actions(state, s.id)),
                        None,
                    )
                    if mover is None:
                        return
                    command = self._bot_move(mover.id)
                    if command is None:
                        return
                    try:
                        await self._apply(command, None, f"bot:{mover.id}")
                    except VersionConflict:  # another process moved first
                        await self._sync_from_store()
        except GameError as error:
            log.warning("room %s: computer player failed: %s", self.code, error)
        finally:
            if self._bots is asyncio.current_task():
                self._bots = None
