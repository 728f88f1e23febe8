"""Records per second of the ISS behaviour-cloning reader (``skat-train --init iss:FILE``): parse,
replay and encode every decision of each record, from a plain and a ``.bz2`` file, in one run.

    OMP_NUM_THREADS=1 python benchmarks/bench_iss.py               # tests/data x 100
    python benchmarks/bench_iss.py --repeat 400 --min-rating 700

The input is ``tests/data/iss_records.sgf`` (51 real records, every kind of ending) written
``--repeat`` times to a temporary file, so no download is needed; a real archive can be given
with ``--file``.
"""

from __future__ import annotations

import argparse
import bz2
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from skat_env.training.iss_data import iss_decisions  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=100, help="copies of the 51 test records")
    ap.add_argument("--file", type=Path, default=None, help="an ISS file instead (.sgf[.bz2])")
    ap.add_argument("--min-rating", type=float, default=0.0)
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    with tempfile.TemporaryDirectory() as tmp:
        if args.file is None:
            text = (ROOT / "tests" / "data" / "iss_records.sgf").read_text() * args.repeat
            plain, packed = Path(tmp) / "iss.sgf", Path(tmp) / "iss.sgf.bz2"
            plain.write_text(text)
            packed.write_bytes(bz2.compress(text.encode()))
            files = [("plain .sgf", plain), (".sgf.bz2", packed)]
        else:
            files = [(args.file.name, args.file)]
        print(f"{'input':<14}{'records/s':>11}{'decisions/s':>13}  kept")
        for label, path in files:
            t = time.perf_counter()
            data, stats = iss_decisions(path, games=10**9, min_rating=args.min_rating)
            dt = time.perf_counter() - t
            print(f"{label:<14}{stats.records / dt:>11,.0f}{stats.decisions / dt:>13,.0f}  "
                  f"{stats.games:,} games of {stats.records:,} records")  # fmt: skip
            del data
    print(f"load average: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
