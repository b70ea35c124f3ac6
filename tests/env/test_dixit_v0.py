"""The research environment: PettingZoo's own conformance tests, and ours, which fail harder."""

from __future__ import annotations

import copy
import doctest
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the research extra (pettingzoo) is not installed")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

from dixit.engine import GameError, StartGame, execute, player_view, waiting_for
from dixit.env import dixit_v0
from dixit.env.encoding import HISTORY, Encoder, action_mask, decode_action

COMBOS = (
    [("classic", n) for n in range(3, 7)]
    + [("2021", n) for n in range(3, 9)]
    + [("odyssey", n) for n in (3, 6, 7, 9, 12)]
    + [("odyssey/party", n) for n in (6, 9, 12)]
    + [("odyssey/teams", n) for n in (6, 12)]
)


def make_env(edition: str, players: int, raw: bool = False):
    """The environment for "edition" or "edition/mode"."""
    name, _, mode = edition.partition("/")
    make = dixit_v0.raw_env if raw else dixit_v0.env
    return make(edition=name, players=players, mode=mode or "standard")


# PettingZoo recommends a flat array observation; masked environments (its own chess, go,
# connect four…) observe {"observation", "action_mask"} and are listed by name inside the test
# to silence these two notes. Ours has the same documented shape: every other warning fails.
DICT_OBSERVATION_NOTES = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def _conformance(check):
    with warnings.catch_warnings():
        for note in DICT_OBSERVATION_NOTES:
            warnings.filterwarnings("ignore", message=note)
        check()


@pytest.mark.parametrize(("edition", "players"), COMBOS)
def test_pettingzoo_api_and_seed_tests_pass(edition, players):
    _conformance(lambda: api_test(make_env(edition, players), 200))
    _conformance(lambda: seed_test(lambda: make_env(edition, players), 200))


def play(edition: str, players: int, seed: int) -> tuple[list[int], dict[str, int], list[str]]:
    """A full game of random masked actions; the actions, final scores and winners."""
    env = dixit_v0.env(edition=edition, players=players)
    env.reset(seed=seed)
    sampler = np.random.default_rng(seed)
    actions = []
    for _agent in env.agent_iter():
        observation, _, termination, _, _ = env.last()
        if termination:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(sampler.choice(legal))
        actions.append(action)
        env.step(action)
    raw = env.unwrapped
    return actions, raw.final_scores, list(raw.state_.winners)


@pytest.mark.parametrize(("edition", "players"), [("classic", 3), ("2021", 6)])
def test_same_seed_same_game(edition, players):
    assert play(edition, players, 7) == play(edition, players, 7)
    assert play(edition, players, 7) != play(edition, players, 8)


def test_an_illegal_action_is_an_error_and_changes_nothing():
    env = dixit_v0.env(edition="classic", players=4)
    env.reset(seed=3)
    raw = env.unwrapped
    observation, *_ = env.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = raw.state_
    with pytest.raises(GameError):
        raw.step(illegal)
    with pytest.raises(GameError):
        raw.step((0, "   "))  # a clue must not be empty
    with pytest.raises(GameError):
        raw.step(10_000)
    assert raw.state_ is before
    env.step((0, "a walk in the moonlight"))
    assert raw.state_.clue == "a walk in the moonlight"


@pytest.mark.parametrize(
    ("edition", "players"),
    [
        ("classic", 3),
        ("classic", 5),
        ("2021", 8),
        ("odyssey", 12),
        ("odyssey/party", 9),
        ("odyssey/teams", 8),
    ],
)
def test_the_observation_never_holds_another_players_hidden_card(edition, players):
    env = make_env(edition, players)
    env.reset(seed=11)
    raw = env.unwrapped
    layout, deck_size = raw.layout, len(raw.deck)
    sampler = np.random.default_rng(11)
    start = 4 + 4 + 3 * players
    for _agent in env.agent_iter():
        state = raw.state_
        for viewer in raw.agents:
            vector = raw.observe(viewer)["observation"]
            hand = {raw.deck[i] for i in np.flatnonzero(vector[start : start + deck_size])}
            mine = {
                raw.deck[i]
                for i in np.flatnonzero(vector[start + deck_size : start + 2 * deck_size])
            }
            partners = state.team_of(viewer)
            cards_end = start + (3 if len(partners) > 1 else 2) * deck_size
            rest = vector[cards_end:]
            table = {raw.deck[i] for i in rest[: layout.table] if i >= 0}
            assert hand == set(state.hands[viewer])
            if len(partners) > 1:
                segment = vector[start + 2 * deck_size : cards_end]
                partner = {raw.deck[i] for i in np.flatnonzero(segment)}
                assert partner == {c for p in partners if p != viewer for c in state.hands[p]}
            own = {c for p in partners for c in state.submissions.get(p, ())}
            if state.storyteller in partners and state.storyteller_card:
                own = {state.storyteller_card}
            assert mine == own
            assert table == set(state.table)
            revealed = {c for r in state.rounds[-HISTORY:] for c in r.table}
            for other in raw.agents:
                if other in partners:  # team play: partners see each other's hands
                    continue
                hidden = set(state.hands[other]) - revealed
                if not state.table:
                    hidden |= set(state.submissions.get(other, ()))
                assert not (hand | mine | table) & hidden
        observation, _, termination, _, _ = env.last()
        if termination:
            env.step(None)
            continue
        env.step(int(sampler.choice(np.flatnonzero(observation["action_mask"]))))


