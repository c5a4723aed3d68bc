// What a reload brings back (issue #11 item 5, "reload and reconnect restore everything ... open panels"): small
// marks in the tab's sessionStorage, each keyed per game (the page's address, #/game/<id>) -- the phone's open log
// sheet, an open hint, the hand cards chosen but not yet played.  (The Mulle round's score and the Cribbage show
// keep their own marks, mulle.ts and cribbage.ts.)

/** The sessionStorage key of `what` for the game on the page now. */
export function gameKey(what: string): string {
  return `kortbord.${what}.${location.hash}`;
}

/** Remember the hand cards chosen at state `version` (`idx`: the chosen card's place in the hand, where a hand may
 * hold two of a card); none chosen: forget them. */
export function keepChoice(version: number, cards: string[], idx = -1): void {
  const key = gameKey("chosen");
  if (!cards.length) sessionStorage.removeItem(key);
  else sessionStorage.setItem(key, JSON.stringify({ version, cards, idx }));
}

/** The hand cards chosen before a reload, when the state is still the one they were chosen in (`version`) and
 * every one of them is still in the `hand`; else null. */
export function keptChoice(version: number, hand: string[]): { cards: string[]; idx: number } | null {
  let kept: { version?: unknown; cards?: unknown; idx?: unknown } | null = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(gameKey("chosen")) ?? "null");
  } catch {
    return null;
  }
  if (!kept || kept.version !== version || !Array.isArray(kept.cards) || !kept.cards.length) return null;
  const cards = kept.cards.map(String);
  if (!cards.every((c) => hand.includes(c))) return null;
  const idx = typeof kept.idx === "number" && hand[kept.idx] === cards[0] ? kept.idx : hand.indexOf(cards[0]);
  return { cards, idx };
}
