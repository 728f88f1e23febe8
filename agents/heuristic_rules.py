"""The rules of the ``heuristic`` player (described in :mod:`.heuristic`), written once.

Plain functions over card sets (ints) in the subset of Python that numba compiles: the tables
of ``TABLES`` (``tb``) and the constants of ``PARAMS`` (``prm``) are arguments, ties go to the
first card in card-id order, seats are relative to the player to act (0 itself, 1 the next
seat, 2 the previous). :mod:`.heuristic` calls them as they are, one view at a time;
:mod:`.heuristic_batched` compiles them (every function of this module) into one loop over
a batch of rows (:func:`decide_rows`), or runs that loop as Python without numba.
"""

from __future__ import annotations

import math

from skat_env.core.cards import CARD_POINTS, FULL_DECK
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT
from skat_env.core.moves import FIRST_BID, HAND, HOLD, MOVE_INDEX, PASS, PICKUP
from skat_env.core.tables import (
    BASE_VALUES,
    BID_VALUES,
    EFFECTIVE_SUIT,
    EFFECTIVE_SUIT_MASK,
    GAME_NAMES,
    GRAND,
    HIGHER,
    JACK_ORDER,
    JACKS,
    LOWER,
    NULL,
    NULL_VALUES,
    STRENGTH,
    TRUMP,
    TRUMP_ORDER,
)

# --- thresholds (strength units, see the heuristic module's docstring) ---
SUIT_PLAYABLE, SUIT_HAND = 7.0, 9.5
GRAND_PLAYABLE, GRAND_HAND = 7.0, 9.0
FINAL_SUIT, FINAL_GRAND = 7.5, 7.5  # after the skat (ten final cards + buried points)
SF_WIN, SF_LOSS, SF_DEFENCE = 50, 50, 80  # Seeger-Fabian bonus, penalty, both defenders' 40
#: the rules' constants (``prm``): the thresholds, then the null values (ouvert hand,
#: ouvert, after pickup)
PARAMS = (SUIT_PLAYABLE, SUIT_HAND, GRAND_PLAYABLE, GRAND_HAND, FINAL_SUIT, FINAL_GRAND,
          float(SF_WIN), float(SF_LOSS), float(SF_DEFENCE), float(NULL_VALUES[(True, True)]),
          float(NULL_VALUES[(False, True)]), float(NULL_VALUES[(False, False)]))  # fmt: skip
#: the rules' tables (``tb``), plain nested tuples here (numpy arrays for numba): per game
#: kind the effective suit, strength, higher and lower cards of each card; the effective-suit
#: masks; card points; trump orders (-1 padded); base values then bid values; the
#: declaration moves of game kinds 0..5, then null ouvert
TABLES = (
    (EFFECTIVE_SUIT, STRENGTH, HIGHER, LOWER),
    EFFECTIVE_SUIT_MASK,
    CARD_POINTS,
    tuple(tuple(order) + (-1,) * (11 - len(order)) for order in TRUMP_ORDER),
    (*BASE_VALUES, *BID_VALUES),
    tuple(MOVE_INDEX[n] for n in (*GAME_NAMES, "null ouvert")),
)
CJ = JACK_ORDER[0]

CT, ESM, PTS, TORD, INTS, MOVES = range(6)  # the tables in TABLES
_SUIT_PLAYABLE, _SUIT_HAND, _GRAND_PLAYABLE, _GRAND_HAND, _FINAL_SUIT, _FINAL_GRAND = range(6)
_SF_WIN, _SF_LOSS, _SF_DEFENCE, _NULL_OH, _NULL_O, _NULL_P = range(6, 12)  # params
FIRST_CONTRACT = MOVE_INDEX["diamonds"]  # the declarations as bits from here


def lowest(m: int) -> int:
    """Lowest set bit index, -1 for an empty set. (The hot loops write it out: ints'
    ``bit_length`` and ``bit_count`` are a fraction of a function call; heuristic_batched
    teaches numba both.)"""
    return (m & -m).bit_length() - 1


def _points(pts, m):
    """Card points of a card set."""
    s = 0
    while m:
        s += pts[(m & -m).bit_length() - 1]
        m &= m - 1
    return s


