// The lobby: a new game (every rule option the server offers), the games saved in this browser, rules links.
import { miscountNote, statsPanel } from "./stats";
import { api, ApiError, forgetSeat, plainName, saveSeat, savedSeats, type GameKind, type OptionSpec, type OptionsDoc } from "./api";
import { clear, h } from "./dom";
import { lang, pick, t } from "./i18n";
import { choiceWords, has, optionWords, reasonText, template, withoutRefs } from "./words";
import { codeWords } from "./gamepage";
import { short } from "./cards";

interface FormState {
  game: GameKind;
  players: number;
  together: boolean; // teams (Mulle) / partnership (Cribbage)
  opponents: string[]; // per seat 1..n-1: "bot:<level>" or "human"
  values: Record<GameKind, Record<string, unknown>>;
  touched: Record<GameKind, Set<string>>;
}

const form: FormState = {
  game: (localStorage.getItem("kortbord.lastGame") as GameKind) || "mulle",
  players: 2,
  together: false,
  opponents: [],
  values: { mulle: {}, cribbage: {} },
  touched: { mulle: new Set(), cribbage: new Set() },
};

/** Each game's form as it was when a game was last started from it (localStorage "kortbord.form.<game>"): the
 * rule choices, the number of players, the opponents -- both games' forms come back as they were left, also after
 * a reload. */
interface SavedForm {
  values: Record<string, unknown>;
  touched: string[];
  players: number;
  opponents: string[];
  together: boolean;
}

function saveForm(game: GameKind): void {
  const f: SavedForm = { values: form.values[game], touched: [...form.touched[game]], players: form.players, opponents: form.opponents, together: form.together };
  localStorage.setItem(`kortbord.form.${game}`, JSON.stringify(f));
}

/** Put back `game`'s saved form (a broken or missing entry: the form as it is). */
function loadForm(game: GameKind): void {
  try {
    const f = JSON.parse(localStorage.getItem(`kortbord.form.${game}`) ?? "null") as SavedForm | null;
    if (!f || typeof f !== "object") return;
    if (f.values && typeof f.values === "object") form.values[game] = { ...f.values };
    if (Array.isArray(f.touched)) form.touched[game] = new Set(f.touched.filter((k) => typeof k === "string"));
    if ([2, 3, 4].includes(f.players)) form.players = f.players;
    if (Array.isArray(f.opponents)) form.opponents = f.opponents.filter((o) => typeof o === "string");
    form.together = Boolean(f.together);
  } catch {
    /* a broken entry: the defaults */
  }
}

loadForm(form.game);

const docs: Partial<Record<GameKind, OptionsDoc>> = {};

// Options the lobby shows as its own first controls (the rest go under "All rule options").
const MAIN: Record<GameKind, string[]> = {
  mulle: ["profile", "game_length", "kryp"],
  cribbage: ["target", "muggins", "lowball"],
};
const HIDDEN = new Set(["players", "partnership", "teams", "hand_size", "table_size", "jokers"]);
const DEAL_FORMATS: [number, number][] = [
  [8, 8],
  [5, 5],
  [4, 8],
];

function profileNames(doc: OptionsDoc): string[] {
  return (doc.profiles ?? []).map((p) => (typeof p === "string" ? p : p.name));
}

/** The profiles the lobby offers: not one that sets only what a control of its own already sets -- the "kryp"
 * profile is the standard one with `kryp` on (rules spec §4 A20), which the Kryp-mulle box says: one control
 * for one choice.  The server still takes every profile. */
function offeredProfiles(doc: OptionsDoc): string[] {
  const names = profileNames(doc);
  const base = profileOverrides(doc, names[0]);
  const own = new Set(["profile", ...MAIN[doc.game]]);
  return names.filter((n, i) => {
    const r = profileOverrides(doc, n);
    if (i === 0 || !base || !r) return true;
    return Object.keys({ ...base, ...r }).some((k) => !own.has(k) && JSON.stringify(r[k]) !== JSON.stringify(base[k]));
  });
}

function profileOverrides(doc: OptionsDoc, name: string): Record<string, unknown> | null {
  for (const p of doc.profiles ?? []) {
    if (typeof p !== "string" && p.name === name) {
      const r = (p.rules ?? p.overrides ?? p.options) as Record<string, unknown> | undefined;
      return r ?? null;
    }
  }
  return null;
}

