"""Embeds in a real Chromium: a blog page on another port shows our boards in iframes.

The blog page is served from a second local server (another origin), made from the app's
own "Copy embed code" snippet, as a blogger would paste it. The embeds step by button and
by key, honour ``ply``, ``perspective`` (a hidden card stays hidden in the DOM),
``moves`` and ``interactive``, fit 320 px, and the iframe's height follows its content.
Every test runs behind the network guard in conftest.py: a request that leaves
127.0.0.1 fails the test.
"""

from __future__ import annotations

import random
import re
from urllib.parse import urlencode

import pytest
from helpers.browser import READY, axe_problems
from pgui.share import embed_snippet
from playwright.sync_api import Frame, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import pygames
from pygames import records
from tools import relay

LAYOUT = "#app .layout.replay"


def finished(gid: str, seed: int) -> dict:
    state = pygames.get_game(gid).new_game(seed=seed)
    rng = random.Random(seed)
    while not state.is_over():
        p = rng.choice(state.to_move())
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state.record()


def cardia_face_down_ply(record: dict) -> int:
    """A ply at which seat 1 has placed face down and seat 0 has not placed yet."""
    state = pygames.get_game("cardia").new_game(seed=record["seed"])
    for i, (p, action) in enumerate(record["actions"]):
        both = state.to_move() == [0, 1]
        state.apply(p, action)
        if both and p == 1 and not state.view(0)["placing"][1]["face_up"]:
            return i + 1
    raise AssertionError("no face-down placement in this game")


@pytest.fixture(scope="module")
def blog(tmp_path_factory):
    """A second server (another origin) for the blogger's pages; returns (dir, url)."""
    root = tmp_path_factory.mktemp("blog")
    server, url = relay.start_server_thread(0, root)
    yield root, url
    server.shutdown()
    server.server_close()


def blog_page(root, name: str, snippets: list[str], lang: str = "en") -> str:
    body = "\n".join(f"<section><h2>Board {i + 1}</h2>{s}</section>"
                     for i, s in enumerate(snippets))
    (root / name).write_text(
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>A blog about games</title></head><body><main><h1>How to play</h1>"
        f"<p>Step through the boards below.</p>{body}</main></body></html>",
        encoding="utf-8")
    return name


def embed(server_url: str, **params: str) -> str:
    return embed_snippet(server_url + "/", params, "A board")


def frame_of(page: Page, index: int) -> Frame:
    """The ``index``-th board, ready. Brought into view (loading="lazy": it loads when near
    the screen, and starts Python when on it) until its Python starts: the boards above it
    change height as they start, which can move it out of view again."""
    iframe = page.locator("iframe").nth(index)
    for _ in range(20):
        iframe.scroll_into_view_if_needed()
        frame = iframe.element_handle().content_frame()
        try:
            frame.wait_for_function("() => document.documentElement.dataset.python",
                                    polling=100, timeout=3_000)
            break
        except PlaywrightTimeout:
            continue
    frame.wait_for_selector(READY, timeout=90_000)
    return frame


def ply(frame: Frame) -> int:
    return int(frame.locator(LAYOUT).get_attribute("data-ply"))


def settled(frame: Frame) -> None:
    frame.wait_for_selector('#app[data-animating="false"]')


#: The ply the move list's next entry ends at (a simultaneous choice is one entry).
NEXT_MOVE = """() => {
  const now = document.querySelector('.move-list [aria-current="step"]').closest("li");
  return now.nextElementSibling.querySelector("button").dataset.ply;
}"""


