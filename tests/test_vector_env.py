"""The learner-seat vector env on the batched engine: API, invariants, batched opponents."""

from __future__ import annotations

import numpy as np
import pytest

from skat_env.core.game import Game
from skat_env.core.rewards import rewards_of
from skat_env.encoding.observation import OBS_SIZE, observe
from skat_env.envs.vector_env import SkatVectorEnv


def last_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """A deterministic batched policy: the highest legal move id (passes in the auction)."""
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(1)


def play(env: SkatVectorEnv, steps: int, seed: int):
    rng = np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    total, episodes = np.zeros(env.num_envs), 0
    for _ in range(steps):
        mask = env.action_masks()
        assert mask.any(1).all()  # the learner always has a move
        assert (env.state.to_act == env.seats).all()
        actions = (rng.random(mask.shape) * mask).argmax(1)
        obs, rew, term, trunc, info = env.step(actions)
        assert obs.shape == (env.num_envs, OBS_SIZE) and not trunc.any()
        assert not rew[~term].any()
        total += rew
        episodes += int(term.sum())
    return total, episodes


def _opponents_move(game: Game, seat: int) -> None:
    """The single-game mirror of ``last_legal`` opponents: play until ``seat`` is to act."""
    while not game.is_over and game.to_act != seat:
        game.step(game.legal_actions()[-1])


def test_vector_env__equals_single_game_engine_with_the_same_moves():
    n = 12
    env = SkatVectorEnv(n, opponents={"last": last_legal}, reward_mode="seeger_fabian")
    obs, _ = env.reset(seed=5)
    s = env.state
    games = [Game(s.deal[b], int(s.dealer[b])) for b in range(n)]
    seats = env.seats.copy()
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(150):
        for b, g in enumerate(games):
            _opponents_move(g, int(seats[b]))
            np.testing.assert_array_equal(obs[b], observe(g, int(seats[b]))["observation"])
        actions = (rng.random((n, 121)) * env.action_masks()).argmax(1)
        obs, rew, term, _, _ = env.step(actions)
        for b, g in enumerate(games):
            g.step(int(actions[b]))
            _opponents_move(g, int(seats[b]))
            assert g.is_over == term[b]
            if term[b]:
                ended += 1
                assert rew[b] == rewards_of(g.result, "seeger_fabian")[seats[b]]
                games[b] = Game(s.deal[b], int(s.dealer[b]))
                seats[b] = env.seats[b]
    assert ended > 40


def test_vector_env__zero_sum_rewards_and_episodes():
    env = SkatVectorEnv(16, opponents={"random": "random", "last": last_legal},
                        weights=[0.5, 0.5], reward_mode="zero_sum")  # fmt: skip
    total, episodes = play(env, 150, seed=2)
    assert episodes > 30
    assert set(np.unique(env.opponent)) <= {0, 1}


def test_vector_env__fixed_seat_and_scale():
    env = SkatVectorEnv(4, seat=1, reward_scale=0.01, reward_mode="list")
    play(env, 100, seed=3)
    assert (env.seats == 1).all()


def test_vector_env__rejects_bad_settings():
    with pytest.raises(ValueError, match="seat"):
        SkatVectorEnv(2, seat=3)
    with pytest.raises(ValueError, match="weights"):
        SkatVectorEnv(2, opponents={"random": "random"}, weights=[1, 2])
    with pytest.raises(ValueError, match="reward_mode"):
        SkatVectorEnv(2, reward_mode="x")


def test_sb3_vec_env__maskable_ppo_interface():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

    from skat_env.envs.vector_env import sb3_vec_env

    env = sb3_vec_env(6, reward_scale=0.01)
    env.seed(7)
    obs = env.reset()
    assert obs.shape == (6, OBS_SIZE) and is_masking_supported(env)
    rng = np.random.default_rng(7)
    dones = 0
    for _ in range(60):
        masks = get_action_masks(env)
        assert masks.shape == (6, 121) and masks.any(1).all()
        obs, rew, done, infos = env.step((rng.random(masks.shape) * masks).argmax(1))
        assert rew.dtype == np.float32 and len(infos) == 6
        dones += int(done.sum())
        assert all("result_score" in infos[i] for i in np.flatnonzero(done))
    assert dones > 0


def test_vector_env__illegal_learner_action_raises_or_loses():
    from skat_env.vector import IllegalActionError

    env = SkatVectorEnv(3, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="game"):
        env.step(np.full(3, 120))  # "grand ouvert" during the auction
    env = SkatVectorEnv(3, illegal_reward=-600.0, reward_scale=0.5)  # terminate: the default
    env.reset(seed=0)
    _, rew, term, _, _ = env.step(np.full(3, 120))
    assert term.all() and (rew == -300.0).all()
