"""Python runs in a worker: the page never freezes, and the worker's glue does its job.

The first tests are plain CPython: the query parsing and the session the worker drives
(``pgui.session_glue``). The rest drive a real Chromium: no main-thread task over 200 ms
from opening the lobby to the end of a game (Python on the main thread makes tasks of
seconds), a lobby that answers while Python starts, load progress, load failures, and a
table inside another site's iframe (no cross-origin isolation needed).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from pgui.session_glue import Session, make_table, parse_options, parse_query, query_lang
from playwright.sync_api import Page, expect
from test_browser_a11y import click_some
from test_browser_kiriai import READY, open_lobby, play_to_the_end, start_from_lobby

import pygames
from tools import relay
from tools.paths import ROOT

# --------------------------------------------------------------------------- CPython


def test_query_parsing_takes_the_first_value_like_urlsearchparams():
    assert parse_query("?game=kiriai&mode=bot&mode=hotseat&x=a+b%21") == {
        "game": "kiriai", "mode": "bot", "x": "a b!"}
    assert parse_query("") == {}


def test_language_comes_from_the_query_then_saved_then_browser():
    assert query_lang({"lang": "ja"}, "en", "en-US") == "ja"
    assert query_lang({"lang": "fr"}, "ja", "en-US") == "ja"
    assert query_lang({}, None, "ja-JP") == "ja"
    assert query_lang({}, None, None) == "en"


def test_options_are_matched_against_the_game_as_text():
    game = pygames.get_game(pygames.game_ids()[0])
    name, spec = next(iter(game.option_schema.items()))
    value = spec["values"][-1]
    assert parse_options(game, {name: str(value)}) == {name: value}
    with pytest.raises(ValueError, match=name):
        parse_options(game, {name: "no-such-value"})


def test_make_table_defaults_to_the_first_game_and_a_given_deal():
    table = make_table("", saved_lang=None, nav_lang="ja-JP", seed=12)
    assert table.game.id == pygames.game_ids()[0]
    assert (table.mode, table.seed, table.lang, table.speed) == ("bot", 12, "ja", 900)
    table = make_table("mode=hotseat&seed=5&speed=0&lang=en", seed=12)
    assert (table.mode, table.seed, table.lang, table.speed) == ("hotseat", 5, "en", 0)


def test_session_results_are_small_json_for_the_page():
    session = Session()
    gid = pygames.game_ids()[0]
    result = session.open(f"game={gid}&mode=bot&seed=3&speed=0", saved_lang="en")
    assert set(result) == {"html", "animating", "over", "lang", "title", "delay", "thinking",
                           "changed", "bot", "local"}  # local: the game to keep (pgui.saved)
    assert json.loads(json.dumps(result)) == result
    assert result["title"] == pygames.get_game(gid).names["en"]
    assert result["lang"] == "en" and not result["over"]
    switched = session.command("lang:ja")
    assert switched["lang"] == "ja" and switched["title"] == pygames.get_game(gid).names["ja"]
    assert session.advance()["html"] == switched["html"]  # nothing to play back: unchanged


def test_a_bad_link_gets_a_readable_error_in_the_players_language():
    result = Session().open("game=chess&lang=ja")
    assert set(result) == {"error", "lang"}
    assert result["lang"] == "ja"
    assert result["error"].startswith("このリンクのゲーム・モード・オプションは存在しません")
    assert "unknown game 'chess'" in result["error"]
    result = Session().open("mode=nobody", saved_lang="en")
    assert "does not exist" in result["error"] and "nobody" in result["error"]


def test_glue_names_no_game():
    for path in (ROOT / "web/pgui/session_glue.py", ROOT / "web/worker.py",
                 ROOT / "web/glue.js", ROOT / "web/boot.js"):
        text = path.read_text(encoding="utf-8")
        named = [gid for gid in [*pygames.game_ids(), *pygames.PLANNED] if gid in text]
        assert not named, f"{path.name} names {named}"
        assert "_ui" not in text, f"{path.name} reaches into a game's UI module"


# --------------------------------------------------------------------------- Chromium

#: Installed before any page script: every main-thread task of 50 ms or more.
LONG_TASKS = """
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
}).observe({ type: "longtask", buffered: true });
"""
LIMIT_MS = 200
PYTHON_READY = "() => Boolean(window.pygamesOpen)"


def long_tasks(page: Page) -> list[int]:
    return page.evaluate("window.__longTasks.slice()")


def assert_the_probe_sees_a_long_task(page: Page) -> None:
    """Guard against a probe that sees nothing: a 300 ms busy loop must show up."""
    before = len(long_tasks(page))
    page.evaluate("() => setTimeout(() => {"
                  " const t = performance.now(); while (performance.now() - t < 300); })")
    page.wait_for_function(f"() => window.__longTasks.length > {before}")
    assert max(long_tasks(page)[before:]) >= 250


def test_no_long_task_from_the_lobby_through_a_whole_game(page: Page, page_errors):
    page.add_init_script(LONG_TASKS)
    open_lobby(page)
    page.wait_for_function(PYTHON_READY)  # the whole start of Python behind the lobby
    page.wait_for_timeout(200)
    assert not [t for t in long_tasks(page) if t > LIMIT_MS], long_tasks(page)
    start_from_lobby(page, mode="bot")
    play_to_the_end(page)
    expect(page.locator(".overlay.gameover")).to_be_visible()
    tasks = long_tasks(page)
    assert not [t for t in tasks if t > LIMIT_MS], f"main-thread tasks (ms): {tasks}"
    assert_the_probe_sees_a_long_task(page)
    assert not [e for e in page_errors if "Error" in e], page_errors


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_no_long_task_from_a_table_link_through_a_whole_game(page: Page, page_errors, gid):
    page.add_init_script(LONG_TASKS)
    page.goto(f"/play.html?game={gid}&mode=bot&seed=11&speed=20&lang=en")
    page.wait_for_selector(READY)
    click_some(page, random.Random(11), 3_000)  # every game, played by clicking to the end
    expect(page.locator(".overlay.gameover")).to_be_visible()
    tasks = long_tasks(page)
    assert not [t for t in tasks if t > LIMIT_MS], f"main-thread tasks (ms): {tasks}"
    assert_the_probe_sees_a_long_task(page)
    assert not [e for e in page_errors if "Error" in e], page_errors


def test_the_lobby_answers_while_python_is_still_starting(page: Page):
    held = []  # our wheel: Python cannot be ready before it arrives
    page.route("**/wheels/*.whl", lambda route: held.append(route))
    open_lobby(page)
    expect(page.locator("html")).to_have_attribute("data-python", "loading")
    page.wait_for_function("() => document.documentElement.dataset.pythonStage === 'runtime'")
    assert page.evaluate("!window.pygamesOpen")
    # Options open at once, the language switches at once: the page is not frozen.
    card = page.locator("#game-kiriai")
    card.locator("details.options summary").click(timeout=2_000)
    expect(card.locator("details.options")).to_have_attribute("open", "", timeout=1_000)
    card.locator('input[name="battlefield"][value="advanced"]').check(timeout=1_000)
    page.click("#lang-toggle", timeout=1_000)
    expect(page.locator("html")).to_have_attribute("lang", "ja", timeout=1_000)
    assert page.evaluate("!window.pygamesOpen"), "Python was ready: the test proved nothing"
    # Play answers at once too: progress, then the table as soon as Python is there.
    card.locator("button.play").click(timeout=2_000)
    expect(page.locator("#loading")).to_be_visible(timeout=1_000)
    expect(page.locator("#load-progress")).to_be_visible()
    for _ in range(600):  # the wheel is asked for once the runtime is up
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the wheel was never requested"
    for route in held:
        route.fallback()
    page.unroute("**/wheels/*.whl")
    page.wait_for_url(re.compile(r"/play\.html\?.*battlefield=advanced"))
    page.wait_for_selector(READY)
    expect(page.locator(".space")).to_have_count(7)
    expect(page.locator("#app .bar h1")).to_have_text("キリアイ･ザ･デュエル")


def test_load_progress_moves_in_stages_until_the_table_is_ready(page: Page):
    page.goto("/play.html?game=kiriai&mode=bot&lang=en")
    values, stages = [], []
    while not page.evaluate("document.documentElement.dataset.ready === 'true'"):
        sample = page.evaluate(
            "[Number(document.getElementById('load-progress').value),"
            " document.documentElement.dataset.pythonStage || '',"
            " [...document.querySelectorAll('#load-detail [data-stage]')]"
            "   .filter(s => !s.hidden).map(s => s.dataset.stage).join()]")
        values.append(sample[0])
        if sample[1] and (not stages or stages[-1] != sample[1]):
            stages.append(sample[1])
            assert sample[2] == sample[1], sample  # the words of the stage are on screen
        page.wait_for_timeout(50)
    assert values == sorted(values), "the progress bar went backwards"
    assert len(set(values)) >= 3, values
    order = ["page", "runtime", "games", "ready"]
    assert "runtime" in stages and stages == sorted(stages, key=order.index), stages
    expect(page.locator("#loading")).to_be_hidden()


@pytest.mark.parametrize(("blocked", "how"), [
    ("**/pyodide/pyodide.mjs", "abort"),  # the runtime cannot load
    ("**/wheels/*.whl", "404"),  # the runtime starts, our Python cannot import the games
])
def test_a_worker_that_cannot_start_gets_the_error_screen(page: Page, page_errors, blocked, how):
    page.route(blocked, lambda route: route.abort() if how == "abort" else route.fulfill(
        status=404, body="not here"))
    page.goto("/play.html?game=kiriai&mode=bot&lang=en")
    box = page.locator("#load-error")
    expect(box).to_be_visible()
    expect(box).to_contain_text("The game could not start")
    assert page.locator("#load-error-text").text_content().strip()
    expect(page.locator("html")).to_have_attribute("data-python", "failed")
    expect(page.locator("#loading")).to_be_hidden()
    page_errors.clear()  # the failed loads are expected to be reported in the console
    if how != "abort":
        return
    # From the lobby: the lobby still works, and Play explains the failure.
    open_lobby(page)
    expect(page.locator("html")).to_have_attribute("data-python", "failed")
    page.locator("#game-kiriai button.play").click()
    expect(box).to_be_visible()
    page_errors.clear()  # the failed loads are expected to be reported in the console


def test_a_table_inside_another_sites_iframe(page: Page, server_url, tmp_path):
    # Another origin (its own server, another port) embeds a table: no cross-origin
    # isolation headers are needed, so the worker starts inside any site's iframe.
    table = f"{server_url}/play.html?game=kiriai&mode=hotseat&lang=en"
    (tmp_path / "host.html").write_text(
        f'<!doctype html><title>host</title><iframe src="{table}" width="900" '
        'height="600"></iframe>', encoding="utf-8")
    host, host_url = relay.start_server_thread(0, tmp_path, log_errors=False)
    try:
        page.goto(f"{host_url}/host.html")
        frame = page.frame_locator("iframe")
        expect(frame.locator(".overlay.handover")).to_contain_text("Pass the device to Red")
        frame.locator('[data-cmd="handover-ok"]').click()
        expect(frame.locator(".hand h2")).to_have_text("Your hand")
        [child] = [f for f in page.frames if f.url.startswith(server_url)]
        assert child.evaluate("crossOriginIsolated") is False
        assert page.evaluate("location.origin") != child.evaluate("location.origin")
    finally:
        host.shutdown()
        host.server_close()
