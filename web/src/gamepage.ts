// One game's page: the connection, whose turn, the banner (the latest event), seats, invites, the log, the game
// over panel with the rematch, and the game's own table.  The page fits one screen: the regions are .opponents,
// .scores, .table, .controls and .hand (in the table), .banner and .log here.
import { api, ApiError, forgetSeat, GameSocket, saveSeat, seatFor, type ErrorMsg, type SavedSeat, type SeatSummary, type StateMsg } from "./api";
import { clear, h } from "./dom";
import { lang, t, type Key } from "./i18n";
import { MulleTable, buildName, describeNotation, inlineNotation } from "./mulle";
import { CribbageTable } from "./cribbage";
import { short } from "./cards";
import { eventText, has, plain, render, template, withoutRefs, type Fmt } from "./words";
import { Motion } from "./anim";
import { Aids } from "./aids";
import { aw } from "./aidwords";
import { defaultButton, focusBox, focusForState, keepFocus, keysOverlay, openBox, proposed } from "./keys";
import { gameKey } from "./keep";
import { moveMs, settingsDialog } from "./settings";
import { recordGame } from "./stats";
import { parseMove } from "./mullenotation";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface TableCtx {
  seat: number | null;
  /** A seat's name for labels ("You" for the viewer, the name chosen, "Computer", "Player 2"). */
  name(seat: number): string;
  /** A computer seat's level in words ("quick"), else "". */
  level(seat: number): string;
  isMe(seat: number | null | undefined): boolean;
  send(notation: string): void;
  flash(text: string, kind?: "error" | "info" | "good"): void;
  /** How the catalogue's words show seats, cards and moves (kortbord/i18n, words.ts). */
  fmt(): Fmt;
}

export interface Table {
  root: HTMLElement;
  update(msg: StateMsg): void;
  /** Rebuild what the table remembers (the show, Muggins reveals, the pegboard's rear pegs, callouts) from the
   * game's whole history, as after a reload. */
  replay(events: Json[]): void;
  key(e: KeyboardEvent): boolean;
  /** Choose these of the player's cards for the move (Cribbage: the discard advisor's line), without making it:
   * the player sees them chosen and presses the move's button (or Enter). */
  choose?(cards: string[]): void;
  /** An event's line for the log and the banner ("" or null: none); `prev` is the event before it. */
  describe(ev: Json, prev?: Json): string | null;
  /** A scoring side's name (a team, or the seat's player). */
  sideName(side: number): string;
  /** The seat whose move produced these events, if any (to pace other players' moves). */
  mover(events: Json[]): number | null;
  /** The game's part of the game-over panel: the per-round breakdown (Mulle), the chart of the scores. */
  overDetails(events: Json[]): HTMLElement[];
  /** What the table waits for, said in the banner in place of the latest event while it lasts (Cribbage: an
   * announced count pegged and open to an answer), or null. */
  pending?(): string | null;
}

function pace(): number {
  const v = localStorage.getItem("kortbord.pace");
  // By default another player's moves are spaced so each card's travel is seen to its end (settings.ts).
  return v === null ? Math.max(550, moveMs() + 150) : Number(v) || 0;
}

const GOOD = new Set(["mulle", "tabbe", "baat", "last_capture", "game_over", "round_over"]);

export class GamePage {
  root = h("main", { id: "main", class: "gamepage" });
  private saved: SavedSeat | undefined;
  /** The close code with which the server refused the connection for good (FINAL_CLOSE), else null. */
  private refused: number | null = null;
  private socket: GameSocket | null = null;
  private table: Table | null = null;
  private msg: StateMsg | null = null;
  private queue: StateMsg[] = [];
  private busy = false;
  private events: Json[] = [];
  private everOpen = false;
  private overHidden = false;
  private rematchBusy = false;
  /** The aids' line's height while the game was played: kept when the game ends (its hint button goes), so the
   * table behind the game-over panel does not move up. */
  private aidsRoom = 0;
  private statusEl = h("div", { class: "turn", role: "status", "aria-live": "polite" });
  // The banner: the latest event in words, or an error for its time (#last-event: issue #11 item 2).
  private flashEl = h("div", { class: "flash banner", id: "last-event", role: "status", "aria-live": "polite" });
  private connEl = h("div", { class: "conn", role: "alert" });
  private logBtn = h("button", { class: "ghost small log-toggle", id: "log-toggle", "aria-expanded": "false" });
  private invitesEl = h("div", { class: "invites-wrap" });
  private logEl = h("aside", { class: "log", "aria-labelledby": "log-h" });
  private logList = h("ol", { class: "log-list" });
  private tableWrap = h("div", { class: "table-wrap" });
  private overEl = h("div", { class: "over-wrap" });
  /** Another player's rematch offer, in sight at once: over a dialog that hides the game-over panel (the last
   * round's score), a strip with the offer and its button (style.css shows it only then). */
  private offerEl = h("div", { class: "offer-wrap" });
  private errorUntil = 0;
  /** Each event's line in words (events never change; cleared when the language or the seats' names do). */
  private lines = new WeakMap<object, string>();
  private namesKey = "";
  private flashTimer: number | undefined;
  private keyHandler = (e: KeyboardEvent) => this.onKey(e);
  // Moving cards, the aids, the latest event, the computer's thinking sign, the keys (anim/aids/keys.ts).
  private motion: Motion | null = null;
  private aids: Aids;
  private thinkingEl = h("div", { class: "thinking", id: "thinking", role: "status", hidden: true });
  private overlayEl = h("div", { class: "overlay-wrap" });
  private captureKeys = (e: KeyboardEvent) => this.onKeyCapture(e);
  // The ☰ menu closes on a tap or click anywhere outside it (the tap still does what it does: chooses a card ...).
  /** A click (or Enter, Space) that closed a dialog or took its own button away leaves the focus on the page's
   * body: it goes back to the table as after a redraw (focusFallen). */
  private afterClick = () => {
    setTimeout(() => {
      if (this.msg && !focusBox()) this.focusFallen(this.msg);
    }, 0);
  };

