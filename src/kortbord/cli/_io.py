"""What every command-line tool shares: reading a JSON file (or option) safely, and showing user text safely.

A file or option given by the user is input like any other (DEVELOPERS.md: bad input gets a clear error and
changes nothing): :func:`read_json_file` and :func:`parse_json` turn every way JSON can be unreadable -- a missing
file, bytes that are not UTF-8, malformed JSON, nesting too deep for the parser, an integer with thousands of
digits -- into a :class:`~kortbord.errors.KortbordError` whose message says what is wrong, which each tool prints as
``error: ...`` on stderr with nothing on stdout.

:func:`plain` makes user-supplied text (seat names, cards as typed, option values) safe to show: Rich markup is
escaped and terminal control characters are replaced, so a name such as ``"[/]"`` or ``"\\x1b[2J"`` is printed as
written instead of crashing the tool or clearing the screen.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any, Final

from rich.markup import escape

from kortbord.errors import KortbordError

__all__ = ["MAX_FILE_BYTES", "parse_json", "plain", "printable", "read_json_file"]

#: Largest JSON file a tool reads (positions and records are a few KiB; a whole game's record well under 1 MiB).
MAX_FILE_BYTES: Final = 16 * 1024 * 1024


def parse_json(text: str, what: str) -> Any:
    """``json.loads(text)``; ``what`` names the source in messages (a file name, ``"--rules"``).

    Raises:
        KortbordError: malformed JSON, nesting too deep to read, or a number too long to convert.
    """
    try:
        return json.loads(text)
    except RecursionError:
        raise KortbordError(f"{what} is nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise KortbordError(f"{what} is not valid JSON: {exc}") from None
    except ValueError as exc:  # "Exceeds the limit (4300 digits) for integer string conversion ..."
        raise KortbordError(f"{what} cannot be read: {str(exc).split(';')[0]}") from None


def read_json_file(path: str | Path) -> Any:
    """The JSON document in the UTF-8 file ``path``.

    Raises:
        KortbordError: the file cannot be read (missing, a directory, too large), is not UTF-8, or is not JSON
            that can be read (see :func:`parse_json`); the message names the file and the reason.
    """
    name = str(path)
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise KortbordError(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise KortbordError(f"cannot read {name}: larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise KortbordError(f"cannot read {name}: not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    return parse_json(text, name)


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def _visible(m: re.Match[str]) -> str:
    return f"\\x{ord(m[0]):02x}"


def printable(value: object) -> str:
    """``str(value)`` safe to write to a terminal: control characters (ESC, BEL, newlines ...) shown as ``\\xNN``
    escapes, invisible format characters (bidi overrides ...) dropped."""
    text = _CONTROL.sub(_visible, str(value))
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf" or ch == "\u200d")


def plain(value: object) -> str:
    """:func:`printable` text with Rich markup escaped: safe inside a string Rich prints with markup on."""
    return escape(printable(value))
