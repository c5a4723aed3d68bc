"""The page findings of the second fresh-user pass (issue #11), each checked in the real browser (Debian's Chromium
driven by Playwright) against the real server:

* the Mulle hint, asked with the whole aids line on (pile and twins), shows its whole text and its "Play it"
  button inside the viewport at 1366x768, 1280x800 and 390x844, and asking for it moves none of the table's regions;
* a build's tag with its takers ("can be taken by: ...") lies wholly inside the table, which does not scroll;
* on a phone, a settled Muggins count's explanation is wholly in sight above the respond or announce panel (not
  cut by the table's edge under it) while the player judges the next count;
* at the end of a game one dialog shows at a time (the last round's score, then the game-over panel); the game-over
  panel's heading and result are whole, Rematch and Back to the lobby in sight without scrolling, the post-game
  review inside it (no dialog over it), and the EN/SV switch above it takes the click; the lobby's list then says
  "Visa" for it, its date in Swedish, its lines aligned; the statistics fit the lobby's column and a phone, and
  the Muggins miscount note shows on the Cribbage tab only;
* the Swedish words: the Cribbage rules page says krubba/krubban, never crib/cribben; the keys dialog names the
  space bar "Mellanslag";
* the Cribbage lobby form, like Mulle's, comes back as it was when a game was started from it (after a reload);
* a show summary once closed (its button or Escape) stays closed when the language is switched or the page
  reloaded.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    PageErrors,
    choose_mulle_move,
    create_game,
    cribbage_turns,
    mulle_click_move,
    new_context,
    play_cribbage_to_the_show_summary,
    root_data,
    shot,
    wait_mine_or_over,
)
from web_layout import VIEWPORTS, ask_hint, at_rest, nothing_moved, regions

pytestmark = PLAYWRIGHT


#: Why the hint is not wholly in view: its text cut (clamped or hidden), its button outside the viewport.
_HINT_PROBLEMS = """
() => {
  const out = [], vw = innerWidth, vh = innerHeight;
  const text = document.querySelector('#hint .hint-text'), play = document.querySelector('#hint-play');
  if (!text || !play) return ['no hint'];
  if (text.scrollHeight > text.clientHeight + 1 || text.scrollWidth > text.clientWidth + 1) out.push(`hint text cut: ${text.scrollWidth}x${text.scrollHeight} in ${text.clientWidth}x${text.clientHeight}`);
  for (const el of [text, play, document.querySelector('#hint')]) {
    const r = el.getBoundingClientRect();
    if (r.width < 8 || r.left < 0 || r.top < 0 || r.right > vw + 1 || r.bottom > vh + 1) out.push(`${el.id || el.className} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return out;
}
"""


def test_mulle_hint_whole_and_nothing_jumps(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    page.wait_for_function("() => document.querySelector('.mulle')?.dataset.mine === '1'")
    page.wait_for_selector("#aid-pile")
    page.wait_for_selector("#aid-twins")
    for w, h in sorted(VIEWPORTS, reverse=True):  # 1366 first: no hint yet
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        before = regions(page)
        asked = page.locator("#hint").count() == 0
        if asked:
            page.click("#hint-btn")
            page.wait_for_selector("#hint-play")
            at_rest(page)
        problems = page.evaluate(_HINT_PROBLEMS)
        assert not problems, f"at {w}x{h}: {problems}"
        if asked:
            nothing_moved(page, before)
        shot(page, f"w5-hint-{w}x{h}", full=False)
    errors.check()
    ctx.close()


#: Widths at which most Mulle hints need more than the slot's two lines at its usual size (a tablet, a small
#: window; in CI a hint with three packets, in Swedish, needed three at 1280x800): the hint must then still be whole.
_NARROW_SLOT = ((1024, 768), (768, 1024), (700, 800))


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_mulle_long_hint_whole_in_its_slot(server: str, browser: Any, lang: str) -> None:
    """A hint longer than the wide screen's two-line slot is set smaller, or opens down over what is below, but its
    words are never cut, its button stays in sight and asking for it moves none of the table's regions (a hint of
    three lines was clamped to two at 1280x800 on some deals, seen in CI)."""
    ctx = new_context(browser, width=1280, height=800)
    ctx.add_init_script(f"localStorage.setItem('kortbord.lang', '{lang}');")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    page.wait_for_function("() => document.querySelector('.mulle')?.dataset.mine === '1'")
    page.wait_for_selector("#aid-pile")
    longer = 0
    for w, h in (*_NARROW_SLOT, (1280, 800)):
        page.set_viewport_size({"width": w, "height": h})
        if page.locator("#hint").count():
            page.click("#hint-close")
        before = ask_hint(page)
        problems = page.evaluate(_HINT_PROBLEMS)
        assert not problems, f"at {w}x{h}: {problems}"
        nothing_moved(page, before)
        # the words at the slot's usual size: more than two lines is what this test is about
        lines = page.eval_on_selector(
            "#hint .hint-text",
            "t => { const c = t.cloneNode(true); c.style.cssText = 'position:absolute;visibility:hidden;font-size:.84rem;"
            "line-height:1.15;display:block;width:' + t.clientWidth + 'px'; t.parentElement.append(c);"
            " const n = Math.round(c.scrollHeight / (parseFloat(getComputedStyle(c).fontSize) * 1.15)); c.remove(); return n; }",
        )
        longer += lines > 2
        shot(page, f"w5-long-hint-{lang}-{w}x{h}", full=False)
    assert longer, "no hint needed more than the slot's two lines at its usual size: the test checked nothing new"
    errors.check()
    ctx.close()


#: The build tags that stick out of the table's box, or the table scrolling (a tag below its bottom edge).
_TAGS_OUT = """
() => {
  const t = document.querySelector('.tablearea'), tr = t.getBoundingClientRect(), out = [];
  if (t.scrollHeight > t.clientHeight + 1) out.push(`the table scrolls: ${t.scrollHeight} > ${t.clientHeight}`);
  for (const el of document.querySelectorAll('.buildtag')) {
    const r = el.getBoundingClientRect();
    if (r.top < tr.top - 1 || r.bottom > tr.bottom + 1 || r.left < tr.left - 1 || r.right > tr.right + 1) out.push(`${el.textContent} at ${Math.round(r.top)}-${Math.round(r.bottom)} outside ${Math.round(tr.top)}-${Math.round(tr.bottom)}`);
  }
  return out;
}
"""


def test_build_takers_inside_the_table(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    for turn in range(40):  # build whenever one can, until a build shows its takers
        if not wait_mine_or_over(page, ".mulle"):
            break
        page.wait_for_timeout(300)  # the advice (takers) after the state
        if page.locator(".buildtag .takers").count():
            break
        legal = json.loads(page.eval_on_selector(".mulle", "e => e.dataset.legal"))
        builds = [m for m in legal if m.startswith("B ")]
        mulle_click_move(page, builds[0] if builds else choose_mulle_move(legal, turn))
    assert page.locator(".buildtag .takers").count(), "no build with its takers in 40 turns"
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        problems = page.evaluate(_TAGS_OUT)
        assert not problems, f"at {w}x{h}: {problems}"
        shot(page, f"w5-takers-{w}x{h}", full=False)
    errors.check()
    ctx.close()


#: The settled counts' boxes not wholly in sight: cut by a scrolling ancestor (the table above the controls).
_SETTLED_CUT = """
() => {
  const out = [];
  for (const s of document.querySelectorAll('.settled')) {
    const r = s.getBoundingClientRect();
    if (r.height < 1) continue;  // an older one, folded away on a phone
    let t = 0, b = innerHeight;
    for (let a = s.parentElement; a; a = a.parentElement) {
      if (getComputedStyle(a).overflowY === 'visible') continue;
      const ar = a.getBoundingClientRect();
      t = Math.max(t, ar.top); b = Math.min(b, ar.bottom);
    }
    if (r.top < t - 1 || r.bottom > b + 1) out.push(`${s.querySelector('h3')?.textContent}: ${Math.round(r.top)}-${Math.round(r.bottom)} in ${Math.round(t)}-${Math.round(b)}`);
  }
  return out;
}
"""


@pytest.mark.parametrize("lang", ["sv", "en"])
def test_phone_settled_count_in_sight_over_the_panel(server: str, browser: Any, lang: str) -> None:
    ctx = new_context(browser, width=390, height=844, lang=lang, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    seen = 0
    for data, _legal in cribbage_turns(page):
        if data["phase"] == "show" and page.locator(".settled").count():
            at_rest(page)
            shot(page, f"w5-settled-{lang}-{seen}", full=False)
            problems = page.evaluate(_SETTLED_CUT)
            assert not problems, problems
            seen += 1
            if seen >= 3:
                break
    assert seen, "no settled count while judging the next"
    errors.check()
    ctx.close()


#: The game-over panel's problems: a part cut or outside the viewport, the review not in sight, the language switch
#: under the dim background.
_OVER_PROBLEMS = """
() => {
  const out = [], vw = innerWidth, vh = innerHeight;
  const inView = (sel) => {
    const el = document.querySelector(sel);
    if (!el) return out.push(`${sel}: missing`);
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) out.push(`${sel} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
    if (!el.contains(hit)) out.push(`${sel} covered by ${hit?.tagName}.${hit?.className}`);
  };
  for (const sel of ['#over-h', '#game-over .result', '#back-to-lobby', 'header .lang[lang=sv]', 'header .lang[lang=en]']) inView(sel);
  if (document.querySelector('#rematch')) inView('#rematch');
  const res = document.querySelector('#game-over .result');
  if (res && res.scrollHeight > res.clientHeight + 1) out.push('the result is cut');
  if (document.querySelector('#review') && !document.querySelector('#game-over #review')) out.push('the review is outside the game-over panel');
  if (vw > 900 && document.querySelector('#game-over #review')) inView('#game-over #review h3');
  return out;
}
"""


_STATS_CUT = """
() => [...document.querySelectorAll('table.stats')].flatMap((t) => {
  const p = t.closest('.stats-panel'), tr = t.getBoundingClientRect(), pr = p.getBoundingClientRect();
  const right = pr.right - parseFloat(getComputedStyle(p).paddingRight);
  return tr.right > right + 1 || p.scrollWidth > p.clientWidth + 1 ? [`${t.id}: ${Math.round(tr.right)} > ${Math.round(right)}`] : [];
})
"""


def test_game_over_one_dialog_at_a_time(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    for turn in range(400):
        if not wait_mine_or_over(page, ".mulle"):
            break
        if page.locator("#summary-close").count():  # a round's score between rounds
            page.click("#summary-close")
            continue
        data = root_data(page, ".mulle")
        mulle_click_move(page, choose_mulle_move(json.loads(data["legal"]), turn))
        page.wait_for_function(
            "v => document.querySelector('#game-over') || document.querySelector('.mulle')?.dataset.version !== v",
            arg=data["version"],
        )
    page.wait_for_selector("#round-summary")  # the last round's score first ...
    at_rest(page)
    assert page.eval_on_selector("#game-over", "el => el.getClientRects().length") == 0, "two dialogs at once"
    shot(page, "w5-over-1-round-score", full=False)
    page.click("#summary-close")  # ... then the game over
    page.wait_for_selector("#game-over", state="visible")
    # the review has come (the strong computer replays the game: slow on two shared cores)
    page.wait_for_selector("#game-over #review li, #game-over #review p:not(.muted)", timeout=180_000)
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        problems = page.evaluate(_OVER_PROBLEMS)
        assert not problems, f"at {w}x{h}: {problems}"
        shot(page, f"w5-over-2-{w}x{h}", full=False)
    page.set_viewport_size({"width": 1366, "height": 768})
    page.click("header .lang[lang=sv]")
    page.wait_for_function("() => document.querySelector('#over-h')?.textContent === 'Partiet är slut'")
    assert not page.evaluate(_OVER_PROBLEMS)
    # the lobby's list in Swedish: the finished game is looked at ("Visa"), its date in Swedish, the lines aligned
    page.click("header .brand")
    page.wait_for_selector("ul.saved .status.over")
    row = page.inner_text("ul.saved li")
    assert "Visa" in row and "Fortsätt\n" not in row + "\n", row
    assert re.search(r"\b\d{1,2} [a-zåäö]{3,4}\.? \d{4},? \d{2}:\d{2}\b", row), row
    lefts = page.eval_on_selector_all(
        "ul.saved li .what > *", "els => els.map(e => Math.round(e.getBoundingClientRect().left))"
    )
    assert len(set(lefts)) == 1, lefts
    # the statistics fit the lobby's column and a phone (no column cut); the Muggins note only on the Cribbage tab
    page.wait_for_selector("#stats-browser tr[data-game='mulle']")
    for w, h in ((1366, 768), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        cut = page.evaluate(_STATS_CUT)
        assert not cut, f"at {w}x{h}: {cut}"
    page.click("#tab-mulle")
    assert not page.locator("#miscounts").is_visible()
    page.click("#tab-cribbage")
    page.wait_for_selector("#opt-cribbage-muggins")
    # the note is Muggins's: by the level choice once Muggins is on (w7 re-check finding 10)
    page.set_checked("#opt-cribbage-muggins", True)
    page.wait_for_selector(".opponents #miscounts", state="visible")
    errors.check()
    ctx.close()


def test_closed_show_stays_closed_after_language_switch(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage")
    play_cribbage_to_the_show_summary(page)
    page.click("#show-close")
    for lang in ("sv", "en"):
        page.click(f"header .lang[lang={lang}]")
        page.wait_for_function("l => document.documentElement.lang === l", arg=lang)
        page.wait_for_selector(".cribbage")
        page.wait_for_timeout(300)
        assert page.locator("#show-panel").count() == 0, f"the closed show reopened after switching to {lang}"
    page.click("#reopen-show")  # opened again by hand, closed with Escape
    page.wait_for_selector("#show-panel")
    page.keyboard.press("Escape")
    assert page.locator("#show-panel").count() == 0
    page.reload()
    page.wait_for_selector(".cribbage")
    page.wait_for_timeout(500)
    assert page.locator("#show-panel").count() == 0, "the closed show reopened after a reload"
    page.click("header .lang[lang=sv]")
    page.wait_for_timeout(300)
    assert page.locator("#show-panel").count() == 0
    errors.check()
    ctx.close()


def test_swedish_words_rules_page_and_keys(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768, lang="sv")
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + "/#/rules/cribbage")
    page.wait_for_selector("h1")
    text = page.inner_text("main")
    assert "krubba" in text, text
    assert not re.search(r"\bcrib(?:ben)?\b", text), re.findall(r".{30}\bcrib(?:ben)?\b.{30}", text)
    create_game(page, server, "cribbage")
    page.wait_for_selector(".cribbage .hand-card")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-overlay")
    keys = page.inner_text("#keys-overlay")
    assert "Mellanslag" in keys and "Space" not in keys, keys
    shot(page, "w5-sv-keys", full=False)
    errors.check()
    ctx.close()


def test_cribbage_form_remembered(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True, "target": 61}, seat1="bot:casual")
    page.wait_for_selector(".cribbage")
    create_game(page, server, "mulle", options={"kryp": True})
    page.wait_for_selector(".mulle")
    page.goto(server + "/")
    page.reload()
    for game, checks in (("cribbage", {"muggins": True, "target": "61"}), ("mulle", {"kryp": True})):
        page.click(f"#tab-{game}")
        page.wait_for_selector(f"#opt-{game}-{'kryp' if game == 'mulle' else 'muggins'}")
        for key, want in checks.items():
            sel = f"#opt-{game}-{key}"
            got = page.is_checked(sel) if isinstance(want, bool) else page.input_value(sel)
            assert got == want, (game, key, got)
        if game == "cribbage":
            assert page.input_value("#seat-1") == "bot:casual"
    errors.check()
    ctx.close()
