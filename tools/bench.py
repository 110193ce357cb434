"""Benchmarks behind ``python build.py bench`` (which builds, then runs this in .venv).

Prints, in one run:

* random playouts per second in CPython for every game (and every value of its first
  option), with the mean number of actions per game;
* navigation -> ``html[data-ready="true"]`` in Chromium for the lobby, a table against
  the bot and a bare Pyodide page, cold (fresh context) and warm (second navigation);
* Play -> ready table after reading the lobby for 5 s (Python starts behind it);
* startup by the page's own clock (html[data-ready] and glue.js's mark pygames:ready) for
  the lobby, a table and the bare Pyodide page: cold, warm from the HTTP cache, and warm
  from the service worker (offline copy; ``--startup`` runs only this);
* the longest main-thread task (Long Tasks API, which only sees tasks of 50 ms or more)
  and the longest main-thread gap (a 0 ms timer chain: catches tasks of any length, give
  or take 4 ms) during lobby boot (navigation until Python is ready), table boot
  (navigation until the table is ready), a whole game against the bot, clicked
  through like a player does (every reveal watched at ``speed=100``), and one against
  the strong bot (after its boot);
* every game's bot at every level: its first move (time thought, iterations), then every
  move of whole games of each game against the strong bot (time thought, time the player
  waited after confirming, iterations, and how many moves the clock cut short);
* link play between two Chromium contexts over WebRTC on loopback: invite opened → first
  state on the guest's screen, message round trip (median, p95), bytes per action.

``python -m tools.bench [--dist DIR] [--runs N] [--pages] [--startup]`` runs it against any built
``dist/`` (e.g. an older checkout's, to compare); ``--pages`` skips the playouts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import pygames
from tools import chromium, paths, relay
from tools.paths import DIST


def start_server_thread(port: int, dist: Path, log_errors: bool = False):
    """dist/ and the relay, with the benchmark's own pages at /bench/ (never in dist/)."""
    return relay.start_server_thread(port, dist, log_errors=log_errors,
                                     mounts={"/bench/": paths.BENCH_PAGES})


#: The game of the table rows and whole games (the registry's first).
GAME = pygames.game_ids()[0]

BENCH_PAGES = [
    ("lobby", "/index.html"),
    (f"table ({GAME} vs bot)", f"/play.html?game={GAME}&mode=bot"),
    ("bare Pyodide", "/bench/bare.html"),
]
READY = 'html[data-ready="true"]'
#: How long the bench "reads" the lobby before pressing Play.
LOBBY_READING_MS = 5_000
#: The table a whole game is played on (reveals watched step by step, 100 ms a step).
GAME_PATH = f"/play.html?game={GAME}&mode=bot&lang=en&speed=100&seed={{seed}}"
STRONG_PATH = "/play.html?game={gid}&mode=bot&bot=strong&seat=1&lang=en&speed=100&seed={seed}"
BOT_PATH = "/play.html?game={gid}&mode=bot&bot={level}&seat=1&lang=en&speed=0&seed={seed}"
#: Python is up in the lobby once the page can open a table (glue.js / boot.js).
LOBBY_PYTHON_READY = "() => Boolean(window.pygamesOpen)"
TIMEOUT_MS = 60_000

#: Installed before any page script: records Long Tasks and the longest gap between
#: turns of a 0 ms timer chain (how long the main thread could not answer).
MAIN_THREAD_PROBE = """
(() => {
  const probe = { tasks: [], gap: 0, last: performance.now() };
  window.__mainThreadProbe = probe;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.tasks.push(e.duration);
    }).observe({ type: "longtask", buffered: true });
  } catch (e) { probe.tasks = null; }
  const beat = () => {
    const now = performance.now();
    probe.gap = Math.max(probe.gap, now - probe.last);
    probe.last = now;
    setTimeout(beat, 0);
  };
  setTimeout(beat, 0);
})();
"""
READ_PROBE = """(reset) => {
  const p = window.__mainThreadProbe;
  const out = { longest: p.tasks && p.tasks.length ? Math.max(...p.tasks) : 0,
                count: p.tasks ? p.tasks.length : -1, gap: p.gap };
  if (reset) { p.tasks.length = 0; p.gap = 0; p.last = performance.now(); }
  return out;
}"""


