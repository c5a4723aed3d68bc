"""The page-side findings of a fresh-user and a breaker pass over the web table (issue #11), each checked in the
real browser (Debian's Chromium driven by Playwright) against the real server:

* on a 390x844 phone the moves of a chosen Mulle card are full-size buttons in the table's room, never in a small
  scrolling box, and choosing a card moves nothing; a long list is grouped, and every move of the card is a button
  of its own or one inside a group;
* the log of a whole Swedish Mulle round is whole sentences: a capital letter first, no move-kind code, no
  notation, no "->", MULLE/TABBE not shouted, no capture said twice;
* the shown Cribbage hands on a phone do not pile their cards on each other or on another hand; the hand being
  counted and the announce or respond controls are in sight together; the Muggins grids say what their numbers
  are and the buttons name the action and the number;
* the opponent's last-move mark comes back after a reload;
* the number-key help says as many keys as the hand has cards.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    PageErrors,
    card_with_most_moves,
    close_modals,
    create_game,
    lay_away_first_two,
    moves_in_reach,
    mulle_click_move,
    mulle_turns,
    new_context,
    play_first_card,
    root_data,
    shot,
    wait_mine_or_over,
)
from web_layout import MOVE_BOXES, at_rest, nothing_moved, regions

pytestmark = PLAYWRIGHT

#: Notation a player must never read: a move ("T 5C", "C 8C x {...}"), a build id, a bare card code.
NOTATION = re.compile(r"\b[CTBRDPL] (?:10|[A2-9TJQK])[SHDC]\b|\[B\d+\]|\b(?:10|[A2-9TJQK])[SHDC]\b|->")


def test_phone_mulle_moves_and_whole_sentences(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=390, height=844, lang="sv")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(".mulle .hand-card")
    most = 0
    opened = False
    for legal in mulle_turns(page):
        # choose the hand card with the most moves: its list is the longest a player must read
        card = card_with_most_moves(legal)
        frame = regions(page)
        page.click(f".hand-card[data-code='{card}']")
        nothing_moved(page, frame)
        problems = page.evaluate(MOVE_BOXES)
        assert not problems, problems
        n = page.locator(".controls button.move").count()
        if n > most:
            most = n
            shot(page, "60-phone-mulle-sv-moves", full=False)
        # every legal move of the card is reachable: a button of its own, or one inside a group the list opens
        reach = set(page.eval_on_selector_all(".controls button.move[data-move]", "bs => bs.map(b => b.dataset.move)"))
        for group in page.eval_on_selector_all(".controls button.group", "bs => bs.map(b => b.dataset.group)"):
            page.click(f".controls button.group[data-group='{group}']")
            nothing_moved(page, frame)
            problems = page.evaluate(MOVE_BOXES)
            assert not problems, problems
            if not opened:
                opened = True
                shot(page, "60-phone-mulle-sv-group", full=False)
            reach |= moves_in_reach(page)
            page.click("#moves-back")
        assert reach == {m for m in legal if m.split()[1].split("+")[0] == card}
        page.click(f".hand-card[data-code='{card}']")  # put it back, then play by the usual policy
    assert most >= 2  # some card offered more than one move
    close_modals(page)
    lines = page.eval_on_selector_all(".log-list li", "els => els.map(e => e.textContent)")
    assert len(lines) > 20
    for line in lines:
        assert line[0].isupper(), line
        assert not NOTATION.search(line), line
        assert "MULLE" not in line and "TABBE" not in line, line
        # a move kind pasted in as a noun ("Datorn spelar Lägg ut A♠") or a capture said twice ("... : Ta in")
        assert not re.search(r"\bspelar\b|: Ta in|Lägg ut|Bygg upp", line), line
    assert any(line.startswith(("Du tar in", "Datorn tar in")) for line in lines)
    assert any(" lägger ut " in line or line.startswith("Du lägger ut") for line in lines)
    errors.check()
    ctx.close()


_FANS = """
() => {
  const out = [];
  const boxes = [...document.querySelectorAll('.cribbage .center .counting, .cribbage .center .settled')];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i].getBoundingClientRect(), b = boxes[j].getBoundingClientRect();
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push('two shown hands intersect');
    }
  for (const fan of document.querySelectorAll('.cribbage .center .fan, .cribbage .shows .fan')) {
    const imgs = [...fan.querySelectorAll('img.card')];
    for (let k = 0; k + 1 < imgs.length; k++) {
      const a = imgs[k].getBoundingClientRect(), b = imgs[k + 1].getBoundingClientRect();
      if (b.left - a.left < a.width * 0.45) out.push(`${imgs[k].dataset.card}: ${Math.round(b.left - a.left)} of ${Math.round(a.width)} px shows`);
    }
  }
  return out;
}
"""


#: The hand being counted and the controls to judge it are both in sight: each card's left strip (its index) and
#: each control's centre lie inside the viewport and are what is drawn there (not covered by a panel, not scrolled
#: out of the table's region).
_JUDGED = """
(controls) => {
  const out = [];
  const seen = (el, x, y) => { const top = document.elementFromPoint(x, y); return top === el || el.contains(top); };
  const inside = (r) => r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;
  const imgs = [...document.querySelectorAll('.cribbage .center .counting img.card')];
  if (!imgs.length) out.push('no hand being counted is shown');
  for (const img of imgs) {
    const r = img.getBoundingClientRect();
    if (!inside(r)) out.push(`${img.dataset.card} of the counted hand outside the viewport`);
    else if (!seen(img, r.left + Math.min(6, r.width / 4), r.top + r.height / 2)) out.push(`${img.dataset.card} of the counted hand covered`);
  }
  for (const sel of controls) {
    const el = document.querySelector(sel);
    if (!el) { out.push(`${sel} missing`); continue; }
    const r = el.getBoundingClientRect();
    if (!inside(r) || !seen(el, r.left + r.width / 2, r.top + r.height / 2)) out.push(`${sel} not in sight`);
  }
  return out;
}
"""


def test_phone_cribbage_shown_hands_and_muggins_words(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=390, height=844)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage .hand-card")
    page.click("#keys-btn")
    assert page.inner_text("#keys-overlay dt >> nth=1") == "1–6"  # six cards dealt to each of two players
    page.click("#keys-close")
    announced = responded = False
    steps = 0
    while wait_mine_or_over(page, ".cribbage") and not (announced and responded):
        steps += 1
        assert steps < 200
        data = root_data(page, ".cribbage")
        at_rest(page)  # the fans are measured as they lie, not with a card in flight
        if page.locator("#show-close").count():
            problems = page.evaluate(_FANS)
            assert not problems, problems
            shot(page, "61-phone-cribbage-show", full=False)
            close_modals(page)
        legal, phase, before = json.loads(data["legal"]), data["phase"], data["version"]
        if phase == "show":
            problems = page.evaluate(_FANS)
            assert not problems, problems
        if phase == "discard":
            lay_away_first_two(page)
        elif phase == "play":
            play_first_card(page, legal)
        elif any(m.startswith("count") for m in legal):
            assert "?" not in page.inner_text("#announce")
            assert page.inner_text("#n-grid-label").startswith("Points in the ")
            page.click("#n-2")
            assert page.inner_text("#announce") == "Announce 2 points"
            problems = page.evaluate(_JUDGED, ["#announce", "#n-2"])
            assert not problems, problems
            shot(page, "62-phone-cribbage-announce", full=False)
            page.click("#announce")
            announced = True
        elif "accept" in legal:
            assert page.inner_text("#m-grid-label") == "Points they missed:"
            assert "?" not in page.inner_text("#muggins")
            page.locator(".numgrid button[id^='m-']").first.click()
            n = page.eval_on_selector(".numgrid button.on[id^='m-']", "b => b.textContent")
            assert page.inner_text("#muggins") == f"Muggins: {n} missed"
            problems = page.evaluate(_JUDGED, ["#accept", "#muggins"])
            assert not problems, problems
            shot(page, "63-phone-cribbage-respond", full=False)
            page.click("#accept")
            responded = True
        page.wait_for_function(
            f"() => document.querySelector('#game-over') || document.querySelector('.cribbage')?.dataset.version !== '{before}'"
        )
    assert announced and responded
    errors.check()
    ctx.close()


#: The marked table cards, each with where it lies (a build by its id, or loose).
_MARKED = "els => els.map(e => `${e.dataset.card}@${e.closest('[data-build]')?.dataset.build ?? 'loose'}`)"


def test_last_move_mark_after_reload(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1280, height=800)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(".mulle .hand-card")
    marked = None
    for _turn in range(60):
        assert wait_mine_or_over(page, ".mulle"), "the round ended before the computer left a card on the table"
        close_modals(page)
        marked = page.eval_on_selector_all(".mulle .table img.card.lastmove", _MARKED)
        if marked and page.locator(".seatbox.lastmover").count() == 1:
            break
        legal = json.loads(root_data(page, ".mulle")["legal"])
        before = root_data(page, ".mulle")["version"]
        # trail when we can: the computer then often has nothing to take and trails too
        move = next((m for m in legal if m.startswith("T ")), legal[0])
        mulle_click_move(page, move)
        page.wait_for_function(f"() => document.querySelector('.mulle')?.dataset.version !== '{before}'")
    assert marked, "the computer never left a marked card on the table"
    page.reload()
    page.wait_for_selector(".mulle .hand-card")
    assert wait_mine_or_over(page, ".mulle")
    page.wait_for_selector(".mulle .table img.card.lastmove")
    again = page.eval_on_selector_all(".mulle .table img.card.lastmove", _MARKED)
    # the reload marks exactly what the live page marked (a trailed card; a new build's cards), in the same places
    assert sorted(again) == sorted(marked)
    assert page.locator(".seatbox.lastmover").count() == 1
    shot(page, "64-mulle-last-move-after-reload", full=False)
    errors.check()
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_number_keys_help_matches_the_hand(server: str, browser: Any, lang: str) -> None:
    ctx = new_context(browser, lang=lang)
    page = ctx.new_page()
    page.goto(server + "/")
    for game, keys in (("mulle", "1–8"), ("cribbage", "1–6")):  # 8+8 Mulle deal (spec §2.3); 6 cards each
        page.click(f"#tab-{game}")
        page.wait_for_selector("#kbd-help")
        text = page.inner_text("#kbd-help")
        assert keys in text and re.findall(r"1–\d", text) == [keys], text
    ctx.close()
