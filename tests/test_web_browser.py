"""The page in headless Chromium (Playwright): a whole game by clicks at six screen sizes
(nothing wider than the screen, every card of the hand visible), each language with no
untranslated text, records watched step by step, the thinking indicator and the pace.
Skipped only where Chromium or Playwright is missing.

``SKAT_WEB_SCREENSHOTS=docs/images`` also saves a screenshot per screen size there."""

from __future__ import annotations

import os
import random
import re
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
from skat_env.web import app as web_app  # noqa: E402
from skat_env.web.app import SkatServer, create_app  # noqa: E402
from skat_env.web.records import parse_records  # noqa: E402

ISS = Path(__file__).parent / "data" / "iss_records.sgf"
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip
VIEWPORTS = [(360, 740), (390, 844), (768, 1024), (1024, 768), (1366, 900), (1920, 1080)]
READY = "#actions button:not([disabled]), #seat-bottom .card.playable, #end-panel:not(.hidden)"
SHOTS = os.environ.get("SKAT_WEB_SCREENSHOTS")

# Every card of the hand (and of open hands) fully readable: inside the screen, and its
# rank letter not covered by another card (elementFromPoint at both ends of the rank).
HIDDEN_CARDS = """sel => {
  const bad = [];
  for (const c of document.querySelectorAll(sel)) {
    const r = c.getBoundingClientRect();
    if (r.left < 0 || r.right > innerWidth) { bad.push(c.dataset.card + " off screen"); continue; }
    const span = c.querySelector(".corner span").getBoundingClientRect();
    const y = span.top + span.height / 2;
    for (const x of [span.left + 1, span.right - 1]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !c.contains(hit)) bad.push(c.dataset.card + " covered");
    }
  }
  return bad;
}"""
OVERFLOW = "document.documentElement.scrollWidth - innerWidth"
# The visible text nodes of the page (and the chosen option of each select).
VISIBLE_TEXT = """() => {
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const n = walk.currentNode, p = n.parentElement;
    if (!n.textContent.trim() || p.closest("select, script")) continue;
    if (p.checkVisibility()) out.push(n.textContent.trim());
  }
  for (const s of document.querySelectorAll("select")) {
    if (s.checkVisibility() && s.selectedOptions[0]) out.push(s.selectedOptions[0].textContent);
  }
  return out;
}"""


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
    iss, _ = parse_records(ISS.read_text(), ISS.name)
    srv = SkatServer(["random", "random"], [*records, *iss], seed=0)
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
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser, width: int = 1280, height: int = 860, locale: str = "en-US"):
    context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return pg


@pytest.fixture
def page(browser) -> Iterator:
    pg = _page(browser)
    yield pg
    pg.context.close()
    assert not pg.errors, pg.errors


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


def _play(pg, rng: random.Random, at_each_turn=lambda: None) -> set[str]:
    """Click through a whole game; ``at_each_turn`` runs whenever the page waits for us."""
    seen: set[str] = set()
    for _ in range(80):
        pg.wait_for_selector(READY, timeout=15_000)
        at_each_turn()
        if pg.locator("#end-panel:not(.hidden)").count():
            return seen
        _click_one_move(pg, rng, seen)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_a_whole_game_fits_the_screen(server, browser, width: int, height: int) -> None:
    url, srv = server
    pg = _page(browser, width, height)
    pg.goto(f"{url}/?delay=0&seed={width}&round=0")
    checked, shot = [], []

    def check() -> None:
        assert pg.evaluate(OVERFLOW) <= 0, "the page is wider than the screen"
        pg.locator("#seat-bottom").scroll_into_view_if_needed()
        assert pg.evaluate(HIDDEN_CARDS, "#seat-bottom .card:not(.back)") == []
        checked.append(pg.locator("#seat-bottom .card").count())
        trick = pg.locator("#trick .card").count()
        if SHOTS and trick == 2 and not shot and pg.locator("#seat-bottom .card.playable").count():
            shot.append(1)
            if pg.locator("#guide-close").is_visible():
                pg.click("#guide-close")
            if width in (390, 1366):  # the German cards in two of the pictures
                pg.select_option("#deck", "german")
            pg.evaluate("window.scrollTo(0, 0)")  # what a player sees mid-game
            pg.screenshot(path=str(Path(SHOTS) / f"web-{width}x{height}.png"))

    seen = _play(pg, random.Random(width), check)
    assert max(checked) == 12 and "discard" in seen  # the 12 cards of the discard fit too
    assert pg.evaluate(OVERFLOW) <= 0
    gid = pg.evaluate("sessionStorage.getItem('skat-game')")
    result = srv.tables.get(gid, "game").game.result
    text = pg.inner_text("#end-panel")
    if not result.passed_in:
        assert f"{result.score:+d}" in text and str(result.game_value) in text
    pg.context.close()
    assert not pg.errors, pg.errors


