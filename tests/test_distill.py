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
        (["--teacher", "random", "--student", "nobody"], "--student: unknown agent"),
        (["--teacher", "random", "--student", "random", "--beta", "1.5"], "between 0 and 1"),
        (["--teacher", "random", "--beta", "0.5"], "give --student too"),
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
    labelling = distill.Labelling(functools.partial(make_agent, teacher, seed=0), teacher)
    for workers, name in ((1, "one"), (2, "two")):
        distill.write_shards(labelling, 2, tmp_path / name, seed=3, shard_games=1,
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
    only = distill.Labelling(make, "heuristic", contracts_only=True)
    distill.write_shards(only, 2, tmp_path, shard_games=1, progress=False)
    assert len(distill.load_shards(tmp_path, "seeger_fabian")["move"]) > 0
    distill.write_shards(distill.Labelling(make, "heuristic"), 3, tmp_path, shard_games=1,
                         progress=False)  # fmt: skip
    with pytest.raises(ValueError, match="mixes"):
        distill.load_shards(tmp_path, "seeger_fabian")


def test_a_student_plays_and_the_teacher_labels_what_it_meets() -> None:
    """DAgger: the moves made are the student's (random here), the labels are the teacher's
    decisions in exactly those states; beta=1 is the teacher playing alone."""
    teacher, student = make_agent("heuristic"), make_agent("random", seed=5)
    data = distill.record_games(teacher, 4, 7, "seeger_fabian", student=student)
    n = len(data["move"])
    assert data["obs"].shape == (n, 450) and len(data["played"]) == len(data["return"]) == n
    assert data["mask"][np.arange(n), data["played"]].all()
    assert data["mask"][np.arange(n), data["move"]].all()
    assert (data["move"] != data["played"]).mean() > 0.3  # a random student strays
    # every label is the teacher's move in that state (the heuristic decides from the view)
    from skat_env.core.game import Game
    from skat_env.envs.policy import decide

    rng = np.random.default_rng(7)
    game, row = Game.random(rng), 0
    while not game.is_over:
        assert decide(teacher, game, game.to_act) == data["move"][row]
        game.step(int(data["played"][row]))
        row += 1
    teacher_alone = distill.record_games(teacher, 4, 7, "seeger_fabian")
    mixed = distill.record_games(teacher, 4, 7, "seeger_fabian", student=student, beta=1.0)
    for key in ("obs", "mask", "move", "return"):
        assert np.array_equal(mixed[key], teacher_alone[key]), key
    assert np.array_equal(teacher_alone["move"], teacher_alone["played"])


def test_dagger_shards_are_the_same_for_any_worker_count(tmp_path) -> None:
    labelling = distill.Labelling(
        functools.partial(make_agent, "heuristic"), "heuristic",
        make_student=functools.partial(make_agent, "random", seed=1), student="random", beta=0.3,
    )  # fmt: skip
    runs = {}
    for workers in (1, 2):
        out = tmp_path / str(workers)
        runs[workers] = distill.write_shards(labelling, 4, out, seed=2, shard_games=1,
                                             progress=False, workers=workers)  # fmt: skip
        assert runs[workers].written == 4 and runs[workers].per_cpu_second > 0
    for a, b in zip(runs[1].paths, runs[2].paths, strict=True):
        one, two = np.load(a), np.load(b)
        assert str(one["student"]) == "random" and float(one["beta"]) == 0.3
        for key in ("obs", "mask", "move", "played", "return"):
            assert np.array_equal(one[key], two[key]), key
    again = distill.write_shards(labelling, 4, tmp_path / "1", seed=2, shard_games=1,
                                 progress=False)  # fmt: skip
    assert again.written == 0  # resumed: nothing left to label


def test_the_ray_path_on_a_local_cluster_writes_the_same_shards(tmp_path) -> None:
    ray = pytest.importorskip("ray")
    import tempfile

    labelling = distill.Labelling(
        functools.partial(make_agent, "heuristic"), "heuristic",
        make_student=functools.partial(make_agent, "random", seed=1), student="random",
    )  # fmt: skip
    local = distill.write_shards(labelling, 3, tmp_path / "local", shard_games=1, progress=False)
    temp = tempfile.mkdtemp(prefix="ray", dir="/tmp")  # short: Ray's socket paths are limited
    try:
        ray.init(num_cpus=2, _temp_dir=temp, include_dashboard=False, log_to_driver=False)
        on_ray = distill.write_shards(labelling, 3, tmp_path / "ray", shard_games=1,
                                      progress=False, address="auto")  # fmt: skip
        assert ray.is_initialized()  # a session started by the caller is left running
    finally:
        ray.shutdown()
    assert on_ray.written == 3
    for a, b in zip(local.paths, on_ray.paths, strict=True):
        for key in ("obs", "move", "played", "return"):
            assert np.array_equal(np.load(a)[key], np.load(b)[key]), key


def test_an_unreachable_cluster_is_one_line_and_writes_nothing(tmp_path, capsys) -> None:
    out = tmp_path / "x"
    argv = ["--teacher", "random", "--games", "1", "--address", "127.0.0.1:1", "--out", str(out)]
    assert cli.main([*argv, "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "cannot reach a Ray cluster at '127.0.0.1:1'" in err or "needs Ray" in err
    assert "Traceback" not in err and not out.exists()
