"""Bad input at every entry point: one rule per kind of input, a clear error naming what is
allowed, and nothing changed by a refused call."""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from skat_env import skat_v0, vector
from skat_env.core.game import DealError, Game, IllegalMoveError, random_deal
from skat_env.core.rewards import ILLEGAL_ACTIONS, REWARD_MODES, worst_reward
from skat_env.envs.single_agent import SkatSingleAgentEnv
from skat_env.envs.vector_env import SkatVectorEnv

DEAL = random_deal(0)


# --- deals ---
BAD_DEALS = {  # name: (a fresh bad deal, what the error says)
    "dict": (lambda: dict.fromkeys(DEAL), "got dict"),
    "floats": (lambda: [c + 0.7 for c in DEAL], r"card 0 is .*\(float\)"),
    "whole floats": (lambda: [float(c) for c in DEAL], r"\(float\)"),
    "bools": (lambda: [True, *DEAL[1:]], r"card 0 is True \(bool\)"),
    "None": (lambda: None, "got NoneType"),
    "set": (lambda: set(DEAL), "got set"),
    "generator": (lambda: (c for c in DEAL), "got generator"),
    "mixed": (lambda: ["CA", *DEAL[1:]], "mixes 1 card names with 31 other items"),
    "float array": (lambda: np.array(DEAL, float), "float64 array"),
    "2-d array": (lambda: np.array(DEAL).reshape(4, 8), r"shape \(4, 8\)"),
    "31 cards": (lambda: DEAL[:31], "expected 32 cards"),
    "duplicate": (lambda: [DEAL[0], *DEAL[:31]], "duplicate cards"),
    "id 32": (lambda: [32, *DEAL[1:]], "card ids must be 0..31"),
    "unknown name": (lambda: "XX " * 32, "unknown card 'XX'"),
}


@pytest.mark.parametrize("case", BAD_DEALS)
def test_bad_deal__is_a_deal_error_saying_what_is_wrong_at_every_entry_point(case):
    bad, match = BAD_DEALS[case]
    with pytest.raises(DealError, match="malformed deal: .*" + match):
        Game(bad())
    for env in (skat_v0.raw_env(), skat_v0.env(), SkatSingleAgentEnv()):
        if case == "None":  # {"deal": None} is "no fixed deal", as for every reset option
            continue
        with pytest.raises(DealError, match=match):
            env.reset(options={"deal": bad()})
    with pytest.raises(DealError, match="game 1: malformed deal: .*" + match):
        vector.init_from_deals([DEAL, bad()])


@pytest.mark.parametrize("deals", [None, {"a": DEAL}, 5, (d for d in [DEAL])])
def test_init_from_deals__refuses_what_is_not_a_batch(deals):
    with pytest.raises(DealError, match="deals must be a list or tuple"):
        vector.init_from_deals(deals)


@pytest.mark.parametrize(
    "deal",
    [
        DEAL,
        tuple(DEAL),
        np.array(DEAL, np.int8),
        np.array(DEAL, np.uint64),
        [np.int64(c) for c in DEAL],
    ],
)
def test_good_deals__of_any_integer_type_give_plain_ints(deal):
    game = Game(deal)
    assert game.deal == tuple(DEAL) and all(type(c) is int for c in game.deal)


# --- seats, counts, rewards ---
@pytest.mark.parametrize("dealer", [1.0, True, np.bool_(False), "1", None])
def test_dealer__must_be_an_integer_seat(dealer):
    with pytest.raises(TypeError, match="dealer must be seat 0, 1 or 2"):
        Game(DEAL, dealer)
    with pytest.raises(TypeError, match="dealer must be seat 0, 1 or 2"):
        vector.init(2, dealer=dealer)
    if dealer is not None:  # None means "rotate" in the reset options
        with pytest.raises(TypeError, match="dealer'? must be seat 0, 1 or 2"):
            skat_v0.raw_env().reset(options={"dealer": dealer})


@pytest.mark.parametrize("dealer", [3, -1, np.int64(5)])
def test_dealer__out_of_range_is_refused(dealer):
    with pytest.raises(DealError, match="seat 0, 1 or 2"):
        Game(DEAL, dealer)
    with pytest.raises(ValueError, match="seat 0, 1 or 2"):
        vector.init(2, dealer=dealer)
    with pytest.raises(ValueError, match="seat 0, 1 or 2"):
        SkatSingleAgentEnv(dealer=dealer)


@pytest.mark.parametrize("seat, error", [(5, ValueError), (-1, ValueError), (1.0, TypeError)])
def test_single_agent_seat_option__is_a_seat(seat, error):
    env = SkatSingleAgentEnv()
    with pytest.raises(error, match="seat"):
        env.reset(options={"seat": seat})
    with pytest.raises(error, match="seat"):
        SkatVectorEnv(2, seat=seat)


