"""Kiri-ai in a real Chromium, driven the way a person plays: through the lobby, by clicks.

Every test runs behind the network guard in conftest.py: a request that leaves
127.0.0.1 fails the test.
"""

from __future__ import annotations

import re

import pytest
from helpers.browser import (
    LIMIT_MS,
    LONG_TASKS,
    PYTHON_READY,
    READY,
    assert_the_probe_sees_a_long_task,
    long_tasks,
)
from helpers.kiriai_pages import (
    finish_reveal,
    open_lobby,
    play_to_the_end,
    program_round,
    start_from_lobby,
)
from playwright.sync_api import Page, expect

import pygames


def test_lobby_is_plain_html_and_lists_the_games(page: Page):
    open_lobby(page)
    expect(page.locator("#game-kiriai h2")).to_contain_text("Kiri-ai: The Duel")
    # Games not built yet are announced, not playable.
    planned = page.locator(".game.planned")
    expect(planned).to_have_count(len(pygames.PLANNED))
    for gid in pygames.game_ids():  # every playable game has a form with Play
        expect(page.locator(f"#game-{gid} button.play")).to_be_visible()
    expect(planned.first).to_contain_text("Coming soon")
    expect(page.locator(".game.planned form")).to_have_count(0)


def test_play_a_whole_game_against_the_bot(page: Page, page_errors):
    """From the lobby to the game's end and a rematch, watched step by step, with no
    main-thread task over 200 ms on the way (Python starting behind the lobby included):
    the page never freezes (test_browser_worker has every game's from a table link)."""
    page.add_init_script(LONG_TASKS)
    open_lobby(page)
    page.wait_for_function(PYTHON_READY)  # the whole start of Python behind the lobby
    page.wait_for_timeout(200)
    assert not [t for t in long_tasks(page) if t > LIMIT_MS], long_tasks(page)
    start_from_lobby(page, mode="bot")
    expect(page.locator(".panel.blue")).to_contain_text("bot")
    expect(page.locator(".prompt")).to_contain_text("Your turn: choose 2 cards")
    # The first round, watched step by step: the reveal plays out before the next round.
    program_round(page, "C", "B")
    expect(page.locator("#app")).to_have_attribute("data-animating", "true")
    expect(page.locator(".log-lines")).to_contain_text("Reveal 1: your Charge", timeout=10_000)
    expect(page.locator("#app")).to_have_attribute("data-animating", "false", timeout=30_000)
    expect(page.locator(".kiriai")).to_have_attribute("data-round", "2")
    # High Strike... no: Balanced was Red's 2nd card, so it rests this round.
    expect(page.locator('.hand [data-cmd="pick:B"]')).to_be_disabled()
    play_to_the_end(page)
    over = page.locator(".overlay.gameover")
    expect(over).to_be_visible()
    expect(over.locator("h2")).to_have_text(re.compile(r"You win!|You lose\."))
    tasks = long_tasks(page)
    assert not [t for t in tasks if t > LIMIT_MS], f"main-thread tasks (ms): {tasks}"
    assert_the_probe_sees_a_long_task(page)
    errors = [e for e in page_errors if "Error" in e]
    assert not errors, errors
    # Rematch starts a fresh duel.
    over.locator('[data-cmd="rematch"]').click()
    expect(page.locator(".overlay.gameover")).to_have_count(0)
    expect(page.locator(".kiriai")).to_have_attribute("data-round", "1")
    expect(page.locator(".panel.red .wounds")).to_have_attribute("data-wounds", "0")


