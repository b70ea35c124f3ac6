"""The wire protocol: every message a client and the server exchange, typed and versioned.

One WebSocket per player (or spectator) per room. Every message is a JSON object with ``type``
(the discriminator) and ``v`` (:data:`PROTOCOL_VERSION`). The first client message on a socket
is :class:`Hello`; commands then carry a client-made ``id`` so that a resend is applied at most
once. The server answers each command with :class:`Ack` or :class:`Error` (same ``id``), and
tells everyone what changed with :class:`GameUpdate` (their own view plus redacted events) and
:class:`RoomUpdate` (seats, host, timers, settings).

Changes after version 1 are additive only: new optional fields, new message types.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel

from dixit.engine import AwardReason, EndReason, Outcome

from .codes import ErrorCode, NoticeCode

PROTOCOL_VERSION = 1

MAX_MESSAGE_BYTES = 16 * 1024
MAX_NAME_LENGTH = 32
MAX_CLUE_LENGTH = 2000  # the rules' clue_max_length (default 200) is checked by the engine
MAX_COMMAND_ID_LENGTH = 64
RABBIT_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "white")

RabbitColour = Literal["red", "orange", "yellow", "green", "blue", "purple", "pink", "white"]
Edition = Literal["classic", "2021", "odyssey"]
Mode = Literal["standard", "party", "teams"]
FirstStoryteller = Literal["claim", "random", "host"]
RoomStatus = Literal["lobby", "playing", "over"]
Language = Literal["it", "pl", "es", "pt", "fr", "en"]
BotLevel = Literal["random", "easy", "medium", "strong"]
BOT_LEVELS: tuple[BotLevel, ...] = ("random", "easy", "medium", "strong")
DEFAULT_BOT_LEVEL: BotLevel = "medium"
PhaseName = Literal["setup", "clue", "submit", "vote", "over"]
Role = Literal["player", "spectator"]
MAX_TABLE_NAME_LENGTH = 40

CommandId = Annotated[str, Field(min_length=1, max_length=MAX_COMMAND_ID_LENGTH)]
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME_LENGTH)]
SeatId = Annotated[str, Field(min_length=1, max_length=16)]
CardId = Annotated[str, Field(min_length=1, max_length=128)]


class ClientModel(BaseModel):
    """Sent by clients: unknown fields are an error, never silently dropped."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ServerModel(BaseModel):
    """Sent by the server: every field is always present on the wire."""

    model_config = ConfigDict(frozen=True, json_schema_serialization_defaults_required=True)


# --------------------------------------------------------------------------- room settings


class PhaseTimers(ClientModel):
    """Seconds each phase may last before the server plays for the late players (null: none)."""

    clue: Annotated[int, Field(ge=1, le=3600)] | None = None
    submit: Annotated[int, Field(ge=1, le=3600)] | None = None
    vote: Annotated[int, Field(ge=1, le=3600)] | None = None
    bank: Annotated[int, Field(ge=1, le=3600)] | None = Field(
        default=None,
        description="a time bank: seconds each person may draw on over the game when a phase's "
        "timer runs out on them while they are there, before a move is played for them",
    )


class RoomSettings(ClientModel):
    """What the room creator chooses; the host may change it in the lobby."""

    edition: Edition = "classic"
    mode: Mode = Field(
        default="standard",
        description="party: Dixit Party (6-12 players; everyone votes, the storyteller voids a "
        "card, one round per storyteller); teams: Team Dixit (6, 8, 10 or 12 players, partners "
        "in seats 1-2, 3-4, ...)",
    )
    lone_finder_bonus: bool | None = Field(
        default=None, description="null: the edition's default (on for classic 3-player games)"
    )
    end_at_score: Annotated[int, Field(ge=1, le=1000)] | None = Field(
        default=None, description="null: the edition's default (2021: 30; classic: none)"
    )
    max_rounds: Annotated[int, Field(ge=1, le=1000)] | None = None
    max_players: Annotated[int, Field(ge=3, le=12)] | None = Field(
        default=None, description="seat limit; null: the edition's maximum (odyssey: 12)"
    )
    timers: PhaseTimers = PhaseTimers()
    decks: Annotated[list[Annotated[str, Field(max_length=64)]], Field(max_length=8)] = Field(
        default_factory=list, description="deck slugs (GET /api/decks); empty: the default deck"
    )
    bots: Annotated[int, Field(ge=0, le=11)] = Field(
        default=0, description="computer players seated when the room is created"
    )
    first_storyteller: FirstStoryteller = "claim"
    clue_max_length: Annotated[int, Field(ge=1, le=MAX_CLUE_LENGTH)] | None = None
    language: Language = Field(
        default="en", description="the room's language: computer players tell clues in it"
    )
    public: bool = Field(default=False, description="listed on GET /api/tables while it waits")
    table_name: Annotated[str, Field(max_length=MAX_TABLE_NAME_LENGTH)] | None = None


