"""benchmarks/bench_update.py runs end to end at a tiny size and refuses bad settings."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_update  # noqa: E402


@pytest.mark.slow
def test_bench_update_times_every_setting(capsys):
    argv = ["--rollout-size", "256", "--repeats", "1", "--settings", "1,128,16x16", "2,64,8x8"]
    assert bench_update.main(argv) == 0
    out = capsys.readouterr().out
    assert "16x16" in out and "8x8" in out and "1.0x" in out


def test_bench_update_refuses_a_malformed_setting():
    with pytest.raises(SystemExit, match="2"):
        bench_update.main(["--settings", "4-2048-256"])
