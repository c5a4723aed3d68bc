"""What both terminal games share: a game driven through the game registry, resuming a saved record, reading a
line with editing and history, the signals that stop a game, and fitting text to the screen.

* :class:`SpecGame` -- one game in progress driven only through ``kortbord.core.get(name)`` (the
  :class:`~kortbord.contract.GameSpec`): its state, the one ``random.Random(seed)`` every chance step is drawn
  from, the decisions so far and the public events; :meth:`SpecGame.resume` continues a saved record by replaying
  it through ``spec.replay`` (the same seats, seed and rules, the chance generator where the record left it).
* :class:`LineReader` -- the prompt: with a terminal, prompt_toolkit's line editor (arrows, Home/End, history
  with Up/Down, Ctrl-R search); without one (piped input), a plain ``input()``.
* :class:`Stop` and :func:`stop_on_signals` -- SIGHUP (the terminal closed) and SIGTERM stop the game like
  ``quit``: the record is saved, the exit status is 128 + the signal's number.  Ctrl-C stops it with status 130.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from types import FrameType
from typing import Any, Final, cast

from rich.console import Console
from rich.text import Text

from kortbord import core, i18n
from kortbord.contract import Event, GameSpec, Reason
from kortbord.errors import InvalidCardError, InvalidMoveError, InvalidPositionError

__all__ = [
    "EXIT_INTERRUPTED",
    "LineReader",
    "SpecGame",
    "Stop",
    "flow",
    "quiet",
    "stop_on_signals",
    "table_rules_text",
]

#: The exit status after Ctrl-C (128 + SIGINT), as shells report an interrupted command.
EXIT_INTERRUPTED = 130


class Quit(Exception):
    """The person asked to stop the game (``quit`` confirmed, end of input, or Ctrl-C)."""


class Stop(SystemExit):
    """A signal (SIGHUP, SIGTERM) stopped the game: save the record and exit with ``128 + signum``.

    A :class:`SystemExit` so that nothing between the signal and the game loop -- the line editor's event loop
    included, which logs and swallows ordinary exceptions raised in its callbacks -- can swallow it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(128 + signum)
        self.signum = signum