@pytest.mark.parametrize("lang", ["ja"])
def test_every_rules_page_served_from_another_port_loads_its_boards(page: Page, server_url,
                                                                    tmp_path, lang):
    """The rules pages, built for a site on another port whose boards come from the app's
    (as a blog would embed them): every board loads, at the step its caption names.

    The English pages embed the same records with ``lang=en`` (tests/test_docs.py checks
    their addresses); each board starts its own Python, so one language is loaded here."""
    from tools import docsbuild

    boards = docsbuild.load_boards()
    docsbuild.build_docs(tmp_path, embed_base=server_url + "/")
    server, url = relay.start_server_thread(0, tmp_path)
    try:
        for gid in pygames.game_ids():
            page.goto(f"{url}/{lang}/{gid}.html")
            assert axe_problems(page) == [], f"{lang}/{gid}.html"
            frames = page.locator("iframe")
            assert frames.count() >= 2, f"{gid}: boards where a picture helps"
            for i in range(frames.count()):
                frame = frame_of(page, i)
                assert frame.url.startswith(server_url + "/embed.html")
                name = next(n for n, b in boards.items()
                            if b["game"] == gid and records.to_string(b["record"]) in frame.url)
                assert ply(frame) == int(boards[name]["ply"]), name
                assert frame.evaluate("document.documentElement.lang") == lang
    finally:
        server.shutdown()
        server.server_close()


#: Whether the move on screen is inside its move list's visible box (the list scrolls).
CURRENT_MOVE_IN_VIEW = """() => {
  const list = document.querySelector(".move-list");
  const step = list.querySelector('[aria-current="step"]');
  const a = list.getBoundingClientRect(), b = step.getBoundingClientRect();
  return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
}"""


def test_a_blog_page_on_another_origin_steps_every_games_board(page: Page, server_url, blog):
    root, url = blog
    recs = {gid: finished(gid, 3) for gid in pygames.game_ids()}
    snippets = [embed(server_url, game=gid, record=records.to_string(r), ply="2",
                      perspective="0", lang="ja") for gid, r in recs.items()]
    page.goto(f"{url}/{blog_page(root, 'steps.html', snippets, 'ja')}")
    runtimes = set()
    for i, gid in enumerate(recs):
        frame = frame_of(page, i)
        # Another origin's page, storage allowed: its boards share one Python runtime.
        assert frame.evaluate("document.documentElement.dataset.pythonWorker") == "shared"
        runtimes.add(frame.evaluate("document.documentElement.dataset.pythonRuntime"))
        assert frame.url.startswith(server_url), "the board comes from the app's origin"
        assert ply(frame) == 2, "ply=2 opens after the second action"
        assert frame.evaluate("document.documentElement.lang") == "ja"
        after = frame.evaluate(NEXT_MOVE)  # Next plays the next move (both programs at once)
        frame.locator('button[data-cmd="replay:next"]').click()
        expect(frame.locator(LAYOUT)).to_have_attribute("data-ply", after)
        settled(frame)
        frame.locator('button[data-cmd="replay:next"]').focus()
        page.keyboard.press("ArrowLeft")
        expect(frame.locator(LAYOUT)).to_have_attribute("data-ply", "2")
        page.keyboard.press("End")
        expect(frame.locator(LAYOUT)).to_have_attribute(
            "data-ply", str(len(recs[gid]["actions"])))
        settled(frame)
        frame.wait_for_function(CURRENT_MOVE_IN_VIEW, timeout=10_000)  # the last move shows
        page.keyboard.press("Home")
        expect(frame.locator(LAYOUT)).to_have_attribute("data-ply", "0")
        # The move list jumps too (to the end of its fourth move).
        entry = frame.locator(".move-list button[data-ply]").nth(3)
        target = entry.get_attribute("data-ply")
        entry.click()
        expect(frame.locator(LAYOUT)).to_have_attribute("data-ply", target)
    assert len(runtimes) == 1, runtimes


def test_the_iframe_height_follows_its_content(page: Page, server_url, blog):
    root, url = blog
    record = records.to_string(finished("canosa", 4))
    snippet = embed(server_url, game="canosa", record=record, moves="off")
    page.goto(f"{url}/{blog_page(root, 'height.html', [snippet])}")
    frame = frame_of(page, 0)
    iframe = page.locator("iframe").first

    def heights() -> tuple[float, float]:
        inner = frame.evaluate("document.body.getBoundingClientRect().height")
        return iframe.bounding_box()["height"], inner

    page.wait_for_function("() => document.querySelector('iframe').style.height !== '640px'")
    outer, inner = heights()
    assert abs(outer - inner) <= 2, (outer, inner)
    # A narrower page (a phone turned upright): the board's side panel moves under it.
    page.set_viewport_size({"width": 560, "height": 800})
    page.wait_for_function(f"() => document.querySelector('iframe').getBoundingClientRect()"
                           f".height > {outer + 20}")
    outer2, inner2 = heights()
    assert abs(outer2 - inner2) <= 2 and outer2 > outer