def test_play_a_whole_game_by_clicks(server, page) -> None:
    url, srv = server
    page.goto(f"{url}/?delay=0&seed=11&round=0")
    seen = _play(page, random.Random(0))
    assert seen == {"discard", "declare"}  # the human picked up, put away and declared
    gid = page.evaluate("sessionStorage.getItem('skat-game')")
    result = srv.tables.get(gid, "game").game.result
    text = page.inner_text("#end-panel")
    assert result.contract.split()[0].capitalize() in text
    assert f"{result.score:+d}" in text and str(result.game_value) in text
    for sf in result.seeger_fabian:
        assert f"{sf:+d}" in text if sf else "0" in text
    assert "The deal" in text and page.locator(".reveal-row").count() >= 4
    assert "matadors" not in text and ("with " in text or "without " in text)
    record = page.request.get(url + page.locator("#download").get_attribute("href"))
    assert replay(record.text()).result == result
    assert page.locator("#scores tr").count() == 4  # header, one game, two totals
    sf_head = page.locator("#end-panel .sf th").all_inner_texts()[1:]
    assert sf_head == page.locator("#scores th").all_inner_texts()[2:]  # same order: You first
    assert sf_head[0] == "You"
    page.locator("#next-game").click()
    page.wait_for_selector("#actions button:not([disabled]), #seat-bottom .card.playable")
    assert page.locator("#seat-bottom .badge").first.inner_text() == "middlehand"  # next round


def _text_pieces(pg, lang: str) -> list[str]:
    """The literal pieces of every string in the language's table (between parameters
    and tags), longest first."""
    table = pg.evaluate(f"I18N[{lang!r}]")
    strings: list[str] = []

    def collect(v) -> None:
        if isinstance(v, dict):
            for x in v.values():
                collect(x)
        else:
            strings.append(v)

    collect(table)
    pieces = {p.strip() for s in strings for p in re.split(r"\{\w+\}|<[^>]+>|\n", s)}
    return sorted((p for p in pieces if p), key=len, reverse=True)


def _untranslated(texts: list[str], pieces: list[str], names: list[str]) -> list[str]:
    """Texts with a word left once the table's pieces and the data (names) are taken out."""
    bad = []
    for text in texts:
        rest = text
        for p in [*names, *pieces]:
            rest = rest.replace(p, " ")
        if re.search(r"[^\W\d_]{2,}", rest):
            bad.append(f"{text!r} (left: {rest.strip()!r})")
    return bad


