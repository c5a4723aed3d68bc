// Render the 52 card faces and one back of @letele/playing-cards (CC0-1.0, after Adrian Kennard's
// designs, https://www.me.uk/cards/) to static SVG files, at build time only: the page itself ships
// no React.  Output: public/cards/<notation>.svg (AS, TD, 2S, ... as in kortbord's card notation)
// and public/cards/back.svg; Vite copies public/ into the built page.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as React from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as deck from "@letele/playing-cards/dist/index.esm.js";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "public", "cards");
mkdirSync(out, { recursive: true });

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const SUITS = ["S", "H", "D", "C"];
// The package names a component suit letter + rank: "Sa", "H10", "Dk"...
const rankName = { A: "a", T: "10", J: "j", Q: "q", K: "k" };

function render(component, file, edit = (svg) => svg) {
  if (!component) throw new Error(`no card component for ${file}`);
  let svg = renderToStaticMarkup(React.createElement(component, {}));
  if (!svg.startsWith("<svg")) throw new Error(`unexpected markup for ${file}`);
  svg = '<?xml version="1.0" encoding="UTF-8"?>\n' + edit(svg) + "\n";
  writeFileSync(join(out, file), svg);
}

// The design's ace of spades is ornate: a dashed outline, a white halo, white filigree inside the spade and the
// designer's web address under it read as a watermark and odd glyphs at table size.  Keep only the solid spade (and the corner indices), like the other aces.
function cleanAceOfSpades(svg) {
  const before = svg;
  svg = svg.replace(/<use [^>]*stroke-dasharray[^>]*><\/use>/, "").replace(/<use [^>]*stroke="#fff"[^>]*><\/use>/, "");
  svg = svg.replace(/<path fill="#fff" d="[^"]*"><\/path>/, "");
  svg = svg.replace(/<text [^>]*>[^<]*<\/text>/g, ""); // the designer's web address under the spade
  if (svg === before || /stroke-dasharray|fill="#fff" d=|<text/.test(svg)) throw new Error("the ace of spades changed shape: check cleanAceOfSpades");
  return svg;
}

let n = 0;
for (const s of SUITS) {
  for (const r of RANKS) {
    render(deck[s + (rankName[r] ?? r)], `${r}${s}.svg`, r === "A" && s === "S" ? cleanAceOfSpades : undefined);
    n++;
  }
}
render(deck.B2, "back.svg", (svg) =>
  // The back's fine red diamonds blur to pink at table size: draw them on a deep red ground instead.
  svg
    .replace('fill="red"', 'fill="#c8323a"')
    .replace('<rect fill="url(#', '<rect fill="#7d1118" width="216" height="312" x="-108" y="-156" rx="12" ry="12"></rect><rect fill="url(#'),
);
console.log(`rendered ${n} card faces and a back to ${out}`);
