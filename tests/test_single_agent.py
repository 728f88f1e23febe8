"""The learner-seat Gymnasium env: checker, reward attribution against the AEC env, masks,
opponents, seeding, bad input."""

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env import IllegalMoveError, skat_v0
from skat_env.agents.registry import make_agent
from skat_env.core.moves import PASS
from skat_env.encoding.observation import LAYOUT, OBS_SIZE, observe
from skat_env.envs.aec import AGENTS, REWARD_MODES
from skat_env.envs.single_agent import SkatSingleAgentEnv


def random_episode(env: SkatSingleAgentEnv, seed: int, rng: np.random.Generator, options=None):
    """Play one episode with a uniformly random learner; return (rewards, env)."""
    obs, info = env.reset(seed=seed, options=options)
    rewards, done = [], False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        obs, r, done, trunc, info = env.step(int(rng.choice(legal)))
        assert not trunc
        rewards.append(r)
    return rewards, info


def aec_reward(mode: str, deal, dealer: int, history, seat: int) -> float:
    """The reward the AEC env gives ``seat`` when the same moves are played on the same deal."""
    env = skat_v0.raw_env(reward_mode=mode)
    env.reset(options={"deal": list(deal), "dealer": dealer})
    moves = iter(history)
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        who, move = next(moves)
        assert AGENTS[who] == agent
        env.step(move)
    return final[AGENTS[seat]]


def test_env_checker_passes():
    check_env(SkatSingleAgentEnv(), skip_render_check=True)
    heur = make_agent("heuristic")
    check_env(SkatSingleAgentEnv(opponents=[heur, heur], seat=1), skip_render_check=True)


def test_spaces_hold_the_flat_observation():
    env = SkatSingleAgentEnv()
    obs, info = env.reset(seed=3)
    assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
    assert env.observation_space.contains(obs)
    assert env.action_space.n == 121
    assert np.array_equal(obs, observe(env.game, info["seat"])["observation"])


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_rewards_equal_the_aec_rewards_of_the_learner_seat(mode):
    rng = np.random.default_rng(7)
    env = SkatSingleAgentEnv(reward_mode=mode)
    seen = {"declarer": 0, "defender": 0, "passed": 0}
    for seed in range(250):
        rewards, info = random_episode(env, seed, rng)
        game, seat = env.game, env.seat
        assert all(r == 0 for r in rewards[:-1])
        expected = aec_reward(mode, game.deal, game.dealer, game.history, seat)
        assert rewards[-1] == expected
        res = game.result
        seen["passed" if res.passed_in else "declarer" if res.declarer == seat else "defender"] += 1
    assert seen["declarer"] > 20 and seen["defender"] > 20, seen  # both roles were checked


def test_reward_scale_multiplies_the_reward():
    rng1, rng2 = np.random.default_rng(1), np.random.default_rng(1)
    for seed in range(30):
        a, _ = random_episode(SkatSingleAgentEnv(reward_mode="list"), seed, rng1)
        b, _ = random_episode(SkatSingleAgentEnv(reward_mode="list", reward_scale=0.01), seed, rng2)
        assert b[-1] == pytest.approx(a[-1] * 0.01)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), seat=st.sampled_from([None, 0, 1, 2]),
       dealer=st.integers(0, 2))  # fmt: skip
def test_learner_is_only_asked_to_act_with_a_legal_nonempty_mask(seed, seat, dealer):
    env = SkatSingleAgentEnv(seat=seat, dealer=dealer)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    if seat is not None:
        assert env.seat == seat
    steps, done = 0, False
    while not done:
        game = env.game
        mask = env.action_masks()
        assert game.to_act == env.seat
        assert mask.any()
        assert set(np.flatnonzero(mask)) == set(game.legal_actions())
        _, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
    assert steps >= 1
    assert not env.action_masks().any()


