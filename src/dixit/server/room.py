"""One room: its lock, its handler table, and "compute the new record, store it, then swap".

Every change goes through the room's lock, one at a time. A game move is decided by the engine
(which never mutates), a lobby change by a pure function of :mod:`.lobby`; the result is
written to the store (events with an expected-version check, or the room record), and only
once the store has accepted it does the room take it and tell anyone (:mod:`.fanout`), other
processes included (:mod:`.follow`). Computer players and timers are :mod:`.autoplay`'s.
Randomness is derived from the room's seed, the game number and the game version, so a
command retried after a crash deals exactly the same cards (:mod:`.seeding`).

Several processes may serve one room. Every write of the room record names the record version
it was computed from (``record_version``); when another process wrote first the store refuses
(:class:`VersionConflict`), the room re-reads the record and its events and decides again from
them, a few times at most. Lobby commands (record-only writes) are recorded with their command
id in the same transaction, so a resend after a restart is acknowledged, never applied twice.
A storage failure answers the command with an ``error`` carrying the store's code.

The room is made of parts that know nothing of it (docs/architecture.md): each is built here
with the callables it needs (:class:`_Port`'s, holding the room weakly), and the room tells them
of changes.
Handlers answer an outcome that :meth:`Room.dispatch` carries out.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import weakref
from collections.abc import Callable, Sequence
from typing import Any, TypeGuard

from dixit.engine import (
    CodedError,
    Command,
    Event,
    GameState,
    Phase,
    evolve,
    execute,
    replay,
)
from dixit.engine.serialize import event_from_json, event_to_json
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.protocol.convert import ack_json, error_json
from dixit.pubsub import Here
from dixit.storage import (
    CommandKey,
    DuplicateCommand,
    RoomRecord,
    StorageError,
    StoredEvent,
    VersionConflict,
)

from . import away, handlers
from .autoplay import (
    CLAIM_WAIT_S,
    REVEAL_WAIT_S,
    Autoplay,
    plan_claim,
    plan_deadline,
    plan_reveal,
    replan,
    reveal_waiting,
)
from .cards import UnknownDeck
from .channel import Envelope, Kind
from .chat import TALK_MESSAGES, TableTalk
from .connection import Connection
from .driver import Driver
from .errors import ServerError
from .fanout import Fanout, you
from .follow import Attendance, Follower
from .records import RoomRecordData, SeatRecord
from .roomview import reclaimed, room_view
from .seeding import DeferredRandom, command_seed
from .services import Services
from .shelf import Shelf, card_dicts, readable
from .tokens import token_hash

log = logging.getLogger("dixit.server")

# How many times a command is decided again after another process wrote the room first.
TRIES = 5


# Settings models by their JSON: rooms with the same settings share one (a model is frozen, and
# ~1.8 KiB each). Bounded: emptied when full, as a room keeps its own reference.
_SETTINGS: dict[str, m.RoomSettings] = {}
_SETTINGS_KEPT = 1024


def room_settings(raw: dict[str, Any]) -> m.RoomSettings:
    """The settings model of a room record's ``settings``."""
    key = json.dumps(raw, sort_keys=True, separators=(",", ":"))
    settings = _SETTINGS.get(key)
    if settings is None:
        if len(_SETTINGS) >= _SETTINGS_KEPT:
            _SETTINGS.clear()
        settings = _SETTINGS[key] = m.RoomSettings.model_validate(raw)
    return settings


def seen_key(seat: str, command_id: str) -> str:
    """A seat's command in :attr:`Room.seen`: one string, not a tuple holding the id (a room
    keeps one per command of its game; seat ids never hold a space, so keys never collide)."""
    return seat + " " + command_id


Change = RoomRecordData | Callable[[RoomRecordData], RoomRecordData]


