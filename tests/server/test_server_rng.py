"""The live-game generator ``sha256-ctr-v1`` (kortbord.server.rng): the stream is SHA-256 in counter mode as its
docstring specifies (checked against hashlib), reproducible from the seed, unbiased, and the engines replay a game
exactly from it."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from kortbord import cribbage, mulle
from kortbord.server.rng import DeterministicCSPRNG, new_seed, seed_commitment


def test_stream_is_sha256_counter_mode() -> None:
    seed = bytes(range(32))
    r = DeterministicCSPRNG(seed)
    block0 = hashlib.sha256(seed + (0).to_bytes(8, "big")).digest()
    block1 = hashlib.sha256(seed + (1).to_bytes(8, "big")).digest()
    assert r.getrandbits(256) == int.from_bytes(block0, "big")
    assert r.getrandbits(12) == int.from_bytes(block1[:2], "big") >> 4  # top 12 bits of the next 2 bytes
    assert r.getrandbits(0) == 0
    assert DeterministicCSPRNG(seed.hex()).getrandbits(256) == int.from_bytes(block0, "big")


def test_reproducible_and_state_round_trip() -> None:
    seed = new_seed()
    a, b = DeterministicCSPRNG(seed), DeterministicCSPRNG(seed)
    xs = list(range(104))
    ys = list(range(104))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys and sorted(xs) == list(range(104)) and xs != list(range(104))
    saved = a.getstate()
    first = [a.randrange(1000) for _ in range(20)]
    a.setstate(saved)
    assert [a.randrange(1000) for _ in range(20)] == first
    assert DeterministicCSPRNG().seed_hex != DeterministicCSPRNG().seed_hex  # fresh secret seeds
    assert seed_commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    with pytest.raises(ValueError):
        DeterministicCSPRNG("abc")
    with pytest.raises(ValueError):
        a.setstate(random.Random(1).getstate())


def test_unbiased() -> None:
    """randrange(3) over 30,000 draws: chi-square with 2 degrees of freedom below 13.8 (p = 0.001)."""
    r = DeterministicCSPRNG(hashlib.sha256(b"bias").digest())
    n = 30000
    counts = Counter(r.randrange(3) for _ in range(n))
    chi2 = sum((counts[k] - n / 3) ** 2 / (n / 3) for k in range(3))
    assert chi2 < 13.8
    # every position of a 4-card shuffle is equally likely for card 0 (chi-square, 3 dof, p = 0.001: 16.3)
    pos: Counter[int] = Counter()
    for _ in range(8000):
        deck = [0, 1, 2, 3]
        r.shuffle(deck)
        pos[deck.index(0)] += 1
    assert sum((pos[k] - 2000) ** 2 / 2000 for k in range(4)) < 16.3


@pytest.mark.parametrize("game", ["mulle", "cribbage"])
def test_engines_replay_exactly(game: str) -> None:
    seed = new_seed()
    eng = mulle if game == "mulle" else cribbage

    def play(seed: str) -> list[str]:
        rng, choose = DeterministicCSPRNG(seed), random.Random(1)
        state = eng.new_game()
        trace = []
        while not eng.is_over(state) and len(trace) < 300:
            move = eng.chance_outcome(state, rng) if eng.is_chance(state) else choose.choice(eng.legal_moves(state))
            trace.append(str(move))
            state = eng.apply(state, move)
        return trace

    assert play(seed) == play(seed)
    assert play(seed)[0] != play(new_seed())[0]  # another seed deals another game
