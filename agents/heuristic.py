"""``heuristic``: a rule-based Skat player, deciding only from its own :class:`PlayerView`.

Rules, by phase (all card logic uses the core tables: ``EFFECTIVE_SUIT_MASK``, ``STRENGTH``,
``TRUMP_ORDER`` via ``matadors``, ``points_of``, ``beats``, and the legal set of the mask):

Hand evaluation (:func:`estimate`, ten cards, skat unknown)
    * Suit game: strength = trumps + 0.5 per jack + side aces + 0.5 per side ten guarded by
      its ace + 0.5 per void (with 5+ trumps). Playable with 5+ trumps (4 with a very strong
      hand) and strength >= 7; a hand game with 6+ trumps and strength >= 9.5.
    * Grand: 1.5 per jack + 0.5 for the club jack + aces + 0.5 per ten with its ace + 1 per
      long (4+ cards) suit headed by ace and ten + 0.5 as forehand (who leads). Playable
      with two jacks and strength >= 7; hand with strength >= 9.
    * Null: a card is unsafe when, within its suit, more unseen cards lie below it than own
      cards do (the ``7 9 J K`` pattern is just safe). No unsafe card: null ouvert hand
      (59). Unsafe cards that two discards remove: null after pickup (23).
    * Game value = base value x (matadors + 1 (+1 hand)), matadors from the ten cards.
Bidding
    Bid (or hold) up to the estimate's value, never beyond it; pass when nothing is
    playable. ``margin`` shifts every threshold (negative: a bolder bidder).
Skat
    Hand game only when the estimate is a hand game (a strong hand) and either the bid needs
    the hand level or the hand is a point stronger than a hand game needs.
Discard and contract choice (twelve cards)
    For every contract, every pair of discards: keep trumps, make short suits void, bury
    points safely (a ten without its ace scores both as buried points and as a void);
    null discards the most dangerous cards. Each (contract, discards) gets an expected
    Seeger-Fabian score from its value (exact matadors over twelve cards) and a win
    chance from its strength margin; a value below the bid counts as a certain loss.
    The declaration after the discard recomputes the same scores, so it matches the plan.
Card play, suit and grand
    Declarer: lead the top trump while the defenders hold trumps, or a low trump when
    holding more trumps than they do; then cash sure side winners (top cards the defenders
    cannot ruff); then lead low from the shortest side suit.
    Defenders: cash sure side winners the declarer cannot ruff; lead into the partner's
    void; with the declarer playing next lead the longest side suit ("lead through the
    declarer"), with the declarer last the shortest; never lead a suit the declarer has
    shown void in while he may hold trumps; do not lead tens away from the ace.
    Following (both sides): take the trick with a winner no later opponent can beat,
    choosing the one that gains most points and loses least future strength; when the
    partner's card is safe, "schmieren": add the most points (tens before sure aces);
    otherwise play the cheapest card (fewest points, no trumps or sure winners).
Card play, null
    Declarer: duck under the best card with the highest card that stays below; when void,
    discard the most dangerous card; lead the card with fewest unseen cards below it.
    Defenders: lead low in suits the declarer still holds (in null ouvert: a card the
    declarer's open suit cannot go under); with the declarer still to play keep the
    trick's best card low; once the declarer has played, stay under his card and shed
    high cards.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from skat_env.core.cards import CARD_POINTS, FULL_DECK, cards_of
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT
from skat_env.core.moves import CARD_MOVES, FIRST_BID, HAND, HOLD, MOVE_INDEX, PASS, PICKUP
from skat_env.core.scoring import matadors
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
    points_of,
)
from skat_env.core.tricks import beats
from skat_env.encoding.view import PlayerView

from .base import ViewAgent

# --- thresholds (strength units, see the module docstring) ---
SUIT_PLAYABLE, SUIT_HAND = 7.0, 9.5
GRAND_PLAYABLE, GRAND_HAND = 7.0, 9.0
FINAL_SUIT, FINAL_GRAND = 7.5, 7.5  # after the skat (ten final cards + buried points)
SF_WIN, SF_LOSS, SF_DEFENCE = 50, 50, 80  # Seeger-Fabian bonus, penalty, both defenders' 40
# the thresholds in the order the batched kernel (heuristic_batched) takes them
THRESHOLDS = (SUIT_PLAYABLE, SUIT_HAND, GRAND_PLAYABLE, GRAND_HAND, FINAL_SUIT, FINAL_GRAND,
              SF_WIN, SF_LOSS, SF_DEFENCE)  # fmt: skip

CJ = JACK_ORDER[0]
NULL_OUVERT_HAND = NULL_VALUES[(True, True)]
NULL_OUVERT = NULL_VALUES[(False, True)]
NULL_PICKUP = NULL_VALUES[(False, False)]


# ----------------------------------------------------------------------------------------
# Hand evaluation
# ----------------------------------------------------------------------------------------


def suit_strength(hand: int, game: int) -> tuple[float, int]:
    """(strength, trump count) of a hand for suit game ``game`` (0..3)."""
    masks = EFFECTIVE_SUIT_MASK[game]
    t = (hand & masks[TRUMP]).bit_count()
    s = t + 0.5 * (hand & JACKS).bit_count()
    voids = 0
    for suit in range(4):
        if suit == game:
            continue
        if not hand & masks[suit]:
            voids += 1
            continue
        ace = hand >> (suit * 8) & 1
        s += ace + 0.5 * (ace & hand >> (suit * 8 + 4))
    if t >= 5:
        s += 0.5 * voids
    return s, t


def grand_strength(hand: int, forehand: bool) -> tuple[float, int]:
    """(strength, jack count) of a hand for grand."""
    j = (hand & JACKS).bit_count()
    s = 1.5 * j + 0.5 * (hand >> CJ & 1) + 0.5 * forehand
    masks = EFFECTIVE_SUIT_MASK[GRAND]
    for suit in range(4):
        ace = hand >> (suit * 8) & 1
        if not ace:
            continue
        ten = hand >> (suit * 8 + 4) & 1
        s += 1 + 0.5 * ten
        if ten and (hand & masks[suit]).bit_count() >= 4:
            s += 1.0
    return s, j


@lru_cache(maxsize=1 << 14)
def null_danger(hand: int, unseen: int = -1) -> int:
    """How unsafe a null hand is: per card, how many more cards of ``unseen`` (default: all
    cards not in hand) lie below it in its suit than own cards do, summed over unsafe cards."""
    if unseen < 0:
        unseen = FULL_DECK & ~hand
    lower = LOWER[NULL]
    d = 0
    for c in cards_of(hand):
        excess = (unseen & lower[c]).bit_count() - (hand & lower[c]).bit_count()
        if excess > 0:
            d += excess
    return d


@dataclass(frozen=True)
class Estimate:
    """The best contract a hand supports: the bidding limit and the skat decision."""

    game: int  # game kind, -1 when nothing is playable
    value: int  # estimated game value = the highest bid to make (0: pass)
    hand: bool  # the value needs a hand game
    ouvert: bool = False  # null ouvert
    pickup_value: int = 0  # the best value playable after picking up the skat
    strong: bool = False  # a point above the hand-game threshold


@lru_cache(maxsize=1 << 14)
def estimate(hand: int, forehand: bool = False, margin: float = 0.0) -> Estimate:
    """The best contract of a ten-card hand and its value (see the module docstring)."""
    options: list[tuple[int, int, bool, bool, bool]] = []  # value, game, hand, ouvert, strong
    for g in range(4):
        s, t = suit_strength(hand, g)
        if not (t >= 5 or (t >= 4 and s >= 8.5)):
            continue
        m = abs(matadors(g, hand))
        if t >= 6 and s >= SUIT_HAND + margin:
            options.append((BASE_VALUES[g] * (m + 2), g, True, False, s >= SUIT_HAND + 1 + margin))
        if s >= SUIT_PLAYABLE + margin:
            options.append((BASE_VALUES[g] * (m + 1), g, False, False, False))
    s, j = grand_strength(hand, forehand)
    if j >= 2 or s >= 8.5 + margin:
        m = abs(matadors(GRAND, hand))
        if s >= GRAND_HAND + margin:
            strong = s >= GRAND_HAND + 1 + margin
            options.append((BASE_VALUES[GRAND] * (m + 2), GRAND, True, False, strong))
        if s >= GRAND_PLAYABLE + margin:
            options.append((BASE_VALUES[GRAND] * (m + 1), GRAND, False, False, False))
    if null_danger(hand) == 0:
        options.append((NULL_OUVERT_HAND, NULL, True, True, False))
        options.append((NULL_OUVERT, NULL, False, True, False))
    elif margin <= 0 and null_after_discard(hand) == 0:
        options.append((NULL_PICKUP, NULL, False, False, False))
    if not options:
        return Estimate(-1, 0, False)
    value, game, is_hand, ouvert, strong = max(options)
    pickup = max((o[0] for o in options if not o[2]), default=0)
    return Estimate(game, value, is_hand, ouvert, pickup, strong)


def null_after_discard(hand: int) -> int:
    """Null danger left after discarding the two worst cards of a hand."""
    return min(
        null_danger(hand & ~(1 << a) & ~(1 << b)) for a, b in combinations(cards_of(hand), 2)
    )


# ----------------------------------------------------------------------------------------
# Discard and contract choice
# ----------------------------------------------------------------------------------------


def _expected_score(value: int, margin: float, bid: int) -> float:
    """Expected Seeger-Fabian score of declaring a contract (a rough win chance from the
    strength margin); an overbid contract is a certain loss, ranked below all others."""
    if value < bid:
        return -10_000.0 + margin
    p = 1.0 / (1.0 + math.exp(-(1.2 * margin + 1.0)))
    return p * (value + SF_WIN) - (1 - p) * (2 * value + SF_LOSS + SF_DEFENCE)


def contract_score(game: int, hand: int, buried: int, bid: int, forehand: bool) -> float:
    """Expected score of declaring ``game`` with ten cards ``hand`` after burying ``buried``."""
    if game == NULL:
        d = null_danger(hand, FULL_DECK & ~hand & ~buried)
        if d == 0 and bid <= NULL_OUVERT:
            return _expected_score(NULL_OUVERT, 0.8, bid)
        return _expected_score(NULL_PICKUP, 1.0 - 1.5 * d, bid)
    bonus = points_of(buried) / 20
    if game == GRAND:
        s, j = grand_strength(hand, forehand)
        margin = s + bonus - FINAL_GRAND - 1.5 * (j < 2)
    else:
        s, t = suit_strength(hand, game)
        margin = s + bonus - FINAL_SUIT - max(0, 5 - t)
    value = BASE_VALUES[game] * (abs(matadors(game, hand | buried)) + 1)
    return _expected_score(value, margin, bid)


@lru_cache(maxsize=4096)
def plan_pickup(cards: int, bid: int, forehand: bool) -> tuple[int, int]:
    """(game kind, discard pair as a card set) for the declarer's twelve cards."""
    best = (-math.inf, -1, 0)
    ids = cards_of(cards)
    pairs = [(1 << a) | (1 << b) for a, b in combinations(ids, 2)]
    for g in range(6):
        if g < NULL:
            trumps = EFFECTIVE_SUIT_MASK[g][TRUMP]
            side = cards & ~trumps
            pool = [p for p in pairs if not p & trumps] if side.bit_count() >= 2 else pairs
        else:
            pool = pairs
        for pair in pool:
            score = contract_score(g, cards & ~pair, pair, bid, forehand)
            if score > best[0]:
                best = (score, g, pair)
    return best[1], best[2]


