"""The Cribbage findings of the w6 re-check (issue #11), each checked in the real browser (Debian's Chromium driven
by Playwright) against the real server:

* the show on one screen: at every show decision (announce, respond to the computer's count) at 1280x800, 1366x768
  and 390x844 the hand being counted, the starter, the count just settled, the count controls, the opponents and
  the scores are in the viewport, nothing in the table is cut by its scrolling box (the table does not scroll)
  and no card is covered by another box (the point at each card's corner is the card);
* the count just settled stands beside the hand counted next, never over it; once the next deal is dealt the last
  deal's show (its summary dialog) leaves the new hand uncovered;
* the shown hands are readable: every card's corner (rank and suit, the left quarter of the card) in sight under
  the next card, no fan overlapping another fan;
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_web_playwright import (  # the fixtures and helpers of the end-to-end tests
    CHROMIUM,
    PageErrors,
    _context,
    browser,
    create_game,
    root_data,
    server,
    shot,
)
from web_layout import VIEWPORTS, at_rest, fits_one_screen

__all__ = ["browser", "server"]  # fixtures used by name

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.slow,
]


def _quick(browser: Any, **kw: Any) -> Any:
    ctx = _context(browser, **kw)
    ctx.add_init_script("localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));")
    return ctx


#: What is wrong with the table in the show: the table scrolls (something in it cut), a card of a shown hand (the
#: hand counted, the count just settled, the seats' played cards, the starter) covered at its corner by something
#: else or its corner hidden under the next card, two of the table's parts (the starter and crib, the hand
#: counted, the settled count) overlapping.
_SHOW_TABLE = """
() => {
  const out = [];
  const c = document.querySelector('.cribbage .center');
  if (c.scrollHeight > c.clientHeight + 1) out.push(`the table scrolls: ${c.scrollHeight} > ${c.clientHeight}`);
  if (c.scrollWidth > c.clientWidth + 1) out.push(`the table scrolls sideways: ${c.scrollWidth} > ${c.clientWidth}`);
  const seen = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const fans = [...document.querySelectorAll('.cribbage .center .fan, .cribbage .played-row, .cribbage .deck .starter')].filter(seen);
  for (const fan of fans) {
    const imgs = [...fan.querySelectorAll('img.card')].filter(seen);
    imgs.forEach((img, i) => {
      const r = img.getBoundingClientRect();
      const name = `${img.dataset.card || img.alt} in ${fan.className || fan.parentElement.className}`;
      if (r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight) { out.push(`${name} outside the viewport`); return; }
      const hit = document.elementFromPoint(r.left + 0.12 * r.width, r.top + 0.1 * r.height);
      if (hit !== img) out.push(`${name}: its corner covered by ${hit?.tagName}.${hit?.className}`);
      const next = imgs[i + 1]?.getBoundingClientRect();
      if (next && next.left - r.left < 0.25 * r.width) out.push(`${name}: ${Math.round(next.left - r.left)} px of ${Math.round(r.width)} in sight`);
    });
  }
  const parts = ['.center > .deck', '.muggins > .counting', '.muggins > .settled'].flatMap((s) => [...document.querySelectorAll('.cribbage ' + s)]).filter(seen);
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const a = parts[i].getBoundingClientRect(), b = parts[j].getBoundingClientRect();
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${parts[i].className} overlaps ${parts[j].className}`);
  }
  return out;
}
"""

#: The show's parts a player decides on: the hand counted with its starter, the count just settled.
_SHOW_PARTS = [".muggins > .counting img.card", ".cribbage .deck .starter img.card"]


def _check_show(page: Any, label: str) -> list[str]:
    """Every size: one screen (with the show's parts) and the table at rest as :data:`_SHOW_TABLE` wants it."""
    found = []
    before = page.viewport_size
    extra = list(_SHOW_PARTS)
    if page.locator(".muggins > .settled").count():
        extra.append(".muggins > .settled:not(.settled + .settled)")
    fits_one_screen(page, extra)
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        page.wait_for_timeout(50)
        problems = page.evaluate(_SHOW_TABLE)
        if problems:
            found.append(f"{label} at {w}x{h}: {problems}")
            shot(page, f"w7-cribbage-show-problem-{w}x{h}", full=False)
    page.set_viewport_size(before)
    return found


def _hand_uncovered_by_summary(page: Any) -> list[str]:
    """The last deal's show (the summary dialog) over the next deal: the dialog and the dimming leave the hand."""
    return page.evaluate(
        """() => {
      const out = [];
      const panel = document.querySelector('#show-panel').getBoundingClientRect();
      for (const card of document.querySelectorAll('.me .hand-card img.card')) {
        const r = card.getBoundingClientRect();
        if (r.top < panel.bottom && panel.top < r.bottom && r.left < panel.right && panel.left < r.right) out.push(`${card.dataset.card} under the dialog`);
      }
      const hand = document.querySelector('.me .hand').getBoundingClientRect();
      const back = document.querySelector('.modal-back');
      const probe = document.elementFromPoint(hand.left + hand.width / 2, hand.top + hand.height / 2);
      if (probe !== back) out.push('the backdrop does not keep the clicks off the hand');
      return out;
    }"""
    )


def test_show_on_one_screen_and_readable(server: str, browser: Any) -> None:
    ctx = _quick(browser, width=1280, height=800)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True, "target": 61})
    problems: list[str] = []
    shows = summaries = 0
    for _ in range(300):
        page.wait_for_function(
            "() => document.querySelector('#game-over') || document.querySelector('#show-panel') "
            "|| document.querySelector('.cribbage')?.dataset.mine === '1'"
        )
        if page.locator("#game-over").count() or (shows >= 6 and summaries >= 1):
            break
        if page.locator("#show-panel").count():
            summaries += 1
            data = root_data(page, ".cribbage")
            if data["phase"] in ("discard", "play") and page.locator(".me .hand-card").count():
                for w, h in VIEWPORTS:
                    page.set_viewport_size({"width": w, "height": h})
                    at_rest(page)
                    page.wait_for_timeout(300)  # the dialog places itself once laid out
                    found = _hand_uncovered_by_summary(page)
                    if found:
                        problems.append(f"summary at {w}x{h}: {found}")
                page.set_viewport_size({"width": 1280, "height": 800})
                shot(page, "w7-cribbage-summary-over-next-hand", full=False)
            page.click("#show-close")
            continue
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        if data["phase"] == "discard":
            hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
            page.click(f".hand-card[data-code='{hand[0]}']")
            page.click(f".hand-card[data-code='{hand[1]}']")
            page.click("#discard")
        elif data["phase"] == "play":
            page.click("#go" if "go" in legal else f".hand-card[data-code='{legal[0]}']")
        else:
            shows += 1
            problems += _check_show(page, f"show decision {shows} ({legal[0]})")
            if shows == 3:
                shot(page, "w7-cribbage-show-1366x768", full=False)
            if any(m.startswith("count") for m in legal):
                page.fill("#count-input", "4")
                page.press("#count-input", "Enter")
            else:
                page.click("#accept")
        page.wait_for_function(
            "v => document.querySelector('#game-over') || document.querySelector('#show-panel') "
            "|| document.querySelector('.cribbage')?.dataset.version !== v",
            arg=data["version"],
        )
    assert shows >= 4 and summaries >= 1, (shows, summaries)
    assert not problems, "\n".join(problems)
    errors.check()
    ctx.close()
