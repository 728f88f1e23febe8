#!/usr/bin/env bash
# Set everything up and run every test, all tiers (slow, browser, wheel, RLlib), the slowest
# twenty listed, and the type check: the main suite in .venv, then the Ray RLlib / TorchRL tests
# in their own environment .venv-rllib (RLlib pins an older Gymnasium), with the Ray paths of
# the panel and the distillation shards.
# The fast tier alone (under a minute): .venv/bin/python -m pytest --fast
set -euo pipefail
cd "$(dirname "$0")/.."
export OMP_NUM_THREADS=1 RAY_USAGE_STATS_ENABLED=0
bash scripts/setup.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
bash scripts/typecheck.sh
.venv/bin/python -m pytest --durations=20
bash scripts/test_wheel.sh  # the built wheel in a fresh venv outside the repo, without torch
if bash scripts/setup_rllib.sh; then
    .venv-rllib/bin/python -m pytest -p no:cacheprovider --durations=10 tests/test_rllib.py \
        tests/test_torchrl.py tests/test_masked_mlp.py tests/test_rllib_agent.py \
        tests/test_panel.py::test_the_ray_path_on_a_local_cluster_gives_the_serial_figures \
        tests/test_distill.py::test_the_ray_path_on_a_local_cluster_writes_the_same_shards
else
    echo "WARNING: could not install Ray RLlib / TorchRL into .venv-rllib; their tests did not run" >&2
fi
