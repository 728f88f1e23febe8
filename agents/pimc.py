"""``pimc``: a search player, perfect-information Monte Carlo over the double-dummy solver.

Every decision samples worlds (deals of the unseen cards consistent with the seat's view:
:mod:`skat_env.search.worlds`; a defender's weighted by how likely the declaration makes
them from trick 2: :mod:`skat_env.search.inference`) and solves them with
:mod:`skat_env.search.solver`. Its options are the ``pimc`` rows of the spec table
(:mod:`.specs`, docs/agents.md). By default the decisions before the card play are the
learned ones (``bidder=[learned:model=search,margin=5]``,
:mod:`skat_env.agents.contracts` with the contract model fine-tuned on the search player's
own games; the first model: +6.2 and +6.7 SF/game over the search's own in the two
line-ups, ``pimc:fast`` cards in every seat, 200 deals, docs/contracts.md); ``bidder=search``
makes the search decide them as below. By phase:

Card play
    :func:`skat_env.search.pimc.choose_card`: each legal card in each world, valued by the
    score it leads to (see that module); near-ties go to the heuristic's card.
Bidding
    Hands the heuristic finds hopeless even with its thresholds lowered by 2 pass unsolved.
    Otherwise, for each contract the ten cards could support (suits with 4+ trumps, grand
    with 2+ jacks or 1 jack and 3 aces, null when two discards leave a nearly safe hand),
    ``bid_worlds`` worlds: take the skat, discard as the heuristic would for that contract,
    solve from the first lead. The bid limit is the highest value whose expected Seeger-Fabian score
    (value x win chance, the overbid rule applied per world) stays above ``BID_MARGIN``.
Skat
    A hand game when its expected score at the bid beats picking up (only contracts that win
    in at least ``HAND_MIN_WINS`` of the pickup worlds are tried as hand games).
Discard and declaration
    The heuristic's two best discard pairs per candidate contract, each solved in the same
    worlds; the (contract, pair) with the best expected score at the bid is played.

Each phase's evaluation is a pure function of what it looks at (own cards, position, bid)
and the agent's seed, so a seed and an observation give one move. Time per phase is bounded
by the world counts (see ``benchmarks/bench_pimc.py`` for measured times).
"""

from __future__ import annotations

import copy
import functools
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, SupportsInt, cast

import numpy as np

from skat_env.core.cards import cards_of
from skat_env.core.game import BIDDING, DECLARE, DISCARD, PLAY, SKAT
from skat_env.core.moves import HAND, MOVE_INDEX, PICKUP, declared_contract
from skat_env.core.scoring import Contract
from skat_env.core.tables import (
    BID_VALUES,
    EFFECTIVE_SUIT_MASK,
    GAME_NAMES,
    GRAND,
    JACKS,
    NULL,
    TRUMP,
)
from skat_env.encoding.observation import observation_of
from skat_env.encoding.view import PlayerView
from skat_env.integrations.numpy_policy import NumpyPolicy
from skat_env.search import pimc as search
from skat_env.search.inference import DeclarerInference, Scorer
from skat_env.search.solver import Solver
from skat_env.search.worlds import WorldSampler, hand_game_value

from . import heuristic as h
from .base import Agent, ViewAgent
from .contracts import learned_agent, opponents_bids
from .ppo import BUNDLED_MODEL
from .specs import KINDS, parse_spec

