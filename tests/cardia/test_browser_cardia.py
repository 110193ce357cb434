"""Cardia in a real Chromium, played the way a person plays: from the lobby, by clicks.

Every test runs behind the network guard in conftest.py: a request that leaves
127.0.0.1 fails the test.
"""

from __future__ import annotations

import json
import re

from helpers.browser import READY, click_cmd, table_now
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
#: What Cardia's table offers besides (:func:`helpers.browser.table_now`): the ability
#: whose question is asked, if one is.
CHOICE = """
    choice: (app.querySelector(".cardia") || {dataset: {kind: ""}}).dataset.kind,"""


def start_from_lobby(page: Page, *, lang: str, mode: str, deck: str, location: str) -> None:
    page.goto(f"/index.html?lang={lang}")
    page.wait_for_selector(READY)
    card = page.locator("#game-cardia")
    card.locator(f'input[name="mode"][value="{mode}"]').check()
    card.locator("details.options summary").click()
    card.locator(f'input[name="deck"][value="{deck}"]').check()
    card.locator(f'input[name="location"][value="{location}"]').check()
    card.locator("button.play").click()
    page.wait_for_url(re.compile(r"/play\.html\?.*game=cardia"))
    page.wait_for_selector(".cardia")


def test_whole_match_vs_bot_in_japanese_answering_ability_prompts(page: Page):
    start_from_lobby(page, lang="ja", mode="bot", deck="II", location="none")
    expect(page.locator("#app h1")).to_have_text("カーディア")
    prompts_answered = set()
    placed = 0
    for _ in range(2_000):
        now = table_now(page, CHOICE)
        if now["over"] and not now["animating"]:
            break
        if now["animating"]:  # a playback (Skip it) or a click on its way to Python
            if "skip" in now["cmds"]:
                click_cmd(page, "skip", timeout=500)
            else:
                page.wait_for_timeout(20)
            continue
        picks = [c for c in now["cmds"] if c.startswith("pick:")]
        acts = [c for c in now["cmds"] if c.startswith("act:")]
        if picks:
            assert JAPANESE.search(now["prompt"]), now
            if click_cmd(page, picks[0]):
                expect(page.locator('[data-cmd="confirm"]')).to_be_enabled()
                expect(page.locator('[data-cmd="confirm"]')).to_contain_text("出す")
                if click_cmd(page, "confirm"):
                    placed += 1
        elif acts:
            assert now["choice"] and JAPANESE.search(now["prompt"]), now
            if click_cmd(page, acts[0]):
                prompts_answered.add(now["choice"])
        else:
            page.wait_for_timeout(50)
    else:
        raise AssertionError("the match did not end")
    overlay = page.locator(".overlay.gameover")
    expect(overlay).to_be_visible()
    expect(overlay).to_contain_text(re.compile("あなたの(勝ち|負け)"))
    expect(overlay).to_contain_text("2ラウンド先取")
    assert placed >= 10
    assert prompts_answered, "a Deck II match asked no ability question"
    log = page.locator(".log-lines li").all_inner_texts()
    assert len(log) > 30 and all(JAPANESE.search(line) for line in log)
    assert any("ラウンド" in line and "勝利" in line for line in log)  # a round was won
    # The board stays reviewable after the match.
    page.click('[data-cmd="dismiss"]')
    expect(page.locator(".endbar")).to_be_visible()
    expect(page.locator(".cardia .erow .enc").first).to_be_visible()