  private outsideMenu = (e: Event) => {
    const menu = this.openMenu();
    if (menu && !menu.contains(e.target as Node | null)) menu.removeAttribute("open");
  };
  private toolsEl = h("div", { class: "tools" });
  /** What had the focus when the keys list or the settings opened (it gets it back when they close). */
  private opener: HTMLElement | null = null;
  private openerKind: "keys" | "settings" = "keys";

  /** The ☰ menu when it is open, else null. */
  private openMenu(): HTMLElement | null {
    return this.toolsEl.querySelector<HTMLElement>("#game-menu[open]");
  }

  /** The game bar's buttons: the shortcuts and the settings (in the viewer's language). */
  private drawTools(): void {
    clear(this.toolsEl);
    // A phone has no room for the header's links during a game: a small menu holds them (the lobby, this game's
    // rules) with the settings and the keys, in both games (style.css shows it at widths of 700 px and less).
    const game = this.msg?.game ?? "mulle";
    const menu = h("details", { class: "game-menu", id: "game-menu" });
    const close = () => menu.removeAttribute("open");
    menu.append(
      h("summary", { class: "ghost small", id: "menu-btn", title: t("menu"), "aria-label": t("menu") }, "☰"),
      h(
        "div",
        { class: "menu-list", role: "menu" },
        h("a", { href: "#/", role: "menuitem", id: "menu-lobby", onclick: close }, t("lobby")),
        h("a", { href: `#/rules/${game}`, role: "menuitem", id: "menu-rules", onclick: close }, `${t("rules")}: ${t(game)}`),
        h("button", { class: "linklike", role: "menuitem", id: "menu-settings", onclick: () => { close(); this.openOverlay("settings"); } }, aw("ui.settings")),
        h("button", { class: "linklike", role: "menuitem", id: "menu-keys", onclick: () => { close(); this.openOverlay("keys"); } }, aw("ui.keys")),
      ),
    );
    this.toolsEl.append(menu);
    this.toolsEl.append(
      h("button", { class: "ghost small", id: "keys-btn", title: aw("ui.keysOpen"), "aria-label": aw("ui.keys"), onclick: () => this.openOverlay("keys") }, "?"),
      h("button", { class: "ghost small", id: "settings-btn", title: aw("ui.settings"), "aria-label": aw("ui.settings"), onclick: () => this.openOverlay("settings") }, "⚙", h("span", { class: "btn-word" }, " ", aw("ui.settings"))),
    );
  }

  constructor(public gameId: string) {
    this.saved = seatFor(gameId);
    this.logBtn.addEventListener("click", () => this.toggleLog());
    // A banner line cut short on a phone: a tap opens the log, where the whole line stands (the log is a drawer
    // there); on a wide screen the log column is beside it and the title shows the whole line on hover.
    // A sentence longer than the phone banner's three smallest lines is cut (an ellipsis and a "▾" mark say so): a tap shows
    // it whole over what is below, a second tap folds it again -- it never covers the buttons unasked.
    this.flashEl.addEventListener("click", (e) => {
      if ((e.target as HTMLElement).closest("a")) return;
      if (this.flashEl.classList.contains("cut") || this.flashEl.classList.contains("open")) {
        this.flashEl.classList.toggle("open");
        this.flashEl.classList.toggle("cut");
        this.flashEl.classList.toggle("fit4");
        this.flashEl.setAttribute("aria-expanded", String(this.flashEl.classList.contains("open")));
      } else if (this.logBtn.offsetParent !== null) this.toggleLog(true);
    });
    new MutationObserver(() => this.markCut()).observe(this.flashEl, { childList: true, subtree: true, characterData: true });
    this.aids = new Aids({
      send: (msg) => this.socket?.send(msg),
      move: (n) => this.socket?.move(n),
      choose: (cards) => this.table?.choose?.(cards),
      state: () => this.msg,
      fmt: () => this.fmt(),
      name: (s) => this.name(s),
    });
    this.drawTools();
    this.root.append(
      h("div", { class: "gamebar" }, this.statusEl, this.thinkingEl, this.flashEl, this.logBtn, this.toolsEl),
      this.connEl,
      this.aids.el,
      this.overlayEl,
      this.invitesEl,
      h("div", { class: "game-grid" }, this.tableWrap, this.logEl),
      this.overEl,
      this.offerEl,
    );
    this.drawLogFrame();
    if (sessionStorage.getItem(gameKey("logOpen")) === "1") this.toggleLog(true); // open before a reload (a phone's sheet)
    this.tableWrap.append(h("p", { class: "loading" }, t("connecting")));
    this.socket = new GameSocket(gameId, this.saved?.token, {
      onState: (m) => this.enqueue(m),
      onError: (e) => this.onError(e),
      onOther: (m) => this.aids.onMessage(m),
      onStatus: (s) => {
        if (s === "open") this.aids.onOpen();
        this.onStatus(s);
      },
      onRefused: (code) => {
        this.refused = code;
        this.drawRefused();
      },
    });
    document.addEventListener("keydown", this.keyHandler);
    document.addEventListener("keydown", this.captureKeys, true);
    document.addEventListener("pointerdown", this.outsideMenu, true);
    document.addEventListener("click", this.afterClick);
    document.body.classList.add("in-game");
  }

