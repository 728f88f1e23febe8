"""PettingZoo AEC environment over the rules engine: one episode is one deal.

The game logic lives in :class:`skat_env.core.game.Game`; this module only maps agents to
seats, encodes observations (:mod:`skat_env.encoding.observation`), checks actions and pays the
rewards. See :mod:`skat_env.skat_v0` for the documentation page.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from ..core.game import DONE, Game, IllegalMoveError, Result, random_deal
from ..core.moves import MOVE_NAMES, NUM_MOVES, move_id
from ..core.rewards import REWARD_MODES, rewards_of
from ..encoding.observation import HISTORY_OBS_SIZE, OBS_SIZE, STATE_SIZE, encode_state
from ..encoding.tracker import ObservationTracker
from ..encoding.view import PlayerView, player_view

AGENTS = ("player_0", "player_1", "player_2")
SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}
OBSERVATION_MODES = ("default", "history")
RENDER_MODES = ("human", "ansi")
RESET_OPTIONS = ("dealer", "deal")
FIRST_DEALER = 2  # the first deal of a session: player_0 is forehand, as in the ISS records


def action_to_move(action: int) -> str:
    """Engine move name of an action index (``0`` -> ``"CA"``, ``95`` -> ``"hold"``)."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an int in 0..{NUM_MOVES - 1}, got {action!r}")
    if not 0 <= action < NUM_MOVES:
        raise ValueError(f"action {action} is out of range 0..{NUM_MOVES - 1}")
    return MOVE_NAMES[action]


def move_to_action(name: str) -> int:
    """Action index of an engine move name (``"CJ"``, ``"18"``, ``"grand ouvert"``)."""
    return move_id(name)


def _check_choice(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


class raw_env(AECEnv, EzPickle):
    """Skat for three fixed seats ``player_0..2``; see :mod:`skat_env.skat_v0`."""

    metadata = {
        "render_modes": list(RENDER_MODES),
        "name": "skat_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        reward_mode: str = "zero_sum",
        observation_mode: str = "default",
    ):
        EzPickle.__init__(self, render_mode, reward_mode, observation_mode)
        super().__init__()
        if render_mode is not None:
            _check_choice("render_mode", render_mode, RENDER_MODES)
        _check_choice("reward_mode", reward_mode, REWARD_MODES)
        _check_choice("observation_mode", observation_mode, OBSERVATION_MODES)
        self.render_mode = render_mode
        self.reward_mode = reward_mode
        self.observation_mode = observation_mode
        self._history = observation_mode == "history"
        self.possible_agents = list(AGENTS)
        size = HISTORY_OBS_SIZE if self._history else OBS_SIZE
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_MOVES,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(NUM_MOVES) for a in AGENTS}
        self.state_space = spaces.Box(0.0, 1.0, (STATE_SIZE,), np.float32)
        self._rng = np.random.default_rng()
        self._dealer = (FIRST_DEALER - 1) % 3  # the dealer of the previous deal
        self.game: Game | None = None
        self._tracker = ObservationTracker(self._history)

    # --- spaces ---
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- episode ---
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game. ``seed`` reseeds the card shuffle; the dealer moves one seat
        clockwise at each reset unless ``options={"dealer": k}``; ``options={"deal": ...}``
        fixes the 32 cards (forehand 10, middlehand 10, rearhand 10, skat 2)."""
        options = self._check_options(options)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        dealer = options.get("dealer", (self._dealer + 1) % 3)
        deal = options["deal"] if "deal" in options else random_deal(self._rng)
        game = Game(deal, dealer)  # raises DealError for a malformed deal or dealer
        self.game = game
        self._tracker.reset(game)
        self._dealer = dealer
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[game.to_act]

    @staticmethod
    def _check_options(options: dict | None) -> dict:
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
        unknown = set(options) - set(RESET_OPTIONS)
        if unknown:  # tolerated (PettingZoo's api_test passes one), but never silently
            warnings.warn(
                f"ignoring unknown reset option(s) {sorted(map(str, unknown))}; "
                f"known: {', '.join(RESET_OPTIONS)}",
                stacklevel=3,
            )
        dealer = options.get("dealer", 0)
        if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)):
            raise ValueError(f"option 'dealer' must be seat 0, 1 or 2, got {dealer!r}")
        return options

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        game = self.game
        if game is None or not self.agents or self.terminations[agent] or self.truncations[agent]:
            self._step_outside_play(agent, action)
            return
        if type(action) is not int or not 0 <= action < NUM_MOVES:  # the usual case is cheap
            action = self._action_index(action, agent)
        phase, seat = game.phase, game.to_act
        game.step(action)  # IllegalMoveError: state unchanged
        self._tracker.moved(seat, action, phase)
        self._cumulative_rewards[agent] = 0.0
        if game.phase == DONE:
            self._finish(game.result)
        else:
            self.agent_selection = AGENTS[game.to_act]
        if self.render_mode == "human":
            self.render()

    def _step_outside_play(self, agent: str, action: Any) -> None:
        """A step before reset, after everyone left, or by an agent whose game is over."""
        if self.game is None:
            raise RuntimeError("step() before reset()")
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left; call reset()")
        if action is not None:
            raise ValueError(
                f"the game is over; {agent} may only step None (got {action!r}); "
                "call reset() for a new deal"
            )
        self._was_dead_step(action)

    def _action_index(self, action: Any, agent: str) -> int:
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(
                f"{agent}: an action is an int move id in 0..{NUM_MOVES - 1}, got "
                f"{action!r} ({type(action).__name__})"
            )
        if not 0 <= action < NUM_MOVES:
            raise IllegalMoveError(f"{agent}: action {action} is out of range 0..{NUM_MOVES - 1}")
        return int(action)

    def _finish(self, result: Result) -> None:
        record = result.to_dict()
        for agent, r in zip(AGENTS, rewards_of(result, self.reward_mode), strict=True):
            self.rewards[agent] = r
            self.infos[agent]["result"] = {**record, "seeger_fabian": list(result.seeger_fabian)}
        self.terminations = dict.fromkeys(AGENTS, True)
        self._accumulate_rewards()

    # --- observations ---
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # The tracker holds encode(player_view(game, seat)), updated move by move.
        return self._tracker.observe(SEATS[agent])

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` may know now (for agents and renderers that want names)."""
        return player_view(self.game, SEATS[agent])

    def state(self) -> np.ndarray:
        return encode_state(self.game)

    # --- rendering ---
    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; nothing to do")
            return None
        from .render import render_game

        text = render_game(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return "skat_v0"


__all__ = [
    "AGENTS",
    "OBSERVATION_MODES",
    "REWARD_MODES",
    "action_to_move",
    "move_to_action",
    "raw_env",
    "rewards_of",
]
