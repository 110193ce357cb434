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
from helpers.browser import READY, axe_problems, click_some
from playwright.sync_api import Page

import pygames


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lobby_has_no_serious_accessibility_violation(page: Page, lang):
    page.goto(f"/index.html?lang={lang}")
    page.wait_for_selector(READY)
    page.locator("details.options summary").first.click()
    assert axe_problems(page) == []


@pytest.mark.parametrize("gid", pygames.game_ids())
@pytest.mark.parametrize("mode", ["bot", "hotseat"])
def test_tables_have_no_serious_accessibility_violation(page: Page, gid, mode):
    """At the start (the hand-over screen in hot seat) and mid-game. The game-over screen
    and the final board are checked at the end of each game's whole game vs the bot
    (test_browser_worker), the link-play pages in test_browser_link's whole games."""
    lang = "ja" if mode == "hotseat" else "en"
    page.goto(f"/play.html?game={gid}&mode={mode}&lang={lang}&seed=5&speed=0")
    page.wait_for_selector(READY)
    assert axe_problems(page) == [], "at the start"
    click_some(page, random.Random(5), 12)
    assert axe_problems(page) == [], "mid-game"


def test_error_screen_has_no_serious_accessibility_violation(page: Page):
    page.goto("/play.html?game=nosuchgame&lang=en")
    page.wait_for_selector('html[data-failed="true"]')
    assert axe_problems(page) == []
