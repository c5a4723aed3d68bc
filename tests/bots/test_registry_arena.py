"""The bot registry (one entry point for both games) and the arena (``kortbord arena``).

What is checked comes from outside the code under test: the Wilson interval against the published values of
Newcombe (1998), percentiles against NumPy, the per-round and per-deal points against the engines' own final
scores (they must add up), seats against the documented rotation, and what a bot receives against the full
state's hidden parts (other hands, the stock, a face-down crib).
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from kortbord import arena as arena_mod
from kortbord import cribbage, mulle
from kortbord.arena import ArenaConfig, BotSpec, percentile, play_game, run_arena, seat_specs, summarize, wilson
from kortbord.bots import registry
from kortbord.bots.base import Bot
from kortbord.cards import Card
from kortbord.cli import app, cribbage_terminal, mulle_terminal
from kortbord.errors import InvalidRulesError

runner = CliRunner()

MULLE_ROUND = (("game_length", "single_round"),)  # one round: short games for the tests
CRIB_61 = (("target", 61),)


def _strong_available(game: str) -> bool:
    return "strong" in registry.available_levels(game)


# ------------------------------------------------------------------------------------------------ the registry
def test_levels_of_both_games() -> None:
    levels = ("random", "beginner", "casual", "greedy", "strong", "expert")
    assert {"mulle": levels, "cribbage": levels} == registry.LEVELS
    for game in registry.GAMES:
        for level in ("random", "beginner", "casual", "greedy"):
            bot = registry.make_bot(game, level)
            assert bot.name == level
        assert set(registry.available_levels(game)) >= {"random", "greedy"}


@pytest.mark.parametrize(
    ("game", "level", "message"),
    [("chess", "greedy", "unknown game"), ("mulle", "deep", "random, beginner, casual, greedy, strong, expert")],
)
def test_unknown_game_or_level_is_refused(game: str, level: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        registry.make_bot(game, level)


def test_a_missing_strong_module_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    missing = dataclasses.replace(registry.BOTS["mulle"]["strong"], module="kortbord.bots.no_such_module")
    monkeypatch.setitem(registry.BOTS["mulle"], "strong", missing)
    with pytest.raises(ValueError, match="strong Mulle bot is not available"):
        registry.make_bot("mulle", "strong")
    assert "strong" not in registry.available_levels("mulle")
    # ... and the terminal game says so and exits 2 without playing
    result = runner.invoke(app, ["play", "mulle", "--bot", "strong", "--auto"])
    assert result.exit_code == 2 and "not available" in result.output


def test_options_are_checked_and_passed_to_the_levels_that_take_them() -> None:
    greedy = registry.make_bot("cribbage", "greedy", miss_rate=0.0, catch_rate=1.0, time_budget_ms=50)
    assert (greedy.miss_rate, greedy.catch_rate) == (0.0, 1.0)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="miss_rate"):
        registry.make_bot("cribbage", "greedy", miss_rate=1.5)
    with pytest.raises(ValueError, match="time_budget_ms"):
        registry.make_bot("mulle", "random", time_budget_ms=-1)
    with pytest.raises(ValueError, match="iterations"):
        registry.make_bot("mulle", "greedy", iterations=0)
    # an option the level does not take would be ignored: refused (a time cap, only a cap, excepted)
    with pytest.raises(ValueError, match="the mulle greedy bot does not take iterations"):
        registry.make_bot("mulle", "greedy", iterations=5)
    with pytest.raises(ValueError, match="does not take slip_rate, hands"):
        registry.make_bot("cribbage", "strong", board=False, hands=4, slip_rate=0.1)
    with pytest.raises(ValueError, match="does not take"):
        BotSpec("random", (("miss_rate", 0.5),)).make("cribbage", None)
    with pytest.raises(InvalidRulesError):
        registry.make_bot("mulle", "greedy", cribbage.Rules())  # the other game's rules
    with pytest.raises(InvalidRulesError):
        registry.make_bot("cribbage", "greedy", {"target": 100})
    assert registry.resolve_rules("mulle", {"target": 200}).target == 200


@pytest.mark.parametrize("game", registry.GAMES)
def test_strong_level_when_available(game: str) -> None:
    if not _strong_available(game):
        pytest.skip(f"the strong {game} bot has not landed")
    bot = registry.make_bot(game, "strong", time_budget_ms=20, iterations=3)
    assert bot.iterations == 3 and bot.time_budget_ms == 20  # type: ignore[attr-defined]
    assert "time_budget_ms" in registry.level_options(game, "strong")


def test_terminal_games_accept_every_level() -> None:
    for level in registry.LEVELS["mulle"]:
        mulle_terminal.build_rules(mulle_terminal.Options(bot=level))
    for level in registry.LEVELS["cribbage"]:
        cribbage_terminal.build_rules(cribbage_terminal.Options(bot=level))


# ------------------------------------------------------------------------------------------------ statistics
@pytest.mark.parametrize(
    ("x", "n", "low", "high"),
    # Newcombe, "Two-sided confidence intervals for the single proportion", Stat. Med. 17 (1998), Table II,
    # method 3 (Wilson score interval without continuity correction)
    [(81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718)],
)
def test_wilson_interval_matches_the_published_values(x: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson(x, n)
    assert round(lo, 4) == low and round(hi, 4) == high


def test_percentiles_match_numpy() -> None:
    rng = random.Random(3)
    xs = [rng.expovariate(0.1) for _ in range(101)]
    for q in (0, 50, 95, 100):
        assert percentile(xs, q) == pytest.approx(float(np.percentile(xs, q)))


# ------------------------------------------------------------------------------------------------ seats and runs
def test_seats_are_swapped_and_the_pairs_share_the_deals() -> None:
    config = ArenaConfig("mulle", (BotSpec("greedy"), BotSpec("random")), games=4, rules=MULLE_ROUND)
    assert [seat_specs(config, i) for i in range(4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    # game i: bot A in seat i % 2; games 2b and 2b+1 deal the same cards to the same seats
    first_hands: dict[int, dict[int, tuple[Card, ...]]] = {}

    def watch(state: Any, seat: int, view: Any, legal: Sequence[Any]) -> None:
        first_hands.setdefault(game_no, {}).setdefault(seat, view.hand)

    for game_no in range(4):
        play_game(config, game_no, watch=watch)
    assert first_hands[0] == first_hands[1] and first_hands[2] == first_hands[3]
    assert first_hands[0] != first_hands[2]
    four = ArenaConfig(
        "cribbage", (BotSpec("greedy"), BotSpec("random")), games=4, players=4, rules=CRIB_61
    )  # partners share a bot
    assert seat_specs(four, 1) == (1, 0, 1, 0)
    with pytest.raises(ValueError, match="bot"):
        ArenaConfig("mulle", (BotSpec("greedy"), BotSpec("random")), players=3)


def test_four_bots_in_partnerships_each_get_their_sides_figures() -> None:
    """Four players, four bots: partners are two different bots, and each is credited with its own side's score,
    points and result (the arena used to look a partner up among the sides' first seats and crash, and to score two
    partners who won as a draw)."""
    config = ArenaConfig(
        "cribbage",
        (BotSpec("greedy"), BotSpec("random"), BotSpec("random"), BotSpec("greedy")),
        games=4,
        players=4,
        rules=CRIB_61,
    )
    records = [play_game(config, i) for i in range(4)]
    summary = summarize(config, records)
    for r in records:  # one side wins a Cribbage game (spec §2.6): both its bots win, both the others lose
        winners = {j for j, o in r.outcome.items() if o == "win"}
        assert len(winners) == 2 and set(r.outcome.values()) == {"win", "loss"}
        assert len({r.seat_sides[r.seats.index(j)] for j in winners}) == 1
        assert r.scores[r.seat_sides[r.seats.index(next(iter(winners)))]] >= 61
        assert r.to_json()["seat_sides"] == list(r.seat_sides)
    for j, label in enumerate(config.labels):
        scores = []
        for r in records:
            seat = r.seats.index(j)
            partner = (seat + 2) % 4  # partners sit opposite (rules spec cribbage.md, four players)
            assert r.seat_sides[seat] == r.seat_sides[partner]
            scores.append(r.scores[r.seat_sides[seat]])
        assert summary["results"][label]["mean_score"] == pytest.approx(sum(scores) / 4)
        deal = summary["results"][label]["points_per_deal"]
        assert deal["as_dealer"]["n"] + deal["as_pone"]["n"] == sum(
            sum(d["complete"] for d in r.deals) for r in records
        )


def _deterministic(summary: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in summary.items() if k not in ("elapsed_s", "jobs")}
    out["results"] = {
        label: {k: v for k, v in r.items() if k != "decision_ms"} for label, r in summary["results"].items()
    }
    return out


@pytest.mark.parametrize(
    ("game", "bots", "rules", "games"),
    [
        ("mulle", ("greedy", "random"), MULLE_ROUND, 4),
        ("cribbage", ("greedy", "random"), CRIB_61, 4),
        ("mulle", ("strong:iterations=2", "greedy"), MULLE_ROUND, 2),
        ("cribbage", ("strong:iterations=4", "greedy"), CRIB_61, 2),
    ],
)
def test_small_runs_are_reproducible_whatever_the_processes(
    game: str, bots: tuple[str, str], rules: tuple[tuple[str, Any], ...], games: int
) -> None:
    if bots[0].startswith("strong") and not _strong_available(game):
        pytest.skip(f"the strong {game} bot has not landed")
    config = ArenaConfig(game, tuple(BotSpec.parse(b) for b in bots), games=games, seed=11, rules=rules)
    one = run_arena(config, jobs=1)
    two = run_arena(config, jobs=2, chunk=1)
    assert json.dumps(_deterministic(one), sort_keys=True) == json.dumps(_deterministic(two), sort_keys=True)
    assert one["games"] == games and not one["errors"]
    a, b = config.labels
    ra, rb = one["results"][a], one["results"][b]
    assert ra["games"] == rb["games"] == games
    assert ra["wins"] + ra["draws"] / 2 + rb["wins"] + rb["draws"] / 2 == games  # every game is won by one of them
    assert ra["decision_ms"]["all"]["n"] == ra["moves"] > 0
    for g in one["game_results"]:
        seat_of_a = g["seats"].index(0)
        assert seat_of_a == g["index"] % 2
        if game == "mulle":  # the round totals add up to the final scores (spec §2.11, §2.12)
            assert [sum(r[s] for r in g["rounds"]) for s in range(2)] == g["scores"]
        else:  # the points of the deals add up to the final scores; the dealer alternates (spec §2.2)
            assert [sum(d["points"][s] for d in g["deals"]) for s in range(2)] == g["scores"]
            dealers = [d["dealer"] for d in g["deals"]]
            assert all(x != y for x, y in itertools.pairwise(dealers))
            assert [d["complete"] for d in g["deals"]] == [True] * (len(dealers) - 1) + [False]
            assert max(g["scores"]) >= 61
    if game == "cribbage":
        deals = one["deals"]
        assert deals["cut_short"] == games
        # without Muggins no deal scores negative; the dealer's mean over all deals is the bots' mean as dealer
        n_dealer = ra["points_per_deal"]["as_dealer"]["n"] + rb["points_per_deal"]["as_dealer"]["n"]
        assert n_dealer == deals["complete"] == deals["dealer"]["n"]
        mean = (
            ra["points_per_deal"]["as_dealer"]["mean"] * ra["points_per_deal"]["as_dealer"]["n"]
            + rb["points_per_deal"]["as_dealer"]["mean"] * rb["points_per_deal"]["as_dealer"]["n"]
        ) / n_dealer
        assert mean == pytest.approx(deals["dealer"]["mean"])


def test_a_different_seed_gives_different_games() -> None:
    a = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("random")), games=2, seed=1, rules=CRIB_61)
    b = dataclasses.replace(a, seed=2)
    assert run_arena(a, jobs=1)["game_results"] != run_arena(b, jobs=1)["game_results"]


# ------------------------------------------------------------------------------------------------ only the view
def _walk(obj: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """Every object reachable from ``obj`` through containers, dataclass fields, slots and ``__dict__``."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    yield obj
    if isinstance(obj, (str, bytes, int, float, bool, type(None), random.Random)):
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _walk(k, seen)
            yield from _walk(v, seen)
        return
    if isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            yield from _walk(x, seen)
        return
    names: list[str] = []
    if dataclasses.is_dataclass(obj):
        names += [f.name for f in dataclasses.fields(obj)]
    for cls in type(obj).__mro__:
        names += [s for s in getattr(cls, "__slots__", ()) if isinstance(s, str)]
    names += list(getattr(obj, "__dict__", {}))
    for name in dict.fromkeys(names):
        if hasattr(obj, name):
            yield from _walk(getattr(obj, name), seen)


