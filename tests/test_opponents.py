"""skat_env.training.opponents: self-play slots, the batched and single-game opponent
pools built from policies passed in."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from skat_env import vector  # noqa: E402
from skat_env.agents import HeuristicAgent, RandomAgent  # noqa: E402
from skat_env.training.opponents import (  # noqa: E402
    SelfPlaySlots,
    SingleGamePool,
    make_vec_env,
    vector_pool,
)


def test_self_play_slots_push_replaces_the_oldest(saved_model):
    _, model = saved_model
    slots = SelfPlaySlots(2)
    slots.fill(model.policy)
    first = [s.policy for s in slots.slots]
    assert first[0] is first[1]
    slots.push(model.policy)
    assert slots.slots[0].policy is not first[0] and slots.slots[1].policy is first[1]
    slots.push(model.policy)
    assert slots.slots[1].policy is not first[1]


def test_vector_pool_splits_self_over_the_slots_and_batches_the_policies(saved_model):
    _, model = saved_model
    slots = SelfPlaySlots(4)
    slots.fill(model.policy)
    heuristic = HeuristicAgent()
    weights = {"heuristic": 0.5, "self": 0.4, "random": 0.1}
    pool, w = vector_pool(weights, {"heuristic": heuristic}, slots)
    assert list(pool) == ["heuristic", "self0", "self1", "self2", "self3", "random"]
    assert np.allclose(w, [0.5, 0.1, 0.1, 0.1, 0.1, 0.1]) and pool["random"] == "random"
    state = vector.init(16, seed=3)
    moves = pool["heuristic"](state.obs, state.legal_mask)
    expected = [
        heuristic.act({"observation": o, "action_mask": m})
        for o, m in zip(state.obs, state.legal_mask, strict=True)
    ]
    assert moves.tolist() == expected
    assert state.legal_mask[np.arange(16), pool["self2"](state.obs, state.legal_mask)].all()
    with pytest.raises(KeyError):  # a spec without its policy
        vector_pool({"ppo:x.zip": 1.0}, {}, slots)


def test_single_game_pool_draws_one_kind_per_game(saved_model):
    _, model = saved_model
    slots = SelfPlaySlots(3)
    slots.fill(model.policy)
    pool = SingleGamePool({"heuristic": 0.5, "self": 0.5}, {"heuristic": HeuristicAgent()}, slots)
    rng = np.random.default_rng(0)
    kinds = set()
    for _ in range(40):
        a, b = pool(rng)
        assert type(a) is type(b)
        kinds.add(type(a).__name__)
    assert kinds == {"HeuristicAgent", "Slot"}


@pytest.mark.parametrize("kind", ["vector", "single"])
def test_make_vec_env_plays_the_learner_against_the_pool(saved_model, kind):
    _, model = saved_model
    slots = SelfPlaySlots(1)
    slots.fill(model.policy)
    weights = {"random": 0.5, "self": 0.5}
    venv = make_vec_env(kind, 4, weights, {"random": RandomAgent(0)}, slots, seed=1)
    obs = venv.reset()
    assert obs.shape == (4, 450)
    masks = np.stack(venv.env_method("action_masks"))
    obs, rewards, dones, infos = venv.step(masks.argmax(1))
    assert obs.shape == (4, 450) and rewards.shape == (4,) and len(infos) == 4
    venv.close()
    with pytest.raises(ValueError, match="vector or single"):
        make_vec_env("subproc", 1, weights, {}, slots, seed=0)
