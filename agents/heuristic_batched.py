"""The ``heuristic`` player for a whole batch of observations at once.

:func:`decide_batch` takes the observations and action masks the batched engine and the
tournament hand out (``float32[B, 450]``, ``int8[B, 121]``), decodes the fields the rules read
into one int64 row per observation (NumPy, :func:`rows`), and decides every row with the rules
of :mod:`.heuristic_rules` (:func:`~.heuristic_rules.decide_rows`): compiled by numba into one
loop when numba is installed, run as plain Python otherwise (the same functions, the same
moves).

numba compiles the rule functions as they are: this module registers every function of
:mod:`.heuristic_rules` as callable from compiled code and gives numba the two int methods
they use (``bit_count``, ``bit_length``). Tables and constants are kernel arguments, so
numba's on-disk cache never holds stale ones; the cache follows the source file of
:mod:`.heuristic_rules`, where every rule lives.
"""

from __future__ import annotations

import importlib.util
import inspect

import numpy as np

from skat_env.core.moves import FIRST_BID, HOLD, NUM_MOVES
from skat_env.core.tables import BID_VALUES
from skat_env.encoding.observation import LAYOUT, OBS_SIZE

from . import heuristic_rules as rules

NUMBA = importlib.util.find_spec("numba") is not None  # the "search" extra
_TABLES = (
    np.array(rules.TABLES[0], np.int64),  # [4, 6, 32]: effective suit, strength, higher, lower
    *(np.array(t, np.int64) for t in rules.TABLES[1:]),
)
_PARAMS = np.array(rules.PARAMS, np.float64)
_kernel = None  # the compiled loop over rows, made on first use


def _compiled():
    """:func:`.heuristic_rules.decide_rows` compiled by numba (from its cache once built)."""
    global _kernel
    if _kernel is None:
        from numba import njit, types
        from numba.cpython.unsafe.numbers import leading_zeros
        from numba.extending import overload_method, register_jitable

        @overload_method(types.Integer, "bit_count")
        def _bit_count(m):
            def impl(m):  # LLVM makes the loop one popcount instruction
                n = 0
                while m:
                    m &= m - 1
                    n += 1
                return n

            return impl

        @overload_method(types.Integer, "bit_length")
        def _bit_length(m):  # for the non-negative card sets of the rules
            return lambda m: 64 - leading_zeros(np.int64(m))

        for fn in vars(rules).values():
            if inspect.isfunction(fn) and fn.__module__ == rules.__name__:
                register_jitable(fn)
        _kernel = njit(cache=True)(rules.decide_rows)
    return _kernel


_CARD_SETS = LAYOUT["seat"].start  # 320: the ten card sets come first
_BIDS = np.array([0, *BID_VALUES], np.int64)
_BID_MOVES = slice(FIRST_BID, FIRST_BID + len(BID_VALUES))
_CONTRACTS = slice(rules.FIRST_CONTRACT, NUM_MOVES)


def _onehot(obs: np.ndarray, name: str) -> np.ndarray:
    """Index of the set entry of a one-hot field per row, -1 where none is set."""
    f = obs[:, LAYOUT[name]] > 0.5
    return np.where(f.any(1), f.argmax(1), -1)


def _bits(flags: np.ndarray) -> np.ndarray:
    """Each row of booleans (at most 63) as the bits of one int64."""
    return flags.astype(np.int64) @ (1 << np.arange(flags.shape[1], dtype=np.int64))


def rows(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The fields the rules read (``heuristic_rules.ROW_*``), one int64 row per observation and
    boolean mask: phase, position, hand, skat, discarded, all cards played, open hand, bid
    value, declarer, voids (5 bits per seat), game kind, hand game, trick leader, the trick
    card of each seat (-1: none), the legal cards, the lowest legal bid move (-1: none),
    hold legal, the legal declarations (bits from the first one). Seats are relative to the
    observer (0 self, 1 next, 2 previous)."""
    n = len(obs)
    packed = np.packbits(obs[:, :_CARD_SETS] > 0.5, axis=1, bitorder="little")
    sets = packed.view("<u4").astype(np.int64)  # hand skat discarded open played x3 trick x3
    r = np.empty((n, rules.ROW_SIZE), np.int64)
    r[:, rules.ROW_PHASE] = _onehot(obs, "phase")
    r[:, rules.ROW_POSITION] = _onehot(obs, "position")
    r[:, rules.ROW_HAND : rules.ROW_DISCARDED + 1] = sets[:, 0:3]
    r[:, rules.ROW_PLAYED] = sets[:, 4] | sets[:, 5] | sets[:, 6]
    r[:, rules.ROW_OPEN] = sets[:, 3]
    r[:, rules.ROW_BID] = _BIDS[_onehot(obs, "bid") + 1]
    r[:, rules.ROW_DECLARER] = _onehot(obs, "declarer")
    r[:, rules.ROW_VOIDS] = _bits(obs[:, LAYOUT["voids"]] > 0.5)
    r[:, rules.ROW_GAME] = _onehot(obs, "game")
    r[:, rules.ROW_HAND_GAME] = obs[:, LAYOUT["hand_game"].start] > 0.5
    r[:, rules.ROW_LEADER] = _onehot(obs, "trick_leader")
    t = sets[:, 7:10].astype(float)  # one card (one bit) or none per seat: id = exponent
    r[:, rules.ROW_TRICK : rules.ROW_TRICK + 3] = np.where(t != 0, np.frexp(t)[1] - 1, -1)
    r[:, rules.ROW_LEGAL] = _bits(masks[:, :32])
    bids = masks[:, _BID_MOVES]
    r[:, rules.ROW_LOW_BID] = np.where(bids.any(1), bids.argmax(1) + FIRST_BID, -1)
    r[:, rules.ROW_HOLD] = masks[:, HOLD]
    r[:, rules.ROW_CONTRACTS] = _bits(masks[:, _CONTRACTS])
    return r


def decide_batch(obs: np.ndarray, masks: np.ndarray, margin: float) -> np.ndarray:
    """The heuristic's move (``int64[B]``) with ``margin`` for each row of observations
    ``float32[B, 450]`` and action masks ``[B, 121]`` (rows of the player to act)."""
    obs = np.asarray(obs)
    masks = np.asarray(masks) != 0
    if obs.ndim != 2 or obs.shape[1] < OBS_SIZE or masks.shape != (len(obs), NUM_MOVES):
        raise ValueError(
            f"expected observations [B, {OBS_SIZE}] and masks [B, {NUM_MOVES}], "
            f"got {obs.shape} and {masks.shape}"
        )
    fields = rows(obs, masks)
    if NUMBA:
        out = np.empty(len(obs), np.int64)
        if len(obs):
            _compiled()(_TABLES, _PARAMS, float(margin), fields, out)
    else:  # the same loop as Python, over Python ints (fast, unlike NumPy scalars)
        moves = [0] * len(obs)
        rules.decide_rows(rules.TABLES, rules.PARAMS, margin, fields.tolist(), moves)
        out = np.array(moves, np.int64)
    bad = np.flatnonzero(out < 0)
    if len(bad):  # as the single-game agent, which refuses to act in these states
        raise ValueError(f"heuristic asked to act with no legal move or a finished game "
                         f"(rows {bad[:5].tolist()})")  # fmt: skip
    return out


__all__ = ["decide_batch", "rows"]
