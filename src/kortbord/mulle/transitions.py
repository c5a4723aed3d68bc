"""Mulle transitions: a new game, the chance step, applying a move, dealing, the end of a round and of the game
(engine API, ``docs/engine-api.md``; rules spec §2).

Where each rule lives here:

* dealing, short last deal, båt (§2.3), turn order (§2.4): :func:`_deal`, :func:`_start_round`, :func:`_advance`
* what a move does to the table: captures with mulle detection (§2.8) and tabbe (§2.9), builds, raises, merges
  (A14), packaging and ligger: :func:`_apply_play`
* last-capture sweep and round scoring (§2.10, §2.11): :func:`_end_round`; game end and ties (§2.12):
  :func:`_winners`

Whether a move is legal is :mod:`kortbord.mulle.movegen`'s answer; why not, :mod:`kortbord.mulle.explain`'s.
``apply`` builds no events; ``step`` does.  State copies skip ``__init__`` (:meth:`State._evolve`).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from typing import Any, Final

from kortbord.cards import Card, full_deck
from kortbord.contract import Event
from kortbord.errors import IllegalMoveError, InvalidMoveError, InvalidRulesError, NotYourTurnError
from kortbord.mulle.explain import explain_illegal
from kortbord.mulle.movegen import (
    BUILD,
    CAPTURE,
    DOWN,
    PACKAGE,
    RAISE,
    TRAIL,
    MoveCode,
    _decode,
    _legal_list,
    _legal_set,
    _without,
    decode,
    encode,
    legal_codes,
)
from kortbord.mulle.moves import (
    Build,
    BuildDown,
    Capture,
    LayOn,
    Move,
    Package,
    PlayerMove,
    Raise,
    Shuffle,
    Trail,
)
from kortbord.mulle.rules import STANDARD, Rules
from kortbord.mulle.scoring import mulle_points, score_pile
from kortbord.mulle.state import TV, PileInfo, Reason, State
from kortbord.mulle.state import Build as TableBuild

__all__ = [
    "DECK_SIZE",
    "PACKS",
    "Result",
    "apply",
    "apply_code",
    "chance_outcome",
    "deal_plan",
    "is_chance",
    "is_over",
    "new_game",
    "result",
    "step",
    "to_act",
]

#: Two packs (spec §2.1).
PACKS: Final = 2
#: Cards in play: every card of two packs (spec §2.1).
DECK_SIZE: Final = 104
_FULL_COUNTS: Final = Counter(full_deck(PACKS))
_FULL_DECK: Final[tuple[Card, ...]] = tuple(full_deck(PACKS))


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game (spec §2.12).

    Attributes:
        over: True once the game has ended.
        winners: winning sides (team 0/1 or seat); empty when the game is a draw.
        scores: game totals per side (points).
        rounds: per round, each side's breakdown (see :func:`kortbord.mulle.scoring.score_pile`).
        lowest_wins: True in Kryp-mulle.
    """

    over: bool
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    rounds: tuple[tuple[dict[str, Any], ...], ...]
    lowest_wins: bool


# ----------------------------------------------------------------------------------------------- new game / chance
def new_game(rules: Rules | None = None, *, players: int = 2, teams: bool = False, dealer: int | None = None) -> State:
    """A game before its first shuffle (a chance node).

    Args:
        rules: the options (default the ``standard`` profile).
        players: 2, 3 or 4 (spec §2.2).
        teams: with 4 players, P1+P3 against P2+P4 (seats 0+2 against 1+3).
        dealer: the first dealer's seat (0-based), or None to let the first chance step draw it at random.
    Raises:
        InvalidRulesError: bad player count, teams without 4 players, a deal format that does not fit 104 cards.
    """
    rules = STANDARD if rules is None else rules
    if not isinstance(rules, Rules):
        raise InvalidRulesError(f"rules must be a mulle.Rules value, got {type(rules).__name__}")
    if type(players) is not int or players not in (2, 3, 4):
        raise InvalidRulesError(f"Mulle is played by 2, 3 or 4 players (a whole number), not {players!r}")
    if type(teams) is not bool:
        raise InvalidRulesError(f"teams must be true or false, got {teams!r}")
    if teams and players != 4:
        raise InvalidRulesError("teams need 4 players (P1+P3 against P2+P4)")
    if rules.table_size + players * rules.hand_size > DECK_SIZE:
        raise InvalidRulesError(
            f"{rules.hand_size}+{rules.table_size} with {players} players needs more than {DECK_SIZE} cards"
        )
    if dealer is not None and not (type(dealer) is int and 0 <= dealer < players):
        raise InvalidRulesError(f"dealer must be a seat 0..{players - 1}, got {dealer!r}")
    sides = 2 if teams else players
    return State(
        rules=rules,
        players=players,
        teams=teams,
        phase="deal",
        dealer=dealer,
        round_no=0,
        to_move=None,
        table=(),
        builds=(),
        piles=tuple(PileInfo() for _ in range(sides)),
        scores=(0,) * sides,
        last_capturer=None,
        deal_no=0,
        deals_total=0,
        is_last_deal=False,
        next_build=1,
        _hands=((),) * players,
        _stock=(),
    )


