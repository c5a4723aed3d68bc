"""A batched Cribbage engine in NumPy: N games at once as arrays, a vectorised environment for research.

The rules are those of :mod:`kortbord.cribbage.engine` (spec ``cribbage.md``) for automatic counting: 2, 3 or 4
players (4 = fixed partnerships, seats 0+2 against 1+3), a game to 121 or 61, skunks reported as in
:func:`kortbord.cribbage.engine.result`.  **Muggins and Lowball are not batched**: they stay with the scalar engine
(:class:`Batch` raises ``InvalidRulesError`` for them).  Every game the batch plays can be exported as a kortbord
game record (:meth:`Batch.records`) that :meth:`kortbord.cribbage.Game.from_record` replays to the same moves,
the same end and the same scores.

**Chance, exactly the scalar engine's.**  Game ``g`` has a seed ``seeds[g]`` (0 <= seed < 2**32) and draws its
chance steps exactly as ``Game(rules, seed=seeds[g])`` does: Python's ``random.Random(seed)`` (Mersenne Twister
MT19937, seeded by ``init_by_array``) and ``random.shuffle`` of the full pack at the cut for deal (cut again while
the lowest ranks tie) and at each deal.  The generator is re-implemented here on arrays, one stream per game, so a
record needs no chance moves: its ``seed`` reproduces the deals.  Decisions (random play, or your policy) never
touch these streams.

**Actions** (one integer per game and step): ``0..51`` a card (``Card`` index: rank * 4 + suit, suits S H D C) --
laid in the play, or laid away at the discard -- and :data:`GO` (52) to say go.  With 2 players the discard of two
cards is two consecutive actions of the same seat (the first card chosen is shown in the observation as
``pending``); a uniformly random pair of picks is a uniformly random pair, and the record holds one
``discard A B`` move.  ``legal_action_mask`` has shape ``(N, 53)``.

**Environment** (in the manner of pgx: batched ``init`` / ``step`` / ``observe``)::

    env = Batch(Rules(players=2), seeds=range(1000))      # init: cut for deal and first deal, automatically
    while not env.terminated.all():
        obs = env.observe()                               # dict of arrays, the seat to act's view
        actions = policy(obs, env.legal_action_mask())    # (N,) ints; ignored for finished games
        env.step(actions)                                 # the move, then go points, shows, the next deal
    env.rewards, env.scores, env.records()

``step`` mutates the batch in place (NumPy, not JAX).  Chance steps, go and last-card points, the show and the next
deal happen inside ``step``, so every unfinished game is always at a decision of :attr:`Batch.current_player`.
:func:`play_random` plays whole batches with uniformly random legal actions (the benchmark loop).  On a fresh
batch it (and :meth:`Batch.run` without a policy) takes a faster path than :meth:`Batch.step`: the games go deal by
deal together, finished games drop out at each deal, a hand in the play is one integer of card bytes and pegging
points come from a table (:func:`_random_games`); the records replay the same way.

**Speed** (issue #13 item 2, ``bench/engines.py``): about 2.1-2.7x OpenSpiel's C++ random-game loop per CPU second
with 8,192 games a batch on the 2-core dev machine; the batch size matters below 4,096 (``bench/cribbage_engine.py
--curve``).  Chance costs a third of the time: every game has its own MT19937 stream, twisted a segment at a time
and read by a vectorised walk over its outputs' top bits (:class:`_Chance`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from kortbord.cards import Card
from kortbord.cribbage.moves import Discard
from kortbord.cribbage.rules import RULES_VERSION, Rules
from kortbord.cribbage.scoring import _rank_table, _suit_table
from kortbord.errors import IllegalMoveError, InvalidRulesError

__all__ = ["GO", "NUM_ACTIONS", "Batch", "Policy", "play_random"]

#: The action "go" (spec §2.4 item 2); actions 0..51 are cards.
GO: Final = 52
#: Size of the action space: 52 cards and go.
NUM_ACTIONS: Final = 53
#: A policy for :meth:`Batch.run`: ``policy(observation, legal_action_mask) -> actions`` -- the dict of
#: :meth:`Batch.observe`, the ``(N, 53)`` mask, and one action (int) per game.
Policy = Callable[[dict[str, npt.NDArray[Any]], npt.NDArray[np.bool_]], npt.ArrayLike]

_DISCARD, _PLAY, _OVER = 0, 1, 2
_NONE: Final = 52  # an empty hand slot / no card
_I8, _I16, _I64, _U32 = np.int8, np.int16, np.int64, np.uint32
#: Card value in the count (A = 1, court cards 10; spec §2.1), and 99 for "no card" so that it never fits.
_VALUE: Final = np.array([min(c // 4 + 1, 10) for c in range(52)] + [99], dtype=_I16)
_RANK1: Final = np.array([c // 4 + 1 for c in range(52)] + [0], dtype=_I8)  # 1..13, 0 = no card
_JACK0: Final = 10  # 0-based rank of the jack
_SEQ_MASK: Final = (1 << 28) - 1
_SEQ_SHIFTS: Final = np.arange(0, 28, 4, dtype=_I64)
_RUN_LENGTHS: Final = np.array([0, 0, 3, 4, 5, 6, 7], dtype=_I8)  # runs of 1 or 2 cards score nothing

# ---------------------------------------------------------------------------------------------------------------
# Python's random.Random on arrays: MT19937 seeded by init_by_array with a one-word key, and random.shuffle
# ---------------------------------------------------------------------------------------------------------------

_N = 624  # MT19937 words per block
_STEPS = 51  # a shuffle of 52 cards draws 51 swaps (i = 51 .. 1)


@cache
def _seed_base() -> npt.NDArray[np.uint32]:
    base = [19650218]
    for i in range(1, _N):
        prev = base[-1]
        base.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return np.array(base, dtype=_U32)


def _mt_seed(seeds: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    g = seeds.shape[0]
    base = _seed_base()
    mt = np.empty((_N, g), dtype=_U32)
    key = seeds.astype(_U32)
    tmp = np.empty(g, dtype=_U32)
    c1, c2 = _U32(1664525), _U32(1566083941)
    # first pass: i = 1 .. 623, then i = 1 again (after mt[0] = mt[623]); old values are the base's
    mt[0] = base[0]
    prev = mt[0]
    for i in range(1, _N):
        np.right_shift(prev, 30, out=tmp)
        np.bitwise_xor(tmp, prev, out=tmp)
        np.multiply(tmp, c1, out=tmp)
        np.bitwise_xor(tmp, base[i], out=tmp)
        np.add(tmp, key, out=mt[i])
        prev = mt[i]
    mt[0] = mt[_N - 1]
    # the first loop's 624th step (i = 1, its old value from the first pass), then the second loop's 623 steps:
    # i = 2 .. 623, then (after mt[0] = mt[623]) i = 1
    for i, second in [(1, False), *((i, True) for i in range(2, _N)), (1, True)]:
        prev = mt[i - 1]
        np.right_shift(prev, 30, out=tmp)
        np.bitwise_xor(tmp, prev, out=tmp)
        np.multiply(tmp, c2 if second else c1, out=tmp)
        np.bitwise_xor(tmp, mt[i], out=tmp)
        if second:
            np.subtract(tmp, _U32(i), out=mt[i])
        else:
            np.add(tmp, key, out=mt[i])
        if i == _N - 1:
            mt[0] = mt[_N - 1]
    mt[0] = 0x80000000
    return mt


#: MT19937's twist in three segments whose inputs are final when they are computed: words [0, 227) read the old
#: words, [227, 454) read [0, 227), [454, 624) read [227, 397) and word 0.  ``(start, stop)`` of each.
_SEGMENTS: Final = ((0, 227), (227, 454), (454, _N))


def _twist(mt: npt.NDArray[np.uint32], segment: int | None = None) -> None:
    """MT19937's generation in place, on states ``(G, 624)`` (each row a stream): all of it, or one of the three
    :data:`_SEGMENTS` (in order: segment 0 starts the next generation)."""
    upper, lower, matrix = _U32(0x80000000), _U32(0x7FFFFFFF), _U32(0x9908B0DF)
    one = _U32(1)

    def block(dst: slice, lo: slice, far: slice) -> None:
        # mt[i] = mt[i + 397 mod 624] ^ mix(upper bit of mt[i], lower bits of mt[i + 1])
        y = mt[:, dst] & upper
        t = mt[:, lo] & lower
        y |= t
        np.bitwise_and(y, one, out=t)
        t *= matrix
        y >>= one
        y ^= t
        y ^= mt[:, far]
        mt[:, dst] = y

    if segment in (None, 0):
        block(slice(0, 227), slice(1, 228), slice(397, 624))
    if segment in (None, 1):
        block(slice(227, 454), slice(228, 455), slice(0, 227))
    if segment in (None, 2):
        block(slice(454, 623), slice(455, 624), slice(227, 396))
        block(slice(623, 624), slice(0, 1), slice(396, 397))


def _temper(mt: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """MT19937's tempering: the 32-bit outputs of states ``mt`` (any shape)."""
    y = mt ^ (mt >> _U32(11))
    y ^= (y << _U32(7)) & _U32(0x9D2C5680)
    y ^= (y << _U32(15)) & _U32(0xEFC60000)
    y ^= y >> _U32(18)
    return y


