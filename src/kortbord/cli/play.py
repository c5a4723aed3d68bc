"""``kortbord play mulle`` and ``kortbord play cribbage``: the terminal games against the computer.

Each command delegates to the game's terminal client (:mod:`kortbord.cli.mulle_terminal`,
:mod:`kortbord.cli.cribbage_terminal`), imported lazily so one game's client never slows the other's start.
"""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
