// Moves you can see (issue #11 item 2): every card that moves between two states travels from where it was to
// where it goes (FLIP with the Web Animations API), cards that leave fly to the pile of whoever took them, new
// cards come from the player who played them or from the stock; the front pegs walk hole by hole; the cards of
// the other players' last move stay marked until the viewer acts.  prefers-reduced-motion and the speed setting
// (settings.ts) are honoured: 0 ms means no animation at all.
import "./aids.css";
import { moveMs } from "./settings";

type Rects = Map<string, DOMRect>;

interface Snapshot {
  cards: Rects;
  places: Map<string, string>;
  imgs: Map<string, HTMLImageElement>;
  pegs: Map<string, number>;
}

export interface MoveInfo {
  /** The seat whose move produced the events (null: none, e.g. a deal). */
  mover: number | null;
  /** The viewer's seat (null: a spectator). */
  me: number | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  events: any[];
}

/** Where a card lies: its row or pile (a build by its id), so a card that only shifts along its row is told
 * apart from one that was moved there. */
function place(img: Element): string {
  const box = img.closest("[data-build], .loose, .hand, .sequence, .played-row, .seatbox, .stack, .fan, .counting, .show");
  if (!box) return "";
  const b = box.getAttribute("data-build");
  return b ? `build:${b}` : `${box.className}|${box.closest("[data-seat]")?.getAttribute("data-seat") ?? ""}`;
}

/** A card element's key: its code and which copy of it this is in document order (Mulle has two packs). */
function keyed(root: ParentNode): Map<string, HTMLImageElement> {
  const seen = new Map<string, number>();
  const out = new Map<string, HTMLImageElement>();
  for (const img of Array.from(root.querySelectorAll<HTMLImageElement>("img.card[data-card]"))) {
    const code = img.dataset.card!;
    const k = seen.get(code) ?? 0;
    seen.set(code, k + 1);
    out.set(`${code}#${k}`, img);
  }
  return out;
}

export class Motion {
  /** Keys of the cards of the other players' last move (marked until the viewer acts). */
  private marked = new Set<string>();
  /** The other player whose move that was (their seat box is marked too: a capture leaves no card behind). */
  private markedSeat: number | null = null;
  private observer: MutationObserver;
  /** Cards in flight on the page's top layer (taken cards flying to their taker). */
  private ghosts = new Set<Animation>();

  constructor(private root: HTMLElement) {
    // The tables redraw themselves on every click: put the marks back after each redraw.
    this.observer = new MutationObserver(() => this.applyMarks());
    this.observer.observe(root, { childList: true, subtree: true });
  }

  destroy(): void {
    this.observer.disconnect();
    this.landGhosts();
  }

  /** End every taken card's flight at once (its copy leaves the page). */
  private landGhosts(): void {
    for (const a of [...this.ghosts]) a.finish();
    this.ghosts.clear();
  }

  snapshot(): Snapshot {
    const imgs = keyed(this.root);
    const cards: Rects = new Map();
    const places = new Map<string, string>();
    for (const [k, img] of imgs) {
      cards.set(k, img.getBoundingClientRect());
      places.set(k, place(img));
    }
    const pegs = new Map<string, number>();
    for (const p of Array.from(this.root.querySelectorAll<SVGElement>(".peg.front[data-side]"))) {
      pegs.set(p.getAttribute("data-side")!, Number(p.getAttribute("data-score")));
    }
    return { cards, places, imgs, pegs };
  }

  private seatEl(seat: number | null, me: number | null): Element | null {
    if (seat === null) return null;
    if (seat === me) return this.root.querySelector(".me") ?? null;
    return this.root.querySelector(`.seatbox[data-seat="${seat}"]`);
  }

  private stockEl(): Element | null {
    return this.root.querySelector(".infobar .stock, .deck .stack");
  }

  /** Mark another player's last move after a reload or resync, from the game's history (the live marks come from
   * what moved): their seat and the cards `cards` that lie on the table now (the last copy of each, outside the
   * viewer's hand).  `seat` null: the viewer acted last, nothing is marked. */
  markLast(seat: number | null, cards: string[]): void {
    this.marked.clear();
    this.markedSeat = seat;
    if (seat !== null) {
      const now = [...keyed(this.root)].filter(([, img]) => !img.closest(".me, .modal"));
      // a code twice in `cards` (Mulle's two packs: a card laid on or packed with its twin) marks both copies
      for (const code of cards) {
        const last = now.filter(([k, img]) => img.dataset.card === code && !this.marked.has(k)).pop();
        if (last) this.marked.add(last[0]);
      }
    }
    this.applyMarks();
  }