def _hidden_mulle(state: mulle.State, seat: int) -> set[Card]:
    """Cards of which *every* copy is hidden from ``seat`` (two packs: a twin may be visible)."""
    from collections import Counter

    hidden = Counter(c for s, hand in enumerate(state._hands) if s != seat for c in hand)
    hidden.update(state._stock)
    visible = Counter(state._hands[seat])
    visible.update(state.table)
    for b in state.builds:
        visible.update(b.cards)
    for p in state.piles:
        visible.update(p.cards)
    return {Card(c) for c in hidden if not visible[c]}


def _hidden_cribbage(state: cribbage.State, seat: int) -> set[Card]:
    hidden = {c for s, hand in enumerate(state._hands) if s != seat for c in hand}
    hidden.update(state._stock)
    if not state.crib_shown:
        hidden.update(c for c in state._crib if c not in state._discards[seat])
    return hidden


class _Spy:
    """Wraps a real bot; checks everything it is handed against the true state the arena's ``watch`` saw."""

    def __init__(self, inner: Bot[Any], log: dict[str, Any]) -> None:
        self.inner, self.log, self.name = inner, log, "spy"

    def choose(self, view: Any, legal_moves: Sequence[Any], rng: random.Random) -> Any:
        state, seat, legal = self.log["state"], self.log["seat"], self.log["legal"]
        assert type(view) in (mulle.View, cribbage.View) and view.seat == seat
        assert type(legal_moves) is list and legal_moves == list(legal) and legal_moves is not legal
        assert type(rng) is random.Random
        hidden = _hidden_mulle(state, seat) if isinstance(view, mulle.View) else _hidden_cribbage(state, seat)
        self.log["hiding"] += bool(hidden)
        received = [view, legal_moves]
        for obj in _walk(received):
            assert not isinstance(obj, (mulle.State, cribbage.State)), "a bot received the engine state"
            if isinstance(obj, Card):
                self.log["cards"].add(obj)
        past_cuts = set(getattr(view, "cuts", ()))  # the cut for deal: public cards of an earlier shuffle
        leaked = {c for c in self.log["cards"] if c in hidden and c not in past_cuts}
        self.log["cards"].clear()
        assert not leaked, f"hidden cards reached the bot: {sorted(map(str, leaked))}"
        self.log["rngs"].add(id(rng))
        self.log["decisions"] += 1
        return self.inner.choose(view, legal_moves, rng)