def choose_declaration(view: PlayerView, legal: int, forehand: bool) -> int:
    """The declaration move: after pickup the best-scoring contract for the final ten cards,
    in a hand game the estimate's contract."""
    if view.hand_game:
        est = estimate(view.hand, forehand)
        if est.game == NULL:
            name = "null ouvert" if est.ouvert else "null"
        elif est.game >= 0:
            name = GAME_NAMES[est.game]
        else:  # forced hand game without a plan: the strongest suit
            name = GAME_NAMES[max(range(4), key=lambda g: suit_strength(view.hand, g))]
        move = MOVE_INDEX[name]
        return move if legal >> move & 1 else _lowest(legal)
    scores = []
    for g in range(6):
        score = contract_score(g, view.hand, view.discarded, view.bid, forehand)
        scores.append((score, g))
    score, g = max(scores)
    if g == NULL:
        ouvert = null_danger(view.hand, FULL_DECK & ~view.hand & ~view.discarded) == 0
        name = "null ouvert" if ouvert and view.bid <= NULL_OUVERT else "null"
    else:
        name = GAME_NAMES[g]
    move = MOVE_INDEX[name]
    return move if legal >> move & 1 else _lowest(legal & ~(1 << MOVE_INDEX["null"]))


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


# ----------------------------------------------------------------------------------------
# Card play
# ----------------------------------------------------------------------------------------