# --------------------------------------------------------------------------- client → server


class Hello(ClientModel):
    """First message on a socket. ``since``: the last game version this client saw (rejoin)."""

    type: Literal["hello"] = "hello"
    v: int = PROTOCOL_VERSION
    token: Annotated[str, Field(min_length=1, max_length=128)]
    since: Annotated[int, Field(ge=0)] | None = None
    game: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="the room's game_number that ``since`` refers to"
    )
    events: bool = Field(
        default=False,
        description="also send the redacted events behind each change (default: views only)",
    )
    rounds: Literal["all", "last", "catch_up"] = Field(
        default="all",
        description="which revealed rounds each view carries: every one, oldest first (the "
        "default); only the latest (a client that shows only the last reveal); or every one in "
        "the welcome's catch-up and ``sync`` and the latest alone in each change after (a "
        "client that keeps the history itself)",
    )


class GiveClue(ClientModel):
    type: Literal["give_clue"] = "give_clue"
    v: int = PROTOCOL_VERSION
    id: CommandId
    card: CardId
    clue: Annotated[str, Field(max_length=MAX_CLUE_LENGTH)]


class SubmitCards(ClientModel):
    type: Literal["submit_cards"] = "submit_cards"
    v: int = PROTOCOL_VERSION
    id: CommandId
    cards: Annotated[list[CardId], Field(min_length=1, max_length=3)]


class CastVote(ClientModel):
    type: Literal["cast_vote"] = "cast_vote"
    v: int = PROTOCOL_VERSION
    id: CommandId
    card: CardId
    second: CardId | None = Field(
        default=None,
        description="a second vote on another card, where ``legal.vote_count`` is 2 (Odyssey, "
        "7 or more players); both votes are cast at once",
    )


class VoidCard(ClientModel):
    """Party play, the storyteller: void one table card (votes on it score nothing)."""

    type: Literal["void_card"] = "void_card"
    v: int = PROTOCOL_VERSION
    id: CommandId
    card: CardId


class SetProfile(ClientModel):
    """Change your own name and/or rabbit colour."""

    type: Literal["set_profile"] = "set_profile"
    v: int = PROTOCOL_VERSION
    id: CommandId
    name: Name | None = None
    colour: RabbitColour | None = None


class UpdateSettings(ClientModel):
    """Host, in the lobby: replace the room's settings (bots here are ignored: use add_bot)."""

    type: Literal["update_settings"] = "update_settings"
    v: int = PROTOCOL_VERSION
    id: CommandId
    settings: RoomSettings


class AddBot(ClientModel):
    """Host, in the lobby: seat a computer player of ``level``."""

    type: Literal["add_bot"] = "add_bot"
    v: int = PROTOCOL_VERSION
    id: CommandId
    level: BotLevel = DEFAULT_BOT_LEVEL


class SetBotLevel(ClientModel):
    """Host: change how well the computer player in seat ``player`` plays (lobby or game)."""

    type: Literal["set_bot_level"] = "set_bot_level"
    v: int = PROTOCOL_VERSION
    id: CommandId
    player: SeatId
    level: BotLevel


class StartGame(ClientModel):
    """Host: deal and start (in the lobby)."""

    type: Literal["start_game"] = "start_game"
    v: int = PROTOCOL_VERSION
    id: CommandId


class Kick(ClientModel):
    """Host: remove a seat (lobby) or hand it to a computer player and revoke its token (game)."""

    type: Literal["kick"] = "kick"
    v: int = PROTOCOL_VERSION
    id: CommandId
    seat: SeatId


class SetBot(ClientModel):
    """Host: let a computer player play a seat (``bot: true``) or give it back (``false``)."""

    type: Literal["set_bot"] = "set_bot"
    v: int = PROTOCOL_VERSION
    id: CommandId
    seat: SeatId
    bot: bool


