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

Opponents are policies (:mod:`.policy`): objects with ``act(obs_dict) -> move id`` (an
:mod:`agents` agent) or plain functions ``policy(obs_dict) -> move id``. They receive the same
observation dict the AEC env gives their seat. ``opponents`` may be two policies (for the
learner's next and previous seat), or a sampler ``opponents(rng) -> (policy, policy)`` called
at every reset with the env's seeded generator (how ``train.py`` mixes its opponent pool), or
``None`` for uniformly random legal play (:class:`~.policy.RandomPolicy`). Policies with
``reset(seed)`` are reseeded from the env's generator at every reset, so a game depends only
on the env's seed.

Illegal moves (``illegal_action``, as in every env of the package): ``"terminate"`` (default)
ends the episode with ``illegal_reward`` (default: the worst game outcome of ``reward_mode``;
nothing better is accepted) and ``info["illegal_action"] = True``; ``"raise"`` raises
:class:`skat_env.core.game.IllegalMoveError`, the game untouched. Every reward, the penalty
included, is multiplied by ``reward_scale``. Actions that are not move ids raise in both modes.

``copy.deepcopy``, ``pickle`` and :meth:`SkatSingleAgentEnv.clone` give an independent env in
the same position (opponents and generators included) that continues as the original would.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from ..core.game import Game, IllegalMoveError, random_deal
from ..core.moves import NUM_MOVES
from ..core.rewards import REWARD_MODES, check_illegal, rewards_of
from ..core.validation import (
    check_action,
    check_choice,
    check_options,
    check_seat,
    check_seed,
)
from ..encoding.observation import OBS_SIZE, observe
from .aec import check_reward_scale
from .policy import Policy, PolicyLike, RandomPolicy, as_policy, decide, reset_policy

OpponentSampler = Callable[[np.random.Generator], Sequence[PolicyLike]]
RESET_OPTIONS = ("deal", "dealer", "seat")


def _is_pair(pair: object) -> bool:
    return isinstance(pair, Sequence) and not isinstance(pair, (str, bytes)) and len(pair) == 2


class FixedOpponents:
    """The sampler of a fixed pair of opponents (picklable, unlike a lambda)."""

    def __init__(self, pair: Sequence[PolicyLike]):
        if not _is_pair(pair):
            raise ValueError(f"give two opponent policies, got {pair!r}")
        self.pair = (as_policy(pair[0]), as_policy(pair[1]))

    def __call__(self, rng: np.random.Generator) -> tuple[Policy, Policy]:
        return self.pair


class RandomOpponents:
    """The default opponents: two :class:`~.policy.RandomPolicy` players, reseeded from the
    env's generator at every reset."""

    def __init__(self) -> None:
        self.pair = (RandomPolicy(), RandomPolicy())

    def __call__(self, rng: np.random.Generator) -> tuple[Policy, Policy]:
        return self.pair


class SkatSingleAgentEnv(gym.Env[np.ndarray, np.int64]):
    """One learner seat against two opponent policies; see the module docstring."""

    metadata = {"render_modes": []}

    def __init__(
        self,
        opponents: Sequence[PolicyLike] | OpponentSampler | None = None,
        seat: int | None = None,
        reward_mode: str = "zero_sum",
        dealer: int = 2,
        reward_scale: float = 1.0,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
    ):
        check_choice("reward_mode", reward_mode, REWARD_MODES)
        self.fixed_seat = None if seat is None else check_seat(seat, "seat")
        self.dealer = check_seat(dealer, "dealer")
        self.reward_scale = check_reward_scale(reward_scale)
        self.illegal_action, self.illegal_reward = check_illegal(
            illegal_action, illegal_reward, reward_mode
        )
        if opponents is None:
            opponents = RandomOpponents()
        elif not callable(opponents):
            opponents = FixedOpponents(opponents)
        self.opponents = opponents
        self.reward_mode = reward_mode
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
        """New deal. ``options``: ``deal`` (32 cards), ``dealer``, ``seat`` fix those choices
        (``None``: not fixed). Everything is checked before anything changes (a refused reset
        keeps the old game and the seed)."""
        seed = check_seed(seed)
        options = check_options(options, RESET_OPTIONS)
        seat = options.get("seat", self.fixed_seat)
        seat = None if seat is None else check_seat(seat, "option 'seat'")
        dealer = options.get("dealer")
        dealer = self.dealer if dealer is None else check_seat(dealer, "option 'dealer'")
        deal = options.get("deal")
        game = None if deal is None else Game(deal, dealer)  # DealError before any change
        super().reset(seed=seed)
        rng = self.np_random
        self.seat = int(rng.integers(3)) if seat is None else seat
        self.game = Game(random_deal(rng), dealer) if game is None else game
        self._policies = self._draw_opponents(rng)
        self._ended = False
        self._advance()
        if self.game.is_over:  # impossible under the rules: every seat acts in the auction
            raise RuntimeError("the game ended before the learner's first turn")
        return self._observe(), {"seat": self.seat}

    def step(self, action: int | np.int64) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self.game
        if game is None or self._ended:
            raise RuntimeError("step() called without reset() or after the episode ended")
        if type(action) is not int or not 0 <= action < NUM_MOVES:
            action = check_action(action, f"player_{self.seat}")
        try:
            game.step(action)
        except IllegalMoveError:
            if self.illegal_action == "raise":
                raise
            self._mask = np.zeros(NUM_MOVES, np.int8)
            self._ended = True
            obs = observe(game, self.seat)["observation"].astype(np.float32, copy=True)
            reward = self.illegal_reward * self.reward_scale
            return obs, reward, True, False, {"seat": self.seat, "illegal_action": True}
        self._advance()
        obs = self._observe()
        if not game.is_over:
            return obs, 0.0, False, False, {"seat": self.seat}
        self._ended = True
        assert game.result is not None  # the game is over
        reward = rewards_of(game.result, self.reward_mode)[self.seat] * self.reward_scale
        info = {"seat": self.seat, "result": game.result.to_dict()}
        return obs, float(reward), True, False, info

    def action_masks(self) -> np.ndarray:
        """Legal moves of the learner (bool over the 121 move ids), for ``MaskablePPO``."""
        return self._mask.astype(bool)

    def clone(self) -> SkatSingleAgentEnv:
        """An independent copy in the same position (``copy.deepcopy``: the opponents and
        their generators are copied too, so both continue alike and apart)."""
        return copy.deepcopy(self)

    __copy__ = clone  # a shallow copy would share the game and the generators

    # --- internals ---
    def _draw_opponents(self, rng: np.random.Generator) -> dict[int, Policy]:
        """This game's opponents by seat; policies with ``reset(seed)`` are reseeded from the
        env's generator, so a game depends only on the env's seed."""
        nxt, prev = (self.seat + 1) % 3, (self.seat + 2) % 3
        pair = self.opponents(rng)
        if not _is_pair(pair):
            raise ValueError(f"the opponent sampler must return two policies, got {pair!r}")
        policies = [as_policy(p) for p in pair]
        for policy in policies:
            reset_policy(policy, int(rng.integers(2**31)))
        return {nxt: policies[0], prev: policies[1]}

    def _advance(self) -> None:
        """Play the opponents' moves until the learner is to act or the game is over."""
        game = self.game
        assert game is not None  # reset() dealt it
        while not game.is_over and game.to_act != self.seat:
            seat = game.to_act
            game.step(decide(self._policies[seat], game, seat))

    def _observe(self) -> np.ndarray:
        assert self.game is not None  # reset() dealt it
        obs = observe(self.game, self.seat)
        self._mask = np.asarray(obs["action_mask"], np.int8).copy()
        observation: np.ndarray = np.asarray(obs["observation"], np.float32).copy()
        return observation


__all__ = ["FixedOpponents", "RandomOpponents", "SkatSingleAgentEnv"]