def test_japanese_lobby_and_table(page: Page):
    open_lobby(page)
    page.click("#lang-toggle")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#game-kiriai h2 .l-ja")).to_be_visible()
    expect(page.locator("#game-kiriai h2 .l-ja")).to_have_text("キリアイ･ザ･デュエル")
    expect(page.locator("#game-kiriai h2 .l-en")).to_be_hidden()
    start_from_lobby(page, mode="bot")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator(".hand h2")).to_have_text("あなたの手札")
    expect(page.locator('.hand [data-cmd="pick:C"] .cname')).to_have_text("突撃")
    expect(page.locator(".prompt")).to_contain_text("1番目と2番目の行動")
    program_round(page, "A", "H")
    finish_reveal(page)
    expect(page.locator(".log-lines")).to_contain_text("公開1：あなたの「接近」")
    # The choice is remembered and can be switched back on the table.
    page.click('.bar [data-cmd="lang:en"]')
    expect(page.locator(".hand h2")).to_have_text("Your hand")
    expect(page.locator(".log-lines")).to_contain_text("Reveal 1: your Approach")
    assert "lang=en" in page.url and "lang=ja" not in page.url  # a reload keeps English
    page.goto("/index.html")
    page.wait_for_selector(READY)
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_hot_seat_hides_the_first_players_program(page: Page):
    open_lobby(page)
    start_from_lobby(page, mode="hotseat")
    handover = page.locator(".overlay.handover")
    expect(handover).to_contain_text("Pass the device to Red")
    # Nobody's hand is in the page while the device changes hands.
    expect(page.locator('[data-cmd^="pick:"]')).to_have_count(0)
    page.click('[data-cmd="handover-ok"]')
    red_special = page.locator('.hand .card.special').get_attribute("data-card")
    program_round(page, "C", "L")
    expect(handover).to_contain_text("Pass the device to Blue")
    expect(page.locator('[data-cmd^="pick:"]')).to_have_count(0)
    page.click('[data-cmd="handover-ok"]')
    # Blue sees their own hand, Red's two programmed cards only face down.
    expect(page.locator(".hand h2")).to_be_visible()
    red_slots = page.locator('.duel-row .slot[data-player="0"] .card')
    expect(red_slots).to_have_count(2)
    for i in range(2):
        expect(red_slots.nth(i)).to_have_class(re.compile(r"\bback\b"))
        assert red_slots.nth(i).get_attribute("data-card") is None
    html = page.content()
    assert 'data-card="C"' not in html.split('class="panel red')[1].split("</section>")[0]
    # Red's unplayed special is nowhere on Blue's screen.
    blue_special = page.locator('.hand .card.special').get_attribute("data-card")
    if red_special != blue_special:
        assert f'data-card="{red_special}"' not in html
    # Blue programs; the round is revealed to both, then Red gets the device back.
    program_round(page)
    finish_reveal(page)
    # Nobody holds the device now: the log names both sides by colour.
    expect(page.locator(".log-lines")).to_contain_text("Reveal 1: Red's Charge")
    expect(handover).to_contain_text("Pass the device to Red")


def test_advanced_battlefield_secret_start(page: Page):
    open_lobby(page)
    start_from_lobby(page, mode="bot", battlefield="advanced")
    expect(page.locator(".space")).to_have_count(7)
    expect(page.locator(".prompt")).to_contain_text("secret start space")
    # Red may start 2, 3 or 4 spaces from its end.
    expect(page.locator(".zone-pick")).to_have_count(3)
    page.click('.zone-pick[data-cmd="space:3"]')
    page.click('[data-cmd="stance:E"]')
    page.click('[data-cmd="confirm"]')
    finish_reveal(page)
    red = page.locator('.samurai.red')
    expect(red).to_have_attribute("data-stance", "E")
    expect(page.locator('.space[data-space="3"] .samurai.red')).to_have_count(1)
    expect(page.locator(".log-lines")).to_contain_text("Start: you on space 3")


def test_keyboard_only_round(page: Page):
    page.goto("/play.html?game=kiriai&mode=bot&seed=4&lang=en")
    page.wait_for_selector(READY)

    def tab_to(predicate_js: str, limit: int = 40) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            js = f"(() => {{ const el = document.activeElement; return {predicate_js}; }})()"
            if page.evaluate(js):
                return
        pytest.fail(f"Tab never reached: {predicate_js}")

    pick = "el && el.matches('.hand button[data-cmd^=\"pick:\"]:not([disabled])')"
    tab_to(pick)
    page.keyboard.press("Enter")
    tab_to(pick)
    page.keyboard.press("Enter")
    tab_to("el && el.dataset.cmd === 'confirm'")
    page.keyboard.press("Enter")
    expect(page.locator(".log-lines")).to_contain_text("Reveal 1", timeout=10_000)


def test_phone_size_screen_has_no_sideways_scroll(new_context):
    ctx = new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    for path in ("/index.html", "/play.html?game=kiriai&mode=bot&seed=2",
                 "/play.html?game=kiriai&mode=bot&seed=2&battlefield=advanced"):
        page.goto(path)
        page.wait_for_selector(READY)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"{path} is {width}px wide on a 375px screen"
    ctx.close()


