"""The web table end to end: the real server, Debian's Chromium driven by Playwright, games played by clicking.

* a whole round of Mulle against the computer (every deal, the båt call, the last-capture sweep, the round
  summary whose card points add up to 40 -- Mulle rules spec §2.11), with an illegal attempt explained;
* a deal of Cribbage with Muggins against the computer: discard, the play, announcing our own count and
  answering the computer's (spec §2.10 M2-M9: the true breakdown is shown only after settlement);
* a Mulle game between two browsers joined through the invite link;
* the lobby and both tables at phone size (375 px) without sideways scrolling, and keyboard play.

Screenshots are kept as test artifacts in ``artifacts/screenshots/`` (or ``$KORTBORD_ARTIFACTS``).  The tests
skip when ``/usr/bin/chromium`` is missing (CI installs Debian's ``chromium`` package).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
import urllib.request
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    ROOT,
    PageErrors,
    choose_mulle_move,
    close_modals,
    create_game,
    mulle_click_move,
    new_context,
    play_cribbage_to_the_end,
    root_data,
    shot,
    shots,
    wait_mine_or_over,
)
from web_layout import fits_one_screen, nothing_moved, regions

pytestmark = PLAYWRIGHT

# ------------------------------------------------------------------------------------------------------ Mulle
#: A Mulle move's log line (the catalogue's line.play.* sentences: trail, capture, build, raise, build down,
#: package, lay on), by the viewer ("You lay ...") or the computer ("Computer lays ...").
MULLE_PLAY_EN = r"^(?:You|Computer) (?:lays?|captures?|builds?|raises?|packs?) "
#: The same in Swedish ("Astrid lägger ut ...", "Datorn tar in ... med ...").
MULLE_PLAY_SV = r"^\S+ (?:lägger|tar in|bygger|packar) "


def test_mulle_round_against_the_computer(server: str, browser: Any) -> None:
    ctx = new_context(browser)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    shot(page, "01-lobby-desktop")
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(".mulle .hand-card")
    # The first dealer is drawn at random (spec §2.3): the computer may be forehand and play first. Wait until it
    # is our turn -- then nothing moves until we do.
    assert wait_mine_or_over(page, ".mulle")
    assert page.locator(".mulle .hand-card").count() == 8  # 8+8 deal (spec §2.3), none of ours played yet
    if root_data(page, ".mulle")["version"] == "0":  # we are forehand: the table is as dealt
        assert page.locator(".mulle .table-card").count() == 8
    else:  # the computer played one card first (one move: version 1)
        assert root_data(page, ".mulle")["version"] == "1"
    shot(page, "02-mulle-first-deal")

    turn = 0
    explained = False
    seen_baat = False
    while wait_mine_or_over(page, ".mulle"):
        close_modals(page)
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        assert legal, "my turn without legal moves"
        if not explained:
            # An illegal attempt says why: a card whose every move is a capture, tried as a trail.
            hand_cards = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
            for c in hand_cards:
                if f"T {c}" not in legal:
                    page.click(f".hand-card[data-code='{c}']")
                    page.click(f".why[data-move='T {c}']")  # "Why can't I trail it?"
                    page.wait_for_selector(".flash.show.error")
                    text = page.inner_text(".flash")
                    assert text.startswith("Not allowed:") and len(text) > 20, text
                    shot(page, "03-mulle-illegal-attempt")
                    page.keyboard.press("Escape")
                    explained = True
                    break
        move = choose_mulle_move(legal, turn)
        frame = regions(page)
        if move.startswith("C ") and turn < 12:
            page.click(f".hand-card[data-code='{move.split()[1]}']")
            # the legal choices for the chosen card are highlighted on the table
            assert page.locator(".table-card.legal, .build.legal").count() > 0
        before = data["version"]
        # once the cards are chosen nothing has moved, and the move's button is in view at every size
        mulle_click_move(
            page,
            move,
            before_play=lambda button, frame=frame: (nothing_moved(page, frame), fits_one_screen(page, [button])),
        )
        page.wait_for_function(f"() => document.querySelector('.mulle')?.dataset.version !== '{before}'")
        if turn == 2:
            shot(page, "04-mulle-after-a-move")
        if turn == 10:
            shots(page, "40-mulle-en-mid-game")
        if page.locator("#baat").count() and not seen_baat:
            seen_baat = True
            shot(page, "05-mulle-baat-last-deal")
        turn += 1
        assert turn < 80

    # Game over after the single round: the round summary shows the breakdown per item.
    page.wait_for_selector("#round-summary")
    shot(page, "06-mulle-round-summary")
    assert seen_baat, "the båt call was never shown"
    cells = page.eval_on_selector_all(
        "#round-summary tr.it-card_points td", "tds => tds.map(td => Number(td.textContent))"
    )
    assert sum(cells) == 40  # the card points of a round add up to 40 (spec §2.11)
    totals = page.eval_on_selector_all("#round-summary tr.it-total td", "tds => tds.map(td => Number(td.textContent))")
    scores = page.eval_on_selector_all(".scorebar .score b", "bs => bs.map(b => Number(b.textContent))")
    assert totals == scores
    log = page.inner_text(".log-list")
    # the last capturer sweeps what is left on the table (spec §2.10); the log shows it, newest first.  When the
    # final play was itself a capture that took the whole table nothing is left and there is no sweep line; a
    # final trail always leaves cards, so then the sweep must be there.
    if "the cards left on the table (the last capture)" not in log:
        plays = [line for line in log.splitlines() if re.match(MULLE_PLAY_EN, line)]
        assert plays and re.match(r"^(You capture|Computer captures) ", plays[0]), log
    page.click("#summary-close")
    assert page.locator("#game-over").is_visible()
    shot(page, "07-mulle-game-over")
    shots(page, "41-mulle-en-game-over")
    errors.check()
    ctx.close()


# --------------------------------------------------------------------------------------------------- Cribbage
def test_cribbage_deal_with_muggins(server: str, browser: Any) -> None:
    ctx = new_context(browser)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage .hand-card")
    shot(page, "10-cribbage-cut-and-deal")
    announced = responded = False
    steps = 0
    while wait_mine_or_over(page, ".cribbage"):
        steps += 1
        assert steps < 60
        data = root_data(page, ".cribbage")
        if data["deal"] != "1":
            break
        legal = json.loads(data["legal"])
        before = data["version"]
        phase = data["phase"]
        if phase == "discard":
            hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
            page.click(f".hand-card[data-code='{hand[0]}']")
            page.click(f".hand-card[data-code='{hand[1]}']")
            shot(page, "11-cribbage-discard")
            page.click("#discard")
        elif phase == "play":
            if "go" in legal:
                page.click("#go")
            else:
                page.click(f".hand-card[data-code='{legal[0]}']")
        elif phase == "show" and any(m.startswith("count") for m in legal):
            # Announce our own count (0-29), pegged at once (M2).
            shot(page, "12-cribbage-muggins-count")
            page.fill("#count-input", "2")
            page.press("#count-input", "Enter")
            announced = True
        elif phase == "show" and "accept" in legal:
            shot(page, "13-cribbage-muggins-respond")
            assert page.locator("#accept").is_visible() and page.locator("#overcount").is_visible()
            if not responded:
                # Claim the smallest number the grid offers (1 when the announced count plus 1 is a count some
                # hand can make; the grid leaves out totals no hand makes, §2.5: 19, 25, 26, 27).
                page.locator(".numgrid button[id^='m-']").first.click()
                page.click("#muggins")
                responded = True
            else:
                page.click("#accept")
        else:
            pytest.fail(f"unexpected turn: {phase} {legal}")
        page.wait_for_function(f"() => document.querySelector('.cribbage')?.dataset.version !== '{before}'")
        if phase == "show" and page.locator(".settled.reveal").count():
            shot(page, "14-cribbage-muggins-reveal")
        if page.locator(".cribbage .sequence img").count() >= 2:
            shot(page, "15-cribbage-the-play")

    assert announced and responded
    # After the deal the show summary lists every settled count with its true breakdown (M9).
    page.wait_for_selector("#show-panel")
    shot(page, "16-cribbage-show-summary")
    text = page.inner_text("#show-panel")
    assert "announced" in text
    assert re.search(r"fifteen two|a pair is two|a run of three|nineteen|nobs is|flush of", text), text
    page.click("#show-close")
    # The board's front pegs stand at the scores shown beside it.
    pegs = page.eval_on_selector_all("svg.board .peg.front", "ps => ps.map(p => Number(p.dataset.score))")
    legend = page.eval_on_selector_all(".legend .score b", "bs => bs.map(b => Number(b.textContent))")
    assert pegs == legend and sum(legend) > 0
    shot(page, "17-cribbage-board")
    errors.check()
    ctx.close()


def test_full_cribbage_game_with_muggins_to_61(server: str, browser: Any) -> None:
    """A whole game with Muggins played by clicking, to the end (spec §2.6: the game ends the moment a side reaches
    the target; §2.10: we announce our own counts and answer the computer's)."""
    ctx = new_context(browser)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True, "target": 61})
    page.wait_for_selector(".cribbage .hand-card")
    play_cribbage_to_the_end(page, mid_shot="42-cribbage-en-mid-game", count="4")
    close_modals(page)
    # The board and the legend agree, and exactly one side stands at or past the target of 61.
    legend = page.eval_on_selector_all(".legend .score b", "bs => bs.map(b => Number(b.textContent))")
    assert len(legend) == 2 and max(legend) >= 61, legend
    shot(page, "18-cribbage-game-over")
    shots(page, "43-cribbage-en-game-over")
    result = page.inner_text("#game-over .result")
    # the game-over line from the game_over event's data, in one voice: the viewer's own seat is "you"
    mine = page.eval_on_selector_all(".legend .score", "els => els.map(e => e.textContent.startsWith('You'))")
    if legend[mine.index(True)] >= 61:
        assert result.startswith(f"You win with {max(legend)}"), result
    else:
        assert result.startswith(f"You lose: Computer wins with {max(legend)}"), result
    # the chart marks the target (61, spec §2.6), not the final total past it, and says what it plots (the total
    # score after every peg, not only the pegging)
    ticks = page.eval_on_selector_all("#game-over svg.chart text.tick", "els => els.map(e => e.textContent)")
    assert ticks[0] == "0" and ticks[-1] == "61", ticks
    assert page.inner_text("#game-over figcaption") == "Scores over the game"
    # the keys stay on the panel: Rematch has the focus (or gets it with the first Tab), Tab never goes behind it
    if page.evaluate("document.activeElement?.id") != "rematch":
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.id") == "rematch"
    for _ in range(8):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement?.closest('#game-over')"), "Tab went behind the game-over panel"
    errors.check()
    ctx.close()


