"""OpenSpiel adapter: registration, parameters, OpenSpiel's own consistency test, chance, hidden information,
resampling and OpenSpiel's Python search algorithms on kortbord_mulle and kortbord_cribbage."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import kortbord.openspiel  # noqa: E402, F401  (registers the games)
from kortbord import cribbage, mulle  # noqa: E402
from kortbord.research import encoding as enc  # noqa: E402

MULLE_PARAMS = [
    {"game_length": "single_round"},
    {"game_length": "single_round", "players": 3},
    {"game_length": "single_round", "players": 4, "teams": True},
    {"game_length": "single_round", "profile": "cardgames.zone"},
    {"game_length": "single_round", "profile": "kryp", "utility": "score_diff"},
    {"game_length": "single_round", "hand_size": 4, "table_size": 8, "first_dealer": 1},
    {"game_length": "target:60", "players": 2},
]
CRIBBAGE_PARAMS = [
    {},
    {"target": 61, "muggins": True},
    {"target": 61, "lowball": True},
    {"players": 3, "target": 61, "muggins": True},
    {"players": 4, "target": 61, "muggins": True, "utility": "score_diff"},
    {"players": 3, "first_dealer": 2},
]


def _play_chance(state: pyspiel.State, rng: np.random.RandomState) -> None:
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(actions, p=probs)))


def test_registered_with_every_rule_option_as_a_parameter() -> None:
    names = pyspiel.registered_names()
    assert "kortbord_mulle" in names and "kortbord_cribbage" in names
    mulle_params = pyspiel.load_game("kortbord_mulle").get_parameters()
    for f in dataclasses.fields(mulle.Rules):
        assert f.name in mulle_params, f.name
    assert {"players", "teams", "first_dealer", "utility", "max_actions"} <= set(mulle_params)
    crib_params = pyspiel.load_game("kortbord_cribbage").get_parameters()
    for key in cribbage.Rules().to_dict():
        if key != "partnership":  # derived from players (4 players always play as partners, spec §2.2)
            assert key in crib_params, key


def test_parameters_reach_the_engine_rules() -> None:
    game = pyspiel.load_game("kortbord_mulle", {"profile": "cardgames.zone", "capture_duty": "none", "players": 3})
    rules = game.setup.rules
    assert rules.capture_duty == "none" and rules.locking is False and rules.pure_mulle is False
    assert game.num_players() == 3
    crib = pyspiel.load_game("kortbord_cribbage", {"target": 61, "muggins": True, "players": 4})
    assert crib.setup.rules == cribbage.Rules(players=4, target=61, muggins=True)
    assert crib.num_distinct_actions() == enc.CRIBBAGE_NUM_ACTIONS


@pytest.mark.parametrize("params", MULLE_PARAMS)
def test_random_sim_test_mulle(params: dict[str, object]) -> None:
    game = pyspiel.load_game("kortbord_mulle", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("params", CRIBBAGE_PARAMS)
def test_random_sim_test_cribbage(params: dict[str, object]) -> None:
    game = pyspiel.load_game("kortbord_cribbage", params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_chance_deals_card_by_card_with_copy_weights() -> None:
    game = pyspiel.load_game("kortbord_mulle", {"game_length": "single_round", "first_dealer": 0})
    state = game.new_initial_state()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == list(range(52))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(0)  # one ace of spades drawn: 1 of 103 left
    probs = dict(state.chance_outcomes())
    assert probs[0] == pytest.approx(1 / 103) and probs[1] == pytest.approx(2 / 103)
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(0)
        state.apply_action(0)  # a third ace of spades does not exist
    crib = pyspiel.load_game("kortbord_cribbage", {"first_dealer": 0}).new_initial_state()
    n = 0
    while crib.is_chance_node():
        crib.apply_action(crib.chance_outcomes()[0][0])
        n += 1
    assert n == 2 * 6 + 1  # the two hands and the starter (spec §2.2, §2.3)


def test_mulle_action_ids_index_the_canonical_legal_moves() -> None:
    game = pyspiel.load_game("kortbord_mulle", {"game_length": "single_round"})
    state = game.new_initial_state()
    _play_chance(state, np.random.RandomState(3))
    legal = mulle.legal_moves(state.table.state)
    assert state.legal_actions() == list(range(len(legal)))
    assert [state.action_to_string(state.current_player(), a) for a in state.legal_actions()] == [str(m) for m in legal]


def test_mulle_action_space_overflow_is_explicit() -> None:
    game = pyspiel.load_game("kortbord_mulle", {"game_length": "single_round", "max_actions": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    with pytest.raises(enc.ActionSpaceOverflowError, match="max_actions"):
        while not state.is_terminal():
            _play_chance(state, rng)
            state.apply_action(int(rng.choice(state.legal_actions())))


def test_cribbage_action_encoding_round_trips() -> None:
    for a in range(enc.CRIBBAGE_NUM_ACTIONS):
        assert enc.cribbage_action(enc.cribbage_move(a)) == a
    assert str(enc.cribbage_move(enc.CRIBBAGE_GO)) == "go"
    assert str(enc.cribbage_move(enc.CRIBBAGE_ANNOUNCE + 12)) == "count 12"
    assert str(enc.cribbage_move(enc.CRIBBAGE_MUGGINS + 3)) == "muggins 3"
    assert str(enc.cribbage_move(enc.CRIBBAGE_DISCARD2)) == "discard AS AH"


def _walk(game: pyspiel.Game, seed: int, every: int = 3):  # type: ignore[no-untyped-def]
    """Random play, yielding the decision states of every ``every``-th step."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    k = 0
    while not state.is_terminal():
        _play_chance(state, rng)
        if state.is_terminal():
            break
        if k % every == 0:
            yield state
        state.apply_action(int(rng.choice(state.legal_actions())))
        k += 1


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("kortbord_mulle", {"game_length": "single_round", "players": 3}),
        ("kortbord_mulle", {"game_length": "single_round", "players": 4, "teams": True}),
        ("kortbord_cribbage", {"target": 61, "muggins": True}),
        ("kortbord_cribbage", {"players": 3, "target": 61, "muggins": True}),
    ],
)
def test_redealing_hidden_cards_leaves_a_players_information_unchanged(name: str, params: dict[str, object]) -> None:
    """The hidden cards re-dealt (other hands, stock, face-down discards): the player's information-state and
    observation strings and tensors are unchanged -- so none of them holds a card hidden from the player -- while
    some other player's hand did change."""
    game = pyspiel.load_game(name, params)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for state in _walk(game, seed=11, every=16 if name == "kortbord_mulle" else 3):
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, sampler)
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            hands = [state.table.view(s).hand for s in range(game.num_players()) if s != player]
            if hands != [other.table.view(s).hand for s in range(game.num_players()) if s != player]:
                changed += 1
    assert changed > 0