@pytest.mark.parametrize("seed, error", [(1.5, TypeError), (True, TypeError), (-1, ValueError)])
def test_seeds__are_none_or_non_negative_integers_everywhere(seed, error):
    for env in (skat_v0.raw_env(), skat_v0.env(), SkatSingleAgentEnv(), SkatVectorEnv(2)):
        with pytest.raises(error, match="seed"):
            env.reset(seed=seed)
    with pytest.raises(error, match="seed"):
        vector.init(2, seed=seed)
    skat_v0.raw_env().reset(seed=np.uint32(7))  # NumPy integers are seeds too


@pytest.mark.parametrize("n, error", [(2.5, TypeError), (True, TypeError), (0, ValueError)])
def test_counts__are_positive_integers(n, error):
    with pytest.raises(error):
        vector.init(n)
    with pytest.raises(error):
        SkatVectorEnv(n)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"illegal_reward": float("nan")}, ValueError, "finite"),
        ({"illegal_reward": float("-inf")}, ValueError, "finite"),
        ({"illegal_reward": True}, TypeError, "real number"),
        ({"illegal_reward": -1.0}, ValueError, "worst game outcome"),
        ({"illegal_action": "loss"}, ValueError, "'terminate', 'raise'"),
        ({"reward_scale": float("nan")}, ValueError, "finite"),
        ({"reward_scale": -1}, ValueError, "positive"),
    ],
)
def test_env_settings__refused_with_the_same_message_everywhere(kwargs, error, match):
    makers = [skat_v0.raw_env, skat_v0.env, SkatSingleAgentEnv, lambda **kw: SkatVectorEnv(2, **kw)]
    if "reward_scale" not in kwargs:
        makers.append(lambda **kw: vector.init(2, **kw))
    for make in makers:
        with pytest.raises(error, match=match):
            make(**kwargs)


def test_illegal_vocabulary__same_names_and_defaults_in_every_env():
    assert ILLEGAL_ACTIONS == ("terminate", "raise")
    for fn in (
        skat_v0.raw_env,
        SkatSingleAgentEnv,
        SkatVectorEnv,
        vector.init,
        vector.init_from_deals,
    ):
        params = inspect.signature(fn).parameters
        assert params["illegal_action"].default == "terminate", fn
        assert params["illegal_reward"].default is None, fn
    assert skat_v0.env().unwrapped.illegal_action == "terminate"


# --- actions ---
NOT_ACTIONS = [True, np.bool_(True), "96", 96.9, 96.0, None, [96], np.array([96])]


def _aec(make):
    env = make(illegal_action="raise")
    env.reset(seed=0)
    return env


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_non_integer_action__same_type_error_everywhere_and_nothing_changes(action):
    message = "an action is a move id, an integer 0..120"
    for make in (skat_v0.raw_env, skat_v0.env):
        env = _aec(make)
        before = env.observe(env.agent_selection)["observation"].copy()
        with pytest.raises(TypeError, match=message):
            env.step(action)
        assert not env.unwrapped.game.history
        np.testing.assert_array_equal(env.observe(env.agent_selection)["observation"], before)
    single = SkatSingleAgentEnv()
    obs, _ = single.reset(seed=0)
    history = list(single.game.history)
    with pytest.raises(TypeError, match=message):
        single.step(action)
    assert single.game.history == history and not single._ended
    with pytest.raises(TypeError, match=message):
        Game(DEAL).step(action)


@pytest.mark.parametrize("cast", [np.int64, np.uint64, np.int16, lambda a: np.array(a)])
def test_integer_actions__of_every_integer_type_are_played_by_every_env(cast):
    for make in (skat_v0.raw_env, skat_v0.env):
        env = _aec(make)
        legal = int(np.flatnonzero(env.last()[0]["action_mask"])[0])
        env.step(cast(legal))
        assert env.unwrapped.game.history == [(1, legal)]
    single = SkatSingleAgentEnv()
    single.reset(seed=0)
    n = len(single.game.history)
    single.step(cast(int(np.flatnonzero(single.action_masks())[0])))
    assert len(single.game.history) > n


@pytest.mark.parametrize("action", [121, -1, 10**6, np.uint64(2**63 + 5)])
def test_integers_that_are_not_move_ids__raise_in_both_illegal_modes(action):
    for mode in ILLEGAL_ACTIONS:
        env = skat_v0.raw_env(illegal_action=mode)
        env.reset(seed=0)
        with pytest.raises(IllegalMoveError, match="not a move id"):
            env.step(action)
        assert not any(env.terminations.values())
        single = SkatSingleAgentEnv(illegal_action=mode)
        single.reset(seed=0)
        with pytest.raises(IllegalMoveError, match="not a move id"):
            single.step(action)