@pytest.mark.parametrize(
    ("game", "players", "rules"),
    [
        ("mulle", 2, MULLE_ROUND),
        ("mulle", 3, MULLE_ROUND),
        ("cribbage", 2, CRIB_61),
        ("cribbage", 3, (("target", 61), ("muggins", True))),
    ],
)
def test_bots_receive_only_their_seats_view(game: str, players: int, rules: tuple[tuple[str, Any], ...]) -> None:
    log: dict[str, Any] = {"cards": set(), "rngs": set(), "decisions": 0, "hiding": 0}
    specs = tuple(BotSpec("greedy") for _ in range(players))
    config = ArenaConfig(game, specs, games=1, players=players, rules=rules)

    def factory(spec: BotSpec, game_name: str, r: Any) -> Bot[Any]:
        return _Spy(spec.make(game_name, r), log)

    def watch(state: Any, seat: int, view: Any, legal: Sequence[Any]) -> None:
        log.update(state=state, seat=seat, legal=legal)

    record = play_game(config, 0, factory=factory, watch=watch)
    assert record.error is None, record.error
    assert log["decisions"] > 20
    assert log["hiding"] > log["decisions"] // 2  # most decisions had cards to hide (Mulle's twins may be seen)
    assert len(log["rngs"]) == players  # each seat its own generator


