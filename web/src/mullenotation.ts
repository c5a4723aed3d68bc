// Mulle move notation (rules spec §5.2), parsed so the page can map a chosen hand card plus chosen table
// cards/builds to one of the server's legal moves.
//   C <card> x {<loose>,...,[<id>],...}     capture
//   T <card>                                trail
//   B <card> on <card> =v [+pkg{a+b,...}]   create a build
//   R <card> -> [<id>] =v                   raise
//   D <card> -> [<id>] =v                   build down
//   P <card>+<card> -> [<id>] [+pkg{...}]   package from hand
//   L <card> -> [<id>]                      lay on (ligger)
export type Kind = "C" | "T" | "B" | "R" | "D" | "P" | "L";

export interface MulleMove {
  text: string;
  kind: Kind;
  card: string;
  loose: string[]; // every loose table card the move uses (capture set, founding card, packed pairs)
  builds: string[]; // build ids the move uses
  on?: string; // founding / packaging table card
  value?: number;
  pkg: [string, string][];
}

const CARD = "(?:10|[A2-9TJQK])[SHDC]";

function norm(c: string): string {
  return c.startsWith("10") ? "T" + c.slice(2) : c;
}

function parsePkg(s: string | undefined): [string, string][] {
  if (!s) return [];
  return s
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const [a, b] = p.split("+").map((x) => norm(x.trim()));
      return [a, b] as [string, string];
    });
}

/** Parse one move; null if the text is not Mulle notation. */
export function parseMove(text: string): MulleMove | null {
  const s = text.trim();
  let m: RegExpMatchArray | null;
  if ((m = s.match(new RegExp(`^C\\s+(${CARD})\\s+x\\s*\\{([^}]*)\\}$`)))) {
    const items = m[2].split(",").map((x) => x.trim()).filter(Boolean);
    const builds = items.filter((x) => x.startsWith("[")).map((x) => x.replace(/[[\]]/g, ""));
    const loose = items.filter((x) => !x.startsWith("[")).map(norm);
    return { text: s, kind: "C", card: norm(m[1]), loose, builds, pkg: [] };
  }
  if ((m = s.match(new RegExp(`^T\\s+(${CARD})$`)))) {
    return { text: s, kind: "T", card: norm(m[1]), loose: [], builds: [], pkg: [] };
  }
  if ((m = s.match(new RegExp(`^B\\s+(${CARD})\\s+on\\s+(${CARD})\\s*=\\s*(\\d+)(?:\\s*\\+pkg\\{([^}]*)\\})?$`)))) {
    const pkg = parsePkg(m[4]);
    const on = norm(m[2]);
    return { text: s, kind: "B", card: norm(m[1]), on, value: +m[3], loose: [on, ...pkg.flat()], builds: [], pkg };
  }
  if ((m = s.match(new RegExp(`^([RD])\\s+(${CARD})\\s*->\\s*\\[(\\w+)\\]\\s*=\\s*(\\d+)$`)))) {
    return { text: s, kind: m[1] as Kind, card: norm(m[2]), loose: [], builds: [m[3]], value: +m[4], pkg: [] };
  }
  if ((m = s.match(new RegExp(`^P\\s+(${CARD})\\s*\\+\\s*(${CARD})\\s*->\\s*\\[(\\w+)\\](?:\\s*\\+pkg\\{([^}]*)\\})?$`)))) {
    const pkg = parsePkg(m[4]);
    const on = norm(m[2]);
    return { text: s, kind: "P", card: norm(m[1]), on, loose: [on, ...pkg.flat()], builds: [m[3]], pkg };
  }
  if ((m = s.match(new RegExp(`^L\\s+(${CARD})\\s*->\\s*\\[(\\w+)\\]$`)))) {
    return { text: s, kind: "L", card: norm(m[1]), loose: [], builds: [m[2]], pkg: [] };
  }
  return null;
}

/** Multiset of strings as a sorted key. */
export function bag(xs: string[]): string {
  return [...xs].sort().join(",");
}

/** True when `sub` (a multiset) is contained in `sup`. */
export function within(sub: string[], sup: string[]): boolean {
  const left = [...sup];
  for (const x of sub) {
    const i = left.indexOf(x);
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

/** The move uses exactly the chosen loose cards (multiset) and builds. */
export function usesExactly(m: MulleMove, loose: string[], builds: string[]): boolean {
  return bag(m.loose) === bag(loose) && bag(m.builds) === bag(builds);
}

/** The move uses at least the chosen loose cards and builds. */
export function usesAtLeast(m: MulleMove, loose: string[], builds: string[]): boolean {
  return within(loose, m.loose) && within(builds, m.builds);
}