# --------------------------------------------------------------------------- CPython


def bench_playouts(budget: float) -> None:
    import random

    import pygames

    print(f"\nRandom playouts in CPython {sys.version.split()[0]} (~{budget:g} s each)")
    print(f"{'game':<14} {'players, options':<28} {'games/s':>9} {'actions/game':>13} "
          f"{'games':>6} {'fast/s':>10} {'speedup':>8}")
    print("  (games/s: new_game + apply, the public protocol; fast/s: clone_fast + apply_fast,")
    print("   what search plays with)")
    for gid in pygames.game_ids():
        g = pygames.get_game(gid)
        for players, options in _variants(g):
            games = actions = 0
            t0 = time.perf_counter()
            error = None
            while time.perf_counter() - t0 < budget or games == 0:
                rng = random.Random(games)
                try:
                    s = g.new_game(seed=games, players=players, options=options)
                    n = 0
                    while not s.is_over():
                        for p in list(s.to_move()):
                            if s.is_over():
                                break
                            s.apply(p, rng.choice(s.legal_actions(p)))
                            n += 1
                        if n > 1_000_000:
                            raise RuntimeError("game did not end after 1e6 actions")
                except Exception as e:  # report, keep benchmarking the other games
                    error = f"{type(e).__name__}: {e}"
                    break
                games += 1
                actions += n
            dt = time.perf_counter() - t0
            opt = ", ".join([f"{players}p", *(f"{k}={v}" for k, v in options.items())])
            if error:
                print(f"{gid:<14} {opt:<28} ERROR after {games} games: {error}")
                continue
            fast = _fast_playouts(g, players, options, budget)
            print(f"{gid:<14} {opt:<28} {games / dt:>9.1f} {actions / games:>13.1f} "
                  f"{games:>6} {fast:>10.1f} {fast / (games / dt):>7.1f}x")


def _variants(game) -> list[tuple[int, dict]]:
    """(players, options) to bench: a game for more than two at every player count with its
    defaults; a game for two with each value of its first option."""
    if game.max_players > game.min_players:
        return [(n, {}) for n in range(game.min_players, game.max_players + 1)]
    schema = dict(getattr(game, "option_schema", None) or {})
    if not schema:
        return [(game.min_players, {})]
    name, spec = next(iter(schema.items()))
    return [(game.min_players, {name: v}) for v in spec.get("values") or [spec.get("default")]]


def _fast_playouts(game, players: int, options: dict, budget: float) -> float:
    """Random playouts per second by search's fast path (clone_fast + apply_fast), each
    from a fresh game's first state, choosing with a seeded random.Random as search does."""
    import random

    from pygames.search import playout

    starts = [game.new_game(seed=i, players=players, options=options) for i in range(64)]
    rng = random.Random(1)
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < budget or games == 0:
        playout(starts[games % 64].clone_fast(), rng, cap=10**9)
        games += 1
    return games / (time.perf_counter() - t0)


# --------------------------------------------------------------------------- Chromium


def launch_args() -> dict:
    return {**chromium.launch_args(), "headless": True}


#: Buttons a player clicks to play (not the language, a rematch, a dismissal, skipping a
#: reveal, taking back, sharing...).
NOT_PLAY = ("lang:", "rematch", "dismiss", "skip", "undo", "move_seat")
#: What a player clicks first when it is there: confirming a choice, taking the device.
URGENT = ("confirm", "handover-ok")