# --- hand evaluation -----------------------------------------------------------------------
def suit_strength(esm, hand, g):
    """(strength, trump count) of a hand for suit game ``g``."""
    t = (hand & esm[g][TRUMP]).bit_count()
    s = t + 0.5 * (hand & JACKS).bit_count()
    voids = 0
    for suit in range(4):
        if suit == g:
            continue
        if not hand & esm[g][suit]:
            voids += 1
            continue
        ace = hand >> (suit * 8) & 1
        s += ace + 0.5 * (ace & hand >> (suit * 8 + 4))
    if t >= 5:
        s += 0.5 * voids
    return s, t


def grand_strength(esm, hand, forehand):
    """(strength, jack count) of a hand for grand."""
    j = (hand & JACKS).bit_count()
    s = 1.5 * j + 0.5 * (hand >> CJ & 1) + 0.5 * forehand
    for suit in range(4):
        ace = hand >> (suit * 8) & 1
        if not ace:
            continue
        ten = hand >> (suit * 8 + 4) & 1
        s += 1 + 0.5 * ten
        if ten and (hand & esm[GRAND][suit]).bit_count() >= 4:
            s += 1.0
    return s, j


def null_danger(ct, hand, unseen):
    """Per card, how many more ``unseen`` cards lie below it than own cards, summed."""
    lower = ct[3][NULL]
    d = 0
    m = hand
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        excess = (unseen & lower[c]).bit_count() - (hand & lower[c]).bit_count()
        if excess > 0:
            d += excess
    return d


def null_after_discard(ct, hand):
    """The least null danger left after discarding two cards."""
    best = 1 << 30
    ma = hand
    while ma:
        a = (ma & -ma).bit_length() - 1
        ma &= ma - 1
        mb = ma
        while mb:
            b = (mb & -mb).bit_length() - 1
            mb &= mb - 1
            rest = hand & ~(1 << a) & ~(1 << b)
            best = min(best, null_danger(ct, rest, FULL_DECK & ~rest))
    return best


def _matadors(tord, g, cards):
    """Matadors with or without (a count) in suit game or grand ``g``."""
    order = tord[g]
    top = cards >> order[0] & 1
    n = 0
    for k in range(11):
        c = order[k]
        if c < 0 or (cards >> c & 1) != top:
            break
        n += 1
    return n


def estimate(tb, prm, hand, forehand, margin):
    """(game, value, hand, ouvert, pickup value, strong) of :func:`estimate`: the largest
    option (value, game, hand, ouvert, strong)."""
    ct, esm, tord, ints = tb[CT], tb[ESM], tb[TORD], tb[INTS]
    best = (0, -1, 0, 0, 0)  # every option is worth more than nothing
    pickup = 0
    for g in range(5):
        if g < GRAND:
            s, t = suit_strength(esm, hand, g)
            if not (t >= 5 or (t >= 4 and s >= 8.5)):
                continue
            hand_ok, hand_at, play_at = t >= 6, prm[_SUIT_HAND], prm[_SUIT_PLAYABLE]
        else:
            s, j = grand_strength(esm, hand, forehand)
            if not (j >= 2 or s >= 8.5 + margin):
                continue
            hand_ok, hand_at, play_at = True, prm[_GRAND_HAND], prm[_GRAND_PLAYABLE]
        m = _matadors(tord, g, hand)
        if hand_ok and s >= hand_at + margin:
            option = (ints[g] * (m + 2), g, 1, 0, int(s >= hand_at + 1 + margin))
            best = option if option > best else best
        if s >= play_at + margin:
            option = (ints[g] * (m + 1), g, 0, 0, 0)
            pickup = max(pickup, option[0])
            best = option if option > best else best
    if null_danger(ct, hand, FULL_DECK & ~hand) == 0:
        option = (int(prm[_NULL_OH]), NULL, 1, 1, 0)
        best = option if option > best else best
        option = (int(prm[_NULL_O]), NULL, 0, 1, 0)
        pickup = max(pickup, option[0])
        best = option if option > best else best
    elif margin <= 0 and null_after_discard(ct, hand) == 0:
        option = (int(prm[_NULL_P]), NULL, 0, 0, 0)
        pickup = max(pickup, option[0])
        best = option if option > best else best
    if best[1] < 0:
        return -1, 0, 0, 0, 0, 0
    return best[1], best[0], best[2], best[3], pickup, best[4]


