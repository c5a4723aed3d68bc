"""A Mulle table of four in two teams on a phone: every seat's row shows its pile's figures whole (issue #11, the
w10 new user's report).

On a 390x844 touch phone each opponent's and the partner's box is one line the table's width (the w9 re-check's
finding 1: the table below needs the room), and my own row is one line above my hand.  A touch screen shows no hover
title, so each row's figures -- the pile's card count, the mulles' count and their points, the tabbes -- must be in
sight in full: no figure cut by its row's box or by any box that clips it, none ended with an ellipsis, and the row
still one line.  Spec §2.2: partners capture to one pile, so my row and my partner's say the same figures, and the
two opponents' rows say the same.  A tap on a row says its pile in full (the mulles' cards) in the banner.  Checked
in English and Swedish, several turns into a deal, in Debian's Chromium driven by Playwright against the real server.
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
    root_data,
    seeded_server,
    shot,
    wait_mine_or_over,
    wait_next_state,
)
from web_layout import at_rest

__all__ = ["browser", "seeded_server"]  # fixtures used by name

pytestmark = PLAYWRIGHT

#: Each seat's row (the opponents' and partner's boxes, then mine): the words of its pile line as a person sees
#: them (innerText), and what is wrong with them: a word or figure cut by a box that clips it (the row, the line,
#: any box with its overflow not visible, the screen), a box that ends its words with an ellipsis, the pile line on
#: more than one line, or the row's parts not side by side on one line.
_ROWS = """
() => {
  const rows = [...document.querySelectorAll('.mulle .opps > .seatbox, .mulle .me')];
  return rows.map((row) => {
    const pl = row.querySelector('.pileline');
    const out = [];
    const clips = (el) => {
      const boxes = [{ name: 'the screen', l: 0, t: 0, r: innerWidth, b: innerHeight }];
      for (let a = el; a; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible' || a === row) {
          const r = a.getBoundingClientRect();
          boxes.push({ name: a.className, l: r.left, t: r.top, r: r.right, b: r.bottom });
        }
        if (cs.textOverflow === 'ellipsis' && a.scrollWidth > a.clientWidth + 0.5)
          out.push(`${a.className || a.tagName}: its words end with an ellipsis`);
        if (a === row) break;
      }
      return boxes;
    };
    const tops = [];
    const walk = document.createTreeWalker(pl, NodeFilter.SHOW_TEXT);
    for (let n; (n = walk.nextNode());) {
      if (!n.textContent.trim() || !n.parentElement.getClientRects().length) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const c of range.getClientRects()) {
        if (c.width < 0.5) continue;
        tops.push(c.top);
        for (const b of clips(n.parentElement))
          if (c.left < b.l - 0.5 || c.right > b.r + 0.5 || c.top < b.t - 0.5 || c.bottom > b.b + 0.5)
            out.push(`"${n.textContent.trim()}" cut by ${b.name}`);
      }
    }
    if (tops.length && Math.max(...tops) - Math.min(...tops) > 2) out.push('the pile line has more than one line');
    // the row's parts (name and chips, the hand's backs, the pile line) side by side on one line
    const line = row.matches('.me') ? row.querySelector(':scope > .who') : row;
    const parts = [...line.querySelectorAll(':scope > *, :scope > .who > *')]
      .filter((el) => el.getClientRects().length && !el.classList.contains('who'))
      .map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0); // a hand played out: no backs
    if (Math.max(...parts.map((r) => r.top)) >= Math.min(...parts.map((r) => r.bottom)))
      out.push(`the row is not one line: ${parts.map((r) => Math.round(r.top)).join(' ')}`);
    return { seat: row.dataset.seat ?? 'me', me: row.matches('.me'), text: pl.innerText.replace(/\\s+/g, ' ').trim(),
      problems: [...new Set(out)] };
  });
}
"""

#: The pile line's figures as a person reads them: the pile's cards, the mulles' count (and their points when there
#: are any), the tabbes -- in either language the words "Mulle" and "Tabbe" name the figures.
_FIGURES = re.compile(r"^\D*(\d+)\D*?Mulle\D*?(\d+)(?:[^=]*=\s*(\d+))?\D*?Tabbe\D*?(\d+)\s*$")


def _touch_phone(browser: Any, lang: str) -> Any:
    """A 390x844 touch phone with the page's language, the quick pace and no card animation."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", has_touch=True, is_mobile=True)
    ctx.set_default_timeout(60000)
    ctx.add_init_script(
        "localStorage.setItem('kortbord.pace', '0');"
        f" localStorage.setItem('kortbord.lang', '{lang}');"
        " localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));"
    )
    return ctx


