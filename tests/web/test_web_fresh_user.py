"""The findings of a fresh-user pass over the web table (issue #11: a whole Cribbage game to 61 with Muggins in
English at 1280x800, a whole Mulle round in Swedish at 390x844), each checked in the real browser (Debian's
Chromium driven by Playwright) against the real server:

* the latest event is read in full on a phone: the banner's sentence is the log's latest line, painted whole (not
  cut by its box), inside the screen;
* nothing on the Cribbage table jumps between the phases: the board, the opponent, the table region and the
  stacks of the deck stand where they stood when the cards were dealt, through the laying away and the play;
* the cards of the current count show each earlier card's corner (rank and suit), on a phone too;
* the pegboard on a phone has holes and pegs a player can see (sizes in CSS pixels);
* the show dialog fits the screen, or says that there is more below until it is scrolled;
* the game-over line speaks of the viewer in one voice ("You win with 63", never "You win! Tester wins");
* the Mulle build tag says what its parts are, and who could take the build, in words;
* the twin tracker's mark is explained where it is shown;
* the Mulle game-over breakdown names what each row is.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    PageErrors,
    close_modals,
    create_game,
    mulle_turns,
    new_context,
    play_cribbage_to_the_end,
    root_data,
    shot,
)
from web_layout import at_rest

from kortbord.cribbage.scoring import score_show

pytestmark = PLAYWRIGHT

#: The banner's sentence painted whole: [its text, problems].  The text's own box does not overflow, and no
#: clipping ancestor (overflow not visible) nor the viewport cuts it.
_BANNER = """
() => {
  const el = document.querySelector('#last-event .text');
  if (!el) return ['', ['no banner text']];
  const out = [];
  const r = el.getBoundingClientRect();
  if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
    out.push(`the text overflows its box: ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
  const cs = getComputedStyle(el);
  if (cs.webkitLineClamp && cs.webkitLineClamp !== 'none') out.push(`clamped to ${cs.webkitLineClamp} lines`);
  if (cs.textOverflow === 'ellipsis' && cs.whiteSpace === 'nowrap') out.push('cut with an ellipsis');
  for (let a = el.parentElement; a; a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const ar = a.getBoundingClientRect();
    if (r.top < ar.top - 1 || r.bottom > ar.bottom + 1 || r.left < ar.left - 1 || r.right > ar.right + 1)
      out.push(`cut by ${a.tagName.toLowerCase()}.${[...a.classList].join('.')}`);
  }
  if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) out.push('outside the screen');
  return [el.textContent, out];
}
"""

#: The boxes that must not move between the phases of a deal ([left, top, width, height], rounded).
_STILL = """
() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; };
  const out = {};
  for (const sel of ['.scores', '.opponents', '.table']) out[sel] = box(document.querySelector(sel));
  document.querySelectorAll('.deck .stack').forEach((el, i) => { out[`stack ${i}`] = box(el); });
  return out;
}
"""

#: How much of each earlier card of the count is in sight (px), and the card's width.
_SEQUENCE = """
() => {
  const imgs = [...document.querySelectorAll('.cribbage .sequence img.card')];
  const shown = [];
  for (let i = 0; i + 1 < imgs.length; i++) shown.push(imgs[i + 1].getBoundingClientRect().left - imgs[i].getBoundingClientRect().left);
  return [shown, imgs.length ? imgs[0].getBoundingClientRect().width : 0];
}
"""

#: The sizes (CSS px) of the board's holes, front pegs and row numbers as drawn.
_BOARD = """
() => {
  const w = (sel) => Math.min(...[...document.querySelectorAll(sel)].map((e) => e.getBoundingClientRect().width));
  const mark = document.querySelector('svg.board .mark');
  return { hole: w('svg.board .hole:not(.start):not(.game)'), peg: w('svg.board .peg.front'), mark: mark ? mark.getBoundingClientRect().height : 0 };
}
"""

#: The part of a card that holds its corner index (rank over suit): a card shown less than this is not recognised.
CORNER = 0.4
#: Smallest sizes a player reads on a phone (CSS px): a hole, a peg, a row number.
MIN_HOLE, MIN_PEG, MIN_MARK = 4.5, 8.5, 7.0


def _check_show_dialog(page: Any) -> None:
    """The show dialog: its list fits, or "More below" says there is more until the list is scrolled to its end."""
    if page.locator("#show-panel").count() == 0:
        return
    agree = """() => {
      const el = document.querySelector('#show-scroll'), wrap = document.querySelector('#show-scroll-wrap');
      // nothing below what is in sight: the list fits, or it was scrolled to its end (by an earlier look at the
      // same dialog, still open)
      const fits = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
      // the words drawn at the box's foot (its ::after, on while the box has the class "more"), in sight
      const after = getComputedStyle(wrap, '::after');
      const shown = wrap.classList.contains('more') && after.display !== 'none' && after.content !== 'none';
      return [fits, shown, el.scrollTop, el.clientHeight, el.scrollHeight];
    }"""
    try:  # the mark is set once the dialog and its cards are laid out
        page.wait_for_function(f"() => {{ const [f, m] = ({agree})(); return f !== m; }}", timeout=5000)
    except Exception:
        pytest.fail(f"the show dialog's 'More below' does not match its list: {page.evaluate(agree)}")
    fits = page.evaluate(agree)[0]
    if not fits:
        page.eval_on_selector("#show-scroll", "el => { el.scrollTop = el.scrollHeight; }")
        page.wait_for_function("() => !document.querySelector('#show-scroll-wrap').classList.contains('more')")
    box = page.eval_on_selector("#show-close", "el => el.getBoundingClientRect().bottom")
    assert box <= page.viewport_size["height"] + 1


def _one_voice(page: Any, name: str) -> None:
    """The game-over line says "you" for the viewer, in one voice, with the winner's score from the legend."""
    result = page.inner_text("#game-over .result")
    legend = page.eval_on_selector_all(".legend .score b", "bs => bs.map(b => Number(b.textContent))")
    mine = page.eval_on_selector_all(".legend .score", "els => els.map(e => e.textContent.startsWith('You'))")
    if legend[mine.index(True)] >= 61:
        assert result.startswith(f"You win with {max(legend)}"), result
    else:
        assert result.startswith(f"You lose: Computer wins with {max(legend)}"), result
    assert name not in result, result


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["1280x800", "390x844"])
def test_cribbage_game_nothing_jumps_the_banner_is_whole_and_the_count_is_readable(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    width, height = size
    phone = width < 560
    ctx = new_context(browser, width=width, height=height, name="Tester")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True, "target": 61})
    page.wait_for_selector(".cribbage .hand-card")
    dealt: dict[str, Any] = {}  # the deal's boxes when its cards were dealt
    seen = {"banner": 0, "jumps": 0, "sequence": 0, "show": 0}

    def each_turn() -> None:
        data = root_data(page, ".cribbage")
        if data["mine"] != "1" or page.locator("#game-over").count():
            return
        _check_show_dialog(page)
        if page.locator("#show-panel").count():
            seen["show"] += 1
            return
        at_rest(page)
        if phone:
            text, problems = page.evaluate(_BANNER)
            assert not problems, (text, problems)
            latest = page.eval_on_selector(".log-list li", "li => li.textContent")
            assert text == latest, (text, latest)  # the whole latest event, not a part of it
            seen["banner"] += 1
        if data["phase"] in ("discard", "play"):
            boxes = page.evaluate(_STILL)
            first = dealt.setdefault(data["deal"], boxes)
            assert boxes == first, f"deal {data['deal']}, {data['phase']}: moved from {first} to {boxes}"
            seen["jumps"] += first is not boxes
        if data["phase"] == "play":
            shown, card_w = page.evaluate(_SEQUENCE)
            assert all(s >= CORNER * card_w for s in shown), (shown, card_w)
            seen["sequence"] += bool(shown)
        if phone:
            board = page.evaluate(_BOARD)
            assert board["hole"] >= MIN_HOLE and board["peg"] >= MIN_PEG and board["mark"] >= MIN_MARK, board

    play_cribbage_to_the_end(page, mid_shot=f"70-cribbage-fresh-{width}", count="4", each_turn=each_turn)
    close_modals(page)
    assert seen["jumps"] and seen["sequence"] and (seen["banner"] or not phone), seen
    _one_voice(page, "Tester")
    shot(page, f"71-cribbage-fresh-over-{width}", full=False)
    errors.check()
    ctx.close()


#: The longest show sentences there are (221 letters in English, the most of 60,000 random hands: a crib of two
#: jacks and two fives with a five for starter, worth 23; and the 29 hand): the hand, the starter, the crib flag.
_LONGEST = [(["JD", "JC", "5S", "5H"], "5C", True), (["5S", "5H", "5D", "JC"], "5C", False)]


def _with_shows(page: Any, shows: list[dict[str, Any]]) -> list[bool]:
    """Once armed (the returned list given an item), append ``shows`` (engine ``reveal`` events) to the history of
    the next state message to seat 0 that carries one (the page's first after a reload): the page's latest event is
    then the last of them, said in the banner and the log."""
    armed: list[bool] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(msg: str | bytes) -> None:
            if isinstance(msg, str) and armed and armed[-1]:
                data = json.loads(msg)
                if data.get("type") == "state" and data.get("seat") == 0 and data.get("history") is not None:
                    data["history"] = data["history"] + shows
                    armed.append(False)
                    msg = json.dumps(data)
            ws.send(msg)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/games/"), route)
    return armed


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("which", [0, 1], ids=["crib-23", "hand-29"])
def test_phone_banner_says_the_longest_show_whole(server: str, browser: Any, lang: str, which: int) -> None:
    """A four-player table on a 390x844 phone: a computer's show of the longest spoken count there is stands whole
    in the banner (no line cut, nothing clipped), equal to the log's latest line, and the board and the table do
    not move for it."""
    hand, starter, crib = _LONGEST[which]
    shown = score_show(hand, starter, crib=crib)
    assert shown.total == (23 if which == 0 else 29)  # the rules' count (spec §2.5): the sentence is the long one
    event = {
        "kind": "reveal",
        "seat": 3,
        "crib": crib,
        "cards": hand,
        "starter": starter,
        "points": shown.total,
        "groups": shown.groups_json(),
    }
    ctx = new_context(browser, width=390, height=844, lang=lang, name="Tester")
    page = ctx.new_page()
    errors = PageErrors(page)
    armed = _with_shows(page, [event])
    create_game(page, server, "cribbage", players=4)
    page.wait_for_selector(".cribbage .hand-card")
    # the computers before the viewer lay their card away; then nothing happens until the viewer lays theirs away,
    # and a reload's history ends in the show
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    at_rest(page)
    armed.append(True)
    page.reload()
    page.wait_for_selector(".cribbage .hand-card")
    close_modals(page)
    page.wait_for_function(f"() => document.querySelector('#last-event .text')?.textContent.includes('{shown.total}')")
    at_rest(page)
    page.wait_for_timeout(300)  # the banner is fitted once laid out (a frame)
    text, problems = page.evaluate(_BANNER)
    shot(page, f"72-cribbage-longest-show-{which}-{lang}", full=False)
    assert not problems, (text, problems)
    assert len(text) > 190, text  # the sentence is the whole spoken count
    latest = page.eval_on_selector(".log-list li", "li => li.textContent")
    assert text == latest, (text, latest)
    errors.check()
    ctx.close()


def test_phone_mulle_round_in_swedish_build_words_twins_and_the_breakdown(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=390, height=844, lang="sv", name="Astrid")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(".mulle .hand-card")
    tags: list[str] = []
    for _legal in mulle_turns(page):
        at_rest(page)
        text, problems = page.evaluate(_BANNER)
        assert not problems, (text, problems)
        # the twin tracker's mark is explained in words where it is shown
        if page.locator("img.card.twin-unseen").count():
            assert "prickad ram" in page.inner_text("#aid-twins")
        for b in page.eval_on_selector_all(".build", "bs => bs.map(b => b.dataset.build)"):
            tag = page.inner_text(f".build[data-build='{b}'] .buildtag")
            value = page.get_attribute(f".build[data-build='{b}'] .bval", "data-value")
            # "Bygge 9 · Datorns / kan tas: Datorn": the value and the owner, then who could take it, in words
            assert re.match(rf"Bygge {value} · (?:ditt|Datorns)\b", tag), tag
            assert re.search(r"kan tas: (?:Du|Datorn)|ingen kan ta det", tag), tag
            assert not re.search(r"\b(?:ja|nej)\b", tag), tag
            tags.append(tag)
    close_modals(page)
    page.wait_for_selector("#per-round")
    rows = page.eval_on_selector_all("#per-round tbody tr th", "ths => ths.map(t => t.textContent)")
    # one round: its heading, then what each row is, in Swedish words (spec §2.11 items), ending in its total
    assert rows[0] == "Omgång 1"
    # (the cards taken: a count, said so in the row's words -- "Intagna kort (antal, inga poäng)")
    for words in ("Intagna kort", "Kortpoäng", "Mullepoäng", "Tabbe", "Summa för omgången"):
        assert any(r == words or r.startswith(f"{words} (") for r in rows), rows
    totals = page.eval_on_selector_all("#per-round tr.it-total td", "tds => tds.map(t => Number(t.textContent))")
    finals = page.eval_on_selector_all("#per-round tfoot td", "tds => tds.map(t => Number(t.textContent))")
    assert totals == finals  # one round: the round's totals are the game's
    shot(page, "72-mulle-sv-phone-over", full=False)
    if tags:
        print("build tags seen:", tags[:3])
    errors.check()
    ctx.close()
