"""OpenSpiel's cribbage (``open-spiel`` 2.0.2) as an outside reference, in neutral kortbord terms.

This is a helper module for the differential tests; it is not part of the ``kortbord`` package and imports
nothing from it. Tests that use it guard with ``pytest.importorskip("pyspiel")`` and import it by path (this
directory has no ``__init__``).

Two directions:

* :func:`play_random_game` plays one OpenSpiel game from a seed with uniformly random chance outcomes and
  uniformly random legal decisions, and returns a :class:`Transcript`.
* :func:`replay_game` drives OpenSpiel through GIVEN deals (dealt cards, discards, starter, play order), forcing
  every chance outcome and decision, and returns the same kind of :class:`Transcript`, so that a game first
  played by kortbord's engine can be scored by OpenSpiel.

OpenSpiel facts this module relies on (read from ``open_spiel/games/cribbage/cribbage.cc`` in the 2.0.2 wheel and
checked by ``test_openspiel_ref.py``; rules spec §7 lists the two defects):

Cards.
    Card index ``i`` (chance outcome and one-card action ``i``) is rank ``i % 13`` (``A23456789TJQK``) of suit
    ``i // 13`` in the order **C, D, H, S** (clubs 0-12, diamonds 13-25, hearts 26-38, spades 39-51). OpenSpiel's
    own strings (``action_to_string``: ``"Deal 9H"``) use the same ``rank+suit`` notation as kortbord.
Actions.
    0-51 play or (3 and 4 players) discard one card; ``52 + 52*a + b`` discards the two cards ``a`` and ``b``
    (2 players), where ``a`` is the lower card in (rank, suit) order; 2756 is ``Pass``.
Deal order (chance).
    Each deal is one chance outcome per card, drawn uniformly from the cards left: first **all** of player 0's
    cards, then all of player 1's, ... (not one at a time around the table), then with 3 players one card to the
    crib. Hands are then sorted.
Discards.
    Players discard in index order 0..n-1 whoever deals. Then one chance outcome is the starter; a jack scores
    2 (his heels) for the dealer.
Dealer.
    Deal ``k`` (OpenSpiel's ``Round: k``, from 0) is dealt by player ``k % n``: player 0 deals first (no cut) and
    the deal passes to index+1. Player ``dealer+1`` leads the first count, so OpenSpiel's "left" is index+1.
Pegging.
    A player with no card that fits (including a player with no cards at all) must ``Pass``; a player who passed
    is asked again in his turn and passes again. When every player has passed, the last player to lay a card
    scores 1; a card reaching 31 scores 2 in the same action and ends the count at once. The next count is led
    by ``last + 1`` (who passes at once if empty-handed).
The show.
    When the last count of a deal ends, **the same action** scores the go/last point (or the 31), then every hand
    in index order 0..n-1 (not from the dealer's left), then the crib for the dealer, and deals the next round,
    all without checking for 121 in between (spec §7, "wrong winner"). The crib is scored by the hand scorer, so a
    4-card crib flush with an off-suit starter scores 4 (spec §2.5 says 0; spec §7).
Partnerships (4 players).
    Every point scored by player ``p`` is also added to ``(p + 2) % 4``; scores of 0 and 2 (and of 1 and 3) are
    always equal, and each deltas list shows the team's points on both partners.
Game end.
    The state is terminal once any score is >= 121 (checked after each action). OpenSpiel's winner is the lowest
    player index with >= 121.

Mapping a kortbord game onto OpenSpiel: kortbord seats turn to the left as seat+1 (the spec's "P0 is the dealer,
play goes P1, P2, ..."). If kortbord's first dealer is seat ``d``, kortbord seat ``s`` is OpenSpiel player
``(s - d) % n`` (:func:`openspiel_player`); partners stay partners and the deal rotation matches.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pyspiel

RANKS = "A23456789TJQK"
SUITS = "CDHS"  # OpenSpiel's suit order: clubs 0, diamonds 1, hearts 2, spades 3
DECK_SIZE = 52
PASS_ACTION = 2756
WIN_SCORE = 121
CARDS_PER_PLAYER = {2: 6, 3: 5, 4: 5}
CARDS_TO_CRIB = {2: 0, 3: 1, 4: 0}
_SUIT_ALIASES = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class ReplayMismatch(ValueError):
    """OpenSpiel cannot follow a given transcript (wrong player to act, card not held or not legal, bad deal)."""


# ---------------------------------------------------------------------------------------------------------------
# Cards


def card_index(card: str) -> int:
    """OpenSpiel's index (0-51) of a card written ``rank+suit``.

    Args:
        card: ``"9H"``, ``"TD"``, ``"10D"``, ``"as"`` or ``"Q♠"``; rank ``A 2-9 T J Q K`` (or ``10``), suit ``S H D C``
            or ``♠♥♦♣``.
    Returns:
        ``13 * suit + rank`` with suits C=0, D=1, H=2, S=3 and ranks A=0 .. K=12.
    Raises:
        ValueError: a malformed card.
    """
    text = card.strip().upper()
    if len(text) < 2:
        raise ValueError(f"malformed card {card!r}")
    rank_text, suit_text = text[:-1], _SUIT_ALIASES.get(text[-1], text[-1])
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANKS or suit_text not in SUITS:
        raise ValueError(f"malformed card {card!r}")
    return 13 * SUITS.index(suit_text) + RANKS.index(rank_text)


def card_string(index: int) -> str:
    """The ``rank+suit`` string (``"9H"``) of OpenSpiel card index ``index`` (0-51); ValueError outside 0-51."""
    if not 0 <= index < DECK_SIZE:
        raise ValueError(f"card index {index} out of range 0-51")
    return RANKS[index % 13] + SUITS[index // 13]


def _sort_key(index: int) -> tuple[int, int]:
    """OpenSpiel's Card operator<: rank first, then suit."""
    return index % 13, index // 13


