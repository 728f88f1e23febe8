"""benchmarks/bench_contracts.py: both line-ups on the same deals, every seat, signed right."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_contracts  # noqa: E402

A, B = "heuristic:margin=-2", "heuristic"


def test_both_lineups_play_the_same_deals_with_each_side_in_every_seat():
    rows = bench_contracts.run(A, B, deals=3, seed=5, progress=False, keep_games=True)
    assert [r["lineup"] for r in rows] == [[A, B, B], [B, A, A]]
    for row in rows:
        recs = row["records"]
        assert sorted({r["deal"] for r in recs}) == [0, 1, 2]
        assert len(recs) == 9  # three rotations per deal
        labels = row["lineup"]
        single = labels[0]
        seats = {r["agents"].index(next(i for i, x in enumerate(labels) if x == single))
                 for r in recs}  # fmt: skip
        assert seats == {0, 1, 2}  # the single agent sat in every seat
        # A - B is A's mean SF per game minus B's, whichever side is the single one
        sf = row["agents"]
        assert abs(row["a_minus_b"] - (sf[A]["sf_per_game"] - sf[B]["sf_per_game"])) < 1e-9
        lo, hi = row["ci95"]
        assert lo <= row["a_minus_b"] <= hi


def test_search_card_play_makes_the_deciders_bidders():
    assert bench_contracts.specs(("learned", "heuristic"), "heuristic") == ("learned", "heuristic")
    assert bench_contracts.specs(("learned", "heuristic"), "pimc:fast") == (
        "pimc:fast,bidder=learned",
        "pimc:fast,bidder=heuristic",
    )
    assert bench_contracts.specs(("learned", "heuristic"), "pimc")[0] == "pimc:bidder=learned"
    assert bench_contracts.specs(("learned", "search"), "pimc:fast")[1] == "pimc:fast"
    nested = bench_contracts.specs(("learned:margin=5,nulls=0", "search"), "pimc")[0]
    assert nested == "pimc:bidder=[learned:margin=5,nulls=0]"  # its commas in brackets


def test_bad_arguments_exit_2(capsys, tmp_path):
    assert bench_contracts.main(["--cards", "random"]) == 2
    assert bench_contracts.main(["--deals", "0"]) == 2
    assert bench_contracts.main(["--contracts", "nobody", "heuristic", "--deals", "1"]) == 2
    assert "error" in capsys.readouterr().err
    out = tmp_path / "r.json"
    argv = ["--contracts", A, B, "--deals", "1", "--no-progress", "--json", str(out)]
    assert bench_contracts.main(argv) == 0
    assert "line-up 2" in capsys.readouterr().out and out.exists()
