"""Link play in Chromium, for the tests of several modules: two people's pages, each
clicking its own screen, and what their connection shows."""

from __future__ import annotations

import random

from playwright.sync_api import Page

import pygames
from helpers.browser import click_a_move, link_record, over

#: Granted to a loopback test's contexts so that Chromium gathers 127.0.0.1 candidates
#: (with --allow-loopback-in-peer-connection, conftest's): real users need neither.
PERMS = ["camera", "microphone"]


def peer_state(page: Page) -> str:
    return page.evaluate("document.documentElement.dataset.peer || ''")


def wait_peer(page: Page, state: str, timeout: float = 30_000) -> None:
    page.wait_for_function(f"document.documentElement.dataset.peer === {state!r}",
                           timeout=timeout)


def play(host: Page, guest: Page, rng: random.Random, *, clicks: int | None = None,
         limit: int = 4000) -> None:
    """Both people click their own screens until the game is over (or ``clicks`` made)."""
    made = 0
    for _ in range(limit):
        if over(host) and over(guest):
            return
        if clicks is not None and made >= clicks:
            return
        acted = False
        for page in (host, guest):
            if click_a_move(page, rng):
                made += 1
                acted = True
        if not acted:
            host.wait_for_timeout(50)
    raise AssertionError("the game did not end by clicking on both screens")


def finish_and_check(host: Page, guest: Page, rng: random.Random, gid: str) -> None:
    play(host, guest, rng)
    guest.wait_for_selector('.verdict[data-verdict="ok"]', timeout=30_000)
    hrec, grec = link_record(host), link_record(guest)
    assert hrec == grec and hrec["game"] == gid
    state = pygames.get_game(gid).from_record(hrec)  # the record replays to the end
    assert state.is_over()
    assert peer_state(host) == peer_state(guest) == "connected"
