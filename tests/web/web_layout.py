"""One screen (issue #11): at 1280x800, 1366x768 and 390x844 the player's hand, the controls they must use, the
table, the opponents' state and the scores lie inside the viewport without scrolling, and choosing cards moves
none of them.  Checked by bounding boxes in the real browser (``getBoundingClientRect``), clipped by every
scrolling ancestor, so a control scrolled out of its panel counts as out of view."""

from __future__ import annotations

from typing import Any

#: The three screens of the issue: two laptops and a phone.
VIEWPORTS = ((1280, 800), (1366, 768), (390, 844))

#: The regions every table has (stable class names, also for other modules to hook on).
REGIONS = (".opponents", ".scores", ".table", ".banner", ".turn")

#: The smallest scrolling box a move button may sit in (px): a box that scrolls and is smaller than this is the
#: "tiny box" a player had to scroll to read the moves.
MIN_SCROLL_BOX = 200

#: The problems of the chosen card's move buttons (a list of sentences, empty when none): a button outside the
#: viewport, clipped by a panel it sits in, or in a scrolling box under MIN_SCROLL_BOX px.
MOVE_BOXES = """
() => {
  const vh = window.innerHeight, vw = window.innerWidth, out = [];
  for (const b of document.querySelectorAll('.controls button.move')) {
    const r = b.getBoundingClientRect();
    if (r.top < 0 || r.bottom > vh + 1 || r.left < 0 || r.right > vw + 1) out.push(`${b.textContent} outside the viewport`);
    for (let a = b.parentElement; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (!['auto', 'scroll', 'hidden'].includes(cs.overflowY)) continue;
      const ar = a.getBoundingClientRect();
      if (r.top < ar.top - 1 || r.bottom > ar.bottom + 1) out.push(`${b.textContent} clipped by its panel`);
      if (a.scrollHeight > a.clientHeight + 1 && ar.height < MIN_BOX) out.push(`${b.textContent} in a ${Math.round(ar.height)} px scrolling box`);
    }
  }
  return out;
}
""".replace("MIN_BOX", str(MIN_SCROLL_BOX))

_PROBLEMS = """
(extra) => {
  const out = [];
  const vw = window.innerWidth, vh = window.innerHeight;
  const se = document.scrollingElement;
  const below = () => [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().bottom > vh + 1)
    .slice(-3).map((el) => {
      const path = [];
      for (let a = el; a && a !== document.body; a = a.parentElement) path.unshift(`${a.tagName.toLowerCase()}${a.classList.length ? '.' + [...a.classList].join('.') : ''}`);
      return `${path.slice(-4).join(' > ')} bottom ${Math.round(el.getBoundingClientRect().bottom)}`;
    });
  if (se.scrollHeight > vh + 1) out.push(`the page scrolls: ${se.scrollHeight} > ${vh} (${below().join('; ')})`);
  if (se.scrollWidth > vw + 1) out.push(`the page scrolls sideways: ${se.scrollWidth} > ${vw}`);
  const root = document.querySelector('.mulle, .cribbage');
  if (!root) return ['no table'];
  const d = root.dataset;
  const legal = JSON.parse(d.legal || '[]');
  const mine = d.mine === '1';
  const modal = document.querySelector('.modal-back .modal');
  const need = ['.opponents', '.scores', '.table', '.banner', '.turn', ...extra];
  if (modal) need.push('#show-close, #summary-close');
  if (mine && !modal && !document.querySelector('#game-over')) {
    need.push('.controls');
    if (document.querySelector('.hand-card')) need.push('.hand', '.hand-card');
    if (root.classList.contains('cribbage')) {
      if (d.phase === 'discard') need.push('#discard');
      if (d.phase === 'play') need.push('#go', ...(legal.some((m) => m !== 'go') ? ['.hand-card.legal'] : []));
      if (legal.some((m) => m.startsWith('count'))) need.push('#count-input', '#announce', '.numgrid button');
      if (legal.includes('accept')) need.push('#accept', '#overcount', '#muggins', '#muggins-input', '.numgrid button');
    }
  }
  for (const sel of need) {
    const els = [...document.querySelectorAll(sel)];
    if (!els.length) { out.push(`${sel}: missing`); continue; }
    for (const el of els) {
      const r = el.getBoundingClientRect();
      const name = `${sel}${el.dataset.code ? '[' + el.dataset.code + ']' : ''}`;
      if (r.width < 1 || r.height < 1) { out.push(`${name}: not shown`); continue; }
      let box = { l: 0, t: 0, r: vw, b: vh };
      for (let a = el.parentElement; a; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
          const ar = a.getBoundingClientRect();
          box = { l: Math.max(box.l, ar.left), t: Math.max(box.t, ar.top), r: Math.min(box.r, ar.right), b: Math.min(box.b, ar.bottom) };
        }
      }
      const tol = 2;
      if (r.left < box.l - tol || r.top < box.t - tol || r.right > box.r + tol || r.bottom > box.b + tol) {
        out.push(`${name}: ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)} outside ${Math.round(box.l)},${Math.round(box.t)}-${Math.round(box.r)},${Math.round(box.b)}`);
      }
    }
  }
  return out;
}
"""

