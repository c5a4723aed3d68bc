"""A bridge to an outside Cribbage player: BSD ``cribbage(6)`` (Debian ``bsdgames``, ``/usr/games/cribbage``),
with kortbord's engine (``kortbord.core.get("cribbage")``) as the referee (issue #14 item 2).

BSD cribbage is an interactive curses program: it plays one hand, the person at the terminal the other.  The
bridge sits at its terminal in a pty (``pexpect``) and plays the person's hand for a kortbord bot:

* **The deal.**  The program shuffles with ``rand()`` (the Fisher-Yates exchange ``k = (rand() >> 4) % j`` for
  ``j = 52 .. 1``), cuts for the first crib with two more draws and cuts the starter with one
  (``deck[12 + (rand() >> 4) % 40]``).  An ``LD_PRELOAD`` shim (``bench/bsd_cribbage_shim.c``, compiled with
  ``gcc`` into a temporary directory at run time) replaces ``rand()``/``srand()`` by a list of numbers the
  bridge writes before the game: for every deal, the exchanges that turn the program's deck (it shuffles the
  deck it already holds) into the order that gives each player the hand the referee dealt (the program deals
  alternately from the top, the pone first) with the referee's starter at position 12; for the cut for the first
  crib, the two cards the referee's cut for deal drew.  The program is run from a copy without its set-group-id
  bit (the dynamic loader ignores ``LD_PRELOAD`` for set-id programs).
* **What it shows.**  The shim also writes to a FIFO: ``R`` before a read of the keyboard that would block (the
  program has shown everything and waits), the cards drawn in its windows at each refresh (its table shows the
  cards of the count in play), the text of its messages and the scores it prints on the board.  The bridge
  answers each wait: the bot's discard and plays, ``--More--``, and the human side's hand and crib counts
  (BSD cribbage makes the person count; the bridge enters the referee's exact count).
* **The referee.**  Every card either side lays away or plays is applied to the engine.  The program's discard
  is read from its crib array in its memory (``/proc/PID/mem``) right after it is made; its plays from its table
  and its messages ("I get 2 points playing ...").  Checks that stop the game with :class:`BridgeError`: the
  hand the program shows is the referee's; its cuts and starter are the referee's; at every prompt of the play
  its table (the cards of the count) and both scores equal the referee's; at the show its hand, its crib and its
  counts equal the referee's; at the end of every deal and of the game both scores are the referee's.
* **The bot** decides from its own seat's view only (``spec.view(state, seat)``), as in the arena.  When the
  program is the pone it has laid away first in the referee's order, but the bridge learns its discard only
  after the bot's: the bot decides on a copy of the state where the program laid away any two cards (a seat's
  view does not show another seat's discard; the bridge checks that the real view is the same).

:func:`play_game` plays one game to 121 and returns a :class:`GameResult` (the deals' points and the winner),
the unit of ``bench/cribbage_outside.py``.  The program's own notation: ranks ``A 2-9 T J Q K`` and suits
``S H D C``, in the same order as kortbord's card numbers (``rank * 4 + suit``), so a card's number is the index
the program's sorted deck gives it.
"""

from __future__ import annotations

import atexit
import dataclasses
import functools
import importlib.util
import os
import random
import re
import select
import shutil
import struct
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

from kortbord import core
from kortbord.bots.base import Bot
from kortbord.cards import Card
from kortbord.cribbage.moves import CutForDeal, Discard, Go, Play

BINARY: Final = "/usr/games/cribbage"
SHIM_SOURCE: Final = Path(__file__).resolve().with_name("bsd_cribbage_shim.c")
#: Deals drawn for a game: a deal scores at least 1 point (the last card), so no game to 121 lasts 242 deals.
MAX_DEALS: Final = 242
#: Seconds the bridge waits for the program to ask for input before it calls the bridge broken.
TIMEOUT: Final = 30.0

_RANK_NAMES: Final = ("ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK",
                      "QUEEN", "KING")  # fmt: skip
