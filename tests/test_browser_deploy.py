"""The built dist/ deployed as it is: copied under a sub-path of a plain static server
(``python -m http.server``: no headers of ours, no compression, no relay, types from
Python's mimetypes), it plays a game against the bot from the lobby, fetches nothing
outside its folder, opens link play without a relay, and goes offline after one visit
(README, "Deploy").

The server's own log says where requests went, the service worker's included (Playwright
does not see all of those); offline is proven as in test_browser_offline.py: the context
is set offline and the server is stopped. The copy's peer.json is edited after the build,
as a deployment does (README, "Deploy"), and the offline copy installs all the same. A
second copy of the app on the same origin (another folder) installs its own offline copy
beside the first, not over it.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.browser import READY, click_one, settle_skipping
from helpers.dist import build_lock, ensure_dist
from helpers.lobby import choose
from playwright.sync_api import Page, expect

from tools import dist

SUB = "/games/pygames/"
OTHER = "/games/pygames-beta/"  # a second copy of the same build on the same origin
OFFLINE_READY = 'html[data-offline="ready"]'
PEER_SETTINGS = {"relay": "./relay/", "brokers": [], "iceServers": []}
#: The service worker's caches as the page sees them: {name: [paths]}.
CACHES = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    out[name] = (await (await caches.open(name)).keys()).map(r => new URL(r.url).pathname);
  }
  return out;
}"""


@pytest.fixture
def static_site(tmp_path):
    """dist/ copied to ``<host>/games/pygames/`` (and ``OTHER``), ``<host>`` served by
    ``python -m http.server``: (the origin, the server's log file, stop())."""
    ensure_dist()
    if not (dist.DIST / "precache.json").is_file():
        with build_lock():
            dist.build(quiet=True)
    host = tmp_path / "host"
    for sub in (SUB, OTHER):
        shutil.copytree(dist.DIST, host / sub.strip("/"))
        # The settings as a deployment edits them, after the build: other bytes than the
        # precache list's hash (the offline copy must install all the same).
        (host / sub.strip("/") / "peer.json").write_text(json.dumps(PEER_SETTINGS))
    log = tmp_path / "http.server.log"
    with open(log, "w") as err:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-u",
                "-m",
                "http.server",
                "--bind",
                "127.0.0.1",
                "--directory",
                str(host),
                "0",
            ],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
    line = proc.stdout.readline()  # "Serving HTTP on 127.0.0.1 port 40123 (...) ..."
    port = re.search(r"port (\d+)", line)
    assert port, f"http.server did not start: {line!r}"

    def stop():
        if proc.poll() is None:
            proc.terminate()
            proc.wait(timeout=10)

    yield f"http://127.0.0.1:{port.group(1)}", log, stop
    stop()
    proc.stdout.close()


def served_paths(log: Path) -> list[str]:
    """Every path the server was asked for (its log: ``"GET /path HTTP/1.1" 200 -``)."""
    return re.findall(r'"[A-Z]+ (\S+) HTTP/[\d.]+"', log.read_text())


def play_to_the_end(page: Page, seed: int, clicks: int = 400) -> None:
    """Click as a player in a hurry would (Skip on every playback) until the game is over."""
    rng = random.Random(seed)
    for _ in range(clicks):
        settle_skipping(page)
        if page.locator('#app[data-over="true"]').count():
            return
        click_one(page, rng)
    raise AssertionError("the game did not end")


def offline_copy(page: Page, app: str) -> list[str]:
    """Wait until this folder's service worker controls the page with its whole precache
    in; the paths in its cache."""
    page.wait_for_selector(OFFLINE_READY, state="attached", timeout=120_000)
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)") == app
    version = page.evaluate("fetch('./precache.json').then(r => r.json())")["version"]
    sub = app[app.index("/", len("http://")) :]
    name = f"pygames-{version}@{sub}"  # a cache of this folder's own
    cached = page.evaluate(CACHES)
    assert name in cached, cached
    return cached[name]