class Room:
    def __init__(self, data: RoomRecordData, services: Services, record_version: int = 0) -> None:
        self.data = data
        self.record_version = record_version  # of ``data`` in the store; 0: not known yet
        self.services = services
        self.settings = room_settings(data.settings)
        self.lock = asyncio.Lock()
        self.state: GameState | None = None
        self.log: list[Event] = []
        self.seen: dict[str, int] = {}  # applied commands (:func:`seen_key`): their version
        self.fanout = Fanout()
        self.follower = Follower(services.pubsub, data.code, services.origin)
        self.attendance = Attendance(
            services.presence,
            data.code,
            services.origin,
            services.config.presence_beat_s,
            self._presence_changed,
        )
        self.closed = False
        self._readable: tuple[tuple[str, ...], bool] | None = None
        # The parts, each built with what it may read and do: bound methods of one small
        # object holding the room weakly (:class:`_Port`).
        port = _Port(self)
        shelf = Shelf(port)
        self.autoplay = Autoplay(port, shelf, services.config.bot_delay_s)
        self.driver = Driver(
            data.code,
            services.leases,
            self.lock,
            wanted=port.wanted,
            sync=port.sync,
            gained=self.autoplay.gained,
        )
        self.talk = TableTalk(
            data.code,
            services.origin,
            self.fanout.send_all,
            self.fanout.send_seats,
            functools.partial(self.follower.tell, Kind.TALK),
            port,
        )

    @property
    def code(self) -> str:
        return self.data.code

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else 0

    @property
    def playing(self) -> bool:
        return self.data.status == "playing"

    # ------------------------------------------------------------------ loading, following

    async def load(self) -> None:
        """Rebuild the current game from the store, then re-arm its timer and computer players."""
        if self.record_version == 0:
            record = await self.services.store.get_room(self.code)
            if record is not None:
                self._take(RoomRecordData.from_json(record.data))
                self.record_version = record.version
        if self.data.status != "lobby":
            stored = await self.services.store.read(self.data.stream)
            self.log = [event_from_json(s.data) for s in stored]
            self.state = replay(self.log) if self.log else None
            self._remember_commands(stored)
        self._changed()

    async def listen(self) -> None:
        """Follow the changes other server processes make to this room."""
        await self.follower.start(
            self.lock, self.sync_from_store, self._heard, self._returned, self.attendance.soon
        )
        self.attendance.start()

    def _remember_commands(self, stored: Sequence[StoredEvent]) -> None:
        """Command ids already applied (a resend is acknowledged, never applied again)."""
        key: str | None = None
        for event in stored:
            if event.command_id is not None and event.actor is not None:
                key = seen_key(event.actor, event.command_id)
            elif event.command_id is not None or event.actor is not None:
                key = None
            if key is not None:
                self.seen[key] = event.version

    async def sync_from_store(self) -> None:
        """Another process changed this room: take the store's word (the record, its version,
        the new events) and tell our sockets. Safe at any time under ``self.lock``."""
        stored = await self.services.store.get_room(self.code)
        if stored is not None and stored.version != self.record_version:
            self._take(RoomRecordData.from_json(stored.data))
            self.record_version = stored.version
            self._close_unseated()
        if self.data.status != "lobby":
            before = self.version
            stored_events = await self.services.store.read(self.data.stream, after=before)
            if stored_events:
                events = [event_from_json(e.data) for e in stored_events]
                state = self.state
                for event in events:
                    state = evolve(state, event)
                assert state is not None
                self._take_game(state, events)
                self._remember_commands(stored_events)
                self.fanout.send_game(state, self.playing, before, events)
        self._send_room()
        self._changed()

    def _changed(self) -> None:
        """After any change: the driver competes for the lease or gives it up, and (where it
        drives) the timers and computer players are armed again."""
        if self.closed:
            return
        self.driver.wake()
        self.autoplay.after_change()

    def _close_unseated(self) -> None:
        """Sockets whose seat went on another process (kicked, left) are closed here too."""
        for conn in list(self.fanout.conns.values()):
            if conn.seat is None:
                continue
            if not _still_theirs(self.data.seat(conn.seat), conn):
                self.fanout.close_seat(conn.seat, Code.KICKED, "you no longer have a seat here")

    def shutdown(self) -> None:
        """Stop following and driving the room (the lease is given back: see
        ``driver.released``) and close its sockets here."""
        self.closed = True
        self.follower.stop()
        self.driver.shutdown()
        self.autoplay.shutdown()
        self.attendance.stop()
        self.fanout.close_all()

    # ------------------------------------------------------------------ compute, store, swap

    def _take(self, data: RoomRecordData) -> None:
        """Swap in a record the store has accepted (a new game number starts afresh, and the
        computer players with a game that starts)."""
        if data.game_number != self.data.game_number:
            self.state, self.log, self.seen = None, [], {}
            self.fanout.reset_rounds()
            self.autoplay.new_game()
        elif data.status == "playing" and self.data.status != "playing":
            self.autoplay.new_game()
        if data.settings != self.data.settings:
            self.settings = room_settings(data.settings)
            self._readable = None
        self.data = data

    def _take_game(self, state: GameState | None, events: Sequence[Event]) -> None:
        self.state = state
        self.log.extend(events)
        self.autoplay.shelf.learn(events, self.settings.language)

    async def commit(
        self, data: Change, command: CommandKey | None = None, notice: m.Notice | None = None
    ) -> int:
        """Store a new room record (if still at ``record_version``), then take it and tell
        everyone; with ``command``, record that command as applied in the same write; a
        ``notice`` (what the change means for a seat) leaves with the room's update.

        ``data`` is the new record, or a function computing it from the current one: then a
        write refused because another process wrote first is retried on the fresh record
        (:data:`TRIES` times). A refused record raises :class:`VersionConflict` (the caller
        syncs and decides again); a command already recorded :class:`DuplicateCommand`; a
        store failure :class:`StorageError`. Nothing is taken in memory unless stored."""
        if isinstance(data, RoomRecordData):
            return await self._write_record(data, command, notice)
        for attempt in range(TRIES):
            if attempt:
                await self.sync_from_store()
            try:
                return await self._write_record(data(self.data), command, notice)
            except VersionConflict:
                if attempt == TRIES - 1:
                    raise
        raise AssertionError("unreachable")

    async def _write_record(
        self, data: RoomRecordData, command: CommandKey | None, notice: m.Notice | None
    ) -> int:
        self.record_version = await self.services.store.put_room(
            RoomRecord(self.code, data.to_json()), self.record_version, command=command
        )
        self._take(data)
        self._send_room()
        if notice is not None:
            self.tell(notice)
        self._changed()
        await self.follower.publish(self.data.game_number, self.version)
        return self.version

    async def apply(
        self,
        command: Command,
        command_id: str | None,
        actor: str,
        changes: dict[str, Any] | None = None,
        notice: m.Notice | None = None,
    ) -> int:
        """Decide, store (expected version, one transaction with the record), then swap and
        tell everyone. A ``notice`` (a timer's) leaves with the change's update, before the
        change note to other processes: a player gets both together, not the notice a
        moment after a view that already shows the move."""
        old = self.state
        version = old.version if old is not None else 0
        rng = DeferredRandom(command_seed(self.data.seed, self.data.game_number, version))
        state, events = execute(old, command, rng)
        # Only the fields that change (a handler computes them before a reclaim is stored).
        fields = {k: v for k, v in (changes or {}).items() if getattr(self.data, k) != v}
        scale = self.services.config.bot_delay_s
        if state.phase is Phase.OVER:
            fields.update(status="over", reveal=None)
        elif reveal := plan_reveal(events, REVEAL_WAIT_S * scale):
            fields.update(reveal=reveal)
        data = dataclasses.replace(self.data, **fields) if fields else self.data
        deadline = plan_deadline(state, data, self.settings.timers)
        claim = plan_claim(state, data, CLAIM_WAIT_S * scale)
        if deadline != data.deadline or claim != data.claim:
            data = dataclasses.replace(data, deadline=deadline, claim=claim)
        room_changed = data is not self.data
        await self.services.store.append(
            data.stream,
            version,
            [event_to_json(e) for e in events],
            command_id=command_id,
            actor=actor,
            room=RoomRecord(self.code, data.to_json()) if room_changed else None,
            room_version=self.record_version if room_changed else None,
        )
        if room_changed:
            self.record_version += 1
        self._take(data)
        self._take_game(state, events)
        self.fanout.send_game(state, self.playing, version, events)
        if room_changed or self.data.deadline is not None:
            self._send_room()
        if notice is not None:
            self.tell(notice)
        self._changed()
        await self.follower.publish(self.data.game_number, self.version)
        return state.version

    # ------------------------------------------------------------------ who is who, what they see

    def authenticate(self, token: str) -> tuple[str, str | None] | None:
        """("player", seat id) or ("spectator", None) for a valid token, else None."""
        hashed = token_hash(token)
        seat = self.data.holder(hashed)
        if seat is not None:
            return "player", seat.id
        if hashed in self.data.spectators:
            return "spectator", None
        return None

    async def admit(self, token: str) -> tuple[str, str | None] | None:
        """:meth:`authenticate`, reading the record again before refusing: the seat may have
        been taken a moment ago on another process (whose note has not arrived yet)."""
        who = self.authenticate(token)
        if who is None:
            stored = await self.services.store.get_room(self.code)
            if stored is not None and stored.version != self.record_version:
                async with self.lock:
                    await self.sync_from_store()
                who = self.authenticate(token)
        return who

    def deck_ids(self) -> list[str]:
        try:
            return self.services.cards.card_ids(list(self.settings.decks))
        except UnknownDeck:
            return []

    def bots_can_read(self) -> bool:
        decks = tuple(self.settings.decks)
        if self._readable is None or self._readable[0] != decks:
            self._readable = (decks, readable(self.services.cards, self.deck_ids()))
        return self._readable[1]

    def captions_changed(self, slug: str) -> None:
        """A deck's captions changed: if the room plays it, say anew what computers can read."""
        if slug in self.settings.decks:
            self._readable = None
            self._send_room()

    def online(self) -> set[str]:
        """Seats with a socket on any process (this one's, and the shared presence's copy)."""
        return self.fanout.online() | self.attendance.seats()

    def room_state(self) -> m.RoomState:
        online = self.online()
        return room_view(
            self.data,
            self.settings,
            self.state,
            online=online,
            reading=reveal_waiting(self.data, online),
            spectators=self.fanout.spectators() + self.attendance.spectators(),
            bots_can_read=self.bots_can_read(),
        )

    def _send_room(self, skip: int | None = None) -> None:
        if self.fanout.conns:
            self.fanout.send_room(self.room_state(), self.data.host, skip)

    def tell(self, notice: m.Notice) -> None:
        """To every socket of the room: here at once, on other processes through their
        followers (each socket gets it once)."""
        self.fanout.send_all(notice)
        self.follower.tell(Kind.NOTICE, notice.model_dump(mode="json"))

    # ------------------------------------------------------------------ other processes

    def _heard(self, note: Envelope) -> None:
        """Another process's notice, presence or talk note (its changes are read from the
        store)."""
        body = note.body
        if note.kind is Kind.NOTICE:
            self.fanout.send_all(m.Notice.model_validate(body))
        elif note.kind is Kind.TALK:
            self.talk.heard(body)
        elif note.kind is Kind.PRESENCE:
            here = Here(body["seat"] or "", note.origin, str(body["socket"]))
            if not body["here"]:
                self.attendance.went(here)
                return
            if here.seat:  # one socket per seat: the one whose note came last stays
                for conn in list(self.fanout.conns.values()):
                    if conn.seat == here.seat and self.attendance.replaceable(conn):
                        self._replaced(conn)
            self.attendance.came(here)

    def _returned(self, note: Envelope) -> None:
        """This process's presence note came back: a later one of another process replaces
        its socket."""
        socket = str(note.body["socket"])
        conn = self.fanout.conns.get(int(socket)) if socket.isdigit() else None
        if conn is not None and note.body["here"]:
            self.attendance.announced(conn)

    def _replaced(self, conn: Connection) -> None:
        self.fanout.replaced(conn)
        self._departed(conn)

    def _departed(self, conn: Connection) -> None:
        if self.attendance.depart(conn):
            self.follower.tell(Kind.PRESENCE, _presence(conn, here=False))

    def _presence_changed(self) -> None:
        """Sockets came or went on another process: connected flags, the reveal's wait."""
        if self.closed:
            return
        self._send_room()
        self._changed()

    # ------------------------------------------------------------------ sockets

    async def attach(self, conn: Connection, since: int | None, game: int | None) -> None:
        """Seat a new socket and welcome it; a person whose seat the computer was playing
        gets it back."""
        async with self.lock:
            seat = self.data.seat(conn.seat)
            back = seat is not None and seat.is_bot and seat.person
            if back:
                try:
                    await self.commit(lambda data: self._back(data, conn.seat or ""))
                except (VersionConflict, StorageError) as error:  # their next move reclaims it
                    log.warning(
                        "%s: could not give %s back their seat: %s", self.code, conn.seat, error
                    )
                    back = False
            self.fanout.add(conn)
            if game is not None and game != self.data.game_number:
                since = None
            update = self.fanout.catch_up(self.state, self.playing, self.log, conn, since)
            conn.send(m.Welcome(you=you(conn, self.data.host), room=self.room_state(), game=update))
            conn.send(self.talk.state())
            self._send_room(skip=conn.id)
            if back and seat is not None:
                self.tell(reclaimed(seat))
        if conn.closed:
            return
        # Shared presence, then a note: other processes close their socket of this seat.
        await self.attendance.arrive(conn)
        if not await self.follower.note(Kind.PRESENCE, _presence(conn, here=True)):
            self.attendance.announced(conn)  # no order to wait for

    def detach(self, conn: Connection) -> None:
        self._departed(conn)
        if self.fanout.remove(conn):
            self._send_room()
            self._changed()  # a reveal no longer waits for whoever went

    async def reclaim(self, seat: SeatRecord) -> None:
        """The person is back (a game move of theirs): their seat is theirs again."""
        await self.commit(lambda data: self._back(data, seat.id), notice=reclaimed(seat))

    def _back(self, data: RoomRecordData, seat_id: str) -> RoomRecordData:
        """``data`` with ``seat_id``'s person back (a paused table goes on)."""
        return replan(away.back(data, seat_id), self.state, self.settings.timers)

    # ------------------------------------------------------------------ commands

    async def handle(self, conn: Connection, msg: m.ClientModel) -> None:
        """Apply one client message and answer it (ack or error)."""
        if isinstance(msg, m.Ping):
            conn.send(m.Pong(id=msg.id))
            return
        if isinstance(msg, m.Sync):
            update = self.fanout.catch_up(self.state, self.playing, self.log, conn, msg.since)
            conn.send(m.RoomUpdate(room=self.room_state(), you=you(conn, self.data.host)))
            if update is not None:
                conn.send(update)
            return
        command_id: str | None = getattr(msg, "id", None)
        if isinstance(msg, m.Hello) or command_id is None:
            conn.send(error_json(None, Code.MALFORMED, "already said hello"))
            return
        if conn.seat is None:
            conn.send(error_json(command_id, Code.SPECTATOR, "spectators watch"))
            return
        if isinstance(msg, TALK_MESSAGES):
            seat = self.data.seat(conn.seat)
            if not _still_theirs(seat, conn):
                conn.send(error_json(command_id, Code.BAD_TOKEN, "not your seat any more"))
                return
            conn.send(self.talk.handle(conn.seat, command_id, msg, self.version))
            return
        async with self.lock:
            key = seen_key(conn.seat, command_id)
            done = self.seen.get(key)
            if done is not None:
                conn.send(ack_json(command_id, done, True))
                return
            try:
                outcome = await self._decide_and_retry(conn, msg, conn.seat, command_id)
            except CodedError as error:  # the engine's, the server's: nothing changed
                conn.send(error_json(command_id, error.code, error.message))
                return
            except StorageError as error:  # nothing taken; the player may resend
                log.warning("room %s: %s: %s", self.code, type(msg).__name__, error)
                conn.send(error_json(command_id, error.code, error.message))
                return
            except VersionConflict:
                conn.send(error_json(command_id, Code.CONFLICT, "the game moved on; retry"))
                return
            if outcome is None:  # applied before (here, on another process, before a restart)
                conn.send(ack_json(command_id, self.seen.get(key, self.version), True))
                return
            version, close = outcome
            self.seen[key] = version
            conn.send(ack_json(command_id, version, False))
            if close is not None:
                self.fanout.close_seat(close.seat, close.code, close.message)

    async def _decide_and_retry(
        self, conn: Connection, msg: m.ClientModel, seat_id: str, command_id: str
    ) -> tuple[int, handlers.Close | None] | None:
        """Decide and store; when another process wrote first, catch up and decide again on
        the fresh record and events (:data:`TRIES` times at most). The version to acknowledge
        and the sockets to close then; None: this very command was applied before (by this
        process, another one, or before a restart)."""
        recorded = type(msg) in handlers.RECORDED
        command = CommandKey(seat_id, command_id)
        for attempt in range(TRIES):
            if attempt:
                await self.sync_from_store()
                if seen_key(seat_id, command_id) in self.seen:
                    return None
            try:
                seat = self.data.seat(seat_id)
                if not _still_theirs(seat, conn):
                    raise ServerError(Code.BAD_TOKEN, "not your seat any more")
                return await self.dispatch(seat, msg, command_id)
            except DuplicateCommand:  # a lobby command's record: stored with it before
                return None
            except VersionConflict:
                if attempt == TRIES - 1:
                    await self.sync_from_store()
                    raise
            except CodedError:
                # A lobby command resent after it was applied (after a restart, or to another
                # process) may no longer make sense (a seat kicked, a room now full): it was
                # applied, so it is acknowledged. (One that still makes sense is refused by
                # its record: DuplicateCommand.)
                if recorded and await self.services.store.command_applied(self.code, command):
                    return None
                raise
        raise AssertionError("unreachable")

    async def dispatch(
        self, seat: SeatRecord, msg: m.ClientModel, command_id: str
    ) -> tuple[int, handlers.Close | None]:
        """Ask ``msg``'s handler (under :attr:`lock`) and carry out its outcome: the version to
        acknowledge, and the sockets to close once the sender is answered."""
        entry = handlers.HANDLERS.get(type(msg))
        if entry is None:
            raise ServerError(Code.UNKNOWN_TYPE, f"unexpected {type(msg).__name__}")
        host_only, handler = entry
        if host_only and seat.id != self.data.host:
            raise ServerError(Code.NOT_HOST, "only the host can do that", 403)
        ask = handlers.Ask(self.data, self.state, self.settings, self.services.cards, self.online)
        outcome = handler(ask, seat, msg)
        if outcome is None:
            return self.version, None
        if isinstance(outcome, handlers.Move):
            if outcome.reclaim:
                await self.reclaim(seat)  # they are back: their move, their seat
            return await self.apply(outcome.command, command_id, seat.id, outcome.changes), None
        recorded = CommandKey(seat.id, command_id) if type(msg) in handlers.RECORDED else None
        return await self.commit(outcome.data, recorded, outcome.notice), outcome.close


