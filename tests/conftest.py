import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def small_model():
    """An untrained MaskablePPO on the learner-seat env (random weights, so its greedy moves
    vary a lot), 64x64: the model of the training tests."""
    sb3_contrib = pytest.importorskip("sb3_contrib")
    from skat_env.envs.single_agent import SkatSingleAgentEnv

    return sb3_contrib.MaskablePPO(
        "MlpPolicy",
        SkatSingleAgentEnv(),
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [64, 64]},
    )


@pytest.fixture
def fresh_model():
    """A new :func:`small_model` for a test that trains it."""
    return small_model()


@pytest.fixture(scope="session")
def saved_model(tmp_path_factory):
    """One :func:`small_model` for the session, saved to a zip: ``(path, model)``. Read-only:
    tests that train take :func:`fresh_model`."""
    path = tmp_path_factory.mktemp("model") / "m.zip"
    model = small_model()
    model.save(path)
    return path, model
