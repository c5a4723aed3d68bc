"""OpenSpiel parameters have one type each (from the option schema), so that ``str(game)`` loads back, games and
states pickle and deep-copy, ``random_sim_test(serialize=True)`` passes, and states travel to ``multiprocessing``
workers (issue #10 item 6)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

import kortbord.openspiel as kos  # noqa: E402  (registers the games)
from kortbord.contract import Option  # noqa: E402
from kortbord.research import params as rp  # noqa: E402
from kortbord.research.table import _entries  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

MULLE_SETS: list[dict[str, Any]] = [
    {},
    {"profile": "cardgames.zone", "game_length": "single_round"},
    {"players": 4, "teams": True, "game_length": "single_round"},
    {"max_found_cards": 4, "game_length": "single_round"},
    {"max_found_cards": -1, "game_length": "single_round", "profile": "kryp", "utility": "score_diff"},
    {"game_length": "target:200"},
    {"game_length": "each_deals_once", "players": 3, "first_dealer": 2},
]
CRIBBAGE_SETS: list[dict[str, Any]] = [
    {},
    {"players": 3},
    {"players": 4},
    {"muggins": True},
    {"lowball": True, "utility": "score_diff"},
    {"target": 61, "skunk_line": 40, "double_skunk_line": 20},
]
ALL_SETS = [("kortbord_mulle", p) for p in MULLE_SETS] + [("kortbord_cribbage", p) for p in CRIBBAGE_SETS]


def _ids(case: tuple[str, dict[str, Any]]) -> str:
    name, params = case
    return name.removeprefix("kortbord_") + "-" + ",".join(f"{k}={v}" for k, v in params.items())


# ------------------------------------------------------------------------------------------- the types
def test_param_type_comes_from_the_option_type() -> None:
    assert rp.param_type(Option("a", "bool", True)) is bool
    assert rp.param_type(Option("a", "int", 8, minimum=1, maximum=52)) is int
    assert rp.param_type(Option("a", "choice", "on", ("on", "off"))) is str
    assert rp.param_type(Option("a", "choice", 121, (121, 61))) is int
    assert rp.param_type(Option("a", "choice", False, (False,))) is bool  # Mulle jokers (spec A21)
    length = Option("game_length", "choice_or_int", "target:100", ("single_round",), 1, 10000, prefix="target:")
    assert rp.param_type(length) is str
    found = Option("max_found_cards", "choice_or_int", 2, ("unlimited",), 2, 16)
    assert rp.param_type(found) is int
    with pytest.raises(ValueError, match="unknown type"):
        rp.param_type(Option("a", "float", 1.0))


def test_parameters_build_the_defaults_of_each_type() -> None:
    options = (
        Option("flag", "bool", True),
        Option("line", "int", None, minimum=0),
        Option("duty", "choice", "player", ("player", "none")),
        Option("found", "choice_or_int", "unlimited", ("unlimited",), 2, 16),
        Option("length", "choice_or_int", "target:100", ("single_round",), 1, 10000, prefix="target:"),
    )
    assert rp.parameters(options) == {
        "flag": True,
        "line": -1,
        "duty": "player",
        "found": -1,
        "length": "target:100",
    }
    with pytest.raises(ValueError, match="declared twice"):
        rp.parameters((Option("flag", "bool", True), Option("flag", "bool", False)))


@pytest.mark.parametrize(
    ("name", "options"), [("kortbord_mulle", rp.MULLE_OPTIONS), ("kortbord_cribbage", rp.CRIBBAGE_OPTIONS)]
)
def test_every_registered_parameter_has_the_type_of_its_option(name: str, options: tuple[Option, ...]) -> None:
    spec = pyspiel.load_game(name).get_parameters()
    assert set(spec) == {o.key for o in options}
    for option in options:
        assert type(spec[option.key]) is rp.param_type(option), option.key
    mulle = {o.key: rp.param_type(o) for o in rp.MULLE_OPTIONS}
    assert mulle["max_found_cards"] is int and mulle["game_length"] is str and mulle["profile"] is str
    assert mulle["capture_duty"] is str and mulle["pure_mulle"] is bool and mulle["hand_size"] is int


def test_words_and_digit_strings_are_stored_in_the_parameter_type() -> None:
    # no OpenSpiel type check stands between these and the adapter (the PettingZoo kwargs take the same path)
    game = kos.MulleGame({"max_found_cards": "unlimited", "game_length": 200})
    assert game.get_parameters()["max_found_cards"] == -1
    assert game.get_parameters()["game_length"] == "target:200"
    assert game.setup.rules.max_found_cards == "unlimited" and game.setup.rules.target == 200
    assert rp.make_setup("mulle", {"max_found_cards": "4"}).rules.max_found_cards == 4
    assert rp.make_setup("mulle", {"max_found_cards": 4}).rules.max_found_cards == 4
    assert rp.make_setup("mulle", {"max_found_cards": -1}).rules.max_found_cards == "unlimited"
    assert rp.make_setup("mulle", {"game_length": "target:0200"}).rules.game_length == "target:200"
    assert rp.make_setup("mulle", {"game_length": "single_round"}).rules.game_length == "single_round"
    assert rp.make_setup("cribbage", {"skunk_line": -1, "target": 61}).rules.skunk_line is None
    assert rp.make_setup("cribbage", {"skunk_line": 40, "target": 61}).rules.skunk_threshold == 40


@pytest.mark.parametrize(
    ("options", "params", "match"),
    [
        (rp.MULLE_OPTIONS, {"players": "2"}, "'players' must be an int"),
        (rp.MULLE_OPTIONS, {"teams": 1}, "'teams' must be a bool"),
        (rp.MULLE_OPTIONS, {"capture_duty": 3}, "'capture_duty' must be a str"),
        (rp.MULLE_OPTIONS, {"max_found_cards": "many"}, "'max_found_cards' must be 'unlimited' \\(or -1\\)"),
        (rp.MULLE_OPTIONS, {"max_found_cards": -2}, "'max_found_cards'"),
        (rp.MULLE_OPTIONS, {"game_length": "target:x"}, "'game_length' must be .* written target:N"),
        (rp.MULLE_OPTIONS, {"no_such_option": 1}, "unknown parameter 'no_such_option'"),
        (rp.CRIBBAGE_OPTIONS, {"partnership": True}, "unknown parameter 'partnership'"),
        (rp.CRIBBAGE_OPTIONS, {"target": "61"}, "'target' must be an int"),
    ],
)
def test_a_value_of_the_wrong_type_names_the_parameter(
    options: tuple[Option, ...], params: dict[str, Any], match: str
) -> None:
    with pytest.raises(ValueError, match=match):
        rp.typed_parameters(options, params)


# ----------------------------------------------------------------------------------- games round-trip
@pytest.mark.parametrize("case", ALL_SETS, ids=_ids)
def test_the_game_string_loads_back_the_same_game(case: tuple[str, dict[str, Any]]) -> None:
    name, params = case
    game = pyspiel.load_game(name, params)
    for again in (
        pyspiel.load_game(str(game)),
        pickle.loads(pickle.dumps(game)),
        copy.deepcopy(game),
        pyspiel.deserialize_game(game.serialize()),
    ):
        assert type(again) is type(game)
        assert again == game
        assert again.get_parameters() == game.get_parameters()
        assert str(again) == str(game)
        assert again.setup.rules == game.setup.rules
        assert again.setup.players == game.setup.players
        assert again.num_distinct_actions() == game.num_distinct_actions()


def test_the_game_string_of_a_non_default_mulle_game() -> None:
    game = pyspiel.load_game("kortbord_mulle", {"max_found_cards": 4, "game_length": "target:200"})
    text = str(game)
    assert "max_found_cards=4," in text and "game_length=target:200," in text
    again = pyspiel.load_game(text)
    assert again.setup.rules.max_found_cards == 4 and again.setup.rules.target == 200
    unlimited = pyspiel.load_game("kortbord_mulle(max_found_cards=-1)")
    assert unlimited.setup.rules.max_found_cards == "unlimited"
    assert pyspiel.load_game(str(unlimited)) == unlimited


@pytest.mark.parametrize("case", ALL_SETS, ids=_ids)
def test_random_sim_test_with_serialization(case: tuple[str, dict[str, Any]]) -> None:
    name, params = case
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


# ---------------------------------------------------------------------------------- states round-trip
def _advance(state: Any, rng: random.Random, steps: int) -> Any:
    """``state`` after up to ``steps`` random steps (chance weighted by its probabilities)."""
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _playout(state: Any, seed: int) -> tuple[list[int], list[float]]:
    """The legal actions of ``state`` and the returns of a random playout from it drawn from ``seed`` (the
    ``multiprocessing`` worker: module level, so a spawned process can import it)."""
    legal = list(state.legal_actions())
    end = _advance(state.clone(), random.Random(seed), 100_000)
    assert end.is_terminal()
    return legal, list(end.returns())


def _states() -> list[Any]:
    """Mid-game states of both games: at a chance node, in the middle of a deal, and at the end."""
    out = []
    for i, (name, params) in enumerate(
        [
            ("kortbord_mulle", {"game_length": "single_round", "players": 4, "teams": True}),
            ("kortbord_mulle", {"game_length": "single_round", "max_found_cards": 4}),
            ("kortbord_cribbage", {"players": 3, "target": 61}),
            ("kortbord_cribbage", {"muggins": True, "target": 61}),
        ]
    ):
        game = pyspiel.load_game(name, params)
        for steps in (30, 160, 100_000):
            out.append(_advance(game.new_initial_state(), random.Random(1000 * i + steps), steps))
    return out


def _same_state(a: Any, b: Any) -> None:
    assert type(a) is type(b)
    assert a.get_game() == b.get_game()
    assert a.history() == b.history()
    assert a.current_player() == b.current_player()
    assert a.is_terminal() == b.is_terminal()
    assert a.legal_actions() == b.legal_actions()
    assert a.table.state == b.table.state
    assert _entries(a.table.history) == _entries(b.table.history)
    assert a.table.round_log == b.table.round_log
    assert (a.drawn, a.dealer_draw) == (b.drawn, b.dealer_draw)
    if a.is_terminal():
        assert a.returns() == b.returns()
        return
    for seat in range(a.num_players()):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.information_state_tensor(seat) == b.information_state_tensor(seat)


def test_states_pickle_deep_copy_and_deserialize() -> None:
    states = _states()
    assert any(s.is_chance_node() for s in states) and any(s.is_terminal() for s in states)
    for state in states:
        for again in (
            pickle.loads(pickle.dumps(state)),
            copy.deepcopy(state),
            pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(state.get_game(), state))[1],
        ):
            _same_state(state, again)
            if not state.is_terminal():  # the copy plays on exactly as the original
                assert _playout(again, 7) == _playout(state, 7)


@pytest.mark.parametrize(
    ("name", "params"),
    [("kortbord_cribbage", {"players": 3}), ("kortbord_mulle", {"game_length": "target:200", "players": 3})],
)
def test_a_whole_long_game_pickles(name: str, params: dict[str, Any]) -> None:
    # the table's history is a linked list: pickled entry by entry it would overflow the recursion limit
    state = _advance(pyspiel.load_game(name, params).new_initial_state(), random.Random(5), 100_000)
    assert state.is_terminal() and len(state.history()) > 500
    data = pickle.dumps(state)
    _same_state(state, pickle.loads(data))
    assert len(data) < 400 * len(state.history())  # pieces of the common past are shared, not repeated


def test_a_deep_copy_is_independent() -> None:
    state = _states()[1]
    before = state.history()
    again = copy.deepcopy(state)
    _advance(again, random.Random(3), 10)
    assert state.history() == before and again.history() != before


def test_unpickling_in_a_fresh_process_registers_the_games() -> None:
    # the child imports nothing of kortbord before pickle.loads: the pickle names kortbord.openspiel's loaders
    state = _states()[4]
    code = (
        "import pickle, sys\n"
        "s = pickle.loads(sys.stdin.buffer.read())\n"
        "assert 'kortbord.openspiel' in sys.modules\n"
        "print(type(s).__name__, s.get_game().get_type().short_name, s.legal_actions())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        input=pickle.dumps(state),
        capture_output=True,
        check=True,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    )
    name = state.get_game().get_type().short_name
    assert out.stdout.decode().split(maxsplit=2) == ["KortbordState", name, f"{state.legal_actions()}\n"]


def test_multiprocessing_spawn_workers_play_pickled_states(monkeypatch: pytest.MonkeyPatch) -> None:
    # the spawned workers import this module by its name (pytest's importlib mode) from the repository root
    monkeypatch.syspath_prepend(str(ROOT))
    states = [s for s in _states() if not s.is_terminal()]
    jobs = [(state, seed) for seed, state in enumerate(states)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.starmap(_playout, jobs)
    assert results == [_playout(state, seed) for state, seed in jobs]
    assert all(legal for legal, _ in results)
