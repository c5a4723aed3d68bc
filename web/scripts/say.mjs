// Renders events and reasons with web/src/words.ts the way the page does (names, the viewer in the second person,
// Swedish genitives): reads JSON lines {"game", "what": "event"|"line"|"reason", "data", "lang", "names", "me"[, "prev",
// "sides" (the sides' names: Mulle teams, a Cribbage partnership)]} on stdin
// and prints one JSON string per line.  Used by tests/web/test_words.py.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";

const entry = fileURLToPath(new URL("../src/words.ts", import.meta.url));
const out = await build({ entryPoints: [entry], bundle: true, write: false, format: "esm", platform: "node", logLevel: "error" });
const words = await import("data:text/javascript;base64," + Buffer.from(out.outputFiles[0].text).toString("base64"));

for (const line of readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const c = JSON.parse(line);
  const fmt = { lang: c.lang, name: (s) => c.names[s], card: (x) => x, me: c.me, genitive: true };
  const said =
    c.what === "event"
      ? words.eventText(c.game, c.data, fmt)
      : c.what === "line"
        ? words.eventLine(c.game, c.data, fmt, { prev: c.prev, teams: c.teams, sideName: c.sides ? (s) => c.sides[s] : undefined })
        : words.reasonText(c.game, c.data, fmt);
  console.log(JSON.stringify(said));
}