_SUIT_NAMES: Final = ("SPADES", "HEARTS", "DIAMONDS", "CLUBS")
_LONG_CARD: Final = re.compile(rf"({'|'.join(_RANK_NAMES)}) of ({'|'.join(_SUIT_NAMES)})")
_SHORT_CARD: Final = re.compile(r"^[A2-9TJQK][SHDC]$")


class BridgeError(RuntimeError):
    """The program and the referee disagree, or the program did something the bridge does not understand.

    Attributes:
        details: what the bridge saw last (the program's screen and its last messages), for the report.
    """

    def __init__(self, message: str, details: str = "") -> None:
        super().__init__(message if not details else f"{message}\n{details}")
        self.details = details


def available() -> bool:
    """BSD cribbage, gcc and the Python packages ``pexpect`` and ``pyte`` are installed (the bridge needs them)."""
    return (
        os.path.exists(BINARY)
        and shutil.which("gcc") is not None
        and all(importlib.util.find_spec(name) is not None for name in ("pexpect", "pyte"))
    )


@functools.cache
def _shim() -> str:
    """Compile the shim (once per process, into a directory of its own, removed at exit); return its path."""
    directory = tempfile.mkdtemp(prefix="kb-bsd-shim-")
    atexit.register(shutil.rmtree, directory, True)
    out = os.path.join(directory, "kb_bsd_shim.so")
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", out, str(SHIM_SOURCE), "-ldl"], check=True)
    return out


# ------------------------------------------------------------------------------------------------ the deal
def exchanges(current: Sequence[int], target: Sequence[int]) -> list[int]:
    """The ``k`` of each step of the program's shuffle (``for j = 52 .. 1: swap d[j-1], d[k]``) that turns the
    deck ``current`` into ``target`` (both lists of card numbers, top first).

    Raises:
        ValueError: the two are not orders of the same cards.
    """
    if sorted(current) != sorted(target):
        raise ValueError("not the same cards")
    d = list(current)
    out: list[int] = []
    for j in range(len(d), 0, -1):
        k = d.index(target[j - 1], 0, j)
        out.append(k)
        d[j - 1], d[k] = d[k], d[j - 1]
    return out


def program_deck(
    pone_hand: Sequence[Card], dealer_hand: Sequence[Card], starter: Card, rest: Sequence[Card]
) -> list[int]:
    """The program's deck for a deal: it deals alternately from the top, the pone first, and the bridge makes
    its cut of the starter take position 12 (the first card after the twelve dealt)."""
    deck: list[int] = []
    for p, d in zip(pone_hand, dealer_hand, strict=True):
        deck += [int(p), int(d)]
    deck.append(int(starter))
    deck += [int(c) for c in rest]
    return deck


@dataclasses.dataclass
class Plan:
    """What the referee drew for one game before it starts (the same for both games of a duplicate pair).

    Attributes:
        cuts: every cut for deal, ``(seat 0's card, seat 1's card)``, ties first; the last decides the dealer.
        shuffles: the ``Shuffle`` moves of the deals, in order (more than any game needs).
    """

    cuts: list[tuple[Card, Card]]
    shuffles: list[Any]

    @classmethod
    def draw(cls, rules: Any, rng: random.Random) -> Plan:
        """Draw the cut for deal and :data:`MAX_DEALS` shuffles from ``rng`` exactly as a game would (the engine's
        ``chance_outcome``, in the order the chance nodes come)."""
        spec = core.get("cribbage")
        state = spec.new_game(rules, players=2)
        cuts: list[tuple[Card, Card]] = []
        while spec.is_chance(state) and state.phase == 0:
            move = spec.chance_outcome(state, rng)
            cuts.append((move.cards[0], move.cards[1]))
            state = spec.apply(state, move)
        shuffles = [spec.chance_outcome(state, rng) for _ in range(MAX_DEALS)]
        return cls(cuts, shuffles)


