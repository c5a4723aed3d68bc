"""A Mulle game that ends level says so with the scores: "Oavgjort. Ställning: du 29, Greta 29." -- not a bare
"Oavgjort." (a fresh-clone CI run dealt a single round between two people that ended level; the game-over line
then gave no score at all).  The deal is the server's seed :data:`DRAW_SEED`, played out by both seats taking
their first legal move; the test finds the final scores with the engine (the same seed, the same moves) and fails,
saying so, if that play no longer ends level."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from drivers import PLAYWRIGHT, MulleTable, serving_seed
from test_web_table import PLAY_OUT, _game_id, _token

from kortbord import core
from kortbord.server.rng import DeterministicCSPRNG
from kortbord.server.sessions import run_chance, table_rules

pytestmark = PLAYWRIGHT

#: A server seed whose single round, both seats playing their first legal move, ends level (found with the engine).
DRAW_SEED = f"{11:064x}"


def _engine_result() -> dict[str, Any]:
    """The result of the single round dealt from :data:`DRAW_SEED`, both seats playing their first legal move, as
    the server deals it (its generator, its chance steps)."""
    spec = core.get("mulle")
    rules, *_ = table_rules(spec, {"game_length": "single_round"}, 2, False)
    rng = DeterministicCSPRNG(DRAW_SEED)
    state, _ = run_chance(spec, spec.new_game(rules, players=2), rng)
    while not spec.is_over(state):
        state, _ = spec.step(state, spec.legal_moves(state)[0])
        state, _ = run_chance(spec, state, rng)
    out: dict[str, Any] = spec.result(state).to_json()
    return out


@pytest.fixture(scope="module")
def draw_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose every game is dealt from :data:`DRAW_SEED`."""
    with serving_seed(tmp_path_factory, DRAW_SEED) as base:
        yield base


def test_a_level_game_says_the_scores(draw_server: str, browser: Any) -> None:
    result = _engine_result()
    assert result["winners"] == [] and len(set(result["scores"])) == 1, f"the seed no longer ends level: {result}"
    level = result["scores"][0]
    table = MulleTable(browser, width=390, height=844, lang="sv")
    host, guest = table.host, table.guest
    table.sit_down(draw_server)
    gid = _game_id(host)
    host.evaluate(PLAY_OUT, [gid, [_token(host, gid), _token(guest, gid)]])
    for page in (host, guest):
        page.wait_for_selector("#round-summary")
        page.click("#summary-close")
        page.wait_for_selector("#game-over", state="visible")
    said = host.inner_text("#game-over .result")
    assert said.startswith("Oavgjort."), said
    assert re.search(rf"\bdu {level}\b", said) and f"Greta {level}" in said, said
    said = guest.inner_text("#game-over .result")
    assert said.startswith("A draw."), said
    assert re.search(rf"\byou {level}\b", said) and len(re.findall(rf"\b{level}\b", said)) == 2, said
    table.close()