class SpecGame:
    """One game in progress, driven through the game's :class:`~kortbord.contract.GameSpec` only.

    Args:
        game: the registry name (``"mulle"``, ``"cribbage"``).
        rules: the game's ``Rules`` (``spec.make_rules``).
        players: the number of seats.  teams: partnerships (Mulle's teams; Cribbage's are in its rules).
        seed: the seed of the one generator that draws every chance step, in order (as the records say).
        seats: the display names, one per seat.  dealer: a fixed first dealer, or ``None`` to draw it.

    Attributes:
        spec, rules, players, teams, seed, seats, dealer: as given.  state: the current state.  moves: the
        decisions so far.  events: every public event so far (chance steps included), in order.
    """

    def __init__(
        self,
        game: str,
        rules: Any,
        *,
        players: int,
        teams: bool = False,
        seed: int,
        seats: Sequence[str],
        dealer: int | None = None,
        _start: bool = True,
    ) -> None:
        self.spec: GameSpec = core.get(game)
        self.rules = rules
        self.players = players
        self.teams = teams
        self.seed = seed
        self.seats = list(seats)
        self.dealer = dealer
        self.rng = random.Random(seed)
        self.state: Any = self.spec.new_game(rules, players=players, teams=teams, dealer=dealer)
        self.moves: list[Any] = []
        self.events: list[Event] = []
        if _start:
            self._chance()

    @classmethod
    def resume(cls, game: str, record: Any) -> SpecGame:
        """The game a saved record stopped at: the record replayed through ``spec.replay`` (rules, seats, seed,
        every decision); the chance generator drawn exactly as far as the replay drew it, so the next deal is the
        one the unbroken game would have dealt.

        Raises:
            InvalidPositionError: not a record of ``game``, or a move in it is malformed or illegal (the message
                names it); also a record whose game is already over.
        """
        spec = core.get(game)
        if not isinstance(record, dict) or record.get("game") != game:
            raise InvalidPositionError(f'not a {game} game record (expected "game": "{game}")')
        _check_header(record)
        steps = spec.replay(record)  # checks the header and every move; raises InvalidPositionError
        first = next(steps)
        players = int(record.get("players", 2))
        teams = bool(record.get("teams", False))
        seats = record.get("seats") or [spec.seat_name(s) for s in range(players)]
        out = cls(
            game,
            spec.make_rules(record.get("rules"), players=players, teams=teams),
            players=players,
            teams=teams,
            seed=int(record["seed"]),
            seats=[str(s) for s in seats],
            dealer=record.get("dealer"),
            _start=False,
        )
        before = out.state
        for state, seat, move, events in _chain(first, steps):
            if seat is None:  # a chance step: draw it from our generator too, so it stands where the replay's does
                drawn = spec.chance_outcome(before, out.rng)
                if drawn != move:
                    raise InvalidPositionError("the record's chance steps do not follow from its seed")
            else:
                out.moves.append(move)
            out.events.extend(events)
            out.state = before = state
        if spec.is_over(out.state):
            raise InvalidPositionError("this game is already over: replay it with the replay command")
        return out

    # -- the game ---------------------------------------------------------------------------------------------
    @property
    def to_act(self) -> int | None:
        """The seat to decide, or ``None`` when the game is over."""
        return self.spec.to_act(self.state)

    def legal_moves(self) -> list[Any]:
        """The legal moves of the seat to decide, in the engine's order."""
        return self.spec.legal_moves(self.state)

    def view(self, seat: int) -> Any:
        """What ``seat`` may know."""
        return self.spec.view(self.state, seat)

    def bot_rng(self, seat: int) -> random.Random:
        """The generator of a computer's decision for ``seat`` now: drawn from the game's seed, the seat and the
        number of moves made, so a resumed game's computers decide as the unbroken game's would have (issue #14
        item 1: the same seed, the same decisions)."""
        return random.Random(f"kortbord-{self.spec.name}-bot:{self.seed}:{seat}:{len(self.moves)}")

    def is_over(self) -> bool:
        """The game has ended."""
        return self.spec.is_over(self.state)

    def result(self) -> Any:
        """The engine's result (raises ``IllegalMoveError`` before the end)."""
        return self.spec.result(self.state)

    def play(self, move: Any, *, seat: int | None = None) -> tuple[Event, ...]:
        """Play ``move`` (a move, or its notation) for the seat to decide, then the chance steps that follow.

        Args:
            move: the move or its notation.  seat: who sends it (checked against the seat to decide).
        Returns:
            The public events, in order.
        Raises:
            InvalidMoveError, IllegalMoveError, AmbiguousMoveError, NotYourTurnError: the game is unchanged.
        """
        if isinstance(move, str):
            move = self.spec.parse_move(self.state, move)
        if seat is not None and seat != self.to_act:
            from kortbord.errors import NotYourTurnError

            raise NotYourTurnError(f"it is not seat {seat}'s turn")
        state, events = self.spec.step(self.state, move)
        with held():  # a SIGHUP now waits until state, moves and events agree again (the record saved is whole)
            self.state = state
            self.moves.append(move)
            self.events.extend(events)
            return tuple(events) + self._chance()

    def _chance(self) -> tuple[Event, ...]:
        out: list[Event] = []
        while self.spec.is_chance(self.state):
            self.state, events = self.spec.step(self.state, self.spec.chance_outcome(self.state, self.rng))
            out.extend(events)
        self.events.extend(out)
        return tuple(out)

    def to_record(self) -> dict[str, Any]:
        """The game record (``spec.record``): rules, seats, seed and the decisions in notation."""
        return self.spec.record(
            self.rules,
            players=self.players,
            teams=self.teams,
            seed=self.seed,
            moves=self.moves,
            seats=self.seats,
            dealer=self.dealer,
        )


#: the longest seat name a record may hold, in characters (as the engines' records: ``kortbord.mulle.game.MAX_NAME``)
MAX_NAME: Final = 100


def _check_header(record: dict[str, Any]) -> None:
    """What a resumed game takes from a record's header beside the engine's own checks: ``rules`` an object,
    ``players`` a whole number, ``teams`` true or false, ``seats`` a list of one name (text of at most
    :data:`MAX_NAME` characters) a player -- so a bad header is refused before the game starts, not when it is saved.

    Raises:
        InvalidPositionError: the field and what it must be.
    """
    if "rules" in record and not isinstance(record["rules"], dict):
        raise InvalidPositionError('"rules" must be an object of rule options, e.g. {"target": 61}')
    players = record.get("players", 2)
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidPositionError(f'"players" must be a whole number, got {str(players)[:40]!r}')
    if "teams" in record and not isinstance(record["teams"], bool):
        raise InvalidPositionError('"teams" must be true or false')
    seats = record.get("seats")
    if seats is not None and (
        not isinstance(seats, list)
        or len(seats) != players
        or not all(isinstance(name, str) and len(name) <= MAX_NAME for name in seats)
    ):
        raise InvalidPositionError(f'"seats" must be a list of {players} names of at most {MAX_NAME} characters')


def _chain(first: Any, rest: Iterator[Any]) -> Iterator[Any]:
    yield first
    yield from rest


