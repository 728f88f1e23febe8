"""Compiled alpha-beta kernels of the double-dummy solver (numba).

Cards live here in a per-game *layout*: card ``k`` of the layout is the ``k``-th weakest card
when the cards are sorted by (trump, effective suit, strength). Every effective suit is then a
contiguous run of bits with the stronger card on the higher bit and trumps on top, so "``c``
beats ``b``" is ``c > b and (suit c == suit b or c is a trump)`` and the equivalent-card test
is a bit scan. The layout tables are built from :mod:`skat_env.core.tables` in ``solver.py``.

A search answers one zero-window question: can the *max side* make the declarer's units
(card points, or tricks) from the remaining cards reach ``need``? The max side is the declarer
(suit, grand) or the defenders (null, where the units are the declarer's tricks and need 1).
Bounds on the value of trick-boundary positions (and, early in the game, of positions after a
trick's lead) are kept in a transposition table keyed on the remaining cards with their
owners, the leader (and the card led), the mode, the declarer and the game kind.
"""

from __future__ import annotations

import numpy as np
from numba import carray, njit
from numba.core import cgutils, types
from numba.extending import intrinsic

TRUMP = 4
MODE_POINTS, MODE_TRICKS_MAX, MODE_TRICKS_MIN = 0, 1, 2
HASH_MUL = np.int64(-7046029254386353131)  # 0x9E3779B97F4A7C15 as a signed 64-bit int
HASH_MUL2 = np.int64(-4658895280553007687)  # 0xBF58476D1CE4E5B9
MAX_MOVES = 12  # workspace columns (a hand holds at most 10 cards)
TT_IN_TRICK = 18  # after a trick's lead the table is used while this many cards are held
RUFF_PENALTY = 50  # a lead that an opponent would trump goes after the others of its kind
DRAW = 256  # a bit of ``last`` at a lead: an opponent of the leader holds trumps
MAX_DEPTH = 34  # workspace rows (at most 30 cards are played below the root)


@intrinsic
def _ctpop(typingctx, x):
    """Set bits of an integer (LLVM ``ctpop``: one instruction where the CPU has it)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@intrinsic
def _cttz(typingctx, x):
    """Trailing zero bits of a non-zero integer (LLVM ``cttz``)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], cgutils.true_bit)

    return x(x), codegen


@intrinsic
def _ctlz(typingctx, x):
    """Leading zero bits of a non-zero integer (LLVM ``ctlz``)."""

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], cgutils.true_bit)

    return x(x), codegen


@njit(cache=True, inline="always")
def _low_index(bit: int) -> int:
    """Index of a single set bit (count trailing zeros)."""
    return _cttz(bit)


@njit(cache=True, inline="always")
def _popcount(m: int) -> int:
    """Set bits of a card set."""
    return _ctpop(m)


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


@njit(cache=True, inline="always")
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
    ``last``: at a lead, bit ``s`` set if an opponent would trump side suit ``s`` (void in
    it, holding trumps), and ``DRAW`` if an opponent holds trumps; second to play, the last
    player's hand. Returns the number of moves.
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
                # the declarer draws trumps while a defender holds some
                score = 64 + c if is_max and last & DRAW else c - 32
                if score > 64 and _top_bit(live & smask[TRUMP] & ~hand) > bit:
                    score = 96 - c  # not a sure trump: the lowest first
            elif _top_bit(live & smask[eff[c]]) & partner:
                score = 90 - pts[c]  # lead low to the partner's master
            else:
                score = 32 - pts[c]
            if last >> eff[c] & 1:
                score -= RUFF_PENALTY  # an opponent would trump it
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
ISMAX, PLAYER, WCARD, WSEAT, GOT, BEST, ALPHA0, BETA0, CARDS = range(15, 24)
NUM_FIELDS = 24


