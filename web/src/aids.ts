// The aids on the page (issue #11 item 7), each switchable in the settings: the hint (the strong computer's move
// and why, asked of the server), the Cribbage discard advisor and count helper, the Mulle twin tracker, captured
// pile and who could take each build.  Every number comes from the server (kortbord/server/aids.py), computed
// from the viewer's own view; in a game between people the aids are on only when every player allows them.
import type { StateMsg } from "./api";
import { h, clear } from "./dom";
import { aw } from "./aidwords";
import { handValue, short } from "./cards";
import { aidOn, onSettings } from "./settings";
import { describeNotation } from "./mulle";
import { parseMove } from "./mullenotation";
import { decimal, joinAnd, type Fmt } from "./words";
import { lang, t } from "./i18n";
import { gameKey } from "./keep";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SUIT: Record<string, string> = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

/** The cards a line of the page names (as the page shows them, "10♦ J♣") in notation ("TD", "JC"). */
function cardCodes(text: string): string[] {
  return Array.from(text.matchAll(/(10|[2-9AJQK])([♠♥♦♣])/g), (m) => (m[1] === "10" ? "T" : m[1]) + SUIT[m[2]]);
}

export interface AidHost {
  send(msg: unknown): void;
  move(notation: string): void;
  /** Choose these cards on the table for the move, without making it (Table.choose). */
  choose(cards: string[]): void;
  state(): StateMsg | null;
  fmt(): Fmt;
  name(seat: number): string;
}

/** A phone's width (aids.css's): the hint is placed over the table there. */
const PHONE = window.matchMedia("(max-width: 560px)");

export class Aids {
  el = h("div", { class: "aids-wrap", id: "aids" });
  /** The post-game review's place: the game-over panel shows it (gamepage.ts), so no dialog hides it. */
  reviewEl = h("div", { class: "review-wrap" });
  private allowed = false;
  private agreed: number[] = [];
  private humans: number[] = [];
  private hint: Json = null;
  private asking = false;
  private advice: Json = null;
  /** The last advice of an older state: drawn hidden until the new one comes, so the aids' line keeps its height
   * (the table below it does not jump at every move). */
  private staleAdvice: Json = null;
  private observer: MutationObserver | null = null;
  private advisorOpen = false;
  private review: Json = null;
  private reviewAsked = false;

  private unsubscribe: () => void;
  /** A new width (a window resized, a phone turned) fits the open hint again. */
  private onResize = (): void => this.fit();

  constructor(private host: AidHost) {
    window.addEventListener("resize", this.onResize);
    // A changed setting shows or hides the aids at once (and asks for numbers an aid now needs).
    this.unsubscribe = onSettings(() => {
      this.request();
      this.draw();
      if (this.tableRoot) this.decorate(this.tableRoot);
    });
  }

  /** Watch the table's redraws to put the marks of the aids back on its cards. */
  private tableRoot: HTMLElement | null = null;

  watch(tableRoot: HTMLElement): void {
    this.tableRoot = tableRoot;
    this.observer?.disconnect();
    this.observer = new MutationObserver(() => this.decorate(tableRoot));
    this.observer.observe(tableRoot, { childList: true, subtree: true });
  }

  destroy(): void {
    window.removeEventListener("resize", this.onResize);
    this.observer?.disconnect();
    this.unsubscribe();
  }

  onOpen(): void {
    this.host.send({ type: "aids" });
  }

  onMessage(m: Json): boolean {
    if (m.type === "aids") {
      this.allowed = Boolean(m.allowed);
      this.agreed = m.agreed ?? [];
      this.humans = m.humans ?? [];
      this.request();
      this.restoreHint();
    } else if (m.type === "hint") {
      this.asking = false;
      if (m.version === this.host.state()?.version) {
        this.hint = m;
        sessionStorage.setItem(gameKey("hintOpen"), String(m.version)); // open over a reload of this state
      }
    } else if (m.type === "review") {
      this.review = m;
    } else if (m.type === "advice") {
      if (m.version === this.host.state()?.version) this.advice = m;
    } else return false;
    this.draw();
    if (this.tableRoot) this.decorate(this.tableRoot);
    return true;
  }

