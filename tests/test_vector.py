"""The batched engine against the single-game engine: same deals, same moves, same everything.

The differential test drives ``skat_env.vector`` and one :class:`skat_env.core.game.Game` per slot
with identical deals and identical (biased random) legal moves, and asserts at every step the
same player to act, legal mask, observation (:func:`skat_env.encoding.observation.observe`, the AEC
env's default observation), termination, result and per-seat rewards in every reward mode.
``SKAT_VECTOR_GAMES=20000 pytest tests/test_vector.py -k differential`` runs a long version.
"""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env import vector
from skat_env.core.cards import CARD_NAMES
from skat_env.core.game import BIDDING, DECLARE, PLAY, Game, random_deal
from skat_env.core.moves import (
    FIRST_BID,
    FIRST_DECLARATION,
    HAND,
    HOLD,
    MOVE_INDEX,
    NUM_MOVES,
    PASS,
)
from skat_env.core.rewards import rewards_of
from skat_env.core.scoring import Contract, score_game
from skat_env.core.tables import BID_VALUES, STRENGTH
from skat_env.encoding.observation import OBS_SIZE, action_mask, observe

DIFF_GAMES = int(os.environ.get("SKAT_VECTOR_GAMES", "600"))
MODES = vector.REWARD_MODES


def biased_move(game: Game, rng: random.Random, style: int) -> int:
    """A legal move, biased so that rare branches (thrown-in deals, hand games, ouvert,
    schwarz/schneider announcements, null, won schwarz) come up often."""
    legal = game.legal_actions()
    phase = game.phase
    if phase == BIDDING:
        r = rng.random()
        if r < 0.4:
            return PASS
        if HOLD in legal and r < 0.85:
            return HOLD
        bids = [m for m in legal if FIRST_BID <= m < HOLD]
        if bids:
            return bids[0] if rng.random() < 0.6 else rng.choice(bids[:15] if r < 0.97 else bids)
        return rng.choice(legal)
    if phase == DECLARE:  # favour the rare families: null, ouvert, announcements
        rare = [m for m in legal if m >= FIRST_DECLARATION + 5]
        return rng.choice(rare if rare and rng.random() < 0.4 else legal)
    if phase == PLAY and style:
        # style 1: the declarer plays strong, the defenders weak (wins, schneider, schwarz);
        # style 2: the other way round (the defenders' schneider and schwarz)
        strength = STRENGTH[game.game_kind]
        strong = (game.to_act == game.declarer) == (style == 1)
        return max(legal, key=lambda c: strength[c] if strong else -strength[c])
    return rng.choice(legal)


def check_same(state: vector.VecState, games: list[Game]) -> None:
    """Every per-game output of the batched state equals the single-game engine's."""
    for b, game in enumerate(games):
        seat = game.to_act
        assert state.to_act[b] == seat, (b, game.history)
        expect = observe(game, seat)
        np.testing.assert_array_equal(state.legal_mask[b], expect["action_mask"], err_msg=str(b))
        np.testing.assert_array_equal(state.obs[b], expect["observation"], err_msg=str(b))


def run_differential(n_games: int, batch: int, seed: int) -> dict[str, int]:
    """Play ``n_games`` finished games through both engines; return branch counts."""
    rng = random.Random(seed)
    nprng = np.random.default_rng(seed)
    deals = np.array([random_deal(nprng) for _ in range(batch)])
    dealers = nprng.integers(0, 3, batch)
    states = {m: vector.init_from_deals(deals, dealers, seed=seed, reward_mode=m) for m in MODES}
    main = states["zero_sum"]
    games = [Game(deals[b], int(dealers[b])) for b in range(batch)]
    styles = [rng.randrange(3) for _ in range(batch)]
    seen: dict[str, int] = {}
    finished = 0
    while finished < n_games:
        check_same(main, games)
        actions = np.array([biased_move(g, rng, st_) for g, st_ in zip(games, styles, strict=True)])
        for g, a in zip(games, actions, strict=True):
            g.step(int(a))
        for s in states.values():
            vector.step(s, actions)
        for b, game in enumerate(games):
            assert bool(main.terminated[b]) == game.is_over, (b, game.history)
            if not game.is_over:
                continue
            finished += 1
            result = game.result
            assert vector.result_of(main, b) == result, (b, game.history)
            for mode, s in states.items():
                assert s.terminated[b]
                np.testing.assert_array_equal(s.rewards[b], rewards_of(result, mode))
            _count(seen, result, game)
            assert main.dealer[b] == (game.dealer + 1) % 3
            games[b] = Game(main.deal[b], int(main.dealer[b]))
            styles[b] = rng.randrange(3)
        for s in states.values():
            assert not s.rewards[~s.terminated].any()
    return seen


