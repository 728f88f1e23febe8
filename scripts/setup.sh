#!/usr/bin/env bash
# Create .venv and install skat-env with everything the scripts and tests need.
# torch is pinned to the CPU build available on these machines (a bare `torch` pulls a
# multi-GB GPU build).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "setup: .venv with skat-env (editable) and the extras train, eval, test, search, web," \
    "openspiel (torch CPU included; about 2 GB the first time)"
python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q "torch==2.13.0"
.venv/bin/pip install -q -e ".[train,eval,test,search,web,openspiel]"
