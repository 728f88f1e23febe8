"""Output files of the command-line tools: named by run, never overwriting an earlier one."""

from __future__ import annotations

import os
import re
import time
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
