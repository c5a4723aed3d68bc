// The Cribbage table: discard to the crib, the cut, the play with the running count and go, the show with
// its breakdown ("fifteen two, fifteen four..."), Muggins counting and responses, and an SVG board.
import type { StateMsg } from "./api";
import { notations } from "./api";
import { drawBoard, pegColor } from "./board";
import { backs, cardImg, cardName, cardsText, cribValue, short } from "./cards";
import { clear, h } from "./dom";
import type { Table, TableCtx } from "./gamepage";
import { clip, sentence } from "./grammar";
import { lang, t, ts, type Key } from "./i18n";
import { eventLine, eventText, pegText, plain, settleText, spokenCount, type Group } from "./words";
import { chartFigure } from "./chart";
import { focusBox } from "./keys";
import { keepChoice, keptChoice } from "./keep";

/** A wide screen (not a phone): the 121 board in two long rows of 60 holes. */
const WIDE = window.matchMedia("(min-width: 561px)");

/** Hand and crib counts no hand can make (spec §2.5: 19, 25, 26 and 27 are impossible; 29 is the most). */
const IMPOSSIBLE = new Set([19, 25, 26, 27]);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A show group's kind in words ("fifteen", "pair", "run", "flush", "nobs"). */
function groupText(g: Group): string {
  return t(`grp_${g.kind}` as Key);
}

interface ShowItem {
  seat: number;
  crib: boolean;
  cards: string[]; // the four cards, then the starter
  points: number;
  groups: Group[];
  announced?: number;
  settle?: Json; // the Muggins settle event (its outcome in words: settle.<outcome>)
}

/** The cards of a show/reveal event as the fan shows them: the four cards, then the starter. */
function shown(ev: Json): string[] {
  return [...(ev.cards ?? []), ...(ev.starter ? [ev.starter] : [])];
}

export class CribbageTable implements Table {
  root = h("div", { class: "cribbage felt" });
  private msg: StateMsg | null = null;
  private moves: string[] = [];
  private chosen: string[] = [];
  private version = -1;
  private prevScores: number[] = [];
  private lastScores: number[] = [];
  private callouts: { text: string; seat: number }[] = [];
  private shows: ShowItem[] = []; // the last show (no Muggins), shown until dismissed
  private showsDone = true; // the shows kept are a finished deal's: the next show event starts the list afresh
  private showOpen = false;
  private settled: ShowItem | null = null; // the Muggins count being settled
  private settledList: ShowItem[] = []; // this show's settled counts with their true breakdowns (M9)
  private pendingAnnounce: number | null = null;
  private countInput = "";
  private muggInput = "";

  constructor(private ctx: TableCtx) {
    // the board's rows follow the screen's width (long rows on a wide screen): the board alone is drawn again when
    // it changes -- not the table, whose count panel (its box, what is typed in it) stays as it is (w9 finding 7)
    WIDE.addEventListener("change", () => {
      if (this.msg && this.root.isConnected) this.root.querySelector(".boardbox > svg.board")?.replaceWith(this.board());
    });
    window.addEventListener("resize", () => this.fitTable());
  }

  /** Where the show panel's "dismissed" mark is kept for this game (so a reload does not reopen it). */
  private showKey(): string {
    // not from this.msg: a table built afresh (a reload, a change of language) replays before its first state, and
    // a key without the game's name never matched the one written on dismissal -- the show reopened by itself
    return `kortbord.showSeen.cribbage.${location.hash}`;
  }

  private get v(): Json {
    return this.msg!.view;
  }

  private sides(): number {
    return (this.v.side_scores ?? []).length || (this.v.rules?.players ?? 2);
  }

  private sideOf(seat: number): number {
    return this.v.seat_sides?.[seat] ?? seat;
  }

  /** A side's name: the seat's player, or in a partnership the team by its players ("You & Computer 3",
   * "Computer 2 & Computer 4"), the viewer first; ``short``: each name cut to a phone's room (the score line). */
  sideName(side: number, short = false): string {
    const me = this.ctx.seat;
    const name = (s: number) => (short ? clip(this.ctx.name(s)) : this.ctx.name(s));
    if ((this.v.rules?.players ?? 2) === 4) {
      const seats = range(0, 3).filter((s) => this.sideOf(s) === side);
      if (me !== null && seats.includes(me)) seats.sort((a, b) => Number(b === me) - Number(a === me));
      return seats.map(name).join(" & ");
    }
    return name(side);
  }

  /** The last state drawn (its JSON): the same state sent again (a resync, a reconnect) is not drawn again, so a
   * show state draws its count panel once. */
  private drawn = "";

  update(msg: StateMsg): void {
    const fresh = msg.version !== this.version;
    const same = JSON.stringify([msg.version, msg.status, msg.view, msg.seats, msg.legal_moves ?? null]);
    if (!fresh && same === this.drawn && this.root.childElementCount) return;
    this.drawn = same;
    this.msg = msg;
    this.moves = notations(msg);
    const scores: number[] = msg.view.side_scores ?? msg.view.scores ?? [];
    if (fresh) {
      this.version = msg.version;
      this.chosen = [];
      // the hand cards chosen before a reload of this very state are chosen again (still in the hand; in the
      // pegging the one card, if it still fits)
      const kept = this.myTurn() ? keptChoice(msg.version, msg.view.hand ?? []) : null;
      if (kept && msg.view.phase === "discard") this.chosen = kept.cards.slice(-this.discardCount());
      else if (kept && msg.view.phase === "play" && kept.cards.length === 1 && this.moves.includes(kept.cards[0])) this.chosen = kept.cards;
      this.countInput = "";
      this.muggInput = "";
      this.absorb(msg.events ?? []);
      for (const ev of msg.events ?? []) this.peg(ev);
      // before the history has come (the first message after connecting), the front pegs stand at the scores
      scores.forEach((sc, i) => {
        if (this.lastScores[i] !== sc) {
          this.prevScores[i] = Math.min(this.lastScores[i] ?? 0, sc);
          this.lastScores[i] = sc;
        }
      });
    }
    this.draw();
  }