def test_perspective_keeps_a_face_down_card_out_of_the_dom(page: Page, server_url, blog):
    root, url = blog
    record = finished("cardia", 8)
    at = cardia_face_down_ply(record)
    state = pygames.get_game("cardia").from_record(dict(record, actions=record["actions"][:at]))
    hidden = state.view(1)["placing"][1]["value"]
    text = records.to_string(record)
    snippets = [embed(server_url, game="cardia", record=text, ply=str(at), perspective=p)
                for p in ("0", "open", "spectator")]
    page.goto(f"{url}/{blog_page(root, 'hidden.html', snippets)}")
    seat1 = '.enc.placing .side[data-seat="1"]'
    mine, opened, watcher = (frame_of(page, i) for i in range(3))
    assert mine.locator(f"{seat1} .ccard.back").count() == 1
    assert mine.locator(seat1).inner_text().strip() == "?", "no value behind the card back"
    assert mine.locator('[data-open-hand="1"]').count() == 0, "nor the opponent's hand"
    assert watcher.locator(f"{seat1} .ccard.back").count() == 1
    assert opened.locator(f"{seat1} .cv").inner_text() == str(hidden)
    assert opened.locator('[data-open-hand="1"]').count() == 1


def test_moves_controls_and_interactive(page: Page, server_url, blog):
    root, url = blog
    record = finished("canosa", 5)
    text = records.to_string(record)
    snippets = [
        embed(server_url, game="canosa", record=text, moves="off", controls="off", ply="3"),
        embed(server_url, game="canosa", record=text, moves="bottom", ply="6",
              interactive="on"),
    ]
    page.goto(f"{url}/{blog_page(root, 'moves.html', snippets)}")
    bare, live = frame_of(page, 0), frame_of(page, 1)
    assert bare.locator(".moves").count() == 0 and bare.locator(".replay-bar").count() == 0
    assert ply(bare) == 3
    assert live.locator("nav.moves.moves-bottom").count() == 1
    live.locator('button[data-cmd="replay:both"]').click()
    expect(live.locator(LAYOUT)).to_have_attribute("data-playing", "both")
    settled(live)
    # Play one move by clicking, as a reader would: a piece, then a lit square.
    for _ in range(20):
        settled(live)
        if live.locator(LAYOUT).get_attribute("data-played") != "0":
            break
        targets = live.locator(".canosa button.sq.target:not([disabled])")
        if targets.count():
            targets.first.click()
            continue
        live.locator(".canosa button.sq:not([disabled])").first.click()
    expect(live.locator(LAYOUT)).not_to_have_attribute("data-played", "0")
    live.locator('button[data-cmd="replay:back"]').click()
    expect(live.locator(LAYOUT)).to_have_attribute("data-playing", "")
    assert ply(live) == 6, "back on the recorded line, where the reader left it"


def test_the_embed_fits_a_phone_and_passes_axe_in_both_themes(new_context, server_url):
    record = records.to_string(finished("kiriai", 6))
    context = new_context(viewport={"width": 320, "height": 700})
    page = context.new_page()
    for theme in ("light", "dark"):
        query = urlencode({"game": "kiriai", "record": record, "ply": "4", "theme": theme,
                           "moves": "bottom"})
        page.goto(f"{server_url}/embed.html?{query}")
        page.wait_for_selector(READY)
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= 320, f"{theme}: {wide}px wide at 320"
        assert axe_problems(page) == [], theme