def bid_move(ints, can_hold, low_bid, bid, limit):
    """Bid (the lowest legal bid ``low_bid``, -1: none) or hold within ``limit``, else pass."""
    if can_hold:
        return HOLD if bid <= limit else PASS
    if low_bid >= 0 and ints[5 + low_bid - FIRST_BID] <= limit:
        return low_bid
    return PASS


def skat_move(is_hand, pickup, strong, bid):
    return HAND if is_hand and (bid > pickup or strong) else PICKUP


# --- discard and contract choice ---------------------------------------------------------
def _expected_score(prm, value, margin, bid):
    if value < bid:
        return -10_000.0 + margin
    p = 1.0 / (1.0 + math.exp(-(1.2 * margin + 1.0)))
    return p * (value + prm[_SF_WIN]) - (1 - p) * (2 * value + prm[_SF_LOSS] + prm[_SF_DEFENCE])


def contract_score(tb, prm, game, hand, buried, bid, forehand):
    if game == NULL:
        d = null_danger(tb[CT], hand, FULL_DECK & ~hand & ~buried)
        if d == 0 and bid <= prm[_NULL_O]:
            return _expected_score(prm, int(prm[_NULL_O]), 0.8, bid)
        return _expected_score(prm, int(prm[_NULL_P]), 1.0 - 1.5 * d, bid)
    value = tb[INTS][game] * (_matadors(tb[TORD], game, hand | buried) + 1)
    bonus = _points(tb[PTS], buried) / 20
    return _trump_score(tb[ESM], prm, game, hand, bonus, value, bid, forehand)


def _trump_score(esm, prm, game, hand, bonus, value, bid, forehand):
    """:func:`contract_score` of a suit or grand game, its value and skat bonus given."""
    if game == GRAND:
        s, j = grand_strength(esm, hand, forehand)
        margin = s + bonus - prm[_FINAL_GRAND] - 1.5 * (j < 2)
    else:
        s, t = suit_strength(esm, hand, game)
        margin = s + bonus - prm[_FINAL_SUIT] - max(0, 5 - t)
    return _expected_score(prm, value, margin, bid)


def plan_pickup(tb, prm, cards, bid, forehand):
    """(game, discard pair) of :func:`plan_pickup`; a suit or grand game's value (matadors
    over all twelve cards) is the same for every pair."""
    esm, pts, tord, ints = tb[ESM], tb[PTS], tb[TORD], tb[INTS]
    best, best_game, best_pair = -math.inf, -1, 0
    for g in range(6):
        trumps = esm[g][TRUMP] if g < NULL else 0
        no_trumps = g < NULL and (cards & ~trumps).bit_count() >= 2
        value = ints[g] * (_matadors(tord, g, cards) + 1) if g < NULL else 0
        ma = cards
        while ma:
            a = (ma & -ma).bit_length() - 1
            ma &= ma - 1
            mb = ma
            while mb:
                b = (mb & -mb).bit_length() - 1
                mb &= mb - 1
                pair = (1 << a) | (1 << b)
                if no_trumps and pair & trumps:
                    continue
                rest = cards & ~pair
                if g == NULL:
                    score = contract_score(tb, prm, g, rest, pair, bid, forehand)
                else:
                    bonus = (pts[a] + pts[b]) / 20
                    score = _trump_score(esm, prm, g, rest, bonus, value, bid, forehand)
                if score > best:
                    best, best_game, best_pair = score, g, pair
    return best_game, best_pair


def discard_move(pts, pair, hand, legal):
    """A planned discard still in hand, else the legal card of fewest points."""
    todo = pair & hand & legal
    if todo:
        return lowest(todo)
    bp, move = 1 << 30, -1
    while legal:
        c = (legal & -legal).bit_length() - 1
        legal &= legal - 1
        if pts[c] < bp:
            bp, move = pts[c], c
    return move


def _legal_or_lowest(contracts, move, skip):
    """``move`` if legal, else the lowest legal declaration other than ``skip``
    (``contracts``: the legal declarations as bits from the first contract move)."""
    if contracts >> (move - FIRST_CONTRACT) & 1:
        return move
    rest = contracts & ~(1 << (skip - FIRST_CONTRACT)) if skip >= 0 else contracts
    return lowest(rest) + FIRST_CONTRACT if rest else -1


