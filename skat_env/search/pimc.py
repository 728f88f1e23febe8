"""Perfect-information Monte Carlo (PIMC): decide from sampled worlds solved double dummy.

For a card-play decision, :func:`card_values` draws worlds consistent with the player's view
(:mod:`skat_env.search.worlds`), solves every legal card in each world with the double-dummy
solver and averages a *utility* that tracks the real score: the declarer's Seeger-Fabian
result minus the defenders' (``score + 50`` won, ``score - 50 - 80`` lost), computed by
:func:`skat_env.core.scoring.score_game` from the world's twelve declarer cards (matadors),
the bid (overbid rule) and the final card points. The declarer maximises the mean, the
defenders minimise it.

Early in the play exact card points cost too much (a trick-1 search visits about a million
nodes), so the solver answers threshold questions instead: "does this card still reach 61?"
(90 with schneider announced); when every card answers the same, the next threshold (90
above, 31 below) separates them. The card points are then known to a band (<31, 31-60,
61-89, 90+) and scored at a point inside it. Each such search stops after
``SearchConfig.max_nodes`` nodes: the few cards that would cost more (their value lies close
to the threshold, the search times are heavy-tailed) are scored halfway between the two
bands; the table is cleared first so that the answers depend on the position alone. With
few tricks left the exact points are cheap and used (the band's utility plus a small
tie-break per card point), each world's search starting from the previous world's value.

:func:`contract_outcomes` solves a declarer's contract from the first lead in each world:
the bidding, skat, discard and declaration decisions of ``agents/pimc.py`` use it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..core.cards import FULL_DECK, cards_of
from ..core.scoring import Contract, score_game, seeger_fabian
from ..core.tables import NULL, points_of
from ..encoding.view import PlayerView
from .solver import Position, Solver
from .worlds import Weigher, World, WorldSampler, sample_worlds

#: a tie-break: (view, the near-tied cards) -> the card to play among them (None: no choice)
TieBreak = Callable[[PlayerView, list[int]], "int | None"]

BANDS = (31, 61, 90)  # card-point thresholds: schneider avoided, won, schneider made
BAND_POINTS = (20, 45, 75, 100)  # points at which a band (0..3 thresholds reached) is scored
SECOND_PASS_TRICKS = 7  # ask a second threshold with at most this many tricks left
CLOSE_SLIP = 0.2  # share of the win/loss swing a close world moves (see _world_values)
TIE_WINDOW = 1.0  # utility points within which cards are near-ties (go to the tie-break)
POINT_TIE_BREAK = 0.1  # utility per card point with exact values (tie-break within a band)
MAX_NODES = 20_000  # node limit of a threshold search (about 5-10 ms on one core)


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How much a PIMC card decision may search.

    ``worlds``: most worlds per decision; ``budget``: expected seconds per decision: fewer
    worlds where :data:`WORLD_COST` says a world costs more (at least one), a count fixed
    by the position, so a seed gives the same moves;
    ``cap``: wall-clock safety cap in seconds, no new world after it (only a pathologically
    slow search reaches it; the moves then depend on speed; None: none);
    ``exact_tricks``: exact card points once at most this many tricks remain; ``max_nodes``:
    node limit of each threshold search (None: none); ``close``: card points around the win
    threshold within which a world counts as close (:func:`world_values`; 0: off).
    Worlds are uniform unless :func:`card_values` is given a weigher.
    """

    worlds: int = 32
    budget: float = 0.4
    cap: float | None = None
    exact_tricks: int = 5
    max_nodes: int | None = MAX_NODES
    close: int = 0

    def __post_init__(self) -> None:
        if self.worlds < 1:
            raise ValueError(f"worlds must be >= 1, got {self.worlds}")
        if self.max_nodes is not None and self.max_nodes < 1:
            raise ValueError(f"max_nodes must be >= 1 or None, got {self.max_nodes}")
        if self.cap is not None and not self.cap > 0:
            raise ValueError(f"cap must be > 0 seconds or None, got {self.cap}")
        if self.budget < 0:
            raise ValueError(f"budget must be >= 0 seconds, got {self.budget}")
        if not 0 <= self.close <= 30:
            raise ValueError(f"close must be 0..30 card points, got {self.close}")

    def counts_exact(self, view: PlayerView) -> bool:
        """Whether a decision at ``view`` counts exact card points (else threshold bands)."""
        return 10 - view.trick_number <= self.exact_tricks


