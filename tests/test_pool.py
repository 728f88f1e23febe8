"""The training opponent pool (training/pool.py): PFSP weights from the learner's win rates as
documented (worked examples, ordering, forgetting), snapshot and best-model slots, bad options;
the vector env's per-game opponent and outcome reports and new weights; a seeded pool run through
train.py (--opponents pool:...), and its bad flags."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.cli import train
from skat_env.envs.policy import RandomPolicy
from skat_env.envs.vector_env import SkatVectorEnv
from skat_env.training.pool import OpponentPool


def policy(seed: int = 0):
    return RandomPolicy(seed)


def make_pool(n: int = 2, **kw) -> OpponentPool:
    return OpponentPool({f"p{k}": policy(k) for k in range(n)}, **kw)


# --- weights follow the win rates ------------------------------------------------------------


@pytest.mark.parametrize(
    "prioritise, f",
    [
        ("hard", lambda x: (1 - x) ** 2),
        ("even", lambda x: x * (1 - x)),
        ("uniform", lambda x: 1.0),
    ],
)
def test_weights_are_the_documented_formula(prioritise, f):
    lg = make_pool(3, prioritise=prioritise, horizon=1e15, prior_games=20, explore=0.1)
    # member 0: 60 wins, 20 losses; member 1: 10 thrown in, 10 losses; member 2: nothing
    lg.record([0] * 80 + [1] * 20, [1] * 60 + [-1] * 20 + [0] * 10 + [-1] * 10)
    x = np.array([(60 + 10) / (80 + 20), (5 + 10) / (20 + 20), 0.5])
    np.testing.assert_allclose(lg.win_rates(), x)
    fx = np.array([f(v) for v in x])
    np.testing.assert_allclose(lg.weights(), 0.9 * fx / fx.sum() + 0.1 / 3)
    assert [r["games"] for r in lg.table()] == [80, 20, 0]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.sampled_from([-1, 0, 1])), max_size=200))
def test_hard_plays_the_members_the_learner_beats_least_most(games):
    lg = make_pool(4, prioritise="hard")
    if games:
        lg.record(*map(list, zip(*games, strict=True)))
    x, w = lg.win_rates(), lg.weights()
    assert math.isclose(w.sum(), 1.0) and (w > 0).all()
    order = np.argsort(x, kind="stable")
    assert (np.diff(w[order]) <= 1e-12).all()  # higher win rate, lower weight
    assert ((0 < x) & (x < 1)).all()  # the prior keeps every estimate inside


def test_even_prefers_members_near_a_half():
    lg = make_pool(3, prioritise="even", horizon=1e15, explore=0.0)
    lg.record([0] * 100 + [2] * 100, [1] * 95 + [-1] * 5 + [-1] * 95 + [1] * 5)
    w = lg.weights()
    assert w[1] > w[0] and w[1] > w[2]


def test_forgetting_is_the_same_game_by_game_or_in_one_batch():
    outcomes = np.random.default_rng(3).choice([-1, 0, 1], 300)
    one, batch = make_pool(1, horizon=50), make_pool(1, horizon=50)
    for o in outcomes:
        one.record([0], [o])
    batch.record([0] * 300, outcomes)
    np.testing.assert_allclose(one.win_rates(), batch.win_rates())
    # old results fade: 300 wins, then 300 losses -> the estimate follows the losses
    lg = make_pool(1, horizon=50)
    lg.record([0] * 300, [1] * 300)
    assert lg.win_rates()[0] > 0.85  # about 50 games count, with 20 prior games at 1/2
    lg.record([0] * 300, [-1] * 300)
    assert lg.win_rates()[0] < 0.15


# --- snapshots and the best model ----------------------------------------------------------------


def test_snapshots_fill_the_empty_slots_then_replace_the_oldest():
    lg = make_pool(1, snapshots=2)
    assert lg.names == ["p0", "self0", "self1"]
    np.testing.assert_allclose(lg.weights(), [1, 0, 0])  # empty slots are never drawn
    a, b, c = policy(10), policy(11), policy(12)
    assert lg.add_snapshot(a) == "self0"
    assert lg.weights()[2] == 0 and lg.weights()[1] > 0
    lg.record([1] * 10, [-1] * 10)
    assert lg.add_snapshot(b) == "self1" and (lg.weights() > 0).all()
    assert lg.add_snapshot(c) == "self0"  # the oldest
    pool, _ = lg.env_opponents()
    assert pool["self0"].policy is c and pool["self1"].policy is b
    assert lg.table()[1]["games"] == 0  # a new snapshot's record starts afresh


def test_only_a_better_score_replaces_the_best_member():
    lg = make_pool(1, best=True)
    a, b = policy(1), policy(2)
    assert lg.weights()[1] == 0
    assert lg.offer_best(a, -3.0) and lg.weights()[1] > 0
    assert not lg.offer_best(b, -3.0) and not lg.offer_best(b, -5.0)
    assert lg.env_opponents()[0]["best"].policy is a
    assert lg.offer_best(b, 2.5) and lg.env_opponents()[0]["best"].policy is b


def test_a_pool_of_slots_only_is_uniform_until_filled():
    lg = OpponentPool({}, snapshots=2)
    np.testing.assert_allclose(lg.weights(), [0.5, 0.5])  # a placeholder to build the env
    lg.add_snapshot(policy())
    np.testing.assert_allclose(lg.weights(), [1, 0])


@pytest.mark.parametrize(
    "kw, match",
    [
        ({"prioritise": "hardest"}, "prioritise must be one of hard, even, uniform"),
        ({"snapshots": -1}, "snapshots"),
        ({"snapshots": True}, "snapshots"),
        ({"snapshots": 1.0}, "snapshots"),
        ({"best": 1}, "best must be a bool"),
        ({"horizon": 0.5}, "horizon"),
        ({"prior_games": 0}, "prior_games"),
        ({"explore": 1.5}, "explore"),
        ({"explore": float("nan")}, "explore"),
    ],
)
def test_bad_options_are_refused(kw, match):
    with pytest.raises(ValueError, match=match):
        make_pool(1, **kw)


@pytest.mark.parametrize("name", ["self", "self3", "best"])
def test_reserved_names_and_empty_pools_are_refused(name):
    with pytest.raises(ValueError, match="pool's own"):
        OpponentPool({name: policy()})
    with pytest.raises(ValueError, match="no members"):
        OpponentPool({})
    with pytest.raises(TypeError):
        OpponentPool({"x": 42})


def test_bad_records_and_offers_change_nothing():
    lg = make_pool(2, best=False)
    before = lg.table()
    for opp, out in [([0, 2], [1, 1]), ([0, -1], [1, 1]), ([0], [2]), ([0, 1], [1]),
                     ([0.0], [1]), ([0], [0.5])]:  # fmt: skip
        with pytest.raises(ValueError):
            lg.record(opp, out)
    assert lg.table() == before
    with pytest.raises(ValueError, match="no best member"):
        lg.offer_best(policy(), 1.0)
    with pytest.raises(ValueError, match="no snapshot slots"):
        lg.add_snapshot(policy())
    with pytest.raises(ValueError, match="finite"):
        make_pool(1, best=True).offer_best(policy(), float("inf"))


# --- the vector env reports each game's opponent and outcome; new weights -------------------


def play(env: SkatVectorEnv, steps: int, seed: int) -> list[tuple]:
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    ended = []
    for _ in range(steps):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rew, done, _, info = env.step(actions)
        for i in np.flatnonzero(done):
            ended.append((i, int(info["opponent"][i]), int(info["outcome"][i]), float(rew[i])))
    return ended


@pytest.mark.slow
def test_outcome_is_the_learners_side_winning_in_every_reward_mode():
    def env(mode):  # each env its own seeded opponents
        return SkatVectorEnv(32, {"a": "random", "b": RandomPolicy(5)}, [1, 3], reward_mode=mode)

    zs = play(env("zero_sum"), 60, seed=1)
    sf = play(env("seeger_fabian"), 60, seed=1)
    assert len(zs) > 100
    # the same games (the reward mode draws nothing); zero-sum: outcome = sign of the reward
    assert [g[:3] for g in zs] == [g[:3] for g in sf]
    assert all(o == np.sign(r) for _, _, o, r in zs)
    assert {o for _, _, o, _ in zs} == {-1, 0, 1}
    # SF: a won game pays the learner more than a lost one
    assert min(r for *_, o, r in sf if o == 1) > max(r for *_, o, r in sf if o == -1)
    counts = np.bincount([g[1] for g in zs], minlength=2)
    assert 0.6 < counts[1] / counts.sum() < 0.9  # about 3:1


@pytest.mark.slow
def test_set_weights_steers_the_new_games_and_repeats_under_a_seed():
    def pool():
        return {"a": "random", "b": RandomPolicy(5), "c": RandomPolicy(6)}

    env = SkatVectorEnv(16, opponents=pool())
    assert env.opponent_names == ["a", "b", "c"]
    env.reset(seed=0)
    env.set_weights([0, 0, 1])
    env2 = SkatVectorEnv(16, opponents=pool())
    env2.reset(seed=0)
    env2.set_weights([0, 0, 1])
    rng = np.random.default_rng(0)
    for _ in range(80):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()])
        a = env.step(actions)
        b = env2.step(actions)
        assert all(
            (np.asarray(x) == np.asarray(y)).all() for x, y in zip(a[:3], b[:3], strict=True)
        )
        assert all((a[4][k] == b[4][k]).all() for k in a[4])
    assert (env.opponent == 2).all()  # every game started since plays c
    for bad in ([1, 2], [0, 0, 0], [1, -1, 1], [np.nan, 1, 1]):
        with pytest.raises(ValueError, match="weights must be 3"):
            env.set_weights(bad)
    assert (env._weights == [0, 0, 1]).all()


def test_after_eval_offers_only_a_fresh_evaluation(monkeypatch):
    from types import SimpleNamespace

    from skat_env.training.callbacks import AfterEvalCallback, PoolCallback

    offers, lines = [], []
    monkeypatch.setattr(PoolCallback, "offer_best", lambda self, model, rows: offers.append(rows))
    lc = PoolCallback(make_pool(1, best=True), snapshot_every=10)
    evaluator = SimpleNamespace(last=[{"opponent": "heuristic", "diff": 1.0}])
    cb = AfterEvalCallback(evaluator, lc, lines.append)
    cb.model = SimpleNamespace()
    cb._on_step()  # the evaluator skipped: its rows are the model before
    assert offers == [] and lines == []
    evaluator.last = [{"opponent": "heuristic", "diff": 2.0}]
    cb._on_step()
    cb._on_step()
    assert offers == [evaluator.last] and len(lines) == 1 and lines[0].startswith("pool: p0")


# --- train.py --opponents pool: -------------------------------------------------------------------

TINY = ["--timesteps", "256", "--n-envs", "8", "--n-steps", "16", "--batch-size", "64",
        "--n-epochs", "1", "--net-arch", "16", "--eval-every", "128", "--eval-deals", "2",
        "--final-eval-deals", "2", "--snapshot-every", "64", "--checkpoint-every", "1000",
        "--no-progress", "--init", "none", "--max-minutes", "0", "--no-tensorboard"]  # fmt: skip


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.slow
def test_a_pool_run_books_games_adds_snapshots_and_evaluates_the_panel(in_tmp, capsys):
    argv = [*TINY, "--opponents", "pool:random,heuristic:margin=-1,self,best",
            "--snapshot-pool", "2", "--eval-panel", "heuristic:margin=0.5"]  # fmt: skip
    assert train.main(["--name", "a", *argv]) == 0
    out = capsys.readouterr().out
    assert "opponents pool random, heuristic:margin=-1, self0, self1, best (hard)" in out
    table = json.loads((in_tmp / "runs/a/pool.json").read_text())
    assert [r["member"] for r in table] == [
        "random",
        "heuristic:margin=-1",
        "self0",
        "self1",
        "best",
    ]
    assert all(r["filled"] for r in table)  # a snapshot every 64 steps, best at step 0
    assert sum(r["games"] for r in table) > 10
    assert math.isclose(sum(r["weight"] for r in table), 1, abs_tol=1e-3)
    evals = json.loads((in_tmp / "runs/a/evals.json").read_text())
    assert {r["opponent"] for r in evals} == {"heuristic:margin=0.5"}
    assert train.main(["--name", "b", *argv]) == 0  # seeded: the same pool record
    assert json.loads((in_tmp / "runs/b/pool.json").read_text()) == table


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--opponents", "pool:heuristic", "--env", "single"], "pool: needs --env vector"),
        (["--opponents", "pool:heuristic:0.5"], "take no weights"),
        (["--opponents", "pool:heuristic,heuristic"], "twice"),
        (["--opponents", "pool:bogus"], "bad pool member"),
        (["--opponents", "pool:,"], "at least one member"),
        (["--opponents", "pool:self", "--pool-priority", "x"], "--pool-priority: invalid choice"),
        (["--league", "self"], "unrecognized arguments: --league"),  # the old flag
        (["--eval-panel", "bogus"], "bad evaluation opponent"),
        (["--eval-panel", "random,random"], "distinct"),
    ],
)
def test_bad_pool_flags_exit_2_with_a_message(in_tmp, capsys, argv, match):
    assert train.main([*TINY, *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("skat-train: error:") and match in err