function value(doc: OptionsDoc, key: string): unknown {
  const v = form.values[doc.game];
  if (key in v) return v[key];
  return doc.options.find((o) => o.key === key)?.default;
}

function setValue(game: GameKind, key: string, v: unknown): void {
  form.values[game][key] = v;
  form.touched[game].add(key);
}

function optLabel(game: GameKind, o: OptionSpec): string {
  return optionWords(game, o.key, "label", lang(), pick(o.label_en, o.label_sv));
}

/** A choice of an option in words, from the game's catalogue ("option.<key>.<value>"); a number as it is. */
function choiceLabel(game: GameKind, key: string, c: string | number): string {
  return choiceWords(game, key, c, lang());
}

/** A rule profile's name in words ("profile.<name>"). */
function profileLabel(game: GameKind, name: string): string {
  const k = `profile.${name}`;
  return has(game, k) ? String(template(game, k, lang())) : name;
}

/** A computer level's short name in words ("level.<name>": "casual", "motionär"). */
export function levelLabel(game: GameKind, level: string): string {
  const k = `level.${level}`;
  return has(game, k) ? String(template(game, k, lang())) : level;
}

/** An option's help in words without its spec references, and a "rule details" link to the rules page when the
 * help had one (the references are listed there). */
function helpText(game: GameKind, o: OptionSpec): HTMLElement | null {
  const help = optionWords(game, o.key, "help", lang(), pick(o.help_en, o.help_sv));
  if (!help) return null;
  const [text, refs] = withoutRefs(help);
  return h(
    "small",
    { class: "help" },
    text,
    refs ? [" ", h("a", { class: "rule-link", href: `#/rules/${game}`, target: "_blank" }, t("ruleDetails"))] : null,
  );
}

/** A REST error of the lobby or the join page in the player's words: the engine's reason for bad rules, else the
 * error code's words. */
export function restError(game: GameKind, e: unknown): string {
  if (e instanceof ApiError) {
    if (e.reason && has(game, `reason.${e.reason.code}`)) {
      const fmt = { lang: lang(), name: (s: number) => t("playerN", { n: s + 1 }), card: short };
      return withoutRefs(reasonText(game, e.reason, fmt))[0];
    }
    return codeWords(e.code);
  }
  return codeWords("unknown");
}

function control(doc: OptionsDoc, o: OptionSpec, rerender: () => void): HTMLElement {
  const id = `opt-${doc.game}-${o.key}`;
  const v = value(doc, o.key);
  const help = helpText(doc.game, o);
  let input: HTMLElement;
  if (o.type === "bool") {
    input = h("input", {
      type: "checkbox",
      id,
      checked: Boolean(v),
      onchange: (e: Event) => {
        setValue(doc.game, o.key, (e.target as HTMLInputElement).checked);
        rerender();
      },
    });
    return h(
      "div",
      { class: "opt bool" },
      input,
      h("label", { for: id }, optLabel(doc.game, o)),
      help,
    );
  }
  if (o.type === "choice" && o.choices) {
    const sel = h(
      "select",
      {
        id,
        onchange: (e: Event) => {
          const raw = (e.target as HTMLSelectElement).value;
          const orig = o.choices!.find((c) => String(c) === raw);
          setValue(doc.game, o.key, orig ?? raw);
          rerender();
        },
      },
      o.choices.map((c) => h("option", { value: String(c), selected: String(c) === String(v) }, choiceLabel(doc.game, o.key, c))),
    );
    input = sel;
  } else {
    input = h("input", {
      type: "number",
      id,
      value: v === null || v === undefined ? "" : String(v),
      min: o.min,
      max: o.max,
      onchange: (e: Event) => {
        const raw = (e.target as HTMLInputElement).value;
        setValue(doc.game, o.key, raw === "" ? null : Number(raw));
      },
    });
  }
  return h(
    "div",
    { class: "opt" },
    h("label", { for: id }, optLabel(doc.game, o)),
    input,
    help,
  );
}

export function renderLobby(main: HTMLElement, nav: { openGame(id: string): void }): void {
  const newGame = h("section", { class: "panel newgame", "aria-labelledby": "ng-h" });
  const resume = h("section", { class: "panel resume", "aria-labelledby": "rs-h" });
  main.append(
    h(
      "div",
      { class: "hero" },
      h("h1", {}, t("appName")),
      h("p", {}, t("tagline")),
    ),
    h("div", { class: "lobby" }, newGame, resume),
  );
  const draw = () => drawNewGame(newGame, nav);
  draw();
  drawResume(resume, nav);
  resume.after(statsPanel()); // statistics (stats.ts)
}

