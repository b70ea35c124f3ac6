"""A room's sockets and everything sent to them: one place builds each viewer's payload.

A change reaches a viewer as their own view (the engine's ``player_view``, the one filter every
secret passes through). The redacted events that led to it travel only to sockets that asked
for them (``hello.events``): the web client renders views alone, and a payload nobody reads is
one more place a secret could leak.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from dixit.engine import Event, GameState, LegalActions, player_view, seat_view
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode
from dixit.protocol.convert import (
    redact_dict,
    round_dict,
    seat_dict,
    shared_event_dicts,
    shared_view_dict,
    to_json,
)

from .connection import Connection

CATCH_UP_LIMIT = 1000  # beyond this many missed events a client gets a fresh view instead
_NO_MOVES = LegalActions()  # what a view offers while the room is not playing


class Fanout:
    def __init__(self) -> None:
        self.conns: dict[int, Connection] = {}
        # The revealed rounds as JSON arrays, with how many rounds each holds: every one (made
        # only once a socket asks for them all) and the latest alone.
        self._rounds: tuple[int, str] = (0, "[]")
        self._last_round: tuple[int, str] = (0, "[]")

    # ------------------------------------------------------------------ sockets

    def add(self, conn: Connection) -> None:
        """Seat a socket; an older socket of the same seat is told and closed."""
        if conn.seat is not None:
            for old in [c for c in self.conns.values() if c.seat == conn.seat]:
                self.replaced(old)
        self.conns[conn.id] = conn

    def replaced(self, conn: Connection) -> None:
        """``conn``'s seat connected on a newer socket (here or elsewhere): told and closed."""
        self._close(conn, ErrorCode.REPLACED, "this seat connected elsewhere")

    def remove(self, conn: Connection) -> bool:
        return self.conns.pop(conn.id, None) is not None

    def online(self) -> set[str]:
        return {c.seat for c in self.conns.values() if c.seat is not None and not c.closed}

    def spectators(self) -> int:
        return sum(1 for c in self.conns.values() if c.seat is None)

    def close_seat(self, seat_id: str, code: ErrorCode, message: str) -> None:
        for conn in [c for c in self.conns.values() if c.seat == seat_id]:
            self._close(conn, code, message)

    def _close(self, conn: Connection, code: ErrorCode, message: str) -> None:
        conn.send(m.Closed(code=code, message=message))
        conn.close()
        self.conns.pop(conn.id, None)

    def close_all(self) -> None:
        for conn in list(self.conns.values()):
            conn.close()

    # ------------------------------------------------------------------ sending

    def send_all(self, message: m.ServerModel) -> None:
        text = message.model_dump_json()
        for conn in list(self.conns.values()):
            conn.send(text)

    def send_seats(self, seats: Collection[str], message: m.ServerModel) -> None:
        """To the sockets of ``seats`` only (a team's private line)."""
        text = message.model_dump_json()
        for conn in list(self.conns.values()):
            if conn.seat in seats:
                conn.send(text)

    def send_room(self, room: m.RoomState, host: str | None, skip: int | None = None) -> None:
        """``RoomUpdate(room=room, you=…)`` to every socket but ``skip``: the room's JSON is
        made once and only ``you`` per seat (this follows every reveal and every join)."""
        head = ""
        texts: dict[str | None, str] = {}
        for conn in list(self.conns.values()):
            if conn.id == skip:
                continue
            text = texts.get(conn.seat)
            if text is None:
                if not head:
                    head = room_head(room)
                text = texts[conn.seat] = head + you_json(conn.seat, host) + "}"
            conn.send(text)

    def send_game(
        self, state: GameState, playing: bool, from_version: int, events: Sequence[Event]
    ) -> None:
        """Each socket's ``game`` message after a change (one text per viewer and kind)."""
        if not self.conns:
            return
        numbered = [(from_version + i + 1, e) for i, e in enumerate(events)]
        shared = shared_event_dicts(events) if any(c.events for c in self.conns.values()) else []
        fields = _view_fields(state)
        views: dict[bool, str] = {}  # the shared view with every round (True), the latest alone
        texts: dict[tuple[str | None, bool, bool], str] = {}
        for conn in list(self.conns.values()):
            key = (conn.seat, conn.events, conn.all_rounds)
            text = texts.get(key)
            if text is None:
                view = views.get(conn.all_rounds)
                if view is None:
                    view = views[conn.all_rounds] = self._with_rounds(
                        fields, state, conn.all_rounds
                    )
                with_events = numbered if conn.events else ()
                text = self.game_text(
                    state, playing, conn.seat, from_version, with_events, False, shared, view
                )
                texts[key] = text
            conn.send(text)

    def catch_up(
        self,
        state: GameState | None,
        playing: bool,
        log: Sequence[Event],
        conn: Connection,
        since: int | None,
    ) -> m.GameUpdate | None:
        """``conn``'s fresh view, with the events after ``since`` when it asked for events; or
        a reset to the view."""
        if state is None:
            return None
        version, viewer = state.version, conn.seat
        view = self.shared_view_text(state, conn.rounds_on_catch_up)
        if since is None or since > version or version - since > CATCH_UP_LIMIT:
            text = self.game_text(state, playing, viewer, version, (), True, (), view)
        elif not conn.events:
            text = self.game_text(state, playing, viewer, since, (), False, (), view)
        else:
            missed = [(since + i + 1, e) for i, e in enumerate(log[since:])]
            text = self.game_text(state, playing, viewer, since, missed, False, (), view)
        return m.GameUpdate.model_validate_json(text)

    def game_text(
        self,
        state: GameState,
        playing: bool,
        viewer: str | None,
        from_version: int,
        events: Sequence[tuple[int, Event]],
        reset: bool,
        shared: Sequence[dict[str, object] | None],
        shared_view: str,
    ) -> str:
        """The ``game`` message for one viewer, as JSON text.

        A view is the viewer's own fields (:func:`.engine.seat_view`) and the fields every
        viewer sees alike, ``shared_view`` (:meth:`shared_view_text`, made once per change for
        all the room's sockets). ``shared``: the events' wire dicts that are the same for every
        viewer (None where they differ).
        """
        # Every web client's socket asks for no events: its head is plain text, no encoder.
        wire = "[]"
        if events:
            wire = to_json(
                [
                    {
                        "version": v,
                        "event": shared[i]
                        if i < len(shared) and shared[i]
                        else redact_dict(e, viewer),
                    }
                    for i, (v, e) in enumerate(events)
                ]
            )
        head = _GAME_HEAD + str(from_version) + ',"events":' + wire
        own = to_json(seat_dict(seat_view(state, viewer), None if playing else _NO_MOVES))
        tail = '},"reset":true}' if reset else '},"reset":false}'
        return head + ',"view":' + own[:-1] + "," + shared_view + tail

    def shared_view_text(self, state: GameState, all_rounds: bool = True) -> str:
        """The fields of a view every viewer sees alike, as the inside of a JSON object, with
        every revealed round or (``all_rounds`` false) only the latest.

        They come from the spectator's view (the engine's filter of what everyone may see).
        The revealed rounds are the same for every viewer and only grow, so each is serialized
        once and spliced in: the update's cost stays flat as a game goes on."""
        return self._with_rounds(_view_fields(state), state, all_rounds)

    def _with_rounds(self, fields: str, state: GameState, all_rounds: bool) -> str:
        rounds = self._rounds_json(state) if all_rounds else self._last_round_json(state)
        return fields.replace('"rounds":[]', '"rounds":' + rounds, 1)

    def reset_rounds(self) -> None:
        self._rounds = self._last_round = (0, "[]")

    def _last_round_json(self, state: GameState) -> str:
        """The latest revealed round alone, as a JSON array (made once per round)."""
        rounds = state.rounds
        count, text = self._last_round
        if count != len(rounds):
            text = "[" + to_json(round_dict(rounds[-1])) + "]" if rounds else "[]"
            self._last_round = (len(rounds), text)
        return text

    def _rounds_json(self, state: GameState) -> str:
        """The revealed rounds' JSON array: each round is serialized once, when revealed, and
        appended to the text kept (no per-round copies: the text is all a room keeps)."""
        rounds = state.rounds
        count, text = self._rounds
        if count > len(rounds):
            count, text = 0, "[]"
        if count < len(rounds):
            added = ",".join([to_json(round_dict(scored)) for scored in rounds[count:]])
            text = text[:-1] + ("," if count else "") + added + "]"
            self._rounds = (len(rounds), text)
        return text


