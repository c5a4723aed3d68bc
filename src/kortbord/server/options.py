"""What the lobby needs to offer every rule option: ``GET /api/options/{game}``.

Each option carries its key, type (``bool`` / ``int`` / ``choice``), choices, the default of the ``standard``
profile, and a label and help text in English and Swedish.  Every game of the registry is described the same way,
through its :class:`~kortbord.contract.GameSpec` (``kortbord.core.get(name)``): the keys, domains and defaults
come from the one declaration, ``spec.option_schema()`` (which cites the rules specs), the profiles from
``spec.profiles()``, the player counts from ``spec.make_rules`` and the computer levels from
``kortbord.bots.registry``; this module only adds the words people read, in one table per game.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any, Final

from kortbord import core
from kortbord.bots import registry
from kortbord.contract import GameSpec, Option
from kortbord.errors import InvalidRulesError

__all__ = ["options_for"]

# key: (label_en, label_sv, help_en, help_sv) -- the Mulle rules spec §3/§4 item in help.  Only the words live
# here: each option's type, domain and default come from ``mulle.SPEC.option_schema()`` (``mulle/rules.OPTIONS``).
# The options the table does not offer (``profile``: the profile list; ``jokers``: not implemented) have no words.
_MULLE: Final[dict[str, tuple[str, str, str, str]]] = {
    "game_length": (
        "Game length",
        "Spellängd",
        "Play to a points target, one round, or until each player has dealt once (A18).",
        "Spela till en poänggräns, en omgång eller tills alla har gett en gång (A18).",
    ),
    "kryp": (
        "Kryp-mulle (lowest wins)",
        "Kryp-mulle (lägst vinner)",
        "The same play, but points are to be avoided: the lowest total wins (§3, A20).",
        "Samma spel, men poäng ska undvikas: lägst summa vinner (§3, A20).",
    ),
    "pure_mulle": (
        "Pure mulle",
        "Ren mulle",
        "A card whose twin lies loose takes only the twin, plus builds of its value (A1).",
        "Ett kort vars tvilling ligger löst tar bara tvillingen, och byggen av samma värde (A1).",
    ),
    "spade_points": (
        "Spade points",
        "Spaderpoäng",
        "A♠ and 2♠ score 2 each in all (40 card points a round) or 3 each (44) (A2).",
        "A♠ och 2♠ ger 2 vardera totalt (40 kortpoäng per omgång) eller 3 vardera (44) (A2).",
    ),
    "mulle_value": (
        "Mulle value",
        "Mullens värde",
        "A mulle scores the card's hand value (A 14, 2♠ 15, 10♦ 16), its table value, or by capture (A3).",
        "En mulle ger kortets handvärde (A 14, 2♠ 15, 10♦ 16), bordsvärde eller enligt intaget (A3).",
    ),
    "special_capture_builds_only": (
        "Aces, lillan, storan take builds only",
        "Ess, lillan, storan tar bara byggen",
        "Hand values 14, 15 and 16 capture builds only (A4).",
        "Handvärdena 14, 15 och 16 tar bara byggen (A4).",
    ),
    "maximal": (
        "Capture size",
        "Intagets storlek",
        "A capture takes a maximal set, the most cards, or any set you choose (A5).",
        "Ett intag tar en maximal mängd, flest kort eller valfri mängd (A5).",
    ),
    "capture_duty": (
        "Capture duty",
        "Intagsplikt",
        "No trailing while any capture exists; strict (nor any build); per card; or none (A6).",
        "Ingen utläggning när intag finns; strikt (inte heller bygge); per kort; eller ingen (A6).",
    ),
    "max_found_cards": (
        "Cards that found a build",
        "Kort som grundar ett bygge",
        "How many cards (the hand card included) may found a build (A7).",
        "Hur många kort (handkortet medräknat) som får grunda ett bygge (A7).",
    ),
    "build_down": (
        "Build down",
        "Bygga ner",
        "A card may be added to an open build to lower its value (A8).",
        "Ett kort får läggas på ett öppet bygge för att sänka dess värde (A8).",
    ),
    "build_down_only_on_others": (
        "Build down only on others' builds",
        "Bygga ner bara andras byggen",
        "Building down only on another player's build (A8).",
        "Bygga ner bara på en annan spelares bygge (A8).",
    ),
    "raise_own": (
        "Raise your own build",
        "Höja eget bygge",
        "You may raise a build you own (A9).",
        "Du får höja ett bygge du äger (A9).",
    ),
    "no_consecutive_raise": (
        "No raising twice in a row",
        "Inte höja två gånger i rad",
        "A build may not be raised by the same player twice in a row (A9).",
        "Ett bygge får inte höjas av samma spelare två gånger i rad (A9).",
    ),
    "ligger_any": (
        "Package or lay on any build",
        "Paketera eller ligga på alla byggen",
        "Package or lay on any build; off: only your own or your partner's (A10).",
        "Paketera eller ligga på alla byggen; av: bara eget eller partnerns (A10).",
    ),
    "ownership": (
        "Build ownership",
        "Ägande av bygge",
        "The last player to change a build owns it; co: earlier owners keep the trail ban (A10).",
        "Den som senast ändrade bygget äger det; co: tidigare ägare behåller utläggningsförbudet (A10).",
    ),
    "table_packaging": (
        "Packing table pairs",
        "Paketera bordspar",
        "Loose table pairs may be packed into a build; off; or forced (a maximal set) (A11).",
        "Lösa bordspar får packas in i ett bygge; av; eller tvingande (maximal mängd) (A11).",
    ),
    "scoring_build_from_hand": (
        "Build with aces, lillan, storan",
        "Bygga med ess, lillan, storan",
        "Aces, 2♠ and 10♦ may build from the hand at their table value (A12).",
        "Ess, 2♠ och 10♦ får bygga från handen med sitt bordsvärde (A12).",
    ),
    "builds_in_sums": (
        "Builds in capture sums",
        "Byggen i intagssummor",
        "Builds may be addends of a capture sum (A13).",
        "Byggen får vara delar av en intagssumma (A13).",
    ),
    "one_build_per_value": (
        "One build per value",
        "Ett bygge per värde",
        "Equal builds merge (and lock) (A14).",
        "Lika byggen slås ihop (och låses) (A14).",
    ),
    "no_tabbe_in_last_deal": (
        "No tabbe in the last deal",
        "Ingen tabbe i sista given",
        "No tabbe in the whole last deal (default: only the final play) (A15).",
        "Ingen tabbe i hela sista given (standard: bara sista utspelet) (A15).",
    ),
    "mulle_pair_scope": (
        "Which pairs are mulles",
        "Vilka par är mullar",
        "Every identical pair in a capture is a mulle, or only pairs of the played card's rank (A16).",
        "Varje identiskt par i ett intag är en mulle, eller bara par av det spelade kortets valör (A16).",
    ),
    "hand_size": (
        "Cards per hand",
        "Kort per hand",
        "Cards dealt to each hand (A17).",
        "Kort som delas ut till varje hand (A17).",
    ),
    "table_size": (
        "Cards on the table",
        "Kort på bordet",
        "Cards dealt face up to the table at a round's start (A17).",
        "Kort som läggs upp på bordet när omgången börjar (A17).",
    ),
    "tie_rule": (
        "Ties",
        "Oavgjort",
        "Equal best totals play on in target games and draw in fixed-length games; or always (A19).",
        "Lika bästa summor spelar vidare i poängspel och blir oavgjort i spel med fast längd (A19).",
    ),
    "locking": (
        "Locking",
        "Låsning",
        "Packaging, lay-on and merge-locking exist; off: the cardgames.zone base rules (§3).",
        "Paketering, ligger och låsning finns; av: cardgames.zones grundregler (§3).",
    ),
    "capture_all_builds": (
        "Capture takes every build of its value",
        "Intag tar alla byggen av värdet",
        "A capture takes every build of its value (A27).",
        "Ett intag tar alla byggen av sitt värde (A27).",
    ),
    "reserve_rule": (
        "Reserve rule",
        "Reservregeln",
        "After any move the mover holds a card for every build it owns (A28).",
        "Efter varje drag har spelaren ett kort för varje bygge den äger (A28).",
    ),
    "team_build_duty": (
        "Team build duty",
        "Lagets byggplikt",
        "The trail ban binds the build's owner, or the owner's partner too (A25).",
        "Utläggningsförbudet gäller byggets ägare, eller även partnern (A25).",
    ),
    "deal_packet": (
        "Cards per packet",
        "Kort per paket",
        "Cards per packet when dealing (A24).",
        "Kort per paket vid given (A24).",
    ),
    "scoring": (
        "Scoring",
        "Poängräkning",
        "Standard, or surplus: card points count only above 20, doubled (ET).",
        "Standard, eller överskott: kortpoäng räknas bara över 20, dubblade (ET).",
    ),
}

#: The values the lobby lists for the options whose domain is a choice or an int (the schema's
#: ``choice_or_int``): a few common ones, each checked against the schema when the list is built.
_MULLE_OFFERED: Final[dict[str, tuple[Any, ...]]] = {
    "game_length": ("target:100", "target:200", "target:300", "single_round", "each_deals_once"),
    "max_found_cards": (2, 3, 4, "unlimited"),
}

#: The words of the Cribbage options the lobby offers (key: label_en, label_sv, help_en, help_sv); their type,
#: domain and default come from the one declaration, ``kortbord.cribbage.SPEC.option_schema()``.  The player count
#: is the table's; partnership follows from it and the skunk lines take the ACC defaults, so they are not offered.
_CRIBBAGE: Final[dict[str, tuple[str, str, str, str]]] = {
    "target": (
        "Game to",
        "Spel till",
        "121 points (twice around) or 61 (once around) (§2.6).",
        "121 poäng (två varv) eller 61 (ett varv) (§2.6).",
    ),
    "muggins": (
        "Muggins",
        "Muggins",
        "Players count their own hands; an opponent may claim points they missed (§2.10).",
        "Spelarna räknar själva; en motståndare får ta poäng som missats (§2.10).",
    ),
    "lowball": (
        "Lowball",
        "Lowball",
        "Whoever reaches the target first loses (§2.8); played without Muggins.",
        "Den som först når målet förlorar (§2.8); spelas utan Muggins.",
    ),
    "skunks": (
        "Skunks",
        "Skunk",
        "Report skunks at game end: a loser at 90 or less (45 in a 61 game) (§2.7).",
        "Visa skunk vid spelets slut: förloraren på 90 eller mindre (45 i ett 61-spel) (§2.7).",
    ),
    "skunk_games": (
        "Games for a skunk",
        "Partier för skunk",
        "Games a skunk counts in a match (§2a).",
        "Antal partier en skunk räknas som (§2a).",
    ),
    "double_skunk_games": (
        "Games for a double skunk",
        "Partier för dubbel skunk",
        "Games a double skunk counts in a match (§2a).",
        "Antal partier en dubbel skunk räknas som (§2a).",
    ),
}


#: The words of each game's options, by game (the registry's names); an option without words is not offered.
_WORDS: Final[dict[str, dict[str, tuple[str, str, str, str]]]] = {"mulle": _MULLE, "cribbage": _CRIBBAGE}
#: The values offered for a ``choice_or_int`` option, by game.
_OFFERED: Final[dict[str, dict[str, tuple[Any, ...]]]] = {"mulle": _MULLE_OFFERED}
#: How each game seats four players (words for the lobby).
_TEAMS: Final[dict[str, str]] = {
    "mulle": "4 players may play as teams (seats 0+2 against 1+3)",
    "cribbage": "4 players always play as partners (seats 0+2 against 1+3)",
}
#: The seat counts a table may have (``POST /api/games`` takes 2-4 players).
TABLE_SEATS: Final = (2, 3, 4)


def _schema_option(
    spec: GameSpec, option: Option, words: tuple[str, str, str, str], offered: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """The lobby's entry of one option declared in ``spec.option_schema()``, with its words.  A ``choice_or_int``
    is offered as a ``choice`` of ``offered`` (each value checked against the domain by ``spec.make_rules``)."""
    label_en, label_sv, help_en, help_sv = words
    out: dict[str, Any] = {"key": option.key, "type": option.type, "default": option.default}
    if option.type == "choice_or_int" and offered:
        for value in offered:
            spec.make_rules({option.key: value})  # the offered value is in the domain (raises InvalidRulesError)
        out.update(type="choice", choices=list(offered))
    elif option.choices:
        out["choices"] = list(option.choices)
    if option.type == "int":
        out["min"], out["max"] = option.minimum, option.maximum
    out.update(label_en=label_en, label_sv=label_sv, help_en=help_en, help_sv=help_sv)
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
    words = _WORDS.get(game, {})
    return {
        "game": game,
        "options": [_schema_option(spec, schema[k], w, offered.get(k, ())) for k, w in words.items() if k in schema],
        "profiles": [
            {"name": n, "rules": spec.rules_to_dict(spec.make_rules({"profile": n}))} for n in spec.profiles()
        ],
        "players": [n for n in TABLE_SEATS if _seats_ok(spec, n)],
        "teams": _TEAMS.get(game, ""),
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
        "bot_levels": [...], "bot_level_words": {level: ...}}`` (the levels' words: see ``_level_words``) (a new dict each call).  A profile's ``rules`` are every option of that profile
        (``spec.rules_to_dict``).
    """
    if game not in core.GAMES:
        return None
    return copy.deepcopy(_describe(game))
