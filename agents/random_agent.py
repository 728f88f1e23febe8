"""``random``: uniform over the legal moves, from its own seeded generator."""

from __future__ import annotations

from skat_env.envs.policy import RandomPolicy

from .base import Agent


class RandomAgent(RandomPolicy, Agent):
    """Picks each move uniformly among the legal ones (the floor every agent must beat): the
    library's :class:`~skat_env.envs.policy.RandomPolicy` as an agent."""

    name = "random"


__all__ = ["RandomAgent"]
