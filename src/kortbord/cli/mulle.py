"""``kortbord mulle ...``: the command-line contract of the Mulle rules spec §5.4, plus record/replay.

* ``kortbord mulle legal POSITION.json [--json]``      every legal move, one per line (or a JSON list)
* ``kortbord mulle apply POSITION.json "MOVE" --json`` the position after the move and what the move did
* ``kortbord mulle score PILE.json [--json]``          a capture pile's round score with its breakdown
* ``kortbord mulle record --seed N -o FILE``           a record of a game between random players, to try replay
* ``kortbord mulle replay RECORD.json``                the game move by move with events and scores

Any error: a message on stderr, a non-zero exit code, nothing on stdout.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn, TypeVar

import typer

from kortbord.cli._io import parse_json, printable, read_json_file
from kortbord.errors import KortbordError
from kortbord.mulle import SPEC, engine
from kortbord.mulle.game import Game
from kortbord.mulle.position import _pile, apply_position, load_position
from kortbord.mulle.rules import Rules
from kortbord.mulle.scoring import score_pile

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)

T = TypeVar("T")


def _fail(message: str) -> NoReturn:
    typer.echo(f"error: {printable(message)}", err=True)
    raise typer.Exit(code=2)


def _run(fn: Callable[[], T]) -> T:
    try:
        return fn()
    except KortbordError as exc:
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot read or write {exc.filename or ''}: {exc.strerror or exc}")


def _read_json(path: Path) -> Any:
    return read_json_file(path)


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


@app.command()
def legal(
    position: Annotated[Path, typer.Argument(help="Position JSON file (rules spec §5.3).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list of move strings.")] = False,
) -> None:
    """Every legal move for the player to move, in canonical notation (spec §5.4)."""
    moves = _run(lambda: [str(m) for m in engine.legal_moves(load_position(_read_json(position)))])
    if as_json:
        _emit(moves)
    else:
        typer.echo("\n".join(moves))


@app.command()
def apply(
    position: Annotated[Path, typer.Argument(help="Position JSON file (rules spec §5.3).")],
    move: Annotated[str, typer.Argument(help='The move in notation, e.g. "C 8C x {2D,6S}" or "T 5C".')],
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON (spec §5.4).")] = False,
) -> None:
    """Apply MOVE to the position: prints the new position and what the move did (captures, mulle, tabbe)."""
    out = _run(lambda: apply_position(_read_json(position), move))
    if as_json:
        _emit(out)
        return
    typer.echo(f"captured: {' '.join(out['captured']) or '-'}")
    typer.echo(f"mulle: {' '.join(out['mulle']) or '-'} ({out['mulle_points']} points)  tabbe: {out['tabbe']}")
    typer.echo(f"last capturer: {out['last_capturer'] or '-'}  round over: {out['round_over']}")
    typer.echo(json.dumps(out["position"], ensure_ascii=False))


@app.command()
def score(
    pile: Annotated[Path, typer.Argument(help='Pile JSON: {"cards": [...], "mulle": [...], "tabbe": 2}')],
    as_json: Annotated[bool, typer.Option("--json", help="Print the breakdown as JSON.")] = False,
    rules: Annotated[
        str, typer.Option("--rules", help='Rule overrides as JSON, e.g. \'{"spade_points": "additive"}\'.')
    ] = "{}",
) -> None:
    """The round score of one capture pile with its breakdown per item (spec §2.11)."""

    def compute() -> dict[str, Any]:
        r = Rules.from_dict(parse_json(rules, "--rules"))
        data = _read_json(pile)
        if not isinstance(data, dict):
            raise KortbordError('a pile must be a JSON object {"cards": [...], "mulle": [...], "tabbe": n}')
        p = _pile(data, r, "pile")
        return score_pile(p.cards, p.mulles, p.tabbar, r)

    out = _run(compute)
    if as_json:
        _emit(out)
        return
    for key, value in out.items():
        typer.echo(f"{key:>14}: {value}")


@app.command()
def record(
    output: Annotated[Path, typer.Option("-o", "--output", help="Where to write the record JSON.")],
    seed: Annotated[int, typer.Option("--seed", help="Seed of the shuffles and of the random players.")] = 1,
    players: Annotated[int, typer.Option("--players", help="2, 3 or 4.")] = 2,
    teams: Annotated[bool, typer.Option("--teams", help="4 players as P1+P3 against P2+P4.")] = False,
    rules: Annotated[
        str, typer.Option("--rules", help='Rules as JSON, e.g. \'{"profile": "cardgames.zone"}\'.')
    ] = '{"game_length": "single_round"}',
) -> None:
    """Write the record of a game between random players (the same seed gives the same game)."""

    def make() -> Game:
        game = Game(Rules.from_dict(parse_json(rules, "--rules")), players=players, teams=teams, seed=seed)
        rng = random.Random(seed + 1)
        while not game.is_over():
            game.play(rng.choice(game.legal_moves()))
        output.write_text(json.dumps(game.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        return game

    game = _run(make)
    typer.echo(f"wrote {output}: {len(game.moves)} moves, final scores {list(game.state.scores)}")


@app.command()
def replay(record_file: Annotated[Path, typer.Argument(metavar="RECORD.json", help="A Mulle game record.")]) -> None:
    """Print a recorded game move by move, with its events and the scores."""

    def lines() -> list[str]:
        out: list[str] = []
        data = _read_json(record_file)
        for game, move, events in Game.replay(data):
            if move is not None:
                seat = next(e.data["seat"] for e in events if e.kind == "play")
                out.append(f"{printable(game.seats[seat]):>4}  {move}")
            for e in events:
                if e.kind == "play":
                    continue
                out.append("      " + _describe(game, e))
        res = game.result()
        if game.is_over():
            winners = [_side(game, w) for w in res.winners] or "draw"
            out.append(f"game over: winners {winners}, scores {list(res.scores)}")
        else:
            out.append(f"record ends before the game is over ({len(game.moves)} moves): scores {list(res.scores)}")
        return out

    for line in _run(lines):
        typer.echo(line)


def _side(game: Game, side: int) -> str:
    if game.teams:
        return "+".join(printable(game.seats[s]) for s in range(game.players) if SPEC.side_of(game.state, s) == side)
    return printable(game.seats[side])


def _describe(game: Game, e: engine.Event) -> str:
    d = e.data
    if e.kind == "deal":
        extra = f", table {' '.join(d['table'])}" if d["table"] else ""
        return f"deal {d['deal_no']}/{d['deals_total']}: {d['cards']} cards{extra}" + (
            " (last deal)" if d["last"] else ""
        )
    if e.kind == "baat":
        return f"{printable(game.seats[d['dealer']])} calls båt: this is the last deal"
    if e.kind == "dealer":
        return f"{printable(game.seats[d['seat']])} deals first"
    if e.kind == "capture":
        return f"captures {' '.join(d['cards'])}"
    if e.kind == "mulle":
        return f"MULLE {d['card']}: {d['points']} points"
    if e.kind == "tabbe":
        return "TABBE: 1 point"
    if e.kind == "last_capture":
        return (
            f"{printable(game.seats[d['seat']])} takes the leftover table cards (last capture): {' '.join(d['cards'])}"
        )
    if e.kind == "round_over":
        parts = [
            f"{_side(game, i)} {b['total']} (cards {b['card_points']}, mulle {b['mulle_points']}, tabbe {b['tabbe']})"
            for i, b in enumerate(d["breakdown"])
        ]
        return f"round {d['round']} over: " + "; ".join(parts) + f"; totals {d['scores']}"
    if e.kind == "game_over":
        return f"game over: winners {[_side(game, w) for w in d['winners']] or 'draw'}"
    return str(e)
