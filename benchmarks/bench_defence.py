"""Defence alone: a fixed declarer against two defenders of spec A and, on the same deals,
two defenders of spec B.

    python benchmarks/bench_defence.py --defenders pimc:fast,play_only,dinfer=0 \\
        pimc:fast,play_only --deals 300 --seed 0
    python benchmarks/bench_defence.py --declarer pimc:fast --defenders heuristic pimc:fast \\
        --deals 1500 --workers 2

Pairing: for each deal the whole auction, the skat decision, the discard and the declaration
are made once by the fixed declarer's spec sitting in all three seats (so the bids the
defenders' seats made are the ones that spec would make with their hands); a deal passed in
is skipped. The card play is then played twice from that same position: the declarer's seat
by the declarer spec, the two other seats by A's spec, then by B's. Same deal, same auction,
same contract, same discards on both sides, and every agent reseeded per deal and seat alike:
the defenders' card play is the only difference (the declarer's own cards may then differ
where the defenders' do). The defenders' specs never bid, so they cannot change who declares.

Reported per side: defence win rate (games the defenders win / games) with its 95% Wilson
interval, the declarer's Seeger-Fabian points per game, his schneider wins and losses and
overbids; the paired difference B - A of the defence win rate and of the declarer's
SF/game, with 95% bootstrap intervals over deals; and, for the deals only one side's defence
wins, the trick and the seat of the first card the two games differ in (where the gain
lies). The JSON goes to a new
``results/defence-<time>.json`` unless ``--json PATH`` (an existing file is not overwritten).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from skat_env.agents.registry import AgentSpecError, check_spec, make_agent  # noqa: E402
from skat_env.cli.options import seed_arg  # noqa: E402
from skat_env.cli.outputs import command_line, new_output  # noqa: E402
from skat_env.core.game import PLAY, Game  # noqa: E402
from skat_env.envs.policy import decide  # noqa: E402
from skat_env.tournament import bootstrap_ci, deal_for  # noqa: E402

PROG = "benchmarks/bench_defence.py"
BLOCK = 10  # deals per task with --workers


def _seed(seed: int, deal: int, seat: int) -> int:
    return int(np.random.SeedSequence([seed, deal, seat, 0xDEF]).generate_state(1)[0])


def contract_phase(declarer, seed: int, deal: int) -> Game | None:
    """Deal ``deal`` played by ``declarer``'s spec in every seat up to the first card; None
    when it is passed in."""
    cards, dealer = deal_for(seed, deal)
    game = Game(cards, dealer)
    last = -1
    while game.phase < PLAY and not game.is_over:
        seat = game.to_act
        if seat != last:  # one agent in every seat, reseeded per seat as in the card play
            declarer.reset(_seed(seed, deal, seat))
            last = seat
        game.step(decide(declarer, game, seat))
    return None if game.is_over else game


def play_out(start: Game, declarer, defender, seed: int, deal: int) -> Game:
    """The card play from ``start`` (a copy): the declarer's seat by ``declarer``, the two
    others by ``defender``; each seat's agent reseeded as on the other side."""
    game = start.copy()
    d = game.declarer
    by_seat = [declarer if s == d else defender for s in range(3)]
    last = -1
    while not game.is_over:
        seat = game.to_act
        if seat != last:  # an agent shared by two seats is reseeded for each
            by_seat[seat].reset(_seed(seed, deal, seat))
            last = seat
        game.step(decide(by_seat[seat], game, seat))
    return game


def _game_record(deal: int, game: Game) -> dict:
    r = game.result
    return {
        "deal": deal,
        "declarer": r.declarer,
        "contract": r.contract,
        "won": bool(r.won),
        "overbid": bool(r.overbid),
        "schneider": bool(r.schneider),
        "declarer_sf": int(r.seeger_fabian[r.declarer]),
        "moves": [int(m) for _, m in game.history],
    }


