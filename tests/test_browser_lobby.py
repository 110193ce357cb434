"""The lobby's game tiles in a real Chromium (issue 20): Play is on screen as the page
opens, on a phone and a laptop; the settings open in a dialog over the page (it moves
nothing), from the keyboard too; the tile's line says what Play will start and stays true
as choices change, in both languages; Play starts exactly that. Saved games listed above
the fold are test_browser_saved's; axe on the tiles and dialogs is test_browser_a11y's."""

from __future__ import annotations

import re

import pytest
from helpers.browser import PHONE, READY
from helpers.lobby import plays_off_screen
from playwright.sync_api import Page, expect

LAPTOP = {"width": 1280, "height": 800}


def where_plays_are(page: Page) -> list[list[float]]:
    """Each Play button's place in the document (not the viewport: scrolling is no move)."""
    return page.evaluate("""[...document.querySelectorAll("button.play")].map(b => {
        const r = b.getBoundingClientRect();
        return [r.left + scrollX, r.top + scrollY, r.width, r.height];
    })""")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_play_is_on_screen_without_scrolling(page: Page, size, lang):
    """390 × 844: the first game's whole tile, picture to Play; 1280 × 800: every game's Play."""
    page.set_viewport_size(PHONE if size == "phone" else LAPTOP)
    page.goto(f"/index.html?lang={lang}")
    page.wait_for_selector(READY)
    assert plays_off_screen(page, first_only=size == "phone") == []
    first = page.locator(".game:not(.planned)").first
    box = first.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]
    expect(first.locator(".thumb svg")).to_be_visible()


def test_the_settings_move_nothing_and_the_tiles_line_says_what_play_starts(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    tile = page.locator("#game-cardia")
    line = tile.locator("#plan-cardia")
    expect(line.locator(".l-en")).to_have_text("vs bot · Normal · you go first")
    plays = where_plays_are(page)
    # From the keyboard: Change opens the dialog on the mode, arrows choose.
    tile.locator("button.setup").focus()
    page.keyboard.press("Enter")
    panel = tile.locator("dialog.setup-panel")
    expect(panel).to_be_visible()
    assert page.evaluate("document.activeElement.name") == "mode"
    page.keyboard.press("ArrowDown")
    expect(panel.locator('input[name="mode"][value="hotseat"]')).to_be_checked()
    expect(panel.locator(".vs-bot")).to_be_hidden()  # no bot to choose in pass and play
    bazaar = panel.locator("label.choice", has=page.locator('input[value="bazaar"]'))
    expect(bazaar.locator(".help")).to_contain_text("whoever is down to one card")
    bazaar.click()
    expect(panel.locator(".panel-foot .plan-text .l-en")).to_have_text(
        "Pass and play · Location: Bazaar")
    assert where_plays_are(page) == plays, "opening the settings moved the page"
    page.keyboard.press("Escape")
    expect(panel).to_be_hidden()
    assert page.evaluate("document.activeElement.classList.contains('setup')")
    expect(line.locator(".l-en")).to_have_text("Pass and play · Location: Bazaar")
    page.click("#lang-toggle")
    expect(line.locator(".l-ja")).to_have_text("1台で交代 · ロケーションは市場")
    expect(line.locator(".l-en")).to_be_hidden()
    # Play starts what the line says.
    tile.locator("button.play").click()
    page.wait_for_url(re.compile(r"/play\.html\?"))
    assert re.search(r"game=cardia", page.url) and "mode=hotseat" in page.url
    assert "location=bazaar" in page.url and "lang=ja" in page.url