def to_act(state: State) -> int | None:
    """The seat (0-based) whose decision it is; None at a chance node or when the game is over."""
    return state.to_move if state.phase == "play" else None


def is_chance(state: State) -> bool:
    """True when the next step is the chance move (a Shuffle that starts a round)."""
    return state.phase == "deal"


def is_over(state: State) -> bool:
    """True when the game has ended (spec §2.12)."""
    return state.phase == "over"


def chance_outcome(state: State, rng: random.Random) -> Shuffle:
    """Sample the chance move from ``rng``: the first dealer (``rng.randrange(players)``, only when not fixed)
    then ``rng.shuffle(full_deck(2))``.  The same seed gives the same game in every client.

    Raises:
        IllegalMoveError: the state is not a chance node.
    """
    if state.phase != "deal":
        raise IllegalMoveError(Reason("no_shuffle_due"))
    dealer = rng.randrange(state.players) if state.dealer is None else None
    deck = list(_FULL_DECK)  # == full_deck(PACKS)
    rng.shuffle(deck)
    return Shuffle(tuple(deck), dealer)


def deal_plan(rules: Rules, players: int) -> list[tuple[int, ...]]:
    """Cards per seat (from the dealer's left) in every deal of a round (spec §2.3, DEAL-01).

    Returns:
        One tuple per deal; the last may be short (the rest dealt one at a time from the dealer's left).
    """
    stock = DECK_SIZE - rules.table_size - players * rules.hand_size
    plan = [(rules.hand_size,) * players]
    per = players * rules.hand_size
    while stock > 0:
        if stock >= per:
            plan.append((rules.hand_size,) * players)
            stock -= per
        else:
            q, r = divmod(stock, players)
            plan.append(tuple(q + (1 if i < r else 0) for i in range(players)))
            stock = 0
    return plan


def _deal(
    rules: Rules, players: int, dealer: int, stock: tuple[Card, ...], first: bool
) -> tuple[list[list[Card]], list[Card], tuple[Card, ...]]:
    """Deal one deal from the front of ``stock`` (spec §2.3): packets of ``deal_packet`` to each seat from the
    dealer's left, then (first deal only) to the table, repeated; a short last deal goes one card at a time.

    Returns:
        (hands indexed by seat, table cards, remaining stock).
    """
    hand_need = rules.hand_size
    pos = 0
    hands: list[list[Card]] = [[] for _ in range(players)]
    table: list[Card] = []
    order = [(dealer + 1 + i) % players for i in range(players)]
    full = len(stock) >= players * hand_need + (rules.table_size if first else 0)
    if full:
        need = {seat: hand_need for seat in order}
        table_need = rules.table_size if first else 0
        packet = rules.deal_packet
        while any(need.values()) or table_need:
            for seat in order:
                k = min(packet, need[seat])
                hands[seat].extend(stock[pos : pos + k])
                pos += k
                need[seat] -= k
            k = min(packet, table_need)
            table.extend(stock[pos : pos + k])
            pos += k
            table_need -= k
    else:  # short last deal: one at a time from the dealer's left until the stock is empty
        i = 0
        while pos < len(stock):
            hands[order[i % players]].append(stock[pos])
            pos += 1
            i += 1
    return hands, table, stock[pos:]


_CARD_TYPE: Final = {Card}
_set_attr: Final = object.__setattr__
_new_object: Final = object.__new__


