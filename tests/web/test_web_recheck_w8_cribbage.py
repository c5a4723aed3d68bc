"""The Cribbage, game-over and lobby findings of the w7 re-check (issue #11), each checked in the real browser
(Debian's Chromium driven by Playwright) against the real server, or in the page's words under Node:

* keyboard focus (finding 7): folding the game-over panel keeps the focus on its fold button, opening it again puts
  it on Rematch; the keys list closed with Esc gives the focus back to the ``?`` button that opened it (never the
  page's body);
* the folded game-over bar (finding 6) stands under the table, covering neither the viewer's hand nor the log;
* who is to play (finding 11): only the seat whose turn it is has the gold "active" border; the seat that moved last
  is marked otherwise;
* a partnership's game over (finding 13) names the teams by their players as the board does ("Du & Dator 3 82"),
  in the page's words and the Python catalogue alike; "skunk" is the project's Swedish word (the options, the
  terminal's rules) and stays;
* the show summary's "More below" (finding 9) stands in a strip under the list of counts, never over its last line;
* the lobby's note on the levels that miscount under Muggins (finding 10) stands by the level choice, with Muggins
  on only.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from drivers import (
    CHROMIUM,
    PageErrors,
    browser,
    create_game,
    lay_away_first_two,
    new_context,
    play_cribbage_to_the_show_summary,
    play_first_card,
    root_data,
    server,
    shot,
)
from test_words import _say
from web_layout import VIEWPORTS, at_rest

from kortbord.i18n import event_text

__all__ = ["browser", "server"]  # fixtures used by name

_browser = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"
)


def _quick(browser: Any, **kw: Any) -> Any:
    ctx = new_context(browser, **kw)
    ctx.add_init_script("localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));")
    return ctx


#: A four-hand game over: seats 1 and 3 (the second team) reach 121, the first team is left on 82 (a skunk: 90 or
#: less, spec §2.7).
_OVER4 = {
    "kind": "game_over",
    "winners": [1, 3],
    "side": 1,
    "scores": [50, 70, 32, 51],
    "side_scores": [82, 121],
    "partnership": True,
    "skunk": True,
    "double_skunk": False,
    "lowball": False,
}
_NAMES4 = ["Du", "Dator 2", "Dator 3", "Dator 4"]


def test_partnership_game_over_names_the_teams_as_the_board_does() -> None:
    line = {"game": "cribbage", "what": "event", "data": _OVER4, "lang": "sv", "names": _NAMES4, "me": 0}
    [said] = _say([json.dumps(line)])
    # the teams as the board and the final score name them: the partners' names joined by " & "
    assert said.endswith("(Du & Dator 3 82, Dator 2 & Dator 4 121)"), said
    assert "+" not in said, said
    assert " och skunk " in said, said  # the Swedish word of the options ("Skunk") and the terminal ("skunkad")
    # the Python catalogue (the terminal) says the same
    assert event_text(_OVER4, "sv", _NAMES4, game="cribbage") == said


@_browser
@pytest.mark.slow
def test_lobby_miscount_note_by_the_levels_with_muggins_on(server: str, browser: Any) -> None:
    ctx = _quick(browser, width=1280, height=800)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + "/")
    page.click("#tab-cribbage")
    page.wait_for_selector("#opt-cribbage-muggins")
    page.set_checked("#opt-cribbage-muggins", False)
    page.wait_for_timeout(300)  # the levels' answer has come (the note would be filled by now)
    assert not page.locator("#miscounts").is_visible(), "the Muggins note shows with Muggins off"
    page.set_checked("#opt-cribbage-muggins", True)
    note = page.locator("#miscounts")
    note.wait_for(state="visible")
    # by the level choice (in the opponents' box), not among the statistics
    assert page.locator("fieldset.opponents #miscounts").count() == 1
    assert page.locator("#stats #miscounts").count() == 0
    assert "Muggins" in note.inner_text()
    page.set_checked("#opt-cribbage-muggins", False)
    assert not page.locator("#miscounts").is_visible()
    errors.check()
    ctx.close()


def _play_to_game_over(page: Any) -> None:
    """Our seat by clicking (the first two cards away, go or the first legal card) until the game-over panel."""
    for _ in range(600):
        page.wait_for_function(
            "() => document.querySelector('#game-over') || document.querySelector('#show-panel') "
            "|| document.querySelector('.cribbage')?.dataset.mine === '1'"
        )
        if page.locator("#show-panel").count():
            page.click("#show-close")
            continue
        if page.locator("#game-over").count():
            break
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        if data["phase"] == "discard":
            lay_away_first_two(page)
        else:
            play_first_card(page, legal)
        page.wait_for_function(
            "v => document.querySelector('#game-over') || document.querySelector('#show-panel') "
            "|| document.querySelector('.cribbage')?.dataset.version !== v",
            arg=data["version"],
        )
    if page.locator("#show-panel").count():
        page.click("#show-close")
    page.wait_for_selector("#game-over", state="visible")
    at_rest(page)


#: What the folded game-over bar covers: a card of the viewer's hand, the log's box (its bottom).
_BAR_COVERS = """
() => {
  const bar = document.querySelector('#game-over').getBoundingClientRect();
  const hit = (r) => r.width > 0 && r.left < bar.right && bar.left < r.right && r.top < bar.bottom && bar.top < r.bottom;
  const out = [...document.querySelectorAll('.me .hand-card img.card')].filter((c) => hit(c.getBoundingClientRect())).map((c) => c.dataset.card);
  const log = document.querySelector('.log');
  if (log && log.getClientRects().length && hit(log.getBoundingClientRect())) out.push('the log');
  const me = document.querySelector('.me');
  if (me && hit(me.getBoundingClientRect())) out.push('the hand box');
  if (bar.bottom > innerHeight + 1) out.push(`the bar cut at the bottom: ${bar.bottom} > ${innerHeight}`);
  return out;
}
"""


def _focus(page: Any) -> str:
    return str(
        page.evaluate(
            "document.activeElement === document.body ? 'BODY' : (document.activeElement?.id || document.activeElement?.outerHTML)"
        )
    )


@_browser
@pytest.mark.slow
def test_game_over_fold_keeps_the_focus_and_the_bar_covers_nothing(server: str, browser: Any) -> None:
    ctx = _quick(browser, width=1280, height=800)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"target": 61})
    _play_to_game_over(page)
    page.wait_for_timeout(300)
    assert _focus(page) == "rematch"
    # fold by the keyboard: the fold button keeps the focus (not the body); Enter again opens it on Rematch
    page.keyboard.press("Shift+Tab")
    assert _focus(page) == "over-toggle"
    page.keyboard.press("Enter")
    page.wait_for_selector("#game-over.hidden")
    assert _focus(page) == "over-toggle"
    assert page.get_attribute("#over-toggle", "aria-expanded") == "false"
    # folded: the bar covers neither the hand nor the log, at every size
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        page.wait_for_timeout(200)
        covered = page.evaluate(_BAR_COVERS)
        shot(page, f"w8-cribbage-over-folded-{w}x{h}", full=False)
        assert not covered, f"at {w}x{h} the folded bar covers {covered}"
    page.set_viewport_size({"width": 1280, "height": 800})
    at_rest(page)
    page.focus("#over-toggle")
    page.keyboard.press("Enter")
    page.wait_for_selector("#game-over:not(.hidden)")
    assert _focus(page) == "rematch"
    # the keys list: opened by its ? button and closed with Esc, the focus goes back to the ? button
    page.click("#over-toggle")  # fold: the ? button is free to press
    page.click("#keys-btn")
    page.wait_for_selector("#keys-overlay")
    assert _focus(page) == "keys-close"
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-overlay", state="detached")
    assert _focus(page) == "keys-btn"
    # and by its key: back to what had the focus (the fold button)
    page.focus("#over-toggle")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-overlay")
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-overlay", state="detached")
    assert _focus(page) == "over-toggle"
    errors.check()
    ctx.close()


#: The seats drawn with the gold "active" border (the turn's), by data-seat ("me" for the viewer's own box).
_GOLD = """
() => [...document.querySelectorAll('.cribbage .seatbox')].filter((el) => {
  const s = getComputedStyle(el);
  const gold = (c) => c.replace(/\\s/g, '').startsWith('rgb(245,197,66') || c.replace(/\\s/g, '').startsWith('rgba(245,197,66');
  return gold(s.borderTopColor) || gold(s.outlineColor) && s.outlineStyle !== 'none' || /245,\\s*197,\\s*66/.test(s.boxShadow);
}).map((el) => el.classList.contains('me') ? 'me' : el.dataset.seat)
"""


@_browser
@pytest.mark.slow
def test_only_the_seat_to_play_is_marked_active(server: str, browser: Any) -> None:
    ctx = _quick(browser, width=1280, height=800)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"target": 61})
    seen = 0
    for _ in range(12):
        page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
        if page.locator("#show-panel").count():
            page.click("#show-close")
        at_rest(page)
        data = root_data(page, ".cribbage")
        if data["phase"] not in ("discard", "play"):
            break
        # our turn: only our box is gold; the computer (which laid away or played last) is not
        assert page.evaluate(_GOLD) == ["me"], (data["phase"], page.evaluate(_GOLD))
        seen += 1
        legal = json.loads(data["legal"])
        if data["phase"] == "discard":
            lay_away_first_two(page)
        else:
            play_first_card(page, legal)
        page.wait_for_function(
            "v => document.querySelector('#show-panel') || document.querySelector('.cribbage')?.dataset.version !== v",
            arg=data["version"],
        )
    assert seen >= 3, seen
    shot(page, "w8-cribbage-only-the-turn-gold", full=False)
    errors.check()
    ctx.close()


#: Where the "More below" words stand in the show summary: the list's box, the strip under it, and what is at the
#: words' middle (the list's content under them would be covered).
_MORE_BELOW = """
() => {
  const wrap = document.querySelector('#show-scroll-wrap'), list = document.querySelector('#show-scroll');
  const w = wrap.getBoundingClientRect(), l = list.getBoundingClientRect();
  const after = getComputedStyle(wrap, '::after');
  const probe = document.elementFromPoint(w.left + w.width / 2, w.bottom - 8);
  return { more: wrap.classList.contains('more'), shown: after.content !== 'none' && after.visibility !== 'hidden',
           strip: Math.round(w.bottom - l.bottom), onList: list.contains(probe) };
}
"""


@_browser
@pytest.mark.slow
def test_more_below_stands_under_the_counts_not_over_them(server: str, browser: Any) -> None:
    ctx = _quick(browser, width=1366, height=768, lang="sv")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", players=4)
    play_cribbage_to_the_show_summary(page)  # four hands and a crib: a list longer than the dialog
    page.wait_for_function("() => document.querySelector('#show-scroll-wrap')?.classList.contains('more')")
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        found = page.evaluate(_MORE_BELOW)
        if not found["more"]:
            continue  # the list fits at this size: no words
        # the words in a strip of their own under the list (about a line high), never over its lines
        assert found["shown"] and found["strip"] >= 14 and not found["onList"], (w, h, found)
    page.set_viewport_size({"width": 1366, "height": 768})
    shot(page, "w8-cribbage-more-below-1366x768", full=False)
    # scrolled to its end the words go, the strip stays (the list's box does not jump)
    before = page.evaluate(_MORE_BELOW)["strip"]
    page.eval_on_selector("#show-scroll", "el => { el.scrollTop = el.scrollHeight; }")
    page.wait_for_function("() => !document.querySelector('#show-scroll-wrap').classList.contains('more')")
    after = page.evaluate(_MORE_BELOW)
    assert not after["shown"] and after["strip"] == before, (before, after)
    errors.check()
    ctx.close()