def draws_for(plan: Plan, rules: Any, program_seat: int) -> list[int]:
    """The numbers the program's ``rand()`` returns in a game where it sits in ``program_seat``: the shuffle
    before the cut (left as it is), the cut for the first crib (the person's card, then the program's; a tie
    shuffles again), then per deal the shuffle to the referee's deal and the cut of the starter."""
    spec = core.get("cribbage")
    person = 1 - program_seat
    ident = [(j - 1) << 4 for j in range(52, 0, -1)]
    out = list(ident)
    deck = list(range(52))
    for n, (c0, c1) in enumerate(plan.cuts):
        cut = (c0, c1)
        out += [int(cut[person]) << 4, int(cut[program_seat]) << 4]
        if n < len(plan.cuts) - 1:
            out += ident
    state = spec.apply(spec.new_game(rules, players=2), _cut_move(plan))
    first = state.dealer
    for n, shuffle in enumerate(plan.shuffles):
        dealer = first if n % 2 == 0 else 1 - first
        dealt = spec.apply(spec.new_game(rules, players=2, dealer=dealer), shuffle)
        hands = dealt._hands
        target = program_deck(hands[1 - dealer], hands[dealer], dealt._stock[0], dealt._stock[1:])
        out += [k << 4 for k in exchanges(deck, target)]
        deck = target
        out.append(0)  # the starter: deck[12 + 0]
    return out


def _cut_move(plan: Plan) -> Any:
    return CutForDeal(plan.cuts[-1])


def _name(card: Card) -> str:
    return str(card)


def _long(card: Card) -> str:
    return f"{_RANK_NAMES[card.rank - 1]} of {_SUIT_NAMES[card.suit_index]}"