def _shuffle_deck(deck: Any) -> tuple[Card, ...]:
    """A shuffle's deck as Card values (cards, their notation or their ints).

    Raises:
        InvalidMoveError: the deck is not a sequence of cards.
    """
    if isinstance(deck, str) or not isinstance(deck, tuple | list):
        raise InvalidMoveError(f"a shuffle's deck is a sequence of {DECK_SIZE} cards, got {type(deck).__name__}")
    out = []
    for c in deck:
        if isinstance(c, Card):
            out.append(c)
        elif isinstance(c, str):
            out.append(Card.parse(c))
        elif type(c) is int:
            out.append(Card(c))
        else:
            raise InvalidMoveError(f"a shuffle's deck holds cards, not {type(c).__name__} {c!r}"[:120])
    return tuple(out)


def _start_round(state: State, move: Shuffle) -> tuple[State, list[Event]]:
    deck = move.deck
    # fast check for a deck of Card values (every chance_outcome deck); anything else is converted first
    if not (type(deck) is tuple and set(map(type, deck)) == _CARD_TYPE and sorted(deck) == list(_FULL_DECK)):
        deck = _shuffle_deck(move.deck)
        if len(deck) != DECK_SIZE or Counter(deck) != _FULL_COUNTS:
            raise IllegalMoveError(Reason("bad_shuffle"))
    events: list[Event] = []
    dealer = state.dealer
    if dealer is None:
        if move.dealer is None or not (type(move.dealer) is int and 0 <= move.dealer < state.players):
            raise IllegalMoveError(Reason("shuffle_needs_dealer", {"last_seat": state.players - 1}))
        dealer = move.dealer
        events.append(Event("dealer", {"seat": dealer}))
    elif move.dealer is not None and (type(move.dealer) is not int or move.dealer != dealer):
        raise IllegalMoveError(Reason("dealer_fixed", {"dealer": dealer}))
    rules = state.rules
    hands, table, stock = _deal(rules, state.players, dealer, deck, True)
    plan = deal_plan(rules, state.players)
    last = not stock
    events.append(
        Event(
            "deal",
            {
                "deal_no": 1,
                "deals_total": len(plan),
                "cards": [len(h) for h in hands],
                "table": [str(c) for c in sorted(table)],
                "last": last,
            },
        )
    )
    if last:
        events.append(Event("baat", {"dealer": dealer}))
    new = state._evolve(
        {
            "phase": "play",
            "dealer": dealer,
            "round_no": state.round_no + 1,
            "to_move": (dealer + 1) % state.players,
            "table": tuple(sorted(table)),
            "builds": (),
            "piles": tuple(PileInfo() for _ in range(state.sides)),
            "last_capturer": None,
            "deal_no": 1,
            "deals_total": len(plan),
            "is_last_deal": last,
            "next_build": 1,
            "_hands": tuple(tuple(sorted(h)) for h in hands),
            "_stock": stock,
        }
    )
    return new, events


# ----------------------------------------------------------------------------------------------- applying moves
def apply(state: State, move: Move) -> State:
    """The next state after ``move`` (a player move of the seat to act, or the Shuffle at a chance node).

    Raises:
        IllegalMoveError: the move is not legal here; the message says which rule forbids it.
        NotYourTurnError: a player move at a chance node or after the game.
        InvalidMoveError: not a Mulle move.
    The given state is never changed.
    """
    return _step(state, move, False)[0]


def step(state: State, move: Move) -> tuple[State, tuple[Event, ...]]:
    """As :func:`apply`, plus the public events the move caused, in order (see :class:`Event`)."""
    return _step(state, move, True)


_PLAYER_MOVES: Final = (Capture, Trail, Build, Raise, BuildDown, Package, LayOn)


def _step(state: State, move: Move, want_events: bool) -> tuple[State, tuple[Event, ...]]:
    if isinstance(move, Shuffle):
        if state.phase != "deal":
            raise IllegalMoveError(Reason("no_shuffle_due"))
        new, events = _start_round(state, move)
        return new, tuple(events)
    if not isinstance(move, _PLAYER_MOVES):
        raise InvalidMoveError(f"not a Mulle move: {move!r}")
    if state.phase == "deal":
        raise NotYourTurnError(Reason("shuffle_due"))
    if state.phase == "over":
        raise NotYourTurnError(Reason("game_over"))
    # a move taken from legal_moves is found by identity (its code has the same index), any other by value
    legal = _legal_list(state)
    for i, m in enumerate(legal):
        if m is move:
            return _apply_code(state, legal_codes(state)[i], want_events)
    if move not in _legal_set(state):
        raise IllegalMoveError(explain_illegal(state, move))
    return _apply_code(state, encode(move), want_events)


