"""The package as users install it: the bundled model (``ppo`` without a path) plays the
shipped model's moves with NumPy alone, and the wheel carries it and the web assets.
``scripts/test_wheel.sh`` installs the built wheel into a fresh venv and runs the commands."""

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from skat_env.agents.ppo import BUNDLED_MODEL, RELEASES, PPOAgent
from skat_env.agents.registry import make_agent
from skat_env.core.game import Game
from skat_env.encoding.observation import observe
from skat_env.integrations.numpy_policy import NumpyPolicy

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_ZIP = ROOT / "models" / "ppo_skat.zip"


def _positions(n_games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of every decision in games the bundled model plays itself."""
    agent = make_agent("ppo")
    obs, masks = [], []
    for i in range(n_games):
        game = Game.random(seed + i, dealer=i % 3)
        while not game.is_over:
            o = observe(game, game.to_act)
            obs.append(o["observation"])
            masks.append(o["action_mask"])
            game.step(agent.act(o))
    return np.array(obs), np.array(masks)


def test_ppo_without_a_path_is_the_bundled_model():
    agent = make_agent("ppo")
    assert isinstance(agent, PPOAgent) and agent.name == "ppo" and agent.path == BUNDLED_MODEL
    assert BUNDLED_MODEL.suffix == ".npz" and BUNDLED_MODEL.with_suffix(".json").is_file()
    assert make_agent(f"ppo:{BUNDLED_MODEL}").name == f"ppo:{BUNDLED_MODEL}"


def test_an_earlier_release_is_bundled_by_its_date(tmp_path, monkeypatch):
    assert RELEASES and all(f.is_file() and f.parent == BUNDLED_MODEL.parent
                            for f in RELEASES.values())  # fmt: skip
    for date, file in RELEASES.items():
        agent = make_agent(f"ppo:{date}")
        assert agent.name == f"ppo:{date}" and agent.path == file
        monkeypatch.chdir(tmp_path)  # a file of that name is reached as ./NAME
        (tmp_path / date).write_bytes(BUNDLED_MODEL.read_bytes())
        assert make_agent(f"ppo:{date}").path == file
        assert make_agent(f"ppo:./{date}").path == Path(f"./{date}")


def test_bundled_weights_are_the_shipped_zip_exactly():
    pytest.importorskip("sb3_contrib")
    bundled, shipped = NumpyPolicy.load(BUNDLED_MODEL), NumpyPolicy.load(SHIPPED_ZIP)
    assert bundled.activation_name == shipped.activation_name
    for (w, b), (w2, b2) in zip(bundled.layers, shipped.layers, strict=True):
        np.testing.assert_array_equal(w, w2)
        np.testing.assert_array_equal(b, b2)


def test_bundled_model_plays_the_moves_of_sb3_predict():
    """Differential against SB3's own inference of models/ppo_skat.zip (torch) on every
    decision of 40 games: the NumPy forward pass of the .npz picks the same moves."""
    pytest.importorskip("sb3_contrib")
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    obs, masks = _positions(40, seed=0)
    model = MaskablePPO.load(str(SHIPPED_ZIP), device="cpu")
    want, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
    got = make_agent("ppo").act_batch(obs, masks)
    assert len(obs) > 1000
    np.testing.assert_array_equal(got, want)


def test_save_and_load_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    layers = [(rng.normal(size=(8, 450)).astype(np.float32), np.zeros(8, np.float32)),
              (rng.normal(size=(121, 8)).astype(np.float32), np.ones(121, np.float32))]  # fmt: skip
    policy = NumpyPolicy(layers, "ReLU")
    policy.save(tmp_path / "p.npz")
    again = PPOAgent(tmp_path / "p.npz").policy
    x = rng.random((5, 450), dtype=np.float32)
    np.testing.assert_array_equal(again.logits(x), policy.logits(x))
    assert again.activation_name == "ReLU"


@pytest.mark.slow
def test_bundled_model_plays_a_tournament_without_torch():
    """With torch and SB3 unimportable, ``ppo`` still loads and plays (NumPy inference)."""
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.partition('.')[0] in ('torch', 'sb3_contrib', 'stable_baselines3'):\n"
        "            raise ImportError('blocked: ' + name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "from skat_env.tournament import evaluate\n"
        "r = evaluate(['ppo', 'heuristic', 'heuristic'], 4, seed=0)\n"
        "assert r['agents']['ppo']['games'] == 12, r['agents']['ppo']\n"
        "assert 'torch' not in sys.modules\n"
        "print('ok', round(r['agents']['ppo']['sf_per_game'], 1))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


@pytest.mark.wheel
def test_the_wheel_carries_the_model_and_the_web_page(tmp_path):
    pytest.importorskip("build")
    source = tmp_path / "src"  # a copy: setuptools' build/ cache in the repo could go stale
    junk = (".*", "build", "dist", "*.egg-info", "runs", "results", "__pycache__")
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*junk))
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path)],
        cwd=source, check=True, capture_output=True,
    )  # fmt: skip
    (wheel,) = tmp_path.glob("skat_env-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "skat_env/agents/models/ppo_skat.npz",
        "skat_env/agents/models/ppo_skat.json",
        "skat_env/agents/models/ppo_skat_2026-12-02.npz",  # `ppo:2026-12-02`, on the panel
        "skat_env/agents/models/ppo_skat_2026-12-05.npz",  # `ppo:2026-12-05`
        "skat_env/agents/models/contracts.npz",  # `learned`, `heuristic:contracts=learned`
        "skat_env/agents/models/contracts_search.npz",  # the default `pimc`'s bidder
        "skat_env/agents/ppo.py",
        "skat_env/web/static/index.html",
        "skat_env/web/static/app.js",
        "skat_env/web/static/i18n.js",
        "skat_env/integrations/openspiel.py",
    ):
        assert name in names
    assert not any(n.startswith(("tests/", "models/", "agents/")) for n in names)
    assert wheel.stat().st_size < 4_000_000  # models: 1.5 MB (policy and value), 2x 0.8 MB


def test_the_readme_python_snippets_run():
    """The snippets scripts/test_wheel.sh runs against the wheel, here in the checkout (in
    order, as one script: later ones use earlier names; from the repo root for tests/data)."""
    pytest.importorskip("pyspiel")
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    assert len(blocks) >= 2
    out = subprocess.run(
        [sys.executable, "-c", "\n".join(blocks)], cwd=ROOT, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-2000:]