def declaration(tb, prm, hand, discarded, bid, forehand, hand_game, contracts):
    """The declaration move: after pickup the best-scoring contract for the final ten cards,
    in a hand game the estimate's contract."""
    esm, moves = tb[ESM], tb[MOVES]
    if hand_game:
        game, _, _, ouvert, _, _ = estimate(tb, prm, hand, forehand, 0.0)
        if game == NULL:
            move = moves[6] if ouvert else moves[NULL]
        elif game >= 0:
            move = moves[game]
        else:  # forced hand game without a plan: the strongest suit by (strength, trumps)
            bs, bt, bg = -1.0, -1, 0
            for g in range(4):
                s, t = suit_strength(esm, hand, g)
                if s > bs or (s == bs and t > bt):
                    bs, bt, bg = s, t, g
            move = moves[bg]
        return _legal_or_lowest(contracts, move, -1)
    best, game = -math.inf, -1
    for g in range(6):
        score = contract_score(tb, prm, g, hand, discarded, bid, forehand)
        if score >= best:  # a tie goes to the higher game kind
            best, game = score, g
    if game == NULL:
        ouvert = null_danger(tb[CT], hand, FULL_DECK & ~hand & ~discarded) == 0
        move = moves[6] if ouvert and bid <= prm[_NULL_O] else moves[NULL]
    else:
        move = moves[game]
    return _legal_or_lowest(contracts, move, moves[NULL])


# --- card play -------------------------------------------------------------------------------
def _possible(esm, g, seat, unseen, voids, declarer, open_hand):
    """Cards ``seat`` may hold (exact for an open declarer's hand)."""
    if open_hand and seat == declarer:
        return open_hand
    m = unseen
    for s in range(5):
        if voids[seat] >> s & 1:
            m &= ~esm[g][s]
    return m


def _safe(ct, esm, g, card, seats, unseen, voids, declarer, open_hand):
    """Whether no seat of the seat set ``seats`` (still to play) can beat ``card``."""
    suit = ct[0][g][card]
    trumps = esm[g][TRUMP]
    for o in range(3):
        if not seats >> o & 1:
            continue
        poss = _possible(esm, g, o, unseen, voids, declarer, open_hand)
        if ct[2][g][card] & poss:
            return False
        if suit != TRUMP and poss & trumps and g != NULL:
            if voids[o] >> suit & 1 or not poss & esm[g][suit]:
                return False
    return True


def _future(ct, pts, g, card, unseen):
    """How much strength a card keeps for later tricks (cost of spending it now)."""
    if ct[0][g][card] == TRUMP:
        return 6 + 1.5 * (ct[1][g][card] - 100)
    if not ct[2][g][card] & unseen:
        return 0.8 * pts[card] + 3
    return 0.0


def _beats(ct, g, c, best):
    if ct[0][g][c] == ct[0][g][best]:
        return ct[1][g][c] > ct[1][g][best]
    return ct[0][g][c] == TRUMP


def _cheapest(ct, esm, pts, g, hand, cards, unseen):
    """The card that costs least: few points, no trumps or sure winners; shed singletons."""
    trumps = esm[g][TRUMP]
    best, out = math.inf, -1
    while cards:
        c = (cards & -cards).bit_length() - 1
        cards &= cards - 1
        eff = ct[0][g][c]
        single = not (hand & ~(1 << c) & esm[g][eff])
        bonus = 1.0 if single and eff != TRUMP and hand & trumps else 0.0
        cost = pts[c] + _future(ct, pts, g, c, unseen) - bonus + ct[1][g][c] * 0.01
        if cost < best:
            best, out = cost, c
    return out


def _points_for_future(ct, pts, g, cards, unseen, weight):
    """The card of most (points - ``weight`` x future, -strength): the winner that gains most
    for least future strength (1), or the most points to smear on a safe trick (0.5)."""
    bk, bs, out = -math.inf, 0, -1
    while cards:
        c = (cards & -cards).bit_length() - 1
        cards &= cards - 1
        k = pts[c] - weight * _future(ct, pts, g, c, unseen)
        s = -ct[1][g][c]
        if out < 0 or k > bk or (k == bk and s > bs):
            bk, bs, out = k, s, c
    return out


def _fewest_points(ct, pts, g, cards):
    """The card of fewest (points, strength)."""
    bp, bs, out = 0, 0, -1
    while cards:
        c = (cards & -cards).bit_length() - 1
        cards &= cards - 1
        p, s = pts[c], ct[1][g][c]
        if out < 0 or p < bp or (p == bp and s < bs):
            bp, bs, out = p, s, c
    return out