  /** A new state: forget the old hint, ask for the aids' numbers.  The first state of a connection carries the
   * aids' status and (Mulle) this state's numbers (server sessions.aids_parts): the aids' line is drawn whole with
   * the table at once, never a round trip later, pushing the table down. */
  onState(m: StateMsg): void {
    if (this.hint && this.hint.version !== m.version) this.hint = null;
    if (this.advice && this.advice.version !== m.version) {
      this.staleAdvice = this.advice;
      this.advice = null;
    }
    const first = m as StateMsg & { aids?: Json; advice?: Json };
    if (first.aids) {
      this.allowed = Boolean(first.aids.allowed);
      this.agreed = first.aids.agreed ?? [];
      this.humans = first.aids.humans ?? [];
    }
    if (first.advice && first.advice.version === m.version) this.advice = first.advice;
    this.request();
    this.restoreHint();
    this.draw();
  }

  private myTurn(): boolean {
    const m = this.host.state();
    if (!m || m.seat === null || m.status !== "playing") return false;
    const v = m.view ?? {};
    return (v.to_move ?? v.to_act) === m.seat;
  }

  private request(): void {
    const m = this.host.state();
    if (m && m.status === "over" && m.seat !== null && this.allowed && aidOn("review") && !this.reviewAsked) {
      this.reviewAsked = true;
      this.host.send({ type: "review" });
    }
    if (!m || !this.allowed || m.seat === null || m.status === "over") return;
    const v = m.view ?? {};
    // (the numbers of this very state already here -- they came with it -- are not asked for again)
    if (m.game === "mulle" && (aidOn("twins") || aidOn("pile") || aidOn("takers")) && this.advice?.version !== m.version) this.host.send({ type: "advice" });
    if (m.game === "cribbage" && aidOn("advisor") && v.phase === "discard" && this.myTurn()) this.host.send({ type: "advice" });
  }

  /** The hint open before a reload of this very state (keep.ts): asked for again, so it is open again. */
  private restoreHint(): void {
    const m = this.host.state();
    if (m && !this.hint && !this.asking && sessionStorage.getItem(gameKey("hintOpen")) === String(m.version)) this.askHint();
  }

  /** Close the open hint (its × button, Escape): true when one was open.  Asking again shows it again. */
  closeHint(): boolean {
    if (!this.hint || !this.myTurn()) return false;
    this.hint = null;
    sessionStorage.removeItem(gameKey("hintOpen"));
    this.draw();
    (document.getElementById("hint-btn") as HTMLElement | null)?.focus();
    return true;
  }

  askHint(): void {
    if (!this.allowed || !aidOn("hint") || !this.myTurn() || this.asking) return;
    this.asking = true;
    this.host.send({ type: "hint" });
    this.draw();
  }

  private hintText(): string {
    const m = this.host.state()!;
    const r = this.hint.reason ?? {};
    const why = aw(`hint.${m.game}.${r.code}`, r, this.host.fmt());
    if (m.game === "mulle") return `${describeNotation(this.hint.move) ?? ""}: ${why}`;
    return why;
  }