def _apply_play(state: State, move: PlayerMove, want_events: bool = True) -> tuple[State, tuple[Event, ...]]:
    """The state after the legal player move ``move`` (and its events when ``want_events``)."""
    return _apply_code(state, encode(move), want_events)


def apply_code(state: State, code: MoveCode) -> State:
    """The next state after the player move with code ``code`` (:func:`kortbord.mulle.movegen.legal_codes`), as
    ``apply(state, decode(state, code))`` gives it, without building the move value or any event: the fast path
    of the random-play loop and the bots' playouts.

    Raises:
        InvalidMoveError: ``code`` is not a move code.  NotYourTurnError: nobody is to play (a chance node or
            the game's end).  IllegalMoveError: the move is not legal here (the reason says which rule forbids it).
    The given state is never changed.
    """
    if state.phase != "play":
        raise NotYourTurnError(Reason("game_over" if state.phase == "over" else "shuffle_due"))
    legal = legal_codes(state)
    for c in legal:
        if c is code:
            return _apply_code(state, code, False)[0]
    move = decode(state, code)
    if code not in legal:
        raise IllegalMoveError(explain_illegal(state, move))
    return _apply_code(state, code, False)[0]


def _insert(table: tuple[Card, ...], x: Card) -> tuple[Card, ...]:
    """``table`` (sorted) with ``x`` added in order."""
    i = bisect_left(table, x)
    return (*table[:i], x, *table[i:])


def _apply_code(state: State, code: MoveCode, want_events: bool) -> tuple[State, tuple[Event, ...]]:
    """What a legal move (by its code) does to the table (spec §2.6-§2.9), then the turn, the deal and the round
    (:func:`_advance`).  Copies only what the move changes."""
    rules = state.rules
    seat = state.to_move
    assert seat is not None
    kind = code[0]
    x = code[1]
    old_hands = state._hands
    hand = old_hands[seat]
    i = hand.index(x)
    hands = (*old_hands[:seat], hand[:i] + hand[i + 1 :], *old_hands[seat + 1 :])
    # the new state's fields: a copy of the old ones (State._evolve), changed where the move changes them
    d = state.__dict__.copy()
    d["_cache"] = {}
    d["_hands"] = hands
    table = state.table
    builds = state.builds
    events: list[Event] = [Event("play", {"seat": seat, "move": str(_decode(code))})] if want_events else []
    last_play = state.last_play_flag if state.partial else not state._stock and sum(map(len, old_hands)) == 1
    if kind == CAPTURE:
        side = seat % 2 if state.teams else seat
        taken = code[3]
        loose = code[2]
        got = [x, *loose]
        if taken:
            for b in builds:
                if b.id in taken:
                    got.extend(b.cards)
            builds = tuple(b for b in builds if b.id not in taken)
        table = _without(table, loose)
        # mulle (spec §2.8): every identical pair among the played card and the cards it took, in this play
        mulles: list[tuple[Card, int]] = []
        if len(set(got)) < len(got):
            counts = Counter(got)
            for c in sorted(counts):
                pairs = counts[c] // 2
                if pairs and (rules.mulle_pair_scope == "any" or TV[c] == TV[x]):
                    pts = mulle_points(c, rules, from_hand=c == x)
                    mulles.extend([(c, pts)] * pairs)
        tabbe = not table and not builds and not last_play and not (rules.no_tabbe_in_last_deal and state.is_last_deal)
        pile = state.piles[side]
        new_pile = _new_object(PileInfo)  # PileInfo(cards, mulles, tabbar) without re-validating
        _set_attr(new_pile, "cards", pile.cards + tuple(got))
        _set_attr(new_pile, "mulles", pile.mulles + tuple(mulles) if mulles else pile.mulles)
        _set_attr(new_pile, "tabbar", pile.tabbar + 1 if tabbe else pile.tabbar)
        d["piles"] = _set(state.piles, side, new_pile)
        d["last_capturer"] = seat
        d["table"] = table
        d["builds"] = builds
        if want_events:
            events.append(Event("capture", {"seat": seat, "side": side, "cards": [str(c) for c in got]}))
            for c, pts in mulles:
                events.append(Event("mulle", {"seat": seat, "side": side, "card": str(c), "points": pts}))
            if tabbe:
                events.append(Event("tabbe", {"seat": seat, "side": side}))
    elif kind == TRAIL:
        d["table"] = _insert(table, x)
    elif kind == BUILD:
        on = code[2]
        pk = [c for p in code[4] for c in p]
        d["table"] = _without(table, (*on, *pk))
        cards = tuple(sorted((x, *on, *pk)))
        next_build = state.next_build
        d["builds"] = (*builds, TableBuild(f"B{next_build}", cards, code[3], seat, bool(pk) and rules.locking))
        d["next_build"] = next_build + 1
    elif kind in (RAISE, DOWN):
        b = _build(builds, code, code[2])
        changed = TableBuild(b.id, _insert(b.cards, x), code[3], seat, False, _co(state, b, seat))
        d["builds"] = _merge(state, tuple(changed if o.id == b.id else o for o in builds), changed)
    elif kind == PACKAGE:
        b = _build(builds, code, code[3])
        loose = code[2]
        pk = [c for p in code[4] for c in p]
        d["table"] = _without(table, (*loose, *pk))
        changed = TableBuild(
            b.id, tuple(sorted((*b.cards, x, *loose, *pk))), b.value, seat, rules.locking, _co(state, b, seat)
        )
        d["builds"] = tuple(changed if o.id == b.id else o for o in builds)
    else:  # LAYON
        b = _build(builds, code, code[2])
        changed = TableBuild(b.id, _insert(b.cards, x), b.value, seat, True, _co(state, b, seat))
        d["builds"] = tuple(changed if o.id == b.id else o for o in builds)
    if want_events and state._cache.get("safety_valve"):
        events.insert(0, Event("safety_valve", {"seat": seat}))
    n = state.players
    nxt = None
    if state.partial and not last_play:
        nxt = (seat + 1) % n
    else:
        for i in range(1, n + 1):
            if hands[(seat + i) % n]:
                nxt = (seat + i) % n
                break
    d["last_play_flag"] = False
    d["to_move"] = nxt if nxt is not None else seat
    new = _new_object(State)
    _set_attr(new, "__dict__", d)
    if nxt is not None:
        return new, tuple(events)
    return _advance(new, seat, last_play, events, want_events)


