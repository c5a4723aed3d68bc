"""``kortbord play mulle``: a whole game of Mulle in the terminal against the computer (Rich rendering).

The person sits at seat 0 and computers (:mod:`kortbord.bots.registry`: random, greedy or strong) at the others;
with ``auto`` every seat is a computer and the game is printed.  The client drives the engine only through its public API
(:class:`kortbord.mulle.game.Game`, ``parse_move``, ``explain_illegal``) and gives each bot only its seat's View.

Each turn the person sees the table (loose cards; builds with id, value, owner, locked flag), the own hand (with
the hand values of aces, 2♠ and 10♦), the capture piles, the scores, the stock and the deal number, and a numbered
list of the legal moves.  A move is entered as

* a number from the list;
* full notation (rules spec ``../shared/rules/mulle.md`` §5.2), e.g. ``C 8C x {2D,6S}``, ``B 3C on 5H =8``;
* a shorthand: a card alone (``9H``) when only one legal move plays that card, or a move letter and a card
  (``T 5C``, ``C 8C``, ``B 3C``, ``L 9D``) when that names one legal move;
* a command: ``?``/``help``, ``moves``, ``rules``, ``quit`` (asks for confirmation, then saves the record).

Bad input is answered with the engine's reason and the person is asked again; it never changes the game.  The
game record (``docs/engine-api.md``, "Game records") is written when the game ends or the person quits, and can
be replayed with ``kortbord mulle replay RECORD.json``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import secrets
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Final, cast

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from kortbord import core, i18n
from kortbord.bots import registry
from kortbord.bots.base import Bot
from kortbord.cards import Card
from kortbord.cli import _session
from kortbord.cli._io import plain, printable, read_json_file
from kortbord.cli._session import LineReader, SpecGame, flow, quiet
from kortbord.cli.card_faces import card_plain as _plain
from kortbord.cli.card_faces import card_text, cards_text
from kortbord.cli.card_faces import cards_plain as _plain_cards
from kortbord.contract import Reason
from kortbord.errors import AmbiguousMoveError, IllegalMoveError, InvalidCardError, KortbordError
from kortbord.mulle.engine import Event
from kortbord.mulle.moves import Build, BuildDown, Capture, LayOn, Package, PlayerMove, Raise, Trail
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import card_points, mulle_points
from kortbord.mulle.state import HV, SCORING, PileInfo
from kortbord.mulle.state import Build as TableBuild
from kortbord.mulle.view import View

__all__ = [
    "COMPUTER_NAMES",
    "DEALS",
    "LENGTHS",
    "PROFILES",
    "Options",
    "Quit",
    "build_rules",
    "describe_move",
    "make_bot",
    "resolve_input",
    "run",
]

#: Mulle's entry in the game registry: the terminal's rules, sides and words come through it.
SPEC: Final = core.get("mulle")
#: Deal formats hand+table (rules spec §2.3, §3, A17).
DEALS: Final = {"8+8": (8, 8), "5+5": (5, 5), "4+8": (4, 8)}
#: Game lengths (spec §2.12, A18): a points target, a single round, or every player dealing once.
LENGTHS: Final = {"100": "target:100", "200": "target:200", "round": "single_round", "each-deals": "each_deals_once"}
#: The rule profiles a person can pick (spec §3).
PROFILES: Final = ("standard", "cardgames.zone")
#: Legal-move lists longer than this are printed in columns, without the notation.
_LONG_LIST: Final = 14
#: The kind of each move, for the chooser's per-card summary (words: ``mulle.kind`` in ``i18n/terminal.json``).
_KINDS: Final = {
    Capture: "capture",
    Trail: "trail",
    Build: "build",
    Raise: "raise",
    BuildDown: "build_down",
    Package: "package",
    LayOn: "lay_on",
}
#: Names of the computer players, by seat after the person's.
COMPUTER_NAMES: Final = ("Anna", "Bo", "Cilla", "Dag")
#: The computer levels (:data:`kortbord.bots.registry.LEVELS`), weakest first.
LEVELS: Final = registry.LEVELS["mulle"]


#: The person asked to stop the game (kept importable from here).
Quit = _session.Quit


@dataclasses.dataclass(frozen=True)
class Options:
    """What ``kortbord play mulle`` was asked for.

    Attributes:
        players: 2, 3 or 4.  teams: 4 players as two partnerships (P1+P3 against P2+P4).
        deal: a key of :data:`DEALS`.  length: a key of :data:`LENGTHS`.  profile: one of :data:`PROFILES`.
        kryp: Kryp-mulle (points are to be avoided; the lowest total wins).  bot: a level of :data:`LEVELS`
        (``random``, ``greedy``, ``strong``).  seed: seed of the shuffles and bots (None: a fresh one).
        name: the person's name.  auto: every seat is a computer.  record: where to save the game record
            (None: a new file under the user's data directory).  delay: seconds to pause after each computer
            move when the person plays at a terminal.  lang: the language of every line printed for events,
            reasons, prompts and help (``"en"``, ``"sv"``; :data:`kortbord.i18n.LANGS`).  resume: a saved game
            record to continue (its rules, players, seats and seed replace the options above; the person sits
            at seat 0 again, the computers play at ``bot`` level; the record is saved back to it unless
            ``record`` says otherwise).
    """

    players: int = 2
    teams: bool = False
    deal: str = "8+8"
    length: str = "100"
    profile: str = "standard"
    kryp: bool = False
    bot: str = "greedy"
    seed: int | None = None
    name: str = "You"
    auto: bool = False
    record: Path | None = None
    delay: float = 0.4
    lang: str = "en"
    resume: Path | None = None


def build_rules(options: Options) -> Rules:
    """The :class:`Rules` for ``options`` (profile, deal format, game length, kryp).

    Raises:
        ValueError: an unknown deal format, game length, profile, bot level, or a player/teams combination
            that does not exist (the message names the choices).
    """
    if options.players not in (2, 3, 4):
        raise ValueError(f"Mulle is played by 2, 3 or 4 players, not {options.players}")
    if options.teams and options.players != 4:
        raise ValueError("teams need 4 players: use --players 4 --teams")
    if options.deal not in DEALS:
        raise ValueError(f"unknown deal format {options.deal!r}; choose one of {', '.join(DEALS)}")
    if options.length not in LENGTHS:
        raise ValueError(f"unknown game length {options.length!r}; choose one of {', '.join(LENGTHS)}")
    if options.profile not in PROFILES:
        raise ValueError(f"unknown rules profile {options.profile!r}; choose one of {', '.join(PROFILES)}")
    if options.bot not in LEVELS:
        raise ValueError(f"unknown computer level {options.bot!r}; choose one of {', '.join(LEVELS)}")
    if options.lang not in i18n.LANGS:
        raise ValueError(f"unknown language {options.lang!r}; choose one of {', '.join(i18n.LANGS)}")
    hand, table = DEALS[options.deal]
    rules: Rules = SPEC.make_rules(
        {
            "profile": options.profile,
            "hand_size": hand,
            "table_size": table,
            "game_length": LENGTHS[options.length],
            "kryp": options.kryp,
        },
        players=options.players,
        teams=options.teams,
    )
    return rules


def make_bot(level: str, rules: Rules) -> Bot[PlayerMove]:
    """The computer player of ``level`` for a game under ``rules``, from :func:`kortbord.bots.registry.make_bot`.

    Raises:
        ValueError: an unknown level, or ``strong`` when its module is not available.
    """
    bot: Bot[PlayerMove] = registry.make_bot("mulle", level, rules)
    return bot


# ------------------------------------------------------------------------------------------------- rendering
# card faces: kortbord.cli.card_faces


def describe_move(move: PlayerMove, builds: Sequence[TableBuild] = ()) -> str:
    """A move in words with suit symbols, e.g. ``take 3♥ 5♠ and B1 (=8) with 8♣`` (``builds``: the table's
    builds before the move, to name their values)."""
    values = {b.id: b.value for b in builds}

    def bname(bid: str) -> str:
        return f"{bid} (={values[bid]})" if bid in values else bid

    c = _plain(move.card)
    if isinstance(move, Capture):
        parts = [_plain_cards(move.loose)] if move.loose else []
        parts += [bname(b) for b in move.builds]
        return f"take {' and '.join(parts)} with {c}"
    if isinstance(move, Trail):
        return f"trail {c}"
    if isinstance(move, Build):
        pkg = f", packing in {', '.join('+'.join(_plain(x) for x in p) for p in move.pkg)} (locked)" if move.pkg else ""
        return f"build {c} on {'+'.join(_plain(x) for x in move.on)} = {move.value}{pkg}"
    if isinstance(move, Raise):
        return f"raise {bname(move.build)} with {c} to {move.value}"
    if isinstance(move, BuildDown):
        return f"build {bname(move.build)} down with {c} to {move.value}"
    if isinstance(move, Package):
        pkg = f" and {', '.join('+'.join(_plain(x) for x in p) for p in move.pkg)}" if move.pkg else ""
        return (
            f"package {'+'.join(_plain(x) for x in (move.card, *move.loose))}{pkg} into {bname(move.build)} (locks it)"
        )
    assert isinstance(move, LayOn)
    return f"lay {c} on {bname(move.build)}: ligger (locks it)"


def _capture_preview(view: View, move: Capture, rules: Rules, lang: str = "en") -> str:
    """What a capture would bring, from public facts: card points, mulles, tabbe (spec §2.8, §2.9, §2.11)."""
    builds = {b.id: b for b in view.builds}
    got = [move.card, *move.loose]
    for bid in move.builds:
        got.extend(builds[bid].cards)
    notes = []
    pts = sum(card_points(c, rules) for c in got)
    if pts:
        notes.append(i18n.render("mulle.preview.points", {"points": pts, "plural": pts}, lang, game="terminal"))
    seen: set[Card] = set()
    for c in got:
        if c not in seen and got.count(c) >= 2:
            seen.add(c)
            notes.append(f"MULLE {mulle_points(c, rules, from_hand=c == move.card)}")
    loose_left = len(view.table) - len(move.loose)
    last_play = view.stock_size == 0 and sum(view.hand_sizes) == 1
    if loose_left == 0 and len(view.builds) == len(move.builds) and not last_play:
        notes.append("TABBE")
    return ", ".join(notes)


# ------------------------------------------------------------------------------------------------- input
def resolve_input(text: str, game: Any, numbered: Sequence[PlayerMove]) -> PlayerMove:
    """The legal move the person means by ``text`` (a number, notation or shorthand; see the module docstring).

    Args:
        text: one line of input (not a command).
        game: the game (anything with the engine's ``state``: a :class:`~kortbord.cli._session.SpecGame`), with
            the person to move.
        numbered: the legal moves in the order they were listed (number ``i`` is ``numbered[i - 1]``).
    Returns:
        One of ``numbered``.
    Raises:
        InvalidMoveError / InvalidCardError: malformed input.  IllegalMoveError: a well-formed move that is not
        legal here, with the engine's reason.  AmbiguousMoveError: the shorthand names several legal moves.
    """
    t = " ".join(text.split())
    state = game.state
    if t.isascii() and t.isdigit():
        i = int(t) if len(t) <= 6 else -1
        if not 1 <= i <= len(numbered):
            shown = t if len(t) <= 12 else t[:9] + "..."
            raise IllegalMoveError(Reason("no_such_number", {"number": shown, "moves": len(numbered)}, game="terminal"))
        return numbered[i - 1]
    seat = SPEC.to_act(state)
    hand = SPEC.view(state, seat).hand if seat is not None else ()
    words = t.split(" ")
    kind: str | None = None
    if len(words) == 1:
        try:
            card = Card.parse(t)
        except InvalidCardError:
            if 2 <= len(t) <= 3 and t[0].upper() in "A23456789TJQK1":
                raise  # it looks like a card: the card parser says what is wrong with it
            raise IllegalMoveError(Reason("not_a_move", {"text": t}, game="terminal")) from None
    elif len(words) == 2 and words[0].upper() in ("C", "T", "B", "R", "D", "P", "L"):
        kind = words[0].upper()
        card = Card.parse(words[1])
        if kind in ("C", "T"):
            return cast(
                PlayerMove, SPEC.parse_move(state, t)
            )  # the engine resolves "C 8C" and explains an illegal trail
    else:
        return cast(PlayerMove, SPEC.parse_move(state, t))
    classes = {"B": Build, "R": Raise, "D": BuildDown, "P": Package, "L": LayOn}
    matches = [m for m in numbered if m.card == card and (kind is None or isinstance(m, classes[kind]))]
    if len(matches) == 1:
        return matches[0]
    if card not in hand:
        raise IllegalMoveError(Reason("not_held", {"card": str(card)}, game="terminal"))
    if matches:
        listed = "; ".join(f"{numbered.index(m) + 1}: {m}" for m in matches)
        reason = Reason("several_moves", {"text": t, "listed": listed}, game="terminal")
        error = AmbiguousMoveError(str(reason))
        error.reason = reason  # type: ignore[attr-defined]
        raise error
    if kind is None:
        raise IllegalMoveError(SPEC.explain_illegal(state, Trail(card)))
    raise IllegalMoveError(Reason("no_legal_kind", {"card": str(card), "kind": kind}, game="terminal"))


# ------------------------------------------------------------------------------------------------- the session
class MulleTable:
    """One terminal game: the engine's Game, the bots, the console and the person's input.

    Args:
        options: the chosen options (see :class:`Options`).
        console: where to print (default: standard output).
        read_line: reads one line after printing a prompt (default: Rich's ``Console.input``, i.e. ``input()``);
            raises EOFError at the end of input.
    Raises:
        ValueError: bad options (see :func:`build_rules`).
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
            self.game = SpecGame.resume("mulle", read_json_file(options.resume))
            build_rules(dataclasses.replace(options, players=self.game.players, teams=self.game.teams))
            self.rules: Rules = self.game.rules
            self.seed = self.game.seed
            n = self.game.players
            self.humans: frozenset[int] = frozenset() if options.auto else frozenset({0})
        else:
            self.rules = build_rules(options)
            self.seed = options.seed if options.seed is not None else random.SystemRandom().randrange(2**31)
            n = options.players
            if options.auto:
                names = list(COMPUTER_NAMES[:n])
                self.humans = frozenset()
            else:
                names = [options.name, *COMPUTER_NAMES[: n - 1]]
                self.humans = frozenset({0})
            self.game = SpecGame("mulle", self.rules, players=n, teams=options.teams, seed=self.seed, seats=names)
        self.bots: dict[int, Bot[PlayerMove]] = {
            s: make_bot(options.bot, self.rules) for s in range(n) if s not in self.humans
        }
        self.interactive = bool(self.humans) and sys.stdin.isatty()
        self.record_path = options.record or options.resume or _default_record_path()
        #: the screen's height when printing to a terminal: the move list is fitted to it (None: print it whole)
        self.screen_lines: int | None = self.console.size.height if self.console.is_terminal else None
        self._page: list[Text] = []  # the rest of a long move list, shown a page at a time
        self._page_size = 10
        self._page_head: list[Panel | Text] = []

    # -- names ----------------------------------------------------------------------------------------------
    def name(self, seat: int) -> str:
        """The seat's name, safe to print: control characters shown as escapes, Rich markup escaped (a person
        may call themselves ``[/]``; the record keeps the name as typed)."""
        return plain(self.game.seats[seat])

    def side_name(self, side: int) -> str:
        """The name of a scoring side: a seat's name, or both partners' names with teams."""
        return " & ".join(self.name(s) for s in self._seats_of(side))

    def _seats_of(self, side: int) -> list[int]:
        return [s for s in range(self.game.players) if SPEC.side_of(self.game.state, s) == side]

    @property
    def names(self) -> list[str]:
        """Every seat's printable name, seat 0 first (the words of events and reasons name seats by these)."""
        return [self.name(s) for s in range(self.game.players)]

    def _level_words(self) -> dict[str, Any]:
        """The computers' level in the table's language (:func:`kortbord.bots.registry.describe`)."""
        return registry.describe("mulle", self.options.bot, self.lang)

    def _level_line(self) -> list[Text]:
        """The intro's description of the computers' level, when a person plays against them."""
        if not self.humans or len(self.humans) == self.game.players:
            return []
        return [Text(self._level_words()["text"], style="dim")]

    def t(self, key: str, **data: Any) -> str:
        """The terminal's own words ``key`` in the table's language (:mod:`kortbord.i18n`, ``terminal.json``)."""
        return i18n.render(key, data, self.lang, game="terminal")

    def error_text(self, exc: Exception, text: str = "") -> str:
        """Why a line of input was refused, in the table's language: the engine's or the terminal's reason code
        worded by :mod:`kortbord.i18n`; in English the error's own message."""
        return _session.refusal_text(exc, text, self.lang, self.names, self.t, str(exc) if self.lang == "en" else "")

    def _why(self, stop: BaseException) -> str:
        return _session.stop_text(stop, self.t)

    def _subject(self, seat: int, verb: str, plain_verb: str) -> str:
        """``"Anna deals"``, but ``"You deal"`` for a person named "You"."""
        name = self.name(seat)
        return f"{name} {plain_verb if seat in self.humans and name.lower() == 'you' else verb}"

    def _sides(self) -> int:
        return SPEC.sides(self.game.state)

    # -- main loop ------------------------------------------------------------------------------------------
    def run(self) -> int:
        """Play the game to its end (or until the person quits); returns the process exit code: 0; 130 after
        Ctrl-C; 128 + the signal's number after SIGHUP (the terminal closed) or SIGTERM.  The record is saved in
        every case."""
        return _session.play_saving(self._play, self._save, self._say_stopped)

    def _say_stopped(self, stop: BaseException) -> None:
        quiet(self.console.print, self.t("stopped", why=self._why(stop)))

    def _play(self) -> int:
        self._intro()
        if self.options.resume is not None:
            self.console.print(
                self.t("resumed", path=plain(self.options.resume), moves=len(self.game.moves)), style="dim"
            )
        else:
            self._show_events(self.game.events)
        while not self.game.is_over():
            seat = self.game.to_act
            assert seat is not None
            if seat in self.humans:
                move = self._ask_move(seat)
            else:
                view = self.game.view(seat)
                move = self.bots[seat].choose(view, self.game.legal_moves(), self.game.bot_rng(seat))
            if self.lang == "en":  # other languages: the play event says it
                self._announce(seat, move)
            self._show_events(self.game.play(move))
            if seat not in self.humans and self.interactive and self.options.delay > 0:
                time.sleep(self.options.delay)
        self._game_over()
        self._save()
        return 0

    def _intro(self) -> None:
        if self.lang != "en":
            self._intro_words()
            return
        r, o = self.rules, self.options
        length = {
            "single_round": "a single round",
            "each_deals_once": "every player deals once",
        }.get(r.game_length, f"first to {r.target}")
        mode = "Kryp-mulle: avoid points, the lowest total wins" if r.kryp else length
        seats = ", ".join(
            f"{printable(name)} ({'you' if s in self.humans else o.bot + ' computer'})"
            for s, name in enumerate(self.game.seats)
        )
        lines = [
            Text.assemble(("MULLE", "bold"), f" — {o.deal}, {r.profile} rules, {mode}"),
            Text(f"Seats clockwise: {seats}"),
            *self._level_line(),
        ]
        if self.game.teams:
            lines.append(Text(f"Teams: {self.side_name(0)} against {self.side_name(1)}"))
        lines.append(self._record_line())
        if self.humans:
            lines.append(
                Text("Type a move number, a card (9H), notation (C 8C x {2D,6S}), or ? for help.", style="dim")
            )
        self.console.print(Panel(Group(*lines), border_style="green", expand=False))

    def _record_line(self) -> Text:
        o = self.options
        return _session.record_line(
            self.t, person=bool(self.humans), chosen=o.seed is not None, seed=self.seed, path=self.record_path
        )

    def _intro_words(self) -> None:
        """The intro in the table's language (the rules as notation: ``kortbord mulle`` names the options)."""
        o = self.options
        seats = ", ".join(
            f"{self.name(s)} ({self.t('you') if s in self.humans else self.t('computer', level=self._level_words()['name'])})"
            for s in range(self.game.players)
        )
        lines = [
            Text.assemble((self.t("mulle.title"), "bold"), f" — {o.deal}, {self.rules.profile}"),
            Text(self.t("seats", seats=seats)),
            *self._level_line(),
            self._record_line(),
        ]
        if self.humans:
            lines.append(Text(self.t("mulle.hint"), style="dim"))
        self.console.print(Panel(Group(*lines), border_style="green", expand=False))

    # -- the person's turn ----------------------------------------------------------------------------------
    def _ask_move(self, seat: int) -> PlayerMove:
        view = self.game.view(seat)
        moves = list(view.legal_moves)
        self._show_turn(view, moves)
        choices = "1" if len(moves) == 1 else f"1-{len(moves)}"
        while True:
            try:
                line = self.read_line(self.t("prompt.move", name=self.name(seat), choices=choices))
            except EOFError:
                raise Quit("end of input") from None
            except KeyboardInterrupt:
                raise Quit("interrupted") from None
            text = line.strip()
            command = text.lower()
            if not text:
                if self._page:
                    self._show_page()
                continue
            if command in ("?", "help", "h"):
                self.console.print(flow(self.t("mulle.help"), self.console.width))
            elif command in ("moves", "m", "list"):
                self._show_turn(view, moves)
            elif command == "rules":
                self.console.print(flow(self.t("mulle.rules"), self.console.width))
                self.console.print(plain(_session.table_rules_text("mulle", self.rules, self.lang)))
            elif command in ("table", "t"):
                self.console.print(self._table_panel(view))
            elif command in ("quit", "exit", "q"):
                if self._confirm_quit():
                    raise Quit("you quit")
            elif self._card_moves(view, moves, text):
                continue
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

    # -- the move list, fitted to the screen ------------------------------------------------------------------
    def _room(self, panel: Panel) -> int | None:
        """Lines left for the move list under ``panel`` on the screen (None: no screen to fit): the prompt and
        one line of reply stay visible too."""
        if self.screen_lines is None:
            return None
        return max(3, self.screen_lines - len(self.console.render_lines(panel, pad=False)) - 3)

    def _show_turn(self, view: View, moves: Sequence[PlayerMove]) -> None:
        """The table, then the legal moves: the whole list when it fits on the screen under the table, else the
        moves by hand card (type a card to list its moves, a page at a time)."""
        panel = self._table_panel(view)
        self._page = []
        room = self._room(panel)
        listing = self._move_list(view, moves)
        if room is None or len(self.console.render_lines(listing, pad=False)) + 1 <= room:
            self.console.print(panel)
            self.console.print(Text(self.t("legal_moves"), style="bold"))
            self.console.print(listing)
            return
        self.console.print(panel)
        self.console.print(Text(self.t("mulle.by_card", card=str(moves[0].card)), style="bold"), overflow="fold")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column(justify="right", style="bold cyan", no_wrap=True)
        grid.add_column(no_wrap=True, overflow="ellipsis")
        for card in dict.fromkeys(m.card for m in moves):
            mine = [(i, m) for i, m in enumerate(moves, 1) if m.card == card]
            if len(mine) == 1:
                i, m = mine[0]
                grid.add_row(card_text(card), str(i), self._move_words(view, m))
                continue
            kinds: dict[str, int] = {}
            for _, m in mine:
                kinds[_KINDS[type(m)]] = kinds.get(_KINDS[type(m)], 0) + 1
            words = ", ".join(self.t("mulle.kind", kind=k) + (f" ×{n}" if n > 1 else "") for k, n in kinds.items())
            summary = Text(self.t("mulle.card_summary", count=len(mine), kinds=words))
            summary.append(f"   ({card})", style="dim")
            grid.add_row(card_text(card), "", summary)
        self.console.print(grid)

    def _card_moves(self, view: View, moves: Sequence[PlayerMove], text: str) -> bool:
        """When ``text`` is a card held that plays several legal moves and the whole list does not fit on the
        screen: show the table and that card's moves (numbered as in the whole list), a page at a time."""
        if self.screen_lines is None or " " in text.strip():
            return False
        try:
            card = Card.parse(text.strip())
        except InvalidCardError:
            return False
        mine = [(i, m) for i, m in enumerate(moves, 1) if m.card == card]
        panel = self._table_panel(view)
        room = self._room(panel)
        if len(mine) < 2 or room is None:
            return False
        if len(self.console.render_lines(self._move_list(view, moves), pad=False)) + 1 <= room:
            return False  # the whole list is on the screen: the shorthand's own answer says which moves
        width = len(str(len(moves)))
        entries = []
        for i, m in mine:
            entry = Text.assemble((f"{i:>{width}}  ", "bold cyan"), self._move_words(view, m))
            entry.no_wrap, entry.overflow = True, "ellipsis"
            entries.append(entry)
        self._page = entries
        self._page_head = [panel, Text(self.t("mulle.card_moves", card=_plain(card), count=len(mine)), style="bold")]
        self._page_size = max(2, room - 2)
        self._show_page()
        return True

    def _show_page(self) -> None:
        """The next page of the card's moves, and how many are left (Enter shows them)."""
        page, self._page = self._page[: self._page_size], self._page[self._page_size :]
        for head in self._page_head:  # the table stays on the screen above every page
            self.console.print(head)
        for entry in page:
            self.console.print(entry)
        if self._page:
            self.console.print(Text(self.t("more", more=len(self._page)), style="dim"), overflow="ellipsis")

    def _move_words(self, view: View, move: PlayerMove) -> Text:
        """A move in the table's language: English words (with what a capture brings), else its notation."""
        words = Text(describe_move(move, view.builds) if self.lang == "en" else str(move))
        if isinstance(move, Capture):
            preview = _capture_preview(view, move, self.rules, self.lang)
            if preview:
                words.append(f" ({preview})", style="yellow")
        return words

    def _move_list(self, view: View, moves: Sequence[PlayerMove]) -> Table | Columns:
        """The numbered legal moves: in words with their notation, or in columns of words when there are many
        (a first deal with loose pairs to pack can give dozens of build moves)."""
        rows = [(i, self._move_words(view, m), m) for i, m in enumerate(moves, 1)]
        if len(moves) <= _LONG_LIST:
            grid = Table.grid(padding=(0, 2))
            grid.add_column(justify="right", style="bold cyan")
            grid.add_column()
            grid.add_column(style="dim")
            for i, words, m in rows:
                grid.add_row(str(i), words, str(m))
            return grid
        width = len(str(len(moves)))
        entries = [Text.assemble((f"{i:>{width}} ", "bold cyan"), words) for i, words, _ in rows]
        return Columns(entries, column_first=True, padding=(0, 3))

    def _print_moves(self, view: View, moves: Sequence[PlayerMove]) -> None:
        """The numbered legal moves under their heading (:meth:`_move_list`)."""
        self.console.print(Text(self.t("legal_moves"), style="bold"))
        self.console.print(self._move_list(view, moves))

    def _table_panel(self, view: View) -> Panel:
        dealer = self.name(view.dealer) if view.dealer is not None else "?"
        title = self.t(
            "mulle.panel.title",
            round=view.round_no,
            deal=view.deal_no,
            deals=view.deals_total,
            stock=view.stock_size,
            dealer=dealer,
        )
        if view.is_last_deal:
            title += self.t("mulle.panel.last_deal")
        grid = Table.grid(padding=(0, 2))
        grid.add_column(style="bold", justify="right")
        grid.add_column()
        grid.add_row(self.t("mulle.panel.score"), self._score_line(view.scores))
        for side in range(self._sides()):
            grid.add_row(self.side_name(side), self._pile_line(view.piles[side], side, view))
        grid.add_row("", "")
        grid.add_row(self.t("mulle.panel.table"), cards_text(view.table))
        if view.builds:
            builds = Table.grid(padding=(0, 2))
            for b in view.builds:
                builds.add_row(
                    Text(b.id, style="bold magenta"),
                    Text(f"= {b.value}", style="bold"),
                    cards_text(b.cards),
                    Text(printable(self.game.seats[b.owner])),
                    Text(self.t("mulle.panel.locked"), style="bold red")
                    if b.locked
                    else Text(self.t("mulle.panel.open"), style="green"),
                )
            grid.add_row(self.t("mulle.panel.builds"), builds)
        else:
            grid.add_row(self.t("mulle.panel.builds"), Text("—", style="dim"))
        grid.add_row("", "")
        hand = Table.grid(padding=(0, 1))
        for _ in view.hand:
            hand.add_column(justify="center")
        hand.add_row(*[card_text(c) for c in view.hand])
        notes = [Text(f"={HV[c]}", style="yellow") if SCORING[c] else Text("") for c in view.hand]
        if any(n.plain for n in notes):
            hand.add_row(*notes)
        grid.add_row(self.t("mulle.panel.hand"), hand)
        return Panel(grid, title=title, title_align="left", border_style="green", expand=False)

    def _score_line(self, scores: Sequence[int]) -> Text:
        parts = [f"{self.side_name(s)} {scores[s]}" for s in range(len(scores))]
        r = self.rules
        if r.target:
            goal = self.t("mulle.goal.target_kryp" if r.kryp else "mulle.goal.target", target=r.target)
        elif r.game_length == "each_deals_once":
            goal = self.t("mulle.goal.round_of", round=self.game.state.round_no, rounds=self.game.players)
        else:
            goal = self.t("mulle.goal.round", round=self.game.state.round_no)
        return Text.from_markup("   ".join(parts) + "   ", style="bold").append(goal, style="dim")

    def _pile_line(self, pile: PileInfo, side: int, view: View) -> Text:
        seats = self._seats_of(side)
        if len(seats) == 1:
            held = self.t("mulle.pile.held", cards=view.hand_sizes[seats[0]])
        else:
            held = self.t(
                "mulle.pile.held_by",
                held=", ".join(
                    f"{self.t('mulle.pile.you') if s == view.seat else printable(self.game.seats[s])} "
                    f"{view.hand_sizes[s]}"
                    for s in seats
                ),
            )
        pts = sum(card_points(c, self.rules) for c in pile.cards)
        mulle = sum(p for _, p in pile.mulles)
        text = Text(f"{held} · " + self.t("mulle.pile.pile", cards=len(pile.cards), points=pts))
        if pile.mulles:
            text.append(self.t("mulle.pile.mulle"))
            text.append(", ".join(f"{_plain(c)} {p}" for c, p in pile.mulles), style="bold yellow")
        if pile.tabbar:
            text.append(self.t("mulle.pile.tabbe", tabbar=pile.tabbar), style="bold cyan")
        if self.rules.scoring == "standard":
            text.append(self.t("mulle.pile.round", points=pts + mulle + pile.tabbar), style="bold")
        return text

    # -- moves and events -----------------------------------------------------------------------------------
    def _announce(self, seat: int, move: PlayerMove) -> None:
        who = printable(self.game.seats[seat])
        style = "bold green" if seat in self.humans else "bold"
        line = Text.assemble((f"{who} ▸ ", style), describe_move(move, self.game.state.builds), (f"   {move}", "dim"))
        self.console.print(line)

    def _show_events(self, events: Sequence[Event]) -> None:
        if self.lang != "en":
            self._event_words(events)
            return
        for e in events:
            d = e.data
            if e.kind == "dealer":
                self.console.print(f"{self._subject(d['seat'], 'deals', 'deal')} first.")
            elif e.kind == "deal":
                self._deal_line(d)
            elif e.kind == "baat":
                self.console.print(
                    Text(
                        f"  {self._subject(d['dealer'], 'calls', 'call')} BÅT: this is the last deal of the round!",
                        style="bold yellow",
                    )
                )
            elif e.kind == "mulle":
                card = Card.parse(d["card"])
                self.console.print(
                    Text.assemble("  ★ ", ("MULLE", "bold yellow"), " ", card_text(card), f"  +{d['points']} points")
                )
            elif e.kind == "tabbe":
                self.console.print(Text.assemble("  ★ ", ("TABBE", "bold cyan"), ": the table is cleared, +1 point"))
            elif e.kind == "last_capture":
                cards = [Card.parse(c) for c in d["cards"]]
                who = self._subject(d["seat"], "takes", "take")
                self.console.print(Text.assemble(f"  Last capture: {who} the rest of the table: ", cards_text(cards)))
            elif e.kind == "safety_valve":
                self.console.print(f"  ({self.name(d['seat'])} had no legal move and may trail any card.)")
            elif e.kind == "round_over":
                self._round_summary(d)
            # "play", "capture" and "game_over" are shown by _announce and _game_over

    def _event_words(self, events: Sequence[Event]) -> None:
        """Every event as one line in the table's language (:func:`kortbord.i18n.event_text`)."""
        for e in events:
            line = i18n.event_text(e.to_json(), self.lang, self.names, game="mulle")
            style = {"mulle": "bold yellow", "tabbe": "bold cyan", "baat": "bold yellow", "round_over": "bold"}
            self.console.print(Text(("  " if e.kind != "deal" else "") + line, style=style.get(e.kind, "")))
            if e.kind == "round_over":
                self._round_summary(e.data)

    def _deal_line(self, d: Mapping[str, Any]) -> None:
        counts = set(d["cards"])
        each = (
            f"{counts.pop()} cards each"
            if len(counts) == 1
            else ", ".join(f"{printable(self.game.seats[s])} {n}" for s, n in enumerate(d["cards"]))
        )
        text = Text.assemble(("\n── ", "green"), (f"Deal {d['deal_no']} of {d['deals_total']}", "bold"), f": {each}")
        if d["table"]:
            text.append(" · table ")
            text.append_text(cards_text([Card.parse(c) for c in d["table"]]))
        self.console.print(text)

    def _round_summary(self, d: Mapping[str, Any]) -> None:
        table = Table(title=self.t("mulle.summary.title", round=d["round"]), title_style="bold", header_style="bold")
        table.add_column("")
        sides = range(len(d["breakdown"]))
        for s in sides:
            table.add_column(self.side_name(s), justify="right")
        bd = d["breakdown"]
        rows = ("cards", "spades", "ace_of_spades", "lillan", "storan", "other_aces", "card_points")
        for key in rows:
            table.add_row(
                self.t("mulle.summary." + key),
                *[str(bd[s][key]) for s in sides],
                style="bold" if key == "card_points" else None,
            )
        table.add_row(
            self.t("mulle.summary.mulle"),
            *[
                "\n".join(f"{_plain(Card.parse(m['card']))} {m['points']}" for m in bd[s]["mulle"]) or "—"
                for s in sides
            ],
        )
        table.add_row(self.t("mulle.summary.mulle_points"), *[str(bd[s]["mulle_points"]) for s in sides])
        table.add_row(self.t("mulle.summary.tabbe"), *[str(bd[s]["tabbe"]) for s in sides])
        if "surplus_bonus" in bd[0]:
            table.add_row(self.t("mulle.summary.surplus_bonus"), *[str(bd[s]["surplus_bonus"]) for s in sides])
        table.add_row(self.t("mulle.summary.total"), *[str(bd[s]["total"]) for s in sides], style="bold")
        table.add_row(self.t("mulle.summary.game_total"), *[str(d["scores"][s]) for s in sides], style="bold green")
        self.console.print()
        self.console.print(table)
        if self.interactive and not self.game.is_over():
            try:
                self.read_line(self.t("prompt.next_round"))
            except (EOFError, KeyboardInterrupt):
                raise Quit("end of input") from None

    def _game_over(self) -> None:
        res = self.game.result()
        if self.lang != "en":
            scores = "   ".join(f"{self.side_name(s)} {res.scores[s]}" for s in range(len(res.scores)))
            names = " & ".join(self.side_name(w) for w in res.winners)
            head = self.t("winner", names=names) if res.winners else self.t("draw")
            body = Group(Text(head, style="bold yellow"), Text(self.t("final_score", scores=scores), style="bold"))
            self.console.print(Panel(body, title=self.t("game_over"), border_style="yellow", expand=False))
            return
        scores = "   ".join(f"{self.side_name(s)} {res.scores[s]}" for s in range(len(res.scores)))
        if res.winners:
            if len(res.winners) == 1 and not self.game.teams:
                who = self._subject(res.winners[0], "wins", "win")
            else:
                who = " and ".join(self.side_name(w) for w in res.winners) + " win"
            headline = f"{who} the game!" + (" (the lowest total wins in Kryp-mulle)" if res.lowest_wins else "")
        else:
            headline = "The game is a draw."
        body = Group(Text(headline, style="bold yellow"), Text(f"Final score: {scores}", style="bold"))
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
        tell(self.t("saved", path=self.record_path, game="mulle"), soft_wrap=True)
        if not self.game.is_over():
            tell(self.t("resume_hint", path=self.record_path, game="mulle"), soft_wrap=True)


def _default_record_path() -> Path:
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / "kortbord" / "games" / f"mulle-{stamp}-{secrets.token_hex(3)}.json"  # no seed: it would deal the game


def run(options: Options, console: Console | None = None) -> int:
    """Play ``kortbord play mulle`` with ``options``; returns the exit code (0; 2 for bad options).

    Bad options are reported on standard error with the valid choices; nothing is played.
    """
    try:
        table = MulleTable(options, console)
    except (ValueError, KortbordError) as exc:
        Console(stderr=True, highlight=False).print(f"[bold red]error:[/] {plain(exc)}", soft_wrap=True)
        return 2
    return table.run()