def play_deals(declarer_spec: str, a: str, b: str, deals: range, seed: int,
               bar: Any = None) -> dict[str, list[dict]]:  # fmt: skip
    """Both sides on every declared deal of ``deals``: the game records of each side."""
    declarer = make_agent(declarer_spec)
    side_agents = {"A": make_agent(a), "B": make_agent(b)}
    games: dict[str, list[dict]] = {"A": [], "B": []}
    for i in deals:
        start = contract_phase(declarer, seed, i)
        if start is not None:
            for side, agent in side_agents.items():
                games[side].append(_game_record(i, play_out(start, declarer, agent, seed, i)))
        if bar is not None:
            bar.update(1)
    return games


def run(declarer_spec: str, a: str, b: str, deals: int, seed: int, progress: bool = True,
        workers: int = 1) -> dict:  # fmt: skip
    """Both sides on every declared deal of ``range(deals)``; the games and figures. With
    ``workers`` > 1 the deals are played in that many processes, in blocks of
    ``BLOCK``: every deal reseeds its agents, so the games are those of one process."""
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=deals, unit="deal", desc="defence", file=sys.stderr)
    if workers <= 1:
        games = play_deals(declarer_spec, a, b, range(deals), seed, bar)
    else:
        from concurrent.futures import ProcessPoolExecutor

        blocks = [range(i, min(i + BLOCK, deals)) for i in range(0, deals, BLOCK)]
        games = {"A": [], "B": []}
        with ProcessPoolExecutor(workers) as pool:
            jobs = [pool.submit(play_deals, declarer_spec, a, b, r, seed) for r in blocks]
            for block, job in zip(blocks, jobs, strict=True):  # in deal order
                for side, recs in job.result().items():
                    games[side].extend(recs)
                if bar is not None:
                    bar.update(len(block))
    if bar is not None:
        bar.close()
    return {"declarer": declarer_spec, "A": a, "B": b, "deals": deals, "seed": seed,
            **summary(games, seed), "games": games}  # fmt: skip


def wilson(k: int, n: int) -> list[float] | None:
    """95% Wilson score interval of a rate ``k / n`` (None without games)."""
    if n == 0:
        return None
    from scipy.stats import binomtest

    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [float(ci.low), float(ci.high)]


def side_figures(recs: list[dict]) -> dict:
    n = len(recs)
    defended = sum(not r["won"] for r in recs)
    return {
        "games": n,
        "defence_wins": defended,
        "defence_win_rate": defended / n if n else None,
        "defence_ci95": wilson(defended, n),
        "declarer_sf_per_game": sum(r["declarer_sf"] for r in recs) / n if n else None,
        "declarer_schneider_wins": sum(r["won"] and r["schneider"] for r in recs),
        "defender_schneider_wins": sum(not r["won"] and r["schneider"] for r in recs),
        "overbids": sum(r["overbid"] for r in recs),
    }


def summary(games: dict[str, list[dict]], seed: int) -> dict:
    """Each side's figures and the paired differences B - A (per declared deal)."""
    out = {"sides": {s: side_figures(games[s]) for s in ("A", "B")}}
    wins = {s: np.array([not r["won"] for r in games[s]], dtype=float) for s in ("A", "B")}
    sf = {s: np.array([r["declarer_sf"] for r in games[s]], dtype=float) for s in ("A", "B")}
    for key, values in (("defence_win_rate", wins), ("declarer_sf_per_game", sf)):
        diff = values["B"] - values["A"]
        ci = bootstrap_ci(diff, 2000, seed)
        out[f"b_minus_a_{key}"] = {
            "mean": float(diff.mean()) if len(diff) else None,
            "ci95": None if ci is None else list(ci),
        }
    out["deals_differing"] = int((wins["B"] != wins["A"]).sum())
    out["first_difference"] = first_differences(games, seed)
    return out


def first_difference(seed: int, a: dict, b: dict) -> tuple[int, int, bool]:
    """(trick 1..10, card of the trick 0..2, whether the declarer played it) of the first
    card the two games of one deal differ in."""
    ma, mb = a["moves"], b["moves"]
    i = next(k for k in range(min(len(ma), len(mb))) if ma[k] != mb[k])
    cards, dealer = deal_for(seed, a["deal"])
    game = Game(cards, dealer)
    for m in ma[:i]:
        game.step(m)
    return len(game.plays) // 3 + 1, len(game.plays) % 3, game.to_act == game.declarer