@pytest.mark.parametrize(
    "actions, error, match",
    [
        (np.full(4, 96.9), TypeError, "integer move ids"),
        (np.full(4, True), TypeError, "integer move ids"),
        ([96, 96, 96, 96.5], TypeError, "integer move ids"),
        (np.full(3, 96), ValueError, r"shape \(4,\)"),
        (np.full(4, 121), IllegalMoveError, "not move ids"),
    ],
)
def test_vector_actions__checked_before_anything_changes(actions, error, match):
    env = SkatVectorEnv(4)
    env.reset(seed=0)
    before = env.state.obs.copy()
    with pytest.raises(error, match=match):
        env.step(actions)
    np.testing.assert_array_equal(env.state.obs, before)
    s = vector.init(4, seed=0)
    before = s.obs.copy()
    with pytest.raises(error, match=match):
        vector.step(s, actions)
    np.testing.assert_array_equal(s.obs, before)


# --- before reset, refused resets ---
@pytest.mark.parametrize("make", [skat_v0.raw_env, skat_v0.env], ids=["raw_env", "env"])
@pytest.mark.parametrize("call", ["step", "last", "observe", "state"])
def test_before_reset__every_call_says_call_reset_first(make, call):
    env = make()
    args = {"step": (0,), "last": (), "observe": ("player_0",), "state": ()}[call]
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        getattr(env, call)(*args)


def test_vector_and_single_agent_envs__before_reset_say_so():
    with pytest.raises(RuntimeError, match="reset"):
        SkatVectorEnv(2).step(np.zeros(2, int))
    with pytest.raises(RuntimeError, match="reset"):
        SkatSingleAgentEnv().step(0)


BAD_RESETS = [
    {"deal": DEAL[:31]},
    {"dealer": 7},
    {"dealer": 1.5},
]


@pytest.mark.parametrize("options", BAD_RESETS)
@pytest.mark.parametrize("make", [skat_v0.raw_env, skat_v0.env, SkatSingleAgentEnv])
def test_refused_reset__keeps_the_old_game_and_the_old_seed(make, options):
    def deal_of(env):
        return env.unwrapped.game.deal

    env, twin = make(), make()
    env.reset(seed=1)
    twin.reset(seed=1)
    with pytest.raises((ValueError, TypeError)):
        env.reset(seed=42, options=options)
    assert deal_of(env) == deal_of(twin)  # the old game is still there
    env.reset()
    twin.reset()
    assert deal_of(env) == deal_of(twin)  # and the shuffle did not take seed 42


def test_single_agent_reset__refuses_unknown_options():
    with pytest.raises(ValueError, match="unknown reset option.*'sat'.*known: deal, dealer, seat"):
        SkatSingleAgentEnv().reset(options={"sat": 1})
    with pytest.raises(ValueError, match="unknown reset option"):
        SkatVectorEnv(2).reset(options={"dealer": 1})


# --- the illegal-move penalty never pays ---
@pytest.mark.parametrize("mode", REWARD_MODES)
def test_illegal_move__costs_at_least_the_worst_game_in_every_env(mode):
    worst = worst_reward(mode) * 0.01
    env = skat_v0.env(reward_mode=mode, reward_scale=0.01)
    env.reset(seed=0)
    agent = env.agent_selection
    env.step(95)  # hold before any bid
    assert env.rewards[agent] == pytest.approx(worst)
    single = SkatSingleAgentEnv(reward_mode=mode, reward_scale=0.01)
    single.reset(seed=0)
    _, reward, done, _, _ = single.step(int(np.flatnonzero(~single.action_masks())[0]))
    assert done and reward == pytest.approx(worst)
    vec = SkatVectorEnv(2, reward_mode=mode, reward_scale=0.01)
    vec.reset(seed=0)
    _, rewards, done, _, _ = vec.step(np.full(2, 120))
    assert done.all() and rewards == pytest.approx([worst, worst])


def test_reward_scale__scales_the_game_rewards_of_the_aec_env():
    rewards = []
    for scale in (1.0, 0.01):
        env = skat_v0.raw_env(reward_scale=scale)
        env.reset(seed=4, options={"dealer": 2})
        rng = random.Random(4)
        while not all(env.terminations.values()):
            legal = np.flatnonzero(env.last()[0]["action_mask"])
            env.step(int(rng.choice(legal)))
        rewards.append(dict(env.rewards))
    assert any(rewards[0].values())
    assert rewards[1] == pytest.approx({a: r * 0.01 for a, r in rewards[0].items()})
