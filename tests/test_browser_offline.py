"""Offline after the first visit, and updates only when the player agrees (web/sw.js,
web/offline.js, build.write_precache).

Each test serves its own copy of dist/ (a service worker belongs to its origin, so a port
of its own keeps the other tests' pages free of it). Offline is proven twice over: the
context is set offline *and* the server is shut down, so whatever is not in the service
worker's cache cannot load from anywhere (Playwright's routes, the conftest guard's, do not
see requests a service worker answers, nor reliably its own fetches: the dead server is the
proof), and every failed request is listed and fails the test.

The update test switches the one directory the server serves between two builds: the
second changes index.html (a marker) and lacks Pyodide's two big files, so the new version
can only start if the install copied them from the old cache by their hash.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from helpers.browser import (
    BROWSER_NOT_PLAY,
    PYTHON_READY,
    READY,
    TAKE_BACK,
    axe_problems,
    play_until,
    saved_games,
    seen,
    settle,
)
from playwright.sync_api import Page, expect

import pygames
from pygames import records
from tools import dist, relay

OFFLINE_READY = 'html[data-offline="ready"]'
MARKER = '<meta name="pygames-test-build" content="second">'

#: The service worker's cache as the page sees it: {name: [paths]}.
CACHES = """async () => {
  const out = {};
  for (const name of await caches.keys()) {
    const keys = await (await caches.open(name)).keys();
    out[name] = keys.map(r => new URL(r.url).pathname.slice(1));
  }
  return out;
}"""


@pytest.fixture
def site(tmp_path):
    """A copy of dist/ served on a port of its own: (dir, base URL, stop())."""
    if not (dist.DIST / "precache.json").is_file():
        dist.build(quiet=True)
    root = tmp_path / "site"
    shutil.copytree(dist.DIST, root)
    server, base = relay.start_server_thread(0, root, log_errors=False)
    stopped = []

    def stop():
        if not stopped:
            server.shutdown()
            server.server_close()
            stopped.append(True)

    yield root, base, stop
    stop()


def precache(root: Path) -> dict:
    return json.loads((root / "precache.json").read_text())


def wait_until_offline_ready(page: Page, root: Path) -> None:
    """An active service worker controls the page and its cache holds the whole list."""
    page.wait_for_selector(OFFLINE_READY, state="attached", timeout=240_000)
    assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
    listing = precache(root)
    cached = page.evaluate(CACHES)
    assert list(cached) == [f"pygames-{listing['version']}"], cached
    assert set(cached[f"pygames-{listing['version']}"]) == {*listing["files"], "precache.json"}


def click_to_the_end(page: Page, seed: int, clicks: int = 3_000, *, end: bool = True) -> None:
    """Click as a player would until the game is over (``end=False``: for ``clicks``
    clicks at most): confirm what is picked, play a lit square (a Canosa sailor's move
    first), else any enabled button of the table."""
    rng = random.Random(seed)
    settled = page.locator('#app[data-animating="false"]')
    for _ in range(clicks):
        settled.wait_for(state="attached")
        if page.locator('#app[data-over="true"]').count():
            return
        now = page.evaluate("""() => {
            const on = sel => [...document.querySelectorAll(sel)].map(e => e.dataset.cmd);
            return {cmds: on("#app button[data-cmd]:not([disabled])"),
                    moves: [...document.querySelectorAll(
                        "#app .canosa button.sq.target:not([disabled])")]
                        .filter(e => /^[a-z]\\d+-[a-z]\\d+/.test(e.dataset.actions || ""))
                        .map(e => e.dataset.cmd)};
        }""")
        cmds = [c for c in now["cmds"] if not c.startswith((*BROWSER_NOT_PLAY, *TAKE_BACK))]
        if not cmds:
            page.wait_for_timeout(30)  # the bot is thinking
            continue
        urgent = [c for c in ("confirm", "handover-ok") if c in cmds]
        cmd = urgent[0] if urgent else rng.choice(now["moves"] or cmds)
        try:
            page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
                timeout=2_000)
        except Exception:  # noqa: BLE001 - redrawn under the pointer: look again
            continue
    if end:
        raise AssertionError("the game did not end")


def test_every_game_plays_offline_after_one_visit(new_context, site, page_errors):
    root, base, stop = site
    context = new_context(service_workers="allow")
    failed: list[str] = []
    context.on("requestfailed", lambda r: failed.append(f"{r.method} {r.url} {r.failure}"))
    page = context.new_page()
    page.goto(f"{base}/index.html?lang=en")
    page.wait_for_selector(READY)
    wait_until_offline_ready(page, root)

    stop()  # no server any more: only the service worker's cache is left
    context.set_offline(True)
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator("#lobby")).to_be_visible()
    page.wait_for_function(PYTHON_READY, timeout=120_000)

    # Every game's table opens and plays; the first to its game-over screen (what a game
    # loads on the way is shared: its UI module and stylesheet come with its table).
    for i, gid in enumerate(pygames.game_ids()):
        small = "&layout=small" if "layout" in pygames.get_game(gid).option_schema else ""
        page.goto(f"{base}/play.html?game={gid}&mode=bot&bot=easy&lang=en&speed=0"
                  f"&seed={i + 1}{small}")
        page.wait_for_selector(READY, timeout=120_000)
        expect(page.locator("#app h1")).to_have_text(pygames.get_game(gid).names["en"])
        log = page.locator("#app .log-lines li")
        lines = log.count()
        click_to_the_end(page, seed=i, clicks=3_000 if i == 0 else 12, end=i == 0)
        if i == 0:
            expect(page.locator(".overlay.gameover")).to_be_visible()
        else:
            expect(log.nth(lines)).to_be_attached()  # the game moved on: a new log line

    page.goto(f"{base}/docs/en/kiriai.html")
    expect(page.locator("h1")).to_contain_text("Kiri-ai")
    page.locator("iframe.board").first.scroll_into_view_if_needed()  # it starts when seen
    board = page.frame_locator("iframe.board").first  # its live boards are embeds
    board.locator(READY).wait_for(state="attached", timeout=120_000)

    record = records.to_string(pygames.get_game("kiriai").new_game(seed=3).record())
    page.goto(f"{base}/embed.html?game=kiriai&lang=en&record={record}")
    page.wait_for_selector(READY, timeout=120_000)
    # Not failures of ours: the browser's own favicon.ico, requests a navigation cancelled,
    # and the first visit's look for a memory snapshot in the browser's cache (a cache-only
    # request: it never needs the network, and a miss means a plain start).
    failed = [u for u in failed if "/favicon.ico " not in u and "ERR_ABORTED" not in u
              and not ("/py/snapshot-" in u and "ERR_CACHE_MISS" in u)]
    assert failed == [], f"requests that needed the network: {failed}"
    assert not [e for e in page_errors if "sw.js" in e or "precache" in e], page_errors


@pytest.mark.parametrize("workers", ["allow", "block"])
def test_an_embed_in_another_sites_iframe_still_works(new_context, site, workers, page_errors):
    """The embed in a frame of another origin (a second port), with a service worker or with
    registration refused (``block``: register() fails, as where storage is partitioned or
    blocked): the embed works either way and says whether it got an offline copy."""
    root, base, _stop = site
    server, other = relay.start_server_thread(0, root, log_errors=False)
    try:
        page = new_context(service_workers=workers).new_page()
        page.goto(f"{other}/docs/index.html")
        page.evaluate("""(src) => { const f = document.createElement("iframe");
            f.src = src; f.style.height = "500px"; document.body.append(f); }""",
                      f"{base}/embed.html?game=kiriai&seed=1&lang=en")
        page.locator("iframe").scroll_into_view_if_needed()  # a board starts when seen
        frame = page.frame_locator("iframe")
        frame.locator(READY).wait_for(state="attached", timeout=120_000)
        expect(frame.locator("#app")).to_be_visible()
        inner = next(f for f in page.frames if f.url.startswith(f"{base}/"))
        # "ready" once the whole precache (15 MB, hashed) is in: slow on a busy machine.
        # Polled by a timer: a cross-origin frame may get no animation frames to poll on.
        inner.wait_for_function("() => document.documentElement.dataset.offline",
                                polling=250, timeout=240_000)
        expected = "ready" if workers == "allow" else "unavailable"
        assert inner.evaluate("document.documentElement.dataset.offline") == expected
    finally:
        server.shutdown()
        server.server_close()
    assert not [e for e in page_errors if e.startswith("pageerror")]


def second_build(root: Path, tmp: Path) -> Path:
    """A copy of ``root`` with a changed index.html and its own precache list, without the
    two big Pyodide files (the update must take them from the old cache)."""
    new = tmp / "second"
    shutil.copytree(root, new)
    index = new / "index.html"
    index.write_text(index.read_text().replace("<head>", "<head>\n" + MARKER, 1))
    dist.write_precache(new)
    for name in ("pyodide.asm.wasm", "python_stdlib.zip"):
        (new / "pyodide" / name).unlink()
    return new


def test_an_update_waits_for_the_player(new_context, site, tmp_path, page_errors):
    root, base, _stop = site
    old_version = precache(root)["version"]
    context = new_context(service_workers="allow")
    page = context.new_page()
    page.goto(f"{base}/index.html?lang=en")
    page.wait_for_selector(READY)
    wait_until_offline_ready(page, root)

    new = second_build(root, tmp_path)
    new_version = precache(new)["version"]
    assert new_version != old_version
    root.rename(tmp_path / "first")
    new.rename(root)  # the server now serves the second build

    page.reload()  # still the first version (cache first), which finds the update
    banner = page.locator("#update-banner")
    expect(banner).to_be_visible(timeout=120_000)
    assert page.locator('meta[name="pygames-test-build"]').count() == 0
    expect(banner).to_have_attribute("role", "status")
    expect(banner).to_contain_text("A new version is ready")
    expect(banner.get_by_role("button", name="Reload to update")).to_be_visible()
    assert axe_problems(page) == []
    page.evaluate("document.documentElement.lang = 'ja'")
    expect(banner.get_by_role("button", name="再読み込みして更新")).to_be_visible()
    assert axe_problems(page) == []
    page.evaluate("document.documentElement.lang = 'en'; window.__samePage = true")

    banner.get_by_role("button", name="Later").click()  # Later: the page stays
    expect(banner).to_have_count(0)
    page.wait_for_timeout(1_000)
    assert page.evaluate("window.__samePage === true")
    page.wait_for_function(PYTHON_READY, timeout=120_000)  # the old version still plays

    page.reload()  # the new version still waits, and is offered again
    expect(banner).to_be_visible(timeout=60_000)
    assert page.locator('meta[name="pygames-test-build"]').count() == 0
    page.wait_for_function(PYTHON_READY, timeout=120_000)
    with page.expect_navigation(timeout=120_000):
        banner.get_by_role("button", name="Reload to update").press("Enter")  # by keyboard
    page.wait_for_selector(READY)
    expect(page.locator('meta[name="pygames-test-build"]')).to_have_count(1)
    expect(page.locator("#update-banner")).to_have_count(0)
    # The new version starts Python on files the install copied from the old cache.
    page.wait_for_function(PYTHON_READY, timeout=120_000)
    cached = page.evaluate(CACHES)
    assert list(cached) == [f"pygames-{new_version}"], "the old cache is gone"
    assert not [e for e in page_errors if e.startswith("pageerror")]


def test_accepting_an_update_keeps_the_game_in_progress(new_context, site, tmp_path,
                                                        page_errors):
    """Mid-game against the bot, the update's prompt waits on the table; accepting it
    reloads into the new version, which reopens the same game at the same move."""
    root, base, _stop = site
    context = new_context(service_workers="allow")
    page = context.new_page()
    page.goto(f"{base}/play.html?game=cardia&mode=bot&bot=easy&speed=0&lang=en")
    page.wait_for_selector(READY)
    wait_until_offline_ready(page, root)
    game = play_until(page, random.Random(2), 4)
    assert game["moves"] >= 4 and "resume=" in page.url
    before = seen(page)

    new = second_build(root, tmp_path)
    new_version = precache(new)["version"]
    root.rename(tmp_path / "first")
    new.rename(root)  # the server now serves the second build

    page.reload()  # the first version reopens the game and finds the update
    page.wait_for_selector(READY)
    settle(page)
    assert seen(page) == before, "nothing changed by itself"
    banner = page.locator("#update-banner")
    expect(banner).to_be_visible(timeout=120_000)
    with page.expect_navigation(timeout=120_000):
        banner.get_by_role("button", name="Reload to update").click()
    page.wait_for_selector(READY)
    settle(page)
    assert list(page.evaluate(CACHES)) == [f"pygames-{new_version}"], "the new version"
    assert seen(page) == before, "the same game at the same move"
    assert saved_games(page)[game["id"]]["record"] == game["record"]
    assert not [e for e in page_errors if e.startswith("pageerror")]
