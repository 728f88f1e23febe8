"""The players: ``random``, ``heuristic``, ``human``, trained ``ppo`` (the bundled model),
``ppo:PATH`` and ``rllib:PATH`` models, ``learned`` (contract decisions from the model learned
in simulation, the heuristic's card play) and the search player ``pimc`` (the spec strings of
:data:`SPECS`).

This folder installs as ``skat_env.agents``. Every agent implements :class:`Agent`
(``act(observation) -> move id``) and sees only the acting player's observation dict.
:func:`make_agent` builds one from a spec string.
"""

from .base import Agent, ViewAgent, view_of
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .registry import SPECS, AgentSpecError, make_agent

__all__ = [
    "SPECS",
    "Agent",
    "AgentSpecError",
    "HeuristicAgent",
    "RandomAgent",
    "ViewAgent",
    "make_agent",
    "view_of",
]
