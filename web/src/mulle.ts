// The Mulle table: hand, loose cards and builds; choose a hand card, then table cards/builds, then the move.
import type { StateMsg } from "./api";
import { notations } from "./api";
import { backs, cardImg, cardName, handValue, short } from "./cards";
import { clear, h } from "./dom";
import type { Table, TableCtx } from "./gamepage";
import { lang, t, ts, type Key } from "./i18n";
import { eventLine, joinAnd } from "./words";
import { proposed } from "./keys";
import { keepChoice, keptChoice } from "./keep";
import { barFigure, chartFigure } from "./chart";
import { parseMove, usesAtLeast, usesExactly, type MulleMove } from "./mullenotation";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface BuildJ {
  id: string;
  cards: string[];
  value: number;
  owner: number;
  locked: boolean;
}

const ITEMS = [
  "cards",
  "spades",
  "ace_of_spades",
  "lillan",
  "storan",
  "other_aces",
  "card_points",
  "mulle",
  "mulle_points",
  "tabbe",
  "surplus_bonus",
  "total",
] as const;

/** The items of each round in the game-over breakdown (the round summary has every item). */
const OVER_ITEMS = ["cards", "card_points", "mulle_points", "tabbe", "surplus_bonus", "total"] as const;
/** The round's points by kind in the one-round chart (the cards taken are a count, not points). */
const BAR_ITEMS = ["card_points", "mulle_points", "tabbe", "surplus_bonus", "total"] as const;

export class MulleTable implements Table {
  root = h("div", { class: "mulle felt" });
  private msg: StateMsg | null = null;
  private moves: MulleMove[] = [];
  private card: string | null = null; // chosen hand card
  private cardIdx = -1; // its place in the hand (a twin pair in hand: only the one chosen is raised)
  private group: string | null = null; // the open group of the chosen card's other moves (groupKey), if any
  private loose: number[] = []; // chosen table indices
  private builds: string[] = []; // chosen build ids
  private version = -1;
  private summaryOpen: number | null = null; // index into round_log shown in the modal
  private seenRounds = -1;

  constructor(private ctx: TableCtx) {}

  private get v(): Json {
    return this.msg!.view;
  }

  private side(seat: number): number {
    return this.v.seat_sides?.[seat] ?? seat;
  }

  sideName(side: number): string {
    const me = this.ctx.seat;
    if (this.v.teams) return me !== null && this.side(me) === side ? t("yourTeam") : t("team", { n: side + 1 });
    return this.ctx.name(side);
  }

  update(msg: StateMsg): void {
    const newVersion = msg.version !== this.version;
    this.msg = msg;
    this.moves = notations(msg)
      .map(parseMove)
      .filter((m): m is MulleMove => m !== null);
    if (newVersion) {
      this.version = msg.version;
      this.card = null;
      this.cardIdx = -1;
      this.loose = [];
      this.builds = [];
      this.group = null;
      this.pkgPick = null;
      // a hand card chosen before a reload of this very state is chosen again (still in the hand)
      const kept = this.myTurn() ? keptChoice(msg.version, this.v.hand ?? []) : null;
      if (kept) {
        this.card = kept.cards[0];
        this.cardIdx = kept.idx;
      }
    }
    const log: Json[] = this.v.round_log ?? [];
    if (this.seenRounds < 0) {
      // a table drawn afresh (a reload, a reconnection): the round's score that was open is open again
      this.seenRounds = log.length;
      const open = Number(sessionStorage.getItem(this.summaryKey()) ?? "");
      if (sessionStorage.getItem(this.summaryKey()) !== null && Number.isInteger(open) && open >= 0 && open < log.length) this.summaryOpen = open;
    }
    if (log.length > this.seenRounds) {
      this.summaryOpen = log.length - 1;
      this.seenRounds = log.length;
    }
    this.keepSummary();
    this.draw();
  }

  private myTurn(): boolean {
    return this.ctx.seat !== null && this.v.to_move === this.ctx.seat && this.msg!.status !== "over";
  }

  private looseCodes(): string[] {
    return this.loose.map((i) => this.v.table[i]);
  }

  private cardMoves(): MulleMove[] {
    return this.card ? this.moves.filter((m) => m.card === this.card) : [];
  }

  // ---------------------------------------------------------------------------------------------- drawing
  private draw(): void {
    const v = this.v;
    clear(this.root);
    // State for tests and assistive tools: the version, whether the viewer is to play and its legal moves.
    this.root.dataset.version = String(this.msg!.version);
    this.root.dataset.mine = this.myTurn() ? "1" : "0";
    this.root.dataset.legal = JSON.stringify(this.myTurn() ? this.moves.map((m) => m.text) : []);
    this.root.dataset.players = String(v.players); // a phone lays three or four players' boxes out otherwise
    // the hand card chosen (not yet played) is kept over a reload of this state (keep.ts)
    keepChoice(this.msg!.version, this.myTurn() && this.card !== null ? [this.card] : [], this.cardIdx);
    const me: number | null = this.ctx.seat;
    const others: number[] = [];
    for (let i = 1; i <= v.players; i++) {
      const s = me === null ? i - 1 : (me + i) % v.players;
      if (s !== me) others.push(s);
    }
    this.root.append(
      h("div", { class: "opps opponents" }, others.map((s) => this.seatBox(s))),
      h("div", { class: "status-row" }, this.infoBar(), this.scoreBar()),
      // the table and the controls share one stage: on a phone the moves of a chosen card take the table's
      // free space below its cards (style.css), never a small scrolling box; the hand does not move
      h("div", { class: "stage" }, this.tableArea(), this.actions()),
      me !== null ? this.myArea(me) : h("div", { class: "me-empty" }),
    );
    if (this.summaryOpen !== null) this.root.append(this.summaryModal(this.summaryOpen));
    this.fitBuilds();
    this.fitActions();
    // the table grows after this draw when the aids put their words in (the builds' takers, a round trip later):
    // the moves are fitted again to the room that is left; a new width (the window's) fans the builds again
    this.tableSize ??= new ResizeObserver(() => {
      const w = this.root.querySelector(".builds")?.clientWidth ?? 0;
      if (w !== this.buildsWidth) this.fitBuilds();
      this.fitActions();
    });
    this.tableSize.disconnect();
    const area = this.root.querySelector(".stage > .tablearea");
    if (area) this.tableSize.observe(area);
    // and its rows: on a phone the table's box may keep its height while its cards' rows grow inside it (the
    // builds' takers put in after this draw), which would leave the moves' sheet over the lowest row's cards
    // (seen in CI: a build under the sheet could not be pressed)
    if (area) for (const row of Array.from(area.children)) this.tableSize.observe(row);
  }

