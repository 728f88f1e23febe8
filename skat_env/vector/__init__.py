"""Batched Skat engine (B games in NumPy arrays); see :mod:`skat_env.vector.engine`."""

from ..encoding.batched import encode_batch
from .engine import (
    ILLEGAL_ACTIONS,
    REWARD_MODES,
    IllegalActionError,
    Results,
    VecState,
    contract_of,
    init,
    init_from_deals,
    is_legal,
    random_actions,
    result_of,
    score_batch,
    step,
)

__all__ = [
    "ILLEGAL_ACTIONS",
    "IllegalActionError",
    "REWARD_MODES",
    "Results",
    "VecState",
    "contract_of",
    "encode_batch",
    "init",
    "init_from_deals",
    "is_legal",
    "random_actions",
    "result_of",
    "score_batch",
    "step",
]