def play_to_the_end(page, rng=None, max_clicks: int = 3000,
                    bot_moves: list[tuple[int, ...]] | None = None) -> int:
    """Click through any game against the bot as a player does (a confirm when there is
    one, else a random enabled button of the table, watching every reveal); returns the
    clicks. Given a ``bot_moves`` list, appends each bot move's (ms thought, ms waited for
    after our last click, iterations), read from ``#app`` as the page shows it (a bot
    that moves twice between two of our clicks is counted once)."""
    import random

    rng = rng or random.Random(1)
    settled = '#app[data-animating="false"]'
    seen = 0
    for clicks in range(max_clicks):
        page.wait_for_selector(settled, state="attached", timeout=TIMEOUT_MS)
        if bot_moves is not None:  # a bot move shown since the last look (botMoves counts)
            d = page.evaluate("() => ({...document.getElementById('app').dataset})")
            if int(d.get("botMoves") or 0) > seen:
                seen = int(d["botMoves"])
                bot_moves.append((int(d["botMs"]), int(d["botWaited"]),
                                  int(d["botIterations"])))
        if page.locator(".overlay.gameover").count():
            return clicks
        cmds = page.eval_on_selector_all(
            "#app button[data-cmd]:not([disabled])", "bs => bs.map(b => b.dataset.cmd)")
        cmds = [c for c in cmds if not c.startswith(NOT_PLAY)]
        if not cmds:
            page.wait_for_timeout(50)  # the bot's turn: it answers in slices
            continue
        urgent = [c for c in URGENT if c in cmds]
        cmd = urgent[0] if urgent else rng.choice(cmds)
        try:
            page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
                timeout=3_000)
        except Exception:  # noqa: BLE001 - redrawn under the pointer: look again
            pass
    raise RuntimeError("the game did not end")


def _fmt_ms(x) -> str:
    return f"{x:.0f}" if isinstance(x, float) else str(x)


def _median(xs: list) -> str:
    nums = [x for x in xs if isinstance(x, float)]
    if not xs:
        return "-"
    if len(nums) < len(xs):
        return next(x for x in xs if not isinstance(x, float))
    return f"{statistics.median(nums):.0f}"


def _worst(probes: list[dict]) -> tuple[str, str]:
    """(longest Long Task, longest gap) over several probes, as text."""
    if not probes:
        return "-", "-"
    if any(p["count"] < 0 for p in probes):
        longest = "n/a"
    else:
        worst = max(p["longest"] for p in probes)
        longest = f"{worst:.0f}" if worst else "<50"
    return longest, f"{max(p['gap'] for p in probes):.0f}"


def bench_pages(dist: Path, runs: int) -> None:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    server, base = start_server_thread(0, dist, log_errors=False)
    off_host: list[str] = []

    def failure(e: Exception) -> str:
        return "timeout" if "Timeout" in str(e) else f"error: {str(e).splitlines()[0][:40]}"

    def visit(page, path: str) -> float | str:
        t0 = time.perf_counter()
        try:
            resp = page.goto(base + path, wait_until="commit", timeout=TIMEOUT_MS)
            if resp is not None and resp.status >= 400:
                return f"HTTP {resp.status}"
            page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        except PlaywrightError as e:
            return failure(e)
        return (time.perf_counter() - t0) * 1000

    def lobby_then_table(page) -> float | str:
        if not isinstance(visit(page, "/index.html"), float):
            return "lobby failed"
        page.wait_for_timeout(LOBBY_READING_MS)
        t0 = time.perf_counter()
        try:
            page.click(f"#game-{GAME} button.play", timeout=TIMEOUT_MS)
            page.wait_for_url("**/play.html*", wait_until="commit", timeout=TIMEOUT_MS)
            page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        except PlaywrightError as e:
            return failure(e)
        return (time.perf_counter() - t0) * 1000

    def on_request(req) -> None:
        url = req.url
        if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(base):
            off_host.append(url)

    def new_page(browser, probe: bool = False):
        ctx = browser.new_context()
        ctx.on("request", on_request)
        if probe:
            ctx.add_init_script(MAIN_THREAD_PROBE)
        return ctx, ctx.new_page()

    print(
        f"\nPage ready times in Chromium (median of {runs}; cold = fresh context, "
        "warm = second navigation in the same context)"
    )
    print(f"{'page':<24} {'cold ms':>10} {'warm ms':>10}")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch_args())
            for label, path in BENCH_PAGES:
                cold: list = []
                warm: list = []
                for _ in range(runs):
                    ctx, page = new_page(browser)
                    cold.append(visit(page, path))
                    if isinstance(cold[-1], float):
                        warm.append(visit(page, path))
                    ctx.close()
                    if not isinstance(cold[-1], float):
                        break  # it failed: do not wait 60 s more per run
                print(f"{label:<24} {_median(cold):>10} {_median(warm):>10}", flush=True)
            via_lobby = []
            for _ in range(runs):
                ctx, page = new_page(browser)
                via_lobby.append(lobby_then_table(page))
                ctx.close()
            label = f"table after {LOBBY_READING_MS // 1000} s in lobby"
            print(f"{label:<24} {_median(via_lobby):>10} {'':>10}")
            print(f"  (fresh context: the lobby is read for {LOBBY_READING_MS // 1000} s while "
                  "Python starts behind it, then Play is clicked; time from click to ready)")
            bench_startup(browser, base, runs, failure, PlaywrightError)
            bench_main_thread(browser, new_page, base, runs, failure, PlaywrightError)
            bench_bot_moves(browser, new_page, base, runs, failure, PlaywrightError)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if off_host:
        print(f"\nWARNING: {len(off_host)} request(s) left 127.0.0.1, e.g. {off_host[0]}")