class TransferHost(ClientModel):
    type: Literal["transfer_host"] = "transfer_host"
    v: int = PROTOCOL_VERSION
    id: CommandId
    seat: SeatId


class EndGame(ClientModel):
    """Host: stop the game now; the leaders win."""

    type: Literal["end_game"] = "end_game"
    v: int = PROTOCOL_VERSION
    id: CommandId


class Rematch(ClientModel):
    """Host, after a game: back to the lobby with the same seats and settings."""

    type: Literal["rematch"] = "rematch"
    v: int = PROTOCOL_VERSION
    id: CommandId


class Leave(ClientModel):
    """Give up your seat (in a game a computer player takes it over). The token stops working."""

    type: Literal["leave"] = "leave"
    v: int = PROTOCOL_VERSION
    id: CommandId


class RevealSeen(ClientModel):
    """You have read the reveal of ``round`` (Continue, or it closed by itself). The next
    phase's timer and the computer players wait for every connected person, or 30 s."""

    type: Literal["reveal_seen"] = "reveal_seen"
    v: int = PROTOCOL_VERSION
    id: CommandId
    round: Annotated[int, Field(ge=1)]


class Here(ClientModel):
    """I am at the table: after a timer played for you (or the computer played your seat while
    you were away), your seat is yours again, your account (``Seat.played_for``) is read, and a
    paused table goes on. Saying it again changes nothing."""

    type: Literal["here"] = "here"
    v: int = PROTOCOL_VERSION
    id: CommandId


class Sync(ClientModel):
    """Ask again for what was missed since ``since`` (or a fresh view)."""

    type: Literal["sync"] = "sync"
    v: int = PROTOCOL_VERSION
    since: Annotated[int, Field(ge=0)] | None = None


class Ping(ClientModel):
    type: Literal["ping"] = "ping"
    v: int = PROTOCOL_VERSION
    id: CommandId | None = None


# --------------------------------------------------------------------------- table talk
# Quick reactions and a short chat per room (src/dixit/server/chat.py). Plain text, never a card
# id; rate-limited per seat; the host may mute a seat. Error codes: chat/empty, chat/too_long,
# chat/rate, chat/secret (the text holds a card id of the room's decks), chat/muted.

MAX_CHAT_LENGTH = 200
CHAT_HISTORY = 50
REACTIONS = ("like", "laugh", "wow", "love", "think", "clap", "rabbit", "party")
ReactionName = Literal["like", "laugh", "wow", "love", "think", "clap", "rabbit", "party"]


class Say(ClientModel):
    """A player's chat line (at most MAX_CHAT_LENGTH characters, shown as plain text)."""

    type: Literal["say"] = "say"
    v: int = PROTOCOL_VERSION
    id: CommandId
    text: str
    team: bool = Field(
        default=False,
        description="team play, during a game: only the speaker's team hears it (the line is not "
        "kept in the room's history)",
    )


class React(ClientModel):
    """A quick reaction from the fixed set (REACTIONS), shown on the table for a moment."""

    type: Literal["react"] = "react"
    v: int = PROTOCOL_VERSION
    id: CommandId
    reaction: ReactionName


class MuteSeat(ClientModel):
    """Host: stop (``muted: true``) or allow again a seat's chat lines and reactions."""

    type: Literal["mute"] = "mute"
    v: int = PROTOCOL_VERSION
    id: CommandId
    seat: SeatId
    muted: bool


class ChatLine(ServerModel):
    """One chat line: ``id`` is unique in the room; ``at`` is Unix ms; ``name`` as it was."""

    id: str
    seat: SeatId
    name: str
    text: str
    at: int
    team: bool = Field(default=False, description="a team line: sent to the speaker's team only")


class Chat(ServerModel):
    """Someone said something (to every socket of the room, spectators too)."""

    type: Literal["chat"] = "chat"
    v: int = PROTOCOL_VERSION
    line: ChatLine


class Reaction(ServerModel):
    """Someone reacted (not kept: a client shows it for a moment)."""

    type: Literal["reaction"] = "reaction"
    v: int = PROTOCOL_VERSION
    seat: SeatId
    reaction: ReactionName
    at: int


class Talk(ServerModel):
    """The room's recent chat lines and the muted seats: after ``welcome`` and on each mute."""

    type: Literal["talk"] = "talk"
    v: int = PROTOCOL_VERSION
    lines: list[ChatLine]
    muted: list[SeatId]


