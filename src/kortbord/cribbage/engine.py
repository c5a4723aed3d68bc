"""The Cribbage engine: pure transition functions over immutable :class:`~kortbord.cribbage.state.State` values.

API (``docs/engine-api.md``): :func:`new_game`, :func:`to_act`, :func:`is_chance`, :func:`chance_outcome`,
:func:`legal_moves`, :func:`apply`, :func:`step`, :func:`is_over`, :func:`result`, :func:`parse_move`, plus
:func:`position` to build a state at a given phase (tests, worked cases, puzzles) and :func:`view` (re-exported
from :mod:`kortbord.cribbage.view`).

The game (rules spec ``spec/rules/cribbage.md``):

* **cut for deal** (chance, §2.2): each seat cuts a card, the lowest rank deals; equal lowest ranks cut again;
* **deal** (chance, §2.2): a :class:`~kortbord.cribbage.moves.Shuffle` orders the pack; cards go one at a time
  from the dealer's left (6 each with 2 players, 5 with 3 or 4; with 3 players one more card to the crib);
* **discard** (§2.2): every seat, from the dealer's left, lays away 2 (2 players) or 1 card to the crib;
* **starter** (§2.3): the top card of the remaining stock; a jack gives the dealer 2 for his heels at once;
* **the play** (§2.4, the algorithm exactly): lead from the dealer's left; a player who can lay a card must;
  one who holds cards but none fits says go and is passed for the rest of the count; a player with no cards is
  skipped; when nobody can lay, the last to lay pegs 1 (go, or last card when nobody holds any); 31 pegs 2 with no
  extra go point; after a go or 31 the count restarts, led by the first player left of the last to lay who still
  holds cards; partners' cards form one sequence and points go to the side;
* **the show** (§2.6): each hand from the dealer's left, the dealer's hand, then the crib -- automatically, or
  under Muggins as announced counts with responses (§2.10 M1-M15, :mod:`kortbord.cribbage.muggins`);
* **game end** (§2.4 item 8, §2.6): checked after every award, in the order heels -> each card -> go/last card ->
  hands -> crib; the moment a side reaches the target it wins (in Lowball, §2.8, it loses).

Points are cribbage points (holes).  Seats are 0-based ints (``P0`` ...); side ``seat % 2`` in a partnership.

**Events** (:func:`step`; :class:`kortbord.contract.Event` ``(kind, data)``, data JSON-ready: cards in notation,
seats as ints, no words -- :mod:`kortbord.i18n.cribbage` words them):

* ``cut {cards: [per seat]}``, ``cut_again {seats}`` (equal lowest), ``dealer {seat}`` (spec §2.2);
* ``deal {dealer, deal_number, cards: [count per seat], crib: cards dealt from the pack to the crib}``;
* ``discard {seat, count}`` (never which cards); ``starter {card, dealer}`` (§2.3);
* ``play {seat, card, count}``; ``go {seat, count}``; ``reset {}`` (the count starts again, §2.4 step 5);
* ``peg {seat, side, points, reason, cards, score, side_score}``: one per award part; ``reason`` is ``fifteen``,
  ``thirty_one``, ``pair``, ``pair_royal``, ``double_pair_royal``, ``run`` (the card just laid, §2.4 step 3, in
  that order), ``go``, ``last_card`` (step 4), ``his_heels`` (§2.3), ``hand``, ``crib`` (§2.6), ``hand_announced``,
  ``crib_announced``, ``muggins``, ``false_muggins``, ``overcount`` (M2, M5-M7; negative for the counter's points
  taken back); ``cards`` make the points; ``score``/``side_score`` are the seat's and its side's after this peg.
  The ``peg`` points of a step add up to the change of the scores;
* ``show {seat, crib, cards, starter, points, groups: [{kind, cards, points}]}`` (groups in counting order:
  fifteens, pairs, runs, flush, nobs; §2.5); ``reveal`` the same, for a settled Muggins count (M9);
* ``announce {seat, crib, cards, starter, points}`` (M2); ``response {seat, call: accept|muggins|overcount,
  points: the N of a muggins call, else 0}`` (M3); ``settle {seat (the counter), caller (None if all accepted),
  crib, announced, true, outcome: accept|muggins|false_muggins|overcount|wrong_overcount, named,
  counter_points, caller_points, missed, excess}`` (M4-M8);
* ``game_over {seat (who reached the target), winners, losers, scores, side_scores, reached, lowball, ranking,
  skunked, double_skunked, game_points, target, partnership, skunk, double_skunk}`` (§2.6-2.8).

**Illegal moves** raise ``IllegalMoveError`` carrying a :class:`kortbord.contract.Reason`; :func:`explain_illegal`
lists the codes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Any, Final, cast

from kortbord import contract as _contract
from kortbord.cards import Card, format_cards, full_deck
from kortbord.cribbage import muggins as _mug
from kortbord.cribbage.moves import (
    ACCEPT,
    GO,
    OVERCOUNT,
    Accept,
    Announce,
    CutForDeal,
    Discard,
    Go,
    Move,
    MugginsCall,
    Overcount,
    Play,
    Shuffle,
)
from kortbord.cribbage.moves import parse_move as _parse_notation
from kortbord.cribbage.rules import Rules
from kortbord.cribbage.scoring import (
    PAIR_CODES,
    PlayScore,
    ShowScore,
    _score_last,
    _show_points,
    card_value,
    score_show,
    show_total,
)
from kortbord.cribbage.state import (
    CUT,
    DEAL,
    DISCARD,
    FIELDS,
    OVER,
    PHASE_NAMES,
    PLAY,
    SHOW,
    Event,
    Reason,
    Result,
    State,
)
from kortbord.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidPositionError,
    NotYourTurnError,
)

__all__ = [
    "apply",
    "chance_outcome",
    "explain_illegal",
    "is_chance",
    "is_over",
    "legal_moves",
    "new_game",
    "parse_move",
    "position",
    "result",
    "seat_name",
    "show_order",
    "side_scores",
    "step",
    "to_act",
]

_object_new = object.__new__
_object_setattr = object.__setattr__
#: Tables indexed by the number of players n (entries 0 and 1 repeat n = 2, never used): tuple lookups.
_PLAYER_COUNTS: Final = (2, 2, 2, 3, 4)
_EMPTY: Final = tuple(((),) * n for n in _PLAYER_COUNTS)
_CARDS: Final = tuple(Card(i) for i in range(52))
_FULL_DECK: Final[tuple[Card, ...]] = tuple(full_deck())
_VALUE: Final[tuple[int, ...]] = tuple(card_value(c) for c in _CARDS)
_PLAYS: Final[tuple[Play, ...]] = tuple(Play.of(c) for c in _CARDS)
_ONE: Final[tuple[tuple[Card], ...]] = tuple((c,) for c in _CARDS)  # shared one-card tuples
_DISCARD1: Final[tuple[Discard, ...]] = tuple(Discard((c,)) for c in _CARDS)
_DISCARD2: Final[dict[tuple[Card, Card], Discard]] = {(a, b): Discard((a, b)) for a, b in combinations(_CARDS, 2)}
#: _DISCARD2_ROW[a][b]: the shared ``Discard((a, b))`` for cards a < b (list lookups: the 2-player discard).
_DISCARD2_ROW: Final = cast(  # None below the diagonal: never looked up
    "tuple[tuple[Discard, ...], ...]", tuple(tuple(_DISCARD2.get((a, b)) for b in _CARDS) for a in _CARDS)
)
_ANNOUNCES: Final[list[Move]] = [Announce.of(n) for n in range(30)]
_RESPONSES: Final[list[Move]] = [ACCEPT, *(MugginsCall.of(n) for n in range(1, 30)), OVERCOUNT]
_JACK_RANK: Final = 11
_RANK1: Final[tuple[int, ...]] = tuple((c >> 2) + 1 for c in range(52))  # rank 1..13 by card index
#: The play-cache flags of a count: bit 0 the count is 15, bit 1 it is 31 (spec §2.4 step 3).
_COUNT_FLAGS: Final[tuple[int, ...]] = tuple((c == 15) | ((c == 31) << 1) for c in range(32))
#: _REPLACE[n][s](per_seat, x): the n-tuple ``per_seat`` with seat s's entry replaced by x (no temporary list).
_REPLACE_N: Final = {
    2: (lambda h, x: (x, h[1]), lambda h, x: (h[0], x)),
    3: (lambda h, x: (x, h[1], h[2]), lambda h, x: (h[0], x, h[2]), lambda h, x: (h[0], h[1], x)),
    4: (lambda h, x: (x, h[1], h[2], h[3]), lambda h, x: (h[0], x, h[2], h[3]), lambda h, x: (h[0], h[1], x, h[3]),
        lambda h, x: (h[0], h[1], h[2], x)),
}  # fmt: skip
_REPLACE: Final = tuple(_REPLACE_N[n] for n in _PLAYER_COUNTS)
_SEQ_MASK: Final = (1 << 28) - 1


def _plain_end(last3: int) -> bool:
    """Whether no pair and no run can end on the last card, from the ranks (1..13, 0 = no card) of the last three
    cards, 4 bits each, the last card lowest.  A pair needs the last two of one rank; a run of L >= 3 needs the last
    three to be distinct ranks within a span of L - 1 <= 6 (spec §2.4 step 3).  Then only 15 and 31 can score, so
    the play-score memo is keyed by the last rank alone: a far smaller memo."""
    r1, r2, r3 = last3 & 15, last3 >> 4 & 15, last3 >> 8 & 15
    if r2 == r1:
        return False
    return r3 == 0 or r3 in (r1, r2) or max(r1, r2, r3) - min(r1, r2, r3) > 6


_PLAIN_END: Final[tuple[bool, ...]] = tuple(
    _plain_end(i) for i in range(1 << 12)
)  # the last 7 ranks, 4 bits each (runs are at most 7 long, pairs 4; spec §2.4)
_PLAY_CACHE: dict[int, int] = {}  # (seq_key << 2 | count is 15 | count is 31 << 1) -> points (memo of score_play)
_PLAY_CACHE_LIMIT: Final = 1 << 19


#: (i, i + 1, bit length of i + 1) for i = 51 .. 1: the steps of ``random.Random.shuffle`` on 52 cards.
_SHUFFLE_STEPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(51, 0, -1))


def _shuffle(getrandbits: Any, deck: list[Card]) -> None:
    """Shuffle the 52 cards of ``deck`` in place exactly as ``random.Random.shuffle`` does, only faster.

    CPython's ``shuffle`` swaps ``deck[i]`` with ``deck[j]`` for i = 51 .. 1, j = ``_randbelow(i + 1)``, and
    ``_randbelow`` draws ``getrandbits(bit_length(i + 1))`` until the value is below ``i + 1``.  This does the
    same draws inline (no method call per card), so a seed gives the same pack as ``rng.shuffle``: the engine
    API's promise that shuffles are ``rng.shuffle(full_deck())``.  :data:`_FAST_SHUFFLE` checks the equivalence
    on this interpreter at import and falls back to ``rng.shuffle`` if it does not hold.
    """
    for i, n, k in _SHUFFLE_STEPS:
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        deck[i], deck[j] = deck[j], deck[i]


def _same_as_random_shuffle() -> bool:
    for seed in (0, 1, 2024):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(_FULL_DECK), list(_FULL_DECK)
        for _ in range(3):
            _shuffle(ours.getrandbits, a)
            theirs.shuffle(b)
        if a != b or ours.getrandbits(32) != theirs.getrandbits(32):
            return False
    return True


_FAST_SHUFFLE: Final = _same_as_random_shuffle()


def seat_name(seat: int) -> str:
    """The notation of a seat: ``P0``, ``P1``, ... (spec §4; ``P0`` is the dealer in the worked cases)."""
    return f"P{seat}"


def show_order(rules: Rules, dealer: int) -> tuple[int, ...]:
    """The seats whose hands are counted, in order: from the dealer's left round to the dealer (spec §2.6).

    The crib (the dealer's) is counted after them.
    """
    n = rules.players
    return tuple((dealer + k) % n for k in range(1, n + 1))


# ---------------------------------------------------------------------------------------------------------------
# Construction
# ---------------------------------------------------------------------------------------------------------------


def new_game(rules: Rules | None = None, *, players: int | None = None, dealer: int | None = None) -> State:
    """A game before its first chance step (engine API ``new_game``).

    Args:
        rules: the options (default ``Rules()``: 2 players, 121, automatic counting).
        players: overrides ``rules.players`` (2, 3 or 4) when given.
        dealer: the first dealer's seat; ``None`` starts with the cut for deal (a chance node, spec §2.2).
    Returns:
        A state at a chance node: ``cut`` (dealer ``None``) or ``deal`` (the first shuffle).
    Raises:
        InvalidRulesError: bad ``players``.  InvalidPositionError: a dealer seat that does not exist.
    """
    if rules is None:
        rules = Rules()
    if players is not None and players != rules.players:
        rules = Rules.from_dict({**rules.to_dict(), "players": players, "partnership": None})
    n = rules.players
    if dealer is not None and (type(dealer) is not int or not 0 <= dealer < n):
        raise InvalidPositionError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
    return _between_deals(rules, -1 if dealer is None else dealer, (0,) * n, 0, (), CUT if dealer is None else DEAL)


def _make(rules: Rules, phase: int, **fields: Any) -> State:
    """A state from named fields (the others take their between-deals values). Not on the hot path."""
    n = rules.players
    empty = ((),) * n
    values: dict[str, Any] = {
        "rules": rules, "phase": phase, "dealer": -1, "scores": (0,) * n, "_hands": empty, "_discards": empty,
        "_crib": (), "_stock": _FULL_DECK, "starter": None, "played": (), "sequence": (), "count": 0, "turn": -1,
        "last": -1, "passed": 0, "_kept": empty, "show_index": -1, "announced": -1, "cuts": (), "reached": -1,
        "deal_number": 0, "crib_shown": False, "seq_key": 0,
    }  # fmt: skip
    unknown = set(fields) - set(values)
    if unknown:  # pragma: no cover - internal misuse
        raise TypeError(f"unknown state fields {sorted(unknown)}")
    values.update(fields)
    return State(tuple(values[name] for name in FIELDS))


def _between_deals(
    rules: Rules, dealer: int, scores: tuple[int, ...], deal_no: int, cuts: tuple[Card, ...], phase: int
) -> State:
    """The pack gathered between deals (or before the first): a chance node, the cut for deal or the shuffle."""
    empty = _EMPTY[rules.players]
    return State(
        (rules, phase, dealer, scores, empty, empty, (), _FULL_DECK, None, (), (), 0, -1, -1, 0, empty, -1, -1, cuts,
         -1, deal_no, False, 0),
    )  # fmt: skip


def position(
    rules: Rules | None = None,
    *,
    phase: str,
    dealer: int = 0,
    hands: Sequence[Sequence[Card | str]],
    crib: Sequence[Card | str] = (),
    starter: Card | str | None = None,
    scores: Sequence[int] | None = None,
    show: int | str | None = None,
    deal_number: int = 1,
) -> State:
    """Build a state at the start of a phase of a deal (worked cases, tests, puzzles).

    Args:
        rules: the options (default ``Rules()``; ``rules.players`` must equal ``len(hands)``).
        phase: ``"discard"`` (hands as dealt, before anyone discards), ``"play"`` (hands of 4 kept cards, crib and
            starter set, the lead is the dealer's left; his heels is *not* pegged again) or ``"show"`` (Muggins
            only: the play is over, ``hands`` are the 4 kept cards of each seat).
        dealer: the dealer's seat.
        hands: per seat, its cards (``Card`` or notation); as dealt for ``"discard"``, as kept (4) otherwise.
        crib: the crib: 4 cards for ``"play"``/``"show"``; for ``"discard"`` with 3 players the 1 card dealt
            from the pack (may be left empty: the top stock card is used), otherwise empty.
        starter: the starter (required for ``"play"``/``"show"``); for ``"discard"`` it is put on top of the
            stock so that it is cut after the discards.
        scores: points per seat before this phase (default all 0).
        show: ``"show"`` phase only: the count under way, a seat (its hand) or ``"crib"`` (default: the first
            hand, from the dealer's left).
        deal_number: the deal's number (1 = first).
    Returns:
        The state; every card not placed is in the stock in canonical order (after the starter for "discard").
    Raises:
        InvalidPositionError: wrong card counts, a card twice, an unknown phase or seat, scores at the target.
        InvalidCardError: malformed card notation.
    """
    rules = rules or Rules()
    n = rules.players
    if len(hands) != n:
        raise InvalidPositionError(f"{n} players need {n} hands, got {len(hands)}")
    if type(dealer) is not int or not 0 <= dealer < n:
        raise InvalidPositionError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")

    def cards_of(items: Sequence[Card | str] | str) -> tuple[Card, ...]:
        if isinstance(items, str):
            items = items.replace(",", " ").split()
        return tuple(Card.parse(c) if isinstance(c, str) else Card(c) for c in items)

    hand_t = tuple(tuple(sorted(cards_of(h))) for h in hands)
    crib_t = cards_of(crib)
    start = None if starter is None else cards_of((starter,))[0]
    placed = [c for h in hand_t for c in h] + list(crib_t) + ([start] if start is not None else [])
    if len(set(placed)) != len(placed):
        twice = sorted({c for c in placed if placed.count(c) > 1})
        raise InvalidPositionError(f"a card is placed twice: {format_cards(twice)}")
    score_t = (0,) * n if scores is None else tuple(int(s) for s in scores)
    if len(score_t) != n or any(s < 0 for s in score_t):
        raise InvalidPositionError(f"scores must be {n} non-negative numbers, got {scores!r}")
    if any(_side_total(rules, score_t, s) >= rules.target for s in range(n)):
        raise InvalidPositionError(f"a side already has the target {rules.target}: the game would be over")
    rest = tuple(c for c in _FULL_DECK if c not in set(placed))
    if phase == "discard":
        want = rules.cards_dealt
        if any(len(h) != want for h in hand_t):
            raise InvalidPositionError(f"at the discard each hand holds {want} cards (spec §2.2)")
        if len(crib_t) > rules.crib_from_pack:
            raise InvalidPositionError(f"the crib holds {rules.crib_from_pack} card(s) before the discards")
        stock = rest
        if rules.crib_from_pack and not crib_t:
            crib_t, stock = stock[:1], stock[1:]
        if start is not None:
            stock = (start, *stock)
        return _make(
            rules,
            DISCARD,
            dealer=dealer,
            scores=score_t,
            _hands=hand_t,
            _crib=crib_t,
            _stock=stock,
            turn=(dealer + 1) % n,
            deal_number=deal_number,
        )
    if phase not in ("play", "show"):
        raise InvalidPositionError(f"phase must be 'discard', 'play' or 'show', got {phase!r}")
    if any(len(h) != 4 for h in hand_t) or len(crib_t) != 4:
        raise InvalidPositionError("after the discard every hand and the crib hold 4 cards (spec §2.2)")
    if start is None:
        raise InvalidPositionError(f"the {phase} phase needs the starter")
    if phase == "play":
        return _make(
            rules,
            PLAY,
            dealer=dealer,
            scores=score_t,
            _hands=hand_t,
            _crib=crib_t,
            _stock=rest,
            starter=start,
            turn=(dealer + 1) % n,
            _kept=hand_t,
            deal_number=deal_number,
        )
    if not rules.muggins:
        raise InvalidPositionError("a show phase exists only under Muggins (without it the show is automatic)")
    order = show_order(rules, dealer)
    if show is None:
        index = 0
    elif show == "crib":
        index = n
    elif type(show) is int and 0 <= show < n:
        index = order.index(show)
    else:
        raise InvalidPositionError(f"show must be a seat 0..{n - 1} or 'crib', got {show!r}")
    counter = dealer if index == n else order[index]
    return _make(
        rules,
        SHOW,
        dealer=dealer,
        scores=score_t,
        _crib=crib_t,
        _stock=rest,
        starter=start,
        played=tuple(c for seat in order for c in hand_t[seat]),
        turn=counter,
        _kept=hand_t,
        show_index=index,
        deal_number=deal_number,
        crib_shown=index == n,
    )


# ---------------------------------------------------------------------------------------------------------------
# Queries
# ---------------------------------------------------------------------------------------------------------------


def to_act(state: State) -> int | None:
    """The seat (0-based) whose decision it is; ``None`` at a chance node or when the game is over."""
    turn: int = state[12]
    return None if turn < 0 else turn


def is_chance(state: State) -> bool:
    """The next step is chance: the cut for deal or the shuffle of a deal."""
    phase: int = state[1]
    return phase <= DEAL


def is_over(state: State) -> bool:
    """The game has ended (a side reached the target)."""
    phase: int = state[1]
    return phase == OVER


def legal_moves(state: State) -> list[Move]:
    """Every legal move of :func:`to_act`, in canonical order; ``[]`` at chance nodes and at the end.

    * discard: every choice of 2 (2 players: 15 moves) or 1 card of the hand, in card order;
    * play: each held card whose value fits under 31 (spec §2.4), else ``[Go()]``;
    * Muggins show: the counter's ``Announce(0..29)``; a responder's ``Accept``, ``MugginsCall(1..29)``,
      ``Overcount`` (spec §2.10 M2, M3).
    """
    phase = state[1]
    if phase == PLAY:
        count = state[11]
        hand = state[4][state[12]]
        if count <= 21 and hand:  # every card fits (no card counts more than 10)
            return [_PLAYS[c] for c in hand]
        plays: list[Move] = [_PLAYS[c] for c in hand if _VALUE[c] <= 31 - count]
        return plays or [GO]
    if phase == DISCARD:
        hand = state[4][state[12]]
        if state[0].players == 2:
            if len(hand) == 6:  # the 15 pairs of a dealt hand (sorted), unrolled
                a, b, c, d, e, f = hand
                row = _DISCARD2_ROW
                ra, rb, rc, rd, re = row[a], row[b], row[c], row[d], row[e]
                return [ra[b], ra[c], ra[d], ra[e], ra[f], rb[c], rb[d], rb[e], rb[f], rc[d], rc[e], rc[f], rd[e],
                        rd[f], re[f]]  # fmt: skip
            return [_DISCARD2[pair] for pair in combinations(hand, 2)]
        return [_DISCARD1[c] for c in hand]
    if phase == SHOW:
        return list(_ANNOUNCES) if state[17] < 0 else list(_RESPONSES)
    return []


def chance_outcome(state: State, rng: random.Random) -> Move:
    """Sample the chance move at a chance node from ``rng`` (engine API).

    Cut for deal: ``rng.shuffle(full_deck())`` and each seat, seat 0 first, takes the next card.  Deal: the
    shuffled pack (``rng.shuffle`` on ``full_deck()``), so the same seed gives the same game in every client.

    Raises:
        IllegalMoveError: the state is not a chance node.
    """
    phase = state[1]
    if phase > DEAL:
        raise IllegalMoveError(Reason("not_chance", {"phase": PHASE_NAMES[phase]}))
    deck = list(_FULL_DECK)  # == full_deck(), copied fast
    if type(rng) is random.Random and _FAST_SHUFFLE:
        _shuffle(rng.getrandbits, deck)  # the very permutation rng.shuffle(deck) draws, faster
    else:
        rng.shuffle(deck)
    if phase == CUT:
        return CutForDeal(tuple(deck[: state[0].players]))
    shuffle = _object_new(Shuffle)  # a permutation by construction: skip the validation of Shuffle()
    _object_setattr(shuffle, "deck", tuple(deck))
    return shuffle


def parse_move(state: State, text: str | Move) -> Move:
    """Read move notation in the context of ``state`` and return the matching legal move (engine API).

    Bare cards are resolved by the phase: at the discard one card (3-4 players) or two cards (2 players) are a
    :class:`Discard`; in the play one card is a :class:`Play`.

    Raises:
        InvalidMoveError: malformed text.  IllegalMoveError: well formed, not legal here (with the rule).
        AmbiguousMoveError: never for Cribbage notation (kept for API symmetry).
    """
    move = text if not isinstance(text, str) else _parse_notation(text)
    phase = state[1]
    if phase == DISCARD and type(move) is Play:
        move = Discard((move.card,))
    elif phase == PLAY and type(move) is Discard and len(move.cards) == 1:
        move = _PLAYS[move.cards[0]]
    _check(state, move)
    matches = [m for m in legal_moves(state) if m == move] if not is_chance(state) else [move]
    if len(matches) > 1:  # pragma: no cover - legal moves are deduplicated
        raise AmbiguousMoveError(f"{text!r} matches {', '.join(map(str, matches))}")
    return matches[0]


def result(state: State) -> Result:
    """The game's end: winners, losers, scores, skunks (spec §2.6-2.8, §2a).

    Normal game: the side that reached the target wins; a losing side at or below the skunk line is skunked
    (``rules.skunk_threshold``; double: ``rules.double_skunk_threshold``).  Lowball: the side that reached the
    target loses, the others are ranked by lower score and the lowest wins (ties share); no skunks.

    Raises:
        IllegalMoveError: the game is not over.
    """
    if state[1] != OVER:
        raise IllegalMoveError(Reason("not_over"))
    rules: Rules = state[0]
    scores: tuple[int, ...] = state[3]
    reached: int = state[19]
    n_sides = rules.sides
    side_scores = tuple(_side_total(rules, scores, s) for s in range(n_sides))
    hit = rules.side_of(reached)
    others = sorted((s for s in range(n_sides) if s != hit), key=lambda s: side_scores[s])
    groups: list[tuple[int, ...]] = []
    for s in others:
        if groups and side_scores[groups[-1][0]] == side_scores[s]:
            groups[-1] = (*groups[-1], s)
        else:
            groups.append((s,))
    if rules.lowball:
        ranking = (*groups, (hit,))
        win_sides: tuple[int, ...] = groups[0]
    else:
        ranking = ((hit,), *sorted(groups, key=lambda g: -side_scores[g[0]]))
        win_sides = (hit,)
    winners = tuple(seat for seat in range(rules.players) if rules.side_of(seat) in win_sides)
    losers = tuple(seat for seat in range(rules.players) if seat not in winners)
    skunked: tuple[int, ...] = ()
    double: tuple[int, ...] = ()
    game_points = 1
    if rules.skunks and not rules.lowball:
        skunked = tuple(s for s in others if side_scores[s] <= rules.skunk_threshold)
        double = tuple(s for s in others if side_scores[s] <= rules.double_skunk_threshold)
        game_points = rules.double_skunk_games if double else rules.skunk_games if skunked else 1
    return Result(
        winners=winners,
        losers=losers,
        scores=scores,
        side_scores=side_scores,
        reached=reached,
        lowball=rules.lowball,
        ranking=tuple(ranking),
        skunked=skunked,
        double_skunked=double,
        game_points=game_points,
    )


# ---------------------------------------------------------------------------------------------------------------
# Transitions
# ---------------------------------------------------------------------------------------------------------------


def apply(state: State, move: Move, *, seat: int | None = None) -> State:
    """The state after ``move`` by :func:`to_act` (or the chance move at a chance node); engine API ``apply``.

    Args:
        state: the position (unchanged: states are immutable).
        move: a legal move, e.g. from :func:`legal_moves` or :func:`parse_move`.
        seat: the seat sending the move, if known; checked against :func:`to_act`.
    Raises:
        NotYourTurnError: ``seat`` is not the seat to act (or a decision is sent at a chance node).
        IllegalMoveError: the move is not legal here; the message names the rule.
    """
    if seat is not None and (seat != state[12] or type(seat) is not int):
        _not_your_turn(state, seat)
    return _apply(state, move, None)


def step(state: State, move: Move, *, seat: int | None = None) -> tuple[State, tuple[Event, ...]]:
    """As :func:`apply`, plus the public events the move caused, in order (engine API ``step``).

    Events never name a card the rules keep hidden: discards are reported by number only, the crib only when it
    is counted, the true Muggins breakdown only after the count is settled (spec §2.10 M9).
    """
    if seat is not None and (seat != state[12] or type(seat) is not int):
        _not_your_turn(state, seat)
    events: list[Event] = []
    new_state = _apply(state, move, events)
    return new_state, tuple(events)


def _not_your_turn(state: State, seat: int) -> None:
    raise NotYourTurnError(_not_your_turn_reason(state, seat))


def _not_your_turn_reason(state: State, seat: object) -> Reason:
    """Why ``seat`` may not move now: ``no_such_seat``, ``seat_at_end``, ``seat_at_chance`` or ``not_your_turn``."""
    n = state[0].players
    if type(seat) is not int or not 0 <= seat < n:
        return Reason("no_such_seat", {"given": repr(seat), "last": n - 1})
    turn = state[12]
    if turn < 0:
        return Reason("seat_at_end" if state[1] == OVER else "seat_at_chance", {"seat": seat})
    return Reason("not_your_turn", {"seat": seat, "to_act": turn})


def _check(state: State, move: Move) -> None:
    """Raise the error ``_apply`` would raise for ``move`` (used by :func:`parse_move`), without applying it."""
    _apply(state, move, None)


def side_scores(state: State) -> tuple[int, ...]:
    """Points per side: per seat, or in a partnership side 0 = seats 0+2 and side 1 = seats 1+3 (spec §2.4 item 7)."""
    rules: Rules = state[0]
    return tuple(_side_total(rules, state[3], s) for s in range(rules.sides))


def _side_total(rules: Rules, scores: Sequence[int], seat: int) -> int:
    """Points of ``seat``'s side: its own, plus its partner's (seat ^ 2) in a partnership (spec §2.4 item 7)."""
    if rules.partnership:
        return scores[seat] + scores[seat ^ 2]
    return scores[seat]


def _play_points(seq: tuple[Card, ...], count: int, key: int) -> int:
    """Points of the last card of ``seq`` (spec §2.4 step 3; the count ``count`` includes it), memoised.

    The rule is :func:`scoring.score_play`'s (its checks skipped: the engine's sequences are valid by
    construction).  ``key`` holds the last 7 ranks (runs are at most 7 long, pairs 4) and whether the count is 15
    or 31 -- all that the score of the last card depends on.
    """
    points = _PLAY_CACHE.get(key)
    if points is None:
        if len(_PLAY_CACHE) >= _PLAY_CACHE_LIMIT:
            _PLAY_CACHE.clear()
        points = _PLAY_CACHE[key] = _score_last(seq, count).points
    return points


def _game_over(values: list[Any], scores: list[int], seat: int, ev: list[Event] | None) -> State:
    """The terminal state: ``values`` (a state's fields) with phase OVER, the final scores and who reached."""
    values[1] = OVER
    values[3] = tuple(scores)
    values[12] = -1
    values[19] = seat
    over = State(tuple(values))
    if ev is not None:
        res = result(over)
        rules: Rules = values[0]
        ev.append(
            Event(
                "game_over",
                {
                    "seat": seat,
                    "side": rules.side_of(seat),
                    **res.to_json(),
                    "target": rules.target,
                    "partnership": rules.partnership,
                    "skunk": res.skunk,
                    "double_skunk": res.double_skunk,
                },
            )
        )
    return over


def _peg(
    ev: list[Event],
    rules: Rules,
    seat: int,
    points: int,
    reason: str,
    cards: Sequence[Card],
    scores: Sequence[int],
    pending: int = 0,
) -> None:
    """A ``peg`` event: ``seat`` pegs ``points`` for ``reason``; ``scores`` are the scores after the whole award,
    ``pending`` the points of that award still to come after this peg (so ``score`` is the seat's score now)."""
    ev.append(
        Event(
            "peg",
            {
                "seat": seat,
                "side": rules.side_of(seat),
                "points": points,
                "reason": reason,
                "cards": [str(c) for c in cards],
                "score": scores[seat] - pending,
                "side_score": _side_total(rules, scores, seat) - pending,
            },
        )
    )


def _peg_play(
    ev: list[Event], rules: Rules, seat: int, ps: PlayScore, seq: tuple[Card, ...], scores: Sequence[int]
) -> None:
    """One ``peg`` per scoring part of the card just laid (spec §2.4 step 3), in the order of ``ps.reasons``:
    fifteen and thirty-one (the whole count's cards), the pair (the last 2-4 cards), the run (its cards)."""
    pending = ps.points
    for code in ps.reasons:
        if code == "run":
            points, cards = ps.run, seq[-ps.run :]
        elif code in ("fifteen", "thirty_one"):
            points, cards = 2, seq
        else:
            points, cards = ps.pairs, seq[-PAIR_CODES.index(code) :]
        pending -= points
        _peg(ev, rules, seat, points, code, cards, scores, pending)


#: The ``call`` of a ``response`` event by the move's type (spec §2.10 M3).
_CALLS: Final[dict[type, str]] = {Accept: "accept", MugginsCall: "muggins", Overcount: "overcount"}


#: _DISCARDS[n]: cards each seat lays away; _DEALING[n][dealer]: cards dealt to each seat, cards dealt in all,
#: cards from the pack to the crib, and per seat the slice of the shuffled pack it is dealt: one card at a time
#: from the dealer's left, so seat s gets every n-th card from offset (s - dealer - 1) % n (spec §2.2; the
#: numbers are :class:`Rules`'s).
_DISCARDS: Final = tuple(Rules(players=n).discards for n in _PLAYER_COUNTS)
_DEALING: Final = tuple(
    tuple(
        (r.cards_dealt, n * r.cards_dealt, r.crib_from_pack,
         tuple(slice((s - dealer - 1) % n, n * r.cards_dealt, n) for s in range(n)))
        for dealer in range(n)
    )
    for n in _PLAYER_COUNTS
    for r in (Rules(players=n),)
)  # fmt: skip
#: _AFTER[n][s]: the seats after ``s`` in playing order (to the left), ending with ``s`` itself.
_AFTER: Final = tuple(tuple(tuple((s + k) % n for k in range(1, n + 1)) for s in range(n)) for n in _PLAYER_COUNTS)
#: _SHOW_SEATS[n][dealer]: whose count comes next in the automatic show -- each hand from the dealer's left round
#: to the dealer (:func:`show_order`), then the crib, counted for the dealer (spec §2.6).
_SHOW_SEATS: Final = tuple(tuple((*show_order(Rules(players=n), d), d) for d in range(n)) for n in _PLAYER_COUNTS)


# The hot path of every playout: kept compact and unformatted on purpose (one state tuple per move, fields by
# position in the order of ``state._FIELDS``).
# fmt: off
def _apply(state: State, move: Move, ev: list[Event] | None) -> State:
    (rules, phase, dealer, scores, hands, discards, crib, stock, starter, played, seq, count, turn, last, passed,
     kept, _, _, cuts, _, deal_no, _, seq_key) = state[:]  # a plain tuple: unpacked faster than the subclass
    kind = type(move)

    # -- the play (spec §2.4) ---------------------------------------------------------------------------------
    if phase == PLAY:
        hand = hands[turn]
        after = _AFTER[rules.players]
        if kind is Play:
            card = move.card  # type: ignore[union-attr]
            try:
                i = hand.index(card)
            except ValueError:
                raise IllegalMoveError(Reason("not_in_hand", {"seat": turn, "card": str(card)})) from None
            count += _VALUE[card]
            if count > 31:
                raise IllegalMoveError(Reason("past_31", {"card": str(card), "count": count - _VALUE[card],
                                                          "new_count": count}))
            s = last = turn
            hands = _REPLACE[len(hands)][s](hands, hand[:i] + hand[i + 1:])
            one = _ONE[card]
            played += one
            seq += one
            seq_key = ((seq_key << 4) | _RANK1[card]) & _SEQ_MASK
            if ev is None:
                key = ((seq_key & 15 if _PLAIN_END[seq_key & 0xFFF] else seq_key) << 2) | _COUNT_FLAGS[count]
                points = _PLAY_CACHE.get(key)
                if points is None:
                    points = _play_points(seq, count, key)
            else:
                ev.append(Event("play", {"seat": s, "card": str(card), "count": count}))
                ps = _score_last(seq, count)
                points = ps.points
            if points:
                score_l = list(scores)
                score_l[s] += points
                if ev is not None:
                    _peg_play(ev, rules, s, ps, seq, score_l)
                if _side_total(rules, score_l, s) >= rules.target:
                    return _game_over([rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played, seq,
                                       count, -1, last, passed, kept, -1, -1, cuts, -1, deal_no, False, seq_key],
                                      score_l, s, ev)
                scores = tuple(score_l)
            if count != 31:  # after 31 the count ends at once, with no go point (spec §2.4 step 3)
                for t in after[s]:
                    if hands[t] and not passed >> t & 1:
                        return State((rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played,
                                            seq, count, t, last, passed, kept, -1, -1, cuts, -1, deal_no, False,
                                            seq_key))
        elif kind is Go:
            room = 31 - count
            for c in hand:
                if _VALUE[c] <= room:
                    raise IllegalMoveError(Reason("must_play", {"seat": turn, "card": str(c), "count": count}))
            passed |= 1 << turn
            if ev is not None:
                ev.append(Event("go", {"seat": turn, "count": count}))
            for t in after[turn]:
                if hands[t] and not passed >> t & 1:
                    return State((rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played,
                                        seq, count, t, last, passed, kept, -1, -1, cuts, -1, deal_no, False, seq_key))
        else:
            raise _wrong_phase(phase, move)
        # End of a count: after 31, or when nobody can lay a card -- the go / last-card point (spec §2.4 step 4).
        any_cards = any(hands)
        if count != 31:
            score_l = list(scores)
            score_l[last] += 1
            if ev is not None:
                _peg(ev, rules, last, 1, "go" if any_cards else "last_card", (), score_l)
            if _side_total(rules, score_l, last) >= rules.target:
                return _game_over([rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played, seq,
                                   count, -1, last, passed, kept, -1, -1, cuts, -1, deal_no, False, seq_key],
                                  score_l, last, ev)
            scores = tuple(score_l)
        if any_cards:  # reset; the first player left of the last to lay who still holds cards leads (step 5)
            if ev is not None:
                ev.append(Event("reset", {}))
            for t in after[last]:
                if hands[t]:
                    return State((rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played,
                                        (), 0, t, -1, 0, kept, -1, -1, cuts, -1, deal_no, False, 0))
        return _show(rules, dealer, scores, crib, stock, starter, played, kept, cuts, deal_no, ev)

    # -- the discard (spec §2.2) ------------------------------------------------------------------------------
    if phase == DISCARD:
        n = rules.players
        need = _DISCARDS[n]
        if kind is not Discard:
            if kind is Play and need == 1:
                move = _DISCARD1[move.card]  # type: ignore[union-attr]
            else:
                raise _wrong_phase(phase, move)
        cards: tuple[Card, ...] = move.cards  # type: ignore[union-attr]
        hand = hands[turn]
        if len(cards) != need:
            raise IllegalMoveError(Reason("discard_count", {"players": n, "need": need, "got": len(cards)}))
        try:  # the hand without the cards laid away, in its order (a Discard's cards are distinct)
            if need == 1:
                i = hand.index(cards[0])
                rest = hand[:i] + hand[i + 1:]
            else:
                i, j = hand.index(cards[0]), hand.index(cards[1])
                if i > j:  # pragma: no cover - hands and a Discard's cards are both in card order
                    i, j = j, i
                rest = hand[:i] + hand[i + 1:j] + hand[j + 1:]
        except ValueError:
            for c in cards:
                if c not in hand:
                    raise IllegalMoveError(Reason("not_in_hand", {"seat": turn, "card": str(c)})) from None
            raise  # pragma: no cover - every card is held
        replace = _REPLACE[n][turn]
        hands = replace(hands, rest)
        discards = replace(discards, cards)
        crib += cards
        if ev is not None:
            ev.append(Event("discard", {"seat": turn, "count": need}))
        if turn != dealer:  # from the dealer's left round to the dealer
            return State((rules, DISCARD, dealer, scores, hands, discards, crib, stock, None, played, (), 0,
                                (turn + 1) % n, -1, 0, kept, -1, -1, cuts, -1, deal_no, False, 0))
        # Every hand is laid away: the starter is cut (spec §2.3), his heels at once.  The crib is gathered
        # face down; it is kept sorted so that when it is turned up nobody learns who laid away which card.
        crib = tuple(sorted(crib))
        starter, stock = stock[0], stock[1:]
        if ev is not None:
            ev.append(Event("starter", {"card": str(starter), "dealer": dealer}))
        if (starter >> 2) + 1 == _JACK_RANK:
            score_l = list(scores)
            score_l[dealer] += 2
            if ev is not None:
                _peg(ev, rules, dealer, 2, "his_heels", (starter,), score_l)
            if _side_total(rules, score_l, dealer) >= rules.target:
                return _game_over([rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played, (), 0,
                                   -1, -1, 0, hands, -1, -1, cuts, -1, deal_no, False, 0], score_l, dealer, ev)
            scores = tuple(score_l)
        return State((rules, PLAY, dealer, scores, hands, discards, crib, stock, starter, played, (), 0,
                            (dealer + 1) % n, -1, 0, hands, -1, -1, cuts, -1, deal_no, False, 0))

    # -- the Muggins show (spec §2.10) ------------------------------------------------------------------------
    if phase == SHOW:
        return _apply_show(state, move, ev)

    # -- chance: the deal and the cut for deal (spec §2.2) ----------------------------------------------------
    if phase == DEAL:
        if kind is not Shuffle:
            raise _wrong_phase(phase, move)
        n = rules.players
        deck: tuple[Card, ...] = move.deck  # type: ignore[union-attr]
        k, dealt, extra, seat_slices = _DEALING[n][dealer]
        hands = tuple([tuple(sorted(deck[c])) for c in seat_slices])
        empty = _EMPTY[n]
        if ev is not None:
            ev.append(Event("deal", {"dealer": dealer, "deal_number": deal_no + 1, "cards": [k] * n, "crib": extra}))
        return State((rules, DISCARD, dealer, scores, hands, empty, deck[dealt:dealt + extra],
                            deck[dealt + extra:], None, (), (), 0, (dealer + 1) % n, -1, 0, empty, -1, -1, cuts, -1,
                            deal_no + 1, False, 0))
    if phase == CUT:
        n = rules.players
        if kind is not CutForDeal:
            raise _wrong_phase(phase, move)
        cut: tuple[Card, ...] = move.cards  # type: ignore[union-attr]
        if len(cut) != n:
            raise IllegalMoveError(Reason("cut_count", {"players": n, "got": len(cut)}))
        lowest = min(c >> 2 for c in cut)
        low_seats = [s for s, c in enumerate(cut) if c >> 2 == lowest]
        if ev is not None:
            ev.append(Event("cut", {"cards": [str(c) for c in cut]}))
        if len(low_seats) > 1:
            if ev is not None:
                ev.append(Event("cut_again", {"seats": low_seats}))
            return _between_deals(rules, -1, scores, deal_no, cut, CUT)
        if ev is not None:
            ev.append(Event("dealer", {"seat": low_seats[0]}))
        return _between_deals(rules, low_seats[0], scores, deal_no, cut, DEAL)
    raise IllegalMoveError(Reason("game_over"))


def _show(rules: Rules, dealer: int, scores: tuple[int, ...], crib: tuple[Card, ...], stock: tuple[Card, ...],
          starter: Card, played: tuple[Card, ...], kept: tuple[tuple[Card, ...], ...], cuts: tuple[Card, ...],
          deal_no: int, ev: list[Event] | None) -> State:
    """The show after the play (spec §2.6): automatic counting in order, or the first Muggins count (M1)."""
    n = rules.players
    empty = ((),) * n
    if rules.muggins:
        return State((rules, SHOW, dealer, scores, empty, empty, crib, stock, starter, played, (), 0,
                            (dealer + 1) % n, -1, 0, kept, 0, -1, cuts, -1, deal_no, False, 0))
    score_l = list(scores)
    for index, seat in enumerate(_SHOW_SEATS[n][dealer]):
        is_crib = index == n
        cards = crib if is_crib else kept[seat]
        if ev is not None:
            shown = score_show(cards, starter, crib=is_crib)
            points = shown.total
            ev.append(_show_event("show", seat, cards, starter, is_crib, shown))
        else:
            a, b, c, d = cards
            points = _show_points(a, b, c, d, starter, is_crib)
        if points:
            score_l[seat] += points
            if ev is not None:
                _peg(ev, rules, seat, points, "crib" if is_crib else "hand", (*cards, starter), score_l)
            if _side_total(rules, score_l, seat) >= rules.target:
                return _game_over([rules, PLAY, dealer, scores, empty, empty, crib, stock, starter, played, (), 0, -1,
                                   -1, 0, kept, -1, -1, cuts, -1, deal_no, is_crib, 0], score_l, seat, ev)
    return _between_deals(rules, (dealer + 1) % n, tuple(score_l), deal_no, cuts, DEAL)


def _apply_show(state: State, move: Move, ev: list[Event] | None) -> State:
    """One step of a Muggins count (spec §2.10; its rules are in :mod:`kortbord.cribbage.muggins`)."""
    (rules, _, dealer, scores, hands, discards, crib, stock, starter, played, _, _, turn, _, _, kept, index,
     announced, cuts, _, deal_no, crib_shown, _) = state
    n = rules.players
    is_crib = index == n
    counter = _mug.counter_of(rules, dealer, index)
    cards: tuple[Card, ...] = crib if is_crib else kept[counter]
    true = show_total(cards, starter, is_crib)
    kind = type(move)
    score_l = list(scores)
    if announced < 0:  # M2: the counter announces; pegged at once
        if kind is not Announce:
            raise IllegalMoveError(Reason("announce_first", {"counter": counter, "crib": is_crib, "move": str(move)}))
        a: int = move.points  # type: ignore[union-attr]
        score_l[counter] += a
        if ev is not None:
            ev.append(Event("announce", {"seat": counter, "crib": is_crib, "cards": [str(c) for c in cards],
                                         "starter": str(starter), "points": a}))
            if a:
                _peg(ev, rules, counter, a, "crib_announced" if is_crib else "hand_announced", (), score_l)
        if _mug.ends_at_announcement(a, true, _side_total(rules, score_l, counter), rules.target):  # M12
            if ev is not None:
                _reveal(ev, counter, cards, starter, is_crib)
            return _game_over([rules, SHOW, dealer, scores, hands, discards, crib, stock, starter, played, (), 0, -1,
                               -1, 0, kept, index, a, cuts, -1, deal_no, crib_shown, 0], score_l, counter, ev)
        first = _mug.next_responder(rules, counter, counter)
        return State((rules, SHOW, dealer, tuple(score_l), hands, discards, crib, stock, starter, played, (), 0,
                            first, -1, 0, kept, index, a, cuts, -1, deal_no, crib_shown, 0))
    if kind is Announce:
        raise IllegalMoveError(Reason("already_announced", {"counter": counter, "announced": announced,
                                                            "seat": turn}))
    caller = turn
    outcome = _mug.settle(announced, true, move)  # M4-M8; raises on a move that is not a response
    if ev is not None:
        ev.append(Event("response", {"seat": caller, "call": _CALLS[kind], "points": getattr(move, "points", 0)}))
    if not outcome.decided:
        nxt = _mug.next_responder(rules, counter, caller)
        if nxt >= 0:
            return State((rules, SHOW, dealer, scores, hands, discards, crib, stock, starter, played, (), 0,
                                nxt, -1, 0, kept, index, announced, cuts, -1, deal_no, crib_shown, 0))
    score_l[counter] += outcome.counter_points
    score_l[caller] += outcome.caller_points
    if ev is not None:
        ev.append(Event("settle", {
            "seat": counter, "caller": caller if outcome.decided else None, "crib": is_crib, "announced": announced,
            "true": true, "outcome": outcome.outcome, "named": getattr(move, "points", 0),
            "counter_points": outcome.counter_points, "caller_points": outcome.caller_points,
            "missed": max(true - announced, 0), "excess": max(announced - true, 0)}))
        if outcome.counter_points:
            _peg(ev, rules, counter, outcome.counter_points, outcome.outcome, (), score_l)
        if outcome.caller_points:
            _peg(ev, rules, caller, outcome.caller_points, outcome.outcome, (), score_l)
        _reveal(ev, counter, cards, starter, is_crib)  # M9: only now is the true breakdown shown
    for seat in (counter, caller):  # M12 and spec §2a: the counter's side first, then the caller's
        if _side_total(rules, score_l, seat) >= rules.target:
            return _game_over([rules, SHOW, dealer, scores, hands, discards, crib, stock, starter, played, (), 0, -1,
                               -1, 0, kept, index, announced, cuts, -1, deal_no, crib_shown, 0], score_l, seat, ev)
    if is_crib:
        return _between_deals(rules, (dealer + 1) % n, tuple(score_l), deal_no, cuts, DEAL)
    index += 1  # M10: the next count; the crib (index n) is counted last and face up
    return State((rules, SHOW, dealer, tuple(score_l), hands, discards, crib, stock, starter, played, (), 0,
                        _mug.counter_of(rules, dealer, index), -1, 0, kept, index, -1, cuts, -1, deal_no, index == n,
                        0))
# fmt: on


def _wrong_phase(phase: int, move: Move) -> IllegalMoveError:
    """``wrong_phase`` (``muggins_outside_show`` for a Muggins move outside the show) for ``move`` in ``phase``."""
    muggins_move = type(move) in (Announce, Accept, MugginsCall, Overcount) and phase != SHOW
    code = "muggins_outside_show" if muggins_move else "wrong_phase"
    return IllegalMoveError(Reason(code, {"move": str(move), "phase": PHASE_NAMES[phase]}))


def _reveal(ev: list[Event], counter: int, cards: tuple[Card, ...], starter: Card, is_crib: bool) -> None:
    """M9: the true breakdown of a settled Muggins count, as a public event."""
    ev.append(_show_event("reveal", counter, cards, starter, is_crib, score_show(cards, starter, crib=is_crib)))


def _show_event(kind: str, seat: int, cards: tuple[Card, ...], starter: Card, is_crib: bool, shown: ShowScore) -> Event:
    """A ``show`` or ``reveal`` event: the counted cards, the starter, the total and the groups in counting order."""
    return Event(
        kind,
        {
            "seat": seat,
            "crib": is_crib,
            "cards": [str(c) for c in cards],
            "starter": str(starter),
            "points": shown.total,
            "groups": shown.groups_json(),
        },
    )


def explain_illegal(state: State, move: Move, *, seat: int | None = None) -> _contract.Reason:
    """Why ``move`` (sent by ``seat``, if given) is not legal in ``state``: the :class:`~kortbord.contract.Reason`
    the engine's ``IllegalMoveError`` carries, a specific code per rule (``docs/engine-api.md``).

    Codes: ``not_your_turn``, ``no_such_seat``, ``seat_at_chance``, ``seat_at_end`` (the seat check);
    ``game_over``; ``wrong_phase``, ``muggins_outside_show`` (a move of another phase); ``cut_count`` (§2.2);
    ``discard_count``, ``not_in_hand`` (§2.2); ``past_31`` (§2.4 item 9), ``must_play`` (go while a card fits,
    §2.4 item 2); ``announce_first`` (M2), ``already_announced`` (M3), ``not_a_response`` (M3).

    Raises:
        ValueError: ``move`` is legal here (there is nothing to explain).
    """
    if seat is not None and (seat != state[12] or type(seat) is not int):
        return _not_your_turn_reason(state, seat)
    try:
        _apply(state, move, None)
    except IllegalMoveError as error:
        if error.reason is None:  # pragma: no cover - every engine error carries a reason
            raise
        return error.reason
    raise ValueError(f"{move} is legal here: nothing to explain")
