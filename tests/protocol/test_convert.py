"""The broadcast fast path (plain dicts) and the typed models give the same wire JSON, and that
JSON is valid against the protocol, for every state and viewer of random games."""

from __future__ import annotations

import json
import random

from dixit.bots import RandomBot
from dixit.engine import StartGame, execute, player_view, rules_for, waiting_for
from dixit.protocol import messages as m
from dixit.protocol.convert import redact, redact_dict, view_dict, view_model


def test_fast_path_matches_the_models() -> None:
    for seed, (edition, players) in enumerate([("classic", 3), ("classic", 5), ("2021", 4)]):
        rng = random.Random(seed)
        seats = tuple(f"p{i}" for i in range(1, players + 1))
        deck = tuple(f"card-{i:03}" for i in range(84))
        rules = rules_for(edition, max_rounds=4)
        state, events = execute(None, StartGame(seats, deck, rules, None), rng)
        checked = 0
        while True:
            for viewer in (*seats, None):
                view = player_view(state, viewer)
                fast = view_dict(view)
                assert fast == view_model(view).model_dump(mode="json")
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
                    assert redact_dict(event, viewer) == redact(event, viewer).model_dump(
                        mode="json"
                    )
                checked += 1
            if state.phase.value == "over":
                break
            player = rng.choice(waiting_for(state))
            command = RandomBot(rng).act(player_view(state, player))
            assert command is not None
            state, events = execute(state, command, rng)
        assert checked > 50
