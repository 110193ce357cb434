"""Canosa in a real Chromium, played the way a person plays: from the lobby, by clicks.

Every test runs behind the network guard in conftest.py: a request that leaves
127.0.0.1 fails the test.
"""

from __future__ import annotations

import random
import re

import pytest
from helpers.browser import READY, click_cmd, click_some, overflowing, phone_check, table_now
from helpers.lobby import choose
from playwright.sync_api import Page, expect

TABLE = ".canosa[data-rows]"
#: What Canosa's table offers besides (:func:`helpers.browser.table_now`): the lit squares
#: (with the actions each plays), the pieces that can be picked, a chooser's buttons.
SQUARES = """
    targets: on(".canosa button.sq.target:not([disabled])"),
    actions: [...app.querySelectorAll(".canosa button.sq.target")]
        .map(e => e.dataset.actions),
    pieces: on(".canosa button.sq:not(.target):not([disabled])"),
    acts: on(".canosa button[data-cmd^='act:']"),"""


def test_whole_game_vs_bot_from_the_lobby_by_clicking_squares(page: Page):
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    card = page.locator("#game-canosa")
    expect(card).to_contain_text("Canosa")
    choose(page, "canosa", mode="bot", bot="easy")
    card.locator("button.play").click()
    page.wait_for_url(re.compile(r"/play\.html\?.*game=canosa"))
    page.wait_for_selector(TABLE)
    expect(page.locator("#app h1")).to_have_text("Canosa")
    expect(page.locator(".canosa button.sq")).to_have_count(36)
    rng = random.Random(7)
    played = 0
    for _ in range(4_000):
        now = table_now(page, SQUARES)
        if now["over"] and not now["animating"]:
            break
        if now["animating"]:  # a playback (Skip it) or a click on its way to Python
            if "skip" in now["cmds"]:
                click_cmd(page, "skip", timeout=500)
            else:
                page.wait_for_timeout(20)
            continue
        if now["acts"]:  # a give-or-take chooser (or a selected sailor's ring buttons)
            if click_cmd(page, rng.choice(now["acts"])):
                played += 1
        elif now["targets"]:  # a piece is selected (or a placement): play a highlighted square
            assert all(now["actions"]), now
            # Sailor moves first, so that the game ends sooner.
            moves = [c for c, a in zip(now["targets"], now["actions"], strict=True)
                     if re.fullmatch(r"[a-z]\d+-[a-z]\d+", a.split()[0])]
            if click_cmd(page, rng.choice(moves or now["targets"])):
                played += 1
        elif now["pieces"]:
            assert now["prompt"].startswith("Your turn"), now
            click_cmd(page, rng.choice(now["pieces"]))
        else:  # the bot is thinking
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the game did not end")
    overlay = page.locator(".overlay.gameover")
    expect(overlay).to_be_visible()
    expect(overlay).to_contain_text(re.compile("You (win|lose)"))
    expect(overlay).to_contain_text(re.compile("4 sailors home|whole turn"))
    assert played >= 10
    log = page.locator(".log-lines li").all_inner_texts()
    assert any("moves a sailor" in line for line in log)
    # Your moves are yours, the bot's are Silver's.
    assert any(line.startswith("You ") for line in log), log
    assert any(line.startswith("Silver") for line in log), log
    page.click('[data-cmd="dismiss"]')
    expect(page.locator(".endbar")).to_be_visible()
    expect(page.locator(".canosa .cboard")).to_be_visible()


