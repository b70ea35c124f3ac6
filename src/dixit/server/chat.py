"""Talking at the table: a short chat and quick reactions per room, never carrying a card id.

Both are limited per seat (a token bucket each) and in length, and are plain text: the server
passes the words on as typed (control characters dropped, runs of spaces made one) and clients
show them as text, never as markup. A line holding a card id of the room's decks is refused
(``chat/secret``): the chat must never say which card is whose. The host may mute a seat; its
lines and reactions are then refused (``chat/muted``). Spectators read and watch but do not talk.
In team play a line may be the team's own (``say`` with ``team``): it goes to the partners'
sockets only and is not kept in the history (``chat/no_team`` outside a team game).

The talk lives in memory (the last ``CHAT_HISTORY`` lines and the muted seats): it is not part
of the game's record and a restart forgets it. Server processes sharing a room pass every line,
reaction and mute on to each other as ``talk`` notes on the room channel (:mod:`.channel`).

The talk knows nothing of its room but what it is built with: how to send to this process's
sockets, how to pass a note to the other processes (the room's follower, which hands theirs to
:meth:`TableTalk.heard`), and its :class:`Seats` (the room record, a seat's team partners in a
team game being played, the card ids of the room's decks). The room checks that a message
comes from a seat that is still its sender's before it hands it over, and sends the answer.
"""

from __future__ import annotations

import collections
import functools
import logging
import re
import time
import unicodedata
from collections.abc import Callable, Collection
from typing import Any, Protocol

from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code

from .limits import Bucket
from .records import RoomRecordData

log = logging.getLogger("dixit.server")

TALK_MESSAGES = (m.Say, m.React, m.MuteSeat)

# Per seat: a few lines at once, then one every 2 s; reactions a little faster.
CHAT_BURST, CHAT_PER_SECOND = 3, 0.5
REACTION_BURST, REACTION_PER_SECOND = 4, 1.0
SECRET_WINDOW = 8  # this many characters of a card id's hash are enough to name the card
_REMEMBERED_IDS = 200  # command ids kept to acknowledge a resend without saying it twice

_SPACES = re.compile(r"\s+")
_NOT_ALNUM = re.compile(r"[^0-9a-z]")


def plain_text(text: str) -> str:
    """The words as they will be shown: no control or format characters, single spaces."""
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )
    return _SPACES.sub(" ", kept).strip()


@functools.lru_cache(maxsize=64)
def _windows_of(card_ids: tuple[str, ...]) -> frozenset[str]:
    return _secret_windows_of(card_ids)


def secret_windows(card_ids: list[str]) -> frozenset[str]:
    """The pieces of these card ids (one set shared by every room playing the same cards: some
    thousand strings, tens of KiB, for a full deck)."""
    return _windows_of(tuple(card_ids))


def _secret_windows_of(card_ids: tuple[str, ...]) -> frozenset[str]:
    """Every ``SECRET_WINDOW``-character piece of each card's own part (the hash after the deck
    slug), lower case, letters and digits only."""
    pieces: set[str] = set()
    for card_id in card_ids:
        key = _NOT_ALNUM.sub("", card_id.rsplit("-", 1)[-1].lower())
        if len(key) < SECRET_WINDOW:
            key = _NOT_ALNUM.sub("", card_id.lower())
        for i in range(len(key) - SECRET_WINDOW + 1):
            pieces.add(key[i : i + SECRET_WINDOW])
    return frozenset(pieces)


def names_a_card(text: str, windows: frozenset[str]) -> bool:
    """Does ``text`` hold a piece of a card id, even split by spaces or punctuation?"""
    squeezed = _NOT_ALNUM.sub("", text.lower())
    return any(
        squeezed[i : i + SECRET_WINDOW] in windows for i in range(len(squeezed) - SECRET_WINDOW + 1)
    )


class Seats(Protocol):
    """What the talk reads of its room."""

    @property
    def data(self) -> RoomRecordData:
        """The room record now (names, the host)."""
        ...

    def partners(self, seat_id: str) -> tuple[str, ...] | None:
        """``seat_id``'s team in a team game being played (None: no such game)."""
        ...

    def card_ids(self) -> list[str]:
        """The card ids of the room's decks."""
        ...


