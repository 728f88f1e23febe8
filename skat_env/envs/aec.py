"""PettingZoo AEC environment over the rules engine: one episode is one deal.

The game logic lives in :class:`skat_env.core.game.Game`; this module only maps agents to
seats, encodes observations (:mod:`skat_env.encoding.observation`), checks actions and pays the
rewards. See :mod:`skat_env.skat_v0` for the documentation page.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..core.game import Game, IllegalMoveError, Result, random_deal
from ..core.moves import MOVE_NAMES, NUM_MOVES, move_id
from ..core.rewards import REWARD_MODES, check_illegal, rewards_of
from ..core.validation import (
    check_action,
    check_choice,
    check_real,
    check_seat,
    check_seed,
)
from ..encoding.observation import HISTORY_OBS_SIZE, OBS_SIZE, STATE_SIZE, encode_state
from ..encoding.tracker import ObservationTracker
from ..encoding.view import PlayerView, player_view

AGENTS = ("player_0", "player_1", "player_2")
SEATS = {agent: seat for seat, agent in enumerate(AGENTS)}
OBSERVATION_MODES = ("default", "history")
RENDER_MODES = ("human", "ansi")
RESET_OPTIONS = ("dealer", "deal")
FIRST_DEALER = 2  # the first deal of a session: player_0 is forehand, as in the ISS records
_NO_RESET = "the environment has no game yet: call reset() first"


def action_to_move(action: int) -> str:
    """Engine move name of an action index (``0`` -> ``"CA"``, ``95`` -> ``"hold"``)."""
    return MOVE_NAMES[check_action(action)]


def move_to_action(name: str) -> int:
    """Action index of an engine move name (``"CJ"``, ``"18"``, ``"grand ouvert"``)."""
    return move_id(name)


def check_reward_scale(reward_scale: Any) -> float:
    """A positive finite reward scale (a negative one would pay for losing)."""
    scale = check_real(reward_scale, "reward_scale")
    if scale <= 0:
        raise ValueError(f"reward_scale must be positive, got {scale:g}")
    return scale


def _generator_at(state: Mapping[str, Any] | None) -> np.random.Generator:
    """A new generator in a saved ``bit_generator.state`` (its seeding costs ~25 us, so
    clones keep the state and build the generator only when they deal)."""
    assert state is not None  # an env holds either a generator or a clone's state
    bit_generator = getattr(np.random, state["bit_generator"])()
    bit_generator.state = state
    return np.random.Generator(bit_generator)


class raw_env(AECEnv):
    """Skat for three fixed seats ``player_0..2``; see :mod:`skat_env.skat_v0`.

    Illegal moves (``illegal_action``, as in every env of the package): ``"terminate"``
    (default) ends the game, the offender gets ``illegal_reward`` (default: the worst game
    outcome of ``reward_mode``; nothing better is accepted), the others 0, and
    ``infos[offender]["illegal_action"]`` is True; ``"raise"`` raises
    :class:`~skat_env.core.game.IllegalMoveError` and leaves the game untouched. Every
    reward is multiplied by ``reward_scale``. Actions that are not move ids (non-integers,
    bools, ints outside 0..120) raise in both modes.

    ``copy.deepcopy``, ``pickle`` and :meth:`clone` (also ``copy.copy``) give an independent
    env in the same position that continues exactly as the original would.
    """

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
        reward_scale: float = 1.0,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
    ):
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, RENDER_MODES)
        check_choice("reward_mode", reward_mode, REWARD_MODES)
        check_choice("observation_mode", observation_mode, OBSERVATION_MODES)
        self.reward_scale = check_reward_scale(reward_scale)
        self.illegal_action, self.illegal_reward = check_illegal(
            illegal_action, illegal_reward, reward_mode
        )
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
        self._rng: np.random.Generator | None = np.random.default_rng()
        self._rng_state: Mapping[str, Any] | None = None  # a clone's generator, not yet built
        self._dealer = (FIRST_DEALER - 1) % 3  # the dealer of the previous deal
        self.game: Game | None = None
        self._tracker = ObservationTracker(self._history)

    # --- spaces ---
    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # --- episode ---
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game. ``seed`` reseeds the card shuffle; the dealer moves one seat
        clockwise at each reset unless ``options={"dealer": k}``; ``options={"deal": ...}``
        fixes the 32 cards (forehand 10, middlehand 10, rearhand 10, skat 2); an option set to
        ``None`` counts as not given. Everything is checked before anything changes: a refused
        reset keeps the old game and seed."""
        dealer, deal = self._check_options(options)
        if check_seed(seed) is not None:
            rng = np.random.default_rng(seed)
        else:
            rng = self._rng or _generator_at(self._rng_state)
        if dealer is None:
            dealer = (self._dealer + 1) % 3
        game = Game(random_deal(rng) if deal is None else deal, dealer)  # DealError
        self._rng, self._rng_state = rng, None
        self.game = game
        self._tracker.reset(game)
        self._dealer = dealer
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[game.to_act]

    @staticmethod
    def _check_options(options: dict[str, Any] | None) -> tuple[int | None, Any]:
        """``(dealer, deal)`` from the reset options (``None`` where not given)."""
        if options is None:
            return None, None
        if not isinstance(options, dict):
            raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
        unknown = set(options) - set(RESET_OPTIONS)
        if unknown:  # tolerated (PettingZoo's api_test passes one), but never silently
            warnings.warn(
                f"ignoring unknown reset option(s) {sorted(map(str, unknown))}; "
                f"known: {', '.join(RESET_OPTIONS)}",
                stacklevel=3,
            )
        dealer = options.get("dealer")
        if dealer is not None:
            dealer = check_seat(dealer, "option 'dealer'")
        return dealer, options.get("deal")

    def step(self, action: int | None) -> None:
        game = self.game
        if game is None:
            raise RuntimeError(_NO_RESET)
        agent = self.agent_selection
        if not self.agents or self.terminations[agent] or self.truncations[agent]:
            self._step_outside_play(agent, action)
            return
        if type(action) is not int or not 0 <= action < NUM_MOVES:  # the usual case is cheap
            action = check_action(action, agent)  # TypeError / IllegalMoveError
        phase, seat = game.phase, game.to_act
        try:
            game.step(action)  # IllegalMoveError: state unchanged
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._terminate_illegal(agent)
            return
        self._tracker.moved(seat, action, phase)
        self._cumulative_rewards[agent] = 0.0
        if game.result is not None:  # the game is over
            self._finish(game.result)
        else:
            self.agent_selection = AGENTS[game.to_act]
        if self.render_mode == "human":
            self.render()

    def _step_outside_play(self, agent: str, action: Any) -> None:
        """A step after everyone left, or by an agent whose game is over."""
        if not self.agents:
            raise RuntimeError("the game is over and every agent has left; call reset()")
        if action is not None:
            raise ValueError(
                f"the game is over; {agent} may only step None (got {action!r}); "
                "call reset() for a new deal"
            )
        self._was_dead_step(action)

    def _terminate_illegal(self, offender: str) -> None:
        """``illegal_action="terminate"``: the game ends, the offender pays the penalty."""
        self._cumulative_rewards[offender] = 0.0
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self.rewards[offender] = self.illegal_reward * self.reward_scale
        self.infos[offender]["illegal_action"] = True
        self.terminations = dict.fromkeys(AGENTS, True)
        self._accumulate_rewards()

    def _finish(self, result: Result) -> None:
        record = result.to_dict()
        scale = self.reward_scale
        for agent, r in zip(AGENTS, rewards_of(result, self.reward_mode), strict=True):
            self.rewards[agent] = r * scale
            self.infos[agent]["result"] = {**record, "seeger_fabian": list(result.seeger_fabian)}
        self.terminations = dict.fromkeys(AGENTS, True)
        self._accumulate_rewards()

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, in one frame; before reset() it says "call reset() first"."""
        try:
            agent = self.agent_selection
        except AttributeError:
            raise RuntimeError(_NO_RESET) from None
        return (
            self._tracker.observe(SEATS[agent]) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    # --- copies ---
    def clone(self) -> raw_env:
        """An independent env in the same position (the game, the observation buffers, the
        shuffle generator, the bookkeeping dicts are copied; the spaces are shared): what a
        search expands, much cheaper than ``copy.deepcopy``."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        if self._rng is not None:
            other._rng, other._rng_state = None, self._rng.bit_generator.state
        other._tracker = ObservationTracker(self._history)
        if self.game is not None:
            other.game = self.game.copy()
            other._tracker.reset(other.game)  # rows re-encoded from the view when read
            other.agents = list(self.agents)
            other.rewards = dict(self.rewards)
            other._cumulative_rewards = dict(self._cumulative_rewards)
            other.terminations = dict(self.terminations)
            other.truncations = dict(self.truncations)
            other.infos = {a: copy.deepcopy(i) if i else {} for a, i in self.infos.items()}
        return other

    __copy__ = clone

    def __getstate__(self) -> dict[str, Any]:
        """Everything but the observation buffers (memoryviews), rebuilt from the game."""
        state = self.__dict__.copy()
        del state["_tracker"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._tracker = ObservationTracker(self._history)
        if self.game is not None:
            self._tracker.reset(self.game)

    # --- observations ---
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # The tracker holds encode(player_view(game, seat)), updated move by move.
        try:
            return self._tracker.observe(SEATS[agent])
        except (KeyError, TypeError, AttributeError):
            if self.game is None:
                raise RuntimeError(_NO_RESET) from None
            _seat(agent)  # raises for an unknown agent
            raise

    def view(self, agent: str) -> PlayerView:
        """What ``agent`` may know now (for agents and renderers that want names)."""
        if self.game is None:
            raise RuntimeError(_NO_RESET)
        return player_view(self.game, _seat(agent))

    def state(self) -> np.ndarray:
        if self.game is None:
            raise RuntimeError(_NO_RESET)
        return encode_state(self.game)

    # --- rendering ---
    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; nothing to do")
            return None
        from .render import render_game

        if self.game is None:
            raise RuntimeError(_NO_RESET)
        text = render_game(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return "skat_v0"


def _seat(agent: str) -> int:
    try:
        return SEATS[agent]
    except (KeyError, TypeError):
        raise ValueError(f"unknown agent {agent!r}; agents: {', '.join(AGENTS)}") from None


__all__ = [
    "AGENTS",
    "OBSERVATION_MODES",
    "check_reward_scale",
    "REWARD_MODES",
    "action_to_move",
    "move_to_action",
    "raw_env",
    "rewards_of",
]