def test_select_play_and_undo_by_keyboard_and_clicks(page: Page):
    page.goto("/play.html?game=canosa&mode=bot&seed=3&lang=en&speed=0&bot=easy")
    page.wait_for_selector(READY)
    settled = page.locator('#app[data-animating="false"]')
    # Gold's one-action first turn, by keyboard: Tab to the siren, Enter, Tab, Enter.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.cmd === 'sq:a1'"):
            break
    else:
        raise AssertionError("Tab never reached the siren on a1")
    page.keyboard.press("Enter")
    expect(page.locator('button[data-sq="a1"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".canosa button.sq.target")).to_have_count(3)  # a2, b1, b2
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('target')"):
            break
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert label.endswith("move here"), label
    page.keyboard.press("Enter")
    # The bot answers; then a sailor move by clicks, and Undo takes it back.
    expect(page.locator(".round")).to_contain_text("Turn 3 · your turn · 2 actions left")
    settled.wait_for()
    page.locator(".canosa button.sq.can-act:not([data-sq='a1'])").first.click()
    page.locator(".canosa button.sq.target").first.click()
    expect(page.locator(".round")).to_contain_text("your turn · 1 action left")
    page.locator('[data-cmd="undo"]').click()
    expect(page.locator(".round")).to_contain_text("your turn · 2 actions left")
    expect(page.locator('[data-cmd="undo"]')).to_have_count(0)


def test_phone_width_board_fits_without_sideways_scroll(new_context):
    ctx = new_context(viewport={"width": 320, "height": 640}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    for layout, n in (("standard", 36), ("small", 25)):
        page.goto(f"/play.html?game=canosa&mode=bot&bot=easy&seed=2&speed=0&lang=ja&layout={layout}")
        page.wait_for_selector(READY)
        squares = page.locator(".canosa button.sq")
        expect(squares).to_have_count(n)
        page.locator('button[data-sq="a1"]').tap()  # the siren: her moves light up
        expect(page.locator(".canosa button.sq.target").first).to_be_visible()
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"the Canosa table is {width}px wide on a 320px screen"
        box = squares.first.bounding_box()
        assert box["width"] >= 32 and box["height"] >= 32, box
        board = page.locator(".canosa .cboard").bounding_box()
        assert board["x"] >= 0 and board["x"] + board["width"] <= 320, board
    ctx.close()


#: What a phone shows at once during play (the log and the rules may come below): the
#: players' panels, the board, the status line and the current choice's buttons, each wholly
#: inside the viewport, the page scrolled neither down nor sideways.
OFF_SCREEN = """() => {
  const out = [];
  if (scrollY || document.documentElement.scrollWidth > innerWidth)
    out.push(`the page scrolled: ${scrollY} down, ${document.documentElement.scrollWidth} wide`);
  for (const sel of [".canosa .cpanels", ".canosa .cboard", "#app [data-status]",
                     ".canosa .canosa-acts"]) {
    const el = document.querySelector(sel);
    if (!el) continue;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth)
      out.push(`${sel} ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}`);
  }
  return out;
}"""
#: The table's words, each of which must fit its box.
WORDS = (".canosa .round, .canosa .cpanel-c h2, .canosa .stat, .canosa .prompt, "
         ".canosa .canosa-acts button, .canosa .isle-tag")


@pytest.mark.parametrize(("width", "height", "lang"), [(390, 844, "en"), (360, 740, "ja")])
def test_a_phone_shows_the_board_the_status_and_the_choice_on_one_screen(
        new_context, width, height, lang):
    ctx = new_context(viewport={"width": width, "height": height}, is_mobile=True,
                      has_touch=True)
    page = ctx.new_page()
    page.goto(f"/play.html?game=canosa&mode=bot&bot=easy&seed=9&speed=0&lang={lang}")
    page.wait_for_selector(READY)
    seen = {"states": 0, "ring buttons": 0}

    def check(page: Page) -> None:
        assert page.evaluate(OFF_SCREEN) == [], page.locator("#app [data-status]").inner_text()
        phone_check(page)
        assert overflowing(page, WORDS) == []
        seen["states"] += 1
        seen["ring buttons"] += page.locator(".canosa .canosa-acts .ringact").count() > 0

    click_some(page, random.Random(width + len(lang)), 160, check=check)
    assert seen["states"] >= 60 and seen["ring buttons"] >= 3, seen
    # The sailors brought home so far are in the panels, on the same screen (once the last
    # playback, perhaps the game's end, has run).
    page.locator('#app[data-animating="false"]').wait_for()
    home = page.locator(".canosa .cpanel-c .slot.filled").count()
    assert home == sum(int(n) for n in page.locator(".canosa .cpanel-c").evaluate_all(
        "els => els.map(e => e.dataset.scored)"))
    ctx.close()


def test_a_wide_screen_gives_the_board_its_height_with_the_panels_beside_it(page: Page):
    page.set_viewport_size({"width": 1280, "height": 800})
    for layout, n in (("standard", 6), ("small", 5)):
        page.goto(f"/play.html?game=canosa&mode=bot&bot=easy&seed=2&speed=0&lang=en&layout={layout}")
        page.wait_for_selector(READY)
        page.locator('button[data-sq="a1"]').click()  # the siren: her moves light up
        expect(page.locator(".canosa button.sq.target").first).to_be_visible()
        board = page.locator(".canosa .cboard").bounding_box()
        square = page.locator(".canosa button.sq").first.bounding_box()
        assert board["y"] >= 0 and board["y"] + board["height"] <= 800, board
        if n == 6:
            assert board["height"] >= 0.7 * 800, f"the board is {board['height']}px tall"
        assert 80 <= square["width"] <= 96, square  # big, and no bigger than comfortable
        for sel in (".canosa .cpanel-c.gold", ".canosa .cpanel-c.silver", "#app [data-status]"):
            box = page.locator(sel).bounding_box()
            assert box["x"] + box["width"] <= board["x"], (sel, box, board)  # beside it
            assert box["y"] + box["height"] <= 800, (sel, box)
        assert overflowing(page, WORDS) == []