  private tableSize: ResizeObserver | undefined;
  private buildsWidth = -1;

  /** Fan each build's cards so that every card's corner index (rank and suit) stays in sight: the step from one
   * card to the next is as wide as the build's share of the row allows (at most the usual step), never under the
   * corner index's width.  On a wide screen the tags stand beside the cards, as wide as their words or narrower
   * (down to MIN_TAG_REM, the words wrapping); when a build's share is too narrow for its cards and such a tag side
   * by side (four builds, one of six cards), every tag of the row goes under its cards instead (class tags-below),
   * so the cards have the build's whole width.  A build whose cards do not fit even then takes the room it needs,
   * and the row wraps. */
  private fitBuilds(): void {
    const row = this.root.querySelector<HTMLElement>(".stage .builds");
    this.buildsWidth = row?.clientWidth ?? -1;
    if (!row) return;
    const builds = Array.from(row.querySelectorAll<HTMLElement>(":scope > .build"));
    const first = row.querySelector<HTMLElement>(".fan img.card");
    if (!builds.length || !first || !row.clientWidth) return;
    const wide = WIDE_TABLE.matches;
    const cardW = first.getBoundingClientRect().width;
    const floor = Math.ceil(cardW * CORNER) + 2;
    const most = wide ? cardW * 0.42 : 18;
    // the builds' shares of the row, as style.css gives them (a half, a third, a quarter of the row)
    const per = builds.length >= 4 ? 4 : builds.length === 3 ? 3 : 2;
    const gap = parseFloat(getComputedStyle(row).columnGap) || 0;
    const share = (row.clientWidth - (per - 1) * gap) / per;
    for (const b of builds) {
      b.style.setProperty("--fan-step", `${floor}px`); // the narrowest fan: the tags measured at their own width
      b.style.minWidth = "";
      const tag = b.querySelector<HTMLElement>(".buildtag");
      if (tag) {
        tag.style.maxWidth = "";
        tag.style.minWidth = "";
      }
    }
    row.classList.remove("tags-below");
    const cards = (b: HTMLElement) => b.querySelectorAll(".fan img.card").length;
    const fanAt = (b: HTMLElement, step: number) => cardW + Math.max(0, cards(b) - 1) * step;
    // beside the cards a tag takes its own width, or narrower (its words wrap) down to MIN_TAG_REM, as the share
    // leaves it beside the narrowest fan; a row where some tag has less room than that has its tags below
    const tags = builds.map((b) => {
      const tag = b.querySelector<HTMLElement>(".buildtag");
      const colGap = parseFloat(getComputedStyle(b).columnGap) || 0;
      const own = tag ? tag.getBoundingClientRect().width : 0;
      return { tag, colGap, width: Math.min(own, share - fanAt(b, floor) - colGap) };
    });
    const minTag = MIN_TAG_REM * (parseFloat(getComputedStyle(document.documentElement).fontSize) || 16);
    const below = !wide || tags.some((x) => x.tag !== null && x.width < minTag);
    if (below && wide) row.classList.add("tags-below");
    builds.forEach((b, i) => {
      const n = cards(b);
      const room = below ? share : share - tags[i].width - tags[i].colGap;
      const step = n < 2 ? most : Math.min(most, (room - cardW) / (n - 1));
      b.style.setProperty("--fan-step", `${Math.max(floor, Math.floor(step * 10) / 10)}px`);
      const tag = tags[i].tag;
      if (!below && tag) {
        tag.style.maxWidth = `${Math.floor(tags[i].width)}px`;
        tag.style.minWidth = "0"; // narrower than its usual least (style.css), its words wrapping
      }
      if (step < floor) b.style.minWidth = `${Math.ceil(fanAt(b, floor))}px`; // the row wraps rather than hide corners
    });
  }

  /** The moves of a chosen card that do not fit the controls' region open as a sheet over the table's free room,
   * from the bottom of the table's stage up to just under the table's lowest card -- never over a card (w9 finding 1;
   * over the builds' tags if it must); a list longer than that scrolls inside the sheet.  The regions themselves
   * stay where they are. */
  private fitActions(): void {
    const box = this.root.querySelector<HTMLElement>(".stage > .actions");
    const body = box?.querySelector<HTMLElement>(".sheet-body");
    if (!box || !body) return;
    box.classList.remove("sheet");
    body.style.maxHeight = "";
    if (box.scrollHeight <= box.clientHeight + 1) return;
    box.classList.add("sheet");
    const stage = box.parentElement!.getBoundingClientRect();
    // the lowest card of the table (a loose card, a build's cards), with a chosen card's ring; a long list may lie
    // over the builds' tags below their cards (their value and owner are said by the moves' words too)
    let cards = stage.top;
    for (const el of Array.from(this.root.querySelectorAll<HTMLElement>(".stage > .tablearea .cardbtn img.card"))) {
      const r = el.getBoundingClientRect();
      if (r.height > 0) cards = Math.max(cards, r.bottom + 5);
    }
    const area = this.root.querySelector<HTMLElement>(".stage > .tablearea");
    if (area) cards = Math.min(cards, area.getBoundingClientRect().bottom); // cards scrolled out of the table's box
    body.style.maxHeight = `${Math.max(box.getBoundingClientRect().height, Math.floor(stage.bottom - cards))}px`;
    if (body.scrollHeight <= body.clientHeight + 1) return;
    // The list does not fit the room below the cards (a tall table on a phone, long ways of packing): first the
    // list grouped, if grouping makes it shorter (drawn again, fitted again); still too long (a group's ways,
    // opened), the sheet rises over the table's lowest cards as far as it needs, the whole stage at most -- every
    // move stays in sight, never in a small scrolling box.
    const key = this.squeezeKey();
    if (this.squeezed !== key && body.querySelector(".allmoves") && !body.querySelector("#moves-back")) {
      this.squeezed = key;
      this.draw(); // grouped, and fitted again by this method (which then only rises, if need be)
      return;
    }
    body.style.maxHeight = `${Math.floor(stage.height)}px`;
    // taller than the whole stage (a group of many long ways, opened): the list drawn denser, then denser again
    // (smaller words, narrower columns) until every way is in sight
    const list = body.querySelector<HTMLElement>(".allmoves");
    for (const dense of ["dense", "denser"]) {
      if (!list || body.scrollHeight <= body.clientHeight + 1) return;
      list.classList.add(dense);
    }
  }

