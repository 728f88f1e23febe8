"""``rllib:`` agents: resolving checkpoint paths and playing exported policies (no Ray needed)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

pytest.importorskip("torch")

from skat_env import tournament  # noqa: E402
from skat_env.agents.rllib_agent import RLlibAgent, resolve  # noqa: E402
from skat_env.core.game import Game  # noqa: E402
from skat_env.core.moves import NUM_MOVES  # noqa: E402
from skat_env.encoding.observation import OBS_SIZE, observe  # noqa: E402
from skat_env.integrations.masked_mlp import FORMAT, load_policy, mlp, save_policy  # noqa: E402


@pytest.fixture
def checkpoint(tmp_path):
    """A checkpoint directory as train_rllib.py leaves it (policy files only)."""
    for module in ("player_0", "player_1"):
        save_policy(tmp_path / f"skat_policy_{module}.safetensors", mlp([OBS_SIZE, 8, NUM_MOVES]))
    return tmp_path


def test_resolve_paths(checkpoint):
    assert resolve(f"{checkpoint}#player_1") == checkpoint / "skat_policy_player_1.safetensors"
    file = checkpoint / "skat_policy_player_0.safetensors"
    assert resolve(str(file)) == file
    with pytest.raises(FileNotFoundError, match="has no policy 'shared'.*player_0, player_1"):
        resolve(str(checkpoint))  # the default module is 'shared'
    with pytest.raises(FileNotFoundError, match="no RLlib checkpoint"):
        resolve(str(checkpoint / "nope"))
    with pytest.raises(ValueError, match="not a file"):
        resolve(f"{file}#player_0")


def test_agent_plays_legal_games_and_pickles(checkpoint):
    agent = RLlibAgent(f"{checkpoint}#player_0")
    assert agent.name == f"rllib:{checkpoint}#player_0"
    clone = pickle.loads(pickle.dumps(agent))
    assert clone.policy is None  # workers load their own copy
    res = tournament.evaluate([agent, clone, "random"], deals=3, seed=1)  # illegal moves raise
    assert sum(a["games"] for a in res["agents"].values()) == 3 * 6 * 3


def test_agent_rejects_a_file_of_another_format(tmp_path):
    (tmp_path / "skat_policy_shared.safetensors").write_bytes(b"\0junk")
    with pytest.raises(ValueError, match="not a saved skat-env policy"):
        RLlibAgent(str(tmp_path))


def test_policy_file_is_plain_safetensors(checkpoint):
    """Any safetensors reader sees the weights and the header; no pickled code is loaded."""
    from safetensors import safe_open

    file = resolve(f"{checkpoint}#player_0")
    with safe_open(file, framework="pt") as f:
        assert f.metadata()["format"] == FORMAT
        assert json.loads(f.metadata()["sizes"]) == [OBS_SIZE, 8, NUM_MOVES]
        assert sorted(f.keys()) == ["0.bias", "0.weight", "2.bias", "2.weight"]
    net, meta = load_policy(file)
    assert meta == {} and net[0].in_features == OBS_SIZE


def test_act_batch_equals_act_per_row(checkpoint):
    """The tournament batches the agent's decisions; each row gets the move act() gives it."""
    agent = RLlibAgent(f"{checkpoint}#player_1")
    rows = []
    for seed in range(6):
        game = Game.random(seed)
        while not game.is_over and len(rows) < 40 * (seed + 1):
            rows.append(observe(game, game.to_act))
            game.step(agent.act(rows[-1]))
    obs = np.stack([r["observation"] for r in rows])
    masks = np.stack([r["action_mask"] for r in rows])
    moves = agent.act_batch(obs, masks)
    assert moves.dtype == np.int64 and moves.tolist() == [agent.act(r) for r in rows]
    assert all(masks[i, m] for i, m in enumerate(moves))
    with pytest.raises(ValueError, match=r"expected observations \[B, 450\]"):
        agent.act_batch(obs[:, :10], masks)