# ------------------------------------------------------------------------------------------------ the program
class Program:
    """BSD cribbage running in a pty under the shim, with the FIFO it reports on.

    ``wait()`` returns the records logged until the program waits for a key; ``send(text)`` types.
    """

    def __init__(self, draws: Sequence[int], workdir: str) -> None:
        import pexpect
        import pyte

        self.dir = tempfile.mkdtemp(prefix="kb-bsd-", dir=workdir)
        binary = os.path.join(self.dir, "cribbage")
        shutil.copyfile(BINARY, binary)  # a copy without the set-group-id bit: LD_PRELOAD applies
        os.chmod(binary, 0o755)
        with open(os.path.join(self.dir, "draws"), "w") as f:
            f.write(" ".join(map(str, draws)))
        self.fifo = os.path.join(self.dir, "log")
        os.mkfifo(self.fifo)
        self.log_fd = os.open(self.fifo, os.O_RDONLY | os.O_NONBLOCK)
        self._keep = os.open(self.fifo, os.O_WRONLY)  # a writer always there: no end of file before the shim's
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": self.dir,
            "TERM": "vt100",
            "LINES": "24",
            "COLUMNS": "80",
            "LD_PRELOAD": _shim(),
            "KB_DRAWS": os.path.join(self.dir, "draws"),
            "KB_LOG": self.fifo,
        }
        self.child = pexpect.spawn(binary, ["-r"], env=env, cwd=self.dir, dimensions=(24, 80))
        self._buf = b""
        self.history: list[str] = []
        self.crib_at: int | None = None  # the crib array's address, once a deal has shown it alone

    def close(self) -> None:
        """End the program (if it still runs) and remove its directory."""
        try:
            if self.child.isalive():
                self.child.terminate(force=True)
        finally:
            self.child.close(force=True)
            os.close(self.log_fd)
            os.close(self._keep)
            shutil.rmtree(self.dir, ignore_errors=True)

    def _read_pty(self) -> None:
        try:
            data = os.read(self.child.child_fd, 65536)
        except OSError:
            data = b""
        if data:
            self.stream.feed(data)

    def wait(self, timeout: float = TIMEOUT) -> list[str]:
        """The records the shim logged until the program waits for the keyboard (without the ``R``).

        Raises:
            BridgeError: the program ended, ran out of draws or did not ask for input within ``timeout`` s.
        """
        records: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            while b"\n" in self._buf:
                line, self._buf = self._buf.split(b"\n", 1)
                text = line.decode("latin-1")
                self.history.append(text)
                if text == "R":
                    return records
                if text.startswith("E "):
                    raise BridgeError(f"the program stopped: {text[2:]}", self.report())
                records.append(text)
            left = deadline - time.monotonic()
            if left <= 0:
                raise BridgeError("the program did not ask for input in time", self.report())
            ready, _, _ = select.select([self.log_fd, self.child.child_fd], [], [], min(left, 1.0))
            if self.child.child_fd in ready:
                self._read_pty()
            if self.log_fd in ready:
                self._buf += os.read(self.log_fd, 65536)
            if not ready and not self.child.isalive():
                raise BridgeError("the program ended", self.report())

    def send(self, text: str) -> None:
        """Type ``text`` at the program's keyboard."""
        self.history.append(f"> {text!r}")
        self.child.send(text)

    def report(self) -> str:
        """The program's screen and its last log records (for a :class:`BridgeError`)."""
        end = time.monotonic() + 0.2
        while time.monotonic() < end:
            ready, _, _ = select.select([self.child.child_fd], [], [], 0.05)
            if ready:
                self._read_pty()
        screen = "\n".join(line.rstrip() for line in self.screen.display)
        return f"screen:\n{screen}\nlast records:\n" + "\n".join(self.history[-40:])

    def crib(self, mine: Sequence[Card], theirs: Sequence[Card]) -> tuple[Card, Card]:
        """The two cards the program laid away, read from its crib array (``CARD crib[4]``, ``{int rank; int
        suit}`` each, ``rank`` 0 = ace): the person's two discards ``mine`` in the order typed, followed by two of
        the program's six cards ``theirs``.

        Raises:
            BridgeError: no such array, or more than one.
        """
        found: set[tuple[Card, Card]] = set()
        places: dict[tuple[Card, Card], set[int]] = {}
        pid = self.child.pid
        with open(f"/proc/{pid}/maps") as f:
            maps = f.read().splitlines()
        with open(f"/proc/{pid}/mem", "rb", 0) as mem:
            for line in maps:
                parts = line.split()
                if not parts[1].startswith("rw") or (len(parts) > 5 and parts[5].startswith("[")):
                    continue
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                mem.seek(lo)
                try:
                    data = mem.read(hi - lo)
                except OSError:
                    continue
                for offset, pair in crib_candidates(data, mine, theirs, where=True):
                    found.add(pair)
                    places.setdefault(pair, set()).add(lo + offset)
        if len(found) > 1 and self.crib_at is not None:  # another copy of those cards: the crib is where it was
            found = {pair for pair in found if self.crib_at in places[pair]}
        if len(found) == 1 and self.crib_at is None:
            spots = places[next(iter(found))]
            self.crib_at = next(iter(spots)) if len(spots) == 1 else None
        if len(found) != 1:
            raise BridgeError(f"the program's crib array: {len(found)} candidates {sorted(found)}", self.report())
        return next(iter(found))


def crib_candidates(data: bytes, mine: Sequence[Card], theirs: Sequence[Card], where: bool = False) -> Any:
    """Every place in ``data`` that holds the program's ``CARD crib[4]`` as it is after the discard: the person's
    two cards ``mine`` in the order typed, then two different cards of ``theirs``; the set of those two (with
    ``where``: a list of ``(offset, pair)``).

    A ``CARD`` is ``{int rank; int suit}`` (little-endian, ``rank`` 0 = ace, suits ``S H D C`` = 0..3).  Matches
    may overlap (an ace of spades is eight zero bytes), so every position is tried.  Another array may hold the
    same four cards; :meth:`Program.crib` then takes the place the crib had in an earlier deal."""
    pat = b"".join(struct.pack("<ii", c.rank - 1, c.suit_index) for c in mine)
    hold = {(c.rank - 1, c.suit_index): c for c in theirs}
    found: list[tuple[int, tuple[Card, Card]]] = []
    i = data.find(pat)
    while i >= 0:
        tail = data[i + len(pat) : i + len(pat) + 16]
        if len(tail) == 16:
            r1, s1, r2, s2 = struct.unpack("<4i", tail)
            a, b = hold.get((r1, s1)), hold.get((r2, s2))
            if a is not None and b is not None and a != b:
                found.append((i, (a, b)))
        i = data.find(pat, i + 1)
    return found if where else {pair for _, pair in found}