  /** The choice the squeezed (grouped) list belongs to: this state's version and the chosen hand card. */
  private squeezeKey(): string {
    return `${this.version}:${this.cardIdx}`;
  }

  /** Set by fitActions when the chosen card's list did not fit ungrouped (squeezeKey); reset by a new choice. */
  private squeezed: string | null = null;

  private seatBox(s: number): HTMLElement {
    const v = this.v;
    const pile = v.piles[this.side(s)] ?? { cards: [], mulle: [], tabbe: 0 };
    const active = v.to_move === s;
    const level = this.ctx.level(s);
    const partner = v.teams && this.ctx.seat !== null && this.side(s) === this.side(this.ctx.seat);
    return h(
      "div",
      {
        class: `seatbox ${active ? "active" : ""}`,
        "data-seat": String(s),
        // a phone's one-line row says the pile's figures in short words (style.css): a tap on the row says the
        // pile in full in the banner, the mulles' cards too (a touch screen shows no title); the log says them too
        onclick: () => this.ctx.flash(`${this.ctx.name(s)}${level ? ` (${level})` : ""}: ${this.pileWords(pile)}`, "info"),
      },
      h(
        "div",
        { class: "who" },
        // the level in the name's title too: a phone's one-line row leaves the level's chip out (style.css)
        h("strong", { class: "pname", title: level ? `${this.ctx.name(s)} (${level})` : this.ctx.name(s) }, this.ctx.name(s)),
        level ? h("span", { class: "level" }, level) : null,
        v.dealer === s ? h("span", { class: "chip dealer", title: t("dealer") }, "D") : null,
        // four players in two teams (spec §2.2): the viewer's partner said in words, as at the Cribbage table
        // ("Partner" on a phone)
        partner
          ? h("span", { class: "chip partner", title: t("partnerChip") }, h("span", { class: "long" }, t("partnerChip")), h("span", { class: "short" }, t("partnerShort")))
          : null,
      ),
      backs(v.hand_sizes[s] ?? 0),
      this.pileLine(pile),
    );
  }

  /** A pile's figures in full words: "Team's pile: 4, Mulle: 1 (7♠ = 7), Tabbe: 0" (the banner of a tap on a row). */
  private pileWords(pile: Json): string {
    const mulles: Json[] = pile.mulle ?? [];
    const pts = mulles.reduce((a: number, m: Json) => a + (m.points ?? 0), 0);
    const word = this.v.teams ? t("teamPile") : t("pile");
    const list = mulles.length ? ` (${mulles.map((m) => short(m.card)).join(" ")} = ${pts})` : "";
    return `${word}: ${pile.cards.length}, ${t("mulles")}: ${mulles.length}${list}, ${t("tabbe")}: ${pile.tabbe ?? 0}`;
  }

  /** The pile line: the pile's cards, the mulles (their cards and points), the tabbes.  Each figure has its long
   * words (a wide screen) and its short ones (a phone's one-line row, style.css: "Pile 4", "Mulle 1 = 7", "Tabbe 0",
   * never cut); the title and a tap on the row say it in full. */
  private pileLine(pile: Json, onclick?: () => void): HTMLElement {
    const mulles: Json[] = pile.mulle ?? [];
    const mullePts = mulles.reduce((a: number, m: Json) => a + (m.points ?? 0), 0);
    // four players in two teams (spec §2.2) capture to one pile a team: each partner's box shows the team's pile
    const word = this.v.teams ? t("teamPile") : t("pile");
    const list = mulles.length ? ` (${mulles.map((m) => short(m.card)).join(" ")} = ${mullePts})` : "";
    const both = (long: string, brief: string) => [h("span", { class: "long" }, long), h("span", { class: "short" }, brief)];
    return h(
      "div",
      { class: "pileline", title: this.pileWords(pile), onclick },
      h("span", { class: "pilecount", title: word }, ...both(`${word}: `, `${t("pileShort")} `), String(pile.cards.length)),
      h(
        "span",
        { class: "mulles", title: `${t("mulles")}: ${mulles.length}${list}` },
        ...both(`${t("mulles")}: ${mulles.length}${list}`, `${t("mulles")} ${mulles.length}${mulles.length ? ` = ${mullePts}` : ""}`),
      ),
      h("span", { class: "tabbar" }, ...both(`${t("tabbe")}: `, `${t("tabbe")} `), String(pile.tabbe ?? 0)),
    );
  }

  private infoBar(): HTMLElement {
    const v = this.v;
    return h(
      "div",
      { class: "infobar" },
      h("span", {}, t("round", { n: v.round })),
      h("span", {}, t("deal", { n: v.deal_no, m: v.deals_total })),
      // the last deal: the båt call in the stock's place (the stock is empty), so the line does not grow a row
      // when it comes (style.css: on a phone the badge says "Båt!" only, and the line never wraps; a tap on it
      // says what it means in the banner, as a phone has no hover for its title)
      v.is_last_deal
        ? h(
            "span",
            { class: "stock" },
            h(
              "button",
              { type: "button", class: "badge baat", id: "baat", title: t("baat"), "aria-label": t("baat"), onclick: () => this.ctx.flash(t("baatTap"), "info") },
              boatIcon(),
              h("span", { class: "word" }, t("baatWord")),
              h("span", { class: "long" }, t("baatLast")),
            ),
          )
        : h("span", { class: "stock" }, backs(v.stock_size ? 1 : 0, 1), t("stock", { n: v.stock_size })),
      v.last_capturer !== null && v.last_capturer !== undefined
        ? h("span", { class: "lastcap" }, t("lastCapturer", { name: this.ctx.name(v.last_capturer) }))
        : null,
    );
  }

