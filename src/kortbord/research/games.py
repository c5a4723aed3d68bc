"""What research needs of each game beyond the engine contract: action ids, the chance model, the information-state
log, the tensors and the round redeal behind information-set resampling.

The engines are driven only through their registry entry (``kortbord.core.get(name)``, a
:class:`kortbord.contract.GameSpec`): :class:`~kortbord.research.table.Table` calls ``setup.game`` for every rule.
The pieces here are about research, not rules, and are one object per game in :data:`RESEARCH`:

* **action ids** (:mod:`kortbord.research.encoding`): Cribbage's fixed 1492-id encoding; Mulle's index into the
  canonical legal-move list (``max_actions`` ids, :class:`~kortbord.research.encoding.ActionSpaceOverflowError`
  past it);
* **the chance model** OpenSpiel draws card by card: Mulle draws the round's whole 104-card shuffle (and the first
  dealer when none is fixed); Cribbage draws the cut for deal and only the pack positions a deal uses;
* **the information-state log**: what a deal shows each seat (its own hand; the Mulle table; a Cribbage discard is
  private to the discarder) and which public events a move reveals;
* **the redeal** for :meth:`Table.resample <kortbord.research.table.Table.resample>`: this round's shuffle with the
  cards hidden from a seat dealt again by the game's one sampler (``kortbord.mulle.view.sample_hidden``,
  ``kortbord.cribbage.view.Sampler``: what ``SPEC.sample`` uses), written back as the pack the round was dealt
  from so the round can be replayed through the engine.  Mulle adds what the other seats' moves prove
  (:meth:`MulleResearch.known`, the capture duty and the reserve rule probed on the public position): facts only
  a player who watched the whole deal has, so they stay here rather than in the engine's view.

Adding a game to the research adapters takes one more object here (and its action encoding and tensors).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

import numpy as np

from kortbord import cribbage, mulle
from kortbord.cards import Card
from kortbord.cribbage import moves as cm
from kortbord.cribbage.view import Sampler
from kortbord.errors import IllegalMoveError, InvalidPositionError
from kortbord.mulle.view import sample_hidden
from kortbord.research import encoding as enc

if TYPE_CHECKING:
    from kortbord.research.table import Setup, Table

__all__ = ["CRIBBAGE", "MULLE", "RESEARCH", "CribbageResearch", "Entry", "GameResearch", "MulleResearch"]

#: A log entry: a public text (str) or per-seat texts (tuple; None = nothing for that seat).
Entry = str | tuple[str | None, ...]
#: A redeal: the round's shuffle with the hidden cards dealt again, and the round's decisions to replay.
Redeal = tuple[Any, tuple[tuple[int, Any, int], ...]]


def _hands_entry(setup: Setup, state: Any, label: str) -> Entry:
    """Each seat's own hand (from that seat's view only), private to it."""
    game = setup.game
    return tuple(f"{label}: hand {' '.join(map(str, game.view(state, s).hand))}" for s in range(setup.players))


class GameResearch:
    """The research pieces of one game (base class; see the module docstring)."""

    name: str = ""
    #: Packs of 52 cards in the game.
    copies: int = 1

    def __deepcopy__(self, memo: Any) -> GameResearch:
        return self

    # -- action ids ------------------------------------------------------------------------------------
    def num_actions(self, setup: Setup) -> int:
        """The size of the action-id space."""
        raise NotImplementedError

    def legal_actions(self, setup: Setup, state: Any) -> list[int]:
        """The action ids of the seat to act, ascending."""
        raise NotImplementedError

    def move_of(self, setup: Setup, state: Any, action: int) -> Any:
        """The engine move of action id ``action``.  Raises IllegalMoveError: not a legal action here."""
        raise NotImplementedError

    def action_of(self, setup: Setup, state: Any, move: Any) -> int:
        """The action id of the legal engine move ``move``."""
        raise NotImplementedError

    def action_text(self, setup: Setup, state: Any, action: int) -> str:
        """A decision's action id in move notation."""
        raise NotImplementedError

    # -- chance ----------------------------------------------------------------------------------------
    def needs_dealer(self, state: Any) -> bool:
        """OpenSpiel draws a first dealer (outcomes 0..players-1) before the cards."""
        return False

    def cards_needed(self, setup: Setup, state: Any) -> int:
        """Cards OpenSpiel draws, one chance node each, for the chance move due in ``state``."""
        raise NotImplementedError

    def chance_move(self, setup: Setup, state: Any, cards: tuple[Card, ...], dealer: int | None) -> Any:
        """The engine's chance move of the drawn ``cards`` (and drawn ``dealer``)."""
        raise NotImplementedError

    def is_deal(self, move: Any) -> bool:
        """``move`` is the shuffle that starts a round (the unit :meth:`redeal` rebuilds)."""
        raise NotImplementedError

    # -- the log and the end ---------------------------------------------------------------------------
    def deal_entries(self, setup: Setup, state: Any) -> list[Entry]:
        """What the shuffle just applied shows: the public deal line and each seat's own hand."""
        raise NotImplementedError

    def decision(self, setup: Setup, before: Any, seat: int, move: Any) -> tuple[Any, int, list[Entry]]:
        """``seat`` plays ``move``: ``(state after, context for the round log, log entries)``.  Raises the
        engine's IllegalMoveError."""
        raise NotImplementedError

    def truncated(self, setup: Setup, state: Any) -> bool:
        """The adapters cut the game short here (a draw)."""
        return False

    def lower_is_better(self, result: dict[str, Any]) -> bool:
        """``result`` (the engine's ``result(state).to_json()``) ranks fewer points higher."""
        raise NotImplementedError

    # -- tensors ---------------------------------------------------------------------------------------
    def layout(self, perfect_recall: bool) -> enc.Layout:
        """The information-state (perfect recall) or observation tensor layout."""
        raise NotImplementedError

    def tensor(
        self, table: Table, seat: int, *, perfect_recall: bool, private: bool = True, out: np.ndarray | None = None
    ) -> np.ndarray:
        """``seat``'s tensor of ``table`` (built from ``view(state, seat)`` and public plays only)."""
        raise NotImplementedError

    # -- resampling ------------------------------------------------------------------------------------
    def redeal(self, table: Table, seat: int, rng: random.Random) -> Redeal | None:
        """This round's shuffle with the cards hidden from ``seat`` dealt again (None: try again)."""
        raise NotImplementedError