def _most_points(pts, cards):
    bp, out = -1, -1
    while cards:
        c = (cards & -cards).bit_length() - 1
        cards &= cards - 1
        if pts[c] > bp:
            bp, out = pts[c], c
    return out


def _by_strength(ct, g, cards, highest):
    """The first card of highest (lowest) strength."""
    bs, out = 0, -1
    while cards:
        c = (cards & -cards).bit_length() - 1
        cards &= cards - 1
        s = ct[1][g][c]
        if out < 0 or (s > bs if highest else s < bs):
            bs, out = s, c
    return out


def _low_from_suit(ct, esm, pts, g, hand, shortest, exclude):
    """Lowest card of the shortest (or longest) side suit not in ``exclude`` (any side suit
    if none); tens are never led away from their ace."""
    sign = 1 if shortest else -1
    suit = -1
    for attempt in range(2):
        bt, bn, bp = 0, 0, 0
        for s in range(4):
            cards = hand & esm[g][s]
            if not cards or (attempt == 0 and exclude >> s & 1):
                continue
            bare = 1 if (cards >> (s * 8 + 4) & 1 and not cards >> (s * 8) & 1) else 0
            n, p = sign * cards.bit_count(), _points(pts, cards)
            if suit < 0 or (bare, n, p) < (bt, bn, bp):
                suit, bt, bn, bp = s, bare, n, p
        if suit >= 0:
            break
    cards = hand & esm[g][suit]
    bk, out = (0, 0, 0), -1
    while cards:
        c = (cards & -cards).bit_length() - 1
        cards &= cards - 1
        k = (1 if pts[c] >= 10 else 0, pts[c], ct[1][g][c])
        if out < 0 or k < bk:
            bk, out = k, c
    return out


def _winning(ct, g, tseats, tcards, n):
    """(seat, card) winning the trick so far."""
    seat, best = tseats[0], tcards[0]
    for i in range(1, n):
        if _beats(ct, g, tcards[i], best):
            seat, best = tseats[i], tcards[i]
    return seat, best


def play(tb, g, hand, legal, unseen, tseats, tcards, n, declarer, voids, open_hand):
    """The card to play (see the module docstring); the trick's ``n`` cards ``tcards`` were
    played by ``tseats`` in this order."""
    ct = tb[CT]
    if not legal & (legal - 1):
        return lowest(legal)
    if g == NULL:
        if declarer == 0:
            return _null_declarer(ct, legal, hand, unseen, tseats, tcards, n)
        return _null_defender(tb, legal, unseen, tseats, tcards, n, declarer, voids, open_hand)
    if n:
        return _follow(tb, g, hand, legal, unseen, tseats, tcards, n, declarer, voids, open_hand)
    if declarer == 0:
        return _declarer_lead(tb, g, hand, unseen, voids, open_hand)
    return _defender_lead(tb, g, hand, legal, unseen, declarer, voids, open_hand)


def _follow(tb, g, hand, legal, unseen, tseats, tcards, n, declarer, voids, open_hand):
    """Take the trick with a safe winner, smear the partner's safe trick, else play cheap."""
    ct, esm, pts = tb[CT], tb[ESM], tb[PTS]
    seat, best = _winning(ct, g, tseats, tcards, n)
    after = 0  # opponents still to play after me: seat 1, then 2
    for i in range(1, 3 - n):
        if declarer == 0 or i == declarer:
            after |= 1 << i
    safe = 0
    m = legal
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        if _beats(ct, g, c, best) and _safe(ct, esm, g, c, after, unseen, voids, declarer,
                                             open_hand):  # fmt: skip
            safe |= 1 << c
    partner = -1 if declarer == 0 else 3 - declarer
    if seat == partner and _safe(ct, esm, g, best, after, unseen, voids, declarer, open_hand):
        return _points_for_future(ct, pts, g, legal, unseen, 0.5)
    if safe:
        return _points_for_future(ct, pts, g, safe, unseen, 1.0)
    return _cheapest(ct, esm, pts, g, hand, legal, unseen)


