"""The strong Cribbage options ``take``, ``keep_model`` and ``resample`` (experiments, off by default): sampled
deals weighted by how likely the opponent's discard (spec §5: players keep the four of the most points) and its
plays (spec §2.4: players take the points a card scores) were, and the searched deals drawn by that weight."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from bot_helpers import pone_view_after

from kortbord.bots import cribbage_strong as cs
from kortbord.bots.registry import make_bot
from kortbord.cards import full_deck, parse_cards
from kortbord.cribbage import Rules, engine
from kortbord.cribbage.scoring import score_show
from kortbord.cribbage.view import View, view

RULES = Rules.from_dict({"players": 2, "target": 121})


def _after(plays: list[str]) -> View:
    return pone_view_after(RULES, plays)


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


def test_taking_the_points_is_likely_and_ties_share_the_chance() -> None:
    # After the lead of 5S (count 5), holding 5D 4H 2C 3D only the 5D scores (a pair, spec §2.4): under take = 0.7
    # laying it has chance take + (1 - take) / 4 legal cards ...
    model = cs._PlayModel(_after(["5S", "4H"]), 0.0, take=0.7)
    five, four, two, three = parse_cards("5D 4H 2C 3D")
    held = [five, four, two, three]
    assert math.exp(model._log_chance(held, (5, 11), tuple(parse_cards("5S")), 5, five, 4, False)) == pytest.approx(
        0.7 + 0.3 / 4
    )
    # ... and two cards scoring alike (a ten-card after a 5 makes fifteen for 2 either way) share it
    king, queen = parse_cards("KH QD")
    held = [king, queen, two, three]
    chance = math.exp(model._log_chance(held, (5, 11), tuple(parse_cards("5S")), 5, king, 4, False))
    assert chance == pytest.approx(0.7 / 2 + 0.3 / 4)


def test_resample_searches_the_deals_drawn_in_proportion_to_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    # the sampler offers two deals, the second with nine times the weight of the first: the deals searched are the
    # second about nine times in ten
    v = _after(["5S", "4H"])
    first = cs._Sampler(v).sample(random.Random(1))[0]
    second = cs._Sampler(v).sample(random.Random(2))[0]
    assert first._hands != second._hands
    offers = iter(range(10**6))

    def draw(self: cs._Sampler, rng: random.Random) -> tuple[object, float]:
        return (second, 9.0) if next(offers) % 2 else (first, 1.0)

    searched: list[object] = []
    real = cs._Search.__init__

    def spy(self: cs._Search, seat: int, rules: Rules, root: object, *args: object, **kw: object) -> None:
        searched.append(root._hands)  # type: ignore[attr-defined]
        real(self, seat, rules, root, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(cs._Sampler, "draw", draw)
    monkeypatch.setattr(cs._Search, "__init__", spy)
    bot = cs.StrongBot(RULES, iterations=100, resample=2)
    bot.play_values(v, list(v.legal_moves), random.Random(4))
    share = sum(1 for h in searched if h == second._hands) / len(searched)
    assert len(searched) == 100 and 0.8 < share < 0.98


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


def test_rank_mean_is_the_shows_mean_without_flush_with_a_quarter_point_a_jack_for_nobs() -> None:
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
