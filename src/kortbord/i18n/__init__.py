"""Words for players: events and illegal-move reasons rendered from their codes, in English and Swedish.

The engines produce codes plus data (:class:`kortbord.contract.Event`, :class:`kortbord.contract.Reason`) and no
prose.  The words live here, in one catalogue per game and language (``<game>.json`` beside this file, plus
``common.json``), which the terminal, the server and the page (bundled by ``web/``) all read.

A catalogue maps ``"event.<kind>"`` and ``"reason.<code>"`` to a template per language::

    {"reason.must_capture": {"en": "illegal move {move}: you can capture ({capture})",
                             "sv": "otillåtet drag {move}: du kan ta in ({capture})"}}

Placeholders name keys of the event's or reason's data; a list value is joined with ``", "``; ``{seat}`` and
other keys listed in :data:`SEAT_KEYS` are replaced by the seat's name from ``names`` when given, else by its
notation ``P<seat>``.  A template may
also be a dict keyed by a data value (``"by": "points"``) for wording that depends on it.
"""

from __future__ import annotations

import json
import string
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

__all__ = ["LANGS", "SEAT_KEYS", "catalogue", "event_text", "reason_text", "render", "template"]

#: The languages every catalogue entry has.
LANGS: Final = ("en", "sv")
#: Data keys that hold a seat index (rendered by name when ``names`` is given).
SEAT_KEYS: Final = frozenset({"seat", "dealer", "counter", "caller", "winner", "to_act"})
_CATALOGUES: Final = ("common", "mulle", "cribbage")


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """Every template: ``{"event.<kind>" | "reason.<code>" | other key: {"en": ..., "sv": ...}}``.

    Raises:
        ValueError: two catalogues define one key, or an entry lacks a language (a packaging defect).
    """
    out: dict[str, dict[str, Any]] = {}
    base = resources.files(__package__)
    for name in _CATALOGUES:
        path = base / f"{name}.json"
        if not path.is_file():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        for key, entry in data.items():
            if key.startswith("_"):
                continue
            if key in out:
                raise ValueError(f"i18n key {key!r} is defined twice ({name}.json)")
            missing = [lang for lang in LANGS if lang not in entry]
            if missing:
                raise ValueError(f"i18n key {key!r} in {name}.json has no {', '.join(missing)} text")
            out[key] = entry
    return out


def template(key: str, lang: str = "en") -> Any:
    """The template of ``key`` in ``lang`` (English when ``lang`` is unknown).

    Raises:
        KeyError: no such key (a code without words is a defect the conformance test catches).
    """
    entry = catalogue()[key]
    return entry.get(lang, entry["en"])


class _Fields(string.Formatter):
    def __init__(self, data: Mapping[str, Any], names: Sequence[str] | None) -> None:
        self.data = data
        self.names = names

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, int):
            return args[key]
        value = self.data.get(key, "")
        return _word(key, value, self.names)


def _word(key: str, value: Any, names: Sequence[str] | None) -> Any:
    if key in SEAT_KEYS and type(value) is int:
        if names is not None and 0 <= value < len(names):
            return names[value]
        return f"P{value}"  # the seat's notation (GameSpec.seat_name) when no names are given
    if isinstance(value, list | tuple):
        return ", ".join(str(_word(key, v, names)) for v in value)
    if value is None:
        return ""
    return value


def render(key: str, data: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> str:
    """The template ``key`` in ``lang`` filled from ``data`` (seats by ``names`` when given).

    A dict template ``{"by": field, "<value>": template, "*": fallback}`` picks its text by ``data[field]``.

    Raises:
        KeyError: no such key.
    """
    tpl = template(key, lang)
    while isinstance(tpl, dict):
        by = tpl.get("by", "")
        tpl = tpl.get(str(data.get(by)), tpl.get("*", ""))
    return _Fields(data, names).format(str(tpl))


def reason_text(reason: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> str:
    """An illegal-move reason (``{"code": ..., **data}``) in words.  Raises KeyError for an unknown code."""
    return render("reason." + str(reason["code"]), reason, lang, names)


def event_text(event: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None) -> str:
    """An event (``{"kind": ..., **data}``) in words.  Raises KeyError for an unknown kind."""
    return render("event." + str(event["kind"]), event, lang, names)