@pytest.mark.parametrize(("lang", "locale"), [("en", "en-GB"), ("de", "de-DE"), ("th", "th-TH")])
def test_every_text_is_translated(server, browser, lang: str, locale: str) -> None:
    """The browser's language picks the page's; a whole game, the rules and a watched
    record show only texts from that language's table (and names, numbers, cards)."""
    url, srv = server
    pg = _page(browser, 1366, 900, locale)
    pg.goto(f"{url}/?delay=0&seed=5&round=1")
    pg.wait_for_selector(READY)
    assert pg.evaluate("document.documentElement.lang") == lang
    pieces = _text_pieces(pg, lang)
    names = [n for rec in srv.preloaded.values() for n in rec.names] + ["seeded.jsonl", ISS.name]
    texts: list[str] = []
    _play(pg, random.Random(5), lambda: texts.extend(pg.evaluate(VISIBLE_TEXT)))
    pg.click("#tab-rules")
    rules = pg.evaluate(VISIBLE_TEXT)
    assert len(" ".join(rules)) > 1500  # the rules panel is there
    texts += rules
    pg.click("#tab-watch")
    pg.click("#record-list button[data-id='p0']")
    pg.wait_for_selector("#w-counter:not(:empty)")
    for key in ("ArrowRight",) * 30:
        pg.keyboard.press(key)
    pg.wait_for_timeout(200)
    texts += pg.evaluate(VISIBLE_TEXT)
    pg.click("#w-last")
    pg.wait_for_selector("#end-panel:not(.hidden)")
    texts += pg.evaluate(VISIBLE_TEXT)
    claimed = next(rid for rid, r in srv.preloaded.items() if r.status == "claimed")
    pg.click(f"#record-list button[data-id='{claimed}']")
    pg.wait_for_selector("#w-counter:has-text(' 0 /')")
    pg.click("#w-last")
    pg.wait_for_selector("#end-panel .unfinished")
    texts += pg.evaluate(VISIBLE_TEXT)
    assert _untranslated(texts, pieces, names) == []
    if lang != "en":  # and not the English table by accident
        english = _text_pieces(pg, "en")
        assert _untranslated(["Trick", "passes", "declarer"], english, []) == []
        assert _untranslated(texts, pieces, names) == _untranslated(texts, pieces + english, names)
        assert _untranslated(["passes declarer"], pieces, names) != []
    pg.context.close()
    assert not pg.errors, pg.errors


def test_the_language_selector_is_remembered(server, page) -> None:
    url, _ = server
    page.goto(f"{url}/?delay=0")
    page.wait_for_selector(READY)
    page.select_option("#lang", "th")
    assert page.inner_text("#tab-play") == "เล่น"
    page.reload()
    page.wait_for_selector(READY)
    assert page.inner_text("#tab-rules") == "กติกา" and page.input_value("#lang") == "th"
    page.select_option("#deck", "french")
    page.select_option("#lang", "de")
    titles = page.locator("#seat-bottom .card").evaluate_all("cs => cs.map(c => c.title)")
    assert titles and all(t.startswith(("Kreuz", "Pik", "Herz", "Karo")) for t in titles)
    page.select_option("#deck", "german")
    titles = page.locator("#seat-bottom .card").evaluate_all("cs => cs.map(c => c.title)")
    assert all(t.startswith(("Eichel", "Grün", "Herz", "Schellen")) for t in titles)
    jacks = page.locator("#seat-bottom .card[data-card$='J'] .corner span")
    assert all(t == "U" for t in jacks.all_inner_texts())