BID_MARGIN = 10.0  # bid only while the expected score beats passing by this much
HAND_MIN_WINS = 0.7  # pickup win rate from which a hand game is worth trying
PAIRS_PER_GAME = 2  # discard pairs solved per candidate contract
GATE_MARGIN = -2.0  # heuristic threshold shift below which a hand is not solved at all
SLACK = 0.25  # share of double-dummy losses counted as wins in the contract decisions
# worlds in which an ouvert hand must take every trick: an ouvert pays one multiplier level
# more than schwarz announced, losing it costs some 35 times that, so it must hold in about
# 97% of the deals; one failure in 256 worlds is likely above 1.2% (95% chance)
OUVERT_WORLDS = 256
# close worlds (SearchConfig.close) for the declarer: +0.6 [-0.1, +1.3] and +0.8 [+0.1, +1.5]
# SF/game over none (docs/search.md); the defenders' search has none
DECLARER_CLOSE = 10
# the defenders weight worlds by the declaration (dinfer) once this many tricks are complete:
# from the first lead it lost -3.4 [-6.6, -0.4] points of defence wins against the heuristic
WEIGH_FROM = 1
DEFENCE_TEMPERATURE = 20.0  # soft-max temperature of the declarer's choice (SF points)
# the declarer's cards within this many utility points of the best (suit and grand) are
# near-ties that go to the bundled PPO network's favourite while the search still asks
# threshold questions (docs/search.md); once it counts exact points, the heuristic's
# conventions break its ties (the network loses an expert position there: drawing the last
# trump for schneider)
NETWORK_WINDOW = 8.0
# that network: the search plays with it, so when a newer ``ppo`` ships, point this at the
# dated file that keeps it (tests pin its digest)
TIE_NETWORK = BUNDLED_MODEL
_D = KINDS["pimc"].defaults()  # the spec table holds each option's default


@dataclass(frozen=True)
class PimcOptions:
    """Search sizes and switches: the ``pimc`` options of the spec table
    (:mod:`skat_env.agents.specs`, ``docs/agents.md``; :func:`options_of`)."""

    worlds: int = _D["worlds"]
    budget: float = _D["seconds"]  # card play: expected seconds per decision (``seconds=``)
    bid_worlds: int = _D["bid_worlds"]
    play_only: bool = _D["play_only"]  # heuristic bidding, skat, discard and declaration
    # defenders weight worlds by how likely the declarer's cards make his declaration
    # (skat_env.search.inference, the learned contract model as scorer), from trick 2
    # (WEIGH_FROM): +0.2, +1.9 [+0.2, +3.6] and +1.7 [-0.2, +3.5] points of defence wins
    # against the heuristic, pimc:fast and ppo declarers (benchmarks/bench_defence.py)
    defence_inference: bool = _D["dinfer"]
    # the agent spec of the bidding, skat, discard and declaration decisions while the
    # search plays the cards ("" : the search decides them too; play_only: the heuristic);
    # margin 5: +1.3 [-0.1, +2.8] SF/game over the learned default 20 with the search's cards
    bidder: str = _D["bidder"]
    # wall-clock cap per contract decision (bidding, skat, discard): no new world or contract
    # is solved past it; None: no cap (fully deterministic). Trick-1 searches of close
    # contracts can take seconds each, so the cap is a wall-clock one.
    cap: float | None = _D["cap"]
    # a suit or grand hand game becomes ouvert when the declarer takes every trick in each
    # of OUVERT_WORLDS sampled worlds (``ouvert=0``: never)
    ouvert: bool = _D["ouvert"]

    def __post_init__(self) -> None:
        if self.bid_worlds < 1:
            raise ValueError(f"bid_worlds must be >= 1, got {self.bid_worlds}")
        self.card_config()  # validates the search settings

    def card_config(self, declarer: bool = True) -> search.SearchConfig:
        """The card-play search of the declarer's or a defender's seat (its wall-clock cap
        five budgets, at least a second, and none when the contract decisions have none)."""
        cap = None if self.cap is None else max(1.0, 5 * self.budget)
        close = DECLARER_CLOSE if declarer else 0
        return search.SearchConfig(worlds=self.worlds, budget=self.budget, cap=cap, close=close)


def options_of(values: Mapping[str, Any]) -> PimcOptions:
    """The options of a parsed ``pimc`` spec (its values by option name)."""
    bidder = str(values["bidder"])
    return PimcOptions(
        worlds=values["worlds"], budget=values["seconds"], bid_worlds=values["bid_worlds"],
        play_only=values["play_only"], defence_inference=values["dinfer"],
        bidder="" if bidder == "search" else bidder, cap=values["cap"], ouvert=values["ouvert"],
    )  # fmt: skip