def discard_action(cards: Sequence[str]) -> int:
    """The OpenSpiel discard action for one card (3-4 players) or two cards (2 players)."""
    ids = sorted((card_index(c) for c in cards), key=_sort_key)
    if len(ids) == 1:
        return ids[0]
    if len(ids) == 2 and ids[0] != ids[1]:
        return DECK_SIZE + DECK_SIZE * ids[0] + ids[1]
    raise ValueError(f"a discard is one or two distinct cards, got {list(cards)!r}")


def openspiel_player(seat: int, first_dealer: int, players: int) -> int:
    """OpenSpiel's player index for kortbord ``seat`` when kortbord's first dealer is ``first_dealer``.

    OpenSpiel's player 0 deals first and the deal passes to index+1, which is also kortbord's "left" (seat+1), so
    the mapping is the rotation ``(seat - first_dealer) % players``.
    """
    return (seat - first_dealer) % players


# ---------------------------------------------------------------------------------------------------------------
# Transcript


@dataclass
class Event:
    """One OpenSpiel action and the score change it caused.

    ``kind`` is ``"deal"`` (chance: ``card`` to ``seat``, or to the crib when ``seat`` is None), ``"discard"``
    (``seat`` lays ``cards`` away), ``"starter"`` (chance: ``card``), ``"play"`` (``seat`` lays ``card``; ``count``
    is the running total after it) or ``"pass"`` (``seat`` passes; ``go`` is True when he holds cards but none
    fits, False when he has no cards; ``repeat`` is True when he had already passed in this count).
    ``delta`` is every player's score change in points (4 players: team points on both partners), ``scores`` the
    totals after the action. ``count_end`` is set when the action ended a count: ``{"seat": last player to lay a
    card, "points": 2 for 31 else 1}``. ``show`` is True on the action that also scored the show.
    """

    kind: str
    seat: int | None
    delta: list[int]
    scores: list[int]
    card: str | None = None
    cards: list[str] | None = None
    count: int | None = None
    go: bool | None = None
    repeat: bool | None = None
    count_end: dict[str, int] | None = None
    show: bool = False


