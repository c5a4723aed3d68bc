"""The w9 new user's findings on words, checked in the real browser (Debian's Chromium driven by Playwright)
against the real server (/work/notes/w9/fresh/report.md):

* finding 10: both games' rules pages showed internal notation -- option keys (``skunk_games``), raw values
  (``target:100``, ``false``/``true``, English in Swedish too) and spec references ("§2.7", "(A18)") in the text.
  Each option is now said by its words in the player's language (the catalogue the lobby uses), its values as
  words or numbers, and the spec references only behind a "rule details" disclosure (issue #11 item 3);
* finding 11: the Muggins show summary headed the hand by its worth ("Your hand: 5") when the player announced
  (and scored) 4: it says both;
* finding 15: the Mulle game-over panel had a "Round scores" heading with only "—" under it.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    PageErrors,
    announce_count,
    create_game,
    cribbage_turns,
    lay_away_first_two,
    mulle_turns,
    new_context,
    play_first_card,
    root_data,
    shot,
    wait_mine_or_over,
)

pytestmark = PLAYWRIGHT

I18N = Path(__file__).resolve().parents[2] / "src" / "kortbord" / "i18n"
REF = re.compile(r"§|\((?:spec |[AM]\d)")
BOOL = re.compile(r"\b(?:true|false|True|False)\b")


def _options(base: str, game: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{base}/api/options/{game}") as r:
        return list(json.load(r)["options"])


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("game", ["cribbage", "mulle"])
def test_the_rules_page_says_the_options_in_words_and_hides_the_spec_references(
    server: str, browser: Any, game: str, lang: str
) -> None:
    options = _options(server, game)
    catalogue = json.loads((I18N / f"{game}.json").read_text())
    ctx = new_context(browser, width=390, height=844, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/#/rules/{game}")
    page.wait_for_selector(".options-doc dl")
    shot(page, f"w9-words-rules-{game}-{lang}")
    # everything on the rules page a player reads without opening the rule details
    outside = page.evaluate(
        """() => { const a = document.querySelector('article.rules').cloneNode(true);
                   a.querySelectorAll('details.rule-details').forEach(d => d.remove()); return a.innerText; }"""
    )
    options_text = page.evaluate(
        """() => { const a = document.querySelector('.options-doc').cloneNode(true);
                   a.querySelectorAll('details.rule-details').forEach(d => d.remove()); return a.innerText; }"""
    )
    assert page.locator("article.rules code").count() == 0
    for o in options:
        key = o["key"]
        # the option's label in the player's language, from the catalogue (the lobby's words)
        assert catalogue[f"option.{key}.label"][lang] in outside, key
        if "_" in key:
            assert key not in outside, key
        for c in o.get("choices") or []:
            if isinstance(c, str) and (":" in c or "_" in c):
                assert c not in outside, c
    # no raw true/false for an option's value (the summary above may say "the true breakdown" in English)
    assert not BOOL.search(options_text), BOOL.search(options_text)
    assert not REF.search(outside), REF.search(outside)
    # the default of a choice is said by the catalogue's words ("to 100 points" for target:100, "121 (twice
    # around)" for 121)
    first_choice = next(o for o in options if o.get("choices"))
    said = catalogue[f"option.{first_choice['key']}.{first_choice['default']}"][lang]
    assert said in outside, said
    # the references are kept, behind the disclosure, closed until the player opens it
    details = page.locator("details.rule-details")
    assert details.count() == 1
    assert not details.evaluate("d => d.open")
    details.locator("summary").click()
    inside = details.inner_text()
    assert REF.search(inside), inside
    assert ("rule details" if lang == "en" else "regeldetaljer") in inside
    errors.check()
    ctx.close()


def _play_muggins_to_the_show_summary(page: Any, count: str) -> None:
    """Play our seat of a Muggins game (the first two cards away, go or the first legal card, announce ``count``,
    accept the computer's counts) until the show summary opens."""
    for _ in range(300):
        page.wait_for_function(
            "() => document.querySelector('#show-panel') || document.querySelector('.cribbage')?.dataset.mine === '1'"
        )
        if page.locator("#show-panel").count():
            return
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        if data["phase"] == "discard":
            lay_away_first_two(page)
        elif data["phase"] == "play":
            play_first_card(page, legal)
        elif any(m.startswith("count") for m in legal):
            announce_count(page, count)
        else:
            page.click("#accept")
        page.wait_for_function(
            "v => document.querySelector('#show-panel') || document.querySelector('.cribbage')?.dataset.version !== v",
            arg=data["version"],
        )
    pytest.fail("no show summary")


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_muggins_show_summary_heads_each_hand_by_what_was_announced_and_its_worth(
    server: str, browser: Any, lang: str
) -> None:
    ctx = new_context(browser, width=390, height=844, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage .hand-card")
    _play_muggins_to_the_show_summary(page, "4")
    shot(page, f"w9-words-show-summary-{lang}", full=False)
    shows = page.eval_on_selector_all(
        "#show-panel .show",
        """ss => ss.map(s => ({head: s.querySelector('h3').innerText,
                               groups: [...s.querySelectorAll('.groups li')].map(li => li.innerText)}))""",
    )
    assert len(shows) >= 3, shows  # two hands and the crib
    said = r"announced (\d+), worth (\d+)" if lang == "en" else r"meddelad (\d+), värd (\d+)"
    ours = 0
    for s in shows:
        m = re.search(said + r"\s*$", s["head"])
        assert m, s["head"]
        # the worth is the sum of the scoring groups listed under it ("fifteen 5♠ T♦: 2")
        worth = sum(int(g.rsplit(":", 1)[1]) for g in s["groups"])
        assert int(m.group(2)) == worth, s
        ours += m.group(1) == "4"
    assert ours >= 1, shows  # we announced 4 for our hand (and crib)
    errors.check()
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_the_mulle_game_over_page_has_no_round_scores_heading_over_a_bare_dash(
    server: str, browser: Any, lang: str
) -> None:
    ctx = new_context(browser, width=1366, height=768, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(".mulle .hand-card")
    for _legal in mulle_turns(page):
        pass
    page.wait_for_selector("#game-over", state="attached")
    shot(page, f"w9-words-mulle-over-{lang}", full=False)
    lines = [x.strip() for x in page.inner_text("main").splitlines() if x.strip()]
    assert "—" not in lines, lines
    # the table, empty after the last deal, says so in words
    assert page.inner_text(".mulle .empty") == ("The table is empty." if lang == "en" else "Bordet är tomt.")
    # the rounds' scores are on the game-over panel: the round's total per side is the game score (one round)
    totals = page.eval_on_selector_all("#per-round tbody tr.it-total td", "tds => tds.map(t => Number(t.innerText))")
    game = page.eval_on_selector_all("#per-round tfoot td", "tds => tds.map(t => Number(t.innerText))")
    assert totals and totals == game, (totals, game)
    errors.check()
    ctx.close()


#: The hint's box and the boxes it must leave in sight: the pegboard with its score line, and the opponent's seat.
_HINT_BOXES = """() => {
  const r = (sel) => { const e = document.querySelector(sel); if (!e) return null;
                       const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  return {hint: r('#hint'), board: r('.boardbox'), legend: r('.boardbox .legend'), opp: r('.cribbage .opp, .cribbage .seatbox:not(.me)')};
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_cribbage_hint_leaves_the_board_and_scores_in_sight_and_closes(
    server: str, browser: Any, size: tuple[int, int]
) -> None:
    width, height = size
    ctx = new_context(browser, width=width, height=height)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage")
    page.wait_for_selector(".cribbage .hand-card")
    assert wait_mine_or_over(page, ".cribbage")
    page.click("#hint-btn")
    page.wait_for_selector("#hint")
    shot(page, f"w9-words-hint-{width}x{height}", full=False)
    boxes = page.evaluate(_HINT_BOXES)
    assert boxes["board"] and boxes["legend"], boxes
    for part in ("board", "legend", "opp"):
        if boxes[part]:
            assert not _overlap(boxes["hint"], boxes[part]), (part, boxes)
    # a close button in the player's words closes it; Escape does too
    close = page.locator("#hint-close")
    assert close.get_attribute("aria-label") == "Close the hint"
    close.click()
    page.wait_for_selector("#hint", state="detached")
    page.click("#hint-btn")
    page.wait_for_selector("#hint")
    page.keyboard.press("Escape")
    page.wait_for_selector("#hint", state="detached")
    # closed, the hand is as it was: nothing chosen, the same cards
    assert page.locator(".hand-card").count() == 6
    errors.check()
    ctx.close()


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_on_the_phone_my_own_count_has_no_bubble_of_the_hand_before(server: str, browser: Any, lang: str) -> None:
    ctx = new_context(browser, width=390, height=844, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage .hand-card")
    checked = 0
    for data, legal in cribbage_turns(page, count="4", limit=60):
        if data["phase"] != "show" or not any(m.startswith("count") for m in legal):
            continue
        # I must count: the hand on the table is mine, and no bubble beside it speaks of another hand
        shown = page.eval_on_selector_all(
            ".cribbage .muggins .settled", "ss => ss.filter(s => s.getClientRects().length).map(s => s.innerText)"
        )
        if page.locator(".cribbage .muggins .settled").count():
            shot(page, f"w9-words-my-count-{lang}", full=False)
        assert shown == [], shown
        checked += page.locator(".cribbage .muggins .settled").count() > 0
        if checked >= 2:
            break
    assert checked >= 1, "no count of mine came after a settled count"
    errors.check()
    ctx.close()
