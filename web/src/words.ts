// Words for players from the engines' codes: the SAME catalogues as Python (src/kortbord/i18n/<game>.json,
// bundled by Vite), rendered by the same rules as kortbord/i18n/__init__.py, and the spoken Cribbage count from
// the engine's ordered groups (kortbord/i18n/cribbage.py's callout, words from the "callout.*" entries).
//
// Template format: "{key}" names a key of the event's/reason's data; a list value is joined with ", "; a key of
// SEAT_KEYS holding an int is the seat's name; "{{" and "}}" are literal braces; a dict template
// {"by": field, "<value>": template, "*": fallback} picks its text by str(data[field]) as Python writes it
// (True/False/None).  The page differs from Python only in how a value is SHOWN: seats by the players' names,
// cards as the page shows them (A♠), Mulle moves described in words instead of notation.
import common from "../../src/kortbord/i18n/common.json";
import mulle from "../../src/kortbord/i18n/mulle.json";
import cribbage from "../../src/kortbord/i18n/cribbage.json";
import type { Lang } from "./i18n";
import { genitiveSv } from "./grammar";
import { parseMove } from "./mullenotation";

export type Game = "mulle" | "cribbage";
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
type Entry = Record<string, unknown>;

const entries = (c: unknown) => c as Record<string, Entry>;
const CATALOGUES: Record<Game, Record<string, Entry>> = {
  mulle: { ...entries(common), ...entries(mulle) },
  cribbage: { ...entries(common), ...entries(cribbage) },
};

/** Data keys that hold a seat index (kortbord.i18n.SEAT_KEYS; "winners" when the page puts in one winner). */
export const SEAT_KEYS = new Set(["seat", "dealer", "counter", "caller", "winner", "to_act", "winners"]);
/** Data keys that hold a whole Mulle move in notation (shown described in words). */
const MOVE_KEYS = new Set(["move", "capture", "example", "package"]);
const CARD = /\b([A2-9TJQK])([SHDC])\b/g;

export interface Fmt {
  lang: Lang;
  /** A seat's name (never "P0"). */
  name(seat: number): string;
  /** The viewer's seat (on her own page, named or not): that seat is said in the second person ("You play 5♥",
   * "Your crib", "Du lägger", "Din krubba"); otherwise undefined. */
  me?: number | null;
  /** Names in the page's grammar: the Swedish genitive of a name ending in a digit ("Dator 2:s"), in s/x/z
   * ("Lars"); off: the catalogue's "{seat}s" as Python writes it. */
  genitive?: boolean;
  /** A card in notation as the page shows it ("AS" -> "A♠"). */
  card(code: string): string;
  /** A move in notation described in words (Mulle); undefined: cards shown, the rest as written. */
  move?(notation: string): string | null;
}

/** Spec references ("(spec §2.4 item 9)", "(§2.10 M2)", "(M4)", "(A18)") cut from a text shown to players: the
 * text, and whether there was one (then the page offers a "rule details" link). */
export function withoutRefs(text: string): [string, boolean] {
  const re = /\s*\((?:spec [^)]*|§[^)]*|[AM]\d+[^)]*|[^)]*§[^)]*)\)/g;
  const out = text.replace(re, "");
  return [out, out !== text];
}

/** The spec references in a text ("Games a skunk counts (§2a)." -> ["§2a"]), for the "rule details" disclosure
 * of the rules page: each reference without its brackets, in the order they stand. */
export function refsIn(text: string): string[] {
  const re = /\((spec [^)]*|§[^)]*|[AM]\d+[^)]*|[^)]*§[^)]*)\)/g;
  return [...text.matchAll(re)].map((m) => m[1]);
}

/** A text for players without its spec references. */
export function plain(text: string): string {
  return withoutRefs(text)[0];
}

/** Does the catalogue of `game` have `key`? */
export function has(game: Game, key: string): boolean {
  return !key.startsWith("_") && key in CATALOGUES[game];
}