def test_bad_table_url_gets_a_readable_error(page: Page, page_errors):
    page.goto("/play.html?game=chess")
    box = page.locator("#load-error")
    expect(box).to_be_visible()
    expect(box).to_contain_text("There is no game called “chess”")
    expect(box).to_contain_text("Kiri-ai")  # the games there are
    expect(box).to_contain_text("does not exist")
    page.goto("/play.html?game=kiriai&battlefield=huge&lang=ja")
    expect(box).to_be_visible()
    expect(box).to_contain_text("このリンクのゲーム・モード・オプションは存在しません")
    expect(box).to_contain_text("オプション「戦場」に「huge」は指定できません")


def test_loading_progress_is_shown_before_python_is_ready(page: Page):
    seen = []

    def slow(route):
        seen.append(route.request.url)
        route.fallback()

    page.route("**/pyodide.asm.wasm", slow)
    page.goto("/play.html?game=kiriai&mode=bot")
    expect(page.locator("#loading")).to_be_visible()
    expect(page.locator("#loading")).to_contain_text("Getting the game ready")
    page.wait_for_selector(READY)
    expect(page.locator("#loading")).to_be_hidden()
    assert seen and all(u.startswith("http://127.0.0.1") for u in seen)


def test_a_japanese_browser_gets_japanese_without_asking(new_context):
    ctx = new_context(locale="ja-JP")
    page = ctx.new_page()
    page.goto("/index.html")
    page.wait_for_selector(READY)
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.locator("#game-kiriai .play .l-ja")).to_have_text("プレイ")
    page.goto("/play.html?game=kiriai&mode=hotseat")
    page.wait_for_selector(READY)
    expect(page.locator(".overlay.handover h2")).to_have_text("赤に端末を渡してください")
    ctx.close()


def test_the_log_keeps_the_newest_line_in_view(page: Page):
    page.goto("/play.html?game=kiriai&mode=bot&seed=9&speed=10&lang=en")
    page.wait_for_selector(READY)
    play_to_the_end(page)
    at_bottom = page.evaluate(
        "(() => { const l = document.querySelector('.log-lines');"
        " return l.scrollHeight > l.clientHeight"
        " && l.scrollTop + l.clientHeight >= l.scrollHeight - 2; })()")
    assert at_bottom, "the log is scrolled away from its newest line"


def test_lobby_boots_python_while_you_read_and_opens_the_table_in_place(page: Page):
    wasm = []
    page.on("request", lambda r: wasm.append(r.url) if r.url.endswith(".wasm") else None)
    open_lobby(page)
    # The lobby is usable at once; Python arrives in the background.
    expect(page.locator("#loading")).to_be_hidden()
    page.wait_for_function("() => Boolean(window.pygamesOpen)")
    start_from_lobby(page, mode="bot")
    expect(page.locator(".hand h2")).to_have_text("Your hand")
    expect(page.locator("#lobby")).to_be_hidden()
    assert len(wasm) == 1, f"Pyodide was loaded {len(wasm)} times"
    page.go_back()
    page.wait_for_selector(READY)
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator("#game-kiriai")).to_be_visible()
    # The address is the table's own: a reload gives the same kind of table, and Back
    # and Forward still show the page the address names.
    page.go_forward()
    page.wait_for_selector(READY)
    assert "game=kiriai" in page.url and "mode=bot" in page.url
    page.reload()
    page.wait_for_selector(READY)
    expect(page.locator(".hand h2")).to_have_text("Your hand")
    page.go_back()
    page.wait_for_selector(READY)
    expect(page.locator("#lobby")).to_be_visible()
    expect(page.locator(".hand")).to_have_count(0)
    page.go_forward()
    page.wait_for_selector(READY)
    expect(page.locator(".hand h2")).to_have_text("Your hand")


def test_play_pressed_before_python_is_up_shows_progress_then_the_table(page: Page):
    open_lobby(page)
    page.locator("#game-kiriai button.play").click()
    expect(page.locator("#loading")).to_be_visible()
    expect(page.locator("#loading progress")).to_be_visible()
    page.wait_for_url(re.compile(r"/play\.html\?"))
    page.wait_for_selector(READY)
    expect(page.locator("#loading")).to_be_hidden()
    expect(page.locator(".hand")).to_be_visible()
