"""Bots in the browser: levels and seats from the lobby, and a page that never freezes.

The bot searches in the Python worker a slice (~40 ms) at a time (``think``), so the main
thread runs no long script and a click on the table is answered while the bot thinks.
"""

from __future__ import annotations

import random

import pytest
from helpers.browser import (
    LONG_SCRIPTS,
    READY,
    assert_no_long_script,
    click_some,
    saved_games,
    settle,
)
from helpers.lobby import choose
from playwright.sync_api import Page, expect

import pygames

#: Games for two: the lobby sets their mode, bot and seat (a game for more sets players and
#: seats, which tests/test_browser_seats.py and each such game's own Chromium test cover).
FOR_TWO = [gid for gid in pygames.game_ids() if pygames.get_game(gid).max_players == 2]


@pytest.mark.parametrize("gid", FOR_TWO)
def test_the_lobby_sets_the_bots_level_and_your_seat(page: Page, gid):
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    card = page.locator(f"#game-{gid}")
    card.locator("button.setup").click()
    expect(card.locator(".vs-bot")).to_be_visible()  # only against the bot
    card.locator("dialog.setup-panel button.done").click()
    choose(page, gid, bot="easy", seat="1")
    card.locator("button.play").click()
    page.wait_for_selector(READY)
    assert "bot=easy" in page.url and "seat=1" in page.url
    # You are the second player, and the game goes on between you and the easy bot (each
    # game's whole game vs the bot is test_browser_worker's).
    rng = random.Random(1)
    for _ in range(20):  # a player's clicks (never taking back) until both have played
        click_some(page, rng, 2)
        settle(page)
        if max((g["moves"] for g in saved_games(page).values()), default=0) >= 2:
            break
    (game,) = saved_games(page).values()
    assert (game["human"], game["level"], game["mode"]) == (1, "easy", "bot")
    assert game["moves"] >= 2
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    page.locator(f"#game-{gid} button.setup").click()
    page.locator(f"#game-{gid}").locator('input[name="mode"][value="hotseat"]').check()
    expect(page.locator(f"#game-{gid} .vs-bot")).to_be_hidden()


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_a_strong_bot_thinks_without_freezing_the_page(page: Page, page_errors, gid):
    """While the strong bot thinks the main thread runs no long script, a 'thinking' status
    is shown, and a click on the table is answered before the bot has moved.

    The scripts counted begin once the table is on screen: the page's start, the table's
    first drawing with it, is test_browser_worker's (from a table link through a game)."""
    page.add_init_script(LONG_SCRIPTS)
    answered = 0
    for _ in range(4):  # a bot that thinks while you choose may be done before a click lands
        if not answered:
            drawn = _strong_bot_table(page, gid)
        answered += _clicks_answered_while_thinking(page)
        if answered:
            break
    assert answered, "never managed to click while the bot was thinking"
    assert_no_long_script(page, since=drawn)
    assert not [e for e in page_errors if "Error" in e], page_errors


def _strong_bot_table(page: Page, gid: str) -> float:
    """A table vs the strong bot in seat 0, so it thinks as soon as the table opens; the
    time it was drawn."""
    page.goto(f"/play.html?game={gid}&mode=bot&bot=strong&seat=1&seed=3&speed=0&lang=en")
    page.wait_for_selector(READY)
    return page.evaluate("performance.now()")


def _clicks_answered_while_thinking(page: Page) -> int:
    """Up to six times: play our part until the bot thinks, then click something of the
    game (or the language switch) and count it if the table answered while the bot still
    thought."""
    answered = 0
    for _ in range(6):
        rng = random.Random(answered)
        for _ in range(400):  # play our part (a Canosa turn takes several clicks) till it thinks
            if page.locator(".bar .thinking").count() or page.locator(
                    '#app[data-over="true"]').count():
                break
            click_some(page, rng, 1)
        if not page.locator(".bar .thinking").count():
            break  # over, or our random clicks did not get the game on: what we saw stands
        before = page.locator("#app").inner_html()
        buttons = page.locator("#app .main button[data-cmd]:not([disabled])")
        cmds = [c for c in buttons.evaluate_all("els => els.map(e => e.dataset.cmd)")
                if c not in ("confirm", "skip") and not c.startswith("lang:")]
        target = f'#app .main button[data-cmd="{cmds[0]}"]' if cmds else None
        if not cmds:  # nothing of the game to touch (turns alternate): switch the language
            target = '#app button[data-cmd^="lang:"]'
        if page.locator(".bar .thinking").count():
            page.locator(target).first.click()
            # Answered (the table changed) while the bot still thinks.
            page.wait_for_function(
                "b => document.querySelector('#app').innerHTML !== b", arg=before,
                timeout=2_000)
            answered += bool(page.locator(".bar .thinking").count())
    return answered
