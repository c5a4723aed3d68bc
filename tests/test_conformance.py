"""The engine contract, checked over every entry of ``kortbord.core.GAMES`` through the generic interface only.

Anchors: pgx's ``api_test`` and OpenSpiel's ``random_sim_test``.  For every game, every profile and every player
count (and teams where the game has them) random games are played through the :class:`~kortbord.contract.GameSpec`
alone, and at sampled decisions:

* the spectator's view (``view(None)``) shows no card that any seat's view does not show;
* ``resample`` leaves the seat's view unchanged and every card accounted for;
* every event validates against the one event schema (``kortbord/schemas/event.schema.json``) and has words in
  English and Swedish (``kortbord.i18n``);
* an illegal move made by mutating a legal one is refused with a specific reason code that has words, and the
  state is unchanged;
* a record of the game replays to the identical game.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from importlib import resources
from typing import Any

import jsonschema
import pytest

from kortbord import i18n
from kortbord.contract import Event, GameSpec, Option
from kortbord.core import GAMES, get
from kortbord.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError, InvalidRulesError

CARD = re.compile(r"\b(?:[A2-9TJQK][SHDC])\b")
#: Reason codes that would say nothing about the rule: never allowed from a mutated legal move.
CATCH_ALL = {"illegal", "illegal_move", "other", "unknown", "not_legal", "invalid"}


def _configs() -> Iterator[tuple[str, str, int, bool]]:
    for name, spec in GAMES.items():
        for profile in spec.profiles():
            for players in (2, 3, 4):
                for teams in (False, True):
                    if teams and players != 4:
                        continue
                    try:
                        spec.make_rules({"profile": profile}, players=players, teams=teams)
                    except InvalidRulesError:
                        continue
                    yield name, profile, players, teams


CONFIGS = list(_configs())


def _schema() -> dict[str, Any]:
    text = (resources.files("kortbord") / "schemas" / "event.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


SCHEMA = _schema()
jsonschema.Draft202012Validator.check_schema(SCHEMA)
#: Each game's events against the schema's definition for that game (the schema itself accepts either game's).
VALIDATORS = {
    game: jsonschema.Draft202012Validator({**SCHEMA, "anyOf": [{"$ref": f"#/$defs/{game}"}]}) for game in GAMES
}


def _cards_in(obj: Any) -> Counter[str]:
    """Every card written in a JSON value (keys and strings), as a multiset."""
    return Counter(CARD.findall(json.dumps(obj)))


def _check_event(game: str, event: Event) -> None:
    data = event.to_json()
    assert json.loads(json.dumps(data)) == data, f"event {event.kind} is not JSON-ready"
    errors = sorted(VALIDATORS[game].iter_errors(data), key=str)
    assert not errors, f"event {data} does not fit the event schema: {errors[0].message}"
    for lang in i18n.LANGS:
        assert i18n.event_text(data, lang, names=["Ann", "Bo", "Cid", "Di"], game=game).strip(), (event.kind, lang)


def _check_views(spec: GameSpec, state: Any) -> None:
    public = spec.view(state, None).to_json()
    seen = _cards_in(public)
    for seat in range(spec.players(state)):
        mine = _cards_in(spec.view(state, seat).to_json())
        extra = seen - mine
        assert not extra, f"the spectator sees {sorted(extra)} that seat {seat} does not"


def _check_resample(spec: GameSpec, state: Any, rng: random.Random) -> None:
    everything = Counter(spec.cards(state))
    for seat in range(spec.players(state)):
        before = spec.view(state, seat).to_json()
        world = spec.resample(state, seat, rng)
        assert spec.view(world, seat).to_json() == before, f"resample changed seat {seat}'s view"
        assert Counter(spec.cards(world)) == everything, "resample lost or made a card"
        assert spec.legal_moves(world) or spec.to_act(world) != seat  # the seat can still act


def _mutations(text: str, seen: list[str], rng: random.Random) -> list[str]:
    """Notation with one card replaced by another (well-formed, usually illegal): a card the mover can see
    (own hand, table) or any card."""
    out = []
    cards = CARD.findall(text)
    for i in range(4):
        if not cards:
            break
        old = rng.choice(cards)
        new = rng.choice(seen) if i % 2 == 0 and seen else rng.choice("A23456789TJQK") + rng.choice("SHDC")
        out.append(re.sub(rf"\b{old}\b", new, text, count=1))
    return out


def _check_illegal(spec: GameSpec, state: Any, legal: list[Any], rng: random.Random) -> None:
    notations = {str(m) for m in legal}
    before = [str(m) for m in legal]
    seat = spec.to_act(state)
    seen = sorted(_cards_in(spec.view(state, seat).to_json())) if seat is not None else []
    for move in rng.sample(legal, min(3, len(legal))):
        for text in _mutations(str(move), seen, rng):
            if text in notations:
                continue
            try:
                spec.parse_move(state, text)
            except IllegalMoveError as err:
                assert err.reason is not None, f"{text!r}: refused without a reason code ({err})"
                assert err.reason.code not in CATCH_ALL, f"{text!r}: catch-all reason {err.reason.code}"
                assert err.reason.game == spec.name, f"{text!r}: a reason of {err.reason.game!r}"
                for lang in i18n.LANGS:
                    assert err.reason.text(lang).strip()
            except (InvalidMoveError, AmbiguousMoveError):
                pass
            assert [str(m) for m in spec.legal_moves(state)] == before, "a refused move changed the state"


def _play(spec: GameSpec, rules: Any, players: int, teams: bool, seed: int, check_every: int) -> dict[str, Any]:
    """One random game through ``spec`` with the checks; returns its record."""
    chance = random.Random(seed)
    rng = random.Random(seed + 1)
    state = spec.new_game(rules, players=players, teams=teams)
    decisions: list[Any] = []
    n = 0
    while not spec.is_over(state):
        if spec.is_chance(state):
            assert spec.to_act(state) is None and spec.legal_moves(state) == []
            state, events = spec.step(state, spec.chance_outcome(state, chance))
        else:
            seat = spec.to_act(state)
            assert seat is not None and 0 <= seat < players
            legal = spec.legal_moves(state)
            assert legal, "a seat to act has no legal move"
            assert len({str(m) for m in legal}) == len(legal), "legal moves are not deduplicated"
            if n % check_every == 0:
                _check_views(spec, state)
                _check_resample(spec, state, rng)
                _check_illegal(spec, state, legal, rng)
            move = rng.choice(legal)
            assert spec.parse_move(state, str(move)) == move, f"{move} does not round-trip through its notation"
            state, events = spec.step(state, move)
            decisions.append(move)
            n += 1
        for event in events:
            _check_event(spec.name, event)
        assert n < 5000, "the game does not end"
    _check_views(spec, state)
    result = spec.result(state).to_json()
    assert json.loads(json.dumps(result)) == result
    assert 0 < len(result["scores"]) == spec.sides(state)
    assert all(0 <= w < spec.sides(state) for w in result["winners"])
    record = spec.record(rules, players=players, teams=teams, seed=seed, moves=decisions)
    return {"record": record, "final": [spec.view(state, s).to_json() for s in range(players)], "result": result}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_registry_entry(game: str) -> None:
    spec = get(game)
    assert isinstance(spec, GameSpec)
    assert spec.name == game and isinstance(spec.rules_version, str) and spec.rules_version
    assert spec.profiles() and spec.profiles()[0] == "standard"
    schema = spec.option_schema()
    assert schema and all(isinstance(o, Option) for o in schema)
    assert len({o.key for o in schema}) == len(schema), "an option is declared twice"
    defaults = spec.rules_to_dict(spec.make_rules({}))
    for option in schema:
        assert json.loads(json.dumps(option.to_json())) == option.to_json()
        assert option.type in {"bool", "int", "choice", "choice_or_int"}
        if option.key in defaults and option.default is not None:  # None: derived (Cribbage partnership, lines)
            assert defaults[option.key] == option.default, option.key
        if option.type == "choice":
            assert option.default in option.choices, option.key


def test_unknown_game_is_a_clear_error() -> None:
    with pytest.raises(InvalidRulesError, match="no game 'chess'"):
        get("chess")


@pytest.mark.parametrize(("game", "profile", "players", "teams"), CONFIGS, ids=lambda v: str(v))
def test_random_games(game: str, profile: str, players: int, teams: bool) -> None:
    spec = get(game)
    rules = spec.make_rules({"profile": profile}, players=players, teams=teams)
    for seed in (11, 12):
        played = _play(spec, rules, players, teams, seed * 1000 + players, check_every=7)
        steps = list(spec.replay(played["record"]))
        assert steps, "a record replays to nothing"
        final = steps[-1][0]
        assert spec.is_over(final)
        assert [spec.view(final, s).to_json() for s in range(players)] == played["final"]
        assert spec.result(final).to_json() == played["result"]
        assert spec.record(rules, players=players, teams=teams, seed=seed * 1000 + players,
                           moves=[m for _, seat, m, _ in steps if seat is not None]) == played["record"]  # fmt: skip
