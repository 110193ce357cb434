"""Every page passes axe-core in Chromium with no serious or critical violation; the
table, replay, embed and error pages with no moderate one either (each has its main
landmark and its h1).

axe-core comes from the npm registry (a devDependency in package.json, pinned in
package-lock.json) and is injected into the page by the test (helpers/browser.py); it is
never served in dist/.
Pages are checked in the states a player meets: the lobby in both languages, every game's
table in both modes (hand-over screen, mid-game), and the error screen of a bad link; the
game-over screen and the final board at the end of each game's whole game vs the bot
(test_browser_worker), and link play's invitation, Join screen and connected tables in each
game's whole game by link (test_browser_link).
"""

from __future__ import annotations

import random

import pytest
from helpers.browser import PHONE, READY, axe_problems, click_some, small_targets
from playwright.sync_api import Page

import pygames
from pygames import records
from pygames.bots import self_play

#: Visible main landmarks and level-one headings (a visually hidden h1 counts).
LANDMARKS = """() => {
  const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
  return {main: shown("main, [role=main]").length, h1: shown("h1").length};
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lobby_has_no_serious_accessibility_violation(page: Page, lang):
    """English on a desktop, Japanese on a phone, where every tap target is 44 px."""
    if lang == "ja":
        page.set_viewport_size(PHONE)
    page.goto(f"/index.html?lang={lang}")
    page.wait_for_selector(READY)
    assert axe_problems(page) == []
    if lang == "ja":
        assert small_targets(page) == []
    for gid in pygames.game_ids():  # every game's settings dialog, open
        page.locator(f"#game-{gid} button.setup").click()
        assert axe_problems(page) == [], gid
        if lang == "ja":
            assert small_targets(page) == [], gid
        page.keyboard.press("Escape")


@pytest.mark.parametrize("gid", pygames.game_ids())
@pytest.mark.parametrize("mode", ["bot", "hotseat"])
def test_tables_have_no_serious_accessibility_violation(page: Page, gid, mode):
    """At the start (the hand-over screen in hot seat) and mid-game. The game-over screen
    and the final board are checked at the end of each game's whole game vs the bot
    (test_browser_worker), the link-play pages in test_browser_link's whole games."""
    lang = "ja" if mode == "hotseat" else "en"
    phone = mode == "hotseat"  # pass and play in Japanese on a phone: 44 px tap targets
    if phone:
        page.set_viewport_size(PHONE)
    page.goto(f"/play.html?game={gid}&mode={mode}&lang={lang}&seed=5&speed=0")
    page.wait_for_selector(READY)
    assert axe_problems(page, moderate=True) == [], "at the start"
    if phone:
        assert small_targets(page) == [], "at the start"
    click_some(page, random.Random(5), 12)
    assert axe_problems(page, moderate=True) == [], "mid-game"
    if phone:
        page.evaluate("document.querySelectorAll('#app details').forEach(d => d.open = true)")
        assert small_targets(page) == [], "mid-game, every panel open"


def test_error_screen_has_no_serious_accessibility_violation(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/play.html?game=nosuchgame&lang=en")
    page.wait_for_selector('html[data-failed="true"]')
    assert axe_problems(page, moderate=True) == []
    assert small_targets(page) == []
    assert page.evaluate(LANDMARKS) == {"main": 1, "h1": 1}
    assert page.locator("main:visible h1").inner_text() == (
        "This link names a game, mode or option that does not exist.")


@pytest.mark.parametrize("path", ["play.html", "embed.html"])
def test_replays_and_embeds_have_their_landmarks_and_no_moderate_violation(page: Page, path):
    """A finished game's replay in Japanese (the full page, its share panel open) and in an
    embed (no header bar: its h1 is for screen readers)."""
    gid = pygames.game_ids()[0]
    record = records.to_string(self_play(pygames.get_game(gid), seed=5).record())
    page.goto(f"/{path}?mode=replay&record={record}&ply=4&lang=ja")
    page.wait_for_selector(READY)
    if path == "play.html":
        page.locator("details.share > summary").click()
    assert page.evaluate(LANDMARKS) == {"main": 1, "h1": 1}
    assert pygames.get_game(gid).names["ja"] in page.locator("#app h1").text_content()
    assert axe_problems(page, moderate=True) == []


def test_every_page_has_one_main_landmark_and_one_h1(page: Page):
    """The lobby, a table, the loading screen and the rules pages (replays, embeds and the
    error screen above)."""
    for address in ("/index.html?lang=ja", "/docs/index.html", "/docs/ja/"
                    f"{pygames.game_ids()[0]}.html", "/play.html?mode=hotseat&lang=en"):
        page.goto(address)
        if not address.startswith("/docs/"):
            page.wait_for_selector(READY)
        assert page.evaluate(LANDMARKS) == {"main": 1, "h1": 1}, address
    page.route("**/worker.py", lambda route: None)  # Python never comes: the loading screen
    page.goto("/play.html?lang=en")
    page.wait_for_selector("main#loading h1")
    assert page.evaluate(LANDMARKS) == {"main": 1, "h1": 1}