# ----------------------------------------------------------------------------------------------------- mulle
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


class MulleResearch(GameResearch):
    """Mulle's research pieces (use :data:`MULLE`)."""

    name = "mulle"
    copies = 2

    def __reduce__(self) -> str:
        return "MULLE"

    def num_actions(self, setup: Setup) -> int:
        return setup.max_actions

    def legal_moves(self, setup: Setup, state: Any) -> list[Any]:
        """The canonical legal moves (``setup.game.legal_moves``), checked against the action space.

        Raises:
            ActionSpaceOverflowError: more legal moves than ``max_actions`` (the message names the parameter).
        """
        moves = setup.game.legal_moves(state)
        if len(moves) > setup.max_actions:
            raise enc.ActionSpaceOverflowError(
                f"this Mulle position has {len(moves)} legal moves but the action space holds {setup.max_actions}: "
                f"create the game with a larger max_actions parameter (e.g. {2 * len(moves)})"
            )
        return moves

    def legal_actions(self, setup: Setup, state: Any) -> list[int]:
        return list(range(len(self.legal_moves(setup, state))))

    def move_of(self, setup: Setup, state: Any, action: int) -> Any:
        moves = self.legal_moves(setup, state)
        if not 0 <= action < len(moves):
            raise IllegalMoveError(f"action {action} is not legal here: the legal actions are 0..{len(moves) - 1}")
        return moves[action]

    def action_of(self, setup: Setup, state: Any, move: Any) -> int:
        return self.legal_moves(setup, state).index(move)

    def action_text(self, setup: Setup, state: Any, action: int) -> str:
        moves = setup.game.legal_moves(state)
        return str(moves[action]) if 0 <= action < len(moves) else f"move #{action}"

    def needs_dealer(self, state: Any) -> bool:
        return state.dealer is None

    def cards_needed(self, setup: Setup, state: Any) -> int:
        return 104

    def chance_move(self, setup: Setup, state: Any, cards: tuple[Card, ...], dealer: int | None) -> Any:
        return mulle.Shuffle(cards, dealer)

    def is_deal(self, move: Any) -> bool:
        return isinstance(move, mulle.Shuffle)

    def deal_entries(self, setup: Setup, state: Any) -> list[Entry]:
        return [
            f"round {state.round_no}: dealer {setup.game.seat_name(state.dealer)}, table "
            + " ".join(map(str, state.table)),
            _hands_entry(setup, state, "dealt"),
        ]

    def decision(self, setup: Setup, before: Any, seat: int, move: Any) -> tuple[Any, int, list[Entry]]:
        after = setup.game.apply(before, move)
        entries: list[Entry] = [f"{setup.game.seat_name(seat)} {move}"]
        if after.phase == "play" and after.deal_no != before.deal_no and after.round_no == before.round_no:
            entries.append(_hands_entry(setup, after, f"deal {after.deal_no}"))
        return after, before.deal_no, entries

    def truncated(self, setup: Setup, state: Any) -> bool:
        """A new round would start after ``max_rounds`` rounds."""
        return bool(setup.game.is_chance(state) and state.round_no >= setup.max_rounds)

    def lower_is_better(self, result: dict[str, Any]) -> bool:
        return bool(result["lowest_wins"])  # Kryp-mulle (spec §3, A20)

    def layout(self, perfect_recall: bool) -> enc.Layout:
        return enc.mulle_info_layout() if perfect_recall else enc.mulle_obs_layout()

    def tensor(
        self, table: Table, seat: int, *, perfect_recall: bool, private: bool = True, out: np.ndarray | None = None
    ) -> np.ndarray:
        view = table.view(seat)
        hand_size = table.setup.rules.hand_size
        if not perfect_recall:
            return enc.mulle_obs_tensor(view, hand_size, private=private, out=out)
        played: list[list[Card]] = [[] for _ in range(table.setup.players)]
        for s, move, _ in table.round_log:
            played[s].append(move.card)
        return enc.mulle_info_tensor(view, hand_size, played, private=private, out=out)

    def redeal(self, table: Table, seat: int, rng: random.Random) -> Redeal | None:
        """This round's shuffle with the cards hidden from ``seat`` redealt, and the round's decisions to replay.

        The other hands and the stock are drawn by the engine's one sampler (``mulle.view.sample_hidden`` of
        ``seat``'s view) within what the other seats' moves in this deal prove (:meth:`known`); the deck puts
        back what ``seat`` has seen (its own cards, the face-up table, every card played in this round) where it
        was dealt, the sampled hands in their seats' places of this deal, and the sampled stock in the later
        deals.
        """
        st = table.state
        assert table.round_chance is not None
        deck = table.round_chance.deck
        setup = table.setup
        players = setup.players
        slots = mulle_deal_slots(setup.rules, players, st.dealer)
        current = st.deal_no
        hands, stock = sample_hidden(setup.game.view(st, seat), rng, self.known(table, seat))
        dealt: dict[tuple[int, int], list[Card]] = {}
        for s, move, deal_no in table.round_log:
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
        return mulle.Shuffle(deck_out, table.round_chance.dealer), table.round_log

    def known(self, table: Table, seat: int) -> dict[int, tuple[frozenset[Card] | None, list[frozenset[Card]]]]:
        """What the other seats' moves in the current deal prove about the cards they still hold (cached on the
        table): per seat ``(allowed, required)`` -- every held card is in ``allowed`` (None: any), and for each set
        in ``required`` at least one held card is in it (``sample_hidden``'s ``known``).

        Each move of a seat is probed with the engine on the public position before it (``load_position`` with
        the mover holding the played card, the cards it played later in the deal and one probed card): a trail
        that becomes illegal with a card (the capture duty, rules spec §2.6) excludes that card; a move that is
        illegal with the known cards alone but legal with one more (the reserve rule, §2.6 A28) requires one of
        those cards.  Moves the probe cannot settle add nothing; the final replay checks everything.  The engine's
        own view knows only the reserve rule's current facts (a build's owner holds its value); the history of a
        deal is research's, so these probes live here.
        """
        hit = table._cache.get(("constraints", seat))
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        st = table.state
        current = st.deal_no
        assert table.round_base is not None
        game = table.setup.game
        probe = game.apply(table.round_base.state, table.round_chance)
        later: dict[int, list[Card]] = {}
        moves: list[tuple[int, Any, Any, int]] = []
        for s, move, deal_no in table.round_log:
            if deal_no == current and s != seat:
                later.setdefault(s, []).append(move.card)
                moves.append((s, probe, move, len(later[s]) - 1))
            probe = game.apply(probe, move)
        candidates = sorted(set(table.setup.deck))
        out: dict[int, tuple[frozenset[Card] | None, list[frozenset[Card]]]] = {}
        for s, before, move, index in moves:
            held = later[s][index:]
            pos = mulle.dump_position(before, hidden=False)
            name = pos["to_move"]
            pos["last_play"] = False

            def legal_with(cards: list[Card], pos: dict[str, Any] = pos, name: str = name, move: Any = move) -> bool:
                pos["hands"] = {name: [str(c) for c in cards]}
                try:
                    return move in game.legal_moves(mulle.load_position(pos))
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
                    base.append(next((c for c in sorted(r) if possible([*base, c])), min(r)))
            if legal_with(base):
                if isinstance(move, mulle.Trail):
                    ok = frozenset(c for c in candidates if c in base or legal_with([*base, c]))
                    allowed = ok if allowed is None else allowed & ok
            else:
                need = frozenset(c for c in candidates if legal_with([*base, c]))
                if need:
                    required = [*required, need]
            out[s] = (allowed, required)
        table._cache[("constraints", seat)] = out
        return out