# -------------------------------------------------------------------------------------------- invite link
def test_invite_link_game_between_two_browsers(server: str, browser: Any) -> None:
    host_ctx = new_context(browser)
    guest_ctx = new_context(browser, width=390, height=844, lang="sv")
    host = host_ctx.new_page()
    guest = guest_ctx.new_page()
    errors = [PageErrors(host), PageErrors(guest)]
    create_game(host, server, "mulle", seat1="human")
    host.wait_for_selector(".invite-url")
    url = host.input_value(".invite-url")
    assert "?join=" in url and "invite=" in url
    shot(host, "20-invite-link")
    guest.goto(url)
    guest.fill("#join-name", "Greta")
    guest.click("#join-btn")
    guest.wait_for_selector(".mulle .hand-card")
    pages = {"host": host, "guest": guest}
    moves = 0
    keyboard_used = False
    while moves < 6:
        for who, page in pages.items():
            if root_data(page, ".mulle").get("mine") == "1":
                legal = json.loads(root_data(page, ".mulle")["legal"])
                before = root_data(page, ".mulle")["version"]
                move = choose_mulle_move(legal, moves)
                if who == "guest" and move.startswith("T ") and not keyboard_used:
                    keyboard_used = True
                    # Keyboard: the number key of the card, then Enter plays the one matching move.
                    hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
                    page.keyboard.press(str(hand.index(move.split()[1]) + 1))
                    page.keyboard.press("Enter")
                else:
                    mulle_click_move(page, move)
                for p in pages.values():
                    p.wait_for_function(f"() => document.querySelector('.mulle')?.dataset.version !== '{before}'")
                moves += 1
                break
        else:
            time.sleep(0.1)
    host.wait_for_selector(".mulle .seatbox:has-text('Greta')")
    assert host.locator(".invite-url").count() == 0  # the seat is taken: no invite left to show
    shot(host, "21-invite-game-host")
    shot(guest, "22-invite-game-guest-phone-sv")
    assert host.inner_text(".mulle .opps").count("Greta") == 1
    assert "Din tur" in guest.inner_text(".turn") or "spelar" in guest.inner_text(".turn")
    for e in errors:
        e.check()
    host_ctx.close()
    guest_ctx.close()