  replay(events: Json[]): void {
    this.drawn = ""; // what the history restores is drawn with the next state
    this.callouts = [];
    this.shows = [];
    this.showsDone = true;
    this.showOpen = false;
    this.settled = null;
    this.settledList = [];
    this.pendingAnnounce = null;
    this.absorb(events);
    this.prevScores = [];
    this.lastScores = [];
    for (const ev of events) this.peg(ev);
    // The show panel stays open after a reload unless it was dismissed.
    const seen = sessionStorage.getItem(this.showKey());
    const deal = [...events].reverse().find((e) => e.kind === "deal")?.deal_number;
    // a finished game reopens only the show it ended in, never an earlier deal's (the game ended in the play after it)
    const lastAt = (kinds: string[]) => events.map((e) => kinds.includes(e.kind)).lastIndexOf(true);
    const stale = lastAt(["game_over"]) >= 0 && lastAt(["deal"]) > lastAt(["show", "reveal"]);
    this.showOpen = this.shows.length > 0 && !stale && seen !== String(deal);
  }

  /** One peg of the board (one peg event per part of an award, as the engine reports them): that side's rear peg jumps to
   * where its front peg stood, the front to the new score. */
  private peg(ev: Json): void {
    if (ev.kind !== "peg" || typeof ev.side !== "number") return;
    this.prevScores[ev.side] = this.lastScores[ev.side] ?? 0;
    this.lastScores[ev.side] = ev.side_score ?? ev.score ?? 0;
  }

  /** The pegging race: each side's score after every peg of the game (step 0: the start). */
  private race(events: Json[]): number[][] {
    const sides = this.sides();
    const series = Array.from({ length: sides }, () => [0]);
    for (const ev of events) {
      if (ev.kind !== "peg" || typeof ev.side !== "number") continue;
      series.forEach((s, side) => s.push(side === ev.side ? (ev.side_score ?? ev.score ?? 0) : s[s.length - 1]));
    }
    return series;
  }

  overDetails(events: Json[]): HTMLElement[] {
    const sides = this.sides();
    const names = Array.from({ length: sides }, (_, s) => this.sideName(s));
    return [chartFigure(this.race(events), names, { title: t("chartRace"), target: this.v.target })];
  }

  private absorb(events: Json[]): void {
    let newShow = false;
    const fmt = this.ctx.fmt();
    for (const ev of events) {
      if (ev.kind === "peg") {
        // one peg per part of an award (a fifteen and a pair are two pegs)
        this.callouts.push({ text: `${this.ctx.name(ev.seat)}: ${plain(pegText(ev, fmt))}`, seat: ev.seat });
      } else if (ev.kind === "go" || ev.kind === "reset") {
        const said = plain(eventText("cribbage", ev, fmt));
        this.callouts.push({ text: said.charAt(0).toUpperCase() + said.slice(1), seat: ev.kind === "go" ? ev.seat : -1 });
      } else if (ev.kind === "show") {
        // the first show after a deal starts the list: the summary is the last deal's shows only (a reload's
        // history replays every deal's)
        if (this.showsDone) this.shows = [];
        this.showsDone = false;
        newShow = true;
        this.shows.push({ seat: ev.seat, crib: Boolean(ev.crib), cards: shown(ev), points: ev.points, groups: ev.groups ?? [] });
      } else if (ev.kind === "announce") {
        this.pendingAnnounce = ev.points;
        this.settled = null;
      } else if (ev.kind === "settle") {
        // M4-M8: the settlement comes first, then the true breakdown (reveal, M9)
        this.settled = { seat: ev.seat, crib: Boolean(ev.crib), cards: [], points: ev.true, groups: [], announced: ev.announced, settle: ev };
      } else if (ev.kind === "reveal") {
        const base = this.settled && this.settled.seat === ev.seat && this.settled.crib === Boolean(ev.crib) ? this.settled : null;
        this.settled = {
          seat: ev.seat,
          crib: Boolean(ev.crib),
          announced: base?.announced ?? this.pendingAnnounce ?? undefined,
          settle: base?.settle,
          cards: shown(ev),
          points: ev.points,
          groups: ev.groups ?? [],
        };
        this.settledList.push(this.settled);
      } else if (ev.kind === "deal") {
        this.callouts = [];
        this.showsDone = true;
        if (this.settledList.length) {
          // The Muggins show is over: keep its settled counts in the show summary until dismissed.
          this.shows = this.settledList;
          newShow = true;
        }
        this.settledList = [];
        this.settled = null;
      }
    }
    if (newShow) this.showOpen = true;
    if (this.callouts.length > 6) this.callouts.splice(0, this.callouts.length - 6);
  }

  private myTurn(): boolean {
    return this.ctx.seat !== null && this.v.to_act === this.ctx.seat && this.msg!.status !== "over";
  }

