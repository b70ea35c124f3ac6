"""The Dixit rules engine: pure, deterministic, event-sourced. Standard library only, no I/O.

Its specification is ``docs/rules.md``.

>>> import random
>>> from dixit.engine import StartGame, execute, rules_for
>>> deck = tuple(f"card{i:02}" for i in range(84))
>>> state, events = execute(None, StartGame(("ann", "bo", "cy", "di"), deck, rules_for("classic"),
...                                         first_storyteller="ann"), random.Random(1))
>>> state.phase, state.storyteller, len(state.hands["bo"]), len(state.pile)
(<Phase.CLUE: 'clue'>, 'ann', 6, 60)
"""

from .commands import (
    CardId,
    CastVote,
    Command,
    EndGame,
    GiveClue,
    PlayerId,
    StartGame,
    SubmitCards,
    VoidCard,
)
from .decide import decide, execute
from .errors import Code, CodedError, GameError, InvalidLog
from .events import (
    CardsDrawn,
    CardsSubmitted,
    CardVoided,
    ClueGiven,
    Event,
    GameEnded,
    GameStarted,
    HandsPassed,
    PileReshuffled,
    PointsAwarded,
    RoundScored,
    RoundStarted,
    TableLaid,
    VoteCast,
)
from .legal import LegalActions, legal_actions, waiting_for
from .playthrough import CLUE_WORDS, Chooser, playthrough, random_command, random_playthrough
from .results import AwardReason, EndReason, Outcome
from .rules import EDITIONS, MODES, Rules, rules_for
from .scoring import score_party_round, score_round, score_team_round
from .state import GameState, Phase, evolve, evolve_all, replay
from .verify import verify
from .views import PlayerView, SeatView, player_view, seat_view

__all__ = [
    "CLUE_WORDS",
    "EDITIONS",
    "MODES",
    "AwardReason",
    "CardId",
    "CardVoided",
    "CardsDrawn",
    "CardsSubmitted",
    "CastVote",
    "Chooser",
    "ClueGiven",
    "Code",
    "CodedError",
    "Command",
    "EndGame",
    "EndReason",
    "Event",
    "GameEnded",
    "GameError",
    "GameStarted",
    "GameState",
    "GiveClue",
    "HandsPassed",
    "InvalidLog",
    "LegalActions",
    "Outcome",
    "Phase",
    "PileReshuffled",
    "PlayerId",
    "PlayerView",
    "PointsAwarded",
    "RoundScored",
    "RoundStarted",
    "Rules",
    "SeatView",
    "StartGame",
    "SubmitCards",
    "TableLaid",
    "VoidCard",
    "VoteCast",
    "decide",
    "evolve",
    "evolve_all",
    "execute",
    "legal_actions",
    "player_view",
    "playthrough",
    "random_command",
    "random_playthrough",
    "replay",
    "rules_for",
    "score_party_round",
    "score_round",
    "score_team_round",
    "seat_view",
    "verify",
    "waiting_for",
]
