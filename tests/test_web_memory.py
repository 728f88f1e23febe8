"""Bounded memory with search opponents: the kept games of ``pimc`` players share the
search tables of the agent pool's threads (one solver per thread, not one per game), and
the server's memory stays under a stated ceiling with every game slot filled."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient  # noqa: E402

from skat_env.web.app import SkatServer, create_app  # noqa: E402

CEILING_MB = 1024  # RSS with 256 kept games against two pimc:fast players
GAMES = 256
WORKERS = 2


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def solvers(srv: SkatServer) -> set[int]:
    """The distinct solvers the kept games' agents hold."""
    tables = [srv.tables.get(gid, "game") for gid in list(srv.tables._items)]
    return {id(a.solver) for t in tables for a in t.agents.values() if hasattr(a, "solver")}


def play_out(client: TestClient, answer: dict, rng: random.Random) -> None:
    gid = answer["game_id"]
    while answer["state"]["result"] is None:
        move = rng.choice(answer["state"]["legal"]["moves"])
        r = client.post(f"/api/games/{gid}/moves", json={"move": move})
        assert r.status_code == 200, r.text
        answer = r.json()


def fill_the_server() -> float:
    """Fill every game slot of a server with pimc:fast opponents; its RSS in MB."""
    srv = SkatServer(["pimc:fast", "pimc:fast"], max_games=GAMES, seed=1, agent_workers=WORKERS)
    client = TestClient(create_app(srv))
    rng = random.Random(0)
    for i in range(GAMES):
        r = client.post("/api/games", json={})  # the agents bid until the human is asked
        assert r.status_code == 200, r.text
        if i % 64 == 0:  # some played out: the card-play searches fill their tables
            play_out(client, r.json(), rng)
    assert len(srv.tables) == GAMES
    held = solvers(srv)
    assert 1 <= len(held) <= WORKERS + 1, len(held)  # the pool's solvers, the prototype's
    return rss_mb()


@pytest.mark.slow
def test_kept_games_with_search_players_stay_under_the_ceiling() -> None:
    """In a process of its own, as a server runs (the test session's other imports and
    tables would count otherwise)."""
    run = subprocess.run([sys.executable, __file__], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    rss = float(run.stdout.split()[-1])
    print(f"RSS with {GAMES} kept pimc:fast games: {rss:.0f} MB")
    assert rss < CEILING_MB


def test_a_slow_search_does_not_stall_other_players(monkeypatch) -> None:
    """While every agent thread is busy, another player's own moves are still answered."""
    srv = SkatServer(["random", "random"], seed=0, agent_workers=1)
    client = TestClient(create_app(srv))
    body = {"dealer": 2, "run_agents": False}  # seat 1 (middlehand) bids first
    mine = client.post("/api/games", json=body | {"seat": 1}).json()
    other = client.post("/api/games", json=body | {"seat": 0}).json()
    gate = threading.Event()
    real = srv._lend_tables

    def slow(agent) -> None:
        gate.wait(5)
        real(agent)

    monkeypatch.setattr(srv, "_lend_tables", slow)
    busy = threading.Thread(
        target=client.post, args=(f"/api/games/{other['game_id']}/agent",), kwargs={"json": {}}
    )
    busy.start()
    time.sleep(0.2)
    start = time.perf_counter()
    r = client.post(
        f"/api/games/{mine['game_id']}/moves", json={"move": "pass", "run_agents": False}
    )
    assert r.status_code == 200 and time.perf_counter() - start < 2
    assert busy.is_alive()  # the agent's move is still waiting
    gate.set()
    busy.join(5)
    assert srv.tables.get(other["game_id"], "game").game.history  # the agent moved


if __name__ == "__main__":
    print(f"{fill_the_server():.1f}")
