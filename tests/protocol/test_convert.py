"""The wire JSON the server builds as plain dicts is exactly what the typed protocol models
accept and give back, for every state and viewer of random games."""

from __future__ import annotations

import json
import random

from pydantic import TypeAdapter

from dixit.bots import RandomBot
from dixit.engine import StartGame, execute, player_view, playthrough, rules_for
from dixit.protocol import messages as m
from dixit.protocol.convert import redact_dict, view_dict

EVENT = TypeAdapter(m.GameEventUnion)


def test_wire_dicts_match_the_models() -> None:
    games = [
        ("classic", 3),
        ("classic", 5),
        ("2021", 4),
        ("odyssey", 8),
        ("odyssey/party", 6),
        ("odyssey/teams", 8),
    ]
    for seed, (edition, players) in enumerate(games):
        rng = random.Random(seed)
        seats = tuple(f"p{i}" for i in range(1, players + 1))
        deck = tuple(f"card-{i:03}" for i in range(84))
        rules = rules_for(*edition.split("/"), max_rounds=4)
        start = execute(None, StartGame(seats, deck, rules, None), rng)
        bot = RandomBot(rng)
        moves = playthrough(
            start[0], rng, lambda s, player, bot=bot: bot.act(player_view(s, player))
        )
        checked = 0
        for state, events in [start, *((after, new) for _, after, new in moves)]:
            for viewer in (*seats, None):
                view = player_view(state, viewer)
                fast = view_dict(view)
                assert fast == m.GameView.model_validate(fast).model_dump(mode="json")
                update = {
                    "type": "game",
                    "from_version": state.version - len(events),
                    "events": [
                        {"version": i, "event": redact_dict(e, viewer)}
                        for i, e in enumerate(events)
                    ],
                    "view": fast,
                    "reset": False,
                }
                m.GameUpdate.model_validate_json(json.dumps(update))
                for event in events:
                    wire = redact_dict(event, viewer)
                    assert EVENT.validate_python(wire).model_dump(mode="json") == wire
                checked += 1
        assert checked > 50