_RECTS = """
() => Object.fromEntries(['.hand', '.table', '.controls', '.opponents', '.scores'].map((sel) => {
  const el = document.querySelector(sel);
  if (!el) return [sel, null];
  const r = el.getBoundingClientRect();
  return [sel, [Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]];
}))
"""


#: True once no card or peg is in flight: every finite animation (a FLIP move of ``anim.ts``, a flip, a peg's walk)
#: has finished.  A card in flight may pass outside the viewport (from the hand below to a row above); what a player
#: must see is the table at rest.  Endless ones (the thinking sign) do not count.
_AT_REST = """
() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity)
"""


#: Resolves after the next two frames: by then the page's ResizeObserver callbacks for the last layout (the table's
#: fitting of its builds and of the moves' sheet to a new width, mulle.ts) have run and their layout is done.  A
#: viewport just resized under load could otherwise be measured with the previous width's fitting still in place
#: (a tag fitted beside its cards at 1366 px, read at 390 px) -- a state no player sees, gone a frame later.
_SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"


def settled(page: Any) -> None:
    """Wait two frames (:data:`_SETTLED`), so that what is measured is the layout the page settled on."""
    page.evaluate(_SETTLED)


def at_rest(page: Any) -> None:
    """Wait until no card or peg is in flight (:data:`_AT_REST`): what a player reads is the table at rest."""
    page.wait_for_function(_AT_REST, timeout=10_000)


def fits_one_screen(page: Any, extra: tuple[str, ...] | list[str] = ()) -> None:
    """Assert that at each of :data:`VIEWPORTS` the required elements of the current decision lie inside the
    viewport and inside their scrolling panels, and that the page does not scroll; ``extra`` adds selectors
    (e.g. the move button about to be clicked).  The viewport is put back as it was."""
    before = page.viewport_size
    here = (before["width"], before["height"])
    # the current size last, so that it need not be set again
    sizes = [s for s in VIEWPORTS if s != here] + ([here] if here in VIEWPORTS else [])
    try:
        for w, h in sizes:
            if (w, h) != (page.viewport_size["width"], page.viewport_size["height"]):
                page.set_viewport_size({"width": w, "height": h})
                settled(page)
            page.wait_for_function(_AT_REST, timeout=10_000)
            problems = page.evaluate(_PROBLEMS, list(extra))
            assert not problems, f"at {w}x{h}: {problems}"
    finally:
        if page.viewport_size != before:
            page.set_viewport_size(before)
            settled(page)


def regions(page: Any) -> dict[str, Any]:
    """The boxes of the hand, the table, the controls, the opponents and the scores ([left, top, width, height])."""
    settled(page)
    out: dict[str, Any] = page.evaluate(_RECTS)
    return out


def nothing_moved(page: Any, before: dict[str, Any]) -> None:
    """Assert that no region moved or changed size since ``before`` (:func:`regions`), e.g. after choosing cards."""
    after = regions(page)
    moved = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    assert not moved, f"choosing cards moved: {moved}"


def ask_hint(page: Any, tap: bool = False) -> dict[str, Any]:
    """The table at rest, its regions (:func:`regions`) read, then the Hint button pressed (tapped on a touch
    screen) and the hint waited for, at rest; returns the regions from before, for :func:`nothing_moved`."""
    at_rest(page)
    before = regions(page)
    (page.tap if tap else page.click)("#hint-btn")
    page.wait_for_selector("#hint-play")
    at_rest(page)
    return before
