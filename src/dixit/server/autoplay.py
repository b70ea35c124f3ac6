"""Moves the server makes itself: computer players in seats, and phase timers running out.

Computer players (``dixit.bots``, at the seat's level, in the room's language, reading the
room's decks) play at a person's pace: a clue takes a few seconds, a vote one to three, each
draw different, counted from the phase's start (its stored deadline's, when it has a timer: a
restarted process does not start the pace again). ``--bot-delay`` scales every wait (1: that
pace; 0: at once, for tests).

In team play a computer partner leaves the team's clue, card or vote to a person partner who is
at the table (connected, not late) for :data:`PARTNER_WAIT_S` seconds from the phase's start
(scaled too), and then plays; when the person is away it plays at its own pace, and a phase
timer that runs out plays for the team as for anyone.

The opening claim (``first_storyteller: "claim"``) is planned when the game starts and stored
(:class:`~.records.ClaimRecord`): one computer player, drawn from the room's seed, may claim it,
and in a room with a person only after :data:`CLAIM_WAIT_S` seconds (scaled too); the room's
state shows who and when. No other computer player claims it.

When a phase timer runs out, one move is made for each late seat: a person still connected
keeps their seat and is marked late; a person who is gone is handed to the computer until they
come back. A table where every person is late or away pauses (see :mod:`.away`).

The reveal of a scored round is its own beat: the next phase's timer does not start and no
computer player moves until every person connected has sent ``reveal_seen`` for that round, or
:data:`REVEAL_WAIT_S` seconds (scaled by ``--bot-delay`` too) have passed. People may move.

Only the room's driver (:mod:`.driver`: the process holding the room's lease) runs its timers,
computer players and reveal ends, and only while it holds the lease. A store error never stops
them: it is logged and the step tried again after a backoff (0.5 s doubling to 5 s); when
another process wrote first (``VersionConflict``) the room is read again and the step planned
anew.

Autoplay knows nothing of its room but its :class:`Table` (what it reads of the room and may
ask of it), whether this process drives the room (``driving``) and its card :class:`Shelf`;
the room tells it of every change (:meth:`Autoplay.after_change`) and of a lease gained
(:meth:`Autoplay.gained`).

What computer players read about the cards, and learn from play, is :mod:`.shelf`'s.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from dixit.engine import (
    Command,
    Event,
    GameError,
    GameState,
    Phase,
    RoundScored,
    legal_actions,
    player_view,
    waiting_for,
)
from dixit.protocol import messages as m
from dixit.protocol.codes import NoticeCode
from dixit.storage import StorageError, VersionConflict

from . import away, lobby
from .backoff import BACKOFF
from .records import (
    ClaimRecord,
    DeadlineRecord,
    RevealRecord,
    RoomRecordData,
    RoomStatus,
    SeatKind,
    SeatRecord,
)
from .roomview import autoplayed, bot_level
from .seeding import room_random
from .shelf import Shelf

if TYPE_CHECKING:
    from dixit.bots import Bot

log = logging.getLogger("dixit.server")

TIMED_PHASES = (Phase.CLUE, Phase.SUBMIT, Phase.VOTE)
CLAIM_WAIT_S = 45.0
# Seconds a computer player takes per phase (before --bot-delay scales them): low, high.
PACE: dict[Phase, tuple[float, float]] = {
    Phase.CLUE: (3.0, 7.0),
    Phase.SUBMIT: (1.5, 4.0),
    Phase.VOTE: (1.0, 3.0),
}
GAP = (0.2, 0.6)  # seconds at least between two computer players' moves (scaled too)
# Team play: the longest a computer partner leaves the team's move to a person partner at the
# table, from the phase's start (scaled too; a phase timer that runs out plays it anyway).
PARTNER_WAIT_S = 20.0
REVEAL_WAIT_S = 30.0  # the longest a reveal holds the next turn (scaled too)


def plan_reveal(events: Sequence[Event], wait_s: float) -> RevealRecord | None:
    """The reveal to hold after ``events``, when they score a round (pure but for the clock)."""
    scored = [e for e in events if isinstance(e, RoundScored)]
    if not scored or wait_s <= 0:
        return None
    return RevealRecord(scored[-1].round, int(time.time() * 1000 + wait_s * 1000))


def reveal_waiting(data: RoomRecordData, online: Collection[str]) -> list[str]:
    """The people connected who have not yet said they read the reveal."""
    if data.reveal is None:
        return []
    seen = set(data.reveal.seen)
    people = (s.id for s in data.seats if s.kind is SeatKind.PERSON)
    return [seat for seat in people if seat in online and seat not in seen]


def end_reveal(data: RoomRecordData, state: GameState, timers: m.PhaseTimers) -> RoomRecordData:
    """The reveal is over: the phase timer starts now."""
    data = dataclasses.replace(data, reveal=None)
    return dataclasses.replace(data, deadline=plan_deadline(state, data, timers))


def plan_deadline(
    state: GameState, data: RoomRecordData, timers: m.PhaseTimers
) -> DeadlineRecord | None:
    """The phase deadline ``data`` should carry after a change to ``state`` (none while a reveal
    holds the turn or the table is paused)."""
    if (
        data.status != RoomStatus.PLAYING
        or state.phase not in TIMED_PHASES
        or data.reveal is not None
    ):
        return None
    if away.paused(data):
        return None
    seconds = getattr(timers, state.phase.value)
    if not seconds:
        return None
    current = data.deadline
    if current is not None and current.phase == state.phase and current.round == state.round:
        return current
    at_ms = int(time.time() * 1000) + seconds * 1000
    return DeadlineRecord(state.phase, state.round, state.version, at_ms, seconds)


def replan(data: RoomRecordData, state: GameState | None, timers: m.PhaseTimers) -> RoomRecordData:
    """``data`` with the deadline it should carry (a table that paused, or goes on again)."""
    if state is None:
        return data
    deadline = plan_deadline(state, data, timers)
    return data if deadline == data.deadline else dataclasses.replace(data, deadline=deadline)


def partner_there(
    state: GameState, data: RoomRecordData, online: Collection[str], seat_id: str
) -> bool:
    """In team play: is a person partner of the computer in ``seat_id`` at the table (connected,
    not late, playing their own seat)? Then the team's clue, card or vote is theirs first."""
    if state.rules.team_size == 1:
        return False
    partners = (data.seat(p) for p in state.team_of(seat_id) if p != seat_id)
    return any(
        s is not None and s.kind is SeatKind.PERSON and s.id not in data.late and s.id in online
        for s in partners
    )