  /** Animate from the snapshot taken before the new state was drawn to what is drawn now. */
  play(before: Snapshot, info: MoveInfo): void {
    const ms = moveMs();
    const mine = info.mover !== null && info.mover === info.me;
    const theirs = info.mover !== null && info.mover !== info.me;
    if (mine || info.events.some((e) => e.kind === "deal" || e.kind === "dealer")) {
      this.marked.clear();
      this.markedSeat = null;
    }
    if (theirs) this.markedSeat = info.mover;
    const after = keyed(this.root);
    // A dialog open over the table (the show, a round's score): nothing flies over it -- the flights of taken
    // cards end at once, and the cards in the dialog are drawn where they lie (a card flying in from the table
    // would pass over the dialog's edge and be cut by its scrolling box)
    const dialog = document.querySelector(".modal-back") !== null;
    if (dialog) this.landGhosts();
    if (!before.cards.size) {
      this.applyMarks();
      return; // the first picture of the table (a new page, a reload): nothing moved
    }
    const dealt = info.events.some((e) => e.kind === "deal");
    const starter: string | undefined = info.events.find((e) => e.kind === "starter")?.card;
    const stock = this.stockEl()?.getBoundingClientRect();
    const moverBox = theirs ? this.seatEl(info.mover, info.me)?.getBoundingClientRect() : undefined;
    // Where a card that was not on the page comes from: a dealt card and the cut starter from the stock, a card
    // the other player laid from their seat; else it is turned face up where it lies (the crib, a show).
    const sourceFor = (img: HTMLImageElement): DOMRect | undefined => {
      if (dealt && img.closest(".me, .hand")) return stock;
      if (starter && img.dataset.card === starter && img.closest(".starter")) return stock;
      return moverBox ?? (dealt ? stock : undefined);
    };
    for (const [k, img] of after) {
      const old = before.cards.get(k);
      const now = img.getBoundingClientRect();
      if (now.width === 0 || img.closest(".modal")) continue;
      const from: DOMRect | undefined = old ?? sourceFor(img);
      if (!from) {
        if (ms > 0)
          img.animate([{ transform: "perspective(600px) rotateY(90deg)" }, { transform: "none" }], { duration: ms, easing: "ease-out" });
        continue;
      }
      const dx = from.left + from.width / 2 - (now.left + now.width / 2);
      const dy = from.top + from.height / 2 - (now.top + now.height / 2);
      if (Math.abs(dx) + Math.abs(dy) < 4) continue;
      if (theirs && !img.closest(".me") && (!old || before.places.get(k) !== place(img))) this.marked.add(k);
      if (ms > 0) {
        const s = old ? Math.max(0.3, Math.min(2.5, old.width / now.width)) : 0.6;
        img.animate(
          [
            { transform: `translate(${dx}px, ${dy}px) scale(${s})`, opacity: old ? 1 : 0.4 },
            { transform: "none", opacity: 1 },
          ],
          { duration: ms, easing: "cubic-bezier(.2,.7,.3,1)" },
        );
      }
    }
    // Cards that left the table fly to whoever took them (or fade where they were).
    if (ms > 0 && !dialog) {
      // Taken cards go to whoever took them (the last capture's sweep may go to another player than the mover).
      const taker = [...info.events].reverse().find((e) => e.kind === "capture" || e.kind === "last_capture")?.seat;
      const dest = this.seatEl(taker ?? info.mover, info.me)?.getBoundingClientRect();
      for (const [k, rect] of before.cards) {
        if (after.has(k)) continue;
        const img = before.imgs.get(k);
        if (!img || rect.width === 0) continue;
        const ghost = img.cloneNode(true) as HTMLImageElement;
        ghost.classList.add("ghost");
        ghost.classList.remove("lastmove", "twin-unseen");
        Object.assign(ghost.style, {
          position: "fixed",
          left: `${rect.left}px`,
          top: `${rect.top}px`,
          width: `${rect.width}px`,
          height: `${rect.height}px`,
          margin: "0",
          pointerEvents: "none",
          zIndex: "50",
        });
        document.body.append(ghost);
        const dx = dest ? dest.left + dest.width / 2 - (rect.left + rect.width / 2) : 0;
        const dy = dest ? dest.top + dest.height / 2 - (rect.top + rect.height / 2) : 0;
        const a = ghost.animate(
          [
            { transform: "none", opacity: 1 },
            { transform: `translate(${dx}px, ${dy}px) scale(0.5)`, opacity: dest ? 0.6 : 0 },
          ],
          { duration: ms, easing: "ease-in" },
        );
        this.ghosts.add(a);
        a.onfinish = a.oncancel = () => {
          ghost.remove();
          this.ghosts.delete(a);
        };
      }
    }
    if (ms > 0) this.walkPegs(before.pegs, ms);
    this.applyMarks();
  }

  /** The front pegs walk from their old hole through every hole to the new one. */
  private walkPegs(old: Map<string, number>, ms: number): void {
    for (const peg of Array.from(this.root.querySelectorAll<SVGCircleElement>(".peg.front[data-side]"))) {
      const side = peg.getAttribute("data-side")!;
      const from = old.get(side);
      const to = Number(peg.getAttribute("data-score"));
      if (from === undefined || !(to > from)) continue;
      const fx = Number(peg.getAttribute("cx"));
      const fy = Number(peg.getAttribute("cy"));
      const frames: Keyframe[] = [];
      const svgRoot = peg.ownerSVGElement;
      for (let s = from; s <= to; s++) {
        const hole = svgRoot?.querySelector<SVGCircleElement>(`.hole[data-lane="${side}"][data-s="${s}"]`);
        if (!hole) continue;
        frames.push({ transform: `translate(${Number(hole.getAttribute("cx")) - fx}px, ${Number(hole.getAttribute("cy")) - fy}px)` });
      }
      if (frames.length < 2) continue;
      frames.push({ transform: "none" });
      peg.animate(frames, { duration: Math.min(2400, Math.max(ms, (to - from) * 70)), easing: "linear" });
    }
  }

  private applyMarks(): void {
    for (const el of Array.from(this.root.querySelectorAll(".seatbox[data-seat]"))) {
      const want = this.markedSeat !== null && el.getAttribute("data-seat") === String(this.markedSeat);
      if (want !== el.classList.contains("lastmover")) el.classList.toggle("lastmover", want);
    }
    if (!this.marked.size) {
      for (const el of Array.from(this.root.querySelectorAll(".lastmove"))) el.classList.remove("lastmove");
      return;
    }
    const now = keyed(this.root);
    for (const [k, img] of now) {
      const want = this.marked.has(k) && !img.closest(".me");
      if (want !== img.classList.contains("lastmove")) img.classList.toggle("lastmove", want);
    }
  }
}
