"""Link play across the internet, measured (issue 24): in the NAT lab of the tests
(tests/helpers/natlab.py: homes behind NAT routers, one symmetric, a static server, an MQTT
broker and coturn), how long a guest waits from opening the invite link to the first state
of the game on its screen, and how many bytes of signaling each connection took.

    .venv/bin/python -m tools.bench_link [--runs 3] [--game ID]

Rows (median of ``--runs``; each run a fresh pair of browsers, nothing cached):

* ``relay``: the site served by our own server (``python -m tools.relay``, as ``python
  build.py serve``) in the lab's internet, signaling through its relay, between the two
  cone-NAT homes (a direct path);
* ``broker, direct``: the plain static server, signaling through mosquitto (WebSockets),
  between the two cone-NAT homes;
* ``broker, TURN``: the same from a cone-NAT home to the symmetric-NAT home, where only the
  TURN relay connects.

"First state" is navigation of the invite -> Join pressed as soon as it shows -> the table
drawn (``#app .main``); it includes starting Python in the guest's page (cold: no HTTP
cache, no offline copy). "Join -> connected" is the part after the click: signaling, ICE
and the data channel opening (the page says "connected"). "Signaling bytes" is what both
pages sent on the signaling path (sealed envelopes, as the server received them) until the
channel opened and the path was known. Needs root, nftables, coturn and mosquitto; says
why not otherwise.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from helpers import natlab  # the tests' lab (.venv's .pth makes tests/helpers importable)

import pygames
from tools import paths

TIMEOUT_MS = 120_000


def _settings(lab, relay: bool) -> dict:
    return {"relay": "./relay/" if relay else "", "brokers": [lab.broker_ws],
            "iceServers": [lab.stun, lab.turn]}


def _route_settings(context, settings: dict) -> None:
    import json

    body = json.dumps(settings)
    context.route("**/peer.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=body))


def one_run(playwright, lab, game: str, homes: tuple[str, str], settings: dict) -> dict:
    browsers = [natlab.launch(playwright, lab, home) for home in homes]
    try:
        pages = []
        for b in browsers:
            ctx = b.new_context()
            _route_settings(ctx, settings)
            pages.append(ctx.new_page())
        host, guest = pages
        host.goto(lab.url + f"play.html?game={game}&mode=link&lang=en&speed=0",
                  timeout=TIMEOUT_MS)
        invite = host.locator("[data-invite]").get_attribute("href", timeout=TIMEOUT_MS)
        t0 = time.perf_counter()
        guest.goto(invite.replace("#", "&speed=0#", 1), timeout=TIMEOUT_MS)
        guest.locator('[data-cmd="join"]').click(timeout=TIMEOUT_MS)
        joined = time.perf_counter()
        guest.wait_for_function("document.documentElement.dataset.peer === 'connected'",
                                timeout=TIMEOUT_MS, polling=20)
        connected = time.perf_counter() - joined
        guest.wait_for_selector("#app .main", timeout=TIMEOUT_MS)
        first = time.perf_counter() - t0
        for page in pages:
            page.wait_for_function("document.documentElement.dataset.peerPath",
                                   timeout=TIMEOUT_MS)
        stats = [p.evaluate("({...window.pygamesPeer.stats})") for p in pages]
        return {"first_s": first, "connect_s": connected, "via": stats[1]["via"],
                "path": stats[1]["path"],
                "signal_bytes": sum(s["signalBytesOut"] for s in stats),
                "signal_messages": sum(s["signalOut"] for s in stats)}
    finally:
        for b in browsers:
            b.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.bench_link",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", default=pygames.game_ids()[0], help="the registry's first")
    args = ap.parse_args(argv)
    if reason := natlab.available():
        print(f"cannot run the NAT lab here: {reason}", file=sys.stderr)
        return 1
    from helpers.dist import ensure_dist
    from playwright.sync_api import sync_playwright

    ensure_dist()
    rows = []
    with sync_playwright() as pw, natlab.lab(paths.DIST) as lab:
        from helpers.chromium import chromium_executable

        if exe := chromium_executable():
            lab.set_chromium_target(exe)
        plan = [("broker, direct", ("a", "c"), _settings(lab, relay=False)),
                ("broker, TURN", ("a", "b"), _settings(lab, relay=False))]
        for name, homes, settings in plan:
            runs = [one_run(pw, lab, args.game, homes, settings) for _ in range(args.runs)]
            rows.append((name, runs))
        lab.use_relay(paths.DIST)
        runs = [one_run(pw, lab, args.game, ("a", "c"), _settings(lab, relay=True))
                for _ in range(args.runs)]
        rows.insert(0, ("relay", runs))
    print(f"{args.game}: invite opened -> first state on the guest's screen "
          f"(median of {args.runs}), signaling per connection")
    print(f"{'path':<16} {'via/path seen':<16} {'first state':>12} {'Join->connected':>16} "
          f"{'bytes':>8} {'messages':>9}")
    for name, runs in rows:
        seen = ",".join(sorted({f"{r['via']}/{r['path']}" for r in runs}))
        print(f"{name:<16} {seen:<16} "
              f"{statistics.median(r['first_s'] for r in runs):>10.2f} s "
              f"{statistics.median(r['connect_s'] for r in runs):>14.2f} s "
              f"{statistics.median(r['signal_bytes'] for r in runs):>8.0f} "
              f"{statistics.median(r['signal_messages'] for r in runs):>9.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
