"""skat_env.envs.policy: the protocol's defaults, the helpers that call the hooks (batched,
batchable, decide, reset_policy, notify_game_over), the lazy observation and the random policy;
and no other module asks which hooks a policy has."""

from __future__ import annotations

import copy
import pickle
import re
from pathlib import Path

import numpy as np
import pytest

from skat_env import vector
from skat_env.core.game import Game
from skat_env.encoding.observation import observe
from skat_env.encoding.view import player_view, without_history
from skat_env.envs.policy import (
    BasePolicy,
    FunctionPolicy,
    LazyObservation,
    Policy,
    RandomPolicy,
    as_policy,
    batchable,
    batched,
    decide,
    notify_game_over,
    reset_policy,
)

ROOT = Path(__file__).resolve().parents[1]


def first_legal(observation) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


class Lowest(BasePolicy):
    """The lowest legal move id; counts its calls."""

    deterministic = True

    def __init__(self):
        self.calls = 0

    def act(self, observation):
        self.calls += 1
        return first_legal(observation)


class LowestBatched(Lowest):
    def act_batch(self, obs, masks):
        return np.asarray(masks, bool).argmax(1)


class ActOnly:
    """Not a BasePolicy: only ``act``."""

    def act(self, observation):
        return first_legal(observation)


def batch(n=12, seed=1):
    state = vector.init(n, seed=seed)
    return state.obs, state.legal_mask


def test_base_policy__defaults_of_every_hook():
    p = BasePolicy()
    assert p.act_view is None and not p.deterministic and not p.perfect_information
    assert p.reset(3) is None and p.game_over({}) is None
    with pytest.raises(NotImplementedError):
        p.act({})
    with pytest.raises(TypeError, match="perfect_information"):
        p.act_game(Game.random(0), 1)
    obs, masks = batch()
    lowest = Lowest()
    assert lowest.act_batch(obs, masks).tolist() == masks.argmax(1).tolist()  # act per row
    assert lowest.calls == len(masks)
    assert isinstance(lowest, Policy) and isinstance(ActOnly(), Policy)


def test_batched__own_act_batch_row_loop_or_a_batched_function():
    obs, masks = batch()
    expected = masks.argmax(1).tolist()
    own = LowestBatched()
    assert batched(own) == own.act_batch and batched(own)(obs, masks).tolist() == expected
    loop = batched(ActOnly())
    assert loop(obs, masks).tolist() == expected
    assert pickle.loads(pickle.dumps(loop))(obs, masks).tolist() == expected  # picklable

    def fn(o, m):
        return np.asarray(m, bool).argmax(1)

    assert batched(fn) is fn
    assert batched(as_policy(first_legal))(obs, masks).tolist() == expected  # a wrapped function
    with pytest.raises(TypeError, match="batched function"):
        batched(42)


def test_batchable__deterministic_with_an_own_act_batch_only():
    assert batchable(LowestBatched())
    assert not batchable(Lowest())  # the per-row default does not count
    assert not batchable(RandomPolicy(0))  # its own stream: batching would couple games
    assert not batchable(ActOnly()) and not batchable(first_legal)


def test_as_policy__wraps_functions_and_refuses_the_rest():
    p = Lowest()
    assert as_policy(p) is p
    wrapped = as_policy(first_legal)
    assert isinstance(wrapped, FunctionPolicy) and "first_legal" in repr(wrapped)
    assert wrapped.act(observe(Game.random(0), 1)) == first_legal(observe(Game.random(0), 1))
    with pytest.raises(TypeError, match="a policy is"):
        as_policy("heuristic")


class Viewer(BasePolicy):
    def __init__(self):
        self.views = []

    def act(self, observation):
        raise AssertionError("act_view is preferred")

    def act_view(self, view):
        self.views.append(view)
        return int(np.flatnonzero([view.legal_mask >> m & 1 for m in range(121)])[0])


class Seer(BasePolicy):
    perfect_information = True

    def act(self, observation):
        raise AssertionError("a perfect-information policy plays from the game")

    def act_game(self, game, seat):
        return game.legal_actions()[-1]


