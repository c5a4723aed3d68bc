"""``kortbord play cribbage``: a whole game of Cribbage in the terminal against the computer (Rich rendering).

The person sits at seat 0 (``P0``) and computers (:mod:`kortbord.bots.registry`: random, greedy or strong) at
the others; with ``auto`` every seat is a computer and the game is printed.  The client drives the engine only
through its public API (:class:`kortbord.cribbage.game.Game`, ``engine.parse_move``, ``view``, ``result``,
the events' codes and data worded by :mod:`kortbord.i18n`) and gives each bot only its seat's View.

What is shown (rules spec ``../shared/rules/cribbage.md``): the cut for deal, each deal and whose crib it is, the
person's hand (sorted), the starter and his heels (§2.3), the play with the running count and the cards of the
current count, every card laid, every go and every point pegged with its reason ("fifteen for 2", "go for 1");
the show in counting order (§2.6) with the traditional count ("fifteen two, fifteen four, a pair is six"), the
crib face up when counted; a text cribbage board; the end with the winner, skunks (§2.7) or the Lowball loser.

Under Muggins (§2.10 M1-M15) the person announces the count of the own hand and crib (0-29) and answers the
computers' counts (accept, ``muggins N``, ``overcount``); the settlement and the true breakdown are shown after
each count is settled, never before (M9).

Input: a card (``5H``, ``10D``, ``5♥``; two for a 2-player discard), ``go``, a number from the numbered list of
legal moves (in the discard and the play), a number 0-29 for a Muggins count, ``accept``/``muggins N``/
``overcount`` to answer one; commands ``?``/``help``, ``moves``, ``table``, ``rules``, ``quit`` (asks for
confirmation, then saves the record).  Bad input is answered with the engine's reason and asked again; it never
changes the game.  The game record (``docs/engine-api.md``, "Game records") is written when the game ends or the
person quits, and replays with ``kortbord cribbage replay RECORD.json``.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import os
import random
import re
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Final, cast

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kortbord import core, i18n
from kortbord.bots import registry
from kortbord.bots.base import Bot, TableReader
from kortbord.cards import Card
from kortbord.cli import _session
from kortbord.cli._io import plain as safe_text
from kortbord.cli._io import read_json_file
from kortbord.cli._session import LineReader, SpecGame, flow, quiet
from kortbord.cli.card_faces import card_plain as plain
from kortbord.cli.card_faces import card_text, cards_text
from kortbord.contract import Reason
from kortbord.cribbage.moves import Discard, Go, Move, Play
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.state import Event
from kortbord.cribbage.view import View
from kortbord.errors import IllegalMoveError, InvalidMoveError, KortbordError
from kortbord.i18n import render
from kortbord.i18n.cribbage import callout as spoken_count
from kortbord.i18n.cribbage import peg_text

__all__ = ["COMPUTER_NAMES", "LEVELS", "CribbageTable", "Options", "Quit", "build_rules", "resolve_input", "run"]

#: Cribbage's entry in the game registry: the terminal's rules, sides and words come through it.
SPEC: Final = core.get("cribbage")
#: Names of the computer players, by seat after the person's.
COMPUTER_NAMES: Final = ("Anna", "Bo", "Cilla", "Dag")
#: The computer levels (:data:`kortbord.bots.registry.LEVELS`), weakest first.
LEVELS: Final = registry.LEVELS["cribbage"]

_SIDE_STYLES: Final = ("bold green", "bold magenta", "bold cyan", "bold yellow")
_BAR: Final = 40
#: First words of move notation (``kortbord.cribbage.moves``); anything else that is not a card is no move.
_MOVE_WORDS: Final = frozenset(
    [
        "discard",
        "d",
        "throw",
        "play",
        "p",
        "go",
        "pass",
        "count",
        "announce",
        "accept",
        "ok",
        "muggins",
        "m",
        "overcount",
        "over",
    ]
)


#: The person asked to stop the game (kept importable from here).
Quit = _session.Quit


@dataclasses.dataclass(frozen=True)
class Options:
    """What ``kortbord play cribbage`` was asked for (rules spec §2, §2.9, §2.10, §2a).

    Attributes:
        players: 2, 3 or 4.  partnership: 4 players as two partnerships (partners opposite; four players always
            play so).  target: 61 or 121 points.  muggins: players count their own hands (§2.10).  lowball: the
            first to the target loses (§2.8; with ``muggins`` too, Lowball is played without Muggins).
        bot: a level of :data:`LEVELS` (``random``, ``greedy``, ``strong``).  seed: seed of the shuffles and the
            computers (None: a fresh one).  name: the person's name.  auto: every seat is a computer.
        record: where to save the game record (None: a new file under the user's data directory).
        delay: seconds to pause after each computer move when a person plays at a terminal.
        lang: the language of every line printed for events, reasons, prompts and help (``"en"``, ``"sv"``).
        resume: a saved game record to continue (its rules, seats and seed replace the options above; the person
            sits at seat 0 again, the computers play at ``bot`` level; the record is saved back to it unless
            ``record`` says otherwise).
    """

    players: int = 2
    partnership: bool = False
    target: int = 121
    muggins: bool = False
    lowball: bool = False
    bot: str = "greedy"
    seed: int | None = None
    name: str = "You"
    auto: bool = False
    record: Path | None = None
    delay: float = 0.5
    lang: str = "en"
    resume: Path | None = None


def build_rules(options: Options) -> Rules:
    """The :class:`Rules` for ``options``.

    Raises:
        ValueError: an unknown computer level.  InvalidRulesError: players, target or partnership out of the
            rules (the message says why).
    """
    if options.bot not in LEVELS:
        raise ValueError(f"unknown computer level {options.bot!r}; choose one of {', '.join(LEVELS)}")
    if options.lang not in i18n.LANGS:
        raise ValueError(f"unknown language {options.lang!r}; choose one of {', '.join(i18n.LANGS)}")
    if options.partnership and options.players != 4:
        raise ValueError("partnership play needs 4 players: use --players 4 (four players always play as partners)")
    return Rules(
        players=options.players,
        target=options.target,
        partnership=True if options.partnership else None,
        muggins=options.muggins,
        lowball=options.lowball,
    )


# ------------------------------------------------------------------------------------------------- rendering
# card faces: kortbord.cli.card_faces


def describe_move(move: Move) -> str:
    """A legal move in plain words with suit symbols (``4♣ 5♥``, ``7♥``, ``go``)."""
    if isinstance(move, Discard):
        return " ".join(plain(c) for c in move.cards)
    if isinstance(move, Play):
        return plain(move.card)
    return str(move)


# ------------------------------------------------------------------------------------------------- input
def resolve_input(text: str, game: Any, numbered: Sequence[Move]) -> Move:
    """The legal move the person means by ``text`` in the discard or the play (a number of ``numbered``, cards,
    ``go`` or full notation), or in a Muggins show (a number 0-29 is a count; ``accept``, ``muggins N``,
    ``overcount``; an empty line accepts).

    Args:
        text: one line of input (not a command).
        game: the game, with the person to act.
        numbered: the legal moves as listed to the person (number ``i`` is ``numbered[i - 1]``); empty in the show.
    Returns:
        A legal move.
    Raises:
        InvalidMoveError / InvalidCardError: malformed input.  IllegalMoveError: well formed but not legal here,
        with the engine's reason.
    """
    t = " ".join(text.replace(",", " ").split())
    view = game.view(game.to_act) if game.to_act is not None else None
    if view is not None and view.phase == "show":
        if view.announced is None:
            if t.isascii() and t.isdigit():
                t = f"count {t}"
            elif t.lower() in ("accept", "ok", "a", "overcount", "over", "o") or t.lower().startswith(
                ("m ", "muggins")
            ):
                raise IllegalMoveError(Reason("count_turn", game="terminal"))
        else:
            low = t.lower()
            if low in ("", "a", "y", "yes"):
                t = "accept"
            elif low == "o":
                t = "overcount"
            elif t.isdigit():
                raise InvalidMoveError(
                    f"to claim {t} missed points type 'muggins {t}'; or 'accept', or 'overcount' if too many were "
                    "announced"
                )
            elif low.startswith("count"):
                raise IllegalMoveError(
                    "the count has been announced: answer 'accept', 'muggins N' (points missed) or 'overcount'"
                )
    elif t.isascii() and t.isdigit() and numbered:
        i = int(t) if len(t) <= 6 else -1
        if not 1 <= i <= len(numbered):
            shown = t if len(t) <= 12 else t[:9] + "..."
            raise IllegalMoveError(Reason("no_such_number", {"number": shown, "moves": len(numbered)}, game="terminal"))
        return numbered[i - 1]
    first = t.split(" ")[0].lower()
    if first not in _MOVE_WORDS and not (2 <= len(first) <= 3 and first[0] in "a23456789tjqk1"):
        raise InvalidMoveError(
            f"{t!r} is neither a move nor a command: type cards such as 5H 10D, go, a move number, or ? for help"
        )
    return cast(Move, SPEC.parse_move(game.state, t))


# ------------------------------------------------------------------------------------------------- the session
class CribbageTable:
    """One terminal game: the engine's Game, the bots, the console and the person's input.

    Args:
        options: the chosen options (see :class:`Options`).
        console: where to print (default: standard output).
        read_line: reads one line after printing a prompt (default: Rich's ``Console.input``); raises EOFError
            at the end of input.
    Raises:
        ValueError, InvalidRulesError: bad options (see :func:`build_rules`).
    """

    def __init__(
        self,
        options: Options,
        console: Console | None = None,
        read_line: Callable[[str], str] | None = None,
    ) -> None:
        self.options = options
        self.lang = options.lang
        self.console = console or Console(highlight=False)
        self.read_line = read_line or LineReader(self.console)
        if options.resume is not None:
            # the saved game, replayed through the spec: its rules, seats and seed (kortbord.cli._session)
            build_rules(options)  # the level and language are still checked
            self.game = SpecGame.resume("cribbage", read_json_file(options.resume))
            self.rules: Rules = self.game.rules
            self.seed = self.game.seed
            n = self.rules.players
            self.humans: frozenset[int] = frozenset() if options.auto else frozenset({0})
        else:
            self.rules = build_rules(options)
            self.seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
            n = self.rules.players
            if options.auto:
                names = list(COMPUTER_NAMES[:n])
                self.humans = frozenset()
            else:
                names = [options.name, *COMPUTER_NAMES[: n - 1]]
                self.humans = frozenset({0})
            self.game = SpecGame(
                "cribbage", self.rules, players=n, teams=bool(self.rules.partnership), seed=self.seed, seats=names
            )
        computers = [s for s in range(n) if s not in self.humans]
        #: a level that learns from the table (the expert) is told the game's public events before each decision
        self.readers: dict[int, TableReader] = (
            {
                s: TableReader(functools.partial(registry.make_bot, "cribbage", options.bot, self.rules))
                for s in computers
            }
            if registry.observes("cribbage", options.bot)
            else {}
        )
        #: the other computers' bots (a reading seat's bot is its reader's, which a reader may replace)
        self.bots: dict[int, Bot[Move]] = {
            s: registry.make_bot("cribbage", options.bot, self.rules) for s in computers if s not in self.readers
        }
        self.interactive = bool(self.humans) and sys.stdin.isatty()
        self.record_path = options.record or options.resume or _default_record_path()
        # what the event log has shown so far: counts of this deal's show (the crib is number ``players``),
        # the points of each seat and the cards of the current count
        self._shows = 0
        self._scores = [0] * n
        self._sequence: list[Card] = []
        self._board_due = False  # the crib has been counted: show the board once its points are pegged

    # -- names ----------------------------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        """The seat's name at the table, safe to print: control characters shown as escapes, Rich markup escaped
        (a person may call themselves ``[/]``; the record keeps the name as typed)."""
        return safe_text(self.game.seats[seat])

    def side_name(self, side: int) -> str:
        """A side's name: the seat's name, or both partners' names (``You & Bo``)."""
        state = self.game.state
        return " & ".join(self.name(s) for s in range(self.rules.players) if SPEC.side_of(state, s) == side)

    @property
    def names(self) -> list[str]:
        """Every seat's printable name, seat 0 first (the words of events and reasons name seats by these)."""
        return [self.name(s) for s in range(self.rules.players)]

    def _level_words(self) -> dict[str, Any]:
        """The computers' level in the table's language (:func:`kortbord.bots.registry.describe`)."""
        return registry.describe("cribbage", self.options.bot, self.lang, muggins=self.rules.muggins)

    def _level_line(self) -> list[Text]:
        """The intro's description of the computers' level, when a person plays against them."""
        if not self.humans or len(self.humans) == self.rules.players:
            return []
        return [Text(self._level_words()["text"], style="dim")]

    def t(self, key: str, **data: Any) -> str:
        """The terminal's own words ``key`` in the table's language (:mod:`kortbord.i18n`, ``terminal.json``)."""
        return i18n.render(key, data, self.lang, game="terminal")

    def error_text(self, exc: Exception, text: str = "") -> str:
        """Why a line of input was refused, in the table's language: the engine's or the terminal's reason code
        worded by :mod:`kortbord.i18n` (seats by name); in English the error's own message."""
        return _session.refusal_text(
            exc, text, self.lang, self.names, self.t, self._names_in(str(exc)) if self.lang == "en" else ""
        )

    def _why(self, stop: BaseException) -> str:
        return _session.stop_text(stop, self.t)

    def _side_of(self, seat: int) -> int:
        return SPEC.side_of(self.game.state, seat)

    def _you(self, seat: int) -> bool:
        return seat in self.humans and self.name(seat).lower() == "you"

    def subject(self, seat: int, verb: str, plain_verb: str) -> str:
        """``"Anna plays"``, but ``"You play"`` for a person named "You"."""
        return f"{self.name(seat)} {plain_verb if self._you(seat) else verb}"

    def possessive(self, seat: int) -> str:
        """``"Anna's"``, ``"your"`` for a person named "You"."""
        return "your" if self._you(seat) else f"{self.name(seat)}'s"

    def owner(self, seat: int) -> str:
        """``"Anna's"``, ``"yours"`` for a person named "You" (as in "the crib is yours")."""
        return "yours" if self._you(seat) else f"{self.name(seat)}'s"

    def _names_in(self, text: str) -> str:
        """An engine message with its seat labels (``P0``) followed by the seat's name."""
        return re.sub(
            r"\bP([0-3])\b",
            lambda m: f"P{m.group(1)} ({self.name(int(m.group(1)))})" if int(m.group(1)) < self.rules.players else m[0],
            text,
        )

    # -- main loop ------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play the game to its end (or until the person quits); returns the process exit code: 0; 130 after
        Ctrl-C; 128 + the signal's number after SIGHUP (the terminal closed) or SIGTERM.  The record is saved in
        every case."""
        return _session.play_saving(self._run, self._save, self._say_stopped)

    def _say_stopped(self, stop: BaseException) -> None:
        quiet(self.console.print, self.t("stopped", why=self._why(stop)))

    def _catch_up(self) -> None:
        """After a resume: follow the replayed events without printing them (the board and the show's counts
        are kept from the events), then say where the game stands."""
        console, interactive = self.console, self.interactive
        self.console, self.interactive = Console(file=io.StringIO(), width=console.width), False
        try:
            self._show_events(self.game.events)
        finally:
            self.console, self.interactive = console, interactive
        assert self.options.resume is not None
        self.console.print(
            self.t("resumed", path=safe_text(self.options.resume), moves=len(self.game.moves)), style="dim"
        )

    def _run(self) -> int:
        self._intro()
        if self.options.resume is not None:
            self._catch_up()
        else:
            self._show_events(self.game.events)
        while not self.game.is_over():
            seat = self.game.to_act
            assert seat is not None
            view = self.game.view(seat)
            if seat in self.humans:
                forced = view.legal_moves == (Go(),)
                if forced:
                    move: Move = Go()
                    self.console.print(Text(self.t("no_card_fits"), style="dim"))
                else:
                    move = self._ask_move(seat, view)
            else:
                legal = self.game.legal_moves()
                reader = self.readers.get(seat)
                if reader is not None:
                    move = reader.choose(self.game.events, view, legal, self.game.bot_rng(seat))
                else:
                    move = self.bots[seat].choose(view, legal, self.game.bot_rng(seat))
            self._show_events(self.game.play(move, seat=seat), mover=seat, move=move)
            if seat not in self.humans and self.interactive and self.options.delay > 0:
                time.sleep(self.options.delay)
        self._game_over()
        self._save()
        return 0

    def _record_line(self) -> Text:
        o = self.options
        return _session.record_line(
            self.t, person=bool(self.humans), chosen=o.seed is not None, seed=self.seed, path=self.record_path
        )

    def _intro(self) -> None:
        r, o = self.rules, self.options
        if self.lang != "en":
            seats = ", ".join(
                f"{self.name(s)} ({self.t('you') if s in self.humans else self.t('computer', level=self._level_words()['name'])})"
                for s in range(r.players)
            )
            lines = [
                Text.assemble((self.t("cribbage.title"), "bold"), " — " + self.t("players", players=r.players)),
                Text(self.t("seats", seats=seats)),
                *self._level_line(),
                self._record_line(),
            ]
            if self.humans:
                lines.append(Text(self.t("cribbage.hint"), style="dim"))
            self.console.print(Panel(Group(*lines), border_style="green", expand=False))
            return
        mode = f"first to {r.target}"
        if r.lowball:
            mode = f"Lowball: whoever reaches {r.target} first loses"
        options = [mode]
        if r.muggins:
            options.append("Muggins: players count their own hands")
        if r.partnership:
            options.append("partnerships")
        seats = ", ".join(
            f"{self.name(s)} (P{s}{'' if s in self.humans else ', ' + o.bot + ' computer'})" for s in range(r.players)
        )
        lines = [
            Text.assemble(("CRIBBAGE", "bold"), f" — {r.players} players, {', '.join(options)}"),
            Text(f"Seats clockwise: {seats}"),
            *self._level_line(),
        ]
        if r.partnership:
            lines.append(Text(f"Partners: {self.side_name(0)} against {self.side_name(1)}"))
        for notice in r.notices:
            lines.append(Text(f"Note: {notice}", style="bold yellow"))
        lines.append(self._record_line())
        if self.humans:
            lines.append(Text("Type cards (5H 10D), go, a move number, or ? for help.", style="dim"))
        self.console.print(Panel(Group(*lines), border_style="green", expand=False))

    # -- the person's turn ----------------------------------------------------------------------------------
    def _ask_move(self, seat: int, view: View) -> Move:
        in_show = view.phase == "show"
        moves: list[Move] = [] if in_show else list(view.legal_moves)
        if in_show:
            self._muggins_prompt_info(view)
            if view.announced is None:
                prompt = self.t("prompt.count", name=self.name(seat))
            else:
                prompt = self.t("prompt.answer", name=self.name(seat))
        else:
            self.console.print(self._table_panel(view))
            self._print_moves(view, moves)
            if view.phase == "discard":
                k = self.rules.discards
                crib = "your crib" if view.dealer == seat else f"{self.possessive(view.dealer or 0)} crib"
                if (
                    view.dealer is not None
                    and view.dealer != seat
                    and self._side_of(view.dealer) == self._side_of(seat)
                ):
                    crib += " (your side's)"
                if self.lang != "en":
                    crib = self.name(view.dealer or 0)
                cards = f"card{'s' if k > 1 else ''}"
                prompt = self.t("prompt.discard", name=self.name(seat), count=k, cards=cards, crib=crib)
            else:
                prompt = self.t("prompt.card", name=self.name(seat), count=view.count)
        while True:
            try:
                line = self.read_line(prompt)
            except EOFError:
                raise Quit("end of input") from None
            except KeyboardInterrupt:
                raise Quit("interrupted") from None
            text = line.strip()
            command = text.lower()
            if not text and not (in_show and view.announced is not None):
                continue
            if command in ("?", "help", "h"):
                self.console.print(flow(self.t("cribbage.help"), self.console.width))
                if in_show and view.announced is None:
                    self.console.print(self.t("cribbage.muggins_howto"))
            elif command in ("moves", "list"):
                if in_show:
                    self.console.print(
                        self.t("cribbage.count_moves" if view.announced is None else "cribbage.answer_moves")
                    )
                else:
                    self._print_moves(view, moves)
            elif command == "rules":
                self.console.print(flow(self.t("cribbage.rules"), self.console.width))
                self.console.print(safe_text(_session.table_rules_text("cribbage", self.rules, self.lang)))
            elif command in ("table", "t", "board"):
                self.console.print(self._table_panel(view))
            elif command in ("quit", "exit", "q"):
                if self._confirm_quit():
                    raise Quit("you quit")
            else:
                try:
                    return resolve_input(text, self.game, moves)
                except ValueError as exc:  # KortbordError, and anything else a line of input could provoke
                    self.console.print(Text.assemble(("✗ ", "bold red"), self.error_text(exc, text)))

    def _confirm_quit(self) -> bool:
        try:
            answer = self.read_line(self.t("prompt.quit"))
        except (EOFError, KeyboardInterrupt):
            return True
        return answer.strip().lower() in ("y", "yes", "j", "ja")

    def _print_moves(self, view: View, moves: Sequence[Move]) -> None:
        grid = Table.grid(padding=(0, 1))
        per_row = 5 if view.phase == "discard" and self.rules.discards == 2 else 8
        for _ in range(per_row):
            grid.add_column(justify="right", style="bold cyan")
            grid.add_column(min_width=8 if view.phase == "discard" and self.rules.discards == 2 else 4)
        row: list[Text | str] = []
        for i, m in enumerate(moves, 1):
            row += [f"{i}", self._move_face(m)]
            if len(row) == 2 * per_row:
                grid.add_row(*row)
                row = []
        if row:
            grid.add_row(*row)
        self.console.print(Text(self.t("legal_moves"), style="bold"))
        self.console.print(grid)

    @staticmethod
    def _move_face(move: Move) -> Text:
        if isinstance(move, Discard):
            return cards_text(move.cards, sep="")
        if isinstance(move, Play):
            return card_text(move.card)
        return Text(str(move), style="bold")

    def _table_panel(self, view: View) -> Panel:
        dealer = view.dealer if view.dealer is not None else 0
        title = self.t(
            "cribbage.panel.title",
            deal=view.deal_number,
            deals=self.subject(dealer, "deals", "deal"),
            owner=self.owner(dealer),
            dealer=self.name(dealer),
        )
        t = self.t
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", justify="right")
        grid.add_column()
        grid.add_row(t("cribbage.panel.board"), self.board(view.side_scores, dealer=dealer))
        grid.add_row(
            t("cribbage.panel.starter"),
            card_text(view.starter) if view.starter is not None else Text(t("cribbage.panel.face_down"), style="dim"),
        )
        if view.phase == "play":
            count = Text.assemble((f"{view.count:>2}", "bold yellow"), "  ")
            count.append_text(cards_text(view.sequence))
            grid.add_row(t("cribbage.panel.count"), count)
            earlier = [c for _, c in view.played][: len(view.played) - len(view.sequence)]
            if earlier:
                grid.add_row(t("cribbage.panel.played_before"), cards_text(earlier))
        others = [
            f"{self.name(s)} {view.hand_sizes[s]}"
            + (t("cribbage.panel.go") if s in view.passed else "")
            + (
                t("cribbage.panel.partner")
                if self.rules.partnership and self._side_of(s) == self._side_of(view.seat)
                else ""
            )
            for s in range(view.players)
            if s != view.seat
        ]
        grid.add_row(t("cribbage.panel.held"), Text.from_markup(" · ".join(others)))
        grid.add_row(t("cribbage.panel.hand"), cards_text(view.hand))
        if view.discards:
            grid.add_row(t("cribbage.panel.laid_away"), cards_text(view.discards))
        return Panel(grid, title=title, title_align="left", border_style="green", expand=False)

    def board(self, side_scores: Sequence[int], dealer: int | None = None) -> Table:
        """The text cribbage board: one track per side, ``target / 40`` points per mark, the score and target."""
        r = self.rules
        grid = Table.grid(padding=(0, 1))
        grid.add_column(style="bold")
        grid.add_column()
        grid.add_column(justify="right")
        per = r.target / _BAR
        skunk = r.skunk_threshold if r.skunks and not r.lowball else None
        for side, score in enumerate(side_scores):
            filled = min(_BAR, round(score / per))
            track = Text("▕", style="dim")
            style = _SIDE_STYLES[side % len(_SIDE_STYLES)]
            for i in range(_BAR):
                if i < filled:
                    track.append("█", style=style)
                elif skunk is not None and i == round(skunk / per):
                    track.append("┊", style="dim red")
                else:
                    track.append("·", style="grey50")
            track.append("▏", style="dim")
            label = self.side_name(side)
            if dealer is not None and self._side_of(dealer) == side:
                label += " ✦"
            grid.add_row(label, track, Text.assemble((f"{score:>3}", "bold"), (f" / {r.target}", "dim")))
        return grid

    def _muggins_prompt_info(self, view: View) -> None:
        counter = view.counting
        assert counter is not None and view.starter is not None
        if view.announced is None:
            whose = self.possessive(counter) if self.lang == "en" else self.name(counter)
            what = "crib" if view.counting_crib else "hand"
            line = Text.assemble(
                (self.t("cribbage.count_what", what=what, whose=whose), "bold"),
                cards_text(sorted(view.counting_cards)),
                self.t("cribbage.starter_word"),
                card_text(view.starter),
            )
            self.console.print(line)
            self.console.print(Text(self.t("cribbage.muggins_howto"), style="dim"))
        else:  # the counted cards and the announcement were just printed with the announce event
            subject = self.subject(counter, "announces", "announce") if self.lang == "en" else self.name(counter)
            self.console.print(self.t("cribbage.muggins_answer", subject=subject, announced=view.announced))

    # -- moves and events -----------------------------------------------------------------------------------
    def _show_events(self, events: Sequence[Event], mover: int | None = None, move: Move | None = None) -> None:
        if self.lang != "en":
            self._event_words(events)
            return
        for e in events:
            seat = e.get("seat")
            if self._board_due and e.kind != "peg":
                self._after_show()
            if e.kind == "cut":
                cut = Text("Cut for deal: ")
                for s, c in enumerate(e["cards"]):
                    cut.append_text(Text.assemble(f"{self.name(s)} ", card_text(Card.parse(c)), "   "))
                self.console.print(cut)
            elif e.kind == "cut_again":
                self.console.print("  Equal lowest cards: cut again.")
            elif e.kind == "dealer" and seat is not None:
                deals = "deal" if self._you(seat) else "deals"
                self.console.print(f"{self.subject(seat, 'cuts', 'cut')} the lowest card and {deals} first.")
            elif e.kind == "deal":
                self._deal_line(e["dealer"], e["cards"][0])
            elif e.kind == "discard" and seat is not None:
                if seat in self.humans and mover == seat and isinstance(move, Discard):
                    self.console.print(
                        Text.assemble(f"{self.subject(seat, 'lays', 'lay')} away ", cards_text(move.cards))
                    )
                else:
                    k = e["count"]
                    self.console.print(
                        f"{self.subject(seat, 'lays', 'lay')} {k} card{'s' if k > 1 else ''} away to the crib."
                    )
            elif e.kind == "starter":
                self.console.print(Text.assemble(("Starter: ", "bold"), card_text(Card.parse(e["card"]))))
            elif e.kind == "play" and seat is not None:
                card = Card.parse(e["card"])
                self._sequence.append(card)
                line = Text.assemble(
                    (f"{self.subject(seat, 'plays', 'play')} ", "bold green" if seat in self.humans else "bold"),
                    card_text(card),
                    ("   count ", "dim"),
                    (f"{e['count']:>2}", "bold yellow"),
                )
                if len(self._sequence) > 1:
                    line.append("   [" + " ".join(plain(c) for c in self._sequence) + "]", style="dim")
                self.console.print(line)
            elif e.kind == "go" and seat is not None:
                self.console.print(Text(f"{self.subject(seat, 'says', 'say')} go", style="italic"))
            elif e.kind == "peg" and seat is not None:
                self._scores[seat] += e["points"]
                self._peg_line(e)
            elif e.kind == "reset":
                self._sequence.clear()
                self.console.print(Text("  — the count starts again at 0 —", style="dim"))
            elif e.kind == "show" and seat is not None:
                self._show_line(seat, e, reveal=False)
                self._counted()
            elif e.kind == "announce" and seat is not None:
                what = "crib (face up)" if e["crib"] else "hand"
                self.console.print(
                    Text.assemble(
                        (f"{self.possessive(seat).capitalize()} {what}: ", "bold"),
                        cards_text(sorted(Card.parse(c) for c in e["cards"])),
                        "  starter ",
                        card_text(Card.parse(e["starter"])),
                        (f"   {self.subject(seat, 'announces', 'announce')} {e['points']}", "bold yellow"),
                    )
                )
            elif e.kind == "response" and seat is not None:
                said = e["call"] + (f" {e['points']}" if e["call"] == "muggins" else "")
                if said == "accept":
                    words = Text(f"  {self.subject(seat, 'accepts', 'accept')}", style="bold")
                else:
                    words = Text.assemble((f"  {self.subject(seat, 'calls', 'call')} ", "bold"), (said, "bold cyan"))
                self.console.print(words)
            elif e.kind == "settle":
                rule = render("settle." + e["outcome"], e.to_json(), game="cribbage")
                self.console.print(Text("  Settled: " + rule, style="yellow"))
            elif e.kind == "reveal" and seat is not None:
                self._show_line(seat, e, reveal=True)
                self._counted()
            # "game_over" is shown by _game_over
        if self._board_due and not self.game.is_over():
            self._after_show()

    def _event_words(self, events: Sequence[Event]) -> None:
        """Every event as one line in the table's language (:func:`kortbord.i18n.event_text`: the spoken count,
        pegs, Muggins), keeping the score and the board as :meth:`_show_events` does."""
        for e in events:
            seat = e.get("seat")
            if self._board_due and e.kind != "peg":
                self._after_show()
            if e.kind == "deal":
                self._shows = 0
                self._sequence.clear()
            elif e.kind == "peg" and seat is not None:
                self._scores[seat] += e["points"]
            elif e.kind == "game_over":
                continue  # shown by _game_over
            line = i18n.event_text(e.to_json(), self.lang, self.names, game="cribbage")
            style = {"peg": "bold yellow", "deal": "bold", "starter": "bold"}.get(e.kind, "")
            self.console.print(Text(("" if e.kind == "deal" else "  ") + line, style=style))
            if e.kind in ("show", "reveal") and seat is not None:
                self._counted()
        if self._board_due and not self.game.is_over():
            self._after_show()

    def _deal_line(self, dealer: int, cards: int) -> None:
        self._shows = 0
        self._sequence.clear()
        deal_no = self.game.view(0).deal_number
        extra = " and one to the crib" if self.rules.crib_from_pack else ""
        self.console.print(
            Text.assemble(
                ("\n── ", "green"),
                (f"Deal {deal_no}", "bold"),
                f": {self.subject(dealer, 'deals', 'deal')} {cards} cards each{extra}; "
                f"the crib is {self.owner(dealer)} ",
                ("──", "green"),
            )
        )

    def _counted(self) -> None:
        """One hand or the crib has been counted; after the crib the board is shown (and a pause, at a terminal)."""
        self._shows += 1
        self._board_due = self._shows > self.rules.players and not self.game.is_over()

    def _peg_line(self, e: Event) -> None:
        seat: int = e["seat"]
        points: int = e["points"]
        side = self._side_of(seat)
        score = sum(p for s, p in enumerate(self._scores) if self._side_of(s) == side)
        sign = "+" if points > 0 else ""
        style = "bold yellow" if points > 0 else "bold red"
        self.console.print(
            Text.assemble(
                ("  ★ ", style),
                (f"{self.name(seat)}: ", "bold"),
                (peg_text(e.to_json()), style),
                (f"   ({sign}{points} → {self.side_name(side)} {score})", "dim"),
            )
        )

    def _show_line(self, seat: int, e: Event, *, reveal: bool) -> None:
        """A ``show`` or ``reveal`` event: the counted cards, the starter and the spoken count with the total."""
        hand = [Card.parse(c) for c in e["cards"]]
        starter = Card.parse(e["starter"])
        total: int = e["points"]
        what = "crib (face up)" if e["crib"] else "hand"
        head = "True count of " if reveal else ""
        owner = self.possessive(seat)
        title = f"{head}{owner if head else owner.capitalize()} {what}"
        self.console.print(
            Text.assemble((title + ": ", "bold"), cards_text(sorted(hand)), "  starter ", card_text(starter))
        )
        call = ", ".join(spoken_count(e["groups"], "en"))
        if total == 0:
            call += " (the players' joke for a hand worth nothing)"
        self.console.print(
            Text.assemble(
                ("    “", "dim"),
                (call[0].upper() + call[1:], "italic cyan"),
                ("”", "dim"),
                ("  = ", "dim"),
                (f"{total}", "bold yellow"),
            )
        )

    def _after_show(self) -> None:
        self._board_due = False
        r = self.rules
        sides = [sum(p for s, p in enumerate(self._scores) if self._side_of(s) == side) for side in range(r.sides)]
        self.console.print(Panel(self.board(sides), title=self.t("board"), title_align="left", expand=False))
        if self.interactive:
            try:
                self.read_line(self.t("prompt.next_deal"))
            except (EOFError, KeyboardInterrupt):
                raise Quit("end of input") from None

    def _game_over(self) -> None:
        res = self.game.result().detail  # the engine's result in the spec's: seats, skunks, game points
        r = self.rules
        scores = "   ".join(f"{self.side_name(s)} {res.side_scores[s]}" for s in range(len(res.side_scores)))
        lines: list[Text] = []
        winner_sides = sorted({self._side_of(w) for w in res.winners})
        if self.lang != "en":
            scores = "   ".join(f"{self.side_name(s)} {res.side_scores[s]}" for s in range(len(res.side_scores)))
            head = self.t("winner", names=" & ".join(self.side_name(s) for s in winner_sides))
            body = Group(
                self.board(res.side_scores),
                Text(""),
                Text(head, style="bold yellow"),
                Text(self.t("final_score", scores=scores), style="bold"),
            )
            self.console.print(Panel(body, title=self.t("game_over"), border_style="yellow", expand=False))
            return
        names = " and ".join(self.side_name(s) for s in winner_sides)
        plural = len(winner_sides) > 1 or r.partnership or (len(res.winners) == 1 and self._you(res.winners[0]))
        if res.lowball:
            loser = self._side_of(res.reached)
            lines.append(
                Text(
                    f"{self.side_name(loser)} reached {r.target} first and "
                    f"{'lose' if r.partnership or self._you(res.reached) else 'loses'} (Lowball).",
                    style="bold red",
                )
            )
            lines.append(Text(f"{names} {'win' if plural else 'wins'} the game!", style="bold yellow"))
        else:
            lines.append(Text(f"{names} {'win' if plural else 'wins'} the game!", style="bold yellow"))
            if res.double_skunk:
                losers = ", ".join(self.side_name(s) for s in res.double_skunked)
                lines.append(
                    Text(
                        f"Double skunk: {losers} at {r.double_skunk_threshold} or less — worth {res.game_points} games.",
                        style="bold magenta",
                    )
                )
            elif res.skunk:
                losers = ", ".join(self.side_name(s) for s in res.skunked)
                lines.append(
                    Text(
                        f"Skunk: {losers} at {r.skunk_threshold} or less — worth {res.game_points} games.",
                        style="bold magenta",
                    )
                )
        lines.append(Text(f"Final score: {scores}", style="bold"))
        body = Group(self.board(res.side_scores), Text(""), *lines)
        self.console.print(Panel(body, title="Game over", border_style="yellow", expand=False))

    def _save(self, quietly: bool = False, say: bool = True) -> None:
        """Write the record (a new file, then renamed over the old: a signal never leaves half a record); then
        say where, unless ``say`` is false (``quietly``: ignoring a terminal that has gone)."""
        if not say:
            tell: Callable[..., None] = lambda *a, **k: None
        elif quietly:
            tell = lambda *a, **k: quiet(self.console.print, *a, **k)
        else:
            tell = self.console.print
        try:
            self.record_path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.record_path.with_name(self.record_path.name + ".partial")
            partial.write_text(json.dumps(self.game.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
            partial.replace(self.record_path)
        except OSError as exc:
            tell(self.t("save_failed", path=self.record_path, error=exc))
            return
        tell(self.t("saved", path=self.record_path, game="cribbage"), soft_wrap=True)
        if not self.game.is_over():
            tell(self.t("resume_hint", path=self.record_path, game="cribbage"), soft_wrap=True)


def _default_record_path() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return (
        base / "kortbord" / "games" / f"cribbage-{stamp}-{secrets.token_hex(3)}.json"
    )  # no seed: it would deal the game


def run(options: Options, console: Console | None = None, read_line: Callable[[str], str] | None = None) -> int:
    """Play ``kortbord play cribbage`` with ``options``; returns the exit code (0; 2 for bad options).

    Bad options are reported on standard error with the reason; nothing is played.
    """
    try:
        table = CribbageTable(options, console, read_line)
    except (ValueError, KortbordError) as exc:
        Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {safe_text(exc)}", soft_wrap=True)
        return 2
    return table.run()