  // ---------------------------------------------------------------------------------------------- drawing
  private draw(): void {
    const v = this.v;
    clear(this.root);
    this.root.dataset.version = String(this.msg!.version);
    this.root.dataset.mine = this.myTurn() ? "1" : "0";
    this.root.dataset.phase = v.phase;
    this.root.dataset.deal = String(v.deal_number);
    this.root.dataset.legal = JSON.stringify(this.myTurn() ? this.moves : []);
    // the hand cards chosen (not yet laid away or played) are kept over a reload of this state (keep.ts)
    keepChoice(this.msg!.version, this.myTurn() && (v.phase === "discard" || v.phase === "play") ? this.chosen : []);
    const me: number | null = this.ctx.seat;
    const n: number = v.rules?.players ?? v.hand_sizes.length;
    const others: number[] = [];
    for (let i = 1; i <= n; i++) {
      const s = me === null ? i - 1 : (me + i) % n;
      if (s !== me) others.push(s);
    }
    const sides = this.sides();
    const scores: number[] = v.side_scores ?? v.scores;
    const names = Array.from({ length: sides }, (_, s) => this.sideName(s));
    const boardBox = h(
      "section",
      { class: "boardbox scores", "aria-label": t("board") },
      this.board(),
      h(
        "div",
        { class: "legend" },
        names.map((nm, s) =>
          h("span", { class: "score", "data-side": String(s), title: nm }, h("i", { class: "dot", style: { background: pegColor(s) } }), `${this.sideName(s, true)}: `, h("b", {}, String(scores[s] ?? 0))),
        ),
        h("span", { class: "muted" }, `${t("target")} ${v.target}`),
        v.rules?.lowball ? h("span", { class: "badge" }, t("lowballNote")) : null,
        v.rules?.muggins ? h("span", { class: "badge" }, "Muggins") : null,
        h("span", { class: "muted deal-no" }, t("dealN", { n: v.deal_number })),
      ),
    );
    this.root.append(
      boardBox,
      h("div", { class: "opps opponents" }, others.map((s) => this.seatBox(s))),
      this.center(),
      this.actions(),
      me !== null ? this.myArea(me) : "",
    );
    if (this.showOpen && this.shows.length) this.root.append(this.showModal());
    this.fitTable();
  }

  /** The table's box holds what it shows without scrolling (three or four players leave it short: the opponents'
   * boxes take the room).  The newest callout stays in sight, and no other is shown in part -- the oldest go first,
   * the log keeps them, and if the newest alone has no room the count's cards are drawn smaller (class squeeze); a
   * count settled in the show says its groups in the spoken count only ("fifteen two, ... a pair is fourteen"),
   * their list left out (class tight), then its cards too (tighter) -- the show summary and the log have them all.
   * Looked at after each draw and when the window's size changes. */
  private fitTable(): void {
    const center = this.root.querySelector<HTMLElement>(".center");
    if (!center || !center.isConnected) return;
    const scrolls = () => center.scrollHeight > center.clientHeight + 1;
    const list = center.querySelector<HTMLElement>(":scope > .callouts");
    const below = () => !!list && list.getBoundingClientRect().bottom > center.getBoundingClientRect().bottom + 1;
    // a list cut at its foot (a phone's play with three or four players) shows no callout in part: the oldest, at
    // the foot, goes while it is not whole inside the list's box
    const cut = () =>
      !!list && list.firstElementChild!.getBoundingClientRect().bottom > list.getBoundingClientRect().bottom + 1;
    while (list && list.children.length > 1 && (scrolls() || below() || cut())) list.firstElementChild!.remove();
    // the newest alone still short of room (a two-line callout on a phone's three-player table): the count's
    // cards drawn smaller, as high as the count itself
    center.classList.remove("squeeze");
    if (list && list.children.length && (scrolls() || below() || cut())) center.classList.add("squeeze");
    const settled = Array.from(center.querySelectorAll<HTMLElement>(".settled"));
    for (const b of settled) b.classList.remove("tight", "tighter");
    for (const cls of ["tight", "tighter"]) {
      if (!settled.length || !scrolls()) break;
      for (const b of settled) b.classList.add(cls);
    }
  }

  /** The pegboard at the scores, the rear pegs where they stood, its rows as the screen's width has them. */
  private board(): Element {
    const v = this.v;
    const scores: number[] = v.side_scores ?? v.scores;
    const names = Array.from({ length: this.sides() }, (_, s) => this.sideName(s));
    return drawBoard(v.target ?? 121, scores, scores.map((_, i) => this.prevScores[i] ?? 0), names, WIDE.matches);
  }

  private seatBox(s: number): HTMLElement {
    const v = this.v;
    const played = (v.played as [number, string][]).filter(([p]) => p === s).map(([, c]) => c);
    return h(
      "div",
      { class: `seatbox ${v.to_act === s ? "active" : ""} ${(v.passed ?? []).includes(s) ? "passed" : ""}`, "data-seat": String(s) },
      h(
        "div",
        { class: "who" },
        h("i", { class: "dot", style: { background: pegColor(this.sideOf(s)) } }),
        h("strong", { class: "pname", title: this.ctx.name(s) }, this.ctx.name(s)),
        this.ctx.level(s) ? h("span", { class: "level" }, this.ctx.level(s)) : null,
        v.dealer === s ? h("span", { class: "chip dealer", title: t("dealer") }, "D") : null,
        // a partnership: the viewer's partner said in words, not only by the colour of the dot
        this.ctx.seat !== null && s !== this.ctx.seat && n4(v) && this.sideOf(s) === this.sideOf(this.ctx.seat) ? h("span", { class: "chip partner", title: t("partnerChip") }, h("span", { class: "long" }, t("partnerChip")), h("span", { class: "short" }, t("partnerShort"))) : null,
        (v.passed ?? []).includes(s) ? h("span", { class: "chip go" }, t("saidGo")) : null,
      ),
      backs(v.hand_sizes[s] ?? 0, 6),
      // the row of cards this seat played keeps its room in every phase (the seat does not grow when the play begins)
      h("div", { class: "played-row" }, played.map((c) => cardImg(c, "small"))),
    );
  }

