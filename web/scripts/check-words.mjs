// Cross-check of web/src/words.ts against kortbord.i18n (Python): reads JSON lines
// {"game", "what": "event"|"reason", "data", "lang", "expected"} on stdin and renders each with words.ts
// (seats as P<n>, cards and moves in notation: how Python writes them without names), printing the mismatches
// as JSON lines and exiting 1 if any.  Used by tests/web/test_words.py.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";

const entry = fileURLToPath(new URL("../src/words.ts", import.meta.url));
const out = await build({ entryPoints: [entry], bundle: true, write: false, format: "esm", platform: "node", logLevel: "error" });
const words = await import("data:text/javascript;base64," + Buffer.from(out.outputFiles[0].text).toString("base64"));

const lines = readFileSync(0, "utf8").split("\n").filter(Boolean);
let bad = 0;
for (const line of lines) {
  const c = JSON.parse(line);
  const fmt = { lang: c.lang, name: (s) => `P${s}`, card: (x) => x };
  const got =
    c.what === "event"
      ? words.eventText(c.game, c.data, fmt)
      : c.what === "callout"
        ? words.callout(c.data, c.lang).join(", ")
        : words.reasonText(c.game, c.data, fmt);
  if (got !== c.expected) {
    bad++;
    console.log(JSON.stringify({ ...c, got }));
  }
}
console.error(`${lines.length} checked, ${bad} differ`);
process.exit(bad ? 1 : 0);
