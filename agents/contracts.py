"""Contract decisions from the learned contract model (:mod:`.contract_model`).

Every decision before the first card compares expected utilities (Seeger-Fabian points,
minus the defenders' bonus on a loss) that the model predicts for the declarer's variants:

Bidding
    The value of a ten-card hand at a bid is the best of (a) each hand game, with its
    announcements, averaged over ``skats`` sampled skats (they decide the matadors) and
    (b) picking up: per sampled skat the best pickup contract with its best discard, averaged.
    The overbid rule is priced in at each bid (a contract worth less than the bid loses).
    Bid or hold up to the highest value whose expected utility stays above ``margin``
    (``MARGIN``: it prices in that the maximum over many estimates is optimistic).
Skat
    A hand game when its expected utility at the bid beats picking up.
Discard
    All 66 pairs of the twelve cards, for each of the seven pickup contracts, scored by the
    model at the bid; the best (contract, pair) is put away.
Declaration
    After the pickup the best contract for the ten cards and the buried pair; in a hand game
    the best hand contract with its announcements (schneider, schwarz).

The agent :class:`LearnedContractsAgent` makes these decisions and leaves the card play to
another agent (the heuristic's by default): the spec ``learned`` (also ``heuristic:contracts=
learned``; its options are in :mod:`.specs`), and ``pimc:bidder=learned`` for the search
player's cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import combinations
from typing import Any, cast

import numpy as np

from skat_env.core.cards import FULL_DECK, cards_of
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT
from skat_env.core.moves import HAND, MOVE_INDEX, PICKUP
from skat_env.core.tables import BID_VALUES, GAME_NAMES
from skat_env.encoding.view import PlayerView

from . import heuristic as h
from .base import Agent, ViewAgent
from .contract_model import (
    BUNDLED,
    HAND_FEATURES,
    KINDS,
    N_FEATURES,
    NULL_KIND,
    NULL_OUVERT_KIND,
    ContractModel,
    expected_utility,
    load_default,
    matadors_of,
)

BIDS = np.array(BID_VALUES)
# the other two seats' highest bids in the finished auction, the higher first; None while
# the auction runs (the model's answer for any bids to come)
Opponents = tuple[int, int] | None
CACHE_SIZE = 20_000  # evaluations kept per decider
# bid while the expected utility beats passing by this much: +6.6 SF/game against the
# heuristic's contracts at 10, +6.7 at 25, +4.5 at 40, +3.9 at 0 (300 deals, docs/contracts.md)
MARGIN = 20.0
SKATS = 6  # skats sampled per bidding evaluation
PAIRS_12 = tuple(combinations(range(12), 2))  # the 66 discard pairs by position in 12 cards
# hand variants: (kind, schneider announced, schwarz announced)
HAND_VARIANTS = tuple(
    [(k, 0, 0) for k in range(KINDS)] + [(k, a, b) for k in range(5) for a, b in ((1, 0), (1, 1))]
)


def _declaration_name(kind: int, ann_schneider: int = 0, ann_schwarz: int = 0) -> str:
    if kind == NULL_OUVERT_KIND:
        return "null ouvert"
    name = GAME_NAMES[min(kind, 5)]
    return name + (" schwarz" if ann_schwarz else " schneider" if ann_schneider else "")


class ContractDecider:
    """The decisions of the module docstring for one model (pure functions of the cards,
    position and bid, cached)."""

    def __init__(self, model: ContractModel | None = None, skats: int = SKATS,
                 margin: float = MARGIN, seed: int = 0, nulls: bool = True,
                 auction: bool = True):  # fmt: skip
        self.model = model if model is not None else _default_model()
        self.skats = int(skats)
        self.margin = float(margin)
        self.seed = int(seed)
        self.nulls = bool(nulls)  # False: never null (the search defends null better than
        # the heuristic the model learned from)
        # False: decide as if the bids were not known (so too for a model without the
        # auction inputs, which would only evaluate every hand again after the auction)
        inputs = getattr(self.model, "n_inputs", N_FEATURES)
        self.auction = bool(auction) and inputs > HAND_FEATURES
        self._cache: dict[tuple, object] = {}

    def _opponents(self, view: PlayerView) -> Opponents:
        """The opponents' bids as the model sees them: known once the auction is over."""
        return opponents_bids(view) if self.auction and view.phase != BIDDING else None

    def _utility(self, p, kind, hand, mats, bid, ann_schneider=0, ann_schwarz=0) -> np.ndarray:
        """:func:`expected_utility`, null variants ruled out when ``nulls`` is off."""
        u = expected_utility(p, kind, hand, mats, bid, ann_schneider, ann_schwarz)
        return u if self.nulls else np.where(np.asarray(kind) >= NULL_KIND, -np.inf, u)

    def _keep(self, key: tuple, value: object) -> None:
        """Cache an evaluation (emptied past ``CACHE_SIZE`` entries: a long-lived agent)."""
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[key] = value

    # --- evaluations ---
    def sampled_skats(self, ten: int, position: int) -> np.ndarray:
        """``skats`` distinct skats from the cards outside ``ten`` (deterministic per hand)."""
        unseen = cards_of(FULL_DECK & ~ten)
        pairs = [(1 << unseen[a]) | (1 << unseen[b]) for a, b in combinations(range(22), 2)]
        rng = np.random.default_rng([self.seed, ten, position])
        pick = rng.choice(len(pairs), size=min(self.skats, len(pairs)), replace=False)
        return np.array([pairs[i] for i in sorted(pick)], dtype=np.int64)

    def pickup_rows(self, twelve: int, position: int, predict: bool = True,
                    opp: Opponents = None) -> tuple:  # fmt: skip
        """(kind, kept, buried[, probabilities]) of every pickup contract and discard pair
        (kind-major: the 66 pairs of kind 0, then of kind 1, ...)."""
        cards = cards_of(twelve)
        pairs = np.array([(1 << cards[a]) | (1 << cards[b]) for a, b in PAIRS_12], dtype=np.int64)
        kind = np.repeat(np.arange(KINDS), len(pairs))
        buried = np.tile(pairs, KINDS)
        kept = np.int64(twelve) & ~buried
        n = len(kind)
        if not predict:
            return kind, kept, buried
        p = self.model.predict(kept, buried, kind, np.zeros(n, np.int64), np.full(n, position),
                               opp)  # fmt: skip
        return kind, kept, buried, p

    def pickup_utility(self, twelve: int, position: int, bid: int,
                       opp: Opponents = None) -> tuple[float, int, int]:  # fmt: skip
        """(expected utility, kind, pair) of the best pickup contract and discard at ``bid``."""
        kind, kept, buried, p = self.pickup_rows(twelve, position, opp=opp)
        mats = matadors_of(kind, np.full(len(kind), twelve, dtype=np.int64))
        u = self._utility(p, kind, np.zeros(len(kind), np.int64), mats, bid)
        i = int(np.argmax(u))
        return float(u[i]), int(kind[i]), int(buried[i])

    def pickup_curve(self, ten: int, position: int, opp: Opponents = None) -> np.ndarray:
        """Expected utility of picking up at every bid (mean over sampled skats of the best
        contract; per skat and contract the discard is the best one at bid 18)."""
        key = ("pickup", ten, position, opp)
        if key not in self._cache:
            skats = self.sampled_skats(ten, position)
            k, npairs = len(skats), len(PAIRS_12)
            rows = [self.pickup_rows(ten | int(s), position, predict=False) for s in skats]
            kind, kept, buried = (np.concatenate([r[i] for r in rows]) for i in range(3))
            hand = np.zeros(len(kind), np.int64)
            p = self.model.predict(kept, buried, kind, hand, np.full(len(kind), position), opp)
            per_skat = matadors_of(np.tile(np.arange(KINDS), k), np.repeat(ten | skats, KINDS))
            mats = np.repeat(per_skat, npairs)  # the same twelve cards for every pair
            u18 = self._utility(p, kind, hand, mats, 18).reshape(k * KINDS, npairs)
            best = np.argmax(u18, axis=1) + np.arange(k * KINDS) * npairs  # row per (skat, kind)
            rows_b = np.repeat(best, len(BIDS))
            bids = np.tile(BIDS, k * KINDS)
            u = self._utility(p[rows_b], kind[rows_b], hand[rows_b], mats[rows_b], bids)
            self._keep(key, u.reshape(k, KINDS, len(BIDS)).max(axis=1).mean(axis=0))
        return cast(np.ndarray, self._cache[key])

    def hand_table(self, ten: int, position: int, opp: Opponents = None) -> np.ndarray:
        """(len(HAND_VARIANTS), len(BIDS)) expected utility of each hand variant at each bid
        (matadors averaged over the sampled skats)."""
        key = ("hand", ten, position, opp)
        if key not in self._cache:
            kinds = np.array([v[0] for v in HAND_VARIANTS])
            n = len(kinds)
            p = self.model.predict(np.full(n, ten, np.int64), np.zeros(n, np.int64), kinds,
                                   np.ones(n, np.int64), np.full(n, position), opp)  # fmt: skip
            sn = np.array([v[1] for v in HAND_VARIANTS])
            sw = np.array([v[2] for v in HAND_VARIANTS])
            skats = self.sampled_skats(ten, position)
            k = len(skats)
            rows = np.tile(np.repeat(np.arange(n), len(BIDS)), k)
            bids = np.tile(BIDS, n * k)
            mats = matadors_of(np.tile(kinds, k), np.repeat(np.int64(ten) | skats, n))
            mats = np.repeat(mats, len(BIDS))
            u = self._utility(p[rows], kinds[rows], np.ones(len(rows), np.int64), mats, bids,
                                 sn[rows], sw[rows])  # fmt: skip
            self._keep(key, u.reshape(k, n, len(BIDS)).mean(axis=0))
        return cast(np.ndarray, self._cache[key])

    def value_curve(self, ten: int, position: int, opp: Opponents = None) -> np.ndarray:
        """Expected utility of winning the auction at every bid (best of hand and pickup)."""
        hand = self.hand_table(ten, position, opp).max(axis=0)
        return np.maximum(hand, self.pickup_curve(ten, position, opp))

    # --- decisions ---
    def bid_limit(self, ten: int, position: int, opp: Opponents = None) -> int:
        """The highest bid up to which every bid keeps the expected utility above the margin
        (0: pass at once), the opponents having bid ``opp`` so far."""
        good = self.value_curve(ten, position, opp) > self.margin
        n = len(good) if good.all() else int(np.argmin(good))
        return int(BIDS[n - 1]) if n else 0

    def plays_hand(self, ten: int, position: int, bid: int, opp: Opponents = None) -> bool:
        i = _bid_index(bid)
        hand = self.hand_table(ten, position, opp)[:, i].max()
        return bool(hand > self.pickup_curve(ten, position, opp)[i])

    def discard_plan(self, twelve: int, position: int, bid: int,
                     opp: Opponents = None) -> tuple[int, int]:  # fmt: skip
        """(kind, pair) of the best pickup contract and discard for twelve cards."""
        key = ("discard", twelve, position, bid, opp)
        if key not in self._cache:
            self._keep(key, self.pickup_utility(twelve, position, bid, opp)[1:])
        return cast("tuple[int, int]", self._cache[key])

    def declaration(self, view: PlayerView) -> int:
        """The best legal declaration move for the declarer's view."""
        legal, position, opp = view.legal_mask, view.position, self._opponents(view)
        if view.hand_game:
            table = self.hand_table(view.hand, position, opp)[:, _bid_index(view.bid)]
            order = np.argsort(-table, kind="stable")
            names = [_declaration_name(*HAND_VARIANTS[i]) for i in order]
        else:
            kinds = np.arange(KINDS)
            n = KINDS
            p = self.model.predict(np.full(n, view.hand, np.int64), np.full(n, view.discarded),
                                   kinds, np.zeros(n, np.int64), np.full(n, position),
                                   opp)  # fmt: skip
            mats = matadors_of(kinds, np.full(n, view.hand | view.discarded, np.int64))
            u = self._utility(p, kinds, np.zeros(n, np.int64), mats, view.bid)
            names = [_declaration_name(int(k)) for k in np.argsort(-u, kind="stable")]
        for name in names:
            if legal >> MOVE_INDEX[name] & 1:
                return MOVE_INDEX[name]
        return h.choose_declaration(view, legal, position == 0)

    def act_view(self, view: PlayerView) -> int:
        """A legal move for any phase but card play."""
        phase, opp = view.phase, self._opponents(view)
        if phase == BIDDING:
            return h.choose_bid(view, self.bid_limit(view.hand, view.position, opp))
        if phase == SKAT:
            return HAND if self.plays_hand(view.hand, view.position, view.bid, opp) else PICKUP
        if phase == DISCARD:
            _, pair = self.discard_plan(view.hand | view.discarded, view.position, view.bid, opp)
            todo = pair & view.hand & view.legal_mask
            return (todo & -todo).bit_length() - 1 if todo else h.cheapest_discard(view)
        if phase == DECLARE:
            return self.declaration(view)
        raise ValueError(f"contract decisions asked to act in phase {phase}")