# ------------------------------------------------------------------------------------------------ bot errors
class _Cheat:
    """Plays legally, then, at its ``at``-th decision, a move that is not legal (a card it does not hold)."""

    name = "cheat"

    def __init__(self, game: str, at: int = 5, boom: bool = False) -> None:
        self.game, self.at, self.boom, self.n = game, at, boom, 0

    def choose(self, view: Any, legal_moves: Sequence[Any], rng: random.Random) -> Any:
        self.n += 1
        if self.n < self.at:
            return legal_moves[0]
        if self.boom:
            raise RuntimeError("the bot crashed")
        if self.game == "mulle":
            card = next(c for c in map(Card, range(52)) if c not in view.hand)
            return mulle.Trail(card)
        card = next(c for c in map(Card, range(52)) if c not in view.hand)
        return cribbage.Play(card) if view.phase == "play" else cribbage.Discard((card, card))


@pytest.mark.parametrize("game", registry.GAMES)
@pytest.mark.parametrize("boom", [False, True])
def test_an_illegal_move_or_a_crash_is_reported_as_a_bot_error(game: str, boom: bool) -> None:
    rules = MULLE_ROUND if game == "mulle" else CRIB_61
    config = ArenaConfig(game, (BotSpec("random"), BotSpec("greedy")), games=2, rules=rules)

    def factory(spec: BotSpec, game_name: str, r: Any) -> Bot[Any]:
        return _Cheat(game_name, boom=boom) if spec.level == "random" else spec.make(game_name, r)

    records = [play_game(config, i, factory=factory) for i in range(2)]
    for rec in records:
        assert rec.error is not None and rec.outcome == {}
        assert rec.error["bot"] == "A:random" and rec.error["seat"] == rec.seats.index(0)
        assert rec.error["kind"] == ("exception" if boom else "illegal move")
    summary = summarize(config, records)
    assert len(summary["errors"]) == 2
    assert summary["results"]["A:random"]["games"] == 0  # a failed game counts in no statistic


