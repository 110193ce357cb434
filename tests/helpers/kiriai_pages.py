"""Kiri-ai's pages in Chromium, driven the way a person plays: the lobby, a round
programmed by clicks, a whole game (kiriai/test_browser_kiriai.py, test_browser_worker.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from helpers.browser import READY
from helpers.lobby import choose


def open_lobby(page: Page, lang: str = "en") -> None:
    page.goto(f"/index.html?lang={lang}")
    page.wait_for_selector(READY)


def start_from_lobby(page: Page, *, mode: str = "bot", battlefield: str = "standard") -> None:
    """Kiri-ai's card in the open lobby: the mode (and battlefield), then Play."""
    card = choose(page, "kiriai", mode=mode, battlefield=battlefield)
    card.locator("button.play").click()
    page.wait_for_url(re.compile(r"/play\.html\?"))
    page.wait_for_selector(READY)


def enabled(page: Page, selector: str):
    return page.locator(f"{selector}:not([disabled])")


def program_round(page: Page, first: str | None = None, second: str | None = None) -> None:
    """Click two cards in the hand (the given letters, else the first enabled ones), Confirm."""
    for letter in (first, second):
        if letter:
            page.click(f'.hand [data-cmd="pick:{letter}"]')
        else:
            enabled(page, '.hand button[data-cmd^="pick:"]').first.click()
    page.click('[data-cmd="confirm"]')


def choose_start(page: Page) -> None:
    enabled(page, ".zone-pick").first.click()
    page.click('[data-cmd="stance:H"]')
    page.click('[data-cmd="confirm"]')


def finish_reveal(page: Page) -> None:
    """Skip the step-by-step playback like an impatient player."""
    skip = page.locator('[data-cmd="skip"]')
    if skip.count():
        try:
            skip.click(timeout=3_000)
        except PlaywrightTimeoutError:
            pass  # the playback ended on its own in the meantime
    expect(page.locator("#app")).to_have_attribute("data-animating", "false")


def play_to_the_end(page: Page, max_rounds: int = 300) -> None:
    """Program rounds (and the start, on the advanced battlefield) until the game is over."""
    for _ in range(max_rounds):
        if page.locator(".overlay.gameover").count():
            return
        finish_reveal(page)
        if page.locator(".overlay.gameover").count():
            return
        if page.locator(".overlay.handover").count():
            page.click('[data-cmd="handover-ok"]')
            continue
        if page.locator(".zone-pick").count():
            choose_start(page)
        else:
            program_round(page)
    pytest.fail("the game did not end")