@dataclass
class Show:
    """The show of one deal, as OpenSpiel scored it in a single action (event ``event`` of the deal).

    ``hands[p]`` is OpenSpiel's score of player p's kept 4 cards with the starter and ``crib`` its score of the
    crib (for the dealer), each obtained from OpenSpiel itself by :func:`openspiel_hand_score` (OpenSpiel's crib
    score is its hand score of the crib cards). ``play_points`` are the pegging points of the last card itself when
    it made 31 (pairs/runs; 0 otherwise), for that player's side. ``delta`` equals the action's delta and
    ``consistent`` says that ``delta == count_end + play_points + hands + crib`` with 4-player team copying.
    ``None`` fields when the breakdown was not requested.
    """

    event: int
    delta: list[int]
    scores_before: list[int]
    count_end: dict[str, int]
    hands: list[int] | None = None
    crib: int | None = None
    play_points: int | None = None
    consistent: bool | None = None
    order: str = "go/last, hands 0..n-1, crib"


@dataclass
class Deal:
    """One deal (OpenSpiel round ``index``) in neutral terms; seats are OpenSpiel player indices.

    ``hands[p]``: the cards dealt to p in dealing order; ``crib_from_pack``: the card dealt to the crib (3 players);
    ``discards[p]``: p's discards; ``kept[p]``: the 4 cards p kept; ``crib``: the 4 crib cards; ``starter``;
    ``pegging``: plays and gos as ``[seat, card]`` / ``[seat, "go"]`` in the convention of the rules spec §4 cases
    (a player says go once per count, only while holding cards; empty-handed players are skipped); ``events``:
    every OpenSpiel action of the deal; ``show``: None if the game ended before the show.
    """

    index: int
    dealer: int
    hands: list[list[str]]
    crib_from_pack: str | None
    discards: list[list[str]]
    starter: str | None
    pegging: list[list[Any]]
    events: list[Event]
    show: Show | None
    scores_before: list[int]
    scores_after: list[int]

    @property
    def kept(self) -> list[list[str]]:
        return [
            [c for c in hand if c not in discards] for hand, discards in zip(self.hands, self.discards, strict=True)
        ]

    @property
    def crib(self) -> list[str]:
        cards = [c for d in self.discards for c in d]
        return cards + ([self.crib_from_pack] if self.crib_from_pack else [])

    def plays(self) -> list[tuple[int, str]]:
        """The card plays ``(seat, card)`` in order."""
        return [(s, c) for s, c in self.pegging if c != "go"]