def parse_options(arg: str) -> PimcOptions:
    """The options of the spec ``pimc:ARG`` (``AgentSpecError`` for a bad one)."""
    return options_of(parse_spec(f"pimc:{arg}" if arg else "pimc").values)


@functools.cache
def contract_scorer(opponents: tuple[int, int] | None = None) -> Scorer:
    """The defenders' inference scorer: the declarer's expected utility of an option by the
    shipped learned contract model (its matadors over the cards he plays with and buries;
    announcements not priced), his opponents (the defenders) having bid ``opponents``
    (None: not known)."""
    from .contract_model import expected_utility, load_default, matadors_of

    model = load_default()

    def score(kept, buried, kind, hand, position, bid):
        p = model.predict(kept, buried, kind, hand, position, opponents)
        return expected_utility(p, kind, hand, matadors_of(kind, kept | buried), bid)

    return score


@functools.cache
def _network() -> NumpyPolicy:
    """The policy of :data:`TIE_NETWORK` (loaded once per process)."""
    return NumpyPolicy.load(TIE_NETWORK)


def network_favourite(view: PlayerView, top: list[int]) -> int:
    """The card of ``top`` to which the bundled ``ppo`` network gives the highest logit: the
    double-dummy values cannot tell near-tied cards apart, while the network learned which
    line wins against defenders who do not see the cards."""
    obs = observation_of(view)["observation"]
    logits = _network().logits(np.asarray(obs, np.float32)[None])[0]
    return max(top, key=lambda c: (logits[c], -c))


def _key_rng(seed: int, *key: str | SupportsInt) -> np.random.Generator:
    """A generator that depends only on the seed and ``key`` (not on call history)."""
    plain = tuple(k if isinstance(k, str) else int(k) for k in key)
    return np.random.default_rng([seed & 0xFFFFFFFF, zlib.crc32(repr(plain).encode())])


def view_key(view: PlayerView) -> tuple[int, ...]:
    """Every fact of a view as plain ints (the decoded observation and the engine's view
    give the same key, whatever integer types they hold)."""
    c = view.contract
    contract = (-1,) if c is None else (c.game, c.hand, c.schneider, c.schwarz, c.ouvert)
    flat = [view.seat, view.position, view.dealer, view.phase, view.to_act, view.hand]
    flat += [view.bid, *view.bids, view.passed, view.declarer, *contract, view.hand_game]
    flat += [view.skat, view.discarded, view.open_hand, *view.played, view.trick_leader]
    flat += [x for pair in view.trick for x in pair]
    flat += [*view.voids, *view.points, *view.tricks, view.legal_mask]
    return tuple(int(x) for x in flat)


def candidate_games(cards: int, forehand: bool) -> list[int]:
    """Contracts worth solving for a hand (ten or twelve cards)."""
    out = []
    trumps = sorted(range(4), key=lambda g: -(cards & EFFECTIVE_SUIT_MASK[g][TRUMP]).bit_count())
    for g in trumps[:2]:
        if (cards & EFFECTIVE_SUIT_MASK[g][TRUMP]).bit_count() >= 4 + (cards.bit_count() > 10):
            out.append(g)
    jacks = (cards & JACKS).bit_count()
    aces = sum(cards >> (8 * s) & 1 for s in range(4))
    if jacks >= 2 and jacks + aces >= 4 or jacks >= 1 and aces >= 3:
        out.append(GRAND)
    ten = cards if cards.bit_count() == 10 else 0
    if ten and h.null_after_discard(ten) <= 1 or not ten and _null_discard(cards)[1] <= 1:
        out.append(NULL)
    return out


def _null_discard(twelve: int) -> tuple[int, int]:
    """(pair, danger left) of the safest null discard."""
    best = min(
        (h.null_danger(twelve & ~((1 << a) | (1 << b))), (1 << a) | (1 << b))
        for a, b in combinations(cards_of(twelve), 2)
    )
    return best[1], best[0]


