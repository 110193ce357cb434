"""Every page passes axe-core in Chromium with no serious or critical violation.

axe-core comes from the npm registry (a devDependency in package.json, pinned in
package-lock.json) and is injected into the page by the test (helpers/browser.py); it is
never served in dist/.
Pages are checked in the states a player meets: the lobby in both languages, every game's
table in both modes (hand-over screen, mid-game, game over), and the error screen of a bad
link.
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
    lang = "ja" if mode == "hotseat" else "en"
    page.goto(f"/play.html?game={gid}&mode={mode}&lang={lang}&seed=5&speed=0")
    page.wait_for_selector(READY)
    assert axe_problems(page) == [], "at the start"
    rng = random.Random(5)
    click_some(page, rng, 12)
    assert axe_problems(page) == [], "mid-game"
    click_some(page, rng, 3000)
    page.wait_for_selector('#app[data-over="true"]')
    page.wait_for_selector(".overlay.gameover")
    assert axe_problems(page) == [], "game over"
    page.click('[data-cmd="dismiss"]')
    assert axe_problems(page) == [], "reviewing the final board"


def test_error_screen_has_no_serious_accessibility_violation(page: Page):
    page.goto("/play.html?game=nosuchgame&lang=en")
    page.wait_for_selector('html[data-failed="true"]')
    assert axe_problems(page) == []


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_link_play_pages_have_no_serious_accessibility_violation(new_context, gid):
    """The host's invitation (with its QR code and copy-and-paste codes), the guest's Join
    screen, and both tables once connected."""
    perms = ["camera", "microphone"]
    host = new_context(permissions=perms).new_page()
    host.goto(f"/play.html?game={gid}&mode=link&lang=ja&speed=0")
    host.wait_for_selector(READY)
    host.locator("details.manual summary").click()
    host.locator('[data-link-cmd="offer"]').click()
    host.wait_for_selector("textarea[data-offer]")
    assert axe_problems(host) == [], "the host's invitation"
    invite = host.locator("[data-invite]").get_attribute("href")
    guest = new_context(permissions=perms).new_page()
    guest.goto(invite.replace("#", "&speed=0&lang=en#", 1))
    guest.wait_for_selector('[data-cmd="join"]')
    assert axe_problems(guest) == [], "the guest's Join screen"
    guest.locator('[data-cmd="join"]').click()
    for page in (host, guest):
        page.wait_for_selector("#app .main .peer-status, #app .bar .peer-status")
        page.wait_for_selector('#app[data-animating="false"]')
        assert axe_problems(page) == [], "a connected table"
