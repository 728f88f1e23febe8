"""Output files of the command-line tools: named by run, never overwriting an earlier one."""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

RESULTS = Path("results")


class OutputPathError(ValueError):
    """An output path that cannot be written (the CLIs report it without a traceback)."""


def new_output(*words: str, folder: Path = RESULTS, suffixes: tuple[str, ...] = (".png",)) -> Path:
    """A new ``folder/<words>-<time>.json`` whose .json and companion files (``suffixes``)
    exist nowhere yet; words are reduced to file-name-safe characters."""
    slug = "-".join(re.sub(r"[^A-Za-z0-9_.]+", "_", w).strip("_") for w in words if w)
    stem = f"{slug[:100]}-{time.strftime('%Y%m%d-%H%M%S')}"
    path, n = folder / f"{stem}.json", 1
    while any(path.with_suffix(s).exists() for s in (".json", *suffixes)):
        n += 1
        path = folder / f"{stem}-{n}.json"
    return path


def check_writable(path: Path, create_parent: bool) -> None:
    """Refuse a path whose folder is missing (unless ``create_parent``: the default folder),
    that is a folder, or whose folder is not writable."""
    if create_parent:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        folder = str(path.parent)
        raise OutputPathError(f"cannot write {str(path)!r}: folder {folder!r} does not exist")
    if path.is_dir():
        raise OutputPathError(f"cannot write {str(path)!r}: it is a folder")
    if not os.access(path.parent, os.W_OK):
        raise OutputPathError(f"cannot write {str(path)!r}: folder not writable")


def command_line(prog: str, argv: Sequence[str] | None) -> str:
    """The command as a user would retype it: ``python x.py ...`` for a checkout's script
    (``prog`` ends in .py), else the console script's name."""
    words = sys.argv[1:] if argv is None else list(argv)
    head = f"python {prog}" if prog.endswith(".py") else prog
    return " ".join([head, *(shlex.quote(w) for w in words)])


def output_paths(
    json_path: Path | None, plot_path: Path | None, no_plot: bool, *words: str
) -> tuple[Path, Path | None]:
    """The JSON and plot paths of a run, checked writable before any work: given paths must
    be in an existing folder; by default a new ``results/<words>-<time>.json`` and its .png."""
    out = json_path or new_output(*words)
    plot = None if no_plot else (plot_path or out.with_suffix(".png"))
    for path, named in ((out, json_path), (plot, plot_path or json_path)):
        if path is not None:
            check_writable(path, create_parent=named is None)
    return out, plot


def write_results(
    results: dict, out: Path, plot: Path | None, write_plot: Callable[[dict, Path], None], prog: str
) -> int:
    """Write the results JSON and the plot, say where; the exit status (1 if writing failed)."""
    try:
        out.write_text(json.dumps(results, indent=2) + "\n")
        if plot is not None:
            write_plot(results, plot)
    except OSError as e:
        print(f"{prog}: error: cannot write results: {e}", file=sys.stderr)
        return 1
    print(f"wrote {out}" + (f" and {plot}" if plot is not None else ""))
    return 0
