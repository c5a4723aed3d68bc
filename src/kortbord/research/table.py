"""The research driver shared by the OpenSpiel and PettingZoo adapters: one game in progress, its per-player
information, deck-slot bookkeeping and the information-set resampler.

A :class:`Table` is an immutable value wrapping an engine state (``kortbord.mulle`` or ``kortbord.cribbage``, used
only through their public API) with what the adapters need on top:

* ``history`` -- a persistent (shared-tail) list of log entries from which each player's information-state string
  is read: public entries (a move in notation, a cut, a starter, a show) and private ones (a player's own hand
  when dealt, his own discards).  Nothing hidden from a player is ever in his entries: cards come only from
  ``view(state, seat)`` of that seat, from public move notation and from the engine's public events.
* the current round's chance move and decisions, so :meth:`Table.resample` can rebuild the round with the hidden
  cards redealt and replay it through the engine (which re-checks every move: the sample is consistent with
  every inference the rules allow, e.g. a Mulle trail proves the player held no capturing card).

Game-specific parts live in :class:`MulleSpec` and :class:`CribbageSpec`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, cast

from kortbord import cribbage, mulle
from kortbord.cards import Card, full_deck
from kortbord.cribbage import moves as cm
from kortbord.cribbage.view import Sampler
from kortbord.errors import IllegalMoveError, InvalidPositionError
from kortbord.mulle.view import sample_hidden
from kortbord.research import encoding as enc

__all__ = ["CribbageSpec", "MulleSpec", "ResampleError", "Spec", "Table", "mulle_deal_slots"]

#: How many redeals :meth:`Table.resample` tries before giving up (each is checked by replaying the round).
RESAMPLE_TRIES: Final = 2000


class ResampleError(RuntimeError):
    """No hidden-card assignment consistent with the public history was found in :data:`RESAMPLE_TRIES` tries."""


# A log entry: a public text (str) or per-seat texts (tuple; None = nothing for that seat).
Entry = str | tuple[str | None, ...]


class _Node:
    """One entry of a persistent singly linked history (clones share their common past)."""

    __slots__ = ("entry", "length", "parent")

    def __init__(self, entry: Entry, parent: _Node | None) -> None:
        self.entry = entry
        self.parent = parent
        self.length: int = 1 if parent is None else parent.length + 1


def _entries(node: _Node | None) -> list[Entry]:
    out: list[Entry] = []
    while node is not None:
        out.append(node.entry)
        node = node.parent
    out.reverse()
    return out


# --------------------------------------------------------------------------------------------------------- specs
class Spec:
    """What the driver needs to know about one game with fixed options (base class)."""

    game: str = ""
    players: int = 2
    #: Cards of the deck(s) drawn for one deal's chance move (52 or 104).
    deck: tuple[Card, ...] = ()
    num_actions: int = 0

    def __deepcopy__(self, memo: Any) -> Spec:
        return self  # fixed options: shared by every state of a game

    def new_state(self) -> Any:
        raise NotImplementedError

    # engine pass-throughs (public API only)
    def to_act(self, state: Any) -> int | None:
        raise NotImplementedError

    def is_chance(self, state: Any) -> bool:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def legal_moves(self, state: Any) -> list[Any]:
        raise NotImplementedError

    def apply(self, state: Any, move: Any) -> Any:
        raise NotImplementedError

    def view(self, state: Any, seat: int) -> Any:
        raise NotImplementedError

    def legal_actions(self, state: Any) -> list[int]:
        raise NotImplementedError

    def move_of(self, state: Any, action: int) -> Any:
        raise NotImplementedError

    def action_of(self, state: Any, move: Any) -> int:
        raise NotImplementedError

    def sides(self) -> int:
        raise NotImplementedError

    def side_of(self, seat: int) -> int:
        raise NotImplementedError


class MulleSpec(Spec):
    """Mulle with fixed rules, player count, teams and first dealer (``None`` = drawn by chance)."""

    game = "mulle"

    def __init__(
        self,
        rules: mulle.Rules,
        players: int = 2,
        teams: bool = False,
        dealer: int | None = None,
        max_actions: int = enc.MULLE_DEFAULT_MAX_ACTIONS,
        max_rounds: int = 100,
    ) -> None:
        mulle.new_game(rules, players=players, teams=teams, dealer=dealer)  # validates
        self.rules = rules
        self.players = players
        self.teams = teams
        self.dealer = dealer
        self.num_actions = max_actions
        self.max_rounds = max_rounds
        self.deck = tuple(full_deck(2))

    def new_state(self) -> mulle.State:
        return mulle.new_game(self.rules, players=self.players, teams=self.teams, dealer=self.dealer)

    def to_act(self, state: Any) -> int | None:
        return mulle.to_act(state)

    def is_chance(self, state: Any) -> bool:
        return mulle.is_chance(state)

    def is_over(self, state: Any) -> bool:
        return mulle.is_over(state)

    def legal_moves(self, state: Any) -> list[Any]:
        moves = mulle.legal_moves(state)
        if len(moves) > self.num_actions:
            raise enc.ActionSpaceOverflowError(
                f"this Mulle position has {len(moves)} legal moves but the action space holds {self.num_actions}: "
                f"create the game with a larger max_actions parameter (e.g. {2 * len(moves)})"
            )
        return moves

    def apply(self, state: Any, move: Any) -> Any:
        return mulle.apply(state, move)

    def view(self, state: Any, seat: int) -> mulle.View:
        return mulle.view(state, seat)

    def legal_actions(self, state: Any) -> list[int]:
        return list(range(len(self.legal_moves(state))))

    def move_of(self, state: Any, action: int) -> Any:
        moves = self.legal_moves(state)
        if not 0 <= action < len(moves):
            raise IllegalMoveError(f"action {action} is not legal here: the legal actions are 0..{len(moves) - 1}")
        return moves[action]

    def action_of(self, state: Any, move: Any) -> int:
        return self.legal_moves(state).index(move)

    def sides(self) -> int:
        return 2 if self.teams else self.players

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.teams else seat


class CribbageSpec(Spec):
    """Cribbage with fixed rules and first dealer (``None`` = the cut for deal)."""

    game = "cribbage"
    num_actions = enc.CRIBBAGE_NUM_ACTIONS

    def __init__(self, rules: cribbage.Rules, dealer: int | None = None) -> None:
        cribbage.new_game(rules, dealer=dealer)  # validates
        self.rules = rules
        self.players = rules.players
        self.dealer = dealer
        self.deck = tuple(full_deck(1))

    def new_state(self) -> Any:
        return cribbage.new_game(self.rules, dealer=self.dealer)

    def to_act(self, state: Any) -> int | None:
        return cribbage.to_act(state)

    def is_chance(self, state: Any) -> bool:
        return cribbage.is_chance(state)

    def is_over(self, state: Any) -> bool:
        return cribbage.is_over(state)

    def legal_moves(self, state: Any) -> list[Any]:
        return cribbage.legal_moves(state)

    def apply(self, state: Any, move: Any) -> Any:
        return cribbage.apply(state, move)

    def view(self, state: Any, seat: int) -> cribbage.View:
        return cribbage.view(state, seat)

    def legal_actions(self, state: Any) -> list[int]:
        return sorted(enc.cribbage_action(m) for m in cribbage.legal_moves(state))

    def move_of(self, state: Any, action: int) -> Any:
        move = enc.cribbage_move(action)
        if move not in cribbage.legal_moves(state):
            raise IllegalMoveError(f"action {action} ({move}) is not legal here")
        return move

    def action_of(self, state: Any, move: Any) -> int:
        return enc.cribbage_action(move)

    def sides(self) -> int:
        return self.rules.sides

    def side_of(self, seat: int) -> int:
        return self.rules.side_of(seat)

    @property
    def cards_used(self) -> int:
        """Deck positions a deal ever reveals or deals: the hands, the 3-hand crib card and the starter."""
        r = self.rules
        return r.players * r.cards_dealt + r.crib_from_pack + 1


def mulle_deal_slots(rules: mulle.Rules, players: int, dealer: int) -> list[tuple[int, int]]:
    """Where each position of a Mulle shuffle goes (rules spec §2.3, engine ``Shuffle``: dealt from the front).

    Returns:
        For deck positions 0..103: ``(deal_no, seat)``, deal_no 1-based, seat -1 for the face-up table of the
        first deal.  Packets of ``deal_packet`` go to each seat from the dealer's left, then (first deal only) to
        the table, repeated; a short last deal goes one card at a time from the dealer's left.
    """
    slots: list[tuple[int, int]] = []
    order = [(dealer + 1 + i) % players for i in range(players)]
    remaining = 104
    deal_no = 0
    while remaining > 0:
        deal_no += 1
        first = deal_no == 1
        table_need = rules.table_size if first else 0
        if remaining >= players * rules.hand_size + table_need:
            need = dict.fromkeys(order, rules.hand_size)
            while any(need.values()) or table_need:
                for seat in order:
                    k = min(rules.deal_packet, need[seat])
                    slots.extend([(deal_no, seat)] * k)
                    need[seat] -= k
                k = min(rules.deal_packet, table_need)
                slots.extend([(deal_no, -1)] * k)
                table_need -= k
        else:
            slots.extend((deal_no, order[i % players]) for i in range(remaining))
        remaining = 104 - len(slots)
    return slots


# --------------------------------------------------------------------------------------------------------- table
class Table:
    """One game in progress for the research adapters (an immutable value: every method returns a new Table).

    Attributes:
        spec: the game and its options.
        state: the engine state.
        history: the newest log entry (a shared persistent list), or None.
        round_base: the Table just before this round's (Cribbage: this deal's) shuffle, or None.
        round_chance: that shuffle, or None.
        round_log: this round's decisions ``(seat, move, context)`` (context: Mulle deal number, Cribbage count).
        steps: chance moves and decisions applied so far.
    """

    __slots__ = ("_cache", "history", "round_base", "round_chance", "round_log", "spec", "state", "steps")

    def __init__(self, spec: Spec, state: Any | None = None) -> None:
        self.spec = spec
        self.state = spec.new_state() if state is None else state
        self.history: _Node | None = None
        self.round_base: Table | None = None
        self.round_chance: Any = None
        self.round_log: tuple[tuple[int, Any, int], ...] = ()
        self.steps = 0
        self._cache: dict[Any, Any] = {}

    def _copy(self) -> Table:
        new = Table.__new__(Table)
        new.spec = self.spec
        new.state = self.state
        new.history = self.history
        new.round_base = self.round_base
        new.round_chance = self.round_chance
        new.round_log = self.round_log
        new.steps = self.steps
        new._cache = {}
        return new

    def __copy__(self) -> Table:
        return self

    def __deepcopy__(self, memo: Any) -> Table:
        return self  # immutable value

    # -- queries ----------------------------------------------------------------------------------------------
    def to_act(self) -> int | None:
        """The seat to decide, or None (chance node or game over)."""
        return self.spec.to_act(self.state)

    def is_chance(self) -> bool:
        return self.spec.is_chance(self.state)

    def is_over(self) -> bool:
        """The game has ended, or was cut short by the adapter's round limit (:meth:`truncated`)."""
        return self.spec.is_over(self.state) or self.truncated()

    def truncated(self) -> bool:
        """Mulle only: a new round would start after ``spec.max_rounds`` rounds; the adapters end the game there
        (a draw: every utility 0)."""
        spec = self.spec
        return (
            spec.game == "mulle" and spec.is_chance(self.state) and self.state.round_no >= spec.max_rounds  # type: ignore[attr-defined]
        )

    def legal_actions(self) -> list[int]:
        """Action ids of the seat to act, ascending (empty at chance nodes and at the end)."""
        hit = self._cache.get("legal")
        if hit is None:
            hit = self._cache["legal"] = [] if self.to_act() is None else self.spec.legal_actions(self.state)
        return list(hit)

    def view(self, seat: int) -> Any:
        return self.spec.view(self.state, seat)

    def info_string(self, seat: int) -> str:
        """Everything ``seat`` has observed, oldest first, one entry a line (perfect recall)."""
        key = ("info", seat)
        hit = self._cache.get(key)
        if hit is None:
            lines = [f"seat P{seat}"]
            for e in _entries(self.history):
                if isinstance(e, str):
                    lines.append(e)
                else:
                    text = e[seat]
                    if text is not None:
                        lines.append(text)
            hit = self._cache[key] = "\n".join(lines)
        return str(hit)

    # -- transitions ------------------------------------------------------------------------------------------
    def apply_action(self, action: int) -> Table:
        """The Table after the seat to act plays action id ``action``.

        Raises:
            IllegalMoveError: the action is not legal here.  ActionSpaceOverflowError (Mulle).
        """
        if self.to_act() is None:
            raise IllegalMoveError("no decision is due here (a chance node or the end of the game)")
        return self.apply_move(self.spec.move_of(self.state, action))

    def apply_move(self, move: Any) -> Table:
        """The Table after an engine move (a decision of the seat to act, or the chance move at a chance node).

        Raises:
            IllegalMoveError, NotYourTurnError: from the engine (nothing changes).
        """
        spec = self.spec
        before = self.state
        new = self._copy()
        new.steps = self.steps + 1
        if spec.is_chance(before):
            new.state = spec.apply(before, move)
            if isinstance(move, (mulle.Shuffle, cm.Shuffle)):
                new.round_base = self
                new.round_chance = move
                new.round_log = ()
                new._log_deal(move)
            else:  # Cribbage cut for deal: public
                new._log(f"{move}")
            return new
        seat = spec.to_act(before)
        assert seat is not None
        if spec.game == "mulle":
            new.state = spec.apply(before, move)
            new.round_log = (*self.round_log, (seat, move, before.deal_no))
            new._log(f"P{seat} {move}")
            if (
                new.state.phase == "play"
                and new.state.deal_no != before.deal_no
                and new.state.round_no == before.round_no
            ):
                new._log_hands(f"deal {new.state.deal_no}")
        else:
            new.round_log = (*self.round_log, (seat, move, before.count))
            phase = before.phase_name
            # moves that reveal cards through public events: the last discard (the starter), the end of the play
            # (the automatic show) and every Muggins show step
            reveals = phase == "show" or (phase == "discard" and seat == before.dealer)
            events: Sequence[Any] = ()
            if not reveals:
                new.state = spec.apply(before, move)
                reveals = phase == "play" and new.state.phase_name != "play"
            if reveals:
                new.state, events = cribbage.step(before, move)
            if isinstance(move, cm.Discard):
                new._log(
                    tuple(
                        f"P{seat} {move}" if s == seat else f"P{seat} discards {len(move.cards)}"
                        for s in range(spec.players)
                    )
                )
            else:
                new._log(f"P{seat} {move}")
            for e in events:
                if e.kind in ("starter", "show", "reveal", "settle"):
                    new._log(str(e))  # the kind and its data: what the event made public
        return new

    def _log(self, entry: Entry) -> None:
        self.history = _Node(entry, self.history)

    def _log_hands(self, label: str) -> None:
        texts = tuple(
            f"{label}: hand {' '.join(map(str, self.spec.view(self.state, s).hand))}" for s in range(self.spec.players)
        )
        self._log(texts)

    def _log_deal(self, move: Any) -> None:
        st = self.state
        if self.spec.game == "mulle":
            self._log(f"round {st.round_no}: dealer P{st.dealer}, table {' '.join(map(str, st.table))}")
        else:
            self._log(f"deal {st.deal_number}: dealer P{st.dealer}")
        self._log_hands("dealt")

    # -- information-set resampling ---------------------------------------------------------------------------
    def resample(self, seat: int, rng: random.Random) -> Table:
        """A Table that ``seat`` cannot tell from this one: the same public history and own cards, the cards
        hidden from ``seat`` (other hands, the stock, face-down discards) redealt uniformly at random among the
        places ``seat`` cannot see, and the round replayed through the engine.  Assignments the history rules out
        (an engine rejects a replayed move, e.g. a Mulle trail by a player who would have held a capturing card,
        or a Cribbage go by a player who would have held a card that fits) are rejected and redrawn, so the result
        is uniform over the consistent deals.

        At a chance node or at the end of the game nothing is hidden and ``self`` is returned.

        Raises:
            ResampleError: no consistent deal found in :data:`RESAMPLE_TRIES` tries.
        """
        if self.to_act() is None or self.round_base is None:
            return self
        for _ in range(RESAMPLE_TRIES):
            sample = self._mulle_redeal(seat, rng) if self.spec.game == "mulle" else self._cribbage_redeal(seat, rng)
            if sample is None:
                continue
            chance, log = sample
            try:
                t = self.round_base.apply_move(chance)
                for _s, move, _ctx in log:
                    t = t.apply_move(move)
            except IllegalMoveError:
                continue
            return t
        raise ResampleError(f"no deal consistent with P{seat}'s information found in {RESAMPLE_TRIES} tries")

    def _mulle_redeal(self, seat: int, rng: random.Random) -> tuple[Any, tuple[tuple[int, Any, int], ...]] | None:
        """This round's shuffle with the cards hidden from ``seat`` redealt, and the round's decisions to replay.

        The other hands and the stock are drawn by the engine's one sampler (``mulle.view.sample_hidden`` of
        ``seat``'s view) within what the other seats' moves in this deal prove (:meth:`_mulle_constraints`); the
        deck puts back what ``seat`` has seen (its own cards, the face-up table, every card played in this round)
        where it was dealt, the sampled hands in their seats' places of this deal, and the sampled stock in the
        later deals.
        """
        st = self.state
        deck = self.round_chance.deck
        players = self.spec.players
        slots = mulle_deal_slots(self.spec.rules, players, st.dealer)  # type: ignore[attr-defined]
        current = st.deal_no
        hands, stock = sample_hidden(mulle.view(st, seat), rng, self._mulle_constraints(seat))
        dealt: dict[tuple[int, int], list[Card]] = {}
        for s, move, deal_no in self.round_log:
            if s != seat:
                dealt.setdefault((deal_no, s), []).append(move.card)
        for s in range(players):
            if s != seat:
                dealt.setdefault((current, s), []).extend(hands[s])
        new: list[Card | None] = [None] * len(deck)
        places: dict[tuple[int, int], list[int]] = {}
        for pos, (deal_no, owner) in enumerate(slots):
            if deal_no > current:
                continue
            if owner == -1 or owner == seat:
                new[pos] = deck[pos]
            else:
                places.setdefault((deal_no, owner), []).append(pos)
        for key, free in places.items():
            for pos, card in zip(free, dealt.get(key, ()), strict=True):
                new[pos] = card
        it = iter(stock)  # the later deals' places, in dealing order
        deck_out = tuple(c if c is not None else next(it) for c in new)
        return mulle.Shuffle(deck_out, self.round_chance.dealer), self.round_log

    def _mulle_constraints(self, seat: int) -> dict[int, tuple[frozenset[Card] | None, list[frozenset[Card]]]]:
        """What the other seats' moves in the current deal prove about the cards they still hold (cached):
        per seat ``(allowed, required)`` -- every held card is in ``allowed`` (None: any), and for each set in
        ``required`` at least one held card is in it.

        Each move of a seat is probed with the engine on the public position before it (``load_position`` with
        the mover holding the played card, the cards it played later in the deal and one probed card): a trail
        that becomes illegal with a card (the capture duty, rules spec §2.6) excludes that card; a move that is
        illegal with the known cards alone but legal with one more (the reserve rule, §2.6 A28) requires one of
        those cards.  Moves the probe cannot settle add nothing; the final replay checks everything.
        """
        hit = self._cache.get(("constraints", seat))
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        st = self.state
        current = st.deal_no
        assert self.round_base is not None
        probe = mulle.apply(self.round_base.state, self.round_chance)
        later: dict[int, list[Card]] = {}
        moves: list[tuple[int, Any, Any, int]] = []
        for s, move, deal_no in self.round_log:
            if deal_no == current and s != seat:
                later.setdefault(s, []).append(move.card)
                moves.append((s, probe, move, len(later[s]) - 1))
            probe = mulle.apply(probe, move)
        candidates = sorted(set(self.spec.deck))
        out: dict[int, tuple[frozenset[Card] | None, list[frozenset[Card]]]] = {}
        for s, before, move, index in moves:
            held = later[s][index:]
            pos = mulle.dump_position(before, hidden=False)
            name = pos["to_move"]
            pos["last_play"] = False

            def legal_with(cards: list[Card], pos: dict[str, Any] = pos, name: str = name, move: Any = move) -> bool:
                pos["hands"] = {name: [str(c) for c in cards]}
                try:
                    return move in mulle.legal_moves(mulle.load_position(pos))
                except InvalidPositionError:  # e.g. both copies of a card already face up: it cannot be held
                    return False

            def possible(cards: list[Card], pos: dict[str, Any] = pos, name: str = name) -> bool:
                pos["hands"] = {name: [str(c) for c in cards]}
                try:
                    mulle.load_position(pos)
                except InvalidPositionError:
                    return False
                return True

            allowed, required = out.get(s, (None, []))
            # a card of each earlier requirement the known cards do not meet (e.g. a reserve card still held)
            base = list(held)
            for r in required:
                if not r.intersection(base):
                    base.extend(next((c for c in sorted(r) if possible([*base, c])), min(r)) for _ in (0,))
            if legal_with(base):
                if isinstance(move, mulle.Trail):
                    ok = frozenset(c for c in candidates if c in base or legal_with([*base, c]))
                    allowed = ok if allowed is None else allowed & ok
            else:
                need = frozenset(c for c in candidates if legal_with([*base, c]))
                if need:
                    required = [*required, need]
            out[s] = (allowed, required)
        self._cache[("constraints", seat)] = out
        return out

    def _cribbage_redeal(self, seat: int, rng: random.Random) -> tuple[Any, tuple[tuple[int, Any, int], ...]] | None:
        """This deal's shuffle and decisions with the cards hidden from ``seat`` dealt again: the state comes from
        the one sampler of unseen cards (``kortbord.cribbage.view.Sampler``, what ``cribbage.SPEC.resample``
        uses; every go honoured), written back as the pack it was dealt from.  ``seat``'s own positions of the
        pack stay as they were."""
        rules = self.spec.rules  # type: ignore[attr-defined]
        n, k, d, extra = rules.players, rules.cards_dealt, rules.discards, rules.crib_from_pack
        st = self.state
        dealer = st.dealer
        deck = self.round_chance.deck
        dealt = n * k
        own = next((m.cards for s, m, _ in self.round_log if s == seat and isinstance(m, cm.Discard)), ())
        # the engine keeps no discards at the show: the seat's own stay in the crib all the same
        sampled = Sampler(cribbage.view(st, seat), laid_away=own).draw(rng)
        hands, discards, kept, crib = sampled._hands, sampled._discards, sampled._kept, sampled._crib
        laid = [s for s, m, _ in self.round_log if isinstance(m, cm.Discard)]
        new_discards = {s: discards[s] for s in laid}
        if any(not cards for cards in new_discards.values()):  # no discards kept: share the crib out at random
            rest = [c for c in crib if c not in own]
            rng.shuffle(rest)
            from_pack = tuple(rest[:extra])
            for i, s in enumerate(x for x in laid if x != seat):
                new_discards[s] = tuple(sorted(rest[extra + i * d : extra + (i + 1) * d]))
            new_discards[seat] = own
        else:
            thrown = {c for cards in new_discards.values() for c in cards}
            from_pack = tuple(c for c in crib if c not in thrown)[:extra]
        new_deck: list[Card | None] = [None] * 52
        for s in range(n):
            slots = range((s - dealer - 1) % n, dealt, n)
            if s == seat:
                for p in slots:
                    new_deck[p] = deck[p]
                continue
            held = (hands[s] if st.phase_name == "discard" else kept[s]) + new_discards.get(s, ())
            for p, c in zip(slots, held, strict=True):
                new_deck[p] = c
        new_deck[dealt : dealt + extra] = from_pack
        new_deck[dealt + extra :] = ((sampled.starter,) if sampled.starter is not None else ()) + sampled._stock
        log = tuple(
            (s, cm.Discard(new_discards[s]) if isinstance(m, cm.Discard) and s != seat else m, ctx)
            for s, m, ctx in self.round_log
        )
        return cm.Shuffle(tuple(cast(Card, c) for c in new_deck)), log

    # -- results ----------------------------------------------------------------------------------------------
    def utilities(self, mode: str) -> list[float]:
        """Per seat, at the end of the game (zeros before): see :func:`utilities`."""
        if self.spec.is_over(self.state):
            return utilities(self.spec, self.state, mode)
        return [0.0] * self.spec.players


