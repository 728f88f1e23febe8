"""The core's rule tables and kernels as flat NumPy look-up tables, built once at import.

Nothing here is a new rule: every table is filled by calling the core (``tricks.beats``,
``scoring.matadors``, ``scoring.null_value``, ``tables.FOLLOW_MASK`` ...) on every input,
so the batched engine looks rules up instead of restating them. Tables are flat int64
arrays indexed with ``np.take`` (much faster than fancy indexing or ``%`` on arrays).
"""

from __future__ import annotations

import numpy as np

from ..core.cards import CARD_POINTS, NUM_CARDS
from ..core.moves import (
    DECLARATIONS,
    FIRST_BID,
    HAND,
    HOLD,
    PASS,
    PICKUP,
    legal_declarations,
)
from ..core.scoring import matadors
from ..core.tables import (
    BASE_VALUES,
    BID_VALUES,
    EFFECTIVE_SUIT,
    FOLLOW_MASK,
    NULL_VALUES,
)
from ..core.tables import (
    BYTE_POINTS as BYTE_POINTS_BY_SUIT,
)
from ..core.tricks import beats

I64 = np.int64
NO_CARD = NUM_CARDS  # 32: "no card" (empty trick slot, nothing led)
NO_GAME = 6  # game kind before the declaration
NUM_BIDS = len(BID_VALUES)

# Seats: ADD3[x * 3 + y] = (x + y) % 3.
ADD3 = np.array([(x + y) % 3 for x in range(3) for y in range(3)], I64)
NEXT = np.array([1, 2, 0], I64)
PREV = np.array([2, 0, 1], I64)

BIT = np.array([1 << c for c in range(NUM_CARDS)] + [0], I64)  # BIT[NO_CARD] = 0
CARD_POINTS_A = np.array([*CARD_POINTS, 0], I64)
# FOLLOW33[game * 33 + led]: cards that follow `led` (0 when nothing led or no game yet).
FOLLOW33: np.ndarray = np.zeros((NO_GAME + 1, NUM_CARDS + 1), I64)
FOLLOW33[:NO_GAME, :NUM_CARDS] = FOLLOW_MASK
FOLLOW33 = FOLLOW33.ravel()
# VOIDBIT33[game * 33 + led]: bit of the led card's effective suit (shown void when not followed)
VOIDBIT33: np.ndarray = np.zeros((NO_GAME + 1, NUM_CARDS + 1), I64)
VOIDBIT33[:NO_GAME, :NUM_CARDS] = 1 << np.array(EFFECTIVE_SUIT, I64)
VOIDBIT33 = VOIDBIT33.ravel()
# BEATS[(game * 32 + challenger) * 32 + best]: the core's trick kernel, tabulated.
BEATS = np.array(
    [beats(g, c, b) for g in range(6) for c in range(NUM_CARDS) for b in range(NUM_CARDS)], I64
)
BID_VALUES_A = np.array([0, *BID_VALUES], I64)  # indexed by bid_index + 1 (0: no bid)
BASE_A = np.array([*BASE_VALUES, 1, 1], I64)  # by game kind (null, none: unused)
NULL_VALUE_A = np.array([NULL_VALUES[(h, o)] for h in (False, True) for o in (False, True)], I64)

# Declarations by index (move - FIRST_DECLARATION).
DECL_GAME = np.array([c.game for c in DECLARATIONS], I64)
DECL_SCHNEIDER = np.array([c.schneider for c in DECLARATIONS], I64)
DECL_SCHWARZ = np.array([c.schwarz for c in DECLARATIONS], I64)
DECL_OUVERT = np.array([c.ouvert for c in DECLARATIONS], I64)

# The legal set is four 32-bit words over move ids (word w holds moves 32w .. 32w+31).
W3 = 96
PASS_W3 = 1 << (PASS - W3)
SKAT_W3 = (1 << (PICKUP - W3)) | (1 << (HAND - W3))
HOLD_BIT = np.int64(-(1 << 63))  # bit 63 of the word over moves 32..95 (HOLD = 95)
assert HOLD - FIRST_BID == 63
ALL_BIDS = (1 << NUM_BIDS) - 1