def test_another_players_cards_are_never_in_the_observation() -> None:
    game = pyspiel.load_game("kortbord_cribbage", {"target": 61})
    for state in _walk(game, seed=5, every=1):
        seat = state.current_player()
        other = 1 - seat
        if state.table.state.phase_name != "discard":
            continue
        hidden = state.table.view(other).hand  # before the play every card of this hand is hidden from `seat`
        info = state.information_state_string(seat)
        this_deal = info[info.rindex("\ndeal ") :]  # earlier deals and the cut name cards of other packs
        obs = json.loads(state.observation_string(seat))
        obs.pop("cuts")
        text = this_deal + json.dumps(obs)
        assert not any(f'"{c}"' in text or f" {c}" in text for c in hidden)
        hand_plane = np.array(state.observation_tensor(seat))[:52]
        assert all(hand_plane[int(c)] == 0 for c in hidden)


def test_all_players_observation_type_is_refused() -> None:
    game = pyspiel.load_game("kortbord_mulle")
    with pytest.raises(ValueError, match="never"):
        game.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
        )


@pytest.mark.parametrize(
    ("name", "params"),
    [("kortbord_mulle", {"game_length": "single_round"}), ("kortbord_cribbage", {"target": 61, "muggins": True})],
)
def test_python_mcts_and_ismcts_play_moves(name: str, params: dict[str, object]) -> None:
    game = pyspiel.load_game(name, params)
    rng = np.random.RandomState(7)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bots = [
        mcts.MCTSBot(game, 2.0, 6, evaluator, random_state=rng),
        ismcts.ISMCTSBot(game, evaluator, 2.0, 6, random_state=rng),
    ]
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 12:
        _play_chance(state, rng)
        if state.is_terminal():
            break
        action = bots[decisions % 2].step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))
        decisions += 1
    assert decisions == 12 or state.is_terminal()