def _count(seen: dict[str, int], result, game: Game) -> None:
    keys = ["passed_in"] if result.passed_in else [result.contract.split()[0]]
    if not result.passed_in:
        c = game.contract
        flags = {
            "hand": c.hand, "ouvert": c.ouvert, "schwarz_ann": c.schwarz,
            "schneider_ann": c.schneider, "won": result.won, "overbid": result.overbid,
            "early": result.ended_early, "schwarz": result.schwarz, "schneider": result.schneider,
        }  # fmt: skip
        keys += [k for k, on in flags.items() if on]
    for k in keys:
        seen[k] = seen.get(k, 0) + 1


@pytest.mark.slow
def test_differential__batched_engine_equals_single_game_engine_every_step():
    seen = run_differential(DIFF_GAMES, batch=48, seed=1)
    # the biased moves reach every branch; the test would be weak otherwise
    for key in ("passed_in", "clubs", "spades", "hearts", "diamonds", "grand", "null", "hand",
                "ouvert", "schwarz_ann", "schneider_ann", "won", "overbid", "early", "schwarz",
                "schneider"):  # fmt: skip
        assert seen.get(key, 0) > 0, (key, seen)


def test_init__random_deals_are_permutations_and_dealers_rotate():
    s = vector.init(64, seed=3, dealer=np.arange(64) % 3)
    assert (np.sort(s.deal, 1) == np.arange(32)).all()
    assert (s.dealer == np.arange(64) % 3).all()
    assert s.obs.shape == (64, OBS_SIZE) and s.obs.dtype == np.float32
    assert s.legal_mask.shape == (64, NUM_MOVES) and s.legal_mask.dtype == np.int8
    # middlehand opens the auction
    assert (s.to_act == (s.dealer + 2) % 3).all()


def test_init__same_seed_same_games():
    a, b = vector.init(32, seed=7), vector.init(32, seed=7)
    rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
    for _ in range(100):
        vector.step(a, vector.random_actions(a, rng_a))
        vector.step(b, vector.random_actions(b, rng_b))
    np.testing.assert_array_equal(a.obs, b.obs)
    np.testing.assert_array_equal(a.deal, b.deal)


def test_init_from_deals__rejects_malformed_deals_naming_the_game():
    deals = np.tile(np.arange(32), (3, 1))
    deals[1, 5] = 6
    with pytest.raises(ValueError, match=r"games \[1\]"):
        vector.init_from_deals(deals)
    with pytest.raises(ValueError, match="dealer"):
        vector.init_from_deals(np.tile(np.arange(32), (2, 1)), dealers=3)


def test_init_from_deals__accepts_card_names():
    with pytest.raises(ValueError, match="32 cards"):
        vector.init_from_deals([" ".join(CARD_NAMES[:30])])
    s = vector.init_from_deals([" ".join(CARD_NAMES)], dealers=0)
    assert list(s.deal[0]) == list(range(32))
    assert s.to_act[0] == 2  # dealer 0: middlehand is seat 2


def test_step__illegal_action_raises_naming_games_and_leaves_state():
    s = vector.init(4, seed=0, illegal_action="raise")
    before = s.obs.copy()
    actions = vector.random_actions(s, np.random.default_rng(0))
    actions[2] = MOVE_INDEX["grand"]  # not legal in the auction
    with pytest.raises(vector.IllegalActionError, match=r"game 2: player_\d cannot play grand"):
        vector.step(s, actions)
    np.testing.assert_array_equal(s.obs, before)
    with pytest.raises(ValueError, match="shape"):
        vector.step(s, actions[:3])
    actions[1] = 500  # not a move id: refused before legality is asked
    with pytest.raises(vector.IllegalActionError, match=r"games \[1\] are not move ids"):
        vector.step(s, actions)


