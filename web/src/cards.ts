// Cards in kortbord notation (rank A 2-9 T J Q K + suit S H D C): names, values, face images.
import { h } from "./dom";
import { lang } from "./i18n";

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
const SYMBOL: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANK_EN = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"];
const RANK_SV = ["ess", "två", "trea", "fyra", "femma", "sexa", "sjua", "åtta", "nia", "tia", "knekt", "dam", "kung"];
const SUIT_EN: Record<string, string> = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const SUIT_SV: Record<string, string> = { S: "spader", H: "hjärter", D: "ruter", C: "klöver" };

export function rankIndex(code: string): number {
  return RANKS.indexOf(code[0]);
}

/** Short label with the suit symbol: "10♦", "A♠". */
export function short(code: string): string {
  const r = code[0] === "T" ? "10" : code[0];
  return r + (SYMBOL[code[1]] ?? code[1]);
}

export function isRed(code: string): boolean {
  return code[1] === "H" || code[1] === "D";
}

/** The card's name for people and screen readers: "ace of spades" / "spader ess". */
export function cardName(code: string): string {
  const r = rankIndex(code);
  if (r < 0) return code;
  return lang() === "sv" ? `${SUIT_SV[code[1]]} ${RANK_SV[r]}` : `${RANK_EN[r]} of ${SUIT_EN[code[1]]}`;
}

/** Mulle table value (spec §2.1): A 1, 2-10 pips, J 11, Q 12, K 13. */
export function tableValue(code: string): number {
  return rankIndex(code) + 1;
}

/** Mulle hand value (spec §2.1): as the table value, but A 14, 2S 15, TD 16. */
export function handValue(code: string): number {
  if (code[0] === "A") return 14;
  if (code === "2S") return 15;
  if (code === "TD") return 16;
  return tableValue(code);
}

/** Cribbage counting value (spec §2.1): A 1, 2-9 pips, T J Q K 10. */
export function cribValue(code: string): number {
  return Math.min(10, rankIndex(code) + 1);
}

export function cardUrl(code: string): string {
  return `${import.meta.env.BASE_URL}cards/${code === "back" ? "back" : code}.svg`;
}

/** A card face (or the back) as an <img>; `code` "back" for a face-down card. */
export function cardImg(code: string, cls = ""): HTMLImageElement {
  return h("img", {
    class: `card ${cls}`,
    src: cardUrl(code),
    alt: code === "back" ? "" : cardName(code),
    draggable: "false",
    "data-card": code === "back" ? undefined : code, // keyed for the moving cards (anim.ts)
  });
}

/** A row of small face-down cards showing how many a hand holds. */
export function backs(n: number, max = 8): HTMLElement {
  const wrap = h("span", { class: "backs", "aria-label": String(n) });
  for (let i = 0; i < Math.min(n, max); i++) wrap.appendChild(cardImg("back", "mini"));
  return wrap;
}

/** Cards written with suit symbols, for messages: "5♣ 5♠". */
export function cardsText(codes: string[]): string {
  return codes.map(short).join(" ");
}

/** Sort cards rank first, then suit S H D C. */
export function sortCards(codes: string[]): string[] {
  return [...codes].sort((a, b) => rankIndex(a) - rankIndex(b) || SUITS.indexOf(a[1]) - SUITS.indexOf(b[1]));
}
