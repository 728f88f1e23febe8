"""The AEC environment: dealing, masks, rewards, results, ISS replays, bad input, rendering."""

import random
import re

import numpy as np
import pytest
from helpers import iss_records

from skat_env import DealError, IllegalMoveError, skat_v0
from skat_env.core.cards import CARD_NAMES, cards_of
from skat_env.core.moves import MOVE_NAMES, NUM_MOVES
from skat_env.core.rewards import REWARD_MODES, rewards_of
from skat_env.encoding.observation import HISTORY_OBS_SIZE, OBS_SIZE, STATE_SIZE
from skat_env.envs.aec import AGENTS
from skat_env.envs.render import card_text, render_view

ISS_PLAYABLE = [r for r in iss_records() if r.playable]


def play_out(env, rng: random.Random, check=None) -> dict[str, float]:
    """Random masked play to the end; returns each agent's final cumulative reward."""
    final = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _info = env.last()
        if check is not None:
            check(env, agent, obs)
        if term or trunc:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return final


@pytest.mark.parametrize("mode", ["default", "history"])
@pytest.mark.parametrize("reward_mode", REWARD_MODES)
def test_random_play__rewards_follow_the_reward_mode(reward_mode, mode):
    env = skat_v0.raw_env(reward_mode=reward_mode, observation_mode=mode)
    space = env.observation_space("player_0")
    rng = random.Random(1)

    def check(env, agent, obs):
        assert space.contains(obs)
        assert env.state_space.contains(env.state())

    played = 0
    for episode in range(40):
        env.reset(seed=episode)
        game = env.game
        final = play_out(env, rng, check if episode < 5 else None)
        result = game.result
        assert set(final) == set(AGENTS) and not env.agents
        got = tuple(final[a] for a in AGENTS)
        if result.passed_in:
            assert got == (0, 0, 0)
            continue
        played += 1
        d = result.declarer
        assert got[d] == (
            result.seeger_fabian[d] if reward_mode == "seeger_fabian" else result.score
        )
        if reward_mode == "zero_sum":
            assert sum(got) == 0 and all(got[s] == -result.score / 2 for s in range(3) if s != d)
        if reward_mode == "list":
            assert all(got[s] == 0 for s in range(3) if s != d)
        if reward_mode == "seeger_fabian":
            assert got == result.seeger_fabian
    assert played > 20


def test_mask__equals_engine_legal_set_at_every_step_for_every_agent():
    env = skat_v0.raw_env()
    rng = random.Random(2)

    def check(env, agent, obs):
        for a in AGENTS:
            mask = env.observe(a)["action_mask"]
            legal = env.game.legal_actions() if a == agent and env.game.to_act >= 0 else []
            assert np.flatnonzero(mask).tolist() == legal

    for episode in range(20):
        env.reset(seed=100 + episode)
        play_out(env, rng, check)


def test_result__is_in_infos_at_the_end_only():
    env = skat_v0.raw_env()
    env.reset(seed=7)
    assert all(info == {} for info in env.infos.values())
    game = env.game
    for _agent in env.agent_iter():
        _, _, term, _, info = env.last()
        if term:
            assert info["result"] == game.result.to_dict()
            env.step(None)
        else:
            assert "result" not in info
            env.step(game.legal_actions()[0])


def test_passed_in_deal__ends_with_zero_rewards():
    env = skat_v0.raw_env()
    env.reset(seed=1)
    for _ in range(3):
        env.step(MOVE_NAMES.index("pass"))
    assert all(env.terminations.values()) and env.game.result.passed_in
    assert env._cumulative_rewards == dict.fromkeys(AGENTS, 0.0)
    assert env.infos["player_1"]["result"]["passed_in"] is True


def test_reset__dealer_rotates_clockwise_and_options_fix_dealer_and_deal():
    env = skat_v0.raw_env()
    dealers = []
    for _ in range(4):
        env.reset()
        dealers.append(env.game.dealer)
    assert dealers == [2, 0, 1, 2]
    deal = " ".join(reversed(CARD_NAMES))
    env.reset(options={"dealer": 1, "deal": deal})
    assert env.game.dealer == 1 and env.agent_selection == "player_0"  # middlehand bids first
    assert cards_of(env.game.hands[2]) == sorted(range(22, 32))
    env.reset()
    assert env.game.dealer == 2  # rotation continues from the fixed dealer


def test_reset__same_seed_same_deal():
    a, b = skat_v0.raw_env(), skat_v0.raw_env()
    a.reset(seed=42)
    b.reset(seed=42)
    assert a.game.deal == b.game.deal
    a.reset(seed=43)
    assert a.game.deal != b.game.deal


def test_spaces__are_cached_and_match_the_doc_page():
    env = skat_v0.raw_env()
    assert env.observation_space("player_1") is env.observation_space("player_1")
    assert env.action_space("player_2") is env.action_space("player_2")
    doc = skat_v0.__doc__
    assert f"Discrete({NUM_MOVES})" in doc and f"({NUM_MOVES},) int8" in doc
    shapes = re.search(r"Observation shape \| .*?\((\d+),\) or \((\d+),\)", doc).groups()
    assert tuple(map(int, shapes)) == (OBS_SIZE, HISTORY_OBS_SIZE)
    assert f"({STATE_SIZE},) float32" in doc and f"float32[{STATE_SIZE}]" in doc
    hist = skat_v0.raw_env(observation_mode="history")
    assert env.observation_space("player_0")["observation"].shape == (OBS_SIZE,)
    assert hist.observation_space("player_0")["observation"].shape == (HISTORY_OBS_SIZE,)
    assert env.state_space.shape == (STATE_SIZE,)