# Mean seconds to solve one world (every legal card, threshold 61, node-limited) by game
# family and trick (1..3; later tricks cost milliseconds), measured on the true deals of 60
# heuristic games (`python benchmarks/bench_pimc.py --world-cost 60 --clock wall`,
# "capped") on one core of a loaded machine (load about 6 on 2 cores; CPU time is several
# times lower); null: the previous solver's figures (no null game among them).
WORLD_COST = {
    "suit": (0.107, 0.064, 0.02),
    "grand": (0.077, 0.059, 0.014),
    "null": (0.02, 0.005, 0.002),
}
LATE_COST = 0.005


def worlds_for(view: PlayerView, config: SearchConfig) -> int:
    """Worlds to solve for a card decision: as many as the budget pays for, at least one
    (the node limit bounds a world's cost), at most ``config.worlds``."""
    assert view.contract is not None  # a card decision: the play phase has a contract
    game = view.contract.game
    family = "null" if game == NULL else "grand" if game == 4 else "suit"
    trick = sum(view.tricks)
    cost = WORLD_COST[family][trick] if trick < 3 else LATE_COST
    return max(1, min(config.worlds, int(config.budget / cost)))


def utility(contract: Contract, bid: int, twelve: int, points: int, tricks: int = -1) -> float:
    """Declarer's Seeger-Fabian points minus the defenders' for a game that ends with the
    declarer at ``points`` card points (incl. skat) and ``tricks`` tricks (-1: neither
    none nor all); null: ``points`` 1 means the declarer took no trick."""
    if contract.game == NULL:
        dt = 0 if points else 1
        out = score_game(contract, bid, twelve, 0, dt, 0, 1 - dt, False)
    else:
        t = tricks if tricks >= 0 else (10 if points == 120 else 0 if points == 0 else 5)
        out = score_game(contract, bid, twelve, points, t, 120 - points, 10 - t, False)
    decl, each = seeger_fabian(out.score, out.won)
    return float(decl - 2 * each)


def _band_utilities(contract: Contract, bid: int, twelve: int) -> tuple[float, ...]:
    return tuple(utility(contract, bid, twelve, p) for p in BAND_POINTS)


def position_of(view: PlayerView, world: World) -> Position:
    """The solver position of ``world`` at the moment of ``view`` (play phase)."""
    d = view.declarer
    taken = sum(view.points)
    tricks = sum(view.tricks)
    assert view.contract is not None  # the play phase has a contract
    game = view.contract.game
    skat_points = points_of(world.skat) if game != NULL else 0
    return Position(
        game=game,
        declarer=d,
        hands=world.hands,
        leader=view.trick_leader,
        trick=tuple(c for _, c in view.trick),
        declarer_points=view.points[d] + skat_points,
        defender_points=taken - view.points[d],
        declarer_tricks=view.tricks[d],
        defender_tricks=tricks - view.tricks[d],
    )


def world_values(
    view: PlayerView,
    world: World,
    solver: Solver,
    exact: bool,
    max_nodes: int | None = None,
    guess: int | None = None,
    close: int = 0,
) -> dict[int, float]:
    """Utility of each legal card in one world (exact card points or threshold bands; see
    the module doc for ``max_nodes``; ``guess``: expected exact points, the search's first
    probe; ``close``: see :class:`SearchConfig`)."""
    return _world_values(view, world, solver, exact, max_nodes, guess, close)[0]


