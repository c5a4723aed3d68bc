// An SVG cribbage board: one lane per side, holes in fives, rows of 30 snaking back and forth (60 for a game to
// 121 on a wide screen: two long rows instead of four short ones, so the board is drawn as wide as the table and
// its holes larger in the same height), a front peg at the score and a back peg at the score before the last peg.
import { svg } from "./dom";

const COLORS = ["#d23b3b", "#2f6fd6", "#e0b422", "#3aa35b"];
const STEP = 10;
const GAP = 6;

export function pegColor(side: number): string {
  return COLORS[side % COLORS.length];
}

/** The board for a game to `target` with the sides' `scores` (front pegs) and `previous` scores (back pegs);
 * `long`: rows of 60 holes for a board of more than 60 (a wide screen), else rows of 30. */
export function drawBoard(target: number, scores: number[], previous: number[], names: string[], long = false): SVGElement {
  const holes = target - 1; // 1..target-1 on the track; target is the game hole
  const PER_ROW = long && holes > 60 ? 60 : 30;
  const rows = Math.ceil(holes / PER_ROW);
  const lanes = scores.length;
  const laneH = 9;
  const rowH = lanes * laneH + 10;
  const left = 26;
  const width = left + PER_ROW * STEP + (PER_ROW / 5 - 1) * GAP + 22;
  const height = rows * rowH + 14;
  const root = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    class: "board",
    role: "img",
    "aria-label": names.map((n, i) => `${n} ${scores[i]}`).join(", "),
  });
  root.appendChild(svg("rect", { x: 1, y: 1, width: width - 2, height: height - 2, rx: 10, class: "wood" }));

  const pos = (score: number, lane: number): [number, number] => {
    if (score <= 0) return [10, 10 + lane * laneH + 4];
    if (score >= target) return [width - 12, height / 2];
    const i = score - 1;
    const row = Math.floor(i / PER_ROW);
    let col = i % PER_ROW;
    if (row % 2 === 1) col = PER_ROW - 1 - col;
    const x = left + col * STEP + Math.floor(col / 5) * GAP;
    const y = 10 + row * rowH + lane * laneH + 4;
    return [x, y];
  };

  for (let lane = 0; lane < lanes; lane++) {
    for (let s = 1; s < target; s++) {
      const [x, y] = pos(s, lane);
      root.appendChild(svg("circle", { cx: x, cy: y, r: 1.8, class: "hole", "data-lane": lane, "data-s": s }));
    }
    const [sx, sy] = pos(0, lane);
    root.appendChild(svg("circle", { cx: sx, cy: sy, r: 2.2, class: "hole start", "data-lane": lane, "data-s": 0 }));
  }
  const [gx, gy] = pos(target, 0);
  root.appendChild(svg("circle", { cx: gx, cy: gy, r: 4, class: "hole game" }));
  // Each row's last hole labelled (30, 60, 90... or 60, 120) for reading the board.
  for (let r = 0; r < rows; r++) {
    const sc = Math.min(target - 1, (r + 1) * PER_ROW);
    const [x, y] = pos(sc, lanes - 1);
    const label = svg("text", { x: x + (r % 2 === 0 ? 8 : -8), y: y + 2, class: "mark", "text-anchor": "middle" });
    label.textContent = String(sc);
    root.appendChild(label);
  }
  for (let lane = 0; lane < lanes; lane++) {
    const color = pegColor(lane);
    const back = Math.min(previous[lane] ?? 0, scores[lane]);
    const [bx, by] = pos(back, lane);
    const [fx, fy] = pos(scores[lane], lane);
    root.appendChild(svg("circle", { cx: bx, cy: by, r: 3, fill: color, class: "peg back", opacity: 0.55 }));
    const front = svg("circle", { cx: fx, cy: fy, r: 3.6, fill: color, class: "peg front" });
    front.setAttribute("data-side", String(lane));
    front.setAttribute("data-score", String(scores[lane]));
    root.appendChild(front);
  }
  return root;
}