  private center(): HTMLElement {
    const v = this.v;
    const dealerName = v.dealer !== null && v.dealer !== undefined ? this.ctx.name(v.dealer) : "";
    const deck = h(
      "div",
      { class: "deck" },
      h("div", { class: "stack" }, cardImg("back"), h("small", {}, t("stock", { n: v.stock_size }))),
      h(
        "div",
        { class: "stack starter" },
        v.starter ? cardImg(v.starter) : h("div", { class: "card slot" }),
        h("small", {}, t("starter")),
      ),
      h(
        "div",
        { class: "stack crib" },
        v.crib ? h("span", { class: "fan" }, (v.crib as string[]).map((c) => cardImg(c))) : v.crib_size ? backs(v.crib_size, 4) : h("div", { class: "card slot" }),
        // a name of up to 14 letters is never broken inside, nor from its "'s" ("Computer / 's crib" at 390 wide:
        // w9 fresh report, 14); a longer one may break anywhere, to stay under its slot
        h(
          "small",
          { class: dealerName.length <= 14 ? "whole" : "" },
          dealerName ? ts("cribOf", this.ctx.isMe(v.dealer), { name: dealerName }) : t("crib"),
        ),
      ),
    );
    const count = h(
      "div",
      { class: "countbox", "aria-live": "polite" },
      h("div", { class: "count" }, h("small", {}, t("count")), h("b", { id: "count" }, String(v.count ?? 0))),
      h("div", { class: "sequence" }, (v.sequence as string[]).map((c) => cardImg(c))),
    );
    const calls = h("ul", { class: "callouts", "aria-live": "polite" });
    for (const c of this.callouts.slice(-4)) calls.append(h("li", { style: c.seat >= 0 ? { borderColor: pegColor(this.sideOf(c.seat)) } : {} }, c.text));
    // The count and the sequence have their place from the deal on (kept empty and unseen before the play), so
    // the stock, the starter and the crib stand still when the play begins and while the sequence grows.
    const counting = v.phase === "play" || (v.sequence ?? []).length > 0;
    if (!counting) count.classList.add("idle");
    const center = h("section", { class: "center table" }, deck, v.phase === "show" && !counting ? null : count, calls);
    if (v.phase === "show" || this.settledList.length) center.append(this.mugginsBox());
    if (v.deal_number === 1 && v.phase === "discard" && (v.cuts ?? []).length) {
      const cuts = (v.cuts as string[]).map((c, s) => `${this.ctx.name(s)} ${short(c)}`).join(", ");
      center.append(h("p", { class: "muted cut" }, ts("cutForDeal", this.ctx.isMe(v.dealer), { cuts, name: dealerName })));
    }
    // while a Muggins count is under way the table shows this show's counts; the last deal's summary waits
    const underCount = v.phase === "show" && v.counting !== null && v.counting !== undefined;
    if (this.shows.length && !this.showOpen && !underCount) {
      // opened again it stays open over a reload, as the first time (the w10 fresh report: a reload closed it)
      center.append(h("button", { class: "small", id: "reopen-show", onclick: () => { this.showOpen = true; sessionStorage.removeItem(this.showKey()); this.draw(); } }, this.showTitle()));
    }
    return center;
  }

  private mugginsBox(): HTMLElement {
    const v = this.v;
    const box = h("div", { class: "muggins" });
    if (v.phase === "show" && v.counting !== null && v.counting !== undefined) {
      const what = v.counting_crib ? t("yourCribW") : t("yourHand");
      const who = ts(v.counting_crib ? "cribShow" : "showOf", this.ctx.isMe(v.counting), { name: this.ctx.name(v.counting) });
      box.append(
        h(
          "div",
          { class: "counting" },
          h("h3", {}, who, v.announced !== null && v.announced !== undefined ? ` — ${t("announcedN", { n: v.announced })}` : ""),
          h("div", { class: "fan big" }, (v.counting_cards as string[]).map((c) => cardImg(c)), v.starter ? cardImg(v.starter, "starter-in") : null),
        ),
      );
      void what;
      // my own count to announce: the last settled count (another hand) is not shown beside it on a phone -- it
      // read as the words of the hand I was counting (fresh w9 finding 5; style.css .must-count)
      if (v.counting === this.ctx.seat && (v.announced === null || v.announced === undefined)) box.classList.add("must-count");
    }
    for (const s of [...this.settledList].reverse()) {
      const what = s.crib ? t("yourCribW") : t("yourHand");
      box.append(
        h(
          "div",
          // a tap shows the whole sentence where a phone cuts it to two lines (style.css)
          {
            class: "settled reveal",
            onclick: (e: Event) => {
              const el = e.currentTarget as HTMLElement;
              el.classList.toggle("open");
              if (el.classList.contains("cut") || el.classList.contains("open")) el.setAttribute("aria-expanded", String(el.classList.contains("open")));
            },
          },
          h("h3", {}, ts("settledHeading", this.ctx.isMe(s.seat), { name: this.ctx.name(s.seat), what, a: s.announced ?? "?", t: s.points })),
          s.settle ? h("p", { class: "outcome" }, sentence(plain(settleText(this.accepted(s.settle), this.ctx.fmt())), lang())) : null,
          h("div", { class: "fan" }, s.cards.map((c, i) => cardImg(c, i === s.cards.length - 1 ? "small starter-in" : "small"))),
          h("p", { class: "callout" }, spokenCount(s.groups, lang())),
          s.groups.length ? h("ul", { class: "groups" }, s.groups.map((g) => h("li", {}, `${groupText(g)} ${cardsText(g.cards)}: ${g.points}`))) : null,
          h("p", { class: "truecount" }, h("b", {}, t("trueCount", { n: s.points }))),
        ),
      );
    }
    // a box whose sentence or outcome is cut (a phone) says so with a mark (style.css .settled.cut): a tap opens it
    requestAnimationFrame(() => {
      for (const el of Array.from(box.querySelectorAll<HTMLElement>(".settled"))) {
        if (el.classList.contains("open")) continue;
        const cut = Array.from(el.querySelectorAll<HTMLElement>(".callout, .outcome")).some((p) => p.scrollHeight > p.clientHeight + 1 || p.scrollWidth > p.clientWidth + 1);
        el.classList.toggle("cut", cut);
        if (cut) el.setAttribute("aria-expanded", "false");
      }
    });
    return box;
  }