@njit(cache=True, inline="always")
def _store(tt, fr, sp, r, move):
    """Record a finished trick-boundary node's fail-soft value ``r`` in the table: an upper
    bound at or below its window, a lower bound at or above it, else exact; and the move
    that settled it (-1 if none). An entry packs ``lb | ub << 8 | (move + 1) << 16 |
    cards << 24`` (cards left: the replacement prefers to keep bigger subtrees)."""
    ka = fr[sp, KEY]
    kb = fr[sp, KEYB]
    slot = fr[sp, SLOT]
    if tt[slot, 0] != ka or tt[slot, 1] != kb:
        tt[slot, 0] = ka
        tt[slot, 1] = kb
        tt[slot, 2] = (fr[sp, REM] << 8) | (fr[sp, CARDS] << 24)
    d = tt[slot, 2]
    lb = d & 255
    ub = (d >> 8) & 255
    mv = (d >> 16) & 255
    if move >= 0:
        mv = move + 1
    if r > fr[sp, ALPHA0] and lb < r:
        lb = r
    if r < fr[sp, BETA0] and ub > r:
        ub = r
    tt[slot, 2] = lb | (ub << 8) | (mv << 16) | (d & ~0xFFFFFF)


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
def _two_tricks(eff, smask, pts, decl, mode, h0, h1, h2, leader):
    """Declarer's units from the last two tricks (each hand holds two cards), by plain
    minimax: cheaper than opening the few nodes one by one."""
    dmax = mode != MODE_TRICKS_MIN
    p1 = leader + 1 if leader < 2 else 0
    p2 = p1 + 1 if p1 < 2 else 0
    ha = h0 if leader == 0 else (h1 if leader == 1 else h2)
    hb = h0 if p1 == 0 else (h1 if p1 == 1 else h2)
    hc = h0 if p2 == 0 else (h1 if p2 == 1 else h2)
    max_a = (leader == decl) == dmax
    max_b = (p1 == decl) == dmax
    max_c = (p2 == decl) == dmax
    best_a = -1 if max_a else 1000
    ma = ha
    while ma:
        abit = ma & -ma
        ma ^= abit
        a = _low_index(abit)
        follow = smask[eff[a]]
        lb = hb & follow
        if lb == 0:
            lb = hb
        lc = hc & follow
        if lc == 0:
            lc = hc
        best_b = -1 if max_b else 1000
        mb = lb
        while mb:
            bbit = mb & -mb
            mb ^= bbit
            b = _low_index(bbit)
            win, seat = a, leader
            if _beats(eff, b, a):
                win, seat = b, p1
            best_c = -1 if max_c else 1000
            mc = lc
            while mc:
                cbit = mc & -mc
                mc ^= cbit
                c = _low_index(cbit)
                w = p2 if _beats(eff, c, win) else seat
                v = 0
                if w == decl:
                    v = pts[a] + pts[b] + pts[c] if mode == MODE_POINTS else 1
                left = (h0 | h1 | h2) ^ abit ^ bbit ^ cbit
                v += _last_trick(eff, pts, decl, mode, h0 & left, h1 & left, h2 & left, w)
                best_c = max(best_c, v) if max_c else min(best_c, v)
            best_b = max(best_b, best_c) if max_b else min(best_b, best_c)
        best_a = max(best_a, best_b) if max_a else min(best_a, best_b)
    return best_a


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
    """The highest set bit of a card set (0 for none)."""
    return 0 if m == 0 else 1 << (63 - _ctlz(m))


@njit(cache=True, inline="always")
def _count(pts, mode, m):
    """Units of the cards in ``m`` won one per trick: points, or tricks (one per card)."""
    return _points(pts, m) if mode == MODE_POINTS else _popcount(m)


@njit(cache=True, inline="always")
def _cheapest(pts, m, k):
    """Card points of the ``k`` cheapest cards of ``m``."""
    total = 0
    for _ in range(k):
        best = 99
        pick = 0
        x = m
        while x:
            bit = x & -x
            x ^= bit
            p = pts[_low_index(bit)]
            if p < best:
                best = p
                pick = bit
        total += best
        m ^= pick
    return total


