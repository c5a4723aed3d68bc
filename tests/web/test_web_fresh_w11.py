"""Small findings of a new user on the web table (issue #11, "The web table card players prefer"), each checked in
Debian's Chromium driven by Playwright against the real server, in real games against the quick computer player:

* the Cribbage show with four players (the opponents' boxes and their played cards take the room): at 1280x800,
  1366x768 and 390x844, in English and Swedish, the count panel and the played cards do not overlap, and the hand
  being counted, the starter and the count just settled lie in sight in the table, none of their cards' corners
  (rank and suit) covered -- on a phone the table had ten pixels left and its cards lay under the count panel;
* a reload restores the phone's open log sheet, an open hint, and a hand card chosen but not yet played (Mulle and
  Cribbage) -- a chosen card only while the state it was chosen in is the one on the table;
* the same keys in both games (issue #11 item 6): in Mulle, as in Cribbage's pegging, a hand card's number pressed
  again performs the proposed action (what Enter does), and the keys list says so in English and Swedish.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    PageErrors,
    browser,
    close_modals,
    create_game,
    new_context,
    play_first_card,
    root_data,
    server,
    shot,
    wait_mine_or_over,
    wait_next_state,
)
from test_web_recheck_w7_cribbage import _SHOW_TABLE
from web_layout import VIEWPORTS, at_rest

pytestmark = PLAYWRIGHT
__all__ = ["browser", "server"]  # the fixtures, imported for pytest

#: The played cards (every seat's row) and the count panel (the controls of the show): the rectangles of the cards
#: that lie over the panel's visible box.
_PLAYED_OVER_PANEL = """
() => {
  const panel = document.querySelector('.cribbage .actions');
  if (!panel) return ['no count panel'];
  const p = panel.getBoundingClientRect();
  const out = [];
  for (const img of document.querySelectorAll('.cribbage .played-row img.card')) {
    const r = img.getBoundingClientRect();
    if (r.width < 1) continue;
    if (r.left < p.right - 1 && p.left < r.right - 1 && r.top < p.bottom - 1 && p.top < r.bottom - 1)
      out.push(`${img.dataset.card} (${Math.round(r.top)}-${Math.round(r.bottom)}) over the count panel (${Math.round(p.top)}-${Math.round(p.bottom)})`);
  }
  return out;
}
"""


def _lay_away(page: Any) -> None:
    """Lay away what the deal asks (one card with four players) by clicking the first cards and the button."""
    need = (
        len(next(m for m in json.loads(root_data(page, ".cribbage")["legal"]) if m.startswith("discard")).split()) - 1
    )
    for code in page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")[:need]:
        page.click(f".hand-card[data-code='{code}']")
    page.click("#discard")


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_four_player_show_count_panel_clear_of_played_cards_and_the_table_in_sight(
    server: str, browser: Any, lang: str
) -> None:
    ctx = new_context(browser, width=1280, height=800, lang=lang, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True}, players=4)
    problems: list[str] = []
    decisions = 0
    for _ in range(200):
        if not wait_mine_or_over(page, ".cribbage") or decisions >= 3:
            break
        close_modals(page)
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        if data["phase"] == "discard":
            _lay_away(page)
        elif data["phase"] == "play":
            play_first_card(page, legal)
        else:  # a decision of the show: my count to announce, or another's to answer
            decisions += 1
            for w, h in VIEWPORTS:
                page.set_viewport_size({"width": w, "height": h})
                at_rest(page)
                found = page.evaluate(_PLAYED_OVER_PANEL) + page.evaluate(_SHOW_TABLE)
                if found:
                    problems.append(f"show decision {decisions} ({legal[0]}) at {w}x{h}: {found}")
                    shot(page, f"w11-four-player-show-problem-{lang}-{w}x{h}", full=False)
            page.set_viewport_size({"width": 1280, "height": 800})
            if any(m.startswith("count") for m in legal):
                page.fill("#count-input", "4")
                page.press("#count-input", "Enter")
            else:
                page.click("#accept")
        wait_next_state(page, ".cribbage", data["version"])
    assert decisions >= 2, "the show never came to a decision of mine"
    assert not problems, "\n".join(problems)
    errors.check()
    ctx.close()
