"""The levels for people, ``beginner`` and ``casual``: stated rates that hold, mistakes drawn from the seed, words.

The rates are checked against the registry's definition (:attr:`kortbord.bots.registry.Level.preset`), the stated
numbers of the issue's levels, with exact binomial bounds: in real games every decision of the level is replayed
through the greedy values (the judgement the levels share), classified by which mistakes were possible there, and
the count of decisions whose move is not one of greedy's best is compared with the stated probability
(``o + (1 - o) * s`` where an overlook was possible, ``s`` where only a slip was).  Each mistake is drawn
independently of the past from the bot's generator, so the count of mistakes in a class is a sum of independent
Bernoulli draws of the stated probability however the positions arose (the bound holds for the martingale count).
A miscount under Muggins is checked against the scoring groups of ``kortbord.cribbage.scoring.score_show`` (rules
spec §2.5): the announced count is the true one minus exactly one group's points.
"""

from __future__ import annotations

import inspect
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kortbord import i18n
from kortbord.arena import ArenaConfig, BotSpec, play_game, run_arena
from kortbord.bots import cribbage_people, mistakes, mulle_people, registry
from kortbord.bots.base import Bot
from kortbord.cribbage.moves import Accept, Announce, MugginsCall, Overcount
from kortbord.cribbage.scoring import score_show, show_total
from kortbord.mulle.moves import Trail

ROOT = Path(__file__).resolve().parents[2]
PEOPLE = ("beginner", "casual")
#: The stated rates (the issue's levels; docs/bots.md): the registry must define exactly these.
STATED = {
    ("mulle", "beginner"): {"slip_rate": 0.30, "overlook_rate": 0.25},
    ("mulle", "casual"): {"slip_rate": 0.12, "overlook_rate": 0.10},
    ("cribbage", "beginner"): {"slip_rate": 0.30, "overlook_rate": 0.25, "miss_rate": 0.30, "catch_rate": 0.40},
    ("cribbage", "casual"): {"slip_rate": 0.12, "overlook_rate": 0.10, "miss_rate": 0.15, "catch_rate": 0.70},
}
ALPHA = 1e-5  # two-sided: a correct level fails one of these checks about once in 100,000 seeds


# ------------------------------------------------------------------------------------------------ exact bounds
def _log_pmf(k: int, n: int, p: float) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)


def _tails(k: int, n: int, p: float) -> tuple[float, float]:
    """``(P(X <= k), P(X >= k))`` for X ~ Binomial(n, p), 0 < p < 1."""
    pmf = [math.exp(_log_pmf(i, n, p)) for i in range(n + 1)]
    return sum(pmf[: k + 1]), sum(pmf[k:])


def assert_rate(k: int, n: int, p: float, what: str) -> None:
    """``k`` successes in ``n`` draws are consistent with probability ``p`` (exact two-sided binomial test)."""
    assert n >= 100, f"{what}: too few decisions ({n}) to check a rate"
    low, high = _tails(k, n, p)
    assert min(low, high) > ALPHA / 2, f"{what}: {k}/{n} = {k / n:.3f} is not consistent with the stated {p}"


def test_the_exact_bound_matches_known_binomial_tails() -> None:
    # Binomial(10, 0.5): P(X <= 2) = (1 + 10 + 45) / 1024; P(X >= 9) = 11 / 1024
    assert _tails(2, 10, 0.5)[0] == pytest.approx(56 / 1024)
    assert _tails(9, 10, 0.5)[1] == pytest.approx(11 / 1024)
    with pytest.raises(AssertionError):
        assert_rate(60, 400, 0.30, "far too few")  # 15% against a stated 30% is refused
    assert_rate(120, 400, 0.30, "exact")


# ------------------------------------------------------------------------------------------------ recording games
@dataclass
class Decision:
    view: Any
    legal: list[Any]
    move: Any
    mistake: str | None


@dataclass
class Spy:
    """Wraps a level's bot and keeps every decision it made (its view, the legal moves, its move, its mistake)."""

    bot: Any
    decisions: list[Decision] = field(default_factory=list)

    @property
    def name(self) -> str:
        return str(self.bot.name)

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        move = self.bot.choose(view, legal, rng)
        self.decisions.append(Decision(view, list(legal), move, getattr(self.bot, "last_mistake", None)))
        return move