def opponents_bids(view: PlayerView, seat: int | None = None) -> tuple[int, int]:
    """The highest value each seat but ``seat`` (default: the viewer) bid or held, the
    higher first."""
    seat = view.seat if seat is None else seat
    a, b = (view.bids[s] for s in range(3) if s != seat)
    return (a, b) if a >= b else (b, a)


def _bid_index(bid: int) -> int:
    """Index of the bid in the ladder (0 for no bid: forehand's 18 is the least)."""
    return max(0, int(np.searchsorted(BIDS, bid)))


@lru_cache(maxsize=1)
def _default_model() -> ContractModel:
    return load_default()


class LearnedContractsAgent(ViewAgent):
    """Learned contract decisions, another agent's card play (default: the heuristic's)."""

    def __init__(self, decider: ContractDecider | None = None, card_player: Agent | None = None,
                 name: str = "learned"):  # fmt: skip
        self.decider = decider or ContractDecider()
        self.card_player = card_player or h.HeuristicAgent()
        self.name = name

    def reset(self, seed: int | None = None) -> None:
        self.card_player.reset(seed)

    def act_view(self, view: PlayerView) -> int:
        if view.phase == PLAY:
            if isinstance(self.card_player, ViewAgent):
                return self.card_player.act_view(view)
            from skat_env.encoding.observation import observation_of

            return int(self.card_player.act(observation_of(view)))
        return self.decider.act_view(view)


def learned_agent(values: Mapping[str, Any], name: str = "learned") -> LearnedContractsAgent:
    """The agent of a parsed ``learned`` spec (its typed option values: :mod:`.specs`)."""
    v = values
    named = v["model"] == "heuristic"  # the default model, loaded once per process
    model = None if named else ContractModel.load(BUNDLED.get(v["model"], v["model"]))
    decider = ContractDecider(model, v["skats"], v["margin"], nulls=v["nulls"],
                              auction=v["auction"])  # fmt: skip
    return LearnedContractsAgent(decider, name=name)


__all__ = ["HAND_VARIANTS", "ContractDecider", "LearnedContractsAgent", "learned_agent"]