def _set(t: tuple[PileInfo, ...], i: int, v: PileInfo) -> tuple[PileInfo, ...]:
    return (*t[:i], v, *t[i + 1 :])


def _build(builds: tuple[TableBuild, ...], code: MoveCode, bid: str) -> TableBuild:
    for b in builds:
        if b.id == bid:
            return b
    raise IllegalMoveError(Reason("no_such_build", {"move": str(_decode(code)), "build": bid}))  # pragma: no cover


def _co(state: State, b: TableBuild, seat: int) -> tuple[int, ...]:
    if state.rules.ownership != "co":
        return ()
    return tuple(sorted({*b.co_owners, b.owner} - {seat}))


def _merge(state: State, builds: tuple[TableBuild, ...], changed: TableBuild) -> tuple[TableBuild, ...]:
    """One build per value (A14): a build whose new value equals another's merges into that one (it keeps the
    older build's id) and the result is locked (with locking on)."""
    if not state.rules.one_build_per_value:
        return builds
    other = next((b for b in builds if b.value == changed.value and b.id != changed.id), None)
    if other is None:
        return builds
    merged = TableBuild(
        other.id,
        tuple(sorted((*other.cards, *changed.cards))),
        changed.value,
        changed.owner,
        state.rules.locking,
        tuple(sorted(set(changed.co_owners) | ({other.owner} - {changed.owner})))
        if state.rules.ownership == "co"
        else (),
    )
    return tuple(merged if b.id == other.id else b for b in builds if b.id != changed.id)


def _is_last_play(state: State) -> bool:
    """Whether the card about to be played is the last card of the round (spec §2.9)."""
    if state.partial:
        return state.last_play_flag
    return not state._stock and sum(len(h) for h in state._hands) == 1


