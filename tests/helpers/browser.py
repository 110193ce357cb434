"""Helpers for the Chromium tests (Playwright pages of the app)."""

from __future__ import annotations

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


def click_cmd(page, cmd: str, timeout: int = 3_000) -> bool:
    """Click the enabled ``#app`` button whose ``data-cmd`` is ``cmd``; False on timeout."""
    try:
        page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
            timeout=timeout)
        return True
    except PlaywrightTimeoutError:  # re-rendered under the pointer (playback): look again
        return False