class _Table:
    """What the player to act knows about the cards, derived once per move."""

    __slots__ = (
        "g", "me", "hand", "legal", "unseen", "trick", "declarer", "partner",
        "voids", "open_hand", "trumps",
    )  # fmt: skip

    def __init__(self, view: PlayerView):
        g = view.contract.game
        self.g = g
        self.me = view.seat
        self.hand = view.hand
        self.legal = view.legal_mask & CARD_MOVES
        played = view.played[0] | view.played[1] | view.played[2]
        known = view.hand | played | view.skat | view.discarded | view.open_hand
        self.unseen = FULL_DECK & ~known
        self.trick = view.trick
        self.declarer = view.declarer
        self.partner = -1 if view.is_declarer else 3 - view.seat - view.declarer
        self.voids = view.voids
        self.open_hand = view.open_hand
        self.trumps = EFFECTIVE_SUIT_MASK[g][TRUMP]

    def possible(self, seat: int) -> int:
        """Cards ``seat`` may hold (exact for an open declarer's hand)."""
        if self.open_hand and seat == self.declarer:
            return self.open_hand
        m = self.unseen
        v = self.voids[seat]
        masks = EFFECTIVE_SUIT_MASK[self.g]
        for s in range(5):
            if v >> s & 1:
                m &= ~masks[s]
        return m

    def is_top(self, card: int, against: int | None = None) -> bool:
        """No card of ``against`` (default: every unseen card) ranks above ``card``."""
        against = self.unseen if against is None else against
        return not HIGHER[self.g][card] & against

    def safe(self, card: int, opponents: list[int]) -> bool:
        """Whether none of ``opponents`` (still to play) can beat ``card``."""
        g = self.g
        suit = EFFECTIVE_SUIT[g][card]
        for o in opponents:
            poss = self.possible(o)
            if HIGHER[g][card] & poss:
                return False
            if suit != TRUMP and poss & self.trumps and g != NULL:
                if self.voids[o] >> suit & 1 or not poss & EFFECTIVE_SUIT_MASK[g][suit]:
                    return False
        return True

    def future(self, card: int) -> float:
        """How much strength a card keeps for later tricks (cost of spending it now)."""
        g = self.g
        if EFFECTIVE_SUIT[g][card] == TRUMP:
            return 6 + 1.5 * (STRENGTH[g][card] - 100)
        if self.is_top(card):
            return 0.8 * CARD_POINTS[card] + 3
        return 0.0

    def winning(self) -> tuple[int, int]:
        """(seat, card) currently winning the trick."""
        seat, best = self.trick[0]
        for s, c in self.trick[1:]:
            if beats(self.g, c, best):
                seat, best = s, c
        return seat, best

    def opponents_after(self) -> list[int]:
        after = [(self.me + i) % 3 for i in range(1, 3 - len(self.trick))]
        if self.declarer == self.me:
            return after
        return [s for s in after if s == self.declarer]


