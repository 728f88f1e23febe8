"""skat_env.core.rewards: the reward modes as worked examples (won, lost, passed in, Python
numbers and NumPy arrays alike) and the illegal-move policy (the penalty never pays)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import play_random
from hypothesis import given, settings
from hypothesis import strategies as st

from skat_env.core.game import Game, Result
from skat_env.core.rewards import (
    ILLEGAL_ACTIONS,
    REWARD_MODES,
    check_illegal,
    rewards_of,
    side_rewards,
    worst_reward,
)
from skat_env.core.scoring import Contract, score_game, seeger_fabian
from skat_env.core.tables import DIAMONDS_GAME

# declarer seat 1 won a game worth 48 (Seeger-Fabian: 48 + 50 for the declarer, 0 defenders)
WON = Result(passed_in=False, declarer=1, won=True, score=48, seeger_fabian=(0, 98, 0))
# declarer seat 2 lost a game worth 24: -48 on the list; SF -98, each defender +40
LOST = Result(passed_in=False, declarer=2, won=False, score=-48, seeger_fabian=(40, 40, -98))


@pytest.mark.parametrize(
    "result, mode, expected",
    [
        (WON, "zero_sum", (-24.0, 48.0, -24.0)),
        (WON, "list", (0.0, 48.0, 0.0)),
        (WON, "seeger_fabian", (0.0, 98.0, 0.0)),
        (LOST, "zero_sum", (24.0, 24.0, -48.0)),
        (LOST, "list", (0.0, 0.0, -48.0)),
        (LOST, "seeger_fabian", (40.0, 40.0, -98.0)),
        (Result(passed_in=True), "zero_sum", (0.0, 0.0, 0.0)),
        (Result(passed_in=True), "seeger_fabian", (0.0, 0.0, 0.0)),
    ],
)
def test_rewards_of__worked_examples(result, mode, expected):
    assert rewards_of(result, mode) == expected


def test_seeger_fabian_examples_are_the_scoring_modules():
    assert seeger_fabian(48, True)[0] == 98 and seeger_fabian(-48, False)[0] == -98


def test_side_rewards__arrays_elementwise_as_numbers():
    score = np.array([48, -48, 0])
    sf_decl, sf_def = np.array([98, -98, 0]), np.array([0, 40, 0])
    for mode in REWARD_MODES:
        decl, other = side_rewards(mode, score, sf_decl, sf_def)
        for i in range(3):
            one = side_rewards(mode, int(score[i]), int(sf_decl[i]), int(sf_def[i]))
            assert (decl[i], other[i]) == pytest.approx(one)
    with pytest.raises(ValueError, match="reward_mode must be one of"):
        side_rewards("points", 1, 1, 1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_zero_sum_sums_to_zero_and_list_pays_only_the_declarer(seed):
    result = play_random(Game.random(seed, dealer=seed % 3), random.Random(seed)).result
    assert sum(rewards_of(result, "zero_sum")) == pytest.approx(0.0)
    lst = rewards_of(result, "list")
    if not result.passed_in:
        assert lst[result.declarer] == result.score and sum(lst) == result.score


@pytest.mark.parametrize("mode", REWARD_MODES)
def test_worst_reward__is_reached_by_an_overbid_diamonds_game(mode):
    out = score_game(Contract(DIAMONDS_GAME), 264, 0, 0, 0, 120, 10, False)  # nothing taken
    assert out.overbid and out.score == -540
    worst = worst_reward(mode)
    assert worst == {"zero_sum": -540.0, "list": -540.0, "seeger_fabian": -590.0}[mode]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_worst_reward__bounds_every_seat_of_every_game(seed):
    game = play_random(Game.random(seed, dealer=seed % 3), random.Random(seed))
    for mode in REWARD_MODES:
        assert min(rewards_of(game.result, mode)) >= worst_reward(mode)


def test_check_illegal__defaults_to_the_worst_reward_and_refuses_a_better_one():
    assert ILLEGAL_ACTIONS == ("terminate", "raise")
    assert check_illegal("terminate", None, "zero_sum") == ("terminate", -540.0)
    assert check_illegal("raise", -1000, "seeger_fabian") == ("raise", -1000.0)
    assert check_illegal("terminate", np.float32(-590), "seeger_fabian")[1] == -590.0
    with pytest.raises(ValueError, match="at most -540"):
        check_illegal("terminate", -10, "list")
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        check_illegal("ignore", None, "list")
    with pytest.raises(ValueError, match="reward_mode must be one of"):
        check_illegal("terminate", None, "points")
    with pytest.raises(TypeError, match="real number"):
        check_illegal("terminate", True, "list")
    with pytest.raises(ValueError, match="finite"):
        check_illegal("terminate", float("-inf"), "list")