def _play(
    game: str, level: str, games: int, rules: tuple[tuple[str, Any], ...], opponent: str = "greedy", seed: int = 5
) -> list[Decision]:
    """Every decision of ``level`` (of both seats when ``opponent`` is the same level) in ``games`` games."""
    config = ArenaConfig(game, (BotSpec(level), BotSpec(opponent)), games=games, seed=seed, rules=rules)
    spies: list[Spy] = []

    def factory(spec: BotSpec, game_: str, rules_: Any) -> Bot[Any]:
        bot = spec.make(game_, rules_)
        if spec.level != level:
            return bot
        spy = Spy(bot)
        spies.append(spy)
        return spy

    for i in range(games):
        record = play_game(config, i, factory=factory)
        assert record.error is None, record.error
    return [d for s in spies for d in s.decisions]


def _top(values: Sequence[float]) -> set[int]:
    best = max(values)
    return {i for i, v in enumerate(values) if v >= best - 1e-9}


# ------------------------------------------------------------------------------------------------ the registry
def test_the_levels_are_in_the_registry_with_the_stated_rates() -> None:
    for game in registry.GAMES:
        levels = registry.LEVELS[game]
        assert levels.index("random") < levels.index("beginner") < levels.index("casual") < levels.index("greedy")
        assert registry.player_levels(game)[:2] == PEOPLE
        assert set(registry.player_levels(game)) <= set(registry.PLAYER_LEVELS)
        assert "expert" in registry.PLAYER_LEVELS  # room for the expert levels
        for level in PEOPLE:
            assert registry.level_rates(game, level) == STATED[(game, level)]
            bot = registry.make_bot(game, level)
            assert bot.name == level
            for option, rate in STATED[(game, level)].items():
                assert getattr(bot, option) == rate
    assert registry.miscounts("mulle", "beginner") is None  # Mulle has no Muggins
    assert registry.miscounts("cribbage", "beginner") == {"miss_rate": 0.30, "catch_rate": 0.40}
    assert registry.miscounts("cribbage", "casual") == {"miss_rate": 0.15, "catch_rate": 0.70}
    assert registry.miscounts("cribbage", "greedy") == {"miss_rate": 0.1, "catch_rate": 0.9}
    assert registry.miscounts("cribbage", "random") == {"miss_rate": 0.0, "catch_rate": 0.0}
    assert registry.miscounts("cribbage", "strong") == {"miss_rate": 0.0, "catch_rate": 1.0}


def test_a_callers_rate_replaces_only_that_rate_and_bad_rates_are_refused() -> None:
    bot = registry.make_bot("cribbage", "casual", miss_rate=0.5)
    assert (bot.miss_rate, bot.catch_rate, bot.slip_rate) == (0.5, 0.70, 0.12)  # type: ignore[attr-defined]
    assert registry.make_bot("mulle", "beginner", slip_rate=0.0).slip_rate == 0.0  # type: ignore[attr-defined]
    for bad in (-0.1, 1.5, float("nan"), True):
        with pytest.raises(ValueError, match="slip_rate"):
            registry.make_bot("mulle", "beginner", slip_rate=bad)
    with pytest.raises(ValueError, match="overlook_rate"):
        mulle_people.PeopleBot(name="x", slip_rate=0.1, overlook_rate=2)
    assert "slip_rate" in registry.level_options("cribbage", "beginner")
    greedy = registry.make_bot("cribbage", "greedy")  # greedy's Muggins rates are unchanged
    assert (greedy.miss_rate, greedy.catch_rate) == (0.1, 0.9)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game", registry.GAMES)