  draw(): void {
    clear(this.el);
    clear(this.reviewEl);
    const m = this.host.state();
    this.el.classList.toggle("hint-slot", !!m && m.seat !== null && this.allowed && aidOn("hint") && m.status === "playing");
    if (!m || m.seat === null) return;
    const bar = h("div", { class: "aidbar" });
    if (this.humans.length > 1) {
      const mine = this.agreed.includes(m.seat);
      bar.append(
        h(
          "label",
          { class: "check agree" },
          h("input", { type: "checkbox", id: "aids-agree", checked: mine, onchange: (e: Event) => this.host.send({ type: "aids", agree: (e.target as HTMLInputElement).checked }) }),
          " ",
          aw("ui.aidsAgree"),
        ),
      );
      if (!this.allowed) bar.append(h("span", { class: "muted" }, aw("ui.aidsWaiting", { n: this.agreed.length, m: this.humans.length })));
    }
    if (this.allowed && aidOn("hint") && m.status === "playing") {
      // there on the other players' turns too (not to be pressed), so the line does not change its height
      const mine = this.myTurn();
      bar.append(h("button", { class: "ghost small", id: "hint-btn", disabled: this.asking || !mine, onclick: () => this.askHint() }, aw("ui.hint"), this.asking ? " …" : ""));
    }
    // the pile and the twins' key from this state's advice; until it comes, the last one's words hold their place
    const advice = this.advice ?? (this.staleAdvice && m.status === "playing" ? this.staleAdvice : null);
    const stale = !this.advice ? " stale" : "";
    if (this.allowed && m.game === "mulle" && aidOn("pile") && advice?.pile) {
      const p = advice.pile;
      bar.append(h("span", { class: `aid-pile${stale}`, id: "aid-pile" }, aw("ui.myPile", { team: Boolean(m.view?.teams), cards: p.cards, points: p.card_points, mulle: p.mulle_points, tabbe: p.tabbe, total: p.total })));
    }
    if (this.allowed && m.game === "mulle" && aidOn("twins") && advice?.unseen) {
      bar.append(h("span", { class: `muted aid-twins${stale}`, id: "aid-twins", title: aw("ui.twinsHelp") }, h("i", { class: "twin-dot" }), ` ${aw("ui.twinUnseen")}`));
    }
    if (bar.childNodes.length) this.el.append(bar);
    if (this.hint && this.myTurn()) {
      this.el.append(
        h(
          "section",
          { class: "panel hint", id: "hint", "aria-live": "polite" },
          h("span", { class: "hint-text", title: `${aw("ui.hintTitle")}: ${this.hintText()}` }, h("b", {}, aw("ui.hintTitle"), ": "), this.hintText()),
          // no move under Muggins in the show: the count is the player's task, the hint only says so
          this.hint.move ? " " : null,
          this.hint.move ? h("button", { class: "primary small", id: "hint-play", "data-move": this.hint.move, onclick: () => this.host.move(this.hint.move) }, aw("ui.hintPlay", this.hint.reason ?? {})) : null,
          // fresh w9 finding 6: the hint stayed until the move was made, with no way to put it away
          h("button", { class: "ghost small hint-close", id: "hint-close", "aria-label": aw("ui.hintClose"), title: aw("ui.hintClose"), onclick: () => this.closeHint() }, "×"),
        ),
      );
      this.fit();
    }
    if (this.allowed && m.game === "cribbage" && aidOn("advisor") && this.advice?.discards && this.myTurn()) this.el.append(this.advisor());
    clear(this.reviewEl);
    if (m.status === "over" && this.reviewAsked && aidOn("review")) this.reviewEl.append(this.reviewPanel());
  }

  /** The open hint fitted to its place for the screen's width and the game: a phone's (placeHint, fitHint) or a
   * wide screen's two-line slot (fitSlot). */
  private fit(): void {
    const m = this.host.state();
    const hint = this.el.querySelector<HTMLElement>("#hint");
    if (!m || !hint) return;
    // what the other width's fitting left (a phone turned, a window resized)
    hint.classList.remove("fit1", "fit2", "slot1", "slot2", "spill", "on-felt");
    hint.style.top = hint.style.marginBottom = "";
    if (!PHONE.matches) this.fitSlot();
    else if (m.game === "cribbage") requestAnimationFrame(() => this.placeHint());
    else this.fitHint();
  }