def _declarations_w3(hand_game: bool, bid: int) -> int:
    """Legal declarations (word 3 of the legal set), from the core's rule."""
    return legal_declarations(hand_game, bid) >> W3


# DECLARE_W3[hand_game * 64 + bid_index + 1]
DECLARE_W3 = np.array(
    [_declarations_w3(bool(h), ([0, *BID_VALUES])[i]) for h in (0, 1) for i in range(NUM_BIDS + 1)],
    I64,
)
# PHASE_W3[phase]: pass in the auction, pickup/hand in the skat phase (declarations apart)
PHASE_W3 = np.array([PASS_W3, SKAT_W3, 0, 0, 0, 0, 0], I64)


# --- the auction as a finite-state machine, tabulated by running bidding.Auction ---
def _auction_machine() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Enumerate the auction's control states (who bids, who holds, role, stage, whether a
    bid stands) reachable from the start, and apply bid / hold / pass to each with the
    core's ``Auction``. Bid values are separate (``bid_index``): a bid only sets the flag."""
    from copy import copy

    from ..core.bidding import BIDDER, HOLDER, OPENER, Auction

    roles = {BIDDER: 0, HOLDER: 1, OPENER: 2}

    def key(a: Auction) -> tuple:
        return (a.bidder, a.holder, a.role, a.stage, a.bid_index >= 0)

    states: list[Auction] = [Auction()]
    index = {key(states[0]): 0}
    moves: dict[tuple[int, int], tuple[int, int]] = {}  # (state, kind) -> (next, winner)
    i = 0
    while i < len(states):
        a = states[i]
        options = []
        if a.legal_bid_indices():
            options.append((0, lambda b: b.do_bid(b.legal_bid_indices().start)))
        if a.can_hold():
            options.append((1, lambda b: b.do_hold()))
        if a.can_pass():
            options.append((2, lambda b: b.do_pass()))
        for kind, apply in options:
            b = copy(a)
            apply(b)
            if b.over:
                moves[(i, kind)] = (0, b.winner)
                continue
            k = key(b)
            if k not in index:
                index[k] = len(states)
                states.append(b)
            moves[(i, kind)] = (index[k], -2)
        i += 1
    n = len(states)
    next_state = np.zeros(3 * n, I64)
    winner = np.full(3 * n, -2, I64)  # -2 still running, -1 thrown in, else the position
    for (s, kind), (nxt, win) in moves.items():
        next_state[3 * s + kind], winner[3 * s + kind] = nxt, win
    role = np.array([roles[a.role] for a in states], I64)
    to_act = np.array([a.to_act for a in states], I64)
    return next_state, winner, role, to_act


# AUCTION_NEXT / AUCTION_WINNER[state * 3 + kind] (kind 0 bid, 1 hold, 2 pass);
# AUCTION_ROLE / AUCTION_TO_ACT[state]: 0 bidder 1 holder 2 opener / position to act.
AUCTION_NEXT, AUCTION_WINNER, AUCTION_ROLE, AUCTION_TO_ACT = _auction_machine()

# Matadors from the jacks held (4 bits) and the trump suit's byte of cards:
# MATADORS[(game * 16 + jacks) * 256 + suit byte] = scoring.matadors (grand ignores the byte).
_JACK_BITS = [3, 11, 19, 27]
MATADORS = np.array(
    [
        matadors(
            g,
            sum(1 << _JACK_BITS[i] for i in range(4) if j >> i & 1)
            | (byte & ~(1 << 3)) << (8 * (g if g < 4 else 0)),
        )
        for g in range(5)
        for j in range(16)
        for byte in range(256)
    ],
    I64,
)
# BYTE_POINTS[k * 256 + byte]: card points of the cards 8k .. 8k+7 in that byte (the core's)
BYTE_POINTS = np.array(BYTE_POINTS_BY_SUIT, I64).ravel()