@njit(cache=True, inline="always")
def _lowest(pts, m, k):
    """Card points of the ``k`` weakest cards of ``m`` (of one side suit: the cheapest)."""
    total = 0
    while k > 0 and m:
        bit = m & -m
        m ^= bit
        total += pts[_low_index(bit)]
        k -= 1
    return total


@njit(cache=True)
def _run_out(smask, pts, hand, sure, opp_a, opp_b, mate, live):
    """Card points the player on lead (``hand``) and its side win for sure beyond its own
    ``sure`` trumps (those above every trump of ``opp_a`` and ``opp_b``, the opponents;
    ``mate``: its partner's hand, or 0): it draws them, each opponent following with its
    cheapest trumps (not the partner's: its sure trumps count already), then leads its run
    of the highest cards still out in each side suit while every opponent that still holds
    a trump must follow suit (the weakest cards of the suit that the others must play count
    too)."""
    trumps = smask[TRUMP]
    j = _popcount(sure)
    ta = opp_a & trumps
    tb = opp_b & trumps
    na = _popcount(ta)
    nb = _popcount(tb)
    total = _cheapest(pts, ta, min(j, na)) + _cheapest(pts, tb, min(j, nb))
    for s in range(TRUMP):
        lv = live & smask[s]
        mine = hand & lv
        if mine == 0 or _top_bit(lv) & mine == 0:
            continue
        sa = opp_a & smask[s]
        sb = opp_b & smask[s]
        k = 10
        if na > j:
            k = _popcount(sa)
        if nb > j:
            k = min(k, _popcount(sb))
        n = 0
        while n < k:
            top = _top_bit(lv)
            if top & mine == 0:
                break
            total += pts[_low_index(top)]
            lv ^= top
            n += 1
        total += _lowest(pts, sa, n) + _lowest(pts, sb, n) + _lowest(pts, mate & smask[s], n)
    return total


@njit(cache=True)
def _sure_bounds(smask, pts, decl, mode, h0, h1, h2, rem, leader):
    """Bounds on the declarer's units at a trick boundary (suit, grand) from the trumps that
    win whenever played (those above every trump of the other side) and, in points mode,
    from what the player on lead wins for sure by running them out (:func:`_run_out`)."""
    trumps = smask[TRUMP]
    dh = h0 if decl == 0 else (h1 if decl == 1 else h2)
    g1 = h1 if decl == 0 else h0
    g2 = h1 if decl == 2 else h2
    d = dh & trumps
    f1 = g1 & trumps
    f2 = g2 & trumps
    f = f1 | f2
    lo = 0
    top_f = _top_bit(f)
    d_sure = d & ~((top_f << 1) - 1) if f else d
    if d:
        lo = _count(pts, mode, d_sure)
    top = _top_bit(d)
    above = ~((top << 1) - 1) if d else -1
    if mode == MODE_POINTS:
        hi = rem - _count(pts, mode, f & above)
        live = h0 | h1 | h2
        if leader == decl:
            lo += _run_out(smask, pts, dh, d_sure, g1, g2, 0, live)
            k = max(_popcount(f1 & above), _popcount(f2 & above))
            hi -= _cheapest(pts, dh, k)  # the declarer's cards on those trumps' tricks
        else:  # the partner's cards cannot take a trick from the leader's side
            j = _popcount(d_sure)
            lo += _cheapest(pts, g1, j) + _cheapest(pts, g2, j)
            lh = h0 if leader == 0 else (h1 if leader == 1 else h2)
            mate = g1 if lh == g2 else g2
            hi -= _run_out(smask, pts, lh, lh & trumps & above, dh, 0, mate, live)
    else:  # two defender trumps can fall on one trick
        hi = rem - max(_count(pts, mode, f1 & above), _count(pts, mode, f2 & above))
    return lo, hi


