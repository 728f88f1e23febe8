"""The ``heuristic`` player for a whole batch of observations at once (numba).

:func:`decide_batch` takes the observations and action masks the batched engine and the
tournament hand out (``float32[B, 450]``, ``int8[B, 121]``), decodes the fields the heuristic
reads in NumPy, and runs one compiled loop over the rows. The kernel is a line-by-line port
of :mod:`.heuristic` (same rules, same tie-breaks: the first card in card-id order wins a tie,
``max`` over ``(score, game)`` tuples prefers the higher game kind), with the seats relative to
the observer as the observation stores them. A differential test plays thousands of games
move for move against the single-game player. The heuristic's thresholds come from the agent
at every call (``heuristic.THRESHOLDS``) and the rule tables from :mod:`skat_env.core.tables`,
as kernel arguments (numba's on-disk cache never holds stale constants); this module does not
import :mod:`.heuristic`, which calls it.

Without numba the batch is decided row by row by the agent's ``act`` (the same moves).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from skat_env.core.cards import CARD_POINTS, FULL_DECK
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT
from skat_env.core.moves import FIRST_BID, HAND, HOLD, MOVE_INDEX, NUM_MOVES, PASS, PICKUP
from skat_env.core.tables import (
    BASE_VALUES,
    BID_VALUES,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    GAME_NAMES,
    HIGHER,
    JACK_ORDER,
    JACKS,
    LOWER,
    NULL_VALUES,
    STRENGTH,
    TRUMP_ORDER,
)
from skat_env.encoding.observation import LAYOUT, OBS_SIZE

try:
    from numba import njit
except ImportError:  # pragma: no cover - numba is the "search" extra
    njit = None

NULL, GRAND, TRUMP = 5, 4, 4
_FULL = FULL_DECK
_CJ = JACK_ORDER[0]

# --- tables, passed to the kernel as arguments -----------------------------------------------
_EFF, _STR = np.array(EFFECTIVE_SUIT, np.int64), np.array(STRENGTH, np.int64)
_CT = np.array([_EFF, _STR, HIGHER, LOWER], np.int64)  # [4, 6, 32]
_ESM = np.array(EFFECTIVE_SUIT_MASK, np.int64)  # [6, 5]
_PTS = np.array(CARD_POINTS, np.int64)
_TORD = np.full((5, 11), -1, np.int64)
for _g, _order in enumerate(TRUMP_ORDER):
    _TORD[_g, : len(_order)] = _order
# moves: contract moves by game kind (0..5), then null ouvert
_MOVES = np.array([MOVE_INDEX[n] for n in (*GAME_NAMES, "null ouvert")], np.int64)
_INTS = np.array([*BASE_VALUES, *BID_VALUES], np.int64)  # base values 0..4, bids from 5
_NULLS = (NULL_VALUES[(True, True)], NULL_VALUES[(False, True)], NULL_VALUES[(False, False)])


def _params(margin: float, thresholds: tuple[float, ...]) -> np.ndarray:
    """The kernel's constants: the heuristic's nine thresholds, ``margin``, the null values."""
    if len(thresholds) != 9:
        raise ValueError(f"expected the heuristic's 9 thresholds, got {thresholds!r}")
    return np.array([*thresholds, margin, *_NULLS], np.float64)


_SUIT_PLAYABLE, _SUIT_HAND, _GRAND_PLAYABLE, _GRAND_HAND, _FINAL_SUIT, _FINAL_GRAND = range(6)
_SF_WIN, _SF_LOSS, _SF_DEFENCE, _MARGIN, _NULL_OH, _NULL_O, _NULL_P = range(6, 13)


def _jit(fn):
    return njit(cache=True)(fn) if njit is not None else fn


# --- bits ------------------------------------------------------------------------------------
@_jit
def _pc(m):
    """Set bits of a card set (LLVM makes the loop one popcount instruction)."""
    n = 0
    while m:
        m &= m - 1
        n += 1
    return n


@_jit
def _low(m):
    """Lowest set bit index (-1 for an empty set)."""
    for c in range(64):
        if m >> c & 1:
            return c
    return -1


@_jit
def _points(pts, m):
    s = 0
    for c in range(32):
        if m >> c & 1:
            s += pts[c]
    return s


# --- hand evaluation ---------------------------------------------------------------------------
@_jit
def _suit_strength(esm, hand, g):
    t = _pc(hand & esm[g, TRUMP])
    s = t + 0.5 * _pc(hand & JACKS)
    voids = 0
    for suit in range(4):
        if suit == g:
            continue
        if not hand & esm[g, suit]:
            voids += 1
            continue
        ace = hand >> (suit * 8) & 1
        s += ace + 0.5 * (ace & hand >> (suit * 8 + 4))
    if t >= 5:
        s += 0.5 * voids
    return s, t


@_jit
def _grand_strength(esm, hand, forehand):
    j = _pc(hand & JACKS)
    s = 1.5 * j + 0.5 * (hand >> _CJ & 1) + 0.5 * forehand
    for suit in range(4):
        ace = hand >> (suit * 8) & 1
        if not ace:
            continue
        ten = hand >> (suit * 8 + 4) & 1
        s += 1 + 0.5 * ten
        if ten and _pc(hand & esm[GRAND, suit]) >= 4:
            s += 1.0
    return s, j


@_jit
def _null_danger(ct, hand, unseen):
    d = 0
    for c in range(32):
        if hand >> c & 1:
            excess = _pc(unseen & ct[3, NULL, c]) - _pc(hand & ct[3, NULL, c])
            if excess > 0:
                d += excess
    return d


@_jit
def _matadors(tord, g, cards):
    top = cards >> tord[g, 0] & 1
    n = 0
    for k in range(11):
        c = tord[g, k]
        if c < 0 or (cards >> c & 1) != top:
            break
        n += 1
    return n


@_jit
def _null_after_discard(ct, hand):
    best = 1 << 30
    for a in range(32):
        if not hand >> a & 1:
            continue
        for b in range(a + 1, 32):
            if hand >> b & 1:
                rest = hand & ~(1 << a) & ~(1 << b)
                best = min(best, _null_danger(ct, rest, _FULL & ~rest))
    return best


@_jit
def _set(row, a, b, c, d, e):
    row[0], row[1], row[2], row[3], row[4] = a, b, c, d, e


@_jit
def _better(a, b):
    """Lexicographic ``a > b`` of two option rows (value, game, hand, ouvert, strong)."""
    for k in range(5):
        if a[k] != b[k]:
            return a[k] > b[k]
    return False


@_jit
def _estimate(tb, prm, hand, forehand, margin):
    """(game, value, hand, ouvert, pickup value, strong) of :func:`.heuristic.estimate`."""
    ct, esm, _, tord, ints, _ = tb
    best = np.array([-1, 0, 0, 0, 0], np.int64)
    opt = np.zeros(5, np.int64)
    found = False
    pickup = 0
    for g in range(4):
        s, t = _suit_strength(esm, hand, g)
        if not (t >= 5 or (t >= 4 and s >= 8.5)):
            continue
        m = _matadors(tord, g, hand)
        if t >= 6 and s >= prm[_SUIT_HAND] + margin:
            strong = s >= prm[_SUIT_HAND] + 1 + margin
            _set(opt, ints[g] * (m + 2), g, 1, 0, strong)
            if not found or _better(opt, best):
                best[:] = opt
            found = True
        if s >= prm[_SUIT_PLAYABLE] + margin:
            _set(opt, ints[g] * (m + 1), g, 0, 0, 0)
            pickup = max(pickup, opt[0])
            if not found or _better(opt, best):
                best[:] = opt
            found = True
    s, j = _grand_strength(esm, hand, forehand)
    if j >= 2 or s >= 8.5 + margin:
        m = _matadors(tord, GRAND, hand)
        if s >= prm[_GRAND_HAND] + margin:
            strong = s >= prm[_GRAND_HAND] + 1 + margin
            _set(opt, ints[GRAND] * (m + 2), GRAND, 1, 0, strong)
            if not found or _better(opt, best):
                best[:] = opt
            found = True
        if s >= prm[_GRAND_PLAYABLE] + margin:
            _set(opt, ints[GRAND] * (m + 1), GRAND, 0, 0, 0)
            pickup = max(pickup, opt[0])
            if not found or _better(opt, best):
                best[:] = opt
            found = True
    nulls = 0
    if _null_danger(ct, hand, _FULL & ~hand) == 0:
        nulls = 2
    elif margin <= 0 and _null_after_discard(ct, hand) == 0:
        nulls = 1
    for k in range(nulls):
        if nulls == 2:
            value = int(prm[_NULL_OH]) if k == 0 else int(prm[_NULL_O])
            _set(opt, value, NULL, 1 - k, 1, 0)
        else:
            _set(opt, int(prm[_NULL_P]), NULL, 0, 0, 0)
        if opt[2] == 0:
            pickup = max(pickup, opt[0])
        if not found or _better(opt, best):
            best[:] = opt
        found = True
    if not found:
        return -1, 0, 0, 0, 0, 0
    return best[1], best[0], best[2], best[3], pickup, best[4]


# --- discard and contract choice -----------------------------------------------------------------
@_jit
def _expected_score(prm, value, margin, bid):
    if value < bid:
        return -10_000.0 + margin
    p = 1.0 / (1.0 + math.exp(-(1.2 * margin + 1.0)))
    return p * (value + prm[_SF_WIN]) - (1 - p) * (2 * value + prm[_SF_LOSS] + prm[_SF_DEFENCE])


@_jit
def _contract_score(tb, prm, game, hand, buried, bid, forehand):
    ct, pts, tord, ints = tb[0], tb[2], tb[3], tb[4]
    if game == NULL:
        d = _null_danger(ct, hand, _FULL & ~hand & ~buried)
        if d == 0 and bid <= prm[_NULL_O]:
            return _expected_score(prm, int(prm[_NULL_O]), 0.8, bid)
        return _expected_score(prm, int(prm[_NULL_P]), 1.0 - 1.5 * d, bid)
    value = ints[game] * (_matadors(tord, game, hand | buried) + 1)
    return _trump_score(tb, prm, game, hand, _points(pts, buried) / 20, value, bid, forehand)


@_jit
def _trump_score(tb, prm, game, hand, bonus, value, bid, forehand):
    """:func:`_contract_score` of a suit or grand game, its value and skat bonus given."""
    esm = tb[1]
    if game == GRAND:
        s, j = _grand_strength(esm, hand, forehand)
        margin = s + bonus - prm[_FINAL_GRAND] - 1.5 * (j < 2)
    else:
        s, t = _suit_strength(esm, hand, game)
        margin = s + bonus - prm[_FINAL_SUIT] - max(0, 5 - t)
    return _expected_score(prm, value, margin, bid)


@_jit
def _plan_pickup(tb, prm, cards, bid, forehand):
    """The discard pair of :func:`.heuristic.plan_pickup` (as a card set); the value of a
    suit or grand game (matadors over all twelve cards) is the same for every pair."""
    esm, pts, tord, ints = tb[1], tb[2], tb[3], tb[4]
    best, best_pair = -np.inf, 0
    for g in range(6):
        trumps = esm[g, TRUMP] if g < NULL else 0
        no_trumps = g < NULL and _pc(cards & ~trumps) >= 2
        value = ints[g] * (_matadors(tord, g, cards) + 1) if g < NULL else 0
        for a in range(32):
            if not cards >> a & 1:
                continue
            for b in range(a + 1, 32):
                if not cards >> b & 1:
                    continue
                pair = (1 << a) | (1 << b)
                if no_trumps and pair & trumps:
                    continue
                rest = cards & ~pair
                if g == NULL:
                    score = _contract_score(tb, prm, g, rest, pair, bid, forehand)
                else:
                    bonus = (pts[a] + pts[b]) / 20
                    score = _trump_score(tb, prm, g, rest, bonus, value, bid, forehand)
                if score > best:
                    best, best_pair = score, pair
    return best_pair


@_jit
def _legal_or_lowest(mask, move, skip):
    """``move`` if legal, else the lowest legal move other than ``skip``."""
    if mask[move]:
        return move
    for m in range(NUM_MOVES):
        if mask[m] and m != skip:
            return m
    return -1


@_jit
def _declaration(tb, prm, hand, discarded, bid, forehand, hand_game, mask):
    esm = tb[1]
    moves = tb[5]
    if hand_game:
        game, _, _, ouvert, _, _ = _estimate(tb, prm, hand, forehand, 0.0)
        if game == NULL:
            move = moves[6] if ouvert else moves[NULL]
        elif game >= 0:
            move = moves[game]
        else:  # the strongest suit by (strength, trumps)
            bs, bt, bg = -1.0, -1, 0
            for g in range(4):
                s, t = _suit_strength(esm, hand, g)
                if s > bs or (s == bs and t > bt):
                    bs, bt, bg = s, t, g
            move = moves[bg]
        return _legal_or_lowest(mask, move, -1)
    best, game = -np.inf, -1
    for g in range(6):
        score = _contract_score(tb, prm, g, hand, discarded, bid, forehand)
        if score >= best:  # max over (score, game): a tie goes to the higher game
            best, game = score, g
    if game == NULL:
        ouvert = _null_danger(tb[0], hand, _FULL & ~hand & ~discarded) == 0
        move = moves[6] if ouvert and bid <= prm[_NULL_O] else moves[NULL]
    else:
        move = moves[game]
    return _legal_or_lowest(mask, move, moves[NULL])


# --- card play ---------------------------------------------------------------------------------
@_jit
def _possible(esm, g, seat, unseen, voids, declarer, open_hand):
    if open_hand and seat == declarer:
        return open_hand
    m = unseen
    for s in range(5):
        if voids[seat] >> s & 1:
            m &= ~esm[g, s]
    return m


@_jit
def _safe(ct, esm, g, card, seats, unseen, voids, declarer, open_hand):
    """Whether no seat of the seat set ``seats`` can beat ``card``."""
    suit = ct[0, g, card]
    trumps = esm[g, TRUMP]
    for o in range(3):
        if not seats >> o & 1:
            continue
        poss = _possible(esm, g, o, unseen, voids, declarer, open_hand)
        if ct[2, g, card] & poss:
            return False
        if suit != TRUMP and poss & trumps and g != NULL:
            if voids[o] >> suit & 1 or not poss & esm[g, suit]:
                return False
    return True


@_jit
def _future(ct, pts, g, card, unseen):
    if ct[0, g, card] == TRUMP:
        return 6 + 1.5 * (ct[1, g, card] - 100)
    if not ct[2, g, card] & unseen:
        return 0.8 * pts[card] + 3
    return 0.0


@_jit
def _beats(ct, g, c, best):
    if ct[0, g, c] == ct[0, g, best]:
        return ct[1, g, c] > ct[1, g, best]
    return ct[0, g, c] == TRUMP


@_jit
def _cheapest(ct, esm, pts, g, hand, cards, unseen):
    trumps = esm[g, TRUMP]
    best, out = np.inf, -1
    for c in range(32):
        if not cards >> c & 1:
            continue
        eff = ct[0, g, c]
        single = not (hand & ~(1 << c) & esm[g, eff])
        bonus = 1.0 if single and eff != TRUMP and hand & trumps else 0.0
        cost = pts[c] + _future(ct, pts, g, c, unseen) - bonus + ct[1, g, c] * 0.01
        if cost < best:
            best, out = cost, c
    return out


@_jit
def _max_points_minus_future(ct, pts, g, cards, unseen, weight):
    """max over ``cards`` of (points - weight x future, -strength): best winner / smear."""
    bk, bs, out = -np.inf, 0, -1
    for c in range(32):
        if not cards >> c & 1:
            continue
        k = pts[c] - weight * _future(ct, pts, g, c, unseen)
        s = -ct[1, g, c]
        if out < 0 or k > bk or (k == bk and s > bs):
            bk, bs, out = k, s, c
    return out


@_jit
def _min_points_strength(ct, pts, g, cards):
    """min over ``cards`` of (points, strength)."""
    bp, bs, out = 0, 0, -1
    for c in range(32):
        if cards >> c & 1:
            p, s = pts[c], ct[1, g, c]
            if out < 0 or p < bp or (p == bp and s < bs):
                bp, bs, out = p, s, c
    return out


@_jit
def _max_points(pts, cards):
    bp, out = -1, -1
    for c in range(32):
        if cards >> c & 1 and pts[c] > bp:
            bp, out = pts[c], c
    return out


@_jit
def _by_strength(ct, g, cards, highest):
    """The first card of highest (lowest) strength, in card-id order."""
    bs, out = 0, -1
    for c in range(32):
        if cards >> c & 1:
            s = ct[1, g, c]
            if out < 0 or (s > bs if highest else s < bs):
                bs, out = s, c
    return out


@_jit
def _low_from_suit(ct, esm, pts, g, hand, shortest, exclude):
    sign = 1 if shortest else -1
    for attempt in range(2):
        found, suit = False, -1
        bt, bn, bp = 0, 0, 0
        for s in range(4):
            cards = hand & esm[g, s]
            if not cards or (attempt == 0 and exclude >> s & 1):
                continue
            bare = 1 if (cards >> (s * 8 + 4) & 1 and not cards >> (s * 8) & 1) else 0
            n, p = sign * _pc(cards), _points(pts, cards)
            if not found or (bare, n, p) < (bt, bn, bp):
                found, suit, bt, bn, bp = True, s, bare, n, p
        if found:
            break
    cards = hand & esm[g, suit]
    bk, out = (0, 0, 0), -1
    for c in range(32):
        if cards >> c & 1:
            k = (1 if pts[c] >= 10 else 0, pts[c], ct[1, g, c])
            if out < 0 or k < bk:
                bk, out = k, c
    return out


@_jit
def _winning(ct, g, tseats, tcards, n):
    seat, best = tseats[0], tcards[0]
    for i in range(1, n):
        if _beats(ct, g, tcards[i], best):
            seat, best = tseats[i], tcards[i]
    return seat, best


@_jit
def _play(tb, g, hand, legal, unseen, tseats, tcards, n, declarer, voids, open_hand):
    """:func:`.heuristic.choose_card`; seats relative to the player (0) to act."""
    ct, esm, pts = tb[0], tb[1], tb[2]
    if not legal & (legal - 1):
        return _low(legal)
    trumps = esm[g, TRUMP]
    partner = -1 if declarer == 0 else 3 - declarer
    if g == NULL:
        if declarer == 0:
            return _null_declarer(ct, legal, hand, unseen, tseats, tcards, n)
        return _null_defender(tb, legal, unseen, tseats, tcards, n, declarer, voids, open_hand)
    if n:  # follow
        seat, best = _winning(ct, g, tseats, tcards, n)
        after = 0  # seats still to play after me: 1, then 2
        for i in range(1, 3 - n):
            if declarer == 0 or i == declarer:
                after |= 1 << i
        winners, safe = 0, 0
        for c in range(32):
            if legal >> c & 1 and _beats(ct, g, c, best):
                winners |= 1 << c
                if _safe(ct, esm, g, c, after, unseen, voids, declarer, open_hand):
                    safe |= 1 << c
        if seat == partner and _safe(ct, esm, g, best, after, unseen, voids, declarer, open_hand):
            return _max_points_minus_future(ct, pts, g, legal, unseen, 0.5)
        if safe:
            return _max_points_minus_future(ct, pts, g, safe, unseen, 1.0)
        return _cheapest(ct, esm, pts, g, hand, legal, unseen)
    side = hand & ~trumps
    if declarer == 0:
        mine, theirs = hand & trumps, unseen & trumps
        if mine and theirs:
            top = _by_strength(ct, g, mine, True)
            if not ct[2, g, top] & unseen:
                return top
            if _pc(mine) > _pc(theirs):
                return _min_points_strength(ct, pts, g, mine)
        sure = 0
        for c in range(32):
            if side >> c & 1 and not ct[2, g, c] & unseen:
                if _safe(ct, esm, g, c, 6, unseen, voids, declarer, open_hand):
                    sure |= 1 << c
        if sure:
            return _max_points(pts, sure)
        if mine and theirs and _pc(mine) >= 2:
            return _min_points_strength(ct, pts, g, mine)
        if side:
            return _low_from_suit(ct, esm, pts, g, hand, True, 0)
        return _cheapest(ct, esm, pts, g, hand, hand, unseen)
    decl_cards = _possible(esm, g, declarer, unseen, voids, declarer, open_hand)
    ruffable = 0
    if decl_cards & trumps:
        for s in range(4):
            if voids[declarer] >> s & 1 or not decl_cards & esm[g, s]:
                ruffable |= 1 << s
    sure = 0
    for c in range(32):
        eff = ct[0, g, c]
        if side >> c & 1 and not ct[2, g, c] & decl_cards and not ruffable >> eff & 1:
            if decl_cards & esm[g, eff]:
                sure |= 1 << c
    if sure:
        return _max_points(pts, sure)
    partner_void = voids[partner] & ~ruffable & 15
    for s in range(4):
        cards = hand & esm[g, s]
        if partner_void >> s & 1 and cards:
            return _min_points_strength(ct, pts, g, cards)
    if side:
        return _low_from_suit(ct, esm, pts, g, hand, declarer != 1, ruffable)
    return _min_points_strength(ct, pts, g, legal)


@_jit
def _null_declarer(ct, legal, hand, unseen, tseats, tcards, n):
    g = NULL
    if not n:
        bl, bh, out = 0, 0, -1
        for c in range(32):
            if legal >> c & 1:
                lo, hi = _pc(unseen & ct[3, g, c]), -_pc(unseen & ct[2, g, c])
                if out < 0 or lo < bl or (lo == bl and hi < bh):
                    bl, bh, out = lo, hi, c
        return out
    _, best = _winning(ct, g, tseats, tcards, n)
    if ct[0, g, _low(legal)] == ct[0, g, tcards[0]]:  # following suit
        under = 0
        for c in range(32):
            if legal >> c & 1 and not _beats(ct, g, c, best):
                under |= 1 << c
        if under:
            return _by_strength(ct, g, under, True)
        return _by_strength(ct, g, legal, False)
    be, bs, out = 0, 0, -1  # the most dangerous card
    for c in range(32):
        if legal >> c & 1:
            e = _pc(unseen & ct[3, g, c]) - _pc(hand & ct[3, g, c])
            s = ct[1, g, c]
            if out < 0 or e > be or (e == be and s > bs):
                be, bs, out = e, s, c
    return out


@_jit
def _null_defender(tb, legal, unseen, tseats, tcards, n, declarer, voids, open_hand):
    ct, esm = tb[0], tb[1]
    g = NULL
    decl_cards = _possible(esm, g, declarer, unseen, voids, declarer, open_hand)
    if not n:
        if open_hand:
            for st in range(1, 9):  # sorted by strength, card-id order within a strength
                for c in range(32):
                    if legal >> c & 1 and ct[1, g, c] == st:
                        suit_cards = decl_cards & esm[g, ct[0, g, c]]
                        if suit_cards and not suit_cards & ct[3, g, c]:
                            return c
        held = 0
        for c in range(32):
            if legal >> c & 1 and decl_cards & esm[g, ct[0, g, c]]:
                held |= 1 << c
        return _by_strength(ct, g, held if held else legal, False)
    seat, best = _winning(ct, g, tseats, tcards, n)
    led_suit = ct[0, g, tcards[0]]
    following = ct[0, g, _low(legal)] == led_suit
    played = False
    for i in range(n):
        played = played or tseats[i] == declarer
    if played:
        if seat == declarer and following:
            under = 0
            for c in range(32):
                if legal >> c & 1 and not _beats(ct, g, c, best):
                    under |= 1 << c
            if under:
                return _by_strength(ct, g, under, True)
        return _by_strength(ct, g, legal, True)
    follow_cards = decl_cards & esm[g, led_suit]
    if open_hand and follow_cards:
        for st in range(8, 0, -1):
            for c in range(32):
                if legal >> c & 1 and ct[1, g, c] == st:
                    top = c if _beats(ct, g, c, best) else best
                    if not follow_cards & ct[3, g, top]:
                        return c
    return _by_strength(ct, g, legal, not following)


# --- the batch -----------------------------------------------------------------------------------
@_jit
def _decide(tb, prm, rows, masks, out):
    """One move per row; ``rows`` int64[B, 16] (see :func:`_rows`)."""
    ints = tb[4]
    margin = prm[_MARGIN]
    voids = np.zeros(3, np.int64)
    tseats = np.zeros(3, np.int64)
    tcards = np.zeros(3, np.int64)
    for b in range(rows.shape[0]):
        r = rows[b]
        mask = masks[b]
        phase, forehand, hand, bid = r[0], int(r[1] == 0), r[2], r[7]
        legal = 0
        for c in range(32):
            if mask[c]:
                legal |= 1 << c
        if phase == PLAY:
            unseen = _FULL & ~(hand | r[3] | r[4] | r[5] | r[6])
            n = 0
            leader = r[12]
            for i in range(3):
                s = (leader + i) % 3
                if leader >= 0 and r[13 + s] >= 0:
                    tseats[n], tcards[n] = s, r[13 + s]
                    n += 1
            for s in range(3):
                voids[s] = r[9] >> (5 * s) & 31
            out[b] = _play(tb, r[10], hand, legal, unseen, tseats, tcards, n, r[8], voids, r[6])
        elif phase == BIDDING:
            limit = _estimate(tb, prm, hand, forehand, margin)[1]
            move = PASS
            if mask[HOLD]:
                move = HOLD if bid <= limit else PASS
            else:
                for m in range(FIRST_BID, FIRST_BID + 63):
                    if mask[m]:
                        if ints[5 + m - FIRST_BID] <= limit:
                            move = m
                        break
            out[b] = move
        elif phase == SKAT:
            _, _, is_hand, _, pickup, strong = _estimate(tb, prm, hand, forehand, margin)
            out[b] = HAND if is_hand and (bid > pickup or strong) else PICKUP
        elif phase == DISCARD:
            pair = _plan_pickup(tb, prm, hand | r[4], bid, forehand)
            todo = pair & hand & legal
            if todo:
                out[b] = _low(todo)
            else:
                bp, move = 1 << 30, -1
                for c in range(32):
                    if legal >> c & 1 and tb[2][c] < bp:
                        bp, move = tb[2][c], c
                out[b] = move
        elif phase == DECLARE:
            out[b] = _declaration(tb, prm, hand, r[4], bid, forehand, r[11], mask)
        else:
            out[b] = -1


_CARD_SETS = LAYOUT["seat"].start  # 320: the ten card sets come first
_BIDS = np.array([0, *BID_VALUES], np.int64)


def _onehot(obs: np.ndarray, name: str) -> np.ndarray:
    """Index of the set entry of a one-hot field per row, -1 where none is set."""
    f = obs[:, LAYOUT[name]] > 0.5
    return np.where(f.any(1), f.argmax(1), -1)


def _rows(obs: np.ndarray) -> np.ndarray:
    """The fields the heuristic reads, one int64 row per observation: phase, position,
    hand, skat, discarded, all cards played, open hand, bid value, declarer, voids (5 bits
    per relative seat), game kind, hand game, trick leader, the trick card of each relative
    seat (-1: none). Seats are relative to the observer (0 self, 1 next, 2 previous)."""
    n = len(obs)
    packed = np.packbits(obs[:, :_CARD_SETS] > 0.5, axis=1, bitorder="little")
    sets = packed.view("<u4").astype(np.int64)  # hand skat discarded open played x3 trick x3
    rows = np.empty((n, 16), np.int64)
    rows[:, 0] = _onehot(obs, "phase")
    rows[:, 1] = _onehot(obs, "position")
    rows[:, 2:5] = sets[:, 0:3]
    rows[:, 5] = sets[:, 4] | sets[:, 5] | sets[:, 6]
    rows[:, 6] = sets[:, 3]
    rows[:, 7] = _BIDS[_onehot(obs, "bid") + 1]
    rows[:, 8] = _onehot(obs, "declarer")
    v = (obs[:, LAYOUT["voids"]] > 0.5).astype(np.int64)
    rows[:, 9] = v @ (1 << np.arange(15, dtype=np.int64))
    rows[:, 10] = _onehot(obs, "game")
    rows[:, 11] = obs[:, LAYOUT["hand_game"].start] > 0.5
    rows[:, 12] = _onehot(obs, "trick_leader")
    t = sets[:, 7:10]  # one card (one bit) or none per seat: its id is the exponent
    rows[:, 13:16] = np.where(t != 0, np.frexp(t.astype(np.float64))[1] - 1, -1)
    return rows


def decide_batch(
    obs: np.ndarray,
    masks: np.ndarray,
    margin: float,
    thresholds: tuple[float, ...],
    act: Callable[[dict[str, np.ndarray]], int],
) -> np.ndarray:
    """The heuristic's move (``int64[B]``) for each row of observations ``float32[B, 450]``
    and action masks ``[B, 121]`` (rows of the player to act), with its ``margin`` and
    ``thresholds`` (``heuristic.THRESHOLDS``); ``act`` (the agent's, one observation dict)
    decides row by row when numba is missing."""
    obs = np.asarray(obs)
    masks = np.ascontiguousarray(np.asarray(masks) != 0)
    if obs.ndim != 2 or obs.shape[1] < OBS_SIZE or masks.shape != (len(obs), NUM_MOVES):
        raise ValueError(
            f"expected observations [B, {OBS_SIZE}] and masks [B, {NUM_MOVES}], "
            f"got {obs.shape} and {masks.shape}"
        )
    params = _params(margin, thresholds)
    if njit is None:
        rows = zip(obs, masks, strict=True)
        return np.array([act({"observation": o, "action_mask": m}) for o, m in rows], np.int64)
    out = np.empty(len(obs), np.int64)
    if len(obs):
        _decide(_TABLES, params, _rows(obs), masks, out)
    bad = np.flatnonzero(out < 0)
    if len(bad):  # as the single-game agent, which refuses to act in these states
        raise ValueError(f"heuristic asked to act with no legal move or a finished game "
                         f"(rows {bad[:5].tolist()})")  # fmt: skip
    return out


_TABLES = (_CT, _ESM, _PTS, _TORD, _INTS, _MOVES)

__all__ = ["decide_batch"]
