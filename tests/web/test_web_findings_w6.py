"""The page findings of the sixth fresh-user pass (issue #11), each checked in the real browser (Debian's Chromium
driven by Playwright) against the real server:

* keys act on an open dialog only: under the show summary (open over the next deal's hand) the number keys choose
  no hand card, Tab goes round the dialog's own controls, Enter presses its own button (Continue) and lays nothing
  away, Escape closes it; the lobby's Enter on the Cribbage tab leaves the focus on the tab;
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_findings_w5 import _play_cribbage_until_show_summary
from test_web_playwright import (  # the fixtures and helpers of the end-to-end tests
    CHROMIUM,
    PageErrors,
    _context,
    browser,
    create_game,
    root_data,
    server,
)

__all__ = ["browser", "server"]  # fixtures used by name

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.slow,
]

_FOCUS_IN_SHOW = "() => !!document.activeElement?.closest('#show-panel')"


def _quick(browser: Any, **kw: Any) -> Any:
    ctx = _context(browser, **kw)
    ctx.add_init_script("localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));")
    return ctx


def test_keys_act_on_the_open_show_only(server: str, browser: Any) -> None:
    ctx = _quick(browser, width=1280, height=800)
    page = ctx.new_page()
    errors = PageErrors(page)
    # the lobby: Enter on the Cribbage tab chooses it and the focus stays on the tab
    page.goto(server + "/")
    page.focus("#tab-cribbage")
    page.keyboard.press("Enter")
    page.wait_for_selector("#opt-cribbage-muggins")
    assert page.evaluate("document.activeElement?.id") == "tab-cribbage"
    create_game(page, server, "cribbage")
    _play_cribbage_until_show_summary(page)
    data = root_data(page, ".cribbage")
    assert data["phase"] == "discard" and data["mine"] == "1", data  # the summary is open over the next deal's hand
    assert page.evaluate(_FOCUS_IN_SHOW), "the open show does not have the focus"
    hand = page.locator(".hand-card").count()
    for n in range(1, hand + 1):  # a Cribbage hand of six: the number keys 1-6
        page.keyboard.press(str(n))
    assert page.locator(".hand-card.chosen").count() == 0, "the number keys chose cards behind the dialog"
    for _ in range(2 * page.locator("#show-panel button").count() + 1):
        page.keyboard.press("Tab")
        assert page.evaluate(_FOCUS_IN_SHOW), "Tab left the open dialog"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_FOCUS_IN_SHOW), "Shift+Tab left the open dialog"
    page.focus("#show-close")
    page.keyboard.press("Enter")  # the dialog's own button: Continue
    page.wait_for_selector("#show-panel", state="detached")
    page.wait_for_timeout(300)
    after = root_data(page, ".cribbage")
    assert after["version"] == data["version"] and after["phase"] == "discard", "Enter under the dialog made a move"
    # opened again: Escape closes it; then the number keys choose cards again
    page.click("#reopen-show")
    page.wait_for_selector("#show-panel")
    page.keyboard.press("1")
    assert page.locator(".hand-card.chosen").count() == 0
    page.keyboard.press("Escape")
    page.wait_for_selector("#show-panel", state="detached")
    page.keyboard.press("1")
    assert page.locator(".hand-card.chosen").count() == 1
    errors.check()
    ctx.close()
