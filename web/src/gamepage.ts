// One game's page: the connection, whose turn, seats, invites, the log, and the game's own table.
import { GameSocket, seatFor, type ErrorMsg, type SavedSeat, type SeatSummary, type StateMsg } from "./api";
import { clear, h } from "./dom";
import { lang, t } from "./i18n";
import { MulleTable, describeNotation } from "./mulle";
import { CribbageTable } from "./cribbage";
import { short } from "./cards";
import { eventText, has, reasonText, type Fmt } from "./words";
import { Motion } from "./anim";
import { Aids } from "./aids";
import { aw } from "./aidwords";
import { focusForState, keysOverlay, proposed } from "./keys";
import { moveMs, settingsDialog } from "./settings";
import { recordGame } from "./stats";

export interface TableCtx {
  seat: number | null;
  name(seat: number): string;
  isMe(seat: number | null | undefined): boolean;
  send(notation: string): void;
  flash(text: string, kind?: "error" | "info" | "good"): void;
  /** How the catalogue's words show seats, cards and moves (kortbord/i18n, words.ts). */
  fmt(): Fmt;
}

export interface Table {
  root: HTMLElement;
  update(msg: StateMsg): void;
  key(e: KeyboardEvent): boolean;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  describe(ev: any): string | null;
  /** A scoring side's name (a team, or the seat's player). */
  sideName(side: number): string;
  /** The seat whose move produced these events, if any (to pace other players' moves). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  mover(events: any[]): number | null;
}

function pace(): number {
  const v = localStorage.getItem("kortbord.pace");
  // By default another player's moves are spaced so each card's travel is seen to its end (settings.ts).
  return v === null ? Math.max(550, moveMs() + 150) : Number(v) || 0;
}

export class GamePage {
  root = h("main", { id: "main", class: "gamepage" });
  private saved: SavedSeat | undefined;
  private socket: GameSocket | null = null;
  private table: Table | null = null;
  private msg: StateMsg | null = null;
  private queue: StateMsg[] = [];
  private busy = false;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private events: any[] = [];
  private statusEl = h("div", { class: "turn", role: "status", "aria-live": "polite" });
  private flashEl = h("div", { class: "flash", role: "alert", "aria-live": "assertive" });
  private connEl = h("div", { class: "conn" });
  private invitesEl = h("div", { class: "invites-wrap" });
  private logList = h("ol", { class: "log-list" });
  private tableWrap = h("div", { class: "table-wrap" });
  private overEl = h("div", { class: "over-wrap" });
  private flashTimer: number | undefined;
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  // Moving cards, the aids, the latest event, the computer's thinking sign, the keys (anim/aids/keys.ts).
  private motion: Motion | null = null;
  private aids: Aids;
  private lastEventEl = h("div", { class: "last-event", id: "last-event", "aria-live": "polite" });
  private thinkingEl = h("div", { class: "thinking", id: "thinking", role: "status", hidden: true });
  private overlayEl = h("div", { class: "overlay-wrap" });
  private captureKeys = (e: KeyboardEvent) => this.onKeyCapture(e);
  private toolsEl = h("div", { class: "tools" });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private lastEvents: any[] = [];

  /** The game bar's buttons: the shortcuts and the settings (in the viewer's language). */
  private drawTools(): void {
    clear(this.toolsEl);
    this.toolsEl.append(
      h("button", { class: "ghost small", id: "keys-btn", title: aw("ui.keysOpen"), "aria-label": aw("ui.keys"), onclick: () => this.openOverlay("keys") }, "?"),
      h("button", { class: "ghost small", id: "settings-btn", onclick: () => this.openOverlay("settings") }, "⚙ ", aw("ui.settings")),
    );
  }

  constructor(public gameId: string) {
    this.saved = seatFor(gameId);
    const log = h(
      "details",
      { class: "log", open: window.innerWidth > 900 },
      h("summary", {}, t("log")),
      this.logList,
    );
    this.aids = new Aids({
      send: (msg) => this.socket?.send(msg),
      move: (n) => this.socket?.move(n),
      state: () => this.msg,
      fmt: () => this.fmt(),
      name: (s) => this.name(s),
    });
    const tools = this.toolsEl;
    this.drawTools();
    this.root.append(
      h("div", { class: "gamebar" }, this.statusEl, this.thinkingEl, this.connEl, tools),
      this.lastEventEl,
      this.flashEl,
      this.aids.el,
      this.overlayEl,
      this.invitesEl,
      this.overEl,
      h("div", { class: "game-grid" }, this.tableWrap, log),
    );
    this.tableWrap.append(h("p", { class: "loading" }, t("connecting")));
    this.socket = new GameSocket(gameId, this.saved?.token, {
      onState: (m) => this.enqueue(m),
      onError: (e) => this.onError(e),
      onOther: (m) => this.aids.onMessage(m),
      onStatus: (s) => {
        if (s === "open") this.aids.onOpen();
        this.connEl.textContent = s === "open" ? "" : s === "connecting" ? t("connecting") : t("reconnecting");
      },
    });
    document.addEventListener("keydown", this.keyHandler);
    document.addEventListener("keydown", this.captureKeys, true);
  }

