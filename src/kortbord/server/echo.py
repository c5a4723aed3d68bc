"""What an error message may repeat of a client's input: a short, escaped prefix at most (issue #11).

The server's own words name what was wrong and what is allowed ("unknown bot level; choose random, ..."); they
never repeat a name the client sent.  Where the words are an engine's (a refused rules option, an unreadable move)
and may quote the input, :func:`bounded` cuts every long stretch of it and the whole message; where the server
itself must point at the client's input (an unexpected field's name), :func:`echo` gives a short prefix.
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["ECHO", "MAX_MESSAGE", "bounded", "echo"]

#: The longest stretch of a client's input an error message repeats (:func:`echo`), and the longest message.
ECHO: Final = 16
MAX_MESSAGE: Final = 240
_PLAIN = re.compile(r"[^A-Za-z0-9_.:+-]")
_LONG_TOKEN = re.compile(r"\S{25,}")


def echo(value: object) -> str:
    """A client's input as an error message may repeat it: its first :data:`ECHO` characters, every character
    other than ``A-Z a-z 0-9 _ . : + -`` shown as ``?`` (nothing that markup or a terminal would read), quoted,
    with ``…`` when it was longer."""
    text = str(value)
    return "'" + _PLAIN.sub("?", text[:ECHO]) + ("…'" if len(text) > ECHO else "'")


def bounded(message: str) -> str:
    """An engine's message about a client's input, safe to answer with: HTML-escaped, every run of 25 or more
    non-blank characters (an echoed value, never one of the engine's own words) cut to :data:`ECHO` characters
    and ``…``, and at most :data:`MAX_MESSAGE` characters in all."""
    out = _LONG_TOKEN.sub(lambda m: m.group(0)[:ECHO] + "…", html.escape(message, quote=False))
    return out if len(out) <= MAX_MESSAGE else out[: MAX_MESSAGE - 1] + "…"
