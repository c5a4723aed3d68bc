"""``kortbord cribbage ...`` commands (to be filled in)."""

from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