def plan_claim(state: GameState, data: RoomRecordData, wait_s: float) -> ClaimRecord | None:
    """The opening claim ``data`` should carry after a change to ``state``: who of the computer
    players may claim it, from when (after ``wait_s`` when a person is seated)."""
    if state.phase is not Phase.CLUE or state.storyteller is not None:
        return None
    if data.claim is not None and data.claim.round == state.round:
        return data.claim
    computers = sorted(s.id for s in data.seats if s.computer)
    by = (
        room_random(data.seed, data.game_number, 0, "claim").choice(computers)
        if computers
        else None
    )
    people = any(s.kind is SeatKind.PERSON for s in data.seats)
    at_ms = int(time.time() * 1000 + (wait_s * 1000 if people else 0))
    return ClaimRecord(state.round, at_ms, by)


class Table(Protocol):
    """What the timers and computer players read of their room and may ask of it (the room
    gives an object holding it weakly). Every step runs under ``lock``."""

    @property
    def code(self) -> str: ...

    @property
    def lock(self) -> asyncio.Lock: ...

    @property
    def data(self) -> RoomRecordData: ...

    @property
    def state(self) -> GameState | None: ...

    @property
    def settings(self) -> m.RoomSettings: ...

    def online(self) -> set[str]:
        """Seats with a socket on any process."""
        ...

    def driving(self) -> bool:
        """This process drives the room now (:mod:`.driver`)."""
        ...

    async def apply(
        self,
        command: Command,
        command_id: str | None,
        actor: str,
        changes: dict[str, Any] | None = None,
        notice: m.Notice | None = None,
    ) -> int:
        """Play a move (the record's ``changes`` and a ``notice`` going with it)."""
        ...

    async def commit(self, data: RoomRecordData, *, notice: m.Notice | None = None) -> int:
        """Store a new room record."""
        ...

    async def sync(self) -> None:
        """Read the room again from the store."""
        ...