#: Installed before any page script: when html[data-ready] turned "true" (ms since the
#: navigation started, the clock of performance marks).
READY_PROBE = """
(() => {
  const seen = () => {
    const root = document.documentElement;
    if (root && root.dataset.ready === "true" && window.__readyAt === undefined) {
      window.__readyAt = performance.now();
    }
  };
  // The document, not its root: the root may not exist yet when this runs.
  new MutationObserver(seen).observe(document, {
    attributes: true, subtree: true, attributeFilter: ["data-ready"] });
  seen();
})();
"""
#: (page ready, Python ready) in ms since navigation start; Python ready is glue.js's
#: performance mark "pygames:ready" (None on a page without it, e.g. the bare page).
READ_STARTUP = """() => {
  const py = performance.getEntriesByName("pygames:ready")[0];
  return [window.__readyAt, py ? py.startTime : null];
}"""
STARTUP_PAGES = [
    ("lobby", "/index.html?lang=en", True),
    (f"table ({GAME} vs bot)", f"/play.html?game={GAME}&mode=bot&lang=en", True),
    ("bare Pyodide", "/bench/bare.html", False),
]
OFFLINE_READY = 'html[data-offline="ready"]'


def bench_startup(browser, base: str, runs: int, failure, PlaywrightError) -> None:
    """Navigation -> ready, by the page's own clock: cold (fresh context), warm from the
    HTTP cache (second navigation, service workers blocked) and warm from the service
    worker (second navigation once it controls the page and its precache is complete)."""

    def load(page, path: str, python: bool) -> tuple:
        page.goto(base + path, wait_until="commit", timeout=TIMEOUT_MS)
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        if python:
            page.wait_for_function(
                "() => performance.getEntriesByName('pygames:ready').length > 0",
                timeout=TIMEOUT_MS)
        ready, py = page.evaluate(READ_STARTUP)
        return ready, py

    print(f"\nStartup in Chromium, navigation -> ready (ms by the page's clock, median of "
          f"{runs}): page = html[data-ready], Python = glue.js's mark pygames:ready")
    print(f"{'page':<24} {'cold page':>10} {'Python':>8} {'HTTP-warm':>10} {'Python':>8} "
          f"{'SW-warm':>9} {'Python':>8}")
    for label, path, python in STARTUP_PAGES:
        cols: dict[str, list] = {k: [] for k in ("cold", "cold_py", "http", "http_py",
                                                 "sw", "sw_py")}
        problems = []
        for _ in range(runs):
            try:
                ctx = browser.new_context(service_workers="block")
                ctx.add_init_script(READY_PROBE)
                page = ctx.new_page()
                r, py = load(page, path, python)
                cols["cold"].append(r)
                cols["cold_py"].append(py)
                r, py = load(page, path, python)
                cols["http"].append(r)
                cols["http_py"].append(py)
                ctx.close()
                if not python:  # the bare page has no service worker
                    continue
                ctx = browser.new_context(service_workers="allow")
                ctx.add_init_script(READY_PROBE)
                page = ctx.new_page()
                load(page, path, python)
                page.wait_for_selector(OFFLINE_READY, state="attached", timeout=TIMEOUT_MS)
                r, py = load(page, path, python)
                assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
                cols["sw"].append(r)
                cols["sw_py"].append(py)
                ctx.close()
            except PlaywrightError as e:
                problems.append(failure(e))
                break

        def med(k: str, cols=cols) -> str:
            xs = [x for x in cols[k] if isinstance(x, (int, float))]
            return f"{statistics.median(xs):.0f}" if xs else "-"

        print(f"{label:<24} {med('cold'):>10} {med('cold_py'):>8} {med('http'):>10} "
              f"{med('http_py'):>8} {med('sw'):>9} {med('sw_py'):>8}", flush=True)
        for problem in problems:
            print(f"  problem: {label}: {problem}")
    print("  (HTTP-warm: second navigation in the same context, service workers blocked;"
          " SW-warm: second\n   navigation once the service worker controls the page;"
          " the bare page has no service worker)")


