// Words of the table's aids, settings, keys and statistics: the "aids" catalogue (src/kortbord/i18n/aids.json,
// English and Swedish), filled by the same rules as the games' catalogues (words.ts).
import aids from "../../src/kortbord/i18n/aids.json";
import { lang } from "./i18n";
import { short } from "./cards";
import { fill, type Fmt } from "./words";

const CAT = aids as unknown as Record<string, Record<string, unknown>>;

function plainFmt(): Fmt {
  return { lang: lang(), name: (s) => String(s + 1), card: short };
}

function pyStr(v: unknown): string {
  if (v === true) return "True";
  if (v === false) return "False";
  if (v === null || v === undefined) return "None";
  return String(v);
}

/** Does the aids catalogue have `key`? */
export function hasWord(key: string): boolean {
  return !key.startsWith("_") && key in CAT;
}

/** The aids catalogue's `key` in the viewer's language, filled from `data` (cards shown as A♠). */
export function aw(key: string, data: Record<string, unknown> = {}, fmt: Fmt = plainFmt()): string {
  const entry = CAT[key];
  if (!entry) return key;
  let tpl: unknown = entry[fmt.lang] ?? entry.en;
  while (tpl !== null && typeof tpl === "object" && !Array.isArray(tpl)) {
    const d = tpl as Record<string, unknown>;
    tpl = d[pyStr(data[String(d.by ?? "")])] ?? d["*"] ?? "";
  }
  return fill(String(tpl), data, fmt);
}