def test_the_cli_reports_a_bot_error_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    real = registry.make_bot

    def make(game: str, level: str, rules: Any = None, **opts: Any) -> Bot[Any]:
        return _Cheat(game) if level == "random" else real(game, level, rules, **opts)

    monkeypatch.setattr(registry, "make_bot", make)
    result = runner.invoke(
        app, ["arena", "mulle", "--bots", "random,greedy", "--games", "1", "--jobs", "1", "--no-progress",
              "--option", "game_length=single_round"]
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert "bot error" in result.output and "illegal move" in result.output


# ------------------------------------------------------------------------------------------------ the command
def test_cli_prints_the_figures_and_writes_the_same_json(tmp_path: Path) -> None:
    out = tmp_path / "arena.json"
    args = ["arena", "cribbage", "--bots", "greedy,random", "--games", "2", "--seed", "5", "--jobs", "1"]
    result = runner.invoke(app, [*args, "--option", "target=61", "--json", str(out), "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["game"] == "cribbage" and data["rules"]["target"] == 61 and data["games"] == 2
    ra = data["results"]["A:greedy"]
    for text in ("A:greedy", "B:random", "Win rate", "as dealer", "as pone", "discard", "pegging", "dealer"):
        assert text in result.output
    assert f"{100 * ra['win_rate']:.1f}%" in result.output
    assert f"{ra['points_per_deal']['as_dealer']['mean']:.2f}" in result.output
    assert {"p50", "p95", "max"} <= set(ra["decision_ms"]["discard"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game"),
        (["mulle", "--bots", "greedy,deep"], "unknown Mulle bot level"),
        (["mulle", "--bots", "greedy,random,random"], "3 bot(s) for 2 seats"),
        (["cribbage", "--option", "target=100"], "61 or 121"),
        (["cribbage", "--option", "target"], "key=value"),
        (["mulle", "--bots", "strong:depth=3,greedy"], "unknown bot option"),
        (["cribbage", "--bots", "expert:hand=8,greedy"], "unknown bot option 'hand' (did you mean 'hands'?)"),
        # an option the level does not use would be ignored yet shown in the label
        (["mulle", "--bots", "strong:board=false,greedy"], "does not use the option 'board'"),
        (["mulle", "--bots", "greedy:miss_rate=0.5,random"], "does not use the option 'miss_rate'"),
        (["cribbage", "--bots", "strong:board=false:board=true,greedy"], "given twice"),
        (["cribbage", "--bots", "greedy:miss_rate=x,random"], "must be a number between 0 and 1"),
        (["cribbage", "--bots", "greedy:catch_rate=true,random"], "must be a number between 0 and 1"),
        (["mulle", "--bots", "[/],greedy"], "unknown Mulle bot level '[/]'"),  # markup shown, not parsed
        # Mulle teams are P1+P3 against P2+P4: four players (rules spec §3)
        (["mulle", "-o", "teams=true", "-p", "2", "--bots", "random,random"], "teams need 4 players"),
        (["mulle", "-o", "teams=maybe", "-p", "4", "--bots", "random,random"], "teams must be true or false"),
        (["cribbage", "-o", "players=5"], "--players"),
        (["cribbage", "-o", "players=banana"], "--players"),
        (["mulle", "--json", "/nonexistent/dir/x.json", "--bots", "random,random"], "does not exist"),
        # a command-wide flag that no bot of the run takes would change nothing
        (["cribbage", "--bots", "greedy,random", "--time-budget-ms", "50"], "--time-budget-ms changes nothing here"),
        (["mulle", "--bots", "greedy,random", "--iterations", "5"], "--iterations changes nothing here"),
        (["cribbage", "--bots", "strong:iterations=5,greedy", "--iterations", "7"], "--iterations changes nothing"),
        # a mistyped level is named as such, whatever flags come with it
        (["cribbage", "--bots", "stronk,greedy", "--time-budget-ms", "5"], "unknown Cribbage bot level 'stronk'"),
    ],
)
def test_cli_refuses_bad_options(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["arena", *args, "--games", "1", "--jobs", "1", "--no-progress"])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_arena_module_has_no_hidden_state_between_games() -> None:
    """Game ``i`` is the same whether it is played alone or after others (a worker plays chunks of games)."""
    config = ArenaConfig("mulle", (BotSpec("greedy"), BotSpec("random")), games=3, seed=4, rules=MULLE_ROUND)
    alone = play_game(config, 2).to_json()
    for i in range(2):
        play_game(config, i)
    assert play_game(config, 2).to_json() == alone
    assert arena_mod.MAX_DECISIONS > 10_000


def test_the_view_check_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a view that also carried the face-down crib is caught."""
    real_view = cribbage.SPEC.view

    def leaky(state: cribbage.State, seat: int | None) -> Any:
        return dataclasses.replace(real_view(state, seat), crib=state._crib)

    monkeypatch.setattr(cribbage.SPEC, "view", leaky)  # the arena sees the game only through its registry entry
    log: dict[str, Any] = {"cards": set(), "rngs": set(), "decisions": 0, "hiding": 0}
    config = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("greedy")), games=1, rules=CRIB_61)

    def watch(state: Any, seat: int, view: Any, legal: Sequence[Any]) -> None:
        log.update(state=state, seat=seat, legal=legal)

    record = play_game(config, 0, factory=lambda spec, g, r: _Spy(spec.make(g, r), log), watch=watch)
    assert record.error is not None and "hidden cards reached the bot" in record.error["message"]


@pytest.mark.parametrize(("game", "args"), [("mulle", ["--length", "round"]), ("cribbage", ["--target", "61"])])
def test_play_uses_the_registry_and_defaults_to_the_strongest(
    game: str, args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[str, str]] = []
    real = registry.make_bot

    def make(game_name: str, level: str, rules: Any = None, **opts: Any) -> Bot[Any]:
        asked.append((game_name, level))
        return real(game_name, "greedy", rules, **opts)  # greedy stands in: this test is about the wiring

    monkeypatch.setattr(registry, "make_bot", make)
    base = ["play", game, "--auto", "--seed", "3", "--record", str(tmp_path / "r.json"), *args]
    result = runner.invoke(app, base)
    assert result.exit_code == 0, result.output
    default = "strong" if _strong_available(game) else "greedy"  # a checkout without the strong players
    assert asked == [(game, default), (game, default)]
    asked.clear()
    result = runner.invoke(app, [*base, "--bot", "random"])
    assert result.exit_code == 0, result.output
    assert asked == [(game, "random"), (game, "random")]


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (["--time-budget-ms", "inf"], "at most 60000"),
        (["--time-budget-ms", "nan"], "time_budget_ms"),
        (["--time-budget-ms", "60001"], "at most 60000"),
        (["--bots", "strong:iterations=99999999999999999999,greedy"], "from 1 to 100000"),
        (["--iterations", "100001"], "from 1 to 100000"),
    ],
)
def test_cli_refuses_unbounded_thinking(option: list[str], says: str) -> None:
    result = runner.invoke(app, ["arena", "mulle", *option, "--games", "1", "--jobs", "1", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.split())


def _children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            out |= {int(c) for c in (task / "children").read_text().split()}
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_arena_stops_its_workers(sig: signal.Signals) -> None:
    command = [str(Path(sys.executable).with_name("kortbord")), "arena", "mulle", "--bots", "strong,strong",
               "--time-budget-ms", "60000", "--games", "4", "--jobs", "2", "--no-progress"]  # fmt: skip
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while len(_children(proc.pid)) < 2:  # the workers are up (each thinks a minute per move)
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.2)
        time.sleep(1.0)
        workers = _children(proc.pid)
        proc.send_signal(sig)  # to the main process only, the harder case than a terminal's Ctrl-C
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0 and out == ""
    assert "Traceback" not in err and ("interrupted" in err or "terminated" in err), err
    deadline = time.monotonic() + 5
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(w) for w in workers), "worker processes were left running"


def test_a_killed_pool_leaves_no_manager_thread_behind() -> None:
    """The pool's manager thread has finished (its wake-up pipe closed) when the arena's kill returns: the
    interpreter's exit hook writes to that pipe, and a thread still closing it printed "OSError: Bad file
    descriptor" at exit (a CI failure of the test above).  ``shutdown(wait=False)`` forgets the thread, so the kill
    must take it first (it did not: the thread was still running after the kill in 4 of 5 tries)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    for _ in range(3):
        pool = ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("spawn"))
        futures = [pool.submit(time.sleep, 30) for _ in range(2)]
        deadline = time.monotonic() + 60
        while not all(p.is_alive() for p in (pool._processes or {}).values()) or len(pool._processes or {}) < 2:
            assert time.monotonic() < deadline
            time.sleep(0.1)
        manager = pool._executor_manager_thread
        assert manager is not None
        arena_mod._kill_pool(pool)
        assert not manager.is_alive()
        assert all(f.cancelled() or f.done() for f in futures)


class _Watching:
    """Greedy that also watches the table (``kortbord.bots.base.Observer``): it keeps every event it is told."""

    def __init__(self, rules: Any) -> None:
        self.inner = registry.make_bot("cribbage", "greedy", rules)
        self.name = "watching"
        self.events: list[Any] = []

    def choose(self, view: Any, legal_moves: Any, rng: random.Random) -> Any:
        return self.inner.choose(view, legal_moves, rng)

    def observe(self, events: Sequence[Any]) -> None:
        self.events.extend(events)


def test_the_arena_tells_a_watching_bot_every_public_event() -> None:
    config = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("greedy")), games=2, seed=4)
    made: list[_Watching] = []

    def factory(spec: BotSpec, game: str, rules: Any) -> Any:
        made.append(_Watching(rules))
        return made[-1]

    plain = play_game(config, 0)
    record = play_game(config, 0, factory=factory)
    assert record.scores == plain.scores  # watching changes nothing in the game
    for bot in made:
        kinds = [e.kind for e in bot.events]
        deals = [i for i, k in enumerate(kinds) if k == "deal"]
        assert len(deals) == len(record.deals)  # every deal's start, the first included
        assert kinds[-1] == "game_over"
        # spec §2.4 with two players: each lays all four kept cards, so a deal played out shows eight cards laid
        # before the next deal begins (every deal but the one the game ended in)
        for a, b in itertools.pairwise(deals):
            assert kinds[a:b].count("play") == 8
        assert all(set(e.data) >= {"seat", "card"} for e in bot.events if e.kind == "play")
        # never a hidden card: no event names the cards laid away (spec: a discard is face down)
        assert all("cards" not in e.data for e in bot.events if e.kind == "discard")