  private tableArea(): HTMLElement {
    const v = this.v;
    const mine = this.myTurn();
    const cm = this.cardMoves();
    const selLoose = this.looseCodes();
    const area = h("section", { class: "tablearea table", "aria-label": t("table") });
    const looseRow = h("div", { class: "loose", role: "group", "aria-label": t("table") });
    (v.table as string[]).forEach((code, i) => {
      const chosen = this.loose.includes(i);
      const usable =
        this.card !== null && !chosen && cm.some((m) => usesAtLeast(m, [...selLoose, code], this.builds));
      const b = h(
        "button",
        {
          class: `cardbtn table-card ${chosen ? "chosen" : ""} ${usable ? "legal" : ""}`,
          "data-code": code,
          "data-idx": String(i),
          "data-row": "table",
          "aria-pressed": String(chosen),
          "aria-label": cardName(code) + (usable ? " ✓" : ""),
          disabled: !mine || this.card === null,
          onclick: () => this.toggleLoose(i),
        },
        cardImg(code),
      );
      looseRow.append(b);
    });
    area.append(looseRow);
    const buildRow = h("div", { class: "builds" });
    for (const b of v.builds as BuildJ[]) {
      const chosen = this.builds.includes(b.id);
      const usable = this.card !== null && !chosen && cm.some((m) => usesAtLeast(m, selLoose, [...this.builds, b.id]));
      // --n: the fan's step narrows with the build's cards so that every card's corner shows (style.css)
      const fan = h("span", { class: "fan", style: `--n: ${b.cards.length}` }, b.cards.map((c) => cardImg(c)));
      const label = `${t("build")} ${b.value}: ${b.cards.map(short).join(" ")}, ${b.locked ? t("locked") : t("open")}, ${t("owner")} ${this.ctx.name(b.owner)}`;
      buildRow.append(
        h(
          "button",
          {
            class: `cardbtn build ${b.locked ? "locked" : ""} ${chosen ? "chosen" : ""} ${usable ? "legal" : ""}`,
            "data-build": b.id,
            "data-row": "table",
            "aria-pressed": String(chosen),
            "aria-label": label + (usable ? " ✓" : ""),
            title: label,
            disabled: !mine || this.card === null,
            onclick: () => this.toggleBuild(b.id),
          },
          fan,
          h(
            "span",
            { class: "buildtag" },
            h("b", { class: "bval", "data-value": String(b.value) }, ts("buildTag", this.ctx.isMe(b.owner), { v: b.value, name: this.ctx.name(b.owner) })),
            b.locked ? h("span", { class: "lock", title: t("locked") }, t("locked")) : null,
          ),
        ),
      );
    }
    if ((v.builds as BuildJ[]).length) area.append(buildRow);
    // an empty table in words: a bare "—" under the score bar read as the empty list of its "Round scores" button
    // (fresh w9 finding 15)
    if (!(v.table as string[]).length && !(v.builds as BuildJ[]).length) area.append(h("p", { class: "empty" }, t("tableEmpty")));
    return area;
  }

  private myArea(me: number): HTMLElement {
    const v = this.v;
    const mine = this.myTurn();
    const hand = h("div", { class: "hand", role: "group", "aria-label": t("hand") });
    (v.hand as string[]).forEach((code, i) => {
      const playable = mine && this.moves.some((m) => m.card === code);
      const chosen = this.card === code && this.cardIdx === i;
      hand.append(
        h(
          "button",
          {
            class: `cardbtn hand-card ${chosen ? "chosen" : ""} ${playable ? "legal" : mine ? "dim" : ""}`,
            "data-code": code,
            "data-idx": String(i),
            "data-row": "hand",
            "aria-pressed": String(chosen),
            "aria-label": `${i + 1}: ${cardName(code)}`,
            disabled: !mine,
            onclick: () => this.chooseCard(code, i),
          },
          cardImg(code),
          h("span", { class: "keyhint", "aria-hidden": "true" }, String(i + 1)),
        ),
      );
    });
    const pile = v.piles[this.side(me)] ?? { cards: [], mulle: [], tabbe: 0 };
    return h(
      "section",
      { class: `me seatbox ${mine ? "active" : ""}`, "aria-label": t("hand") },
      h(
        "div",
        { class: "who" },
        h("strong", {}, v.teams ? `${t("you")} (${t("yourTeam")})` : t("you")),
        v.dealer === me ? h("span", { class: "chip dealer", title: t("dealer") }, "D") : null,
        this.pileLine(pile, () => this.ctx.flash(`${v.teams ? `${t("you")} (${t("yourTeam")})` : t("you")}: ${this.pileWords(pile)}`, "info")),
      ),
      hand,
    );
  }