  destroy(): void {
    this.socket?.close();
    document.removeEventListener("keydown", this.keyHandler);
    document.body.classList.remove("in-game");
    document.removeEventListener("keydown", this.captureKeys, true);
    document.removeEventListener("pointerdown", this.outsideMenu, true);
    document.removeEventListener("click", this.afterClick);
    this.motion?.destroy();
    this.aids.destroy();
  }

  /** The shortcuts overlay or the settings dialog (one at a time). */
  openOverlay(which: "keys" | "settings" | null): void {
    const wasOpen = this.overlayEl.firstChild !== null;
    clear(this.overlayEl);
    if (which === null) {
      if (wasOpen) this.refocusOpener();
      return;
    }
    // the control that opened it (the ? or ⚙ button, a card when a key opened it) gets the focus back on closing
    const active = document.activeElement;
    if (!wasOpen) this.opener = active instanceof HTMLElement && active !== document.body ? active : null;
    this.openerKind = which;
    const close = () => {
      clear(this.overlayEl);
      this.aids.draw();
      this.refocusOpener();
    };
    this.overlayEl.append(which === "keys" ? keysOverlay(close, (this.msg?.view?.hand ?? []).length || (this.msg?.game === "mulle" ? 8 : 6), this.msg?.game ?? "mulle") : settingsDialog(close));
    (this.overlayEl.querySelector("#keys-close, #settings-close") as HTMLElement | null)?.focus();
  }

  /** After the keys list or the settings close: the focus goes back to what opened them when it is still in
   * sight, else to the bar's own button for them (the ? or ⚙ button, the phone's menu button) -- never the body. */
  private refocusOpener(): void {
    const el = this.opener;
    this.opener = null;
    const seen = (x: HTMLElement | null): x is HTMLElement => x !== null && x.isConnected && x.getClientRects().length > 0;
    if (seen(el) && !this.overlayEl.contains(el)) {
      el.focus();
      return;
    }
    const own = this.toolsEl.querySelector<HTMLElement>(this.openerKind === "settings" ? "#settings-btn" : "#keys-btn");
    const menu = this.toolsEl.querySelector<HTMLElement>("#menu-btn");
    (seen(own) ? own : seen(menu) ? menu : null)?.focus();
  }