def _most_seats(gid: str, level: str, seed: int) -> str:
    """For a game for more than two: the query for its most players, bots of ``level`` in
    every seat but yours, which is the one after the seat that moves first in the game of
    ``seed`` (a bot's first move then searches the biggest game at once); nothing for a
    game for two (its ``seat=1`` stands)."""
    import pygames

    game = pygames.get_game(gid)
    n = game.max_players
    if n <= 2:
        return ""
    you = (game.new_game(seed=seed, players=n).to_move()[0] + 1) % n
    return f"&players={n}&seats=" + ",".join("you" if i == you else level for i in range(n))


def bench_bot_moves(browser, new_page, base: str, runs: int, failure, PlaywrightError) -> None:
    """The bot's first move in Chromium (Pyodide in the worker, thinking in slices): how
    long it thought, and the iterations its search made; then every move of whole games
    against the strong bot. The app caps a move by the level's seconds only while someone
    waits for it: where both choose at once and we have not chosen (this first move), it
    thinks to its iterations."""
    import pygames

    print(f"\nBot moves in Chromium (first move of a game, {runs} games each; nobody clicks)")
    print(f"{'game':<10} {'level':<8} {'ms (median)':>12} {'ms (max)':>9} {'iterations':>11}")
    for gid in pygames.game_ids():
        for level in ("easy", "normal", "strong"):
            ms: list[int] = []
            its: list[int] = []
            for run in range(runs):
                ctx, page = new_page(browser)
                try:
                    page.goto(base + BOT_PATH.format(gid=gid, level=level, seed=run + 1)
                              + _most_seats(gid, level, run + 1),
                              timeout=TIMEOUT_MS)
                    page.wait_for_selector("#app[data-bot-ms]", state="attached",
                                           timeout=TIMEOUT_MS)
                    ms.append(int(page.get_attribute("#app", "data-bot-ms")))
                    its.append(int(page.get_attribute("#app", "data-bot-iterations")))
                except PlaywrightError as e:
                    print(f"  problem: {gid} {level}: {failure(e)}")
                ctx.close()
            if ms:
                print(f"{gid:<10} {level:<8} {statistics.median(ms):>12.0f} {max(ms):>9} "
                      f"{statistics.median(its):>11.0f}")
    # Every move of whole games of each game against the strong bot, clicked at once (so
    # the bot mostly thinks after our confirm: how long we wait for it).
    for gid in pygames.game_ids():
        moves: list[tuple[int, ...]] = []
        for run in range(runs):
            ctx, page = new_page(browser)
            try:
                page.goto(base + STRONG_PATH.format(gid=gid, seed=run + 1)
                          + _most_seats(gid, "strong", run + 1), timeout=TIMEOUT_MS)
                page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
                play_to_the_end(page, bot_moves=moves)
            except (PlaywrightError, RuntimeError) as e:
                print(f"  problem: {gid} strong, whole game: {failure(e)}")
            ctx.close()
        if moves:
            ms, waited, its = zip(*moves, strict=True)
            budget = pygames.get_game(gid).search_iterations.get("strong", 0)
            print(f"{gid} strong, all {len(moves)} moves of {runs} games, clicked at once: "
                  f"thought ms median {statistics.median(ms):.0f} (max {max(ms)}); we waited "
                  f"ms median {statistics.median(waited):.0f} (max {max(waited)}); iterations "
                  f"median {statistics.median(its):.0f} (min {min(its)}, "
                  f"{sum(i < budget for i in its)} under its {budget:,})")