  /** The controls: a fixed-height region (choosing cards never moves the hand), with the move(s) the chosen cards
   * make, or why none does; the other legal moves of the chosen card below, each played by a click. */
  private actions(): HTMLElement {
    const section = h("section", { class: "actions controls", "aria-live": "polite" });
    if (!this.myTurn()) return section;
    if (this.card === null) {
      section.append(h("p", { class: "hint" }, t("chooseCard")));
      return section;
    }
    // the moves in a body that becomes a sheet over the table when they need more room (fitActions)
    const box = h("div", { class: "sheet-body" });
    section.append(box);
    const card = this.card;
    const cm = this.cardMoves();
    const selLoose = this.looseCodes();
    const exact = cm.filter((m) => usesExactly(m, selLoose, this.builds));
    const row = h("div", { class: "moves" });
    if (!exact.length) {
      // No legal move is spelled by the chosen cards: say so, and offer to ask the rules why (the trail of a card
      // that may not be trailed, or the capture of the chosen cards) -- the answer is the engine's reason.
      const chosen = selLoose.length > 0 || this.builds.length > 0;
      const hint = !cm.length ? t("noLegalWithCard", { card: short(card) }) : chosen ? t("noMoveHere") : t("chooseTable");
      row.append(h("span", { class: `hint ${chosen || !cm.length ? "warn" : ""}` }, hint));
      const attempt = this.attempt(card, selLoose);
      if (chosen || !this.moves.some((m) => m.text === attempt)) {
        row.append(
          h(
            "button",
            { class: "ghost small why", "data-move": attempt, onclick: () => this.ctx.send(attempt) },
            chosen ? t("whyNot") : t("whyNoTrail"),
          ),
        );
      }
    }
    for (const m of exact) {
      row.append(
        h("button", { class: "move legal primary", "data-move": m.text, onclick: () => this.play(m.text) }, this.describeMove(m)),
      );
    }
    box.append(row);
    // Every other legal move with this card, as a compact list: a click plays it.  A long list (a card that builds
    // with many ways of packing) is grouped: one button per capture set, build or package, which opens its ways in
    // the list's place -- every move stays one or two clicks away, and the list always fits its region.
    const others = cm.filter((m) => !exact.includes(m));
    if (others.length) {
      // the groups of all the card's moves, so that a group's count of ways is the same whether or not the chosen
      // table cards make one of its ways the move above (and its list, opened, shows every way it counts); a group
      // that is only the move above is not listed again
      const groups = groupMoves(cm).filter((g) => g.moves.some((m) => !exact.includes(m)));
      const open = groups.find((g) => g.key === this.group && g.moves.length > 1);
      // grouped when long, or when the list as it is does not fit the room below the table's cards (fitActions)
      const grouped = others.length > GROUP_OVER || (this.squeezed === this.squeezeKey() && groupMoves(others).length < others.length);
      const list = h("div", { class: "allmoves" });
      const moveButton = (m: MulleMove) =>
        h(
          "button",
          {
            class: "move small",
            "data-move": m.text,
            onclick: (e: MouseEvent) => {
              if (e.detail <= 1) this.play(m.text); // a double click on the group's button plays nothing here
            },
            onmouseenter: () => this.preview(m),
            onfocus: () => this.preview(m),
          },
          this.describeMove(m, false), // the list's label names the card
        );
      if (grouped && open) {
        list.append(
          h(
            "button",
            { class: "ghost small back", id: "moves-back", onclick: (e: MouseEvent) => e.detail <= 1 && this.openGroup(null) },
            `◂ ${t("movesBack", { card: short(card) })}`,
          ),
        );
        if (open.moves[0].kind === "B" || open.moves[0].kind === "P") this.packagePicker(list, open.moves, exact);
        else for (const m of open.moves) list.append(moveButton(m));
      } else {
        list.append(h("span", { class: "lbl" }, `${t("movesWith", { card: short(card) })}:`));
        for (const g of grouped ? groups : others.map((m) => ({ key: m.text, moves: [m] }))) {
          if (g.moves.length === 1) {
            list.append(moveButton(g.moves[0]));
            continue;
          }
          list.append(
            h(
              "button",
              {
                class: "move small group",
                "data-group": g.key,
                "aria-expanded": "false",
                onclick: (e: MouseEvent) => e.detail <= 1 && this.openGroup(g.key),
                onmouseenter: () => this.preview(g.moves[0]),
                onfocus: () => this.preview(g.moves[0]),
              },
              `${groupWords(g.moves[0], g.moves.length)} ▸`,
            ),
          );
        }
      }
      box.append(list);
    }
    return section;
  }

  /** An opened build's or package's ways (the same move with other packages taken along, spec §2.5): one button
   * per package the ways take (a twin pair taken twice has two), pressed to take it along, and the one move of
   * the packages pressed -- so 26 ways (two aces and three queens packed with a 13) are 7 buttons and a move, not
   * 26 sentences taller than a phone's table.  A package that no way takes with the ones pressed cannot be
   * pressed (a card is in one package at most). */
  private packagePicker(list: HTMLElement, ways: MulleMove[], proposedWays: MulleMove[]): void {
    const pairKey = ([a, b]: [string, string]) => `${a}+${b}`;
    const counts = (pairs: string[]) => {
      const c = new Map<string, number>();
      for (const p of pairs) c.set(p, (c.get(p) ?? 0) + 1);
      return c;
    };
    const covers = (m: MulleMove, want: Map<string, number>) => {
      const has = counts(m.pkg.map(pairKey));
      return [...want].every(([p, n]) => (has.get(p) ?? 0) >= n);
    };
    // the package buttons: every pair the ways take, as many copies as one way takes it
    const chips: { id: string; pair: string }[] = [];
    for (const m of ways) {
      const has = counts(m.pkg.map(pairKey));
      for (const [pair, n] of has) {
        for (let k = chips.filter((c) => c.pair === pair).length; k < n; k++) chips.push({ id: `${pair}#${k}`, pair });
      }
    }
    // in the table's order (the aces' packages together), not the order the ways happen to come in
    const table: string[] = this.v.table ?? [];
    const at = (pair: string) => pair.split("+").map((c) => table.indexOf(c));
    chips.sort((x, y) => at(x.pair)[0] - at(y.pair)[0] || at(x.pair)[1] - at(y.pair)[1]);
    if (this.pkgPick === null) {
      // opened with table cards chosen that make one of the ways (the move proposed above): its packages pressed,
      // so the two buttons say the same move
      const chosenWay = proposedWays.find((m) => ways.includes(m));
      const seen = new Map<string, number>();
      this.pkgPick = (chosenWay?.pkg ?? []).map((p) => {
        const pair = pairKey(p);
        const k = seen.get(pair) ?? 0;
        seen.set(pair, k + 1);
        return `${pair}#${k}`;
      });
    }
    const pick = this.pkgPick.filter((id) => chips.some((c) => c.id === id));
    this.pkgPick = pick;
    const chosen = counts(pick.map((id) => id.split("#")[0]));
    const exact = ways.find((m) => m.pkg.length === pick.length && covers(m, chosen));
    list.append(h("span", { class: "lbl", id: "pkg-label" }, `${t("pkgTakeAlong")}:`));
    const row = h("div", { class: "pkgpicks", role: "group", "aria-labelledby": "pkg-label" });
    for (const c of chips) {
      const on = pick.includes(c.id);
      const more = new Map(chosen);
      more.set(c.pair, (more.get(c.pair) ?? 0) + 1);
      const can = on || ways.some((m) => covers(m, more));
      const [a, b] = c.pair.split("+");
      row.append(
        h(
          "button",
          {
            class: `move small pkgpick${on ? " on" : ""}`,
            "data-pkg": c.id,
            "aria-pressed": String(on),
            disabled: !can,
            title: can ? undefined : t("pkgClash"),
            onclick: (e: MouseEvent) => {
              // a disabled package stays unpressed whatever sends the click; a double click's second click (one
              // on the group's button that opened this list) presses nothing
              if ((!on && !can) || e.detail > 1) return;
              this.pkgPick = on ? pick.filter((id) => id !== c.id) : [...pick, c.id];
              this.draw();
              this.root.querySelector<HTMLElement>(`.pkgpick[data-pkg="${c.id}"]`)?.focus();
              // the table cards the move now takes are marked, as when its button has the focus
              const move = parseMove(this.root.querySelector<HTMLElement>(".pkgplay")?.dataset.move ?? "");
              if (move) this.preview(move);
            },
          },
          `${short(a)}+${short(b)}`,
        ),
      );
    }
    list.append(row);
    if (exact) {
      list.append(
        h(
          "button",
          {
            class: "move legal primary pkgplay",
            "data-move": exact.text,
            onclick: () => this.play(exact.text),
            onmouseenter: () => this.preview(exact),
            onfocus: () => this.preview(exact),
          },
          this.describeMove(exact, false),
        ),
      );
    }
  }