def _declarer_lead(tb, g, hand, unseen, voids, open_hand):
    """Draw trumps, cash sure side winners, then lead low from the shortest side suit."""
    ct, esm, pts = tb[CT], tb[ESM], tb[PTS]
    trumps = esm[g][TRUMP]
    side = hand & ~trumps
    mine, theirs = hand & trumps, unseen & trumps
    if mine and theirs:
        top = _by_strength(ct, g, mine, True)
        if not ct[2][g][top] & unseen:
            return top
        if mine.bit_count() > theirs.bit_count():
            return _fewest_points(ct, pts, g, mine)
    sure = 0
    m = side
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        if not ct[2][g][c] & unseen and _safe(ct, esm, g, c, 6, unseen, voids, 0, open_hand):
            sure |= 1 << c
    if sure:
        return _most_points(pts, sure)
    if mine and theirs and mine.bit_count() >= 2:
        return _fewest_points(ct, pts, g, mine)
    if side:
        return _low_from_suit(ct, esm, pts, g, hand, True, 0)
    return _cheapest(ct, esm, pts, g, hand, hand, unseen)


def _defender_lead(tb, g, hand, legal, unseen, declarer, voids, open_hand):
    """Cash sure winners, lead into the partner's void, else through (or up to) the
    declarer; never a suit he may ruff."""
    ct, esm, pts = tb[CT], tb[ESM], tb[PTS]
    trumps = esm[g][TRUMP]
    side = hand & ~trumps
    decl_cards = _possible(esm, g, declarer, unseen, voids, declarer, open_hand)
    ruffable = 0  # side suits the declarer may trump
    if decl_cards & trumps:
        for s in range(4):
            if voids[declarer] >> s & 1 or not decl_cards & esm[g][s]:
                ruffable |= 1 << s
    sure = 0
    m = side
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        eff = ct[0][g][c]
        if not ct[2][g][c] & decl_cards and not ruffable >> eff & 1 and decl_cards & esm[g][eff]:
            sure |= 1 << c
    if sure:
        return _most_points(pts, sure)
    partner_void = voids[3 - declarer] & ~ruffable & 15
    for s in range(4):
        cards = hand & esm[g][s]
        if partner_void >> s & 1 and cards:
            return _fewest_points(ct, pts, g, cards)
    if side:
        return _low_from_suit(ct, esm, pts, g, hand, declarer != 1, ruffable)
    return _fewest_points(ct, pts, g, legal)


def _null_declarer(ct, legal, hand, unseen, tseats, tcards, n):
    """Lead the card with fewest unseen cards below; duck under the best card; when void,
    discard the most dangerous card."""
    g = NULL
    lower, higher = ct[3][g], ct[2][g]
    if not n:
        bl, bh, out = 0, 0, -1
        m = legal
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            lo, hi = (unseen & lower[c]).bit_count(), -(unseen & higher[c]).bit_count()
            if out < 0 or lo < bl or (lo == bl and hi < bh):
                bl, bh, out = lo, hi, c
        return out
    _, best = _winning(ct, g, tseats, tcards, n)
    if ct[0][g][lowest(legal)] == ct[0][g][tcards[0]]:  # following suit
        under = _under(ct, legal, best)
        if under:
            return _by_strength(ct, g, under, True)
        return _by_strength(ct, g, legal, False)
    be, bs, out = 0, 0, -1
    m = legal
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        e = (unseen & lower[c]).bit_count() - (hand & lower[c]).bit_count()
        s = ct[1][g][c]
        if out < 0 or e > be or (e == be and s > bs):
            be, bs, out = e, s, c
    return out


def _under(ct, cards, best):
    """The cards of ``cards`` that do not beat ``best`` in null."""
    under = 0
    m = cards
    while m:
        c = (m & -m).bit_length() - 1
        m &= m - 1
        if not _beats(ct, NULL, c, best):
            under |= 1 << c
    return under