def _decoded(decode, *args):
    """A command, or the code of the error it raises."""
    try:
        return decode(*args)
    except GameError as error:
        return error.code


@pytest.mark.parametrize(("edition", "players"), COMBOS)
@settings(
    max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**32 - 1))
def test_live_observations_masks_and_actions_are_those_of_the_view(edition, players, seed):
    """The environment keeps observations current from events; at every step they, the masks
    and the decoding of every action are exactly what the engine's player view gives."""
    raw = make_env(edition, players, raw=True)
    raw.reset(seed=seed)
    reference = Encoder(raw.layout)
    live, layout = raw._live, raw.layout
    sampler = random.Random(seed)
    steps = 0
    while True:
        state = raw.state_
        for agent in raw.agents:
            view = player_view(state, agent)
            observed = raw.observe(agent)
            assert observed["observation"].dtype == np.int32
            assert observed["action_mask"].dtype == np.int8
            assert observed["observation"].tolist() == reference.encode(view).tolist()
            assert observed["action_mask"].tolist() == action_mask(view, layout).tolist()
        agent = raw.agent_selection
        if raw.terminations[agent]:
            break
        assert agent == waiting_for(state)[0]
        view = player_view(state, agent)
        for action in [-1, *range(layout.actions), layout.actions]:
            for clue in (None, "a clue"):
                expected = _decoded(decode_action, action, clue, view, layout)
                assert _decoded(live.decode, state, agent, action, clue) == expected
        mask = raw.observe(agent)["action_mask"]
        raw.step(sampler.choice(np.flatnonzero(mask).tolist()))
        steps += 1
    assert raw.state_.phase == "over" and steps > 10


@pytest.mark.parametrize(("edition", "players", "seed"), [("classic", 4, 5), ("2021", 7, 6)])
def test_state_is_the_engines_state_and_a_value_later_steps_leave_alone(edition, players, seed):
    """The environment folds moves into a private state in place; ``state_`` is a snapshot
    equal to the state the engine's ``execute`` gives for the same moves, and one kept stays as
    it was (the same object until the next step)."""
    raw = dixit_v0.raw_env(edition=edition, players=players)
    raw.reset(seed=seed)
    rng = random.Random(seed)  # the environment's engine generator, as reset seeds it
    start = StartGame(tuple(raw.agents), raw.deck, raw.rules, first_storyteller=raw.agents[0])
    expected, _ = execute(None, start, rng)
    sampler = random.Random(seed)
    kept = []
    while True:
        state = raw.state_
        assert state == expected and raw.state_ is state
        kept.append((state, copy.deepcopy(state)))
        agent = raw.agent_selection
        if raw.terminations[agent]:
            break
        action = sampler.choice(np.flatnonzero(raw.observe(agent)["action_mask"]).tolist())
        view = player_view(expected, agent)
        expected, _ = execute(expected, decode_action(action, "a clue", view, raw.layout), rng)
        raw.step((action, "a clue"))
    assert expected.phase == "over" and len(kept) > 10
    for state, copied in kept:
        assert state == copied


def test_a_clue_function_gets_the_tellers_view_and_card():
    told = []

    def clue_fn(view, card, rng):
        told.append((view.viewer, card, card in view.hand))
        return f"about {card}"

    raw = dixit_v0.raw_env(edition="classic", players=4, clue_fn=clue_fn)
    raw.reset(seed=5)
    card = raw.state_.hands["player_0"][2]
    raw.step(2)
    assert told == [("player_0", card, True)]
    assert raw.state_.clue == f"about {card}" and raw.state_.storyteller_card == card


def test_render_text_and_rgb_frame():
    env = dixit_v0.env(edition="classic", players=4, render_mode="ansi")
    env.reset(seed=1)
    assert "player_0 holds:" in env.render()
    env = dixit_v0.env(edition="classic", players=4, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.std() > 0


def test_the_quick_start_in_the_docstring_runs():
    failures, _ = doctest.testmod(dixit_v0, verbose=False)
    assert failures == 0


def test_an_agent_that_answers_views_with_commands_plays_a_whole_game():
    import random

    from dixit.bots import RandomBot

    env = dixit_v0.env(edition="classic", players=3)
    env.reset(seed=4)
    raw = env.unwrapped
    bots = {agent: RandomBot(random.Random(i)) for i, agent in enumerate(raw.possible_agents)}
    for agent in env.agent_iter():
        if env.last()[2]:
            env.step(None)
            continue
        command = bots[agent].act(raw.view(agent))
        env.step(raw.action_for(command))
    assert raw.state_.phase == "over"


def test_the_example_prompt_agent_plays_a_whole_game_through_a_supplied_function():
    from examples.prompt_agent import PromptAgent

    prompts = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return "2: the long way home" if "storyteller" in prompt else "nonsense"

    env = dixit_v0.env(edition="2021", players=4)
    env.reset(seed=9)
    raw = env.unwrapped
    agent = PromptAgent(ask)
    for name in env.agent_iter():
        if env.last()[2]:
            env.step(None)
            continue
        env.step(raw.action_for(agent.act(raw.view(name))))
    assert raw.state_.phase == "over"
    assert any(r.clue == "the long way home" for r in raw.state_.rounds)
    assert prompts


def test_the_quick_start_of_docs_research_runs():
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "research.md").read_text(encoding="utf-8")
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "docs/research.md", "exec"), {})
