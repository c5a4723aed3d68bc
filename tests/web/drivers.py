"""What the Playwright tests of the web table share: the real server and Debian's Chromium (the ``server``,
``seeded_server`` and ``browser`` fixtures, offered to every file here by ``conftest.py``), the marks of a browser
test, a browser context set for the tests, the page's errors, screenshots, and the drivers that play the games by
clicking as a person does:

* :func:`create_game` -- a game from the lobby's form;
* :func:`mulle_click_move`, :func:`choose_mulle_move` and :func:`mulle_turns` -- one Mulle move, a simple policy, and
  our turns of a game against the computer, each played by that policy once the test has looked;
* :class:`MulleTable` with :data:`BUILDS_SEED` and :func:`builder` -- two people at one Mulle table on the fixed
  deal, the test driving both seats, ply by ply;
* :func:`cribbage_turns`, :func:`lay_away_first_two`, :func:`play_first_card`,
  :func:`play_cribbage_to_the_show_summary` and :func:`play_cribbage_to_the_end` -- our seat of a Cribbage game
  against the computer, to a settled count, to the show summary, or to the end.

Screenshots are kept as test artifacts in ``artifacts/screenshots/`` (or ``$KORTBORD_ARTIFACTS``).  The tests
skip when ``/usr/bin/chromium`` is missing (CI installs Debian's ``chromium`` package) or Playwright is.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_layout import fits_one_screen, nothing_moved, regions

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: The marks of every browser test (``pytestmark = PLAYWRIGHT``): skipped without Chromium or Playwright; slow.
PLAYWRIGHT = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.skipif(importlib.util.find_spec("playwright") is None, reason="Playwright is not installed"),
    pytest.mark.slow,
]

#: The desktop and the phone size of :func:`shots`.
SIZES = ((1280, 800), (390, 844))


# ------------------------------------------------------------------------------------------ server and browser
def free_port() -> int:
    """A TCP port on 127.0.0.1 that no one listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_command(port: int, db: Path) -> list[str]:
    """The command that serves the table on ``port`` with its database in the SQLite file ``db``, the computer
    moving at once (``kortbord serve``; the app through uvicorn where the command is missing)."""
    exe = Path(sys.executable).parent / "kortbord"
    url = f"sqlite+aiosqlite:///{db}"
    probe = subprocess.run([str(exe), "serve", "--help"], capture_output=True, text=True, check=False)
    if probe.returncode == 0:
        return [
            str(exe),
            "serve",
            "--port",
            str(port),
            "--database-url",
            url,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
        ]
    # Until the `serve` command lands: the same app through uvicorn.
    code = (
        "import uvicorn; from kortbord.server.app import create_app; "
        f"uvicorn.run(create_app(database_url={url!r}), host='127.0.0.1', port={port}, log_level='warning')"
    )
    return [sys.executable, "-c", code]


