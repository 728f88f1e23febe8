"""skat-env: Skat (International Skat Order) as a reinforcement-learning environment.

The rules core (``cards``, ``tables``, ``bidding``, ``tricks``, ``scoring``, ``moves``,
``game``, ``records``) is pure Python and knows nothing of RL; the environments are thin
adapters on top of it.
"""

from importlib import metadata as _metadata

from .core.game import DealError, Game, IllegalMoveError, Result, random_deal
from .core.moves import MOVE_INDEX, MOVE_NAMES, NUM_MOVES

__all__ = [
    "DealError",
    "Game",
    "IllegalMoveError",
    "MOVE_INDEX",
    "MOVE_NAMES",
    "NUM_MOVES",
    "Result",
    "random_deal",
]
try:  # pyproject.toml is the one place the version is written
    __version__ = _metadata.version("skat-env")
except _metadata.PackageNotFoundError:  # a checkout on sys.path that was never installed
    __version__ = "0+unknown"


def __getattr__(name: str):
    """``skat_env.skat_v0`` on first use, so importing the core does not load PettingZoo."""
    if name == "skat_v0":
        import importlib

        return importlib.import_module(".skat_v0", __name__)
    raise AttributeError(f"module 'skat_env' has no attribute {name!r}")


def _register() -> None:
    """``gymnasium.make("skat_env/Skat-v0")`` (and ``make_vec``) once skat_env is imported."""
    from .envs.registration import register_envs

    register_envs()


_register()