@pytest.mark.parametrize("mode", REWARD_MODES)
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_thrown_in_deal_still_gives_the_learner_its_turn(seat, mode):
    """Every seat acts in the auction, so even a deal all three pass has a learner step."""
    always_pass = lambda obs: PASS  # noqa: E731
    env = SkatSingleAgentEnv(opponents=[always_pass, always_pass], seat=seat, reward_mode=mode)
    env.reset(seed=0)
    assert env.action_masks()[PASS]
    _, reward, done, _, info = env.step(PASS)
    assert done and info["result"]["passed_in"]
    game = env.game
    assert reward == aec_reward(mode, game.deal, game.dealer, game.history, seat) == 0.0


def test_opponents_get_their_own_seats_observation_dict():
    calls = []

    def spy(obs):
        calls.append(obs)
        legal = np.flatnonzero(obs["action_mask"])
        return int(legal[0])

    env = SkatSingleAgentEnv(opponents=[spy, spy], seat=0)
    rng = np.random.default_rng(0)
    for seed in range(20):
        random_episode(env, seed, rng)
    assert calls
    for obs in calls:
        assert set(obs) == {"observation", "action_mask"}
        assert obs["observation"].shape == (OBS_SIZE,) and obs["action_mask"].any()
    # each call is an opponent's own observation: its seat one-hot is never the learner's
    seats = {int(np.argmax(o["observation"][LAYOUT["seat"]])) for o in calls}
    assert seats == {1, 2}


def test_view_agents_play_as_they_would_from_the_observation_dict():
    """The act_view shortcut gives the same games as act(obs_dict)."""
    heur = make_agent("heuristic")
    via_obs = lambda obs: heur.act(obs)  # noqa: E731  (a plain callable: no act_view)
    rng1, rng2 = np.random.default_rng(5), np.random.default_rng(5)
    for seed in range(40):
        a = SkatSingleAgentEnv(opponents=[heur, heur])
        b = SkatSingleAgentEnv(opponents=[via_obs, via_obs])
        random_episode(a, seed, rng1)
        random_episode(b, seed, rng2)
        assert a.game.history == b.game.history


def test_sampler_draws_opponents_each_game_from_the_env_generator():
    drawn = []

    def sampler(rng):
        name = ["random", "heuristic"][int(rng.integers(2))]
        drawn.append(name)
        agent = make_agent(name, seed=1)
        return agent, agent

    env = SkatSingleAgentEnv(opponents=sampler)
    rng = np.random.default_rng(0)
    for seed in range(20):
        random_episode(env, seed, rng)
    assert len(drawn) == 20 and set(drawn) == {"random", "heuristic"}


def test_same_seed_same_episode_also_with_seeded_agents():
    def run():
        rand = make_agent("random", seed=0)
        env = SkatSingleAgentEnv(opponents=[rand, make_agent("heuristic")])
        rng = np.random.default_rng(11)
        out = []
        for seed in range(15):
            rewards, _ = random_episode(env, seed, rng)
            out.append((env.seat, tuple(env.game.history), rewards[-1]))
        return out

    assert run() == run()


def test_illegal_action_terminates_with_the_penalty_or_raises():
    env = SkatSingleAgentEnv(illegal_reward=-700.0, reward_scale=0.5)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -350.0 and info["illegal_action"]
    with pytest.raises(RuntimeError, match="episode ended"):
        env.step(env.game.legal_actions()[0])  # a legal move, but the episode is over
    strict = SkatSingleAgentEnv(illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalMoveError):
        strict.step(illegal)
    with pytest.raises(RuntimeError, match="reset"):
        SkatSingleAgentEnv().step(0)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"reward_mode": "points"}, "reward_mode"),
        ({"seat": 3}, "seat"),
        ({"dealer": -1}, "dealer"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"opponents": [lambda o: 0]}, "two opponent"),
        ({"opponents": [1, 2]}, "a policy is an object with .act"),
        ({"illegal_reward": -1.0}, "worst game outcome"),
        ({"reward_scale": 0}, "positive"),
    ],
)
def test_bad_arguments_are_refused_clearly(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        SkatSingleAgentEnv(**kwargs)
