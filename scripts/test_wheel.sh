#!/usr/bin/env bash
# The package as a user installs it: build the sdist and the wheel (`python -m build`), install
# the wheel by the README's own line (eval, web and search extras; no torch) and the openspiel
# extra into a fresh venv in a temp folder outside the repo, and run there what a user runs:
# `skat-evaluate` with the bundled `ppo`, `learned` and `pimc:fast`, `skat-web` (the page and
# its assets are served) and the README's Python snippets (run from the clone's folder, as a
# user with the repo's data files would, with the source tree off sys.path). Prints the
# wheel's size. Needs .venv (scripts/setup.sh) and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
tmp=$(mktemp -d)
web_pid=
cleanup() {
    if [ -n "$web_pid" ]; then kill "$web_pid" 2>/dev/null || true; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

# build from a copy, so that no build/ or egg-info is left in (or taken from) the checkout
.venv/bin/python - "$tmp/src" <<'EOF'
import os, shutil, subprocess, sys
listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                        capture_output=True, check=True).stdout.decode().split("\0")
for name in filter(os.path.isfile, listed):
    os.makedirs(os.path.join(sys.argv[1], os.path.dirname(name)), exist_ok=True)
    shutil.copy2(name, os.path.join(sys.argv[1], name))
EOF
.venv/bin/python -m build --outdir "$tmp/dist" "$tmp/src" >"$tmp/build.log" 2>&1 || {
    cat "$tmp/build.log"; exit 1
}
wheel=$(ls "$tmp"/dist/skat_env-*.whl)
echo "wheel: $(basename "$wheel"), $(du -k "$wheel" | cut -f1) KB"

python3 -m venv "$tmp/venv"
# the README's wheel line as a user pastes it (beside dist/, the venv first on PATH), then
# the openspiel extra for the README's snippets
readme_line=$(grep -m1 '^pip install "\$(ls' README.md | sed 's/ *#.*//')
echo "README: $readme_line"
(cd "$tmp" && PATH="$tmp/venv/bin:$PATH" bash -c "$readme_line" >"$tmp/pip.log" 2>&1) || {
    cat "$tmp/pip.log"; exit 1
}
"$tmp/venv/bin/pip" install -q "${wheel}[openspiel]"
py="$tmp/venv/bin/python"
cd "$tmp"  # outside the repo: nothing of the source tree can be imported
"$py" - <<'EOF'
import importlib.util, skat_env
assert "site-packages" in skat_env.__file__, skat_env.__file__
assert importlib.util.find_spec("torch") is None, "torch must not be needed"
print("installed:", skat_env.__version__, skat_env.__file__)
EOF

"$tmp/venv/bin/skat-evaluate" --agents ppo heuristic heuristic --deals 30 --seed 0 \
    --no-progress --json "$tmp/eval.json"
"$py" -c "import json, sys; r = json.load(open(sys.argv[1])); assert r['agents']['ppo']['games'] == 90" \
    "$tmp/eval.json"
# the learned contract decisions read their bundled model (package data)
"$tmp/venv/bin/skat-evaluate" --agents learned heuristic heuristic --deals 5 --seed 0 \
    --no-progress --json "$tmp/learned.json"
# the search player (the search extra: numba) with its bundled contract model
"$tmp/venv/bin/skat-evaluate" --agents pimc:fast heuristic heuristic --deals 2 --seed 0 \
    --no-progress --json "$tmp/pimc.json"

port=$("$py" -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
"$tmp/venv/bin/skat-web" --port "$port" >"$tmp/web.log" 2>&1 &
web_pid=$!
"$py" - "$port" <<'EOF' || { cat "$tmp/web.log"; exit 1; }
import sys, time, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
for _ in range(150):
    try:
        page = urllib.request.urlopen(base + "/", timeout=2).read().decode()
        break
    except OSError:
        time.sleep(0.2)
else:
    raise SystemExit("skat-web did not answer")
assert "<html" in page.lower(), page[:200]
for asset in ("/static/app.js", "/static/style.css"):
    assert urllib.request.urlopen(base + asset, timeout=5).status == 200, asset
print("skat-web served the page and its assets")
EOF
kill "$web_pid"
web_pid=

# the README's ```python blocks, in order, as one script beside the venv (not in the repo)
"$py" - "$repo/README.md" "$tmp/readme_snippets.py" <<'EOF'
import re, sys
blocks = re.findall(r"```python\n(.*?)```", open(sys.argv[1]).read(), re.S)
head = "import skat_env\nassert 'site-packages' in skat_env.__file__\n"
open(sys.argv[2], "w").write(head + "\n".join(blocks))
print(f"README: {len(blocks)} Python snippets")
EOF
(cd "$repo" && "$py" "$tmp/readme_snippets.py" >/dev/null)
echo "wheel OK: the README's install line, skat-evaluate with ppo, learned and pimc:fast, skat-web and the README snippets ran"
