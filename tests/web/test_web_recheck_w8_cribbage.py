"""The Cribbage, game-over and lobby findings of the w7 re-check (issue #11), each checked in the real browser
(Debian's Chromium driven by Playwright) against the real server, or in the page's words under Node:

* keyboard focus (finding 7): folding the game-over panel keeps the focus on its fold button, opening it again puts
  it on Rematch; the keys list closed with Esc gives the focus back to the ``?`` button that opened it (never the
  page's body);
* the folded game-over bar (finding 6) stands under the table, covering neither the viewer's hand nor the log;
* who is to play (finding 11): only the seat whose turn it is has the gold "active" border; the seat that moved last
  is marked otherwise;
* a partnership's game over (finding 13) names the teams by their players as the board does ("Du & Dator 3 82"),
  in the page's words and the Python catalogue alike; "skunk" is the project's Swedish word (the options, the
  terminal's rules) and stays;
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from drivers import (
    CHROMIUM,
    PageErrors,
    browser,
    create_game,
    new_context,
    root_data,
    server,
    shot,
)
from test_words import _say
from web_layout import VIEWPORTS, at_rest

from kortbord.i18n import event_text

__all__ = ["browser", "server"]  # fixtures used by name

_browser = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)")


def _quick(browser: Any, **kw: Any) -> Any:
    ctx = new_context(browser, **kw)
    ctx.add_init_script("localStorage.setItem('kortbord.settings', JSON.stringify({speed: 'off'}));")
    return ctx


#: A four-hand game over: seats 1 and 3 (the second team) reach 121, the first team is left on 82 (a skunk: 90 or
#: less, spec §2.7).
_OVER4 = {
    "kind": "game_over",
    "winners": [1, 3],
    "side": 1,
    "scores": [50, 70, 32, 51],
    "side_scores": [82, 121],
    "partnership": True,
    "skunk": True,
    "double_skunk": False,
    "lowball": False,
}
_NAMES4 = ["Du", "Dator 2", "Dator 3", "Dator 4"]


def test_partnership_game_over_names_the_teams_as_the_board_does() -> None:
    line = {"game": "cribbage", "what": "event", "data": _OVER4, "lang": "sv", "names": _NAMES4, "me": 0}
    [said] = _say([json.dumps(line)])
    # the teams as the board and the final score name them: the partners' names joined by " & "
    assert said.endswith("(Du & Dator 3 82, Dator 2 & Dator 4 121)"), said
    assert "+" not in said, said
    assert " och skunk " in said, said  # the Swedish word of the options ("Skunk") and the terminal ("skunkad")
    # the Python catalogue (the terminal) says the same
    assert event_text(_OVER4, "sv", _NAMES4, game="cribbage") == said
