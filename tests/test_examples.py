"""examples/sb3_aec.py: the learner seat receives its own end-of-game reward whoever moves
last, and MaskablePPO trains on it; the registered Gymnasium env passes the env checker."""

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

pytest.importorskip("sb3_contrib")

import sb3_aec  # noqa: E402

from skat_env.agents.registry import make_agent  # noqa: E402
from skat_env.core.rewards import rewards_of  # noqa: E402


class Recording(sb3_aec.LearnerSeat):
    """Remembers who made each game's last move."""

    def _aec_step(self, action):
        self.last_mover = self.aec.agent_selection
        super()._aec_step(action)


def test_learner_seat_return_is_its_own_final_reward_whoever_moves_last():
    env = Recording(
        [make_agent("random", seed=0), make_agent("random", seed=1)],
        reward_mode="zero_sum",
        reward_scale=1.0,
    )
    rng = np.random.default_rng(0)
    opponent_ended, nonzero = 0, 0
    env.reset(seed=0)
    for _ in range(60):
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            _, reward, done, _, _ = env.step(int(rng.choice(legal)))
            total += reward
        result = env.aec.unwrapped.game.result
        seat = env.aec.possible_agents.index(env.learner)
        assert total == rewards_of(result, "zero_sum")[seat]
        opponent_ended += env.last_mover != env.learner
        nonzero += total != 0
        env.reset()
    assert opponent_ended > 20 and nonzero > 20  # the case the last-mover reward gets wrong


@pytest.mark.slow
def test_the_example_trains_and_saves_a_model_the_registry_loads(tmp_path, capsys):
    out = tmp_path / "m.zip"
    assert sb3_aec.main(["--steps", "2048", "--out", str(out)]) == 0
    assert "trained 2,048 steps" in capsys.readouterr().out
    agent = make_agent(f"ppo:{out}")
    obs = sb3_aec.LearnerSeat([make_agent("random")] * 2).aec
    obs.reset(seed=0)
    o = obs.observe(obs.agent_selection)
    assert o["action_mask"][agent.act(o)]


def test_registered_env_makes_both_envs_and_passes_the_checker_without_warnings():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    import skat_env  # noqa: F401  (registers skat_env/Skat-v0)

    env = gymnasium.make("skat_env/Skat-v0", reward_mode="seeger_fabian")
    assert env.spec.id == "skat_env/Skat-v0"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]
    vec = gymnasium.make_vec("skat_env/Skat-v0", num_envs=4, reward_mode="seeger_fabian")
    obs, _ = vec.reset(seed=0)
    assert type(vec).__name__ == "SkatVectorEnv" and obs.shape == (4, 450)