def _top6(mt: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint8]:
    """The top 6 bits of the tempered outputs (the last tempering step leaves them alone)."""
    y = mt >> _U32(11)
    y ^= mt
    t = y << _U32(7)
    t &= _U32(0x9D2C5680)
    y ^= t
    np.left_shift(y, _U32(15), out=t)
    t &= _U32(0xEFC60000)
    y ^= t
    y >>= _U32(26)
    return y.astype(np.uint8)


@cache
def _walk_tables() -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """Tables of CPython's shuffle as a walk over the outputs' top 6 bits.

    State ``t`` (0..50): the swap ``i = 51 - t`` is drawn, bound ``n = i + 1``, ``k = n.bit_length()``; an output
    ``v`` (its top 6 bits) gives ``j = v >> (6 - k)`` (``getrandbits(k)``), accepted when ``j < n``; then ``t``
    moves on, wrapping at 51 (the next shuffle).  Indexed by ``t * 64 + v``: ``acc`` and ``next`` (the next
    ``t * 64``).
    """
    t = np.arange(_STEPS)[:, None]
    v = np.arange(64)[None, :]
    n = 52 - t
    k = np.array([int(x).bit_length() for x in range(53)])[n]
    j = v >> (6 - k)
    acc = j < n
    nt = np.where(acc, (t + 1) % _STEPS, t)
    return acc.reshape(-1), (nt * 64).reshape(-1).astype(_I64)


#: ``j = _J_OF[s * 64 + v]`` for swap ``s`` (``i = 51 - s``) of a shuffle from an accepted draw's top 6 bits ``v``
#: (``getrandbits(k)``: the top ``k`` bits).
_J_OF: Final = np.array([v >> (6 - (52 - s).bit_length()) for s in range(_STEPS) for v in range(64)], dtype=_I64)
_J_ROW: Final = (np.arange(_STEPS, dtype=_I64) * 64)[:, None]


_CHUNK = 512  # games per slice of the MT arithmetic
_AHEAD = 1  # shuffles: a game this close to the end of its outputs draws its next block with the others