def bench_main_thread(browser, new_page, base: str, runs: int, failure, PlaywrightError) -> None:
    """Longest main-thread task and gap: lobby boot, table boot, a whole game."""
    lobby: list[dict] = []
    lobby_python: list = []
    table: list[dict] = []
    game: list[dict] = []
    game_ms: list = []
    strong: list[dict] = []
    clicks: list[int] = []
    problems: list[str] = []
    for run in range(runs):
        ctx, page = new_page(browser, probe=True)
        try:
            t0 = time.perf_counter()
            page.goto(base + "/index.html", wait_until="commit", timeout=TIMEOUT_MS)
            page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
            page.wait_for_function(LOBBY_PYTHON_READY, timeout=TIMEOUT_MS)
            lobby_python.append((time.perf_counter() - t0) * 1000)
            page.wait_for_timeout(300)
            lobby.append(page.evaluate(READ_PROBE, False))
        except PlaywrightError as e:
            problems.append(f"lobby: {failure(e)}")
        ctx.close()

        ctx, page = new_page(browser, probe=True)
        try:
            page.goto(base + GAME_PATH.format(seed=run + 1), wait_until="commit",
                      timeout=TIMEOUT_MS)
            page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
            page.wait_for_timeout(300)
            table.append(page.evaluate(READ_PROBE, True))
            t0 = time.perf_counter()
            clicks.append(play_to_the_end(page))
            game_ms.append((time.perf_counter() - t0) * 1000)
            game.append(page.evaluate(READ_PROBE, False))
        except (PlaywrightError, RuntimeError) as e:
            problems.append(f"table/game: {failure(e)}")
        ctx.close()

        ctx, page = new_page(browser, probe=True)
        try:
            page.goto(base + STRONG_PATH.format(gid=GAME, seed=run + 1), wait_until="commit",
                      timeout=TIMEOUT_MS)
            page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
            page.wait_for_timeout(300)
            page.evaluate(READ_PROBE, True)  # the boot is the row above: from here, play
            play_to_the_end(page)
            strong.append(page.evaluate(READ_PROBE, False))
        except (PlaywrightError, RuntimeError) as e:
            problems.append(f"strong bot game: {failure(e)}")
        ctx.close()

    print(f"\nLongest main-thread task in Chromium ({runs} runs, worst; Long Tasks API: "
          "'<50' = none of 50 ms or more) and longest gap of a 0 ms timer chain")
    print(f"{'phase':<42} {'task ms':>8} {'gap ms':>8}")
    rows = [
        (f"lobby boot (Python ready {_median(lobby_python)} ms)", lobby),
        ("table boot (vs bot)", table),
        (f"whole game vs bot ({_median(game_ms)} ms, "
         f"{statistics.median(clicks) if clicks else '-'} clicks)", game),
        ("game vs strong bot (you 2nd, after boot)", strong),
    ]
    for label, probes in rows:
        longest, gap = _worst(probes)
        print(f"{label:<42} {longest:>8} {gap:>8}")
    for problem in problems:
        print(f"  problem: {problem}")