  // the packages pressed in an opened build's or package's ways (packagePicker); null: not yet, the chosen table
  // cards' move (if it is one of the ways) gives the first presses
  private pkgPick: string[] | null = null;

  /** Open one group of the chosen card's moves (null: back to all of them). */
  private openGroup(key: string | null): void {
    const was = this.group;
    this.group = key;
    this.pkgPick = null;
    this.draw();
    const back = was === null ? null : this.root.querySelector<HTMLElement>(`.allmoves .group[data-group="${CSS.escape(was)}"]`);
    const first = back ?? this.root.querySelector<HTMLElement>(key === null ? ".allmoves .group" : ".allmoves .move");
    first?.focus();
  }

  /** Mark on the table the cards and builds a listed move would use (without redrawing). */
  private preview(m: MulleMove): void {
    this.root.querySelectorAll(".preview").forEach((el) => el.classList.remove("preview"));
    const left = [...m.loose];
    this.root.querySelectorAll<HTMLElement>(".table-card").forEach((el) => {
      const i = left.indexOf(el.dataset.code ?? "");
      if (i >= 0) {
        left.splice(i, 1);
        el.classList.add("preview");
      }
    });
    for (const b of m.builds) this.root.querySelector(`.build[data-build="${b}"]`)?.classList.add("preview");
  }

  /** The move the chosen cards spell although no legal move matches (the server says why it is not allowed): a
   * trail when no table card is chosen, else the capture of the chosen cards and builds. */
  private attempt(card: string, loose: string[]): string {
    if (!loose.length && !this.builds.length) return `T ${card}`;
    return `C ${card} x {${[...loose, ...this.builds.map((b) => `[${b}]`)].join(",")}}`;
  }

  private scoreBar(): HTMLElement {
    const v = this.v;
    const sides = v.teams ? 2 : v.players;
    const bar = h("section", { class: "scorebar scores", "aria-label": t("gameScore") }, h("span", { class: "lbl" }, t("gameScore")));
    for (let s = 0; s < sides; s++) {
      bar.append(h("span", { class: "score", "data-side": String(s) }, `${this.sideName(s)}: `, h("b", {}, String(v.scores[s] ?? 0))));
    }
    const log: Json[] = v.round_log ?? [];
    if (log.length) {
      bar.append(
        h("button", { class: "ghost small", id: "show-summary", onclick: () => this.openSummary(log.length - 1) }, t("roundHistory")),
      );
    }
    return bar;
  }

  /** Where the open round's score is kept over a reload (this tab's session, this game). */
  private summaryKey(): string {
    return `kortbord.summaryOpen.mulle.${location.hash}`;
  }

  private keepSummary(): void {
    if (this.summaryOpen === null) sessionStorage.removeItem(this.summaryKey());
    else sessionStorage.setItem(this.summaryKey(), String(this.summaryOpen));
  }

  private openSummary(i: number): void {
    this.summaryOpen = i;
    this.keepSummary();
    this.draw();
    (this.root.querySelector("#summary-close") as HTMLElement | null)?.focus();
  }

