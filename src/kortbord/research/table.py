"""The research driver shared by the OpenSpiel, PettingZoo and Gymnasium adapters: one game in progress, its
per-player information log, and the information-set resampler.

Every rule comes from the game's registry entry (``kortbord.core.get(name)``, a :class:`kortbord.contract.GameSpec`,
held as ``setup.game``); what is about research only -- action ids, the chance model OpenSpiel draws card by card,
the log, tensors and the round redeal -- is the game's :class:`~kortbord.research.games.GameResearch`
(``setup.research``).  A :class:`Setup` is the game with fixed options; a :class:`Table` is an immutable value
wrapping an engine state with what the adapters need on top:

* ``history`` -- a persistent (shared-tail) list of log entries from which each player's information-state string
  is read: public entries (a move in notation, a cut, a starter, a show) and private ones (a player's own hand
  when dealt, his own discards).  Nothing hidden from a player is ever in his entries: cards come only from
  ``view(state, seat)`` of that seat, from public move notation and from the engine's public events.
* the current round's chance move and decisions, so :meth:`Table.resample` can rebuild the round with the hidden
  cards redealt and replay it through the engine (which re-checks every move: the sample is consistent with
  every inference the rules allow, e.g. a Mulle trail proves the player held no capturing card).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from kortbord.cards import Card, full_deck
from kortbord.contract import GameSpec
from kortbord.errors import IllegalMoveError
from kortbord.research.games import Entry, GameResearch

__all__ = ["ResampleError", "Setup", "Table", "utilities"]

#: How many redeals :meth:`Table.resample` tries before giving up (each is checked by replaying the round).
RESAMPLE_TRIES: Final = 2000


class ResampleError(RuntimeError):
    """No hidden-card assignment consistent with the public history was found in :data:`RESAMPLE_TRIES` tries."""


#: Entries per pickled piece of a table's history (see :meth:`_Node.__reduce__`).
_HISTORY_CHUNK: Final = 256


class _Node:
    """One entry of a persistent singly linked history (clones share their common past)."""

    __slots__ = ("entry", "length", "parent")

    def __init__(self, entry: Entry, parent: _Node | None) -> None:
        self.entry = entry
        self.parent = parent
        self.length: int = 1 if parent is None else parent.length + 1

    def __reduce__(self) -> tuple[Any, tuple[_Node | None, tuple[Entry, ...]]]:
        """Pickle as (the node ``_HISTORY_CHUNK`` entries back, at a length that is a multiple of it; the entries
        after it).  The default pickling of the linked list recurses once per entry and overflows Python's
        recursion limit on a long game (a 121-point Cribbage game, a Mulle game to 200); in pieces it recurses once
        per piece, and every table of one pickle (a state and the tables it keeps of earlier rounds) shares the
        pieces of its common past."""
        base = (self.length - 1) // _HISTORY_CHUNK * _HISTORY_CHUNK
        entries = []
        cur: _Node | None = self
        while cur is not None and cur.length > base:
            entries.append(cur.entry)
            cur = cur.parent
        entries.reverse()
        return _rebuild_history, (cur, tuple(entries))


def _rebuild_history(parent: _Node | None, entries: tuple[Entry, ...]) -> _Node:
    """The history node of :meth:`_Node.__reduce__`: ``entries`` appended to ``parent`` in order."""
    node = parent
    for entry in entries:
        node = _Node(entry, node)
    assert node is not None
    return node


def _entries(node: _Node | None) -> list[Entry]:
    out: list[Entry] = []
    while node is not None:
        out.append(node.entry)
        node = node.parent
    out.reverse()
    return out


def public_entries(table: Table) -> list[str]:
    """The public entries of ``table``'s log, oldest first (what a spectator has seen)."""
    return [e for e in _entries(table.history) if isinstance(e, str)]


