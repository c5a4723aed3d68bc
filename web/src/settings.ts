// The player's settings, kept in this browser (localStorage "kortbord.settings"): how fast cards move and which
// aids are on.  A small dialog opened from the game bar (or the S key).
import { h } from "./dom";
import { aw } from "./aidwords";

export type Speed = "off" | "fast" | "normal" | "slow";
export const AIDS = ["hint", "twins", "pile", "takers", "advisor", "counthelp", "review"] as const;
export type Aid = (typeof AIDS)[number];

export interface Settings {
  speed: Speed;
  aids: Record<Aid, boolean>;
}

const KEY = "kortbord.settings";
const SPEED_MS: Record<Speed, number> = { off: 0, fast: 160, normal: 300, slow: 600 };
const listeners: (() => void)[] = [];

/** Aids that show their numbers without being asked are off until the player switches them on: the discard
 * advisor (it would otherwise tell every discard before the player has thought about it). */
const OFF_BY_DEFAULT: ReadonlySet<Aid> = new Set<Aid>(["advisor"]);

function defaults(): Settings {
  return { speed: "normal", aids: Object.fromEntries(AIDS.map((a) => [a, !OFF_BY_DEFAULT.has(a)])) as Record<Aid, boolean> };
}

export function settings(): Settings {
  const d = defaults();
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "{}");
    if (v && typeof v === "object") {
      if (v.speed in SPEED_MS) d.speed = v.speed;
      for (const a of AIDS) if (typeof v.aids?.[a] === "boolean") d.aids[a] = v.aids[a];
    }
  } catch {
    /* a broken entry: the defaults */
  }
  return d;
}

export function saveSettings(s: Settings): void {
  localStorage.setItem(KEY, JSON.stringify(s));
  for (const f of listeners) f();
}

/** Call `f` after every change of the settings; returns the function that stops it. */
export function onSettings(f: () => void): () => void {
  listeners.push(f);
  return () => {
    const i = listeners.indexOf(f);
    if (i >= 0) listeners.splice(i, 1);
  };
}

export function aidOn(a: Aid): boolean {
  return settings().aids[a];
}

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** How long a card takes to travel, in milliseconds: 0 when motion is off or the system asks for less. */
export function moveMs(): number {
  return reducedMotion() ? 0 : SPEED_MS[settings().speed];
}

/** The settings dialog (a modal); `close` removes it. */
export function settingsDialog(close: () => void): HTMLElement {
  const s = settings();
  const speed = h(
    "select",
    {
      id: "set-speed",
      onchange: (e: Event) => {
        s.speed = (e.target as HTMLSelectElement).value as Speed;
        saveSettings(s);
      },
    },
    (Object.keys(SPEED_MS) as Speed[]).map((k) => h("option", { value: k, selected: s.speed === k }, aw(`ui.speed.${k}`))),
  );
  const aids = h("fieldset", { class: "aids-set" }, h("legend", {}, aw("ui.aids")));
  for (const a of AIDS) {
    aids.append(
      h(
        "label",
        { class: "check" },
        h("input", {
          type: "checkbox",
          id: `set-aid-${a}`,
          checked: s.aids[a],
          onchange: (e: Event) => {
            s.aids[a] = (e.target as HTMLInputElement).checked;
            saveSettings(s);
          },
        }),
        " ",
        aw(`ui.aid.${a}`),
      ),
    );
  }
  const back = h(
    "div",
    { class: "modal-back", onclick: (e: Event) => e.target === e.currentTarget && close() },
    h(
      "div",
      { class: "modal panel settings", role: "dialog", "aria-modal": "true", "aria-labelledby": "set-h", id: "settings-panel" },
      h("h2", { id: "set-h" }, aw("ui.settings")),
      h("label", { for: "set-speed" }, aw("ui.speed")),
      speed,
      reducedMotion() ? h("p", { class: "muted" }, aw("ui.reducedMotion")) : null,
      aids,
      h("button", { class: "primary", id: "settings-close", onclick: close }, aw("ui.close")),
    ),
  );
  return back;
}
