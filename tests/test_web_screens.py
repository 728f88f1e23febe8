"""Every control of the page reachable in every phase, on phones and desktops (headless
Chromium): each one inside the screen once scrolled to and not covered or clipped; every
declaration at 360 and 390 px in each language; where the page scrolls after "Next game"
and after declaring; the skat markers; a visible keyboard focus.

The game is put in each phase on the server (moves through the engine) and the page
resumes it, so each check costs one page load, not a game of clicks."""

from __future__ import annotations

import pytest
from test_web_browser import _page, browser, server  # noqa: F401 (fixtures)

from skat_env.core.game import PHASE_NAMES, Game

VIEWPORTS = [(360, 740), (390, 844), (768, 1024), (1024, 768), (1366, 900), (1920, 1080)]
PHONES = VIEWPORTS[:2]
PHASES = ("bidding", "skat", "discard", "declare", "play", "done")
READY = "#actions button:not([disabled]), #seat-bottom .card.playable, #end-panel:not(.hidden)"

# Each visible control, scrolled to: its box inside the screen's width, its text not cut,
# and the point a player would touch (a card's left edge: the cards overlap) not covered.
UNREACHABLE = """(root) => {
  const bad = [];
  const sel = "button, select, a[href], input:not([type=file]), [tabindex]:not([tabindex='-1'])";
  for (const e of document.querySelector(root || "body").querySelectorAll(sel)) {
    if (!e.checkVisibility()) continue;
    e.scrollIntoView({block: "center", inline: "nearest"});
    const r = e.getBoundingClientRect();
    const left = r.left + scrollX;  // code may scroll sideways where people cannot
    scrollTo(0, scrollY);
    const name = (e.id || e.dataset.move || e.dataset.card || e.textContent).trim().slice(0, 40);
    if (left < -0.5 || left + r.width > innerWidth + 0.5) {
      bad.push(name + " off screen");
      continue;
    }
    if (e.tagName === "BUTTON" && e.scrollWidth > e.clientWidth + 1) bad.push(name + " text cut");
    const card = e.classList.contains("card");
    const x = card ? left + 4 : left + r.width / 2;
    const y = card ? r.top + r.height / 3 : (r.top + r.bottom) / 2;
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(e.contains(hit) || hit.closest("label") === e.closest("label")))
      bad.push(name + " covered by " + (hit ? hit.className || hit.tagName : "nothing"));
  }
  return bad;
}"""


def drive(game: Game, human: int, phase: str, hand: bool = False) -> None:
    """Play ``game`` on to ``phase``: the agents pass, the human bids, picks up (or plays
    hand) and plays the first legal move."""
    while PHASE_NAMES[game.phase] != phase:
        moves = game.legal_moves()
        if game.to_act != human and "pass" in moves:
            game.play("pass")
            continue
        wanted = ("hand" if hand else "pickup", "hold", "18")
        game.play(next((m for m in wanted if m in moves), moves[0]))


def open_in(pg, url: str, srv, phase: str, lang: str = "en", hand: bool = False) -> str:
    """Load the page on a game in ``phase`` with the human (middlehand) to act."""
    answer = srv.new_game({"seat": 0, "dealer": 1, "seed": 7, "run_agents": False})
    table = srv.tables.get(answer["game_id"], "game")
    drive(table.game, 0, phase, hand)
    pg.goto(f"{url}/?delay=0&lang={lang}")
    pg.wait_for_selector(READY)
    pg.evaluate(f"sessionStorage.setItem('skat-game', {answer['game_id']!r})")
    pg.reload()
    pg.wait_for_selector(READY)
    return answer["game_id"]


@pytest.mark.parametrize(("width", "height"), VIEWPORTS, ids=[f"{w}x{h}" for w, h in VIEWPORTS])
def test_every_control_reachable_in_every_phase(server, browser, width: int, height: int) -> None:  # noqa: F811
    url, srv = server
    pg = _page(browser, width, height)
    for phase in PHASES:
        open_in(pg, url, srv, phase, hand=phase == "declare")
        assert pg.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0, phase
        assert pg.evaluate(UNREACHABLE) == [], phase
    pg.click("#look summary")  # the picture controls, open over the page
    assert pg.evaluate(UNREACHABLE, "#look") == []
    assert pg.evaluate("document.documentElement.scrollWidth - innerWidth") <= 0
    pg.context.close()
    assert not pg.errors, pg.errors


@pytest.mark.parametrize("lang", ["en", "de", "th"])
@pytest.mark.parametrize(("width", "height"), PHONES, ids=[f"{w}x{h}" for w, h in PHONES])
def test_every_declaration_on_a_phone(server, browser, lang: str, width: int, height: int) -> None:  # noqa: F811
    """A hand game offers every announcement (the widest grid); each button is reachable,
    and after declaring the table's centre (the trick) is in view."""
    url, srv = server
    pg = _page(browser, width, height)
    open_in(pg, url, srv, "declare", lang, hand=True)
    buttons = pg.locator(".declare-grid button")
    assert buttons.count() == 22  # 4 suits and grand x (plain, Schneider, Schwarz, Ouvert); 2 null
    assert pg.evaluate(UNREACHABLE) == []
    buttons.last.click()
    pg.wait_for_selector("#seat-bottom .card.playable, #end-panel:not(.hidden)")
    top = pg.evaluate("document.querySelector('.centre').getBoundingClientRect().top")
    assert 0 <= top < height
    pg.context.close()
    assert not pg.errors, pg.errors


def test_next_game_shows_the_table(server, browser) -> None:  # noqa: F811
    url, srv = server
    pg = _page(browser, 390, 844)
    open_in(pg, url, srv, "done")
    pg.locator("#next-game").scroll_into_view_if_needed()
    assert pg.evaluate("scrollY") > 0
    pg.locator("#next-game").click()
    pg.wait_for_selector("#end-panel.hidden", state="attached")
    pg.wait_for_selector(READY)
    for sel in ("#seat-left", "#seat-right", ".centre"):
        top = pg.evaluate(f"document.querySelector({sel!r}).getBoundingClientRect().top")
        assert 0 <= top < 844, sel
    pg.context.close()


def test_skat_markers_visible_and_focus_shown(server, browser) -> None:  # noqa: F811
    url, srv = server
    pg = _page(browser, 360, 740)
    open_in(pg, url, srv, "discard")
    marks = pg.locator("#seat-bottom .from-skat .skat-mark")
    assert marks.count() == 2
    for i in range(2):
        marks.nth(i).scroll_into_view_if_needed()
        box = marks.nth(i).bounding_box()
        hit = pg.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('.skat-mark') !== null",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit, f"skat marker {i} is covered"
    pg.locator("#seat-bottom .card.playable").first.focus()
    pg.keyboard.press("Tab")  # keyboard focus: the next card
    style = pg.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
    )
    assert style[0] == "solid" and style[1] >= 3
    pg.context.close()