# ------------------------------------------------------------------------------------------------- the prompt
class LineReader:
    """Reads one line after a prompt written in Rich markup.

    With a terminal on both ends it is prompt_toolkit's line editor: the arrows move in the line (never
    printing ``^[[A``), Up/Down walk this game's earlier lines, Ctrl-R searches them.  Otherwise (input piped in,
    output captured) it prints the prompt with ``console`` and reads ``input()``.

    Raises (from a call): EOFError at the end of input or on Ctrl-D; KeyboardInterrupt on Ctrl-C.
    """

    def __init__(self, console: Console) -> None:
        self.console = console
        self._session: Any = None
        if sys.stdin.isatty() and sys.stdout.isatty():
            try:
                from prompt_toolkit import PromptSession
                from prompt_toolkit.history import InMemoryHistory
            except ImportError:  # pragma: no cover - a base dependency; a broken install still gets a prompt
                return
            self._session = PromptSession(history=InMemoryHistory())

    @property
    def editing(self) -> bool:
        """The line editor is in use (a terminal)."""
        return self._session is not None

    def __call__(self, prompt: str) -> str:
        if self._session is None:
            return self.console.input(prompt)
        from prompt_toolkit.formatted_text import ANSI

        buffer = io.StringIO()
        Console(
            file=buffer,
            force_terminal=True,
            color_system=cast(Any, self.console.color_system or "standard"),
            width=10_000,
            highlight=False,
        ).print(prompt, end="")
        try:
            text: str = self._session.prompt(ANSI(buffer.getvalue()))
        except OSError:  # the terminal has gone (closed window, SIGHUP): no more input
            raise EOFError from None
        return text


# ------------------------------------------------------------------------------------------------- signals
_held = 0
_pending: list[int] = []
#: what to do first when a stopping signal comes (save the record), set by :func:`stop_on_signals`
_on_stop: list[Callable[[], None]] = []
#: the signal that stopped the game, once one has
stopped: list[int] = []


def _stop(signum: int) -> None:
    stopped[:] = [signum]
    for save in _on_stop:
        with contextlib.suppress(Exception):
            save()
    raise Stop(signum)


@contextlib.contextmanager
def held() -> Iterator[None]:
    """A block a stopping signal must not cut in two (a move half recorded): a SIGHUP/SIGTERM that comes inside
    it raises :class:`Stop` when the block ends."""
    global _held
    _held += 1
    try:
        yield
    finally:
        _held -= 1
        if not _held and _pending:
            _stop(_pending.pop())


@contextlib.contextmanager
def stop_on_signals(save: Callable[[], None]) -> Iterator[None]:
    """While the block runs, SIGHUP and SIGTERM call ``save`` at once (the terminal may already be gone, and the
    line editor's clean-up may fail writing to it) and then raise :class:`Stop` in the main thread (the game
    exits ``128 + signum``); inside :func:`held`, when that block ends.  The previous handlers come back
    afterwards.  Outside the main thread it does nothing.
    """
    wanted = [getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)]
    previous: dict[int, Any] = {}

    def handler(signum: int, frame: FrameType | None) -> None:
        if _held:
            _pending[:] = [signum]
            return
        _stop(signum)

    try:
        for signum in wanted:
            previous[signum] = signal.signal(signum, handler)
    except ValueError:  # not the main thread
        previous.clear()
    _on_stop[:] = [save]
    stopped.clear()
    try:
        yield
    finally:
        _on_stop.clear()
        for signum, old in previous.items():
            signal.signal(signum, old)


def quiet(print_: Callable[..., None], *args: Any, **kwargs: Any) -> None:
    """``print_(*args, **kwargs)``, ignoring a terminal that has gone away (after SIGHUP writes fail)."""
    with contextlib.suppress(OSError, ValueError):
        print_(*args, **kwargs)


# ------------------------------------------------------------------------------------------------- text
_GAP = re.compile(r"\S( {2,})\S")


def record_line(t: Callable[..., str], *, person: bool, chosen: bool, seed: int, path: Any) -> Text:
    """The intro's line on the record: where it is saved -- and the seed, where it gives nothing away: one the
    person chose (``chosen``: ``--seed``), or a game of computers only (not ``person``).  A seed the program drew
    would let the person deal the game out beforehand in another terminal: the stock order and the computers'
    cards, which the rules keep hidden.  ``t``: the table's catalogue lookup (``record_line``, ``seed_line``)."""
    if person and not chosen:
        return Text(t("record_line", path=path), style="dim")
    return Text(t("seed_line", seed=seed, path=path), style="dim")


