"""Building Mulle states: :func:`position` (keyword arguments, engine seats) and position JSON (rules spec §5.3):
load (:func:`load_position`, which checks the JSON and calls :func:`position`), dump, and the ``apply`` result of
the command-line contract (§5.4).

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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from kortbord.cards import Card
from kortbord.errors import InvalidCardError, InvalidPositionError, InvalidRulesError, KortbordError
from kortbord.mulle.explain import parse_move
from kortbord.mulle.moves import Capture
from kortbord.mulle.rules import PROFILES, STANDARD, Rules
from kortbord.mulle.scoring import mulle_points
from kortbord.mulle.state import TV, Build, PileInfo, State
from kortbord.mulle.transitions import DECK_SIZE, _is_last_play, deal_plan, step

__all__ = ["apply_position", "dump_position", "load_position", "position", "seat_name", "side_name"]

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
    """A state from position JSON (spec §5.3): the JSON is checked and converted here (seat names ``Pk`` to
    seats ``k-1``, card notation to cards), the state is built by :func:`position`.

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
    for b in raw_builds:
        if not isinstance(b, Mapping):
            raise InvalidPositionError("each build must be an object {id, cards, value, owner, locked}")
        bid = b.get("id")
        if not isinstance(bid, str) or not re.fullmatch(r"B[0-9]{1,4}", bid):
            raise InvalidPositionError(f"a build id is 'B' and 1 to 4 digits 0-9 (B1, B12), got {_short(bid)}")
        cards = _cards(b.get("cards"), f"build {bid} cards")
        value = b.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidPositionError(f"build {bid} value must be 2..16, got {_short(value)}")
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
    hands_raw = data.get("hands")
    if not isinstance(hands_raw, Mapping):
        raise InvalidPositionError('hands must be an object such as {"P1": ["9H"]}')
    hands: list[tuple[Card, ...] | None] = [None] * players
    for name, cards_raw in hands_raw.items():
        hands[seat(name, "hands key")] = _cards(cards_raw, f"hand of {name}")
    stock: tuple[Card, ...] | None = None
    if "stock" in data:
        raw = data["stock"]
        if not isinstance(raw, list):
            raise InvalidPositionError("stock must be a list of cards in dealing order")
        try:
            stock = tuple(Card.parse(c) for c in raw)
        except InvalidCardError as exc:
            raise InvalidPositionError(f"stock: {exc}") from None
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
    last_play = data.get("last_play", False)
    if not isinstance(last_play, bool):
        raise InvalidPositionError("last_play must be true or false")
    lc = data.get("last_capturer")
    last_capturer = None if lc is None else seat(lc, "last_capturer")
    return position(
        rules,
        players=players,
        teams=teams,
        to_move=to_move,
        hands=hands,
        table=table,
        builds=builds,
        piles=piles,
        scores=scores,
        stock=stock,
        last_capturer=last_capturer,
        deal_no=data.get("deal_no"),
        deals_total=data.get("deals_total"),
        is_last_deal=data.get("is_last_deal"),
        last_play=last_play,
    )


def _card_tuple(items: Iterable[Card | str | int], what: str) -> tuple[Card, ...]:
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    try:
        return tuple(c if isinstance(c, Card) else Card.parse(c) if isinstance(c, str) else Card(c) for c in items)
    except (InvalidCardError, TypeError, ValueError) as exc:
        raise InvalidPositionError(f"{what}: {exc}") from None