@njit(cache=True, inline="always")
def _enter(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game, sp):
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
    if ntr == 0 and _popcount(h0) == 2:
        return _two_tricks(eff, smask, pts, decl, mode, h0, h1, h2, leader)
    live = h0 | h1 | h2
    hint = -1
    fr[sp, SLOT] = -1
    if ntr == 0 or (ntr == 1 and _popcount(live) >= TT_IN_TRICK):
        if ntr == 0:
            ka, kb = _canon_key(blocks, h0, h1, h2)
        else:  # after the lead: the raw hands and the card led
            ka = h0 | (h1 << 32)
            kb = h2 | ((fr[sp, C0] + 1) << 42)
        kb |= (leader << 32) | (mode << 34) | (decl << 36) | (game << 38)
        mix = ka * HASH_MUL + kb * HASH_MUL2  # the high bits depend on every key bit
        slot = ((mix ^ (mix >> 29)) >> 32) & (tt.shape[0] - 2)  # a bucket of two entries
        cards = _popcount(live)
        fr[sp, KEY] = ka
        fr[sp, KEYB] = kb
        fr[sp, CARDS] = cards
        lo = 0
        hi = rem
        if tt[slot, 0] == ka and tt[slot, 1] == kb:
            found = True
        elif tt[slot + 1, 0] == ka and tt[slot + 1, 1] == kb:
            slot += 1
            found = True
        else:
            found = False
            if (tt[slot + 1, 2] >> 24) < (tt[slot, 2] >> 24):
                slot += 1  # replace the entry with the smaller subtree
        fr[sp, SLOT] = slot
        if found:
            d = tt[slot, 2]
            lo = d & 255
            hi = (d >> 8) & 255
            hint = ((d >> 16) & 255) - 1
        if found and (lo >= beta or lo == hi):
            return lo  # the table settles it: no bounds needed
        if found and hi <= alpha:
            return hi
        if mode != MODE_TRICKS_MIN and ntr == 0:
            slo, shi = _sure_bounds(smask, pts, decl, mode, h0, h1, h2, rem, leader)
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
    if ntr == 0:  # last: the side suits an opponent of the leader would trump
        oa = h0 if decl == 0 else (h1 if decl == 1 else h2)  # a defender's: the declarer
        ob = 0
        if player == decl:  # the declarer's: the defenders
            oa = h1 if decl == 0 else h0
            ob = h1 if decl == 2 else h2
        if (oa | ob) & smask[TRUMP]:
            last |= DRAW
        for s in range(TRUMP):
            if (oa & smask[s] == 0 and oa & smask[TRUMP] != 0) or (
                ob & smask[s] == 0 and ob & smask[TRUMP] != 0
            ):
                last |= 1 << s
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


@intrinsic
def _address_as_pointer(typingctx, address):
    """An integer address as a ``void *`` (for :func:`_borrow`)."""

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], cgutils.voidptr_t)

    return types.voidptr(address), codegen


@njit(cache=True, inline="always")
def _borrow(a):
    """A view of ``a`` without a reference count: numba increments and decrements an
    array's count (atomic operations) whenever it binds it to a variable, as every inlined
    helper does; on a view without one that is a test. The caller keeps ``a`` alive; ``a``
    must be C-contiguous int64 (all of the solver's arrays are)."""
    return carray(_address_as_pointer(a.ctypes.data), a.shape, np.int64)


@njit(cache=True)
def _search(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game,
            h0, h1, h2, leader, ntr, c0, c1, rem, alpha, beta):  # fmt: skip
    """:func:`_search_views` on views of the arrays without reference counts."""
    return _search_views(_borrow(eff), _borrow(smask), _borrow(pts), _borrow(tt),
                         _borrow(blocks), _borrow(ws), _borrow(fr), _borrow(ctr), decl, mode,
                         game, h0, h1, h2, leader, ntr, c0, c1, rem, alpha, beta)  # fmt: skip


