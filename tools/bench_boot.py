"""Start-up side by side (issue 23): how fast each build's pages start and what a first
visit transfers, several built ``dist/`` folders measured in one run, in turn.

    .venv/bin/python -m tools.bench_boot --dist dist --dist /tmp/old/dist [--runs 3]

For each build, median of ``--runs`` (cold: a fresh browser context, nothing cached; warm:
the same navigation again in that context, from the HTTP cache; no service worker):

* navigation -> table ready (``html[data-ready]``) for a table against the bot (as the
  page chooses, and with ``boot=bare`` and ``boot=snapshot``, which an older build
  ignores), for a bare Pyodide page (``/bench/bare.html``: Pyodide alone) and for an embed;
  and a table's second visit once the offline copy (service worker) is in place; and a
  table cold over an emulated 40 Mbit/s connection (as the page chooses, and with
  ``boot=snapshot``), where bytes cost time as they do away from loopback;
* a rules page with three boards (the first game's, all three in view): navigation -> every
  board shows its position, and -> the first board is interactive (its Python is ready);
* bytes the server sent for a first visit to the lobby (5 s of reading, no Play), a table
  and an embed (the body bytes as sent: compressed where the server compressed).

The bytes are counted by the server itself, so a shared worker's requests count too.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from aiohttp import web

import pygames
from tools import chromium, paths, relay

READY = 'html[data-ready="true"]'
GAME = pygames.game_ids()[0]  #: the registry's first (its rules page has three boards)
TABLE = f"/play.html?game={GAME}&mode=bot&lang=en"
EMBED = f"/embed.html?game={GAME}&seed=3&lang=en"
RULES = f"/docs/en/{GAME}.html"
TIMEOUT_MS = 180_000
THROTTLE_MBIT = 40  #: the throttled rows' connection (DevTools emulation, 20 ms latency)


class Counter:
    def __init__(self) -> None:
        self.bytes = 0

    async def prepare(self, request: web.Request, response: web.StreamResponse) -> None:
        if not isinstance(response, web.WebSocketResponse):
            self.bytes += response.content_length or 0


def serve(dist: Path) -> tuple[relay.ServerThread, str, Counter]:
    app = relay.make_app(dist, log_errors=False, mounts={"/bench/": paths.BENCH_PAGES})
    counter = Counter()
    app.on_response_prepare.append(counter.prepare)
    server = relay.ServerThread(app, "127.0.0.1", 0)
    server.start()
    return server, server.url, counter


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def table_ready(page, url: str) -> float:
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    return _ms(t0)


BOARD_SHOWN = """() => [...document.querySelectorAll("iframe.board")].slice(0, 3).every((f) => {
  try {
    const app = f.contentDocument && f.contentDocument.getElementById("app");
    return Boolean(app && !app.hidden && app.querySelector(".layout"));
  } catch (e) { return false; }
})"""
FIRST_READY = """() => {
  const f = document.querySelector("iframe.board");
  return Boolean(f && f.contentDocument &&
                 f.contentDocument.documentElement.dataset.ready === "true");
}"""


def rules_page(page, url: str) -> tuple[float, float]:
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=TIMEOUT_MS)
    page.wait_for_function(BOARD_SHOWN, polling=20, timeout=TIMEOUT_MS)
    shown = _ms(t0)
    page.wait_for_function(FIRST_READY, polling=20, timeout=TIMEOUT_MS)
    return shown, _ms(t0)


def first_visit_bytes(browser, base: str, counter: Counter, path: str, wait_ms: int = 0,
                      ready: bool = True) -> int:
    ctx = browser.new_context(service_workers="block")
    page = ctx.new_page()
    counter.bytes = 0
    page.goto(base + path, timeout=TIMEOUT_MS)
    if ready:
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    page.wait_for_timeout(wait_ms)
    got = counter.bytes
    ctx.close()
    return got


def throttle(page, mbit: float, latency_ms: float = 20) -> None:
    """DevTools network emulation for ``page`` (and its workers): a home connection."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": latency_ms,
        "downloadThroughput": mbit * 1e6 / 8, "uploadThroughput": mbit * 1e6 / 8 / 4})


