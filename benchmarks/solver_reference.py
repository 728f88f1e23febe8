"""The double-dummy solver of commit e175a62, frozen: the reference for the differential tests
(``tests/test_search_solver.py``) and for ``bench_solver.py``'s old-vs-new comparison.

Its kernel is that commit's ``skat_env/search/_kernel.py`` verbatim; :class:`ReferenceSolver`
answers ``solve``, ``reaches`` and ``best_moves`` like that commit's ``Solver`` (positions are
checked by the current :class:`skat_env.search.Position`). It is not part of the package:
the package keeps one solver, this file only keeps the old one reachable to compare with.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from skat_env.core.cards import CARD_POINTS, NUM_CARDS, mask_of
from skat_env.core.tables import EFFECTIVE_SUIT, NULL, STRENGTH
from skat_env.search import Position

TRUMP = 4
MODE_POINTS, MODE_TRICKS_MAX, MODE_TRICKS_MIN = 0, 1, 2
HASH_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed 64-bit int
HASH_MUL2 = np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9
DEBRUIJN = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)  # fmt: skip
MAX_MOVES = 12  # workspace columns (a hand holds at most 10 cards)
MAX_DEPTH = 34  # workspace rows (at most 30 cards are played below the root)


@njit(cache=True, inline="always")
def _low_index(bit: int) -> int:
    """Index of a single set bit (de Bruijn multiply, 32-bit)."""
    return DEBRUIJN[((bit * 0x077CB531) & 0xFFFFFFFF) >> 27]


@njit(cache=True, inline="always")
def _popcount(m: int) -> int:
    """Set bits of a 32-bit card set (SWAR)."""
    m = m - ((m >> 1) & 0x55555555)
    m = (m & 0x33333333) + ((m >> 2) & 0x33333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F
    return ((m * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True, inline="always")
def _points(pts, m: int) -> int:
    """Card points of a card set: ``pts[32 + 256 * i + byte]`` holds the points of byte ``i``."""
    return (
        pts[32 + (m & 255)]
        + pts[288 + ((m >> 8) & 255)]
        + pts[544 + ((m >> 16) & 255)]
        + pts[800 + ((m >> 24) & 255)]
    )


@njit(cache=True, inline="always")
def _beats(eff, c: int, b: int) -> bool:
    return c > b and (eff[c] == eff[b] or eff[c] == TRUMP)


@njit(cache=True, inline="always")
def _may_beat(eff, smask, hand, card):
    """Whether ``hand`` holds a card that beats ``card``, led alone."""
    follow = hand & smask[eff[card]]
    if follow:
        return follow >= (2 << card)
    return eff[card] != TRUMP and hand & smask[TRUMP] != 0


@njit(cache=True)
def _gen_moves(
    eff,
    smask,
    pts,
    ws,
    depth,
    hand,
    live,
    ntr,
    c0,
    win_card,
    mine_winning,
    mode,
    hint,
    is_max,
    partner,
    last,
):
    """Write the moves to search at this node into ``ws[depth]``, best guess first.

    Of a run of cards the player holds that are adjacent among the live cards of their
    effective suit (and worth the same in points mode) only the strongest is kept.
    Returns the number of moves.
    """
    if ntr == 0:
        legal = hand
    else:
        legal = hand & smask[eff[c0]]
        if legal == 0:
            legal = hand
    n = 0
    m = legal
    while m:
        bit = m & -m
        m ^= bit
        c = _low_index(bit)
        above = live & smask[eff[c]] & ~((bit << 1) - 1)
        if above:
            nxt_bit = above & -above
            if nxt_bit & hand and (mode != MODE_POINTS or pts[_low_index(nxt_bit)] == pts[c]):
                continue  # equivalent to the next stronger card of the same run
        if ntr == 0:
            if above == 0 and eff[c] != TRUMP:
                score = 100 + pts[c]  # cash a master card
            elif eff[c] == TRUMP:
                score = 64 + c if is_max else c - 32  # the declarer draws trumps
            elif _top_bit(live & smask[eff[c]]) & partner:
                score = 90 - pts[c]  # lead low to the partner's master
            else:
                score = 32 - pts[c]
        elif mine_winning:
            score = 64 + pts[c] * 2 - (1 if _beats(eff, c, win_card) else 0)
        elif _beats(eff, c, win_card):
            if ntr == 2 and eff[c] == eff[c0]:
                score = 200 + pts[c]  # last to play, following: win with the most points
            elif ntr == 1 and not _may_beat(eff, smask, last, c):
                score = 250 - c  # the cheapest card that the last player cannot beat
            else:
                score = 200 - c  # cheapest winning card first
        elif partner and _may_beat(eff, smask, partner, c0):
            score = 48 + pts[c] * 2  # the partner, last to play, may still win: add points
        else:
            score = 32 - pts[c] * 2 - c // 8  # dump the cheapest card
        if c == hint:
            score = 1000  # the move that settled this node before
        j = n
        while j > 0 and ws[depth, 2 * (j - 1) + 1] < score:
            ws[depth, 2 * j] = ws[depth, 2 * (j - 1)]
            ws[depth, 2 * j + 1] = ws[depth, 2 * (j - 1) + 1]
            j -= 1
        ws[depth, 2 * j] = c
        ws[depth, 2 * j + 1] = score
        n += 1
    return n


# Fields of a search frame (one row of the frame stack per depth).
H0, H1, H2, LEAD, NTR, C0, C1, REM, ALPHA, BETA, KEY, KEYB, SLOT, NMOV, IMOV = range(15)
ISMAX, PLAYER, WCARD, WSEAT, GOT, BEST, ALPHA0, BETA0 = range(15, 23)
NUM_FIELDS = 23


@njit(cache=True, inline="always")
def _store(keys, lbs, ubs, mvs, fr, sp, r, move):
    """Record a finished trick-boundary node's fail-soft value ``r`` in the table: an upper
    bound at or below its window, a lower bound at or above it, else exact; and the move
    that settled it (-1 if none)."""
    ka = fr[sp, KEY]
    kb = fr[sp, KEYB]
    slot = fr[sp, SLOT]
    if keys[slot, 0] != ka or keys[slot, 1] != kb:
        keys[slot, 0] = ka
        keys[slot, 1] = kb
        lbs[slot] = 0
        ubs[slot] = fr[sp, REM]
        mvs[slot] = -1
    if move >= 0:
        mvs[slot] = move
    if r > fr[sp, ALPHA0] and lbs[slot] < r:
        lbs[slot] = r
    if r < fr[sp, BETA0] and ubs[slot] > r:
        ubs[slot] = r


@njit(cache=True, inline="always")
def _last_trick(eff, pts, decl, mode, h0, h1, h2, leader):
    """Declarer's units from the last trick (each hand holds one card)."""
    a = _low_index(h0)
    b = _low_index(h1)
    c = _low_index(h2)
    first = a if leader == 0 else (b if leader == 1 else c)
    second = b if leader == 0 else (c if leader == 1 else a)
    third = c if leader == 0 else (a if leader == 1 else b)
    win, seat = first, leader
    if _beats(eff, second, win):
        win, seat = second, (leader + 1) % 3
    if _beats(eff, third, win):
        seat = (leader + 2) % 3
    if seat != decl:
        return 0
    return pts[a] + pts[b] + pts[c] if mode == MODE_POINTS else 1


