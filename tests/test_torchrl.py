"""TorchRL recipe (examples/train_torchrl.py): a few hundred masked PPO steps, no illegal action.

Needs TorchRL (installed into ``.venv-rllib`` by ``scripts/setup_rllib.sh``); skipped without it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.rllib

pytest.importorskip("torchrl")
torch = pytest.importorskip("torch")

from skat_env.agents.rllib_agent import RLlibAgent  # noqa: E402

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_torchrl.py"


@pytest.fixture(scope="module")
def example():
    spec = importlib.util.spec_from_file_location("train_torchrl", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_torchrl"] = module
    spec.loader.exec_module(module)
    return module


def test_env_marks_the_acting_seat_and_its_legal_moves(example):
    env = example.make_env(seed=0, reward_scale=1.0)
    td = env.reset()
    acting = td[example.GROUP, "mask"]
    assert int(acting.sum()) == 1  # AEC: one seat acts
    game = env.base_env._env.unwrapped.game
    seat = int(acting.nonzero())
    assert seat == game.to_act
    legal = td[example.GROUP, "action_mask"][seat].nonzero().flatten().tolist()
    assert legal == sorted(game.legal_actions())


def test_illegal_action_count(example):
    from tensordict import TensorDict

    g = example.GROUP
    batch = TensorDict(
        {
            (g, "mask"): torch.tensor([[True, False, False], [False, True, False]]),
            (g, "action"): torch.tensor([[1, 0, 0], [0, 2, 0]]),
            (g, "action_mask"): torch.tensor([[True, False, True]]).expand(2, 3, 3),
        },
        batch_size=[2],
    )
    # Seat 0 played move 1 (illegal); seat 1 played move 2 (legal); idle seats do not count.
    assert example.illegal_actions(batch) == 1


def test_short_training_run_plays_only_legal_moves(example, tmp_path, capsys):
    out = tmp_path / "policy.safetensors"
    argv = f"--frames 400 --frames-per-batch 200 --epochs 2 --hiddens 32 --eval-deals 2 --out {out}"
    assert example.main(argv.split()) == 0  # non-zero if an illegal action was sampled
    text = capsys.readouterr().out
    assert "frames    400" in text and "illegal actions 0" in text and "vs 2x random" in text
    assert RLlibAgent(str(out)).meta["trainer"] == "torchrl"


def test_bad_arguments_exit_with_usage_error(example, capsys):
    with pytest.raises(SystemExit) as e:
        example.main(["--minibatch-size", "500", "--frames-per-batch", "100"])
    assert e.value.code == 2
    assert "must not exceed" in capsys.readouterr().err
