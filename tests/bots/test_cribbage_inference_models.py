"""The strong Cribbage options ``take``, ``keep_model`` and ``resample`` (experiments, off by default): sampled
deals weighted by how likely the opponent's discard (spec §5: players keep the four of the most points) and its
plays (spec §2.4: players take the points a card scores) were, and the searched deals drawn by that weight."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from kortbord.bots import cribbage_strong as cs
from kortbord.bots.registry import make_bot
from kortbord.cards import full_deck, parse_cards
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.moves import Play
from kortbord.cribbage.scoring import score_show
from kortbord.cribbage.view import View, view

RULES = Rules.from_dict({"players": 2, "target": 121})


def _after(plays: list[str]) -> View:
    """Seat 1 (the pone, who leads) views the play after ``plays`` (cards in play order, seats alternating)."""
    state = engine.position(
        RULES,
        phase="play",
        dealer=0,
        hands=["4H 2C 3D 7S", "5S 8C 9D AH"],
        crib="QH QD 6C 6D",
        starter="JC",
    )
    for text in plays:
        (card,) = parse_cards(text)
        state = engine.apply(state, Play(card))
    return view(state, 1)


def test_off_by_default() -> None:
    bot = cs.StrongBot()
    assert (bot.take, bot.keep_model, bot.resample) == (0.0, 0.0, 1)
    sampler = cs._Sampler(_after(["5S", "4H"]))
    assert sampler._plays is None and sampler._keeps is None


@pytest.mark.parametrize(
    "opts", [{"take": 1.0}, {"take": -0.1}, {"keep_model": -1.0}, {"resample": 0}, {"resample": 257}]
)
def test_bad_values_are_refused(opts: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        cs.StrongBot(**opts)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        make_bot("cribbage", "strong", RULES, **opts)  # type: ignore[arg-type]


def test_passing_up_a_fifteen_divides_by_one_minus_take() -> None:
    # The lead was 5S; the dealer laid 4H (count 9).  Holding 4H KH 2C 3D it could have made fifteen for 2 with the
    # king (spec §2.4), so under ``take`` = 0.9 the 4H had chance (1 - 0.9) / 4 legal cards; holding 4H 7S 2C 3D no
    # card scored, and each of the four had chance 1/4.
    model = cs._PlayModel(_after(["5S", "4H"]), 0.0, take=0.9)
    assert model.likelihood(parse_cards("4H KH 2C 3D")) == pytest.approx(0.1 / 4)
    assert model.likelihood(parse_cards("4H 7S 2C 3D")) == pytest.approx(1 / 4)


def test_each_play_with_points_passed_up_counts() -> None:
    # Play 5S (pone), 4H (dealer, count 9), AH (count 10), 7S (dealer, count 17); the dealer is the opponent.
    # Holding 4H 7S 2C 5D it passed up a pair (5D on 5S, 2 points) at count 5 and a fifteen (5D at 10) at count
    # 10: (0.5 / 4) * (0.5 / 3) under take = 0.5.  Holding 4H 7S 2C 3D no card it held scored either time (no
    # pair, fifteen, 31 or run of three): 1/4 * 1/3.
    model = cs._PlayModel(_after(["5S", "4H", "AH", "7S"]), 0.0, take=0.5)
    assert model.likelihood(parse_cards("4H 7S 2C 5D")) == pytest.approx(0.5 / 4 * 0.5 / 3)
    assert model.likelihood(parse_cards("4H 7S 2C 3D")) == pytest.approx(1 / 4 * 1 / 3)


def test_keep_model_is_a_distribution_over_the_fifteen_keeps() -> None:
    rng = random.Random(8)
    deck = list(full_deck())
    for seat in (0, 1):
        state = engine.position(RULES, phase="play", dealer=0, hands=["4H 2C 3D 7S", "5S 8C 9D AH"],
                                crib="QH QD 6C 6D", starter="JC")  # fmt: skip
        model = cs._KeepModel(view(state, seat), 0.5)
        for _ in range(5):
            six = rng.sample(deck, 6)
            chances = [
                model.likelihood([c for c in six if c not in pair], pair) for pair in itertools.combinations(six, 2)
            ]
            assert sum(chances) == pytest.approx(1.0)
            assert all(0.0 < p < 1.0 for p in chances)


def test_keep_model_prefers_the_keep_of_most_points() -> None:
    # 5S 5H 5D JC with 2C 9D thrown: the four fives-and-jack hand averages over 16 points (spec §3 counting);
    # keeping 2C 9D 5S JC and throwing two fives to the other's crib is far worse for either seat.
    state = engine.position(RULES, phase="play", dealer=0, hands=["4H 2C 3D 7S", "5C 8C 9H AH"],
                            crib="QH QD 6C 6D", starter="JS")  # fmt: skip
    model = cs._KeepModel(view(state, 1), 0.5)  # the viewer is the pone: the opponent's crib is its own
    best = model.likelihood(parse_cards("5S 5H 5D JC"), parse_cards("2C 9D"))
    worse = model.likelihood(parse_cards("2C 9D 5S JC"), parse_cards("5H 5D"))
    assert best > 0.5 and worse < 0.01


def test_rank_mean_is_the_shows_mean_without_flush_and_nobs() -> None:
    # the mean over the 46 starters not among the six of the hand's fifteens, pairs and runs, plus 1/4 a jack
    rng = random.Random(5)
    deck = list(full_deck())
    for _ in range(20):
        six = rng.sample(deck, 6)
        kept, out = six[:4], six[4:]
        total = 0
        for s in deck:
            if s in six:
                continue
            shown = score_show(kept, s)
            total += sum(g.points for g in shown.groups if g.kind in ("fifteen", "pair", "run"))
        expected = total / 46 + 0.25 * sum(1 for c in kept if c.rank == 11)
        got = cs._rank_mean(tuple(sorted(c.rank for c in kept)), tuple(sorted(c.rank for c in out)))
        assert math.isclose(got, expected, rel_tol=1e-12)


def test_resample_plays_a_legal_card_and_repeats_itself() -> None:
    v = _after(["5S", "4H"])
    bot = make_bot("cribbage", "strong", RULES, take=0.9, keep_model=0.5, resample=8, iterations=20)
    assert isinstance(bot, cs.StrongBot) and bot.resample == 8
    first = bot.choose(v, list(v.legal_moves), random.Random(3))
    assert first in v.legal_moves
    again = make_bot("cribbage", "strong", RULES, take=0.9, keep_model=0.5, resample=8, iterations=20)
    assert again.choose(v, list(v.legal_moves), random.Random(3)) == first
