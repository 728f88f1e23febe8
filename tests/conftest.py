import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

TIERS = ("slow", "browser", "wheel", "rllib")  # what --fast leaves out (pyproject.toml)
BROWSER_FIXTURES = {"browser", "page"}  # tests/test_web_browser.py's Playwright fixtures


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fast",
        action="store_true",
        help="the fast tier: leave out the tests marked " + ", ".join(TIERS),
    )


@pytest.hookimpl(tryfirst=True)  # before -m selects on the markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that drives a browser ``browser``; with ``--fast``, deselect the tiers."""
    for item in items:
        if BROWSER_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
    if config.getoption("--fast"):
        slow = [item for item in items if any(item.get_closest_marker(m) for m in TIERS)]
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if item not in slow]


@pytest.fixture(scope="session", autouse=True)
def _ray_temp_dir() -> Iterator[None]:
    """Ray's session folders go to a folder of this run, removed at its end, not /tmp/ray
    (short: Ray's socket paths may not exceed 107 characters)."""
    if "RAY_TMPDIR" in os.environ:  # the user's choice
        yield
        return
    folder = tempfile.mkdtemp(prefix="ray-tests-")
    os.environ["RAY_TMPDIR"] = folder
    try:
        yield
    finally:
        ray = sys.modules.get("ray")
        if ray is not None and ray.is_initialized():
            ray.shutdown()
        del os.environ["RAY_TMPDIR"]
        shutil.rmtree(folder, ignore_errors=True)


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
