"""A chosen Mulle card's moves on a phone when the table is tall: every move in sight at once, never clipped by its
panel, whatever the deal.  A fresh-clone CI run found a deal (a table of three rows, a card with six ways of
building and packaging, each two lines long in Swedish) whose list ran out of the room below the table's cards.

The positions are built with the engine (:func:`kortbord.mulle.position.position`) and shown to the page in place of
its game's state (the WebSocket's state messages rewritten on the way in), so the deal is the one the case needs;
the legal moves the page must offer are the engine's."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import PLAYWRIGHT, PageErrors, close_modals, create_game, moves_in_reach, new_context, shot
from web_layout import MOVE_BOXES

from kortbord import core
from kortbord.cards import Card
from kortbord.mulle.position import position
from kortbord.mulle.state import Build

pytestmark = PLAYWRIGHT

SPEC = core.get("mulle")

#: (name, loose table cards, seat 0's hand, seat 1's hand, builds (id, cards, value, owner seat), the card chosen).
CASES = [
    # ten loose cards and three builds; 5S has six moves, four of them building 14 on 9S (with and without packages):
    # ungrouped they need twice the room below the cards, grouped they fit
    (
        "six-long-ways",
        ["9S", "9S", "KD", "TC", "5H", "JD", "7D", "6S", "5H", "7D"],
        ["8C", "5S", "9C", "AC"],
        ["7C", "4H", "5D", "JD"],
        [("B1", ["2S", "3H"], 5, 1), ("B2", ["2H", "JC"], 13, 1), ("B3", ["2D", "6C"], 8, 0)],
        "5S",
    ),
    # six ways of packaging 6D with a 7 on a build of 13
    (
        "six-packages",
        ["JH", "7S", "9H", "QC", "4S", "JH", "3C", "7H", "9C"],
        ["8C", "KC", "6D", "6C"],
        ["TD", "8H", "KD", "4H"],
        [("B1", ["AC", "4C"], 5, 1), ("B2", ["6D", "7D"], 13, 1), ("B3", ["4D", "JD"], 15, 1)],
        "6D",
    ),
    # a group of eight ways (3H builds 11 on 8S, packaging 3C+8C, 4C+7C, 5D+6D in every combination): opened, the
    # ways need more room than lies below the cards -- the sheet rises over the table
    (
        "eight-ways-opened",
        ["8S", "3C", "8C", "4C", "7C", "5D", "6D", "2H", "TD", "QH"],
        ["3H", "KS", "QS", "JS"],
        ["2D", "9D", "TD", "JD"],
        [("B1", ["2C", "5C"], 7, 1), ("B2", ["AH", "8H"], 9, 1)],
        "3H",
    ),
    # the most ways one group had in 400 random single rounds (a fresh deal's table of eight loose cards): JH builds
    # 13 on 2D packaging A+Q (two aces, three queens) and 5D+8S in 26 combinations; opened, the ways in their long
    # words ("Bygg 13 på 2♦ och paketera A♥+Q♠ och 5♦+8♠", two lines each) were taller than the whole stage
    (
        "twenty-six-ways-opened",
        ["AH", "AD", "2D", "5D", "8S", "QS", "QH", "QC"],
        ["3S", "4D", "6H", "6C", "TH", "JH", "QD", "KS"],
        ["4C", "5C", "8D", "9S", "TS", "TD", "TC", "KH"],
        [],
        "JH",
    ),
    # eleven ways of capturing with an ace (14 from the hand) from ten small loose cards, most of them taking six
    # cards and more ("Ta in A♣, 2♥, 3♣, 4♦, 5♠, 6♥ och 7♦"): a fresh-clone CI run's random deal had a group like it
    # whose ways, opened, were taller than the whole stage
    (
        "eleven-captures-opened",
        ["AC", "2H", "3C", "4D", "7D", "5S", "6H", "8C", "9D", "QC"],
        ["AH", "KS", "QS", "JS"],
        ["2D", "9D", "TD", "JD"],
        [],
        "AH",
    ),
]

#: How much of each table card shows above the moves' sheet: (card's top, the sheet's top) in px.
_UNDER_SHEET = """
() => {
  const sheet = document.querySelector('.stage > .actions .sheet-body').getBoundingClientRect();
  return [...document.querySelectorAll('.stage > .tablearea .cardbtn img.card')]
    .map((c) => [c.getBoundingClientRect().top, c.getBoundingClientRect().height, sheet.top]);
}
"""


def _position(table: list[str], hand: list[str], opp: list[str], builds: list[Any]) -> tuple[dict[str, Any], list[Any]]:
    """Seat 0's view of the position and its legal moves, as the server's state message carries them."""
    bs = [Build(id=i, cards=tuple(Card.parse(c) for c in cs), value=v, owner=o) for i, cs, v, o in builds]
    state = position(to_move=0, hands=[hand, opp], table=table, builds=bs)
    return SPEC.view(state, 0).to_json(), [SPEC.move_json(m) for m in SPEC.legal_moves(state)]


def _show(page: Any, view: dict[str, Any], legal: list[Any]) -> None:
    """Rewrite every state message to seat 0 of the page's game into ``view`` with ``legal``, seat 0 to move, all
    at the first message's version (the computer's moves in the real game behind it are no new state to the page,
    which would put the chosen card back)."""
    first: list[int] = []

    def route(ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(msg: str | bytes) -> None:
            if isinstance(msg, str):
                data = json.loads(msg)
                if data.get("type") == "state" and data.get("seat") == 0:
                    first[:] = first or [data["version"]]
                    data.update(view=view, legal_moves=legal, to_act=0, status="playing", version=first[0])
                    msg = json.dumps(data)
            ws.send(msg)

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/games/"), route)


def _open(server: str, browser: Any, case: tuple[Any, ...], lang: str) -> tuple[list[Any], Any, Any, PageErrors]:
    """A 390x844 page in ``lang`` showing ``case``'s position (a game started from the lobby, its states rewritten):
    the legal moves (move JSON), the context, the page and its error watch."""
    _name, table, hand, opp, builds, card = case
    view, legal = _position(table, hand, opp, builds)
    ctx = new_context(browser, width=390, height=844, lang=lang, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    _show(page, view, legal)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(f".mulle .hand-card[data-code='{card}']")
    close_modals(page)
    return legal, ctx, page, errors


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_phone_moves_of_a_tall_table_all_in_sight(server: str, browser: Any, case: tuple[Any, ...]) -> None:
    name, card = case[0], case[-1]
    legal, ctx, page, errors = _open(server, browser, case, "sv")
    want = {m["notation"] for m in legal if m["card"] == card}
    assert len(want) >= 6, want  # the case is the long list it is meant to be
    page.click(f".hand-card[data-code='{card}']")
    page.wait_for_selector(".controls .allmoves")
    problems = page.evaluate(MOVE_BOXES)
    assert not problems, problems
    shot(page, f"moves-fit-{name}", full=False)
    groups = page.eval_on_selector_all(".controls button.group", "bs => bs.map(b => b.dataset.group)")
    if not page.locator("#moves-back").count() and groups and not name.endswith("-opened"):
        # grouping was enough: the sheet stays below the table's cards' corners (rank and suit in sight)
        for top, height, sheet in page.evaluate(_UNDER_SHEET):
            assert top + 0.4 * height <= sheet, (top, height, sheet)
    reach = set(page.eval_on_selector_all(".controls button.move[data-move]", "bs => bs.map(b => b.dataset.move)"))
    for group in groups:
        page.click(f".controls button.group[data-group='{group}']")
        page.wait_for_selector("#moves-back")
        problems = page.evaluate(MOVE_BOXES)
        assert not problems, (group, problems)
        # and once the aids' words have come in (a round trip later) and the table's room has shrunk for them
        page.wait_for_timeout(600)
        problems = page.evaluate(MOVE_BOXES)
        assert not problems, (group, "settled", problems)
        shot(page, f"moves-fit-{name}-{group.replace(' ', '_')}", full=False)
        reach |= moves_in_reach(page)
        page.click("#moves-back")
    assert reach == want
    errors.check()
    ctx.close()


def test_package_chooser_double_click_disabled_chosen_cards_and_escape(server: str, browser: Any) -> None:
    """The 26-way build (CASES' "twenty-six-ways-opened"): a double click on the group's button opens it and presses nothing (its second
    click lands on a package drawn under the pointer); a disabled package stays unpressed whatever clicks it; table
    cards chosen first press their packages (both proposed buttons say one move, which Enter plays); Escape closes
    the group (focus back on its button), then puts the card back (focus on it).  A helper's bad-input findings."""
    case = next(c for c in CASES if c[0] == "twenty-six-ways-opened")
    card = case[-1]
    legal, ctx, page, errors = _open(server, browser, case, "en")
    group = ".controls button.group[data-group='B JH 2D 13']"
    page.click(f".hand-card[data-code='{card}']")
    page.dblclick(group)
    page.wait_for_selector(".pkgpick")
    assert page.locator(".pkgpick.on").count() == 0
    assert page.get_attribute(".pkgplay", "data-move") == "B JH on 2D =13"
    # AH+QS pressed: every other ace-of-hearts package is disabled, and a click sent to one by script does nothing
    page.click(".pkgpick[data-pkg='AH+QS#0']")
    page.wait_for_selector(".pkgpick[data-pkg='AH+QH#0'][disabled]")
    assert (
        page.get_attribute(".pkgpick[data-pkg='AH+QH#0']", "title") == "It shares a card with a package already pressed"
    )
    # the table cards the move now takes are marked: the build's 2D and the package's AH and QS
    marked = page.eval_on_selector_all(".table-card.preview", "cs => cs.map(c => c.dataset.code)")
    assert sorted(marked) == ["2D", "AH", "QS"], marked
    page.eval_on_selector(
        ".pkgpick[data-pkg='AH+QH#0']", "b => b.dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    assert page.eval_on_selector_all(".pkgpick.on", "bs => bs.map(b => b.dataset.pkg)") == ["AH+QS#0"]
    assert page.get_attribute(".pkgplay", "data-move") == "B JH on 2D =13 +pkg{AH+QS}"
    # Escape: the group closes, the focus on its button; again: the card is put back, the focus on it
    page.keyboard.press("Escape")
    page.wait_for_selector(group)
    assert page.evaluate("() => document.activeElement?.dataset?.group") == "B JH 2D 13"
    page.keyboard.press("Escape")
    page.wait_for_selector(".hand-card.chosen", state="detached")
    assert page.evaluate("() => document.activeElement?.dataset?.code") == card
    # the table cards first (2D, then AH and QS), then the group: the chooser starts from their move
    page.click(f".hand-card[data-code='{card}']")
    for code in ("2D", "AH", "QS"):
        page.click(f".table-card[data-code='{code}']:not(.chosen)")
    move = "B JH on 2D =13 +pkg{AH+QS}"
    assert move in {m["notation"] for m in legal}
    page.wait_for_selector(f".move.legal[data-move='{move}']")
    page.click(group)
    page.wait_for_selector(".pkgplay")
    assert page.eval_on_selector_all(".pkgpick.on", "bs => bs.map(b => b.dataset.pkg)") == ["AH+QS#0"]
    assert set(page.eval_on_selector_all(".move.legal", "bs => bs.map(b => b.dataset.move)")) == {move}
    # Enter plays it (the position shown is held still, so the click on a proposed button is what is looked for)
    page.evaluate(
        """() => { window.__played = [];
        for (const b of document.querySelectorAll('.move.legal'))
          b.addEventListener('click', () => window.__played.push(b.dataset.move)); document.activeElement?.blur(); }"""
    )
    page.keyboard.press("Enter")
    assert page.evaluate("() => window.__played") == [move]
    errors.check()
    ctx.close()
