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
import re
import string
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any, Final

__all__ = [
    "LANGS",
    "SEAT_KEYS",
    "catalogue",
    "event_text",
    "option_label",
    "reason_text",
    "render",
    "rules_words",
    "template",
]

#: The languages every catalogue entry has.
LANGS: Final = ("en", "sv")
#: Data keys that hold a seat index (rendered by name when ``names`` is given).
SEAT_KEYS: Final = frozenset({"seat", "dealer", "counter", "caller", "winner", "to_act"})
#: Catalogue names are the registry's game names (``kortbord.core.GAMES``) and clients with words of their own
#: (``terminal``: the terminal games' prompts and help): a file ``<name>.json`` beside this module.
_NAME = re.compile(r"[a-z][a-z0-9_]*")


@cache
def _file(name: str) -> dict[str, dict[str, Any]]:
    path = resources.files(__package__) / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    out: dict[str, dict[str, Any]] = {}
    for key, entry in data.items():
        if key.startswith("_"):
            continue
        missing = [lang for lang in LANGS if lang not in entry]
        if missing:
            raise ValueError(f"i18n key {key!r} in {name}.json has no {', '.join(missing)} text")
        out[key] = entry
    return out


@cache
def catalogue(game: str | None = None) -> dict[str, dict[str, Any]]:
    """Every template of ``game`` (its ``<game>.json`` over ``common.json``; only the common words for ``None``):
    ``{"event.<kind>" | "reason.<code>" | other key: {"en": ..., "sv": ...}}``.  Codes are per game: both games
    have a ``dealer`` event and a ``not_in_hand`` reason, each with its own words.

    Raises:
        ValueError: ``game`` has no catalogue, or an entry lacks a language (a packaging defect).
    """
    out = dict(_file("common"))
    if game is not None:
        if (
            not isinstance(game, str)
            or not _NAME.fullmatch(game)
            or not (resources.files(__package__) / f"{game}.json").is_file()
        ):
            raise ValueError(f"no words for game {game!r}: no catalogue kortbord/i18n/<game>.json of that name")
        out.update(_file(game))
    return out


def template(key: str, lang: str = "en", game: str | None = None) -> Any:
    """The template of ``key`` in ``lang`` (English when ``lang`` is unknown) from ``game``'s catalogue.

    Raises:
        KeyError: no such key (a code without words is a defect the conformance test catches).
    """
    entry = catalogue(game)[key]
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


def render(
    key: str, data: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None, game: str | None = None
) -> str:
    """The template ``key`` of ``game`` in ``lang`` filled from ``data`` (seats by ``names`` when given).

    A dict template ``{"by": field, "<value>": template, "*": fallback}`` picks its text by ``data[field]``.

    Raises:
        KeyError: no such key.
    """
    tpl = template(key, lang, game)
    while isinstance(tpl, dict):
        by = tpl.get("by", "")
        tpl = tpl.get(str(data.get(by)), tpl.get("*", ""))
    return _Fields(data, names).format(str(tpl))


def reason_text(
    reason: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None, game: str | None = None
) -> str:
    """An illegal-move reason (``{"code": ..., **data}``) of ``game`` in words.  Raises KeyError for an unknown
    code."""
    return render("reason." + str(reason["code"]), reason, lang, names, game)


def event_text(
    event: Mapping[str, Any], lang: str = "en", names: Sequence[str] | None = None, game: str | None = None
) -> str:
    """An event (``{"kind": ..., **data}``) of ``game`` in words; Cribbage events are worded by
    :func:`kortbord.i18n.cribbage.event_text` (the spoken count, pegs, Muggins).  Raises KeyError for an unknown
    kind."""
    if game == "cribbage":
        from kortbord.i18n import cribbage

        return cribbage.event_text(event, lang, names)
    return render("event." + str(event["kind"]), event, lang, names, game)


def option_label(game: str, key: str, lang: str = "en") -> str:
    """A rule option's label in ``lang`` (``option.<key>.label`` of ``game``'s catalogue, where the lobby's and
    the terminal's words for every option live), or the key itself for an option without words."""
    entry = catalogue(game).get(f"option.{key}.label")
    return key if entry is None else str(entry.get(lang, entry["en"]))


def rules_words(game: str, rules: Mapping[str, Any], standard: Mapping[str, Any], lang: str = "en") -> list[str]:
    """The options of ``rules`` (a rules dict, ``spec.rules_to_dict``) that differ from ``standard`` (the standard
    profile's dict) and that the lobby offers (they have a label), each as ``"Label: value"`` in ``lang`` -- the
    value's words from ``option.<key>.<value>``, ``option.true``/``option.false`` for a yes/no, else the value.
    Empty when the rules are the standard ones."""
    cat = catalogue(game)
    out = []
    for key, value in rules.items():
        if (key in standard and standard[key] == value) or f"option.{key}.label" not in cat:
            continue
        said = cat.get(f"option.{str(value).lower()}" if isinstance(value, bool) else f"option.{key}.{value}")
        words = str(value) if said is None else str(said.get(lang, said["en"]))
        out.append(f"{option_label(game, key, lang)}: {words}")
    return out