def test_every_level_is_described_in_both_languages_with_its_rates(game: str) -> None:
    for level in registry.LEVELS[game]:
        both = registry.describe(game, level)
        assert set(both["text"]) == set(i18n.LANGS) == set(both["name"])
        for lang in i18n.LANGS:
            one = registry.describe(game, level, lang)
            text = one["text"]
            assert text == both["text"][lang] and len(text) > 40 and "{" not in text
            assert i18n.catalogue(game)[f"levels.{game}.{level}"][lang]  # the catalogue entry the page reads
            for rate in list(one["rates"].values()) + list((one["miscounts"] or {}).values()):
                if level in PEOPLE:
                    assert f"{100 * rate:g}" in text, (level, lang, rate)
            if game == "cribbage":  # the Muggins sentence: its own entry, left out for a table without Muggins
                plain = registry.describe(game, level, lang, muggins=False)["text"]
                assert text == f"{plain} {one['muggins_text']}"
                assert i18n.catalogue(game)[f"levels.{game}.{level}.muggins"][lang]
            else:
                assert one["muggins_text"] is None
        assert both["for_people"] == (level in registry.PLAYER_LEVELS)
    with pytest.raises(ValueError, match="language"):
        registry.describe(game, "casual", "de")


@pytest.mark.parametrize(("game", "module"), [("mulle", mulle_people), ("cribbage", cribbage_people)])
def test_the_rates_are_stated_in_the_docstrings_and_docs(game: str, module: Any) -> None:
    doc = inspect.getdoc(module) or ""
    docs = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    for level in PEOPLE:
        rates = STATED[(game, level)]
        row = next(line for line in doc.splitlines() if line.startswith(level))
        assert [float(x) for x in row.split()[1:]] == [rates[k] for k in sorted(rates, key=_doc_order)]
        for rate in rates.values():
            assert f"{100 * rate:g}%" in docs


def _doc_order(option: str) -> int:
    return ["slip_rate", "overlook_rate", "miss_rate", "catch_rate"].index(option)


# ------------------------------------------------------------------------------------------------ reproducible
@pytest.mark.parametrize(
    ("game", "rules"),
    [("mulle", (("game_length", "single_round"),)), ("cribbage", (("target", 61), ("muggins", True)))],
)
def test_mistakes_come_from_the_seed(game: str, rules: tuple[tuple[str, Any], ...]) -> None:
    config = ArenaConfig(game, (BotSpec("beginner"), BotSpec("casual")), games=4, seed=3, rules=rules)
    one, two = run_arena(config, jobs=1), run_arena(config, jobs=1)
    assert one["game_results"] == two["game_results"]
    other = run_arena(ArenaConfig(game, config.bots, games=4, seed=4, rules=rules), jobs=1)
    assert other["game_results"] != one["game_results"]


# ------------------------------------------------------------------------------------------------ the rates hold
@pytest.mark.parametrize("level", PEOPLE)
def test_mulle_rates_hold(level: str) -> None:
    rates = STATED[("mulle", level)]
    o, s = rates["overlook_rate"], rates["slip_rate"]
    greedy = registry.make_bot("mulle", "greedy")
    both = [0, 0]  # decisions where an overlook was possible: [n, mistakes]
    slip = [0, 0]  # decisions where only a slip was
    for d in _play("mulle", level, 50, (("game_length", "single_round"),)):
        values = [greedy.evaluate(d.view, m) for m in d.legal]  # type: ignore[attr-defined]
        top = _top(values)
        chosen = d.legal.index(d.move)
        wrong = chosen not in top
        assert wrong == (d.mistake is not None)
        if len(top) == len(d.legal):
            assert not wrong
            continue
        kinds = {isinstance(d.legal[i], Trail) for i in top}
        if kinds == {False}:  # every best move is a capture or a build: it may be overlooked
            cell = both
        elif kinds == {True}:
            cell = slip
            assert d.mistake != "overlook"
        else:
            continue  # mixed best moves: which one greedy would pick is the tie-break's draw
        cell[0] += 1
        cell[1] += wrong
        if d.mistake == "slip":  # a plausible move: of the next two values below the best
            below = sorted({round(v, 9) for v in values if v < max(values) - 1e-9}, reverse=True)
            assert round(values[chosen], 9) in below[: mistakes.PLAUSIBLE]
    assert_rate(both[1], both[0], o + (1 - o) * s, f"mulle {level}: capture/build best")
    assert_rate(slip[1], slip[0], s, f"mulle {level}: trail best")