# ------------------------------------------------------------------------------------------ phone and rules
def test_phone_size_and_rules_pages(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=375, height=812)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + "/")
    page.wait_for_selector("#create")
    shot(page, "30-lobby-phone")

    def no_sideways_scroll() -> None:
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 376, width

    no_sideways_scroll()
    create_game(page, server, "mulle")
    page.wait_for_selector(".mulle .hand-card")
    no_sideways_scroll()
    assert wait_mine_or_over(page, ".mulle")
    page.keyboard.press("1")
    page.wait_for_selector(".hand-card.chosen")
    shot(page, "31-mulle-phone")
    create_game(page, server, "cribbage", options={"muggins": True, "lowball": True})
    page.wait_for_selector(".cribbage .hand-card")
    no_sideways_scroll()
    shot(page, "32-cribbage-phone")
    page.goto(server + "/#/rules/mulle")
    page.wait_for_selector(".options-doc dl")
    assert "tabbe" in page.inner_text("#rules-mulle").lower()
    page.click("button.lang[lang='sv']")
    page.wait_for_selector("text=Kortens värden")
    shot(page, "33-rules-mulle-sv-phone")
    page.goto(server + "/#/")
    page.wait_for_selector("ul.saved li")
    assert page.locator("ul.saved li").count() >= 2  # the games just started can be resumed
    shot(page, "34-resume-list-phone-sv")
    errors.check()
    with contextlib.suppress(Exception):
        ctx.close()


