"""Position JSON (rules spec §5.3): load, dump, and the ``apply`` result of the command-line contract (§5.4).

Seat names ``P1``…``P4`` are clockwise from the dealer's left, so a loaded position's dealer is the last seat
(``P2`` of two, ``P4`` of four) and ``Pk`` is seat ``k-1``.  A dumped state names seats relative to its dealer.

Required: ``to_move`` and the mover's hand.  Optional: ``rules`` (overrides, or ``"profile"``), ``players`` (2),
``teams`` (false), ``table``, ``builds``, ``hands`` of other seats, ``last_play``, ``last_capturer``, and (kortbord
additions, written by :func:`dump_position`) ``stock`` (the undealt cards in dealing order -- hidden information,
for tests and bug reports only), ``piles``, ``scores``, ``deal_no``, ``deals_total``, ``is_last_deal``.

A position without every hand and the stock is *partial*: the turn then simply passes clockwise, and the round
ends after the move only when ``last_play`` is true.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from kortbord.cards import Card
from kortbord.errors import InvalidCardError, InvalidPositionError, KortbordError
from kortbord.mulle import engine
from kortbord.mulle.moves import Capture
from kortbord.mulle.rules import PROFILES, Rules
from kortbord.mulle.scoring import mulle_points
from kortbord.mulle.state import TV, Build, PileInfo, State

__all__ = ["apply_position", "dump_position", "load_position", "seat_name", "side_name"]

_KEYS = {
    "rules",
    "players",
    "teams",
    "table",
    "builds",
    "hands",
    "to_move",
    "last_play",
    "last_capturer",
    "stock",
    "piles",
    "scores",
    "deal_no",
    "deals_total",
    "is_last_deal",
}


def seat_name(state: State, seat: int) -> str:
    """``P1``… for ``seat``, counted clockwise from the dealer's left (spec §5.3)."""
    dealer = state.players - 1 if state.dealer is None else state.dealer
    return f"P{(seat - dealer - 1) % state.players + 1}"


def side_name(state: State, side: int) -> str:
    """A side's name: the seat name, or ``P1+P3`` style for a team."""
    if not state.teams:
        return seat_name(state, side)
    return "+".join(sorted(seat_name(state, s) for s in range(state.players) if s % 2 == side))


