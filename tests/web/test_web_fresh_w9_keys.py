"""The keyboard and name findings of the w9 new user's report (/work/notes/w9/fresh/report.md), each checked in the
real browser (Debian's Chromium driven by Playwright) against the real server:

* finding 1: in the Muggins show, a focused Overcount button pressed with Enter sends the overcount -- the page
  sent "accept" (its proposed action) instead.  Enter on a focused button presses that button (as a browser does,
  and as Space did); the proposed action is Enter's meaning only when focus is on no other control.
"""

from __future__ import annotations

import json
from typing import Any

from drivers import PLAYWRIGHT, PageErrors, create_game, cribbage_turns, new_context, wait_next_state

pytestmark = PLAYWRIGHT


def test_enter_on_the_focused_overcount_button_says_overcount_not_accept(server: str, browser: Any) -> None:
    ctx = new_context(browser, lang="en")
    page = ctx.new_page()
    errors = PageErrors(page)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda f: sent.append(f if isinstance(f, str) else str(f))))
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage .hand-card")
    for data, legal in cribbage_turns(page, count="4"):
        if "overcount" in legal and page.locator("#overcount").count():
            break
    else:
        raise AssertionError("no count of the computer's came to be answered")
    page.focus("#overcount")
    assert page.evaluate("document.activeElement.id") == "overcount"
    before = len(sent)
    page.keyboard.press("Enter")
    wait_next_state(page, ".cribbage", data["version"])
    moves = [json.loads(f).get("move") for f in sent[before:] if f.startswith("{")]
    assert "overcount" in moves and "accept" not in moves, moves
    errors.check()
    ctx.close()