def _world_values(
    view: PlayerView,
    world: World,
    solver: Solver,
    exact: bool,
    max_nodes: int | None,
    guess: int | None,
    close: int,
) -> tuple[dict[int, float], int | None]:
    """(:func:`world_values`, the exact points of the first card: the next world's guess).

    ``close`` > 0 (before the exact phase): when every card wins (or every card loses) this
    world for the declarer, a second question asks which cards leave him within ``close``
    card points of the threshold; a close world moves ``CLOSE_SLIP`` of the win/loss swing towards
    the other outcome (players who cannot see the cards may still turn it): the declarer
    prefers the safe line where he wins anyway and, like a defender, keeps a lost game close."""
    c, d = view.contract, view.declarer
    assert c is not None  # the play phase has a contract
    twelve = world.hands[d] | view.played[d] | world.skat
    pos = position_of(view, world)
    if c.game == NULL:
        made, failed = utility(c, view.bid, twelve, 1), utility(c, view.bid, twelve, 0)
        vals = solver.best_moves(pos, max_nodes=max_nodes)
        return {
            k: (made + failed) / 2 if v is None else (made if v else failed)
            for k, v in vals.items()
        }, None
    if exact:
        vals = solver.best_moves(pos, guess=guess)
        out = {k: utility(c, view.bid, twelve, p) + POINT_TIE_BREAK * p for k, p in vals.items()}
        return out, next(iter(vals.values()))
    bands = _band_utilities(c, view.bid, twelve)
    key = 2 if c.schneider else 1
    first = solver.best_moves(pos, BANDS[key], max_nodes=max_nodes)
    level = {k: key + (0.5 if r is None else r) for k, r in first.items()}  # thresholds reached
    outcomes = set(first.values())
    alike = len(outcomes) == 1 and None not in outcomes
    if alike and 10 - sum(view.tricks) <= SECOND_PASS_TRICKS:
        nxt = key + 1 if 1 in outcomes else key - 1
        if 0 <= nxt < len(BANDS):
            answers = solver.best_moves(pos, BANDS[nxt], max_nodes=max_nodes)
            level = {k: nxt + (0.5 if r is None else r) for k, r in answers.items()}
    values = {k: _band_utility(bands, lv) for k, lv in level.items()}
    if close and alike:
        made = 1 in outcomes
        target = BANDS[key] + close if made else BANDS[key] - close
        near = solver.best_moves(pos, target, max_nodes=max_nodes)
        # 1: close (made below the target, or failed at or above it); None: unsettled
        swing = CLOSE_SLIP * (bands[key + 1] - bands[key]) * (-1 if made else 1)
        for k, r in near.items():
            values[k] += swing * (0.5 if r is None else float(r != made))
    return values, None


def first_choice(choose: Callable[[PlayerView], int]) -> TieBreak:
    """A tie-break that plays ``choose``'s card when it is among the near-ties."""
    return lambda view, top: choose(view)


def _band_utility(bands: tuple[float, ...], level: float) -> float:
    """Utility of a band (thresholds reached); a half level lies between two bands."""
    low = int(level)
    return bands[low] if level == low else (bands[low] + bands[low + 1]) / 2


def card_values(
    view: PlayerView,
    rng: np.random.Generator,
    config: SearchConfig,
    solver: Solver,
    weigher: Weigher | None = None,
) -> tuple[dict[int, float], int]:
    """(mean utility of each legal card over the sampled worlds, worlds solved). The worlds
    share the solver's table; with exact points each starts from the previous one's value.
    ``weigher`` (e.g. a defender's ``DeclarerInference``) weights the worlds; else uniform."""
    n = worlds_for(view, config)
    worlds = sample_worlds(view, n, rng, weigher)
    exact = config.counts_exact(view)
    limit = None if exact else config.max_nodes
    if limit is not None:
        solver.clear()  # node-limited answers must not depend on earlier decisions
    start = time.perf_counter()
    totals: dict[int, float] = {}
    weight = 0.0
    solved = 0
    guess = None
    for world, w in worlds:
        values, guess = _world_values(view, world, solver, exact, limit, guess, config.close)
        for k, v in values.items():
            totals[k] = totals.get(k, 0.0) + w * v
        weight += w
        solved += 1
        if config.cap is not None and time.perf_counter() - start > config.cap:
            break
    return {k: v / weight for k, v in totals.items()}, solved


def choose_card(
    view: PlayerView,
    rng: np.random.Generator,
    config: SearchConfig,
    solver: Solver,
    tie_break: TieBreak | None = None,
    weigher: Weigher | None = None,
    window: float = TIE_WINDOW,
) -> tuple[int, dict[int, float]]:
    """(the card with the best mean utility for the player to move, the mean utility of
    every card searched). The declarer takes the highest, a defender the lowest; near-ties
    (within ``window`` utility points of the best) go to ``tie_break``. A single legal card
    is played unsearched (no values)."""
    legal = cards_of(view.legal_mask & FULL_DECK)
    if len(legal) == 1:
        return legal[0], {}
    values, _ = card_values(view, rng, config, solver, weigher)
    return pick_card(view, values, tie_break, window), values