def best_pairs(game: int, twelve: int, bid: int, forehand: bool, n: int) -> list[int]:
    """The heuristic's ``n`` best discard pairs for ``game`` (by its contract score)."""
    pairs = [(1 << a) | (1 << b) for a, b in combinations(cards_of(twelve), 2)]
    key: dict[int, float]
    if game == NULL:
        key = {p: -h.null_danger(twelve & ~p) for p in pairs}
    else:
        key = {p: h.contract_score(game, twelve & ~p, p, bid, forehand) for p in pairs}
    return sorted(pairs, key=lambda p: (-key[p], p))[:n]


class PimcAgent(ViewAgent):
    """The PIMC player of the module docstring."""

    def __init__(self, seed: int | None = None, options: PimcOptions | None = None, name: str = "",
                 bidder: Agent | None = None):  # fmt: skip
        """``bidder``: the agent that ``options.bidder`` names (the registry builds it; a
        ``learned`` one is built here when not given)."""
        self.options = options or PimcOptions()
        self.name = name or "pimc"
        self.seed = 0 if seed is None else int(seed)
        self.solver = Solver()
        self._cache: dict[tuple, object] = {}
        self._deadline: float | None = None
        self.bidder = self._make_bidder(bidder)

    def _make_bidder(self, bidder: Agent | None) -> Agent | None:
        """The agent of the non-card-play decisions, or None when the search makes them."""
        if self.options.play_only:
            return h.HeuristicAgent()
        if bidder is not None or not self.options.bidder:
            return bidder
        spec = parse_spec(self.options.bidder)
        if spec.kind.name != "learned":  # the default needs no registry
            raise ValueError(f"bidder={self.options.bidder} needs its agent: build the player "
                             "with make_agent, or pass bidder=")  # fmt: skip
        return learned_agent(spec.values)

    def __deepcopy__(self, memo: dict) -> PimcAgent:
        """A copy that shares the solver: its table is a cache of exact bounds (the moves do
        not depend on what it holds) and takes tens of MB; tournaments copy agents per game."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            new.__dict__[key] = value if key == "solver" else copy.deepcopy(value, memo)
        return new

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)
        self._cache.clear()
        if self.bidder is not None:
            self.bidder.reset(seed)

    # --- phases ---
    def act_view(self, view: PlayerView) -> int:
        if view.phase == PLAY:
            return self.play_card(view)
        move = self._contract_move(view)
        if view.phase == DECLARE and self.options.ouvert:
            return self.open_if_sure(view, move)
        return move

    def _contract_move(self, view: PlayerView) -> int:
        """The bidder's move (the search's own with ``bidder=search``) before the card play."""
        phase = view.phase
        if self.bidder is not None:
            if isinstance(self.bidder, ViewAgent):
                return self.bidder.act_view(view)
            return int(self.bidder.act(observation_of(view)))
        if phase == BIDDING:
            return h.choose_bid(view, self.bid_limit(view))
        if phase == SKAT:
            return HAND if self.hand_plan(view) is not None else PICKUP
        if phase == DISCARD:
            _, pair = self.discard_plan(view)
            todo = pair & view.hand & view.legal_mask
            return (todo & -todo).bit_length() - 1 if todo else h.cheapest_discard(view)
        if phase == DECLARE:
            return self.declaration(view)
        raise ValueError(f"pimc agent asked to act in phase {phase} (nothing to decide)")

    def open_if_sure(self, view: PlayerView, move: int) -> int:
        """``move``, or its game ouvert when it is a suit or grand hand game the declarer wins
        with every trick in each of ``OUVERT_WORLDS`` sampled worlds, played double dummy: the
        defenders see his open cards there as they do in an ouvert game (and each other's too,
        which only makes the test stricter)."""
        c = declared_contract(move, view.hand_game)
        if not view.hand_game or c.game == NULL or c.ouvert:
            return move
        ouvert = MOVE_INDEX[f"{GAME_NAMES[c.game]} ouvert"]
        if not view.legal_mask >> ouvert & 1:
            return move
        rng = _key_rng(self.seed, "ouvert", view.hand, view.position, c.game)
        worlds = WorldSampler(view).sample(rng, OUVERT_WORLDS)
        deals = [(w.hands, w.skat, 1.0) for w in worlds]
        forehand = (view.dealer + 1) % 3
        sure = search.takes_every_trick(c, view.seat, forehand, deals, self.solver)
        return ouvert if sure else move

    def play_card(self, view: PlayerView) -> int:
        """The search's card; near-ties go to the network's favourite (the declarer of a
        suit game or grand before the exact phase, within ``NETWORK_WINDOW``) or to the
        heuristic's card."""
        rng = _key_rng(self.seed, "play", *view_key(view))
        assert view.contract is not None  # the play phase has a contract
        config = self.options.card_config(view.is_declarer)
        by_network = (
            view.is_declarer and view.contract.game != NULL and not config.counts_exact(view)
        )
        card, _ = search.choose_card(
            view,
            rng,
            config,
            self.solver,
            tie_break=network_favourite if by_network else search.first_choice(h.choose_card),
            weigher=self._weigher(view),
            window=NETWORK_WINDOW if by_network else search.TIE_WINDOW,
        )
        return card

    def _weigher(self, view: PlayerView) -> DeclarerInference | None:
        """A defender's world weighting by the declaration (``dinfer``); None for the
        declarer, before trick ``WEIGH_FROM`` + 1, or when it is off."""
        if view.is_declarer or sum(view.tricks) < WEIGH_FROM:
            return None
        if not self.options.defence_inference:
            return None
        scorer = contract_scorer(opponents_bids(view, view.declarer))
        return DeclarerInference(view, scorer, DEFENCE_TEMPERATURE)

    # --- contract evaluation ---
    def _deals(self, view: PlayerView, tag: str, key: tuple) -> list:
        """``bid_worlds`` uniform worlds of a pre-play view, from a key-derived generator."""
        rng = _key_rng(self.seed, tag, *key)
        sampler = WorldSampler(view)
        return sampler.sample(rng, self.options.bid_worlds)

    def _pickup_outcomes(self, view: PlayerView, game: int, worlds: list, bid: int) -> list:
        """Solve ``game`` after pickup in each world: the heuristic's discard, first lead."""
        me, forehand = view.seat, (view.dealer + 1) % 3
        c = Contract(game)
        deals = []
        for w in worlds:
            twelve = view.hand | w.skat
            pair = best_pairs(game, twelve, bid, view.position == 0, 1)[0]
            hands = list(w.hands)
            hands[me] = twelve & ~pair
            deals.append((tuple(hands), pair, 1.0))
        return search.contract_outcomes(
            c, me, forehand, deals, self.solver, lambda t: hand_game_value(c, t), self._deadline
        )

    def _hand_outcomes(self, view: PlayerView, game: int, worlds: list) -> list:
        me, forehand = view.seat, (view.dealer + 1) % 3
        c = Contract(game, hand=True)
        deals = [(w.hands, w.skat, 1.0) for w in worlds]
        return search.contract_outcomes(
            c, me, forehand, deals, self.solver, lambda t: hand_game_value(c, t), self._deadline
        )

    def _score(self, outs: list, contract: Contract, bid: int) -> float:
        return search.expected_score(outs, contract, bid, SLACK)

    def _start_clock(self) -> None:
        cap = self.options.cap
        self._deadline = None if cap is None else time.perf_counter() + cap

    def _late(self) -> bool:
        return self._deadline is not None and time.perf_counter() > self._deadline

    def bid_limit(self, view: PlayerView) -> int:
        """Highest bid whose best pickup contract keeps the expected score above the margin
        (hands the heuristic finds hopeless even at ``GATE_MARGIN`` are passed unsolved)."""
        key = ("bid", view.hand, view.position)
        if key not in self._cache:
            limit = 0
            hopeless = not h.estimate(view.hand, view.position == 0, GATE_MARGIN).value
            worlds = [] if hopeless else self._deals(view, *key[:1], key[1:])
            self._start_clock()
            for g in candidate_games(view.hand, view.position == 0) if worlds else []:
                if self._late():
                    break
                outs = self._pickup_outcomes(view, g, worlds, 0)
                for value in BID_VALUES:
                    if self._score(outs, Contract(g), value) <= BID_MARGIN:
                        break
                    limit = max(limit, value)
            self._cache[key] = limit
        return cast(int, self._cache[key])

    def hand_plan(self, view: PlayerView) -> Contract | None:
        """The hand game to play, or None to pick up the skat."""
        key = ("skat", view.hand, view.position, view.bid)
        if key not in self._cache:
            worlds = self._deals(view, *key[:1], key[1:])
            best_pickup, best_hand, plan = -np.inf, -np.inf, None
            self._start_clock()
            for g in candidate_games(view.hand, view.position == 0):
                if self._late():
                    break
                outs = self._pickup_outcomes(view, g, worlds, view.bid)
                best_pickup = max(best_pickup, self._score(outs, Contract(g), view.bid))
                if sum(o.won for o in outs) < HAND_MIN_WINS * len(outs):
                    continue
                hand_outs = self._hand_outcomes(view, g, worlds)
                c = Contract(g, hand=True)
                score = self._score(hand_outs, c, view.bid)
                if score > best_hand:
                    best_hand, plan = score, c
            self._cache[key] = plan if best_hand > best_pickup else None
        return cast("Contract | None", self._cache[key])

    def discard_plan(self, view: PlayerView) -> tuple[int, int]:
        """(game, discard pair) with the best expected score for the twelve cards."""
        twelve = view.hand | view.discarded
        forehand = view.position == 0
        key = ("discard", twelve, view.position, view.bid)
        if key not in self._cache:
            worlds = self._deals(view, *key[:1], key[1:])  # same worlds before and after
            # the first discard: they depend only on the unseen cards
            best = (-np.inf, GRAND, 0)
            games = candidate_games(twelve, forehand) or [
                h.plan_pickup(twelve, view.bid, forehand)[0]
            ]
            self._start_clock()
            for g in games:
                c = Contract(g)
                for pair in best_pairs(g, twelve, view.bid, forehand, PAIRS_PER_GAME):
                    if self._late() and best[2]:
                        break
                    deals = []
                    for w in worlds:
                        hands = list(w.hands)
                        hands[view.seat] = twelve & ~pair
                        deals.append((tuple(hands), pair, 1.0))
                    outs = search.contract_outcomes(
                        c, view.seat, (view.dealer + 1) % 3, deals, self.solver,
                        functools.partial(hand_game_value, c), self._deadline,
                    )  # fmt: skip
                    score = self._score(outs, c, view.bid)
                    if score > best[0]:
                        best = (score, g, pair)
            self._cache[key] = best[1:]
        return cast("tuple[int, int]", self._cache[key])

    def declaration(self, view: PlayerView) -> int:
        legal = view.legal_mask
        if view.hand_game:
            plan = self.hand_plan(_as_skat_phase(view))
            name = GAME_NAMES[plan.game] if plan is not None else None
        else:
            game, pair = self.discard_plan(view)
            name = GAME_NAMES[game] if pair == view.discarded else None
        if name is not None and legal >> MOVE_INDEX[name] & 1:
            return MOVE_INDEX[name]
        return h.choose_declaration(view, legal, view.position == 0)


def _as_skat_phase(view: PlayerView) -> PlayerView:
    """A hand-game declarer's view as it was at the skat decision (same cards, same key)."""
    return replace(view, phase=SKAT, hand_game=False)


__all__ = [
    "PimcAgent", "PimcOptions", "candidate_games", "options_of", "parse_options", "view_key",
]  # fmt: skip