@contextlib.contextmanager
def serving(cmd: list[str], port: int, tmp: Path) -> Iterator[str]:
    """Run ``cmd`` (a server on ``port``, its log in ``tmp/server.log``) until ``/api/health`` answers ok; yields
    the base URL; stops the server afterwards.  Fails the test with the log's end if it does not start."""
    log = (tmp / "server.log").open("w")
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90  # a loaded machine (two cores, many processes) starts slowly
        while True:
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=1) as r:
                    if json.load(r).get("ok"):
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail("the server did not start:\n" + (tmp / "server.log").read_text()[-3000:])
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (a fresh database, the computer moving at once), one per test file; yields its base URL."""
    tmp = tmp_path_factory.mktemp("web")
    port = free_port()
    with serving(server_command(port, tmp / "t.db"), port, tmp) as base:
        yield base


#: A deal (the server's seed for every game) on which both seats, building a new value whenever they can
#: (:func:`builder`), have two builds on the table at the first seat's second turn and four at its third
#: (found once by replaying the deal through the engine; the tests fail, saying so, if it no longer does).
BUILDS_SEED = f"{3:064x}"


@contextlib.contextmanager
def serving_seed(tmp_path_factory: pytest.TempPathFactory, seed: str) -> Iterator[str]:
    """A server (a fresh database, the computer moving at once) whose every game is dealt from ``seed``
    (``create_app(seed_factory=...)``); yields its base URL."""
    tmp = tmp_path_factory.mktemp("web-seeded")
    port = free_port()
    code = (
        "import uvicorn; from kortbord.server.app import create_app; "
        f"uvicorn.run(create_app(database_url='sqlite+aiosqlite:///{tmp / 't.db'}', bot_delay=0, "
        f"seed_factory=lambda: {seed!r}), host='127.0.0.1', port={port}, log_level='warning')"
    )
    with serving([sys.executable, "-c", code], port, tmp) as base:
        yield base


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose every game is dealt from :data:`BUILDS_SEED` (:func:`serving_seed`)."""
    with serving_seed(tmp_path_factory, BUILDS_SEED) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright, one per test file."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def new_context(
    browser: Any,
    *,
    width: int = 1280,
    height: int = 900,
    lang: str = "en",
    speed: str | None = None,
    name: str | None = None,
) -> Any:
    """A browser context with a ``width`` x ``height`` viewport, the page's language fixed to ``lang``, other
    players' moves shown without the human-friendly pause, and a 60 s default timeout; ``speed`` sets the page's
    animation speed (``"off"``: the moves unanimated; default the page's own) and ``name`` the player's name the
    lobby remembers (default none)."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-GB")
    ctx.set_default_timeout(60000)  # two cores shared by the server, the bots and two browsers
    # Other players' moves are shown without the human-friendly pause; the language is fixed.
    ctx.add_init_script(f"localStorage.setItem('kortbord.pace', '0'); localStorage.setItem('kortbord.lang', '{lang}');")
    if speed is not None:
        ctx.add_init_script(f"localStorage.setItem('kortbord.settings', JSON.stringify({{speed: '{speed}'}}));")
    if name is not None:
        ctx.add_init_script(f"localStorage.setItem('kortbord.name', '{name}');")
    ctx.on("page", _record_frames)
    return ctx


def _record_frames(page: Any) -> None:
    """Keep the page's last WebSocket frames (``page.kb_frames``: ("sent" | "got", first 240 characters)) for a
    failure's message (:func:`wait_next_state`)."""
    frames: deque[tuple[str, str]] = deque(maxlen=14)
    page.kb_frames = frames

    def watch(ws: Any) -> None:
        ws.on("framesent", lambda p: frames.append(("sent", str(p)[:240])))
        ws.on("framereceived", lambda p: frames.append(("got", str(p)[:240])))

    page.on("websocket", watch)


class PageErrors:
    """Collects the page's uncaught errors so a test fails on any of them."""

    def __init__(self, page: Any) -> None:
        self.errors: list[str] = []
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def check(self) -> None:
        assert not self.errors, self.errors


def _artifacts() -> Path:
    base = Path(os.environ.get("KORTBORD_ARTIFACTS", ROOT / "artifacts"))
    out = base / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    return out


def shot(page: Any, name: str, full: bool = True) -> None:
    """A screenshot of ``page`` as ``<name>.png`` among the artifacts (the whole page, or the viewport)."""
    page.screenshot(path=str(_artifacts() / f"{name}.png"), full_page=full, animations="disabled")


def shots(page: Any, name: str) -> None:
    """Screenshots of the page at the desktop and the phone size (``<name>-1280x800.png``, ``-390x844.png``)."""
    before = page.viewport_size
    for w, h in SIZES:
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(150)
        shot(page, f"{name}-{w}x{h}", full=False)
    page.set_viewport_size(before)


# ------------------------------------------------------------------------------------------------ the table
def root_data(page: Any, sel: str) -> dict[str, Any]:
    """The ``data-*`` attributes of the table's root ``sel`` (``.mulle``, ``.cribbage``): legal, version, mine ..."""
    out: dict[str, Any] = page.eval_on_selector(sel, "el => ({...el.dataset})")
    return out