  private myArea(me: number): HTMLElement {
    const v = this.v;
    const mine = this.myTurn();
    const hand = h("div", { class: "hand", role: "group", "aria-label": t("hand") });
    const phase = v.phase;
    (v.hand as string[]).forEach((code, i) => {
      let legal = false;
      if (mine && phase === "discard") legal = true;
      if (mine && phase === "play") legal = this.moves.includes(code);
      const chosen = this.chosen.includes(code);
      hand.append(
        h(
          "button",
          {
            class: `cardbtn hand-card ${chosen ? "chosen" : ""} ${legal ? "legal" : mine && phase === "play" ? "dim" : ""}`,
            "data-code": code,
            "data-row": "hand",
            "aria-pressed": String(chosen),
            "aria-label": `${i + 1}: ${cardName(code)}`,
            disabled: !mine || (phase !== "discard" && phase !== "play"),
            onclick: () => this.clickCard(code),
          },
          cardImg(code),
          h("span", { class: "keyhint", "aria-hidden": "true" }, String(i + 1)),
        ),
      );
    });
    const played = (v.played as [number, string][]).filter(([p]) => p === me).map(([, c]) => c);
    return h(
      "section",
      { class: `me seatbox ${mine ? "active" : ""}`, "aria-label": t("hand") },
      h(
        "div",
        { class: "who" },
        h("i", { class: "dot", style: { background: pegColor(this.sideOf(me)) } }),
        h("strong", {}, t("you")),
        v.dealer === me ? h("span", { class: "chip dealer", title: t("dealer") }, "D") : null,
        (v.passed ?? []).includes(me) ? h("span", { class: "chip go" }, t("saidGo")) : null,
        (v.discards ?? []).length ? h("span", { class: "muted" }, `${t("crib")}: `, cardsText(v.discards)) : null,
      ),
      h("div", { class: "played-row" }, played.map((c) => cardImg(c, "small"))),
      hand,
    );
  }

  private discardCount(): number {
    const d = this.moves.find((m) => m.startsWith("discard"));
    return d ? d.split(/\s+/).length - 1 : (this.v.rules?.players ?? 2) === 2 ? 2 : 1;
  }

  private actions(): HTMLElement {
    const v = this.v;
    const box = h("section", { class: "actions controls", "aria-live": "polite" });
    if (!this.myTurn()) {
      // waiting in the discard or the play: the controls keep their room (an unseen line as high as the player's
      // own), so the table does not grow when the turn passes and shrink when it comes back
      if ((v.phase === "discard" || v.phase === "play") && this.msg!.status !== "over") {
        box.classList.add("inline", "waiting");
        box.setAttribute("aria-hidden", "true");
        box.append(h("p", { class: "hint" }, "\u00a0"), h("button", { class: "ghost", tabindex: "-1", disabled: true }, "\u00a0"));
      }
      return box;
    }
    const me = this.ctx.seat!;
    if (v.phase === "discard") {
      const need = this.discardCount();
      const whose = v.dealer === me ? t("yourCrib") : t("theirCrib", { name: clip(this.ctx.name(v.dealer)) });
      const ok = this.chosen.length === need;
      box.append(
        h("p", { class: "hint" }, need === 1 ? t("chooseDiscard1") : t("chooseDiscard", { n: need })),
        h(
          "button",
          { class: `primary ${ok ? "legal" : ""}`, id: "discard", disabled: !ok, onclick: () => this.discard() },
          t("discardTo", { whose }),
          this.chosen.length ? ` (${cardsText(this.chosen)})` : "",
        ),
      );
      box.classList.add("inline");
    } else if (v.phase === "play") {
      const canGo = this.moves.includes("go");
      box.classList.add("inline");
      // a card chosen by the keyboard: the proposed action is to play it (Enter, or its number again)
      const pick = !canGo && this.chosen.length === 1 && this.moves.includes(this.chosen[0]) ? this.chosen[0] : null;
      const n = pick ? (v.hand as string[]).indexOf(pick) + 1 : 0;
      box.append(h("p", { class: "hint" }, canGo ? t("mustGo") : pick ? t("playChosen", { card: short(pick), n }) : t("playACard")));
      // Go is the move to make only when no card fits; otherwise it is a plain button (it says why not).
      box.append(
        h("button", { class: canGo ? "primary legal" : "ghost", id: "go", "aria-disabled": String(!canGo), onclick: () => this.sayGo() }, t("go")),
      );
    } else if (v.phase === "show") {
      if (this.moves.some((m) => m.startsWith("count"))) box.append(this.announcePanel());
      else if (this.moves.includes("accept")) box.append(this.respondPanel());
    }
    return box;
  }