@njit(cache=True)
def _canon_key(blocks, h0, h1, h2):
    """Table key of the remaining cards: within each block of interchangeable cards (equal
    points, contiguous in strength: sevens to nines, jacks; whole suits when only tricks
    count) the live cards are moved to the block's top, keeping their order and owners.
    Positions with the same key have the same value."""
    live = h0 | h1 | h2
    for b in range(blocks.shape[0]):
        bm = blocks[b, 0]
        lv = live & bm
        if lv == 0:
            continue
        low = blocks[b, 1] - _popcount(lv) + 1  # first destination bit
        if lv == bm & ~((1 << low) - 1):
            continue  # already packed
        n0 = h0 & ~bm
        n1 = h1 & ~bm
        n2 = h2 & ~bm
        m = lv
        dest = 1 << low
        while m:
            bit = m & -m
            m ^= bit
            if h0 & bit:
                n0 |= dest
            elif h1 & bit:
                n1 |= dest
            else:
                n2 |= dest
            dest <<= 1
        h0, h1, h2 = n0, n1, n2
    return h0 | (h1 << 32), h2


@njit(cache=True, inline="always")
def _top_bit(m):
    while m & (m - 1):
        m &= m - 1
    return m


@njit(cache=True, inline="always")
def _count(pts, mode, m):
    """Units of the cards in ``m`` won one per trick: points, or tricks (one per card)."""
    return _points(pts, m) if mode == MODE_POINTS else _popcount(m)


