"""Every word in the player's language (headless Chromium): the server's refusals shown
from their codes, the opponents named as players would say it, and the first-game guide
that a player can dismiss."""

from __future__ import annotations

import pytest
from test_web_browser import _page, browser, server  # noqa: F401 (fixtures)
from test_web_screens import open_in

from skat_env.web.limits import ERROR_CODES

LANGS = [("en", "en-GB"), ("de", "de-DE"), ("th", "th-TH")]


def _t(pg, key: str, params: dict | None = None) -> str:
    return pg.evaluate("([k, p]) => t(k, p)", [key, params or {}])


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_a_refusal_is_shown_in_the_language(server, browser, lang: str, locale: str) -> None:  # noqa: F811
    """The game moved on behind the page's back (another tab): the server refuses the
    page's move as stale, and the page says so in its language, not the server's English."""
    url, srv = server
    pg = _page(browser, 1024, 768, locale)
    gid = open_in(pg, url, srv, "bidding", lang)
    srv.human_move(gid, {"move": "pass", "run_agents": False})
    pg.locator("#actions button").last.click()
    pg.wait_for_selector("#status.error")
    shown = pg.inner_text("#status")
    assert shown == _t(pg, "st.server", {"msg": _t(pg, "err.stale")})
    assert "stale" not in shown or lang == "en"
    every = pg.evaluate("Object.keys(I18N).map(l => [l, Object.keys(I18N[l])])")
    for name, keys in every:  # every code the server can send has its words
        assert {f"err.{c}" for c in ERROR_CODES} <= set(keys), name
    pg.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_opponents_named_in_the_language(server, browser, lang: str, locale: str) -> None:  # noqa: F811
    url, _ = server
    pg = _page(browser, 1366, 900, locale)
    pg.goto(f"{url}/?delay=0")
    pg.wait_for_selector("#seat-left .seat-name")
    kind = _t(pg, "kind.random")
    assert pg.inner_text("#seat-left .seat-name") in {
        _t(pg, "agent.twin", {"kind": kind, "x": x}) for x in "AB"
    }
    options = pg.locator("#opp-1 option").evaluate_all("os => os.map(o => [o.value, o.text])")
    assert {v for v, _ in options} >= {"random", "heuristic"}
    for spec, text in options:
        assert text == _t(pg, "agent.name", {"kind": _t(pg, f"kind.{spec}")}), spec
        assert spec not in text or lang == "en"
    pg.context.close()


@pytest.mark.parametrize(("lang", "locale"), LANGS)
def test_the_first_game_guide(server, browser, lang: str, locale: str) -> None:  # noqa: F811
    url, _ = server
    pg = _page(browser, 390, 844, locale)
    pg.goto(f"{url}/?delay=0")
    pg.wait_for_selector("#guide:not(.hidden)")
    text = pg.inner_text("#guide")
    for key in ("guide.title", "guide.auction", "guide.press", "guide.play", "guide.close"):
        assert _t(pg, key) in text, key
    assert pg.evaluate("document.querySelector('#guide').getBoundingClientRect().top") < 844
    pg.click("#guide-close")
    assert pg.locator("#guide.hidden").count() == 1
    pg.reload()
    pg.wait_for_selector("#seat-bottom .card")
    assert pg.locator("#guide.hidden").count() == 1
    pg.click("#help")
    assert pg.locator("#guide:not(.hidden)").count() == 1
    pg.context.close()
    assert not pg.errors, pg.errors
