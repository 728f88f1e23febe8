"""The agent interface: an agent maps the acting player's observation to a move id.

An agent sees only what the environment gives the acting player: the observation dict
``{"observation": float32[...], "action_mask": int8[121]}`` of
:func:`skat_env.encoding.observation.observe` (the same dict the PettingZoo env and the single-agent
view hand out). Rule-based agents turn it back into a :class:`~skat_env.encoding.view.PlayerView`
with :func:`view_of` (the decoder of the observation, so nothing hidden can reach them).

Every :class:`Agent` is a :class:`skat_env.envs.policy.BasePolicy` (the protocol's hooks and
their defaults: ``act``, optional ``act_view``, ``act_batch``, ``act_game``, ``reset``,
``game_over``), so the environments, trainers and tournaments play agents without importing
this package.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

import numpy as np

from skat_env.encoding.observation import decode, mask_to_int
from skat_env.encoding.view import PlayerView
from skat_env.encoding.view import without_history as observation_view
from skat_env.envs.policy import BasePolicy, Observation


class Agent(BasePolicy, ABC):
    """A player. Subclasses implement :meth:`act`; the other hooks have the protocol's
    defaults (:class:`~skat_env.envs.policy.BasePolicy`)."""

    name: str = "agent"
    #: True for agents that talk to a person: evaluation then shows no progress bar and
    #: refuses parallel workers.
    interactive: bool = False

    @abstractmethod
    def act(self, observation: Observation) -> int:
        """A legal move id (0..120) for the observation of the player to act."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class ViewAgent(Agent):
    """An agent that decides from the decoded :class:`PlayerView`.

    :meth:`act` decodes the observation; evaluation may call :meth:`act_view` directly
    with the same view (``skat_env.encoding.view.player_view`` without the play history, which
    the default observation does not hold) to skip the encode/decode round trip.
    """

    def act(self, observation: Observation) -> int:
        return self.act_view(view_of(observation))

    @abstractmethod
    def act_view(self, view: PlayerView) -> int:
        """A legal move id for ``view`` (whose ``legal_mask`` is the action mask)."""


def view_of(observation: Observation) -> PlayerView:
    """The player view an observation dict encodes, with the legal set from its mask."""
    return decode(np.asarray(observation["observation"]), observation["action_mask"])


def legal_moves(observation: Observation) -> int:
    """Bitmask over move ids of the legal moves in an observation dict."""
    return mask_to_int(observation["action_mask"])


__all__ = ["Agent", "ViewAgent", "legal_moves", "observation_view", "view_of"]
