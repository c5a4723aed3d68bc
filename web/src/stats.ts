// Statistics (issue #11 item 8): games played and won per game, opponent level and rules, with streaks -- kept in
// this browser (localStorage "kortbord.stats", one record per finished game) and, for a player who chose a name,
// on the server (GET /api/stats?name=..., kortbord/server/stats.py).  Shown in the lobby.
import type { StateMsg } from "./api";
import { h } from "./dom";
import { aw } from "./aidwords";
import { lang, t } from "./i18n";
import { has, template } from "./words";

export interface GameRecord {
  game_id: string;
  game: string;
  level: string;
  variant: string;
  won: boolean;
  at: string;
}

export interface StatRow {
  game: string;
  level: string;
  variant: string;
  played: number;
  won: number;
  streak: number;
  best: number;
}

const KEY = "kortbord.stats";

export function records(): GameRecord[] {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** The rules of a game in a few words for the statistics ("121", "61 muggins", "standard target:100"). */
export function variantOf(game: string, rules: Record<string, unknown> | undefined): string {
  const r = rules ?? {};
  if (game === "cribbage") {
    return [String(r.target ?? ""), r.muggins ? "muggins" : "", r.lowball ? "lowball" : "", Number(r.players ?? 2) > 2 ? `${r.players}p` : ""].filter(Boolean).join(" ");
  }
  return [String(r.profile ?? ""), String(r.game_length ?? "")].filter(Boolean).join(" ");
}

/** The opponents' level: the computers' level(s), or "people". */
export function levelOf(m: StateMsg): string {
  const bots = (m.seats ?? []).filter((s) => s.kind === "bot").map((s) => s.level ?? "?");
  return bots.length ? [...new Set(bots)].join("+") : "people";
}

/** Count a finished game once (a reload of the page does not count it again). */
export function recordGame(m: StateMsg): void {
  if (m.status !== "over" || m.seat === null) return;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const gid = (m as any).game_id as string | undefined;
  if (!gid) return;
  const all = records();
  if (all.some((r) => r.game_id === gid)) return;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const res: any = m.result ?? {};
  const side = m.view?.seat_sides?.[m.seat] ?? m.seat;
  const won = Array.isArray(res.winners) && res.winners.includes(side);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const rules = (m as any).rules as Record<string, unknown> | undefined;
  all.push({ game_id: gid, game: m.game, level: levelOf(m), variant: variantOf(m.game, rules), won, at: new Date().toISOString() });
  localStorage.setItem(KEY, JSON.stringify(all.slice(-2000)));
}

/** Played, won and streaks per (game, level, rules), oldest game first (streak: the current run of wins). */
export function summarise(recs: GameRecord[]): StatRow[] {
  const rows = new Map<string, StatRow>();
  for (const r of [...recs].sort((a, b) => a.at.localeCompare(b.at))) {
    const k = `${r.game}|${r.level}|${r.variant}`;
    const row = rows.get(k) ?? { game: r.game, level: r.level, variant: r.variant, played: 0, won: 0, streak: 0, best: 0 };
    row.played++;
    if (r.won) {
      row.won++;
      row.streak++;
      row.best = Math.max(row.best, row.streak);
    } else row.streak = 0;
    rows.set(k, row);
  }
  return [...rows.values()];
}

type GameName = "mulle" | "cribbage";

/** A computer level in the viewer's words: the catalogue's "level.<name>" up to its colon ("girig"), else the name. */
function levelWords(game: string, level: string): string {
  const g: GameName = game === "mulle" ? "mulle" : "cribbage";
  const key = `level.${level}`;
  return has(g, key) ? String(template(g, key, lang())).split(":")[0] : level;
}

/** The rules of a statistics row in the viewer's words ("61 (ett varv), Muggins", "Standard ..., en omgång"), each
 * word of `variantOf` by the catalogue's word for that option or value; never an option key ("single_round"). */
export function variantWords(game: string, variant: string): string {
  const g: GameName = game === "mulle" ? "mulle" : "cribbage";
  const said = variant.split(/\s+/).filter(Boolean).map((w) => {
    const players = /^(\d)p$/.exec(w);
    if (players) return aw("ui.stats.players", { n: players[1] });
    for (const key of [`option.target.${w}`, `option.game_length.${w}`, `profile.${w}`, `option.${w}.label`]) {
      if (has(g, key)) return String(template(g, key, lang()));
    }
    return w;
  });
  return said.join(", ");
}

function table(rows: StatRow[], id: string): HTMLElement {
  if (!rows.length) return h("p", { class: "muted" }, aw("ui.statsNone"));
  // the rules stand on a line of their own under each row (a column of their own wrapped to five lines in the
  // lobby's column and pushed the numbers out of a phone's width)
  const head = ["ui.stats.game", "ui.stats.level", "ui.stats.played", "ui.stats.won", "ui.stats.streak", "ui.stats.best"];
  return h(
    "table",
    { class: "stats", id },
    h("thead", {}, h("tr", {}, head.map((k) => h("th", {}, aw(k))))),
    h(
      "tbody",
      {},
      rows.flatMap((r) => [
        h(
          "tr",
          { "data-game": r.game, "data-level": r.level },
          h("td", { class: "game" }, r.game === "mulle" ? t("mulle") : t("cribbage")),
          h("td", {}, r.level === "people" ? aw("ui.stats.people") : levelWords(r.game, r.level)),
          h("td", { class: "played" }, String(r.played)),
          h("td", { class: "won" }, String(r.won)),
          h("td", {}, String(r.streak)),
          h("td", {}, String(r.best)),
        ),
        h("tr", { class: "rules-row" }, h("td", { colspan: String(head.length), title: aw("ui.stats.variant") }, variantWords(r.game, r.variant))),
      ]),
    ),
  );
}

/** The lobby's statistics panel: this browser's, then the server's for the saved player name. */
export function statsPanel(...extra: HTMLElement[]): HTMLElement {
  const box = h("section", { class: "panel stats-panel", id: "stats", "aria-label": aw("ui.stats") }, h("h2", {}, aw("ui.stats")), ...extra);
  box.append(h("h3", {}, aw("ui.statsBrowser")), table(summarise(records()), "stats-browser"));
  const name = (localStorage.getItem("kortbord.name") ?? "").trim();
  if (name) {
    const slot = h("div", { class: "stats-server" });
    box.append(slot);
    fetch(`/api/stats?name=${encodeURIComponent(name)}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((d) => {
        if (!d) return;
        slot.append(h("h3", {}, aw("ui.statsServer", { name })), table(d.rows ?? [], "stats-server"));
      })
      .catch(() => undefined);
  }
  return box;
}

/** The levels that miscount under Muggins (GET /api/levels/cribbage), asked once per page load. */
let miscounting: Promise<{ level: string; miscounts: boolean; miss_rate: number | null }[]> | null = null;

/** The lobby's note on the levels that miscount under Muggins, for the level choice (lobby.ts shows it there, with
 * Muggins on only); empty (hidden by style.css) until the server has answered or when no level miscounts. */
export function miscountNote(): HTMLElement {
  const p = h("p", { class: "muted miscounts help", id: "miscounts" });
  miscounting ??= fetch("/api/levels/cribbage")
    .then((r) => (r.ok ? r.json() : null))
    .then((d) => ((d?.levels ?? []) as { level: string; miscounts: boolean; miss_rate: number | null }[]).filter((l) => l.miscounts))
    .catch(() => []);
  miscounting
    .then((levels) => {
      const name = (l: string) => (has("cribbage", `level.${l}`) ? String(template("cribbage", `level.${l}`, lang())) : l);
      const said = levels.map((l) => (l.miss_rate === null ? name(l.level) : `${name(l.level)} (${Math.round(l.miss_rate * 100)}%)`));
      if (levels.length) p.textContent = aw("ui.miscounts", { levels: said.join(", ") });
    })
    .catch(() => undefined);
  return p;
}