def test_decide__act_game_then_act_view_then_the_lazy_observation():
    game = Game.random(5, dealer=0)
    seat = game.to_act
    assert decide(Seer(), game, seat) == game.legal_actions()[-1]
    viewer = Viewer()
    assert decide(viewer, game, seat) == game.legal_actions()[0]
    assert viewer.views == [without_history(player_view(game, seat))]
    assert decide(ActOnly(), game, seat) == game.legal_actions()[0]


def test_lazy_observation__equals_observe_and_encodes_only_what_is_read():
    game = Game.random(9, dealer=1)
    for seat in range(3):
        lazy, eager = LazyObservation(game, seat), observe(game, seat)
        assert len(lazy) == 2 and list(lazy) == ["observation", "action_mask"]
        assert np.array_equal(lazy["action_mask"], eager["action_mask"])
        assert "observation" not in lazy._cache  # not encoded until read
        assert np.array_equal(lazy["observation"], eager["observation"])
        with pytest.raises(KeyError):
            lazy["state"]


class Listener(BasePolicy):
    def __init__(self):
        self.seeds, self.final = [], []

    def act(self, observation):
        return first_legal(observation)

    def reset(self, seed=None):
        self.seeds.append(seed)

    def game_over(self, observation):
        self.final.append(observation)


def test_reset_policy_and_notify_game_over_call_the_hooks_that_exist():
    listener = Listener()
    reset_policy(listener, 7)
    reset_policy(ActOnly(), 7)  # no reset: nothing to call
    reset_policy(first_legal, 7)
    assert listener.seeds == [7]
    game = Game.random(2, dealer=0)
    while not game.is_over:
        game.step(game.legal_actions()[0])
    notify_game_over(listener, game, 2)
    assert np.array_equal(listener.final[0]["observation"], observe(game, 2)["observation"])
    quiet = Lowest()
    notify_game_over(quiet, game, 2)  # the default hook: nothing is encoded or called
    notify_game_over(ActOnly(), game, 2)


def test_random_policy__seeded_legal_and_refuses_an_empty_mask():
    obs, masks = batch(64, seed=4)
    a, b = RandomPolicy(3), RandomPolicy(3)
    moves = a.act_batch(obs, masks)
    assert moves.tolist() == b.act_batch(obs, masks).tolist()
    assert masks[np.arange(64), moves].all()
    a.reset(11)
    b.reset(11)
    one = {"observation": obs[0], "action_mask": masks[0]}
    assert [a.act(one) for _ in range(20)] == [b.act(one) for _ in range(20)]
    with pytest.raises(ValueError, match="empty action mask"):
        a.act({"observation": obs[0], "action_mask": np.zeros(121, np.int8)})


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda p: pickle.loads(pickle.dumps(p))])
@pytest.mark.parametrize("used", [False, True])
def test_random_policy_copies_continue_identically_and_independently(copier, used):
    obs, masks = batch(16, seed=5)
    one = {"observation": obs[0], "action_mask": masks[0]}
    a = RandomPolicy(7)
    if used:  # both streams under way before the copy
        a.act_batch(obs, masks), a.act(one)
    b = copier(a)
    assert a.act_batch(obs, masks).tolist() == b.act_batch(obs, masks).tolist()
    assert [a.act(one) for _ in range(10)] == [b.act(one) for _ in range(10)]
    b.reset(99)  # reseeding the copy leaves the original's streams alone
    c = copier(a)
    assert a.act_batch(obs, masks).tolist() == c.act_batch(obs, masks).tolist()
    assert [a.act(one) for _ in range(10)] == [c.act(one) for _ in range(10)]


def test_no_module_outside_the_protocol_asks_which_hooks_a_policy_has():
    hooks = "act|act_batch|act_view|act_game|reset|game_over|perfect_information|deterministic"
    pattern = re.compile(rf"(getattr|hasattr)\([^)]*[\"']({hooks})[\"']")
    files = [*ROOT.joinpath("skat_env").rglob("*.py"), *ROOT.joinpath("agents").rglob("*.py")]
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        if path != ROOT / "skat_env/envs/policy.py"
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, found
    assert pattern.search('getattr(policy, "act_batch", None)')  # the pattern finds one
