"""The page's weight and its time to interactive on a phone profile (issue #11, "the page stays light").

Starts ``kortbord serve`` on a throw-away SQLite file and loads the lobby in Debian's Chromium (Playwright) as a
phone: a 390x844 viewport at device scale 3 with touch, the CPU slowed 4x and the network throttled to
Lighthouse's mobile profile (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up; Chrome DevTools Protocol
``Emulation.setCPUThrottlingRate`` and ``Network.emulateNetworkConditions``).  Every run is a fresh browser
context (an empty cache: a first visit); ``--warm`` adds a second load in the same context (a return visit,
assets from the cache).

Figures per run, milliseconds from the navigation's start:

- **FCP**: the first contentful paint (``PerformanceObserver`` ``paint``);
- **TTI**: time to interactive in the lab sense (Lighthouse's definition, simplified): the end of the last long
  task (>= 50 ms, ``longtask`` entries) before a quiet window of 5 s after FCP, and no earlier than
  ``DOMContentLoaded`` and the moment the lobby's Start button is enabled -- a player can then press it;
- **table**: from pressing Start (Mulle against the quick computer player) to the player's hand drawn on the
  table (eight ``.hand-card`` elements), in the same throttled page.

Bytes: what the lobby load transferred by kind (HTML, JS, CSS, card images, other), as sent on the wire
(``encodedBodySize``) and unpacked (``decodedBodySize``).  There is no goal in numbers; the issue asks that the
sizes and the time be reported.  Reproduce with::

    .venv/bin/python bench/page_load.py [--runs 5] [--warm]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
#: Lighthouse's mobile throttling: 150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x slower.
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}
CPU_SLOWDOWN = 4
QUIET_MS = 5_000

#: Installed in the page before its scripts: long tasks and paints are recorded from the start.
OBSERVE = """
window.__kb = {long: [], fcp: null};
new PerformanceObserver(l => { for (const e of l.getEntries()) __kb.long.push([e.startTime, e.duration]); })
  .observe({type: 'longtask', buffered: true});
new PerformanceObserver(l => { for (const e of l.getEntries())
  if (e.name === 'first-contentful-paint') __kb.fcp = e.startTime; }).observe({type: 'paint', buffered: true});
"""

KINDS = (("html", (".html", "/")), ("js", (".js",)), ("css", (".css",)), ("cards", (".svg", ".png", ".webp")))


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    """``kortbord serve`` on a free port with its database in ``tmp``; returns (process, base URL) once
    ``/api/health`` answers.  Raises RuntimeError if it does not start in 60 s."""
    port = free_port()
    exe = Path(sys.executable).parent / "kortbord"
    cmd = [
        str(exe),
        "serve",
        "--port",
        str(port),
        "--database-url",
        f"sqlite+aiosqlite:///{tmp / 'b.db'}",
        "--bot-delay",
        "0",
        "--log-level",
        "warning",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/api/health", timeout=1) as r:
                if json.load(r).get("ok"):
                    return proc, base
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


def kind_of(url: str) -> str:
    """The byte table's kind of a resource URL: html, js, css, cards or other."""
    path = url.split("?", 1)[0]
    for kind, ends in KINDS:
        if path.endswith(ends):
            return kind
    return "other"