  /** The number buttons, labelled with what the numbers are ("Points they missed:"). */
  private numberGrid(counts: number[], current: string, pickN: (n: number) => void, idPrefix: string, label: string): HTMLElement {
    const grid = h("div", { class: "numgrid", role: "group", "aria-labelledby": `${idPrefix}-grid-label` }, h("span", { class: "numgrid-label", id: `${idPrefix}-grid-label` }, label));
    for (const n of counts) {
      grid.append(
        h("button", { class: String(n) === current ? "on" : "", id: `${idPrefix}-${n}`, "aria-pressed": String(String(n) === current), onclick: () => pickN(n) }, String(n)),
      );
    }
    return grid;
  }

  private announcePanel(): HTMLElement {
    const v = this.v;
    const what = v.counting_crib ? t("yourCribW") : t("yourHand");
    const input = h("input", {
      class: "count-input",
      id: "count-input",
      type: "number",
      min: "0",
      max: "29",
      inputmode: "numeric",
      value: this.countInput,
      "aria-label": t("announceTitle", { what }),
      oninput: (e: Event) => {
        this.countInput = (e.target as HTMLInputElement).value;
        btn.textContent = announceWords(this.countInput);
      },
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === "Enter") {
          e.preventDefault();
          this.announce();
        }
      },
    });
    const btn = h("button", { class: "primary legal", id: "announce", onclick: () => this.announce() }, announceWords(this.countInput));
    return h(
      "div",
      { class: "panel announce" },
      h("div", { class: "row" }, h("h3", {}, t("announceTitle", { what })), h("span", { class: "row tight" }, input, btn)),
      h("p", { class: "hint" }, t("announceHelp")),
      this.numberGrid(range(0, 29).filter((n) => !IMPOSSIBLE.has(n)), this.countInput, (n) => {
        this.countInput = String(n);
        this.draw();
        (this.root.querySelector("#announce") as HTMLElement | null)?.focus();
      }, "n", t("announceGrid", { what })),
    );
  }

  private respondPanel(): HTMLElement {
    const v = this.v;
    const input = h("input", {
      class: "count-input",
      id: "muggins-input",
      type: "number",
      min: "1",
      max: "29",
      inputmode: "numeric",
      value: this.muggInput,
      "aria-label": t("mugginsN", { n: "" }),
      oninput: (e: Event) => {
        this.muggInput = (e.target as HTMLInputElement).value;
        mbtn.textContent = mugginsWords(this.muggInput);
      },
      onkeydown: (e: KeyboardEvent) => {
        if (e.key === "Enter") {
          e.preventDefault();
          this.mugg();
        }
      },
    });
    const mbtn = h("button", { class: "move", id: "muggins", onclick: () => this.mugg() }, mugginsWords(this.muggInput));
    return h(
      "div",
      { class: "panel respond" },
      h(
        "div",
        { class: "row" },
        h("h3", {}, t("respondTitle", { name: this.ctx.name(v.counting), n: v.announced })),
        h("button", { class: "primary legal", id: "accept", onclick: () => this.ctx.send("accept") }, t("accept")),
        h("button", { class: "move", id: "overcount", onclick: () => this.ctx.send("overcount") }, t("overcount")),
        h("span", { class: "row tight" }, input, mbtn),
      ),
      h("p", { class: "hint" }, t("respondHelp")),
      // muggins N claims N points missed: the true count announced + N must be one a hand can make
      this.numberGrid(range(1, 29 - (v.announced ?? 0)).filter((n) => !IMPOSSIBLE.has((v.announced ?? 0) + n)), this.muggInput, (n) => {
        this.muggInput = String(n);
        this.draw();
        (this.root.querySelector("#muggins") as HTMLElement | null)?.focus();
      }, "m", t("mugginsGrid")),
    );
  }

  /** The show summary's name: once the next deal is dealt (its discard or play) it is the last deal's show. */
  private showTitle(): string {
    return this.v.phase === "discard" || this.v.phase === "play" ? t("lastShow") : t("theShow");
  }

  private showModal(): HTMLElement {
    const list = h("div", { class: "shows" });
    for (const s of this.shows) {
      const title = ts(s.crib ? "cribShow" : "showOf", this.ctx.isMe(s.seat), { name: this.ctx.name(s.seat) });
      list.append(
        h(
          "div",
          { class: "show" },
          // under Muggins the heading says what was announced (and pegged) beside the worth: "Your hand: 5" read as
          // the score of a player who announced 4 (fresh w9 finding 11)
          h(
            "h3",
            {},
            title,
            ": ",
            h("b", {}, s.announced !== undefined ? t("announcedWorth", { a: s.announced, t: s.points }) : String(s.points)),
          ),
          s.announced !== undefined && s.settle
            ? h("p", { class: "outcome" }, sentence(plain(settleText(this.accepted(s.settle), this.ctx.fmt())), lang()))
            : null,
          h("div", { class: "fan" }, s.cards.map((c, i) => cardImg(c, i === s.cards.length - 1 ? "small starter-in" : "small"))),
          h("p", { class: "callout" }, spokenCount(s.groups, lang())),
          s.groups.length ? h("ul", { class: "groups" }, s.groups.map((g) => h("li", {}, `${groupText(g)} ${cardsText(g.cards)}: ${g.points}`))) : null,
        ),
      );
    }
    const scroll = h("div", { class: "scroll", id: "show-scroll" }, list);
    // "More below": words drawn by the style sheet at the foot of the scrolling box (its data-more), a decoration of
    // the box, not text of the dialog
    const wrap = h("div", { class: "scroll-wrap", id: "show-scroll-wrap", "data-more": t("moreBelow") }, scroll);
    const close = () => this.closeShow();
    const modal = h(
      "div",
      { class: "modal-back", onclick: (e: Event) => e.target === e.currentTarget && close() },
      h(
        "div",
        { class: "modal panel", role: "dialog", "aria-modal": "true", "aria-labelledby": "show-h", id: "show-panel" },
        h("h2", { id: "show-h" }, this.showTitle()),
        wrap,
        h("button", { class: "primary", id: "show-close", onclick: close }, t("continue")),
      ),
    );
    // Over the next deal's hand (the show summary opens when the next deal is dealt) the dialog stands above my
    // seat, which it leaves in sight, undimmed: the last deal's result never covers the new hand.
    const place = () => {
      const me = this.root.querySelector<HTMLElement>(".me");
      const below = me && me.querySelector(".hand-card") ? Math.max(0, Math.round(window.innerHeight - me.getBoundingClientRect().top)) : 0;
      modal.classList.toggle("above-hand", below > 0);
      modal.style.setProperty("--below", `${below}px`);
    };
    // A list longer than the screen says so ("More below"), until it is scrolled to its end.
    const mark = () => {
      place();
      // a list that scrolls at all keeps a strip under it for the words (shown until its end is in sight), so
      // they never cover a line of the counts
      wrap.classList.toggle("overflows", scroll.scrollHeight > scroll.clientHeight + 4);
      wrap.classList.toggle("more", scroll.scrollTop + scroll.clientHeight < scroll.scrollHeight - 4);
    };
    scroll.addEventListener("scroll", mark, { passive: true });
    // the box and the list it scrolls (the cards' images load after the first layout and make it longer; cards
    // flying in reach past its end until they land): looked at again while the dialog is open
    const ro = new ResizeObserver(mark);
    ro.observe(scroll);
    ro.observe(list);
    requestAnimationFrame(mark);
    const timer = window.setInterval(() => {
      if (!scroll.isConnected) {
        window.clearInterval(timer);
        ro.disconnect();
      } else mark();
    }, 250);
    return modal;
  }

  // ---------------------------------------------------------------------------------------------- input
  private clickCard(code: string): void {
    const v = this.v;
    if (!this.myTurn()) {
      this.ctx.flash(t("notYourTurn"), "error");
      return;
    }
    if (v.phase === "discard") {
      const i = this.chosen.indexOf(code);
      if (i >= 0) this.chosen.splice(i, 1);
      else {
        this.chosen.push(code);
        const need = this.discardCount();
        if (this.chosen.length > need) this.chosen.shift();
      }
      this.draw();
      (this.root.querySelector(`.hand-card[data-code="${code}"]`) as HTMLElement | null)?.focus();
    } else if (v.phase === "play") {
      if (this.moves.includes(code)) this.ctx.send(code);
      else this.whyNot(code);
    }
  }

  /** Why a card of the hand may not be played now (it would pass 31). */
  private whyNot(code: string): void {
    const n = (this.v.count ?? 0) + cribValue(code);
    this.ctx.flash(n > 31 ? t("tooHigh", { card: short(code), n }) : t("illegal", { msg: short(code) }), "error");
  }

  /** The keyboard's way to play a card (a digit, Enter or Space on a focused card): as in the lay-away, the first
   * press chooses the card (drawn chosen; Enter then plays it), the same card again plays it -- a key never plays a
   * card the player has not chosen (keys11: the focus a redraw put on hand card 1 played it with the next Enter).
   * A card that does not fit says why and is not chosen.  A click or a tap still plays at once (clickCard). */
  private pickPlay(code: string): void {
    if (!this.myTurn()) {
      this.ctx.flash(t("notYourTurn"), "error");
      return;
    }
    if (!this.moves.includes(code)) {
      this.whyNot(code);
      return;
    }
    if (this.chosen.length === 1 && this.chosen[0] === code) {
      this.ctx.send(code);
      return;
    }
    this.chosen = [code];
    this.draw();
    (this.root.querySelector(`.hand-card[data-code="${code}"]`) as HTMLElement | null)?.focus();
  }

  /** The discard advisor's line chosen (`cards`: the codes to lay away): they are drawn chosen and the lay-away
   * button has the focus, so Enter or a tap there lays them away (a tap on the line never lays away at once: w9
   * fresh report, 7).  Outside the player's own discard it does nothing. */
  choose(cards: string[]): void {
    if (this.v.phase !== "discard" || !this.myTurn()) return;
    const hand = this.v.hand ?? [];
    if (cards.length !== this.discardCount() || !cards.every((c) => hand.includes(c))) return;
    this.chosen = [...cards];
    this.draw();
    (this.root.querySelector("#discard") as HTMLElement | null)?.focus();
  }

  private discard(): void {
    const want = [...this.chosen].sort().join(" ");
    const m = this.moves.find((x) => x.startsWith("discard") && x.split(/\s+/).slice(1).sort().join(" ") === want);
    this.ctx.send(m ?? `discard ${this.chosen.join(" ")}`);
  }

  private sayGo(): void {
    if (this.moves.includes("go")) this.ctx.send("go");
    else this.ctx.flash(t("mustPlay"), "error");
  }

  private announce(): void {
    const n = Number(this.countInput);
    if (this.countInput === "" || !Number.isInteger(n) || n < 0 || n > 29) {
      this.ctx.flash(t("announceHelp"), "error");
      return;
    }
    this.ctx.send(`count ${n}`);
  }

  private mugg(): void {
    const n = Number(this.muggInput);
    if (this.muggInput === "" || !Number.isInteger(n) || n < 1 || n > 29) {
      this.ctx.flash(t("respondHelp"), "error");
      return;
    }
    this.ctx.send(`muggins ${n}`);
  }

  /** Close the show summary and remember it (a reload or a change of language does not reopen it). */
  private closeShow(): void {
    this.showOpen = false;
    sessionStorage.setItem(this.showKey(), String(this.v.deal_number));
    this.draw();
    // the game ended in this show: the game-over panel it hid is in sight now, its Rematch takes the focus
    focusBox();
  }

  key(e: KeyboardEvent): boolean {
    if (!this.msg) return false;
    const target = e.target as HTMLElement | null;
    const inInput = target?.tagName === "INPUT";
    if (this.showOpen && this.shows.length && (e.key === "Escape" || (e.key === "Enter" && !inInput))) {
      this.closeShow();
      return true;
    }
    if (inInput) return false;
    const v = this.v;
    const hand: string[] = v.hand ?? [];
    if (/^[1-9]$/.test(e.key) && (v.phase === "discard" || v.phase === "play")) {
      const i = Number(e.key) - 1;
      if (i < hand.length) {
        if (v.phase === "play") this.pickPlay(hand[i]);
        else this.clickCard(hand[i]);
        return true;
      }
    }
    // The pegging: Enter or Space on a focused card with nothing chosen chooses it (the page's focus after a redraw
    // is no choice of the player's); Enter with no card focused chooses the only card that fits.  Enter with a card
    // chosen plays it (keys.ts proposed, before this).
    if ((e.key === "Enter" || e.key === " ") && v.phase === "play" && this.myTurn()) {
      const el = document.activeElement;
      if (el instanceof HTMLElement && el.matches(".hand-card") && this.root.contains(el)) {
        this.pickPlay(el.dataset.code ?? "");
        return true;
      }
      const fits = hand.filter((c) => this.moves.includes(c));
      if (e.key === "Enter" && !(el instanceof HTMLButtonElement) && fits.length === 1) {
        this.pickPlay(fits[0]);
        return true;
      }
    }
    if ((e.key === "g" || e.key === "G") && v.phase === "play") {
      this.sayGo();
      return true;
    }
    if (e.key === "Escape") {
      const had = (document.activeElement as HTMLElement | null)?.dataset?.code;
      this.chosen = [];
      this.draw();
      if (had) (this.root.querySelector(`.hand-card[data-code="${had}"]`) as HTMLElement | null)?.focus();
      return true;
    }
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      const el = document.activeElement as HTMLElement | null;
      if (!el?.dataset?.row) return false;
      const all = Array.from(this.root.querySelectorAll<HTMLElement>(`[data-row="${el.dataset.row}"]:not([disabled])`));
      const i = all.indexOf(el);
      all[(i + (e.key === "ArrowRight" ? 1 : all.length - 1)) % all.length]?.focus();
      return true;
    }
    if (e.key === "Enter" && v.phase === "discard" && this.chosen.length === this.discardCount() && !(document.activeElement instanceof HTMLButtonElement)) {
      this.discard();
      return true;
    }
    return false;
  }

  /** An accepted Muggins count with who accepted (words.ts settleText): the seats that answer the counter -- the
   * others, in a partnership the other side (spec §2.10 M3, M13, M14) -- and in a partnership that side's name. */
  private accepted(ev: Json): Json {
    if (!this.msg || ev?.kind !== "settle" || ev.outcome !== "accept" || typeof ev.seat !== "number") return ev;
    const n: number = this.v.rules?.players ?? (this.v.hand_sizes ?? []).length;
    const teams = n4(this.v);
    const by = range(0, n - 1).filter((s) => s !== ev.seat && (!teams || this.sideOf(s) !== this.sideOf(ev.seat)));
    return { ...ev, accepted_by: by, accepted_team: teams && by.length ? this.sideName(this.sideOf(by[0])) : undefined };
  }

  /** An event in the catalogue's words (kortbord/i18n/cribbage.json): seats by name, cards as A♠, the spoken
   * count from the show's groups. */
  describe(ev: Json): string | null {
    const teams = (this.msg?.view?.rules?.players ?? 2) === 4;
    return eventLine("cribbage", this.accepted(ev), this.ctx.fmt(), teams ? { sideName: (s) => this.sideName(s) } : {}) || null;
  }

  /** Under Muggins an announced count is pegged at once (spec §2.10 M2) and stays open until the other side
   * answers it (M3): said in the banner until then -- to the viewer who must answer, with the answers it has. */
  pending(): string | null {
    const v = this.msg?.view;
    if (!v || this.msg!.status !== "playing" || v.phase !== "show") return null;
    const counter = v.counting, who = v.to_act;
    if (v.announced === null || v.announced === undefined || typeof counter !== "number" || typeof who !== "number" || who === counter) return null;
    const n = v.announced;
    if (this.ctx.isMe(who)) return t("pendingYou", { name: this.ctx.name(counter), n });
    return ts("pendingOther", this.ctx.isMe(counter), { name: this.ctx.name(counter), n, who: this.ctx.name(who) });
  }

  mover(events: Json[]): number | null {
    const p = events.find((e) => ["play", "go", "discard", "announce", "response"].includes(e.kind));
    return p ? p.seat : null;
  }
}

/** Four players: two teams, partners opposite (spec §2.2). */
function n4(v: Json): boolean {
  return (v.rules?.players ?? 2) === 4;
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let n = from; n <= to; n++) out.push(n);
  return out;
}

/** The announce button's words: the action and the number ("Announce 8 points"), or what to choose first. */
function announceWords(n: string): string {
  if (!n) return t("announceNone");
  return n === "1" ? t("announceOnePt") : t("announcePts", { n });
}

/** The muggins button's words: the call and the points missed ("Muggins: 3 missed"), or what to choose first. */
function mugginsWords(n: string): string {
  return n ? t("mugginsCall", { n }) : t("mugginsNone");
}