class TableTalk:
    """One room's chat lines, reactions and mutes."""

    def __init__(
        self,
        code: str,
        origin: str,
        send_all: Callable[[m.ServerModel], None],
        send_seats: Callable[[Collection[str], m.ServerModel], None],
        publish: Callable[[dict[str, Any]], None],
        seats: Seats,
    ) -> None:
        """``send_all``/``send_seats``: to every socket of the room in this process, or those of
        some seats; ``publish``: a talk note's body to the other processes (best effort)."""
        self._code = code
        self._origin = origin
        self._send_all = send_all
        self._send_seats = send_seats
        self._publish = publish
        self._seats = seats
        self.lines: collections.deque[m.ChatLine] | None = None  # made with the first line
        self.count = 0
        self.muted: set[str] = set()
        self._chat: dict[str, Bucket] = {}
        self._reactions: dict[str, Bucket] = {}
        self._done: dict[tuple[str, str], None] = {}  # in the order they came

    # ------------------------------------------------------------------ other processes

    def heard(self, body: Any) -> None:
        """Another process's talk note."""
        try:
            if body.get("to"):  # a team's line: to its sockets here, not kept
                self._send_seats(body["to"], m.Chat.model_validate(body["message"]))
            else:
                self._heard(body["message"])
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("room %s: unreadable talk note", self._code)

    def _heard(self, message: dict[str, object]) -> None:
        """A line, reaction or mute from another process: keep it and tell our sockets."""
        kind = message.get("type")
        if kind == "chat":
            chat = m.Chat.model_validate(message)
            self._keep(chat.line)
            self._send_all(chat)
        elif kind == "reaction":
            self._send_all(m.Reaction.model_validate(message))
        elif kind == "talk":
            self.muted = set(m.Talk.model_validate(message).muted)
            self._send_all(self.state())

    def _tell(
        self, message: m.Chat | m.Reaction | m.Talk, to: Collection[str] | None = None
    ) -> None:
        """To our sockets now (``to``: those of these seats only), and to the other processes'
        (best effort)."""
        if to is None:
            self._send_all(message)
        else:
            self._send_seats(to, message)
        body: dict[str, Any] = {"message": message.model_dump()}
        if to is not None:
            body["to"] = list(to)
        self._publish(body)

    def state(self) -> m.Talk:
        return m.Talk(lines=list(self.lines or ()), muted=sorted(self.muted))

    def _keep(self, line: m.ChatLine) -> None:
        if self.lines is None:
            self.lines = collections.deque(maxlen=m.CHAT_HISTORY)
        self.lines.append(line)

    def handle(
        self, seat_id: str, command_id: str, msg: m.ClientModel, version: int
    ) -> m.Ack | m.Error:
        """Take one talk message from ``seat_id`` (the room has checked the seat is its
        sender's): the answer, an ack (``version``: the room's) or an error with a code (and
        nothing said)."""
        key = (seat_id, command_id)
        if key in self._done:
            return m.Ack(id=command_id, version=version, duplicate=True)
        problem = self._apply(seat_id, msg)
        if problem is not None:
            return m.Error(id=command_id, code=problem[0], message=problem[1])
        self._done[key] = None
        if len(self._done) > _REMEMBERED_IDS:
            del self._done[next(iter(self._done))]
        return m.Ack(id=command_id, version=version, duplicate=False)

    def _apply(self, seat_id: str, msg: m.ClientModel) -> tuple[Code, str] | None:
        if isinstance(msg, m.MuteSeat):
            return self._mute(seat_id, msg)
        if seat_id in self.muted:
            return Code.CHAT_MUTED, "the host has muted you"
        if isinstance(msg, m.React):
            if not self._bucket(self._reactions, seat_id, REACTION_BURST, REACTION_PER_SECOND):
                return Code.CHAT_RATE, "too many reactions; wait a moment"
            now = int(time.time() * 1000)
            self._tell(m.Reaction(seat=seat_id, reaction=msg.reaction, at=now))
            return None
        if isinstance(msg, m.Say):
            return self._say(seat_id, msg.text, msg.team)
        return Code.UNKNOWN_TYPE, f"unexpected {type(msg).__name__}"

    def _say(self, seat_id: str, raw: str, team: bool = False) -> tuple[Code, str] | None:
        partners: tuple[str, ...] | None = None
        if team:
            partners = self._seats.partners(seat_id)
            if partners is None:
                return Code.CHAT_NO_TEAM, "team lines are for a team game being played"
        text = plain_text(raw)
        if not text:
            return Code.CHAT_EMPTY, "say something"
        if len(text) > m.MAX_CHAT_LENGTH:
            return Code.CHAT_TOO_LONG, f"a line has at most {m.MAX_CHAT_LENGTH} characters"
        if names_a_card(text, secret_windows(self._seats.card_ids())):
            return Code.CHAT_SECRET, "a card id cannot be said at the table"
        if not self._bucket(self._chat, seat_id, CHAT_BURST, CHAT_PER_SECOND):
            return Code.CHAT_RATE, "too many lines; wait a moment"
        seat = self._seats.data.seat(seat_id)
        self.count += 1
        line = m.ChatLine(
            id=f"{self._origin}-{self.count}",
            seat=seat_id,
            name=seat.name if seat else seat_id,
            text=text,
            at=int(time.time() * 1000),
            team=team,
        )
        if partners is None:
            self._keep(line)
        self._tell(m.Chat(line=line), partners)
        return None

    def _mute(self, host_id: str, msg: m.MuteSeat) -> tuple[Code, str] | None:
        data = self._seats.data
        if host_id != data.host:
            return Code.NOT_HOST, "only the host can mute"
        if data.seat(msg.seat) is None or msg.seat == host_id:
            return Code.UNKNOWN_SEAT, f"no other seat {msg.seat!r} to mute"
        if msg.muted:
            self.muted.add(msg.seat)
        else:
            self.muted.discard(msg.seat)
        self._tell(self.state())
        return None

    @staticmethod
    def _bucket(buckets: dict[str, Bucket], seat_id: str, burst: int, rate: float) -> bool:
        bucket = buckets.get(seat_id)
        if bucket is None:
            bucket = buckets[seat_id] = Bucket(burst, rate)
        return bucket.take()
