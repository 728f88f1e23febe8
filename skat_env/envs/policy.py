"""The policy protocol: every hook a player may have, its defaults, and the helpers that call
the hooks (the only place that asks which hooks a policy has).

A policy chooses a move id from the observation dict of the seat to act
(``{"observation": float32[...], "action_mask": int8[121]}``). The environments that play
seats themselves (:mod:`.single_agent`, :mod:`.vector_env`), the trainers of
:mod:`skat_env.integrations` and the tournaments take policies; the agents of the top-level
``agents`` package are policies (``agents.base.Agent`` is a :class:`BasePolicy`), but no layer
below the players imports them: training opponents and teachers are passed in as policies.

The hooks (:class:`BasePolicy` has a default for each; only ``act`` is required of other
objects, and a plain function ``fn(observation) -> move id`` is wrapped by :func:`as_policy`):

- ``act(observation) -> move id``: one decision.
- ``act_view(view) -> move id`` (optional; ``None`` by default): decide from the decoded
  :class:`~skat_env.encoding.view.PlayerView` (the default observation's information, without
  the encode/decode round trip); :func:`decide` prefers it.
- ``act_batch(obs[B, N], masks[B, 121]) -> moves[B]``: many decisions in one call (default:
  ``act`` per row). :func:`batched` turns any policy into a :data:`BatchedPolicy`;
  :func:`batchable` says whether a tournament may play it in lockstep.
- ``act_game(game, seat) -> move id``: only for policies flagged ``perfect_information``
  (benchmark bounds that see every card, not fair players); :func:`decide` calls it for them.
- ``reset(seed)``: before each game (seeded policies reseed); :func:`reset_policy`.
- ``game_over(observation)``: each seat's final observation when a game ends;
  :func:`notify_game_over` builds it only for policies that override the default.

Flags: ``deterministic`` (moves depend on the observation alone, so batching across games
changes nothing), ``perfect_information`` (see ``act_game``).

:class:`RandomPolicy` is the random player of every layer (``agents.RandomAgent`` is one,
the envs' default opponents are ones): seeded, picklable, batched.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, cast, runtime_checkable

import numpy as np

from ..core.game import Game
from ..encoding.observation import action_mask, encode
from ..encoding.view import PlayerView, player_view, without_history

Observation = Mapping[str, np.ndarray]
#: A batched policy: ``policy(obs float32[B, N], masks int8[B, 121]) -> moves int[B]``.
BatchedPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(observation) -> move id``; the optional hooks are those of
    :class:`BasePolicy` (see the module docstring)."""

    def act(self, observation: Observation) -> int: ...


class BasePolicy:
    """The defaults of every hook of the protocol; players subclass it and override what
    they have (``act`` always)."""

    name: str = "policy"
    #: moves depend on the observation alone (no memory, no randomness): an own
    #: ``act_batch`` may then decide for many games at once without changing any game
    deterministic: bool = False
    #: sees the whole game: :func:`decide` calls ``act_game(game, seat)`` (benchmark bounds)
    perfect_information: bool = False
    #: ``act_view(view) -> move id`` when the policy decides from the decoded view
    act_view: Callable[[PlayerView], int] | None = None

    def act(self, observation: Observation) -> int:
        """A legal move id (0..120) for the observation of the player to act."""
        raise NotImplementedError(f"{type(self).__name__} has no act()")

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One move per row of ``obs[B, N]`` under ``masks[B, 121]`` (default: ``act`` per
        row), ``int64[B]``."""
        return act_rows(self, obs, masks)

    def act_game(self, game: Game, seat: int) -> int:
        """The move of ``seat`` knowing the whole game: only for ``perfect_information``."""
        raise TypeError(f"{self!r} plays from observations; act_game is for policies flagged "
                        "perfect_information")  # fmt: skip

    def reset(self, seed: int | None = None) -> None:
        """Called before every game; seeded policies reseed here so that a game's moves
        depend only on the seed given, not on which process played it."""

    def game_over(self, observation: Observation) -> None:
        """Called with each seat's final observation when a game ends (default: nothing)."""


class FunctionPolicy(BasePolicy):
    """A plain function ``fn(observation) -> move id`` as a :class:`Policy` (picklable when
    ``fn`` is a module-level function)."""

    def __init__(self, fn: Callable[[Observation], int]):
        self.fn = fn

    def act(self, observation: Observation) -> int:
        return self.fn(observation)

    def __repr__(self) -> str:
        return f"FunctionPolicy({self.fn!r})"


PolicyLike = Policy | Callable[[Observation], int]


def as_policy(policy: Any) -> Policy:
    """``policy`` as a :class:`Policy`: objects with ``act`` as they are, plain callables
    wrapped; anything else is refused."""
    if callable(getattr(policy, "act", None)):
        return cast(Policy, policy)
    if callable(policy):
        return FunctionPolicy(policy)
    raise TypeError(
        f"a policy is an object with .act(observation) -> move id or a function "
        f"observation -> move id, got {policy!r}"
    )


