"""Boards that start anywhere (issue 23), in Chromium.

* A board embedded on another *site* (the parent on ``localhost``, the board on
  ``127.0.0.1``), where the browser refuses the frame every kind of storage, as Chromium
  does for a cross-site frame under Playwright's default launch: it boots, steps and plays
  a move, in every game, with the service worker allowed or refused.
* A rules page shows each board's first frame before any Python is running, and its boards
  then share one runtime.
* A table loads only its own game's modules, and the QR-code wheel only for link play.
"""

from __future__ import annotations

import functools
import random
import re
from urllib.parse import urlencode

import pytest
from helpers.browser import READY, click_a_move
from playwright.sync_api import Frame, Page, expect

import pygames
from pygames import records
from pygames.bots import self_play
from tools import relay

LAYOUT = "#app .layout.replay"
STORAGE = """() => ["localStorage", "indexedDB", "caches"].map((name) => {
  try { const s = window[name]; if (name === "localStorage") s.length; return s ? "yes" : "no"; }
  catch (e) { return "refused"; }
})"""


def finished(gid: str, seed: int) -> dict:
    """A whole game's record (random self-play)."""
    return self_play(pygames.get_game(gid), seed=seed).record()


@pytest.fixture(scope="module")
def other_site(tmp_path_factory):
    """A server for another site's pages, reached as http://localhost:<port> (the app's is
    127.0.0.1: another site, not only another origin). Returns (dir, url)."""
    root = tmp_path_factory.mktemp("site")
    server, url = relay.start_server_thread(0, root)
    yield root, url.replace("127.0.0.1", "localhost")
    server.shutdown()
    server.server_close()


def write_page(root, name: str, frames: list[str]) -> str:
    body = "\n".join(f'<h2>Board {i + 1}</h2><iframe src="{src}" title="Board {i + 1}" '
                     f'style="width:100%;height:620px;border:0"></iframe>'
                     for i, src in enumerate(frames))
    (root / name).write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A blog</title>'
        f"</head><body><main><h1>Boards</h1>{body}</main></body></html>", encoding="utf-8")
    return name


def board(page: Page, index: int) -> Frame:
    """The ``index``-th board, brought into view until its Python starts, then ready."""
    iframe = page.locator("iframe").nth(index)
    frame = iframe.element_handle().content_frame()
    for _ in range(20):
        iframe.scroll_into_view_if_needed()
        if frame.evaluate("() => Boolean(document.documentElement.dataset.python)"):
            break
        page.wait_for_timeout(300)
    frame.wait_for_selector(READY, timeout=120_000)
    return frame


def settled(frame: Frame) -> None:
    frame.wait_for_selector('#app[data-animating="false"]')


def play_a_move(frame: Frame, rng: random.Random) -> None:
    """From the board's position, "Play on" with both sides and click until one move is
    made, as a reader would (a piece then a lit square, a card, Confirm...)."""
    frame.locator('button[data-cmd="replay:both"]').click()
    expect(frame.locator(LAYOUT)).to_have_attribute("data-playing", "both")
    for _ in range(40):
        settled(frame)
        if frame.locator(LAYOUT).get_attribute("data-played") != "0":
            return
        buttons = frame.locator("#app .layout.replay button[data-cmd]:not([disabled])")
        cmds = [c for c in buttons.evaluate_all("bs => bs.map(b => b.dataset.cmd)")
                if not c.startswith(("replay:", "lang:", "theme:", "log"))]
        assert cmds, "the table offers the reader no move"
        cmd = "confirm" if "confirm" in cmds else rng.choice(cmds)
        frame.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click()
    expect(frame.locator(LAYOUT)).not_to_have_attribute("data-played", "0")


@pytest.mark.parametrize("workers", ["allow", "block"])
def test_a_cross_site_embed_without_storage_boots_steps_and_plays_every_game(
        new_context, server_url, other_site, workers, page_errors):
    root, site = other_site
    gids = list(pygames.game_ids())
    frames = []
    for i, gid in enumerate(gids):
        query = {"game": gid, "record": records.to_string(finished(gid, 11 + i)), "ply": "3",
                 "perspective": "0", "lang": "ja", "interactive": "on"}
        frames.append(f"{server_url}/embed.html?{urlencode(query)}")
    page = new_context(service_workers=workers).new_page()
    page.goto(f"{site}/{write_page(root, f'blog-{workers}.html', frames)}")
    rng = random.Random(workers)
    for i, gid in enumerate(gids):
        frame = board(page, i)
        assert frame.url.startswith(server_url)
        # The condition itself: this frame gets no storage of any kind.
        assert frame.evaluate(STORAGE)[0] == "refused", frame.evaluate(STORAGE)
        assert frame.evaluate("document.documentElement.lang") == "ja"
        expect(frame.locator(LAYOUT)).to_have_attribute("data-ply", "3")
        frame.locator('button[data-cmd="replay:next"]').click()
        expect(frame.locator(LAYOUT)).not_to_have_attribute("data-ply", "3")
        settled(frame)
        play_a_move(frame, rng)
        assert frame.locator("#load-error").is_hidden(), gid
    assert not [e for e in page_errors if e.startswith("pageerror")], page_errors