ClientMessageUnion = Annotated[
    Hello
    | GiveClue
    | SubmitCards
    | CastVote
    | VoidCard
    | SetProfile
    | UpdateSettings
    | AddBot
    | SetBotLevel
    | StartGame
    | Kick
    | SetBot
    | TransferHost
    | EndGame
    | Rematch
    | Leave
    | RevealSeen
    | Here
    | Sync
    | Ping
    | Say
    | React
    | MuteSeat,
    Field(discriminator="type"),
]


class ClientMessage(RootModel[ClientMessageUnion]):
    """Any message a client may send."""


# --------------------------------------------------------------------------- game view


class Rules(ServerModel):
    """The rules a game is played by (the engine's ``Rules``)."""

    edition: str
    min_players: int
    max_players: int
    hand_size: int
    three_player_hand_size: int
    three_player_cards_each: int
    lone_finder_bonus: bool | None
    reshuffle_discards: bool
    end_at_score: int | None
    max_rounds: int | None
    clue_max_length: int
    two_votes_from: int | None = Field(
        default=None, description="from this many players on, each voter has two votes"
    )
    votes_received_cap: int | None = Field(
        default=None, description="the most points from votes on one's cards in a round"
    )
    single_vote_bonus: int = Field(
        default=0, description="with two votes: a finder's extra points for casting only one"
    )
    mode: Mode = "standard"
    everyone_votes: bool = Field(default=False, description="party: the storyteller votes too")
    party_cap: int = Field(default=5, description="party: the most points a voter scores")
    pass_hands: bool = Field(default=False, description="party: hands pass left after a round")
    storyteller_turns: int | None = Field(
        default=None, description="the game ends when everyone has told this many times"
    )
    team_size: int = Field(default=1, description="teams: partners are this many seats in a row")


class LegalActions(ServerModel):
    """What the viewer may do now. The client enables only these; empty lists: nothing."""

    give_clue: list[CardId]
    submit: list[CardId]
    submit_count: int
    vote: list[CardId]
    max_clue_length: int
    vote_count: int = Field(
        default=0, description="votes the viewer may cast now (2: a second, optional one)"
    )
    void: list[CardId] = Field(
        default_factory=list, description="party play, the storyteller: cards they may void"
    )


class PointsAwarded(ServerModel):
    player: SeatId
    points: int
    reason: AwardReason


class CardOwner(ServerModel):
    card: CardId
    player: SeatId


class Vote(ServerModel):
    player: SeatId
    card: CardId


class RoundResult(ServerModel):
    """The reveal of one round: whose card was whose, every vote, and the points."""

    round: int
    storyteller: SeatId
    clue: str
    storyteller_card: CardId
    table: list[CardId]
    owners: list[CardOwner]
    votes: list[Vote] = Field(
        description="in seat order; a player with two votes appears twice, first vote first"
    )
    outcome: Outcome
    awards: list[PointsAwarded]
    void: CardId | None = Field(default=None, description="party play: the voided card")


class GameView(ServerModel):
    """One player's view of the game (``viewer`` null and ``hand`` null for a spectator)."""

    viewer: SeatId | None
    version: int
    rules: Rules
    players: list[SeatId]
    phase: PhaseName
    round: int
    storyteller: SeatId | None
    clue: str | None
    hand: list[CardId] | None
    my_cards: list[CardId]
    my_vote: CardId | None
    my_second_vote: CardId | None = None
    my_void: CardId | None = Field(default=None, description="party play: the storyteller's void")
    partner_hand: list[CardId] | None = Field(
        default=None, description="team play: the partner's hand (the team decides together)"
    )
    table: list[CardId]
    acted: list[SeatId]
    waiting_for: list[SeatId]
    scores: dict[str, int]
    pile_count: int
    discard_count: int
    rounds: list[RoundResult] = Field(
        description="the revealed rounds, oldest first: every one, or only the latest for a "
        'socket that said hello with ``rounds: "last"``'
    )
    winners: list[SeatId]
    end_reason: EndReason | str | None = Field(
        default=None,
        description="why the game ended: one of EndReason, or the host's own words "
        "(null while it goes on)",
    )
    legal: LegalActions


# --------------------------------------------------------------------------- redacted events


class GameStartedEvent(ServerModel):
    type: Literal["GameStarted"] = "GameStarted"
    rules: Rules
    players: list[SeatId]
    pile_count: int


class Draw(ServerModel):
    """Cards one player drew: ``cards`` only for the viewer's own draw, else null."""

    player: SeatId
    count: int
    cards: list[CardId] | None


