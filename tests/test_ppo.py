"""agents/ppo.py: the ``ppo:PATH`` agent plays SB3's greedy moves through the NumPy policy,
one by one and batched, and refuses files that are not models."""

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from skat_env.agents.ppo import PPOAgent  # noqa: E402
from skat_env.agents.registry import make_agent  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.encoding.observation import observe  # noqa: E402


@pytest.mark.slow
def test_ppo_agent_picks_sb3_predicts_moves_one_by_one_and_batched(saved_model):
    path, model = saved_model
    agent = make_agent(f"ppo:{path}")
    assert isinstance(agent, PPOAgent)
    rng = np.random.default_rng(0)
    obs, masks, moves = [], [], []
    for _ in range(10):
        game = Game.random(rng)
        while not game.is_over:
            o = observe(game, game.to_act)
            mask = o["action_mask"].astype(bool)
            ref, _ = model.predict(o["observation"], action_masks=mask, deterministic=True)
            move = agent.act(o)
            assert move == int(ref)
            obs.append(o["observation"])
            masks.append(mask)
            moves.append(move)
            game.step(move)
    batch = agent.act_batch(np.array(obs), np.array(masks))
    assert batch.tolist() == moves
    assert len(set(moves)) > 20  # the check covered many different moves


def test_ppo_agent_from_a_live_policy_plays_as_the_file(saved_model):
    path, model = saved_model
    live, loaded = PPOAgent.from_policy(model.policy, name="live"), PPOAgent(path)
    x = np.random.default_rng(3).random((9, 450), dtype=np.float32)
    masks = np.ones((9, 121), np.int8)
    assert (
        live.name == "live"
        and live.act_batch(x, masks).tolist() == loaded.act_batch(x, masks).tolist()
    )


def test_ppo_agent_refuses_missing_and_non_model_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        PPOAgent(tmp_path / "none.zip")
    bad = tmp_path / "bad.zip"
    bad.write_text("not a zip")
    with pytest.raises(ValueError, match="not a saved model"):
        PPOAgent(bad)