@njit(cache=True)
def _sure_bounds(smask, pts, decl, mode, h0, h1, h2, rem):
    """Bounds on the declarer's units at a trick boundary (suit, grand) from the trumps that
    win whenever played: those above every trump of the other side."""
    trumps = smask[TRUMP]
    d = (h0 if decl == 0 else (h1 if decl == 1 else h2)) & trumps
    f1 = (h1 if decl == 0 else h0) & trumps
    f2 = (h1 if decl == 2 else h2) & trumps
    f = f1 | f2
    lo = 0
    if d:
        top = _top_bit(f)
        lo = _count(pts, mode, d & ~((top << 1) - 1)) if f else _count(pts, mode, d)
    top = _top_bit(d)
    above = ~((top << 1) - 1) if d else -1
    if mode == MODE_POINTS:
        hi = rem - _count(pts, mode, f & above)
    else:  # two defender trumps can fall on one trick
        hi = rem - max(_count(pts, mode, f1 & above), _count(pts, mode, f2 & above))
    return lo, hi


@njit(cache=True)
def _enter(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game, sp):
    """Open the node in frame ``sp``: -1 if its moves were generated (search on), else a
    fail-soft value settled without search (<= alpha: an upper bound, >= beta: a lower one,
    else exact)."""
    alpha = fr[sp, ALPHA]
    beta = fr[sp, BETA]
    rem = fr[sp, REM]
    if beta <= 0:
        return 0
    if alpha >= rem:
        return rem
    ctr[0] += 1
    h0, h1, h2 = fr[sp, H0], fr[sp, H1], fr[sp, H2]
    leader, ntr = fr[sp, LEAD], fr[sp, NTR]
    if ntr == 0 and h0 & (h0 - 1) == 0:  # last trick: one card each, nothing to choose
        return _last_trick(eff, pts, decl, mode, h0, h1, h2, leader)
    hint = -1
    if ntr == 0:
        ka, kb = _canon_key(blocks, h0, h1, h2)
        kb |= (leader << 32) | (mode << 34) | (decl << 36) | (game << 38)
        mix = ka * HASH_MUL + kb * HASH_MUL2  # the high bits depend on every key bit
        slot = ((mix ^ (mix >> 29)) >> 32) & (keys.shape[0] - 1)
        fr[sp, KEY] = ka
        fr[sp, KEYB] = kb
        fr[sp, SLOT] = slot
        lo = 0
        hi = rem
        if keys[slot, 0] == ka and keys[slot, 1] == kb:
            lo = lbs[slot]
            hi = ubs[slot]
            hint = mvs[slot]
        if mode != MODE_TRICKS_MIN:
            slo, shi = _sure_bounds(smask, pts, decl, mode, h0, h1, h2, rem)
            lo = max(lo, slo)
            hi = min(hi, shi)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha = max(alpha, lo - 1)  # narrow the window to the known bounds
        beta = min(beta, hi + 1)
        fr[sp, ALPHA] = alpha
        fr[sp, BETA] = beta
    player = leader + ntr
    if player >= 3:
        player -= 3
    hand = h0 if player == 0 else (h1 if player == 1 else h2)
    live = h0 | h1 | h2
    c0 = fr[sp, C0]
    win_card = -1
    win_seat = -1
    if ntr >= 1:
        live |= 1 << c0
        win_card = c0
        win_seat = leader
        if ntr == 2:
            c1 = fr[sp, C1]
            live |= 1 << c1
            if _beats(eff, c1, c0):
                win_card = c1
                win_seat = leader + 1 if leader < 2 else 0
    is_max = (player == decl) == (mode != MODE_TRICKS_MIN)
    mine_winning = ntr > 0 and ((win_seat == decl) == (player == decl))
    last = 0
    if ntr == 1:
        other = player + 1 if player < 2 else 0
        last = h0 if other == 0 else (h1 if other == 1 else h2)
    partner = 0
    if ntr == 0 and player != decl:  # the other defender
        other = 3 - player - decl
        partner = h0 if other == 0 else (h1 if other == 1 else h2)
    elif ntr == 1 and not mine_winning and player != decl:
        other = player + 1 if player < 2 else 0  # plays last: a partner unless the declarer
        if other != decl:
            partner = h0 if other == 0 else (h1 if other == 1 else h2)
    fr[sp, NMOV] = _gen_moves(
        eff,
        smask,
        pts,
        ws,
        sp,
        hand,
        live,
        ntr,
        c0,
        win_card,
        mine_winning,
        mode,
        hint,
        is_max,
        partner,
        last,
    )
    fr[sp, IMOV] = 0
    fr[sp, ISMAX] = 1 if is_max else 0
    fr[sp, BEST] = -1 if is_max else rem + 1
    fr[sp, ALPHA0] = alpha
    fr[sp, BETA0] = beta
    fr[sp, PLAYER] = player
    fr[sp, WCARD] = win_card
    fr[sp, WSEAT] = win_seat
    return -1


