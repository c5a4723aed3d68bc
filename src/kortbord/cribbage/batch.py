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
:func:`play_random` plays whole batches with uniformly random legal actions (the benchmark loop).
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
_MORE: Final = 4  # packs shuffled at once for games that run out of packs shuffled ahead (<= the packs ahead)


# ---------------------------------------------------------------------------------------------------------------
# Python's random.Random on arrays: MT19937, init_by_array with a one-word key, getrandbits and shuffle
# ---------------------------------------------------------------------------------------------------------------

_N, _M = 624, 397
_BLOCKS = 3  # tempered words buffered per stream: the current block and two ahead


def _mt_seed(seeds: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    """MT19937 states ``(624, G)`` as CPython's ``random.seed(s)`` leaves them for ``0 <= s < 2**32``.

    CPython seeds with ``init_by_array`` on the 32-bit words of ``abs(s)`` (one word here), after
    ``init_genrand(19650218)``; the index is then 624, so the first draw twists.
    """
    g = seeds.shape[0]
    base = np.empty(_N, dtype=np.uint64)
    base[0] = 19650218
    for i in range(1, _N):
        prev = int(base[i - 1])
        base[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    mt = np.repeat(base.astype(_U32)[:, None], g, axis=1)
    key = seeds.astype(_U32)
    i = 1
    for _ in range(_N):  # k = max(624, key length) steps
        prev = mt[i - 1]
        mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * _U32(1664525))) + key
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    for _ in range(_N - 1):
        prev = mt[i - 1]
        mt[i] = (mt[i] ^ ((prev ^ (prev >> 30)) * _U32(1566083941))) - _U32(i)
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    return mt