  /** A wide screen: the hint's column of the aids' line is two lines high (aids.css) whether a hint shows or not,
   * so asking moves nothing.  A hint whose words need more (a build with three packets, say, in Swedish: seen in
   * CI as three lines clamped to two at 1280x800) is set in smaller type (slot1: two lines; slot2: three) and, if
   * still longer, opens down over what lies below its column (spill, the slot's height kept by a negative margin)
   * instead of being cut. */
  private fitSlot(): void {
    const hint = this.el.querySelector<HTMLElement>("#hint");
    const text = hint?.querySelector<HTMLElement>(".hint-text");
    if (!hint || !text) return;
    const cut = (): boolean => text.scrollHeight > text.clientHeight + 1 || text.scrollWidth > text.clientWidth + 1;
    for (const cls of ["slot1", "slot2"]) {
      if (!cut()) return;
      hint.classList.remove("slot1", "slot2");
      hint.classList.add(cls);
    }
    if (!cut()) return;
    const slot = hint.getBoundingClientRect().height;
    hint.classList.add("spill");
    hint.style.marginBottom = `${slot - hint.getBoundingClientRect().height}px`;
  }

  /** A phone at the Mulle table: the hint lies in the band at the foot of the aids' room (aids.css), which holds
   * three lines of its words; a longer hint (a long move in Swedish, say) is set in smaller type until it fits the
   * band (fit1, fit2) instead of growing up over the pile and the twins' key (seen in CI: 13 px over them). */
  private fitHint(): void {
    const hint = this.el.querySelector<HTMLElement>("#hint");
    if (!hint) return;
    hint.classList.remove("fit1", "fit2");
    const band = parseFloat(getComputedStyle(this.el).paddingBottom) || 0;
    if (!band) return;
    for (const cls of ["fit1", "fit2"]) {
      if (hint.getBoundingClientRect().height <= band + 1) return;
      hint.classList.remove("fit1", "fit2");
      hint.classList.add(cls);
    }
  }

  /** A phone at the Cribbage table: the hint lies over the foot of the table's felt (its free room under the
   * starter and the cards of the play), not over the pegboard, the score line and the opponent's seat right under
   * the aids' line (fresh w9 finding 6); asking for it still moves nothing. */
  private placeHint(): void {
    const hint = this.el.querySelector<HTMLElement>("#hint");
    const felt = document.querySelector<HTMLElement>(".cribbage .center.table");
    if (!hint || !felt || !PHONE.matches) return;
    const base = this.el.getBoundingClientRect().top;
    const f = felt.getBoundingClientRect();
    hint.style.top = `${Math.round(Math.max(f.top, f.bottom - hint.offsetHeight - 6) - base)}px`;
    hint.classList.add("on-felt");
  }

  /** A move in words for the review: Mulle described, Cribbage cards as A♠ ("discard 5H 5S" -> "5♥ 5♠"). */
  private moveWords(notation: string): string {
    const m = this.host.state()!;
    if (m.game === "mulle") return describeNotation(notation) ?? notation;
    if (notation === "go") return t("go");
    return notation.replace(/^discard\s+/, "").split(/\s+/).map(short).join(" ");
  }

  /** A Mulle move of the review in words as the log says them: what you did ("you laid 8♦ on the table") or what
   * the computer would do ("the computer would take 8♣ with 8♦"), review.mulle.did / would of the catalogue. */
  private mulleWords(notation: string, form: "did" | "would"): string {
    const mv = parseMove(notation);
    if (!mv) return describeNotation(notation) ?? notation;
    const items = [...mv.loose.map(short), ...mv.builds.map(() => t("buildOf", { v: handValue(mv.card) }))];
    const kind = mv.kind === "B" && mv.pkg.length ? "Bpkg" : mv.kind;
    const pkg = joinAnd("mulle", mv.pkg.map(([a, b]) => `${short(a)}+${short(b)}`), lang());
    return aw(`review.mulle.${form}`, { kind, card: short(mv.card), items: joinAnd("mulle", items, lang()), v: mv.value ?? "", on: mv.on ? short(mv.on) : "", pkg });
  }