def wait_mine_or_over(page: Any, sel: str, timeout: float = 60000) -> bool:
    """Wait until the viewer is to move (True) or the game is over (False); on a timeout the test fails saying what
    the page shows (:func:`fail_stuck`)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"() => document.querySelector('#game-over') || document.querySelector('{sel}')?.dataset.mine === '1'",
            timeout=timeout,
        )
    except PlaywrightTimeout:
        fail_stuck(page, sel, "never the viewer's turn")
    return page.locator("#game-over").count() == 0


def wait_next_state(page: Any, sel: str, before: str, timeout: float = 60000) -> None:
    """Wait until the table ``sel`` shows a state after version ``before``, or the game is over; on a timeout the
    test fails saying what the page shows (:func:`fail_stuck`), so that a move the page did not send can be told
    from a server that did not answer."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            f"v => document.querySelector('#game-over') || document.querySelector('{sel}')?.dataset.version !== v",
            arg=before,
            timeout=timeout,
        )
    except PlaywrightTimeout:
        fail_stuck(page, sel, f"no state after version {before}")


def fail_stuck(page: Any, sel: str, what: str) -> None:
    """Fail the test with what the page shows (phase, legal moves, version, open dialogs, focus, count boxes, the
    status line, the connection banner, the last WebSocket frames) and a screenshot ``stuck-<version>``."""
    seen = page.evaluate(
        f"""() => {{
            const t = document.querySelector('{sel}');
            const open = [...document.querySelectorAll('dialog[open], [role=dialog], .modal')]
                .filter(e => e.getClientRects().length).map(e => e.id || e.className);
            return {{phase: t?.dataset.phase, legal: t?.dataset.legal, version: t?.dataset.version,
                     mine: t?.dataset.mine, open,
                     focus: document.activeElement?.id || document.activeElement?.tagName,
                     inputs: [...document.querySelectorAll('input.count-input')].map(e => [e.id, e.value]),
                     status: document.querySelector('#status, .status')?.textContent,
                     connection: document.querySelector('.reconnecting, #conn, .conn')?.textContent}};
        }}"""
    )
    shot(page, f"stuck-{seen.get('version')}")
    frames = "\n".join(f"  {way}: {text}" for way, text in getattr(page, "kb_frames", ()))
    pytest.fail(f"{what}: {seen}\nlast WebSocket frames:\n{frames}")


def close_modals(page: Any) -> None:
    """Close the round's score and the show summary where they are open."""
    for button in ("#summary-close", "#show-close"):
        if page.locator(button).count():
            page.click(button)


def create_game(
    page: Any,
    base: str,
    game: str,
    *,
    options: dict[str, Any] | None = None,
    players: int = 2,
    teams: bool | None = None,
    **extra: Any,
) -> None:
    """Start ``game`` from the lobby at ``base`` with the form's ``options`` (checkboxes by bool, selects by value)
    for ``players`` players (``teams``: the "play in teams" box of a four-player Mulle game set so, None: left as the
    lobby has it); every other seat is ``seat1`` (default the quick computer player ``bot:greedy``; ``human`` for an
    invite link)."""
    page.goto(base + "/")
    page.click(f"#tab-{game}")
    page.wait_for_selector(f"#opt-{game}-{'kryp' if game == 'mulle' else 'muggins'}")
    for key, value in (options or {}).items():
        sel = f"#opt-{game}-{key}"
        if isinstance(value, bool):
            page.set_checked(sel, value)
        else:
            page.select_option(sel, str(value))
    if players != 2:
        page.click(f"#players-{players}")
        page.wait_for_selector(f"#seat-{players - 1}")
    if teams is not None:
        page.set_checked("#together", teams)
    # The quick computer player keeps the tests short; a person's seat gets an invite link.
    for s in range(1, players):
        page.select_option(f"#seat-{s}", extra.get("seat1", "bot:greedy"))
    page.click("#create")