class CardsDrawnEvent(ServerModel):
    type: Literal["CardsDrawn"] = "CardsDrawn"
    draws: list[Draw]


class RoundStartedEvent(ServerModel):
    type: Literal["RoundStarted"] = "RoundStarted"
    round: int
    storyteller: SeatId | None


class ClueGivenEvent(ServerModel):
    """``card``: only for the storyteller themself."""

    type: Literal["ClueGiven"] = "ClueGiven"
    storyteller: SeatId
    clue: str
    card: CardId | None


class CardsSubmittedEvent(ServerModel):
    """``cards``: only for the player who submitted them."""

    type: Literal["CardsSubmitted"] = "CardsSubmitted"
    player: SeatId
    count: int
    cards: list[CardId] | None


class TableLaidEvent(ServerModel):
    type: Literal["TableLaid"] = "TableLaid"
    cards: list[CardId]


class VoteCastEvent(ServerModel):
    """``card``: only for the voter themself (everyone learns every vote in RoundScored)."""

    type: Literal["VoteCast"] = "VoteCast"
    player: SeatId
    card: CardId | None
    second: CardId | None = Field(default=None, description="the voter's second vote, for them")


class CardVoidedEvent(ServerModel):
    """Party play: the storyteller voided a card; ``card`` only for the storyteller."""

    type: Literal["CardVoided"] = "CardVoided"
    storyteller: SeatId
    card: CardId | None


class HandsPassedEvent(ServerModel):
    """Party play: every hand went to the next seat (the view has the viewer's new hand)."""

    type: Literal["HandsPassed"] = "HandsPassed"


class RoundScoredEvent(ServerModel):
    type: Literal["RoundScored"] = "RoundScored"
    result: RoundResult


class PileReshuffledEvent(ServerModel):
    type: Literal["PileReshuffled"] = "PileReshuffled"
    pile_count: int


class GameEndedEvent(ServerModel):
    type: Literal["GameEnded"] = "GameEnded"
    winners: list[SeatId]
    reason: EndReason | str = Field(description="one of EndReason, or the host's own words")


GameEventUnion = Annotated[
    GameStartedEvent
    | CardsDrawnEvent
    | RoundStartedEvent
    | ClueGivenEvent
    | CardsSubmittedEvent
    | TableLaidEvent
    | VoteCastEvent
    | CardVoidedEvent
    | RoundScoredEvent
    | HandsPassedEvent
    | PileReshuffledEvent
    | GameEndedEvent,
    Field(discriminator="type"),
]


class VersionedEvent(ServerModel):
    """An event as one viewer may see it; ``version``: the game version it produced."""

    version: int
    event: GameEventUnion


# --------------------------------------------------------------------------- room state


class PlayedFor(ServerModel):
    """A move the server made for a person's seat: a timer ran out, or the computer played it
    while they were away. ``clue``: the clue it told for them (a clue is public)."""

    round: int
    phase: Literal["clue", "submit", "vote"]
    clue: str | None


class Seat(ServerModel):
    id: SeatId
    name: str
    colour: RabbitColour
    is_host: bool
    is_bot: bool = Field(description="a computer player plays this seat now")
    bot_kind: str | None = Field(description="which computer player, if any (its level)")
    bot_level: BotLevel | None = Field(
        description="the level of the computer player playing this seat now; null for a person"
    )
    connected: bool
    left: bool = Field(description="the person left or was kicked; a computer player took over")
    autoplay: bool = Field(
        description="a person's seat the computer plays while they are away (the timer ran "
        "out while they were gone, or the host handed it over); they get it back by "
        "reconnecting, playing or sending `here`"
    )
    late: bool = Field(
        default=False,
        description="a timer played for this person while they were connected; they keep the "
        "seat, and are no longer late once they play or send `here`",
    )
    bank_left: int | None = Field(
        default=None,
        description="seconds left in this person's time bank (null: the room has none)",
    )
    played_for: list[PlayedFor] = Field(
        default_factory=list,
        description="the moves made for this person (latest 12) since they last sent `here`",
    )


class Deadline(ServerModel):
    """The running phase timer: at ``at`` (Unix ms) the server plays for ``players``."""

    phase: PhaseName
    version: int
    at: int
    seconds: int
    players: list[SeatId]
    bank: bool = Field(
        default=False, description="the late players are drawing on their time banks"
    )


