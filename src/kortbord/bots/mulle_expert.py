"""The expert Mulle computer player, and the search variants measured on the way to it (issue #14 item 3).

The registry's ``expert`` level is :func:`make_expert`: strong's search with its candidates *raced* (``race``,
:meth:`kortbord.bots.mulle_strong.StrongBot._race`) over at most :data:`LEVEL_ITERATIONS` worlds, without the
trail inference below.  The rest of this module is :class:`ExpertBot`'s options, most of them experiments that
gained nothing shown (docs/bots.md, "The Mulle expert").

:class:`ExpertBot` is :class:`kortbord.bots.mulle_strong.StrongBot` (determinised search over sampled worlds,
successive halving, fast playouts on :mod:`kortbord.mulle.fast`) with one more piece of card reading and options
for the experiments of issue #14 item 3 (``bench/mulle_expert.py`` measures each on duplicate rounds):

* **Trail inference** (``infer``, default on; two players).  The capture duty (rules spec §2.6, rule A6) forbids
  a trail while the mover holds a card that captures (under ``strict`` also builds).  So when the opponent trails
  a card, every card it still holds in that deal is a card that could *not* have captured on the table it faced.
  The bot remembers the public position after each of its own moves (it sees only its views and its moves: the
  position after its move is public, the hidden cards of the remembered state are a sample and are never read);
  at its next decision, if the opponent's move was a trail (the piles and builds unchanged, one more loose card),
  each unseen card is probed with the engine on that position -- the opponent holding the trailed card and the
  probed card: is the trail still legal? -- and the cards that would have made it illegal are excluded from the
  opponent's hand in every sampled world for the rest of the deal (``sample_state``'s ``known``; the sampler
  drops the facts when no deal meets them).  Any rule variant is handled by the engine's own legality, so
  ``capture_duty="none"`` proves nothing and ``"card"`` nothing about the other cards.  With three or four
  players the moves between two of the bot's decisions cannot be told apart, and nothing is inferred.
* ``horizon``: ``"deal"`` (strong's: the playout stops at the end of the deal, or the next one near its end) or
  ``"round"`` (every playout runs to the round's end: the later deals, the last capture's sweep).
* ``epsilon``: the playout policy's random-move probability (strong: 0.1); ``batch``: worlds between two
  successive-halving cuts (strong: 4; more keeps more candidates alive longer, at more playouts a decision).

Work, not time: ``iterations`` worlds a decision (default :data:`ITERATIONS`).  A decision depends only on the
bot's views so far, its own moves, the legal moves and ``rng`` (the probes draw nothing), so a game replayed from
its seeds gives the same decisions on any machine.  A bot made afresh for a decision (no memory of the deal)
plays as the same search without the trail facts.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any, Final

from kortbord.bots.mulle_simple import _check_view
from kortbord.bots.mulle_simple import _Context as _GreedyContext
from kortbord.bots.mulle_strong import (
    StrongBot,
    _code_value,
    _FastBuild,
    _FastPosition,
    _rollout_code,
    _side_points,
    _Tables,
    _tables,
    fast_run,
)
from kortbord.cards import Card
from kortbord.mulle import engine
from kortbord.mulle import fast as _fast
from kortbord.mulle.movegen import BUILD, CAPTURE, LAYON, PACKAGE, TRAIL, MoveCode, encode, legal_codes
from kortbord.mulle.moves import PlayerMove, Trail
from kortbord.mulle.rules import Rules
from kortbord.mulle.state import HV, SCORING, TV, State
from kortbord.mulle.transitions import apply_code
from kortbord.mulle.view import View, sample_state, unseen_cards
from kortbord.mulle.view import view as seat_view

__all__ = ["HORIZONS", "ITERATIONS", "LEVEL_EPSILON", "LEVEL_ITERATIONS", "LEVEL_RACE", "ExpertBot", "make_expert"]

#: Worlds sampled per decision by an ``ExpertBot`` made without ``iterations`` (the experiments' default: strong's).
ITERATIONS: Final = 150
#: The registry's ``expert`` level (:func:`make_expert`): at most this many worlds a decision ...
LEVEL_ITERATIONS: Final = 200
#: ... raced (``race``): a candidate is dropped once the leader beats it by this many standard errors ...
LEVEL_RACE: Final = 2.5
#: ... its playouts with this share of random moves (strong's 0.1): +2.93 (+1.07 .. +4.79) points a round over the
#: same level at 0.1, 150 duplicate single-round blocks (docs/bots.md, "The Mulle expert").
LEVEL_EPSILON: Final = 0.2
#: The playout horizons (``horizon`` option).
HORIZONS: Final = ("deal", "round")
#: How the next seat's immediate reply to a candidate is chosen (``reply`` option): by the playout policy with its
#: random moves (strong's), by greedy's evaluator on that seat's View, or by the policy's best move (no random move).
REPLIES: Final = ("none", "greedy", "policy")


class ExpertBot(StrongBot):
    """Determinised search with trail inference (level ``"expert"``); see the module docstring.

    Args:
        rules: the game's rules (None: the ``standard`` profile).
        iterations: worlds sampled per decision (>= 1; None: :data:`ITERATIONS`).
        time_budget_ms: an optional wall-clock cap per decision, milliseconds (None: none; see StrongBot).
        infer: exclude from the opponent's sampled hand the cards its trails prove it lacks (two players).
        horizon: ``"deal"`` or ``"round"`` (:data:`HORIZONS`): how far a playout runs.
        epsilon: the playout policy's random-move probability, 0..1 (None: strong's 0.1).
        batch: worlds between two successive-halving cuts (None: strong's 4).
        peek: the playout policy reads the next seat's hand in the sampled world (:func:`_peek_value`).
        prior: weight of the greedy evaluation added to the mean playout outcome when candidates are ranked.
        leaf: weight of what a playout stopped at a deal's end leaves (:meth:`_outcome`); 0 is strong's value.
        (peek, prior, leaf: experiments of 2026-12-04 evening, no gain shown; bench/results/mulle-expert-*.md.)
        exact: when the hands hold at most this many cards after a candidate, the rest of the deal in each world is
            searched exactly (alpha-beta, :meth:`_exact`) instead of played out; 0 (the default) never.
        reply: ``"none"`` (strong's), ``"greedy"`` or ``"policy"`` (:data:`REPLIES`): the next seat's immediate
            answer to a candidate, when it is an opponent, chosen by greedy's evaluator on its View or by the
            playout policy's best move before the playout continues.
        (exact, reply: experiments of 2026-12-04 night, no gain shown; bench/results/mulle-expert-*.md.)
        reply_depth: with ``reply`` other than ``"none"``, how many of the opponents' turns, from the candidate on,
            are chosen by the ``reply`` rule (an int >= 1; 1, the default, is the immediate reply only).  The
            deciding side's own turns in between are played by the playout policy (strong's, with its random
            moves); the count stops at the playout's horizon (the end of the deal, or of the next one near a
            deal's end: :meth:`_horizon`), and the rest of the playout is strong's.  Two players: the opponent is
            the next seat, so ``reply_depth=n`` models the opponent as greedy for its next ``n`` moves; a large
            ``n`` (e.g. 99) models it as greedy to the horizon.  Rules: the engine's (``engine.legal_moves``).
            (Experiment of 2026-12-05 against greedy: bench/results/mulle-expert-2026-12-05.md.)
        race: None (strong's halving) or a positive finite number of standard errors: the candidates are raced
            (:class:`kortbord.bots.mulle_strong.StrongBot`'s ``race``); the ``expert`` level uses
            :data:`LEVEL_RACE` (:func:`make_expert`).
    Attributes:
        facts: per opponent seat, the cards it may still hold in this deal (None: no fact yet), from its trails.
        trails_read: opponent trails read so far; excluded: cards excluded by them (summed over trails).
        exact_searches, exact_nodes, exact_max: the ``exact`` searches run, their nodes summed, the largest's.
    Raises:
        ValueError: a non-positive cap or iteration count, an unknown horizon or reply, an epsilon outside 0..1,
            a negative ``exact``, a ``reply_depth`` below 1, a ``race`` that is not a positive finite number.
    """

    name = "expert"

    def __init__(
        self,
        rules: Rules | None,
        *,
        iterations: int | None = None,
        time_budget_ms: float | None = None,
        infer: bool = True,
        horizon: str = "deal",
        epsilon: float | None = None,
        batch: int | None = None,
        peek: bool = False,
        prior: float = 0.0,
        leaf: float = 0.0,
        exact: int = 0,
        reply: str = "none",
        reply_depth: int = 1,
        race: float | None = None,
    ) -> None:
        super().__init__(
            rules,
            iterations=ITERATIONS if iterations is None else iterations,
            time_budget_ms=time_budget_ms,
            race=race,
        )
        if horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {', '.join(HORIZONS)}, got {horizon!r}")
        if epsilon is not None and not 0.0 <= float(epsilon) <= 1.0:
            raise ValueError(f"epsilon must be between 0 and 1, got {epsilon!r}")
        self.infer = bool(infer)
        self.horizon = horizon
        if batch is not None and int(batch) < 1:
            raise ValueError(f"batch must be at least 1, got {batch!r}")
        if epsilon is not None:
            self.EPSILON = float(epsilon)  # type: ignore[misc]
        if batch is not None:
            self.BATCH = int(batch)  # type: ignore[misc]
        self.peek = bool(peek)
        self.PRIOR_WEIGHT = float(prior)
        self.leaf = float(leaf)
        if int(exact) < 0:
            raise ValueError(f"exact must be at least 0, got {exact!r}")
        if reply not in REPLIES:
            raise ValueError(f"reply must be one of {', '.join(REPLIES)}, got {reply!r}")
        if int(reply_depth) < 1:
            raise ValueError(f"reply_depth must be at least 1, got {reply_depth!r}")
        self.exact = int(exact)
        self.reply = reply
        self.reply_depth = int(reply_depth)
        self.replies = 0  # opponent turns chosen by the reply rule in the playouts (diagnostics)
        self.exact_searches = 0  # alpha-beta searches run (one per candidate and world)
        self.exact_nodes = 0  # their nodes, summed
        self.exact_max = 0  # the largest search's nodes
        self._nodes = 0
        self._me = 0  # the deciding seat (set by choose)
        self.facts: dict[int, frozenset[Card]] = {}
        self.trails_read = 0
        self.excluded = 0
        self._after: State | None = None  # the public position after the bot's last move (hidden cards: a sample)
        self._deal: tuple[int, int] | None = None  # (round_no, deal_no) the facts belong to

    # ------------------------------------------------------------------------------------------ the decision
    def choose(self, view: View, legal_moves: Sequence[PlayerMove], rng: random.Random) -> PlayerMove:
        """The strong search's choice (StrongBot.choose), its worlds sampled with the trail facts.

        Raises:
            TypeError: ``view`` is not a :class:`View`.
            ValueError: ``legal_moves`` is empty or holds a move not legal in ``view`` (nothing is remembered).
        """
        _check_view(view, legal_moves, rng)
        if self.infer:
            self._observe(view)
        self._me = view.seat
        move = super().choose(view, legal_moves, rng)
        if self.infer:
            self._remember(view, move)
        return move

    def _sample(self, view: View, rng: random.Random) -> State:
        """A world consistent with ``view``, the opponent's hand drawn only from the cards its trails allow."""
        if not self.facts:
            return super()._sample(view, rng)
        known = {s: (allowed, ()) for s, allowed in self.facts.items()}
        return sample_state(view, rng, known)

    def _horizon(self, deal_no: int, left: int, players: int) -> int:
        """Strong's horizon, or every deal of the round (``horizon="round"``)."""
        if self.horizon == "round":
            return 1 << 30
        return super()._horizon(deal_no, left, players)

    # ----------------------------------------------------------------------------------------- the playouts
    def _playout(self, state: State, rng: random.Random) -> State | _fast.FastState:
        """Strong's playout, or with ``reply`` the next seat's immediate answer chosen deterministically first, or
        with ``exact`` > 0 an exact alpha-beta search of the rest of the deal when its hands hold at most
        ``exact`` cards (:meth:`_exact`)."""
        if (
            (not self.exact and self.reply == "none")
            or state.phase != "play"
            or not self.fast_playouts
            or state.partial
            or not _fast.supports(state.rules)
        ):
            return super()._playout(state, rng)
        left = sum(state.hand_size(s) for s in range(state.players))
        if self.exact and left <= self.exact:
            return self._exact(_fast.from_state(state))
        horizon = self._horizon(state.deal_no, left, state.players)
        nxt = state.to_move
        if self.reply != "none" and nxt is not None and state.side(nxt) != state.side(self._me):
            state = self._replies(state, rng, horizon)
            if state.phase != "play":
                return state
        return self._run(_fast.from_state(state), rng, horizon)

    def _replies(self, state: State, rng: random.Random, horizon: int) -> State:
        """``state`` (an opponent to move) after the opponents' next :attr:`reply_depth` turns chosen by
        :meth:`_reply`, the deciding side's turns between them by the playout policy (with its random moves,
        drawn from ``rng``), stopping early at the end of deal ``horizon`` or of the round."""
        me_side = state.side(self._me)
        done = 0
        t = _tables(self.rules)
        eps = self.EPSILON
        while state.phase == "play" and state.deal_no <= horizon:
            seat = state.to_move
            assert seat is not None
            if state.side(seat) != me_side:
                if done >= self.reply_depth:
                    break
                state = self._reply(state, seat)
                done += 1
                self.replies += 1
            else:
                if done >= self.reply_depth:
                    break
                code = _rollout_code(state, legal_codes(state), rng, eps, t, state._hands[seat])
                state = apply_code(state, code)
        return state

    def _reply(self, state: State, seat: int) -> State:
        """``state`` after ``seat``'s reply: greedy's choice on its View (``reply="greedy"``) or the playout policy's
        best move (``"policy"``, no random move, ties to the first)."""
        moves = engine.legal_moves(state)
        if len(moves) == 1:
            return engine.apply(state, moves[0])
        if self.reply == "greedy":
            # GreedyBot.evaluate's value, its per-View context built once for all the moves (the same numbers)
            ctx = _GreedyContext(seat_view(state, seat), self.rules)
            sgn = -1.0 if self.rules.kryp else 1.0
            best = max(moves, key=lambda m: sgn * ctx.value(m))
        else:
            t = _tables(self.rules)
            sign = -1.0 if t.kryp else 1.0
            hand = state._hands[seat]
            best = max(moves, key=lambda m: sign * _code_value(state, encode(m), t, hand))
        return engine.apply(state, best)

    def _run(self, f: _fast.FastState, rng: random.Random, horizon: int) -> _fast.FastState:
        """Strong's fast playout loop from the fast position ``f`` to the end of deal ``horizon``."""
        eps = self.EPSILON
        t = _tables(self.rules)
        return fast_run(f, horizon, lambda pos, codes, seat: _rollout_code(pos, codes, rng, eps, t, f.hands[seat]))

    def _exact(self, f: _fast.FastState) -> _fast.FastState:
        """The end of the deal reached by exact play in this (perfect-information) world: alpha-beta over the
        deal's remaining plies, the deciding seat's side maximising and every other side minimising its side
        points minus the average of the others' at the deal's end (what :meth:`_outcome` values; in the round's
        last deal the end of the round, with the last capture's sweep).  Returns the principal variation's leaf."""
        t = _tables(self.rules)
        r = _fast._rules_of(f.rules)
        me = self._me
        my_side = me % 2 if f.teams else me
        self._nodes = 0
        _, leaf = self._ab(f, r, t, f.deal_no, my_side, -1e18, 1e18)
        self.exact_searches += 1
        self.exact_nodes += self._nodes
        self.exact_max = max(self.exact_max, self._nodes)
        return leaf

    def _ab(
        self, f: _fast.FastState, r: Any, t: _Tables, deal: int, my_side: int, alpha: float, beta: float
    ) -> tuple[float, _fast.FastState]:
        """Alpha-beta value of ``f`` (for ``my_side``) and the leaf it comes from (:meth:`_exact`)."""
        self._nodes += 1
        if f.breakdown is not None or f.deal_no != deal:
            pts = _side_points(f, t)
            own = pts[my_side]
            v = own - (sum(pts) - own) / (len(pts) - 1)
            return (-v if t.kryp else v), f
        seat = f.to_move
        assert seat is not None
        codes = list(_fast._gen(r, f))
        if len(codes) > 1:  # the policy's order: the best moves first, for the cuts
            pos = _FastPosition()
            pos.table = f.table
            pos.builds = [_FastBuild(i, b[4], b[1]) for i, b in enumerate(f.builds)]
            pos.is_last_deal = f.is_last_deal
            hand = f.hands[seat]
            sgn = -1.0 if t.kryp else 1.0
            codes.sort(key=lambda c: -sgn * _code_value(pos, c, t, hand))
        maximise = (seat % 2 if f.teams else seat) == my_side
        best_v = -1e18 if maximise else 1e18
        best_leaf = f
        for c in codes:
            g = _copy(f)
            _fast._play(g, r, c)
            v, leaf = self._ab(g, r, t, deal, my_side, alpha, beta)
            if maximise:
                if v > best_v:
                    best_v, best_leaf = v, leaf
                    alpha = max(alpha, v)
            elif v < best_v:
                best_v, best_leaf = v, leaf
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best_v, best_leaf

    def _fast_playout(self, state: State, rng: random.Random) -> _fast.FastState:
        """Strong's fast playout, or with ``peek`` the policy :func:`_peek_code` that reads the next seat's hand
        in the sampled world (what a move leaves it: a lone unit it can take, a twin it holds, a build it can
        take)."""
        if not self.peek:
            return super()._fast_playout(state, rng)
        f = _fast.from_state(state)
        eps = self.EPSILON
        t = _tables(self.rules)
        n = f.players
        return fast_run(
            f,
            self._horizon(f.deal_no, f.left, f.players),
            lambda pos, codes, seat: _peek_code(pos, codes, rng, eps, t, f.hands[seat], f.hands[(seat + 1) % n]),
        )

    def _outcome(self, after: State | _fast.FastState, t: _Tables) -> list[float]:
        """Strong's side points, plus with ``leaf`` > 0 what a playout stopped at a deal's end leaves (the next
        deal is dealt then, in the sampled world): a loose card whose twin a seat now holds is worth ``leaf``
        times its mulle to that side (the full mulle for the seat that opens the deal, half for another, which
        the opener may forestall), and a lone unit the opener can take is worth ``leaf`` times a tabbe and its
        points."""
        pts = _side_points(after, t)
        if self.leaf <= 0.0 or not isinstance(after, _fast.FastState) or after.breakdown is not None:
            return pts
        first = after.to_move
        if first is None or after.left == 0:
            return pts
        w = self.leaf
        table = after.table
        teams = after.teams
        for c in table:
            if SCORING[c]:
                continue  # a loose ace, 2♠ or 10♦ is not mulled by its twin alone (spec §2.8)
            for s, hand in enumerate(after.hands):
                if c in hand:
                    pts[s % 2 if teams else s] += w * (1.0 if s == first else 0.5) * t.mulle_hand[c]
                    break
        if len(table) + len(after.builds) == 1 and table:
            x = table[0]
            if any(HV[c] == TV[x] for c in after.hands[first]):
                pts[first % 2 if teams else first] += w * (1.0 + t.pts[x])
        return pts

    # --------------------------------------------------------------------------------------- trail inference
    def _remember(self, view: View, move: PlayerMove) -> None:
        """Keep the public position after ``move`` when the opponent plays next in the same deal (two players)."""
        self._after = None
        if view.players != 2 or view.partial or view.phase != "play":
            return
        # any sample gives the same public position after the move; its hidden cards are never read
        world = sample_state(view, random.Random(0))
        after = engine.apply(world, move)
        if after.phase == "play" and after.deal_no == view.deal_no and after.round_no == view.round_no:
            self._after = after

    def _observe(self, view: View) -> None:
        """Read the opponent's move since the bot's last one: a trail adds a fact (module docstring)."""
        deal = (view.round_no, view.deal_no)
        after, self._after = self._after, None
        # the facts hold only along an unbroken chain of this bot's moves and views in one deal of one game (a
        # bot shared by several games, or one that missed a move, starts again with none)
        if (
            after is None
            or view.players != 2
            or view.phase != "play"
            or view.partial
            or (after.round_no, after.deal_no) != deal
            or after.to_move is None
            or after.to_move == view.seat
            or after._hands[view.seat] != view.hand
            or after.scores != view.scores
        ):
            self.facts = {}
            self._deal = deal
            return
        if deal != self._deal:
            self.facts = {}
            self._deal = deal
        if view.piles != after.piles or view.builds != after.builds or len(view.table) != len(after.table) + 1:
            return  # a capture or a building move: nothing proved here
        rest = list(view.table)
        for c in after.table:
            if c not in rest:  # not this game's position: trust nothing
                self.facts = {}
                return
            rest.remove(c)
        x = rest[0]
        opp = after.to_move
        unseen = set(unseen_cards(view))
        allowed = frozenset(c for c in unseen if self._trail_legal(after, opp, x, c))
        old = self.facts.get(opp)
        self.facts[opp] = allowed if old is None else old & allowed
        self.trails_read += 1
        self.excluded += len(unseen) - len(allowed)

    @staticmethod
    def _trail_legal(after: State, seat: int, x: Card, c: Card) -> bool:
        """Is trailing ``x`` legal in ``after`` for ``seat`` holding ``x`` and ``c`` (the capture duty, spec §2.6)?"""
        hands = list(after._hands)
        hands[seat] = tuple(sorted((x, c)))
        probe = dataclasses.replace(after, _hands=tuple(hands), _cache={})
        try:
            return any(isinstance(m, Trail) and m.card == x for m in engine.legal_moves(probe))
        except Exception:  # pragma: no cover - a probe the engine cannot judge proves nothing
            return True

    @property
    def stats(self) -> dict[str, Any]:
        """``{"trails_read", "excluded", "exact_searches", "exact_nodes", "exact_max"}`` so far (diagnostics for
        the experiments)."""
        return {
            "trails_read": self.trails_read,
            "excluded": self.excluded,
            "exact_searches": self.exact_searches,
            "exact_nodes": self.exact_nodes,
            "exact_max": self.exact_max,
            "replies": self.replies,
        }


def _copy(f: _fast.FastState) -> _fast.FastState:
    """A copy of the fast position ``f`` that :func:`kortbord.mulle.fast._play` can change without changing ``f``
    (the stock and the table facts are never changed in place: shared)."""
    g = _fast.FastState()
    g.rules = f.rules
    g.players = f.players
    g.teams = f.teams
    g.dealer = f.dealer
    g.hands = [list(h) for h in f.hands]
    g.hfs = [_fast._Hand(h.held, h.held2, list(h.hvc), list(h.trails)) for h in f.hfs]
    g.table = list(f.table)
    g.tkey = f.tkey
    g.tfk = f.tfk
    g.tf = f.tf
    g.vkey = f.vkey
    g.builds = [[b[0], b[1], b[2], b[3], list(b[4])] for b in f.builds]
    g.bver = f.bver
    g.next_build = f.next_build
    g.stock = f.stock
    g.pos = f.pos
    g.to_move = f.to_move
    g.left = f.left
    g.piles = [[list(p[0]), list(p[1]), p[2]] for p in f.piles]
    g.last_capturer = f.last_capturer
    g.deal_no = f.deal_no
    g.deals_total = f.deals_total
    g.is_last_deal = f.is_last_deal
    g.round_no = f.round_no
    g.scores = f.scores
    g.round_log = f.round_log
    g.breakdown = f.breakdown
    return g


def _peek_value(state: Any, code: MoveCode, t: _Tables, hand: Sequence[int], nxt: Sequence[int]) -> float:
    """:func:`kortbord.bots.mulle_strong._code_value` with its guesses about the next seat replaced by the next
    seat's hand ``nxt`` in the sampled world: a trailed card whose twin it holds costs the whole mulle (not 0.3 of
    it), a lone unit left costs a tabbe and its points only when it holds a card that takes it, and a build is
    worth little when it holds the value (it moves next)."""
    v = _code_value(state, code, t, hand)
    kind = code[0]
    x = code[1]
    pts = t.pts
    table = state.table
    builds = state.builds
    if not nxt:
        return v
    if kind == TRAIL:
        if x not in table and hand.count(x) < 2 and not SCORING[x]:
            v += 0.3 * t.mulle_hand[x]  # undo strong's guess
            if x in nxt:
                v -= t.mulle_hand[x]
        left = len(table) + len(builds) + 1
        if left == 1:
            v += 1.0  # strong's lone-card guess
            if any(HV[c] == TV[x] for c in nxt):
                v -= 1.0 + pts[x]
        return v
    if kind == CAPTURE:
        loose = code[2]
        taken = code[3]
        left = len(table) - len(loose) + len(builds) - len(taken)
        if left == 1:
            rest = list(table)
            for c in loose:
                rest.remove(c)
            if rest:
                unit = TV[rest[0]]
            else:
                rb = [b for b in builds if b.id not in taken]
                rest = list(rb[0].cards)
                unit = rb[0].value
            v += 0.5 * (1.0 + sum(pts[c] for c in rest))  # undo strong's guess
            if any(HV[c] == unit for c in nxt):
                v -= 1.0 + sum(pts[c] for c in rest)
        return v
    # building moves: the next seat takes the build when it holds the value
    if kind == BUILD:
        value = code[3]
        cards = [x, *code[2], *(c for p in code[4] for c in p)]
    else:
        bid = code[3] if kind == PACKAGE else code[2]
        b0 = next(b for b in builds if b.id == bid)
        value = b0.value if kind in (PACKAGE, LAYON) else code[3]
        cards = [*b0.cards, x]
    takers = [c for c in nxt if HV[c] == value]
    if takers:
        v -= 0.8 * sum(pts[c] for c in cards) + max(t.mulle_hand[c] if c in cards else 0 for c in takers)
    return v


def _peek_code(
    state: Any,
    codes: Sequence[MoveCode],
    rng: random.Random,
    epsilon: float,
    t: _Tables,
    hand: Sequence[int],
    nxt: Sequence[int],
) -> MoveCode:
    """The playout policy of ``peek``: :func:`kortbord.bots.mulle_strong._rollout_code` valued by
    :func:`_peek_value` (the same draws from ``rng``)."""
    if len(codes) == 1:
        return codes[0]
    if rng.random() < epsilon:
        return codes[rng.randrange(len(codes))]
    sign = -1.0 if t.kryp else 1.0
    best = codes[0]
    best_v = -1e9
    for c in codes:
        val = sign * _peek_value(state, c, t, hand, nxt) + rng.random() * 1e-3
        if val > best_v:
            best_v, best = val, c
    return best


def make_expert(
    rules: Rules | None, *, iterations: int | None = None, time_budget_ms: float | None = None
) -> ExpertBot:
    """The Mulle ``expert`` level of :mod:`kortbord.bots.registry`: strong's search with racing (``race`` =
    :data:`LEVEL_RACE`) over at most ``iterations`` sampled worlds a decision (None: :data:`LEVEL_ITERATIONS`).

    Without the trail inference (``infer=False``): a decision then depends only on the View, the legal moves and
    the rng, like strong's, so one cached bot can serve every table of a server worker and a game replays from
    its seeds alone (the inference remembers the bot's last position, and gained no point shown).

    Why racing: strong halves its candidates every four worlds, so a good move is often dropped on the noise of
    four playouts; against its own search given unlimited worlds that costs about 7 points a round, and the
    expert's schedule about 2 (``bench/mulle_regret.py``, docs/bots.md "The Mulle expert").  Its playouts make a
    random move a fifth of the time (:data:`LEVEL_EPSILON`; strong a tenth), which measured better.

    Args:
        rules: the game's rules (None: the ``standard`` profile).
        iterations: the most worlds a decision samples (>= 1); racing stops sooner once one candidate is left.
        time_budget_ms: an optional wall-clock cap per decision, milliseconds (None: none; see StrongBot).
    Returns:
        An :class:`ExpertBot`.
    Raises:
        ValueError: a non-positive cap or iteration count.
    """
    return ExpertBot(
        rules,
        iterations=LEVEL_ITERATIONS if iterations is None else iterations,
        time_budget_ms=time_budget_ms,
        race=LEVEL_RACE,
        epsilon=LEVEL_EPSILON,
        infer=False,
    )