# ------------------------------------------------------------------------------------------------------ Mulle
CARD = r"(?:[A2-9TJQK][SHDC])"


def mulle_click_move(page: Any, move: str, before_play: Callable[[str], None] | None = None) -> None:
    """Play ``move`` the way a person does: its hand card, its table cards and builds (a build by its cards: a long
    list of moves may lie over the builds' tags below their cards, never over a card -- mulle.ts ``fitActions``),
    then the move button (``before_play`` runs with the button's selector once the cards are chosen)."""
    card = move.split()[1].split("+")[0]
    if page.locator(f".hand-card.chosen[data-code='{card}']").count() == 0:
        page.click(f".hand-card[data-code='{card}']")
    if move.startswith(("C ", "B ")):
        loose = re.findall(CARD, move.split(None, 2)[2])
    elif move.startswith("P "):
        loose = re.findall(CARD, move.split(None, 1)[1])[1:]
    else:
        loose = []
    for c in loose:
        page.click(f".table-card[data-code='{c}']:not(.chosen)")
    for b in re.findall(r"\[(\w+)\]", move):
        page.click(f".build[data-build='{b}'] .fan")
    if before_play is not None:
        before_play(f".move.legal[data-move='{move}']")
    page.click(f".move.legal[data-move='{move}']")


def choose_mulle_move(legal: list[str], turn: int) -> str:
    """A varied but simple policy: captures first (the largest), then builds now and then, else a trail."""
    caps = sorted((m for m in legal if m.startswith("C ")), key=lambda m: -len(re.findall(CARD, m)))
    if caps:
        return caps[0]
    builds = [m for m in legal if m[0] in "BRDPL"]
    trails = [m for m in legal if m.startswith("T ")]
    if builds and (turn % 3 == 0 or not trails):
        return builds[0]
    return trails[0] if trails else legal[0]


def card_with_most_moves(legal: list[str]) -> str:
    """The hand card with the most legal moves (``legal`` in Mulle notation): the longest list a player reads."""
    counts: dict[str, int] = {}
    for m in legal:
        card = m.split()[1].split("+")[0]
        counts[card] = counts.get(card, 0) + 1
    return max(counts, key=lambda c: counts[c])


def moves_in_reach(page: Any) -> set[str]:
    """The moves the chosen Mulle card's controls offer as they stand (notation): every move button's, and in an
    opened build's or package's ways every move its package buttons make -- each set of packages pressed once (in
    the buttons' order), read off the move button they leave, all pressed buttons released again at the end."""
    moves = ".controls button.move[data-move]"
    out = set(page.eval_on_selector_all(moves, "bs => bs.map(b => b.dataset.move)"))
    chips = page.eval_on_selector_all(".controls .pkgpick", "bs => bs.map(b => b.dataset.pkg)")

    def walk(start: int) -> None:
        out.update(page.eval_on_selector_all(moves, "bs => bs.map(b => b.dataset.move)"))
        for j in range(start, len(chips)):
            chip = page.locator(f".controls .pkgpick[data-pkg='{chips[j]}']")
            if chip.is_disabled():
                continue
            chip.click()
            walk(j + 1)
            chip.click()

    if chips:
        walk(0)
    return out


def mulle_turns(page: Any, limit: int = 80) -> Iterator[list[str]]:
    """Our turns of a Mulle game against the computer until it is over: each yields the legal moves with the
    dialogs closed; once the test has looked (and put back any card it chose), plays :func:`choose_mulle_move` by
    clicking and waits for the next state.  Fails at the ``limit``-th turn (a single round has 24 at most)."""
    turn = 0
    while wait_mine_or_over(page, ".mulle"):
        close_modals(page)
        data = root_data(page, ".mulle")
        legal = json.loads(data["legal"])
        yield legal
        mulle_click_move(page, choose_mulle_move(legal, turn))
        wait_next_state(page, ".mulle", data["version"])
        turn += 1
        assert turn < limit