def _cheapest(t: _Table, cards: list[int]) -> int:
    """The card that costs least: few points, no trumps or sure winners; shed singletons."""

    def cost(c: int) -> float:
        single = not (t.hand & ~(1 << c) & EFFECTIVE_SUIT_MASK[t.g][EFFECTIVE_SUIT[t.g][c]])
        bonus = 1.0 if single and EFFECTIVE_SUIT[t.g][c] != TRUMP and t.hand & t.trumps else 0.0
        return CARD_POINTS[c] + t.future(c) - bonus + STRENGTH[t.g][c] * 0.01

    return min(cards, key=cost)


def _best_winner(t: _Table, cards: list[int]) -> int:
    """The winner that gains most points for least future strength."""
    return max(cards, key=lambda c: (CARD_POINTS[c] - t.future(c), -STRENGTH[t.g][c]))


def _smear(t: _Table, cards: list[int]) -> int:
    """Schmieren: give the partner's safe trick the most points (tens before sure aces)."""
    return max(cards, key=lambda c: (CARD_POINTS[c] - 0.5 * t.future(c), -STRENGTH[t.g][c]))


def _follow(t: _Table) -> int:
    legal = cards_of(t.legal)
    seat, best = t.winning()
    after = t.opponents_after()
    winners = [c for c in legal if beats(t.g, c, best)]
    safe = [c for c in winners if t.safe(c, after)]
    if seat == t.partner:
        if t.safe(best, after):
            return _smear(t, legal)
        return _best_winner(t, safe) if safe else _cheapest(t, legal)
    if safe:
        return _best_winner(t, safe)
    return _cheapest(t, legal)