class RevealBeat(ServerModel):
    """The reveal of ``round`` is being read: nothing of the next turn runs until every
    connected person has sent ``reveal_seen`` or ``until`` (Unix ms) has passed."""

    round: int
    until: int
    waiting: list[SeatId] = Field(description="connected people still reading it")


class Claim(ServerModel):
    """The opening claim ("first to give a clue"): anyone may tell the first clue; from ``at``
    (Unix ms) the computer player ``by`` tells it if nobody has (``by`` null: no computer
    player will; a phase timer may still play for someone)."""

    at: int
    by: SeatId | None


class RoomState(ServerModel):
    code: str
    status: RoomStatus
    game_number: int = Field(description="1 for the first game, +1 per rematch")
    host: SeatId | None
    seats: list[Seat]
    spectators: int
    settings: RoomSettings
    deadline: Deadline | None
    reveal: RevealBeat | None = None
    paused: bool = Field(
        default=False,
        description="every person at the table is late or away: no timer runs and no computer "
        "player moves until a person plays or sends `here`",
    )
    claim: Claim | None = Field(default=None, description="the opening claim, while it is open")
    version: int = Field(description="the game's version (0 before the first game starts)")
    bots_can_read: bool = Field(
        description="every card of the room's decks has a description computer players can "
        "read (false: some have none, e.g. an imported deck not yet captioned, and they play "
        "those by chance); sent anew when captions change"
    )
    cards_needed: int | None = Field(
        default=None,
        description="the cards the room's rules need for the players seated (every hand dealt "
        "and one refill; at least for the rules' fewest players), so a lobby can say how many "
        "its decks lack; null when the settings make no playable game",
    )


class You(ServerModel):
    role: Role
    seat: SeatId | None
    is_host: bool


# --------------------------------------------------------------------------- server → client


class Welcome(ServerModel):
    """Answer to Hello: who you are, the room, and the game (events since ``since``, or none)."""

    type: Literal["welcome"] = "welcome"
    v: int = PROTOCOL_VERSION
    you: You
    room: RoomState
    game: GameUpdate | None


class GameUpdate(ServerModel):
    """What changed in the game: redacted events ``from_version``+1..``view.version``, and the
    viewer's fresh view. ``reset``: the events do not reach back to ``from_version`` (a client
    drops its history and takes ``view`` as the truth)."""

    type: Literal["game"] = "game"
    v: int = PROTOCOL_VERSION
    from_version: int
    events: list[VersionedEvent]
    view: GameView
    reset: bool


class RoomUpdate(ServerModel):
    type: Literal["room"] = "room"
    v: int = PROTOCOL_VERSION
    room: RoomState
    you: You


class Ack(ServerModel):
    """The command ``id`` was applied (``duplicate``: it had been already; nothing new)."""

    type: Literal["ack"] = "ack"
    v: int = PROTOCOL_VERSION
    id: str
    version: int
    duplicate: bool


class Error(ServerModel):
    """A rejection. ``code`` is stable (the engine's, e.g. ``action/cannot_vote_own_card``, or
    the server's: ``room/…``, ``auth/…``, ``command/…``, ``limit/…``); nothing changed.
    ``id``: the command's, when the message could be read that far."""

    type: Literal["error"] = "error"
    v: int = PROTOCOL_VERSION
    id: str | None
    code: ErrorCode
    message: str


class Notice(ServerModel):
    """Something players should know, e.g. ``timer/auto_played``: the server played for a seat."""

    type: Literal["notice"] = "notice"
    v: int = PROTOCOL_VERSION
    code: NoticeCode
    message: str
    seat: SeatId | None


class Pong(ServerModel):
    type: Literal["pong"] = "pong"
    v: int = PROTOCOL_VERSION
    id: str | None


class Closed(ServerModel):
    """The server is closing this socket: ``code`` e.g. ``room/kicked``, ``room/left``."""

    type: Literal["closed"] = "closed"
    v: int = PROTOCOL_VERSION
    code: ErrorCode
    message: str


ServerMessageUnion = Annotated[
    Welcome
    | GameUpdate
    | RoomUpdate
    | Ack
    | Error
    | Notice
    | Pong
    | Closed
    | Chat
    | Reaction
    | Talk,
    Field(discriminator="type"),
]


class ServerMessage(RootModel[ServerMessageUnion]):
    """Any message the server may send."""


