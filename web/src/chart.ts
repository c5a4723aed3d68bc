// A small inline SVG line chart of the scores over a game: one line per side (each side's total after every peg in Cribbage, the
// running total after each round in Mulle), a dashed line at the target.  No library: a few dozen elements.
import { h, svg } from "./dom";
import { pegColor } from "./board";

export interface ChartOpts {
  /** The accessible name (and the chart's caption). */
  title: string;
  /** A dashed line at this score (the game's target), if any. */
  target?: number;
  /** A label under the x axis ("round"), if any. */
  xLabel?: string;
}

/** A chart with its caption and a legend (the names in their colours): a `<figure class="chartbox">`. */
export function chartFigure(series: number[][], names: string[], opts: ChartOpts): HTMLElement {
  return h(
    "figure",
    { class: "chartbox" },
    h("figcaption", {}, opts.title),
    scoreChart(series, names, opts),
    h(
      "div",
      { class: "chart-legend" },
      names.map((n, s) => h("span", {}, h("i", { class: "dot", style: { background: pegColor(s) } }), n)),
    ),
  );
}

/** `series[side]` = that side's score after each step (all the same length; step 0 is the start).  Returns an
 * `<svg class="chart">` that scales to its box (viewBox 320x150). */
export function scoreChart(series: number[][], names: string[], opts: ChartOpts): SVGElement {
  const W = 320;
  const H = 150;
  const L = 30;
  const R = 8;
  const T = 8;
  const B = opts.xLabel ? 26 : 16;
  const steps = Math.max(1, ...series.map((s) => s.length - 1));
  const top = Math.max(1, opts.target ?? 0, ...series.flat());
  const x = (i: number) => L + ((W - L - R) * i) / steps;
  const y = (v: number) => T + (H - T - B) * (1 - v / top);
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "chart",
    role: "img",
    "aria-label": `${opts.title}: ${names.map((n, s) => `${n} ${series[s]?.[series[s].length - 1] ?? 0}`).join(", ")}`,
  });
  root.appendChild(svg("rect", { x: L, y: T, width: W - L - R, height: H - T - B, class: "plot" }));
  // y ticks: 0, half way and the target (the line the race is to), else the top; a final total past the target
  // (the rules count the last award whole) shows by its line above the target's
  const mark = opts.target || top;
  for (const v of [0, Math.round(mark / 2), mark]) {
    const label = svg("text", { x: L - 4, y: y(v) + 3, "text-anchor": "end", class: "tick" });
    label.textContent = String(v);
    root.appendChild(label);
    root.appendChild(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
  }
  if (opts.target) {
    root.appendChild(svg("line", { x1: L, x2: W - R, y1: y(opts.target), y2: y(opts.target), class: "target" }));
  }
  if (opts.xLabel) {
    const label = svg("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "tick" });
    label.textContent = opts.xLabel;
    root.appendChild(label);
    const n = Math.min(steps, 12);
    for (let k = 1; k <= n; k++) {
      const i = Math.round((k * steps) / n);
      const t = svg("text", { x: x(i), y: H - B + 11, "text-anchor": "middle", class: "tick" });
      t.textContent = String(i);
      root.appendChild(t);
    }
  }
  series.forEach((s, side) => {
    const pts = s.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    const line = svg("polyline", { points: pts, fill: "none", stroke: pegColor(side), "stroke-width": 2, class: "series" });
    line.setAttribute("data-side", String(side));
    line.setAttribute("data-final", String(s[s.length - 1] ?? 0));
    root.appendChild(line);
    const last = s.length - 1;
    root.appendChild(svg("circle", { cx: x(last), cy: y(s[last] ?? 0), r: 3, fill: pegColor(side) }));
  });
  return root;
}

/** A group of bars: its label ("Card points") and one value per side. */
export interface BarGroup {
  label: string;
  values: number[];
}

/** A chart of one round's points by kind (a one-round Mulle game, where a line over the rounds would be a single
 * straight segment): for each kind a row of bars, one per side in its colour, each with its value at its end.
 * Returns a `<figure class="chartbox">` with its caption and the legend; the bars scale to the largest value. */
export function barFigure(groups: BarGroup[], names: string[], title: string): HTMLElement {
  const sides = names.length;
  const W = 320;
  const L = 120; // the labels' column (the longest, "Summa för omgången", whole)
  const R = 26; // room for the value after the longest bar
  const bar = 9;
  const gap = 7;
  const rowH = sides * bar + gap;
  const H = groups.length * rowH + 4;
  const lo = Math.min(0, ...groups.flatMap((g) => g.values));
  const hi = Math.max(1, ...groups.flatMap((g) => g.values));
  const x = (v: number) => L + ((W - L - R) * (v - lo)) / (hi - lo);
  const root = svg("svg", {
    viewBox: `0 0 ${W} ${H}`,
    class: "chart bars",
    role: "img",
    "aria-label": `${title}: ${groups.map((g) => `${g.label} ${g.values.map((v, s) => `${names[s]} ${v}`).join(", ")}`).join("; ")}`,
  });
  root.appendChild(svg("line", { x1: x(0), x2: x(0), y1: 0, y2: H, class: "grid" }));
  groups.forEach((g, i) => {
    const top = i * rowH + 2;
    const label = svg("text", { x: L - 5, y: top + (sides * bar) / 2 + 3, "text-anchor": "end", class: "tick label" });
    label.textContent = g.label;
    root.appendChild(label);
    g.values.forEach((v, s) => {
      const y = top + s * bar;
      const x0 = Math.min(x(0), x(v));
      const rect = svg("rect", { x: x0, y, width: Math.max(Math.abs(x(v) - x(0)), v === 0 ? 0 : 1), height: bar - 1.5, fill: pegColor(s), class: "bar" });
      rect.setAttribute("data-side", String(s));
      rect.setAttribute("data-value", String(v));
      root.appendChild(rect);
      const val = svg("text", { x: Math.max(x(0), x(v)) + 3, y: y + bar - 2.5, class: "tick value" });
      val.textContent = String(v);
      root.appendChild(val);
    });
  });
  return h(
    "figure",
    { class: "chartbox" },
    h("figcaption", {}, title),
    root,
    h(
      "div",
      { class: "chart-legend" },
      names.map((n, s) => h("span", {}, h("i", { class: "dot", style: { background: pegColor(s) } }), n)),
    ),
  );
}
