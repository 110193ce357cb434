"""Python runs in a worker: the page never freezes.

In a real Chromium: no main-thread script over 200 ms from a table link to the end of every
game (Python on the main thread makes scripts of seconds; from the lobby through a whole
game is Kiri-ai's test_play_a_whole_game_against_the_bot), a lobby that answers while
Python starts, load progress, load failures, and a table inside another site's iframe (no
cross-origin isolation needed). The session the worker drives (``pgui.session_glue``) is
tested in CPython in test_session_glue.py.
"""

from __future__ import annotations

import random
import re

import pytest
from helpers.browser import (
    LONG_SCRIPTS,
    PHONE,
    READY,
    REVEAL_WATCH,
    assert_no_long_script,
    axe_problems,
    click_some,
    phone_check,
    reveal_misses,
)
from helpers.kiriai_pages import open_lobby
from playwright.sync_api import Page, expect

import pygames
from tools import relay

#: Options that shorten a long game (Electors' round limit of 10 halves it): every screen
#: of the game still comes, fewer times over.
SHORTER = {"electors": "&round_limit=10"}


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_no_long_script_from_a_table_link_through_a_whole_game(page: Page, page_errors, gid):
    """Every game's whole game vs the bot on a phone: no long script from the link to the
    game-over screen; before every click the status line and the current choice's controls
    are on screen, and whatever a step reveals is brought on screen; then (axe's own
    work is a long script) that screen and the final board reviewed after it pass axe-core
    (test_browser_a11y has the table's other states)."""
    page.set_viewport_size(PHONE)
    page.add_init_script(LONG_SCRIPTS)
    page.add_init_script(REVEAL_WATCH)
    page.goto(f"/play.html?game={gid}&mode=bot&bot=easy&seed=11&speed=20&lang=en"
              f"{SHORTER.get(gid, '')}")
    page.wait_for_selector(READY)
    # Every game, played by clicking to the end.
    click_some(page, random.Random(11), 3_000, check=phone_check)
    expect(page.locator(".overlay.gameover")).to_be_visible()
    assert reveal_misses(page) == [], "revealed off screen"
    assert_no_long_script(page)
    assert not [e for e in page_errors if "Error" in e], page_errors
    page.wait_for_selector('#app[data-over="true"]')
    assert axe_problems(page) == [], "game over"
    page.click('[data-cmd="dismiss"]')
    assert axe_problems(page) == [], "reviewing the final board"


def test_the_lobby_answers_while_python_is_still_starting(page: Page):
    held = []  # our wheel: Python cannot be ready before it arrives
    page.route("**/wheels/*.whl", lambda route: held.append(route))
    open_lobby(page)
    expect(page.locator("html")).to_have_attribute("data-python", "loading")
    page.wait_for_function("() => document.documentElement.dataset.pythonStage === 'runtime'")
    assert page.evaluate("!window.pygamesOpen")
    # Options open at once, the language switches at once: the page is not frozen.
    card = page.locator("#game-kiriai")
    card.locator("button.setup").click(timeout=2_000)
    expect(card.locator("dialog.setup-panel")).to_be_visible(timeout=1_000)
    card.locator('input[name="battlefield"][value="advanced"]').check(timeout=1_000)
    card.locator("dialog.setup-panel button.done").click(timeout=1_000)
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
