"""Batched observation encoder: :func:`skat_env.encoding.observation.encode` for B games at once.

The layout is read from :mod:`skat_env.encoding.observation` (``LAYOUT``, ``NUM_BITS``), never
restated: the ten card sets (320 bits), then the small one-hot fields (116 bits), then 14
scalars. The card sets and one-hot fields are packed into 56 bytes per game and expanded
with one ``np.unpackbits``; the scalars come from tables built with the same Python
arithmetic as the single-game encoder, so every value is bit-identical. What a seat may see
comes from :mod:`skat_env.encoding.view`'s own rules (``sees_skat``, ``sees_open_hand``), and a
differential test checks the result against ``player_view`` step by step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..core.game import PLAY
from .observation import LAYOUT, MAX_BID, NUM_BITS, OBS_SIZE
from .view import sees_discards, sees_open_hand, sees_skat

_CARD_BITS = LAYOUT["seat"].start  # 320: ten card sets first
_CHUNK = 1024  # games per np.unpackbits call
_NUM_BYTES = 56  # 40 card-set bytes + 16 bytes for the 116 one-hot bits
assert LAYOUT["hand"].start == 0 and NUM_BITS - _CARD_BITS <= 128
assert [n for n in LAYOUT][:6] == ["hand", "skat", "discarded", "open_hand", "played", "trick"]


def _off(name: str) -> int:
    return LAYOUT[name].start - _CARD_BITS


_SCALARS = LAYOUT["bids"].start
assert _SCALARS == NUM_BITS and LAYOUT["trick_number"].stop == OBS_SIZE
# Scalars exactly as encode() computes them (Python float division, then float32).
_F_BID = np.array([v / MAX_BID for v in range(MAX_BID + 1)], np.float32)
_F_POINTS = np.array([v / 120 for v in range(121)], np.float32)
_F_TRICKS = np.array([v / 10 for v in range(11)], np.float32)


def _table(off: int, width: int, key_values: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) word tables: entry k sets bit ``off + key_values[k]`` (none if < 0)."""
    lo = np.zeros(len(key_values), np.uint64)
    hi = np.zeros(len(key_values), np.uint64)
    for k, v in enumerate(key_values):
        if v >= 0:
            assert v < width
            pos = off + v
            (lo if pos < 64 else hi)[k] = np.uint64(1 << (pos % 64))
    return lo.view(np.int64), hi.view(np.int64)


# Keys: me * 4 + (seat + 1) for a seat that may be -1; relative seat one-hot.
_REL_KEYS = [-1 if s < 0 else (s - m) % 3 for m in range(3) for s in (-1, 0, 1, 2)]
# seat, position and dealer: key (me * 3 + dealer); phase: key phase.
_LO_SEAT = np.array(
    [1 << (_off("seat") + m) | 1 << (_off("position") + (m - d - 1) % 3)
     | 1 << (_off("dealer") + (d - m) % 3) for m in range(3) for d in range(3)], np.int64,
)  # fmt: skip
_LO_PHASE = np.array([1 << (_off("phase") + p) for p in range(6)], np.int64)
_LO_TO_ACT, _ = _table(_off("to_act"), 3, _REL_KEYS)
_LO_BID, _HI_BID = _table(_off("bid"), 63, range(-1, 63))  # key bid_index + 1
_, _HI_DECL = _table(_off("declarer"), 3, _REL_KEYS)
_, _HI_LEADER = _table(_off("trick_leader"), 3, _REL_KEYS)
# passed: key me * 8 + passed seats -> relative seats' bits
_HI_PASSED = np.array(
    [sum(1 << (_off("passed") - 64 + (s - m) % 3) for s in range(3) if p >> s & 1)
     for m in range(3) for p in range(8)], np.int64,
)  # fmt: skip
# contract: key ((game * 2 + hand) * 2 + schneider) * 2 + schwarz) * 2 + ouvert; game 6 none
_HI_CONTRACT = np.array(
    [0 if g == 6 else 1 << (_off("game") - 64 + g) | (h | sn << 1 | sw << 2 | o << 3)
     << (_off("flags") - 64) for g in range(7) for h in range(2) for sn in range(2)
     for sw in range(2) for o in range(2)], np.int64,
)  # fmt: skip
_HAND_GAME_SHIFT = _off("hand_game") - 64
_VOIDS_SHIFT = _off("voids") - 64
assert _off("to_act") + 3 <= 64 and _off("passed") >= 64
_BIT33 = np.array([1 << c for c in range(32)] + [0], np.int64)


# _ROT[me] = (me, next, previous): absolute seats in relative order
_ROT = np.array([[m, (m + 1) % 3, (m + 2) % 3] for m in range(3)], np.int64)


