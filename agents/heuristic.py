"""``heuristic``: a rule-based Skat player, deciding only from its own :class:`PlayerView`.

Rules, by phase (all card logic uses the core tables: ``EFFECTIVE_SUIT_MASK``, ``STRENGTH``,
``TRUMP_ORDER`` for matadors, ``CARD_POINTS``, ``HIGHER`` and ``LOWER``):

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

The rules are written once (:mod:`.heuristic_rules`), as plain functions over card sets in
the subset of Python that numba compiles. This player calls them as they are, one view at a
time (with caches for the hand evaluation and the discard plan); :mod:`.heuristic_batched`
compiles the same functions into one loop over a batch of observations, the fast path of
tournaments and training opponents.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from skat_env.core.cards import CARD_POINTS, FULL_DECK
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT
from skat_env.core.moves import CARD_MOVES, FIRST_BID, HOLD
from skat_env.core.tables import BID_VALUES
from skat_env.encoding.view import PlayerView

from . import heuristic_rules as rules
from .base import ViewAgent
from .heuristic_rules import PARAMS, TABLES


def suit_strength(hand: int, game: int) -> tuple[float, int]:
    """(strength, trump count) of a hand for suit game ``game`` (0..3)."""
    return rules.suit_strength(TABLES[rules.ESM], hand, game)


def grand_strength(hand: int, forehand: bool) -> tuple[float, int]:
    """(strength, jack count) of a hand for grand."""
    return rules.grand_strength(TABLES[rules.ESM], hand, forehand)


@lru_cache(maxsize=1 << 14)
def null_danger(hand: int, unseen: int = -1) -> int:
    """How unsafe a null hand is: per card, how many more cards of ``unseen`` (default: all
    cards not in hand) lie below it in its suit than own cards do, summed over unsafe cards."""
    return rules.null_danger(TABLES[rules.CT], hand, FULL_DECK & ~hand if unseen < 0 else unseen)


def null_after_discard(hand: int) -> int:
    """Null danger left after discarding the two worst cards of a hand."""
    return rules.null_after_discard(TABLES[rules.CT], hand)


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
    game, value, is_hand, ouvert, pickup, strong = rules.estimate(
        TABLES, PARAMS, hand, forehand, margin
    )
    return Estimate(game, value, bool(is_hand), bool(ouvert), pickup, bool(strong))


def contract_score(game: int, hand: int, buried: int, bid: int, forehand: bool) -> float:
    """Expected score of declaring ``game`` with ten cards ``hand`` after burying ``buried``."""
    return rules.contract_score(TABLES, PARAMS, game, hand, buried, bid, forehand)


@lru_cache(maxsize=4096)
def plan_pickup(cards: int, bid: int, forehand: bool) -> tuple[int, int]:
    """(game kind, discard pair as a card set) for the declarer's twelve cards."""
    return rules.plan_pickup(TABLES, PARAMS, cards, bid, forehand)


def choose_declaration(view: PlayerView, legal: int, forehand: bool) -> int:
    """The declaration move: after pickup the best-scoring contract for the final ten cards,
    in a hand game the estimate's contract (``legal``: the legal moves as bits)."""
    contracts = legal >> rules.FIRST_CONTRACT
    return rules.declaration(
        TABLES, PARAMS, view.hand, view.discarded, view.bid, forehand, view.hand_game, contracts
    )


def choose_bid(view: PlayerView, limit: int) -> int:
    """Bid or hold while the bid stays within ``limit``, else pass."""
    legal = view.legal_mask
    low_bid = rules.lowest(legal & (((1 << len(BID_VALUES)) - 1) << FIRST_BID))
    return rules.bid_move(TABLES[rules.INTS], legal >> HOLD & 1, low_bid, view.bid, limit)


def cheapest_discard(view: PlayerView) -> int:
    """The legal card of fewest points (the discard when nothing better is planned)."""
    return rules.discard_move(CARD_POINTS, 0, 0, view.legal_mask & CARD_MOVES)


def choose_card(view: PlayerView) -> int:
    """The card to play (see the module docstring); seats become relative to the player."""
    if view.contract is None:
        raise ValueError(f"choose_card needs a view in the play phase, got phase {view.phase}")
    me, trick, v = view.seat, view.trick, view.voids
    played = view.played[0] | view.played[1] | view.played[2]
    unseen = FULL_DECK & ~(view.hand | played | view.skat | view.discarded | view.open_hand)
    seats = tuple((s - me) % 3 for s, _ in trick)
    cards = tuple(c for _, c in trick)
    voids = (v[me], v[(me + 1) % 3], v[(me + 2) % 3])
    legal = view.legal_mask & CARD_MOVES
    declarer = (view.declarer - me) % 3
    g = view.contract.game
    return rules.play(TABLES, g, view.hand, legal, unseen, seats, cards, len(trick), declarer,
                      voids, view.open_hand)  # fmt: skip


class HeuristicAgent(ViewAgent):
    """The rule-based player of the module docstring. ``margin`` shifts every hand-strength
    threshold (negative: bolder bidding, positive: more cautious). :meth:`act_batch` makes
    the same moves for a whole batch at once (:mod:`.heuristic_batched`)."""

    deterministic = True  # moves from the observation alone: tournaments batch it

    def __init__(self, margin: float = 0.0):
        self.margin = float(margin)
        self.name = "heuristic" if margin == 0 else f"heuristic:margin={margin:g}"

    def act_batch(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The moves of :meth:`act_view` for every row, decided in one compiled loop (a
        Python loop without numba)."""
        from .heuristic_batched import decide_batch

        return decide_batch(obs, masks, self.margin)

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
            return rules.skat_move(est.hand, est.pickup_value, est.strong, view.bid)
        if phase == DISCARD:
            _, pair = plan_pickup(view.hand | view.discarded, view.bid, forehand)
            return rules.discard_move(CARD_POINTS, pair, view.hand, view.legal_mask & CARD_MOVES)
        if phase == DECLARE:
            return choose_declaration(view, view.legal_mask, forehand)
        raise ValueError(f"heuristic agent asked to act in phase {phase}")


__all__ = [
    "Estimate",
    "HeuristicAgent",
    "choose_bid",
    "cheapest_discard",
    "choose_card",
    "choose_declaration",
    "contract_score",
    "estimate",
    "grand_strength",
    "null_after_discard",
    "null_danger",
    "plan_pickup",
    "suit_strength",
]
