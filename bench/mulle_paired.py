"""Paired comparison of two ``bench/mulle_expert.py`` runs on one seed (issue #14 item 3).

Two runs ``X v C`` and ``Y v C`` with the same ``--seed``, ``--games`` and rules play the same deals in each block
(games ``2b`` and ``2b + 1``, seats swapped); so per block the difference of the two runs' duplicate margins
(X's block margin minus Y's, points per round) removes most of the luck of the cards.  This script reads the two
``--json`` files (they hold the per-game records), prints each run's margin, the paired difference with a 95%
interval (blocks independent, one value each: ``arena.cluster_mean_ci``), and A's decision times (ms) in each run.

Usage::

    .venv/bin/python bench/mulle_paired.py run_x.json run_y.json
"""

from __future__ import annotations

import json
import sys

from kortbord import arena


def _block_margins(path: str) -> tuple[dict[int, float], list[float], str]:
    """Per block number, the mean over its round pairs of A's points minus B's with the same cards; A's decision
    times (ms); the run's label."""
    with open(path) as fh:
        data = json.load(fh)
    recs = {r["index"]: r for r in data["records"] if "error" not in r}
    out: dict[int, float] = {}
    times: list[float] = []
    for r in recs.values():
        for kind in r.get("times", {}).get("0", {}).values():
            times.extend(kind)
    for b in range((max(recs) + 2) // 2):
        one, two = recs.get(2 * b), recs.get(2 * b + 1)
        if one is None or two is None:
            continue
        diffs = []
        for k in range(min(len(one["rounds"]), len(two["rounds"]))):
            per_side = []
            for side in (0, 1):
                p1, p2 = one["rounds"][k][side], two["rounds"][k][side]
                per_side.append(float(p1 - p2) if one["sides"][side] == 0 else float(p2 - p1))
            diffs.append(sum(per_side) / 2)
        if diffs:
            out[b] = sum(diffs) / len(diffs)
    label = " ".join(data["argv"][1:])
    return out, times, label


def _pct(values: list[float], q: float) -> float:
    return arena.percentile(values, q) if values else float("nan")


def main(argv: list[str]) -> int:
    x, tx, lx = _block_margins(argv[0])
    y, ty, ly = _block_margins(argv[1])
    for m, t, label in ((x, tx, lx), (y, ty, ly)):
        ci = arena.cluster_mean_ci([[v] for v in m.values()])
        lo, hi = ci["ci95"]
        print(
            f"{label}\n  {ci['clusters']} blocks, block margin {ci['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] points/round;"
            f" A's decisions {len(t)}: p50 {_pct(t, 50):.1f} p95 {_pct(t, 95):.1f} max {max(t, default=0):.1f} ms"
        )
    common = sorted(set(x) & set(y))
    ci = arena.cluster_mean_ci([[x[b] - y[b]] for b in common])
    lo, hi = ci["ci95"]
    print(f"paired (first minus second), {len(common)} blocks: {ci['mean']:+.2f} [{lo:+.2f}, {hi:+.2f}] points/round")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
