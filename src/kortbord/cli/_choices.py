"""Options with a few allowed values: their choices shown in ``--help`` and completed by the shell.

The commands keep such options typed ``str`` (or ``int``) and validate them where they are used, so a wrong value
gets the game's own message (``unknown deal format '9+9'; choose one of 8+8, 5+5, 4+8``, exit status 2); this
module only adds the list of values to the option's help and to shell completion (``kortbord
--install-completion``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["choices", "comma_list_completion"]


def choices(values: Sequence[object]) -> dict[str, Any]:
    """Keyword arguments for ``typer.Option`` / ``typer.Argument`` that list ``values`` and complete them.

    Args:
        values: the allowed values, in the order to show them (``str(value)`` is what is typed).

    Returns:
        ``{"metavar": "<a|b|c>", "autocompletion": f}`` where ``f(incomplete)`` gives the values starting with the
        typed prefix.
    """
    words = tuple(str(v) for v in values)

    def complete(incomplete: str) -> list[str]:
        return [w for w in words if w.startswith(incomplete)]

    completer: Callable[[str], list[str]] = complete
    return {"metavar": "<" + "|".join(words) + ">", "autocompletion": completer}


def comma_list_completion(values: Sequence[object]) -> Callable[[str], list[str]]:
    """A shell completer for a comma-separated list of ``values`` (``--bots strong,gr`` → ``strong,greedy``).

    Args:
        values: the allowed items.

    Returns:
        ``f(incomplete)``: the typed text with its last item completed, one string per matching value.
    """
    words = tuple(str(v) for v in values)

    def complete(incomplete: str) -> list[str]:
        head, _, last = incomplete.rpartition(",")
        prefix = head + "," if head else ""
        return [prefix + w for w in words if w.startswith(last)]

    return complete