  private summaryModal(i: number): HTMLElement {
    const v = this.v;
    const log: Json[][] = v.round_log ?? [];
    const rows: Json[] = log[i] ?? [];
    const sides = rows.length;
    const table = h("table", { class: "summary" });
    const head = h("tr", {}, h("th", {}, t("item")));
    for (let s = 0; s < sides; s++) head.append(h("th", {}, this.sideName(s)));
    table.append(h("thead", {}, head));
    const tb = h("tbody");
    for (const item of ITEMS) {
      if (!rows.some((r) => item in r)) continue;
      const tr = h("tr", { class: `it-${item}` }, h("th", { scope: "row" }, t(`it_${item}` as Key)));
      for (const r of rows) {
        const val = r[item];
        let cell: string;
        if (item === "mulle") cell = (val ?? []).map((m: Json) => `${short(m.card)} ${m.points}`).join(", ") || "–";
        else cell = String(val ?? 0);
        tr.append(h("td", {}, cell));
      }
      tb.append(tr);
    }
    table.append(tb);
    // Running game score after this round.
    const totals: number[] = [];
    for (let s = 0; s < sides; s++) totals.push(log.slice(0, i + 1).reduce((a, r) => a + (r[s]?.total ?? 0), 0));
    const foot = h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("gameScore")), totals.map((x) => h("td", {}, String(x)))));
    table.append(foot);
    const close = () => {
      this.summaryOpen = null;
      this.keepSummary();
      this.draw();
    };
    const nav = h("div", { class: "modal-nav" });
    if (log.length > 1) {
      for (let k = 0; k < log.length; k++)
        nav.append(h("button", { class: k === i ? "on small" : "ghost small", onclick: () => this.openSummary(k) }, String(k + 1)));
    }
    return h(
      "div",
      { class: "modal-back", onclick: (e: Event) => e.target === e.currentTarget && close() },
      h(
        "div",
        { class: "modal panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "sum-h", id: "round-summary" },
        h("h2", { id: "sum-h" }, t("roundSummary", { n: i + 1 })),
        nav.firstChild ? nav : null, // one round: no row of round buttons (nor its gap under the title)
        h("div", { class: "scroll" }, table),
        h("button", { class: "primary", id: "summary-close", onclick: close }, t("continue")),
      ),
    );
  }

  // ---------------------------------------------------------------------------------------------- input
  private chooseCard(code: string, i: number): void {
    if (!this.myTurn()) return;
    if (this.card === code && this.cardIdx === i) {
      this.card = null;
      this.cardIdx = -1;
    } else {
      this.card = code;
      this.cardIdx = i;
    }
    this.loose = [];
    this.builds = [];
    this.group = null;
    this.pkgPick = null;
    this.draw();
    this.focusSel(`.hand-card[data-idx="${i}"]`);
  }

  private toggleLoose(i: number): void {
    const k = this.loose.indexOf(i);
    if (k >= 0) this.loose.splice(k, 1);
    else this.loose.push(i);
    this.draw();
    this.focusSel(`.table-card[data-idx="${i}"]`);
  }

  private toggleBuild(id: string): void {
    const k = this.builds.indexOf(id);
    if (k >= 0) this.builds.splice(k, 1);
    else this.builds.push(id);
    this.draw();
    this.focusSel(`.build[data-build="${id}"]`);
  }

  private focusSel(sel: string): void {
    (this.root.querySelector(sel) as HTMLElement | null)?.focus();
  }

  private play(text: string): void {
    this.ctx.send(text);
  }

  key(e: KeyboardEvent): boolean {
    if (!this.msg) return false;
    if (this.summaryOpen !== null) {
      if (e.key === "Escape" || e.key === "Enter") {
        this.summaryOpen = null;
        this.keepSummary();
        this.draw();
        return true;
      }
      return false;
    }
    const hand: string[] = this.v.hand ?? [];
    if (/^[1-9]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const i = Number(e.key) - 1;
      if (i < hand.length) {
        // the chosen card's number again performs the proposed action, as Enter does (and as in Cribbage's
        // pegging: the same keys in both games, issue #11 item 6) -- a move of this card (never the hint's move
        // of another card); with no such action proposed it un-chooses the card
        const again = this.myTurn() && this.card === hand[i] && this.cardIdx === i;
        const action = again ? proposed(this.root.closest<HTMLElement>(".gamepage") ?? document.body) : null;
        const move = action?.dataset.move ? parseMove(action.dataset.move) : null;
        if (action && move && move.card === hand[i]) action.click();
        else this.chooseCard(hand[i], i);
        return true;
      }
    }
    if (e.key === "Escape") {
      // an opened group closes first (the focus back on its button); then the chosen card is put back (the
      // focus on it, not lost to the page)
      if (this.group !== null) {
        this.openGroup(null);
        return true;
      }
      const idx = this.cardIdx;
      this.card = null;
      this.cardIdx = -1;
      this.loose = [];
      this.builds = [];
      this.group = null;
      this.pkgPick = null;
      this.draw();
      if (idx >= 0) this.focusSel(`.hand-card[data-idx="${idx}"]`);
      return true;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const el = document.activeElement as HTMLElement | null;
      const row = el?.dataset?.row;
      if (!row) return false;
      const all = Array.from(this.root.querySelectorAll<HTMLElement>(`[data-row="${row}"]:not([disabled])`));
      const i = all.indexOf(el!);
      const n = all[(i + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length];
      n?.focus();
      return true;
    }
    if (e.key === "ArrowUp" || e.key === "ArrowDown") {
      const el = document.activeElement as HTMLElement | null;
      const row = el?.dataset?.row;
      if (!row) return false;
      const target = row === "hand" ? "table" : "hand";
      (this.root.querySelector<HTMLElement>(`[data-row="${target}"]:not([disabled])`) ?? null)?.focus();
      return true;
    }
    const focused = document.activeElement;
    const onChosenCard = focused instanceof HTMLElement && focused.matches(".hand-card.chosen");
    if (e.key === "Enter" && (onChosenCard || !(focused instanceof HTMLButtonElement))) {
      // the one move proposed (an opened build's chooser may propose the same move as the button above it)
      const exact = Array.from(this.root.querySelectorAll<HTMLButtonElement>(".move.legal"));
      if (exact.length && new Set(exact.map((b) => b.dataset.move)).size === 1) {
        exact[0].click();
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------------------------------------- words
  describeMove(m: MulleMove, withCard = true): string {
    return describeMove(m, withCard);
  }

  /** An event in a whole sentence (kortbord/i18n/mulle.json line.*): seats by name, cards as A♠, each kind of move
   * in its own words; "" for a capture its play already said (`prev`, the event before it). */
  describe(ev: Json, prev?: Json): string | null {
    const fmt = this.ctx.fmt();
    const teams = Boolean(this.v.teams);
    return eventLine("mulle", ev, fmt, { prev, teams, sideName: (s) => (teams ? this.sideName(s) : fmt.name(s)) }) || null;
  }

  mover(events: Json[]): number | null {
    const p = events.find((e) => e.kind === "play");
    return p ? p.seat : null;
  }

  replay(events: Json[]): void {
    void events; // the view holds the whole table; the round summaries are in view.round_log
  }

  /** The game-over details: the points of every round per side, and a chart of the running totals. */
  overDetails(): HTMLElement[] {
    const log: Json[][] = this.v.round_log ?? [];
    if (!log.length) return [];
    const sides = log[0].length;
    const names = Array.from({ length: sides }, (_, s) => this.sideName(s));
    const table = h("table", { class: "summary per-round", id: "per-round" });
    table.append(h("thead", {}, h("tr", {}, h("th", {}, t("perRound")), names.map((n) => h("th", {}, n)))));
    // Each round in words, not a bare row of totals: what the points came from (cards taken, card points, mulles,
    // tabbe, the surplus bonus where it is played), then the round's total (spec §2.11).
    const body = h("tbody");
    log.forEach((rows, i) => {
      body.append(h("tr", { class: "round-head" }, h("th", { scope: "rowgroup", colspan: String(sides + 1) }, t("roundN", { n: i + 1 }))));
      for (const item of OVER_ITEMS) {
        if (!rows.some((r) => item in r)) continue;
        const cell = (r: Json): string => {
          if (item === "mulle_points") {
            const ms: Json[] = r.mulle ?? [];
            return ms.length ? `${r.mulle_points ?? 0} (${ms.map((m) => short(m.card)).join(" ")})` : String(r.mulle_points ?? 0);
          }
          return String(r[item] ?? 0);
        };
        body.append(
          h("tr", { class: `it-${item}`, "data-round": String(i + 1) }, h("th", { scope: "row" }, t(`it_${item}` as Key)), rows.map((r) => h("td", {}, cell(r)))),
        );
      }
    });
    table.append(body);
    const totals = names.map((_, s) => log.reduce((a, r) => a + (r[s]?.total ?? 0), 0));
    table.append(h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("gameScore")), totals.map((x) => h("td", {}, String(x))))));
    const series = names.map((_, s) => {
      const out = [0];
      for (const r of log) out.push(out[out.length - 1] + (r[s]?.total ?? 0));
      return out;
    });
    const target = Number(String(this.v.rules?.game_length ?? "").split(":")[1]) || undefined;
    return [
      h("div", { class: "scroll-x" }, table),
      h("button", { class: "small", id: "over-rounds", onclick: () => this.openSummary(log.length - 1) }, t("roundHistory")),
      // one round: the line over the rounds would be one straight segment -- its points by kind instead, as bars
      log.length === 1
        ? barFigure(
            BAR_ITEMS.filter((item) => log[0].some((r: Json) => item in r)).map((item) => ({ label: t(`it_${item}` as Key), values: log[0].map((r: Json) => Number(r[item] ?? 0)) })),
            names,
            t("chartRoundParts"),
          )
        : chartFigure(series, names, { title: t("chartTitle"), target, xLabel: t("chartRound") }),
    ];
  }
}