def act_rows(policy: Policy, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """``policy.act`` on each row of a batch: the batched form of a policy without one."""
    rows = zip(obs, masks, strict=True)
    moves = [policy.act({"observation": o, "action_mask": m}) for o, m in rows]
    return np.array(moves, np.int64).reshape(len(moves))


class _RowLoop:
    """The batched form of a policy that has only ``act`` (picklable, unlike a closure)."""

    def __init__(self, policy: Policy):
        self.policy = policy

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return act_rows(self.policy, obs, masks)


def batched(policy: Any) -> BatchedPolicy:
    """Any policy as a :data:`BatchedPolicy`: its ``act_batch`` when it has one, else
    ``act`` per row. A plain callable is taken to be batched already (``fn(obs, masks)``,
    what :class:`~.vector_env.SkatVectorEnv` documents) and returned as it is."""
    act_batch = getattr(policy, "act_batch", None)
    if callable(act_batch):
        return cast(BatchedPolicy, act_batch)
    if callable(getattr(policy, "act", None)):
        return _RowLoop(policy)
    if callable(policy):
        return cast(BatchedPolicy, policy)
    raise TypeError(f"a policy is an object with .act(observation) or .act_batch(obs, masks), "
                    f"or a batched function fn(obs, masks) -> moves, got {policy!r}")  # fmt: skip


def batchable(policy: Any) -> bool:
    """Whether many games may be decided in one ``act_batch`` call without changing any:
    the policy declares itself ``deterministic`` and has its own ``act_batch`` (not the
    per-row default)."""
    if not getattr(policy, "deterministic", False):
        return False
    own = getattr(type(policy), "act_batch", None)
    return callable(own) and own is not BasePolicy.act_batch


def reset_policy(policy: Any, seed: int | None) -> None:
    """Call the policy's ``reset(seed)`` hook, if it has one."""
    reset = getattr(policy, "reset", None)
    if callable(reset):
        reset(seed)


def sees_everything(policy: Any) -> bool:
    """Whether the policy is flagged ``perfect_information`` (decided by ``act_game``)."""
    return bool(getattr(policy, "perfect_information", False))


def view_hook(policy: Any) -> Callable[[PlayerView], int] | None:
    """The policy's ``act_view`` hook, or None when it decides from observations."""
    return getattr(policy, "act_view", None)


def pass_game_over(policy: Any, observation: Observation) -> None:
    """Give a final observation to the policy's ``game_over`` hook, if it has one."""
    hook = getattr(policy, "game_over", None)
    if callable(hook):
        hook(observation)


def notify_game_over(policy: Any, game: Game, seat: int) -> None:
    """Give ``seat``'s final observation to the policy's ``game_over`` hook; nothing is
    encoded for a policy without one (or with the default, which does nothing)."""
    hook = getattr(type(policy), "game_over", None)
    if callable(hook) and hook is not BasePolicy.game_over:
        policy.game_over(LazyObservation(game, seat))


class LazyObservation(Mapping[str, np.ndarray]):
    """The observation dict of :func:`skat_env.encoding.observation.observe`, each entry computed on
    first access (an agent that only reads the mask does not pay for the encoding)."""

    __slots__ = ("_game", "_seat", "_cache")
    KEYS = ("observation", "action_mask")

    def __init__(self, game: Game, seat: int):
        self._game, self._seat = game, seat
        self._cache: dict[str, np.ndarray] = {}

    def __getitem__(self, key: str) -> np.ndarray:
        if key not in self._cache:
            if key == "observation":
                self._cache[key] = encode(player_view(self._game, self._seat))
            elif key == "action_mask":
                legal = self._game.legal_mask() if self._game.to_act == self._seat else 0
                self._cache[key] = action_mask(legal)
            else:
                raise KeyError(key)
        return self._cache[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.KEYS)

    def __len__(self) -> int:
        return 2


def decide(policy: Any, game: Game, seat: int) -> int:
    """The move ``policy`` chooses for ``seat``. Policies with ``act_view`` get the decoded
    view directly (the default observation's information, without the encode/decode round
    trip); the others get the observation dict. A policy flagged ``perfect_information``
    (a benchmark bound, not a fair player) gets the whole game through ``act_game``."""
    if sees_everything(policy):
        return int(policy.act_game(game, seat))
    act_view = view_hook(policy)
    if act_view is not None:
        return int(act_view(without_history(player_view(game, seat))))
    return int(policy.act(LazyObservation(game, seat)))


class RandomPolicy(BasePolicy):
    """Uniform over the legal moves, from its own seeded generators: ``act`` for one
    observation, ``act_batch`` for a batch (the vector env's opponents)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)
        self._np_seed = seed
        self._np_rng: np.random.Generator | None = None  # made on first act_batch

    def reset(self, seed: int | None = None) -> None:
        """Reseed (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng.seed(seed)
            self._np_seed, self._np_rng = seed, None

    def __deepcopy__(self, memo: dict[int, Any]) -> RandomPolicy:
        """Copy the generators' states directly: tournaments copy a random seat per game, and
        the generic deep copy of two generators cost more than the game itself."""
        new = copy.copy(self)
        new._rng = random.Random(0)
        new._rng.setstate(self._rng.getstate())
        if self._np_rng is not None:
            bits = np.random.PCG64(0)
            state: Any = self._np_rng.bit_generator.state  # a PCG64 state dict
            bits.state = state
            new._np_rng = np.random.Generator(bits)
        return new

    def act(self, observation: Observation) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("random policy asked to act with an empty action mask")
        return int(legal[self._rng.randrange(len(legal))])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One uniformly random legal move per row of ``masks`` (``int8[n, 121]``)."""
        if self._np_rng is None:
            self._np_rng = np.random.default_rng(self._np_seed)
        u = self._np_rng.random(masks.shape) * masks  # argmax of uniform draws over the legal
        moves: np.ndarray = u.argmax(1)
        return moves


__all__ = [
    "BasePolicy",
    "BatchedPolicy",
    "FunctionPolicy",
    "LazyObservation",
    "Observation",
    "Policy",
    "PolicyLike",
    "RandomPolicy",
    "act_rows",
    "as_policy",
    "batchable",
    "batched",
    "decide",
    "notify_game_over",
    "reset_policy",
]