def test_step__illegal_action_as_loss_ends_only_that_game():
    s = vector.init(4, seed=0, illegal_action="terminate", illegal_reward=-700.0)
    offender = int(s.to_act[1])
    old_dealer = s.dealer.copy()
    actions = vector.random_actions(s, np.random.default_rng(0))
    actions[1] = MOVE_INDEX["CJ"]
    vector.step(s, actions)
    assert s.terminated.tolist() == [False, True, False, False]
    expect = np.zeros(3, np.float32)
    expect[offender] = -700.0
    np.testing.assert_array_equal(s.rewards[1], expect)
    assert s.result.illegal[1] and s.result.offender[1] == offender
    assert s.dealer[1] == (old_dealer[1] + 1) % 3  # a fresh deal in that slot


def test_init__rejects_unknown_modes():
    with pytest.raises(ValueError, match="reward_mode"):
        vector.init(2, reward_mode="points")
    with pytest.raises(ValueError, match="illegal"):
        vector.init(2, illegal_action="ignore")


def test_random_actions__always_legal_and_cover_the_mask():
    s = vector.init(256, seed=1)
    rng = np.random.default_rng(1)
    hits = np.zeros(NUM_MOVES, np.int64)
    for _ in range(60):
        a = vector.random_actions(s, rng)
        assert vector.is_legal(s, a).all()
        hits[a] += 1
        vector.step(s, a)
    # all 63 bids, pass, hold and some cards and declarations were drawn
    assert hits[FIRST_BID : FIRST_BID + len(BID_VALUES)].all() and hits[PASS] and hits[HOLD]
    assert hits[:32].all() and hits[FIRST_DECLARATION:].any() and hits[HAND]


def test_random_actions__uniform_over_the_legal_set():
    s = vector.init(1, seed=0)  # middlehand's first bid: 63 bids + pass
    s = vector.init_from_deals(np.tile(s.deal, (20000, 1)), seed=0)
    a = vector.random_actions(s, np.random.default_rng(0))
    counts = np.bincount(a, minlength=NUM_MOVES)[s.legal_mask[0].astype(bool)]
    assert len(counts) == 64 and counts.min() > 200 and counts.max() < 430  # mean 312


def test_observation_without_obs_flag_is_empty_and_masks_still_exact():
    s = vector.init(8, seed=2, observe=False)
    assert s.obs.shape == (8, 0)
    g = Game(s.deal[0], int(s.dealer[0]))
    np.testing.assert_array_equal(s.legal_mask[0], action_mask(g.legal_mask()))


contracts = st.builds(
    lambda g, hand, sn, sw, ov: Contract(
        g, hand or ov and g < 5, sn or sw or ov and g < 5, sw or ov and g < 5, ov
    ),  # fmt: skip
    st.integers(0, 5),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)


@settings(max_examples=300, deadline=None)
@given(
    contracts,
    st.sampled_from(BID_VALUES),
    st.integers(0, (1 << 32) - 1),
    st.integers(0, 120),
    st.integers(0, 10),
    st.integers(0, 10),
    st.booleans(),
)
def test_score_batch__equals_score_game(c, bid, cards, points, tricks, def_tricks, early):
    """The array scoring equals the core's score_game on arbitrary inputs."""
    if c.game == 5:
        c = Contract(5, c.hand, False, False, c.ouvert)
    def_tricks = min(def_tricks, 10 - tricks)
    expect = score_game(c, bid, cards, points, tricks, 120 - points, def_tricks, early)
    a = lambda x: np.array([x])  # noqa: E731
    got = vector.score_batch(a(c.game), a(c.hand), a(c.schneider), a(c.schwarz), a(c.ouvert),
                             a(bid), a(cards), a(points), a(tricks), a(120 - points),
                             a(def_tricks), a(early))  # fmt: skip
    assert got["won"][0] == expect.won
    assert got["score"][0] == expect.score
    assert got["game_value"][0] == expect.game_value
    assert got["overbid"][0] == expect.overbid
    assert got["matadors"][0] == expect.matadors
    assert got["schneider_level"][0] == expect.schneider_level
    assert got["schwarz_level"][0] == expect.schwarz_level


def test_step__inactive_games_keep_their_position():
    s = vector.init(6, seed=4)
    rng = np.random.default_rng(4)
    for _ in range(30):
        vector.step(s, vector.random_actions(s, rng))
    before = s.obs.copy()
    active = np.array([True, False, True, False, True, False])
    actions = vector.random_actions(s, rng)
    actions[~active] = 500  # ignored: never checked, never applied
    vector.step(s, actions, active=active)
    np.testing.assert_array_equal(s.obs[~active], before[~active])
    assert not s.terminated[~active].any()
    assert (s.obs[active] != before[active]).any(1).all()
