"""The ``kortbord`` command line: a client of the engines (Typer + Rich).

Sub-commands live in their own modules so each game's commands stay together:

* ``kortbord mulle legal|apply|score|replay`` -- :mod:`kortbord.cli.mulle`
* ``kortbord cribbage score|play-score|replay`` -- :mod:`kortbord.cli.cribbage`
* ``kortbord play mulle|cribbage`` -- the terminal games, :mod:`kortbord.cli.play`
* ``kortbord serve`` -- the web table, :mod:`kortbord.cli.serve`
* ``kortbord arena mulle|cribbage`` -- computer players against each other, :mod:`kortbord.cli.arena`

``kortbord --version`` prints the version; ``kortbord --install-completion`` sets up shell completion (bash, zsh,
fish, PowerShell).  ``python -m kortbord`` is the same command.  Nothing here imports the web table's packages
(FastAPI, Uvicorn, SQLAlchemy): ``kortbord serve`` imports them when it runs, so the base install (without the
``server`` extra) has every other command.
"""

from __future__ import annotations

from typing import Annotated

import typer

from kortbord import __version__
from kortbord.cli.arena import arena
from kortbord.cli.cribbage import app as cribbage_app
from kortbord.cli.mulle import app as mulle_app
from kortbord.cli.play import app as play_app
from kortbord.cli.serve import serve

app = typer.Typer(
    name="kortbord",
    help="kortbord: Mulle and Cribbage — rules engines, computer opponents and a card table.",
    no_args_is_help=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)
app.add_typer(mulle_app, name="mulle", help="Mulle tools: legal moves, apply a move, score a pile, replay a record.")
app.add_typer(cribbage_app, name="cribbage", help="Cribbage tools: score a hand or a count, replay a record.")
app.add_typer(play_app, name="play", help="Play a game in the terminal against the computer.")
app.command("serve")(serve)
app.command("arena")(arena)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"kortbord {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", help="Print kortbord's version and exit.", callback=_print_version, is_eager=True
        ),
    ] = False,
) -> None:
    """kortbord: Mulle and Cribbage — rules engines, computer opponents and a card table."""


@app.command()
def version() -> None:
    """Print kortbord's version."""
    typer.echo(__version__)


def main() -> None:
    """Console-script entry point."""
    app()