# ------------------------------------------------------------------------------------------------ one game
@dataclasses.dataclass
class GameResult:
    """One game between a kortbord bot and BSD cribbage.

    Attributes:
        bot_seat: the bot's seat (the program has the other).
        deals: per deal, ``{"dealer": seat, "points": [seat 0, seat 1], "complete": bool}`` (the deal the game
            ends in is cut short by the rules: ``complete`` False), as in the arena's records.
        scores: the final scores per seat.  winner: the seat that reached the target.
        decisions: the bot's decisions.  checks: the referee's checks passed (see the module docstring).
    """

    bot_seat: int
    deals: list[dict[str, Any]]
    scores: tuple[int, int]
    winner: int
    decisions: int
    checks: int


class _Game:
    """The referee's side of one game (see :func:`play_game`)."""

    def __init__(self, bot: Bot[Any], bot_seat: int, rules: Any, plan: Plan, rng: random.Random, program: Program):
        self.spec = core.get("cribbage")
        self.bot, self.me, self.them = bot, bot_seat, 1 - bot_seat
        self.rules, self.plan, self.rng, self.p = rules, plan, rng, program
        self.state = self.spec.new_game(rules, players=2)
        self.deal_no = 0
        self.deals: list[dict[str, Any]] = []
        self.start: tuple[int, ...] = (0, 0)
        self.decisions = 0
        self.checks = 0
        self.board: dict[str, int] = {"YOU": 0, "ME": 0}  # the program's board: YOU = the bot, ME = the program
        self.shows: list[Any] = []  # the referee's show events of the deal
        self.queue: list[Card] = []  # the program's plays seen and not yet applied
        self.seen: set[Card] = set()
        self.table: list[str] = []
        self.msgs: list[str] = []
        self.hands: dict[int, list[str]] = {}
        self.pending: list[Card] = []  # the bot's discard still to type
        self.my_discard: Any = None
        self.my_view_at_discard: Any = None
        self.my_cards: set[Card] = set()
        self.their_cards: set[Card] = set()

    # -- helpers
    def fail(self, message: str) -> None:
        raise BridgeError(f"deal {self.deal_no}: {message}", self.p.report())

    def check(self, ok: bool, message: str) -> None:
        if not ok:
            self.fail(message)
        self.checks += 1

    def step(self, move: Any) -> None:
        try:
            self.state, events = self.spec.step(self.state, move)
        except Exception as exc:
            self.fail(f"the referee refuses {move}: {exc}")
        for e in events:
            if e.kind == "show":
                self.shows.append(e)
                if self.deals:
                    shown = self.deals[-1].setdefault("show", [0, 0])
                    shown[e.data["seat"]] += e.data["points"]

    def scores(self) -> tuple[int, int]:
        s = self.state.scores
        return int(s[0]), int(s[1])

    def absorb(self, records: list[str]) -> None:
        """Take in what the program showed: its windows, messages, scores; queue its plays."""
        for rec in records:
            kind, _, rest = rec.partition(" ")
            if kind == "H":
                index, _, cards = rest.partition(" ")
                faces = cards.split() if cards else []
                self.hands[int(index)] = faces
                if index == "1":  # the table: the cards of the count
                    self._table(faces)
            elif kind == "M":
                self.msgs.append(rest)
                if "playing" in rest and rest.startswith("I get"):
                    m = _LONG_CARD.search(rest)
                    if m is None:
                        self.fail(f"a play message without a card: {rest!r}")
                    assert m is not None
                    self._theirs(Card(_RANK_NAMES.index(m.group(1)) * 4 + _SUIT_NAMES.index(m.group(2))))
            elif kind == "S":
                y, _, text = rest.partition(" ")
                _x, _, value = text.partition(" ")
                who = "YOU" if int(y) == 1 else "ME" if int(y) == 7 else None
                if who is not None and value.strip().isdigit():
                    self.board[who] = int(value)

    def _table(self, faces: list[str]) -> None:
        prev = self.table
        new = faces[len(prev) :] if faces[: len(prev)] == prev else faces
        for face in new:
            if not _SHORT_CARD.match(face):
                self.fail(f"a card on the table that is not face up: {faces}")
            card = Card.parse(face)
            if card not in self.my_cards:
                self._theirs(card)
        self.table = faces

    def _theirs(self, card: Card) -> None:
        if card in self.seen:
            return
        if card not in self.their_cards:
            self.fail(f"the program played {card}, which the referee did not deal it")
        self.seen.add(card)
        self.queue.append(card)

    def prompt(self) -> str:
        """The program's last message: what it waits for."""
        for text in reversed(self.msgs):
            stripped = text.strip()
            if len(stripped) > 1:  # skip the echo of typed characters
                return stripped
        return ""

    def wait(self) -> str:
        self.msgs = []
        self.absorb(self.p.wait())
        return self.prompt()

    def check_board(self, where: str) -> None:
        mine, theirs = self.scores()[self.me], self.scores()[self.them]
        self.check(
            (self.board["YOU"], self.board["ME"]) == (mine, theirs),
            f"{where}: the program's board shows bot {self.board['YOU']}, program {self.board['ME']}; the referee "
            f"has bot {mine}, program {theirs}",
        )

    def ask_bot(self, state: Any) -> Any:
        view = self.spec.view(state, self.me)
        legal = self.spec.legal_moves(state)
        move = self.bot.choose(view, list(legal), self.rng)
        if move not in legal:
            self.fail(f"the bot chose an illegal move {move}")
        self.decisions += 1
        return move

    # -- the phases
    def new_deal(self) -> None:
        """At the program's first discard prompt: close the last deal, deal the next one, check the hand."""
        if self.deal_no:
            self.close_deal(complete=True)
        self.check_board("the start of the deal")
        self.step(self.plan.shuffles[self.deal_no])
        self.deal_no += 1
        self.start = self.scores()
        self.deals.append({"dealer": int(self.state.dealer)})
        self.shows = []
        self.queue, self.seen, self.table = [], set(), []
        self.my_cards = set(self.state._hands[self.me])
        self.their_cards = set(self.state._hands[self.them])
        shown = self.hands.get(0, [])
        self.check(sorted(shown) == sorted(map(_name, self.state._hands[self.me])),
                   f"the program shows the bot the hand {shown}, the referee dealt {list(map(_name, self.state._hands[self.me]))}")  # fmt: skip
        # The bot's discard, from its own view (on a copy if the program, the pone, lays away first).
        state = self.state
        if self.spec.to_act(state) == self.them:
            state = self.spec.apply(state, self.spec.legal_moves(state)[0])
        self.my_view_at_discard = self.spec.view(state, self.me).to_json()
        move = self.ask_bot(state)
        self.pending = list(move.cards)
        self.my_discard = move

    def close_deal(self, complete: bool) -> None:
        if self.deals and "points" not in self.deals[-1]:
            now = self.scores()
            self.deals[-1]["points"] = [b - a for a, b in zip(self.start, now, strict=True)]
            self.deals[-1]["complete"] = complete

    def after_discards(self) -> None:
        """The program has laid away (read from its memory): apply both discards in the referee's order (the
        pone's first), and check that the bot's view was what it would have been with the program's real discard."""
        theirs = self.p.crib(self.my_discard.cards, self.state._hands[self.them])
        their_move = Discard(tuple(sorted(theirs)))
        if self.spec.to_act(self.state) == self.them:
            self.step(their_move)
            self.check(self.spec.view(self.state, self.me).to_json() == self.my_view_at_discard,
                       "the bot's view with the program's discard differs from the one it decided on")  # fmt: skip
            self.step(self.my_discard)
        else:
            self.step(self.my_discard)
            self.step(their_move)
        if self.state.starter is not None:
            cut = [m for m in self.msgs if "cut the" in m]
            self.check(any(_long(self.state.starter) in m for m in cut),
                       f"the program's starter {cut}; the referee's {self.state.starter}")  # fmt: skip

    def catch_up(self) -> None:
        """Apply the program's plays seen so far and the forced moves (a go, the person's last card: the program
        makes them itself), up to the bot's next real decision or the program's next play not yet seen."""
        while self.state.phase == 3:  # PLAY
            seat = self.spec.to_act(self.state)
            legal = self.spec.legal_moves(self.state)
            if seat == self.them:
                if len(legal) == 1 and isinstance(legal[0], Go):
                    self.step(legal[0])
                    continue
                if not self.queue:
                    return
                card = self.queue.pop(0)
                move = Play(card)
                if move not in legal:
                    self.fail(f"the program played {card}, not legal for the referee ({[str(m) for m in legal]})")
                self.step(move)
                continue
            hand = self.state._hands[self.me]
            if len(legal) == 1 and (isinstance(legal[0], Go) or len(hand) == 1):
                self.step(legal[0])  # the program says go and plays the last card for the person itself
                continue
            return

    def play(self) -> None:
        """The program asks for the bot's play."""
        self.catch_up()
        self.check(self.state.phase == 3 and self.spec.to_act(self.state) == self.me,
                   "the program asks for a play; the referee does not")  # fmt: skip
        self.check(not self.queue, f"the program played {self.queue} the referee has not applied")
        seq = [_name(c) for c in self.state.sequence]
        self.check(seq == self.table, f"the program's table {self.table}; the referee's count {seq}")
        self.check_board("a play")
        move = self.ask_bot(self.state)
        self.step(move)
        self.p.send(f"{_name(move.card)}\n")

    def count(self, crib: bool) -> None:
        """The program asks the person to count the hand or the crib: the referee's count."""
        self.catch_up()
        self.check(not self.queue and self.state.phase != 3, "the show began before the referee's play ended")
        what = "crib" if crib else "hand"
        ev = [e for e in self.shows if e.data["seat"] == self.me and e.data["crib"] == crib]
        self.check(len(ev) == 1, f"the referee has no {what} count for the bot")
        shown = self.hands.get(0, [])
        self.check(sorted(shown) == sorted(ev[0].data["cards"]),
                   f"the program shows the bot's {what} {shown}; the referee's {ev[0].data['cards']}")  # fmt: skip
        self.p.send(f"{ev[0].data['points']}\n")

    def their_counts(self) -> None:
        """Check the program's own counts ("My hand scores N", 19 for nothing) and the cards it showed."""
        self.catch_up()
        for text in self.msgs:
            m = re.match(r"My (hand|crib) scores (\d+)", text.strip())
            if m is None:
                continue
            crib = m.group(1) == "crib"
            said = int(m.group(2))
            said = 0 if said == 19 else said
            ev = [e for e in self.shows if e.data["seat"] == self.them and e.data["crib"] == crib]
            self.check(len(ev) == 1, f"the program counted its {m.group(1)}; the referee did not")
            self.check(said == ev[0].data["points"], f"the program's {m.group(1)} scores {said}; the referee's "
                       f"{ev[0].data['points']} ({ev[0].data['cards']})")  # fmt: skip
            shown = self.hands.get(2, [])
            self.check(sorted(shown) == sorted(ev[0].data["cards"]),
                       f"the program shows its {m.group(1)} {shown}; the referee's {ev[0].data['cards']}")  # fmt: skip

    def run(self) -> GameResult:
        p = self.p
        # The cut for deal, and the first wait after it.
        prompt = self.wait()
        discards_typed = 0
        steps = 0
        while True:
            steps += 1
            if steps > 20000:
                self.fail("the game does not end")
            if prompt.startswith("Do you need instructions"):
                p.send("n")
            elif prompt.startswith("Long (to 121)"):
                p.send("l" if self.rules.target == 121 else "s")
            elif prompt.endswith("--More--"):
                self.cut_messages()
                self.their_counts()
                p.send(" ")
            elif prompt.startswith("Discard a card"):
                if discards_typed == 0:
                    self.new_deal()
                card = self.pending[discards_typed]
                discards_typed += 1
                p.send(f"{_name(card)}\n")
                if discards_typed == 2:
                    discards_typed = 0
                    self.msgs = []
                    self.absorb(p.wait())
                    self.after_discards()
                    prompt = self.prompt()
                    continue
            elif prompt.startswith("Your play"):
                self.their_counts()
                self.play()
            elif prompt.startswith("Your hand scores") or prompt.startswith("Your crib scores"):
                self.their_counts()
                self.count(crib=prompt.startswith("Your crib"))
            elif prompt.startswith("Another game"):
                self.their_counts()
                return self.finish()
            else:
                self.fail(f"an unknown prompt {prompt!r}")
            prompt = self.wait()

    def cut_messages(self) -> None:
        """The cut for the first crib: the program's "You cut the ..., I cut the ..." are the referee's cuts."""
        if self.state.phase != 0:
            return
        text = " ".join(self.msgs)
        for cards in self.plan.cuts:
            mine, theirs = cards[self.me], cards[self.them]
            self.check(f"You cut the {_long(mine)}" in text and f"I cut the {_long(theirs)}" in text,
                       f"the program's cut {self.msgs}; the referee's {cards}")  # fmt: skip
            self.step(CutForDeal(cards))
        self.check(self.state.phase == 1, "the referee's cut for deal did not end")

    def finish(self) -> GameResult:
        self.catch_up()
        self.check(self.spec.is_over(self.state), "the program's game is over; the referee's is not")
        self.check_board("the end of the game")
        self.close_deal(complete=False)
        res = self.spec.result(self.state).to_json()
        winner = int(res["winners"][0])
        text = " ".join(self.msgs)
        said = "I WON" in text or "SKUNKED YOU" in text
        self.check(said == (winner == self.them), f"the program says {text!r}; the referee's winner is {winner}")
        self.p.send("n")
        sc = self.scores()
        return GameResult(self.me, self.deals, sc, winner, self.decisions, self.checks)