# ------------------------------------------------------------------------------------------------ in Swedish
#: English engine words that must not reach a Swedish player (the words come from the catalogues by code).
#: "his heels" is not listed: the Swedish catalogue keeps the term ("his heels (knekt som startkort)").
ENGLISH = (
    "fifteen",
    "thirty-one",
    "pair",
    "run of",
    "go for",
    "last card",
    " wins",
    "win at",
    "win with",
    "capture",
    "trail",
    "illegal move",
    "not allowed",
    "deals",
    "plays",
    "pegs",
    "announces",
    "accept",
    "overcount",
    "game over",
    "round ",
    "totals",
    "with a skunk",
    "and a skunk",
    # a fresh-user pass in Swedish: the variant, the header's link and the go button were English
    "lowball",
    "lobby",
)
#: English words that are a whole line (a button, a chip) in Swedish: "Go" alone (the Swedish catalogue keeps the
#: game's term go inside Swedish words, "säger go", "Säg go").
ENGLISH_LINES = ("go",)
#: Engine notation: a Mulle move ("C 8C x {", "T 9H", "B 5H on 4S =9"), a card code ("8C"), a seat ("P0").
NOTATION = re.compile(r"\b[CTBRDPL] (?:[A2-9TJQK]|10)[SHDC]\b|x \{|\b[A2-9TJQK][SHDC]\b|\bP[0-3]\b")