def builder(legal: list[str]) -> str:
    """Both seats' play on the fixed deal: found a build of a new value (no packaging) when one can, else trail,
    else any move that is not a capture (a capture would take builds off the table), else the first move."""
    for pick in (
        lambda m: m.startswith("B ") and "+pkg" not in m,
        lambda m: m.startswith("T "),
        lambda m: not m.startswith("C "),
        lambda m: True,
    ):
        found = [m for m in legal if pick(m)]
        if found:
            return found[0]
    raise AssertionError("no legal move")


class MulleTable:
    """Two people at one single-round Mulle table, the test driving both seats: the host (the page under test,
    ``width`` x ``height`` in ``lang``) and Greta, the guest (1280x800, English), who joins through the invite
    link.  Make it, set up the host's page if need be (``table.host.route_web_socket(...)``), then :meth:`sit_down`
    and walk the :meth:`plies`; :meth:`close` checks both pages' errors."""

    def __init__(self, browser: Any, *, width: int, height: int, lang: str) -> None:
        self.host_ctx = new_context(browser, width=width, height=height, lang=lang)
        self.guest_ctx = new_context(browser, width=1280, height=800)
        self.host, self.guest = self.host_ctx.new_page(), self.guest_ctx.new_page()
        self.errors = [PageErrors(self.host), PageErrors(self.guest)]

    def sit_down(self, base: str) -> None:
        """The host starts the game at ``base`` (the :func:`seeded_server` for the fixed deal), Greta joins, both
        agree to the aids (the builds' tags then name their takers) and the host's hint button is there."""
        host, guest = self.host, self.guest
        create_game(host, base, "mulle", options={"game_length": "single_round"}, seat1="human")
        host.wait_for_selector(".invite-url")
        guest.goto(host.input_value(".invite-url"))
        guest.fill("#join-name", "Greta")
        guest.click("#join-btn")
        guest.wait_for_selector(".mulle .hand-card")
        for page in (host, guest):
            page.wait_for_selector("#aids-agree")
            page.check("#aids-agree")
        host.wait_for_selector("#hint-btn")

    def plies(
        self, limit: int = 40, before_move: Callable[[Any], None] | None = None
    ) -> Iterator[tuple[Any, list[str]]]:
        """Up to ``limit`` plies (a look for whose turn it is that finds no one counts as one): each yields the page
        to move and its legal moves; once the test has looked, ``before_move(page)`` runs, that page plays
        :func:`builder`'s move by clicking, and both pages wait for the next state."""
        for _ply in range(limit):
            page = next((p for p in (self.host, self.guest) if root_data(p, ".mulle").get("mine") == "1"), None)
            if page is None:  # the move just made is still on its way to one of the pages
                time.sleep(0.1)
                continue
            legal = json.loads(root_data(page, ".mulle")["legal"])
            yield page, legal
            before = root_data(page, ".mulle")["version"]
            if before_move is not None:
                before_move(page)
            mulle_click_move(page, builder(legal))
            for p in (self.host, self.guest):
                p.wait_for_function(f"() => document.querySelector('.mulle')?.dataset.version !== '{before}'")

    def close(self) -> None:
        """Check both pages' errors, then close both contexts."""
        for e in self.errors:
            e.check()
        self.host_ctx.close()
        self.guest_ctx.close()


# --------------------------------------------------------------------------------------------------- Cribbage
def lay_away_first_two(page: Any) -> None:
    """Lay away the hand's first two cards by clicking them and the lay-away button."""
    hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
    page.click(f".hand-card[data-code='{hand[0]}']")
    page.click(f".hand-card[data-code='{hand[1]}']")
    page.click("#discard")


def announce_count(page: Any, count: str) -> None:
    """Type ``count`` into the count box and press Enter.  The table may draw its count panel again just after the
    state comes (a new box, the same typed value kept); a ``fill`` that Playwright aimed at the box being replaced
    reaches no listener, so the number is typed again until the box on the page holds it."""
    for _ in range(10):
        page.fill("#count-input", count)
        if page.eval_on_selector("#count-input", "e => e.value") == count:
            break
        page.wait_for_timeout(100)
    page.press("#count-input", "Enter")