def first_differences(games: dict[str, list[dict]], seed: int) -> dict[str, dict]:
    """Where the card play first differs in the deals one side's defence wins and the other's
    does not: counts by trick and by who played (a defender's lead is card 1)."""
    out = {}
    for side, other in (("B", "A"), ("A", "B")):
        by_trick: dict[int, int] = {}
        by_card: dict[str, int] = {}
        for x, y in zip(games[side], games[other], strict=True):
            if not x["won"] and y["won"]:
                trick, card, declarer = first_difference(seed, y, x)
                by_trick[trick] = by_trick.get(trick, 0) + 1
                key = f"{'declarer' if declarer else 'defender'} card {card + 1}"
                by_card[key] = by_card.get(key, 0) + 1
        out[f"{side}_only"] = {"by_trick": dict(sorted(by_trick.items())), "by_card": by_card}
    return out


def _pct(x: float | None) -> str:
    return "   -  " if x is None else f"{100 * x:5.1f}%"


def _interval(ci: list[float] | None, scale: float = 1.0) -> str:
    return "(no interval)" if ci is None else f"[{scale * ci[0]:+.1f}, {scale * ci[1]:+.1f}]"


def format_result(res: dict) -> str:
    lines = [f"declarer = {res['declarer']}\nA = {res['A']}\nB = {res['B']}"]
    lines.append(f"{res['sides']['A']['games']} declared games of {res['deals']} deals")
    lines.append("   side  defence won  95% interval   decl. SF/game  schn.won  schn.lost  overbid")
    for side in ("A", "B"):
        f = res["sides"][side]
        ci = f["defence_ci95"]
        ci_s = "-" if ci is None else f"[{100 * ci[0]:4.1f}, {100 * ci[1]:4.1f}]%"
        sf = f["declarer_sf_per_game"] or 0.0
        lines.append(
            f"   {side:4s} {_pct(f['defence_win_rate'])}       {ci_s:15s} {sf:8.1f}     "
            f"{f['declarer_schneider_wins']:5d}    {f['defender_schneider_wins']:5d}    "
            f"{f['overbids']:5d}"
        )
    d = res["b_minus_a_defence_win_rate"]
    if d["mean"] is not None:
        differ = res["deals_differing"]
        lines.append(
            f"B - A defence win rate: {100 * d['mean']:+.1f} points "
            f"{_interval(d['ci95'], 100)} ({differ} deals differ)"
        )
        for side, f in res["first_difference"].items():
            tricks = ", ".join(f"{t}: {n}" for t, n in f["by_trick"].items()) or "none"
            cards = ", ".join(f"{k} {n}" for k, n in sorted(f["by_card"].items()))
            lines.append(
                f"   only {side[0]}'s defence wins: first different card by trick {tricks}"
                + (f" ({cards})" if cards else "")
            )
        s = res["b_minus_a_declarer_sf_per_game"]
        lines.append(
            f"B - A declarer SF/game: {s['mean']:+.1f} {_interval(s['ci95'])} "
            "(negative: B defends better)"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--declarer", default="heuristic", help="the fixed declarer's agent spec")
    ap.add_argument("--defenders", nargs=2, metavar=("A", "B"), required=True)
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=seed_arg, default=0)
    ap.add_argument(
        "--json", type=Path, default=None,
        help="write every figure here (default: a new results/defence-<time>.json)",
    )  # fmt: skip
    ap.add_argument("--workers", type=int, default=1, help="processes (the same games for any)")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.workers < 1:
        print("error: --deals and --workers must be positive", file=sys.stderr)
        return 2
    out = args.json or new_output("defence", suffixes=())
    if args.json is not None and (out.exists() or not out.parent.is_dir()):
        print(f"error: {out} exists or its folder does not (nothing overwritten)", file=sys.stderr)
        return 2
    try:
        for spec in (args.declarer, *args.defenders):
            check_spec(spec)
        res = run(args.declarer, *args.defenders, args.deals, args.seed, not args.no_progress,
                  args.workers)  # fmt: skip
    except AgentSpecError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(format_result(res))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"command": command_line(PROG, argv), **res}, indent=1) + "\n")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
