"""The Mulle phone findings of the w7 re-check (issue #11), each checked in the real browser (Debian's Chromium driven
by Playwright, a 390x844 touch phone) against the real server:

* the dotted frame of a card whose twin is unseen lies outside its face, off the corner's rank and suit (finding 1);
* the ☰ menu closes on a tap outside it (on the felt, on a hand card -- which the tap still chooses), on choosing
  an item and on Escape (finding 2: it stayed open over the banner);
* the "Båt!" badge of the last deal says what it means on a tap (a phone has no hover for its tooltip): the banner
  names the last deal (finding 4);
* a capture's move button lists its cards as the log does, "A♥, 2♦ och K♦" (finding 12: "Ta in Q♠ bygget på 12").
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from drivers import (
    CHROMIUM,
    PageErrors,
    browser,
    close_modals,
    create_game,
    mulle_click_move,
    root_data,
    server,
    shot,
    wait_mine_or_over,
    wait_next_state,
)
from web_layout import at_rest

__all__ = ["browser", "server"]  # fixtures used by name

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.slow,
]


def _phone(browser: Any, lang: str = "sv") -> Any:
    """A 390x844 touch phone (no mouse, no keyboard hints) with the page's language and the quick pace fixed."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB", has_touch=True, is_mobile=True)
    ctx.set_default_timeout(60000)
    ctx.add_init_script(
        "localStorage.setItem('kortbord.pace', '0');"
        f" localStorage.setItem('kortbord.lang', '{lang}');"
        " localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));"
    )
    return ctx


def _menu_open(page: Any) -> bool:
    return bool(page.evaluate("() => document.querySelector('#game-menu').open"))


def _open_menu(page: Any) -> None:
    page.tap("#menu-btn")
    page.wait_for_function("() => document.querySelector('#game-menu').open")
    assert page.locator("#menu-lobby").is_visible()


# ----------------------------------------------------------------------------------------------------- finding 2
def test_phone_menu_closes_outside_on_escape_and_on_an_item(server: str, browser: Any) -> None:
    ctx = _phone(browser)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    assert wait_mine_or_over(page, ".mulle")
    close_modals(page)
    at_rest(page)
    # finding 1: the twin-unseen frame lies outside the card's face (the corner's rank and suit inside it)
    offsets = page.evaluate(
        "() => [...document.querySelectorAll('img.card.twin-unseen')].map((i) => parseFloat(getComputedStyle(i).outlineOffset))"
    )
    assert offsets and min(offsets) >= 0, offsets
    # a tap on the felt closes it
    _open_menu(page)
    shot(page, "w8-menu-open", full=False)
    box = page.locator(".tablearea").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] - 10)
    page.wait_for_function("() => !document.querySelector('#game-menu').open")
    # a tap on a hand card closes it, and the card is chosen all the same
    _open_menu(page)
    card = page.locator(".hand-card").first.get_attribute("data-code")
    page.tap(f".hand-card[data-code='{card}']")
    page.wait_for_function("() => !document.querySelector('#game-menu').open")
    page.wait_for_selector(f".hand-card.chosen[data-code='{card}']")
    shot(page, "w8-menu-closed-card-chosen", full=False)
    # a tap inside the menu (not on an item) keeps it open; Escape closes it
    _open_menu(page)
    box = page.locator("#game-menu .menu-list").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] - 4, box["y"] + 3)
    assert _menu_open(page)
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('#game-menu').open")
    assert page.locator(f".hand-card.chosen[data-code='{card}']").count() == 1  # Escape closed only the menu
    # choosing an item closes it (the settings dialog opens)
    _open_menu(page)
    page.tap("#menu-settings")
    page.wait_for_selector("#settings-close")
    assert not _menu_open(page)
    errors.check()
    ctx.close()


# ----------------------------------------------------------------------------------------------------- finding 4
def _play_from_the_list(page: Any, legal: list[str]) -> None:
    """Play a trail if there is one, else a move of the hand card with the fewest moves, by tapping the card and
    then the move's button (the phone's moves sheet can lie over the table's cards in a four-player game)."""
    trails = [m for m in legal if m.startswith("T ")]
    if trails:
        move = trails[0]
    else:
        counts: dict[str, list[str]] = {}
        for m in legal:
            counts.setdefault(m.split()[1].split("+")[0], []).append(m)
        move = min(counts.values(), key=len)[0]
    page.tap(f".hand-card[data-code='{move.split()[1].split('+')[0]}']")
    page.locator(f".move[data-move='{move}']").first.tap()


@pytest.mark.parametrize(("lang", "words"), [("sv", "sista given"), ("en", "last deal")])
def test_baat_badge_says_the_last_deal_on_a_tap(server: str, browser: Any, lang: str, words: str) -> None:
    ctx = _phone(browser, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    # four players: three deals of 8 cards a hand from the 104 less the table's 8 (spec §2.2), the last one soon
    create_game(page, server, "mulle", options={"game_length": "single_round"}, players=4)
    turns = 0
    while wait_mine_or_over(page, ".mulle"):
        close_modals(page)
        if page.locator("#baat").count():
            break
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        _play_from_the_list(page, legal)
        wait_next_state(page, ".mulle", data["version"])
        turns += 1
        assert turns < 30, "no last deal in 30 turns"
    at_rest(page)
    badge = page.locator("#baat")
    assert badge.is_visible()
    # on the phone the badge says "Båt!" only; its meaning comes on a tap, in the banner
    assert words not in badge.inner_text().lower()
    page.tap("#baat")
    page.wait_for_function("w => document.querySelector('#last-event').innerText.toLowerCase().includes(w)", arg=words)
    shot(page, f"w8-baat-tapped-{lang}", full=False)
    errors.check()
    ctx.close()


# ---------------------------------------------------------------------------------------------------- finding 12
_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _short(code: str) -> str:
    return ("10" if code[0] == "T" else code[0]) + _SUIT[code[1]]


def _listed(items: list[str], word: str) -> str:
    """``items`` as a sentence lists them: "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


@pytest.mark.parametrize(("lang", "capture", "word"), [("sv", "Ta in", "och"), ("en", "Capture", "and")])
def test_capture_buttons_list_cards_with_and(server: str, browser: Any, lang: str, capture: str, word: str) -> None:
    ctx = _phone(browser, lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    seen = 0
    turns = 0
    while wait_mine_or_over(page, ".mulle") and turns < 60:
        close_modals(page)
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        many = [m for m in legal if re.fullmatch(r"C \w\w x \{\w\w(,\w\w)+\}", m)]  # loose cards only, two or more
        if many:
            move = many[0]
            card = move.split()[1]
            loose = re.findall(r"\w\w", move.split("{")[1])
            page.tap(f".hand-card[data-code='{card}']")
            for c in loose:
                page.tap(f".table-card[data-code='{c}']:not(.chosen)")
            button = page.locator(f".move.legal[data-move='{move}']")
            expected = f"{_short(card)}: {capture} {_listed([_short(c) for c in loose], word)}"
            assert button.inner_text().strip() == expected, (move, button.inner_text())
            seen += 1
            if seen == 1:
                shot(page, f"w8-capture-words-{lang}", full=False)
            page.tap(f".move.legal[data-move='{move}']")
        else:
            mulle_click_move(page, next((m for m in legal if m.startswith("T ")), legal[0]))
        wait_next_state(page, ".mulle", data["version"])
        turns += 1
        if seen >= 2:
            break
    assert seen, "no capture of two or more loose cards came in the game"
    errors.check()
    ctx.close()
