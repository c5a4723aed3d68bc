"""Mulle rule options: one frozen :class:`Rules` value, named profiles, ``from_dict``/``to_dict``.

Every option key of the rules spec (``spec/rules/mulle.md`` §3 variants and §4 ambiguities A1-A28) is a
field here, with the spec's default.  Profiles (§3): ``standard`` (the default), ``cardgames.zone`` (seed 002's
reading) and ``kryp`` (Kryp-mulle: the same play, the lowest total wins).

The options themselves (type, domain, default, spec section) are declared once, in :data:`OPTIONS`.

A rules dictionary (in positions, records, the HTTP API) names an optional ``"profile"`` and overrides single
keys on top of it: ``{"profile": "cardgames.zone", "game_length": "target:200"}``.  Unknown keys or values raise
:class:`~kortbord.errors.InvalidRulesError`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from kortbord.contract import Option
from kortbord.errors import InvalidRulesError

__all__ = ["OPTIONS", "PROFILES", "RULES_VERSION", "Rules"]

#: Version of the rules implementation; written into every game record (pgx convention).
RULES_VERSION: Final = "mulle-1.0"

_PROFILE_NAMES: Final = ("standard", "cardgames.zone", "kryp")

#: Bounds of the integer options: a points target (``game_length "target:N"``) and ``max_found_cards``.  A
#: target beyond 10000 points or a build founded on more than 16 cards (a build's value is at most 16) is no
#: game anyone plays; the bounds keep absurd input (a 5000-digit target) out of the engine.
MAX_TARGET: Final = 10000
MAX_FOUND_CARDS: Final = 16
_TARGET = re.compile(r"target:([1-9][0-9]{0,4})")  # no leading zero: one spelling per target
_DIGITS = re.compile(r"[1-9][0-9]{0,4}")  # no leading zero: one spelling per number


def _typed(choices: tuple[Any, ...]) -> frozenset[tuple[type, Any]]:
    """``choices`` as ``(type, value)`` pairs, for :func:`_is_choice`."""
    return frozenset((type(c), c) for c in choices)


def _int_bounds(opt: Option) -> tuple[str, int, int]:
    """``(key, minimum, maximum)`` of an int option."""
    assert opt.minimum is not None and opt.maximum is not None
    return opt.key, opt.minimum, opt.maximum


def _is_choice(value: object, allowed: frozenset[tuple[type, Any]]) -> bool:
    """``value`` is one of the choices ``allowed`` (:func:`_typed`) with the same type."""
    try:
        return (type(value), value) in allowed
    except TypeError:  # an unhashable value (a list, a dict) is no choice
        return False


_S: Final = "mulle.md §4 "  # the ambiguity table of the rules spec, where most options are defined

#: Every Mulle rule option, declared once (type, domain, ``standard`` default, spec section), in the order of
#: :class:`Rules`' fields.  :class:`Rules` takes its defaults and its validation from here; the server's option
#: lists, the lobby and the OpenSpiel parameters read it through ``kortbord.mulle.SPEC.option_schema()``.
OPTIONS: Final[tuple[Option, ...]] = (
    Option("pure_mulle", "bool", True, section=_S + "A1"),
    Option("spade_points", "choice", "total", ("total", "additive"), section=_S + "A2"),
    Option("mulle_value", "choice", "hand", ("hand", "table", "by_capture"), section=_S + "A3"),
    Option("special_capture_builds_only", "bool", False, section=_S + "A4"),
    Option("maximal", "choice", "maximal", ("maximal", "maximum", "free"), section=_S + "A5"),
    Option("capture_duty", "choice", "player", ("player", "strict", "card", "none"), section=_S + "A6"),
    Option(
        "max_found_cards", "choice_or_int", 2, ("unlimited",), minimum=2, maximum=MAX_FOUND_CARDS, section=_S + "A7"
    ),
    Option("build_down", "bool", True, section=_S + "A8"),
    Option("build_down_only_on_others", "bool", False, section=_S + "A8"),
    Option("raise_own", "bool", True, section=_S + "A9"),
    Option("no_consecutive_raise", "bool", False, section=_S + "A9"),
    Option("ligger_any", "bool", True, section=_S + "A10"),
    Option("ownership", "choice", "last", ("last", "co"), section=_S + "A10"),
    Option("table_packaging", "choice", "on", ("on", "off", "forced"), section=_S + "A11"),
    Option("scoring_build_from_hand", "bool", False, section=_S + "A12"),
    Option("builds_in_sums", "bool", False, section=_S + "A13"),
    Option("one_build_per_value", "bool", True, section=_S + "A14"),
    Option("no_tabbe_in_last_deal", "bool", False, section=_S + "A15"),
    Option("mulle_pair_scope", "choice", "any", ("any", "rank_only"), section=_S + "A16"),
    Option("hand_size", "int", 8, minimum=1, maximum=52, section=_S + "A17"),
    Option("table_size", "int", 8, minimum=0, maximum=52, section=_S + "A17"),
    Option(
        "game_length",
        "choice_or_int",
        "target:100",
        ("single_round", "each_deals_once"),
        minimum=1,
        maximum=MAX_TARGET,
        section=_S + "A18",
        prefix="target:",
    ),
    Option("tie_rule", "choice", "standard", ("standard", "play_on", "draw"), section=_S + "A19"),
    Option("kryp", "bool", False, section=_S + "A20"),
    # jokers are not implemented (no source documents how they play): the only accepted value is false
    Option("jokers", "choice", False, (False,), section=_S + "A21"),
    Option("locking", "bool", True, section="mulle.md §3"),
    Option("capture_all_builds", "bool", True, section=_S + "A27"),
    Option("reserve_rule", "bool", True, section=_S + "A28"),
    Option("team_build_duty", "choice", "owner", ("owner", "team"), section=_S + "A25"),
    Option("deal_packet", "int", 4, minimum=1, maximum=52, section=_S + "A24"),
    Option("scoring", "choice", "standard", ("standard", "surplus"), section="mulle.md §2.11, §3"),
    Option("profile", "choice", "standard", _PROFILE_NAMES, section="mulle.md §3"),
)
_OPTION: Final[dict[str, Option]] = {o.key: o for o in OPTIONS}
_DEFAULT: Final[dict[str, Any]] = {o.key: o.default for o in OPTIONS}
#: The checks of ``__post_init__`` read from :data:`OPTIONS`, in the order they run (choices, booleans, the rest);
#: a choice's values are kept as ``(type, value)`` pairs, so ``0`` is not ``False`` and ``1`` is not ``True``.
_CHOICE_CHECKS: Final = tuple(
    (o.key, _typed(o.choices), ", ".join(o.choices))
    for o in OPTIONS
    if o.type == "choice" and o.key not in ("jokers", "profile")
)
_BOOLS: Final = tuple(o.key for o in OPTIONS if o.type == "bool" or o.key == "jokers")
_INT_CHECKS: Final = tuple(_int_bounds(o) for o in OPTIONS if o.type == "int")
_JOKERS: Final = _typed(_OPTION["jokers"].choices)
_PROFILE_CHOICES: Final = _typed(_OPTION["profile"].choices)
_MFC_CHOICES: Final = _typed(_OPTION["max_found_cards"].choices)
_LENGTH_CHOICES: Final = _typed(_OPTION["game_length"].choices)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every Mulle option (rules spec §3, §4).  Defaults are the ``standard`` profile (§2).

    Each field's type, domain and default are declared once, in :data:`OPTIONS`; the defaults below and the
    checks of ``__post_init__`` (which raise :class:`~kortbord.errors.InvalidRulesError`) read it.

    Attributes (spec key, default, meaning):
        pure_mulle (A1, True): a played card whose twin lies loose takes only the twin (plus builds of its value).
        spade_points (A2, "total"): A♠ and 2♠ score 2 each (40 card points a round); "additive": 3 each (44).
        mulle_value (A3, "hand"): a mulle scores the hand value (A 14, 2♠ 15, 10♦ 16); "table"; "by_capture".
        special_capture_builds_only (A4, False): hand values 14/15/16 capture builds only.
        maximal (A5, "maximal"): a capture takes a maximal set; "maximum": the most cards; "free": any set.
        capture_duty (A6, "player"): no trailing while any capture exists; "strict" (nor any build); "card"
            (a card that can capture may not be trailed); "none".
        max_found_cards (A7, 2): cards that found a build (hand card included); an int >= 2 or "unlimited".
        build_down (A8, True), build_down_only_on_others (A8, False).
        raise_own (A9, True), no_consecutive_raise (A9, False).
        ligger_any (A10, True): package / lay on any build (False: only your own or your partner's).
        ownership (A10, "last"): the last player to change a build owns it; "co": earlier owners keep the trail ban.
        table_packaging (A11, "on"): loose pairs may be packed into a build; "off"; "forced" (a maximal set).
        scoring_build_from_hand (A12, False): aces, 2♠, 10♦ may build from the hand with their table value.
        builds_in_sums (A13, False): builds may be addends of a capture sum.
        one_build_per_value (A14, True): equal values merge (and lock).
        no_tabbe_in_last_deal (A15, False): no tabbe in the whole last deal (default: only the final play).
        mulle_pair_scope (A16, "any"): every identical pair in one capture is a mulle; "rank_only": only pairs of
            the played card's rank.
        hand_size, table_size (A17, 8, 8): the deal format hand+table (8+8, 5+5, 4+8, ...).
        game_length (A18, "target:100"): "target:N", "single_round" or "each_deals_once".
        tie_rule (A19, "standard"): equal best totals play on in target games and draw in fixed-length games;
            "play_on" or "draw" always.
        kryp (A20, False): Kryp-mulle, the lowest total wins.
        jokers (A21, False): not implemented; True raises InvalidRulesError.
        locking (§3, True): packaging, lay-on and merge-locking exist (False: cardgames.zone base rules).
        capture_all_builds (A27, True): a capture takes every build of its value.
        reserve_rule (A28, True): after any move the mover holds a card for every build it owns.
        team_build_duty (A25, "owner"): trail ban only for the build's owner; "team": for the owner's partner too.
        deal_packet (A24, 4): cards per packet when dealing.
        scoring (ET, "standard"): "surplus": card points count only above 20, doubled.
        profile: the name of the profile these rules were built from (informational).
    """

    pure_mulle: bool = _DEFAULT["pure_mulle"]
    spade_points: str = _DEFAULT["spade_points"]
    mulle_value: str = _DEFAULT["mulle_value"]
    special_capture_builds_only: bool = _DEFAULT["special_capture_builds_only"]
    maximal: str = _DEFAULT["maximal"]
    capture_duty: str = _DEFAULT["capture_duty"]
    max_found_cards: int | str = _DEFAULT["max_found_cards"]
    build_down: bool = _DEFAULT["build_down"]
    build_down_only_on_others: bool = _DEFAULT["build_down_only_on_others"]
    raise_own: bool = _DEFAULT["raise_own"]
    no_consecutive_raise: bool = _DEFAULT["no_consecutive_raise"]
    ligger_any: bool = _DEFAULT["ligger_any"]
    ownership: str = _DEFAULT["ownership"]
    table_packaging: str = _DEFAULT["table_packaging"]
    scoring_build_from_hand: bool = _DEFAULT["scoring_build_from_hand"]
    builds_in_sums: bool = _DEFAULT["builds_in_sums"]
    one_build_per_value: bool = _DEFAULT["one_build_per_value"]
    no_tabbe_in_last_deal: bool = _DEFAULT["no_tabbe_in_last_deal"]
    mulle_pair_scope: str = _DEFAULT["mulle_pair_scope"]
    hand_size: int = _DEFAULT["hand_size"]
    table_size: int = _DEFAULT["table_size"]
    game_length: str = _DEFAULT["game_length"]
    tie_rule: str = _DEFAULT["tie_rule"]
    kryp: bool = _DEFAULT["kryp"]
    jokers: bool = _DEFAULT["jokers"]
    locking: bool = _DEFAULT["locking"]
    capture_all_builds: bool = _DEFAULT["capture_all_builds"]
    reserve_rule: bool = _DEFAULT["reserve_rule"]
    team_build_duty: str = _DEFAULT["team_build_duty"]
    deal_packet: int = _DEFAULT["deal_packet"]
    scoring: str = _DEFAULT["scoring"]
    profile: str = _DEFAULT["profile"]

    def __post_init__(self) -> None:
        for key, allowed, names in _CHOICE_CHECKS:
            value = getattr(self, key)
            if not _is_choice(value, allowed):
                raise InvalidRulesError(f"rule {key!r} must be one of {names}; got {value!r}")
        for key in _BOOLS:
            if not isinstance(getattr(self, key), bool):
                raise InvalidRulesError(f"rule {key!r} must be true or false; got {getattr(self, key)!r}")
        if not _is_choice(self.jokers, _JOKERS):
            raise InvalidRulesError(
                "rule 'jokers' is not implemented: no source documents how jokers play in Mulle (spec §3, A21)"
            )
        if not _choice_or_int_ok(_OPTION["max_found_cards"], _MFC_CHOICES, self.max_found_cards):
            raise InvalidRulesError(
                f"rule 'max_found_cards' must be an integer 2..{MAX_FOUND_CARDS} or 'unlimited';"
                f" got {_short(self.max_found_cards)}"
            )
        for key, low, high in _INT_CHECKS:
            value = getattr(self, key)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise InvalidRulesError(f"rule {key!r} must be an integer {low}..{high}; got {value!r}")
        if not _choice_or_int_ok(_OPTION["game_length"], _LENGTH_CHOICES, self.game_length):
            raise InvalidRulesError(
                f"rule 'game_length' must be 'target:N' (N = 1..{MAX_TARGET}), 'single_round' or 'each_deals_once';"
                f" got {_short(self.game_length)}"
            )
        if not _is_choice(self.profile, _PROFILE_CHOICES):
            raise InvalidRulesError(f"unknown profile {_short(self.profile)}; known: {', '.join(_PROFILE_NAMES)}")

    # -- derived values -----------------------------------------------------------------------------------
    @property
    def target(self) -> int | None:
        """The points target of a ``target:N`` game, else ``None``."""
        n = _target_of(self.game_length)
        return n if n > 0 else None

    @property
    def max_table_cards_in_found(self) -> int:
        """How many table cards one hand card may found a build on (``max_found_cards - 1``; 51 = unlimited)."""
        return 51 if self.max_found_cards == "unlimited" else int(self.max_found_cards) - 1

    # -- dictionaries ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every option as a JSON-ready dict, ``"profile"`` first; ``Rules.from_dict(r.to_dict()) == r``."""
        d: dict[str, Any] = {"profile": self.profile}
        for f in dataclasses.fields(self):
            if f.name != "profile":
                d[f.name] = getattr(self, f.name)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Rules:
        """Rules from ``{"profile": name, key: value, ...}``; omitted keys take the profile's values.

        Also accepted (spec §3/§4 spellings): ``"locking": "on"/"off"``, ``"table_packaging": true/false``,
        ``"target": N`` (= ``game_length "target:N"``), ``"max_found_cards": "2"``.

        Raises:
            InvalidRulesError: unknown profile, unknown key, or a value outside the key's domain.
        """
        if data is None:
            return STANDARD
        if not isinstance(data, Mapping):
            raise InvalidRulesError(f"rules must be a JSON object of options; got {type(data).__name__}")
        profile = data.get("profile", "standard")
        if not isinstance(profile, str):
            raise InvalidRulesError(
                f"rule 'profile' must be a profile name ({', '.join(PROFILES)}); got a {_json_type(profile)}"
            )
        if profile not in PROFILES:
            raise InvalidRulesError(f"unknown profile {_short(profile)}; known: {', '.join(PROFILES)}")
        names = {f.name for f in dataclasses.fields(cls)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key == "profile":
                continue
            if not isinstance(key, str):
                raise InvalidRulesError(f"rule names are strings; got {_short(key)}")
            if key == "target":
                if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_TARGET:
                    raise InvalidRulesError(f"rule 'target' must be an integer 1..{MAX_TARGET}; got {_short(value)}")
                changes["game_length"] = f"target:{value}"
                continue
            if key not in names:
                raise InvalidRulesError(f"unknown Mulle rule option {_short(key)}")
            if key == "locking" and value in ("on", "off"):
                value = value == "on"
            elif key == "table_packaging" and isinstance(value, bool):
                value = "on" if value else "off"
            elif key == "max_found_cards" and isinstance(value, str) and re.fullmatch(r"[0-9]{1,2}", value):
                value = int(value)
            changes[key] = value
        return dataclasses.replace(PROFILES[profile], **changes)

    def with_options(self, **changes: Any) -> Rules:
        """A copy with some options changed (validated). Raises InvalidRulesError."""
        return dataclasses.replace(self, **changes)


def _target_of(game_length: object) -> int:
    """N of ``"target:N"`` (ASCII digits, 1..MAX_TARGET), else 0."""
    if isinstance(game_length, str):
        m = _TARGET.fullmatch(game_length)
        if m is not None and 1 <= int(m.group(1)) <= MAX_TARGET:
            return int(m.group(1))
    return 0


def _choice_or_int_ok(opt: Option, allowed: frozenset[tuple[type, Any]], value: object) -> bool:
    """``value`` is in the domain of a ``choice_or_int`` option: one of its choices, or an int in its bounds --
    written ``prefix + digits`` (at most 5 ASCII digits) when the option has a prefix.  ``allowed``: its choices
    as :func:`_typed` pairs."""
    if _is_choice(value, allowed):
        return True
    assert opt.minimum is not None and opt.maximum is not None
    if opt.prefix:
        if type(value) is not str or not value.startswith(opt.prefix):
            return False
        digits = value[len(opt.prefix) :]
        if _DIGITS.fullmatch(digits) is None:
            return False
        value = int(digits)
    return type(value) is int and opt.minimum <= value <= opt.maximum


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, so an absurd value does not flood an error message."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


def _json_type(value: object) -> str:
    """The JSON name of a value's type (object, array, number, ...)."""
    if isinstance(value, Mapping):
        return "JSON object"
    if isinstance(value, list | tuple):
        return "JSON array"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null" if value is None else type(value).__name__


PROFILES: dict[str, Rules] = {}
STANDARD: Final = Rules()
PROFILES["standard"] = STANDARD
# Seed 002 (cardgames.zone), spec §3: mixed mulle, strict capture duty, no locking, no building down.
PROFILES["cardgames.zone"] = Rules(
    pure_mulle=False, capture_duty="strict", locking=False, build_down=False, profile="cardgames.zone"
)
# Kryp-mulle (spec §3, A20): the same play with points to be avoided; the lowest total wins.
PROFILES["kryp"] = Rules(kryp=True, profile="kryp")
