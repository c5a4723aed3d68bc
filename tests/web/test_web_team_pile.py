"""A Mulle game of four in two teams says the pile is the team's (issue #11, the w9 fresh report's finding 4).

Spec §2.2: with four players the partners sitting opposite capture to one pile a team, and the team's pile is what
scores.  Each partner's box shows that pile, so it is named the team's there, and the aids' running pile is "our
team's pile", not "my pile" -- in English and in Swedish.  The same four players without teams each keep a pile.
Checked in Debian's Chromium driven by Playwright against the real server.
"""

from __future__ import annotations

from typing import Any

import pytest
from drivers import PLAYWRIGHT, PageErrors, browser, close_modals, create_game, new_context, server, wait_mine_or_over

pytestmark = pytest.mark.skipif(not PLAYWRIGHT, reason="needs Playwright and Debian's Chromium")
__all__ = ["browser", "server"]  # the fixtures, imported for pytest

#: Each seat box's pile figure as shown (innerText: the long words here, a phone's short ones hidden), and the
#: aids' pile line (empty when it is not there).
_PILES = """
() => ({
  seats: [...document.querySelectorAll('.mulle .seatbox .pileline > span:first-child')]
    .map((e) => e.innerText),
  aid: document.querySelector('#aid-pile')?.textContent ?? '',
})
"""


def _four(page: Any, base: str, teams: bool) -> None:
    create_game(page, base, "mulle", options={"game_length": "single_round"}, players=4, teams=teams)
    assert wait_mine_or_over(page, ".mulle")
    close_modals(page)
    page.wait_for_selector("#aid-pile:not(.stale)")


@pytest.mark.parametrize("teams", [True, False], ids=["teams", "each-alone"])
def test_team_pile_is_said_to_be_the_teams(server: str, browser: Any, teams: bool) -> None:
    ctx = new_context(browser, width=1366, height=768, speed="off")
    page = ctx.new_page()
    errors = PageErrors(page)
    _four(page, server, teams)
    piles = page.evaluate(_PILES)
    assert len(piles["seats"]) == 4, piles  # every player's box: three opponents' or partner's, and mine
    if teams:
        assert all(s.startswith("Team's pile: ") for s in piles["seats"]), piles
        assert piles["aid"].startswith("Our team's pile: "), piles
    else:
        assert all(s.startswith("Pile: ") for s in piles["seats"]), piles
        assert piles["aid"].startswith("My pile: "), piles
    page.click("header .lang[lang=sv]")
    page.wait_for_function("() => (document.querySelector('#aid-pile')?.textContent ?? '').includes('intag')")
    piles = page.evaluate(_PILES)
    if teams:
        assert all(s.startswith("Lagets hög: ") for s in piles["seats"]), piles
        assert piles["aid"].startswith("Lagets intag: "), piles
    else:
        assert all(s.startswith("Hög: ") for s in piles["seats"]), piles
        assert piles["aid"].startswith("Mina intag: "), piles
    errors.check()
    ctx.close()
