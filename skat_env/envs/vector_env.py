"""Gymnasium vector env of the learner-seat view, on the batched engine (:mod:`skat_env.vector`).

``num_envs`` games run in one :class:`~skat_env.vector.VecState`. In each game the learner
holds one seat (drawn at random per game, or fixed); the two other seats are played by
*batched* opponent policies inside :meth:`SkatVectorEnv.step` until the learner is to act again
in every game. It is the batched counterpart of :class:`.single_agent.SkatSingleAgentEnv`
(same observation, same mask, same reward: the learner seat's reward under ``reward_mode``
times ``reward_scale``, on the step that ends its game).

Opponents are a pool: ``opponents`` maps a name to a policy (``"random"``: the batched form
of :class:`~.policy.RandomPolicy`, seeded from the env's generator; any :mod:`.policy` policy,
batched by :func:`~.policy.batched`; or a :data:`~.policy.BatchedPolicy`
``policy(obs, mask) -> actions`` taking ``float32[n, 450]`` observations and ``int8[n, 121]``
masks, e.g. a frozen self-play snapshot), with ``weights``; each game draws
its opponent for both other seats from the pool at its start. Every policy is called once
per opponent turn with all the games that use it. :meth:`SkatVectorEnv.set_weights` changes
the mix for the games that start afterwards (training's opponent pool reweights its members
by the learner's results this way), and
each step reports, for the games that ended, which opponent they used and who won (below).

Autoreset is same-step: when a game ends, ``terminated[i]`` is set, ``rewards[i]`` is the
learner's reward, ``infos["result_score"][i]`` the declarer's list score,
``infos["opponent"][i]`` the pool index of that game's opponent (:attr:`opponent_names`),
``infos["outcome"][i]`` +1 if the learner's side won it, -1 if the opponents' side did, 0 for a
thrown-in deal (the sign of the learner's reward minus the mean of its opponents', the same in
every reward mode; an illegal move loses), and ``obs[i]``
already shows the learner's first decision of the next game (no terminal observation:
Skat ends on a move, nothing is left to observe). :meth:`action_masks` gives the legal
moves for maskable algorithms.

Illegal moves (``illegal_action``, as in every env of the package): ``"terminate"``
(default) ends that game with ``illegal_reward`` for the learner (default: the worst game
outcome of ``reward_mode``; nothing better is accepted); ``"raise"`` raises
:class:`skat_env.vector.IllegalActionError`, every game untouched. Rewards, the penalty
included, are multiplied by ``reward_scale``. Actions must be integer move ids (an integer
array of shape ``(num_envs,)``); anything else raises before anything changes.

``copy.deepcopy``, ``pickle`` and :meth:`SkatVectorEnv.clone` give an independent env in the
same position that continues as the original would.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

from .. import vector
from ..core.moves import NUM_MOVES
from ..core.rewards import check_illegal
from ..core.validation import check_count, check_options, check_seat, check_seed
from ..encoding.observation import OBS_SIZE
from .aec import check_reward_scale
from .policy import BatchedPolicy, RandomPolicy, batched


def random_policy(seed: int | None = None) -> BatchedPolicy:
    """Uniformly random legal moves (from the masks), batched: the ``act_batch`` of a
    :class:`~.policy.RandomPolicy` (picklable)."""
    return RandomPolicy(seed).act_batch


class SkatVectorEnv(VectorEnv):
    """``num_envs`` learner-seat games stepped together; see the module docstring."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        opponents: Mapping[str, Any] | None = None,
        weights: Sequence[float] | None = None,
        seat: int | None = None,
        reward_mode: str = "zero_sum",
        reward_scale: float = 1.0,
        dealer: int = 2,
        illegal_action: str = "terminate",
        illegal_reward: float | None = None,
    ):
        num_envs = check_count(num_envs, "num_envs")
        self.fixed_seat = None if seat is None else check_seat(seat, "seat")
        self.illegal_action, self.illegal_reward = check_illegal(
            illegal_action, illegal_reward, reward_mode
        )  # checks reward_mode too
        self.num_envs = num_envs
        self.reward_mode = reward_mode
        self.reward_scale = check_reward_scale(reward_scale)
        self.dealer = check_seat(dealer, "dealer")
        self._pool_spec = {
            name: p if isinstance(p, str) and p == "random" else _batched(name, p)
            for name, p in (opponents or {"random": "random"}).items()
        }
        if not self._pool_spec:
            raise ValueError("the opponent pool is empty")
        self._weights = self._check_weights(weights)
        self.single_observation_space = gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.single_action_space = gym.spaces.Discrete(NUM_MOVES)
        self.observation_space = gym.vector.utils.batch_space(
            self.single_observation_space, num_envs
        )
        self.action_space = gym.vector.utils.batch_space(self.single_action_space, num_envs)
        self.state: vector.VecState | None = None
        self.seats = np.zeros(num_envs, np.int64)
        self.opponent = np.zeros(num_envs, np.int64)  # index into the pool, per game
        self._scores = np.zeros(num_envs, np.int64)  # declarer's list score of the last game
        self._ended_opponent = np.zeros(num_envs, np.int64)  # opponent of the last game
        self._outcomes = np.zeros(num_envs, np.int64)  # +1 / -1 / 0 of the last game
        self._rng = np.random.default_rng()
        self._policies: list[BatchedPolicy] = []

    # --- Gymnasium API ---
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """New games in every slot (``options``: none are known; anything else is refused)."""
        check_options(options, ())
        if check_seed(seed) is not None:
            self._rng = np.random.default_rng(seed)
        self.state = vector.init(
            self.num_envs, seed=int(self._rng.integers(2**63)), dealer=self.dealer,
            reward_mode=self.reward_mode, illegal_action=self.illegal_action,
            illegal_reward=self.illegal_reward,
        )  # fmt: skip
        self._policies = [
            random_policy(int(self._rng.integers(2**63))) if isinstance(p, str) else p
            for p in self._pool_spec.values()
        ]
        self._new_games(np.arange(self.num_envs))
        rewards = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, bool)
        self._advance(rewards, done)
        return self.state.obs.copy(), {}

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        s = self.state
        if s is None:
            raise RuntimeError("step() before reset()")
        vector.step(s, actions)  # checks the actions; the learner is to act in every game
        rewards = np.zeros(self.num_envs)
        done = np.zeros(self.num_envs, bool)
        self._collect(rewards, done)
        self._advance(rewards, done)
        infos = {
            "result_score": self._scores.copy(),
            "opponent": np.where(done, self._ended_opponent, self.opponent),
            "outcome": self._outcomes.copy(),
        }
        truncated = np.zeros(self.num_envs, bool)
        return s.obs.copy(), rewards * self.reward_scale, done, truncated, infos

    def action_masks(self) -> np.ndarray:
        """Legal moves of the learner in each game, bool ``[num_envs, 121]``."""
        if self.state is None:
            raise RuntimeError("action_masks() before reset()")
        masks: np.ndarray = self.state.legal_mask.astype(bool)
        return masks

    def clone(self) -> SkatVectorEnv:
        """An independent copy in the same position (``copy.deepcopy``: state, generators and
        opponent policies are copied)."""
        return copy.deepcopy(self)

    __copy__ = clone  # a shallow copy would share the game and the generators

    @property
    def opponent_names(self) -> list[str]:
        """The pool's names, in the order of the indices in ``infos["opponent"]``."""
        return list(self._pool_spec)

    def set_weights(self, weights: Sequence[float]) -> None:
        """New pool weights (one per opponent, normalised) for the games that start from now
        on; games in progress keep their opponent. Bad weights raise and change nothing."""
        self._weights = self._check_weights(weights)

    def _check_weights(self, weights: Sequence[float] | None) -> np.ndarray:
        n = len(self._pool_spec)
        w = np.ones(n) if weights is None else np.asarray(weights, float)
        bad = w.shape != (n,) or not np.isfinite(w).all()
        if bad or (w < 0).any() or w.sum() <= 0:
            raise ValueError(f"weights must be {n} finite non-negative numbers, not all 0, "
                             f"got {weights!r}")  # fmt: skip
        normalised: np.ndarray = w / w.sum()
        return normalised

    # --- internals ---
    def _new_games(self, idx: np.ndarray) -> None:
        """Draw the learner's seat and the opponents of the games (re)started in ``idx``."""
        n = len(idx)
        fixed = self.fixed_seat
        self.seats[idx] = self._rng.integers(0, 3, n) if fixed is None else fixed
        self.opponent[idx] = self._rng.choice(len(self._weights), n, p=self._weights)

    def _collect(self, rewards: np.ndarray, done: np.ndarray) -> None:
        """Book the learner's reward of the games that just ended; start their next games."""
        s = self.state
        assert s is not None  # reset() made it
        ended = np.flatnonzero(s.terminated)
        if len(ended):
            seat_rewards = s.rewards[ended]
            mine = seat_rewards[np.arange(len(ended)), self.seats[ended]]
            others = (seat_rewards.sum(1) - mine) / 2
            rewards[ended] += mine
            done[ended] = True
            self._scores[ended] = s.result.score[ended]
            self._outcomes[ended] = np.sign(mine - others)
            self._ended_opponent[ended] = self.opponent[ended]
            self._new_games(ended)

    def _advance(self, rewards: np.ndarray, done: np.ndarray) -> None:
        """Play the opponents (batched per policy) until the learner is to act everywhere."""
        s = self.state
        assert s is not None  # reset() made it
        actions = np.zeros(self.num_envs, np.int64)
        while True:
            waiting = s.to_act != self.seats
            if not waiting.any():
                return
            for k, policy in enumerate(self._policies):
                idx = np.flatnonzero(waiting & (self.opponent == k))
                if len(idx):
                    actions[idx] = policy(s.obs[idx], s.legal_mask[idx])
            vector.step(s, actions, active=waiting)
            # a game can only end on an opponent's move here: book it for the learner
            self._collect(rewards, done)