def _side_cards(t: _Table) -> int:
    return t.hand & ~t.trumps


def _declarer_lead(t: _Table) -> int:
    g, hand = t.g, t.hand
    mine = hand & t.trumps
    theirs = t.unseen & t.trumps
    if mine and theirs:
        top = max(cards_of(mine), key=lambda c: STRENGTH[g][c])
        if t.is_top(top):
            return top
        if mine.bit_count() > theirs.bit_count():
            return min(cards_of(mine), key=lambda c: (CARD_POINTS[c], STRENGTH[g][c]))
    defenders = [s for s in range(3) if s != t.me]
    sure = [c for c in cards_of(_side_cards(t)) if t.is_top(c) and t.safe(c, defenders)]
    if sure:
        return max(sure, key=lambda c: CARD_POINTS[c])
    if mine and theirs and mine.bit_count() >= 2:
        return min(cards_of(mine), key=lambda c: (CARD_POINTS[c], STRENGTH[g][c]))
    return _low_from_suit(t, shortest=True) if _side_cards(t) else _cheapest(t, cards_of(hand))


def _low_from_suit(t: _Table, shortest: bool, exclude: int = 0) -> int:
    """Lowest card of the shortest (or longest) side suit; tens are never led away."""
    g, hand = t.g, t.hand
    suits = [s for s in range(4) if hand & EFFECTIVE_SUIT_MASK[g][s] and not exclude >> s & 1]
    if not suits:
        suits = [s for s in range(4) if hand & EFFECTIVE_SUIT_MASK[g][s]]
    sign = 1 if shortest else -1

    def suit_key(s: int) -> tuple:
        cards = hand & EFFECTIVE_SUIT_MASK[g][s]
        has_bare_ten = cards >> (s * 8 + 4) & 1 and not cards >> (s * 8) & 1
        return (has_bare_ten, sign * cards.bit_count(), points_of(cards))

    suit = min(suits, key=suit_key)
    cards = cards_of(hand & EFFECTIVE_SUIT_MASK[g][suit])
    return min(cards, key=lambda c: (CARD_POINTS[c] >= 10, CARD_POINTS[c], STRENGTH[g][c]))


