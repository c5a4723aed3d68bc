// The same keys in both games (issue #11 item 6): Enter performs the proposed action (lay away, play, capture,
// count, accept, close a panel) whatever has the focus; the count box takes the focus when the viewer must count;
// ? opens the list of shortcuts; H asks for a hint, S opens the settings.
import { h } from "./dom";
import { aw } from "./aidwords";
import { lang } from "./i18n";

/** The keys and their words; Cribbage's digits and Space say what they do in the lay-away and in the play (keys11),
 * and its show how the count is typed and answered. */
function rows(game: string): [string, string][] {
  const crib = game === "cribbage";
  return [
    ["Enter", "ui.key.enter"],
    ["1–9", crib ? "ui.key.digits.cribbage" : "ui.key.digits"],
    ["← → ↑ ↓", "ui.key.arrows"],
    ["Space", crib ? "ui.key.space.cribbage" : "ui.key.space"],
    ...(crib ? ([["0–9, Tab", "ui.key.show"]] as [string, string][]) : []),
    ...COMMON,
  ];
}

const COMMON: [string, string][] = [
  ["Esc", "ui.key.esc"],
  ["G", "ui.key.g"],
  ["H", "ui.key.h"],
  ["S", "ui.key.s"],
  ["?", "ui.key.q"],
];

/** The shortcuts overlay; `close` removes it; `hand` is the number of cards in the viewer's hand now (the number
 * keys choose them: "1–6" for a Cribbage hand of six); `game`: the game's own words for its keys. */
export function keysOverlay(close: () => void, hand = 9, game = "mulle"): HTMLElement {
  const n = Math.max(1, Math.min(9, hand));
  // the keys' own names in the page's language where a keyboard prints words ("Mellanslag" on a Swedish one)
  const label = (k: string) => (k === "1–9" ? (n === 1 ? "1" : `1–${n}`) : k === "Space" && lang() === "sv" ? "Mellanslag" : k);
  return h(
    "div",
    { class: "modal-back", onclick: (e: Event) => e.target === e.currentTarget && close() },
    h(
      "div",
      { class: "modal panel keys", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-h", id: "keys-overlay" },
      h("h2", { id: "keys-h" }, aw("ui.keys")),
      h("dl", { class: "keylist" }, rows(game).map(([k, w]) => [h("dt", {}, h("kbd", {}, label(k))), h("dd", {}, aw(w))])),
      h("button", { class: "primary", id: "keys-close", onclick: close }, aw("ui.close")),
    ),
  );
}

function visible(el: Element | null): el is HTMLButtonElement {
  return el instanceof HTMLButtonElement && !el.disabled && el.offsetParent !== null;
}

/** The button Enter presses in `root` now, or null (then Enter keeps its usual meaning). */
export function proposed(root: HTMLElement): HTMLButtonElement | null {
  const q = (sel: string) => root.querySelector<HTMLButtonElement>(sel);
  const focused = document.activeElement;
  // An open panel: its own button.
  for (const sel of ["#keys-close", "#settings-close", "#show-close", "#summary-close"]) {
    const b = document.querySelector<HTMLButtonElement>(sel);
    if (visible(b)) return b;
  }
  // The player's own choice, when it makes a move.
  const discard = q("#discard");
  if (visible(discard)) return discard;
  // Cribbage's pegging: the card chosen by the keyboard (a digit, Enter or Space on a card) -- never a card only
  // focused: the page puts the focus on a card after a redraw, and that is no choice of the player's (keys11)
  if (phaseOf(root) === "play") {
    const chosen = root.querySelector<HTMLButtonElement>(".cribbage .hand-card.chosen.legal");
    if (visible(chosen)) return chosen;
  }
  if (focused instanceof HTMLButtonElement && focused.matches(".move.legal")) return focused;
  const moves = root.querySelectorAll<HTMLButtonElement>(".actions .move.legal");
  if (moves.length >= 1) return moves[0];
  // Else the hint's move, when a hint is shown.
  const play = q("#hint-play");
  if (visible(play)) return play;
  // Cribbage: Enter chooses the focused card while the discard is not complete; in the show it counts (the
  // count box) or accepts; in the play it says go (when no card fits), else the table chooses a card (cribbage.ts).
  if (discard) return null;
  const announce = q("#announce");
  if (announce) return visible(announce) ? announce : null;
  const muggins = root.querySelector<HTMLInputElement>("#muggins-input");
  if (muggins && muggins.value) return q("#muggins");
  const accept = q("#accept");
  if (visible(accept)) return accept;
  if (phaseOf(root) === "play") {
    const go = q("#go.legal");
    if (visible(go)) return go;
  }
  return null;
}

function phaseOf(root: HTMLElement): string | undefined {
  return root.querySelector<HTMLElement>(".cribbage")?.dataset.phase;
}

/** After a new state is drawn: the count box has the focus when the viewer must count, Accept when they must
 * answer a count (so Enter accepts). */
export function focusForState(root: HTMLElement): void {
  const active = document.activeElement;
  if (active instanceof HTMLInputElement && active.classList.contains("count-input")) return;
  const count = root.querySelector<HTMLInputElement>("#count-input");
  if (count) {
    count.focus();
    return;
  }
  const accept = root.querySelector<HTMLButtonElement>("#accept");
  if (accept && !(active instanceof HTMLInputElement)) accept.focus();
}

/** The dialog open now (the keys list, the settings, the show, a round's score), the topmost; else the game-over
 * panel when it is shown (not folded away); else null.  While one is open the keys act on it only. */
export function openBox(): { box: HTMLElement; modal: boolean } | null {
  const dialogs = [...document.querySelectorAll<HTMLElement>('.modal-back [role="dialog"]')].filter((el) => el.getClientRects().length > 0);
  if (dialogs.length) return { box: dialogs[dialogs.length - 1], modal: true };
  const over = document.querySelector<HTMLElement>("#game-over:not(.hidden)");
  return over && over.getClientRects().length > 0 ? { box: over, modal: false } : null;
}

const FOCUSABLE = 'button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea, [tabindex]:not([tabindex="-1"])';

/** The box's own button: the one that closes a dialog or goes on from it (Continue, Close), the game-over panel's
 * first action (Rematch). */
export function defaultButton(box: HTMLElement): HTMLElement | null {
  return box.querySelector<HTMLElement>("#keys-close, #settings-close, #show-close, #summary-close, .over-actions .primary, .over-actions a");
}

/** Tab and Shift+Tab go round the box's own controls, never to the page behind it; focus outside the box comes
 * back to its own button. */
export function keepFocus(box: HTMLElement, e: KeyboardEvent): void {
  const els = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
  const i = els.indexOf(document.activeElement as HTMLElement);
  let next: HTMLElement | null | undefined = null;
  if (i < 0) next = defaultButton(box) ?? els[0];
  else if (!e.shiftKey && i === els.length - 1) next = els[0];
  else if (e.shiftKey && i === 0) next = els[els.length - 1];
  else return; // inside the box: the browser's own order
  e.preventDefault();
  next?.focus();
}

/** After a new state is drawn: an open dialog (or the game-over panel) holds the focus, on its own button. */
export function focusBox(): boolean {
  const open = openBox();
  if (!open) return false;
  if (!open.box.contains(document.activeElement)) defaultButton(open.box)?.focus();
  return true;
}