def play_game(
    bot: Bot[Any], bot_seat: int, rules: Any, plan: Plan, rng: random.Random, workdir: str | None = None
) -> GameResult:
    """Play one game to the target between ``bot`` (in ``bot_seat``) and BSD cribbage, the engine as referee.

    Args:
        bot: a kortbord Cribbage bot (``choose(view, legal, rng)``).
        bot_seat: 0 or 1; the program sits in the other seat.
        rules: the Cribbage ``Rules``: two players, to 121 (the program's long game) or 61 (its short game),
            counted in full (the program takes points the person misses; the bridge counts exactly).
        plan: the referee's cut for deal and shuffles (:meth:`Plan.draw`).
        rng: the bot's own generator.
        workdir: where to make the temporary directory (default the system's).
    Returns:
        The :class:`GameResult`.
    Raises:
        BridgeError: the program and the referee disagree (see the module docstring).
        ValueError: rules the program does not play, or a seat that is not 0 or 1.
    """
    if rules.players != 2 or rules.target not in (61, 121) or rules.muggins or rules.lowball:
        raise ValueError("BSD cribbage plays two players to 121 or 61, counted in full (no Muggins, no Lowball)")
    if bot_seat not in (0, 1):
        raise ValueError(f"bot_seat must be 0 or 1, got {bot_seat!r}")
    base = workdir or tempfile.gettempdir()
    program = Program(draws_for(plan, rules, 1 - bot_seat), base)
    try:
        return _Game(bot, bot_seat, rules, plan, rng, program).run()
    finally:
        program.close()
