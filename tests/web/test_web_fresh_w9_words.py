"""The w9 new user's findings on words, checked in the real browser (Debian's Chromium driven by Playwright)
against the real server (/work/notes/w9/fresh/report.md):

* finding 10: both games' rules pages showed internal notation -- option keys (``skunk_games``), raw values
  (``target:100``, ``false``/``true``, English in Swedish too) and spec references ("§2.7", "(A18)") in the text.
  Each option is now said by its words in the player's language (the catalogue the lobby uses), its values as
  words or numbers, and the spec references only behind a "rule details" disclosure (issue #11 item 3);
* finding 11: the Muggins show summary headed the hand by its worth ("Your hand: 5") when the player announced
  (and scored) 4: it says both;
* finding 15: the Mulle game-over panel had a "Round scores" heading with only "—" under it.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from drivers import PLAYWRIGHT, PageErrors, new_context, shot

pytestmark = PLAYWRIGHT

I18N = Path(__file__).resolve().parents[2] / "src" / "kortbord" / "i18n"
REF = re.compile(r"§|\((?:spec |[AM]\d)")
BOOL = re.compile(r"\b(?:true|false|True|False)\b")


def _options(base: str, game: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{base}/api/options/{game}") as r:
        return list(json.load(r)["options"])


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("game", ["cribbage", "mulle"])
def test_the_rules_page_says_the_options_in_words_and_hides_the_spec_references(
    server: str, browser: Any, game: str, lang: str
) -> None:
    options = _options(server, game)
    catalogue = json.loads((I18N / f"{game}.json").read_text())
    ctx = new_context(browser, width=390, height=844, lang=lang)
    page = ctx.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/#/rules/{game}")
    page.wait_for_selector(".options-doc dl")
    shot(page, f"w9-words-rules-{game}-{lang}")
    # everything on the rules page a player reads without opening the rule details
    outside = page.evaluate(
        """() => { const a = document.querySelector('article.rules').cloneNode(true);
                   a.querySelectorAll('details.rule-details').forEach(d => d.remove()); return a.innerText; }"""
    )
    options_text = page.evaluate(
        """() => { const a = document.querySelector('.options-doc').cloneNode(true);
                   a.querySelectorAll('details.rule-details').forEach(d => d.remove()); return a.innerText; }"""
    )
    assert page.locator("article.rules code").count() == 0
    for o in options:
        key = o["key"]
        # the option's label in the player's language, from the catalogue (the lobby's words)
        assert catalogue[f"option.{key}.label"][lang] in outside, key
        if "_" in key:
            assert key not in outside, key
        for c in o.get("choices") or []:
            if isinstance(c, str) and (":" in c or "_" in c):
                assert c not in outside, c
    # no raw true/false for an option's value (the summary above may say "the true breakdown" in English)
    assert not BOOL.search(options_text), BOOL.search(options_text)
    assert not REF.search(outside), REF.search(outside)
    # the default of a choice is said by the catalogue's words ("to 100 points" for target:100, "121 (twice
    # around)" for 121)
    first_choice = next(o for o in options if o.get("choices"))
    said = catalogue[f"option.{first_choice['key']}.{first_choice['default']}"][lang]
    assert said in outside, said
    # the references are kept, behind the disclosure, closed until the player opens it
    details = page.locator("details.rule-details")
    assert details.count() == 1
    assert not details.evaluate("d => d.open")
    details.locator("summary").click()
    inside = details.inner_text()
    assert REF.search(inside), inside
    assert ("rule details" if lang == "en" else "regeldetaljer") in inside
    errors.check()
    ctx.close()