def test_action_mapping__round_trips_every_index():
    for i in range(NUM_MOVES):
        assert skat_v0.move_to_action(skat_v0.action_to_move(i)) == i
    assert skat_v0.action_to_move(95) == "hold" and skat_v0.move_to_action("grand ouvert") == 120
    with pytest.raises(ValueError):
        skat_v0.action_to_move(NUM_MOVES)
    with pytest.raises(ValueError, match="unknown move"):
        skat_v0.move_to_action("XX")
    with pytest.raises(TypeError):
        skat_v0.action_to_move(1.0)


@pytest.mark.parametrize("rec", ISS_PLAYABLE, ids=lambda r: r.id)
def test_iss_records__replayed_through_env_pay_the_recorded_score(rec):
    env = skat_v0.raw_env(reward_mode="zero_sum")
    env.reset(options={"dealer": 2, "deal": rec.deal})
    for move in rec.moves:
        env.step(skat_v0.move_to_action(move))
    assert all(env.terminations.values())
    got = [env._cumulative_rewards[a] for a in AGENTS]
    if "d" not in rec.result:  # passed in
        assert got == [0, 0, 0]
        return
    d, score = rec.result["d"], rec.result["v"]
    assert got[d] == score
    assert [got[s] for s in range(3) if s != d] == [-score / 2, -score / 2]
    assert rewards_of(env.game.result, "list")[d] == score


# --- bad input ---


def fresh(**kw):
    env = skat_v0.raw_env(**{"illegal_action": "raise", **kw})
    env.reset(seed=3)
    return env


def test_bad_action__illegal_move_raises_and_leaves_the_game_untouched():
    env = fresh()
    before = (list(env.game.history), env.agent_selection)
    with pytest.raises(IllegalMoveError, match="cannot play 'hold'"):
        env.step(MOVE_NAMES.index("hold"))  # middlehand bids first, cannot hold
    assert (env.game.history, env.agent_selection) == before


@pytest.mark.parametrize("action", [-1, NUM_MOVES, 10**6])
def test_bad_action__out_of_range_raises(action):
    with pytest.raises(IllegalMoveError, match="not a move id"):
        fresh().step(action)


@pytest.mark.parametrize("action", [32.0, "18", True, None, np.float32(32)])
def test_bad_action__wrong_type_raises(action):
    with pytest.raises(TypeError, match="move id, an integer 0..120"):
        fresh().step(action)


def test_action__numpy_integers_are_accepted():
    env = fresh()
    env.step(np.int64(32))
    env.step(np.array(95, dtype=np.int8))
    assert [MOVE_NAMES[m] for _, m in env.game.history] == ["18", "hold"]


def test_step_after_the_end__raises():
    env = fresh()
    for _ in range(3):
        env.step(MOVE_NAMES.index("pass"))
    with pytest.raises(ValueError, match="only step None"):
        env.step(0)
    for _ in range(3):
        env.step(None)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(None)


@pytest.mark.parametrize(
    "options, error",
    [
        ({"deal": "CJ SJ"}, DealError),
        ({"deal": " ".join(CARD_NAMES[:31] + ("CA",))}, DealError),
        ({"deal": "XX " * 32}, DealError),
        ({"dealer": 3}, ValueError),
        ({"dealer": "0"}, TypeError),
        ("dealer=1", TypeError),
    ],
)
def test_reset__bad_options_raise(options, error):
    with pytest.raises(error):
        skat_v0.raw_env().reset(options=options)


def test_reset__unknown_option_warns():
    with pytest.warns(UserWarning, match="deler"):
        skat_v0.raw_env().reset(options={"deler": 1})


@pytest.mark.parametrize(
    "kw", [{"reward_mode": "points"}, {"observation_mode": "full"}, {"render_mode": "rgb_array"}]
)
def test_constructor__unknown_mode_raises(kw):
    with pytest.raises(ValueError, match="must be one of"):
        skat_v0.raw_env(**kw)


# --- rendering ---


def test_render__ansi_shows_every_hand_with_suit_symbols():
    env = fresh(render_mode="ansi")
    text = env.render()
    for seat in range(3):
        for c in cards_of(env.game.hands[seat]):
            assert card_text(c) in text.split()
    assert "♣" in text and "bid:" in text


def test_render__human_prints(capsys):
    env = fresh(render_mode="human")
    assert env.render() is None
    assert "phase: bidding" in capsys.readouterr().out


def test_render_view__shows_only_what_the_player_may_see():
    env = fresh()
    rng = random.Random(0)
    while env.game.phase != 4 or not env.game.trick:  # play until a trick is running
        if env.game.is_over:
            env.reset()
            continue
        legal = env.game.legal_actions()
        env.step(legal[rng.randrange(len(legal))])
    agent = env.agent_selection
    seat = AGENTS.index(agent)
    view = env.view(agent)
    tokens = set(render_view(view).split())
    for c in cards_of(view.hand):
        assert card_text(c) in tokens
    hidden = (env.game.hands[(seat + 1) % 3] | env.game.hands[(seat + 2) % 3]) & ~view.open_hand
    if not view.skat:
        hidden |= env.game.skat & ~(view.played[0] | view.played[1] | view.played[2])
    hidden &= ~view.hand
    assert hidden and not {card_text(c) for c in cards_of(hidden)} & tokens
    assert "your moves:" in render_view(view)