async function loadDoc(game: GameKind): Promise<OptionsDoc> {
  if (!docs[game]) docs[game] = await api.options(game);
  return docs[game]!;
}

function drawNewGame(el: HTMLElement, nav: { openGame(id: string): void }): void {
  // drawn again after a choice (a tab, the number of players): the control that had the focus keeps it (Enter on
  // the Cribbage tab leaves the focus on it, not on the page's start)
  const rerender = () => {
    const id = document.activeElement && el.contains(document.activeElement) ? document.activeElement.id : "";
    drawNewGame(el, nav);
    if (id) document.getElementById(id)?.focus();
  };
  clear(el);
  el.append(h("h2", { id: "ng-h" }, t("newGame")));
  const tab = (g: GameKind) =>
    h(
      "button",
      {
        class: `tab ${form.game === g ? "on" : ""}`,
        role: "tab",
        "aria-selected": String(form.game === g),
        id: `tab-${g}`,
        onclick: () => {
          if (form.game !== g) {
            form.game = g;
            loadForm(g);
          }
          localStorage.setItem("kortbord.lastGame", g);
          rerender();
        },
      },
      g === "mulle" ? t("mulle") : t("cribbage"),
    );
  el.append(h("div", { class: "tabs", role: "tablist" }, tab("mulle"), tab("cribbage")));
  const doc = docs[form.game];
  if (!doc) {
    el.append(h("p", {}, t("loading")));
    loadDoc(form.game)
      .then(rerender)
      .catch((e: Error) => el.append(h("p", { class: "msg error" }, `${t("error")}: ${restError(form.game, e)}`)));
    return;
  }
  const game = form.game;
  const body = h("div", { class: "form" });
  el.append(body);

  // Name
  const nameInput = h("input", {
    id: "player-name",
    value: localStorage.getItem("kortbord.name") ?? "",
    maxlength: "40",
    autocomplete: "nickname",
    onchange: (e: Event) => localStorage.setItem("kortbord.name", (e.target as HTMLInputElement).value),
  });
  body.append(h("div", { class: "opt" }, h("label", { for: "player-name" }, t("yourName")), nameInput));

  // Players
  const pl = h("div", { class: "opt seg", role: "radiogroup", "aria-label": t("players") }, h("span", { class: "lbl" }, t("players")));
  for (const n of [2, 3, 4]) {
    pl.append(
      h(
        "button",
        {
          class: form.players === n ? "on" : "",
          role: "radio",
          "aria-checked": String(form.players === n),
          id: `players-${n}`,
          onclick: () => {
            form.players = n;
            if (n !== 4) form.together = false;
            if (game === "cribbage" && n === 4) form.together = true;
            rerender();
          },
        },
        String(n),
      ),
    );
  }
  body.append(pl);
  if (form.players === 4) {
    const forced = game === "cribbage"; // four-hand cribbage is always a partnership (spec §2.2)
    if (forced) form.together = true;
    body.append(
      h(
        "div",
        { class: "opt bool" },
        h("input", {
          type: "checkbox",
          id: "together",
          checked: form.together,
          disabled: forced,
          "aria-describedby": forced ? "together-why" : null,
          onchange: (e: Event) => {
            form.together = (e.target as HTMLInputElement).checked;
            rerender(); // the seats say again who is a partner
          },
        }),
        h("label", { for: "together" }, game === "mulle" ? t("teams") : t("partnership")),
        // greyed because it is not a choice: said why (spec §2.2, four-hand cribbage is played in partnership)
        forced ? h("p", { class: "help", id: "together-why" }, t("partnershipAlways")) : null,
      ),
    );
  }

  // Opponents: the levels weakest first (the registry's order), strong by default.
  const words = doc.bot_level_words ?? {};
  const levels = doc.bot_levels.length ? doc.bot_levels : ["greedy"];
  const fallback = levels.includes("strong") ? "strong" : levels[0];
  while (form.opponents.length < 3) form.opponents.push(`bot:${fallback}`);
  // four players as two teams (partners opposite): seat 3 is the viewer's partner, seats 2 and 4 the opponents
  const teams = form.players === 4 && form.together;
  const opp = h("fieldset", { class: "opponents" }, h("legend", {}, teams ? t("otherPlayers") : t("opponents")));
  const levelHelp = h("p", { class: "help level-help", id: "level-help" });
  const drawLevelHelp = () => {
    clear(levelHelp);
    const chosen = [...new Set(form.opponents.slice(0, form.players - 1).filter((o) => o.startsWith("bot:")).map((o) => o.slice(4)))];
    for (const l of chosen) {
      const w = words[l];
      if (!w) continue;
      const mug = w.muggins_text ? ` ${pick(w.muggins_text.en, w.muggins_text.sv)}` : "";
      levelHelp.append(h("span", { class: "level-text", "data-level": l }, `${pick(w.text.en, w.text.sv)}${mug}`), " ");
    }
  };
  const anchors = levels.filter((l) => words[l]?.for_people === false);
  for (let s = 1; s < form.players; s++) {
    const id = `seat-${s}`;
    const levelOption = (l: string) =>
      h("option", { value: `bot:${l}`, selected: form.opponents[s - 1] === `bot:${l}` }, t("computerLevel", { level: levelLabel(game, l) }));
    opp.append(
      h(
        "div",
        { class: "opt" },
        h("label", { for: id }, t("seat", { n: s + 1 }), teams ? ` — ${s === 2 ? t("yourPartner") : t("opponent")}` : ""),
        h(
          "select",
          {
            id,
            onchange: (e: Event) => {
              form.opponents[s - 1] = (e.target as HTMLSelectElement).value;
              drawLevelHelp();
            },
          },
          // the levels for people first; the measuring anchors (random, greedy: docs/bots.md) apart, under their own
          // heading, so no one takes them for the easiest levels
          levels.filter((l) => words[l]?.for_people !== false).map(levelOption),
          h("option", { value: "human", selected: form.opponents[s - 1] === "human" }, t("person")),
          anchors.length ? h("optgroup", { label: t("anchorLevels") }, anchors.map(levelOption)) : null,
        ),
      ),
    );
  }
  opp.append(levelHelp);
  // the levels worth calling muggins on, by the level choice: Cribbage with Muggins on only (stats.ts)
  if (game === "cribbage" && value(doc, "muggins")) opp.append(miscountNote());
  drawLevelHelp();
  body.append(opp);

  // Main rule options
  const byKey = new Map(doc.options.map((o) => [o.key, o]));
  if (game === "mulle") {
    const profiles = offeredProfiles(doc);
    if (profiles.length) {
      let cur = String(form.values.mulle.profile ?? byKey.get("profile")?.default ?? profiles[0]);
      if (!profiles.includes(cur)) {
        // a form saved with a profile no longer offered: the profile it is made from, its own controls as it set them
        const r = profileOverrides(doc, cur) ?? {};
        cur = profiles[0];
        form.values.mulle = { ...form.values.mulle, profile: cur };
        for (const k of MAIN.mulle) if (k in r) setValue("mulle", k, r[k]);
        form.touched.mulle.delete("profile");
      }
      body.append(
        h(
          "div",
          { class: "opt" },
          h("label", { for: "opt-mulle-profile" }, t("profile")),
          h(
            "select",
            {
              id: "opt-mulle-profile",
              onchange: (e: Event) => {
                const p = (e.target as HTMLSelectElement).value;
                form.values.mulle = { profile: p, ...(profileOverrides(doc, p) ?? {}) };
                form.touched.mulle = new Set(["profile"]);
                rerender();
              },
            },
            profiles.map((p) => h("option", { value: p, selected: p === cur }, profileLabel(game, p))),
          ),
        ),
      );
    }
    if (byKey.has("hand_size") && byKey.has("table_size")) {
      const hs = Number(value(doc, "hand_size"));
      const ts = Number(value(doc, "table_size"));
      body.append(
        h(
          "div",
          { class: "opt" },
          h("label", { for: "opt-deal" }, t("dealFormat")),
          h(
            "select",
            {
              id: "opt-deal",
              onchange: (e: Event) => {
                const [a, b] = (e.target as HTMLSelectElement).value.split("+").map(Number);
                setValue("mulle", "hand_size", a);
                setValue("mulle", "table_size", b);
              },
            },
            DEAL_FORMATS.map(([a, b]) => h("option", { value: `${a}+${b}`, selected: a === hs && b === ts }, `${a}+${b}`)),
          ),
        ),
      );
    }
  }
  for (const key of MAIN[game]) {
    const o = byKey.get(key);
    if (o && key !== "profile") body.append(control(doc, o, rerender));
  }
  if (game === "cribbage" && value(doc, "muggins") && value(doc, "lowball")) {
    body.append(h("p", { class: "notice", role: "status" }, t("muggLowball")));
  }
  const more = h("details", { class: "more" }, h("summary", {}, t("moreOptions")));
  for (const o of doc.options) {
    if (MAIN[game].includes(o.key) || HIDDEN.has(o.key) || o.key === "profile") continue;
    more.append(control(doc, o, rerender));
  }
  body.append(more);

  const msg = h("p", { class: "msg", role: "status" });
  const btn = h("button", { class: "primary big", id: "create" }, t("create"));
  btn.addEventListener("click", async () => {
    btn.disabled = true;
    btn.textContent = t("creating");
    saveForm(game);
    const rules: Record<string, unknown> = {};
    for (const k of form.touched[game]) rules[k] = form.values[game][k];
    const name = plainName(nameInput.value);
    const seats: Record<string, unknown>[] = [name ? { kind: "human", name } : { kind: "human" }];
    for (let s = 1; s < form.players; s++) {
      const o = form.opponents[s - 1];
      seats.push(o === "human" ? { kind: "human" } : { kind: "bot", level: o.slice(4) });
    }
    const bodyJson: Record<string, unknown> = { game, rules, players: form.players, seats };
    if (form.players === 4) bodyJson[game === "mulle" ? "teams" : "partnership"] = form.together;
    try {
      const r = await api.create(bodyJson);
      saveSeat({
        game_id: r.game_id,
        game,
        seat: r.seat,
        token: r.token,
        created: new Date().toISOString(),
        invites: r.invites,
        notices: r.notices,
      });
      nav.openGame(r.game_id);
    } catch (e) {
      msg.textContent = `${t("error")}: ${restError(game, e)}`;
      msg.className = "msg error";
      btn.disabled = false;
      btn.textContent = t("create");
    }
  });
  // the number keys are the hand's cards: as many as these rules deal (Mulle hand_size, Cribbage 6 cards to each
  // of two players, 5 to each of three or four)
  const handSize = game === "mulle" ? Number(value(doc, "hand_size")) || 8 : form.players === 2 ? 6 : 5;
  el.append(btn, msg, h("p", { class: "kbd-help", id: "kbd-help" }, t("keyboardHelp", { n: Math.min(9, handSize) })));
}

