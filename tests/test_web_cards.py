"""The deck the player chooses, drawn by the page (headless Chromium): German-suited faces
(suit pictures, pips, double-headed court cards, the Daus) with no image downloads; the
rules, declarations and score sheet naming the chosen deck's cards in every language; the
picture controls acting on the table and remembered; the Wikipedia link per language."""

from __future__ import annotations

import re

import pytest
from test_web_browser import VISIBLE_TEXT, _page, browser, page, server  # noqa: F401 (fixtures)
from test_web_screens import open_in

WIKI = {
    "en": "https://en.wikipedia.org/wiki/Skat_(card_game)",
    "de": "https://de.wikipedia.org/wiki/Skat",
    "th": "https://en.wikipedia.org/wiki/Skat_(card_game)",  # no Thai article
}


def _with_deck(pg, url: str, deck: str) -> None:
    pg.goto(f"{url}/?delay=0")
    pg.evaluate(f"localStorage.setItem('skat-deck', {deck!r})")


def _other_decks_words(pg, lang: str, deck: str) -> set[str]:
    """The card words of the deck not chosen that the chosen one does not share."""
    other = "french" if deck == "german" else "german"
    table = pg.evaluate(f"I18N[{lang!r}]")
    words = lambda d: {  # noqa: E731
        *table["suits"][d].values(),
        *table["rankWords"][d].values(),
        table["jacks"][d],
    }
    return words(other) - words(deck)


def test_german_faces_are_drawn(server, browser) -> None:  # noqa: F811
    url, srv = server
    pg = _page(browser, 1366, 900)
    images = []
    pg.on("request", lambda r: images.append(r.url) if r.resource_type == "image" else None)
    _with_deck(pg, url, "german")
    open_in(pg, url, srv, "discard")
    faces = pg.evaluate(
        """() => [...document.querySelectorAll('#seat-bottom .card')].map(c => [
          c.dataset.card, c.title, c.querySelectorAll('svg.face').length,
          c.querySelectorAll('svg.face .fig').length, c.querySelectorAll('svg.face > .pip').length,
          c.querySelector('svg.face') ? c.querySelector('svg.face').innerHTML : ''])"""
    )
    assert len(faces) == 12
    for card, title, face, figures, pips, _ in faces:
        assert face == 1, card
        rank = card[1]
        assert figures == (2 if rank in "KQJ" else 0), card  # court cards: double-headed
        assert pips == {"7": 7, "8": 8, "9": 9, "T": 10, "A": 1}.get(rank, 0), card
        word = {"A": "Deuce", "K": "King", "Q": "Ober", "J": "Unter"}.get(rank)
        assert word is None or title.startswith(word), title
        suit = {"C": "Acorns", "S": "Leaves", "H": "Hearts", "D": "Bells"}[card[0]]
        assert title.endswith(suit), title
    markup = {card[0]: svg for card, *_, svg in faces if card[1] in "789T"}
    assert len(set(markup.values())) == len(markup)  # each suit its own picture
    assert images == []
    pg.context.close()
    assert not pg.errors, pg.errors


@pytest.mark.parametrize("lang", ["en", "de", "th"])
@pytest.mark.parametrize("deck", ["german", "french"])
def test_the_texts_follow_the_deck(server, browser, lang: str, deck: str) -> None:  # noqa: F811
    """The rules, the declarations and a score sheet never name the other deck's cards."""
    url, srv = server
    pg = _page(browser, 1366, 900)
    _with_deck(pg, url, deck)
    open_in(pg, url, srv, "declare", lang)
    foreign = _other_decks_words(pg, lang, deck)
    texts = pg.evaluate(VISIBLE_TEXT) + pg.locator(".declare-grid button").evaluate_all(
        "bs => bs.map(b => b.title)"
    )
    open_in(pg, url, srv, "done", lang)
    texts += pg.evaluate(VISIBLE_TEXT)
    pg.click("#tab-rules")
    rules = pg.inner_text("#rules")
    texts.append(rules)
    shown = " ".join(texts)
    edge = "" if lang == "th" else r"(?<!\w)"  # Thai writes no spaces between words
    assert [w for w in foreign if re.search(edge + re.escape(w), shown)] == []
    table = pg.evaluate(f"I18N[{lang!r}]")
    for word in [
        *table["suits"][deck].values(),
        table["jacks"][deck],
        table["rankWords"][deck]["Q"],
    ]:
        assert word in rules, word
    assert not re.search("[♣♠♥♦]", rules)  # the jacks' order in the deck's own pictures
    pg.context.close()
    assert not pg.errors, pg.errors


NEUTRAL = ["contrast(1)", "0", "rgba(255, 138, 0, 0)"]  # no tint: alpha 0


def test_picture_controls_act_and_are_remembered(server, page) -> None:  # noqa: F811
    url, _ = server
    page.goto(f"{url}/?delay=0")
    page.wait_for_selector("#seat-bottom .card")
    look = """(() => {
      const t = document.querySelector('#table');
      return [getComputedStyle(t).filter, getComputedStyle(t, '::before').opacity,
              getComputedStyle(t, '::after').backgroundColor];
    })()"""
    assert page.evaluate(look) == NEUTRAL
    page.click("#look summary")
    page.fill("#look-contrast", "150")
    page.fill("#look-grain", "40")
    page.fill("#look-warmth", "100")
    filt, grain, tint = page.evaluate(look)
    assert filt == "contrast(1.5)" and grain == "0.4" and tint.startswith("rgba(255, 138, 0")
    page.reload()
    page.wait_for_selector("#seat-bottom .card")
    assert page.evaluate(look) == [filt, grain, tint]
    page.click("#look summary")
    page.fill("#look-warmth", "-100")
    assert page.evaluate(look)[2].startswith("rgba(0, 110, 255")
    page.click("#look-reset")
    assert page.evaluate(look) == NEUTRAL


@pytest.mark.parametrize("lang", ["en", "de", "th"])
def test_wikipedia_link_in_the_language(server, page, lang: str) -> None:  # noqa: F811
    url, _ = server
    page.goto(f"{url}/?delay=0&lang={lang}")
    page.wait_for_selector("#seat-bottom .card")
    link = page.locator("#wiki")
    assert link.is_visible() and link.get_attribute("href") == WIKI[lang]
    assert link.inner_text() == page.evaluate(f"I18N[{lang!r}]['wiki.label']")