def pick_card(
    view: PlayerView,
    values: dict[int, float],
    tie_break: TieBreak | None = None,
    window: float = TIE_WINDOW,
) -> int:
    """The choice of :func:`choose_card` from the cards' mean utilities ``values``."""
    legal = cards_of(view.legal_mask & FULL_DECK)
    sign = 1.0 if view.is_declarer else -1.0
    best = max(sign * values[c] for c in legal)
    top = [c for c in legal if sign * values[c] >= best - window]
    if tie_break is not None and len(top) > 1:
        pick = tie_break(view, top)
        if pick in top:
            return pick
    return max(top, key=lambda c: (sign * values[c], -c))


# ----------------------------------------------------------------------------------------
# Contracts from the first lead
# ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """A contract solved in one world: whether the declarer wins (reaches 61, 90 with
    schneider announced; null: takes no trick: 1.0, else 0.0; 0.5 when the search ran past
    its node limit, a close game) and the value of his twelve cards."""

    won: float
    value: int
    weight: float


def contract_outcomes(
    contract: Contract,
    declarer: int,
    forehand: int,
    deals: Sequence[tuple[tuple[int, int, int], int, float]],
    solver: Solver,
    value_of: Callable[[int], int],
    deadline: float | None = None,
    max_nodes: int | None = MAX_NODES,
) -> list[Outcome]:
    """Solve ``contract`` from the first lead in each deal ``(hands, skat, weight)``:
    ``hands`` the ten cards each seat plays with, ``skat`` what counts for the declarer;
    ``value_of(twelve)`` is the contract's value over the declarer's twelve cards. Past
    ``deadline`` (a ``time.perf_counter()`` time) no further deal is started. Each search
    stops after ``max_nodes`` nodes (the table is cleared first, so that the outcomes depend
    on the deals alone)."""
    if max_nodes is not None:
        solver.clear()
    out = []
    target = BANDS[2] if contract.schneider else BANDS[1]
    for hands, skat, weight in deals:
        pos = Position(
            game=contract.game,
            declarer=declarer,
            hands=hands,
            leader=forehand,
            declarer_points=points_of(skat) if contract.game != NULL else 0,
        )
        if contract.game == NULL:
            won = solver.null_safe(pos, max_nodes=max_nodes)
        else:
            won = solver.reaches(pos, target, max_nodes=max_nodes)
        share = 0.5 if won is None else float(won)
        out.append(Outcome(share, value_of(hands[declarer] | skat), weight))
        if deadline is not None and time.perf_counter() > deadline:
            break
    return out


def takes_every_trick(
    contract: Contract,
    declarer: int,
    forehand: int,
    deals: Sequence[tuple[tuple[int, int, int], int, float]],
    solver: Solver,
) -> bool:
    """Whether the declarer takes every trick of ``contract`` (suit or grand) from the first
    lead in every deal ``(hands, skat, weight)``: the test for an ouvert declaration, where
    the defenders see his cards as the double-dummy defenders do. Stops at the first deal
    that fails."""
    for hands, _, _ in deals:
        pos = Position(game=contract.game, declarer=declarer, hands=hands, leader=forehand)
        if not solver.reaches_tricks(pos, 10, check=False):
            return False
    return bool(deals)


def expected_score(
    outcomes: Sequence[Outcome], contract: Contract, bid: int, slack: float = 0.0
) -> float:
    """Mean declarer list score plus Seeger-Fabian bonus/penalty (``+value+50`` won,
    ``-2 value - 50`` lost; a value below ``bid`` is lost at the overbid rule's value).
    ``slack``: the share of double-dummy losses counted as wins (real defenders do not
    see the declarer's cards)."""
    from ..core.tables import BASE_VALUES

    total = weight = 0.0
    for o in outcomes:
        sf: float
        if o.value < bid:
            base = o.value if contract.game == NULL else BASE_VALUES[contract.game]
            lost = -(-bid // base) * base
            sf = -2 * lost - 50
        else:
            won = o.won + (1.0 - o.won) * slack
            sf = won * (o.value + 50) - (1 - won) * (2 * o.value + 50)
        total += o.weight * sf
        weight += o.weight
    return total / weight if weight else 0.0


__all__ = [
    "BANDS",
    "Outcome",
    "SearchConfig",
    "TieBreak",
    "WorldSampler",
    "card_values",
    "choose_card",
    "pick_card",
    "world_values",
    "contract_outcomes",
    "first_choice",
    "expected_score",
    "position_of",
    "takes_every_trick",
    "utility",
    "worlds_for",
]