class Autoplay:
    def __init__(self, table: Table, shelf: Shelf, scale: float) -> None:
        """``scale``: the ``--bot-delay`` every wait is multiplied by."""
        self.table = table
        self.scale = scale
        self.closed = False
        self._inherited = False  # the lease was taken over from a crashed process
        self._timer: asyncio.Task[None] | None = None
        self._timer_for: DeadlineRecord | None = None
        self._reveal: asyncio.Task[None] | None = None
        self._reveal_for: tuple[RevealRecord, bool] | None = None
        self._runner: asyncio.Task[None] | None = None
        self.shelf = shelf
        self._bots: dict[tuple[str, str], Bot] = {}
        # The seats that are people now (public: the table marks computer seats), read by a
        # storyteller when it tells a clue; set before every move, so seats coming and going
        # are followed by the cached players.
        self._people: frozenset[str] = frozenset()
        # A computer's move of a phase: when the phase began, when the move is due at its pace.
        self._due: dict[tuple[str, int, str], tuple[float, float]] = {}
        self._next_after = 0.0  # computer players do not all act in the same instant
        self._to_hand: list[str] = []  # seats played for by a timer, not yet handed over

    def shutdown(self) -> None:
        self.closed = True
        for task in (self._timer, self._runner, self._reveal):
            if task is not None:
                task.cancel()
        self.shelf.shutdown()

    @property
    def driving(self) -> bool:
        return self.table.driving()

    def gained(self, inherited: bool) -> None:
        """This process drives the room (again) from now on: arm what is due. ``inherited``:
        taken over from a crashed process (every move is overdue)."""
        self._inherited = inherited
        self.after_change()

    def after_change(self) -> None:
        """Re-arm the timer and wake the computer players after any change (on the room's
        driver; elsewhere nothing)."""
        if self.closed or not self.driving:
            return
        data = self.table.data
        if data.status == RoomStatus.PLAYING and any(s.computer for s in data.seats):
            self.shelf.prepare(data.game_number, self.table.settings.language)
        self._arm_reveal()
        self._arm_timer()
        self._schedule()

    def new_game(self) -> None:
        self.shelf.new_game()
        self._bots.clear()
        self._due.clear()
        self._to_hand.clear()

    async def _retrying(self, what: str, step: Callable[[], Awaitable[bool]]) -> None:
        """Run ``step`` (under the room's lock) until it is done (True), the room closes or
        this process no longer drives it. A store error: log, back off, try again; another
        process wrote first: read the room again, then plan the step anew."""
        room = self.table
        delay = BACKOFF[0]
        conflicts = 0
        while not self.closed and self.driving:
            try:
                async with room.lock:
                    if not self.driving or await step():
                        return
                delay = BACKOFF[0]
                continue
            except VersionConflict as conflict:
                conflicts += 1
                problem: Exception = conflict
                try:
                    async with room.lock:
                        await room.sync()
                    if conflicts < 3:
                        continue  # plan again at once; past that, back off as well
                except (StorageError, VersionConflict) as error:
                    problem = error
            except StorageError as error:
                problem = error
            log.warning(
                "room %s: %s failed (%s); trying again in %.1f s",
                room.code,
                what,
                getattr(problem, "message", problem),
                delay,
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, BACKOFF[1])

    # ------------------------------------------------------------------ deciding

    def people(self) -> frozenset[str]:
        """The seats that are people at the last move (what a storyteller models as readers
        of the pictures rather than as computer listeners)."""
        return self._people

    async def decide(self, seat: SeatRecord, *, at_once: bool = False) -> Command | None:
        """The move of the computer player in ``seat`` (its level; a random one if it fails).
        ``at_once``: a move that is overdue (a timer's, or any in a room taken over from a
        crashed process) does not wait for the card book: until it is built (in the
        background; a second or more for each room a restart loads) a card or a vote is a
        random legal one. A clue always waits for the book: people read it, and random
        words are no clue."""
        # Imported here: the players and numpy cost a restart 0.3 s before it answers, and
        # the server imports them in the background once it listens (``app.py``).
        from dixit.bots import RandomBot, make_bot

        room = self.table
        state = room.state
        assert state is not None
        view = player_view(state, seat.id)
        level = bot_level(seat) or m.DEFAULT_BOT_LEVEL
        try:
            bot = self._bots.get((seat.id, level))
            hurried = at_once and state.phase is not Phase.CLUE and self.shelf.book is None
            if bot is None and not hurried:
                book = await self.shelf.book_for_game(room.data.game_number, room.settings.language)
                rng = room_random(room.data.seed, room.data.game_number, 0, seat.id)
                bot = make_bot(
                    level, rng=rng, lang=room.settings.language, book=book, people=self.people
                )
                self._bots[(seat.id, level)] = bot
            if bot is None:  # the book for the next move
                self.shelf.prepare(room.data.game_number, room.settings.language)
            else:
                self._people = frozenset(s.id for s in room.data.seats if s.kind is SeatKind.PERSON)
                command: Command | None = await asyncio.to_thread(bot.act, view)
                if command is not None:
                    return command
        except Exception:  # a computer player's fault must not stop the game
            log.exception("room %s: the %s player for %s failed", room.code, level, seat.id)
        rng = room_random(room.data.seed, room.data.game_number, state.version, seat.id)
        return RandomBot(rng, lang=room.settings.language).act(view)

    # ------------------------------------------------------------------ pace

    def next_move(self, now: float) -> tuple[float, SeatRecord] | None:
        """Seconds until the next computer player is due to move, and which; None: nobody. A
        computer partner of a person at the table waits for them (:func:`partner_there`)."""
        room = self.table
        state = room.state
        data = room.data
        if state is None or data.status != RoomStatus.PLAYING or data.reveal is not None:
            return None
        if away.paused(data):
            return None
        movers = [s for s in data.seats if s.computer and legal_actions(state, s.id)]
        opened = self._next_after
        if state.phase is Phase.CLUE and state.storyteller is None:
            claim = data.claim
            movers = [s for s in movers if claim is not None and s.id == claim.by]
            if claim is not None:
                opened = max(opened, now + claim.at_ms / 1000 - time.time())
        if not movers:
            return None
        online = room.online() if state.rules.team_size > 1 else set()
        best: tuple[float, SeatRecord] | None = None
        for seat in movers:
            key = (seat.id, state.round, state.phase.value)
            planned = self._due.get(key)
            if planned is None:
                low, high = PACE.get(state.phase, (1.0, 2.0))
                rng = room_random(room.data.seed, room.data.game_number, 0, *key)
                began = self._began(now, state)
                planned = self._due[key] = (began, began + rng.uniform(low, high) * self.scale)
            began, due = planned
            if partner_there(state, data, online, seat.id):
                due = max(due, began + PARTNER_WAIT_S * self.scale)
            due = max(due, opened)
            if best is None or due < best[0]:
                best = (due, seat)
        assert best is not None
        return max(0.0, best[0] - now), best[1]

    def _began(self, now: float, state: GameState) -> float:
        """When the phase in play began, on the monotonic clock: from its stored deadline when
        it has one, so that a process that took the room over (a restart after a crash) goes
        on with a computer player's pace rather than starting it again; else ``now``."""
        deadline = self.table.data.deadline
        if (
            deadline is None
            or deadline.bank
            or deadline.phase != state.phase
            or deadline.round != state.round
        ):
            return now
        return min(now, now + deadline.at_ms / 1000 - deadline.seconds - time.time())

    def _schedule(self) -> None:
        if self._runner is not None or self.next_move(time.monotonic()) is None:
            return
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        room = self.table
        try:
            while not self.closed and self.driving:
                planned = self.next_move(time.monotonic())
                if planned is None:
                    return
                if planned[0] > 0:
                    await asyncio.sleep(min(planned[0], 1.0))  # look again: people move too
                    continue
                # The move is decided without the room's lock: a computer player may think for
                # seconds (its deck's card book, its reading of the pictures, in threads), and
                # meanwhile players must still join, reconnect and move.
                seat, state = planned[1], room.state
                command = await self.decide(seat, at_once=self._inherited)
                move = functools.partial(self._move, seat, state, command)
                await self._retrying("a computer player's move", move)
        finally:
            if self._runner is asyncio.current_task():
                self._runner = None

    async def _move(
        self, seat: SeatRecord, decided_on: GameState | None, command: Command | None
    ) -> bool:
        """Play ``command``, decided for ``seat`` on the state ``decided_on``, if that is still
        the room's state and the seat still the one due (under the room's lock); else nothing:
        the loop plans and decides again."""
        room = self.table
        if room.state is not decided_on or command is None:
            return True
        planned = self.next_move(time.monotonic())
        if planned is None or planned[0] > 0 or planned[1].id != seat.id:
            return True
        await self._play(seat.id, command, f"bot:{seat.id}")
        after = room.state
        version = after.version if after is not None else 0
        gap = room_random(room.data.seed, room.data.game_number, version, "gap").uniform(*GAP)
        self._next_after = time.monotonic() + gap * self.scale
        return True

    async def _play(
        self,
        seat_id: str,
        command: Command,
        actor: str,
        notice: m.Notice | None = None,
        late: bool = False,
    ) -> bool:
        """Apply a move made for ``seat_id`` (``notice`` going with it; a person's seat: into
        their account, and marked ``late``); False when it could not be."""
        room = self.table
        if not self.driving:
            return False
        try:
            changes = self._for_person(seat_id, command, late)
            await room.apply(command, None, actor, changes, notice)  # VersionConflict: re-plan
        except GameError as error:
            log.warning("room %s: move for %s refused: %s", room.code, seat_id, error)
            state = room.state
            if state is None:
                return False
            from dixit.bots import RandomBot  # imported once it listens (see ``decide``)

            rng = room_random(room.data.seed, room.data.game_number, state.version, seat_id)
            fallback = RandomBot(rng).act(player_view(state, seat_id))
            if fallback is None:
                return False
            try:
                changes = self._for_person(seat_id, fallback, late)
                await room.apply(fallback, None, actor, changes, notice)
            except GameError:
                return False
        return True

    def _for_person(self, seat_id: str, command: Command, late: bool) -> dict[str, object] | None:
        """The record's changes going with a move made for a person's seat."""
        data, state = self.table.data, self.table.state
        seat = data.seat(seat_id)
        if seat is None or not seat.person or state is None:
            return None
        data = away.played_for(data, seat_id, state.round, command)
        if late:
            data = away.mark_late(data, seat_id)
        return {"played": data.played, "late": data.late}

    # ------------------------------------------------------------------ the reveal's beat

    def _arm_reveal(self) -> None:
        """End the reveal once everyone connected has seen it, or when its time is up."""
        room = self.table
        reveal = room.data.reveal if room.data.status == RoomStatus.PLAYING else None
        plan = None
        if reveal is not None:
            plan = (reveal, not reveal_waiting(room.data, room.online()))
        running = self._reveal is not None and self._reveal is not asyncio.current_task()
        if running and self._reveal_for == plan:
            return
        if running and self._reveal is not None:
            self._reveal.cancel()
        self._reveal, self._reveal_for = None, plan
        if plan is not None:
            self._reveal = asyncio.get_running_loop().create_task(self._end_reveal(*plan))

    async def _end_reveal(self, reveal: RevealRecord, everyone_saw: bool) -> None:
        if not everyone_saw:
            await asyncio.sleep(max(0.0, reveal.until_ms / 1000 - time.time()))
        room = self.table

        async def end() -> bool:
            me = asyncio.current_task()
            if self._reveal is me:
                self._reveal = None  # from here a change arms a new one rather than cancel this
            elif self._reveal is not None:
                return True  # a newer one is armed (this one was trying again)
            current, game = room.data.reveal, room.state
            if current is None or current.round != reveal.round or game is None:
                return True
            reading = reveal_waiting(room.data, room.online())
            if reading and time.time() * 1000 < current.until_ms:
                self._arm_reveal()  # someone still reads it: wait for the time
                return True
            if not self.driving:
                return True
            await room.commit(end_reveal(room.data, game, room.settings.timers))
            return True

        await self._retrying("ending the reveal", end)

    # ------------------------------------------------------------------ timers

    def _arm_timer(self) -> None:
        room = self.table
        deadline = room.data.deadline if room.data.status == RoomStatus.PLAYING else None
        if self._timer is not None and not self._timer.done() and self._timer_for == deadline:
            return  # armed already (or playing it now: it sees its own changes)
        if self._timer is not None and self._timer is not asyncio.current_task():
            self._timer.cancel()
        self._timer, self._timer_for = None, deadline
        if deadline is not None:
            self._timer = asyncio.get_running_loop().create_task(self._expire(deadline))

    async def _expire(self, deadline: DeadlineRecord) -> None:
        try:
            await asyncio.sleep(max(0.0, deadline.at_ms / 1000 - time.time()))
            await self._retrying("a phase timer", lambda: self._expire_now(deadline))
        finally:
            if self._timer is asyncio.current_task():
                self._timer = None

    async def _expire_now(self, deadline: DeadlineRecord) -> bool:
        """Play for every late seat (under the room's lock); True: done with this timer."""
        room = self.table
        await self._hand_over()  # a hand-over an earlier try could not store
        state = room.state
        if (
            room.data.deadline != deadline
            or state is None
            or room.data.status != RoomStatus.PLAYING
        ):
            return True
        late = list(waiting_for(state))
        if state.phase is Phase.CLUE and state.storyteller is None:
            claim = room.data.claim
            if claim is not None and claim.by in state.players:
                late = [claim.by]
            else:
                rng = room_random(room.data.seed, room.data.game_number, state.version, "timer")
                late = [rng.choice(state.players)]
        else:
            late, deadline = await self._draw_on_banks(deadline, late)
        for seat_id in late:
            if not await self._play_late(deadline, seat_id):
                break
        return True

    async def _draw_on_banks(
        self, deadline: DeadlineRecord, late: list[str]
    ) -> tuple[list[str], DeadlineRecord]:
        """With a time bank: charge what the extension that ran out used, and give the late
        people still there with time in their banks a new one (as long as the smallest bank
        left); answers the seats to play for now and the deadline they are played under."""
        room = self.table
        bank_s = room.settings.timers.bank
        if not bank_s:
            return late, deadline
        data = room.data
        if deadline.bank:  # an extension ran out: it used that much of each late bank
            for seat_id in late:
                data = away.charge(data, seat_id, deadline.seconds * 1000)
        online = room.online()

        def present(seat_id: str) -> bool:
            seat = data.seat(seat_id)
            return seat is not None and seat.kind is SeatKind.PERSON and seat_id in online

        banked = [s for s in late if present(s) and away.bank_left_ms(data, s, bank_s) > 0]
        if banked:
            left_ms = min(away.bank_left_ms(data, s, bank_s) for s in banked)
            seconds = -(-left_ms // 1000)
            extension = dataclasses.replace(
                deadline, at_ms=int(time.time() * 1000) + seconds * 1000, seconds=seconds, bank=True
            )
            data = dataclasses.replace(data, deadline=extension)
            deadline = extension
        if data is not room.data:
            await room.commit(data)
        return [s for s in late if s not in banked], deadline

    async def _play_late(self, deadline: DeadlineRecord, seat_id: str) -> bool:
        """Play one move for a late seat: a person still connected keeps it (marked late), one
        who is gone is handed to the computer; False: stop for this timer."""
        room = self.table
        state = room.state
        if state is None or room.data.status != RoomStatus.PLAYING:
            return False
        if state.phase != deadline.phase or state.round != deadline.round:
            return False
        seat = room.data.seat(seat_id)
        if seat is None or not legal_actions(state, seat_id):
            return True
        command = await self.decide(seat, at_once=True)
        if command is None:
            return True
        played = m.Notice(
            code=NoticeCode.AUTO_PLAYED,
            message=f"Time ran out: a computer player played for {seat.name}.",
            seat=seat_id,
        )
        present = seat.computer or seat_id in room.online()
        if not await self._play(seat_id, command, f"timer:{seat_id}", played, late=present):
            return False
        if not present:
            self._to_hand.append(seat_id)
            await self._hand_over()
        return True

    async def _hand_over(self) -> None:
        """Seats a timer played for: the computer plays them until their person is back."""
        room = self.table
        while self._to_hand:
            seat = room.data.seat(self._to_hand[0])
            if not self.driving:
                return  # kept for when this process drives again
            if seat is not None and room.data.status == RoomStatus.PLAYING:
                handed = lobby.hand_to_computer(room.data, seat.id, m.DEFAULT_BOT_LEVEL)
                handed = replan(handed, room.state, room.settings.timers)  # all away: a pause
                if handed is not room.data:
                    await room.commit(handed, notice=autoplayed(seat))
            self._to_hand.pop(0)