@njit(cache=True, inline="always")
def _push_child(eff, pts, fr, decl, mode, sp, c):
    """Frame ``sp + 1``: the node after the player of frame ``sp`` plays card ``c``."""
    player = fr[sp, PLAYER]
    bit = 1 << c
    ch = sp + 1
    fr[ch, H0] = fr[sp, H0] & ~bit if player == 0 else fr[sp, H0]
    fr[ch, H1] = fr[sp, H1] & ~bit if player == 1 else fr[sp, H1]
    fr[ch, H2] = fr[sp, H2] & ~bit if player == 2 else fr[sp, H2]
    ntr = fr[sp, NTR]
    if ntr < 2:
        fr[ch, LEAD] = fr[sp, LEAD]
        fr[ch, NTR] = ntr + 1
        fr[ch, C0] = c if ntr == 0 else fr[sp, C0]
        fr[ch, C1] = c if ntr == 1 else -1
        fr[ch, REM] = fr[sp, REM]
        fr[ch, ALPHA] = fr[sp, ALPHA]
        fr[ch, BETA] = fr[sp, BETA]
        fr[ch, GOT] = 0
        return
    win_card = fr[sp, WCARD]
    winner = player if _beats(eff, c, win_card) else fr[sp, WSEAT]
    units = pts[fr[sp, C0]] + pts[fr[sp, C1]] + pts[c] if mode == MODE_POINTS else 1
    fr[ch, LEAD] = winner
    fr[ch, NTR] = 0
    fr[ch, C0] = -1
    fr[ch, C1] = -1
    got = units if winner == decl else 0
    fr[ch, REM] = fr[sp, REM] - units
    fr[ch, ALPHA] = fr[sp, ALPHA] - got
    fr[ch, BETA] = fr[sp, BETA] - got
    fr[ch, GOT] = got


@njit(cache=True)
def _search(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game,
            h0, h1, h2, leader, ntr, c0, c1, rem, alpha, beta):  # fmt: skip
    """Fail-soft alpha-beta: the declarer's units from here if they lie strictly inside
    ``(alpha, beta)``, else an upper bound ``<= alpha`` or a lower bound ``>= beta``.

    ``rem`` is the number of units still open (the current trick's cards included).
    Depth-first on an explicit frame stack (numba cannot cache recursive functions).
    """
    fr[0, H0], fr[0, H1], fr[0, H2] = h0, h1, h2
    fr[0, LEAD], fr[0, NTR], fr[0, C0], fr[0, C1] = leader, ntr, c0, c1
    fr[0, REM], fr[0, ALPHA], fr[0, BETA], fr[0, GOT] = rem, alpha, beta, 0
    sp = 0
    while True:
        r = _enter(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game, sp)
        done = r >= 0
        while True:
            if done:
                if sp == 0:
                    return r
                r += fr[sp, GOT]  # the move's value seen from the parent
                sp -= 1
                cut = False
                if fr[sp, ISMAX] == 1:
                    if r > fr[sp, BEST]:
                        fr[sp, BEST] = r
                        if r > fr[sp, ALPHA]:
                            fr[sp, ALPHA] = r
                            cut = r >= fr[sp, BETA]
                elif r < fr[sp, BEST]:
                    fr[sp, BEST] = r
                    if r < fr[sp, BETA]:
                        fr[sp, BETA] = r
                        cut = r <= fr[sp, ALPHA]
                if cut:  # the parent is settled too
                    if fr[sp, NTR] == 0:
                        _store(keys, lbs, ubs, mvs, fr, sp, r, ws[sp, 2 * fr[sp, IMOV]])
                    continue
                fr[sp, IMOV] += 1
                done = False
            i = fr[sp, IMOV]
            if i >= fr[sp, NMOV]:  # every move searched
                r = fr[sp, BEST]
                if fr[sp, NTR] == 0:
                    _store(keys, lbs, ubs, mvs, fr, sp, r, -1)
                done = True
                continue
            _push_child(eff, pts, fr, decl, mode, sp, ws[sp, 2 * i])
            sp += 1
            break


