#!/usr/bin/env bash
# Create .venv-rllib: Ray RLlib and TorchRL beside skat-env (editable), in their own environment.
# RLlib pins its own Gymnasium release (ray 2.60: gymnasium==1.2.2), so it lives apart from the
# main .venv; skat-env's ranges (gymnasium>=1.0,<2, pettingzoo>=1.24,<2) admit it. torch is pinned
# to the CPU build available on these machines (a bare `torch` pulls a multi-GB GPU build).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x .venv-rllib/bin/python ]; then
    echo "setup_rllib: updating .venv-rllib (Ray RLlib, TorchRL, torch CPU; about 2 GB)"
else
    echo "setup_rllib: creating .venv-rllib, a second environment of about 2 GB (torch CPU," \
        "Ray RLlib, TorchRL, skat-env editable) for the RLlib and TorchRL tests: RLlib pins its" \
        "own Gymnasium, so it cannot share .venv. This takes a few minutes, once."
fi
python3 -m venv .venv-rllib
.venv-rllib/bin/pip install -q --upgrade pip
.venv-rllib/bin/pip install -q "torch==2.13.0"
.venv-rllib/bin/pip install -q "ray[rllib]>=2.60,<3" "torchrl>=0.14,<0.16"
.venv-rllib/bin/pip install -q -e ".[eval,test,rllib,torchrl]"
.venv-rllib/bin/python -c "import ray.rllib, torchrl, skat_env; print('ray', ray.__version__)"
