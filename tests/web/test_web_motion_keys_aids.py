"""The web table's moving cards, keys, aids and statistics (issue #11 items 2, 6, 7, 8), end to end in Chromium.

* a card that moves is animated (a Web Animation runs on its element), and no card is under
  ``prefers-reduced-motion: reduce``; the other player's last move stays marked until we act; the banner shows
  the latest event; a sign shows while the computer thinks (the server here gives the computer a short delay);
* keyboard-only play of both games: digits choose cards, Enter performs the proposed action, the count box takes
  the focus when we must count; ``?`` opens the shortcuts;
* the hint is a legal move; the discard advisor's hand averages equal a brute force over the 46 starters scored
  by the rules text (``tests/server/brute_cribbage.py``);
* a finished game counts in the lobby's statistics.

Screenshots go to ``artifacts/screenshots/`` (``aids-*``, ``keys-*``, ``motion-*``).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from drivers import (
    CARD,
    PLAYWRIGHT,
    PageErrors,
    create_game,
    free_port,
    root_data,
    server_command,
    serving,
    shots,
    wait_mine_or_over,
    wait_next_state,
)

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from brute_cribbage import average_show

pytestmark = PLAYWRIGHT
sync_api = pytest.importorskip("playwright.sync_api")

#: Counts every animation started on a card element (``window.__cardAnims``).
COUNT_ANIMATIONS = """
window.__cardAnims = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  if (this.matches && this.matches('img.card')) window.__cardAnims++;
  return animate.apply(this, args);
};
"""
RUNNING_CARD_ANIMATION = """() => document.getAnimations().some(a => a.playState === 'running'
    && a.effect && a.effect.target && a.effect.target.matches && a.effect.target.matches('img.card'))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server; the computer waits 0.3 s before each move so its thinking can be seen."""
    tmp = tmp_path_factory.mktemp("web-aids")
    port = free_port()
    cmd = server_command(port, tmp / "t.db")
    if "--bot-delay" in cmd:
        cmd[cmd.index("--bot-delay") + 1] = "0.3"
    with serving(cmd, port, tmp) as url:
        yield url


def _page(browser: Any, *, lang: str = "en", speed: str = "slow", reduced: bool = False, name: str = "") -> Any:
    ctx = browser.new_context(
        viewport={"width": 1280, "height": 800}, locale="en-GB", reduced_motion="reduce" if reduced else "no-preference"
    )
    ctx.set_default_timeout(60000)
    settings = json.dumps({"speed": speed})
    ctx.add_init_script(
        f"localStorage.setItem('kortbord.pace', '0'); localStorage.setItem('kortbord.lang', '{lang}');"
        f"localStorage.setItem('kortbord.settings', '{settings}'); localStorage.setItem('kortbord.name', '{name}');"
        + COUNT_ANIMATIONS
    )
    return ctx.new_page()


def _mulle_keys(page: Any, move: str) -> None:
    """Play a Mulle move with the keyboard only: the hand card's digit, the arrow keys and Space for its table
    cards, then Enter."""
    hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
    card = move.split()[1].split("+")[0]
    page.keyboard.press(str(hand.index(card) + 1))
    wanted: list[str] = []
    if move.startswith("C "):
        wanted = [f"card:{c}" for c in re.findall(CARD, move.split(None, 2)[2])]
        wanted += [f"build:{b}" for b in re.findall(r"\[(\w+)\]", move)]
    for want in wanted:
        if page.locator("[data-row='table']:focus").count() == 0:
            page.keyboard.press("ArrowUp")
        for _ in range(30):
            at = page.evaluate(
                "() => { const e = document.activeElement; return e.dataset.build ? 'build:' + e.dataset.build :"
                " 'card:' + e.dataset.code + (e.classList.contains('chosen') ? '*' : ''); }"
            )
            if at == want:
                break
            page.keyboard.press("ArrowRight")
        else:
            pytest.fail(f"the keyboard does not reach {want}")
        page.keyboard.press("Space")
    # Enter performs the proposed move; when the cards make more than one, Tab reaches ours first.
    for _ in range(20):
        if page.locator(f".actions .move.legal[data-move='{move}']").count() == 0:
            pytest.fail(f"the page does not offer {move}")
        first = page.get_attribute(".actions .move.legal", "data-move")
        focused = page.evaluate("() => document.activeElement?.dataset?.move ?? null")
        if focused == move or (first == move and focused is None):
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def test_cards_move_the_last_move_is_marked_and_the_computer_thinks(server: str, browser: Any) -> None:
    page = _page(browser)
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    seen_thinking = False
    marked_turns = 0
    cleared = 0
    # Six turns at least; more while the computer has only captured (a capture marks its seat, not a card), so
    # that a deal where it captures five times running does not fail the test (twenty turns stay in one round).
    for turn in range(20):
        if turn >= 6 and marked_turns >= 1:
            break
        page.wait_for_function("() => document.querySelector('.mulle')?.dataset.mine === '1'")
        if turn > 0:
            # The computer's move: its cards (or its seat, after a capture) are marked, the banner says it.
            marks = page.locator(".mulle img.card.lastmove").count() + page.locator(".seatbox.lastmover").count()
            assert marks >= 1
            marked_turns += page.locator(".mulle img.card.lastmove").count() > 0
            newest = page.inner_text(".log-list li:first-child")
            newest = newest.strip()
            # the banner (#last-event) says the newest line of the log, as a sentence
            assert page.inner_text("#last-event").strip() == newest[:1].upper() + newest[1:]
        if turn == 1:
            shots(page, "motion-mulle-marked")
        legal = json.loads(root_data(page, ".mulle")["legal"])
        trails = [m for m in legal if m.startswith("T ")]
        move = trails[0] if trails else legal[0]
        before = root_data(page, ".mulle")["version"]
        anims = page.evaluate("window.__cardAnims")
        _mulle_keys(page, move)
        page.wait_for_function(RUNNING_CARD_ANIMATION, timeout=5000)  # the played card travels
        wait_next_state(page, ".mulle", before)
        assert page.evaluate("window.__cardAnims") > anims
        # Our move clears the marks of the computer's move (looked at in one go, while the page still shows our
        # move: the computer waits 0.3 s before its own).
        version, cards, seats = page.evaluate(
            "() => [Number(document.querySelector('.mulle').dataset.version),"
            " document.querySelectorAll('.mulle img.card.lastmove').length,"
            " document.querySelectorAll('.seatbox.lastmover').length]"
        )
        if version == int(before) + 1:
            cleared += 1
            assert (cards, seats) == (0, 0)
        try:  # the sign, with the computer's seat marked, while it is to move (checked in one look)
            page.wait_for_function(
                "() => { const e = document.querySelector('#thinking'); return e && !e.hidden"
                " && e.textContent.includes('thinking') && document.querySelectorAll('.seatbox.thinking').length === 1; }",
                timeout=3000,
            )
            seen_thinking = True
        except sync_api.TimeoutError:
            pass
    assert seen_thinking, "the thinking sign never showed while the computer was to move"
    assert marked_turns >= 1, "no computer move left a marked card in twenty turns"
    assert cleared >= 1, "the page never showed our move alone"
    errors.check()
    page.context.close()


def test_no_card_moves_under_reduced_motion(server: str, browser: Any) -> None:
    page = _page(browser, reduced=True)
    errors = PageErrors(page)
    create_game(page, server, "cribbage")
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    before = root_data(page, ".cribbage")["version"]
    page.keyboard.press("1")
    page.keyboard.press("2")
    page.keyboard.press("Enter")
    wait_next_state(page, ".cribbage", before)
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    page.wait_for_timeout(400)
    assert page.evaluate("window.__cardAnims") == 0
    assert not page.evaluate(RUNNING_CARD_ANIMATION)
    errors.check()
    page.context.close()


def _cribbage_turn_by_keys(page: Any, counts: list[bool]) -> None:
    """One turn of Cribbage with the keyboard only."""
    data = root_data(page, ".cribbage")
    legal = json.loads(data["legal"])
    phase = data["phase"]
    if phase == "discard":
        page.keyboard.press("1")
        page.keyboard.press("2")
        page.keyboard.press("Enter")
    elif phase == "play":
        hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
        cards = [m for m in legal if m != "go"]
        if "go" in legal:
            page.keyboard.press("Enter")  # the proposed action: go
        elif len(cards) == 1:
            page.keyboard.press("Enter")  # nothing chosen: Enter chooses the card (the focused or the only one)
            page.wait_for_selector(".cribbage .hand-card.chosen")
            page.keyboard.press("Enter")  # and plays it
        else:
            page.keyboard.press(str(hand.index(cards[0]) + 1))  # a digit chooses the card
            page.wait_for_selector(f".cribbage .hand-card.chosen[data-code='{cards[0]}']")
            page.keyboard.press("Enter")  # Enter plays the chosen card
    elif any(m.startswith("count") for m in legal):
        # The count box has the focus: type the number, Enter.
        page.wait_for_function("() => document.activeElement?.id === 'count-input'")
        counts.append(True)
        page.keyboard.type("0")
        page.keyboard.press("Enter")
    elif "accept" in legal:
        page.keyboard.press("Enter")
    else:
        pytest.fail(f"unexpected turn: {phase} {legal}")


def test_keyboard_only_cribbage_with_muggins_to_the_end_counts_in_the_statistics(server: str, browser: Any) -> None:
    page = _page(browser, speed="fast", name="Kim")
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True, "target": 61})
    page.wait_for_selector(".cribbage")
    page.keyboard.press("?")
    page.wait_for_selector("#keys-overlay")
    assert "Enter" in page.inner_text("#keys-overlay")
    shots(page, "keys-overlay")
    page.keyboard.press("Escape")
    assert page.locator("#keys-overlay").count() == 0
    counts: list[bool] = []
    steps = 0
    while wait_mine_or_over(page, ".cribbage"):
        steps += 1
        assert steps < 1500, "the game does not end"
        if page.locator("#show-close").count():
            page.keyboard.press("Enter")  # Enter closes the show
            continue
        before = root_data(page, ".cribbage")["version"]
        _cribbage_turn_by_keys(page, counts)
        wait_next_state(page, ".cribbage", before)
    assert counts, "we never counted a hand"
    page.wait_for_selector("#review")
    shots(page, "aids-cribbage-review")
    page.goto(server + "/")
    page.wait_for_selector("#stats-browser")
    row = page.locator("#stats-browser tr[data-game='cribbage']")
    assert row.count() == 1
    assert row.locator(".played").inner_text() == "1"
    page.wait_for_selector("#stats-server")  # the server's, for the name we played under
    assert page.locator("#stats-server tr[data-game='cribbage'] .played").inner_text() == "1"
    page.wait_for_selector("#miscounts", state="attached")
    shots(page, "aids-lobby-statistics")
    errors.check()
    page.context.close()


def test_keyboard_only_mulle_deal(server: str, browser: Any) -> None:
    page = _page(browser, lang="sv", speed="fast")
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    for _ in range(8):  # a whole first deal: eight cards each
        if not wait_mine_or_over(page, ".mulle"):
            break
        if page.locator("#summary-close").count():
            page.keyboard.press("Enter")
            continue
        legal = json.loads(root_data(page, ".mulle")["legal"])
        caps = [m for m in legal if m.startswith("C ")]
        trails = [m for m in legal if m.startswith("T ")]
        move = caps[0] if caps else trails[0] if trails else legal[0]
        if move[0] not in "CT":
            pytest.skip(f"only builds are legal here ({move}); the keyboard path of builds is the capture's")
        before = root_data(page, ".mulle")["version"]
        _mulle_keys(page, move)
        wait_next_state(page, ".mulle", before)
    errors.check()
    page.context.close()


def test_hint_and_discard_advisor(server: str, browser: Any) -> None:
    page = _page(browser)
    errors = PageErrors(page)
    create_game(page, server, "cribbage", seat1="bot:strong")
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    # The discard advisor is an aid the player asks for: off until switched on in the settings (issue #11 item 7)
    page.wait_for_selector("#hint-btn")
    page.wait_for_timeout(500)  # time for advice the page should not have asked for
    assert page.locator("#advisor-box").count() == 0
    page.keyboard.press("s")
    page.wait_for_selector("#settings-panel")
    assert not page.is_checked("#set-aid-advisor")
    page.check("#set-aid-advisor")
    page.keyboard.press("Escape")
    page.wait_for_selector("#advisor-box")
    page.click("#advisor-box summary")
    hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
    assert len(hand) == 6
    rows = page.eval_on_selector_all(
        "#advisor tbody tr", "els => els.map(e => [e.dataset.discard, Number(e.dataset.hand)])"
    )
    assert len(rows) == 15
    for discard, shown in rows:
        kept = [c for c in hand if c not in discard.split()]
        assert shown == pytest.approx(average_show(kept, hand), abs=1e-4), discard
    page.keyboard.press("h")
    page.wait_for_selector("#hint-play")
    move = page.get_attribute("#hint-play", "data-move")
    assert move in json.loads(root_data(page, ".cribbage")["legal"])
    for sym in re.findall(r"(10|[2-9JQKA])([♠♥♦♣])", page.inner_text("#hint .hint-text")):
        code = ("T" if sym[0] == "10" else sym[0]) + {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[sym[1]]
        assert code in hand, code  # a discard hint names only our own cards
    shots(page, "aids-cribbage-hint-advisor")
    before = root_data(page, ".cribbage")["version"]
    page.keyboard.press("Enter")  # Enter plays the hint's move
    wait_next_state(page, ".cribbage", before)
    thrown = move.split()[1:]
    left = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
    assert sorted(left) == sorted(c for c in hand if c not in thrown)
    # Each aid is switched in the settings (S), kept in this browser.
    page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
    assert page.locator("#hint-btn").count() == 1
    page.keyboard.press("s")
    page.wait_for_selector("#settings-panel")
    page.uncheck("#set-aid-hint")
    page.select_option("#set-speed", "off")
    shots(page, "aids-settings")
    page.keyboard.press("Escape")
    assert page.locator("#settings-panel").count() == 0
    assert page.locator("#hint-btn").count() == 0
    saved = json.loads(page.evaluate("localStorage.getItem('kortbord.settings')"))
    assert saved["speed"] == "off" and saved["aids"]["hint"] is False
    errors.check()
    page.context.close()


def test_under_muggins_the_show_hint_gives_no_count(server: str, browser: Any) -> None:
    """The fresh user's finding ("Korten är värda 8: meddela 8" in the Muggins show): with Muggins on, counting is
    the player's task (Cribbage spec §2.10), so the hint there names no count and offers no move to play."""
    page = _page(browser, lang="sv", speed="off")
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage")
    counts: list[bool] = []
    for _ in range(200):
        assert wait_mine_or_over(page, ".cribbage"), "the first show never came"
        if page.locator("#show-close").count():
            page.keyboard.press("Enter")
            continue
        data = root_data(page, ".cribbage")
        if data["phase"] == "show" and any(m.startswith("count") for m in json.loads(data["legal"])):
            break
        _cribbage_turn_by_keys(page, counts)
        wait_next_state(page, ".cribbage", data["version"])
    page.click("#hint-btn")  # (the count box has the focus: a key would be typed into it)
    page.wait_for_selector("#hint")
    text = page.inner_text("#hint")
    assert "muggins" in text.lower() and not re.search(r"\d", text), text
    assert page.locator("#hint-play").count() == 0
    shots(page, "aids-muggins-show-hint")
    errors.check()
    page.context.close()
