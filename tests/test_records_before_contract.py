"""Records made before the engine contract (issue #10) replay identically through the registry.

``tests/data/records-before-contract/`` holds games recorded with the engines of commit 92f39fa (the last commit
before the contract), with the final facts that engine computed (winners, scores, per-round totals, skunks).
Replaying them through ``kortbord.core.get(game).replay`` must end the same game, and each game's ``Game`` must
load and write the record back unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kortbord import cribbage, mulle
from kortbord.core import get

DATA = Path(__file__).parent / "data" / "records-before-contract"
FILES = sorted(DATA.glob("*.json"))


def test_there_are_records_of_both_games() -> None:
    assert {p.name.split("-")[0] for p in FILES} == {"mulle", "cribbage"}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_an_old_record_replays_to_the_same_game(path: Path) -> None:
    saved: dict[str, Any] = json.loads(path.read_text())
    record, final = saved["record"], saved["final"]
    spec = get(record["game"])
    steps = list(spec.replay(record))
    state = steps[-1][0]
    assert spec.is_over(state)
    assert [str(m) for _, seat, m, _ in steps if seat is not None] == record["moves"]
    result = spec.result(state).to_json()
    if record["game"] == "mulle":
        assert result["winners"] == final["winners"] and result["scores"] == final["scores"]
        assert [[side["total"] for side in rnd] for rnd in result["rounds"]] == final["round_totals"]
        assert mulle.Game.from_record(record).to_record() == record
    else:
        assert result["winner_seats"] == final["winners"] and result["seat_scores"] == final["scores"]
        assert spec.result(state).to_json()["skunked"] == final["skunked"]
        assert cribbage.Game.from_record(record).to_record() == record
