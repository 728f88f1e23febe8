"""The policy protocol of the environments, and the one uniformly random policy.

A policy chooses a move id from the observation dict of the seat to act
(``{"observation": float32[...], "action_mask": int8[121]}``). The environments that play
seats themselves (:mod:`.single_agent`, :mod:`.vector_env`) take policies; the agents of the
top-level ``agents`` package satisfy the protocol (``agents.base.Agent``), but the env layer
never imports them: agents sit above the environments.

:class:`RandomPolicy` is the random player of every layer (``agents.RandomAgent`` is one,
the envs' default opponents are ones): seeded, picklable, with a batched form for the
vector env.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..core.game import Game
from ..encoding.observation import action_mask, encode
from ..encoding.view import player_view, without_history

Observation = dict[str, np.ndarray]


@runtime_checkable
class Policy(Protocol):
    """Anything with ``act(observation) -> move id``. Optional hooks, used when present:
    ``reset(seed)`` before each game (seeded policies reseed there) and
    ``act_view(view) -> move id`` (decide from the decoded player view directly)."""

    def act(self, observation: Observation) -> int: ...


class FunctionPolicy:
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
        return policy
    if callable(policy):
        return FunctionPolicy(policy)
    raise TypeError(
        f"a policy is an object with .act(observation) -> move id or a function "
        f"observation -> move id, got {policy!r}"
    )


class LazyObservation(Mapping):
    """The observation dict of :func:`skat_env.encoding.observation.observe`, each entry computed on
    first access (an agent that only reads the mask does not pay for the encoding)."""

    __slots__ = ("_game", "_seat", "_cache")
    KEYS = ("observation", "action_mask")

    def __init__(self, game: Game, seat: int):
        self._game, self._seat, self._cache = game, seat, {}

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


def decide(policy: Policy, game: Game, seat: int) -> int:
    """The move ``policy`` chooses for ``seat``. Policies with ``act_view`` get the decoded
    view directly (the default observation's information, without the encode/decode round
    trip); the others get the observation dict. A policy flagged ``perfect_information``
    (the ``oracle`` benchmark bound, not a fair player) gets the whole game."""
    if getattr(policy, "perfect_information", False):
        return int(policy.act_game(game, seat))
    act_view = getattr(policy, "act_view", None)
    if act_view is not None:
        return int(act_view(without_history(player_view(game, seat))))
    return int(policy.act(LazyObservation(game, seat)))


class RandomPolicy:
    """Uniform over the legal moves, from its own seeded generators: ``act`` for one
    observation, ``act_batch`` for a batch (the vector env's opponents)."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self._rng = random.Random(seed)
        self._np_rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        """Reseed (``None`` keeps the current stream)."""
        if seed is not None:
            self._rng.seed(seed)
            self._np_rng = np.random.default_rng(seed)

    def act(self, observation: Observation) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        if not len(legal):
            raise ValueError("random policy asked to act with an empty action mask")
        return int(legal[self._rng.randrange(len(legal))])

    def act_batch(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One uniformly random legal move per row of ``masks`` (``int8[n, 121]``)."""
        u = self._np_rng.random(masks.shape) * masks  # argmax of uniform draws over the legal
        return u.argmax(1)


__all__ = ["FunctionPolicy", "Policy", "PolicyLike", "RandomPolicy", "as_policy", "decide"]