@njit(cache=True)
def _value(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game,
           h0, h1, h2, leader, ntr, c0, c1, rem):  # fmt: skip
    """Exact minimax value (declarer's units from here): zero-window probes at the middle of
    the bounds known so far (fewer nodes here than one full-window search); each fail-soft
    answer moves one bound past the probe."""
    lo = 0
    hi = rem
    while lo < hi:
        need = (lo + hi + 1) // 2
        r = _search(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game,
                    h0, h1, h2, leader, ntr, c0, c1, rem, need - 1, need)  # fmt: skip
        if r >= need:
            lo = r
        else:
            hi = r
    return lo


@njit(cache=True)
def _child(eff, pts, decl, mode, h0, h1, h2, leader, ntr, c0, c1, card):
    """State after ``card`` is played: (h0, h1, h2, leader, ntr, c0, c1, units to declarer,
    units closed)."""
    player = (leader + ntr) % 3
    bit = 1 << card
    if player == 0:
        h0 &= ~bit
    elif player == 1:
        h1 &= ~bit
    else:
        h2 &= ~bit
    if ntr == 0:
        return h0, h1, h2, leader, 1, card, -1, 0, 0
    if ntr == 1:
        return h0, h1, h2, leader, 2, c0, card, 0, 0
    win, win_seat = c0, leader
    if _beats(eff, c1, c0):
        win, win_seat = c1, (leader + 1) % 3
    winner = player if _beats(eff, card, win) else win_seat
    units = pts[c0] + pts[c1] + pts[card] if mode == MODE_POINTS else 1
    return h0, h1, h2, winner, 0, -1, -1, (units if winner == decl else 0), units


@njit(cache=True)
def _root_moves(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game,
                h0, h1, h2, leader, ntr, c0, c1, rem, need, out):  # fmt: skip
    """Value of every legal card at the root into ``out[card]`` (layout ids; -1 = illegal).

    ``need < 0``: exact units; else 1/0 whether the max side reaches ``need`` after the card.
    """
    player = (leader + ntr) % 3
    hand = h0 if player == 0 else (h1 if player == 1 else h2)
    legal = hand
    if ntr > 0:
        legal = hand & smask[eff[c0]]
        if legal == 0:
            legal = hand
    out[:] = -1
    m = legal
    while m:
        bit = m & -m
        m ^= bit
        card = _low_index(bit)
        a0, a1, a2, ld, nt, d0, d1, got, closed = _child(
            eff, pts, decl, mode, h0, h1, h2, leader, ntr, c0, c1, card
        )
        if need < 0:
            v = _value(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode, game,
                       a0, a1, a2, ld, nt, d0, d1, rem - closed)  # fmt: skip
            out[card] = got + v
        else:
            r = _search(eff, smask, pts, keys, lbs, ubs, mvs, blocks, ws, fr, ctr, decl, mode,
                        game, a0, a1, a2, ld, nt, d0, d1, rem - closed, need - got - 1,
                        need - got)  # fmt: skip
            out[card] = 1 if r >= need - got else 0


# ----------------------------------------------------------------------------------------
# The wrapper of that commit's solver.py (layouts, solve, reaches, best_moves)
# ----------------------------------------------------------------------------------------

NUM_GAMES = 6


def _layouts() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    to_layout = np.zeros((NUM_GAMES, NUM_CARDS), dtype=np.int64)
    to_card = np.zeros((NUM_GAMES, NUM_CARDS), dtype=np.int64)
    eff = np.zeros((NUM_GAMES, NUM_CARDS), dtype=np.int64)
    smask = np.zeros((NUM_GAMES, 5), dtype=np.int64)
    pts = np.zeros((NUM_GAMES, NUM_CARDS + 4 * 256), dtype=np.int64)
    for g in range(NUM_GAMES):
        es, st = EFFECTIVE_SUIT[g], STRENGTH[g]
        order = sorted(range(NUM_CARDS), key=lambda c, es=es, st=st: (es[c] == TRUMP, es[c], st[c]))
        for k, card in enumerate(order):
            to_layout[g, card] = k
            to_card[g, k] = card
            eff[g, k] = es[card]
            pts[g, k] = CARD_POINTS[card]
            smask[g, es[card]] |= 1 << k
        for i in range(4):
            for byte in range(256):
                cards = [8 * i + b for b in range(8) if byte >> b & 1]
                pts[g, NUM_CARDS + 256 * i + byte] = sum(pts[g, k] for k in cards)
    return to_layout, to_card, eff, smask, pts


