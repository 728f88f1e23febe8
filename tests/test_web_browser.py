"""The page in headless Chromium (Playwright): a whole game played by clicks against
``random`` agents, and a record watched step by step. Skipped only where Chromium or
Playwright is missing."""

from __future__ import annotations

import os
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(
        f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium)", allow_module_level=True
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright")
uvicorn = pytest.importorskip("uvicorn")

from skat_env.core.game import Game  # noqa: E402
from skat_env.core.records import dumps, replay  # noqa: E402
from skat_env.web.app import SkatServer, create_app  # noqa: E402
from skat_env.web.records import parse_records  # noqa: E402

ISS = Path(__file__).parent / "data" / "iss_records.sgf"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _seeded_record() -> str:
    rng = random.Random(3)
    for seed in range(50):  # the first deal that is played out, not passed in
        game = Game.random(seed)
        while not game.is_over:
            game.step(rng.choice(game.legal_actions()))
        if not game.result.passed_in:
            return dumps(game) + "\n"
    raise AssertionError("no played-out game")


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, SkatServer]]:
    records, _ = parse_records(_seeded_record(), "seeded.jsonl")
    srv = SkatServer(["random", "random"], records, seed=0)
    config = uvicorn.Config(create_app(srv), host="127.0.0.1", port=_free_port(), log_level="error")
    web = uvicorn.Server(config)
    thread = threading.Thread(target=web.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not web.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{config.port}", srv
    web.should_exit = True
    thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser) -> Iterator:
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def _click_one_move(pg, rng: random.Random, seen: set[str]) -> None:
    """Make one move the page offers: a button or a playable card (bidding on and
    picking up the skat, so that the human tends to declare)."""
    declare = pg.locator(".declare-grid button")
    if declare.count():
        seen.add("declare")
        declare.nth(rng.randrange(declare.count())).click()
        return
    cards = pg.locator("#seat-bottom .card.playable")
    if pg.locator("#discard").count():
        seen.add("discard")
        assert cards.count() == 12
        cards.nth(0).click()
        cards.nth(1).click()
        pg.locator("#discard").click()
        return
    if cards.count():
        hand = pg.locator("#seat-bottom .card").count()
        assert cards.count() + pg.locator("#seat-bottom .card.unplayable").count() == hand
        cards.nth(rng.randrange(cards.count())).click()
        return
    pg.locator("#actions button").first.click()  # bid, hold or pick up


def test_play_a_whole_game_by_clicks(server, page) -> None:
    url, srv = server
    page.goto(f"{url}/?delay=0&seed=11")
    rng = random.Random(0)
    seen: set[str] = set()
    end = page.locator("#end-panel:not(.hidden)")
    ready = "#actions button:not([disabled]), #seat-bottom .card.playable, #end-panel:not(.hidden)"
    for _ in range(60):
        page.wait_for_selector(ready, timeout=10_000)
        if end.count():
            break
        _click_one_move(page, rng, seen)
        page.wait_for_timeout(30)
    assert end.count(), "the game did not end"
    assert seen == {"discard", "declare"}  # the human picked up, put away and declared
    gid = page.evaluate("sessionStorage.getItem('skat-game')")
    result = srv.tables.get(gid, "game").game.result
    text = end.inner_text()
    if result.passed_in:
        assert "Passed in" in text
    else:
        assert result.contract.split()[0].capitalize() in text
        assert f"{result.score:+d}".replace("+", "") in text
        assert str(result.game_value) in text
    for sf in result.seeger_fabian:
        assert f"{sf:+d}" in text if sf else "0" in text
    assert "The deal" in text and page.locator(".reveal-row").count() >= 4
    record = page.request.get(url + page.locator("#download").get_attribute("href"))
    assert replay(record.text()).result == result
    assert page.locator("#scores tr").count() == 4  # header, one game, two totals
    page.locator("#next-game").click()
    page.wait_for_selector("#actions button:not([disabled]), #seat-bottom .card.playable")
    bottom = page.locator("#seat-bottom .badge").first.inner_text()
    assert bottom == "middlehand"  # round 2: the next position


def test_watch_a_record_step_by_step(server, page, tmp_path: Path) -> None:
    url, srv = server
    rec = srv.preloaded["p0"]
    steps = len(rec.game.history)
    page.goto(f"{url}/?mode=watch")
    page.wait_for_selector("#record-list option")
    page.select_option("#record-list", "p0")
    page.wait_for_selector("#w-counter:has-text('move 0 /')")
    assert page.locator("#seat-left .card:not(.back)").count() == 10  # all hands shown
    page.click("#w-last")
    page.wait_for_selector("#end-panel:not(.hidden)")
    assert f"{rec.game.result.score:+d}".replace("+", "") in page.inner_text("#end-panel")
    assert page.inner_text("#w-counter") == f"move {steps} / {steps}"
    page.click("#end-panel button")  # hide
    page.click("#w-prev")
    page.wait_for_selector(f"#w-counter:has-text('move {steps - 1} /')")
    assert page.locator("#end-panel.hidden").count() == 1
    page.click("#w-first")
    page.wait_for_selector("#w-counter:has-text('move 0 /')")
    page.select_option("#w-view", "1")  # player_1's view: the others' hands are hidden
    page.wait_for_selector("#seat-left .card.back")
    assert page.locator("#seat-bottom .card:not(.back)").count() == 10
    assert page.locator("#seat-left .card:not(.back), #seat-right .card:not(.back)").count() == 0
    iss = tmp_path / "games.sgf"
    iss.write_text(ISS.read_text())
    page.set_input_files("#upload", str(iss))
    page.wait_for_selector("#upload-msg:has-text('record(s)')")
    assert page.locator("#record-list option").count() > 1
    # an uploaded ISS game, stepped to its end, shows the score the server recorded
    played = next(r for r, in zip(parse_records(ISS.read_text(), "x")[0])
                  if r.game.result is not None and r.game.result.declarer is not None)  # fmt: skip
    options = page.eval_on_selector_all(
        "#record-list option", "els => els.map(e => [e.value, e.textContent])"
    )
    head = played.label.split(":")[0] + ":"  # "ISS <id>:"
    value = next(v for v, text in options if text.startswith(head))
    page.select_option("#record-list", value)
    n = len(played.game.history)
    page.wait_for_selector(f"#w-counter:text-is('move 0 / {n}')")
    page.click("#w-last")
    page.wait_for_selector(f"#w-counter:text-is('move {n} / {n}')")
    page.wait_for_selector("#end-panel:not(.hidden)")
    shown = page.inner_text("#end-panel")
    assert str(abs(played.game.result.score)) in shown
    assert ("won" if played.game.result.won else "lost") in shown.lower()


def test_german_suits(server, page) -> None:
    url, _ = server
    page.goto(f"{url}/?delay=40&seed=2")  # agents' moves played back at a pace
    page.wait_for_selector("#actions button")
    moves = page.locator("#log li").count()
    page.locator("#actions button").last.click()  # pass
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {moves}")
    page.select_option("#deck", "german")
    titles = page.locator("#seat-bottom .card").evaluate_all("cs => cs.map(c => c.title)")
    german = ("Eichel", "Grün", "Herz", "Schellen")
    assert titles and all(t.startswith(german) for t in titles)
    jacks = page.locator("#seat-bottom .card[data-card$='J'] .corner span")
    assert all(t == "U" for t in jacks.all_inner_texts())