  /** Keys that mean the same in both games, before the table sees them: Enter performs the proposed action, ?
   * the shortcuts, H a hint, S the settings, Esc closes them. */
  private onKeyCapture(e: KeyboardEvent): void {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const tgt = e.target as HTMLElement | null;
    const typing = tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA");
    const open = this.overlayEl.firstChild !== null;
    const box = openBox();
    if (box && (box.modal || e.key === "Tab")) {
      this.boxKey(box.box, e, box.modal);
      return;
    }
    const menu = this.openMenu();
    if (e.key === "Escape" && menu) {
      menu.removeAttribute("open");
      (menu.querySelector("summary") as HTMLElement | null)?.focus();
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (e.key === "Escape" && open) {
      this.openOverlay(null);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    // the phone's log sheet, open over the table: Escape closes it, as the keys list says of panels (w10 fresh report)
    if (e.key === "Escape" && this.logEl.classList.contains("open") && this.logBtn.offsetParent !== null) {
      this.toggleLog(false);
      this.logBtn.focus();
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    if (e.key === "Escape" && this.aids.closeHint()) {
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
      // A focused control other than a card (Overcount, Hint, the menu, a link) is pressed itself, by the
      // browser: the proposed action is Enter's meaning only when focus is on no other control (issue #11 item 6).
      if (tgt && tgt.matches("button:not(.cardbtn), a[href], summary")) return;
      const b = proposed(this.root);
      if (!b) return;
      b.click();
    } else return;
    e.preventDefault();
    e.stopPropagation();
  }

  /** A key while a dialog is open: it acts on the dialog only (no card behind it is chosen or played) -- Enter
   * presses the focused control or else the dialog's own button, Escape closes it, Tab goes round its controls;
   * on the game-over panel (not modal) only Tab is kept inside it. */
  private boxKey(box: HTMLElement, e: KeyboardEvent, modal: boolean): void {
    const tgt = e.target instanceof HTMLElement ? e.target : null;
    const inside = tgt !== null && box.contains(tgt);
    e.stopPropagation();
    if (e.key === "Tab") {
      keepFocus(box, e);
    } else if (!modal) {
      return;
    } else if (e.key === "Escape") {
      e.preventDefault();
      if (this.overlayEl.contains(box)) this.openOverlay(null);
      else defaultButton(box)?.click();
    } else if (e.key === "?" && this.overlayEl.contains(box)) {
      e.preventDefault();
      this.openOverlay(null);
    } else if (e.key === "Enter") {
      // the focused button, link or box inside the dialog does its own thing (Next group, a setting)
      if (inside && tgt.matches("button, a[href], input, select, textarea")) return;
      e.preventDefault();
      defaultButton(box)?.click();
    } else if (!(inside && tgt.matches("input, select, textarea, button"))) {
      e.preventDefault(); // no scrolling or choosing behind the dialog
    }
  }

  rerender(): void {
    // Language changed: rebuild the table from the last state and the history.
    document.body.classList.add("in-game");
    this.drawLogFrame();
    this.drawRefused();
    if (this.msg) {
      this.table = null;
      const m = this.msg;
      this.render({ ...m, events: [], history: this.events }, false);
      this.drawTools();
      this.aids.draw();
    }
  }

  /** The server refused this page's connection for good (no such game, a seat token not valid for it, the page's
   * origin): say so in place of the table, with the way out -- the lobby, and for a seat token that is not valid
   * (the saved seat is of no use) watching the game instead.  The socket has stopped trying. */
  private drawRefused(): void {
    const code = this.refused;
    if (code === null) return;
    this.connEl.textContent = "";
    this.connEl.className = "conn";
    clear(this.tableWrap);
    const text = code === 4404 ? t("gameGone") : code === 4403 ? t("seatGone") : t("originRefused");
    const watch =
      code === 4403
        ? h(
            "button",
            {
              class: "primary",
              id: "watch-instead",
              onclick: () => {
                forgetSeat(this.gameId);
                location.reload();
              },
            },
            t("watchInstead"),
          )
        : null;
    this.tableWrap.append(
      h(
        "section",
        { class: "panel refused", id: "refused", role: "alert", "data-code": String(code) },
        h("p", {}, text),
        h("div", { class: "row" }, watch, h("a", { class: "button", href: "#/", id: "refused-lobby" }, t("backToLobby"))),
      ),
    );
  }

  private onStatus(s: "connecting" | "open" | "closed"): void {
    if (s === "open") this.everOpen = true;
    const lost = s !== "open" && this.everOpen;
    this.connEl.textContent = s === "open" ? "" : lost ? t("reconnecting") : t("connecting");
    this.connEl.className = `conn ${s !== "open" ? "show" : ""} ${lost ? "lost" : ""}`;
  }

  private ctx(): TableCtx {
    return {
      seat: this.msg?.seat ?? this.saved?.seat ?? null,
      name: (s) => this.name(s),
      level: (s) => this.levelWord(s),
      isMe: (s) => s !== null && s !== undefined && s === (this.msg?.seat ?? null),
      send: (n) => this.socket?.move(n),
      flash: (text, kind = "info") => this.flash(text, kind),
      fmt: () => this.fmt(),
    };
  }

  /** Seats by the players' names, the viewer always in the second person ("You play", "Du lägger" -- on her own
   * page never her own name, whether she gave one or not), cards as A♠, Mulle moves in words: how the engine's
   * codes are shown in the catalogue's words. */
  fmt(): Fmt {
    const game = this.msg?.game;
    const me = this.msg?.seat ?? null;
    return {
      lang: lang(),
      name: (s) => this.playerName(s),
      card: short,
      move: game === "mulle" ? describeNotation : undefined,
      me: me !== null ? me : undefined,
      genitive: true,
    };
  }

  private bots(): SeatSummary[] {
    return (this.msg?.seats ?? []).filter((s) => s.kind === "bot");
  }

  private botName(seat: number): string {
    const s = this.msg?.seats?.find((x) => x.seat === seat);
    if (s?.name) return s.name;
    return this.bots().length > 1 ? t("computerN", { n: seat + 1 }) : t("computerOne");
  }

  /** A computer seat's level in words, the catalogue's "level.<name>" up to its colon ("quick"), else "". */
  levelWord(seat: number): string {
    const s = this.msg?.seats?.find((x) => x.seat === seat);
    if (s?.kind !== "bot" || !s.level) return "";
    const game = this.msg?.game ?? "mulle";
    const key = `level.${s.level}`;
    return has(game, key) ? String(template(game, key, lang())).split(":")[0] : s.level;
  }

  /** A seat's name for the catalogue's sentences ("Anna plays…"): the name given at the table, "Computer", else
   * "Player 2" -- never "P0"; the viewer without a name is said in the second person by `fmt`. */
  playerName(seat: number): string {
    const s: SeatSummary | undefined = this.msg?.seats?.find((x) => x.seat === seat);
    if (seat === (this.msg?.seat ?? null)) return t("you");
    if (s?.name) return s.name;
    if (s?.kind === "bot") return this.botName(seat);
    return t("playerN", { n: seat + 1 });
  }

  name(seat: number): string {
    const me = this.msg?.seat ?? null;
    if (seat === me) return t("you");
    const s: SeatSummary | undefined = this.msg?.seats?.find((x) => x.seat === seat);
    if (s?.kind === "bot") return this.botName(seat);
    return s?.name || t("playerN", { n: seat + 1 });
  }

  /** Show `text` in the banner; an error stays a few seconds, then the banner shows the latest event again. */
  flash(text: string, kind: string, rules = false): void {
    clear(this.flashEl);
    this.flashEl.append(h("span", { class: "text" }, text));
    this.flashEl.title = text;
    if (rules && this.msg) {
      this.flashEl.append(" ", h("a", { class: "rule-link", href: `#/rules/${this.msg.game}` }, t("ruleDetails")));
    }
    this.flashEl.className = `flash banner show ${kind}`;
    window.clearTimeout(this.flashTimer);
    if (kind === "error") {
      this.errorUntil = Date.now() + 6000;
      this.flashTimer = window.setTimeout(() => this.drawBanner(), 6050);
    }
  }

  private onError(e: ErrorMsg): void {
    if (e.code === "stale_version") {
      this.socket?.send({ type: "resync" });
      return;
    }
    const [text, refs] = this.errorText(e);
    this.flash(text, "error", refs);
  }

  /** A refused move's reason in the player's words: the catalogue's reason without its "illegal move <move>:"
   * lead (the page says "Not allowed:" once) and without spec references ([text, had references]). */
  reasonWords(game: "mulle" | "cribbage", reason: Json): [string, boolean] {
    const fmt = this.fmt();
    // a Mulle move inside the sentence in words ("you can capture 6♥ with 6♦"; the card once where the sentence
    // names it), the page's own sentence for a reason where the terminal's shows a move in brackets
    // (page.reason.<code>), a build by its value, not its id, and a set of cards without braces (w10 fresh report)
    if (game === "mulle") fmt.move = (n: string) => inlineNotation(n, reason.code !== "must_capture_card");
    const key = has(game, `page.reason.${reason.code}`) ? `page.reason.${reason.code}` : `reason.${reason.code}`;
    const said = (data: Json) => render(game, key, data, fmt);
    const blank = said({ ...reason, move: "" });
    const lead = /^(illegal move|otillåtet drag)\s*(?:''|"")?\s*:\s*/i;
    let text = lead.test(blank) ? blank.replace(lead, "") : said(reason);
    if (game === "mulle") {
      const view = this.msg?.view;
      text = text.replace(/\[(B\d+)\]/g, (_whole, id: string) => buildName(view, id) ?? t("theBuild"));
      text = text.replace(/\{([^{}]*)\}/g, "$1");
    }
    const [out, refs] = withoutRefs(text);
    return [out.charAt(0).toUpperCase() + out.slice(1), refs];
  }

  /** An error in the viewer's language ([text, has a rule reference]): the reason's code and data in the
   * catalogue's words when the server sends one, else the protocol code's words -- never the server's English. */
  errorText(e: ErrorMsg): [string, boolean] {
    const game = this.msg?.game;
    const refused = e.code === "illegal_move" || e.code === "ambiguous" || e.code === "not_your_turn";
    if (e.reason && game && has(game, `reason.${e.reason.code}`)) {
      const [words, refs] = this.reasonWords(game, e.reason);
      return [refused ? t("illegal", { msg: words }) : `${t("error")}: ${words}`, refs];
    }
    if (e.code === "not_your_turn") return [t("notYourTurn"), false];
    if (e.code === "illegal_move") return [t("illegalMove"), false];
    return [`${refused ? t("illegal", { msg: codeWords(e.code) }) : `${t("error")}: ${codeWords(e.code)}`}`, false];
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
    const known = this.msg?.game;
    this.msg = m;
    if (known !== m.game) this.drawTools(); // the menu's rules link: this game's
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
    if (m.history) {
      this.events = [...m.history];
      this.table.replay(this.events);
    } else if (fresh) {
      for (const ev of m.events ?? []) this.events.push(ev);
    }
    this.table.update(m);
    if (before && this.motion) {
      const events = m.events ?? [];
      this.motion.play(before, { mover: this.table.mover(events), me: m.seat, events });
      focusForState(this.table.root);
    }
    if (m.history && this.motion) {
      const [seat, cards] = lastMove(m.history, m.seat ?? null);
      this.motion.markLast(seat, cards);
    }
    this.aids.onState(m);
    if (m.status === "playing") this.aidsRoom = this.aids.el.getBoundingClientRect().height;
    const keep = m.status === "over" && this.aidsRoom > 0;
    this.aids.el.classList.toggle("keep-room", keep);
    this.aids.el.style.minHeight = keep ? `${this.aidsRoom}px` : "";
    recordGame(m);
    this.drawStatus(m);
    this.drawLog();
    if (m.history || (fresh && (m.events ?? []).length)) {
      this.errorUntil = 0; // something happened since the error: the banner shows it
      this.drawBanner();
    } else if (!fresh) this.drawBanner();
    this.drawInvites(m);
    this.drawOver(m);
    if (!focusBox()) this.focusFallen(m);
  }

  /** After a redraw that took the focused control away (focus fell back to the page's body): the proposed control
   * (Enter's), else the first card of the hand that can be played, else the first, has it -- so Tab goes on from
   * the table, not from the top of the page (w9 fresh report, 12).  Focus the player put elsewhere stays. */
  private focusFallen(m: StateMsg): void {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    if (m.status !== "playing" || !this.table) return;
    const root = this.table.root;
    // the count to announce: its box, where the number is typed (item 6; the w10 fresh report: after a reload in
    // the show the focus went to the Announce button and typed digits went nowhere)
    const target =
      root.querySelector<HTMLElement>("#count-input") ??
      proposed(root) ??
      root.querySelector<HTMLElement>(".hand-card.legal") ??
      root.querySelector<HTMLElement>(".hand-card");
    target?.focus({ preventScroll: true });
  }

  /** The banner shows the latest event in words (never a stale one); an error shown just now stays its time. */
  private drawBanner(): void {
    if (!this.table || Date.now() < this.errorUntil) return;
    for (let i = this.events.length - 1; i >= 0; i--) {
      const ev = this.events[i];
      const text = this.line(ev, this.events[i - 1]);
      if (!text) continue;
      clear(this.flashEl);
      // the latest events leave something open (a count pegged and awaiting its answer): the banner says so
      const note = this.table.pending?.() ?? null;
      const line = note ?? text.charAt(0).toUpperCase() + text.slice(1);
      this.flashEl.append(h("span", { class: "text" }, line));
      this.flashEl.title = line;
      this.flashEl.className = `flash banner show ${note ? "info" : GOOD.has(ev.kind) ? "good" : "info"}`;
      this.flashEl.dataset.kind = note ? "pending" : ev.kind;
      return;
    }
  }

  /** Fit the banner's sentence to the lines it has (a phone: two): in smaller type if it needs more ("fit1",
   * "fit2", "fit3"), then three lines of the smallest ("fit4"), and if even that does not hold it, cut it there
   * ("cut": an ellipsis and a mark; a tap shows it whole) -- it never grows over the buttons below.  Measured once
   * laid out. */
  private markCut(): void {
    const el = this.flashEl;
    el.classList.remove("open", "cut", "fit1", "fit2", "fit3", "fit4");
    el.removeAttribute("aria-expanded");
    requestAnimationFrame(() => {
      const text = el.querySelector<HTMLElement>(".text");
      if (!text || getComputedStyle(text).whiteSpace === "nowrap") return; // one line with an ellipsis (wide screens)
      const range = document.createRange();
      range.selectNodeContents(text);
      const cs = getComputedStyle(text);
      const room = () => text.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) + 1;
      for (const fit of ["", "fit1", "fit2", "fit3", "fit4"]) {
        if (fit) el.classList.add(fit);
        if (range.getBoundingClientRect().height <= room()) return;
        if (fit) el.classList.remove(fit);
      }
      el.classList.add("fit4", "cut");
      el.setAttribute("aria-expanded", "false");
    });
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
    this.statusEl.title = text; // cut with an ellipsis when a long name does not fit
    this.statusEl.className = cls;
    this.drawThinking(m, m.status === "over" || v.phase === "over" ? null : toAct);
    document.title = `${text ? text + " · " : ""}kortbord`;
  }

  /** The log's frame in the current language (title, close button on a phone). */
  private drawLogFrame(): void {
    clear(this.logEl);
    this.logEl.append(
      h(
        "div",
        { class: "log-head" },
        h("h2", { id: "log-h" }, t("log")),
        h("button", { class: "ghost small log-close", "aria-label": t("hideLog"), onclick: () => this.toggleLog(false) }, "×"),
      ),
      this.logList,
    );
    this.logBtn.textContent = t("showLog");
  }

  private toggleLog(open?: boolean): void {
    const on = open ?? !this.logEl.classList.contains("open");
    this.logEl.classList.toggle("open", on);
    this.logBtn.setAttribute("aria-expanded", String(on));
    // the phone's log sheet open stays open over a reload (keep.ts)
    if (on) sessionStorage.setItem(gameKey("logOpen"), "1");
    else sessionStorage.removeItem(gameKey("logOpen"));
  }

  /** An event's line in words, once per event (the log is redrawn after every move). */
  private line(ev: Json, prev?: Json): string {
    let said = this.lines.get(ev);
    if (said === undefined) {
      const text = this.table?.describe(ev, prev);
      said = text ? plain(text).replace(/\s*->\s*/g, " → ") : "";
      said = said.charAt(0).toUpperCase() + said.slice(1);
      this.lines.set(ev, said);
    }
    return said;
  }

  private drawLog(): void {
    clear(this.logList);
    if (!this.table) return;
    const key = `${lang()}|${JSON.stringify(this.msg?.seats ?? [])}`;
    if (key !== this.namesKey) {
      this.namesKey = key;
      this.lines = new WeakMap();
    }
    const lines: string[] = [];
    for (let i = this.events.length - 1; i >= 0 && lines.length < 200; i--) {
      const said = this.line(this.events[i], this.events[i - 1]);
      if (said) lines.push(said);
    }
    // what the latest events leave open (a count pegged and awaiting its answer) heads the log while it lasts, as
    // the banner says it; the answer's settlement takes its place
    const note = this.table.pending?.() ?? null;
    if (note) this.logList.append(h("li", { class: "pending" }, note));
    // newest first, numbered from the start of the game: the latest line has the highest number, the first event
    // 1 (the w10 fresh report: "1." at the top read as the first thing that happened)
    lines.forEach((line, i) => this.logList.append(h("li", { value: String(lines.length - i) }, line)));
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

  /** The game-over panel folded to its heading or opened again: folded, the focus stays on its fold button (not
   * the page's body); opened, it goes to the panel's first action (Rematch), as when the panel first opened. */
  private toggleOver(m: StateMsg): void {
    this.overHidden = !this.overHidden;
    this.drawOver(m);
    const panel = this.overEl.querySelector<HTMLElement>("#game-over");
    const target = this.overHidden || !panel ? this.overEl.querySelector<HTMLElement>("#over-toggle") : defaultButton(panel);
    target?.focus();
  }

  private drawOver(m: StateMsg): void {
    // a redraw (a new state, the review) keeps the focus on the panel's control that had it
    const had = this.overEl.contains(document.activeElement) ? document.activeElement?.id : undefined;
    clear(this.overEl);
    clear(this.offerEl);
    if (m.status !== "over" && m.view?.phase !== "over") return;
    const over = [...this.events].reverse().find((e) => e.kind === "game_over");
    const skunk = over?.double_skunk ? t("doubleSkunk") : over?.skunk ? t("skunk") : "";
    const panel = h(
      "section",
      { class: `panel over ${this.overHidden ? "hidden" : ""}`, id: "game-over", "aria-labelledby": "over-h" },
      h(
        "div",
        { class: "over-head" },
        h("h2", { id: "over-h" }, t("gameOver")),
        h(
          "button",
          { class: "ghost small", id: "over-toggle", "aria-expanded": String(!this.overHidden), onclick: () => this.toggleOver(m) },
          this.overHidden ? "▴" : "▾",
        ),
      ),
      h("p", { class: "result" }, this.resultText(m)),
      // another player asks for a rematch: said at the top, beside the result (its button with the actions)
      m.rematch && m.seat !== null && m.rematch.by !== m.seat && this.saved?.token
        ? h("p", { class: "rematch-note offer", id: "rematch-asked" }, t("rematchAsks", { name: this.playerName(m.rematch.by) }))
        : null,
      skunk ? h("p", { class: "badge skunk" }, skunk) : null,
      this.finalScores(m),
      // the actions (Rematch first) under the result, first in the Tab order after the heading, and the details
      // and the review below them: a review that comes later (or grows) moves neither the actions nor the panel
      this.rematchBox(m),
      h("div", { class: "over-middle" }, h("div", { class: "over-details" }, this.table ? this.table.overDetails(this.events) : []), this.aids.reviewEl),
    );
    this.overEl.append(panel);
    if (had) this.overEl.querySelector<HTMLElement>(`#${CSS.escape(had)}`)?.focus();
    const rm = m.rematch;
    if (rm && m.seat === null) {
      this.offerEl.append(h("div", { class: "panel rematch-offer", role: "status" }, h("p", {}, t("rematchStarted")), this.watchLink(rm.game_id, "watch-rematch-now")));
    } else if (rm && rm.by !== m.seat && this.saved?.token) {
      this.offerEl.append(
        h(
          "div",
          { class: "panel rematch-offer", role: "status" },
          h("p", { class: "rematch-note" }, t("rematchAsks", { name: this.playerName(rm.by) })),
          h("button", { class: "primary", id: "rematch-accept-now", onclick: () => this.doRematch() }, t("rematchAccept")),
        ),
      );
    }
  }

  private finalScores(m: StateMsg): HTMLElement {
    const v = m.view ?? {};
    const scores: number[] = (v.side_scores ?? v.scores ?? []) as number[];
    const list = h("ul", { class: "final scores", "aria-label": t("finalScore") });
    scores.forEach((p, s) => list.append(h("li", { "data-side": String(s) }, `${this.table?.sideName(s) ?? this.name(s)}: `, h("b", {}, String(p)))));
    return h("div", { class: "final-wrap" }, h("h3", {}, t("finalScore")), list);
  }

  private rematchBox(m: StateMsg): HTMLElement {
    const box = h("div", { class: "row over-actions" });
    const me = m.seat;
    const token = this.saved?.token;
    const rm = m.rematch;
    if (me !== null && token) {
      if (!rm) {
        box.append(h("button", { class: "primary", id: "rematch", onclick: () => this.doRematch() }, t("rematch")));
      } else if (rm.by === me) {
        box.append(
          h("p", { class: "muted rematch-note" }, t("rematchWaiting")),
          h("button", { class: "primary", id: "rematch-open", onclick: () => this.doRematch() }, t("rematchOpen")),
        );
      } else {
        // invited: this seat takes its seat of the rematch by asking with its own token (no invite code)
        box.append(h("button", { class: "primary", id: "rematch-accept", onclick: () => this.doRematch() }, t("rematchAccept")));
      }
    }
    if (me === null && rm) {
      // a spectator: the rematch has started -- a link to follow it
      box.append(h("p", { class: "muted rematch-note" }, t("rematchStarted")), this.watchLink(rm.game_id, "watch-rematch"));
    }
    box.append(h("a", { class: "button", href: "#/", id: "back-to-lobby" }, t("backToLobby")));
    return box;
  }

  private watchLink(gameId: string, id: string): HTMLElement {
    return h("a", { class: "button primary", href: `#/game/${encodeURIComponent(gameId)}`, id }, t("watchRematch"));
  }

  private async doRematch(): Promise<void> {
    const token = this.saved?.token;
    if (!token || this.rematchBusy || !this.msg) return;
    this.rematchBusy = true;
    try {
      const r = await api.rematch(this.gameId, token);
      if (r.token) {
        saveSeat({
          game_id: r.game_id,
          game: this.msg.game,
          seat: r.seat,
          token: r.token,
          created: new Date().toISOString(),
          invites: r.invites,
        });
      }
      location.hash = `#/game/${encodeURIComponent(r.game_id)}`;
    } catch (e) {
      this.flash(`${t("error")}: ${e instanceof ApiError ? codeWords(e.code) : String(e)}`, "error");
    } finally {
      this.rematchBusy = false;
    }
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
      // one voice: the viewer is "you" throughout (never "You win! Astrid wins"), other seats by their names
      // inside a sentence the viewer is "you"/"du" (never "Du" mid-line); the winners are not said again after
      // "You win!" when the viewer's side won alone
      const you = lang() === "sv" ? "du" : "you";
      const side = (s: number) => (v.teams ? t("team", { n: s + 1 }) : s === me ? you : this.name(s));
      const mine = me === null ? null : (v.seat_sides?.[me] ?? me);
      const scores: number[] = (over?.scores ?? r.scores ?? v.scores ?? []) as number[];
      const tally = scores.map((p, s) => `${side(s)} ${p}`).join(", ");
      // a draw says the scores too: the same points on every side ("A draw. Game score: you 12, Anna 12.")
      if (!sides.length) return [t("draw"), tally ? `${t("gameScore")}: ${tally}.` : ""].filter(Boolean).join(" ");
      const head = mine === null ? "" : sides.includes(mine) ? t("youWin") : t("youLose");
      const winners = mine !== null && sides.length === 1 && sides[0] === mine ? "" : `${t("winners", { names: sides.map((s) => (v.teams ? side(s) : this.name(s))).join(", ") })}.`;
      return [head, winners, tally ? `${t("gameScore")}: ${tally}.` : ""]
        .filter(Boolean)
        .join(" ");
    }
    const winners = (over?.winners ?? r.winner_seats ?? r.winners ?? []) as number[];
    // Two players, the usual game: one voice for the viewer's own seat ("You win with 63 (You 63, Computer 40)",
    // "You lose: Computer wins with 62 and a skunk (You 40, Computer 62)") from the game_over event's data.
    if (me !== null && over && !over.lowball && !over.partnership && winners.length === 1 && (over.scores ?? []).length === 2) {
      const score = (over.scores as number[])[winners[0]];
      const skunkKey = over.double_skunk ? "cribbage.double_skunk" : over.skunk ? "cribbage.skunk" : "";
      const skunk = skunkKey ? String(template("cribbage", skunkKey, lang())) : "";
      const scores = `(${(over.scores as number[]).map((p, s) => `${this.name(s)} ${p}`).join(", ")})`;
      return winners[0] === me ? t("youWinAt", { score, skunk, scores }) : t("youLoseTo", { name: this.name(winners[0]), score, skunk, scores });
    }
    const head = me === null ? "" : winners.includes(me) ? t("youWin") : t("youLose");
    const said = over ? eventText(m.game, over, this.fmt()) : t("winners", { names: winners.map((s) => this.playerName(s)).join(", ") });
    const line = plain(said.charAt(0).toUpperCase() + said.slice(1));
    return [head, line].filter(Boolean).join(" ");
  }

  private onKey(e: KeyboardEvent): void {
    const tgt = e.target as HTMLElement | null;
    if (tgt && (tgt.tagName === "INPUT" || tgt.tagName === "SELECT" || tgt.tagName === "TEXTAREA")) {
      if (!tgt.classList.contains("count-input")) return;
    }
    // Enter or Space on a focused link, menu or button outside the table (Rules: Mulle, the menu) is that control's
    // own: the browser follows or presses it, the table does not make its proposed move (w11 fresh report: Enter on
    // the focused rules link played the chosen card)
    const own = tgt?.closest("a[href], summary, button");
    if ((e.key === "Enter" || e.key === " ") && own && !this.table?.root.contains(own)) return;
    if (this.table?.key(e)) e.preventDefault();
  }
}

/** A protocol or REST error code in the player's words (err_<code>), never the server's English. */
export function codeWords(code: string): string {
  const key = `err_${code}` as Key;
  const said = t(key);
  return said === key ? t("err_unknown", { code }) : said;
}

const MOVES = new Set(["play", "go", "discard", "announce", "response"]);

/** Another player's last move in a game's history, to mark after a reload: [their seat, the cards it moved on the
 * table] -- the same cards the live page marks (anim.ts marks every card that changed its place): a trailed or
 * pegged card; a new build's or package's cards (the hand card, the table card it went on, the packed pairs); the
 * card laid on a build (raise, build down, lay on); none for a capture (its cards left the table).  [null, []]
 * when the viewer moved last or a deal came since (the marks last until the viewer acts). */
export function lastMove(history: Json[], me: number | null): [number | null, string[]] {
  for (let i = history.length - 1; i >= 0; i--) {
    const e = history[i];
    if (e.kind === "deal" || e.kind === "dealer") return [null, []];
    if (!MOVES.has(e.kind) || typeof e.seat !== "number") continue;
    if (e.seat === me) return [null, []];
    if (e.kind !== "play") return [e.seat, []];
    if (typeof e.card === "string") return [e.seat, [e.card]];
    const m = parseMove(String(e.move ?? ""));
    if (!m || m.kind === "C") return [e.seat, []];
    return [e.seat, [m.card, ...m.loose]];
  }
  return [null, []];
}