class _Chance:
    """Python's ``random.Random(seed).shuffle`` of a 52-card pack, for one stream per game, on arrays.

    The streams are MT19937 generated a twist segment (227 or 170 outputs) at a time for the games that need more
    outputs; a walk over the top
    6 bits of the outputs (the shuffle's draws are ``getrandbits(k)``, ``k <= 6``, with rejection) finds each
    swap's ``j``; :meth:`packs` applies the swaps of a game's ``q``-th shuffle.
    """

    def __init__(self, seeds: npt.NDArray[np.uint32], top: int) -> None:
        self.g = seeds.shape[0]
        self.top = top
        words = _mt_seed(seeds)
        self.mt = np.empty((self.g, _N), dtype=_U32)  # (G, 624): a game's state is a row
        for c in range(0, self.g, _CHUNK):  # transposed a slice at a time (in cache)
            self.mt[c : c + _CHUNK] = words[:, c : c + _CHUNK].T
        self.cap = 0
        self.j = np.zeros((0, self.g), dtype=np.uint8)  # (swap number, game): the accepted draw's top 6 bits
        self.acc = np.zeros(self.g, dtype=_I64)  # swaps drawn so far per game
        self.t = np.zeros(self.g, dtype=_I64)  # walk state (t * 64)
        self.seg = np.zeros(self.g, dtype=_I64)  # the next segment of the twist
        self._more(np.arange(self.g))

    def _more(self, games: npt.NDArray[np.int64]) -> None:
        """The next segment of outputs (:data:`_SEGMENTS`) for each of ``games``: their swaps appended."""
        for k in range(len(_SEGMENTS)):
            group = games[self.seg[games] == k]
            if group.size:
                self._segment(group, k)

    def _segment(self, games: npt.NDArray[np.int64], k: int) -> None:
        """Segment ``k`` of the next outputs for ``games`` (all at that segment): twist, top bits, walk."""
        acc1, next1 = _walk_tables()
        m = games.size
        start, stop = _SEGMENTS[k]
        width = stop - start
        whole = m == self.g
        mt = self.mt if whole else self.mt[games]
        v = np.empty((width, m), dtype=np.uint8)  # the walk reads every game's next output at once
        for c in range(0, m, _CHUNK):  # a slice of the games at a time: its states stay in cache
            part = mt[c : c + _CHUNK]
            _twist(part, k)
            v[:, c : c + _CHUNK] = _top6(part[:, start:stop]).T
        if not whole:
            self.mt[games] = mt
        self.seg[games] = (k + 1) % len(_SEGMENTS)
        need = int(self.acc[games].max()) + width + 1
        if need > self.cap:
            cap = max(need, self.cap + _N) + 64
            grown = np.zeros((cap, self.g), dtype=np.uint8)
            grown[: self.cap] = self.j
            self.j, self.cap = grown, cap
        flat = self.j.reshape(-1)
        inc = acc1 * _I64(self.g)  # accepted: the next swap's row in ``self.j``
        at = self.acc[games] * self.g + games
        tb = self.t[games]
        ix = np.empty(m, dtype=_I64)
        step = np.empty(m, dtype=_I64)
        for r in range(width):
            row = v[r]
            np.add(tb, row, out=ix)
            next1.take(ix, out=tb, mode="clip")  # (indices in range: clip skips the checks)
            flat[at] = row  # the draw's top bits; a rejected draw's slot is overwritten by the next accepted one
            inc.take(ix, out=step, mode="clip")
            at += step
        self.t[games] = tb
        self.acc[games] = (at - games) // self.g

    def packs(self, games: npt.NDArray[np.int64], q: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        """The top ``self.top`` cards (top first) of shuffle ``q[i]`` of game ``games[i]``: ``(m, top)``."""
        ahead = _AHEAD
        while (self.acc[games] < (q + 1) * _STEPS).any():
            # more outputs for every game short within a few shuffles (fewer calls), then for the ones still short
            self._more(games[self.acc[games] < (q + 1 + ahead) * _STEPS])  # games: distinct
            ahead = 0
        m = games.size
        top = self.top
        at = (q * _STEPS * self.g + games)[None, :] + (np.arange(_STEPS) * self.g)[:, None]
        draws = self.j.reshape(-1)[at]  # (51, m): the draws' top 6 bits for i = 51 .. 1
        swaps = (_J_OF * m).take(draws + _J_ROW)  # j * m: where position j of every game's pack is in ``deck``
        swaps += np.arange(m)
        deck = np.empty((52, m), dtype=np.int8)
        deck[:] = np.arange(52, dtype=np.int8)[:, None]
        flat = deck.reshape(-1)
        for s in range(_STEPS):
            i = 51 - s
            at_s = swaps[s]
            if i >= top:
                flat[at_s] = deck[i]
            else:
                moved = flat[at_s]
                flat[at_s] = deck[i]
                deck[i] = moved
        return deck[:top].T.copy()


# ---------------------------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------------------------


@cache
def _tables() -> dict[str, npt.NDArray[Any]]:
    """Lookup tables of the show and the play, from :mod:`kortbord.cribbage.scoring`'s (spec §2.4, §2.5)."""
    # the rank part of the show for five ranks in any order (base-13 index), from the sorted-rank table
    ordered = np.indices((13,) * 5).reshape(5, -1).T
    ordered.sort(axis=1)
    index = ordered[:, 0]
    for j in range(1, 5):
        index = index * 13 + ordered[:, j]
    rank_any = _rank_table()[index]
    # flush and nobs with card 4 as the starter, by suits (base 4) and jack bits
    suit_hand, suit_crib = _suit_table(False)[:, 4].copy(), _suit_table(True)[:, 4].copy()
    # runs in the play: a set of ranks (bits 1..13) scores as a run of its size if its bits are contiguous
    bits = np.arange(1 << 14)
    popcount = np.zeros(1 << 14, dtype=_I8)
    for b in range(14):
        popcount += ((bits >> b) & 1).astype(_I8)
    low = bits & -bits
    contiguous = ((bits + low) & bits) == 0
    run_of = np.where(contiguous & (bits & 1 == 0) & (bits > 0), popcount, 0).astype(_I8)
    return {"rank_any": rank_any, "suit_hand": suit_hand, "suit_crib": suit_crib, "run_of": run_of}


def _show_points(cards: npt.NDArray[np.int8], starter: npt.NDArray[np.int8], crib: bool) -> npt.NDArray[np.int16]:
    """Show totals of hands ``(m, 4)`` with starters ``(m,)`` (spec §2.5; as ``scoring.show_total``)."""
    t = _tables()
    five = np.concatenate([cards, starter[:, None]], axis=1).astype(_I64)
    ranks = five >> 2
    index = ranks[:, 0]
    key = five[:, 0] & 3
    for j in range(1, 5):
        index = index * 13 + ranks[:, j]
        key = key * 4 + (five[:, j] & 3)
    jacks = (ranks == _JACK0).astype(_I64) << np.arange(5)
    key = (key << 5) | jacks.sum(axis=1)
    suit = t["suit_crib"] if crib else t["suit_hand"]
    return np.asarray(t["rank_any"][index].astype(_I16) + suit[key], dtype=_I16)


# ---------------------------------------------------------------------------------------------------------------
# The batch
# ---------------------------------------------------------------------------------------------------------------


class Batch:
    """``N`` Cribbage games played in lockstep, one decision per unfinished game per :meth:`step`.

    Args:
        rules: the options; Muggins and Lowball are not batched (use the scalar engine).
        seeds: one seed per game, ``0 <= seed < 2**32``: game ``g`` deals exactly as ``Game(rules, seed=seeds[g])``.
    Attributes (arrays, game ``g`` first):
        current_player: ``(N,)`` the seat to act, -1 once the game is over.  terminated: ``(N,)`` bool.
        scores: ``(N, players)`` points per seat.  rewards: ``(N, players)`` float32, +1 for the winners' seats
            and -1 for the losers' once the game is over, else 0.  dealer, count, phase (0 discard, 1 play, 2 over).
    Raises:
        InvalidRulesError: Muggins or Lowball rules.  ValueError: a seed out of range or no seeds.
    """

    def __init__(self, rules: Rules | None = None, seeds: Iterable[int] | npt.ArrayLike = (0,)) -> None:
        rules = rules if rules is not None else Rules()
        if rules.muggins or rules.lowball:
            raise InvalidRulesError("the batched engine plays automatic counting only (no Muggins, no Lowball)")
        seed_arr = np.asarray(seeds if isinstance(seeds, np.ndarray) else list(seeds), dtype=np.int64)  # type: ignore[arg-type]
        if seed_arr.ndim != 1 or seed_arr.size == 0 or seed_arr.min() < 0 or seed_arr.max() >= 2**32:
            raise ValueError("seeds: one integer 0 <= seed < 2**32 per game")
        self.rules = rules
        self.seeds = seed_arr
        n = self.players = rules.players
        g = self.n = seed_arr.size
        self.partnership = rules.partnership
        self.target = rules.target
        self.k = rules.cards_dealt
        self.extra = rules.crib_from_pack
        self.dealt = n * self.k
        self._after = np.array([[(s + j) % n for j in range(1, n + 1)] for s in range(n)], dtype=_I64)
        self._deal_slots = np.array(
            [[[(s - d - 1) % n + n * c for c in range(self.k)] for s in range(n)] for d in range(n)], dtype=_I64
        )
        self.phase = np.full(g, _DISCARD, dtype=_I8)
        self.scores = np.zeros((g, n), dtype=_I16)
        self.rewards = np.zeros((g, n), dtype=np.float32)
        self.hands = np.full((g, n, 6), _NONE, dtype=_I8)
        self.kept = np.full((g, n, 4), _NONE, dtype=_I8)
        self.crib = np.full((g, 4), _NONE, dtype=_I8)
        self.crib_n = np.zeros(g, dtype=_I64)
        self.held = np.zeros((g, n), dtype=_I8)
        self.starter = np.full(g, _NONE, dtype=_I8)
        self.pending = np.full(g, _NONE, dtype=_I8)
        self.dealer = np.zeros(g, dtype=_I64)
        self.turn = np.zeros(g, dtype=_I64)
        self.count = np.zeros(g, dtype=_I16)
        self.last = np.full(g, -1, dtype=_I64)
        self.holding = np.zeros(g, dtype=_I64)  # bit s: seat s holds cards (the play)
        self.passed = np.zeros(g, dtype=_I64)  # bit s: seat s said go in this count
        self.seq_key = np.zeros(g, dtype=_I64)  # ranks (1..13) of the count's last 7 cards, 4 bits each, newest low
        # _next[s, mask]: the first seat after s (ending with s) whose bit is in mask, -1 if none
        self._next = np.full((n, 1 << n), -1, dtype=_I64)
        for seat in range(n):
            for mask in range(1 << n):
                for t in [(seat + j) % n for j in range(1, n + 1)]:
                    if mask >> t & 1:
                        self._next[seat, mask] = t
                        break
        self.count_cards = np.zeros((g, 52), dtype=np.bool_)
        self.played = np.zeros((g, 52), dtype=np.bool_)
        self.deals = np.zeros(g, dtype=_I64)
        self._stock_top = np.zeros(g, dtype=_I8)
        self._history: list[npt.NDArray[np.int8]] = []
        self._top = self.dealt + self.extra + 1  # the cards a deal uses: the hands, the crib's, the starter
        self._chance = _Chance(seed_arr.astype(_U32), self._top)
        self._cuts = np.zeros(g, dtype=_I64)  # shuffles used by the cut for deal (ties cut again)
        self._cut()
        self._deal(np.arange(g))

    # -- chance ---------------------------------------------------------------------------------------------------
    def _cut(self) -> None:
        """The cut for deal (spec §2.2): each seat a card from a shuffled pack; lowest rank deals; ties cut again."""
        n = self.players
        todo = np.arange(self.n)
        while todo.size:
            ranks = self._chance.packs(todo, self._cuts[todo])[:, :n] >> 2
            self._cuts[todo] += 1
            low = ranks.min(axis=1)
            ties = (ranks == low[:, None]).sum(axis=1) > 1
            done = todo[~ties]
            self.dealer[done] = np.argmin(ranks[~ties], axis=1)
            todo = todo[ties]

    def _deal(self, games: npt.NDArray[np.int64]) -> None:
        """Shuffle and deal (spec §2.2): cards one at a time from the dealer's left; 3 players: one to the crib."""
        deck = self._chance.packs(games, self._cuts[games] + self.deals[games])
        dealer = self.dealer[games]
        slots = self._deal_slots[dealer]  # (m, n, k)
        rows = np.arange(games.size)
        hands = np.full((games.size, self.players, 6), _NONE, dtype=_I8)
        hands[:, :, : self.k] = deck[rows[:, None, None], slots]
        self.hands[games] = hands
        self.held[games] = self.k
        self.holding[games] = (1 << self.players) - 1
        crib = np.full((games.size, 4), _NONE, dtype=_I8)
        if self.extra:
            crib[:, 0] = deck[:, self.dealt]
        self.crib[games] = crib
        self.crib_n[games] = self.extra
        self._stock_top[games] = deck[:, self.dealt + self.extra]
        self.starter[games] = _NONE
        self.phase[games] = _DISCARD
        self.turn[games] = (dealer + 1) % self.players
        self.count_cards[games] = False
        self.played[games] = False
        self.deals[games] += 1

    # -- queries ----------------------------------------------------------------------------------------------------
    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """``(N,)``: the game is over."""
        return np.asarray(self.phase == _OVER, dtype=np.bool_)

    @property
    def current_player(self) -> npt.NDArray[np.int64]:
        """``(N,)``: the seat to decide, -1 for a finished game."""
        return np.where(self.phase == _OVER, -1, self.turn)

    def side_scores(self) -> npt.NDArray[np.int16]:
        """``(N, sides)``: points per side (seats 0+2 and 1+3 in a partnership; spec §2.4 item 7)."""
        if self.partnership:
            return self.scores[:, :2] + self.scores[:, 2:]
        return self.scores.copy()

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """``(N, 53)``: the legal actions of each game's seat to act (all False for a finished game).

        Discard: the held cards.  Play: the held cards that fit under 31, else only :data:`GO` (spec §2.4).
        """
        g = self.n
        mask = np.zeros((g, NUM_ACTIONS + 1), dtype=np.bool_)  # column 53 soaks up empty slots
        rows = np.arange(g)
        hand = self.hands[rows, self.turn].astype(_I64)  # (g, 6)
        fits = (_VALUE[hand] <= (31 - self.count)[:, None]) | (self.phase == _DISCARD)[:, None]
        live = (self.phase != _OVER)[:, None] & (hand != _NONE)
        mask[rows[:, None], np.where(live & fits, hand, NUM_ACTIONS)] = True
        mask[:, GO] = (self.phase == _PLAY) & ~mask[:, :GO].any(axis=1)
        return mask[:, :NUM_ACTIONS]

    def observe(self) -> dict[str, npt.NDArray[Any]]:
        """What the seat to act may know, per game (never another hand, the crib or the stock):

        ``seat`` ``(N,)``; ``hand``, ``pending`` (the first card of a 2-player discard), ``starter`` (once cut),
        ``count_cards`` (the current count), ``played`` (every card laid this deal) -- each ``(N, 52)`` bool;
        ``count``, ``dealer``, ``phase`` ``(N,)``; ``scores`` ``(N, players)`` by seat; ``legal_action_mask``.
        """
        g = self.n
        rows = np.arange(g)

        def onehot(cards: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
            out = np.zeros((g, 53), dtype=np.bool_)
            out[rows[:, None] if cards.ndim == 2 else rows, cards] = True
            return out[:, :52]

        seen_starter = np.where(self.phase == _PLAY, self.starter, _NONE).astype(_I8)
        return {
            "seat": self.current_player,
            "hand": onehot(self.hands[rows, self.turn]),
            "pending": onehot(self.pending),
            "starter": onehot(seen_starter),
            "count_cards": self.count_cards.copy(),
            "played": self.played.copy(),
            "count": self.count.copy(),
            "dealer": self.dealer.copy(),
            "phase": self.phase.copy(),
            "scores": self.scores.copy(),
            "legal_action_mask": self.legal_action_mask(),
        }

    # -- moves ------------------------------------------------------------------------------------------------------
    def random_actions(self, rng: np.random.Generator) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game (:data:`GO` where no card fits; 52 for a finished game)."""
        g = self.n
        rows = np.arange(g)
        hand = self.hands[rows, self.turn].astype(_I64)
        ok = (hand != _NONE) & ((_VALUE[hand] <= (31 - self.count)[:, None]) | (self.phase == _DISCARD)[:, None])
        pick = np.argmax(rng.random((g, 6)) + ok * 2.0, axis=1)
        return np.where(ok.any(axis=1), hand[rows, pick], GO)

    def step(self, actions: npt.ArrayLike) -> None:
        """Play one action in every unfinished game, then everything automatic up to its next decision.

        After a card or go: the points of the card (spec §2.4 step 3), the go or last-card point and the new count
        (step 4-5), at the end of the play the automatic show (§2.6) and the next deal (§2.2), his heels (§2.3);
        a game stops the moment a side reaches the target (§2.4 item 8).  Entries of finished games are ignored.

        Args:
            actions: ``(N,)`` ints in ``0..52``.
        Raises:
            IllegalMoveError: an action is not legal (the message names the first such game); nothing is changed.
        """
        act = np.asarray(actions, dtype=_I64).reshape(-1)
        if act.shape != (self.n,):
            raise ValueError(f"actions: one per game, shape ({self.n},), got {np.shape(actions)}")
        alive = self.phase != _OVER
        rows = np.arange(self.n)
        hand = self.hands[rows, self.turn]  # (g, 6)
        slot_hit = hand == np.clip(act, 0, _NONE)[:, None]
        has = slot_hit.any(axis=1)
        card_val = _VALUE[np.clip(act, 0, _NONE)]
        is_go = act == GO
        can_fit = (_VALUE[hand.astype(_I64)] <= (31 - self.count)[:, None]).any(axis=1)
        legal = np.where(
            self.phase == _DISCARD,
            has & (act < GO),
            np.where(is_go, ~can_fit, has & (act < GO) & (self.count + card_val <= 31)),
        )
        bad = alive & ~legal
        if bad.any():
            first = int(np.flatnonzero(bad)[0])
            raise IllegalMoveError(
                f"game {first}: action {int(act[first])} is not legal for seat {int(self.turn[first])} "
                f"(legal: {np.flatnonzero(self.legal_action_mask()[first]).tolist()})"
            )
        self._apply(act, np.argmax(slot_hit, axis=1), alive)

    def _apply(self, act: npt.NDArray[np.int64], slot: npt.NDArray[np.int64], alive: npt.NDArray[np.bool_]) -> None:
        """Apply legal actions ``act`` (cards in hand slots ``slot``) in the games ``alive``."""
        record = np.where(alive, act, -1).astype(_I8)
        disc = alive & (self.phase == _DISCARD)
        record[disc] += 64  # a discard pick (with 2 players, two make one ``discard A B`` move)
        self._history.append(record)
        play = alive & (self.phase == _PLAY)  # before the discards: a discard may begin the play
        d = np.flatnonzero(disc)
        if d.size:
            self._discard(d, act[d], slot[d])
        is_go = act == GO
        p = np.flatnonzero(play & ~is_go)
        gos = np.flatnonzero(play & is_go)
        if p.size or gos.size:
            self._play(p, act[p], slot[p], gos)

    def _discard(self, d: npt.NDArray[np.int64], card: npt.NDArray[np.int64], slot: npt.NDArray[np.int64]) -> None:
        turn = self.turn[d]
        self.hands[d, turn, slot] = _NONE
        self.held[d, turn] -= 1
        self.crib[d, self.crib_n[d]] = card
        self.crib_n[d] += 1
        if self.players == 2:
            first = self.pending[d] == _NONE
            self.pending[d[first]] = card[first]
            d, turn = d[~first], turn[~first]
            self.pending[d] = _NONE
        done = turn == self.dealer[d]
        self.turn[d[~done]] = (turn[~done] + 1) % self.players
        d = d[done]
        if d.size:
            self._start_play(d)

    def _start_play(self, d: npt.NDArray[np.int64]) -> None:
        """Every hand laid away in ``d``: the starter (spec §2.3), the play begins at the dealer's left."""
        self.hands[d] = np.sort(self.hands[d], axis=2)
        self.kept[d] = self.hands[d, :, :4]
        self.crib[d] = np.sort(self.crib[d], axis=1)
        starter = self._stock_top[d]
        self.starter[d] = starter
        self.phase[d] = _PLAY
        dealer = self.dealer[d]
        self.turn[d] = (dealer + 1) % self.players
        self.count[d] = 0
        self.last[d] = -1
        self.passed[d] = 0
        self.seq_key[d] = 0
        heels = d[(starter >> 2) == _JACK0]
        if heels.size:
            self._award(heels, self.dealer[heels], 2)

    def _award(self, games: npt.NDArray[np.int64], seat: npt.NDArray[np.int64], points: Any) -> npt.NDArray[np.bool_]:
        """Peg ``points`` for ``seat`` in ``games``; end the games whose side reached the target. Returns who won."""
        scores = self.scores.reshape(-1)
        at = games * self.players + seat
        scores[at] += points
        side = scores[at]
        if self.partnership:
            side = side + scores[at ^ 2]  # the partner: seat ^ 2 (players = 4, so at ^ 2 flips the seat's bit 1)
        won = np.asarray(side >= self.target, dtype=np.bool_)
        if won.any():
            self._game_over(games[won], seat[won])
        return won

    def _game_over(self, games: npt.NDArray[np.int64], seat: npt.NDArray[np.int64]) -> None:
        self.phase[games] = _OVER
        n = self.players
        seats = np.arange(n)
        win = (seats[None, :] % 2 == seat[:, None] % 2) if self.partnership else seats[None, :] == seat[:, None]
        self.rewards[games] = np.where(win, 1.0, -1.0)

    def _play(
        self,
        p: npt.NDArray[np.int64],
        card: npt.NDArray[np.int64],
        slot: npt.NDArray[np.int64],
        gos: npt.NDArray[np.int64],
    ) -> None:
        t = _tables()
        ended = []  # games whose count ends now (nobody can lay a card, or 31)
        n = self.players
        if p.size:
            s = self.turn[p]
            at = p * n + s
            self.hands.reshape(-1)[at * 6 + slot] = _NONE
            held = self.held.reshape(-1)
            held[at] -= 1
            emptied = held[at] == 0
            if emptied.any():
                self.holding[p[emptied]] &= ~(1 << s[emptied])
            count = self.count[p] + _VALUE[card]
            self.count[p] = count
            self.last[p] = s
            at = p * 52 + card
            self.count_cards.reshape(-1)[at] = True
            self.played.reshape(-1)[at] = True
            key = ((self.seq_key[p] << 4) | _RANK1[card]) & _SEQ_MASK
            self.seq_key[p] = key
            # points for the card just laid (spec §2.4 step 3): 15 or 31, pairs, the longest run ending on it
            ranks = (key[:, None] >> _SEQ_SHIFTS) & 15  # (m, 7), newest first, 0 = no card
            r0 = ranks[:, 0]
            pair1 = ranks[:, 1] == r0
            pair2 = pair1 & (ranks[:, 2] == r0)
            pair3 = pair2 & (ranks[:, 3] == r0)
            points = ((count == 15) | (count == 31)) * 2 + pair1 * 2 + pair2 * 4 + pair3 * 6
            acc = np.bitwise_or.accumulate(1 << ranks, axis=1)
            runs = t["run_of"][acc] == _RUN_LENGTHS
            points = points + (runs * _RUN_LENGTHS).max(axis=1)
            scoring = np.flatnonzero(points > 0)
            if scoring.size:
                won = self._award(p[scoring], s[scoring], points[scoring].astype(_I16))
                if won.any():
                    alive = np.ones(p.size, dtype=np.bool_)
                    alive[scoring[won]] = False
                    p, s, count = p[alive], s[alive], count[alive]
            thirty_one = count == 31
            if thirty_one.any():
                ended.append(p[thirty_one])
                p, s = p[~thirty_one], s[~thirty_one]
            nxt = self._next[s, self.holding[p] & ~self.passed[p]]
            found = nxt >= 0
            self.turn[p[found]] = nxt[found]
            ended.append(p[~found])
        if gos.size:
            s = self.turn[gos]
            passed = self.passed[gos] | (1 << s)
            self.passed[gos] = passed
            nxt = self._next[s, self.holding[gos] & ~passed]
            found = nxt >= 0
            self.turn[gos[found]] = nxt[found]
            ended.append(gos[~found])
        e = np.concatenate(ended) if ended else np.zeros(0, dtype=_I64)
        if e.size:
            self._end_count(e)

    def _end_count(self, e: npt.NDArray[np.int64]) -> None:
        """Nobody can lay a card (or 31): the go / last-card point, then a new count or the show (spec §2.4)."""
        point = self.count[e] != 31
        if point.any():
            won = self._award(e[point], self.last[e[point]], 1)
            keep = np.ones(e.size, dtype=np.bool_)
            keep[np.flatnonzero(point)[won]] = False
            e = e[keep]
        holding = self.holding[e]
        any_cards = holding != 0
        r = e[any_cards]
        if r.size:
            self.turn[r] = self._next[self.last[r], holding[any_cards]]
            self.count[r] = 0
            self.passed[r] = 0
            self.seq_key[r] = 0
            self.count_cards[r] = False
        shows = e[~any_cards]
        if shows.size:
            self._show(shows)

    def _show(self, games: npt.NDArray[np.int64]) -> None:
        """The automatic show (spec §2.6): each hand from the dealer's left, the dealer's, then the crib."""
        n = self.players
        dealer = self.dealer[games]
        starter = self.starter[games]
        live = np.ones(games.size, dtype=np.bool_)
        for index in range(n + 1):
            crib = index == n
            seat = dealer if crib else (dealer + 1 + index) % n
            cards = self.crib[games] if crib else self.kept[games, seat]
            pts = _show_points(cards, starter, crib)
            go = np.flatnonzero(live & (pts > 0))
            if go.size:
                won = self._award(games[go], seat[go], pts[go])
                live[go[won]] = False
        nxt = games[live]
        if nxt.size:
            self.dealer[nxt] = (self.dealer[nxt] + 1) % n
            self._deal(nxt)

    # -- drivers and records ----------------------------------------------------------------------------------------
    def run(self, policy: Policy | None = None, rng: np.random.Generator | int | None = None) -> Batch:
        """Play every game to its end: ``policy(observe(), legal_action_mask())`` or, without one, uniformly
        random legal actions from ``rng`` (a ``numpy.random.Generator`` or a seed). Returns ``self``."""
        gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
        if policy is None and not self._history:
            self._run_random(gen)  # a fresh batch: deal by deal, every game at once (the fast path)
        while not (self.phase == _OVER).all():
            if policy is None:
                self.step(self.random_actions(gen))
            else:
                obs = self.observe()
                self.step(policy(obs, obs["legal_action_mask"]))
        return self

    def _run_random(self, gen: np.random.Generator) -> None:
        """Play every (fresh) game to its end with uniformly random legal actions: see :func:`_random_games`."""
        _random_games(self, gen)

    def records(self, games: Iterable[int] | None = None) -> list[dict[str, Any]]:
        """Game records (the format of :meth:`kortbord.cribbage.Game.to_record`) of ``games`` (default: all).

        ``Game.from_record(r)`` replays each to the same moves, end and scores: the ``seed`` gives the deals.
        """
        hist = np.stack(self._history) if self._history else np.zeros((0, self.n), dtype=_I8)
        seats = [f"P{s}" for s in range(self.players)]
        rules = self.rules.to_dict()
        names = _card_names()
        pairs = self.players == 2
        out = []
        for g in range(self.n) if games is None else games:
            moves: list[str] = []
            first = -1
            for a in hist[:, g].tolist():
                if a < 0:
                    continue
                if a >= 64:  # a discard pick
                    if not pairs:
                        moves.append("discard " + names[a - 64])
                    elif first < 0:
                        first = a - 64
                    else:
                        moves.append(_discard2(first, a - 64))
                        first = -1
                elif a == GO:
                    moves.append("go")
                else:
                    moves.append(names[a])
            out.append(
                {
                    "game": "cribbage",
                    "rules_version": RULES_VERSION,
                    "rules": rules,
                    "players": self.players,
                    "seats": seats,
                    "seed": int(self.seeds[g]),
                    "moves": moves,
                }
            )
        return out


@cache
def _card_names() -> tuple[str, ...]:
    return tuple(str(Card(c)) for c in range(52))


@cache
def _discard2(a: int, b: int) -> str:
    return str(Discard((Card(a), Card(b))))


def play_random(
    rules: Rules, seeds: Iterable[int] | npt.ArrayLike, rng: np.random.Generator | int | None = None
) -> Batch:
    """Play one game per seed with uniformly random legal actions (the benchmark loop); returns the finished batch.

    Args:
        rules: automatic counting (no Muggins, no Lowball).
        seeds: the chance seeds, ``0 <= seed < 2**32`` (game ``g`` deals as ``Game(rules, seed=seeds[g])``).
        rng: draws the decisions: a ``numpy.random.Generator`` or a seed.
    """
    return Batch(rules, seeds).run(None, rng)


_P5: Final = 14**5  # pegging keys: the count's last five ranks (1..13, 0 = none) in base 14, newest lowest
_P7: Final = 14**7  # ... and the last seven
_SENTINEL: Final = 52 << 32  # a packed hand's fifth byte: "no card", read when the seat says go
_LOW: Final = np.array([(1 << (8 * s)) - 1 for s in range(4)] + [(1 << 40) - 1], dtype=_I64)
_NLOW: Final = np.array([0xFFFFFFFF ^ ((1 << (8 * s)) - 1) for s in range(4)] + [0], dtype=_I64)
_SHIFT: Final = np.array([8 * s for s in range(5)], dtype=_I64)
#: ``_SLOT[r * 5 + m]``: with ``m`` cards that fit (the lowest ``m`` slots) and ``r`` uniform in 0..11, the slot
#: laid -- ``r % m``, uniform since ``m`` divides 12 -- or 4 (the sentinel: go) when nothing fits.
_SLOT: Final = np.array([4 if m == 0 else r % m for r in range(12) for m in range(5)], dtype=_I64)
_VAL0: Final = np.array([min(c // 4 + 1, 10) for c in range(52)] + [0], dtype=_I64)  # "go" adds nothing
_RANKS: Final = np.array([c // 4 + 1 for c in range(52)] + [0], dtype=_I64)
_MUL: Final = np.array([14] * 52 + [1], dtype=_I64)  # the key's shift for a card laid (a go: none)
_EMPTY: Final = 0x3434343434  # a packed hand with no cards (four bytes 52 and the sentinel)
_LONG: Final = 64  # added to the pegging table's points where the last five ranks are distinct
_FIT: Final = np.array(  # SWAR bound per count: byte ``c`` of a hand fits iff ``c < limit`` (32 = not playing)
    [(127 + ((52 if 31 - c >= 10 else 4 * (31 - c)) if c <= 31 else 0)) * 0x01010101 for c in range(33)], dtype=_I64
)
_POOL: Final = 16  # decisions drawn at once per game
_FIFTEEN: Final = np.array([2 if c in (15, 31) else 0 for c in range(33)], dtype=_I64)


@cache
def _peg_tables() -> npt.NDArray[np.int64]:
    """Points for the card just laid from the count's last five ranks (spec §2.4 step 3: pairs, runs of 3-5;
    fifteen and 31 come from the count), plus :data:`_LONG` where the five ranks are distinct (a run of six or
    seven may end there: :func:`_long_runs`).  Indexed by the base-14 key, the newest rank lowest."""
    digits = np.indices((14,) * 5).reshape(5, -1)[::-1].astype(_I64)  # digits[0] the newest
    d0 = digits[0]
    pair1 = (d0 > 0) & (digits[1] == d0)
    pair2 = pair1 & (digits[2] == d0)
    pair3 = pair2 & (digits[3] == d0)
    points = pair1 * 2 + pair2 * 4 + pair3 * 6
    run_of = _tables()["run_of"]
    bits = np.zeros_like(d0)
    run = np.zeros_like(d0)
    for size in range(1, 6):
        bits |= 1 << digits[size - 1]
        if size >= 3:
            run = np.where(run_of[bits] == size, size, run)
    distinct = ((bits & 1) == 0) & (np.bitwise_count(bits) == 5)
    return np.asarray(points + run + distinct * _LONG, dtype=_I64)


def _long_runs(key7: npt.NDArray[np.int64], run5: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Extra points where the last six or seven ranks (base-14 ``key7``) form a run longer than ``run5``."""
    digits = (key7[:, None] // (14 ** np.arange(7))) % 14
    bits = np.cumsum(1 << digits, axis=1)  # distinct digits: the sum is the OR
    run_of = _tables()["run_of"]
    best = run5.copy()
    for size in (6, 7):
        distinct = np.bitwise_or.reduce(1 << digits[:, :size], axis=1) == bits[:, size - 1]
        best = np.where(distinct & (run_of[bits[:, size - 1] & ((1 << 14) - 1)] == size), size, best)
    return best - run5


def _random_games(batch: Batch, gen: np.random.Generator) -> None:
    """Play a fresh batch to the end with uniformly random legal actions, deal by deal, every game at once.

    The same rules as :meth:`Batch.step` (spec §2.2-§2.6), laid out for speed: the games are kept in step deal by
    deal (a game whose play ends waits for the others before its show), finished games are dropped at each deal,
    a seat's hand in the play is one int64 of four card bytes in card order (what fits under 31 is a prefix,
    counted by SWAR arithmetic), pegging points come from a table of the count's last five ranks.  Decisions are
    drawn from ``gen``: the discard as a uniform subset of the hand, a card as a uniform choice among those that
    fit.  The history rows are :meth:`Batch.step`'s, so :meth:`Batch.records` reads them the same way.
    """
    n, k, nd, extra, target = batch.players, batch.k, batch.rules.discards, batch.extra, batch.target
    dealt = batch.dealt
    big_g = batch.n
    partner = batch.partnership
    peg = _peg_tables()
    nexts = batch._next.reshape(-1)  # [seat << n | mask]
    shifts = 1 << n
    # the discards: a uniform subset of nd slots of k, and the kept slots (in order, so the hand stays sorted)
    subsets = [c for c in _combinations(k, nd)]
    disc_slots = np.array([c for c in subsets], dtype=_I64)
    keep_slots = np.array([[x for x in range(k) if x not in c] for c in subsets], dtype=_I64)
    deal_slots = batch._deal_slots  # (dealer, seat, c) -> deck position
    gid = np.arange(big_g)
    scores = batch.scores.astype(_I64)
    dealer = batch.dealer.copy()
    deal_no = 0
    history = batch._history

    def rows_out(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        """History rows ``(..., N)`` from the rows of the games in play ``(..., len(gid))`` (-1 elsewhere)."""
        if values.shape[-1] == big_g:
            return values.astype(_I8)
        out = np.full((*values.shape[:-1], big_g), -1, dtype=_I8)
        out[..., gid] = values
        return out

    while gid.size:
        a = gid.size
        rows = np.arange(a)
        if deal_no == 0:
            hands = np.sort(batch.hands[:, :, :k], axis=2)
            crib_extra = batch.crib[:, 0]
            starter8 = batch._stock_top
        else:
            deck = batch._chance.packs(gid, batch._cuts[gid] + deal_no)
            hands = np.sort(deck[rows[:, None, None], deal_slots[dealer]], axis=2)
            crib_extra = deck[:, dealt]
            starter8 = deck[:, dealt + extra]
        starter = starter8.astype(_I64)
        # the discards, recorded seat by seat from the dealer's left (spec §2.2)
        pick = gen.integers(0, len(subsets), size=(a, n))
        first = (rows[:, None] * n + np.arange(n))[:, :, None] * k  # each seat's first slot in ``hands``
        laid = hands.reshape(-1)[first + disc_slots[pick]]  # (a, n, nd)
        kept = hands.reshape(-1)[first + keep_slots[pick]]  # (a, n, 4), in card order
        order = (dealer[:, None] + 1 + np.arange(n)) % n  # seats from the dealer's left
        picks = laid[rows[:, None], order].reshape(a, n * nd) + 64  # a discard pick (see Batch._apply)
        history.extend(rows_out(picks.T))
        crib = laid.reshape(a, n * nd)
        if extra:
            crib = np.concatenate([crib_extra[:, None], crib], axis=1)
        hand_points = _show_points(kept.reshape(a * n, 4), np.repeat(starter8, n), False)
        show = hand_points.reshape(a, n).astype(_I64)
        crib_points = _show_points(crib, starter8, True).astype(_I64)
        packed = np.zeros((a * n, 8), dtype=np.uint8)  # four card bytes, then the sentinel 52
        packed[:, :4] = kept.reshape(a * n, 4)
        packed[:, 4] = _NONE
        hand = packed.view(np.dtype("<i8")).reshape(-1).astype(_I64)
        flat_scores = scores.reshape(-1)
        alive = np.ones(a, dtype=np.bool_)

        won_by = np.full(a, -1, dtype=_I64)  # the seat that reached the target, by game
        ends = _Ends(flat_scores, alive, won_by, n, target, bool(partner))
        award = ends.award

        # his heels (spec §2.3)
        heels = (starter >> 2) == _JACK0
        if heels.any():
            award(rows, rows * n + dealer, heels * 2, heels)
        # the play (spec §2.4)
        rown = rows * n
        turn = (dealer + 1) % n
        count = np.where(alive, 0, 32)  # 32: out of the play (finished it, or the game is over)
        last = np.zeros(a, dtype=_I64)
        holding = np.full(a, shifts - 1, dtype=_I64)  # bit s: seat s holds cards
        avail = holding.copy()  # ... and has not said go in this count
        key7 = np.zeros(a, dtype=_I64)
        inplay = alive.copy()
        play = _Count(n, nexts, award, count, last, holding, avail, key7, turn, inplay, alive)
        steps: list[npt.NDArray[np.int64]] = []
        pool = np.zeros((0, a), dtype=_I64)
        cards_laid = 0
        while inplay.any():
            if cards_laid % _POOL == 0:
                pool = gen.integers(0, 12, size=(_POOL, a)) * 5  # a uniform 0..11 per game and step, times 5
            at = rown + turn
            held = hand.take(at)
            fit = _FIT.take(count)
            fit -= held
            fit &= 0x80808080
            fits = np.bitwise_count(fit)  # the cards that fit: the lowest slots (card order)
            slot = _SLOT.take(pool[cards_laid % _POOL] + fits)
            cards_laid += 1
            card = held >> _SHIFT.take(slot)
            card &= 0xFF  # 52 (go) where nothing fits
            left = held >> 8
            left &= _NLOW.take(slot)
            held &= _LOW.take(slot)
            left |= held
            left |= _SENTINEL
            hand[at] = left
            steps.append(np.where(inplay, card, -1))
            laid_card = fits > 0
            count += _VAL0.take(card)
            key7 *= _MUL.take(card)  # a go leaves the key as it is
            key7 += _RANKS.take(card)
            key7 %= _P7
            key5 = key7 % _P5
            points = peg.take(key5)
            points += _FIFTEEN.take(count)
            points *= laid_card
            if (points >= _LONG).any():  # five distinct ranks: a run of six or seven?
                w = np.flatnonzero(points >= _LONG)
                points[w] += _long_runs(key7[w], peg[key5[w]] - _LONG) - _LONG
            won = award(rows, at, points, inplay)
            bit = inplay << turn  # nothing changes for a game out of the play
            emptied = left == _EMPTY
            holding -= bit * emptied
            emptied |= ~laid_card  # a seat that said go, or has no cards left, is out of this count
            avail -= bit * emptied
            np.copyto(last, turn, where=laid_card)
            nxt = nexts.take((turn << n) + avail)
            if won is not None:
                inplay &= ~won
                count[won] = 32
            ended = nxt < 0
            ended |= count == 31
            ended &= inplay
            np.maximum(nxt, 0, out=turn)
            e = np.flatnonzero(ended)
            if e.size:
                play.end(e)
            # forced gos: the seat to play holds cards but none fits, so its only move is go (spec §2.4 item 2);
            # said here, in rows of their own, not in a step of every game
            while True:
                held = hand.take(rown + turn)
                fit = _FIT.take(count)
                fit -= held
                fit &= 0x80808080
                forced = fit == 0
                forced &= inplay
                f = np.flatnonzero(forced)
                if not f.size:
                    break
                steps.append(np.where(forced, GO, -1))
                seat = turn[f]
                left_f = avail[f] - (1 << seat)
                avail[f] = left_f
                nxt_f = nexts.take((seat << n) + left_f)
                turn[f] = np.maximum(nxt_f, 0)
                over = nxt_f < 0
                if over.any():
                    play.end(f[over])
        if steps:
            history.extend(rows_out(np.stack(steps)))
        # the show (spec §2.6): each hand from the dealer's left, the dealer's, then the crib
        for i in range(n + 1):
            seat = (dealer + 1 + i) % n if i < n else dealer
            points = show[rows, seat] if i < n else crib_points
            if alive.any():
                award(rows, rown + seat, points * alive, alive.copy())
        ended_now = ~alive
        if ended_now.any():
            batch.scores[gid[ended_now]] = scores[ended_now]
            batch.dealer[gid[ended_now]] = dealer[ended_now]
            batch.deals[gid[ended_now]] = deal_no + 1
            batch.phase[gid[ended_now]] = _OVER
            batch._game_over(gid[ended_now], won_by[ended_now])
        gid, scores, dealer = gid[alive], scores[alive], (dealer[alive] + 1) % n
        deal_no += 1


class _Ends:
    """Pegging for :func:`_random_games`: points onto ``scores`` (flat, game-major), and the games that end."""

    def __init__(
        self,
        scores: npt.NDArray[np.int64],
        alive: npt.NDArray[np.bool_],
        won_by: npt.NDArray[np.int64],
        players: int,
        target: int,
        partnership: bool,
    ) -> None:
        self.scores, self.alive, self.won_by = scores, alive, won_by
        self.players, self.target, self.partnership = players, target, partnership

    def award(
        self, g: npt.NDArray[np.int64], at: npt.NDArray[np.int64], points: npt.NDArray[np.int64], live: Any
    ) -> npt.NDArray[np.bool_] | None:
        """Add ``points`` at ``scores[at]`` (games ``g``, seats ``at % players``) where ``live``; a game whose side
        reaches the target ends there (spec §2.4 item 8).  Returns which of ``g`` ended, or None if none did."""
        scores = self.scores
        got = scores.take(at)
        got += points
        scores[at] = got
        if self.partnership:
            got += scores.take(at ^ 2)
        won = got >= self.target
        won &= live
        if not won.any():
            return None
        self.alive[g[won]] = False
        self.won_by[g[won]] = at[won] % self.players
        return won


class _Count:
    """The play's arrays for :func:`_random_games` (game-local rows), and the end of a count."""

    def __init__(
        self,
        players: int,
        nexts: npt.NDArray[np.int64],
        award: Callable[..., npt.NDArray[np.bool_] | None],
        *arrays: npt.NDArray[Any],
    ) -> None:
        self.n, self.nexts, self.award = players, nexts, award
        self.count, self.last, self.holding, self.avail, self.key7, self.turn, self.inplay, self.alive = arrays

    def end(self, e: npt.NDArray[np.int64]) -> None:
        """Nobody can lay a card (or 31) in games ``e``: the go or last-card point (spec §2.4 steps 4-5), then a
        new count from the last player's left, or the play is over (the game waits for its show)."""
        n, count = self.n, self.count
        go = e[count[e] != 31]
        if go.size:
            self.award(go, go * n + self.last[go], np.ones(go.size, dtype=_I64), True)
            over = e[~self.alive[e]]
            count[over] = 32
            self.inplay[over] = False
            e = e[self.alive[e]]
        hold = self.holding[e]
        more = hold != 0
        r = e[more]
        self.turn[r] = self.nexts[(self.last[r] << n) + hold[more]]
        count[r] = 0
        self.avail[r] = hold[more]
        self.key7[r] = 0
        done = e[~more]
        count[done] = 32
        self.inplay[done] = False


def _combinations(k: int, r: int) -> list[tuple[int, ...]]:
    from itertools import combinations

    return list(combinations(range(k), r))


def _uniform12(gen: np.random.Generator, size: int) -> npt.NDArray[np.int64]:
    """``size`` integers uniform in 0..11."""
    return gen.integers(0, 12, size=size)