def play_first_card(page: Any, legal: list[str]) -> None:
    """In the play: say go when it is legal, else play the first legal card."""
    page.click("#go" if "go" in legal else f".hand-card[data-code='{legal[0]}']")


def cribbage_turns(page: Any, *, count: str = "4", limit: int = 400) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """Up to ``limit`` of our turns of a Cribbage game against the computer, until it is over: each yields the
    table's data and legal moves with the dialogs closed; once the test has looked, plays the plain move by
    clicking (lay away the first two cards, go or the first legal card, announce ``count`` under Muggins -- "4" is
    mostly wrong, so the computer's Muggins claims get settled too -- or accept) and waits for the next state."""
    for _ in range(limit):
        if not wait_mine_or_over(page, ".cribbage"):
            return
        close_modals(page)
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        yield data, legal
        if data["phase"] == "discard":
            lay_away_first_two(page)
        elif data["phase"] == "play":
            play_first_card(page, legal)
        elif any(m.startswith("count") for m in legal):
            announce_count(page, count)
        else:
            page.click("#accept")
        wait_next_state(page, ".cribbage", data["version"])


def play_cribbage_to_the_show_summary(page: Any) -> None:
    """Play our seat (the first two cards away, the first legal card) until the show summary opens."""
    for _ in range(200):
        page.wait_for_function(
            "() => document.querySelector('#show-panel') || document.querySelector('.cribbage')?.dataset.mine === '1'"
        )
        if page.locator("#show-panel").count():
            return
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        if data["phase"] == "discard":
            lay_away_first_two(page)
        else:
            play_first_card(page, legal)
        page.wait_for_function(
            "v => document.querySelector('#show-panel') || document.querySelector('.cribbage')?.dataset.version !== v",
            arg=data["version"],
        )
    pytest.fail("no show summary")


def play_cribbage_to_the_end(
    page: Any,
    *,
    mid_shot: str,
    count: str,
    on_accept: Callable[[Any], bool] | None = None,
    each_turn: Callable[[], None] | None = None,
) -> None:
    """Play our seat of a Cribbage game by clicking until the game is over: lay away the first two cards, play the
    first legal card (or go), announce ``count`` under Muggins, accept the computer's counts (unless ``on_accept``
    handled it); screenshots ``mid_shot`` once the play is under way; ``each_turn`` runs at every turn and after
    it.  Every decision fits one screen at the three sizes, and choosing the cards to lay away moves nothing."""
    steps = 0
    shot_taken = False
    while wait_mine_or_over(page, ".cribbage"):
        steps += 1
        assert steps < 1500, "the game does not end"
        if each_turn is not None:
            each_turn()
        close_modals(page)
        data = root_data(page, ".cribbage")
        legal = json.loads(data["legal"])
        before, phase = data["version"], data["phase"]
        # every decision fits one screen at the three sizes (hand, controls, table, opponents, scores)
        fits_one_screen(page)
        if phase == "discard":
            hand = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.dataset.code)")
            frame = regions(page)
            page.click(f".hand-card[data-code='{hand[0]}']")
            page.click(f".hand-card[data-code='{hand[1]}']")
            nothing_moved(page, frame)  # choosing cards moves nothing
            fits_one_screen(page, ["#discard.legal"])
            page.click("#discard")
        elif phase == "play":
            if steps > 12 and page.locator(".cribbage .sequence img").count() >= 2 and not shot_taken:
                shot_taken = True
                shots(page, mid_shot)
            play_first_card(page, legal)
        elif phase == "show" and any(m.startswith("count") for m in legal):
            announce_count(page, count)
        elif phase == "show" and "accept" in legal:
            if on_accept is None or not on_accept(page):
                page.click("#accept")
        else:
            pytest.fail(f"unexpected turn: {phase} {legal}")
        wait_next_state(page, ".cribbage", before)
        if each_turn is not None:
            each_turn()
