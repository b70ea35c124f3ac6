"""``dixit_v0``: Dixit as a PettingZoo AEC environment, over the exact rules engine.

>>> from dixit.env import dixit_v0
>>> env = dixit_v0.env(edition="classic", players=4)
>>> env.reset(seed=1)
>>> for agent in env.agent_iter():
...     observation, reward, termination, truncation, info = env.last()
...     action = None if termination else env.action_space(agent).sample(
...         observation["action_mask"])
...     env.step(action)
>>> sorted(env.final_scores) == sorted(env.possible_agents)
True

Each player is an agent named by seat (``player_0`` …). The game waits on players in seat order
(in a simultaneous phase each acts once before it moves on); rewards are the points each round
gives; every agent terminates when the game ends. An illegal action raises
:class:`~dixit.engine.GameError` — never a warning. A clue is an action index with its text:
``env.step((index, "text"))``; a bare index uses the environment's ``clue_fn`` (by default a
word drawn from a small list with the environment's seeded generator).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from dixit.engine import (
    CLUE_WORDS,
    CardId,
    Command,
    GameState,
    Phase,
    PlayerView,
    RoundScored,
    StartGame,
    decide,
    execute,
    player_view,
    rules_for,
)
from dixit.engine.serialize import view_to_json
from dixit.engine.state import fold_into, snapshot

from .encoding import Encoder, Layout, LiveObservations, encode_command

_OVER = Phase.OVER  # a global: Python 3.11 reads enum members through a descriptor
ClueFn = Callable[[PlayerView, CardId, random.Random], str]


def random_word_clue(view: PlayerView, card: CardId, rng: random.Random) -> str:
    """The default clue text: a random word (a learner that tells clues passes its own)."""
    return rng.choice(CLUE_WORDS)


def env(**kwargs: Any) -> Any:
    """The environment wrapped in PettingZoo's order enforcing wrapper. (Its bounds-checking
    wrapper is left out: it would refuse a clue's (index, text) action, and the raw environment
    already raises GameError for anything out of bounds.)"""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv):  # type: ignore[misc]  # (PettingZoo's naming: raw_env)
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "dixit_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        edition: str = "classic",
        players: int = 5,
        options: Mapping[str, Any] | None = None,
        mode: str = "standard",
        deck: Sequence[CardId] | None = None,
        clue_fn: ClueFn = random_word_clue,
        render_mode: str | None = None,
        card_image: Callable[[CardId], Any] | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules_for(edition, mode, **dict(options or {}))
        self.deck = tuple(deck) if deck is not None else tuple(f"card-{i:03}" for i in range(84))
        self.layout = Layout.of(self.rules, players, self.deck)
        self.encoder = Encoder(self.layout)  # the reference: encodes a view from scratch
        self.clue_fn = clue_fn
        self.render_mode = render_mode
        self.card_image = card_image
        self.possible_agents = [f"player_{i}" for i in range(players)]
        high = max(len(self.deck), 10_000)
        obs = spaces.Box(-1, high, (self.layout.observation_size,), dtype=np.int32)
        mask = spaces.Box(0, 1, (self.layout.actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.layout.actions) for a in self.possible_agents}
        # The game's state, private: each step folds its events into it in place. Readers get
        # ``state_``, a snapshot made when first read after a step (and kept until the next).
        self._state: GameState | None = None
        self._snapshot: GameState | None = None
        self._rng = random.Random()
        self._clue_rng = random.Random()
        self._live = LiveObservations(self.layout, tuple(self.possible_agents))
        self._rewarded = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game ---------------------------------------------------------------------------

    @property
    def state_(self) -> GameState | None:
        """The game's state now (None before :meth:`reset`): a value, which later steps leave
        as it is. (Built on the first read after a step: the environment itself folds each
        move into a private state in place, which no caller sees.)"""
        shot = self._snapshot
        if shot is None and self._state is not None:
            shot = self._snapshot = snapshot(self._state)
        return shot

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self._rng = random.Random(seed)
        self._clue_rng = random.Random(seed ^ 0xC1E)
        self.agents = list(self.possible_agents)
        start = StartGame(
            tuple(self.agents), self.deck, self.rules, first_storyteller=self.agents[0]
        )
        state, events = execute(None, start, self._rng)
        self._state, self._snapshot = state, None
        first = self._live.reset(state, events)
        self._views: dict[str, PlayerView] = {}
        self.rewards = dict.fromkeys(self.agents, 0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0] if first is None else first

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` sees now: the engine's per-player view (the observation is its
        encoding, kept current from events; a test checks the two agree at every step)."""
        state = self._state
        assert state is not None, "call reset() first"
        view = self._views.get(agent)
        if view is None or view.version != state.version:
            view = self._views[agent] = player_view(state, agent)
        return view

    def observe(self, agent: str) -> dict[str, Any]:
        """The encoding of :meth:`view` (kept current from each step's events, not rebuilt)."""
        state = self._state
        assert state is not None, "call reset() first"
        return self._live.observe(state, agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last``, the same values with one call less a step."""
        agent = self.agent_selection
        state = self._state
        assert state is not None, "call reset() first"
        return (
            self._live.observe(state, agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state, live = self._state, self._live
        assert state is not None
        if isinstance(action, tuple):
            index, clue = action
            index = int(index)
        else:
            index, clue = int(action), None
        if clue is None and 0 <= index < live.hand_size and live.may_clue(state, agent):
            card = state.team_cards(agent)[index]
            if self.clue_fn is random_word_clue:  # the same draw, without building a view
                clue = self._clue_rng.choice(CLUE_WORDS)
            else:
                clue = self.clue_fn(self.view(agent), card, self._clue_rng)
        command = live.decode(state, agent, index, clue)
        events = decide(state, command, self._rng)  # a GameError here changes nothing
        fold_into(state, events)
        self._snapshot = None
        first = live.apply(state, events)
        self._cumulative_rewards[agent] = 0
        if len(events) > 1 or self._rewarded:  # a single event never scores a round
            self.rewards = rewards = dict.fromkeys(self.agents, 0)
            for event in events:
                if isinstance(event, RoundScored):
                    for player, points in event.points().items():
                        rewards[player] += points
            self._rewarded = any(rewards.values())
            self._accumulate_rewards()
        if state.phase is _OVER:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = {"winners": list(state.winners)}
        self.agent_selection = self.agents[0] if first is None else first

    def action_for(self, command: Command) -> tuple[int, str | None]:
        """The action that plays ``command`` for the selected agent (for agents that answer a
        view with a command, like ``dixit.bots``: ``env.step(env.action_for(bot.act(view)))``)."""
        return encode_command(command, self.view(self.agent_selection), self.layout)

    @property
    def final_scores(self) -> dict[str, int]:
        assert self._state is not None
        return dict(self._state.scores)

    def info_view(self, agent: str) -> dict[str, Any]:
        """The view as JSON (clue text, card ids): for agents that read words and pictures."""
        return view_to_json(self.view(agent))

    # --- showing it -------------------------------------------------------------------------

    def render(self) -> Any:
        if self.render_mode is None or self._state is None:
            return None
        from .render import render_ansi, render_rgb

        view = self.view(self.agent_selection)
        if self.render_mode == "ansi":
            return render_ansi(view)
        return render_rgb(view, self.card_image)

    def close(self) -> None:
        pass