def _defender_lead(t: _Table) -> int:
    g = t.g
    decl = t.declarer
    decl_cards = t.possible(decl)
    decl_trumps = decl_cards & t.trumps
    ruffable = 0  # side suits the declarer may trump
    for s in range(4):
        if decl_trumps and (t.voids[decl] >> s & 1 or not decl_cards & EFFECTIVE_SUIT_MASK[g][s]):
            ruffable |= 1 << s
    side = cards_of(_side_cards(t))
    sure = [
        c
        for c in side
        if t.is_top(c, decl_cards)
        and not ruffable >> EFFECTIVE_SUIT[g][c] & 1
        and decl_cards & EFFECTIVE_SUIT_MASK[g][EFFECTIVE_SUIT[g][c]]
    ]
    if sure:
        return max(sure, key=lambda c: CARD_POINTS[c])
    partner_void = t.voids[t.partner] & ~ruffable & 15
    for s in range(4):
        cards = t.hand & EFFECTIVE_SUIT_MASK[g][s]
        if partner_void >> s & 1 and cards:
            return min(cards_of(cards), key=lambda c: (CARD_POINTS[c], STRENGTH[g][c]))
    if side:
        declarer_next = (t.me + 1) % 3 == decl
        return _low_from_suit(t, shortest=not declarer_next, exclude=ruffable)
    return min(cards_of(t.legal), key=lambda c: (CARD_POINTS[c], STRENGTH[g][c]))


def _null_declarer(t: _Table) -> int:
    legal = cards_of(t.legal)
    g = NULL
    if not t.trick:

        def lead_key(c: int) -> tuple:
            return ((t.unseen & LOWER[g][c]).bit_count(), -(t.unseen & HIGHER[g][c]).bit_count())

        return min(legal, key=lead_key)
    _, best = t.winning()
    led_suit = EFFECTIVE_SUIT[g][t.trick[0][1]]
    if EFFECTIVE_SUIT[g][legal[0]] == led_suit:  # following suit
        under = [c for c in legal if not beats(g, c, best)]
        if under:
            return max(under, key=lambda c: STRENGTH[g][c])
        return min(legal, key=lambda c: STRENGTH[g][c])
    return _null_discard(t, legal)


def _null_discard(t: _Table, legal: list[int]) -> int:
    """The declarer's most dangerous card: most unseen cards below it beyond own ones."""
    g = NULL

    def danger(c: int) -> tuple:
        excess = (t.unseen & LOWER[g][c]).bit_count() - (t.hand & LOWER[g][c]).bit_count()
        return (excess, STRENGTH[g][c])

    return max(legal, key=danger)


def _null_defender(t: _Table) -> int:
    g = NULL
    legal = cards_of(t.legal)
    decl = t.declarer
    decl_cards = t.possible(decl)
    if not t.trick:
        if t.open_hand:
            for c in sorted(legal, key=lambda c: STRENGTH[g][c]):
                suit_cards = decl_cards & EFFECTIVE_SUIT_MASK[g][EFFECTIVE_SUIT[g][c]]
                if suit_cards and not suit_cards & LOWER[g][c]:
                    return c
        held = [c for c in legal if decl_cards & EFFECTIVE_SUIT_MASK[g][EFFECTIVE_SUIT[g][c]]]
        return min(held or legal, key=lambda c: STRENGTH[g][c])
    seat, best = t.winning()
    led_suit = EFFECTIVE_SUIT[g][t.trick[0][1]]
    following = EFFECTIVE_SUIT[g][legal[0]] == led_suit
    if any(s == decl for s, _ in t.trick):  # the declarer has played
        if seat == decl and following:
            under = [c for c in legal if not beats(g, c, best)]
            if under:
                return max(under, key=lambda c: STRENGTH[g][c])
        return max(legal, key=lambda c: STRENGTH[g][c])
    # the declarer plays after me: leave him a low card to stay under
    follow_cards = decl_cards & EFFECTIVE_SUIT_MASK[g][led_suit]
    if t.open_hand and follow_cards:
        for c in sorted(legal, key=lambda c: -STRENGTH[g][c]):
            top = c if beats(g, c, best) else best
            if not follow_cards & LOWER[g][top]:
                return c
    if following:
        return min(legal, key=lambda c: STRENGTH[g][c])
    return max(legal, key=lambda c: STRENGTH[g][c])