/** A wide screen (style.css's width for the tags beside the builds). */
const WIDE_TABLE = window.matchMedia("(min-width: 561px)");

/** The share of a card's width its corner index takes, from the left edge to the right of the rank and the suit
 * (the card art, public/cards: the rank's box ends at x = -82.4 of the face's -120..120). */
const CORNER = 37.6 / 240;

/** The narrowest a build's tag beside its cards may be (rem): narrower, the tags go under the cards. */
const MIN_TAG_REM = 6.5;

/** A small sail boat (the båt call) as inline SVG: no font has to carry an emoji. */
function boatIcon(): HTMLElement {
  const span = h("span", { class: "icon", "aria-hidden": "true" });
  span.innerHTML =
    '<svg viewBox="0 0 16 16" width="14" height="14"><path d="M8 1v9H3z" fill="currentColor"/><path d="M9 3l4 7H9z" fill="currentColor" opacity=".7"/><path d="M1 11h14l-2 3H3z" fill="currentColor"/></svg>';
  return span;
}

/** A build a move uses, in words: "the build of 9" when the move tells its value, else "the build". */
function buildWords(value: number | undefined): string {
  return value === undefined ? t("theBuild") : t("buildOf", { v: value });
}

/** A Mulle move in words ("A♠: Capture A♠ K♣", "Trail 9♥", "8♣: Capture 3♠ 5♦ and the build of 8"), from the
 * page's move words (mv_*): cards with suit symbols, builds by value, never notation. */
/** More other moves than this and the list of a chosen card's moves is grouped (groupMoves). */
const GROUP_OVER = 6;

/** A chosen card's moves grouped the way a player thinks of them: all its captures; each build (the same value on
 * the same table card) with its ways of packing; each package onto the same build with its ways of packing; every
 * other move on its own.  The groups keep the moves' order (their first move's place). */
export function groupMoves(moves: MulleMove[]): { key: string; moves: MulleMove[] }[] {
  const out = new Map<string, MulleMove[]>();
  for (const m of moves) {
    const key =
      m.kind === "C" ? `C ${m.card}` : m.kind === "B" ? `B ${m.card} ${m.on} ${m.value}` : m.kind === "P" ? `P ${m.card} ${m.on} ${m.builds[0]}` : m.text;
    const g = out.get(key);
    if (g) g.push(m);
    else out.set(key, [m]);
  }
  return [...out].map(([key, ms]) => ({ key, moves: ms }));
}

/** A group of a chosen card's moves in words: what they share and how many ways there are ("Build 12 on A♦ (4
 * ways)"); the list's label names the card. */
function groupWords(m: MulleMove, n: number): string {
  if (m.kind === "C") return t("grpC", { n });
  if (m.kind === "B") return t("grpB", { v: m.value!, on: short(m.on!), n });
  return t("grpP", { card: short(m.card), on: short(m.on!), n });
}

export function describeMove(m: MulleMove, withCard = true): string {
  const card = short(m.card);
  const by = withCard ? `${card}: ` : "";
  switch (m.kind) {
    case "C": {
      const items = [...m.loose.map(short), ...m.builds.map(() => buildWords(handValue(m.card)))];
      // listed as the log lists them: "A♥, 2♦ och K♦" (words.ts joinAnd)
      return `${by}${t("mv_C", { items: joinAnd("mulle", items, lang()) })}`;
    }
    case "T":
      return t("mv_T", { card });
    case "B":
      return `${by}${m.pkg.length ? t("mv_Bpkg", { v: m.value!, on: short(m.on!), pkg: joinAnd("mulle", m.pkg.map(([a, b]) => `${short(a)}+${short(b)}`), lang()) }) : t("mv_B", { v: m.value!, on: short(m.on!) })}`;
    case "R":
      return `${by}${t("mv_R", { v: m.value! })}`;
    case "D":
      return `${by}${t("mv_D", { v: m.value! })}`;
    case "P":
      return `${by}${m.pkg.length ? t("mv_Ppkg", { card, on: short(m.on!), pkg: joinAnd("mulle", m.pkg.map(([a, b]) => `${short(a)}+${short(b)}`), lang()) }) : t("mv_P", { card, on: short(m.on!) })}`;
    case "L":
      return `${by}${t("mv_L", {})}`;
  }
}

/** A move said inside a sentence, as a refused move's reason says it ("you can capture 6♥ with 6♦"): the move's
 * words starting in lower case, the hand card after them ("with 6♦" / "med 6♦"); `withCard` false leaves it out
 * (the sentence names the card already).  Null when it is not a Mulle move the page knows. */
export function inlineNotation(notation: string, withCard = true): string | null {
  const m = parseMove(notation);
  if (!m) return null;
  const said = describeMove(m, false);
  const head = said.charAt(0).toLocaleLowerCase(lang()) + said.slice(1);
  return m.kind === "T" || !withCard ? head : `${head} ${t("withCard", { card: short(m.card) })}`;
}

/** The build `id` of the table ("B1") in words, "the build of 16", or null when the view has no such build. */
export function buildName(view: Json, id: string): string | null {
  const b = (view?.builds ?? []).find((x: Json) => x.id === id);
  return b ? buildWords(b.value) : null;
}

/** A move in notation described in words, or null when it is not a Mulle move the page knows. */
export function describeNotation(notation: string): string | null {
  const m = parseMove(notation);
  return m ? describeMove(m) : null;
}

// Values used by the page's hints (spec §2.1), exported for the tests of the notation helpers.
export { handValue };