def test_hotseat_hides_the_first_players_card_behind_the_handover(page: Page):
    start_from_lobby(page, lang="en", mode="hotseat", deck="I", location="foggy_swamp")
    expect(page.locator(".cardia .location")).to_contain_text("Foggy Swamp")
    page.click('[data-cmd="handover-ok"]')
    hand = page.locator(".chand button[data-cmd^='pick:']")
    first = hand.first.get_attribute("data-cmd").split(":")[1]
    names = page.locator(".chand .cn").all_inner_texts()
    hand.first.click()
    page.click('[data-cmd="confirm"]')
    overlay = page.locator(".overlay.handover")
    expect(overlay).to_contain_text("Player 2")
    # Under the hand-over screen: no hand, and Player 1's card is face down.
    assert page.locator(".chand").count() == 0
    app_text = page.locator("#app").inner_text()
    for name in names:
        assert name not in app_text, f"{name} visible while Player 2 takes the device"
    assert page.locator(f'.enc.placing [data-value="{first}"]').count() == 0
    page.click('[data-cmd="handover-ok"]')
    expect(page.locator(".prompt")).to_contain_text("Player 2")
    assert page.locator(".enc.placing .ccard.back").count() == 1


def test_keyboard_only_encounters_with_ability_prompts(page: Page):
    """Tab and Enter alone place cards and answer ability prompts for several encounters."""
    page.goto("/play.html?game=cardia&mode=bot&seed=4&lang=en&deck=II&speed=0")
    page.wait_for_selector(READY)
    settled = page.locator('#app[data-animating="false"]')

    def tab_to(predicate_js: str, limit: int = 80) -> None:
        for _ in range(limit):
            page.keyboard.press("Tab")
            js = f"(() => {{ const el = document.activeElement; return {predicate_js}; }})()"
            if page.evaluate(js):
                return
        raise AssertionError(f"Tab never reached: {predicate_js}")

    placed = 0
    for _ in range(400):
        settled.wait_for()
        if placed >= 4 or page.locator('#app[data-over="true"]').count():
            break
        cmds = [c for c in table_now(page)["cmds"]
                if not c.startswith(("lang:", "skip", "rematch", "dismiss"))]
        if any(c.startswith("pick:") for c in cmds):
            tab_to("el && el.matches('.chand button[data-cmd^=\"pick:\"]')")
            page.keyboard.press("Enter")
            settled.wait_for()
            tab_to("el && el.dataset.cmd === 'confirm' && !el.disabled")
            page.keyboard.press("Enter")
            placed += 1
        elif cmds:  # an ability's prompt: a card of the row, a colour, +2/-2...
            tab_to(f"el && !el.disabled && {json.dumps(cmds)}.includes(el.dataset.cmd)")
            page.keyboard.press("Enter")
        else:  # the bot is thinking
            page.wait_for_timeout(100)
    assert placed >= 4
    expect(page.locator(".log-lines")).to_contain_text("Encounter 4:")


def test_phone_size_screen_has_no_sideways_scroll(new_context):
    ctx = new_context(viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto("/play.html?game=cardia&mode=bot&seed=2&deck=II&speed=0")
    page.wait_for_selector(READY)
    # Play until this round's row holds 6 encounters (a round the bot ends early starts a
    # new row: go on). The bot's moves are capped by time, so they vary from run to run.
    for _ in range(600):  # a row longer than the screen scrolls inside itself, not the page
        page.locator('#app[data-animating="false"]').wait_for()
        if page.locator(".erow .enc").count() >= 7:  # 6 played, and the next one
            break
        assert not page.locator('#app[data-over="true"]').count(), "the match ended first"
        picks = page.locator(".chand button[data-cmd^='pick:']:not([disabled])")
        other = page.locator("#app .main button[data-cmd]:not([disabled]):not([data-cmd='skip'])")
        if picks.count():  # place a card
            picks.first.tap()
            try:  # the bot's move may redraw the table under the finger: then look again
                page.locator('[data-cmd="confirm"]:not([disabled])').tap(timeout=3_000)
            except PlaywrightTimeoutError:
                continue
        elif other.count():  # answer an ability's question (a colour, a card, +2/-2...)
            other.first.tap()
        else:  # the bot is thinking
            page.wait_for_timeout(100)
    assert page.locator(".erow .enc").count() >= 6
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the Cardia table is {width}px wide on a 375px screen"
    row = page.locator(".encounters")
    assert row.evaluate("el => el.scrollWidth > el.clientWidth")  # it does scroll sideways
    ctx.close()