def test_watch_a_record_step_by_step(server, page, tmp_path: Path) -> None:
    url, srv = server
    rec = srv.preloaded["p0"]
    game = rec.game
    steps = len(game.history)
    page.set_viewport_size({"width": 390, "height": 844})  # a phone: all hands still readable
    page.goto(f"{url}/?mode=watch")
    page.click("#record-list button[data-id='p0']")
    page.wait_for_selector("#w-counter:has-text('move 0 /')")
    assert page.locator("#seat-left .card:not(.back)").count() == 10  # all hands shown
    assert page.evaluate(HIDDEN_CARDS, ".seat .card:not(.back)") == []
    # the step that completes the first trick shows all three cards and who takes them
    third = steps - len(game.plays) + 3
    page.fill("#w-step", str(third))
    page.wait_for_selector(f"#w-counter:has-text('move {third} /')")
    assert page.locator("#trick .card").count() == 3
    assert page.locator("#trick .winner").count() == 1 and "takes the trick" in page.inner_text(
        "#centre-note"
    )
    page.click("#w-last")
    page.wait_for_selector("#end-panel:not(.hidden)")
    assert f"{game.result.score:+d}" in page.inner_text("#end-panel")
    assert page.inner_text("#w-counter") == f"move {steps} / {steps}"
    for sel in ("#w-prev", "#record-list button"):  # the sheet covers no control
        page.locator(sel).first.scroll_into_view_if_needed()
        box = page.locator(sel).first.bounding_box()
        hit = page.evaluate(
            "([x, y, s]) => document.querySelector(s).contains(document.elementFromPoint(x, y))",
            [box["x"] + 3, box["y"] + 3, sel],
        )
        assert hit, sel
    page.click("#w-prev")
    page.wait_for_selector(f"#w-counter:has-text('move {steps - 1} /')")
    assert page.locator("#end-panel.hidden").count() == 1
    page.click("#w-first")
    page.wait_for_selector("#w-counter:has-text('move 0 /')")
    page.select_option("#w-view", "1")  # player 1's view: the others' hands are hidden
    page.wait_for_selector("#seat-left .card.back")
    assert page.locator("#seat-bottom .card:not(.back)").count() == 10
    assert page.locator("#seat-left .card:not(.back), #seat-right .card:not(.back)").count() == 0
    # a claimed ISS game: the result as the file records it, marked as not played out
    claimed = next(rid for rid, r in srv.preloaded.items() if r.status == "claimed")
    crec = srv.preloaded[claimed]
    item = page.locator(f"#record-list button[data-id='{claimed}']")
    assert "claimed" in item.inner_text() and item.get_attribute("title") == item.inner_text()
    item.click()
    page.wait_for_selector("#w-counter:has-text('move 0 /')")
    page.click("#w-last")
    page.wait_for_selector("#end-panel .unfinished")
    shown = page.inner_text("#end-panel")
    assert "Not played to the end" in shown and f"{crec.score:+d}" in shown
    # an upload
    iss = tmp_path / "games.sgf"
    iss.write_text(ISS.read_text())
    page.set_input_files("#upload", str(iss))
    page.wait_for_selector("#upload-msg:has-text('record(s)')")
    assert page.locator("#record-list button").count() == 2 * len(srv.preloaded) - 1
    latin1 = tmp_path / "latin1.sgf"
    latin1.write_bytes("(;GM[Skat]P0[Jürgen])".encode("latin-1"))
    page.set_input_files("#upload", str(latin1))
    page.wait_for_selector("#upload-msg:has-text('not UTF-8')")


def test_thinking_indicator_and_pace(server, page, monkeypatch) -> None:
    """A slow agent: its seat says it is thinking, with the time; moves come at the pace."""
    url, _ = server
    real = web_app.decide

    def slow(agent, game, seat):
        time.sleep(0.5)
        return real(agent, game, seat)

    monkeypatch.setattr(web_app, "decide", slow)
    page.add_init_script(
        """window.logTimes = [];
        new MutationObserver(() => {
          const n = document.querySelectorAll('#log li:not(.trick-end)').length;
          if (!logTimes.length || logTimes[logTimes.length - 1][0] !== n)
            logTimes.push([n, performance.now()]);
        }).observe(document, {childList: true, subtree: true});"""
    )
    page.goto(f"{url}/?delay=300&seed=2&round=2")  # you are rearhand: two agents move first
    page.wait_for_selector("#thinking-badge:has-text('thinking')")
    assert "is thinking" in page.inner_text("#status")
    page.wait_for_selector("#actions button")
    times = page.evaluate("logTimes")
    counts = [n for n, _ in times if n]
    assert counts[:2] == [1, 2]  # one move at a time
    gap = times[[n for n, _ in times].index(2)][1] - times[[n for n, _ in times].index(1)][1]
    assert gap >= 480  # the second agent's thinking (and at least the pace)
    assert re.search(r"\(0\.\d s\)", page.inner_text("#log"))  # the agent's time in the log
    page.locator("#actions button").last.click()  # pass: the agents play on
    page.wait_for_selector("#thinking-badge")
    page.click("#tab-watch")  # they go on, but do not draw over the Watch tab
    page.wait_for_timeout(700)
    assert page.inner_text("#status").startswith("Choose a record")
    assert page.locator("#seat-bottom .card").count() == 0
    page.click("#tab-play")
    page.wait_for_selector(READY)