class _Meddling(_Watching):
    """Changes every event it is told; with ``fail``, raises at the game's end."""

    fail = False

    def observe(self, events: Sequence[Any]) -> None:
        for e in events:
            if "dealer" in e.data:
                e.data["dealer"] = 0
            if e.kind == "game_over" and self.fail:
                raise RuntimeError("no more")


class _Failing(_Meddling):
    fail = True


def test_a_watching_bot_cannot_change_the_game_and_its_failure_is_a_bot_error() -> None:
    config = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("greedy")), games=2, seed=4)
    plain = play_game(config, 0)
    record = play_game(config, 0, factory=lambda spec, game, rules: _Meddling(rules))
    assert record.error is None and record.scores == plain.scores
    # the dealers the arena recorded are the engine's (the deal passes to the left, spec §2.1), not the bot's edit
    assert [d["dealer"] for d in record.deals] == [d["dealer"] for d in plain.deals]
    assert len({d["dealer"] for d in record.deals}) == 2
    failed = play_game(config, 0, factory=lambda spec, game, rules: _Failing(rules))
    assert failed.error is not None and failed.error["kind"] == "exception"
    assert "observe: RuntimeError: no more" in failed.error["message"]


def test_a_command_wide_cap_goes_to_the_bots_that_take_it_and_is_reported_when_it_bites(tmp_path: Path) -> None:
    # issue #14 item 1: a time limit is only a cap, reported when it bites; greedy takes none (its label stays)
    out = tmp_path / "capped.json"
    args = ["arena", "cribbage", "--bots", "expert:hands=4:budget=400,greedy", "--games", "2", "--seed", "3"]
    result = runner.invoke(
        app, [*args, "--jobs", "1", "--no-progress", "--time-budget-ms", "0.001", "--json", str(out)]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(out.read_text())
    expert, greedy = summary["bots"]
    assert (expert, greedy) == ("A:expert:budget=400:hands=4:time_budget_ms=0.001", "B:greedy")
    assert summary["results"][expert]["capped"] > 0
    assert summary["results"][greedy]["capped"] == 0
    assert "the time cap cut" in " ".join(result.output.split())
    # without the cap nothing is cut short and nothing is said
    free = runner.invoke(app, [*args, "--jobs", "1", "--no-progress"])
    assert free.exit_code == 0 and "time cap" not in free.output


def test_the_arena_says_when_its_duplicate_interval_rests_on_few_blocks() -> None:
    # an interval clustered by block from a handful of blocks is rough: the arena says so, and not once it has 20
    def run(games: int) -> str:
        args = ["arena", "cribbage", "--bots", "greedy,random", "--games", str(games), "--jobs", "1", "--no-progress"]
        result = runner.invoke(app, args)
        assert result.exit_code == 0, result.output
        return " ".join(result.output.split())

    assert "Only 2 block(s) of duplicate deals: the interval is rough (below 20 blocks;" in run(4)
    assert "left out of the duplicate figures" not in run(4)
    assert "The last of the 5 games (an odd number) has no partner with the seats swapped" in run(5)
    assert "Only 1 block(s) of duplicate deals: there is no interval below 2 blocks" in run(2)
    assert "is rough" not in run(40)


def test_a_bots_label_writes_its_options_as_they_are_typed() -> None:
    # the label reads back as the same bot: true/false, not Python's True/False; 20 ms, not 20.0
    spec = BotSpec.parse("strong:board=false").with_defaults(time_budget_ms=20.0, iterations=None)
    assert str(spec) == "strong:board=false:time_budget_ms=20"
    assert BotSpec.parse(str(spec)) == spec
    assert str(BotSpec.parse("expert:time_budget_ms=0.5")) == "expert:time_budget_ms=0.5"


def test_points_per_deal_and_round_intervals_take_the_game_as_the_cluster() -> None:
    # a game's deals hang together (the same players, one board): each bot's interval is the cluster-robust one
    # over its games, rebuilt here from the per-game deals of the JSON record (outcome is keyed by bot index)
    from kortbord.arena import cluster_mean_ci

    config = ArenaConfig("cribbage", (BotSpec("greedy"), BotSpec("random")), games=6, seed=3, rules=CRIB_61)
    summary = run_arena(config, jobs=1)
    for j, label in enumerate(summary["bots"]):
        as_dealer: list[list[float]] = []
        for g in summary["game_results"]:
            side = g["seat_sides"][g["seats"].index(j)]
            as_dealer.append([float(d["points"][side]) for d in g["deals"] if d["complete"] and d["dealer"] == side])
        got = summary["results"][label]["points_per_deal"]["as_dealer"]
        assert got == cluster_mean_ci(as_dealer) and got["clusters"] == 6
    mulle_config = ArenaConfig("mulle", (BotSpec("greedy"), BotSpec("random")), games=4, seed=3)
    mulle = run_arena(mulle_config, jobs=1)
    for j, label in enumerate(mulle["bots"]):
        rounds = [
            [float(rnd[g["seat_sides"][g["seats"].index(j)]]) for rnd in g["rounds"]] for g in mulle["game_results"]
        ]
        assert mulle["results"][label]["points_per_round"] == cluster_mean_ci(rounds)