@pytest.mark.parametrize("level", PEOPLE)
def test_cribbage_rates_hold_and_a_miscount_misses_exactly_one_real_group(level: str) -> None:
    rates = STATED[("cribbage", level)]
    o, s, miss, catch = rates["overlook_rate"], rates["slip_rate"], rates["miss_rate"], rates["catch_rate"]
    greedy = registry.make_bot("cribbage", "greedy")
    discard, both, slip = [0, 0], [0, 0], [0, 0]
    counts, wrong_counts = [0, 0], [0, 0]  # own counts with a group to miss; others' wrong counts: [n, events]
    for d in _play("cribbage", level, 100, (("target", 61), ("muggins", True)), opponent=level):
        view = d.view
        if view.phase == "show":
            true = show_total(view.counting_cards, view.starter, view.counting_crib)
            if view.announced is None:
                assert isinstance(d.move, Announce)
                groups = score_show(view.counting_cards, view.starter, crib=view.counting_crib).groups
                if groups:
                    counts[0] += 1
                    counts[1] += d.move.points != true
                if d.move.points != true:  # a miscount: exactly one real scoring group overlooked
                    assert true - d.move.points in {g.points for g in groups}
                    assert d.move.points < true
            elif view.announced != true:
                wrong_counts[0] += 1
                caught = not isinstance(d.move, Accept)
                wrong_counts[1] += caught
                if caught:  # the optimal call: muggins for exactly the missed points, or overcount
                    expected = MugginsCall.of(true - view.announced) if view.announced < true else Overcount()
                    assert d.move == expected
            else:
                assert isinstance(d.move, Accept)
            continue
        if len(d.legal) == 1:
            continue
        if view.phase == "discard":
            values = [greedy.discard_value(view, m) for m in d.legal]  # type: ignore[attr-defined]
        else:
            values = [greedy.play_value(view, m) for m in d.legal]  # type: ignore[attr-defined]
        top = _top(values)
        wrong = d.legal.index(d.move) not in top
        assert wrong == (d.mistake is not None)
        if len(top) == len(d.legal):
            continue
        if view.phase == "discard":
            discard[0] += 1
            discard[1] += wrong
            continue
        scoring = {i for i, m in enumerate(d.legal) if cribbage_people.scores_at_once(view, m)}
        if top <= scoring and len(scoring) < len(d.legal):
            both[0] += 1
            both[1] += wrong
            if d.mistake == "overlook":  # the points were not seen: a card that scores nothing
                assert d.legal.index(d.move) not in scoring
        elif not top & scoring:
            slip[0] += 1
            slip[1] += wrong
    assert_rate(discard[1], discard[0], s, f"cribbage {level}: discard")
    assert_rate(both[1], both[0], o + (1 - o) * s, f"cribbage {level}: a scoring card best")
    assert_rate(slip[1], slip[0], s, f"cribbage {level}: no scoring card best")
    assert_rate(counts[1], counts[0], miss, f"cribbage {level}: own Muggins counts")
    assert_rate(wrong_counts[1], wrong_counts[0], catch, f"cribbage {level}: noticing a wrong count")


# ------------------------------------------------------------------------------------------------ invariants
@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(st.integers(-5, 5).map(float), min_size=1, max_size=9),
    slip=st.sampled_from([0.0, 0.3, 1.0]),
    overlook=st.sampled_from([0.0, 0.5, 1.0]),
    seed=st.integers(0, 2**16),
    kinds=st.lists(st.booleans(), min_size=9, max_size=9),
)
def test_a_mistake_is_of_the_stated_kind(
    values: list[float], slip: float, overlook: float, seed: int, kinds: list[bool]
) -> None:
    moves = list(range(len(values)))
    can = kinds[: len(values)]  # which moves are of an overlookable kind
    move, mistake = mistakes.choose(
        moves, values, random.Random(seed), slip_rate=slip, overlook_rate=overlook, overlookable=lambda m: can[m]
    )
    best = max(values)
    top = [i for i in moves if values[i] == best]
    below = sorted({v for v in values if v < best}, reverse=True)
    if mistake is None:
        assert move in top
        if slip == 1.0:  # a slip is certain where a worse move exists (unless an overlook came first)
            assert not below
    elif mistake == "overlook":
        assert overlook > 0 and move not in top and values[move] == max(values[i] for i in moves if i not in top)
    else:
        assert mistake == "slip" and slip > 0 and values[move] in below[: mistakes.PLAUSIBLE]
    if slip == 0.0 and overlook == 0.0:
        assert mistake is None