/** The template of `key` in `lang` (English when the language has none); throws for an unknown key. */
export function template(game: Game, key: string, lang: Lang): unknown {
  const entry = CATALOGUES[game][key];
  if (!entry) throw new Error(`no words for ${game} ${key}`);
  return entry[lang] ?? entry.en;
}

/** A rule option's label or help in `lang` from the game's catalogue ("option.<key>.label", "option.<key>.help":
 * the one place for these words, which the server and the terminal read too); `fallback` (the server's copy)
 * for an option the bundled catalogue does not know, else the key itself. */
export function optionWords(game: Game, key: string, part: "label" | "help", lang: Lang, fallback = ""): string {
  const k = `option.${key}.${part}`;
  if (has(game, k)) return String(template(game, k, lang));
  return fallback || (part === "label" ? key : "");
}

/** A choice of an option in words, from the game's catalogue ("option.<key>.<value>": "target:100" -> "to 100
 * points"); a number (or a choice the catalogue lacks) as it is.  The one place the lobby and the rules page
 * word a choice. */
export function choiceWords(game: Game, key: string, c: string | number, lang: Lang): string {
  const k = `option.${key}.${c}`;
  return has(game, k) ? String(template(game, k, lang)) : String(c);
}

/** A data value as Python's str() writes it (the keys of a dict template). */
function pyStr(v: unknown): string {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null || v === undefined) return "None";
  return String(v);
}

/** Card notation inside a data string shown as the page shows cards ("4S+4H" -> "4♠+4♥"). */
export function cardsIn(s: string, fmt: Fmt): string {
  return s.replace(CARD, (c) => fmt.card(c));
}

function word(key: string, value: unknown, fmt: Fmt): string {
  if (SEAT_KEYS.has(key) && typeof value === "number" && Number.isInteger(value)) return fmt.name(value);
  if (Array.isArray(value)) return value.map((v) => word(key, v, fmt)).join(", ");
  if (value === null || value === undefined) return "";
  if (typeof value === "string") {
    if (MOVE_KEYS.has(key) && fmt.move) {
      const said = fmt.move(value);
      if (said) return said;
    }
    return cardsIn(value, fmt);
  }
  if (typeof value === "number" && !Number.isInteger(value)) return decimal(value, null, fmt.lang);
  return pyStr(value);
}

/** A number with a fractional part as the language writes it: "1.5" in English, "1,5" in Swedish; `digits`
 * fixes the places after the point (null: as many as the number has). */
export function decimal(x: number, digits: number | null, lang: Lang): string {
  const s = digits === null ? String(x) : x.toFixed(digits);
  return lang === "sv" ? s.replace(".", ",") : s;
}


const EN_VERB: Record<string, string> = { is: "are", has: "have", was: "were", does: "do" };

/** An English verb in the third person said of "you": "plays" -> "play", "has" -> "have". */
function secondPerson(verb: string): string {
  if (EN_VERB[verb]) return EN_VERB[verb];
  return /[^s]s$/.test(verb) ? verb.slice(0, -1) : verb;
}

/** Fill a template string from `data` (kortbord.i18n's string.Formatter rules), with the page's grammar for the
 * seat names it puts in: the Swedish genitive ("{seat}s krubba" -> "Dator 2:s krubba") and, for the viewer
 * without a chosen name (`fmt.me`), the second person ("{seat} plays" -> "You play", "{seat}'s" -> "Your",
 * "{seat}s krubba" -> "Din krubba"). */