def _presence(conn: Connection, here: bool) -> dict[str, Any]:
    """The body of a presence note (:mod:`.channel`)."""
    return {"seat": conn.seat, "socket": str(conn.id), "here": here}


def _still_theirs(seat: SeatRecord | None, conn: Connection) -> TypeGuard[SeatRecord]:
    """Is ``seat`` still the one ``conn`` was admitted to (not left, its token unchanged)?"""
    return seat is not None and seat.person and seat.token_hash == conn.token_hash


class _Port:
    """The room as its parts reach it: autoplay's :class:`~.autoplay.Table`, the shelf's
    :class:`~.shelf.Source`, the talk's :class:`~.chat.Seats`, and the driver's callables. It
    holds the room weakly, so that no part keeps an unloaded room alive (it is freed by
    reference counting, not at the next full collection, which the server makes rare). One
    object per room: a closure per callable cost 6 KiB and 147 objects more per live game
    (``bench/memory.py live``). Once the room is gone a call raises :class:`ReferenceError`."""

    __slots__ = ("_ref",)

    def __init__(self, room: Room) -> None:
        self._ref = weakref.ref(room)

    @property
    def _room(self) -> Room:
        room = self._ref()
        if room is None:
            raise ReferenceError("the room is gone")
        return room

    @property
    def code(self) -> str:
        return self._room.code

    @property
    def lock(self) -> asyncio.Lock:
        return self._room.lock

    @property
    def data(self) -> RoomRecordData:
        return self._room.data

    @property
    def state(self) -> GameState | None:
        return self._room.state

    @property
    def settings(self) -> m.RoomSettings:
        return self._room.settings

    @property
    def log(self) -> Sequence[Event]:
        """The events of the game in play."""
        return self._room.log

    def online(self) -> set[str]:
        return self._room.online()

    def wanted(self) -> bool:
        """A game is in play here: the room wants a driver."""
        room = self._room
        return room.playing and not room.closed

    def driving(self) -> bool:
        return self._room.driver.driving

    async def apply(
        self,
        command: Command,
        command_id: str | None,
        actor: str,
        changes: dict[str, Any] | None = None,
        notice: m.Notice | None = None,
    ) -> int:
        return await self._room.apply(command, command_id, actor, changes, notice)

    async def commit(self, data: RoomRecordData, *, notice: m.Notice | None = None) -> int:
        return await self._room.commit(data, notice=notice)

    async def sync(self) -> None:
        await self._room.sync_from_store()

    async def events_of(self, game: int) -> list[Event]:
        """The events of the room's game ``game`` (an earlier one: for the card book)."""
        room = self._room
        stored = await room.services.store.read(f"{room.code}:{game}")
        return [event_from_json(s.data) for s in stored]

    def partners(self, seat_id: str) -> tuple[str, ...] | None:
        """``seat_id``'s team in a team game being played; None: no such game."""
        room = self._room
        state = room.state
        if not room.playing or state is None or state.rules.team_size == 1:
            return None
        return state.team_of(seat_id)

    def card_ids(self) -> list[str]:
        """The card ids of the room's decks."""
        return self._room.deck_ids()

    def card_dicts(self) -> list[dict[str, Any]]:
        """deck.json card dicts of the room's decks (what computer players read)."""
        room = self._room
        return card_dicts(room.services.cards, room.deck_ids())