#: Keeps every text the page flashes (illegal moves, mulle/tabbe/båt) in window.__flashes.
FLASH_SPY = """
window.__flashes = [];
new MutationObserver(() => {
  const el = document.querySelector('.flash');
  if (el && el.textContent && window.__flashes[window.__flashes.length - 1] !== el.textContent)
    window.__flashes.push(el.textContent);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


class Seen:
    """Every text a Swedish player is shown: log lines, banners, the turn line, the flash messages, panels."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.texts: set[str] = set()

    def grab(self, *selectors: str) -> None:
        for sel in (
            ".log-list",
            ".turn",
            "#game-over",
            ".callouts",
            ".muggins",
            "#show-panel",
            ".felt",
            "header.top",
            ".gamebar",
            *selectors,
        ):
            for text in self.page.eval_on_selector_all(sel, "els => els.map(e => e.innerText)"):
                self.texts.update(line.strip() for line in text.splitlines() if line.strip())
        self.texts.update(self.page.evaluate("window.__flashes || []"))

    def check(self) -> None:
        assert self.texts
        for text in sorted(self.texts):
            low = text.lower()
            english = [w for w in ENGLISH if w in low]
            assert not english, f"English {english} shown in Swedish: {text!r}"
            assert low not in ENGLISH_LINES, f"English {text!r} shown in Swedish"
            assert not NOTATION.search(text), f"engine notation shown in Swedish: {text!r}"


def test_mulle_round_in_swedish(server: str, browser: Any) -> None:
    """A whole round of Mulle in Swedish: every line the player sees is in Swedish words, cards as 8♣, seats by
    name, no move notation -- including an illegal attempt's message and the game-over line."""
    ctx = new_context(browser, width=1280, height=800, lang="sv", name="Astrid")
    ctx.add_init_script(FLASH_SPY)
    page = ctx.new_page()
    errors = PageErrors(page)
    seen = Seen(page)
    create_game(page, server, "mulle", options={"game_length": "single_round"})
    page.wait_for_selector(".mulle .hand-card")
    turn = 0
    explained = False
    while wait_mine_or_over(page, ".mulle"):
        close_modals(page)
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        if not explained:
            for c in page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)"):
                if f"T {c}" not in legal:
                    page.click(f".hand-card[data-code='{c}']")
                    page.click(f".why[data-move='T {c}']")  # "Varför får jag inte lägga ut det?"
                    page.wait_for_selector(".flash.show.error")
                    assert "tillåtet" in page.inner_text(".flash")
                    shot(page, "50-mulle-sv-illegal-attempt")
                    page.keyboard.press("Escape")
                    explained = True
                    break
        before = data["version"]
        frame = regions(page)
        mulle_click_move(
            page,
            choose_mulle_move(legal, turn),
            before_play=lambda button, frame=frame: (nothing_moved(page, frame), fits_one_screen(page, [button])),
        )
        page.wait_for_function(f"() => document.querySelector('.mulle')?.dataset.version !== '{before}'")
        seen.grab()
        if turn == 10:
            shots(page, "44-mulle-sv-mid-game")
        turn += 1
        assert turn < 80
    page.wait_for_selector("#round-summary")
    seen.grab("#round-summary")
    page.click("#summary-close")
    seen.grab()
    log = page.inner_text(".log-list")
    # Astrid's own moves are in the log, with their cards, said "Du" on her own page (never her name: the viewer's
    # seat is "du" everywhere there -- the second fresh-user pass found "Anna lägger A♣" beside "Du: go för 1")
    mine = [line for line in log.splitlines() if re.match(MULLE_PLAY_SV, line) and line.startswith("Du ")]
    assert mine and all(any(suit in line for suit in "♠♣♥♦") for line in mine), log
    assert "Astrid" not in log, log
    assert "Spelet är slut" in log  # the game_over event in the catalogue's Swedish words
    shots(page, "45-mulle-sv-game-over")
    seen.check()
    errors.check()
    ctx.close()