def _null_defender(tb, legal, unseen, tseats, tcards, n, declarer, voids, open_hand):
    """Lead low in the declarer's suits; with him still to play keep the trick low; once
    he has played, stay under his card and shed high cards."""
    ct, esm = tb[CT], tb[ESM]
    g = NULL
    decl_cards = _possible(esm, g, declarer, unseen, voids, declarer, open_hand)
    if not n:
        if open_hand:  # a card the declarer's open suit cannot go under, lowest first
            for st in range(1, 9):
                m = legal
                while m:
                    c = (m & -m).bit_length() - 1
                    m &= m - 1
                    if ct[1][g][c] == st:
                        suit_cards = decl_cards & esm[g][ct[0][g][c]]
                        if suit_cards and not suit_cards & ct[3][g][c]:
                            return c
        held = 0
        m = legal
        while m:
            c = (m & -m).bit_length() - 1
            m &= m - 1
            if decl_cards & esm[g][ct[0][g][c]]:
                held |= 1 << c
        return _by_strength(ct, g, held if held else legal, False)
    seat, best = _winning(ct, g, tseats, tcards, n)
    led_suit = ct[0][g][tcards[0]]
    following = ct[0][g][lowest(legal)] == led_suit
    played = False
    for i in range(n):
        played = played or tseats[i] == declarer
    if played:
        if seat == declarer and following:
            under = _under(ct, legal, best)
            if under:
                return _by_strength(ct, g, under, True)
        return _by_strength(ct, g, legal, True)
    follow_cards = decl_cards & esm[g][led_suit]
    if open_hand and follow_cards:  # leave the declarer a card to stay under
        for st in range(8, 0, -1):
            m = legal
            while m:
                c = (m & -m).bit_length() - 1
                m &= m - 1
                if ct[1][g][c] == st:
                    top = c if _beats(ct, g, c, best) else best
                    if not follow_cards & ct[3][g][top]:
                        return c
    return _by_strength(ct, g, legal, not following)


# --- one decision from a row of fields ---------------------------------------------------------
# the fields of a row (int64 each): see heuristic_batched.rows for how the batch fills them
(ROW_PHASE, ROW_POSITION, ROW_HAND, ROW_SKAT, ROW_DISCARDED, ROW_PLAYED, ROW_OPEN, ROW_BID,
 ROW_DECLARER, ROW_VOIDS, ROW_GAME, ROW_HAND_GAME, ROW_LEADER, ROW_TRICK, _, _, ROW_LEGAL,
 ROW_LOW_BID, ROW_HOLD, ROW_CONTRACTS) = range(20)  # fmt: skip
ROW_SIZE = 20


def decide_row(tb, prm, margin, r):
    """The move for the fields of one row ``r`` (``ROW_*``), -1 when there is none."""
    phase, hand, bid, legal = r[ROW_PHASE], r[ROW_HAND], r[ROW_BID], r[ROW_LEGAL]
    forehand = int(r[ROW_POSITION] == 0)
    if phase == PLAY:
        unseen = FULL_DECK & ~(hand | r[ROW_SKAT] | r[ROW_DISCARDED] | r[ROW_PLAYED] | r[ROW_OPEN])
        leader = r[ROW_LEADER]
        seats = (leader, (leader + 1) % 3, (leader + 2) % 3)
        cards = (r[ROW_TRICK + seats[0]], r[ROW_TRICK + seats[1]], r[ROW_TRICK + seats[2]])
        n = 0
        while leader >= 0 and n < 3 and cards[n] >= 0:
            n += 1
        v = r[ROW_VOIDS]
        voids = (v & 31, v >> 5 & 31, v >> 10 & 31)
        return play(tb, r[ROW_GAME], hand, legal, unseen, seats, cards, n, r[ROW_DECLARER],
                     voids, r[ROW_OPEN])  # fmt: skip
    if phase == BIDDING:
        limit = estimate(tb, prm, hand, forehand, margin)[1]
        return bid_move(tb[INTS], r[ROW_HOLD], r[ROW_LOW_BID], bid, limit)
    if phase == SKAT:
        _, _, is_hand, _, pickup, strong = estimate(tb, prm, hand, forehand, margin)
        return skat_move(is_hand, pickup, strong, bid)
    if phase == DISCARD:
        pair = plan_pickup(tb, prm, hand | r[ROW_DISCARDED], bid, forehand)[1]
        return discard_move(tb[PTS], pair, hand, legal)
    if phase == DECLARE:
        return declaration(tb, prm, hand, r[ROW_DISCARDED], bid, forehand, r[ROW_HAND_GAME],
                            r[ROW_CONTRACTS])  # fmt: skip
    return -1


def decide_rows(tb, prm, margin, rows, out):
    """:func:`decide_row` for every row of ``rows`` into ``out``."""
    for b in range(len(rows)):
        out[b] = decide_row(tb, prm, margin, rows[b])