def _cards(value: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise InvalidPositionError(f'{what} must be a list of cards such as ["9H", "TD"]')
    try:
        return tuple(sorted(Card.parse(c) for c in value))
    except InvalidCardError as exc:
        raise InvalidPositionError(f"{what}: {exc}") from None


def load_position(data: Mapping[str, Any]) -> State:
    """A state from position JSON (spec §5.3).

    Raises:
        InvalidPositionError: a missing or malformed field, an unknown seat, a card present more than twice, a
            build of impossible value, the mover's hand missing.
        InvalidRulesError: bad ``rules``.
    """
    if not isinstance(data, Mapping):
        raise InvalidPositionError("a position must be a JSON object")
    unknown = set(data) - _KEYS
    if unknown:
        raise InvalidPositionError(f"unknown position field(s): {', '.join(sorted(unknown))}")
    rules = Rules.from_dict(data.get("rules"))
    players = data.get("players", 2)
    if type(players) is not int or players not in (2, 3, 4):
        raise InvalidPositionError(f"players must be the number 2, 3 or 4, not {_short(players)}")
    teams = data.get("teams", False)
    if not isinstance(teams, bool) or (teams and players != 4):
        raise InvalidPositionError("teams must be true or false, and teams need 4 players")
    names = {f"P{i + 1}": i for i in range(players)}

    def seat(value: Any, what: str) -> int:
        if not isinstance(value, str) or value not in names:
            raise InvalidPositionError(f"{what} must be a seat name ({', '.join(names)}); got {_short(value)}")
        return names[value]

    to_move = seat(data.get("to_move"), "to_move")
    table = _cards(data.get("table", []), "table")
    builds: list[Build] = []
    raw_builds = data.get("builds", [])
    if not isinstance(raw_builds, list):
        raise InvalidPositionError("builds must be a list")
    ids: set[str] = set()
    for b in raw_builds:
        if not isinstance(b, Mapping):
            raise InvalidPositionError("each build must be an object {id, cards, value, owner, locked}")
        bid = b.get("id")
        if not isinstance(bid, str) or not re.fullmatch(r"B[0-9]{1,4}", bid):
            raise InvalidPositionError(f"a build id is 'B' and 1 to 4 digits 0-9 (B1, B12), got {_short(bid)}")
        if bid in ids:
            raise InvalidPositionError(f"two builds have the id {bid}")
        ids.add(bid)
        cards = _cards(b.get("cards"), f"build {bid} cards")
        if len(cards) < 2:
            raise InvalidPositionError(f"build {bid} needs at least two cards")
        value = b.get("value")
        if not isinstance(value, int) or isinstance(value, bool) or not 2 <= value <= 16:
            raise InvalidPositionError(f"build {bid} value must be 2..16, got {_short(value)}")
        # Every way a build's value changes keeps it at most the sum of its cards' table values: founding sums
        # them, a raise adds the card, building down subtracts it, packaging and lay-on add cards worth the value
        # without changing it (spec §2.5, M2-M6).  The exact set of reachable values depends on the build's
        # history, which a position does not record, so this upper bound is what is checked.
        total = sum(TV[c] for c in cards)
        if value > total:
            raise InvalidPositionError(
                f"build {bid} cannot be worth {value}: its cards add up to only {total} (table values, spec §2.5)"
            )
        locked = b.get("locked", False)
        if not isinstance(locked, bool):
            raise InvalidPositionError(f"build {bid} locked must be true or false")
        co_raw = b.get("co_owners", [])
        if not isinstance(co_raw, list):
            raise InvalidPositionError(
                f'build {bid} co_owners must be a list of seat names such as ["P1"], got {_short(co_raw)}'
            )
        co = tuple(sorted(seat(s, f"build {bid} co_owners") for s in co_raw))
        builds.append(Build(bid, cards, value, seat(b.get("owner"), f"build {bid} owner"), locked, co))
    builds.sort(key=lambda b: int(b.id[1:]))
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, Mapping):
        raise InvalidPositionError('hands must be an object such as {"P1": ["9H"]}')
    hands: list[tuple[Card, ...]] = [()] * players
    given = set()
    for name, cards_raw in hands_raw.items():
        s = seat(name, "hands key")
        hands[s] = _cards(cards_raw, f"hand of {name}")
        given.add(s)
    if to_move not in given or not hands[to_move]:
        raise InvalidPositionError(f"the position must give the hand of the player to move ({seat_name_of(to_move)})")
    stock: tuple[Card, ...] = ()
    if "stock" in data:
        raw = data["stock"]
        if not isinstance(raw, list):
            raise InvalidPositionError("stock must be a list of cards in dealing order")
        try:
            stock = tuple(Card.parse(c) for c in raw)
        except InvalidCardError as exc:
            raise InvalidPositionError(f"stock: {exc}") from None
    partial = not ("stock" in data and len(given) == players)
    sides = 2 if teams else players
    side_names = (
        {"+".join(sorted(f"P{s + 1}" for s in range(players) if s % 2 == side)): side for side in range(2)}
        if teams
        else {f"P{i + 1}": i for i in range(players)}
    )
    piles = [PileInfo() for _ in range(sides)]
    raw_piles = data.get("piles", {})
    if not isinstance(raw_piles, Mapping):
        raise InvalidPositionError("piles must be an object keyed by side name")
    for name, p in raw_piles.items():
        if name not in side_names:
            raise InvalidPositionError(f"piles key must be one of {', '.join(side_names)}; got {_short(name)}")
        if not isinstance(p, Mapping):
            raise InvalidPositionError(
                f'the pile of {name} must be an object {{"cards": [...], "mulle": [...], "tabbe": n}}, got {_short(p)}'
            )
        piles[side_names[name]] = _pile(p, rules, f"pile of {name}")
    scores = [0] * sides
    raw_scores = data.get("scores", {})
    if not isinstance(raw_scores, Mapping):
        raise InvalidPositionError("scores must be an object keyed by side name")
    for name, sc in raw_scores.items():
        if name not in side_names or not isinstance(sc, int) or isinstance(sc, bool):
            raise InvalidPositionError(f"scores must map {', '.join(side_names)} to integers")
        scores[side_names[name]] = sc
    everything = Counter(table) + Counter(stock)
    for h in hands:
        everything.update(h)
    for b in builds:
        everything.update(b.cards)
    for p in piles:
        everything.update(p.cards)
    too_many = sorted(c for c, k in everything.items() if k > 2)
    if too_many:
        raise InvalidPositionError(
            "two packs hold every card exactly twice, but the position has more of " + ", ".join(map(str, too_many))
        )
    if not partial and sum(everything.values()) != engine.DECK_SIZE:
        raise InvalidPositionError(
            f"a position with every hand and the stock must account for all 104 cards, found {sum(everything.values())}"
        )
    last_play = data.get("last_play", False)
    if not isinstance(last_play, bool):
        raise InvalidPositionError("last_play must be true or false")
    if partial and last_play and (len(hands[to_move]) != 1 or any(hands[s] for s in range(players) if s != to_move)):
        raise InvalidPositionError("last_play means the mover holds the round's only remaining card")
    lc = data.get("last_capturer")
    last_capturer = None if lc is None else seat(lc, "last_capturer")
    plan = engine.deal_plan(rules, players)
    deal_no = data.get("deal_no", len(plan) if last_play else 1)
    deals_total = data.get("deals_total", len(plan))
    is_last = data.get("is_last_deal", bool(last_play) or (not partial and not stock))
    for key, val in (("deal_no", deal_no), ("deals_total", deals_total)):
        if not isinstance(val, int) or isinstance(val, bool) or not 1 <= val <= engine.DECK_SIZE:
            raise InvalidPositionError(f"{key} must be a whole number 1..{engine.DECK_SIZE}, got {_short(val)}")
    if deal_no > deals_total:
        raise InvalidPositionError(f"deal_no {deal_no} is past the round's last deal (deals_total {deals_total})")
    if not isinstance(is_last, bool):
        raise InvalidPositionError("is_last_deal must be true or false")
    next_build = max((int(b.id[1:]) for b in builds), default=0) + 1
    return State(
        rules=rules,
        players=players,
        teams=teams,
        phase="play",
        dealer=players - 1,
        round_no=1,
        to_move=to_move,
        table=table,
        builds=tuple(builds),
        piles=tuple(piles),
        scores=tuple(scores),
        last_capturer=last_capturer,
        deal_no=deal_no,
        deals_total=deals_total,
        is_last_deal=is_last,
        next_build=next_build,
        _hands=tuple(hands),
        _stock=stock,
        partial=partial,
        last_play_flag=last_play,
    )


