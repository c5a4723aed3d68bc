"""A refused Mulle move's reason is said in words, not notation (issue #11 item 3; the w10 fresh report: "Not
allowed: The cards {7♠,7♥} cannot be split into groups worth 13" and "You can capture (6♦: Capture 6♥), so you
may not trail").

Spec §2.3: a player who can capture may not trail.  In a real game against the quick computer player, each hand card
whose trail is not legal is tried as a trail by the page's "Why can't I trail it?" button; the refusal the page shows
must say the capture that is possible in a sentence ("You can capture 6♥ with 6♦, so you may not trail"; the card
once where the sentence names it), with no card notation, no build ids in brackets and no set braces -- in English
and in Swedish.  Checked in Debian's Chromium driven by Playwright against the real server.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    PageErrors,
    browser,
    choose_mulle_move,
    close_modals,
    create_game,
    mulle_click_move,
    new_context,
    root_data,
    server,
    wait_mine_or_over,
    wait_next_state,
)

pytestmark = PLAYWRIGHT
__all__ = ["browser", "server"]  # the fixtures, imported for pytest

#: Engine notation a player must not read: a move ("C 6D x ..."), a card code ("6D"), a build id ("[B1]", "B1"),
#: a set of cards in braces.
NOTATION = re.compile(r"\b[CTBRDPL] (?:10|[A2-9TJQK])[SHDC]\b|\b(?:10|[A2-9TJQK])[SHDC]\b|\[?\bB\d+\b\]?|[{}\[\]]|->")


@pytest.mark.parametrize(
    ("lang", "lead", "with_word"), [("en", "Not allowed: ", " with "), ("sv", "Inte tillåtet: ", " med ")]
)
def test_why_not_trail_says_the_capture_in_words(
    server: str, browser: Any, lang: str, lead: str, with_word: str
) -> None:
    ctx = new_context(browser, width=1366, height=768, lang=lang, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    said: list[str] = []
    for turn in range(16):
        if not wait_mine_or_over(page, ".mulle") or len(said) >= 3:
            break
        close_modals(page)
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        for card in page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)"):
            if f"T {card}" in legal:
                continue
            page.click(f".hand-card[data-code='{card}']")
            why = page.locator(f".why[data-move='T {card}']")
            if not why.count():
                page.click(f".hand-card[data-code='{card}']")  # put it back: the page offers no why for it
                continue
            why.click()
            page.wait_for_selector(".flash.show.error")
            text = page.inner_text(".flash").strip()
            said.append(text)
            assert text.startswith(lead), text
            assert not NOTATION.search(text), f"notation in {text!r}"
            assert not re.search(r"\(\S+: ", text), f"a move in brackets in {text!r}"  # "(6♦: Capture 6♥)"
            page.keyboard.press("Escape")
            break
        if page.locator(".hand-card.chosen").count():
            page.click(".hand-card.chosen")
        mulle_click_move(page, choose_mulle_move(legal, turn))
        wait_next_state(page, ".mulle", data["version"])
    assert said, "no card of the hand was refused a trail in 16 turns"
    errors.check()
    ctx.close()