TO_LAYOUT, TO_CARD, EFF, SMASK, PTS = _layouts()


def _blocks(game: int, points: bool) -> np.ndarray:
    rows = []
    start = 0
    for k in range(1, NUM_CARDS + 1):
        same = (
            k < NUM_CARDS
            and EFF[game, k] == EFF[game, start]
            and (not points or PTS[game, k] == PTS[game, start])
        )
        if not same:
            if k - start >= 2:
                rows.append((((1 << k) - 1) & ~((1 << start) - 1), k - 1))
            start = k
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


BLOCKS = tuple((_blocks(g, True), _blocks(g, False)) for g in range(NUM_GAMES))


class ReferenceSolver:
    """That commit's ``Solver``: ``solve`` (null: 1/0 stays trickless), ``reaches`` (suit,
    grand), ``best_moves`` (exact or with a target; null: 1/0 per card), ``nodes``,
    ``clear``."""

    def __init__(self, tt_bits: int = 20):
        size = 1 << tt_bits
        self._keys = np.full((size, 2), -1, dtype=np.int64)
        self._lbs = np.zeros(size, dtype=np.int16)
        self._ubs = np.zeros(size, dtype=np.int16)
        self._mvs = np.zeros(size, dtype=np.int8)
        self._ws = np.zeros((MAX_DEPTH, 2 * MAX_MOVES), dtype=np.int64)
        self._fr = np.zeros((MAX_DEPTH, NUM_FIELDS), dtype=np.int64)
        self._ctr = np.zeros(4, dtype=np.int64)
        self._out = np.zeros(NUM_CARDS, dtype=np.int64)

    @property
    def nodes(self) -> int:
        return int(self._ctr[0])

    def reset_nodes(self) -> None:
        self._ctr[0] = 0

    def clear(self) -> None:
        self._keys.fill(-1)

    def _args(self, pos: Position, mode: int) -> tuple:
        g = pos.validate().game
        perm = TO_LAYOUT[g]
        h = [0, 0, 0]
        for seat in range(3):
            for c in range(NUM_CARDS):
                if pos.hands[seat] >> c & 1:
                    h[seat] |= 1 << int(perm[c])
        t = [int(perm[c]) for c in pos.trick] + [-1, -1]
        live = pos.hands[0] | pos.hands[1] | pos.hands[2] | mask_of(pos.trick)
        if mode == MODE_POINTS:
            rem = sum(CARD_POINTS[c] for c in range(NUM_CARDS) if live >> c & 1)
        else:
            rem = pos.tricks_left
        blocks = BLOCKS[g][0 if mode == MODE_POINTS else 1]
        head = (EFF[g], SMASK[g], PTS[g], self._keys, self._lbs, self._ubs, self._mvs,
                blocks, self._ws, self._fr, self._ctr, pos.declarer, mode, g)  # fmt: skip
        return head + (h[0], h[1], h[2], pos.leader, len(pos.trick), t[0], t[1], rem)

    def solve(self, pos: Position) -> int:
        if pos.game == NULL:  # 1: the declarer can stay trickless
            safe = _search(*self._args(pos, MODE_TRICKS_MIN), 0, 1) < 1
            return int(safe and pos.declarer_tricks == 0)
        return pos.declarer_points + int(_value(*self._args(pos, MODE_POINTS)))

    def reaches(self, pos: Position, target: int) -> bool:
        if pos.game == NULL:
            raise ValueError("the reference's reaches is for suit and grand games")
        need = target - pos.declarer_points
        return _search(*self._args(pos, MODE_POINTS), need - 1, need) >= need

    def best_moves(
        self, pos: Position, target: int | None = None, guess=None, max_nodes=None
    ) -> dict[int, int]:
        """``guess`` is ignored (that solver always bisected); it had no ``max_nodes``."""
        if max_nodes is not None:
            raise ValueError("the reference solver has no node limit")
        null = pos.game == NULL
        if null:
            need = 1
        else:
            need = -1 if target is None else max(0, target - pos.declarer_points)
        _root_moves(*self._args(pos, MODE_TRICKS_MIN if null else MODE_POINTS), need, self._out)
        res = {}
        for k in np.flatnonzero(self._out >= 0):
            v = int(self._out[k])
            if null:
                v = 1 - v if pos.declarer_tricks == 0 else 0
            elif target is None:
                v += pos.declarer_points
            res[int(TO_CARD[pos.game][k])] = v
        return res
