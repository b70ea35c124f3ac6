"""Played rounds as data: what researchers export from a server and read back for evaluation.

One record per revealed round of a finished game. Players are seat numbers (0 = first seat of
the game); cards are deck card ids (``GET /api/decks/{slug}/cards`` names them); nothing from an
unfinished round or game is included, and no player name, token or room code: a game is named
by a one-way hash of its room code and game number.

The fields after ``lone_finder_bonus`` came with Dixit Odyssey (second votes, the cap on votes
received, party play); a file written before them reads with their defaults (one vote each, no
cap, standard play).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from dixit.engine import (
    MODES,
    Event,
    GameEnded,
    GameStarted,
    Outcome,
    RoundScored,
    score_party_round,
    score_round,
    score_team_round,
)


class DatasetError(ValueError):
    """A record that is not a valid round; ``line`` is 1-based where known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.line = line


@dataclass(frozen=True)
class RoundRecord:
    game: str  # one-way id of the room and game
    edition: str
    players: int
    round: int
    language: str | None  # the room's language, where the room had one
    seat_kinds: list[str]  # per seat: "human" or "bot:<level>"
    storyteller: int
    clue: str
    storyteller_card: str
    table: list[str]  # card ids in table order
    owners: list[int]  # seat of each table card
    votes: list[int | None]  # per seat: index into table, None for the storyteller
    points: list[int]  # per seat, this round
    scores: list[int]  # per seat, after this round
    outcome: str  # everybody | nobody | some | party
    lone_finder_bonus: bool
    # or "party" (everyone votes, the storyteller voids a card) or "teams" (partners are seats
    # 2k and 2k+1; one vote per team, by either partner, the other's null)
    mode: str = "standard"
    # per seat, where each voter had two votes: the second vote's table index, or None
    second_votes: list[int | None] | None = None
    void: int | None = None  # party play: the table index of the card the storyteller voided
    votes_received_cap: int | None = None  # the most points from votes received (None: no cap)
    single_vote_bonus: int = 0  # with two votes each: a finder's extra point for casting one
    party_cap: int = 5  # party play: the most points a voter scores

    def check(self, line: int | None = None) -> None:
        """Raise DatasetError unless the record is a consistent round (points re-scored)."""
        n = self.players
        if not (
            len(self.seat_kinds) == len(self.votes) == len(self.points) == len(self.scores) == n
        ):
            raise DatasetError("per-seat lists must have one entry per player", line)
        if len(self.owners) != len(self.table) or self.storyteller_card not in self.table:
            raise DatasetError("table, owners and the storyteller's card disagree", line)
        party = self.mode == "party"
        if self.mode == "teams":
            self._check_team_round(line)
            return
        if not 0 <= self.storyteller < n or (self.votes[self.storyteller] is None) == party:
            raise DatasetError("the storyteller must be a seat that votes only in party play", line)
        seconds = self.second_votes if self.second_votes is not None else [None] * n
        if len(seconds) != n:
            raise DatasetError("per-seat lists must have one entry per player", line)
        seats = [str(i) for i in range(n)]
        owners = {card: str(seat) for card, seat in zip(self.table, self.owners, strict=True)}
        votes, second_votes = {}, {}
        for seat, vote in enumerate(self.votes):
            if seat == self.storyteller and not party:
                continue
            if vote is None or not 0 <= vote < len(self.table):
                raise DatasetError(f"seat {seat} has no valid vote", line)
            votes[str(seat)] = self.table[vote]
            second = seconds[seat]
            if second is not None:
                if not 0 <= second < len(self.table) or second == vote:
                    raise DatasetError(f"seat {seat} has no valid second vote", line)
                second_votes[str(seat)] = self.table[second]
        if party:
            if self.void is None or not 0 <= self.void < len(self.table):
                raise DatasetError("a party round has the storyteller's void", line)
            outcome, awards = score_party_round(seats, votes, self.table[self.void], self.party_cap)
        else:
            outcome, awards = score_round(
                seats,
                str(self.storyteller),
                owners,
                votes,
                self.lone_finder_bonus,
                second_votes=second_votes,
                received_cap=self.votes_received_cap,
                single_vote_bonus=self.single_vote_bonus,
            )
        points = [0] * n
        for award in awards:
            points[int(award.player)] += award.points
        if outcome != self.outcome or points != self.points:
            raise DatasetError("the recorded points do not follow from the votes", line)

    def _check_team_round(self, line: int | None) -> None:
        size = int(MODES["teams"]["team_size"])
        n = self.players
        if n % size or not 0 <= self.storyteller < n:
            raise DatasetError("team play seats whole teams and a storyteller among them", line)
        seats = [str(i) for i in range(n)]
        votes: dict[str, str] = {}
        for first in range(0, n, size):
            cast = [(s, v) for s in range(first, first + size) if (v := self.votes[s]) is not None]
            tellers = first <= self.storyteller < first + size
            if len(cast) != (0 if tellers else 1) or any(
                not 0 <= v < len(self.table) for _, v in cast
            ):
                raise DatasetError(f"the team of seat {first} has no valid single vote", line)
            votes.update((str(s), self.table[v]) for s, v in cast)
        owners = {card: str(seat) for card, seat in zip(self.table, self.owners, strict=True)}
        outcome, awards = score_team_round(
            seats, size, str(self.storyteller), owners, votes, self.votes_received_cap
        )
        points = [0] * n
        for award in awards:
            points[int(award.player)] += award.points
        if outcome != self.outcome or points != self.points:
            raise DatasetError("the recorded points do not follow from the votes", line)