#: A Python worker that never gets going: what a board shows before its Python is ready.
STALLED_WORKER = "self.onconnect = (e) => e.ports[0].start(); self.onmessage = () => {};"


def test_a_rules_page_shows_every_board_at_once_then_runs_one_runtime(new_context,
                                                                      server_url):
    page = new_context(viewport={"width": 900, "height": 800}).new_page()
    # 1. Python held back: every board still shows its position (the build drew it).
    page.route(re.compile(r".*/pyworker\.mjs$"), lambda route: route.fulfill(
        body=STALLED_WORKER, content_type="text/javascript"))
    page.goto(f"{server_url}/docs/en/kiriai.html")
    iframes = page.locator("iframe.board")
    assert iframes.count() >= 3
    for i in range(iframes.count()):
        iframes.nth(i).scroll_into_view_if_needed()
        frame = iframes.nth(i).element_handle().content_frame()
        frame.wait_for_selector("#app[data-static] h1")
        expect(frame.locator("#app[data-static] h1")).to_be_visible()
        expect(frame.locator(LAYOUT)).to_be_visible()
        assert frame.evaluate("document.documentElement.dataset.ready") == "false"
        assert frame.evaluate("document.documentElement.dataset.python") != "ready"
    # 2. With Python: the boards come alive on one shared runtime.
    page.unroute(re.compile(r".*/pyworker\.mjs$"))
    page.reload()
    runtimes = set()
    for i in range(iframes.count()):
        frame = board(page, i)
        assert frame.evaluate("document.documentElement.dataset.pythonWorker") == "shared"
        runtimes.add(frame.evaluate("document.documentElement.dataset.pythonRuntime"))
        assert frame.locator("#app[data-static]").count() == 0  # the live table now
    assert len(runtimes) == 1, runtimes
    # The browser's own count: one shared worker and no dedicated one, for all the boards.
    cdp = page.context.browser.new_browser_cdp_session()
    kinds = [t["type"] for t in cdp.send("Target.getTargets")["targetInfos"]]
    assert kinds.count("shared_worker") == 1 and "worker" not in kinds, kinds


def test_a_click_on_a_first_frame_waits_for_python(new_context, server_url):
    """A click on a board's first frame, made before its Python is ready, is not lost."""
    page = new_context().new_page()
    page.goto(f"{server_url}/docs/en/kiriai.html")
    first = page.locator("iframe.board").first
    frame = first.element_handle().content_frame()
    frame.wait_for_selector("#app[data-static]")
    ply = int(frame.locator(LAYOUT).get_attribute("data-ply"))
    frame.locator('#app[data-static] button[data-cmd="replay:first"]:not([disabled])').click()
    frame.wait_for_selector(READY, timeout=120_000)
    assert ply > 0
    expect(frame.locator(LAYOUT)).to_have_attribute("data-ply", "0")


def test_a_table_loads_only_its_own_game_and_no_qr_code_outside_link_play(new_context,
                                                                         server_url):
    page = new_context().new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url.removeprefix(server_url)))
    gids = list(pygames.game_ids())
    for gid in gids:
        requested.clear()
        page.goto(f"{server_url}/play.html?game={gid}&mode=bot&lang=en")
        page.wait_for_selector(READY, timeout=120_000)
        zips = sorted(u for u in requested if u.startswith("/py/") and u.endswith(".zip"))
        assert zips == ["/py/app.zip", f"/py/{gid}.zip"], zips
        assert not [u for u in requested if "segno" in u]
        assert not [u for u in requested if re.match(r"/pgui/(\w+)\.css", u)
                    and not u.startswith(f"/pgui/{gid}")]
    requested.clear()
    page.goto(f"{server_url}/play.html?game={gids[0]}&mode=link&lang=en")
    page.wait_for_selector(READY, timeout=120_000)
    assert [u for u in requested if "/wheels/segno-" in u], "link play draws a QR code"
    expect(page.locator(".qr svg").first).to_be_visible()