def test_cribbage_game_in_swedish(server: str, browser: Any) -> None:
    """A whole Cribbage game with Muggins to 61 in Swedish: pegs, the show with its spoken count, Muggins calls and
    their settlement, and the game-over line all in Swedish words from the catalogue."""
    ctx = new_context(browser, width=1280, height=800, lang="sv", name="Astrid")
    ctx.add_init_script(FLASH_SPY)
    page = ctx.new_page()
    errors = PageErrors(page)
    seen = Seen(page)
    create_game(page, server, "cribbage", options={"muggins": True, "target": 61})
    page.wait_for_selector(".cribbage .hand-card")
    called = False

    def call_muggins_once(page: Any) -> bool:
        nonlocal called
        # the grid offers only the numbers that make a possible count with the one announced (2 missed after an
        # announced 17 would make 19, which no hand makes; after a 28 or 29 nothing can have been missed)
        offered = page.locator(".respond .numgrid button")
        if called or offered.count() == 0:
            return False
        called = True
        offered.first.click()
        page.click("#muggins")
        return True

    play_cribbage_to_the_end(
        page, mid_shot="46-cribbage-sv-mid-game", count="3", on_accept=call_muggins_once, each_turn=seen.grab
    )
    seen.grab()
    close_modals(page)
    seen.grab()
    log = " ".join(seen.texts)
    # plays and pegs, the viewer's as "Du", never by her own name on her page
    assert re.search(r"\bDu\b", log) and "lägger" in log and "får" in log, log
    assert "Astrid" not in log, log
    assert "meddelar" in log and "muggins" in log.lower()  # the Muggins announce and call
    result = page.inner_text("#game-over .result")
    # the game-over line from the game_over event's data, in one voice: the viewer's own seat is "du", never her
    # name beside "Du vinner" ("You win! Tester wins at 63" was the finding)
    legend = page.eval_on_selector_all(".legend .score b", "bs => bs.map(b => Number(b.textContent))")
    assert re.match(rf"(?:Du vinner med {max(legend)}|Du förlorar: Datorn vinner med {max(legend)})\b", result), result
    assert "Astrid" not in result, result
    shots(page, "47-cribbage-sv-game-over")
    seen.check()
    errors.check()
    ctx.close()


# ------------------------------------------------------------------------------------------- lobby option words
#: Options the lobby shows as controls of their own (the deal format stands for hand and table size).
LOBBY_HIDDEN = {"players", "partnership", "teams", "hand_size", "table_size", "jokers", "profile"}


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_lobby_shows_every_option_with_its_catalogue_label_and_help(server: str, browser: Any, lang: str) -> None:
    """Every option the server offers is in the lobby with its label and its help in the player's language, the
    words being the catalogue's (``option.<key>.label`` / ``.help`` of ``src/kortbord/i18n/<game>.json``)."""
    ctx = new_context(browser, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + "/")
    for game in ("mulle", "cribbage"):
        catalogue = json.loads((ROOT / "src" / "kortbord" / "i18n" / f"{game}.json").read_text(encoding="utf-8"))
        with urllib.request.urlopen(f"{server}/api/options/{game}", timeout=10) as r:
            offered = [o["key"] for o in json.load(r)["options"] if o["key"] not in LOBBY_HIDDEN]
        assert len(offered) >= (25 if game == "mulle" else 4)
        page.click(f"#tab-{game}")
        page.wait_for_selector(f"#opt-{game}-{offered[0]}", state="attached")
        page.eval_on_selector_all("details.more", "els => els.forEach(e => { e.open = true; })")
        for key in offered:
            label = catalogue[f"option.{key}.label"][lang]
            help_ = catalogue[f"option.{key}.help"][lang]
            box = page.locator(f".opt:has(#opt-{game}-{key})")
            assert box.count() == 1, key
            assert page.inner_text(f"label[for='opt-{game}-{key}']").strip() == label
            shown = box.locator("small.help").inner_text()
            words = re.sub(r"\s*\((?:§|A\d|ET)[^)]*\)", "", help_).strip()  # the references go behind a link
            assert words[:40] in shown, (key, words, shown)
            assert "§" not in shown and "label_" not in shown
    shot(page, f"35-lobby-options-{lang}")
    errors.check()
    with contextlib.suppress(Exception):
        ctx.close()