def _twist(mt: npt.NDArray[np.uint32]) -> None:
    """One MT19937 generation in place, on states ``(624, G)`` (each column a stream)."""
    upper, lower, matrix = _U32(0x80000000), _U32(0x7FFFFFFF), _U32(0x9908B0DF)

    def mix(y: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
        return (y >> _U32(1)) ^ ((y & _U32(1)) * matrix)

    # mt[i] = mt[i + 397 mod 624] ^ mix(upper bit of mt[i], lower bits of mt[i + 1]); in blocks whose inputs are
    # final: [0, 227) reads old words, [227, 454) reads [0, 227), [454, 623) reads [227, 396), 623 reads 0 and 396.
    mt[:227] = mt[397:624] ^ mix((mt[:227] & upper) | (mt[1:228] & lower))
    mt[227:454] = mt[0:227] ^ mix((mt[227:454] & upper) | (mt[228:455] & lower))
    mt[454:623] = mt[227:396] ^ mix((mt[454:623] & upper) | (mt[455:624] & lower))
    mt[623] = mt[396] ^ mix((mt[623] & upper) | (mt[0] & lower))


def _temper(mt: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint32]:
    y = mt ^ (mt >> _U32(11))
    y ^= (y << _U32(7)) & _U32(0x9D2C5680)
    y ^= (y << _U32(15)) & _U32(0xEFC60000)
    y ^= y >> _U32(18)
    return y


class _Streams:
    """One ``random.Random(seed)`` per game, all generated in lockstep: tempered 32-bit outputs side by side.

    ``buf`` is ``(rows, G)``: row ``r`` holds every stream's output at depth ``r`` (the streams are read at nearly
    the same depth, so a draw for every game touches a narrow band of rows); ``pos`` is each stream's next row.  A
    new block of 624 rows is twisted for every stream at once when the deepest stream nears the end; the oldest
    block is dropped once every stream is past it.
    """

    def __init__(self, seeds: npt.NDArray[np.uint32]) -> None:
        self.mt = _mt_seed(seeds)
        self.g = seeds.shape[0]
        self.buf = np.empty((0, self.g), dtype=_U32)
        self.pos = np.zeros(self.g, dtype=_I64)
        self.ensure(2 * _N)

    def ensure(self, ahead: int) -> None:
        """Make at least ``ahead`` outputs available to every stream."""
        while int(self.pos.max()) + ahead > self.buf.shape[0]:
            _twist(self.mt)
            block = _temper(self.mt)
            if self.buf.shape[0] >= _N and int(self.pos.min()) >= _N:  # every stream is past the oldest block
                self.buf[:-_N] = self.buf[_N:]
                self.buf[-_N:] = block
                self.pos -= _N
            else:
                self.buf = np.concatenate([self.buf, block])
        self.flat = self.buf.reshape(-1)

    def shuffle(self, games: npt.NDArray[np.int64], keep: int = 52) -> npt.NDArray[np.int8]:
        """``random.shuffle(list(range(52)))`` on the streams of ``games``: the top ``keep`` cards of each pack,
        ``(len(games), keep)``, top first.

        CPython swaps ``x[i]`` with ``x[j]`` for ``i = 51 .. 1``, ``j = _randbelow(i + 1)``: ``getrandbits(k)``
        (the top ``k`` bits of one output, ``k`` the bit length of ``i + 1``) drawn until it is below ``i + 1``.
        Below ``keep`` a position is never read again once its step is done, so only its card is moved.
        """
        m = games.size
        g = self.g
        self.ensure(_N)
        deck = np.tile(np.arange(52, dtype=_I8), (m, 1))
        flat_deck = deck.reshape(-1)
        row_base = np.arange(m, dtype=_I64) * 52
        at = self.pos[games] * g + games  # each stream's next output in ``flat``
        flat = self.flat
        for i in range(51, 0, -1):
            if i % 16 == 0 and int(at.max()) // g + 1024 > self.buf.shape[0]:  # pragma: no cover - rejections
                self.pos[games] = at // g
                self.ensure(1024)
                flat = self.flat
                at = self.pos[games] * g + games
            n = i + 1
            shift = _U32(32 - n.bit_length())
            j = flat[at] >> shift
            at += g
            bad = np.flatnonzero(j >= n)
            while bad.size:
                redo = flat[at[bad]] >> shift
                at[bad] += g
                ok = redo < n
                j[bad[ok]] = redo[ok]
                bad = bad[~ok]
            where = row_base + j
            if i >= keep:  # position i is final and not kept: only the card moving to j matters
                flat_deck[where] = deck[:, i]
            else:
                top = deck[:, i].copy()
                deck[:, i] = flat_deck[where]
                flat_deck[where] = top
        self.pos[games] = at // g
        return deck[:, :keep]


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
        self._streams = _Streams(seed_arr.astype(_U32))
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
        self._cut()
        # the packs of the deals, shuffled ahead in waves over every game (chance never depends on decisions)
        self._top = self.dealt + self.extra + 1  # the cards a deal uses: the hands, the crib's, the starter
        ahead = {2: 14, 3: 14, 4: 9}[n] if self.target == 121 else {2: 8, 3: 8, 4: 7}[n]
        self._packs = np.zeros((g, ahead, self._top), dtype=_I8)
        everyone = np.arange(g)
        for d in range(ahead):
            self._packs[:, d] = self._streams.shuffle(everyone, self._top)
        self._pack_i = np.zeros(g, dtype=_I64)
        self._deal(everyone)

    # -- chance ---------------------------------------------------------------------------------------------------
    def _cut(self) -> None:
        """The cut for deal (spec §2.2): each seat a card from a shuffled pack; lowest rank deals; ties cut again."""
        n = self.players
        todo = np.arange(self.n)
        while todo.size:
            ranks = self._streams.shuffle(todo)[:, :n] >> 2
            low = ranks.min(axis=1)
            ties = (ranks == low[:, None]).sum(axis=1) > 1
            done = todo[~ties]
            self.dealer[done] = np.argmin(ranks[~ties], axis=1)
            todo = todo[ties]

    def _deal(self, games: npt.NDArray[np.int64]) -> None:
        """Shuffle and deal (spec §2.2): cards one at a time from the dealer's left; 3 players: one to the crib."""
        ahead = self._packs.shape[1]
        if (self._pack_i[games] >= ahead).any():  # long games: shuffle more packs, in order, for every game near
            near = (self._pack_i >= max(ahead - 1, _MORE)) & (self.phase != _OVER)  # with those nearly out
            out = np.flatnonzero(near | (self._pack_i >= ahead))
            more = np.stack([self._streams.shuffle(out, self._top) for _ in range(_MORE)], axis=1)
            self._packs[out] = np.concatenate([self._packs[out, _MORE:], more], axis=1)
            self._pack_i[out] -= _MORE
        deck = self._packs[games, self._pack_i[games]]
        self._pack_i[games] += 1
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

    def _random_step(self, rng: np.random.Generator) -> None:
        """:meth:`step` with :meth:`random_actions`, without the legality check (the actions are legal)."""
        discarding = np.flatnonzero(self.phase == _DISCARD)
        if discarding.size:
            self._random_discards(discarding, rng)
        rows = np.arange(self.n)
        hand = self.hands.reshape(-1, 6)[rows * self.players + self.turn]
        play = self.phase == _PLAY
        room = np.where(play, 31 - self.count, -1)  # nothing fits in a finished game (or one not in the play)
        ok = _VALUE[hand] <= room[:, None]
        slot = np.argmax(rng.random((self.n, 6), dtype=np.float32) + ok, axis=1)
        act = np.where(ok.any(axis=1), hand[rows, slot], GO).astype(_I64)
        self._apply(act, slot, play)

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

    def _random_discards(self, d: npt.NDArray[np.int64], rng: np.random.Generator) -> None:
        """Every seat's uniformly random discard at once in the games ``d`` (all at their deal's first discard),
        recorded seat by seat from the dealer's left as :meth:`step` would record them."""
        m, n, k, nd = d.size, self.players, self.k, self.rules.discards
        picks = np.argsort(rng.random((m, n, k), dtype=np.float32), axis=2)[:, :, :nd]
        hands = self.hands[d]
        cards = np.take_along_axis(hands, picks, axis=2)  # (m, n, nd)
        np.put_along_axis(hands, picks, _NONE, axis=2)
        self.hands[d] = hands
        self.held[d] = k - nd
        rows = np.arange(m)
        dealer = self.dealer[d]
        for j in range(n):
            seat = (dealer + 1 + j) % n
            for c in range(nd):
                record = np.full(self.n, -1, dtype=_I8)
                record[d] = cards[rows, seat, c] + 64
                self._history.append(record)
        laid = cards.reshape(m, n * nd)
        self.crib[d] = np.concatenate([self.crib[d, : self.extra], laid], axis=1) if self.extra else laid
        self.crib_n[d] = 4
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
        while not (self.phase == _OVER).all():
            if policy is None:
                self._random_step(gen)
            else:
                obs = self.observe()
                self.step(policy(obs, obs["legal_action_mask"]))
        return self

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