def encode_batch(s: Any, seats: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Observations (B, 450) float32 of seat ``seats[b]`` in game ``b`` of state ``s``."""
    n = s.batch_size
    me = np.asarray(seats, np.int64)
    ar3 = np.arange(0, 3 * n, 3)
    rel = _ROT.take(me, axis=0)
    rel += ar3[:, None]  # (n, 3) flat indices of the seats me, next, previous
    f0 = rel[:, 0]
    phase, decl = s.phase, s.declarer
    is_decl = decl == me
    hands = s.hands.reshape(-1)
    raw = np.empty((n, _NUM_BYTES), np.uint8)  # the packed bits, written through views
    cards = raw[:, :40].view(np.uint32)  # (n, 10) card sets
    cards[:, 0] = hands.take(f0)
    cards[:, 1] = s.skat * sees_skat(phase, is_decl, s.hand_game, decl >= 0)
    cards[:, 2] = s.discarded * sees_discards(phase, is_decl, decl >= 0)
    open_hand = sees_open_hand(s.ouvert, phase, decl >= 0)
    cards[:, 3] = hands.take(ar3 + np.maximum(decl, 0)) * open_hand
    cards[:, 4:7] = s.played.reshape(-1).take(rel)
    cards[:, 7:10] = _BIT33.take(s.trick.reshape(-1).take(rel))

    key = me * 4
    lo = _LO_SEAT.take(me * 3 + s.dealer) | _LO_PHASE.take(phase)
    lo |= _LO_TO_ACT.take(key + s.to_act + 1)
    bi = s.bid_index + 1
    lo |= _LO_BID.take(bi)
    hi = _HI_BID.take(bi)
    hi |= _HI_PASSED.take(me * 8 + s.passed)
    hi |= _HI_DECL.take(key + decl + 1)
    ckey = (((s.game * 2 + s.hand_game) * 2 + s.ann_schneider) * 2 + s.ann_schwarz) * 2 + s.ouvert
    hi |= _HI_CONTRACT.take(ckey)
    hi |= s.hand_game << _HAND_GAME_SHIFT
    leader = np.where(phase == PLAY, s.trick_leader, -1)
    hi |= _HI_LEADER.take(key + leader + 1)
    v = s.voids.reshape(-1).take(rel) << _VOID_SHIFTS
    hi |= v[:, 0] | v[:, 1] | v[:, 2]

    raw[:, 40:48].view(np.int64)[:, 0] = lo
    raw[:, 48:].view(np.int64)[:, 0] = hi
    if out is None:
        out = np.empty((n, OBS_SIZE), np.float32)
    for a in range(0, n, _CHUNK):  # chunks keep the unpacked bytes in cache
        bits = np.unpackbits(raw[a : a + _CHUNK], axis=1, count=NUM_BITS, bitorder="little")
        out[a : a + _CHUNK, :NUM_BITS] = bits
    out[:, NUM_BITS:] = _scalars(s, ar3, me, rel)
    return out


def _scalars(s: Any, ar3: np.ndarray, me: np.ndarray, rel: np.ndarray) -> np.ndarray:
    """bids, points, tricks per relative seat; the sides' points and tricks; trick number."""
    n = len(me)
    out = np.empty((n, 14), np.float32)
    p, t = s.points_won.reshape(-1), s.tricks_won.reshape(-1)
    out[:, 0:3] = _F_BID.take(s.bids.reshape(-1).take(rel))
    out[:, 3:6] = _F_POINTS.take(p.take(rel))
    out[:, 6:9] = _F_TRICKS.take(t.take(rel))
    decl = s.declarer
    fd = ar3 + np.maximum(decl, 0)
    sides = np.empty((4, n), np.int64)  # declarer points, defenders, declarer tricks, defenders
    sides[0] = p.take(fd)
    sides[1] = s.points_won.sum(1) - sides[0]
    sides[2] = t.take(fd)
    sides[3] = s.n_tricks - sides[2]
    sides *= decl >= 0
    order = _SIDE_ORDER.take((decl == me).astype(np.int64), axis=0)  # own side first
    own = np.take_along_axis(sides.T, order, 1)
    out[:, 9:11] = _F_POINTS.take(own[:, :2])
    out[:, 11:13] = _F_TRICKS.take(own[:, 2:])
    out[:, 13] = _F_TRICKS.take(s.n_tricks)
    return out


_SIDE_ORDER = np.array([[1, 0, 3, 2], [0, 1, 2, 3]], np.int64)  # by "observer is declarer"
_VOID_SHIFTS = np.array([0, 5, 10], np.int64) + _VOIDS_SHIFT

__all__ = ["encode_batch"]
