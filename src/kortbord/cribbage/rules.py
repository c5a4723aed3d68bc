"""Cribbage rule options: one frozen :class:`Rules` value per game, named profiles, dict round trip.

Every option and its default comes from the rules specification ``spec/rules/cribbage.md``:

* players 2, 3 or 4; four players always play as fixed partnerships, partners opposite (seats 0+2 against
  1+3) -- §2.2, §2.4 item 7;
* target 121 ("twice around") or 61 ("once around") -- §2.6;
* ``muggins``: players count their own hands and crib, opponents may call muggins/overcount -- §2.10 M1-M15;
* ``lowball``: the player or side that reaches the target first *loses* -- §2.8, §2a;
* skunks reported at game end: ACC lines (loser at 90 or less = skunk, 60 or less = double skunk in a 121 game,
  half of that -- 45 and 30 -- in a 61 game), worth ``skunk_games`` / ``double_skunk_games`` games -- §2.7, §2a.

Muggins cannot be combined with Lowball (§2.9, M15): ``Rules(muggins=True, lowball=True)`` is accepted, Lowball is
played *without* Muggins (``rules.muggins`` becomes ``False``) and :attr:`Rules.notices` says so, so the table can
tell the players when the game is created (§2a).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Final

from kortbord.contract import Option
from kortbord.errors import InvalidRulesError

__all__ = ["OPTIONS", "PROFILES", "PROFILES_OPTIONS", "RULES_VERSION", "Rules", "in_domain"]

#: Version of the rules implementation; stored in every game record (bumped whenever a rule changes behaviour).
RULES_VERSION: Final = "cribbage-1"

MUGGINS_WITH_LOWBALL_NOTICE: Final = (
    "Muggins cannot be combined with Lowball: Lowball is played and Muggins is ignored (rules spec §2.9, M15)."
)

#: Every option of :class:`Rules`, declared once: its type, domain, default and the rules spec section.  ``Rules``
#: validates each value against it, and the server's option lists, the lobby and the OpenSpiel parameters read it
#: (``kortbord.cribbage.SPEC.option_schema()``).  Domains are per option; the combinations are checked by
#: :class:`Rules` itself: ``partnership`` exactly with 4 players (§2.2), ``skunk_line`` and ``double_skunk_line``
#: below the target and the double-skunk line below the skunk line (§2.7).
OPTIONS: Final[tuple[Option, ...]] = (
    Option("players", "int", 2, minimum=2, maximum=4, section="cribbage.md §2.2"),
    Option("target", "choice", 121, choices=(121, 61), section="cribbage.md §2.6"),
    # None: derived from ``players`` (True exactly with 4 players)
    Option("partnership", "choice", None, choices=(None, False, True), section="cribbage.md §2.2, §2.4 item 7"),
    Option("muggins", "bool", False, section="cribbage.md §2.10"),
    Option("lowball", "bool", False, section="cribbage.md §2.8"),
    Option("skunks", "bool", True, section="cribbage.md §2.7, §2a"),
    # None: the ACC line for the target (90 in a 121 game, 45 in a 61 game); an int must be below the target
    Option("skunk_line", "choice_or_int", None, choices=(None,), minimum=1, maximum=120, section="cribbage.md §2.7"),
    # None: 60 (121) / 30 (61); an int must be below the skunk line
    Option(
        "double_skunk_line", "choice_or_int", None, choices=(None,), minimum=0, maximum=119, section="cribbage.md §2.7"
    ),
    Option("skunk_games", "int", 2, minimum=1, maximum=10, section="cribbage.md §2a"),
    Option("double_skunk_games", "int", 3, minimum=1, maximum=10, section="cribbage.md §2a"),
)
_OPTION_KEYS: Final = tuple(o.key for o in OPTIONS)


def in_domain(option: Option, value: Any) -> bool:
    """Whether ``value`` lies in ``option``'s own domain (its type, choices and bounds; no combination checks).

    Types are exact: ``True`` is not an int, ``121.0`` is not the choice ``121``.
    """
    kind = option.type
    if kind == "bool":
        return type(value) is bool
    if kind in ("choice", "choice_or_int") and any(type(value) is type(c) and value == c for c in option.choices):
        return True
    if kind in ("int", "choice_or_int") and type(value) is int:
        return (option.minimum is None or value >= option.minimum) and (
            option.maximum is None or value <= option.maximum
        )
    return False


def _domain_text(option: Option) -> str:
    """The domain in words, for error messages (``players must be a whole number from 2 to 4``)."""
    parts = []
    if option.type == "bool":
        return "true or false"
    if option.choices:
        numbers = all(type(c) is int for c in option.choices)  # numbers in ascending order ("61 or 121")
        parts.append(" or ".join(json.dumps(c) for c in (sorted(option.choices) if numbers else option.choices)))
    if option.type in ("int", "choice_or_int"):
        if option.maximum is None:
            parts.append(f"a whole number of at least {option.minimum}")
        else:
            parts.append(f"a whole number from {option.minimum} to {option.maximum}")
    return " or ".join(parts)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of a Cribbage game (rules spec §2, §2a, §2.9).

    Attributes:
        players: number of players, 2, 3 or 4 (spec §2.2).
        target: points needed to win (or, in Lowball, to lose): 121 or 61 (spec §2.6).
        partnership: ``True`` exactly when ``players == 4`` (seats 0+2 against 1+3, partners opposite). ``None`` at
            construction means "derive it from ``players``"; the stored value is always a bool.
        muggins: Muggins counting (spec §2.10). Forced to ``False`` when ``lowball`` is on (see :attr:`notices`).
        lowball: the misère objective (spec §2.8): whoever reaches the target first loses.
        skunks: report skunks at game end (spec §2.7, §2a). Skunks are never reported in Lowball.
        skunk_line: a loser at this many points or fewer is skunked; ``None`` = ACC default for the target
            (90 in a 121 game, 45 in a 61 game).
        double_skunk_line: a loser at this many points or fewer is double-skunked; ``None`` = 60 (121) / 30 (61).
        skunk_games: games a skunk counts in a match (default 2, spec §2a).
        double_skunk_games: games a double skunk counts (default 3, spec §2a).
        notices: messages for the players about how the chosen options were combined (not an option itself).

    Raises:
        InvalidRulesError: an unknown value or an unsupported combination, with the reason.
    """

    players: int = 2
    target: int = 121
    partnership: bool | None = None
    muggins: bool = False
    lowball: bool = False
    skunks: bool = True
    skunk_line: int | None = None
    double_skunk_line: int | None = None
    skunk_games: int = 2
    double_skunk_games: int = 3
    notices: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        def bad(message: str) -> InvalidRulesError:
            return InvalidRulesError(f"cribbage rules: {message}")

        for option in OPTIONS:  # each value in its own domain (the one declaration, :data:`OPTIONS`)
            value = getattr(self, option.key)
            if not in_domain(option, value):
                raise bad(f"{option.key} must be {_domain_text(option)} (spec {option.section}), got {value!r}")
        if self.partnership is None:
            object.__setattr__(self, "partnership", self.players == 4)
        if self.partnership and self.players != 4:
            raise bad(f"partnership play needs 4 players (spec §2.2), got {self.players}")
        if self.players == 4 and not self.partnership:
            raise bad("4 players always play as fixed partnerships, partners opposite (spec §2.2)")
        for name in ("skunk_line", "double_skunk_line"):
            value = getattr(self, name)
            if value is not None and not value < self.target:
                raise bad(f"{name} must be a whole number of points from 0 to {self.target - 1}, got {value!r}")
        if not self.double_skunk_threshold < self.skunk_threshold:
            raise bad(
                f"the double-skunk line ({self.double_skunk_threshold}) must be below the skunk line "
                f"({self.skunk_threshold}): a double skunk is the deeper loss (spec §2.7)"
            )
        notices = tuple(self.notices)
        if self.muggins and self.lowball:
            object.__setattr__(self, "muggins", False)
            if MUGGINS_WITH_LOWBALL_NOTICE not in notices:
                notices += (MUGGINS_WITH_LOWBALL_NOTICE,)
        object.__setattr__(self, "notices", notices)

    # -- derived values ---------------------------------------------------------------------------------------
    @property
    def sides(self) -> int:
        """Number of scoring sides: 2 in a partnership game, otherwise one per player."""
        return 2 if self.partnership else self.players

    def side_of(self, seat: int) -> int:
        """The side (0-based) that ``seat``'s points go to: ``seat % 2`` in partnership, else ``seat``."""
        return seat % 2 if self.partnership else seat

    @property
    def cards_dealt(self) -> int:
        """Cards dealt to each player: 6 with 2 players, 5 with 3 or 4 (spec §2.2 table)."""
        return 6 if self.players == 2 else 5

    @property
    def discards(self) -> int:
        """Cards each player lays away to the crib: 2 with 2 players, 1 with 3 or 4 (spec §2.2)."""
        return 2 if self.players == 2 else 1

    @property
    def crib_from_pack(self) -> int:
        """Cards dealt face down from the pack straight to the crib: 1 with 3 players, else 0 (spec §2.2)."""
        return 1 if self.players == 3 else 0

    @property
    def skunk_threshold(self) -> int:
        """A loser at this score or lower is skunked (ACC: 90 in a 121 game; half, 45, in a 61 game; §2.7)."""
        if self.skunk_line is not None:
            return self.skunk_line
        return 90 if self.target == 121 else 45

    @property
    def double_skunk_threshold(self) -> int:
        """A loser at this score or lower is double-skunked (ACC: 60 in a 121 game, 30 in a 61 game; §2.7)."""
        if self.double_skunk_line is not None:
            return self.double_skunk_line
        return 60 if self.target == 121 else 30

    # -- (de)serialisation ------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (keys as the attribute names; ``notices`` is not an option)."""
        return {key: getattr(self, key) for key in _OPTION_KEYS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from a dict as written by :meth:`to_dict`; missing keys take their defaults.

        A ``"profile"`` key names a starting profile (see :data:`PROFILES`) that the other keys modify.

        Raises:
            InvalidRulesError: an unknown key (listed in the message), an unknown profile or a bad value.
        """
        if not isinstance(data, dict):
            raise InvalidRulesError(f"cribbage rules must be a JSON object, got {type(data).__name__}")
        options = dict(data)
        base: dict[str, Any] = {}
        profile = options.pop("profile", None)
        if profile is not None:
            if not isinstance(profile, str):
                raise InvalidRulesError(
                    f"cribbage rules: profile must be a profile name ({', '.join(PROFILES_OPTIONS)}),"
                    f" got {type(profile).__name__} {str(profile)[:40]}"
                )
            base = PROFILES_OPTIONS.get(profile, None) or {}
            if profile not in PROFILES_OPTIONS:
                raise InvalidRulesError(f"unknown cribbage profile {profile!r}; known: {', '.join(PROFILES_OPTIONS)}")
        unknown = sorted(set(options) - set(_OPTION_KEYS))
        if unknown:
            raise InvalidRulesError(
                f"unknown cribbage rule option(s) {', '.join(unknown)}; known: {', '.join(_OPTION_KEYS)}"
            )
        return cls(**{**base, **options})

    @classmethod
    def profile(cls, name: str) -> Rules:
        """A named profile (:data:`PROFILES`), e.g. ``Rules.profile("muggins")``.

        Raises:
            InvalidRulesError: for an unknown name.
        """
        return cls.from_dict({"profile": name})


#: Named profiles: option overrides of the defaults (2 players, 121, automatic counting).
PROFILES_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "once-around": {"target": 61},
    "muggins": {"muggins": True},
    "lowball": {"lowball": True},
    "three-hand": {"players": 3},
    "partnership": {"players": 4},
}

#: The named profiles as :class:`Rules` values.
PROFILES: Final[dict[str, Rules]] = {name: Rules(**opts) for name, opts in PROFILES_OPTIONS.items()}