def test_a_copy_under_a_sub_path_of_a_static_server_plays_and_goes_offline(
    new_context, static_site, page_errors
):
    origin, log, stop = static_site
    app = origin + SUB
    context = new_context(service_workers="allow")
    requests: list[str] = []
    sockets: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page = context.new_page()
    page.on("websocket", lambda ws: sockets.append(ws.url))

    # The lobby at the folder's own address; Play opens the table in place.
    page.goto(f"{app}?lang=en")
    page.wait_for_selector(READY)
    expect(page.locator("#lobby")).to_be_visible()
    choose(page, "kiriai", mode="bot", bot="easy").locator("button.play").click()
    page.wait_for_selector(READY)
    assert page.url.startswith(f"{app}play.html?") and "game=kiriai" in page.url
    play_to_the_end(page, seed=1)
    expect(page.locator(".overlay.gameover")).to_be_visible()

    # Link play with no relay on the host: the invite is drawn, under the sub-path, with
    # the settings from the folder's own peer.json; the relay's WebSocket fails quietly.
    page.goto(f"{app}play.html?game=kiriai&mode=link&lang=en")
    page.wait_for_selector(READY)
    invite = page.locator("[data-invite]").first
    assert invite.get_attribute("href").startswith(f"{app}play.html?")
    assert "#r=" in invite.get_attribute("href")
    page.wait_for_function("() => document.documentElement.dataset.peer === 'waiting'")
    page.wait_for_timeout(1_500)  # a relay attempt or two, refused by the static server
    assert f"{app}peer.json" in requests
    assert sockets, "link play never tried the relay"
    assert all(s.startswith(f"ws://{origin[len('http://') :]}{SUB}relay/") for s in sockets)
    expect(invite).to_be_visible()

    # The offline copy; nothing outside the folder was asked for, by the pages or by the
    # service worker (the server's log).
    cached = offline_copy(page, app)
    assert f"{SUB}index.html" in cached and f"{SUB}py/app.zip" in cached
    assert [u for u in requests if not u.startswith(app)] == []
    paths = served_paths(log)
    assert f"{SUB}sw.js" in paths and f"{SUB}precache.json" in paths
    assert [p for p in paths if not p.startswith(SUB)] == []

    # A second copy of the app on this origin gets an offline copy of its own, and leaves
    # the first one's alone (same version: the cache's name says the folder).
    page.goto(f"{origin}{OTHER}?lang=en")
    page.wait_for_selector(READY)
    assert sorted(offline_copy(page, origin + OTHER)) == sorted(
        p.replace(SUB, OTHER, 1) for p in cached
    )
    assert len(page.evaluate(CACHES)) == 2

    # Offline, the server gone: a table opens, Python starts from the cache, moves play.
    stop()
    context.set_offline(True)
    page.goto(f"{app}play.html?game=kiriai&mode=bot&bot=easy&lang=en&speed=0&seed=2")
    page.wait_for_selector(READY, timeout=120_000)
    log_lines = page.locator("#app .log-lines li")
    before = log_lines.count()
    rng = random.Random(2)
    for _ in range(12):
        settle_skipping(page)
        click_one(page, rng)
    expect(log_lines.nth(before)).to_be_attached()  # the game moved on: a new log line
    # And a rules page, its icon in the folder, with its live board (an embed).
    page.goto(f"{app}docs/en/kiriai.html")
    expect(page.locator("h1")).to_contain_text("Kiri-ai")
    assert page.locator('link[rel="icon"]').evaluate("l => l.href") == f"{app}favicon.svg"
    page.locator("iframe.board").first.scroll_into_view_if_needed()
    page.frame_locator("iframe.board").first.locator(READY).wait_for(
        state="attached", timeout=120_000
    )
    assert [u for u in requests if not u.startswith((app, origin + OTHER))] == []
