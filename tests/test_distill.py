"""skat_env.training.distill and its command line skat_env.cli.distill: resumable shards of
a teacher's decisions, the same for any number of workers."""

import functools

import numpy as np
import pytest

from skat_env.agents.registry import make_agent
from skat_env.cli import distill as cli
from skat_env.training import distill


def test_distill_writes_resumable_shards_that_load_and_clone(tmp_path):
    out = tmp_path / "data"
    assert cli.main(["--teacher", "heuristic", "--games", "3", "--shard-games", "2",
                     "--out", str(out), "--no-progress"]) == 0  # fmt: skip
    shards = sorted(out.glob("shard_*.npz"))
    assert [p.name for p in shards] == ["shard_00000.npz", "shard_00001.npz"]
    first = shards[0].stat().st_mtime_ns
    cli.main(["--teacher", "heuristic", "--games", "5", "--shard-games", "2",
              "--out", str(out), "--no-progress"])  # fmt: skip
    assert len(list(out.glob("shard_*.npz"))) == 3 and shards[0].stat().st_mtime_ns == first
    (out / "shard_00003.tmp.npz").write_bytes(b"half a shard")  # being written: ignored
    data = distill.load_shards(out, "seeger_fabian", reward_scale=0.01)
    n = len(data["move"])
    assert data["games"] == 6 and data["obs"].shape == (n, 450)
    assert data["mask"][np.arange(n), data["move"]].all()
    # shard 0 is the heuristic's games of seed 0, rewards as recorded
    again = distill.record_games(make_agent("heuristic"), 2, 0, "seeger_fabian")
    m = len(again["move"])
    assert np.array_equal(again["move"], data["move"][:m])
    assert np.allclose(again["return"] * 0.01, data["return"][:m])
    with pytest.raises(ValueError, match="reward mode"):
        distill.load_shards(out, "zero_sum")
    with pytest.raises(FileNotFoundError):
        distill.load_shards(tmp_path / "none", "seeger_fabian")


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--teacher", "nobody"], "unknown agent"),
        (["--teacher", "human"], "person"),
        (["--workers", "0"], "at least 1"),
    ],
)
def test_distill_cli_refuses_bad_input_with_exit_2(tmp_path, capsys, argv, match):
    with pytest.raises(SystemExit) as e:
        cli.main([*argv, "--out", str(tmp_path / "x")])
    assert e.value.code == 2 and match in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_distill_workers_write_the_same_shards_as_one(tmp_path):
    """Two worker processes give the shards one process gives (a pimc teacher)."""
    pytest.importorskip("numba")
    teacher = "pimc:fast,play_only,worlds=2,cap=off"
    make = functools.partial(make_agent, teacher, seed=0)
    for workers, name in ((1, "one"), (2, "two")):
        distill.write_shards(make, teacher, 2, tmp_path / name, seed=3, shard_games=1,
                             progress=False, workers=workers)  # fmt: skip
    one, two = (distill.load_shards(tmp_path / n, "seeger_fabian") for n in ("one", "two"))
    assert len(one["move"]) > 0 and one["games"] == two["games"] == 2
    for key in ("obs", "mask", "move", "return"):
        assert np.array_equal(one[key], two[key]), key


def test_contracts_only_keeps_exactly_the_decisions_before_the_first_card(tmp_path):
    """The same deals recorded whole and contracts-only: the second is the first's rows with a
    bid, pass, skat or declaration move legal, or more than ten legal cards (the discard)."""
    teacher = make_agent("heuristic")
    every = distill.record_games(teacher, 6, 2, "seeger_fabian")
    contracts = distill.record_games(teacher, 6, 2, "seeger_fabian", contracts_only=True)
    before = every["mask"][:, 32:].any(axis=1) | (every["mask"][:, :32].sum(axis=1) > 10)
    assert 0 < before.sum() < len(before) and (every["move"][before] >= 32).any()
    for key in ("obs", "mask", "move", "return"):
        assert np.array_equal(contracts[key], every[key][before]), key
    # a folder mixing contract-only shards with whole ones is refused
    make = functools.partial(make_agent, "heuristic")
    distill.write_shards(make, "heuristic", 2, tmp_path, shard_games=1, progress=False,
                         contracts_only=True)  # fmt: skip
    assert len(distill.load_shards(tmp_path, "seeger_fabian")["move"]) > 0
    distill.write_shards(make, "heuristic", 3, tmp_path, shard_games=1, progress=False)
    with pytest.raises(ValueError, match="mixes"):
        distill.load_shards(tmp_path, "seeger_fabian")