def load_once(page: Any, base: str) -> dict[str, Any]:
    """Load the lobby in ``page`` (already throttled) and measure it; returns FCP, TTI, the bytes by kind and the
    time to the table."""
    page.goto(base + "/", wait_until="domcontentloaded")
    page.wait_for_selector("#create:enabled", state="visible")
    ready = page.evaluate("performance.now()")
    # A quiet window: no long task for QUIET_MS after the last one (and after FCP).
    while True:
        page.wait_for_timeout(500)
        now, long = page.evaluate("[performance.now(), __kb.long]")
        last_end = max((s + d for s, d in long), default=0.0)
        fcp = page.evaluate("__kb.fcp") or 0.0
        if now - max(last_end, fcp, ready) >= QUIET_MS:
            break
    dcl = page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
    res = page.evaluate(
        "performance.getEntriesByType('resource').concat(performance.getEntriesByType('navigation'))"
        ".map(e => [e.name, e.encodedBodySize, e.decodedBodySize, e.transferSize])"
    )
    by_kind: dict[str, list[int]] = {}
    for name, enc, dec, _tr in res:
        k = by_kind.setdefault(kind_of(name), [0, 0, 0])
        k[0] += int(enc)
        k[1] += int(dec)
        k[2] += 1
    tti = max(fcp, dcl, ready, last_end)
    # To the table: a Mulle game against the quick computer player, until the hand is drawn.
    page.click("#tab-mulle")
    page.select_option("#seat-1", "bot:greedy")
    t0 = page.evaluate("performance.now()")
    page.click("#create")
    page.wait_for_function("document.querySelectorAll('.hand-card').length >= 8", polling=50)
    table = page.evaluate("performance.now()") - t0
    return {"fcp": fcp, "tti": tti, "ready": ready, "table": table, "bytes": by_kind}


def throttle(ctx: Any, page: Any) -> None:
    """Slow ``page``'s CPU and network to the phone profile (CDP)."""
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})


def main(argv: list[str] | None = None) -> int:
    """Run the measurement and print the table; returns the exit status (0)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="fresh browser contexts (cold cache), default 5")
    ap.add_argument("--warm", action="store_true", help="also a second load in each context (warm cache)")
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    rows: dict[str, list[dict[str, Any]]] = {"cold": [], "warm": []}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        proc, base = start_server(Path(tmp))
        try:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            for _ in range(args.runs):
                ctx = browser.new_context(
                    viewport={"width": 390, "height": 844},
                    device_scale_factor=3,
                    is_mobile=True,
                    has_touch=True,
                    locale="en-GB",
                )
                ctx.add_init_script(OBSERVE)
                ctx.add_init_script("localStorage.setItem('kortbord.lang', 'en');")
                page = ctx.new_page()
                throttle(ctx, page)
                rows["cold"].append(load_once(page, base))
                if args.warm:
                    page2 = ctx.new_page()
                    throttle(ctx, page2)
                    rows["warm"].append(load_once(page2, base))
                ctx.close()
            browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    load = os.getloadavg()[0]
    print(
        f"phone profile: 390x844 @3x, touch, CPU {CPU_SLOWDOWN}x slower, network 150 ms RTT 1.6/0.75 Mbit/s; "
        f"{args.runs} runs; load average {load:.1f}"
    )
    print()
    print("| load | runs | FCP ms (median / max) | TTI ms (median / max) | Start enabled ms | to the table ms |")
    print("|---|---|---|---|---|---|")
    for label, rs in rows.items():
        if not rs:
            continue

        def fig(key: str, rs: list[dict[str, Any]] = rs) -> str:
            vals = [r[key] for r in rs]
            return f"{statistics.median(vals):,.0f} / {max(vals):,.0f}"

        print(f"| {label} | {len(rs)} | {fig('fcp')} | {fig('tti')} | {fig('ready')} | {fig('table')} |")
    print()
    print("lobby load, bytes (first run, cold): kind | files | on the wire | unpacked")
    print("|---|---|---|---|")
    first = rows["cold"][0]["bytes"]
    for kind in [k for k, _ in KINDS] + ["other"]:
        if kind in first:
            enc, dec, n = first[kind]
            print(f"| {kind} | {n} | {enc / 1024:,.1f} KiB | {dec / 1024:,.1f} KiB |")
    tot_enc = sum(v[0] for v in first.values())
    tot_dec = sum(v[1] for v in first.values())
    print(f"| total | {sum(v[2] for v in first.values())} | {tot_enc / 1024:,.1f} KiB | {tot_dec / 1024:,.1f} KiB |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
