"""skat_env.integrations.numpy_policy: the NumPy forward pass picks SB3's moves, from a live
policy or a saved file, one observation or a batch."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from skat_env.core.game import Game  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402
from skat_env.envs.policy import batchable, batched  # noqa: E402
from skat_env.integrations.numpy_policy import NumpyPolicy  # noqa: E402


def test_numpy_policy_picks_sb3_predicts_moves_one_by_one_and_batched(saved_model):
    _, model = saved_model
    policy = NumpyPolicy.from_policy(model.policy)
    rng = np.random.default_rng(2)
    obs, masks, moves = [], [], []
    for _ in range(6):
        game = Game.random(rng)
        while not game.is_over:
            o = observe(game, game.to_act)
            mask = o["action_mask"].astype(bool)
            ref, _ = model.predict(o["observation"], action_masks=mask, deterministic=True)
            assert policy.act(o) == int(ref)
            obs.append(o["observation"])
            masks.append(mask)
            moves.append(int(ref))
            game.step(int(ref))
    assert policy.act_batch(np.array(obs), np.array(masks)).tolist() == moves
    assert policy(np.array(obs), np.array(masks)).tolist() == moves  # a batched policy
    assert batchable(policy) and batched(policy)(np.array(obs), np.array(masks)).tolist() == moves


def test_numpy_policy_from_a_live_policy_equals_the_loaded_file(saved_model):
    path, model = saved_model
    live = NumpyPolicy.from_policy(model.policy)
    loaded = NumpyPolicy.load(path)
    x = np.random.default_rng(1).random((7, 450), dtype=np.float32)
    assert np.allclose(live.logits(x), loaded.logits(x), atol=1e-5)
    with pytest.raises(ValueError, match="size 450"):
        live.logits(np.zeros((2, 10), np.float32))


def test_numpy_policy_refuses_unknown_activations():
    layer = (np.zeros((121, 450), np.float32), np.zeros(121, np.float32))
    with pytest.raises(ValueError, match="activations"):
        NumpyPolicy([layer], "GELU")