@dataclass
class Transcript:
    """One OpenSpiel cribbage game: ``players`` (2-4), ``seed`` (None for a replay), ``deals``, ``final_scores``
    (points), ``terminal`` (a score reached 121), ``winner`` (OpenSpiel's: the lowest index with >= 121, or None),
    ``returns`` (OpenSpiel's returns including the winner bonus), ``actions`` (number of OpenSpiel actions)."""

    players: int
    seed: int | None
    deals: list[Deal] = field(default_factory=list)
    final_scores: list[int] = field(default_factory=list)
    terminal: bool = False
    winner: int | None = None
    returns: list[float] = field(default_factory=list)
    actions: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (cards as strings, no OpenSpiel objects)."""
        return asdict(self)


# ---------------------------------------------------------------------------------------------------------------
# Reading OpenSpiel's state string


@dataclass
class _Snapshot:
    round: int
    phase: str
    dealer: int
    scores: list[int]
    hands: list[list[str]]
    crib: list[str]
    total: int


def _snapshot(state: pyspiel.State, players: int) -> _Snapshot:
    """Parse ``CribbageState::ToString()`` (the only way Python sees scores, hands and the running total)."""
    fields: dict[str, str] = {}
    for line in str(state).splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    return _Snapshot(
        round=int(fields["Round"]),
        phase=fields["Phase"],
        dealer=int(fields["Dealer"]),
        scores=[round(float(x)) for x in fields["Scores"].split()],
        hands=[fields[f"P{p} Hand"].split() for p in range(players)],
        crib=fields["Crib"].split(),
        total=int(fields["Running total"]),
    )


# ---------------------------------------------------------------------------------------------------------------
# The recorder shared by random play and replay


class _Recorder:
    def __init__(self, players: int, seed: int | None, breakdown: bool) -> None:
        if players not in CARDS_PER_PLAYER:
            raise ValueError(f"OpenSpiel cribbage has 2-4 players, not {players}")
        self.players = players
        self.breakdown = breakdown
        self.game = pyspiel.load_game("cribbage", {"players": players})
        self.state = self.game.new_initial_state()
        self.snap = _snapshot(self.state, players)
        self.transcript = Transcript(players=players, seed=seed)
        self.deal: Deal | None = None
        self.passed: set[int] = set()
        self.last_player: int | None = None
        self._start_deal()

    # -- deal bookkeeping
    def _start_deal(self) -> None:
        n = self.players
        self.deal = Deal(
            index=self.snap.round,
            dealer=self.snap.dealer,
            hands=[[] for _ in range(n)],
            crib_from_pack=None,
            discards=[[] for _ in range(n)],
            starter=None,
            pegging=[],
            events=[],
            show=None,
            scores_before=list(self.snap.scores),
            scores_after=list(self.snap.scores),
        )
        self.transcript.deals.append(self.deal)
        self.passed = set()
        self.last_player = None

    @property
    def terminal(self) -> bool:
        return self.state.is_terminal()

    def deal_over(self, deal: Deal) -> bool:
        """True once ``deal``'s show has been scored or the game is over."""
        return self.terminal or deal.show is not None

    # -- one action
    def apply(self, action: int) -> Event:
        state, pre, n = self.state, self.snap, self.players
        deal = self.deal
        assert deal is not None
        chance = state.is_chance_node()
        seat = None if chance else state.current_player()
        if not chance and action not in state.legal_actions():
            raise ReplayMismatch(
                f"deal {deal.index}: {state.action_to_string(seat, action)!r} is not legal for player {seat}"
            )
        if chance and action not in {a for a, _ in state.chance_outcomes()}:
            raise ReplayMismatch(f"deal {deal.index}: card {card_string(action)} is not in the pack")
        count_end = None
        extra: dict[str, Any] = {}
        if chance and pre.phase == "Card":
            kind = "deal"
            target = next((p for p in range(n) if len(pre.hands[p]) < CARDS_PER_PLAYER[n]), None)
            seat = target
            extra["card"] = card_string(action)
        elif chance:
            kind = "starter"
            extra["card"] = card_string(action)
        elif pre.phase == "Card":
            kind = "discard"
            if action < DECK_SIZE:
                ids = [action]
            else:
                ids = [(action - DECK_SIZE) // DECK_SIZE, (action - DECK_SIZE) % DECK_SIZE]
            extra["cards"] = [card_string(i) for i in ids]
        elif action == PASS_ACTION:
            kind = "pass"
            extra["go"] = bool(pre.hands[seat])
            extra["repeat"] = seat in self.passed
        else:
            kind = "play"
            extra["card"] = card_string(action)
            extra["count"] = pre.total + min(action % 13 + 1, 10)

        state.apply_action(action)
        post = _snapshot(state, n)
        delta = [b - a for a, b in zip(pre.scores, post.scores, strict=True)]
        show = post.round > pre.round

        # Deal record.
        if kind == "deal":
            if seat is None:
                deal.crib_from_pack = extra["card"]
            else:
                deal.hands[seat].append(extra["card"])
        elif kind == "discard":
            deal.discards[seat].extend(extra["cards"])
        elif kind == "starter":
            deal.starter = extra["card"]
        elif kind == "pass":
            if extra["go"] and not extra["repeat"]:
                deal.pegging.append([seat, "go"])
            self.passed.add(seat)
        else:
            deal.pegging.append([seat, extra["card"]])
            self.last_player = seat
        # A count ends on the card that makes 31, or on the pass that leaves nobody able to play (the count was
        # above 0 then: a pass at count 0 is an empty-handed leader's), or with the show.
        ended = extra["count"] == 31 if kind == "play" else kind == "pass" and pre.total > 0 and post.total == 0
        if show or ended:
            assert self.last_player is not None
            final_count = extra.get("count") if kind == "play" else pre.total
            count_end = {"seat": self.last_player, "points": 2 if final_count == 31 else 1}
            self.passed = set()

        event = Event(
            kind=kind, seat=seat, delta=delta, scores=list(post.scores), count_end=count_end, show=show, **extra
        )
        deal.events.append(event)
        deal.scores_after = list(post.scores)
        self.snap = post
        self.transcript.actions += 1
        if show:
            deal.show = self._show(deal, event, pre.scores)
        if state.is_terminal():
            self._finish()
        elif show:
            self._start_deal()
        return event

    def _show(self, deal: Deal, event: Event, scores_before: list[int]) -> Show:
        assert event.count_end is not None
        show = Show(
            event=len(deal.events) - 1, delta=list(event.delta), scores_before=scores_before, count_end=event.count_end
        )
        if not self.breakdown:
            return show
        assert deal.starter is not None
        n = self.players
        show.hands = [openspiel_hand_score(k, deal.starter) for k in deal.kept]
        show.crib = openspiel_hand_score(deal.crib, deal.starter)
        expected = [0] * n
        for p in range(n):
            expected[p] += show.hands[p]
        expected[deal.dealer] += show.crib
        expected[event.count_end["seat"]] += event.count_end["points"]
        if n == 4:
            expected = [expected[p] + expected[(p + 2) % 4] for p in range(4)]
        residual = [d - e for d, e in zip(event.delta, expected, strict=True)]
        last = event.count_end["seat"]
        show.play_points = residual[last] if event.kind == "play" else 0
        sides = {last, (last + 2) % 4} if n == 4 else {last}
        show.consistent = all(r == (show.play_points if p in sides else 0) for p, r in enumerate(residual))
        return show

    def _finish(self) -> None:
        t = self.transcript
        t.final_scores = list(self.snap.scores)
        t.terminal = True
        t.winner = next((p for p, s in enumerate(t.final_scores) if s >= WIN_SCORE), None)
        t.returns = list(self.state.returns())


# ---------------------------------------------------------------------------------------------------------------
# Public drivers


def play_random_game(players: int, seed: int, *, breakdown: bool = True, max_deals: int | None = None) -> Transcript:
    """Play one OpenSpiel cribbage game with uniformly random chance outcomes and legal decisions.

    Args:
        players: 2, 3 or 4 (4 = partnerships {0, 2} v {1, 3}).
        seed: seeds a ``random.Random``; every chance outcome and decision is ``rng.choice`` over OpenSpiel's
            chance outcomes (uniform) or legal actions (in OpenSpiel's order), so a seed gives one game.
        breakdown: also score each show's hands and crib separately with :func:`openspiel_hand_score`.
        max_deals: stop after this many complete deals (None: play to 121).
    Returns:
        The :class:`Transcript`; ``terminal`` is False only when ``max_deals`` stopped the game.
    Raises:
        ValueError: players outside 2-4.
    """
    rng = random.Random(seed)
    rec = _Recorder(players, seed, breakdown)
    state = rec.state
    while not state.is_terminal():
        if max_deals is not None and sum(d.show is not None for d in rec.transcript.deals) >= max_deals:
            rec.transcript.deals.pop()  # the next deal has not started
            rec.transcript.final_scores = list(rec.snap.scores)
            break
        chance = state.is_chance_node()
        action = rng.choice(state.chance_outcomes())[0] if chance else rng.choice(state.legal_actions())
        rec.apply(action)
    return rec.transcript


def _deal_field(deal: Mapping[str, Any] | Deal, name: str, default: Any = None) -> Any:
    if isinstance(deal, Deal):
        return getattr(deal, name)
    return deal.get(name, default)


def replay_game(
    players: int, deals: Iterable[Mapping[str, Any] | Deal], *, breakdown: bool = True, strict_gos: bool = False
) -> Transcript:
    """Drive OpenSpiel through given deals, forcing every chance outcome and decision.

    Args:
        players: 2, 3 or 4; seats in ``deals`` are OpenSpiel player indices (see :func:`openspiel_player`).
        deals: in order, each a :class:`Deal` or a mapping with ``hands`` (per seat, the 6 or 5 dealt cards, any
            order), ``crib_from_pack`` (3 players: the card dealt to the crib), ``discards`` (per seat, 2 or 1
            cards), ``starter`` and ``pegging`` (``[seat, card]`` plays in order; ``[seat, "go"]`` entries are
            optional and are not needed to drive OpenSpiel: every OpenSpiel ``Pass`` is forced whenever the player
            to act has no legal card). Optional ``dealer`` is checked against OpenSpiel's dealer.
        breakdown: as in :func:`play_random_game`.
        strict_gos: also require the given gos (when present) to equal OpenSpiel's.
    Returns:
        A :class:`Transcript` of what OpenSpiel did and scored. Replay stops when the deals run out (also in the
        middle of a deal when the given plays stop before the hands are empty) or when OpenSpiel's game ends
        (then later plays and deals are ignored, ``terminal`` is True).
    Raises:
        ReplayMismatch: a card dealt twice, a discard of a card not held, a play out of OpenSpiel's turn order or
            not legal, a dealer or go disagreement (``strict_gos``).
        ValueError: players outside 2-4, malformed cards.
    """
    rec = _Recorder(players, None, breakdown)
    n = players
    for given in deals:
        if rec.terminal:
            break
        deal = rec.deal
        assert deal is not None
        dealer = _deal_field(given, "dealer")
        if dealer is not None and dealer != deal.dealer:
            raise ReplayMismatch(f"deal {deal.index}: OpenSpiel's dealer is player {deal.dealer}, not {dealer}")
        hands = _deal_field(given, "hands")
        if len(hands) != n or any(len(h) != CARDS_PER_PLAYER[n] for h in hands):
            raise ReplayMismatch(f"deal {deal.index}: {n} hands of {CARDS_PER_PLAYER[n]} cards expected, got {hands!r}")
        for hand in hands:  # OpenSpiel deals all of player 0's cards, then player 1's, ...
            for card in hand:
                rec.apply(card_index(card))
        if CARDS_TO_CRIB[n]:
            crib_card = _deal_field(given, "crib_from_pack")
            if crib_card is None:
                raise ReplayMismatch(f"deal {deal.index}: 3 players need crib_from_pack")
            rec.apply(card_index(crib_card))
        discards = _deal_field(given, "discards")
        for p in range(n):  # OpenSpiel asks for discards in index order
            if not {card_index(c) for c in discards[p]} <= {card_index(c) for c in hands[p]}:
                raise ReplayMismatch(f"deal {deal.index}: player {p} discards {discards[p]!r} not in {hands[p]!r}")
            rec.apply(discard_action(discards[p]))
        rec.apply(card_index(_deal_field(given, "starter")))
        plays = [(s, c) for s, c in _deal_field(given, "pegging") if c != "go"]
        for seat, card in plays:
            _forced_passes(rec, deal)
            if rec.terminal:
                break
            if deal.show is not None:
                raise ReplayMismatch(f"deal {deal.index}: play {[seat, card]} after OpenSpiel's deal ended")
            to_act = rec.state.current_player()
            if to_act != seat:
                raise ReplayMismatch(
                    f"deal {deal.index}: OpenSpiel has player {to_act} to play (count {rec.snap.total}), "
                    f"the transcript has player {seat} play {card}"
                )
            rec.apply(card_index(card))
        else:
            _forced_passes(rec, deal)
        if strict_gos:
            given_gos = [[s, c] for s, c in _deal_field(given, "pegging") if c == "go"]
            if given_gos and given_gos != [[s, c] for s, c in deal.pegging if c == "go"]:
                raise ReplayMismatch(f"deal {deal.index}: gos {given_gos!r} differ from OpenSpiel's {deal.pegging!r}")
        if deal.show is None and not rec.terminal:
            break  # the given plays stop before the deal is finished
    if not rec.terminal:
        t = rec.transcript
        if t.deals and not t.deals[-1].events:
            t.deals.pop()
        t.final_scores = list(rec.snap.scores)
    return rec.transcript


def _forced_passes(rec: _Recorder, deal: Deal) -> None:
    """Apply OpenSpiel's Pass while it is the only legal action and ``deal`` goes on."""
    while not rec.deal_over(deal) and rec.state.legal_actions() == [PASS_ACTION]:
        rec.apply(PASS_ACTION)


_HAND_SCORE_CACHE: dict[tuple[frozenset[int], int], int] = {}


def openspiel_hand_score(hand: Sequence[str], starter: str) -> int:
    """OpenSpiel's show score (points) of 4 cards with the starter, measured by OpenSpiel itself.

    OpenSpiel has no Python binding for its scorer, so this plays a 2-player OpenSpiel deal in which player 1 (the
    pone of deal 0) keeps ``hand``, and reads player 1's score change on the action that scores the show, less the
    go/last point when player 1 earned it. Deals where player 1's last card makes 31 (its pegging would mix in)
    are avoided by trying other filler cards. OpenSpiel scores the crib with this same function, so it also gives
    OpenSpiel's crib score (spec §7).

    Raises:
        ValueError: not 4 distinct cards plus a different starter.
    """
    ids = [card_index(c) for c in hand]
    start = card_index(starter)
    if len(set(ids)) != 4 or start in ids:
        raise ValueError(f"need 4 distinct cards and a different starter, got {list(hand)!r} + {starter!r}")
    key = (frozenset(ids), start)
    if key in _HAND_SCORE_CACHE:
        return _HAND_SCORE_CACHE[key]
    rest = [i for i in range(DECK_SIZE) if i not in ids and i != start]
    rng = random.Random(hash(key) & 0xFFFF)
    for _attempt in range(50):
        rng.shuffle(rest)
        game = pyspiel.load_game("cribbage", {"players": 2})
        state = game.new_initial_state()
        for card in rest[:6] + ids + rest[6:8]:
            state.apply_action(card)
        state.apply_action(discard_action([card_string(i) for i in rest[:2]]))
        state.apply_action(discard_action([card_string(i) for i in rest[6:8]]))
        state.apply_action(start)
        last, total = None, 0
        while True:
            before = _snapshot(state, 2)
            player = state.current_player()
            action = state.legal_actions()[0]
            state.apply_action(action)
            after = _snapshot(state, 2)
            if action != PASS_ACTION:
                last, total = player, before.total + min(action % 13 + 1, 10)
            if after.round > before.round:
                break
        if action != PASS_ACTION and last == 1:
            continue  # player 1's last card made 31: its own pegging is in the same delta
        go_points = (2 if total == 31 else 1) if last == 1 else 0
        score = after.scores[1] - before.scores[1] - go_points
        _HAND_SCORE_CACHE[key] = score
        return score
    raise RuntimeError("no clean OpenSpiel deal found to score the hand")  # pragma: no cover
