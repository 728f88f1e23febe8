"""Time per decision of an agent spec, by phase (default: the ``pimc`` agent and its cheap preset).

    python benchmarks/bench_pimc.py [--specs pimc pimc:fast] [--games 12] [--seed 0]
    python benchmarks/bench_pimc.py --accuracy 60 [--seed 0]
    python benchmarks/bench_pimc.py --world-cost 40 [--seed 0]

Each spec plays every seat of ``--games`` deals against the heuristic (one core, one
process; the solver is compiled by a warm-up game first). A card decision is timed per trick
(``play1`` = trick 1), and all card decisions by the declarer's seat and the defenders'
(``cards, ...``); decisions with one legal card are included (they cost nothing).
Prints count, mean, median, 90th percentile and max seconds per phase: the process's CPU
time (``--clock cpu``, the default: what one core spends, robust to other jobs on shared
cores; the agent's wall-clock safety caps still run on the wall clock) or ``--clock wall``.

``--accuracy N``: card decisions at tricks 2-8 of N heuristic games; for each, the true
deal is solved double dummy and the utility lost by pimc's card over uniform worlds (the best
card's utility minus the chosen one's, from the player's side) is averaged.

``--world-cost N``: seconds to solve one world (every legal card, as
:func:`skat_env.search.pimc.world_values` does at that trick: threshold bands, exact points
late) at every card decision of tricks 1-3 of N heuristic games, on the true deal, with one
solver kept across the decisions as the agent keeps it: the solver, and the solver with
pimc's node limit per card (its table cleared per decision). Prints
mean, median, p90 and max per game family and trick: the measurements behind
``skat_env.search.pimc.WORLD_COST``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402

from skat_env.agents.base import observation_view  # noqa: E402
from skat_env.agents.heuristic import HeuristicAgent  # noqa: E402
from skat_env.agents.registry import AgentSpecError, check_spec, make_agent  # noqa: E402
from skat_env.cli.options import count_arg, seed_arg  # noqa: E402
from skat_env.core.game import PHASE_NAMES, PLAY, Game  # noqa: E402
from skat_env.encoding.view import player_view  # noqa: E402


def phase_label(game: Game) -> str:
    if game.phase == PLAY:
        return f"play{sum(game.tricks_won) + 1}"
    return PHASE_NAMES[game.phase]


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def time_spec(spec: str, games: int, seed: int, clock=time.process_time) -> dict[str, list[float]]:
    """Seconds per decision of ``spec`` by phase label over ``games`` deals x 3 seats."""
    agent, other = make_agent(spec, seed=seed), HeuristicAgent()
    times: dict[str, list[float]] = {}
    warm = Game.random(seed + 10_000)
    while not warm.is_over:  # compiles the solver
        warm.step(agent.act_view(observation_view(player_view(warm, warm.to_act))))
    for i in range(games):
        for seat in range(3):
            game = Game.random(seed + i, dealer=i % 3)
            agent.reset(seed + i)
            while not game.is_over:
                view = observation_view(player_view(game, game.to_act))
                if game.to_act != seat:
                    game.step(other.act_view(view))
                    continue
                label = phase_label(game)
                start = clock()
                move = agent.act_view(view)
                spent = clock() - start
                times.setdefault(label, []).append(spent)
                if game.phase == PLAY:
                    role = "declarer" if game.to_act == game.declarer else "defender"
                    times.setdefault(f"cards, {role}", []).append(spent)
                    times.setdefault("cards, all", []).append(spent)
                game.step(move)
    return times


def accuracy(games: int, seed: int, worlds: int = 8) -> dict[str, tuple[float, float]]:
    """(mean utility lost, share of best cards) of pimc card play over uniform worlds."""
    from skat_env.search.solver import Solver

    solver, other = Solver(), HeuristicAgent()
    rng = np.random.default_rng(seed)
    lost: dict[str, list[float]] = {"uniform": []}
    for i in range(games):
        game = Game.random(seed + i, dealer=i % 3)
        picks = set(rng.choice(np.arange(4, 25), size=3, replace=False).tolist())
        k = 0
        while not game.is_over:
            view = observation_view(player_view(game, game.to_act))
            if game.phase == PLAY and k in picks and bin(game.legal_mask()).count("1") > 1:
                _score(game, view, solver, lost, worlds, seed + i)
            k += game.phase == PLAY
            game.step(other.act_view(view))
    return {k: (float(np.mean(v)), float(np.mean([x == 0 for x in v]))) for k, v in lost.items()}


def _score(game: Game, view: object, solver: object, lost: dict, worlds: int, seed: int) -> None:
    from skat_env.search import pimc as search
    from skat_env.search.solver import Position

    d = game.declarer
    twelve = game.hands[d] | game.played[d] | game.declarer_skat
    pos = Position.from_game(game)
    true = {
        c: search.utility(game.contract, game.bid, twelve, v)
        for c, v in solver.best_moves(pos).items()
    }
    sign = 1 if game.to_act == d else -1
    best = max(sign * v for v in true.values())
    cfg = search.SearchConfig(worlds=worlds, budget=5.0)
    card, _ = search.choose_card(view, np.random.default_rng(seed), cfg, solver)
    lost["uniform"].append(best - sign * true[card])


def world_cost(
    games: int, seed: int, clock=time.process_time
) -> dict[tuple[str, int, str], list[float]]:
    """Seconds per world by (family, trick 1..3, solver) over ``games`` heuristic games, for
    the solver and the solver with pimc's node limit (``capped``), on the same decisions."""
    from skat_env.core.tables import GRAND, NULL
    from skat_env.search import pimc as search
    from skat_env.search.solver import Solver
    from skat_env.search.worlds import World

    limit = search.SearchConfig().max_nodes
    runs = (("new", Solver(), None), ("capped", Solver(), limit))
    other = HeuristicAgent()
    times: dict[tuple[str, int, str], list[float]] = {}
    for i in range(-1, games):  # game -1 compiles the kernels
        game = Game.random(seed + 20_000 + i, dealer=i % 3)
        while not game.is_over:
            view = observation_view(player_view(game, game.to_act))
            trick = sum(game.tricks_won) + 1
            if game.phase == PLAY and trick <= 3 and bin(game.legal_mask()).count("1") > 1:
                g = game.contract.game
                family = "null" if g == NULL else "grand" if g == GRAND else "suit"
                world = World(tuple(game.hands), game.declarer_skat)
                exact = 10 - sum(game.tricks_won) <= search.SearchConfig().exact_tricks
                for name, solver, limit in runs:
                    if limit is not None and not exact:
                        solver.clear()  # as pimc does once per decision
                    start = clock()
                    search.world_values(view, world, solver, exact, max_nodes=limit)
                    if i >= 0:
                        key = (family, trick, name)
                        times.setdefault(key, []).append(clock() - start)
            game.step(other.act_view(view))
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--specs", nargs="+", default=["pimc", "pimc:fast"])
    ap.add_argument("--games", type=count_arg, default=12)
    ap.add_argument("--seed", type=seed_arg, default=0)
    ap.add_argument("--accuracy", type=int, default=0, help="games for the accuracy test")
    ap.add_argument("--world-cost", type=int, default=0, help="games for the cost per world")
    ap.add_argument(
        "--clock", choices=sorted(CLOCKS), default="cpu", help="decision times: cpu (default), wall"
    )
    args = ap.parse_args(argv)
    if args.accuracy < 0 or args.world_cost < 0:
        ap.error("--accuracy and --world-cost must be >= 0")
    try:
        for spec in args.specs:
            check_spec(spec)
    except AgentSpecError as e:
        ap.error(str(e))
    if args.world_cost:
        times = world_cost(args.world_cost, args.seed, CLOCKS[args.clock])
        print(f"seconds per world, {args.world_cost} heuristic games (true deals)")
        print(
            f"{'family':6s} {'trick':>5s} {'n':>5s} {'solver':6s} {'mean':>7s} {'median':>7s}",
            end="",
        )
        print(f" {'p90':>7s} {'max':>7s}")
        for (family, trick, name), v in sorted(times.items(), key=lambda kv: kv[0][:2]):
            t = np.array(v)
            print(
                f"{family:6s} {trick:5d} {t.size:5d} {name:6s} {t.mean():7.3f} {np.median(t):7.3f}"
                f" {np.quantile(t, 0.9):7.3f} {t.max():7.3f}"
            )
        return 0
    if args.accuracy:
        for name, (loss, share) in accuracy(args.accuracy, args.seed).items():
            print(f"{name:9s} utility lost per card {loss:6.2f}  best card {share:.1%}")
        return 0
    order = ["bidding", "skat", "discard", "declare"] + [f"play{t}" for t in range(1, 11)]
    order += ["cards, declarer", "cards, defender", "cards, all"]
    for spec in args.specs:
        times = time_spec(spec, args.games, args.seed, CLOCKS[args.clock])
        print(f"\n{spec}: {args.games} deals x 3 seats vs heuristic (seconds per decision)")
        print(f"{'phase':15s} {'n':>5s} {'mean':>7s} {'median':>7s} {'p90':>7s} {'max':>7s}")
        for label in order:
            t = np.array(times.get(label, []))
            if t.size:
                print(
                    f"{label:15s} {t.size:5d} {t.mean():7.3f} {np.median(t):7.3f} "
                    f"{np.quantile(t, 0.9):7.3f} {t.max():7.3f}"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