def _check_rows(page: Any, where: str, players: int, teams: bool) -> list[tuple[int, int, int, int]]:
    rows = page.evaluate(_ROWS)
    assert len(rows) == players, rows  # the other players' rows and mine
    for row in rows:
        assert not row["problems"], f"{where}, seat {row['seat']} ({row['text']!r}): {row['problems']}"
    figures = []
    for row in rows:
        m = _FIGURES.match(row["text"])
        assert m, f"{where}, seat {row['seat']}: the figures not all said: {row['text']!r}"
        cards, mulles, points, tabbe = m.groups()
        if int(mulles):
            assert points is not None, f"{where}, seat {row['seat']}: the mulles' points not said: {row['text']!r}"
        figures.append((int(cards), int(mulles), int(points or 0), int(tabbe)))
    if teams:
        # the rows come opponent, partner, opponent (clockwise from my left), then mine: one pile a team (spec §2.2)
        assert figures[1] == figures[3], f"{where}: my partner's row and mine say other figures: {rows}"
        assert figures[0] == figures[2], f"{where}: the two opponents' rows say other figures: {rows}"
    return figures


@pytest.mark.parametrize(
    ("players", "teams", "lang"),
    [(4, True, "en"), (4, True, "sv"), (3, False, "en"), (4, False, "sv")],
    ids=["four-teams-en", "four-teams-sv", "three-en", "four-alone-sv"],
)
def test_phone_rows_show_their_figures(seeded_server: str, browser: Any, players: int, teams: bool, lang: str) -> None:
    ctx = _touch_phone(browser, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    options = {"game_length": "single_round"}
    create_game(page, seeded_server, "mulle", options=options, players=players, teams=teams if players == 4 else None)
    seen: list[tuple[int, int, int, int]] = []
    # the first deal: eight cards a hand (spec §2.2), so eight turns of ours, the last one after the others' play
    for turn in range(8):
        assert wait_mine_or_over(page, ".mulle"), "the game ended within the first deal"
        close_modals(page)
        at_rest(page)
        figures = _check_rows(page, f"{lang}, turn {turn}", players, teams)
        seen += figures
        if turn in (3, 7):
            shot(page, f"w10-rows-{players}{'-teams' if teams else ''}-turn{turn}-{lang}-390x844", full=False)
        if turn == 7:
            # a tap on a row says its pile in full in the banner: the mulles' cards too, and their points
            row = next((i for i, f in enumerate(figures[:-1]) if f[1]), 0)
            page.tap(f".mulle .opps > .seatbox >> nth={row}")
            banner = page.text_content("#last-event") or ""
            cards, mulles, points, tabbe = figures[row]
            assert f": {cards}," in banner and f"Tabbe: {tabbe}" in banner, banner
            if mulles:
                assert re.search(rf"Mulle: {mulles} \((\S+ ){{{mulles}}}= {points}\)", banner), banner
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        mulle_click_move(page, choose_mulle_move(legal, turn))
        wait_next_state(page, ".mulle", data["version"])
    assert any(f[0] for f in seen), "no pile had a card in eight turns"
    if "MULLE" in (page.text_content(".log-list") or ""):
        assert any(f[1] for f in seen), "a mulle in the log, none in the rows"
    errors.check()
    ctx.close()