def flow(markup: str, width: int) -> Text:
    """Help text (Rich markup, laid out in lines) wrapped to ``width`` columns without breaking words.

    A bullet (``• ...``) and the indented lines after it are one paragraph, wrapped under its first word; any
    other line too long for the screen is wrapped under its second column (the text after the first gap of two
    or more spaces), or under its own indentation.
    """
    paragraphs: list[tuple[str, int]] = []
    for line in markup.split("\n"):
        plain_line = Text.from_markup(line).plain
        if paragraphs and paragraphs[-1][0].lstrip().startswith("•") and line.startswith("  ") and line.strip():
            paragraphs[-1] = (paragraphs[-1][0] + " " + line.strip(), paragraphs[-1][1])
            continue
        lead = len(plain_line) - len(plain_line.lstrip())
        if plain_line.lstrip().startswith("• "):
            hang = lead + 2
        else:
            gap = _GAP.search(plain_line, lead)
            hang = gap.end() - 1 if gap and gap.end() - 1 < width // 2 else lead
        paragraphs.append((line, hang))
    out = Text()
    probe = Console(width=max(20, width), file=io.StringIO())
    for n, (line, hang) in enumerate(paragraphs):
        if n:
            out.append("\n")
        text = Text.from_markup(line)
        first, *rest = text.wrap(probe, max(20, width)) if text.plain else [text]
        first.rstrip()
        out.append_text(first)
        if rest:
            for part in rest:
                part.rstrip()
            tail = Text(" ").join(rest)  # the rest again, wrapped under the hanging indent
            for part in tail.wrap(probe, max(10, width - hang)):
                part.rstrip()
                out.append("\n" + " " * hang)
                out.append_text(part)
    return out


def refusal_text(
    exc: Exception, text: str, lang: str, names: Sequence[str], say: Callable[..., str], english: str
) -> str:
    """Why a line of input was refused, in the table's language: in English ``english`` (the error's own message,
    as the terminal shows it); otherwise the engine's or the terminal's reason code worded by :mod:`kortbord.i18n`
    (seats by ``names``), else the terminal's words for a malformed card or move.  ``say(key, **data)`` gives the
    terminal's own words."""
    if lang == "en":
        return english
    reason = getattr(exc, "reason", None)
    if isinstance(reason, Reason):
        return reason.text(lang, names)
    if isinstance(exc, InvalidCardError):
        return say("reason.malformed_card", text=text)
    if isinstance(exc, InvalidMoveError):
        return say("reason.malformed_move", text=text, error="")
    return say("reason.bad_input", text=text)


def stop_text(stop: BaseException, say: Callable[..., str]) -> str:
    """Why a game stopped (a hang-up, a termination, Ctrl-C, the end of input), in the terminal's words."""
    if isinstance(stop, Stop):
        return say("why.hangup" if stop.signum == getattr(signal, "SIGHUP", -1) else "why.terminated")
    key = "why." + (str(stop) or "interrupted").replace(" ", "_")
    return say(key) if key in i18n.catalogue("terminal") else str(stop)


def play_saving(
    play: Callable[[], int], save: Callable[..., None], say_stopped: Callable[[BaseException], None]
) -> int:
    """Run a terminal game, ``play()`` (its exit code), with its record saved however it ends: on SIGHUP/SIGTERM
    the moment the signal comes (exit ``128 + signum``), on quitting, the end of input and Ctrl-C (exit 0, or 130
    after Ctrl-C).  ``save(quietly=..., say=...)`` writes the record; ``say_stopped(why)`` tells the person why the
    game stopped."""
    with stop_on_signals(lambda: save(quietly=True, say=False)):
        try:
            return play()
        except Stop as stop:  # SIGHUP/SIGTERM: the record was saved when the signal came
            say_stopped(stop)
            return int(stop.code or 1)
        except OSError:  # the terminal went away with the signal (the line editor's clean-up could not write)
            if not stopped:
                raise
            return 128 + stopped[0]
        except (Quit, KeyboardInterrupt) as stop:  # quietly: the input may have ended with the terminal
            say_stopped(stop)
            save(quietly=True)
            return EXIT_INTERRUPTED if isinstance(stop, KeyboardInterrupt) or str(stop) == "interrupted" else 0


def table_rules_text(game: str, rules: Any, lang: str) -> str:
    """The table's rules in a line of ``lang`` for the ``rules`` command: every option that differs from the
    standard profile, labelled as in the lobby (:func:`kortbord.i18n.rules_words`, the catalogue's words), or that
    the table plays the standard rules."""
    spec = core.get(game)
    said = i18n.rules_words(game, spec.rules_to_dict(rules), spec.rules_to_dict(spec.make_rules({})), lang)
    if not said:
        return i18n.render("rules.standard", {}, lang, game="terminal")
    return i18n.render("rules.table", {"rules": "; ".join(said)}, lang, game="terminal")