  destroy(): void {
    this.socket?.close();
    document.removeEventListener("keydown", this.keyHandler);
    document.removeEventListener("keydown", this.captureKeys, true);
    this.motion?.destroy();
    this.aids.destroy();
  }

  /** The shortcuts overlay or the settings dialog (one at a time). */
  openOverlay(which: "keys" | "settings" | null): void {
    clear(this.overlayEl);
    if (which === null) return;
    const close = () => {
      clear(this.overlayEl);
      this.aids.draw();
    };
    this.overlayEl.append(which === "keys" ? keysOverlay(close) : settingsDialog(close));
    (this.overlayEl.querySelector("#keys-close, #settings-close") as HTMLElement | null)?.focus();
  }

  /** Keys that mean the same in both games, before the table sees them: Enter performs the proposed action, ?
   * the shortcuts, H a hint, S the settings, Esc closes them. */
  private onKeyCapture(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tgt = e.target as HTMLElement | null;
    const typing = tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA");
    const open = this.overlayEl.firstChild !== null;
    if (e.key === "Escape" && open) {
      this.openOverlay(null);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (typing) return; // the count boxes handle their own Enter
    if (open && !["Enter", "Tab", " ", "?"].includes(e.key)) {
      e.stopPropagation(); // no card is chosen or played behind an open dialog
      return;
    }
    if (e.key === "?") {
      this.openOverlay(open ? null : "keys");
    } else if ((e.key === "h" || e.key === "H") && !open) {
      this.aids.askHint();
    } else if ((e.key === "s" || e.key === "S") && !open) {
      this.openOverlay("settings");
    } else if (e.key === "Enter") {
      const b = proposed(this.root);
      if (!b) return;
      b.click();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  rerender(): void {
    // Language changed: rebuild the table from the last state.
    if (this.msg) {
      this.table = null;
      const m = this.msg;
      this.render(m, false);
      this.drawTools();
      this.drawLastEvent(this.lastEvents);
      this.aids.draw();
    }
  }

  private ctx(): TableCtx {
    return {
      seat: this.msg?.seat ?? this.saved?.seat ?? null,
      name: (s) => this.name(s),
      isMe: (s) => s !== null && s !== undefined && s === (this.msg?.seat ?? null),
      send: (n) => this.socket?.move(n),
      flash: (text, kind = "info") => this.flash(text, kind),
      fmt: () => this.fmt(),
    };
  }

  /** Seats by the players' names (the viewer's own name when given, else "You"), cards as A♠, Mulle moves in
   * words: how the engine's codes are shown in the catalogue's words. */
  fmt(): Fmt {
    const game = this.msg?.game;
    return {
      lang: lang(),
      name: (s) => this.playerName(s),
      card: short,
      move: game === "mulle" ? describeNotation : undefined,
    };
  }

  /** A seat's name for the catalogue's sentences ("Anna plays…"): the name given at the table, a computer's
   * label, else "Seat 2" -- never "P0", and not "You" (the sentences are in the third person). */
  playerName(seat: number): string {
    const s: SeatSummary | undefined = this.msg?.seats?.find((x) => x.seat === seat);
    if (s?.name) return s.name;
    if (s?.kind === "bot") return this.name(seat);
    return t("seat", { n: seat + 1 });
  }

  name(seat: number): string {
    const me = this.msg?.seat ?? null;
    if (seat === me) return t("you");
    const s: SeatSummary | undefined = this.msg?.seats?.find((x) => x.seat === seat);
    if (!s) return `P${seat + 1}`;
    if (s.kind === "bot") return s.name || t("computer", { level: s.level ?? "" });
    return s.name || `${t("seat", { n: seat + 1 })}`;
  }

  flash(text: string, kind: string): void {
    this.flashEl.textContent = text;
    this.flashEl.className = `flash show ${kind}`;
    window.clearTimeout(this.flashTimer);
    this.flashTimer = window.setTimeout(() => (this.flashEl.className = "flash"), kind === "error" ? 7000 : 4000);
  }

  private onError(e: ErrorMsg): void {
    if (e.code === "stale_version") {
      this.socket?.send({ type: "resync" });
      return;
    }
    this.flash(this.errorText(e), "error");
  }

  /** An error in the viewer's language: the reason's code and data in the catalogue's words when the server sends
   * one, else the protocol code's words; the server's English message only in English. */
  errorText(e: ErrorMsg): string {
    const game = this.msg?.game;
    const refused = e.code === "illegal_move" || e.code === "ambiguous" || e.code === "not_your_turn";
    if (e.reason && game && has(game, `reason.${e.reason.code}`)) {
      const words = reasonText(game, e.reason, this.fmt());
      return refused ? t("illegal", { msg: words }) : `${t("error")}: ${words}`;
    }
    if (e.code === "not_your_turn") return t("notYourTurn");
    if (lang() === "en" && e.message) return refused ? t("illegal", { msg: e.message }) : `${t("error")}: ${e.message}`;
    if (refused) return t("illegalMove");
    return `${t("error")}: ${e.code}`;
  }

  private enqueue(m: StateMsg): void {
    this.queue.push(m);
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    while (this.queue.length) {
      const m = this.queue.shift()!;
      // Collapse a backlog (e.g. after a reconnect) but keep every event for the log.
      this.render(m, true);
      const mover = this.table?.mover(m.events ?? []) ?? null;
      const p = pace();
      if (this.queue.length && p > 0 && mover !== null && mover !== m.seat) {
        await new Promise((r) => setTimeout(r, p));
      }
    }
    this.busy = false;
  }

  private render(m: StateMsg, fresh: boolean): void {
    this.msg = m;
    if (!this.table) {
      this.table = m.game === "mulle" ? new MulleTable(this.ctx()) : new CribbageTable(this.ctx());
      clear(this.tableWrap);
      this.tableWrap.append(this.table.root);
      this.motion?.destroy();
      this.motion = new Motion(this.table.root);
      this.aids.watch(this.table.root);
    }
    const moved = fresh && this.table.root.dataset.version !== String(m.version);
    const before = moved ? this.motion?.snapshot() : undefined;
    // A newer state: the old banner's news is stale (errors stay until they time out).
    if (moved && !this.flashEl.classList.contains("error")) this.flashEl.className = "flash";
    if (fresh) for (const ev of m.events ?? []) this.events.push(ev);
    if (this.events.length > 300) this.events.splice(0, this.events.length - 300);
    this.table.update(m);
    if (before && this.motion) {
      const events = m.events ?? [];
      this.motion.play(before, { mover: this.table.mover(events), me: m.seat, events });
      this.drawLastEvent(events);
      focusForState(this.table.root);
    }
    this.aids.onState(m);
    recordGame(m);
    this.drawStatus(m);
    this.drawLog();
    this.drawInvites(m);
    this.drawOver(m);
  }

  /** The banner: always the latest event of the game in words (issue #11 item 2). */
  private drawLastEvent(events: unknown[]): void {
    if (!this.table) return;
    for (let i = events.length - 1; i >= 0; i--) {
      const text = this.table.describe(events[i]);
      if (text) {
        this.lastEventEl.textContent = text;
        this.lastEvents = events;
        return;
      }
    }
  }

  /** The computer's thinking sign: shown while a computer is to move. */
  private drawThinking(m: StateMsg, toAct: number | null): void {
    const s = toAct === null ? undefined : m.seats?.find((x) => x.seat === toAct);
    const on = m.status === "playing" && s?.kind === "bot";
    this.thinkingEl.hidden = !on;
    this.thinkingEl.textContent = on ? aw("ui.thinking", { name: this.name(toAct!) }) : "";
    for (const el of Array.from(this.root.querySelectorAll(".seatbox.thinking"))) el.classList.remove("thinking");
    if (on) this.root.querySelector(`.seatbox[data-seat="${toAct}"]`)?.classList.add("thinking");
  }

  private drawStatus(m: StateMsg): void {
    const me = m.seat;
    const v = m.view ?? {};
    const toAct: number | null = v.to_move ?? v.to_act ?? null;
    let text = "";
    let cls = "turn";
    if (m.status === "over" || v.phase === "over") {
      text = t("gameOver");
    } else if (m.status === "waiting") {
      const open = (m.seats ?? []).filter((s) => s.kind === "human" && !s.claimed).map((s) => this.name(s.seat));
      text = t("waitingFor", { name: open.join(", ") });
    } else if (me === null) {
      text = t("spectator");
    } else if (toAct === me) {
      text = t("yourTurn");
      cls += " mine";
    } else if (toAct !== null) {
      const s = m.seats?.find((x) => x.seat === toAct);
      text = s && s.kind === "human" && !s.claimed ? t("waitingJoin", { name: this.name(toAct) }) : t("theirTurn", { name: this.name(toAct) });
    }
    this.statusEl.textContent = text;
    this.statusEl.className = cls;
    this.drawThinking(m, m.status === "over" || v.phase === "over" ? null : toAct);
    document.title = `${text ? text + " · " : ""}kortbord`;
  }

  private drawLog(): void {
    clear(this.logList);
    if (!this.table) return;
    const lines: string[] = [];
    for (const ev of this.events) {
      const s = this.table.describe(ev);
      if (s) lines.push(s);
    }
    for (const line of lines.slice(-60).reverse()) this.logList.append(h("li", {}, line));
  }

  private drawInvites(m: StateMsg): void {
    clear(this.invitesEl);
    const open = (m.seats ?? []).filter((s) => s.kind === "human" && !s.claimed);
    const invites = this.saved?.invites ?? [];
    if (!open.length || !invites.length) return;
    const box = h("section", { class: "panel invites", "aria-label": t("invites") }, h("h2", {}, t("invites")), h("p", {}, t("inviteHelp")));
    for (const s of open) {
      const inv = invites.find((i) => i.seat === s.seat);
      if (!inv) continue;
      const url = new URL(inv.url, location.origin).toString();
      const input = h("input", { class: "invite-url", readonly: true, value: url, "data-seat": String(s.seat), "aria-label": t("seat", { n: s.seat + 1 }) });
      const btn = h("button", {}, t("copy"));
      btn.addEventListener("click", async () => {
        try {
          await navigator.clipboard.writeText(url);
        } catch {
          input.select();
          document.execCommand("copy");
        }
        btn.textContent = t("copied");
        setTimeout(() => (btn.textContent = t("copy")), 1500);
      });
      box.append(h("div", { class: "invite" }, h("span", { class: "seatname" }, t("seat", { n: s.seat + 1 })), input, btn));
    }
    this.invitesEl.append(box);
  }

  private drawOver(m: StateMsg): void {
    clear(this.overEl);
    if (m.status !== "over" && m.view?.phase !== "over") return;
    this.overEl.append(
      h(
        "section",
        { class: "panel over", id: "game-over" },
        h("h2", {}, t("gameOver")),
        h("p", { class: "result" }, this.resultText(m)),
        h("a", { class: "button primary", href: "#/" }, t("backToLobby")),
      ),
    );
  }

  /** The game-over line from data: you win/lose, the winners by name and the scores -- Cribbage's game_over event
   * in the catalogue's words (winners, skunk or double skunk, scores); after a reload, the result's winners. */
  private resultText(m: StateMsg): string {
    const v = m.view ?? {};
    const me = m.seat;
    const r: Record<string, unknown> = (m.result ?? v.result ?? {}) as Record<string, unknown>;
    const over = [...this.events].reverse().find((e) => e.kind === "game_over");
    if (m.game === "mulle") {
      const sides: number[] = (over?.winners ?? r.winners ?? v.winners ?? []) as number[];
      if (!sides.length) return t("draw");
      const side = (s: number) => (v.teams ? t("team", { n: s + 1 }) : this.playerName(s));
      const mine = me === null ? null : (v.seat_sides?.[me] ?? me);
      const head = mine === null ? "" : sides.includes(mine) ? t("youWin") : t("youLose");
      const scores: number[] = (over?.scores ?? r.scores ?? v.scores ?? []) as number[];
      const tally = scores.map((p, s) => `${side(s)} ${p}`).join(", ");
      return [head, `${t("winners", { names: sides.map(side).join(", ") })}.`, tally ? `${t("gameScore")}: ${tally}.` : ""]
        .filter(Boolean)
        .join(" ");
    }
    const winners = (over?.winners ?? r.winner_seats ?? r.winners ?? []) as number[];
    const head = me === null ? "" : winners.includes(me) ? t("youWin") : t("youLose");
    const line = over ? eventText(m.game, over, this.fmt()) : t("winners", { names: winners.map((s) => this.playerName(s)).join(", ") });
    return [head, line].filter(Boolean).join(" ");
  }

  private onKey(e: KeyboardEvent): void {
    const tgt = e.target as HTMLElement | null;
    if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA")) {
      if (!tgt.classList.contains("count-input")) return;
    }
    if (this.table?.key(e)) e.preventDefault();
  }
}