export function fill(tpl: string, data: Record<string, unknown>, fmt: Fmt): string {
  let out = "";
  let i = 0;
  const re = /\{\{|\}\}|\{(\w+)\}/g;
  let m: RegExpExecArray | null;
  let pending: "en" | null = null; // an English verb to put in the second person after "you"
  const emit = (text: string) => {
    if (pending === "en") {
      text = text.replace(/^(\s+)([a-z]+)((?:\s+[^\s,.:;]+)*?)(\s+and\s+)([a-z]+)(?=[\s,.:;]|$)/, (_a, sp, v, mid, and, v2) =>
        `${sp}${secondPerson(v)}${mid}${and}${/s$/.test(v2) ? secondPerson(v2) : v2}`,
      );
      text = text.replace(/^(\s+)([a-z]+)/, (_a, sp, v) => sp + secondPerson(v));
      pending = null;
    }
    out += text;
  };
  while ((m = re.exec(tpl))) {
    emit(tpl.slice(i, m.index));
    i = re.lastIndex;
    if (m[0] === "{{" || m[0] === "}}") {
      out += m[0][0];
      continue;
    }
    const key = m[1];
    const value = data[key] ?? "";
    const isMe = SEAT_KEYS.has(key) && typeof value === "number" && fmt.me !== undefined && fmt.me !== null && value === fmt.me;
    const after = tpl.slice(i);
    const start = out.length === 0 || /[.!?]\s+$/.test(out); // a sentence starts here
    if (isMe) {
      const sv = fmt.lang === "sv";
      if (!sv && after.startsWith("'s")) {
        // "{seat}'s crib" -> "your crib"; "not {seat}'s" at the end of a clause -> "not yours"
        const alone = /^'s(?:$|[\s]*[,.;:)])/.test(after);
        out += (start ? "Y" : "y") + (alone ? "ours" : "our");
        i += 2;
      } else if (sv && /^s(?![a-zåäö])/.test(after)) {
        out += start ? "Din" : "din";
        i += 1;
      } else {
        out += sv ? (start ? "Du" : "du") : start ? "You" : "you";
        if (!sv) pending = "en";
      }
      continue;
    }
    const said = word(key, value, fmt);
    if (fmt.genitive && fmt.lang === "sv" && SEAT_KEYS.has(key) && typeof value === "number" && /^s(?![a-zåäö])/.test(after)) {
      out += genitiveSv(said);
      i += 1;
      continue;
    }
    out += said;
  }
  emit(tpl.slice(i));
  return out;
}

/** The template `key` of `game` in the viewer's language filled from `data` (kortbord.i18n.render). */
export function render(game: Game, key: string, data: Record<string, unknown>, fmt: Fmt): string {
  let tpl = template(game, key, fmt.lang);
  while (tpl !== null && typeof tpl === "object" && !Array.isArray(tpl)) {
    const d = tpl as Record<string, unknown>;
    const by = String(d.by ?? "");
    tpl = d[pyStr(data[by])] ?? d["*"] ?? "";
  }
  return fill(String(tpl), data, fmt);
}

/** An illegal-move reason {code, ...data} in words (kortbord.i18n.reason_text). */
export function reasonText(game: Game, reason: Json, fmt: Fmt): string {
  return render(game, `reason.${reason.code}`, reason, fmt);
}

// ------------------------------------------------------------------------------------------ the spoken count
const OF_A_KIND: Record<number, number> = { 2: 2, 6: 3, 12: 4 };
const RANKS = "A23456789TJQK";

export interface Group {
  kind: string;
  cards: string[];
  points: number;
}

/** The traditional spoken count of a hand or crib from the show's groups in counting order (spec §2.5):
 * ["fifteen two", "fifteen four", "a pair is six", ...]; nothing scored: ["nineteen"] / ["noll"]. */