def choose_card(view: PlayerView) -> int:
    """The card to play (see the module docstring)."""
    t = _Table(view)
    if not t.legal & (t.legal - 1):
        return _lowest(t.legal)
    if t.g == NULL:
        return _null_declarer(t) if view.is_declarer else _null_defender(t)
    if t.trick:
        return _follow(t)
    return _declarer_lead(t) if view.is_declarer else _defender_lead(t)


# ----------------------------------------------------------------------------------------
# The agent
# ----------------------------------------------------------------------------------------


def choose_bid(view: PlayerView, limit: int) -> int:
    """Bid or hold while the bid stays within ``limit``, else pass."""
    legal = view.legal_mask
    if legal >> HOLD & 1:
        return HOLD if view.bid <= limit else PASS
    bids = legal & (((1 << len(BID_VALUES)) - 1) << FIRST_BID)
    if bids:
        move = _lowest(bids)
        if BID_VALUES[move - FIRST_BID] <= limit:
            return move
    return PASS


class HeuristicAgent(ViewAgent):
    """The rule-based player of the module docstring. ``margin`` shifts every hand-strength
    threshold (negative: bolder bidding, positive: more cautious). :meth:`act_batch` makes
    the same moves for a whole batch at once (:mod:`.heuristic_batched`)."""

    deterministic = True  # moves from the observation alone: tournaments batch it

    def __init__(self, margin: float = 0.0):
        self.margin = float(margin)
        self.name = "heuristic" if margin == 0 else f"heuristic:margin={margin:g}"

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The moves of :meth:`act_view` for every row, decided in one compiled loop (row
        by row without numba)."""
        from .heuristic_batched import decide_batch

        return decide_batch(obs, masks, self.margin, THRESHOLDS, self.act)

    def bid_limit(self, view: PlayerView) -> int:
        """The highest bid this agent will make or hold with ``view``'s hand."""
        return estimate(view.hand, view.position == 0, self.margin).value

    def act_view(self, view: PlayerView) -> int:
        phase = view.phase
        if phase == PLAY:
            return choose_card(view)
        if phase == BIDDING:
            return choose_bid(view, self.bid_limit(view))
        forehand = view.position == 0
        if phase == SKAT:
            est = estimate(view.hand, forehand, self.margin)
            hand = est.hand and (view.bid > est.pickup_value or est.strong)
            return HAND if hand else PICKUP
        if phase == DISCARD:
            cards = view.hand | view.discarded
            _, pair = plan_pickup(cards, view.bid, forehand)
            todo = pair & view.hand & view.legal_mask
            return _lowest(todo) if todo else cheapest_discard(view)
        if phase == DECLARE:
            return choose_declaration(view, view.legal_mask, forehand)
        raise ValueError(f"heuristic agent asked to act in phase {phase}")


def cheapest_discard(view: PlayerView) -> int:
    """The legal card of fewest points (the discard when nothing better is planned)."""
    return min(cards_of(view.legal_mask & CARD_MOVES), key=lambda c: CARD_POINTS[c])


__all__ = [
    "Estimate",
    "HeuristicAgent",
    "choose_bid",
    "cheapest_discard",
    "choose_card",
    "estimate",
    "grand_strength",
    "null_after_discard",
    "null_danger",
    "plan_pickup",
    "suit_strength",
]
