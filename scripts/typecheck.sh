#!/usr/bin/env bash
# Type-check the package as it installs: skat_env with the players (agents/) as skat_env.agents.
# mypy cannot follow the editable install's import hook, so it reads a temporary tree of links
# that puts agents/ where the wheel puts it; the messages name files as skat_env/... (agents/
# as skat_env/agents/). Settings: [tool.mypy] in pyproject.toml.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tree="$(mktemp -d)"
trap 'rm -rf "$tree"' EXIT
mkdir "$tree/skat_env"
for f in "$root"/skat_env/*; do ln -s "$f" "$tree/skat_env/"; done
ln -s "$root/agents" "$tree/skat_env/agents"
cd "$tree"
"$root/.venv/bin/mypy" --config-file "$root/pyproject.toml" --cache-dir "$root/.mypy_cache" \
    -p skat_env "$@"
