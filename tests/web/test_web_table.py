"""The web table after the game and across reloads (issue #11), in Debian's Chromium against the real server:

* an invite game between two browsers: the invite page says who invites and which rules apply, a used link is
  refused before anyone presses it, the game over panel shows the final scores and the pegging race, and a rematch
  asked for by one player is offered to the other, who joins it -- the same rules, the next dealer;
* a reload in the middle of a Muggins response brings back the response panel, the Muggins reveals, the log (the
  first deal's events included) and the pegboard's rear pegs; a reload with the show panel open reopens it, and
  once dismissed it stays closed;
* when the server goes away the page says so at once, and when it is back the table, the log and the pegs are as
  they were;
* the lobby in Swedish shows option values and levels in words, no raw option keys and no spec references.

Screenshots go to ``artifacts/screenshots/`` like the other web tests.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from drivers import (
    PLAYWRIGHT,
    ROOT,
    PageErrors,
    close_modals,
    create_game,
    free_port,
    lay_away_first_two,
    new_context,
    play_first_card,
    root_data,
    server_command,
    shot,
    shots,
    wait_mine_or_over,
)
from web_layout import fits_one_screen

pytestmark = PLAYWRIGHT

#: Plays both seats of a game by their tokens over WebSockets (the first legal move, a little paced so the rate
#: limit of 10 messages a second is never reached) until the game is over.
PLAY_OUT = """
async ([gid, tokens]) => {
  const socks = tokens.map((t) => new WebSocket(`ws://${location.host}/ws/games/${gid}?token=${encodeURIComponent(t)}`));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the game did not end')), 240000);
    for (const ws of socks) {
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.type !== 'state') return;
        if (m.status === 'over') { clearTimeout(timer); resolve(); return; }
        if (m.legal_moves.length) {
          const move = m.legal_moves[0].notation;
          setTimeout(() => ws.send(JSON.stringify({ type: 'move', version: m.version, move })), 35);
        }
      };
    }
  });
  socks.forEach((ws) => ws.close());
}
"""

#: The events of a game (its whole history, as a spectator gets it).
HISTORY = """
async (gid) => {
  const ws = new WebSocket(`ws://${location.host}/ws/games/${gid}`);
  return await new Promise((resolve) => {
    ws.onopen = () => ws.send(JSON.stringify({ type: 'resync', history: true }));
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === 'state' && m.history) { ws.close(); resolve(m.history); }
    };
  });
}
"""


def _token(page: Any, game_id: str) -> str:
    seats = page.evaluate("window.kortbord.savedSeats()")
    return str(next(s["token"] for s in seats if s["game_id"] == game_id))


def _game_id(page: Any) -> str:
    m = re.search(r"#/game/([^/?]+)", page.url)
    assert m, page.url
    return m.group(1)


def test_invite_game_with_rematch(server: str, browser: Any) -> None:
    host_ctx = new_context(browser, width=1280, height=800, name="Anna")
    guest_ctx = new_context(browser, width=390, height=844, lang="sv")
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    errors = [PageErrors(host), PageErrors(guest)]
    create_game(host, server, "cribbage", options={"target": 61}, seat1="human")
    host.wait_for_selector(".invite-url")
    url = host.input_value(".invite-url")
    gid = _game_id(host)
    # the invite page says who invites to what, under which rules (in words), before anything is spent
    guest.goto(url)
    guest.wait_for_function("() => !document.querySelector('#join-btn').disabled")
    info = guest.inner_text("#join-info")
    assert "Anna" in info and "Cribbage" in info, info
    rules = guest.inner_text("#join-rules")
    assert "61" in rules and "target" not in rules, rules
    shot(guest, "60-invite-page-sv-phone", full=False)
    guest.fill("#join-name", "Greta")
    guest.click("#join-btn")
    guest.wait_for_selector(".cribbage .hand-card")
    # a used link says so at once, and offers no button to press
    third = host_ctx.new_page()
    third.goto(url)
    # the button starts disabled while the page asks the server: wait for the answer's message, not the button
    third.wait_for_selector(".join .msg.error")
    assert third.is_disabled("#join-btn")
    assert "used" in third.inner_text(".join .msg")
    shot(third, "61-invite-link-used", full=False)
    third.close()
    # play the game out (both seats by their tokens), then look at the game over panel in both browsers
    host.evaluate(PLAY_OUT, [gid, [_token(host, gid), _token(guest, gid)]])
    for page in (host, guest):
        # one dialog at a time: the game-over panel shows once the last show's dialog is closed
        page.wait_for_selector("#game-over", state="attached")
        close_modals(page)
        page.wait_for_selector("#game-over", state="visible")
    final = host.eval_on_selector_all("#game-over ul.final b", "bs => bs.map(b => Number(b.textContent))")
    legend = host.eval_on_selector_all(".legend .score b", "bs => bs.map(b => Number(b.textContent))")
    assert final == legend and max(final) >= 61, (final, legend)  # the game ends at the target (spec §2.6)
    # the pegging race ends at the final scores, one line per player
    race = host.eval_on_selector_all("#game-over svg.chart polyline", "ls => ls.map(l => Number(l.dataset.final))")
    assert race == final
    assert host.locator("#game-over #rematch").is_visible() and host.locator("#back-to-lobby").is_visible()
    fits_one_screen(host, ["#game-over #rematch"])
    shots(host, "62-invite-game-over")
    history = host.evaluate(HISTORY, gid)
    first_dealer = next(e["seat"] for e in history if e["kind"] == "dealer")
    # Anna asks; Greta is asked by name and joins
    host.click("#rematch")
    host.wait_for_function(f"() => location.hash.startsWith('#/game/') && !location.hash.includes('{gid}')")
    new_gid = _game_id(host)
    guest.wait_for_selector("#rematch-asked")
    assert "Anna" in guest.inner_text("#rematch-asked")
    shot(guest, "63-rematch-asked-sv-phone", full=False)
    guest.click("#rematch-accept")
    guest.wait_for_function(f"() => location.hash.includes('{new_gid}')")
    for page in (host, guest):
        page.wait_for_selector(".cribbage .hand-card")
    # the same rules; the first deal passes to the seat after the last game's first dealer
    old = json.loads(host.evaluate(f"fetch('/api/games/{gid}').then(r => r.text())"))
    new = json.loads(host.evaluate(f"fetch('/api/games/{new_gid}').then(r => r.text())"))
    assert new["rules"] == old["rules"] and new["status"] == "playing"
    assert [s["name"] for s in new["seats"]] == ["Anna", "Greta"]
    new_history = host.evaluate(HISTORY, new_gid)
    deal = next(e for e in new_history if e["kind"] == "deal")
    assert deal["dealer"] == (first_dealer + 1) % 2
    shot(host, "64-rematch-table")
    for e in errors:
        e.check()
    host_ctx.close()
    guest_ctx.close()


def _log(page: Any) -> list[str]:
    lines: list[str] = page.eval_on_selector_all(".log-list li", "lis => lis.map(li => li.textContent)")
    return lines


def _back_pegs(page: Any) -> list[tuple[str, str]]:
    pegs: list[tuple[str, str]] = page.eval_on_selector_all(
        "svg.board .peg.back", "ps => ps.map(p => [p.getAttribute('cx'), p.getAttribute('cy')])"
    )
    return [tuple(p) for p in pegs]  # type: ignore[misc]


def _reload(page: Any) -> None:
    page.reload()
    page.wait_for_selector(".cribbage .hand-card, .cribbage .muggins, #show-panel")
    page.wait_for_function("() => document.querySelectorAll('.log-list li').length > 0")


def test_reload_restores_the_muggins_response_the_show_and_the_log(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=1366, height=768)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "cribbage", options={"muggins": True})
    page.wait_for_selector(".cribbage .hand-card")
    responded = show_checked = False
    steps = 0
    while wait_mine_or_over(page, ".cribbage") and not show_checked:
        steps += 1
        assert steps < 200
        if page.locator("#show-panel").count() and not show_checked:
            # the show panel (this deal's settled counts) comes back after a reload; dismissed, it stays closed
            text = page.inner_text("#show-panel")
            _reload(page)
            page.wait_for_selector("#show-panel")
            assert page.inner_text("#show-panel") == text
            shot(page, "66-reload-show-panel")
            page.click("#show-close")
            _reload(page)
            page.wait_for_function("() => document.querySelector('.cribbage')?.dataset.mine === '1'")
            assert page.locator("#show-panel").count() == 0
            show_checked = True
            break
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        before, phase = data["version"], data["phase"]
        if phase == "discard":
            lay_away_first_two(page)
        elif phase == "play":
            play_first_card(page, legal)
        elif any(m.startswith("count") for m in legal):
            page.fill("#count-input", "2")
            page.press("#count-input", "Enter")
        elif "accept" in legal:
            if not responded:
                # in the middle of answering the computer's count: reload, and everything is back
                log = _log(page)
                pegs = _back_pegs(page)
                reveals = page.locator(".settled.reveal").count()
                heading = page.inner_text(".panel.respond h3")
                assert any(line.startswith("Cut for deal: ") for line in log), log  # the first deal is in the log
                _reload(page)
                page.wait_for_selector("#accept")
                page.wait_for_function(f"() => document.querySelectorAll('.log-list li').length >= {len(log)}")
                assert _log(page) == log
                # the rear pegs stand where they stood (not at the start hole, x = 10, as a page without the
                # history would put them)
                assert _back_pegs(page) == pegs and any(cx != "10" for cx, _ in pegs), pegs
                assert page.locator(".settled.reveal").count() == reveals
                assert page.inner_text(".panel.respond h3") == heading
                fits_one_screen(page)
                shots(page, "65-reload-muggins-response")
                responded = True
            page.click("#accept")
        else:
            pytest.fail(f"unexpected turn: {phase} {legal}")
        page.wait_for_function(
            f"() => document.querySelector('#game-over') || document.querySelector('.cribbage')?.dataset.version !== '{before}'"
        )
    assert responded and show_checked
    errors.check()
    ctx.close()


def test_lobby_speaks_swedish_words_not_option_keys(server: str, browser: Any) -> None:
    ctx = new_context(browser, width=390, height=844, lang="sv")
    page = ctx.new_page()
    errors = PageErrors(page)
    for game in ("mulle", "cribbage"):
        page.goto(server + "/")
        page.click(f"#tab-{game}")
        page.wait_for_selector(f"#opt-{game}-{'kryp' if game == 'mulle' else 'muggins'}")
        page.click("details.more summary")
        text = page.inner_text(".newgame") + "\n" + page.inner_text("header.top")
        options = " ".join(page.eval_on_selector_all(".newgame option", "os => os.map(o => o.textContent)"))
        for raw in (
            "target:",
            "by_capture",
            "single_round",
            "each_deals_once",
            "rank_only",
            "greedy",
            "Computer",
            "Lowball",
            "Lobby",
        ):
            assert raw not in text + options, (raw, game)
        assert not re.search(r"\((?:[AM]\d+|§)[^)]*\)|§", text), text  # spec references only behind a link
        assert page.locator(".newgame a.rule-link").count() > 0
        if game == "mulle":
            assert "en omgång" in options and "Datorn — motionär" in options, options
        # the levels for people (the registry's for_people, docs/bots.md) are the choices; the measuring anchors
        # stand apart under their own heading, never among them as if they were the easiest
        doc = json.load(urllib.request.urlopen(f"{server}/api/options/{game}"))
        people = [lv for lv in doc["bot_levels"] if doc["bot_level_words"][lv]["for_people"]]
        anchors = [lv for lv in doc["bot_levels"] if not doc["bot_level_words"][lv]["for_people"]]
        assert {"beginner", "casual", "strong"} <= set(people) and {"random", "greedy"} <= set(anchors), doc
        chosen = page.eval_on_selector_all("#seat-1 > option", "os => os.map(o => o.value)")
        assert chosen == [f"bot:{lv}" for lv in people] + ["human"], chosen
        grouped = page.eval_on_selector_all("#seat-1 > optgroup option", "os => os.map(o => o.value)")
        assert grouped == [f"bot:{lv}" for lv in anchors], grouped
        assert page.eval_on_selector("#seat-1 > optgroup", "g => g.label") == "Referensspelare (för mätningar)"
        # the chosen level (strong by default) described in plain Swedish words under the opponents
        assert page.inner_text("#level-help").startswith("Stark: "), page.inner_text("#level-help")
        # no keyboard on a phone: the keyboard help is not shown
        assert page.locator("#kbd-help").count() == 1 and not page.is_visible("#kbd-help")
        shot(page, f"67-lobby-{game}-sv-phone")
    errors.check()
    ctx.close()


def _start(port: int, db: Path, log: Any) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(server_command(port, db), stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    deadline = time.monotonic() + 90  # a loaded machine (two cores, many processes) starts slowly
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1) as r:
                if json.load(r).get("ok"):
                    return proc
        except OSError:
            pass
        assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.2)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_reconnect_banner_and_everything_back(browser: Any, tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "t.db"
    with (tmp_path / "server.log").open("w") as log:
        proc = _start(port, db, log)
        base = f"http://127.0.0.1:{port}"
        ctx = new_context(browser, width=390, height=844)
        page = ctx.new_page()
        try:
            create_game(page, base, "cribbage", options={"target": 61})
            page.wait_for_selector(".cribbage .hand-card")
            for _ in range(6):  # a few turns, so there is a log and pegs
                if not wait_mine_or_over(page, ".cribbage"):
                    break
                close_modals(page)
                data = root_data(page, ".cribbage")
                legal = json.loads(data["legal"])
                if data["phase"] == "discard":
                    page.click(".hand-card >> nth=0")
                    page.click(".hand-card >> nth=1")
                    page.click("#discard")
                elif "go" in legal:
                    page.click("#go")
                else:
                    page.click(f".hand-card[data-code='{legal[0]}']")
                page.wait_for_function(
                    f"() => document.querySelector('.cribbage')?.dataset.version !== '{data['version']}'"
                )
            # the computer's answers to our last move are in once it is our turn again (or the game is over)
            wait_mine_or_over(page, ".cribbage")
            log_before = _log(page)
            pegs = page.eval_on_selector_all(
                "svg.board .peg", "ps => ps.map(p => [p.getAttribute('cx'), p.getAttribute('cy')])"
            )
            _stop(proc)  # the server goes away: a clear notice at once
            page.wait_for_selector(".conn.show.lost")
            assert "reconnecting" in page.inner_text(".conn").lower()
            shot(page, "68-reconnecting-phone", full=False)
            proc = _start(port, db, log)  # back (the game replays from the database): all as it was
            page.wait_for_function("() => !document.querySelector('.conn').classList.contains('show')", timeout=60000)
            page.wait_for_function(f"() => document.querySelectorAll('.log-list li').length >= {len(log_before)}")
            assert _log(page) == log_before
            assert (
                page.eval_on_selector_all(
                    "svg.board .peg", "ps => ps.map(p => [p.getAttribute('cx'), p.getAttribute('cy')])"
                )
                == pegs
            )
        finally:
            ctx.close()
            _stop(proc)
