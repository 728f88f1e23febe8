"""The torch-only masked policy network and its file format."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from skat_env.core.game import Game  # noqa: E402
from skat_env.core.moves import NUM_MOVES  # noqa: E402
from skat_env.encoding.observation import OBS_SIZE, observe  # noqa: E402
from skat_env.integrations.masked_mlp import (  # noqa: E402
    MaskedPolicy,
    load_policy,
    mask_logits,
    mlp,
    save_policy,
)

masks = st.lists(st.booleans(), min_size=NUM_MOVES, max_size=NUM_MOVES).filter(any)


def test_mlp_layers():
    net = mlp([4, 8, 3])
    assert [type(m).__name__ for m in net] == ["Linear", "ReLU", "Linear"]
    assert net(torch.zeros(2, 4)).shape == (2, 3)
    with pytest.raises(ValueError, match="two positive"):
        mlp([4])


@settings(max_examples=50, deadline=None)
@given(mask=masks, seed=st.integers(0, 2**16))
def test_masked_logits_give_illegal_moves_zero_probability(mask, seed):
    torch.manual_seed(seed)
    logits = torch.randn(NUM_MOVES) * 50
    probs = torch.softmax(mask_logits(logits, torch.tensor(mask)), -1)
    assert torch.all(probs[~torch.tensor(mask)] == 0)
    assert float(probs.sum()) == pytest.approx(1.0, abs=1e-5)


def test_all_zero_mask_is_uniform_not_nan():
    probs = torch.softmax(mask_logits(torch.randn(5), torch.zeros(5)), -1)
    assert torch.allclose(probs, torch.full((5,), 0.2))


@settings(max_examples=30, deadline=None)
@given(mask=masks, seed=st.integers(0, 2**16), deterministic=st.booleans())
def test_policy_acts_legally(mask, seed, deterministic):
    torch.manual_seed(seed)
    policy = MaskedPolicy(mlp([OBS_SIZE, 8, NUM_MOVES]), deterministic=deterministic, seed=seed)
    obs = {"observation": np.random.default_rng(seed).random(OBS_SIZE, dtype=np.float32),
           "action_mask": np.array(mask, dtype=np.int8)}  # fmt: skip
    assert mask[policy.act(obs)]


def test_save_load_round_trip(tmp_path):
    net = mlp([OBS_SIZE, 16, NUM_MOVES])
    path = save_policy(tmp_path / "p.pt", net, module_id="shared", observation_mode="default")
    loaded, meta = load_policy(path)
    assert meta == {"module_id": "shared", "observation_mode": "default"}
    obs = observe(Game.random(0), 1)
    a, b = MaskedPolicy(net), MaskedPolicy(loaded)
    assert torch.equal(a.logits(obs), b.logits(obs))
    assert a.act(obs) == b.act(obs)
    assert not list(tmp_path.glob("*.tmp"))


def test_load_rejects_other_files(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_policy(tmp_path / "missing.pt")
    (tmp_path / "junk.pt").write_text("not torch")
    with pytest.raises(ValueError, match="not a saved skat-env policy"):
        load_policy(tmp_path / "junk.pt")
    torch.save({"format": "other"}, tmp_path / "other.pt")
    with pytest.raises(ValueError, match="policy file"):
        load_policy(tmp_path / "other.pt")


def test_policy_rejects_wrong_observation_size_and_empty_mask():
    policy = MaskedPolicy(mlp([10, NUM_MOVES]))
    obs = observe(Game.random(0), 1)
    with pytest.raises(ValueError, match="observations of size 10"):
        policy.act(obs)
    with pytest.raises(ValueError, match="empty action mask"):
        policy.act({"observation": np.zeros(10, np.float32), "action_mask": np.zeros(NUM_MOVES)})
