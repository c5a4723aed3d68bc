"""The page findings of the sixth fresh-user pass (issue #11), each checked in the real browser (Debian's Chromium
driven by Playwright) against the real server:

* keys act on an open dialog only: under the show summary (open over the next deal's hand) the number keys choose
  no hand card, Tab goes round the dialog's own controls, Enter presses its own button (Continue) and lays nothing
  away, Escape closes it; the lobby's Enter on the Cribbage tab leaves the focus on the tab; reopened in the next
  deal, the summary is called "Last deal's show";
* the show summary's cards are readable at the three sizes -- each card's corner (rank and suit, the left
  quarter of the card) in sight under the next, none cut by the dialog's scrolling box -- and no card flies over
  the open dialog (no taken card's copy in flight, no card of the dialog animated in from behind it);
* nothing jumps: the table's regions (hand, table, controls, opponents, scores) keep their boxes when the turn
  passes to the computer (the controls keep their room while the viewer waits) and when the keys list opens;
* a partnership (four players, partners opposite, spec §2.2) says who is who: the lobby's seats "Seat 3 — your
  partner", "Seat 2 — opponent" under "The other players" (and in Swedish), the table a "Your partner" chip on the
  partner's seat only; the lobby's checkboxes are drawn in the light scheme (a light box when unchecked) and the
  felt's gradient spans the whole long page, not the first screen;
* a Mulle rematch between two people: the invited player sees the offer at once, over the last round's score
  (above the dialog, not hidden by it), its button plays again; the game-over line says the viewer once, "du"
  inside a sentence; a spectator of the finished game is offered "Watch the rematch", a link to the new game.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from drivers import PLAYWRIGHT, PageErrors, create_game, new_context, play_cribbage_to_the_show_summary, root_data, shot
from test_web_table import HISTORY, PLAY_OUT, _game_id, _token
from web_layout import _RECTS, VIEWPORTS, at_rest, nothing_moved, regions

pytestmark = PLAYWRIGHT

_FOCUS_IN_SHOW = "() => !!document.activeElement?.closest('#show-panel')"


def test_keys_act_on_the_open_show_only(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1280, height=800, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    # the lobby: Enter on the Cribbage tab chooses it and the focus stays on the tab
    page.goto(server + "/")
    page.focus("#tab-cribbage")
    page.keyboard.press("Enter")
    page.wait_for_selector("#opt-cribbage-muggins")
    assert page.evaluate("document.activeElement?.id") == "tab-cribbage"
    create_game(page, server, "cribbage")
    play_cribbage_to_the_show_summary(page)
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    data = root_data(page, ".cribbage")
    assert data["phase"] == "discard" and data["mine"] == "1", data  # the summary is open over the next deal's hand
    assert page.evaluate(_FOCUS_IN_SHOW), "the open show does not have the focus"
    hand = page.locator(".hand-card").count()
    for n in range(1, hand + 1):  # a Cribbage hand of six: the number keys 1-6
        page.keyboard.press(str(n))
    assert page.locator(".hand-card.chosen").count() == 0, "the number keys chose cards behind the dialog"
    for _ in range(2 * page.locator("#show-panel button").count() + 1):
        page.keyboard.press("Tab")
        assert page.evaluate(_FOCUS_IN_SHOW), "Tab left the open dialog"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(_FOCUS_IN_SHOW), "Shift+Tab left the open dialog"
    page.focus("#show-close")
    page.keyboard.press("Enter")  # the dialog's own button: Continue
    page.wait_for_selector("#show-panel", state="detached")
    page.wait_for_timeout(300)
    after = root_data(page, ".cribbage")
    assert after["version"] == data["version"] and after["phase"] == "discard", "Enter under the dialog made a move"
    # opened again: Escape closes it; then the number keys choose cards again
    # the show summary reopened in the next deal is called what it is
    assert page.inner_text("#reopen-show") == "Last deal's show"
    page.click("#reopen-show")
    page.wait_for_selector("#show-panel")
    assert page.inner_text("#show-h") == "Last deal's show"
    page.keyboard.press("1")
    assert page.locator(".hand-card.chosen").count() == 0
    page.keyboard.press("Escape")
    page.wait_for_selector("#show-panel", state="detached")
    page.keyboard.press("1")
    assert page.locator(".hand-card.chosen").count() == 1
    errors.check()
    ctx.close()


#: Why the show's cards are not readable: a card cut by the scrolling box, a card's corner hidden by the next one,
#: a card flying over the dialog.
_SHOW_CARDS = """
() => {
  const out = [];
  const box = document.querySelector('#show-scroll').getBoundingClientRect();
  for (const fan of document.querySelectorAll('#show-panel .fan')) {
    const imgs = [...fan.querySelectorAll('img.card')];
    imgs.forEach((img, i) => {
      const r = img.getBoundingClientRect();
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`${img.dataset.card} cut: ${Math.round(r.left)}-${Math.round(r.right)} in ${Math.round(box.left)}-${Math.round(box.right)}`);
      const next = imgs[i + 1]?.getBoundingClientRect();
      if (next && next.left - r.left < 0.25 * r.width) out.push(`${img.dataset.card}: ${Math.round(next.left - r.left)} px of ${Math.round(r.width)} in sight`);
    });
  }
  const flying = document.querySelectorAll('body > img.ghost').length;
  if (flying) out.push(`${flying} cards flying over the dialog`);
  const moving = document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.target?.closest?.('.modal img.card'));
  if (moving.length) out.push(`${moving.length} cards of the dialog in flight`);
  return out;
}
"""


def test_show_cards_readable_and_nothing_flies_over_the_dialog(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1280, height=800)  # the moves animated (the default speed)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage")
    play_cribbage_to_the_show_summary(page)
    problems = page.evaluate(_SHOW_CARDS)  # at once, as the dialog opens
    assert not problems, problems
    for w, h in VIEWPORTS:
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        problems = page.evaluate(_SHOW_CARDS)
        assert not problems, f"at {w}x{h}: {problems}"
    errors.check()
    ctx.close()


#: Records the regions' boxes the first time the table is drawn with the computer to move (a state that lasts
#: only while the computer thinks), into window.__waiting.
_WATCH_WAITING = (
    """