# --------------------------------------------------------------------------------------------------------- setup
@dataclass(frozen=True, eq=True)
class Setup:
    """One game with fixed options, as the research adapters play it (built by
    :func:`kortbord.research.params.make_setup` from game parameters).

    Attributes:
        game: the game's registry entry (``kortbord.core.get(name)``): every rule is asked of it.
        research: the game's research pieces (:data:`kortbord.research.games.RESEARCH`).
        rules: the engine's ``Rules``.
        players: the seats.  teams: Mulle teams (Cribbage: partners exactly with 4 players, in ``rules``).
        dealer: the first dealer, or None (Mulle: drawn by chance; Cribbage: the cut for deal).
        max_actions: Mulle: the size of the action-id space (:mod:`kortbord.research.encoding`).
        max_rounds: Mulle: a game still running after that many rounds ends as a draw.
    """

    game: GameSpec
    research: GameResearch
    rules: Any
    players: int = 2
    teams: bool = False
    dealer: int | None = None
    max_actions: int = 0
    max_rounds: int = 100

    def __post_init__(self) -> None:
        self.new_state()  # validates the options, the player count and the dealer seat (InvalidRulesError, ...)

    def __deepcopy__(self, memo: Any) -> Setup:
        return self  # fixed options: shared by every state of a game

    @property
    def name(self) -> str:
        """The game's name (``"mulle"``, ``"cribbage"``)."""
        return self.game.name

    @property
    def num_actions(self) -> int:
        """The size of the action-id space."""
        return self.research.num_actions(self)

    @property
    def deck(self) -> tuple[Card, ...]:
        """Every card of the game in canonical order (52 or 104)."""
        return tuple(full_deck(self.research.copies))

    def new_state(self) -> Any:
        """The engine state before the first chance step (``game.new_game``)."""
        return self.game.new_game(self.rules, players=self.players, teams=self.teams, dealer=self.dealer)

    def legal_actions(self, state: Any) -> list[int]:
        """The action ids of the seat to act in ``state``, ascending."""
        return self.research.legal_actions(self, state)

    def move_of(self, state: Any, action: int) -> Any:
        """The engine move of action id ``action`` in ``state``.  Raises IllegalMoveError: not legal here."""
        return self.research.move_of(self, state, action)

    def action_of(self, state: Any, move: Any) -> int:
        """The action id of the legal engine move ``move`` in ``state``."""
        return self.research.action_of(self, state, move)