def test_a_bad_record_in_an_embed_says_what_is_wrong(page: Page, server_url):
    """In the page's language, the error screen's heading says what could not be done and
    its text the actual problem; it is the page's main landmark with its h1 (axe's
    moderate findings included)."""
    record = records.to_string(finished("kiriai", 7))
    page.goto(f"{server_url}/embed.html?game=kiriai&lang=ja&record={record[:-5]}")
    expect(page.locator("#load-error")).to_be_visible()
    expect(page.locator("main#load-error h1")).to_have_text("この記録は表示できません")
    assert "途中で切れ" in page.locator("#load-error-text").inner_text()
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert axe_problems(page, moderate=True) == []
    page.goto(f"{server_url}/embed.html?game=kiriai&lang=en")  # no record: not an empty game
    expect(page.locator("main#load-error h1")).to_have_text("Nothing to replay")
    expect(page.locator("#load-error-text")).to_contain_text("no record")
    expect(page.locator("#app")).to_be_hidden()


def test_the_app_shares_a_replay_and_opens_a_pasted_record(new_context, server_url):
    """From the full app's replay: copy the embed code (the clipboard gets it), preview
    it, then open a pasted score sheet with the "Open a record" form."""
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    record = finished("cardia", 9)
    query = urlencode({"mode": "replay", "record": records.to_string(record), "ply": "5",
                       "perspective": "1"})
    page.goto(f"{server_url}/play.html?{query}")
    page.wait_for_selector(READY)
    page.locator("details.share > summary").click()
    assert axe_problems(page) == [], "the replay viewer with its share panel open"
    code = page.locator("#share-embed").input_value()
    assert re.search(r'<iframe src="http://127\.0\.0\.1:\d+/embed\.html\?', code)
    assert "ply=5" in code and "perspective=1" in code
    page.locator('button[data-copy-from="share-embed"]').click()
    expect(page.locator("details.share [data-copied]").nth(2)).not_to_have_text("")
    assert page.evaluate("navigator.clipboard.readText()") == code
    page.locator("details.preview summary").click()
    iframe = page.locator("details.preview iframe")
    preview = iframe.element_handle().content_frame()
    preview.wait_for_selector(READY, timeout=90_000)
    assert ply(preview) == 5
    # The preview is as tall as its content (it was 420 px whatever it held), as a blog's
    # iframe with the embed code's script is; a report beyond the maximum is capped.
    page.wait_for_function("""() => {
        const f = document.querySelector("details.preview iframe");
        const inner = f.contentDocument.body.getBoundingClientRect().height;
        return inner > 420 && Math.abs(f.getBoundingClientRect().height - inner) <= 2;
    }""")
    assert preview.evaluate("document.documentElement.scrollHeight") <= (
        iframe.bounding_box()["height"] + 2), "nothing to scroll inside the preview"
    preview.evaluate("parent.postMessage({type: 'pygames:height', height: 50000}, '*')")
    page.wait_for_function("() => document.querySelector('details.preview iframe')"
                           ".getBoundingClientRect().height === 2400")
    # Open another game from its score sheet.
    other = finished("kiriai", 10)
    page.locator("#open-record-text").fill(records.to_sheet(other))
    page.locator("form.open-record button[type=submit]").click()
    page.wait_for_selector(READY)
    expect(page.locator(LAYOUT)).to_have_attribute("data-plies", str(len(other["actions"])))


def test_the_lobby_opens_a_score_sheet_file(page: Page, server_url, tmp_path):
    record = finished("canosa", 11)
    sheet = tmp_path / "canosa-game.txt"
    sheet.write_text(records.to_sheet(record), encoding="utf-8")
    page.goto(f"{server_url}/index.html?lang=ja")
    page.locator("#lobby-record-file").set_input_files(str(sheet))
    expect(page.locator("#lobby-record-text")).to_have_value(records.to_sheet(record))
    page.locator("form.open-record button[type=submit]").click()
    page.wait_for_selector(READY)
    expect(page.locator(LAYOUT)).to_have_attribute("data-plies", str(len(record["actions"])))
    assert page.evaluate("document.documentElement.lang") == "ja"