FIELDS = tuple(f.name for f in fields(RoundRecord))
REQUIRED = FIELDS[: FIELDS.index("lone_finder_bonus") + 1]  # files before Odyssey have these


def game_id(room: str, game_number: int) -> str:
    return hashlib.sha256(f"dixit-game:{room}:{game_number}".encode()).hexdigest()[:16]


def rounds_of_game(
    events: Sequence[Event],
    game: str,
    language: str | None = None,
    seat_kinds: Sequence[str] | None = None,
) -> list[RoundRecord]:
    """The records of one game's revealed rounds; none unless the game ended."""
    if not events or not isinstance(events[0], GameStarted):
        return []
    if not any(isinstance(e, GameEnded) for e in events):
        return []
    start = events[0]
    players = list(start.players)
    seat = {p: i for i, p in enumerate(players)}
    kinds = list(seat_kinds) if seat_kinds is not None else ["human"] * len(players)
    scores = [0] * len(players)
    records = []
    rules, count = start.rules, len(players)
    two_votes = rules.votes_each_for(count) > 1
    for event in events:
        if not isinstance(event, RoundScored):
            continue
        points = [0] * len(players)
        for player, gained in event.points().items():
            points[seat[player]] += gained
        scores = [a + b for a, b in zip(scores, points, strict=True)]
        table = list(event.table)
        owners = dict(event.owners)
        voted: dict[str, str] = {}
        second: dict[str, str] = {}
        for voter, card in event.votes:
            (second if voter in voted else voted)[voter] = card
        records.append(
            RoundRecord(
                game=game,
                edition=start.rules.edition,
                players=len(players),
                round=event.round,
                language=language,
                seat_kinds=kinds,
                storyteller=seat[event.storyteller],
                clue=event.clue,
                storyteller_card=event.storyteller_card,
                table=table,
                owners=[seat[owners[c]] for c in table],
                votes=[table.index(voted[p]) if p in voted else None for p in players],
                points=points,
                scores=list(scores),
                outcome=Outcome(event.outcome).value,
                lone_finder_bonus=rules.lone_finder_bonus_for(count),
                mode=rules.mode,
                second_votes=[table.index(second[p]) if p in second else None for p in players]
                if two_votes
                else None,
                void=None if event.void is None else table.index(event.void),
                votes_received_cap=rules.votes_received_cap,
                single_vote_bonus=rules.single_vote_bonus if two_votes else 0,
                party_cap=rules.party_cap,
            )
        )
    return records


def write_jsonl(records: Iterable[RoundRecord], path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for record in records:
            out.write(json.dumps(asdict(record), ensure_ascii=False) + "\n")
            count += 1
    return count


def write_parquet(records: Iterable[RoundRecord], path: Path) -> int:
    """Parquet through pyarrow (the ``research`` extra)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [asdict(r) for r in records]
    table = pa.Table.from_pylist(rows, schema=_schema(pa))
    pq.write_table(table, path)
    return len(rows)


def _schema(pa: Any) -> Any:
    text, integer = pa.string(), pa.int32()
    return pa.schema(
        [
            ("game", text),
            ("edition", text),
            ("players", integer),
            ("round", integer),
            ("language", text),
            ("seat_kinds", pa.list_(text)),
            ("storyteller", integer),
            ("clue", text),
            ("storyteller_card", text),
            ("table", pa.list_(text)),
            ("owners", pa.list_(integer)),
            ("votes", pa.list_(integer)),
            ("points", pa.list_(integer)),
            ("scores", pa.list_(integer)),
            ("outcome", text),
            ("lone_finder_bonus", pa.bool_()),
            ("mode", text),
            ("second_votes", pa.list_(integer)),
            ("void", integer),
            ("votes_received_cap", integer),
            ("single_vote_bonus", integer),
            ("party_cap", integer),
        ]
    )


def read_rounds(path: Path) -> Iterator[RoundRecord]:
    """Records from JSON Lines or Parquet (by suffix), each checked; DatasetError if not valid."""
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        rows: Iterable[Any] = pq.read_table(path).to_pylist()
    else:
        rows = _jsonl(path)
    for line, row in enumerate(rows, start=1):
        if not isinstance(row, dict) or not set(REQUIRED) <= set(row) <= set(FIELDS):
            raise DatasetError(
                f"a record has the fields {', '.join(REQUIRED)} and may have "
                f"{', '.join(FIELDS[len(REQUIRED) :])}",
                line,
            )
        try:
            record = RoundRecord(**row)
        except TypeError as bad:
            raise DatasetError(str(bad), line) from None
        try:
            record.check(line)
        except (TypeError, ValueError, KeyError, IndexError) as bad:
            if isinstance(bad, DatasetError):
                raise
            raise DatasetError(f"malformed record: {bad}", line) from None
        yield record


def _jsonl(path: Path) -> Iterator[Any]:
    with path.open(encoding="utf-8") as lines:
        for number, text in enumerate(lines, start=1):
            if not text.strip():
                continue
            try:
                yield json.loads(text)
            except json.JSONDecodeError as bad:
                raise DatasetError(f"not JSON: {bad.msg}", number) from None