  private reviewRow(it: Json): string {
    const m = this.host.state()!;
    const cost = decimal(it.cost, 1, lang());
    if (m.game === "mulle") return aw("ui.reviewRowMulle", { round: it.round, deal: it.deal, played: this.mulleWords(it.played, "did"), best: this.mulleWords(it.best, "would"), cost });
    return aw("ui.reviewRow", { kind: it.kind, odds: it.chance !== undefined, one: Math.round(it.chance ?? 0) === 1, chance: decimal(it.chance ?? 0, 0, lang()), deal: it.deal, played: this.moveWords(it.played), best: this.moveWords(it.best), cost });
  }

  private reviewPanel(): HTMLElement {
    const box = h("section", { class: "panel review", id: "review", "aria-live": "polite" }, h("h3", {}, aw("ui.reviewTitle")));
    if (!this.review) {
      box.append(h("p", { class: "muted" }, aw("ui.reviewLoading")));
      return box;
    }
    const items: Json[] = this.review.items ?? [];
    if (!items.length) box.append(h("p", {}, aw("ui.reviewNone")));
    else
      box.append(
        h(
          "ul",
          {},
          items.map((it) => h("li", { "data-ply": String(it.ply) }, this.reviewRow(it))),
        ),
      );
    return box;
  }

  private advisor(): HTMLElement {
    const rows: Json[] = this.advice.discards;
    const starters = 52 - (this.host.state()!.view.hand ?? []).length;
    const table = h(
      "table",
      { class: "advisor", id: "advisor" },
      h("thead", {}, h("tr", {}, ["ui.adv.discard", "ui.adv.hand", "ui.adv.crib", "ui.adv.net"].map((k) => h("th", {}, aw(k))))),
      h(
        "tbody",
        {},
        rows.map((r, i) =>
          h(
            "tr",
            { class: i === 0 ? "best" : "", "data-discard": r.discard.join(" "), "data-hand": String(r.hand), "data-crib": String(r.crib) },
            h("td", {}, h("button", { class: "move small", onclick: () => this.host.choose(r.discard) }, r.discard.map(short).join(" "))),
            h("td", {}, decimal(r.hand, 2, lang())),
            h("td", {}, (r.own_crib ? "+" : "−") + decimal(r.crib, 2, lang())),
            h("td", {}, h("b", {}, decimal(r.net, 2, lang()))),
          ),
        ),
      ),
    );
    const best = rows[0];
    const box = h(
      "details",
      { class: "panel advisor-box", id: "advisor-box", open: this.advisorOpen },
      h(
        "summary",
        {},
        h("b", {}, aw("ui.advisorTitle")),
        best ? ` — ${aw("ui.advisorBest", { cards: best.discard.map(short).join(" "), hand: decimal(best.hand, 2, lang()), crib: (best.own_crib ? "+" : "−") + decimal(best.crib, 2, lang()) })}` : "",
      ),
      h("p", { class: "muted" }, aw("ui.advisorHelp", { n: starters })),
      h("div", { class: "scroll" }, table),
    );
    box.addEventListener("toggle", () => (this.advisorOpen = box.open));
    return box;
  }

  /** Who could take a build, in words: "can be taken by: Computer, You (maybe)", or "no one can take it". */
  private takersText(takers: Json[]): string {
    const names = takers
      .filter((t: Json) => t.can === "yes" || t.can === "maybe")
      .sort((a: Json, b: Json) => (a.can === b.can ? 0 : a.can === "yes" ? -1 : 1))
      .map((t: Json) => (t.can === "maybe" ? aw("ui.takerMaybe", { name: this.host.name(t.seat) }) : this.host.name(t.seat)));
    return names.length ? aw("ui.takenBy", { names: names.join(", ") }) : aw("ui.takenByNone");
  }

