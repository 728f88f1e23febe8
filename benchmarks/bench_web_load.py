"""Load test of the web server: N simulated players play whole games through the API.

    python benchmarks/bench_web_load.py [--players 32] [--seconds 60]
        [--opponents heuristic heuristic] [--agent-workers 4] [--think-ms 0] [--uploads 2]
        [--upload-mb 19] [--json FILE]

Starts the real server (``python -m skat_env.web``) on 127.0.0.1 in its own process, then
``--players`` threads each play games for ``--seconds``: a new game, random legal moves
for the human seat (each answer brings the agents' moves) and the record at the end, on
one keep-alive connection per player, with ``--think-ms`` between moves (0: as fast as the
server answers). Reports games/s (games finished in the time), request latency (p50, p90,
p99, max), the status codes (any 5xx is a failure), and the server's RSS sampled every
second. Then ``--uploads`` record files of ``--upload-mb`` MB each (valid JSON-lines records)
are uploaded one after the other and the RSS growth is compared with the server's upload
budget (``skat_env.web.limits.UPLOAD_BUDGET_BYTES``). Exit status 1 if a request got a 5xx.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from skat_env.core.game import Game
from skat_env.core.records import dumps
from skat_env.web.limits import UPLOAD_BUDGET_BYTES


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Client:
    """One keep-alive connection; every request's latency and status are recorded."""

    def __init__(self, port: int, stats: Stats):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.stats = stats

    def call(self, method: str, path: str, body: dict | str | None = None) -> tuple[int, bytes]:
        data = body if body is None or isinstance(body, str) else json.dumps(body)
        headers = {"Content-Type": "application/json"} if data else {}
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=headers)
        resp = self.conn.getresponse()
        raw = resp.read()
        self.stats.add(time.perf_counter() - start, resp.status)
        return resp.status, raw


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.codes: dict[int, int] = {}
        self.games = 0

    def add(self, seconds: float, code: int) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.codes[code] = self.codes.get(code, 0) + 1


def player(port: int, stats: Stats, opponents: list[str], deadline: float, seed: int,
           think: float) -> None:  # fmt: skip
    """Play games until the deadline; a game still running then is left unfinished."""
    rng = random.Random(seed)
    client = Client(port, stats)
    while time.monotonic() < deadline:
        code, raw = client.call("POST", "/api/games", {"opponents": opponents})
        if code != 200:
            continue
        answer = json.loads(raw)
        gid = answer["game_id"]
        while answer["state"]["result"] is None and time.monotonic() < deadline:
            if think:
                time.sleep(think)
            state = answer["state"]
            body = {
                "move": rng.choice(state["legal"]["moves"]),
                "moves_played": state["moves_played"],
            }
            code, raw = client.call("POST", f"/api/games/{gid}/moves", body)
            if code != 200:
                break
            answer = json.loads(raw)
        if answer["state"]["result"] is not None:
            client.call("GET", f"/api/games/{gid}/record")
            with stats.lock:
                stats.games += 1