def test_every_key_is_in_every_language(server, page) -> None:
    """Each table has the same keys; every key the page's code and HTML name is in them."""
    url, _ = server
    page.goto(f"{url}/?mode=rules")
    page.wait_for_selector("#rules h3")
    keys = page.evaluate(
        "Object.fromEntries(Object.entries(I18N).map(([k, v]) => [k, Object.keys(v)]))"
    )
    assert set(keys) == {"en", "de", "th"}
    assert set(keys["de"]) == set(keys["en"]) == set(keys["th"])
    static = Path(web_app.STATIC)
    code = (static / "app.js").read_text()
    named = set(re.findall(r'\b(?:t|tpl)\("([\w. ]+)"', code))
    named |= set(
        re.findall(r'data-i18n(?:-title)?="([\w.]+)"', (static / "index.html").read_text())
    )
    named |= {f"{p}.{x}" for p, xs in (("lv", ["with", "without", "game", "hand", "schneider",
              "schneider announced", "schwarz", "schwarz announced", "ouvert", "null"]),
              ("status", ["resigned", "claimed", "timeout", "left", "hidden", "penalty",
              "running"]), ("log", ["hold", "pass", "pickup", "hand"]),
              ("game", ["grand", "null", "hand", "ouvert", "schneider", "schwarz"]),
              ("ann", ["schneider", "schwarz"])) for x in xs}  # fmt: skip
    named -= {"lv.null"}  # Null's fixed value has its own line (end.null)
    named |= {"forehand", "middlehand", "rearhand", "ann.ouvert"}
    assert named and named <= set(keys["en"]), named - set(keys["en"])
    for lang in ("de", "th"):
        for key in ("suits", "ranks", "rankWords"):
            table = page.evaluate(f"I18N[{lang!r}][{key!r}]")
            assert set(table) == {"french", "german"} and all(
                len(v) in (4, 8) for v in table.values()
            )


def test_a_reload_while_an_agent_moves_catches_up(server, page) -> None:
    """The page reloaded while an agent's move was on its way: the resumed page's own request
    for that move is refused (409, the game moved on without it), so it takes the game as it
    is and runs the agents on to the human's turn, in the same game (it used to stop there,
    busy, with nothing to click)."""
    url, srv = server
    answer = srv.new_game({"seat": 0, "dealer": 0, "seed": 5, "run_agents": False})
    game = srv.tables.get(answer["game_id"], "game").game
    assert game.to_act != 0  # dealer 0: the agents bid first
    page.goto(f"{url}/?delay=0")
    page.wait_for_selector(READY)
    page.evaluate(f"sessionStorage.setItem('skat-game', {answer['game_id']!r})")
    raced = []

    def first_request_loses(route) -> None:
        if not raced:  # the old page's request gets there first and moves the game
            raced.append(len(game.history))
            game.play(game.legal_moves()[0])
        route.continue_()

    page.route("**/agent", first_request_loses)
    page.reload()
    page.wait_for_selector(READY, timeout=15_000)
    assert raced and len(game.history) > raced[0] + 1
    assert page.evaluate("sessionStorage.getItem('skat-game')") == answer["game_id"]
    assert game.to_act == 0 or game.is_over