  /** The place of a build's takers' line before its words come: the longest the line can say ("can be taken by:"
   * every seat, each "(maybe)"; or "no one can take it"), laid out hidden in the same grid cell the words take
   * (aids.css), so the tag is as tall with its takers as without them. */
  private takersRoom(players: number): HTMLElement {
    const all = Array.from({ length: players }, (_, s) => ({ seat: s, can: "maybe" }));
    return h(
      "span",
      { class: "takers-room" },
      h("span", { class: "takers-ghost", "aria-hidden": "true" }, this.takersText(all)),
      h("span", { class: "takers-ghost", "aria-hidden": "true" }, this.takersText([])),
    );
  }

  /** Put the aids' marks on the table's cards (after each redraw of the table). */
  decorate(root: HTMLElement): void {
    const m = this.host.state();
    if (!m) return;
    if (m.game === "mulle") {
      const unseen = this.allowed && aidOn("twins") ? this.advice?.unseen : null;
      for (const img of Array.from(root.querySelectorAll<HTMLImageElement>(".hand img.card[data-card], .loose img.card[data-card], .builds img.card[data-card]"))) {
        const on = Boolean(unseen && unseen[img.dataset.card!] > 0);
        if (img.classList.contains("twin-unseen") !== on) img.classList.toggle("twin-unseen", on);
      }
      // Who could take each build comes with this state's advice, a round trip after the table is drawn: each
      // tag keeps the room of its takers' line from the start (the longest words the line can have, hidden), so
      // the table does not grow when the advice lands -- not while the player is choosing cards either.
      const on = this.allowed && aidOn("takers") && m.seat !== null && m.status !== "over";
      const builds: Json[] = on ? (this.advice?.builds ?? []) : [];
      if (!on) for (const el of Array.from(root.querySelectorAll(".buildtag .takers-room"))) el.remove();
      if (!builds.length) for (const el of Array.from(root.querySelectorAll(".buildtag .takers"))) el.remove();
      if (on) {
        for (const el of Array.from(root.querySelectorAll(".build[data-build] > .buildtag"))) {
          if (!el.querySelector(".takers-room")) el.append(this.takersRoom(m.view?.players ?? 2));
        }
      }
      for (const b of builds) {
        const room = root.querySelector(`.build[data-build="${b.id}"] .buildtag .takers-room`);
        if (!room || room.querySelector(".takers")) continue;
        room.append(h("span", { class: "takers", title: aw("ui.takers") }, this.takersText(b.takers)));
      }
    } else if (m.game === "cribbage" && aidOn("counthelp") && !m.view?.rules?.muggins) {
      for (const show of Array.from(document.querySelectorAll<HTMLElement>("#show-panel .show"))) {
        if (show.querySelector(".counthelp")) continue;
        const items = Array.from(show.querySelectorAll<HTMLLIElement>(".groups li"));
        if (!items.length) continue;
        // Step through the groups: the cards of each lit up in the fan, with the running total.
        let at = -1;
        let total = 0;
        const running = h("span", { class: "running" });
        const step = h("button", { class: "ghost small counthelp-step" }, aw("ui.countHelpStep"));
        const light = () => {
          items.forEach((li, i) => li.classList.toggle("now", i === at));
          const codes = new Set(cardCodes(items[at]?.textContent ?? ""));
          for (const img of Array.from(show.querySelectorAll<HTMLImageElement>(".fan img.card[data-card]")))
            img.classList.toggle("counting-now", codes.has(img.dataset.card!));
          running.textContent = at >= 0 ? aw("ui.countHelpRunning", { n: total }) : "";
          step.disabled = at >= items.length - 1;
        };
        step.addEventListener("click", () => {
          at++;
          total += Number((items[at]?.textContent ?? "").match(/(\d+)\s*$/)?.[1] ?? 0);
          light();
        });
        show.append(h("div", { class: "counthelp" }, h("b", {}, aw("ui.countHelp"), " "), step, " ", running));
        light();
      }
    }
  }
}