def _batched(name: str, policy: Any) -> BatchedPolicy:
    try:
        return batched(policy)
    except TypeError:
        raise TypeError(f"opponent {name!r} must be 'random', a policy or a batched policy "
                        f"policy(obs, mask) -> actions, got {policy!r}") from None  # fmt: skip


def sb3_vec_env(num_envs: int, **kwargs: Any) -> Any:
    """The same env as a Stable-Baselines3 ``VecEnv`` (for ``MaskablePPO``: masks through
    ``env_method("action_masks")``). Keyword arguments go to :class:`SkatVectorEnv`; reset
    with ``env.seed(n)`` before ``reset()`` for reproducible deals."""
    from stable_baselines3.common.vec_env import VecEnv
    from stable_baselines3.common.vec_env.base_vec_env import VecEnvIndices, VecEnvStepReturn

    class Sb3SkatVecEnv(VecEnv):
        def __init__(self, env: SkatVectorEnv):
            self.env = env
            self._actions: np.ndarray | None = None
            self._seed: int | None = None
            super().__init__(env.num_envs, env.single_observation_space, env.single_action_space)

        def seed(self, seed: int | None = None) -> list[int | None]:
            self._seed = seed
            return [seed] * self.num_envs

        def reset(self) -> np.ndarray:
            obs, _ = self.env.reset(seed=self._seed)
            self._seed = None
            return obs

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions)

        def step_wait(self) -> VecEnvStepReturn:
            assert self._actions is not None  # step_async() came first
            obs, rew, term, _, info = self.env.step(self._actions)
            keys = ("result_score", "opponent", "outcome")
            infos = [
                {k: int(info[k][i]) for k in keys} if term[i] else {} for i in range(len(term))
            ]
            return obs, rew.astype(np.float32), term, infos

        def close(self) -> None:
            pass

        def _targets(self, indices: VecEnvIndices) -> list[int]:
            return list(self._get_indices(indices))

        def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
            value = getattr(self.env, attr_name)
            return [value for _ in self._targets(indices)]

        def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
            setattr(self.env, attr_name, value)

        def env_method(
            self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any
        ) -> list[Any]:
            if method_name == "action_masks":
                masks = self.env.action_masks()
                return [masks[i] for i in self._targets(indices)]
            result = getattr(self.env, method_name)(*args, **kwargs)
            return [result for _ in self._targets(indices)]

        def env_is_wrapped(
            self,
            wrapper_class: type[gym.Wrapper[Any, Any, Any, Any]],
            indices: VecEnvIndices = None,
        ) -> list[bool]:
            return [False for _ in self._targets(indices)]

    return Sb3SkatVecEnv(SkatVectorEnv(num_envs, **kwargs))


__all__ = ["SkatVectorEnv", "random_policy", "sb3_vec_env"]