export function callout(groups: Group[], lang: Lang): string[] {
  const words = template("cribbage", "callout.numbers", lang) as string[];
  const say = (key: string, f: Record<string, string>) =>
    String(template("cribbage", `callout.${key}`, lang)).replace(/\{(\w+)\}/g, (_, k: string) => f[k] ?? "");
  if (!groups.some((g) => g.points)) return [say("zero", {})];
  const out: string[] = [];
  let total = 0;
  for (const g of groups) {
    if (g.kind !== "fifteen") continue;
    total += g.points;
    out.push(say("fifteen", { t: words[total] }));
  }
  const pairPoints = new Map<string, number>();
  for (const g of groups) if (g.kind === "pair") pairPoints.set(g.cards[0][0], (pairPoints.get(g.cards[0][0]) ?? 0) + g.points);
  for (const r of [...pairPoints.keys()].sort((a, b) => RANKS.indexOf(a) - RANKS.indexOf(b))) {
    total += pairPoints.get(r)!;
    out.push(say(`pair${OF_A_KIND[pairPoints.get(r)!]}`, { t: words[total] }));
  }
  const runs = groups.filter((g) => g.kind === "run");
  if (runs.length) {
    total += runs.reduce((a, g) => a + g.points, 0);
    const n = words[runs[0].cards.length];
    out.push(say(runs.length === 1 ? "run" : "runs", { k: words[runs.length], n, t: words[total] }));
  }
  for (const g of groups) {
    if (g.kind !== "flush" && g.kind !== "nobs") continue;
    total += g.points;
    out.push(say(g.kind, { n: words[g.cards.length], t: words[total] }));
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ events
/** Why a Cribbage peg's points were pegged ("fifteen for 2", "go for 1"; kortbord.i18n.cribbage.peg_text). */
export function pegText(ev: Json, fmt: Fmt): string {
  return render("cribbage", `peg.${ev.reason}`, ev, fmt);
}

/** A Muggins settlement's rule in words (settle.<outcome>).  An accepted count says who accepted when the page
 * knows it (`ev.accepted_by`, the seats that answered, from the table: the opponents, M3/M13/M14; in a partnership
 * `ev.accepted_team`, the answering team's name): "you accept", "Computer accepts", "Computer 1 & Computer 3
 * accept"; without it "everyone accepts", as the terminal says it. */
export function settleText(ev: Json, fmt: Fmt): string {
  const data: Record<string, unknown> = { ...ev };
  const by: number[] = Array.isArray(ev.accepted_by) ? ev.accepted_by : [];
  if (ev.outcome === "accept" && by.length) {
    const mine = (s: number) => fmt.me !== undefined && fmt.me !== null && s === fmt.me;
    if (ev.accepted_team) {
      data.who = "many";
      // the viewer's team inside the sentence: "du & Dator 3 godtar"
      const team = String(ev.accepted_team);
      data.accepters = by.some(mine) ? team.charAt(0).toLocaleLowerCase(fmt.lang) + team.slice(1) : team;
    } else if (by.length === 1) {
      data.who = mine(by[0]) ? "you" : "one";
      data.accepters = fmt.name(by[0]);
    } else {
      data.who = "many";
      const names = by.map((s) => (mine(s) ? (fmt.lang === "sv" ? "du" : "you") : fmt.name(s)));
      data.accepters = `${names.slice(0, -1).join(", ")}${String(template("cribbage", "cribbage.and", fmt.lang))}${names[names.length - 1]}`;
    }
  }
  return render("cribbage", `settle.${ev.outcome}`, data, fmt);
}

/** A show's spoken count as one line: "fifteen two, a pair is four"; a hand worth nothing "0 — a “nineteen”, ..."
 * (callout.zero_said: the page explains the cribbage name; the terminal says "nineteen"). */
export function spokenCount(groups: Group[], lang: Lang): string {
  if (!groups.some((g) => g.points)) return String(template("cribbage", "callout.zero_said", lang));
  return callout(groups, lang).join(", ");
}

function cribbageData(ev: Json, fmt: Fmt): Record<string, unknown> {
  const data: Record<string, unknown> = { ...ev };
  const tr = (key: string) => String(template("cribbage", key, fmt.lang));
  switch (ev.kind) {
    case "cut":
      data.cuts = (ev.cards as string[]).map((c, s) => `${fmt.name(s)} ${fmt.card(c)}`).join(", ");
      break;
    case "deal":
      data.each = (ev.cards ?? [])[0] ?? 0;
      break;
    case "peg":
      data.why = pegText(ev, fmt);
      break;
    case "show":
    case "reveal":
    case "announce":
    case "settle": {
      const what = ev.crib ? "crib" : "hand";
      data.what = tr(ev.kind === "announce" ? `cribbage.the_${what}` : `cribbage.${what}`);
      if (ev.cards) data.hand = (ev.cards as string[]).map(fmt.card).join(" ");
      if (ev.kind === "show" || ev.kind === "reveal") {
        const spoken = ev.groups?.length ? callout(ev.groups, fmt.lang) : [];
        data.spoken = spoken.length ? ` (${spoken.join(", ")})` : "";
      }
      if (ev.kind === "settle") data.rule = settleText(ev, fmt);
      break;
    }
    case "game_over": {
      const winners: number[] = ev.winners ?? [];
      data.winners = winners.length === 1 ? winners[0] : winners.map((s) => fmt.name(s)).join(tr("cribbage.and"));
      const many = winners.length > 1;
      data.form = ev.lowball ? (many ? "lowball_many" : "lowball_one") : many ? "many" : "one";
      const side = ev.side;
      data.score = (ev.side_scores ?? [])[side];
      data.skunk = ev.double_skunk ? tr("cribbage.double_skunk") : ev.skunk ? tr("cribbage.skunk") : "";
      const sc: number[] = ev.scores ?? [];
      const parts = ev.partnership
        ? [`${fmt.name(0)} & ${fmt.name(2)} ${sc[0] + sc[2]}`, `${fmt.name(1)} & ${fmt.name(3)} ${sc[1] + sc[3]}`]
        : sc.map((p, s) => `${fmt.name(s)} ${p}`);
      data.scores = `(${parts.join(", ")})`;
      break;
    }
  }
  return data;
}

/** One line for an event {kind, ...data} of `game` in the viewer's language (kortbord.i18n.event_text), with
 * `sideName` for Mulle's per-side lists (winners, scores). */
export function eventText(game: Game, ev: Json, fmt: Fmt, sideName?: (side: number) => string): string {
  const key = `event.${ev.kind}`;
  if (!has(game, key)) return "";
  if (game === "cribbage") return render(game, key, cribbageData(ev, fmt), fmt);
  const data: Record<string, unknown> = { ...ev };
  const side = sideName ?? fmt.name;
  if (ev.kind === "deal" && Array.isArray(ev.cards) && ev.cards.every((c: number) => c === ev.cards[0])) data.cards = ev.cards[0];
  if (ev.kind === "game_over") data.winners = (ev.winners ?? []).map(side).join(", ");
  if (ev.kind === "game_over" || ev.kind === "round_over")
    data.scores = (ev.scores ?? []).map((p: number, s: number) => `${side(s)} ${p}`).join(", ");
  return render(game, key, data, fmt);
}

// ------------------------------------------------------------------------------------------- the log's lines
/** A Mulle card's hand value (rules spec §2.1): A 14, 2♠ 15, 10♦ 16, else its rank (the value of a build it takes). */
function handValueOf(code: string): number {
  if (code === "2S") return 15;
  if (code === "TD") return 16;
  return code[0] === "A" ? 14 : "A23456789TJQK".indexOf(code[0]) + 1;
}

/** Items joined the way a sentence lists them: "a", "a and b", "a, b and c" ("och" in Swedish). */
export function joinAnd(game: Game, items: string[], lang: Lang): string {
  if (items.length < 2) return items.join("");
  return `${items.slice(0, -1).join(", ")}${String(template(game, "line.and", lang))}${items[items.length - 1]}`;
}

/** A Mulle play event in a whole sentence per kind of move (line.play.<letter>): "You lay A♠ on the table",
 * "Datorn tar in 6♣ och 7♣ med K♥"; null for a move the page cannot read. */
function mullePlayLine(ev: Json, fmt: Fmt): string | null {
  const m = parseMove(String(ev.move ?? ""));
  if (!m) return null;
  const data: Record<string, unknown> = { seat: ev.seat, card: fmt.card(m.card), value: m.value, on: m.on ? fmt.card(m.on) : "" };
  let key = `line.play.${m.kind}`;
  if (m.kind === "C") {
    const builds = m.builds.map(() => render("mulle", "line.build_of", { value: handValueOf(m.card) }, fmt));
    data.items = joinAnd("mulle", [...m.loose.map(fmt.card), ...builds], fmt.lang);
  } else if (m.kind === "B" && m.pkg.length) {
    key = "line.play.Bpkg";
    data.pkg = joinAnd("mulle", m.pkg.map(([a, b]) => `${fmt.card(a)}+${fmt.card(b)}`), fmt.lang);
  }
  return render("mulle", key, data, fmt);
}

export interface LineOpts {
  /** The event just before this one in the game's history (a capture the play's line says is not said again). */
  prev?: Json;
  /** A scoring side's name (Mulle teams, a Cribbage partnership); by default the seat's. */
  sideName?: (side: number) => string;
  /** Mulle with teams: the sides are teams, not seats. */
  teams?: boolean;
}

/** One line of the log and the banner for an event: a whole sentence that starts with a capital letter, in the
 * viewer's language -- the game's "line.<kind>" words where the page has them (each Mulle move kind, båt, mulle,
 * tabbe, the round and game over; the Cribbage peg), else the event's words (eventText).  "" for an event that
 * needs no line of its own: a Mulle capture already said by its play's line ("You capture 6♣ with 6♦"). */
export function eventLine(game: Game, ev: Json, fmt: Fmt, opts: LineOpts = {}): string {
  let said: string | null = null;
  if (game === "cribbage" && ev.kind === "peg") {
    // the running total is the side's, as the board shows it: in a partnership the team's, said by its name
    // ("Computer 2 pegs crib for 4, team 2 now on 21"), never the seat's own share
    const side = opts.sideName && typeof ev.side === "number" ? opts.sideName(ev.side) : "";
    // inside the sentence: "your team", "du & Dator 3" -- a name of another player keeps its capital
    const named = [0, 1, 2, 3].some((s) => s !== fmt.me && side.startsWith(fmt.name(s)));
    const team = side && !named ? side.charAt(0).toLocaleLowerCase(fmt.lang) + side.slice(1) : side;
    said = render(game, team ? "line.peg_team" : "line.peg", { ...ev, why: pegText(ev, fmt), team }, fmt);
  }
  else if (game === "mulle") said = mulleLine(ev, fmt, opts);
  if (said === null) said = eventText(game, ev, fmt, opts.sideName);
  return said.charAt(0).toUpperCase() + said.slice(1);
}

function mulleLine(ev: Json, fmt: Fmt, opts: LineOpts): string | null {
  const side = (s: number) => {
    // the viewer said in the second person is "you"/"du" inside a sentence, never "You" mid-line
    if (!opts.teams && fmt.me !== undefined && fmt.me !== null && s === fmt.me) return fmt.lang === "sv" ? "du" : "you";
    return (opts.sideName ?? fmt.name)(s);
  };
  switch (ev.kind) {
    case "play":
      return mullePlayLine(ev, fmt);
    case "capture": {
      const p = opts.prev;
      const said = p && p.kind === "play" && p.seat === ev.seat && /^C\s/.test(String(p.move ?? "")) && parseMove(String(p.move));
      return said ? "" : null;
    }
    case "baat":
    case "mulle":
    case "tabbe":
    case "last_capture":
      return render("mulle", `line.${ev.kind}`, ev, fmt);
    case "deal": {
      const cards = Array.isArray(ev.cards) && ev.cards.every((c: number) => c === ev.cards[0]) ? ev.cards[0] : ev.cards;
      return render("mulle", "line.deal", { ...ev, cards }, fmt);
    }
    case "round_over":
      return render("mulle", "line.round_over", { ...ev, scores: (ev.scores ?? []).map((p: number, s: number) => `${side(s)} ${p}`).join(", ") }, fmt);
    case "game_over": {
      const winners: number[] = ev.winners ?? [];
      const data: Record<string, unknown> = {
        form: winners.length ? "won" : "none",
        scores: (ev.scores ?? []).map((p: number, s: number) => `${side(s)} ${p}`).join(", "),
        // one winning seat: a seat (said "you" for the viewer); else the sides by name
        winners: !opts.teams && winners.length === 1 ? winners[0] : joinAnd("mulle", winners.map(opts.sideName ?? fmt.name), fmt.lang),
      };
      return render("mulle", "line.game_over", data, fmt);
    }
  }
  return null;
}