# --------------------------------------------------------------------------------------------------------- table
class Table:
    """One game in progress for the research adapters (an immutable value: every method returns a new Table).

    Attributes:
        setup: the game and its options.
        state: the engine state.
        history: the newest log entry (a shared persistent list), or None.
        round_base: the Table just before this round's (Cribbage: this deal's) shuffle, or None.
        round_chance: that shuffle, or None.
        round_log: this round's decisions ``(seat, move, context)`` (context: Mulle deal number, Cribbage count).
        steps: chance moves and decisions applied so far.
    """

    __slots__ = ("_cache", "history", "round_base", "round_chance", "round_log", "setup", "state", "steps")

    def __init__(self, setup: Setup, state: Any | None = None) -> None:
        self.setup = setup
        self.state = setup.new_state() if state is None else state
        self.history: _Node | None = None
        self.round_base: Table | None = None
        self.round_chance: Any = None
        self.round_log: tuple[tuple[int, Any, int], ...] = ()
        self.steps = 0
        self._cache: dict[Any, Any] = {}

    def _copy(self) -> Table:
        new = Table.__new__(Table)
        new.setup = self.setup
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
        return self.setup.game.to_act(self.state)

    def is_chance(self) -> bool:
        """The next step is chance (a cut or a shuffle)."""
        return self.setup.game.is_chance(self.state)

    def is_over(self) -> bool:
        """The game has ended, or was cut short by the adapter's round limit (:meth:`truncated`)."""
        return self.setup.game.is_over(self.state) or self.truncated()

    def truncated(self) -> bool:
        """Mulle only: a new round would start after ``setup.max_rounds`` rounds; the adapters end the game there
        (a draw: every utility 0)."""
        return self.setup.research.truncated(self.setup, self.state)

    def legal_actions(self) -> list[int]:
        """Action ids of the seat to act, ascending (empty at chance nodes and at the end)."""
        hit = self._cache.get("legal")
        if hit is None:
            hit = self._cache["legal"] = [] if self.to_act() is None else self.setup.legal_actions(self.state)
        return list(hit)

    def view(self, seat: int) -> Any:
        """``seat``'s view of the state (``game.view``)."""
        return self.setup.game.view(self.state, seat)

    def info_string(self, seat: int) -> str:
        """Everything ``seat`` has observed, oldest first, one entry a line (perfect recall)."""
        key = ("info", seat)
        hit = self._cache.get(key)
        if hit is None:
            lines = [f"seat {self.setup.game.seat_name(seat)}"]
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
        return self.apply_move(self.setup.move_of(self.state, action))

    def apply_move(self, move: Any) -> Table:
        """The Table after an engine move (a decision of the seat to act, or the chance move at a chance node).

        Raises:
            IllegalMoveError, NotYourTurnError: from the engine (nothing changes).
        """
        setup = self.setup
        game, research = setup.game, setup.research
        before = self.state
        new = self._copy()
        new.steps = self.steps + 1
        if game.is_chance(before):
            new.state = game.apply(before, move)
            if research.is_deal(move):
                new.round_base = self
                new.round_chance = move
                new.round_log = ()
                for entry in research.deal_entries(setup, new.state):
                    new._log(entry)
            else:  # Cribbage cut for deal: public
                new._log(f"{move}")
            return new
        seat = game.to_act(before)
        assert seat is not None
        new.state, context, entries = research.decision(setup, before, seat, move)
        new.round_log = (*self.round_log, (seat, move, context))
        for entry in entries:
            new._log(entry)
        return new

    def _log(self, entry: Entry) -> None:
        self.history = _Node(entry, self.history)

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
            sample = self.setup.research.redeal(self, seat, rng)
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
        raise ResampleError(
            f"no deal consistent with {self.setup.game.seat_name(seat)}'s information found in {RESAMPLE_TRIES} tries"
        )

    # -- results ----------------------------------------------------------------------------------------------
    def utilities(self, mode: str) -> list[float]:
        """Per seat, at the end of the game (zeros before): see :func:`utilities`."""
        if self.setup.game.is_over(self.state):
            return utilities(self.setup, self.state, mode)
        return [0.0] * self.setup.players


def utilities(setup: Setup, state: Any, mode: str) -> list[float]:
    """The end-of-game payoff per seat; zero-sum in both modes (partners get their side's value).

    ``"win_loss"``: with S sides and w winning sides, a winning side gets ``(1 - w/S) * S/(S-1)`` and every other
    side ``-(w/S) * S/(S-1)`` -- so +1/-1 with two sides, and +1 / -1/(S-1) each with one winner of S; a draw
    (no winner) is 0 for all.  ``"score_diff"``: a side's final points minus the mean of all sides' points (Kryp
    Mulle and Lowball Cribbage negate it: fewer points are better).  Sides and winners are the game's
    (``game.sides``, ``game.side_of``, ``game.result(state).to_json()``).

    Raises:
        ValueError: an unknown ``mode``.  IllegalMoveError: the game is not over.
    """
    game = setup.game
    sides = game.sides(state)
    result = game.result(state).to_json()
    winners = set(result["winners"])
    points = list(result["scores"])
    if mode == "win_loss":
        w = len(winners)
        scale = sides / (sides - 1)
        per_side = [((1.0 if s in winners else 0.0) - w / sides) * scale for s in range(sides)]
    elif mode == "score_diff":
        mean = sum(points) / sides
        sign = -1.0 if setup.research.lower_is_better(result) else 1.0
        per_side = [sign * (p - mean) for p in points]
    else:
        raise ValueError(f"utility must be 'win_loss' or 'score_diff', got {mode!r}")
    return [per_side[game.side_of(state, seat)] for seat in range(setup.players)]
