"""Every page passes axe-core in Chromium with no serious or critical violation.

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
    assert axe_problems(page) == [], "at the start"
    if phone:
        assert small_targets(page) == [], "at the start"
    click_some(page, random.Random(5), 12)
    assert axe_problems(page) == [], "mid-game"
    if phone:
        page.evaluate("document.querySelectorAll('#app details').forEach(d => d.open = true)")
        assert small_targets(page) == [], "mid-game, every panel open"


def test_error_screen_has_no_serious_accessibility_violation(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/play.html?game=nosuchgame&lang=en")
    page.wait_for_selector('html[data-failed="true"]')
    assert axe_problems(page) == []
    assert small_targets(page) == []
