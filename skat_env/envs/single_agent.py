"""Gymnasium single-agent view of Skat: one learner seat, two opponents played inside ``step()``.

The learner controls one seat (drawn at random each episode, or fixed); the two other seats are
played by opponent policies until the learner is to act again or the game is over. Observations
are the flat vector of :func:`~skat_env.encoding.observation.observe` for the learner's seat
(a ``Box``), with the legal-move mask exposed by :meth:`SkatSingleAgentEnv.action_masks` for
sb3-contrib's ``MaskablePPO``. The reward is the learner's own seat's reward under
``reward_mode``, exactly as the AEC env (:mod:`.aec`) would give it, delivered on the step that
ends the game (every other step gives 0).

Every seat acts at least once in the auction (middlehand opens; rearhand bids or passes next;
forehand answers a bid or, when both others passed, bids or passes itself), so an episode always
has at least one learner step and the learner is never asked to act with an empty mask.

Opponents are policies: a callable ``policy(obs_dict) -> move id`` or an object with
``act(obs_dict) -> move id`` (an :mod:`agents` agent). They receive the same observation dict
the AEC env gives their seat. ``opponents`` may be two policies (for the learner's next and
previous seat), or a sampler ``opponents(rng) -> (policy, policy)`` called at every reset with
the env's seeded generator (how ``train.py`` mixes its opponent pool), or ``None`` for uniformly
random legal play from the env's generator.

An action outside the legal set ends the episode with ``illegal_reward`` (and
``info["illegal_action"] = True``) instead of raising, as PettingZoo's illegal-move wrapper does;
``illegal_action="raise"`` raises :class:`skat_env.core.game.IllegalMoveError` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

from ..core.game import Game, IllegalMoveError, random_deal
from ..core.moves import NUM_MOVES
from ..core.rewards import REWARD_MODES, rewards_of
from ..encoding.observation import OBS_SIZE, observe
from ..encoding.view import player_view, without_history


class Agent(Protocol):
    def act(self, obs: dict[str, np.ndarray]) -> int: ...


Policy = Callable[[dict[str, np.ndarray]], int] | Agent
OpponentSampler = Callable[[np.random.Generator], Sequence[Policy]]


def as_policy(policy: Policy) -> Policy:
    """Check that ``policy`` can choose moves (a callable or an object with ``act``)."""
    if callable(getattr(policy, "act", None)) or callable(policy):
        return policy
    raise TypeError(f"an opponent must be callable or have .act(obs), got {policy!r}")


def decide(policy: Policy, game: Game, seat: int) -> int:
    """The move ``policy`` chooses for ``seat``: ``act(obs_dict)`` or ``policy(obs_dict)``.

    Agents that decide from the decoded player view (``act_view``, as the rule-based agents
    of :mod:`agents` do) get that view directly: the same information as the default
    observation (which holds no play history), without the encode/decode round trip.
    """
    act_view = getattr(policy, "act_view", None)
    if act_view is not None:
        return int(act_view(without_history(player_view(game, seat))))
    act = getattr(policy, "act", None)
    return int((act or policy)(observe(game, seat)))


class SkatSingleAgentEnv(gym.Env[np.ndarray, np.int64]):
    """One learner seat against two opponent policies; see the module docstring."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        opponents: Sequence[Policy] | OpponentSampler | None = None,
        seat: int | None = None,
        reward_mode: str = "zero_sum",
        dealer: int = 2,
        reward_scale: float = 1.0,
        illegal_action: str = "terminate",
        illegal_reward: float = -100.0,
    ):
        if reward_mode not in REWARD_MODES:
            raise ValueError(f"reward_mode must be one of {REWARD_MODES}, got {reward_mode!r}")
        if seat not in (None, 0, 1, 2):
            raise ValueError(f"seat must be 0, 1, 2 or None (random), got {seat!r}")
        if dealer not in (0, 1, 2):
            raise ValueError(f"dealer must be seat 0, 1 or 2, got {dealer!r}")
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(
                f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}"
            )
        if opponents is not None and not callable(opponents):
            if len(opponents) != 2:
                raise ValueError(f"give two opponent policies, got {len(opponents)}")
            fixed = tuple(as_policy(p) for p in opponents)
            opponents = lambda rng: fixed  # noqa: E731
        self.opponents = opponents
        self.fixed_seat = seat
        self.reward_mode = reward_mode
        self.dealer = dealer
        self.reward_scale = reward_scale
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        self.observation_space = gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(NUM_MOVES)
        self.game: Game | None = None
        self.seat = 0
        self._policies: dict[int, Policy] = {}
        self._mask = np.zeros(NUM_MOVES, np.int8)
        self._ended = True

    # --- Gymnasium API ---
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New deal. ``options``: ``deal`` (32 cards), ``dealer``, ``seat`` fix those choices."""
        super().reset(seed=seed)
        options = options or {}
        rng = self.np_random
        seat = options.get("seat", self.fixed_seat)
        self.seat = int(rng.integers(3)) if seat is None else int(seat)
        deal = options.get("deal")
        self.game = Game(
            random_deal(rng) if deal is None else deal, options.get("dealer", self.dealer)
        )
        self._policies = self._draw_opponents(rng)
        self._ended = False
        self._advance()
        if self.game.is_over:  # impossible under the rules: every seat acts in the auction
            raise RuntimeError("the game ended before the learner's first turn")
        return self._observe(), {"seat": self.seat}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or self._ended:
            raise RuntimeError("step() called without reset() or after the episode ended")
        try:
            game.step(int(action))
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._mask = np.zeros(NUM_MOVES, np.int8)
            self._ended = True
            obs = observe(game, self.seat)["observation"].astype(np.float32, copy=True)
            reward = float(self.illegal_reward) * self.reward_scale
            return obs, reward, True, False, {"seat": self.seat, "illegal_action": True}
        self._advance()
        obs = self._observe()
        if not game.is_over:
            return obs, 0.0, False, False, {"seat": self.seat}
        self._ended = True
        reward = rewards_of(game.result, self.reward_mode)[self.seat] * self.reward_scale
        info = {"seat": self.seat, "result": game.result.to_dict()}
        return obs, float(reward), True, False, info

    def action_masks(self) -> np.ndarray:
        """Legal moves of the learner (bool over the 121 move ids), for ``MaskablePPO``."""
        return self._mask.astype(bool)

    # --- internals ---
    def _draw_opponents(self, rng: np.random.Generator) -> dict[int, Policy]:
        """This game's opponents by seat; agents with ``reset(seed)`` are reseeded from the
        env's generator, so a game depends only on the env's seed."""
        nxt, prev = (self.seat + 1) % 3, (self.seat + 2) % 3
        if self.opponents is None:
            pick = _random_policy(rng)
            return {nxt: pick, prev: pick}
        pair = self.opponents(rng)
        if len(pair) != 2:
            raise ValueError(f"the opponent sampler must return two policies, got {len(pair)}")
        for policy in pair:
            reset = getattr(policy, "reset", None)
            if callable(reset):
                reset(int(rng.integers(2**31)))
        return {nxt: as_policy(pair[0]), prev: as_policy(pair[1])}

    def _advance(self) -> None:
        """Play the opponents' moves until the learner is to act or the game is over."""
        game = self.game
        while not game.is_over and game.to_act != self.seat:
            seat = game.to_act
            game.step(decide(self._policies[seat], game, seat))

    def _observe(self) -> np.ndarray:
        obs = observe(self.game, self.seat)
        self._mask = np.asarray(obs["action_mask"], np.int8).copy()
        return np.asarray(obs["observation"], np.float32).copy()


def _random_policy(rng: np.random.Generator) -> Callable[[dict[str, np.ndarray]], int]:
    """Uniform over the legal moves, drawn from the env's generator (seeded by ``reset``)."""

    def policy(obs: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[rng.integers(len(legal))])

    return policy


__all__ = ["SkatSingleAgentEnv", "as_policy"]
