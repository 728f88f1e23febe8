"""Behaviour-cloning data from the ISS records in tests/data (no download)."""

from __future__ import annotations

import bz2
import json
from pathlib import Path

import numpy as np
import pytest

from skat_env.core.game import PLAY
from skat_env.core.records import read_iss
from skat_env.encoding.observation import decode
from skat_env.training.iss_data import (
    game_decisions,
    iss_decisions,
    iss_lines,
    iter_games,
    rating,
)

DATA = Path(__file__).resolve().parent / "data" / "iss_records.sgf"
RECORDS = {r.id: r for r in read_iss(DATA)}


def test_every_move_of_a_played_out_game_is_one_row_from_the_movers_view():
    rec = RECORDS["9"]  # rearhand declares clubs hand... and loses: d:2 loss v:-96
    rows, kind = game_decisions(rec, "seeger_fabian")
    assert kind == "played out"
    assert len(rows["move"]) == len(rec.moves)
    game = rec.replay()
    history = [(seat, move) for seat, move in game.history]
    for obs, mask, move, (seat, played) in zip(
        rows["obs"], rows["mask"], rows["move"], history, strict=True
    ):
        view = decode(obs, mask)
        assert view.seat == seat == view.to_act and move == played and mask[move]
    # Seeger-Fabian: the declarer lost -96 (-96 - 50), each defender +40
    seats = [seat for seat, _ in history]
    expected = [-146.0 if s == 2 else 40.0 for s in seats]
    np.testing.assert_array_equal(rows["return"], expected)


def test_a_claimed_game_keeps_its_decisions_before_the_first_card():
    rec = RECORDS["727"]  # d:0 win v:192, claimed after the first card
    assert rec.status == "claimed"
    rows, kind = game_decisions(rec, "zero_sum")
    assert kind == "contract only"
    phases = {decode(o).phase for o in rows["obs"]}
    assert PLAY not in phases and len(rows["move"]) == len(rec.moves) - 1  # all but the card
    declarer = [decode(o).seat == 0 for o in rows["obs"]]
    np.testing.assert_array_equal(rows["return"], np.where(declarer, 192.0, -96.0))


@pytest.mark.parametrize(
    ("rid", "why"), [("18358", "hidden deal"), ("8", "timeout without a result")]
)
def test_records_without_a_deal_or_a_result_are_dropped(rid, why):
    assert game_decisions(RECORDS[rid], "seeger_fabian") == (None, why)


def test_the_whole_file_and_its_figures():
    data, stats = iss_decisions(DATA, games=1000, reward_scale=0.01)
    assert stats.records == 51 == len(RECORDS)
    assert stats.games == data["games"] == 48
    assert stats.played_out == 37 and stats.contract_only == 11  # passed-in deals are played out
    assert sum(stats.dropped.values()) == 3 and stats.records_per_second > 0
    n = stats.decisions
    assert data["obs"].shape == (n, 450) and data["mask"].shape == (n, 121)
    assert data["obs"].dtype == np.float32 and data["mask"].dtype == bool
    assert data["mask"][np.arange(n), data["move"]].all()  # every recorded move is legal
    played = sum(len(r.moves) for r in RECORDS.values() if r.status in ("complete", "passed"))
    assert n > played  # every move of the played-out games, and more
    assert np.abs(data["return"]).max() < 10  # scaled by 0.01
    assert "51 ISS records" in stats.summary() and "records/s" in stats.summary()


def test_games_caps_the_count_and_the_stream_stops_early():
    data, stats = iss_decisions(DATA, games=5)
    assert data["games"] == 5 and stats.records < 51


@pytest.mark.slow
def test_bz2_archives_are_streamed_like_plain_files(tmp_path):
    packed = tmp_path / "iss.sgf.bz2"
    packed.write_bytes(bz2.compress(DATA.read_bytes()))
    assert list(iss_lines(packed)) == list(iss_lines(DATA))
    a, _ = iss_decisions(DATA, games=1000)
    b, _ = iss_decisions(packed, games=1000)
    for key in ("obs", "mask", "move", "return"):
        np.testing.assert_array_equal(a[key], b[key])


def test_min_rating_keeps_only_rated_seats():
    rated = [(r, s) for r in RECORDS.values() for s in range(3) if (rating(r, s) or 0) >= 700]
    assert rated  # the file holds some rated players
    data, stats = iss_decisions(DATA, games=1000, min_rating=700)
    assert 0 < stats.games < 48 and stats.dropped["rating"] > 0
    for obs in data["obs"]:
        seat = decode(obs).seat
        assert any(rec.deal is not None and seat == s for rec, s in rated)
    assert rating(RECORDS["9"], 0) is None  # R0[0.0]: no rating


def test_unreadable_lines_are_counted_not_fatal(tmp_path):
    path = tmp_path / "bad.sgf"
    path.write_text("(;GM[Skat]ID[1] no moves here ;)\n" + DATA.read_text())
    stats_games = list(iter_games(path))
    assert len(stats_games) == 48


def test_bad_reward_mode_is_refused():
    with pytest.raises(ValueError, match="reward_mode"):
        next(iter_games(DATA, reward_mode="points"))


TINY = ["--timesteps", "256", "--n-envs", "2", "--n-steps", "64", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "16", "--eval-every", "0", "--eval-deals", "3",
        "--final-eval-deals", "3", "--no-progress", "--max-minutes", "0", "--no-tensorboard",
        "--clone-epochs", "1"]  # fmt: skip


@pytest.mark.slow
def test_skat_train_init_iss_clones_the_human_games(tmp_path, monkeypatch, capsys):
    from skat_env.cli import train

    monkeypatch.chdir(tmp_path)
    packed = tmp_path / "iss.sgf.bz2"
    packed.write_bytes(bz2.compress(DATA.read_bytes()))
    assert train.main([*TINY, "--name", "iss", "--init", f"iss:{packed}"]) == 0
    out = capsys.readouterr().out
    assert "7 games kept" in out and "decisions of 7 human games" in out  # 256 // 33
    stats = json.loads((tmp_path / "runs" / "iss" / "bc.json").read_text())
    assert stats["games"] == 7 and stats["decisions"] > 7 * 10
    assert train.main([*TINY, "--name", "x", "--init", f"iss:{tmp_path / 'none.sgf'}"]) == 2
    assert "--init iss: no such file" in capsys.readouterr().err
    bad = [*TINY, "--name", "y", "--init", f"iss:{packed}", "--iss-min-rating", "-1"]
    assert train.main(bad) == 2
    assert "--iss-min-rating must be >= 0" in capsys.readouterr().err


def test_bench_iss_reports_records_per_second(capsys):
    import sys

    sys.path.insert(0, str(DATA.parents[2] / "benchmarks"))
    import bench_iss

    assert bench_iss.main(["--repeat", "1"]) == 0
    out = capsys.readouterr().out
    assert "plain .sgf" in out and ".sgf.bz2" in out and "48 games of 51 records" in out