def median(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.0f}" if xs else "-"


def run(dists: list[Path], runs: int) -> int:
    from playwright.sync_api import sync_playwright

    servers = [serve(d) for d in dists]
    times: dict[tuple[int, str], list[float]] = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**{**chromium.launch_args(), "headless": True})
            for _ in range(runs):
                for i, (_server, base, _counter) in enumerate(servers):  # in turn, each run
                    for name, path in (("table", TABLE), ("table boot=bare", TABLE + "&boot=bare"),
                                       ("table boot=snapshot", TABLE + "&boot=snapshot"),
                                       ("bare Pyodide", "/bench/bare.html"),
                                       ("embed", EMBED)):
                        ctx = browser.new_context(service_workers="block")
                        page = ctx.new_page()
                        times.setdefault((i, f"{name} cold"), []).append(
                            table_ready(page, base + path))
                        times.setdefault((i, f"{name} warm"), []).append(
                            table_ready(page, base + path))
                        ctx.close()
                    for name, path in (("table", TABLE),
                                       ("table boot=snapshot", TABLE + "&boot=snapshot")):
                        ctx = browser.new_context(service_workers="block")
                        page = ctx.new_page()
                        throttle(page, THROTTLE_MBIT)
                        times.setdefault((i, f"{name} cold @{THROTTLE_MBIT:g} Mbit/s"),
                                         []).append(table_ready(page, base + path))
                        ctx.close()
                    # The default start on a second visit: with the offline copy in place.
                    ctx = browser.new_context(service_workers="allow")
                    page = ctx.new_page()
                    table_ready(page, base + TABLE)
                    page.wait_for_selector('html[data-offline="ready"]', state="attached",
                                           timeout=TIMEOUT_MS)
                    times.setdefault((i, "table, 2nd visit (offline copy)"), []).append(
                        table_ready(page, base + TABLE))
                    ctx.close()
                    ctx = browser.new_context(service_workers="block",
                                              viewport={"width": 1000, "height": 2400})
                    shown, live = rules_page(ctx.new_page(), base + RULES)
                    times.setdefault((i, "rules page: 3 boards shown"), []).append(shown)
                    times.setdefault((i, "rules page: first board live"), []).append(live)
                    ctx.close()
            sizes = {}
            for i, (_server, base, counter) in enumerate(servers):
                sizes[(i, "lobby (5 s, no Play)")] = first_visit_bytes(
                    browser, base, counter, "/index.html?lang=en", 5_000, ready=False)
                sizes[(i, "table")] = first_visit_bytes(browser, base, counter, TABLE, 500)
                sizes[(i, "embed")] = first_visit_bytes(browser, base, counter, EMBED, 500)
            browser.close()
    finally:
        for server, _base, _counter in servers:
            server.shutdown()
            server.server_close()
    width = max(12, *(len(str(d)) for d in dists))
    print(f"\nStart-up, ms (median of {runs}; cold: fresh context; warm: HTTP cache)")
    print(f"{'':<30}" + "".join(f"{str(d):>{width + 2}}" for d in dists))
    for key in sorted({k for _i, k in times}, key=lambda k: list(dict.fromkeys(
            k for _i, k in times)).index(k)):
        print(f"{key:<30}" + "".join(f"{median(times.get((i, key), [])):>{width + 2}}"
                                      for i in range(len(dists))))
    print("\nBytes sent for a first visit")
    for key in dict.fromkeys(k for _i, k in sizes):
        print(f"{key:<30}" + "".join(f"{sizes[(i, key)]:>{width + 2},}"
                                      for i in range(len(dists))))
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench_boot",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", type=Path, action="append", help="a built dist/ (repeat)")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    return run(args.dist or [paths.DIST], args.runs)


if __name__ == "__main__":
    sys.exit(main())