# --------------------------------------------------------------------------- HTTP lobby API


class CreateRoomRequest(ClientModel):
    name: Name
    colour: RabbitColour | None = None
    settings: RoomSettings = RoomSettings()


class JoinRoomRequest(ClientModel):
    name: Name
    colour: RabbitColour | None = None


class SeatTicket(ServerModel):
    """Returned by create/join/spectate. Keep ``token`` secret: it is the seat's only key."""

    code: str
    token: str
    role: Role
    seat: SeatId | None
    url: str = Field(description="the room's join link, relative to the server: /r/CODE")
    ws: str = Field(description="the WebSocket path: /ws/CODE")


MAX_CAPTION_LENGTH = 200


class DeckInfo(ServerModel):
    """A deck as the deck picker lists it."""

    slug: str
    name: str
    card_count: int
    kind: Literal["illustrated", "generated", "imported"] = Field(
        description="illustrated (public-domain art), generated, or imported by a host"
    )
    licence: str | None = Field(description="the deck's licence line; null when it gives none")
    preview: list[CardId] = Field(description="3-4 card ids to show as the deck's preview")
    described: int = Field(
        description="how many cards have a description computer players can read"
    )
    default: bool = Field(description="dealt when a room chooses no deck")
    mine: bool = Field(
        default=False,
        description="uploaded by the asker (X-Dixit-Seats): private to them and the rooms "
        "that use it; they may add pictures to it, rename and delete it",
    )


class DeckList(ServerModel):
    decks: list[DeckInfo]


class CardCredits(ServerModel):
    """Where an illustrated card's picture comes from."""

    artist: str
    work: str
    published: str | None


class CardText(ServerModel):
    """A card's words from its deck's metadata, in the asked language where the deck has it
    (else English; None where the deck has none)."""

    id: CardId
    title: str | None = Field(description="a short title; null when the deck gives none")
    alt: str | None = Field(
        description="alt text (a literal description); null when the deck has no metadata"
    )
    description: str | None = Field(
        default=None, description="one to three literal sentences; null when none"
    )
    credits: CardCredits | None = Field(
        default=None, description="artist and book of an illustrated card; null otherwise"
    )


class DeckCards(ServerModel):
    """GET /api/decks/{slug}/cards?lang=xx: every card of a deck with its words in that
    language (fallback English). Deck data only (nothing about any game); ids are content
    hashes, so clients may cache it."""

    slug: str
    lang: Language
    cards: list[CardText]


class CaptionsRequest(ClientModel):
    """POST /api/decks/{slug}/captions: a host describes the cards of an imported deck.
    An empty caption removes the card's description."""

    token: Annotated[str, Field(min_length=1, max_length=128)]
    captions: Annotated[
        dict[CardId, Annotated[str, Field(max_length=MAX_CAPTION_LENGTH)]],
        Field(min_length=1, max_length=500),
    ]


class DeckEditRequest(ClientModel):
    """PATCH /api/decks/{slug} (``name``: rename) or DELETE /api/decks/{slug}: the uploader's
    seat token (the host's token that uploaded the deck)."""

    token: Annotated[str, Field(min_length=1, max_length=128)]
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None


class ApiError(ServerModel):
    code: ErrorCode
    message: str


CLIENT_MESSAGE_TYPES: dict[str, type[ClientModel]] = {
    cls.model_fields["type"].default: cls
    for cls in (
        Hello,
        GiveClue,
        SubmitCards,
        CastVote,
        VoidCard,
        SetProfile,
        UpdateSettings,
        AddBot,
        SetBotLevel,
        StartGame,
        Kick,
        SetBot,
        TransferHost,
        EndGame,
        Rematch,
        Leave,
        RevealSeen,
        Here,
        Sync,
        Ping,
        Say,
        React,
        MuteSeat,
    )
}

Welcome.model_rebuild()


def dump(message: BaseModel) -> str:
    """Compact JSON text of a server message."""
    return message.model_dump_json()


def as_dict(message: BaseModel) -> dict[str, Any]:
    return message.model_dump(mode="json")


# --------------------------------------------------------------------------- open tables


class PublicTable(ServerModel):
    """A public room waiting for players (GET /api/tables); join it with its ``code``."""

    code: str
    name: str = Field(description="the table's name, or its host's name when it has none")
    edition: Edition
    language: Language
    seats_taken: int
    seats_free: int


class PublicTableList(ServerModel):
    tables: list[PublicTable]