def record_text(megabytes: float, seed: int = 0) -> str:
    """Valid JSON-lines records, ``megabytes`` MB: 500 random games, repeated."""
    rng = random.Random(seed)
    lines = []
    for i in range(500):
        game = Game.random(seed * 1000 + i, dealer=i % 3)
        while not game.is_over:
            game.step(rng.choice(game.legal_actions()))
        lines.append(dumps(game))
    block = "\n".join(lines) + "\n"
    return block * max(1, int(megabytes * 1e6 // len(block)))


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1] if len(values) > 1 else values[0]


def start_server(port: int, opponents: list[str], workers: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "skat_env.web", "--port", str(port), "--opponents", *opponents,
           "--agent-workers", str(workers)]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start: {proc.stderr.read()}") from None
            time.sleep(0.2)


def run(args: argparse.Namespace) -> dict:
    port = free_port()
    proc = start_server(port, args.opponents, args.agent_workers)
    try:
        warm = Stats()  # one game first: imports and agents are loaded before timing
        player(port, warm, args.opponents, time.monotonic() + 0.5, 10**6, 0)
        rss = [(0.0, rss_mb(proc.pid))]
        stats = Stats()
        start = time.monotonic()
        deadline = start + args.seconds
        think = args.think_ms / 1000
        threads = [
            threading.Thread(target=player, args=(port, stats, args.opponents, deadline, s, think))
            for s in range(args.players)
        ]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            time.sleep(1)
            rss.append((round(time.monotonic() - start, 1), rss_mb(proc.pid)))
        elapsed = time.monotonic() - start
        lat = sorted(stats.latencies)
        out = {
            "players": args.players,
            "seconds": round(elapsed, 1),
            "opponents": args.opponents,
            "agent_workers": args.agent_workers,
            "think_ms": args.think_ms,
            "games": stats.games,
            "games_per_s": round(stats.games / elapsed, 2),
            "requests": len(lat),
            "requests_per_s": round(len(lat) / elapsed, 1),
            "latency_ms": {
                "p50": round(1000 * percentile(lat, 0.50), 1),
                "p90": round(1000 * percentile(lat, 0.90), 1),
                "p99": round(1000 * percentile(lat, 0.99), 1),
                "max": round(1000 * lat[-1], 1),
            },
            "status_codes": {str(k): v for k, v in sorted(stats.codes.items())},
            "server_errors": sum(v for k, v in stats.codes.items() if k >= 500),
            "rss_mb": {
                "start": round(rss[0][1], 1),
                "peak": round(max(r for _, r in rss), 1),
                "end": round(rss[-1][1], 1),
            },  # fmt: skip
            "rss_growth_mb": round(rss[-1][1] - rss[0][1], 1),
            "rss_over_time": [[t, round(r, 1)] for t, r in rss],
        }
        out["uploads"] = uploads(port, proc.pid, args.uploads, args.upload_mb)
        return out
    finally:
        proc.terminate()
        proc.wait(10)


def uploads(port: int, pid: int, count: int, megabytes: float) -> dict:
    """Upload ``count`` record files and measure the server's RSS before and after."""
    if not count:
        return {}
    text = record_text(megabytes)
    body = json.dumps({"text": text, "name": "load.jsonl"})
    before = rss_mb(pid)
    stats = Stats()
    client = Client(port, stats)
    after, records = [], 0
    for _ in range(count):
        code, raw = client.call("POST", "/api/records", body)
        if code != 200:
            raise RuntimeError(f"upload refused: {code} {raw[:200]!r}")
        records = json.loads(raw)["count"]
        time.sleep(1)
        after.append(round(rss_mb(pid), 1))
    return {
        "count": count,
        "text_mb_each": round(len(text.encode()) / 1e6, 1),
        "body_mb_each": round(len(body.encode()) / 1e6, 1),
        "records_each": records,
        "rss_before_mb": round(before, 1),
        "rss_after_each_mb": after,
        "rss_growth_mb": round(after[-1] - before, 1),
        "budget_mb": UPLOAD_BUDGET_BYTES / 1e6,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--opponents", nargs=2, default=["heuristic", "heuristic"])
    ap.add_argument("--agent-workers", type=int, default=4, help="the server's agent pool")
    ap.add_argument("--think-ms", type=float, default=0, help="pause before each human move")
    ap.add_argument("--uploads", type=int, default=2)
    ap.add_argument("--upload-mb", type=float, default=19)
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    if args.players < 1 or args.seconds <= 0 or args.uploads < 0 or args.think_ms < 0:
        print(
            "error: --players >= 1, --seconds > 0, --uploads >= 0, --think-ms >= 0", file=sys.stderr
        )
        return 2
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    out = run(args)
    summary = {k: v for k, v in out.items() if k != "rss_over_time"}
    print(json.dumps(summary, indent=1))
    print("RSS over time (s, MB):", " ".join(f"{t:g}:{r:g}" for t, r in out["rss_over_time"]))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1) + "\n")
    return 1 if out["server_errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
