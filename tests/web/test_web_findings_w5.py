"""The page findings of the second fresh-user pass (issue #11), each checked in the real browser (Debian's Chromium
driven by Playwright) against the real server:

* the Mulle hint, asked with the whole aids line on (pile and twins), shows its whole text and its "Play it"
  button inside the viewport at 1366x768, 1280x800 and 390x844, and asking for it moves none of the table's regions.
"""

from __future__ import annotations

from typing import Any

import pytest
from test_web_playwright import (  # the fixtures and helpers of the end-to-end tests
    CHROMIUM,
    PageErrors,
    _context,
    browser,
    create_game,
    server,
    shot,
)
from web_layout import VIEWPORTS, at_rest, nothing_moved, regions

__all__ = ["browser", "server"]  # fixtures used by name

pytestmark = [
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install chromium)"),
    pytest.mark.slow,
]

#: Why the hint is not wholly in view: its text cut (clamped or hidden), its button outside the viewport.
_HINT_PROBLEMS = """
() => {
  const out = [], vw = innerWidth, vh = innerHeight;
  const text = document.querySelector('#hint .hint-text'), play = document.querySelector('#hint-play');
  if (!text || !play) return ['no hint'];
  if (text.scrollHeight > text.clientHeight + 1 || text.scrollWidth > text.clientWidth + 1) out.push(`hint text cut: ${text.scrollWidth}x${text.scrollHeight} in ${text.clientWidth}x${text.clientHeight}`);
  for (const el of [text, play, document.querySelector('#hint')]) {
    const r = el.getBoundingClientRect();
    if (r.width < 8 || r.left < 0 || r.top < 0 || r.right > vw + 1 || r.bottom > vh + 1) out.push(`${el.id || el.className} at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
  }
  return out;
}
"""


def test_mulle_hint_whole_and_nothing_jumps(server: str, browser: Any) -> None:
    ctx = _context(browser, width=1366, height=768)
    page = ctx.new_page()
    errors = PageErrors(page)
    create_game(page, server, "mulle")
    page.wait_for_function("() => document.querySelector('.mulle')?.dataset.mine === '1'")
    page.wait_for_selector("#aid-pile")
    page.wait_for_selector("#aid-twins")
    for w, h in sorted(VIEWPORTS, reverse=True):  # 1366 first: no hint yet
        page.set_viewport_size({"width": w, "height": h})
        at_rest(page)
        before = regions(page)
        asked = page.locator("#hint").count() == 0
        if asked:
            page.click("#hint-btn")
            page.wait_for_selector("#hint-play")
            at_rest(page)
        problems = page.evaluate(_HINT_PROBLEMS)
        assert not problems, f"at {w}x{h}: {problems}"
        if asked:
            nothing_moved(page, before)
        shot(page, f"w5-hint-{w}x{h}", full=False)
    errors.check()
    ctx.close()