def bench_link(dist: Path, pings: int = 200) -> None:
    """Link play over a real data channel on loopback, relay-signaled: open the invite →
    first state on the guest's screen, the round trip of one message each way through
    Python on both sides (median, p95), and bytes per action over a whole game."""
    import random

    from playwright.sync_api import sync_playwright

    server, base = start_server_thread(0, dist, log_errors=False)
    args = launch_args()
    perms = ["camera", "microphone"]
    print("\nLink play (two Chromium contexts, WebRTC on 127.0.0.1, relay signaling)")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**args)
            for gid in pygames.game_ids():
                host = browser.new_context(permissions=perms).new_page()
                host.goto(f"{base}/play.html?game={gid}&mode=link&lang=en&speed=0")
                invite = host.locator("[data-invite]").get_attribute("href", timeout=120_000)
                guest = browser.new_context(permissions=perms).new_page()
                t0 = time.perf_counter()
                guest.goto(invite.replace("#", "&speed=0#", 1))
                guest.locator('[data-cmd="join"]').click(timeout=120_000)
                t_join = time.perf_counter()
                guest.wait_for_selector("#app .main", timeout=60_000)
                t1 = time.perf_counter()
                snap = "({...window.pygamesPeer.stats})"
                h0, g0 = host.evaluate(snap), guest.evaluate(snap)
                rtts = [guest.evaluate("window.pygamesPeer.ping()") for _ in range(pings)]
                h1, g1 = host.evaluate(snap), guest.evaluate(snap)
                rtts.sort()
                rng = random.Random(1)
                for _ in range(6000):
                    if all(pg.locator('#app[data-over="true"][data-animating="false"]').count()
                           for pg in (host, guest)):
                        break
                    for pg in (host, guest):
                        if not pg.locator('#app[data-animating="false"]').count():
                            continue
                        cmds = [c for c in pg.locator(
                            "#app .main button[data-cmd]:not([disabled])").evaluate_all(
                            "els => els.map(e => e.dataset.cmd)")
                            if not c.startswith(("lang:", "rematch", "dismiss", "skip"))]
                        if cmds:
                            cmd = "confirm" if "confirm" in cmds else rng.choice(cmds)
                            try:
                                pg.locator(f'#app .main button[data-cmd="{cmd}"]'
                                           ':not([disabled])').first.click(timeout=2_000)
                            except Exception:  # noqa: BLE001 - redrawn under the pointer
                                pass
                h2, g2 = host.evaluate(snap), guest.evaluate(snap)

                def played(k, a0, a1, a2):  # everything but the pings
                    return a2[k] - (a1[k] - a0[k])

                hstats = {k: played(k, h0, h1, h2) for k in h2}
                gstats = {k: played(k, g0, g1, g2) for k in g2}
                actions = len(host.evaluate(
                    "JSON.parse(document.querySelector('[data-record]').textContent)")["actions"])
                print(f"{gid}: open invite -> Join shown + clicked {(t_join - t0) * 1000:.0f} ms, "
                      f"Join -> first state on screen {(t1 - t_join) * 1000:.0f} ms")
                print(f"  round trip (guest -> host -> guest, {pings} pings): median "
                      f"{statistics.median(rtts):.1f} ms, p95 {rtts[int(len(rtts) * .95)]:.1f} ms")
                if actions:
                    out_b = hstats["bytesOut"]
                    print(f"  whole game: {actions} actions; host -> guest {out_b} B in "
                          f"{hstats['messagesOut']} messages, "
                          f"guest -> host {gstats['bytesOut']} B; "
                          f"{(out_b + gstats['bytesOut']) / actions:.0f} B per action")
                for pg in (host, guest):
                    pg.context.close()
            browser.close()
    finally:
        server.shutdown()


def run_startup(dist: Path, runs: int) -> int:
    """Only the startup figures (``--startup``)."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    def failure(e: Exception) -> str:
        return "timeout" if "Timeout" in str(e) else f"error: {str(e).splitlines()[0][:60]}"

    server, base = start_server_thread(0, dist, log_errors=False)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**launch_args())
            bench_startup(browser, base, runs, failure, PlaywrightError)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return 0


def run(dist: Path = DIST, budget: float = 2.0, runs: int = 3, pages_only: bool = False) -> int:
    if not pages_only:
        bench_playouts(budget)
    bench_pages(dist, runs)
    bench_link(dist)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", type=Path, default=DIST, help="a built dist/ to serve")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=float, default=2.0, help="seconds of playouts per game")
    ap.add_argument("--pages", action="store_true", help="page timings only")
    ap.add_argument("--startup", action="store_true",
                    help="startup only: cold, HTTP-warm and service-worker-warm loads")
    args = ap.parse_args(argv)
    if args.startup:
        return run_startup(args.dist, args.runs)
    return run(args.dist, args.budget, args.runs, pages_only=args.pages)


if __name__ == "__main__":
    sys.exit(main())
