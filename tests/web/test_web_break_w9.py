"""The breaker pass of w9 (a clumsy or hostile person at the page), each checked in the real browser (Debian's
Chromium driven by Playwright) against the real server:

* the inviter who opens the invite link meant for a friend, in the browser that holds the inviter's own seat, is
  not seated a second time: taking the friend's seat would spend the friend's invite and overwrite the seat this
  browser keeps (its token is the only proof of that seat: the inviter's seat would be lost for good and the game
  could never go on).  The join page says the browser has a seat in the game already and leads to it; the invite
  stays good, and the friend, in another browser, takes the seat with it;
* a game link that names no game (mistyped, or the game is gone) and a seat this browser kept whose token the game
  does not know are answered by the server with a close for good (4404, 4403): the page said "Connection lost,
  reconnecting..." over an empty table for ever and opened a new WebSocket twice a second (the backoff started
  again at every open, and the server opens before it refuses).  Now it opens one, says what is wrong in place of
  the table with the way out (the lobby; for the seat, watching the game instead), in both languages.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from drivers import PLAYWRIGHT, PageErrors, close_modals, create_game, new_context, shot
from test_web_table import PLAY_OUT

pytestmark = PLAYWRIGHT


def _post(base: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_the_inviter_opening_the_own_invite_link_keeps_the_seat_and_the_invite(server: str, browser: Any) -> None:
    ctx = new_context(browser, lang="en")
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", seat1="human")
    page.wait_for_selector(".invite-url")
    saved = page.evaluate("window.kortbord.savedSeats()")
    assert len(saved) == 1 and saved[0]["seat"] == 0
    game_id, token = saved[0]["game_id"], saved[0]["token"]
    invite = saved[0]["invites"][0]
    assert invite["seat"] == 1

    page.goto(server + invite["url"])  # the inviter checks the link sent to the friend
    page.wait_for_selector("#join-own")
    shot(page, "w9-inviter-opens-own-invite")
    assert page.locator("#join-btn").is_disabled()
    said = page.locator(".join .msg").inner_text()
    assert "already have seat 1" in said, said
    page.locator("#join-name").press("Enter")  # Enter does not join either
    page.wait_for_timeout(500)

    # nothing was spent and the seat kept in this browser is still seat 0's
    assert _post(server, f"/api/games/{game_id}/invite", {"invite_code": invite["invite_code"]})[1]["seat"] == 1
    again = page.evaluate("window.kortbord.savedSeats()")
    assert [(s["game_id"], s["seat"], s["token"]) for s in again] == [(game_id, 0, token)]

    page.click("#join-own")  # back to the own seat's table
    page.wait_for_selector(".cribbage")
    page.wait_for_selector(".invite-url")  # still waiting for the friend, seen from seat 0
    assert "join=" not in page.url

    friend_ctx = new_context(browser, lang="en")
    friend = friend_ctx.new_page()
    friend.goto(server + invite["url"])
    friend.wait_for_selector("#join-btn:not([disabled])")
    assert friend.locator("#join-own").count() == 0
    friend.fill("#join-name", "Friend")
    friend.click("#join-btn")
    friend.wait_for_selector(".cribbage")
    assert friend.evaluate("window.kortbord.savedSeats()")[0]["seat"] == 1
    page.wait_for_function("() => !document.querySelector('.invite-url')")  # the inviter sees the seat taken
    errors.check()
    friend_ctx.close()
    ctx.close()


def _sockets(page: Any) -> list[str]:
    opened: list[str] = []
    page.on("websocket", lambda ws: opened.append(ws.url))
    return opened


def test_a_link_to_no_game_says_so_once_and_does_not_hammer_the_server(server: str, browser: Any) -> None:
    for lang, words in (("en", "There is no such game"), ("sv", "Partiet finns inte")):
        ctx = new_context(browser, lang=lang)
        page = ctx.new_page()
        errors = PageErrors(page)
        opened = _sockets(page)
        page.goto(server + "/#/game/NoSuchGame12")
        page.wait_for_selector("#refused[data-code='4404']")
        page.wait_for_timeout(4000)  # the old page had opened eight more sockets by now
        assert len(opened) == 1, opened
        assert words in page.locator("#refused").inner_text()
        assert not page.locator(".conn.show").count()  # no "reconnecting" notice
        shot(page, f"w9-no-such-game-{lang}")
        page.click("#refused-lobby")
        page.wait_for_selector("#create")
        errors.check()
        ctx.close()


def test_a_seat_token_the_game_does_not_know_offers_to_watch_instead(server: str, browser: Any) -> None:
    status, g = _post(
        server, "/api/games", {"game": "cribbage", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]}
    )
    assert status == 201, g
    ctx = new_context(browser, lang="en")
    stale = {"game_id": g["game_id"], "game": "cribbage", "seat": 0, "token": "not-a-token", "created": "2026-12-04"}
    ctx.add_init_script(
        f"if (!sessionStorage.getItem('seeded')) {{ sessionStorage.setItem('seeded', '1'); "
        f"localStorage.setItem('kortbord.games', {json.dumps(json.dumps([stale]))}); }}"
    )
    page = ctx.new_page()
    errors = PageErrors(page)
    opened = _sockets(page)
    page.goto(f"{server}/#/game/{g['game_id']}")
    page.wait_for_selector("#refused[data-code='4403']")
    page.wait_for_timeout(3000)
    assert len(opened) == 1, opened
    shot(page, "w9-seat-token-not-valid")
    page.click("#watch-instead")
    page.wait_for_selector(".cribbage")  # the table, watched
    assert page.evaluate("window.kortbord.savedSeats()") == []
    assert page.locator("#refused").count() == 0
    assert all("token=" not in url for url in opened[1:]) and len(opened) >= 2
    errors.check()
    ctx.close()


#: The longest name the server takes (40 characters), one word with no place to break: the widest letter.
LONG_NAME = "W" * 40
#: The number of text lines an element's words take: the distinct bottoms (within 4 px) of its text's line boxes.
_LINES = """els => els.map(e => {
  const w = document.createTreeWalker(e, NodeFilter.SHOW_TEXT), bottoms = [];
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    if (!n.textContent.trim()) continue;
    const r = document.createRange(); r.selectNodeContents(n);
    for (const x of r.getClientRects()) if (!bottoms.some(b => Math.abs(b - x.bottom) < 4)) bottoms.push(x.bottom);
  }
  return bottoms.length; })"""


def test_a_forty_letter_name_never_widens_the_page_past_a_phone(server: str, browser: Any) -> None:
    """A name of one 40-letter word (what the server takes) in the seat box, the scores, the status and the
    Cribbage crib label and lay-away button: the page was 722-741 px wide on a 390 px phone, the hand's last cards
    off the screen.  Now every card of the hand is on the screen and the page does not scroll sideways."""
    for game in ("cribbage", "mulle"):
        status, g = _post(server, "/api/games", {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]})
        assert status == 201, g
        code = g["invites"][0]["invite_code"]
        assert _post(server, f"/api/games/{g['game_id']}/join", {"invite_code": code, "name": LONG_NAME})[0] == 200
        seat = {"game_id": g["game_id"], "game": game, "seat": 0, "token": g["token"], "created": "2026-12-04"}
        for width, height in ((390, 844), (1280, 800)):
            ctx = new_context(browser, width=width, height=height, lang="en")
            ctx.add_init_script(f"localStorage.setItem('kortbord.games', {json.dumps(json.dumps([seat]))});")
            page = ctx.new_page()
            errors = PageErrors(page)
            page.goto(f"{server}/#/game/{g['game_id']}")
            page.wait_for_selector(".hand-card")
            page.wait_for_timeout(500)
            shot(page, f"w9-long-name-{game}-{width}", full=False)
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{game} at {width}: the page is {wide} px wide"
            cards = page.eval_on_selector_all(
                ".hand-card", "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"
            )
            assert len(cards) >= 6 and all(left >= 0 and right <= width for left, right in cards), (game, width, cards)
            assert page.locator(f".opps .pname[title='{LONG_NAME}']").count() == 1  # the whole name on hover
            if game == "cribbage" and width == 390:
                # The score line and the lay-away button cut the name (whole on hover): the button took four
                # lines ("Lay away for WWW…WW's crib") and the score two, squeezing the table.
                assert page.locator(f".legend .score[title='{LONG_NAME}']").count() == 1
                lines = page.eval_on_selector_all(".legend .score", _LINES)
                assert len(lines) == 2 and max(lines) == 1, lines
                if page.locator("#discard").count():  # (the deal may open with the cut for the first crib)
                    lines = page.eval_on_selector_all("#discard", _LINES)
                    assert lines and max(lines) <= 2, lines
            errors.check()
            ctx.close()


def test_the_join_page_of_a_host_with_a_forty_letter_name_fits_a_phone(server: str, browser: Any) -> None:
    """ "WWW... invites you": the invitation made the join form wider than the phone (654 px at 390 px) and cut
    the name field and the "Take the seat" button at the screen's edge."""
    body = {"game": "mulle", "seats": [{"kind": "human", "name": LONG_NAME}, {"kind": "human"}]}
    status, g = _post(server, "/api/games", body)
    assert status == 201, g
    ctx = new_context(browser, width=390, height=844, lang="en")
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + g["invites"][0]["url"])
    page.wait_for_selector("#join-btn:not([disabled])")
    assert LONG_NAME in page.locator("#join-info").inner_text()
    shot(page, "w9-join-long-host-name", full=False)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for sel in ("#join-btn", "#join-name"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, (sel, box)
    errors.check()
    ctx.close()


def test_the_game_over_panel_of_a_forty_letter_name_fits_a_phone(server: str, browser: Any) -> None:
    """The game-over panel names the winner, the final scores and (Mulle) heads the table of points per round with
    the names: a 40-letter one-word name ran past the panel's right edge on a phone, cutting the other seat's
    numbers off.  Now everything in the panel lies inside it."""
    for game, rules in (("mulle", {"game_length": "single_round"}), ("cribbage", {"target": 61})):
        body = {"game": game, "rules": rules, "seats": [{"kind": "human"}, {"kind": "human"}]}
        status, g = _post(server, "/api/games", body)
        assert status == 201, g
        code = g["invites"][0]["invite_code"]
        _, joined = _post(server, f"/api/games/{g['game_id']}/join", {"invite_code": code, "name": LONG_NAME})
        seat = {"game_id": g["game_id"], "game": game, "seat": 0, "token": g["token"], "created": "2026-12-04"}
        ctx = new_context(browser, width=390, height=844, lang="en")
        ctx.add_init_script(f"localStorage.setItem('kortbord.games', {json.dumps(json.dumps([seat]))});")
        page = ctx.new_page()
        errors = PageErrors(page)
        page.goto(f"{server}/#/game/{g['game_id']}")
        page.wait_for_selector(".hand-card")
        page.evaluate(PLAY_OUT, [g["game_id"], [g["token"], joined["token"]]])
        page.wait_for_selector("#game-over", state="attached")
        page.wait_for_timeout(800)
        close_modals(page)
        page.wait_for_selector("#game-over")
        shot(page, f"w9-game-over-long-name-{game}", full=False)
        out = page.evaluate(
            """() => { const p = document.querySelector('#game-over').getBoundingClientRect();
                return [...document.querySelectorAll('#game-over *')].filter((el) => {
                  const r = el.getBoundingClientRect();
                  return r.width && (r.right > p.right + 1 || r.left < p.left - 1);
                }).map((el) => el.tagName + ' ' + (el.textContent || '').slice(0, 20)); }"""
        )
        assert out == [], (game, out)
        assert LONG_NAME in page.locator("#game-over").inner_text()
        errors.check()
        ctx.close()


def test_a_name_pasted_with_a_direction_control_is_taken_without_it(server: str, browser: Any) -> None:
    """The server refuses a name holding a text-direction or control character (422): the join page sent the
    pasted name as it was and said only "the request was not understood".  Now the page leaves them out (and the
    white space around the name), so the seat is taken under the name the player sees."""
    body = {"game": "cribbage", "seats": [{"kind": "human"}, {"kind": "human"}]}
    status, g = _post(server, "/api/games", body)
    assert status == 201, g
    ctx = new_context(browser, lang="en")
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(server + g["invites"][0]["url"])
    page.wait_for_selector("#join-btn:not([disabled])")
    page.fill("#join-name", " \u202eAnna\u2069\t")
    page.click("#join-btn")
    page.wait_for_selector(".cribbage")
    with urllib.request.urlopen(f"{server}/api/games/{g['game_id']}") as r:
        seats = json.load(r)["seats"]
    assert seats[1]["claimed"] and seats[1]["name"] == "Anna", seats
    errors.check()
    ctx.close()
