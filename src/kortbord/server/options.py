"""What the lobby needs to offer every rule option: ``GET /api/options/{game}``.

Each option carries its key, type (``bool`` / ``int`` / ``choice``), choices, the default of the ``standard``
profile, and a label and help text in English and Swedish (``label_en`` ... ``help_sv``, for clients without the
catalogues).  Every game of the registry is described the same way,
through its :class:`~kortbord.contract.GameSpec` (``kortbord.core.get(name)``): the keys, domains and defaults
come from the one declaration, ``spec.option_schema()`` (which cites the rules specs), the profiles from
``spec.profiles()``, the player counts from ``spec.make_rules`` and the computer levels from
``kortbord.bots.registry``, and the words people read from the game's catalogue (``kortbord/i18n/<game>.json``:
``option.<key>.label``, ``option.<key>.help``, ``option.<key>.<value>``, ``lobby.teams``), where the page and the
terminal read them too: this module only says which options the lobby offers, in which order.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Final

from kortbord import core, i18n
from kortbord.bots import registry
from kortbord.contract import GameSpec, Option
from kortbord.errors import InvalidRulesError

__all__ = ["TABLE_LIMITS", "option_words", "options_for", "table_limit_error"]

#: The Mulle options the lobby offers, in its order (the rules spec §3/§4 item is in each help text).  Each
#: option's type, domain and default come from ``mulle.SPEC.option_schema()`` (``mulle/rules.OPTIONS``), its words
#: from the catalogue.  The options the table does not offer (``profile``: the profile list; ``jokers``: not
#: implemented) are not listed.
_MULLE: Final[tuple[str, ...]] = (
    "game_length",
    "kryp",
    "pure_mulle",
    "spade_points",
    "mulle_value",
    "special_capture_builds_only",
    "maximal",
    "capture_duty",
    "max_found_cards",
    "build_down",
    "build_down_only_on_others",
    "raise_own",
    "no_consecutive_raise",
    "ligger_any",
    "ownership",
    "table_packaging",
    "scoring_build_from_hand",
    "builds_in_sums",
    "one_build_per_value",
    "no_tabbe_in_last_deal",
    "mulle_pair_scope",
    "hand_size",
    "table_size",
    "tie_rule",
    "locking",
    "capture_all_builds",
    "reserve_rule",
    "team_build_duty",
    "deal_packet",
    "scoring",
)

#: The values the lobby lists for the options whose domain is a choice or an int (the schema's
#: ``choice_or_int``): a few common ones, each checked against the schema when the list is built.
_MULLE_OFFERED: Final[dict[str, tuple[Any, ...]]] = {
    "game_length": ("target:100", "target:200", "target:300", "single_round", "each_deals_once"),
    "max_found_cards": (2, 3, 4, "unlimited"),
}

#: The Cribbage options the lobby offers, in its order; their type, domain and default come from the one
#: declaration, ``kortbord.cribbage.SPEC.option_schema()``, their words from the catalogue.  The player count is
#: the table's; partnership follows from it and the skunk lines take the ACC defaults, so they are not offered.
_CRIBBAGE: Final[tuple[str, ...]] = ("target", "muggins", "lowball", "skunks", "skunk_games", "double_skunk_games")


#: What the web table allows of an option beyond the engine's domain, by game and key: ``{"max": n}`` for an int,
#: ``{"refused": (values,)}`` for a choice.  The engine takes any table size up to 52 and a free capture duty
#: (rules spec §4 A6, A17) for research; at a shared server they let one game stall every other: the legal moves
#: grow with the loose table's subsets (16 loose cards and ``max_found_cards=unlimited``: about 8,650 moves, seconds
#: of CPU each time; 24: 31,749), and with ``capture_duty=none`` a player who only trails grows the table without
#: bound.  The seeds' formats put at most 8 cards on the table (spec §4 A17), so 12 still leaves room.
TABLE_LIMITS: Final[dict[str, dict[str, dict[str, Any]]]] = {
    "mulle": {"table_size": {"max": 12}, "capture_duty": {"refused": ("none",)}},
}


def table_limit_error(game: str, rules: dict[str, Any]) -> str | None:
    """Why the web table refuses a game's resolved rules (``spec.rules_to_dict``), or ``None`` if it takes them.

    Args:
        game: a registry name (``"mulle"``, ``"cribbage"``).
        rules: every option of the table's rules, as ``spec.rules_to_dict`` gives them.

    Returns:
        An English sentence naming the option and what the table allows (see :data:`TABLE_LIMITS`), or ``None``.
    """
    for key, limit in TABLE_LIMITS.get(game, {}).items():
        value = rules.get(key)
        if "max" in limit and isinstance(value, int) and value > limit["max"]:
            return f"{key} {value} is more than this table allows ({limit['max']}): the legal moves grow too many"
        if value in limit.get("refused", ()):
            return f"{key} {value!r} is not offered at this table: the table could grow without bound"
    return None


#: The options each game's lobby offers, by game (the registry's names); an option not listed is not offered.
_OFFER: Final[dict[str, tuple[str, ...]]] = {"mulle": _MULLE, "cribbage": _CRIBBAGE}
#: The values offered for a ``choice_or_int`` option, by game.
_OFFERED: Final[dict[str, dict[str, tuple[Any, ...]]]] = {"mulle": _MULLE_OFFERED}
#: The seat counts a table may have (``POST /api/games`` takes 2-4 players).
TABLE_SEATS: Final = (2, 3, 4)


def option_words(game: str, key: str) -> dict[str, str]:
    """An option's words from ``game``'s catalogue (``kortbord/i18n/<game>.json``, the one place for them: the page
    and the terminal read the same entries): ``{"label_en", "label_sv", "help_en", "help_sv"}`` from
    ``option.<key>.label`` and ``option.<key>.help``.

    Raises:
        KeyError: the catalogue has no words for the option (a packaging defect the tests catch).
    """
    cat = i18n.catalogue(game)
    label, help_ = cat[f"option.{key}.label"], cat[f"option.{key}.help"]
    return {
        "label_en": label["en"],
        "label_sv": label["sv"],
        "help_en": help_["en"],
        "help_sv": help_["sv"],
    }


def _schema_option(spec: GameSpec, option: Option, offered: tuple[Any, ...] = ()) -> dict[str, Any]:
    """The lobby's entry of one option declared in ``spec.option_schema()``, with its words from the catalogue
    (:func:`option_words`).  A ``choice_or_int`` is offered as a ``choice`` of ``offered`` (each value checked
    against the domain by ``spec.make_rules``)."""
    out: dict[str, Any] = {"key": option.key, "type": option.type, "default": option.default}
    if option.type == "choice_or_int" and offered:
        for value in offered:
            spec.make_rules({option.key: value})  # the offered value is in the domain (raises InvalidRulesError)
        out.update(type="choice", choices=list(offered))
    elif option.choices:
        out["choices"] = list(option.choices)
    limit = TABLE_LIMITS.get(spec.name, {}).get(option.key, {})
    if option.type == "int":
        out["min"], out["max"] = option.minimum, option.maximum
        if "max" in limit and (option.maximum is None or limit["max"] < option.maximum):
            out["max"] = limit["max"]
    if "choices" in out and limit.get("refused"):
        out["choices"] = [c for c in out["choices"] if c not in limit["refused"]]
    out.update(option_words(spec.name, option.key))
    return out


def _seats_ok(spec: GameSpec, players: int) -> bool:
    try:
        spec.make_rules({}, players=players)
    except InvalidRulesError:
        return False
    return True


@cache
def _describe(game: str) -> dict[str, Any]:
    spec = core.get(game)
    schema = {o.key: o for o in spec.option_schema()}
    offered = _OFFERED.get(game, {})
    teams = i18n.catalogue(game).get("lobby.teams")
    return {
        "game": game,
        "options": [_schema_option(spec, schema[k], offered.get(k, ())) for k in _OFFER.get(game, ()) if k in schema],
        "profiles": [
            {"name": n, "rules": spec.rules_to_dict(spec.make_rules({"profile": n}))} for n in spec.profiles()
        ],
        "players": [n for n in TABLE_SEATS if _seats_ok(spec, n)],
        "teams": "" if teams is None else teams["en"],
        "bot_levels": list(registry.available_levels(game)),
        "bot_level_words": {level: _level_words(game, level) for level in registry.available_levels(game)},
    }


def _level_words(game: str, level: str) -> dict[str, Any]:
    """A level as the lobby shows it (``registry.describe`` in every language): ``{"name": {lang: words},
    "text": {lang: words without the Muggins sentence}, "muggins_text": {lang: words} or None, "miscounts": the
    chance 0..1 it overlooks a scoring group in its own Muggins count or None, "for_people": bool}``."""
    d = registry.describe(game, level, None, muggins=False)
    mugs = d["miscounts"]
    return {
        "name": d["name"],
        "text": d["text"],
        "muggins_text": d["muggins_text"],
        "miscounts": None if not mugs or not mugs.get("miss_rate") else mugs["miss_rate"],
        "for_people": d["for_people"],
    }


def options_for(game: str) -> dict[str, Any] | None:
    """The lobby description of ``game`` (a name in ``kortbord.core.GAMES``), or ``None`` for an unknown game.

    Returns:
        ``{"game", "options": [...], "profiles": [{"name", "rules"}], "players": [..], "teams": words,
        "bot_levels": [...], "bot_level_words": {level: ...}}`` (the levels' words: see ``_level_words``), a new
        dict each call.  A profile's ``rules`` are every option of that profile (``spec.rules_to_dict``).
    """
    if game not in core.GAMES:
        return None
    return copy.deepcopy(_describe(game))