function drawResume(el: HTMLElement, nav: { openGame(id: string): void }): void {
  clear(el);
  el.append(h("h2", { id: "rs-h" }, t("resume")));
  const seats = savedSeats();
  if (!seats.length) {
    el.append(h("p", { class: "muted" }, t("noSaved")));
    return;
  }
  const list = h("ul", { class: "saved" });
  // the date in the page's language ("1 dec. 2026 18:37", "Dec 1, 2026, 6:37 PM")
  const when = new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" });
  for (const s of seats) {
    const status = h("span", { class: "status" }, "…");
    const open = h("button", { class: "primary", onclick: () => nav.openGame(s.game_id) }, t("resumeBtn"));
    api
      .game(s.game_id)
      .then((g) => {
        status.textContent = t(`status_${g.status}` as "status_over");
        status.className = `status ${g.status}`;
        // a finished game is looked at, not resumed
        if (g.status === "over") open.textContent = t("viewBtn");
      })
      .catch(() => {
        status.textContent = t("status_unknown");
        status.className = "status unknown";
      });
    list.append(
      h(
        "li",
        {},
        h(
          "div",
          { class: "what" },
          h("strong", {}, s.game === "mulle" ? t("mulle") : t("cribbage")),
          " ",
          status,
          h("small", {}, when.format(new Date(s.created))),
        ),
        open,
        h(
          "button",
          {
            class: "ghost",
            onclick: () => {
              forgetSeat(s.game_id);
              drawResume(el, nav);
            },
          },
          t("forget"),
        ),
      ),
    );
  }
  el.append(list);
}
