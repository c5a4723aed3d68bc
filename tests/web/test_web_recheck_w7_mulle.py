"""The Mulle table findings of the w6 re-check (issue #11 items 1, 2, 6, 7), each checked in the real browser
(Debian's Chromium driven by Playwright) against the real server, boxes measured in CSS px:

* a build's cards stay readable: its tag (value, owner, who could take it) lies beside or below the cards, never
  over them, and every card of the build -- a packet of six cards too -- shows its corner (at least 0.4 of a card's
  width, the rank and suit); a chosen table card's lift and ring stay inside the table's top edge; on a phone and
  both wide screens, on a fixed deal;
* nothing on the table moves from one of the player's turns to the next over a whole round (captures, the piles
  growing, the båt call of the last deal): the opponents' box, the deal's line, the hand and the table's top edge;
* on a phone the hint opens in the aids' own room, not over the opponents' box, and moves nothing;
* a touch-only phone shows no keyboard hints (the number keys under the cards, the shortcuts button and menu
  entry); a desktop keeps them;
* the number of ways a group of a chosen card's moves says is the number of moves it lists, before and after a
  table card makes one of them the proposed move (a fixed deal; the ways are the server's legal moves);
* the first turn's aids' line (the pile, the twins' key) comes with the first state: the first state message the
  page receives carries the aids and this state's advice, and the table's top edge never moves while the page
  comes up;
* in a Mulle team game (four players, spec §2.2) the partner's box carries the partner chip, the opponents' not.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import (
    BUILDS_SEED,
    CHROMIUM,
    PageErrors,
    browser,
    close_modals,
    create_game,
    moves_in_reach,
    mulle_click_move,
    new_context,
    root_data,
    server,
    shot,
    wait_mine_or_over,
)
from web_layout import at_rest, nothing_moved, regions

__all__ = ["browser", "server"]  # fixtures used by name

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.slow,
]

#: A deal (the server's seed for every game) whose first position gives the first seat 4♥ with six ways of building
#: 13 on 9♣ (one of them packing A♠+Q♥ and 3♥+10♠: a build of six cards), and a capture of one loose card on its
#: next turn (found by replaying the deal; the tests fail, saying so, if it no longer does).
SEED = BUILDS_SEED  # the server of drivers.seeded_server deals every game from it
#: The six-card build the first seat makes on :data:`SEED`.
PACKET_BUILD = "B 4H on 9C =13 +pkg{AS+QH,3H+TS}"

#: The three screens of the issue, each with its language; the phone is a touch phone.
SCREENS = [(390, 844, "sv"), (1280, 800, "en"), (1366, 768, "sv")]


def _screen(browser: Any, width: int, height: int, lang: str) -> Any:
    """A context at ``width`` x ``height``: the phone size a touch phone (no mouse, no keyboard), the others a
    desktop; the language and the quick pace fixed as in :func:`drivers.new_context`."""
    if width > 560:
        return new_context(browser, width=width, height=height, lang=lang)
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, locale="en-GB", has_touch=True, is_mobile=True
    )
    ctx.set_default_timeout(60000)
    ctx.add_init_script(f"localStorage.setItem('kortbord.pace', '0'); localStorage.setItem('kortbord.lang', '{lang}');")
    return ctx


def _wait_turn(page: Any, before: str | None = None) -> None:
    """Wait until the viewer is to move at a version other than ``before``, the table at rest."""
    page.wait_for_function(
        "v => { const m = document.querySelector('.mulle'); return m && m.dataset.mine === '1' && m.dataset.version !== v; }",
        arg=before or "",
    )
    at_rest(page)


# ----------------------------------------------------------------------------------------------------- item 1
#: Per build: its cards' boxes and its tag's; the cards the tag covers (more than a pixel of overlap), the cards
#: whose visible part (to the next card's left edge) is under 0.4 of a card's width.
_BUILDS = """
() => [...document.querySelectorAll('.mulle .build')].map((b) => {
  const cards = [...b.querySelectorAll('.fan img.card')].map((i) => i.getBoundingClientRect());
  const tag = b.querySelector('.buildtag').getBoundingClientRect();
  const covered = cards.filter((c) => Math.max(0, Math.min(c.right, tag.right) - Math.max(c.left, tag.left))
    * Math.max(0, Math.min(c.bottom, tag.bottom) - Math.max(c.top, tag.top)) > 1).length;
  const slivers = cards.slice(0, -1).map((c, i) => (cards[i + 1].left - c.left) / c.width).filter((f) => f < 0.4);
  return { id: b.dataset.build, n: cards.length, covered, slivers, takers: !!b.querySelector('.takers') };
})
"""

#: The chosen table card's box with its ring (4 px) against the table's inner box (inside its border).
_LIFT = """
() => {
  const t = document.querySelector('.tablearea'), tr = t.getBoundingClientRect();
  const img = document.querySelector('.table-card.chosen img.card').getBoundingClientRect();
  return { ringTop: img.top - 4, tableTop: tr.top + t.clientTop, ringBottom: img.bottom + 4, tableBottom: tr.top + t.clientTop + t.clientHeight };
}
"""


@pytest.mark.parametrize(("width", "height", "lang"), SCREENS)
def test_build_cards_readable_and_the_lift_inside(
    seeded_server: str, browser: Any, width: int, height: int, lang: str
) -> None:
    ctx = _screen(browser, width, height, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, seeded_server, "mulle", options={"game_length": "single_round"})
    _wait_turn(page)
    legal = json.loads(root_data(page, ".mulle")["legal"])
    assert PACKET_BUILD in legal, f"the fixed deal no longer offers {PACKET_BUILD}: {legal}"
    before = root_data(page, ".mulle")["version"]
    mulle_click_move(page, PACKET_BUILD)
    _wait_turn(page, before)
    n = page.locator(".mulle .build").count()
    page.wait_for_function(f"() => document.querySelectorAll('.buildtag .takers').length === {n}")  # the widest tags
    builds = page.evaluate(_BUILDS)
    assert any(b["n"] == 6 for b in builds), builds  # the packet build is on the table
    for b in builds:
        assert b["covered"] == 0 and not b["slivers"], b
    shot(page, f"w7-build-cards-{width}x{height}", full=False)
    # a table card chosen (a capture of one loose card): its lift and ring inside the table's edge
    legal = json.loads(root_data(page, ".mulle")["legal"])
    single = [m for m in legal if re.fullmatch(r"C (\w\w) x \{(\w\w)\}", m)]
    assert single, f"no capture of one loose card at the fixed deal's second turn: {legal}"
    card, loose = re.fullmatch(r"C (\w\w) x \{(\w\w)\}", single[0]).groups()  # type: ignore[union-attr]
    page.click(f".hand-card[data-code='{card}']")
    page.click(f".table-card[data-code='{loose}']")
    at_rest(page)
    lift = page.evaluate(_LIFT)
    assert lift["ringTop"] >= lift["tableTop"] - 0.5 and lift["ringBottom"] <= lift["tableBottom"] + 0.5, lift
    shot(page, f"w7-table-card-lift-{width}x{height}", full=False)
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- item 2
#: The boxes that must hold still from turn to turn ([left, top, width, height]); the deal's line its top and height
#: (its words are centred: a longer one is wider), the table its top edge (its height follows its cards on a
#: phone).
_STILL = """
() => Object.fromEntries(['.opponents', '.status-row', '.infobar', '.me', '.tablearea'].map((sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const box = sel === '.tablearea' ? [r.left, r.top] : sel === '.infobar' ? [r.top, r.height] : [r.left, r.top, r.width, r.height];
  return [sel, box.map(Math.round)];
}))
"""


def _first_capture(legal: list[str]) -> str:
    """A capture when there is one (the table changes), else a trail, else the first move."""
    for prefix in ("C ", "T "):
        found = [m for m in legal if m.startswith(prefix)]
        if found:
            return found[0]
    return legal[0]


@pytest.mark.parametrize(("width", "height", "lang"), [(390, 844, "sv"), (1366, 768, "en")])
def test_mulle_table_holds_still_from_turn_to_turn(
    server: str, browser: Any, width: int, height: int, lang: str
) -> None:
    ctx = _screen(browser, width, height, lang)
    ctx.add_init_script("localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    first: dict[str, Any] | None = None
    turns = captures = 0
    baat = False
    while wait_mine_or_over(page, ".mulle"):
        close_modals(page)
        at_rest(page)
        page.wait_for_selector(
            "#aid-pile", state="attached"
        )  # the aids' line laid out (this state's or, hidden, the last)
        boxes = page.evaluate(_STILL)
        if first is None:
            first = boxes
        moved = {k: (first[k], boxes[k]) for k in first if first[k] != boxes[k]}
        assert not moved, f"turn {turns}: {moved} ({page.inner_text('.infobar')!r}, {page.inner_text('.opponents')!r})"
        if page.locator("#baat").count() and not baat:
            baat = True
            shot(page, f"w7-baat-still-{width}x{height}", full=False)
        legal = json.loads(root_data(page, ".mulle")["legal"])
        move = _first_capture(legal)
        captures += move.startswith("C ")
        before = root_data(page, ".mulle")["version"]
        mulle_click_move(page, move)
        page.wait_for_function(
            f"() => document.querySelector('#game-over') || document.querySelector('.mulle')?.dataset.version !== '{before}'"
        )
        turns += 1
        assert turns < 80
    assert baat, "the båt call of the last deal was never shown at the player's turn"
    assert captures >= 3, f"only {captures} captures: too few changes of the table to check"
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- item 3
_HINT_OVER = """
() => {
  const r = (s) => document.querySelector(s).getBoundingClientRect();
  const h = r('#hint'), o = r('.opponents'), play = r('#hint-play');
  const hit = document.elementFromPoint(o.left + o.width / 2, o.top + o.height / 2);
  return { hintBottom: h.bottom, oppTop: o.top, oppUncovered: document.querySelector('.opponents').contains(hit),
           inside: h.top >= 0 && h.bottom <= innerHeight && play.right <= innerWidth && play.bottom <= innerHeight };
}
"""


def test_phone_hint_leaves_the_opponents_in_sight(server: str, browser: Any) -> None:
    ctx = _screen(browser, 390, 844, "sv")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    _wait_turn(page)
    page.wait_for_selector("#aid-pile")
    frame = regions(page)
    page.tap("#hint-btn")
    page.wait_for_selector("#hint-play")
    at_rest(page)
    over = page.evaluate(_HINT_OVER)
    assert over["hintBottom"] <= over["oppTop"] + 0.5 and over["oppUncovered"] and over["inside"], over
    nothing_moved(page, frame)
    shot(page, "w7-phone-hint", full=False)
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- item 4
_KEYS_SHOWN = """
() => ({
  keyhints: [...document.querySelectorAll('.hand-card .keyhint')].filter((k) => k.getClientRects().length > 0).length,
  keysButton: document.querySelector('#keys-btn').getClientRects().length > 0,
  menuKeys: document.querySelector('#menu-keys').getClientRects().length > 0,
  hand: document.querySelectorAll('.hand-card').length,
})
"""


@pytest.mark.parametrize(("width", "height", "lang"), SCREENS)
def test_keyboard_hints_only_with_a_keyboard(server: str, browser: Any, width: int, height: int, lang: str) -> None:
    ctx = _screen(browser, width, height, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    _wait_turn(page)
    touch = width <= 560
    if touch:
        page.tap("#menu-btn")  # the phone's menu open: its entries laid out
        page.wait_for_selector("#menu-settings", state="visible")
    shown = page.evaluate(_KEYS_SHOWN)
    if touch:
        assert shown["keyhints"] == 0 and not shown["keysButton"] and not shown["menuKeys"], shown
    else:
        assert shown["keyhints"] == shown["hand"] > 0 and shown["keysButton"], shown
    shot(page, f"w7-keys-{width}x{height}", full=False)
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- item 5
_WAYS = re.compile(r"\((\d+) (?:ways|sätt)\)")


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_ways_said_are_the_ways_listed(seeded_server: str, browser: Any, lang: str) -> None:
    ctx = _screen(browser, 390, 844, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, seeded_server, "mulle")
    _wait_turn(page)
    legal = json.loads(root_data(page, ".mulle")["legal"])
    ways = sorted(m for m in legal if m.startswith("B 4H on 9C =13"))  # the server's ways of this build
    assert len(ways) == 6, f"the fixed deal no longer gives 4♥ six ways to build 13 on 9♣: {ways}"
    group = ".controls button.group[data-group='B 4H 9C 13']"
    page.tap(".hand-card[data-code='4H']")
    said = _WAYS.search(page.inner_text(group))
    assert said and int(said.group(1)) == len(ways), page.inner_text(group)
    page.tap(".table-card[data-code='9C']")  # now one of the ways is the move proposed above the list ...
    assert page.locator(".controls .move.legal[data-move='B 4H on 9C =13']").count() == 1
    said = _WAYS.search(page.inner_text(group))
    assert said and int(said.group(1)) == len(ways), page.inner_text(group)  # ... and the group still says six
    page.tap(group)
    listed = sorted(moves_in_reach(page))
    assert listed == ways, listed  # and offers those six (the packages pressed or not)
    shot(page, f"w7-ways-listed-{lang}", full=False)
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- item 6
#: From the first frame the table is drawn: at every animation frame the table's top edge, the aids' line's height
#: and whether the pile's words are there.
_FRAMES = """
window.__frames = [];
(function tick() {
  const t = document.querySelector('.mulle .tablearea'), a = document.querySelector('.aids-wrap');
  if (t && a) window.__frames.push([Math.round(t.getBoundingClientRect().top), Math.round(a.getBoundingClientRect().height), !!document.querySelector('#aid-pile')]);
  requestAnimationFrame(tick);
})();
"""


@pytest.mark.parametrize(("width", "height", "lang"), SCREENS)
def test_first_turn_aids_come_with_the_table(server: str, browser: Any, width: int, height: int, lang: str) -> None:
    ctx = _screen(browser, width, height, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    _wait_turn(page)
    game_url = page.url
    states: list[dict[str, Any]] = []

    def on_ws(ws: Any) -> None:
        def frame(payload: str | bytes) -> None:
            if isinstance(payload, str) and json.loads(payload).get("type") == "state":
                states.append(json.loads(payload))

        ws.on("framereceived", frame)

    page.on("websocket", on_ws)
    page.add_init_script(_FRAMES)
    page.reload()  # the page comes up again, as after a reload or on following a link
    assert page.url == game_url
    _wait_turn(page)
    page.wait_for_timeout(1500)  # any later round trip would have landed by now
    first = states[0]
    assert first["aids"]["allowed"] is True, first.get("aids")
    assert first["advice"]["version"] == first["version"] and "pile" in first["advice"], first.get("advice")
    frames = page.evaluate("window.__frames")
    assert frames and frames[0][2], frames[:3]  # the pile's words in the very first frame of the table
    assert {tuple(f) for f in frames} == {tuple(frames[0])}, sorted({tuple(f) for f in frames})
    shot(page, f"w7-first-turn-aids-{width}x{height}", full=False)
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- item 7
@pytest.mark.parametrize(("lang", "chip"), [("en", "Your partner"), ("sv", "Din partner")])
def test_mulle_team_game_marks_the_partner(server: str, browser: Any, lang: str, chip: str) -> None:
    ctx = new_context(browser, width=1280, height=800, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", players=4, teams=True)
    page.wait_for_selector(".mulle .seatbox[data-seat='3']")
    # the chip laid out before its words are read: an element not rendered (a redraw under way) gives its words as
    # written, the phone's short word too ("Din partnerPartner", seen once in CI)
    page.wait_for_selector(".seatbox[data-seat='2'] .chip.partner", state="visible")
    chips = {s: page.locator(f".seatbox[data-seat='{s}'] .chip.partner").all_inner_texts() for s in (1, 2, 3)}
    assert chips == {1: [], 2: [chip], 3: []}, chips  # seat 3 of the lobby (index 2) sits opposite (spec §2.2)
    shot(page, f"w7-mulle-partner-{lang}", full=False)
    errors.check()
    ctx.close()