# -------------------------------------------------------------------------------------------------- cribbage
class CribbageResearch(GameResearch):
    """Cribbage's research pieces (use :data:`CRIBBAGE`)."""

    name = "cribbage"
    copies = 1

    def __reduce__(self) -> str:
        return "CRIBBAGE"

    def num_actions(self, setup: Setup) -> int:
        return enc.CRIBBAGE_NUM_ACTIONS

    def legal_actions(self, setup: Setup, state: Any) -> list[int]:
        return sorted(enc.cribbage_action(m) for m in setup.game.legal_moves(state))

    def move_of(self, setup: Setup, state: Any, action: int) -> Any:
        move = enc.cribbage_move(action)
        if move not in setup.game.legal_moves(state):
            raise IllegalMoveError(f"action {action} ({move}) is not legal here")
        return move

    def action_of(self, setup: Setup, state: Any, move: Any) -> int:
        return enc.cribbage_action(move)

    def action_text(self, setup: Setup, state: Any, action: int) -> str:
        return str(enc.cribbage_move(action))

    def cards_used(self, rules: cribbage.Rules) -> int:
        """Deck positions a deal ever reveals or deals: the hands, the 3-hand crib card and the starter."""
        return rules.players * rules.cards_dealt + rules.crib_from_pack + 1

    def cards_needed(self, setup: Setup, state: Any) -> int:
        return setup.players if state.phase_name == "cut" else self.cards_used(setup.rules)

    def chance_move(self, setup: Setup, state: Any, cards: tuple[Card, ...], dealer: int | None) -> Any:
        if state.phase_name == "cut":
            return cribbage.CutForDeal(cards)
        drawn = set(cards)  # one pack: the rest of it is never seen and stays in card order
        return cribbage.Shuffle(cards + tuple(sorted(c for c in setup.deck if c not in drawn)))

    def is_deal(self, move: Any) -> bool:
        return isinstance(move, cm.Shuffle)

    def deal_entries(self, setup: Setup, state: Any) -> list[Entry]:
        return [
            f"deal {state.deal_number}: dealer {setup.game.seat_name(state.dealer)}",
            _hands_entry(setup, state, "dealt"),
        ]

    def decision(self, setup: Setup, before: Any, seat: int, move: Any) -> tuple[Any, int, list[Entry]]:
        game = setup.game
        name = game.seat_name(seat)
        phase = before.phase_name
        # moves that reveal cards through public events: the last discard (the starter), the end of the play
        # (the automatic show) and every Muggins show step
        reveals = phase == "show" or (phase == "discard" and seat == before.dealer)
        events: Sequence[Any] = ()
        after = None
        if not reveals:
            after = game.apply(before, move)
            reveals = phase == "play" and after.phase_name != "play"
        if reveals:
            after, events = game.step(before, move)
        entries: list[Entry] = []
        if isinstance(move, cm.Discard):  # private to the discarder
            entries.append(
                tuple(
                    f"{name} {move}" if s == seat else f"{name} discards {len(move.cards)}"
                    for s in range(setup.players)
                )
            )
        else:
            entries.append(f"{name} {move}")
        entries.extend(str(e) for e in events if e.kind in ("starter", "show", "reveal", "settle"))
        return after, before.count, entries

    def lower_is_better(self, result: dict[str, Any]) -> bool:
        return bool(result["lowball"])  # Lowball (spec §2a)

    def layout(self, perfect_recall: bool) -> enc.Layout:
        return enc.cribbage_info_layout() if perfect_recall else enc.cribbage_obs_layout()

    def tensor(
        self, table: Table, seat: int, *, perfect_recall: bool, private: bool = True, out: np.ndarray | None = None
    ) -> np.ndarray:
        view = table.view(seat)
        if perfect_recall:
            return enc.cribbage_info_tensor(view, private=private, out=out)
        return enc.cribbage_obs_tensor(view, private=private, out=out)

    def redeal(self, table: Table, seat: int, rng: random.Random) -> Redeal | None:
        """This deal's shuffle and decisions with the cards hidden from ``seat`` dealt again: the state comes from
        the one sampler of unseen cards (``kortbord.cribbage.view.Sampler``, what ``cribbage.SPEC.sample`` uses;
        every go honoured), written back as the pack it was dealt from.  ``seat``'s own positions of the pack stay
        as they were."""
        rules = table.setup.rules
        n, k, d, extra = rules.players, rules.cards_dealt, rules.discards, rules.crib_from_pack
        st = table.state
        dealer = st.dealer
        assert table.round_chance is not None
        deck = table.round_chance.deck
        dealt = n * k
        own = next((m.cards for s, m, _ in table.round_log if s == seat and isinstance(m, cm.Discard)), ())
        # the engine keeps no discards at the show: the seat's own stay in the crib all the same
        sampled = Sampler(table.setup.game.view(st, seat), laid_away=own).draw(rng)
        hands, discards, kept, crib = sampled._hands, sampled._discards, sampled._kept, sampled._crib
        laid = [s for s, m, _ in table.round_log if isinstance(m, cm.Discard)]
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
            for s, m, ctx in table.round_log
        )
        return cm.Shuffle(tuple(cast(Card, c) for c in new_deck)), log


#: Mulle's research pieces.
MULLE: Final = MulleResearch()
#: Cribbage's research pieces.
CRIBBAGE: Final = CribbageResearch()
#: The research pieces of every game of ``kortbord.core.GAMES``, by name.
RESEARCH: Final[dict[str, GameResearch]] = {"mulle": MULLE, "cribbage": CRIBBAGE}