() => {
  const rects = """
    + _RECTS.strip()
    + """;
  const obs = new MutationObserver(() => {
    if (document.querySelector('.cribbage')?.dataset.mine === '0' && !window.__waiting) { window.__waiting = rects(); obs.disconnect(); }
  });
  obs.observe(document.querySelector('.gamepage'), { subtree: true, childList: true, attributes: true });
}
"""
)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_nothing_jumps_when_the_turn_passes_or_the_keys_open(server: str, browser: Any, size: tuple[int, int]) -> None:
    ctx = new_context(browser, width=size[0], height=size[1], speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage")
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    at_rest(page)
    mine = regions(page)
    page.keyboard.press("?")
    page.wait_for_selector("#keys-overlay")
    nothing_moved(page, mine)  # the keys list opens over the page
    page.keyboard.press("Escape")
    page.wait_for_selector("#keys-overlay", state="detached")
    page.click(".hand-card >> nth=0")
    page.click(".hand-card >> nth=1")
    page.evaluate(_WATCH_WAITING)
    page.click("#discard")
    page.wait_for_function("() => window.__waiting")
    waiting = page.evaluate("() => window.__waiting")
    # the hand holds two cards fewer (laid away): its row is as high and where it was
    mine[".hand"], waiting[".hand"] = mine[".hand"][1::2], waiting[".hand"][1::2]
    moved = {k: (mine[k], waiting[k]) for k in mine if mine[k] != waiting[k]}
    assert not moved, f"the turn passing moved: {moved}"
    errors.check()
    ctx.close()


@pytest.mark.parametrize(
    ("lang", "legend", "partner", "opponent", "chip"),
    [
        ("en", "The other players", "your partner", "opponent", "Your partner"),
        ("sv", "De andra spelarna", "din partner", "motståndare", "Din partner"),
    ],
)
def test_partnership_says_who_is_the_partner(
    server: str, browser: Any, lang: str, legend: str, partner: str, opponent: str, chip: str
) -> None:
    ctx = new_context(browser, width=1280, height=800, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + "/")
    if lang == "sv":
        page.click("header .lang[lang=sv]")
    page.click("#tab-cribbage")
    page.wait_for_selector("#opt-cribbage-muggins")
    page.click("#players-4")
    page.wait_for_selector("#seat-3")
    assert page.inner_text("fieldset.opponents legend") == legend
    labels = [page.inner_text(f"label[for=seat-{s}]") for s in (1, 2, 3)]
    assert labels[1].endswith(f"— {partner}"), labels  # seat 3 sits opposite seat 1 (spec §2.2)
    assert labels[0].endswith(f"— {opponent}") and labels[2].endswith(f"— {opponent}"), labels
    # the checkboxes in the light scheme (an unchecked one a light box), the felt over the whole long page
    schemes = page.eval_on_selector_all("input[type=checkbox]", "els => els.map(e => getComputedStyle(e).colorScheme)")
    assert schemes and all(sc == "light" for sc in schemes), schemes
    felt = page.evaluate(
        "() => [getComputedStyle(document.documentElement).backgroundAttachment,"
        " document.documentElement.getBoundingClientRect().height, document.documentElement.scrollHeight, innerHeight]"
    )
    assert felt[0] != "fixed" and felt[1] >= felt[2] > felt[3], felt
    for s in (1, 2, 3):
        page.select_option(f"#seat-{s}", "bot:greedy")
    page.click("#create")
    page.wait_for_selector(".cribbage .seatbox[data-seat='2']")
    # the words each chip shows (its long or short form, as the layout has it), read from the styles: a chip read
    # while the table was being drawn gave both forms at once (innerText of a box not laid out is all its text)
    chips = page.evaluate(
        """() => Object.fromEntries([1, 2, 3].map((s) => [s, [...document.querySelectorAll(
          `.seatbox[data-seat='${s}'] .chip.partner`)].map((c) => [...c.childNodes]
          .filter((n) => n.nodeType === 3 || getComputedStyle(n).display !== 'none')
          .map((n) => n.textContent).join('').trim())]))"""
    )
    assert chips == {"1": [], "2": [chip], "3": []}, chips
    errors.check()
    ctx.close()


def test_mulle_rematch_offer_in_sight_and_the_spectator_follows(server: str, browser: Any) -> None:
    host_ctx = new_context(browser, width=1280, height=800, speed="off", name="Anna")
    guest_ctx = new_context(browser, width=1366, height=768, lang="sv", speed="off")
    guest_ctx.add_init_script("localStorage.setItem('kortbord.lang', 'sv');")
    watch_ctx = new_context(browser, width=1280, height=800, speed="off")
    host, guest, watcher = host_ctx.new_page(), guest_ctx.new_page(), watch_ctx.new_page()
    errors = [PageErrors(p) for p in (host, guest, watcher)]
    create_game(host, server, "mulle", options={"game_length": "single_round"}, seat1="human")
    host.wait_for_selector(".invite-url")
    url = host.input_value(".invite-url")
    gid = _game_id(host)
    guest.goto(url)
    guest.wait_for_function("() => !document.querySelector('#join-btn').disabled")
    guest.fill("#join-name", "Greta")
    guest.click("#join-btn")
    guest.wait_for_selector(".mulle .hand-card")
    watcher.goto(f"{server}/#/game/{gid}")
    watcher.wait_for_selector(".mulle")
    host.evaluate(PLAY_OUT, [gid, [_token(host, gid), _token(guest, gid)]])
    for page in (host, guest, watcher):
        page.wait_for_selector("#round-summary")  # the round's score first, the game-over panel behind it
    host.click("#summary-close")
    host.click("#rematch")
    host.wait_for_function("g => location.hash.startsWith('#/game/') && !location.hash.includes(g)", arg=gid)
    new_gid = _game_id(host)
    # Greta, her round's score still open: the offer in sight at once, above the dialog, not under it
    guest.wait_for_selector("#rematch-accept-now", state="visible")
    offer = guest.eval_on_selector(".offer-wrap .rematch-offer", "el => el.getBoundingClientRect().toJSON()")
    dialog = guest.eval_on_selector("#round-summary", "el => el.getBoundingClientRect().toJSON()")
    assert offer["top"] >= 0 and offer["bottom"] <= dialog["top"], (offer, dialog)
    assert "Anna" in guest.inner_text(".offer-wrap .rematch-offer")
    shot(guest, "w6-mulle-rematch-offer-over-score", full=False)
    # the game-over line: the viewer once, "du" inside a sentence
    guest.click("#summary-close")
    guest.wait_for_selector("#game-over", state="visible")
    result = guest.inner_text("#game-over .result")
    assert "Vinnare: Du" not in result and ", Du " not in result and not re.search(r": Du \d", result), result
    assert re.search(r"\bdu \d+", result), result
    assert "Anna" in guest.inner_text("#rematch-asked")
    # the spectator: a link to watch the rematch
    watcher.wait_for_selector("#watch-rematch-now", state="visible")
    watcher.click("#summary-close")
    watcher.wait_for_selector("#game-over #watch-rematch", state="visible")
    watcher.click("#watch-rematch")
    watcher.wait_for_function("g => location.hash.includes(g)", arg=new_gid)
    watcher.wait_for_selector(".mulle")
    guest.click("#rematch-accept")
    guest.wait_for_function("g => location.hash.includes(g)", arg=new_gid)
    assert len(host.evaluate(HISTORY, new_gid)) >= 1
    for e in errors:
        e.check()
    for c in (host_ctx, guest_ctx, watch_ctx):
        c.close()