def _view_fields(state: GameState) -> str:
    """The shared fields of a view as the inside of a JSON object, ``rounds`` left empty."""
    return to_json(shared_view_dict(player_view(state, None), with_rounds=False))[1:-1]


_GAME_HEAD = '{"type":"game","v":' + str(m.PROTOCOL_VERSION) + ',"from_version":'
_ROOM_HEAD = '{"type":"room","v":' + str(m.PROTOCOL_VERSION) + ',"room":'


def room_head(room: m.RoomState) -> str:
    """A ``RoomUpdate``'s JSON up to its ``you``: ``room_head(r) + you_json(…) + "}"`` is
    ``RoomUpdate(room=r, you=…).model_dump_json()``."""
    return _ROOM_HEAD + room.model_dump_json() + ',"you":'


def you_json(seat: str | None, host: str | None) -> str:
    """``You(…).model_dump_json()`` for a socket of ``seat`` (None: a spectator), without
    building the model."""
    return to_json(
        {
            "role": "player" if seat else "spectator",
            "seat": seat,
            "is_host": seat is not None and seat == host,
        }
    )


def you(conn: Connection, host: str | None) -> m.You:
    return m.You(
        role="player" if conn.seat else "spectator",
        seat=conn.seat,
        is_host=conn.seat is not None and conn.seat == host,
    )