SAVE_DATA = """Object.defineProperty(Navigator.prototype, "connection", {
  get() { return { saveData: true, effectiveType: "4g", addEventListener() {} }; } });"""


def test_the_lobby_fetches_no_runtime_until_play_when_the_browser_saves_data(new_context,
                                                                             server_url):
    """The lobby is usable without Python: where the browser asks to save data it fetches
    no runtime (nor installs an offline copy) until the player presses Play; then the
    table opens in place."""
    context = new_context()
    context.add_init_script(SAVE_DATA)
    page = context.new_page()
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"{server_url}/index.html?lang=en")
    page.wait_for_load_state("load")
    page.wait_for_timeout(2_500)  # idle, long past the lobby's own start
    assert not [u for u in requested if "/pyodide/" in u or "/py/" in u or "wheels" in u]
    assert page.evaluate("document.documentElement.dataset.python") is None
    gid = pygames.game_ids()[0]
    page.locator(f"#game-{gid} button[type=submit]").first.click()
    page.wait_for_selector(READY, timeout=120_000)
    expect(page.locator("#app h1")).to_have_text(pygames.get_game(gid).names["en"])
    assert [u for u in requested if u.endswith("/pyodide/pyodide.asm.wasm")]


def boots_and_plays(page: Page, url: str, rng: random.Random) -> str:
    """Open ``url``, make one move by clicking; returns how Python started."""
    page.goto(url)
    page.wait_for_selector(READY, timeout=120_000)
    page.wait_for_selector('#app[data-animating="false"]')
    before = page.locator("#app").inner_html()
    for _ in range(10):
        if click_a_move(page, rng):
            break
    page.wait_for_function("(html) => document.getElementById('app').innerHTML !== html",
                           arg=before)
    return page.evaluate("document.documentElement.dataset.pythonBoot")


def fulfill(route, answer: dict) -> None:
    route.fulfill(**answer)


def test_the_snapshot_boot_and_its_fallback_both_reach_a_playable_table(new_context,
                                                                       server_url):
    """Python starts from the build's memory snapshot, and from scratch when the snapshot
    is missing or is not one (an old build's): either way the table plays."""
    rng = random.Random(5)
    url = f"{server_url}/play.html?game={pygames.game_ids()[0]}&mode=bot&bot=easy&lang=en"
    page = new_context().new_page()
    assert boots_and_plays(page, url + "&boot=snapshot", rng) == "snapshot"
    assert boots_and_plays(page, url + "&boot=bare", rng) == "bare"
    snap = re.compile(r".*/py/snapshot-\w+\.bin$")
    for answer in ({"status": 404, "body": "gone"},
                   {"status": 200, "body": b"\0" * 4096,
                    "content_type": "application/octet-stream"}):
        page.route(snap, functools.partial(fulfill, answer=answer))
        assert boots_and_plays(page, url + "&boot=snapshot", rng) == "bare", answer
        page.unroute(snap)


def test_a_board_that_cannot_start_says_so_in_its_language_and_opens_in_the_app(
        new_context, server_url, page_errors):
    """Where Python cannot start at all, the board's screen says so in the page's language
    and offers the same board in the app, on our own origin, in a new tab."""
    page = new_context().new_page()
    page.route(re.compile(r".*/pyworker\.mjs$"), lambda route: route.fulfill(
        body='throw new Error("no runtime here");', content_type="text/javascript"))
    record = records.to_string(finished("kiriai", 4))
    query = urlencode({"game": "kiriai", "record": record, "lang": "ja", "ply": "2"})
    page.goto(f"{server_url}/embed.html?{query}")
    expect(page.locator("#load-error")).to_be_visible()
    expect(page.locator("#load-error-title .l-ja")).to_be_visible()
    expect(page.locator("#load-error-title .l-en")).to_be_hidden()
    link = page.locator("#load-error-open")
    expect(link).to_be_visible()
    expect(link).to_contain_text("pygames で開く")
    href = link.get_attribute("href")
    assert href.startswith("./play.html?mode=replay&") and "game=kiriai" in href
    assert link.get_attribute("target") == "_blank"
    with page.context.expect_page() as opened:
        link.click()
    app = opened.value
    app.wait_for_selector(READY, timeout=120_000)
    expect(app.locator(LAYOUT)).to_have_attribute("data-ply", "2")
    # The worker's own failure, made on purpose, is what the page reported.
    assert [e for e in page_errors if "no runtime here" in e]
    page_errors[:] = [e for e in page_errors if "no runtime here" not in e]
