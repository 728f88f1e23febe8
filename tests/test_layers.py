"""The layers hold in the imports: no module of skat_env (agents/ installs as skat_env.agents)
imports a higher layer, and no files import each other in a cycle. Every import counts,
function-level ones included: a deferred import still ties the two files together.

Layers, lowest first, as in the README's layout section: core < encoding < vector, search <
envs < integrations < agents < tournament, league, training < web < cli.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ORDER = {
    "core": 0,
    "encoding": 1,
    "vector": 2,
    "search": 2,
    "envs": 3,
    "skat_v0": 3,  # the versioned PettingZoo shim over envs.aec
    "": 3,  # skat_env/__init__.py: the core's names and the env registration
    "integrations": 4,
    "agents": 5,
    "cluster": 6,  # Ray tasks for the panel and the distillation shards
    "tournament": 6,
    "league": 6,
    "panel": 6,  # the benchmark panel: a tournament over the agents
    "training": 6,  # builds players: may use them (contract data), used only by cli
    "web": 7,
    "cli": 8,
}


def sources() -> dict[str, Path]:
    """Module name -> file, for skat_env/ and agents/ (as skat_env.agents)."""
    out = {}
    for base, prefix in ((ROOT / "skat_env", "skat_env"), (ROOT / "agents", "skat_env.agents")):
        for path in base.rglob("*.py"):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([prefix, *parts])] = path
    return out


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[int, str]]:
    """(line, module) of every import of a skat_env module in the file, resolved to files:
    ``from pkg import sub`` is the module ``pkg.sub`` when that is a file, else ``pkg``."""
    package = name if is_package(path) else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            targets = [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module
                       for a in node.names]  # fmt: skip
        else:
            continue
        for target in targets:
            if target == "agents" or target.startswith("agents."):
                target = "skat_env." + target  # the repo's folder, not an installed package
            while target and target not in modules:  # `import skat_env.core.game.x` etc.
                target = target.rpartition(".")[0]
            if target.startswith("skat_env") and target != name:
                found.append((node.lineno, target))
    return found


def layer(module: str) -> int:
    key = module.split(".")[1] if "." in module else ""
    assert key in ORDER, f"{module}: place its folder in the layer order (README, this test)"
    return ORDER[key]


def graph() -> dict[str, dict[str, int]]:
    modules = sources()
    return {
        name: {target: line for line, target in imports(name, path, modules)}
        for name, path in modules.items()
    }


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


@pytest.mark.slow
def test_no_module_imports_a_higher_layer():
    modules = sources()
    bad = [
        f"{modules[name].relative_to(ROOT)}:{line} imports {target}"
        for name, targets in graph().items()
        for target, line in targets.items()
        if layer(target) > layer(name)
    ]
    assert not bad, "imports up the layers:\n" + "\n".join(bad)


@pytest.mark.slow
def test_no_files_import_each_other_in_a_cycle():
    found = cycles(graph())
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_integration_modules_stay_small():
    """One job per module: the adapters are split before they reach 400 lines."""
    sizes = {p.name: len(p.read_text().splitlines())
             for p in (ROOT / "skat_env" / "integrations").glob("*.py")}  # fmt: skip
    assert max(sizes.values()) < 400, sizes


def test_the_checks_see_relative_deferred_and_agents_imports(tmp_path):
    """The walker resolves what the package writes: relative imports, ``from pkg import
    sub``, imports inside functions and the top-level agents/ folder."""
    modules = sources()
    found = dict((t, n) for n, t in imports("skat_env.cli.train", modules["skat_env.cli.train"],
                                            modules))  # fmt: skip
    assert "skat_env.cli.options" in found and "skat_env.training.opponents" in found
    ppo = [t for _, t in imports("skat_env.agents.ppo", modules["skat_env.agents.ppo"], modules)]
    assert "skat_env.agents.base" in ppo and "skat_env.integrations.numpy_policy" in ppo
    assert cycles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]


def test_the_readme_lists_the_layers_in_this_order():
    text = (ROOT / "README.md").read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    named = re.findall(r"^(?:skat_env/)?(\w+)(?:/|\.py)", block, re.M)
    layers = [ORDER[n] for n in named if n in ORDER]
    assert len(layers) >= 10 and layers == sorted(layers), named
