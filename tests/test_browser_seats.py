"""The lobby's seats for a game of 2-4 players in a real Chromium (issue 22): the count of
players shows that many seats' lists, choosing "you" moves you, the tile's line and the
hidden ``seats`` field follow, Play waits while the seats cannot be played, the lists speak
the page's language, nothing scrolls sideways at 320 px, axe finds nothing, and Play opens
``play.html`` with ``players=`` and ``seats=``.

No game of the registry is for more than two yet, so the lobby is rendered here with Tiny
Duel plugged in (tests/tinygame, as test_plugin.py registers it) and served in place of
dist/'s; the page's scripts are dist/'s own, with the app's stylesheet from web/. Python is
not started (glue.js is left out): the test stands in for it, opening the query Play gives."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pgui
import pytest
from helpers.browser import READY, axe_problems, small_targets
from playwright.sync_api import Page, expect

import pygames
from tools.paths import ROOT


@pytest.fixture
def lobby(page: Page) -> Page:
    pygames.register("tiny", "tinygame", "TinyGame")
    pgui.register_ui("tiny", "tinygame.ui")
    try:
        from pgui.lobby import render_lobby

        html = render_lobby()
    finally:
        pygames.unregister("tiny")
        pgui.UI_MODULES.pop("tiny", None)
    css = (ROOT / "web" / "app.css").read_text(encoding="utf-8")
    page.route(re.compile(r".*/index\.html(\?.*)?$"),
               lambda route: route.fulfill(body=html, content_type="text/html"))
    page.route(re.compile(r".*/app\.css$"),
               lambda route: route.fulfill(body=css, content_type="text/css"))
    for name in ("glue.js", "peer.js", "offline.js"):
        page.route(re.compile(rf".*/{re.escape(name)}$"),
                   lambda route: route.fulfill(body="", content_type="text/javascript"))
    page.route(re.compile(r".*/play\.html(\?.*)?$"),
               lambda route: route.fulfill(body="<!doctype html><title>table</title>",
                                           content_type="text/html"))
    return page


def test_the_seats_of_a_four_player_game_choose_who_plays_and_play_starts_them(lobby: Page):
    page = lobby
    page.set_viewport_size({"width": 320, "height": 700})
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    tile = page.locator("#game-tiny")
    line = tile.locator("#plan-tiny .l-en")
    expect(line).to_have_text("2 players · you · Normal bot")
    tile.locator("button.setup").focus()
    page.keyboard.press("Enter")
    panel = tile.locator("dialog.setup-panel")
    expect(panel).to_be_visible()
    assert page.evaluate("document.activeElement.name") == "players"
    page.keyboard.press("ArrowRight")  # 3 players: a third seat's list appears
    expect(panel.locator('input[name="players"][value="3"]')).to_be_checked()
    seat = [panel.locator(f"#tiny-seat-{i}") for i in range(4)]
    expect(seat[2]).to_be_visible()
    expect(seat[3]).to_be_hidden()
    expect(panel.get_by_label("Player 3")).to_have_value("normal")  # labelled lists
    foot = panel.locator(".panel-foot .plan-text .l-en")
    expect(foot).to_have_text("3 players · you · Normal bot · Normal bot")
    seat[1].focus()  # from the keyboard: the list takes its choice by typing
    seat[1].select_option("here")
    seat[2].select_option("strong")
    expect(foot).to_have_text("3 players · you · a person here · Strong bot")
    seat[2].select_option("you")  # you move to the third seat; the first takes its choice
    expect(seat[0]).to_have_value("strong")
    expect(foot).to_have_text("3 players · Strong bot · a person here · you")
    assert tile.locator('input[name="seats"]').input_value() == "strong,here,you"
    # Friends by link play with bots; with a person here they cannot: Play says why and
    # waits.
    problem = panel.locator(".seats-problem")
    seat[0].select_option("link")
    expect(problem).to_be_visible()
    expect(problem.locator(".l-en")).to_contain_text("not with a person here")
    expect(panel.locator("button.play-now")).to_be_disabled()
    expect(tile.locator("button.play")).to_be_disabled()
    seat[1].select_option("strong")
    expect(problem).to_be_hidden()
    expect(panel.locator("button.play-now")).to_be_enabled()
    seat[0].select_option("strong")
    seat[1].select_option("here")
    expect(problem).to_be_hidden()
    expect(panel.locator("button.play-now")).to_be_enabled()
    # 320 px wide: nothing scrolls sideways, in the dialog or the page.
    widths = page.evaluate("""() => [document.documentElement.scrollWidth,
        document.querySelector("#setup-tiny .panel-body").scrollWidth,
        document.querySelector("#setup-tiny .panel-body").clientWidth]""")
    assert widths[0] <= 320 and widths[1] <= widths[2], widths
    assert axe_problems(page) == []
    assert small_targets(page) == []
    page.keyboard.press("Escape")
    expect(line).to_have_text("3 players · Strong bot · a person here · you")
    page.click("#lang-toggle")  # the lists speak Japanese too
    expect(tile.locator("#plan-tiny .l-ja")).to_have_text(
        "3人 · ボット（つよい） · この端末の人 · あなた")
    assert seat[0].locator("option:checked").inner_text() == "ボット：つよい"
    # The query Play hands the boot glue (which glue.js would open in place): go there.
    page.evaluate("window.pygamesOpen = q => { if (q) location.href = './play.html?' + q; }")
    tile.locator("button.play").click()
    page.wait_for_url(re.compile(r"/play\.html\?"))
    query = parse_qs(urlsplit(page.url).query)
    assert query["game"] == ["tiny"] and query["players"] == ["3"]
    assert query["seats"] == ["strong,here,you"] and query["lang"] == ["ja"]