def _advance(
    state: State, seat: int, was_last: bool, events: list[Event], want_events: bool = True
) -> tuple[State, tuple[Event, ...]]:
    n = state.players
    hands = state._hands
    if state.partial and not was_last:
        return state._evolve({"to_move": (seat + 1) % n}), tuple(events)
    for i in range(1, n + 1):
        s = (seat + i) % n
        if hands[s]:
            return state._evolve({"to_move": s}), tuple(events)
    if state._stock and not state.partial:
        assert state.dealer is not None
        dealt, _, stock = _deal(state.rules, n, state.dealer, state._stock, False)
        last = not stock
        deal_no = state.deal_no + 1
        if want_events:
            events.append(
                Event(
                    "deal",
                    {
                        "deal_no": deal_no,
                        "deals_total": state.deals_total,
                        "cards": [len(h) for h in dealt],
                        "table": [],
                        "last": last,
                    },
                )
            )
            if last:
                events.append(Event("baat", {"dealer": state.dealer}))
        new = state._evolve(
            {
                "_hands": tuple(tuple(sorted(h)) for h in dealt),
                "_stock": stock,
                "deal_no": deal_no,
                "is_last_deal": last,
                "to_move": (state.dealer + 1) % n,
            }
        )
        return new, tuple(events)
    return _end_round(state, events, want_events)


def _end_round(state: State, events: list[Event], want_events: bool = True) -> tuple[State, tuple[Event, ...]]:
    """Last-capture sweep (§2.10, never a tabbe), round scoring (§2.11), game end and ties (§2.12)."""
    rules = state.rules
    piles = state.piles
    leftover = list(state.table)
    for b in state.builds:
        leftover.extend(b.cards)
    if state.last_capturer is not None and leftover:
        side = state.side(state.last_capturer)
        p = piles[side]
        piles = _set(piles, side, PileInfo(p.cards + tuple(leftover), p.mulles, p.tabbar))
        if want_events:
            events.append(
                Event(
                    "last_capture",
                    {"seat": state.last_capturer, "side": side, "cards": [str(c) for c in sorted(leftover)]},
                )
            )
    breakdown = tuple(score_pile(p.cards, p.mulles, p.tabbar, rules) for p in piles)
    scores = tuple(s + int(b["total"]) for s, b in zip(state.scores, breakdown, strict=True))
    if want_events:
        events.append(
            Event(
                "round_over",
                {
                    "round": state.round_no,
                    "breakdown": [{**b, "mulle": [dict(m) for m in b["mulle"]]} for b in breakdown],
                    "scores": list(scores),
                },
            )
        )
    changes: dict[str, Any] = {
        "table": (),
        "builds": (),
        "piles": piles,
        "scores": scores,
        "round_log": (*state.round_log, breakdown),
        "to_move": None,
        "is_last_deal": False,
    }
    if state.partial:
        changes.update(phase="over", winners=None)
        return state._evolve(changes), tuple(events)
    winners = _winners(rules, scores, state.round_no, state.players)
    if winners is not None:
        if want_events:
            events.append(Event("game_over", {"winners": list(winners), "scores": list(scores)}))
        changes.update(phase="over", winners=winners)
        return state._evolve(changes), tuple(events)
    assert state.dealer is not None
    changes.update(phase="deal", dealer=(state.dealer + 1) % state.players)
    return state._evolve(changes), tuple(events)


def _winners(rules: Rules, scores: tuple[int, ...], rounds: int, players: int) -> tuple[int, ...] | None:
    """The winning sides if the game ends after this round, ``()`` for a draw, None to play on (spec §2.12)."""
    best = min(scores) if rules.kryp else max(scores)
    leaders = tuple(i for i, s in enumerate(scores) if s == best)
    target = rules.target
    if target is not None:
        if max(scores) < target:
            return None
        fixed = False
    else:
        needed = 1 if rules.game_length == "single_round" else players
        if rounds < needed:
            return None
        fixed = True
    if len(leaders) == 1:
        return leaders
    tie = rules.tie_rule
    if tie == "draw" or (tie == "standard" and fixed):
        return ()
    return None


# ----------------------------------------------------------------------------------------------- results, parsing
def result(state: State) -> Result:
    """Game end, winners (sides), final scores and the per-round breakdowns."""
    return Result(
        over=state.phase == "over",
        winners=state.winners or (),
        scores=state.scores,
        rounds=state.round_log,
        lowest_wins=state.rules.kryp,
    )