@njit(cache=True)
def _search_views(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game,
                  h0, h1, h2, leader, ntr, c0, c1, rem, alpha, beta):  # fmt: skip
    """Fail-soft alpha-beta: the declarer's units from here if they lie strictly inside
    ``(alpha, beta)``, else an upper bound ``<= alpha`` or a lower bound ``>= beta``.

    ``rem`` is the number of units still open (the current trick's cards included).
    Depth-first on an explicit frame stack (numba cannot cache recursive functions).
    Returns -1 (no answer) once the node count ``ctr[0]`` passes ``ctr[1]`` (if > 0); what
    the table learnt until then stays valid.
    """
    fr[0, H0], fr[0, H1], fr[0, H2] = h0, h1, h2
    fr[0, LEAD], fr[0, NTR], fr[0, C0], fr[0, C1] = leader, ntr, c0, c1
    fr[0, REM], fr[0, ALPHA], fr[0, BETA], fr[0, GOT] = rem, alpha, beta, 0
    sp = 0
    while True:
        r = _enter(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game, sp)
        if ctr[1] > 0 and ctr[0] > ctr[1]:
            return -1
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
                    if fr[sp, SLOT] >= 0:
                        _store(tt, fr, sp, r, ws[sp, 2 * fr[sp, IMOV]])
                    continue
                fr[sp, IMOV] += 1
                done = False
            i = fr[sp, IMOV]
            if i >= fr[sp, NMOV]:  # every move searched
                r = fr[sp, BEST]
                if fr[sp, SLOT] >= 0:
                    _store(tt, fr, sp, r, -1)
                done = True
                continue
            _push_child(eff, pts, fr, decl, mode, sp, ws[sp, 2 * i])
            sp += 1
            break


@njit(cache=True)
def _value(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game,
           h0, h1, h2, leader, ntr, c0, c1, rem, guess):  # fmt: skip
    """Exact minimax value (declarer's units from here) by zero-window probes; each fail-soft
    answer moves one bound past the probe (-1: the node limit of :func:`_search` struck).
    Without a guess (``guess < 0``) each probe bisects
    the bounds known so far (fewer nodes than one full-window search). With one, the first
    probe asks for ``guess`` and the next ones gallop away from it (1, 2, 4, ... units past
    the last bound, MTD(f) while the steps stay at 1): a good guess settles the value in two
    probes, the two that bisection ends with anyway."""
    lo = 0
    hi = rem
    step = 1
    last = 0
    g = guess
    while lo < hi:
        if guess < 0:
            need = (lo + hi + 1) // 2
        else:
            need = min(max(g, lo + 1), hi)
        r = _search(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game,
                    h0, h1, h2, leader, ntr, c0, c1, rem, need - 1, need)  # fmt: skip
        if r < 0:
            return -1
        up = 1 if r >= need else -1
        if up == 1:
            lo = r
        else:
            hi = r
        step = step * 2 if up == last else 1
        last = up
        g = lo + step if up == 1 else hi - step + 1
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
def _root_moves(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game,
                h0, h1, h2, leader, ntr, c0, c1, rem, need, guess, max_nodes, out):  # fmt: skip
    """Value of every legal card at the root into ``out[card]`` (layout ids; -1 = illegal).

    ``need < 0``: exact units (``guess``: of the first card, < 0 for none; each later card
    starts from the value of the one before); else 1/0 whether the max side reaches ``need``
    after the card. ``max_nodes > 0``: each card's search stops after that many nodes and
    leaves -2 (unknown).
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
        ctr[1] = ctr[0] + max_nodes if max_nodes > 0 else 0
        if need < 0:
            v = _value(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode, game,
                       a0, a1, a2, ld, nt, d0, d1, rem - closed,
                       max(0, guess - got) if guess >= 0 else -1)  # fmt: skip
            out[card] = got + v if v >= 0 else -2
            if v >= 0:
                guess = got + v  # the next card's first guess
        else:
            r = _search(eff, smask, pts, tt, blocks, ws, fr, ctr, decl, mode,
                        game, a0, a1, a2, ld, nt, d0, d1, rem - closed, need - got - 1,
                        need - got)  # fmt: skip
            out[card] = -2 if r < 0 else (1 if r >= need - got else 0)
    ctr[1] = 0
