"""The Cribbage ``expert`` level (issue #14 item 2, :mod:`kortbord.bots.cribbage_expert`): registered with its work,
reading the play from the table's public events the same way whether they come one step at a time (the arena), all
at once from a game's record (the web table after a restart, another worker) or from the terminal game; each game's
bot its own.  Its strength is measured by the benches (``docs/bots.md``), not here."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import orjson
import pytest

from kortbord import core
from kortbord.bots import cribbage_expert, registry
from kortbord.bots.base import Observer, TableReader
from kortbord.contract import Event
from kortbord.server import bots as server_bots

#: a small work bound, so a whole game is quick (the level's own is measured in bench/)
SMALL = {"hands": 4, "budget": 400}


def test_the_level_is_registered_for_people_with_its_work_and_words() -> None:
    assert "expert" in registry.player_levels("cribbage")
    assert registry.level_work("cribbage", "expert") == {
        "hands": cribbage_expert.LEVEL_HANDS,
        "budget": cribbage_expert.LEVEL_BUDGET,
    }
    assert {"hands", "budget"} <= set(registry.level_options("cribbage", "expert"))
    assert registry.observes("cribbage", "expert") and not registry.observes("cribbage", "strong")
    assert not registry.observes("mulle", "expert")
    # honest in its own counts and catches every miscount, as strong (rules spec cribbage.md §2.10)
    assert registry.miscounts("cribbage", "expert") == {"miss_rate": 0.0, "catch_rate": 1.0}
    bot: Any = registry.make_bot("cribbage", "expert")
    assert isinstance(bot, cribbage_expert.ExpertBot) and isinstance(bot, Observer)
    assert (bot.hands, bot.budget) == (cribbage_expert.LEVEL_HANDS, cribbage_expert.LEVEL_BUDGET)
    assert (bot.ehands, bot.ebudget, bot.endgame) == (2 * bot.hands, 2 * bot.budget, True)
    # its opponent models are refitted about the prior at the sds measured (docs/bots.md, "The Cribbage expert"):
    # 1 in the play, 3 in the end game
    assert bot.model.sd == cribbage_expert.LEVEL_SD == 1.0
    assert bot.emodel is not None and bot.emodel.sd == cribbage_expert.LEVEL_END_SD == 3.0
    assert list(bot.model.prior) == list(bot.emodel.prior) == list(cribbage_expert.play_prior())
    assert bot.time_budget_ms is None
    for lang in ("en", "sv"):
        text = registry.describe("cribbage", "expert", lang)["text"]
        assert str(cribbage_expert.LEVEL_HANDS) in text and "{" not in text


def test_its_prior_is_strong_play_fitted_by_the_script(tmp_path: Any) -> None:
    import importlib.util
    from pathlib import Path

    bot: Any = registry.make_bot("cribbage", "expert")
    assert bot.model.prior.tolist() == list(cribbage_expert.play_prior())
    assert len(cribbage_expert.play_prior()) == len(cribbage_expert.FEATURES)
    # the shipped table names the features it was made for and the script's command; the script fits the model to the
    # decisions it reads (regenerating the shipped table takes minutes: its command is in its metadata)
    shipped = orjson.loads(
        (Path(__file__).resolve().parents[2] / "src/kortbord/bots/data/play_prior.json").read_bytes()
    )
    assert tuple(shipped["features"]) == cribbage_expert.FEATURES
    assert shipped["metadata"]["command"].startswith("python scripts/make_play_prior.py")
    path = Path(__file__).resolve().parents[2] / "scripts" / "make_play_prior.py"
    spec = importlib.util.spec_from_file_location("make_play_prior", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    decisions = script.selfplay_decisions(1, seed=3)
    assert decisions and all(len(d[0]) >= 1 and d[3] in d[0] for d in decisions)  # each card laid was held
    out = tmp_path / "prior.json"
    assert script.main(["--games", "1", "--seed", "3", "--out", str(out)]) == 0
    model = cribbage_expert.LearntModel()
    model.fit(decisions)
    assert orjson.loads(out.read_bytes())["weights"] == pytest.approx(model.weights.tolist(), abs=1e-5)
    with pytest.raises(ValueError, match="features"):
        cribbage_expert.LearntModel(prior=[1.0, 2.0])


@pytest.mark.parametrize(
    ("options", "word"),
    [({"hands": 0}, "hands"), ({"hands": 2.5}, "hands"), ({"budget": -1}, "budget"), ({"budget": True}, "budget")],
)
def test_bad_work_is_refused(options: dict[str, Any], word: str) -> None:
    with pytest.raises(ValueError, match=word):
        registry.make_bot("cribbage", "expert", **options)  # type: ignore[arg-type]


def _play(
    decide: Callable[[int, Any, list[Any], list[Event], random.Random], Any],
    told: Callable[[list[Event]], None],
    *,
    seed: int,
    players: int = 2,
    target: int = 61,
) -> list[str]:
    """One game of the registry's Cribbage, every decision by ``decide(seat, view, legal, events so far, rng)``;
    ``told(events)`` after every step (chance steps included).  The moves made, in order."""
    spec = core.get("cribbage")
    rules = spec.make_rules({"target": target}, players=players)
    state = spec.new_game(rules, players=players)
    chance = random.Random(f"deals:{seed}")
    rngs = [random.Random(f"bot:{seed}:{s}") for s in range(players)]
    history: list[Event] = []
    moves: list[str] = []
    while not spec.is_over(state):
        if spec.is_chance(state):
            state, events = spec.step(state, spec.chance_outcome(state, chance))
        else:
            seat = spec.to_act(state)
            assert seat is not None
            legal = list(spec.legal_moves(state))
            move = decide(seat, spec.view(state, seat), legal, list(history), rngs[seat])
            assert move in legal
            moves.append(str(move))
            state, events = spec.step(state, move)
        history.extend(events)
        told(list(events))
    return moves


def test_the_end_game_is_searched_with_its_own_model_of_the_same_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    from kortbord.bots import cribbage_board

    bot: Any = registry.make_bot("cribbage", "expert", **SMALL)
    greedy = registry.make_bot("cribbage", "greedy")
    real = cribbage_expert.Posterior
    searched: list[tuple[bool, tuple[Any, ...]]] = []

    def posterior(view: Any, models: Any, *args: Any, **kw: Any) -> Any:
        near = max(view.side_scores) >= view.rules.target - cribbage_board.NEAR_END
        searched.append((near, tuple(models)))
        return real(view, models, *args, **kw)

    monkeypatch.setattr(cribbage_expert, "Posterior", posterior)
    _play(
        lambda s, v, legal, ev, rng: bot.choose(v, legal, rng) if s == 0 else greedy.choose(v, legal, rng),
        bot.observe,
        seed=7,
    )
    # the play away from the end on the sd-1 model, the play to the board on the sd-3 one (spec §5's board)
    assert {near for near, _ in searched} == {False, True}
    assert all(models == ((bot.emodel,) if near else (bot.model,)) for near, models in searched)
    # both refitted to the opponent's decisions seen, each at its own sd
    assert bot._decisions and bot.model.version == bot.emodel.version > 0
    for model, sd in ((bot.model, 1.0), (bot.emodel, 3.0)):
        again = cribbage_expert.LearntModel(sd, prior=cribbage_expert.play_prior())
        again.fit(bot._decisions)
        assert model.weights.tolist() == pytest.approx(again.weights.tolist(), abs=1e-12)
    assert bot.model.weights.tolist() != pytest.approx(bot.emodel.weights.tolist(), abs=1e-3)

    class Reader(cribbage_expert.PlayReader, cribbage_expert.BeliefBot):
        pass

    # an sd outside 0.01 .. 100 makes the fit singular, overflow or give NaN weights; not a number: refused alike
    for bad in (0.0, -1.0, float("nan"), float("inf"), 1e-300, 1e300, "3", True):
        with pytest.raises(ValueError, match="sd must be over 0"):
            Reader(esd=bad)
        with pytest.raises(ValueError, match="sd must be over 0"):
            Reader(sd=bad)
    assert Reader(esd=None).emodel is None  # no end-game model: the play's everywhere
    with pytest.raises(ValueError, match="finite"):
        cribbage_expert.LearntModel(prior=[float("nan")] * len(cribbage_expert.FEATURES))


def test_the_play_is_read_the_same_step_by_step_all_at_once_and_after_a_restart() -> None:
    greedy = registry.make_bot("cribbage", "greedy")
    make = lambda: registry.make_bot("cribbage", "expert", **SMALL)

    # the arena's way: the bot is told each step's events as they happen
    stepwise: Any = make()
    moves_a = _play(
        lambda s, v, legal, ev, rng: stepwise.choose(v, legal, rng) if s == 0 else greedy.choose(v, legal, rng),
        stepwise.observe,
        seed=4,
    )
    # the terminal's and the web table's way: the whole record before each decision
    reader = TableReader(make)
    moves_b = _play(
        lambda s, v, legal, ev, rng: reader.choose(ev, v, legal, rng) if s == 0 else greedy.choose(v, legal, rng),
        lambda ev: None,
        seed=4,
    )
    # a server restarted before every decision: a new bot told the whole record each time
    moves_c = _play(
        lambda s, v, legal, ev, rng: (
            TableReader(make).choose(ev, v, legal, rng) if s == 0 else greedy.choose(v, legal, rng)
        ),
        lambda ev: None,
        seed=4,
    )
    assert moves_a == moves_b == moves_c
    # and it did read the play: greedy's decisions of the deals before moved the model off its prior
    assert stepwise.model.weights.tolist() != stepwise.model.prior.tolist()
    assert reader.bot.model.weights.tolist() != reader.bot.model.prior.tolist()


def test_a_bot_that_is_not_told_the_events_reads_the_deals_its_views_show() -> None:
    greedy = registry.make_bot("cribbage", "greedy")
    blind: Any = registry.make_bot("cribbage", "expert", **SMALL)
    _play(
        lambda s, v, legal, ev, rng: blind.choose(v, legal, rng) if s == 0 else greedy.choose(v, legal, rng),
        lambda ev: None,
        seed=5,
    )
    assert blind.model.weights.tolist() != blind.model.prior.tolist()


@pytest.mark.parametrize(("players", "target"), [(3, 61), (4, 61)])
def test_off_two_players_it_plays_as_strong_and_learns_nothing(players: int, target: int) -> None:
    bot: Any = registry.make_bot("cribbage", "expert", iterations=2, hands=4)
    greedy = registry.make_bot("cribbage", "greedy")
    moves = _play(
        lambda s, v, legal, ev, rng: bot.choose(v, legal, rng) if s == 0 else greedy.choose(v, legal, rng),
        bot.observe,
        seed=6,
        players=players,
        target=target,
    )
    assert moves and bot.model.weights.tolist() == bot.model.prior.tolist()


class _Counting:
    """A watching bot that keeps what it was told."""

    made = 0

    def __init__(self) -> None:
        _Counting.made += 1
        self.told: list[Any] = []

    def observe(self, events: Any) -> None:
        self.told.extend(events)

    def choose(self, view: Any, legal: Any, rng: random.Random) -> Any:
        return legal[0]


def test_the_reader_tells_only_new_events_and_starts_again_when_moves_are_taken_back() -> None:
    _Counting.made = 0
    a, b, c, x = (Event("play", {"seat": i, "card": card}) for i, card in enumerate(("5H", "TD", "KS", "4C")))
    reader = TableReader(_Counting)
    reader.choose([a, b], None, [1], random.Random(0))
    reader.choose([a, b, c], None, [1], random.Random(0))
    assert reader.bot.told == [a, b, c] and _Counting.made == 1
    reader.choose([a, x], None, [1], random.Random(0))  # c taken back, x played instead
    assert reader.bot.told == [a, x] and _Counting.made == 2
    reader.choose([a], None, [1], random.Random(0))  # shorter than what it was told
    assert reader.bot.told == [a] and _Counting.made == 3


def test_the_server_worker_gives_each_game_its_own_reader_rebuilt_from_the_record() -> None:
    server_bots._READERS.clear()
    greedy = registry.make_bot("cribbage", "greedy")
    rules = core.get("cribbage").make_rules({"target": 61}, players=2)
    reference: Any = registry.make_bot("cribbage", "expert")  # the level's own work, told step by step
    checked = []
    checked_view: list[Any] = []

    def decide(seat: int, view: Any, legal: list[Any], events: list[Event], rng: random.Random) -> Any:
        if seat == 1 or len(checked) >= 12:
            return greedy.choose(view, legal, rng)
        seed = rng.getrandbits(32)
        want = reference.choose(view, legal, random.Random(seed))
        record = orjson.dumps([e.to_json() for e in events])
        got = server_bots.choose_index("cribbage", "expert", rules, view, legal, seed, record, "game-1")
        if len(checked) % 4 == 3:  # another worker, or the worker after a restart: rebuilt from the record
            server_bots._READERS.clear()
        other = server_bots.choose_index("cribbage", "expert", rules, view, legal, seed, record, "game-2")
        checked.append((legal[got], legal[other], want))
        checked_view[:] = [view, legal]
        return want

    _play(decide, reference.observe, seed=7)
    assert len(checked) == 12 and all(g == o == w for g, o, w in checked)
    assert {k[0] for k in server_bots._READERS} <= {"game-1", "game-2"}
    server_bots._READERS.clear()
    # a level that learns from the table needs the record; the others ignore one
    with pytest.raises(ValueError, match="needs the game's events"):
        server_bots.choose_index("cribbage", "expert", rules, checked_view[0], checked_view[1], 1)
    index = server_bots.choose_index("cribbage", "greedy", rules, checked_view[0], checked_view[1], 1, b"[]", "g")
    assert 0 <= index < len(checked_view[1])


class _Fragile(_Counting):
    """A watching bot whose observe fails on a play event without a card, after taking in what came before."""

    def observe(self, events: Any) -> None:
        for event in events:
            if event.kind == "play" and "card" not in event.data:
                raise KeyError("card")
            self.told.append(event)


def test_a_bot_whose_observe_failed_is_not_kept_half_told() -> None:
    _Fragile.made = 0
    a, b = Event("play", {"seat": 0, "card": "5H"}), Event("play", {"seat": 1, "card": "TD"})
    reader = TableReader(_Fragile)
    reader.choose([a], None, [1], random.Random(0))
    with pytest.raises(KeyError):
        reader.choose([a, b, Event("play", {"seat": 0})], None, [1], random.Random(0))
    reader.choose([a, b], None, [1], random.Random(0))  # the record as it really is: told once, from the start
    assert reader.bot.told == [a, b]


@pytest.mark.parametrize("record", [b"{}", b"null", b"[1, 2]", b'[{"seat": 0}]', b"[{", b'[{"kind": 3}]'])
def test_the_worker_refuses_a_malformed_record_with_a_clear_error(record: bytes) -> None:
    spec = core.get("cribbage")
    rules = spec.make_rules({"target": 61}, players=2)
    state = spec.new_game(rules, players=2)
    chance = random.Random(0)
    while spec.is_chance(state):
        state, _ = spec.step(state, spec.chance_outcome(state, chance))
    seat = spec.to_act(state)
    assert seat is not None
    view, legal = spec.view(state, seat), list(spec.legal_moves(state))
    with pytest.raises(ValueError, match="events must be"):
        server_bots.choose_index("cribbage", "expert", rules, view, legal, 1, record, "bad")


def test_the_gymnasium_opponent_starts_each_episode_afresh() -> None:
    from kortbord.gymnasium import KortbordSingleAgentEnv

    def episode(env: Any, seed: int) -> list[int]:
        obs, _ = env.reset(seed=seed)
        actions, done = [], False
        while not done:
            action = int(np.flatnonzero(obs["action_mask"])[0])
            actions.append(action)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        return actions

    options = {"hands": 4, "budget": 400}
    first = KortbordSingleAgentEnv("cribbage", opponent="expert", opponent_options=options, target=61)
    again = KortbordSingleAgentEnv("cribbage", opponent="expert", opponent_options=options, target=61)
    want = episode(first, 7)
    for seed in (1, 2):  # other episodes first: the opponent must not carry what it learnt there
        episode(again, seed)
    assert episode(again, 7) == want


def test_searches_sharing_the_models_tables_give_the_values_and_work_of_fresh_ones() -> None:
    """The bot keeps the model's chances from one search to the next while the model is unchanged (speed only):
    a search given tables another search filled values every card as a fresh search does, node for node."""
    model = cribbage_expert.LearntModel(prior=cribbage_expert.play_prior())
    cands = [((2, 5, 9, 13), 3.0), ((1, 4, 10, 11), 2.0), ((5, 5, 6, 7), 1.0), ((3, 8, 12, 12), 0.5)]
    us = (4, 6, 10, 13)
    tables: dict[Any, Any] = {}
    cribbage_expert.BeliefSearch([model], 0, None, tables).root(us, cands, (), 0)  # this player led: the first
    later = [((h[1:], 0), w) for h, w in cands]  # each laid its lowest card in another line of the play
    fresh = cribbage_expert.BeliefSearch([model])
    shared = cribbage_expert.BeliefSearch([model], 0, None, tables)
    assert tables
    assert shared.root((6, 10, 13), later, (), 0) == fresh.root((6, 10, 13), later, (), 0)
    assert shared.nodes == fresh.nodes > 0


def test_a_time_cap_is_only_a_cap_and_reported_when_it_bites() -> None:
    # issue #14 item 1: the level is its work; a caller's time cap that never bites changes no decision, and one
    # that bites cuts the search short, still plays a legal card and says so
    def game(**cap: Any) -> tuple[list[str], Any]:
        bot: Any = registry.make_bot("cribbage", "expert", **cap)
        greedy = registry.make_bot("cribbage", "greedy")
        moves = _play(
            lambda s, v, legal, ev, rng: bot.choose(v, legal, rng) if s == 0 else greedy.choose(v, legal, rng),
            bot.observe,
            seed=3,
        )
        return moves, bot

    level, free = game()
    roomy, loose = game(time_budget_ms=60_000.0)
    assert roomy == level and loose.capped == free.capped == 0 and loose.decisions == free.decisions > 0
    _, tight = game(time_budget_ms=0.001)  # past its deadline at the first look (1,024 nodes)
    assert 0 < tight.capped <= tight.decisions
    capped = [n for n, _ in tight.stats]
    assert max(capped) < max(n for n, _ in free.stats)  # searches cut short: less work than the level's biggest
    assert "time_budget_ms" in registry.level_options("cribbage", "expert")