def utilities(spec: Spec, state: Any, mode: str) -> list[float]:
    """The end-of-game payoff per seat; zero-sum in both modes (partners get their side's value).

    ``"win_loss"``: with S sides and w winning sides, a winning side gets ``(1 - w/S) * S/(S-1)`` and every other
    side ``-(w/S) * S/(S-1)`` -- so +1/-1 with two sides, and +1 / -1/(S-1) each with one winner of S; a draw
    (no winner) is 0 for all.  ``"score_diff"``: a side's final points minus the mean of all sides' points (Kryp
    Mulle and Lowball Cribbage negate it: fewer points are better).
    """
    sides = spec.sides()
    if spec.game == "mulle":
        mres = mulle.result(state)
        winners = set(mres.winners)
        points = list(mres.scores)
        lower_better = mres.lowest_wins
    else:
        cres = cribbage.result(state)
        winners = {spec.side_of(s) for s in cres.winners}
        points = list(cres.side_scores)
        lower_better = cres.lowball
    if mode == "win_loss":
        w = len(winners)
        scale = sides / (sides - 1)
        per_side = [((1.0 if s in winners else 0.0) - w / sides) * scale for s in range(sides)]
    elif mode == "score_diff":
        mean = sum(points) / sides
        sign = -1.0 if lower_better else 1.0
        per_side = [sign * (p - mean) for p in points]
    else:
        raise ValueError(f"utility must be 'win_loss' or 'score_diff', got {mode!r}")
    return [per_side[spec.side_of(seat)] for seat in range(spec.players)]