def _short(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters for an error message."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


def seat_name_of(seat: int) -> str:
    return f"P{seat + 1}"


_PILE_KEYS: Final = frozenset({"cards", "mulle", "tabbe"})


def _pile(p: Mapping[str, Any], rules: Rules, what: str) -> PileInfo:
    """A capture pile ``{"cards", "mulle", "tabbe"}`` checked against what two packs allow (spec §2.1, §2.11):
    at most two copies of a card; a mulle is a captured identical pair, so both copies are in the pile and a card
    makes at most one mulle, worth 0..16 points; each tabbe is a capture of at least two cards, so there are at
    most half as many tabbar as pile cards.

    Raises:
        InvalidPositionError: an unknown key or any of the above broken, with the reason.
    """
    unknown = set(p) - _PILE_KEYS
    if unknown:
        raise InvalidPositionError(
            f"{what}: unknown field(s) {', '.join(sorted(map(str, unknown)))[:80]}; a pile has cards, mulle, tabbe"
        )
    cards = _cards(p.get("cards", []), f"{what} cards")
    counts = Counter(cards)
    extra = sorted(c for c, k in counts.items() if k > 2)
    if extra:
        raise InvalidPositionError(
            f"{what}: two packs hold every card twice, but the pile has more of {', '.join(map(str, extra))}"
        )
    mulles: list[tuple[Card, int]] = []
    raw = p.get("mulle", [])
    if not isinstance(raw, list):
        raise InvalidPositionError(f"{what}: mulle must be a list of cards")
    try:
        for m in raw:
            if isinstance(m, Mapping):
                c = Card.parse(str(m.get("card")))
                pts = m.get("points", mulle_points(c, rules))
                if not isinstance(pts, int) or isinstance(pts, bool) or not 0 <= pts <= 16:
                    raise InvalidPositionError(f"{what}: mulle points must be a whole number 0..16 (spec §2.11)")
                mulles.append((c, pts))
            else:
                c = Card.parse(m)
                mulles.append((c, mulle_points(c, rules)))
    except InvalidCardError as exc:
        raise InvalidPositionError(f"{what}: {exc}") from None
    for c, _ in mulles:
        if counts[c] != 2:
            raise InvalidPositionError(f"{what}: a mulle of {c} needs both copies of {c} in the pile's cards")
    doubled = sorted({str(c) for c, _ in mulles if sum(1 for m, _ in mulles if m == c) > 1})
    if doubled:
        raise InvalidPositionError(
            f"{what}: a card makes at most one mulle (two copies), but {doubled[0]} is listed twice"
        )
    tabbe = p.get("tabbe", 0)
    if not isinstance(tabbe, int) or isinstance(tabbe, bool) or not 0 <= tabbe <= len(cards) // 2:
        raise InvalidPositionError(
            f"{what}: tabbe must be a count from 0 to {len(cards) // 2} (each tabbe captures at least two of the"
            f" pile's {len(cards)} cards), got {_short(tabbe)}"
        )
    return PileInfo(cards, tuple(mulles), tabbe)


def _rules_overrides(rules: Rules) -> dict[str, Any]:
    base = PROFILES[rules.profile].to_dict()
    mine = rules.to_dict()
    out: dict[str, Any] = {} if rules.profile == "standard" else {"profile": rules.profile}
    out.update({k: v for k, v in mine.items() if k != "profile" and base[k] != v})
    return out


def dump_position(state: State, *, hidden: bool = True) -> dict[str, Any]:
    """Position JSON of ``state`` (spec §5.3).  With ``hidden`` (default) every hand and the stock order are
    included -- a full-information document for tests and bug reports; never send it to a player (use
    :func:`kortbord.mulle.view.view`).  ``hidden=False`` keeps only the mover's hand."""
    names = [seat_name(state, s) for s in range(state.players)]
    hands: dict[str, list[str]] = {}
    for s in range(state.players):
        if hidden or s == state.to_move:
            hands[names[s]] = [str(c) for c in state._hands[s]]
    out: dict[str, Any] = {
        "rules": _rules_overrides(state.rules),
        "players": state.players,
        "teams": state.teams,
        "table": [str(c) for c in state.table],
        "builds": [
            {
                "id": b.id,
                "cards": [str(c) for c in b.cards],
                "value": b.value,
                "owner": names[b.owner],
                "locked": b.locked,
                **({"co_owners": [names[c] for c in b.co_owners]} if b.co_owners else {}),
            }
            for b in state.builds
        ],
        "hands": dict(sorted(hands.items())),
        "to_move": None if state.to_move is None else names[state.to_move],
        "last_play": engine._is_last_play(state) if state.phase == "play" else False,
        "last_capturer": None if state.last_capturer is None else names[state.last_capturer],
        "piles": {
            side_name(state, i): {
                "cards": [str(c) for c in sorted(p.cards)],
                "mulle": [{"card": str(c), "points": pts} for c, pts in p.mulles],
                "tabbe": p.tabbar,
            }
            for i, p in enumerate(state.piles)
        },
        "scores": {side_name(state, i): sc for i, sc in enumerate(state.scores)},
        "deal_no": max(state.deal_no, 1),
        "deals_total": max(state.deals_total, 1),
        "is_last_deal": state.is_last_deal,
    }
    if hidden and not state.partial:
        out["stock"] = [str(c) for c in state._stock]
    return out


def apply_position(data: Mapping[str, Any], move_text: str) -> dict[str, Any]:
    """The command-line ``apply`` contract (spec §5.4): the position after ``move_text`` plus what the move did.

    Returns:
        ``{"position": {...}, "captured": [cards incl. the played card], "mulle": [cards], "mulle_points": n,
        "tabbe": 0|1, "last_capturer": "P1"|None, "round_over": bool, "leftover_to": "P1"|None}``.
    Raises:
        InvalidPositionError, InvalidRulesError, InvalidMoveError, IllegalMoveError (with the reason),
        AmbiguousMoveError.  Nothing is returned on error.
    """
    state = load_position(data)
    move = engine.parse_move(state, move_text)
    new, events = engine.step(state, move)
    captured: list[str] = []
    mulle: list[str] = []
    mp = 0
    tabbe = 0
    leftover_to = None
    round_over = False
    for e in events:
        if e.kind == "capture":
            captured = list(e.data["cards"])
        elif e.kind == "mulle":
            mulle.append(e.data["card"])
            mp += int(e.data["points"])
        elif e.kind == "tabbe":
            tabbe += 1
        elif e.kind == "last_capture":
            leftover_to = seat_name(state, e.data["seat"])
        elif e.kind == "round_over":
            round_over = True
    if not isinstance(move, Capture):
        captured = []
    try:
        position = dump_position(new, hidden=True)
    except KortbordError:  # pragma: no cover - dump never fails on an engine state
        raise
    return {
        "position": position,
        "captured": captured,
        "mulle": mulle,
        "mulle_points": mp,
        "tabbe": tabbe,
        "last_capturer": None if new.last_capturer is None else seat_name(state, new.last_capturer),
        "round_over": round_over,
        "leftover_to": leftover_to,
    }