def position(
    rules: Rules | None = None,
    *,
    players: int = 2,
    teams: bool = False,
    dealer: int | None = None,
    to_move: int,
    hands: Sequence[Iterable[Card | str] | None],
    table: Iterable[Card | str] = (),
    builds: Iterable[Build] = (),
    piles: Sequence[PileInfo] | None = None,
    scores: Sequence[int] | None = None,
    stock: Iterable[Card | str] | None = None,
    last_capturer: int | None = None,
    round_no: int = 1,
    deal_no: int | None = None,
    deals_total: int | None = None,
    is_last_deal: bool | None = None,
    last_play: bool = False,
) -> State:
    """Build a Mulle state in play directly (worked cases, tests, puzzles, the bots' sampled worlds): the
    builder :func:`load_position` uses, and the one clients call instead of writing position JSON.

    Seats are 0-based engine seats.  By default the dealer is the last seat, so seat ``k`` is the spec's ``P(k+1)``
    (spec §5.3: ``P1`` is the dealer's left).

    Args:
        rules: the options (default the ``standard`` profile).  players: 2..4.  teams: 4 players, seats 0+2 v 1+3.
        dealer: the dealer's seat (default ``players - 1``).
        to_move: the seat to play; its hand must be given and not empty.
        hands: per seat its cards (``Card`` or notation), or ``None`` for a hand not given.
        table: the loose table cards.  builds: the builds (:class:`kortbord.mulle.state.Build`, owners as seats).
        piles: per side (team with teams, else seat) its capture pile this round; default empty.
        scores: per side its game total before this round; default 0.
        stock: the undealt cards in dealing order, or ``None`` when not given.  Without the stock or a hand the
            position is *partial* (spec §5.3): the turn then simply passes on, and the round ends after the move
            only when ``last_play`` is true.
        last_capturer: the seat of the round's last capture so far, or None.
        round_no: the round (1-based).  deal_no, deals_total: the current deal and the deals of the round
            (default: the last deal with ``last_play``, else the first; the round's deal count, spec §2.3).
        is_last_deal: the båt flag (default: ``last_play``, or a full position with an empty stock).
        last_play: partial positions: the mover holds the round's only remaining card.
    Returns:
        A State in phase ``"play"``.
    Raises:
        InvalidPositionError: a card more than twice, a full position without all 104 cards, a bad seat, an
            impossible build (fewer than two cards, a value outside 2..16 or above its cards' table values, a
            repeated id), a pile that breaks §2.8-§2.9, wrong numbers of piles or scores, the mover's hand missing,
            bad deal numbers.
        InvalidRulesError: bad player count or teams.
    """
    rules = STANDARD if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"rules must be a mulle.Rules value, got {type(rules).__name__}")
    if type(players) is not int or players not in (2, 3, 4):
        raise InvalidRulesError(f"Mulle is played by 2, 3 or 4 players (a whole number), not {players!r}")
    if type(teams) is not bool or (teams and players != 4):
        raise InvalidRulesError("teams must be true or false, and teams need 4 players")

    def check_seat(value: Any, what: str) -> int:
        if type(value) is not int or not 0 <= value < players:
            raise InvalidPositionError(f"{what} must be a seat 0..{players - 1}, got {_short(value)}")
        return value

    dealer = players - 1 if dealer is None else check_seat(dealer, "dealer")
    to_move = check_seat(to_move, "to_move")
    if last_capturer is not None:
        check_seat(last_capturer, "last_capturer")
    if len(hands) != players:
        raise InvalidPositionError(f"{players} players need {players} hands (None for a hand not given)")
    hand_t: list[tuple[Card, ...]] = []
    given = 0
    for s, h in enumerate(hands):
        if h is None:
            hand_t.append(())
        else:
            hand_t.append(tuple(sorted(_card_tuple(h, f"hand of {seat_name_of(s)}"))))
            given += 1
    if hands[to_move] is None or not hand_t[to_move]:
        raise InvalidPositionError(f"the position must give the hand of the player to move ({seat_name_of(to_move)})")
    table_t = tuple(sorted(_card_tuple(table, "table")))
    build_t: list[Build] = []
    ids: set[str] = set()
    for b in builds:
        if not isinstance(b, Build):
            raise InvalidPositionError(f"builds must be mulle.state.Build values, got {type(b).__name__}")
        bid = b.id
        if bid in ids:
            raise InvalidPositionError(f"two builds have the id {bid}")
        ids.add(bid)
        if not re.fullmatch(r"B[0-9]{1,4}", bid):
            raise InvalidPositionError(f"a build id is 'B' and 1 to 4 digits 0-9 (B1, B12), got {_short(bid)}")
        cards = tuple(sorted(_card_tuple(b.cards, f"build {bid} cards")))
        if len(cards) < 2:
            raise InvalidPositionError(f"build {bid} needs at least two cards")
        value = b.value
        if type(value) is not int or not 2 <= value <= 16:
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
        owner = check_seat(b.owner, f"build {bid} owner")
        co = tuple(sorted(check_seat(s, f"build {bid} co_owners") for s in b.co_owners))
        build_t.append(Build(bid, cards, value, owner, bool(b.locked), co))
    build_t.sort(key=lambda b: int(b.id[1:]))
    sides = 2 if teams else players
    pile_t = tuple(PileInfo() for _ in range(sides)) if piles is None else tuple(piles)
    if len(pile_t) != sides or not all(isinstance(p, PileInfo) for p in pile_t):
        raise InvalidPositionError(f"piles must be {sides} mulle.state.PileInfo values, one per side")
    for i, p in enumerate(pile_t):
        _check_pile(p, f"pile of side {i}")
    score_t = (0,) * sides if scores is None else tuple(scores)
    if len(score_t) != sides or not all(type(sc) is int for sc in score_t):
        raise InvalidPositionError(f"scores must be {sides} whole numbers, one per side")
    stock_t = () if stock is None else _card_tuple(stock, "stock")
    partial = stock is None or given != players
    everything = Counter(table_t) + Counter(stock_t)
    for h in hand_t:
        everything.update(h)
    for b in build_t:
        everything.update(b.cards)
    for p in pile_t:
        everything.update(p.cards)
    too_many = sorted(c for c, k in everything.items() if k > 2)
    if too_many:
        raise InvalidPositionError(
            "two packs hold every card exactly twice, but the position has more of " + ", ".join(map(str, too_many))
        )
    if not partial and sum(everything.values()) != DECK_SIZE:
        raise InvalidPositionError(
            f"a position with every hand and the stock must account for all 104 cards, found {sum(everything.values())}"
        )
    if type(last_play) is not bool:
        raise InvalidPositionError("last_play must be true or false")
    if partial and last_play and (len(hand_t[to_move]) != 1 or any(hand_t[s] for s in range(players) if s != to_move)):
        raise InvalidPositionError("last_play means the mover holds the round's only remaining card")
    plan = deal_plan(rules, players)
    deal_no = (len(plan) if last_play else 1) if deal_no is None else deal_no
    deals_total = len(plan) if deals_total is None else deals_total
    is_last = (last_play or (not partial and not stock_t)) if is_last_deal is None else is_last_deal
    for key, val in (("deal_no", deal_no), ("deals_total", deals_total)):
        if not isinstance(val, int) or isinstance(val, bool) or not 1 <= val <= DECK_SIZE:
            raise InvalidPositionError(f"{key} must be a whole number 1..{DECK_SIZE}, got {_short(val)}")
    if deal_no > deals_total:
        raise InvalidPositionError(f"deal_no {deal_no} is past the round's last deal (deals_total {deals_total})")
    if not isinstance(is_last, bool):
        raise InvalidPositionError("is_last_deal must be true or false")
    if type(round_no) is not int or round_no < 1:
        raise InvalidPositionError(f"round_no must be a whole number from 1, got {_short(round_no)}")
    next_build = max((int(b.id[1:]) for b in build_t), default=0) + 1
    return State(
        rules=rules,
        players=players,
        teams=teams,
        phase="play",
        dealer=dealer,
        round_no=round_no,
        to_move=to_move,
        table=table_t,
        builds=tuple(build_t),
        piles=pile_t,
        scores=score_t,
        last_capturer=last_capturer,
        deal_no=deal_no,
        deals_total=deals_total,
        is_last_deal=is_last,
        next_build=next_build,
        _hands=tuple(hand_t),
        _stock=stock_t,
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
    """A capture pile from JSON ``{"cards", "mulle", "tabbe"}``, checked by :func:`_check_pile`.

    Raises:
        InvalidPositionError: an unknown key, a malformed field, or a pile two packs do not allow.
    """
    unknown = set(p) - _PILE_KEYS
    if unknown:
        raise InvalidPositionError(
            f"{what}: unknown field(s) {', '.join(sorted(map(str, unknown)))[:80]}; a pile has cards, mulle, tabbe"
        )
    cards = _cards(p.get("cards", []), f"{what} cards")
    mulles: list[tuple[Card, int]] = []
    raw = p.get("mulle", [])
    if not isinstance(raw, list):
        raise InvalidPositionError(f"{what}: mulle must be a list of cards")
    try:
        for m in raw:
            if isinstance(m, Mapping):
                c = Card.parse(str(m.get("card")))
                mulles.append((c, m.get("points", mulle_points(c, rules))))
            else:
                c = Card.parse(m)
                mulles.append((c, mulle_points(c, rules)))
    except InvalidCardError as exc:
        raise InvalidPositionError(f"{what}: {exc}") from None
    pile = PileInfo(cards, tuple(mulles), p.get("tabbe", 0))
    _check_pile(pile, what)
    return pile


def _check_pile(pile: PileInfo, what: str) -> None:
    """A capture pile checked against what two packs allow (spec §2.1, §2.8-§2.11): at most two copies of a card;
    a mulle is a captured identical pair, so both copies are in the pile and a card makes at most one mulle, worth
    0..16 points; each tabbe is a capture of at least two cards, so there are at most half as many tabbar as pile
    cards.

    Raises:
        InvalidPositionError: any of the above broken, with the reason.
    """
    cards = pile.cards
    counts = Counter(cards)
    extra = sorted(c for c, k in counts.items() if k > 2)
    if extra:
        raise InvalidPositionError(
            f"{what}: two packs hold every card twice, but the pile has more of {', '.join(map(str, extra))}"
        )
    for _, pts in pile.mulles:
        if not isinstance(pts, int) or isinstance(pts, bool) or not 0 <= pts <= 16:
            raise InvalidPositionError(f"{what}: mulle points must be a whole number 0..16 (spec §2.11)")
    for c, _ in pile.mulles:
        if counts[c] != 2:
            raise InvalidPositionError(f"{what}: a mulle of {c} needs both copies of {c} in the pile's cards")
    doubled = sorted({str(c) for c, _ in pile.mulles if sum(1 for m, _ in pile.mulles if m == c) > 1})
    if doubled:
        raise InvalidPositionError(
            f"{what}: a card makes at most one mulle (two copies), but {doubled[0]} is listed twice"
        )
    tabbe = pile.tabbar
    if not isinstance(tabbe, int) or isinstance(tabbe, bool) or not 0 <= tabbe <= len(cards) // 2:
        raise InvalidPositionError(
            f"{what}: tabbe must be a count from 0 to {len(cards) // 2} (each tabbe captures at least two of the"
            f" pile's {len(cards)} cards), got {_short(tabbe)}"
        )


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
        "last_play": _is_last_play(state) if state.phase == "play" else False,
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
    move = parse_move(state, move_text)
    new, events = step(state, move)
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
