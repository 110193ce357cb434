"""Cardia in a real Chromium, played the way a person plays: from the lobby, by clicks.

Every test runs behind the network guard in conftest.py: a request that leaves
127.0.0.1 fails the test.
"""

from __future__ import annotations

import json
import re

import pytest
from helpers.browser import (
    READY,
    REVEAL_WATCH,
    click_cmd,
    overflowing,
    phone_check,
    reveal_misses,
    reveals_seen,
    settle,
    table_now,
)
from helpers.lobby import choose
from pgui import cardia_ui
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
    card = choose(page, "cardia", mode=mode, deck=deck, location=location)
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
    # The one holding the device is "you": Player 2 now, whose panel is at the bottom.
    expect(page.locator(".cpanel.mine")).to_contain_text("You (Player 2)")
    expect(page.locator(".prompt")).to_contain_text("Choose a card")
    assert page.locator(".enc.placing .ccard.back").count() == 1


def test_keyboard_only_encounters_with_ability_prompts(page: Page):
    """Tab and Enter alone place cards and answer ability prompts for several encounters."""
    page.goto("/play.html?game=cardia&mode=bot&bot=easy&seed=4&lang=en&deck=II&speed=0")
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
    page.goto("/play.html?game=cardia&mode=bot&bot=easy&seed=2&deck=II&speed=0")
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


# =========================================================================== phone and desktop
PHONES = [{"width": 390, "height": 844}, {"width": 360, "height": 740}]
#: What must fit a card face: its name, its ability, the part a click plays, the labels.
CARD_TEXT = (".ccard .cn, .ccard .ct, .ccard .cpick, .ccard .ctop, .ccard .badges, .enc-label, "
             ".cpanel .stats")

#: Words broken across lines inside a word, in the elements the selector matches: each
#: text node's words (split at spaces; a Japanese name's words are separate text nodes,
#: split by <wbr>) must each sit on one line.
BROKEN_WORDS = """(sel) => {
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n; (n = walk.nextNode());) {
      let i = 0;
      for (const word of n.textContent.split(" ")) {
        if (word) {
          const r = document.createRange();
          r.setStart(n, i); r.setEnd(n, i + word.length);
          if (new Set([...r.getClientRects()].map(x => Math.round(x.top))).size > 1) out.push(word);
        }
        i += word.length + 1;
      }
    }
  }
  return out;
}"""

#: Boxes of the row not lined up: every encounter's top card, label and bottom card start
#: at the same heights as the first encounter's; a badge outside its card.
MISALIGNED = """() => {
  const out = [], first = {};
  for (const enc of document.querySelectorAll(".erow .enc:not(.empty-row)")) {
    for (const part of [".side.top .ccard", ".enc-label", ".side.bottom .ccard"]) {
      const el = enc.querySelector(part);
      if (!el) continue;
      const top = Math.round(el.getBoundingClientRect().top);
      if (!(part in first)) first[part] = top;
      else if (Math.abs(top - first[part]) > 1) out.push(`${enc.dataset.n} ${part} at ${top}`);
    }
  }
  for (const badge of document.querySelectorAll(".ccard .inf, .ccard .cv, .ccard .badges > *")) {
    const b = badge.getBoundingClientRect(), c = badge.closest(".ccard").getBoundingClientRect();
    if (b.width && (b.left < c.left || b.right > c.right + .5 || b.top < c.top
                    || b.bottom > c.bottom))
      out.push(`badge ${badge.textContent} outside its card`);
  }
  return out;
}"""

#: The elements' boxes that are not wholly inside the viewport.
OUT_OF_VIEW = """(sels) => sels.filter(sel => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.top < -1 || r.bottom > innerHeight + 1;
})"""


def _all_cards(server_url: str, lang: str) -> str:
    """Every card of both decks as a hand shows it, some with a heavy load of tokens."""
    faces = []
    for deck in ("I", "II"):
        for v in range(1, 17):
            card = {"value": v, "modifiers": 12 if v % 3 == 0 else 0, "ongoing": v % 4 == 0,
                    "signets": 3 if v % 5 == 0 else 0}
            faces.append(cardia_ui._card_face(deck, card, lang, cmd=f"pick:{v}",
                                              uid=f"t-{deck}-{v}"))
    return (f'<!doctype html><html lang="{lang}"><head><meta name="viewport" '
            f'content="width=device-width"><link rel="stylesheet" href="{server_url}/app.css">'
            f'<link rel="stylesheet" href="{server_url}/pgui/cardia.css"></head><body>'
            f'<div class="layout"><main class="main"><div class="cardia"><section class="chand">'
            f'<div class="cards">{"".join(faces)}</div></section></div></main></div></body></html>')


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("size", PHONES + [{"width": 1280, "height": 800}], ids=str)
def test_every_card_face_fits_its_text_and_no_name_breaks_inside_a_word(new_context,
                                                                       server_url, lang, size):
    """All 32 cards, with two-digit modifiers and three signets where they come: nothing
    spills or is cut off, names break only between words, badges stay on the card; on a
    desktop the ability's full text is at least 14 px."""
    ctx = new_context(viewport=size)
    page = ctx.new_page()
    page.set_content(_all_cards(server_url, lang))  # waits for the stylesheets to load
    assert page.locator(".ccard").first.evaluate("e => getComputedStyle(e).borderTopWidth") == "5px"
    assert page.locator(".ccard").count() == 32
    assert overflowing(page, CARD_TEXT) == []
    assert page.evaluate(BROKEN_WORDS, ".ccard .cn") == []
    assert page.evaluate(MISALIGNED) == []
    shown = ".ct-full" if size["width"] >= 1000 else ".ct-short"
    sizes = page.eval_on_selector_all(f".ccard {shown}", "els => els.map(e => e.offsetHeight"
                                      " ? parseFloat(getComputedStyle(e).fontSize) : 0)")
    assert len(sizes) == 32 and min(sizes) >= (14 if size["width"] >= 1000 else 11), sizes
    ctx.close()


def _play_encounters(page: Page, n: int, check=None) -> None:
    """Place ``n`` cards (answering any ability's question), ``check`` on each settled
    table where a card is to be placed."""
    placed = 0
    for _ in range(300):
        settle(page)
        if placed >= n or page.locator('#app[data-over="true"]').count():
            return
        picks = page.locator(".chand button[data-cmd^='pick:']:not([disabled])")
        acts = page.locator("#app .main button[data-cmd^='act:']:not([disabled])")
        try:
            if picks.count():
                if check is not None:
                    check(page)
                picks.last.click(timeout=2_000)
                page.locator('[data-cmd="confirm"]:not([disabled])').click(timeout=2_000)
                placed += 1
            elif acts.count():
                acts.first.click(timeout=2_000)
        except PlaywrightTimeoutError:  # redrawn under the pointer (the bot's move): look again
            continue


@pytest.mark.parametrize("size", PHONES, ids=str)
def test_on_a_phone_the_row_status_choice_and_hand_fit_one_screen(new_context, size):
    """With at most one scroll (to the row's top) the row, the status line, the Place
    button and the whole hand are on one screen; on the 390 × 844 phone without any.
    Texts fit, columns line up, and the panels count what the table shows."""
    ctx = new_context(viewport=size, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto("/play.html?game=cardia&mode=bot&bot=easy&seed=5&speed=0&lang=ja&deck=II")
    page.wait_for_selector(READY)
    parts = [".cardia .encounters", "#app [data-status]", ".cardia .controls", ".cardia .chand"]

    def check(page: Page) -> None:
        if size["height"] >= 844:
            page.evaluate("window.scrollTo(0, 0)")
            phone_check(page)
            assert page.evaluate(OUT_OF_VIEW, parts) == []
        page.evaluate("window.scrollTo(0, document.querySelector('.cardia .encounters')"
                      ".getBoundingClientRect().top + scrollY - 4)")  # the one scroll
        assert page.evaluate(OUT_OF_VIEW, parts) == [], page.evaluate("scrollY")
        phone_check(page)
        assert overflowing(page, CARD_TEXT) == []
        assert page.evaluate(BROKEN_WORDS, ".ccard .cn") == []
        assert page.evaluate(MISALIGNED) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        mine = page.locator(".cpanel.mine [data-hand]").get_attribute("data-hand")
        assert int(mine) == page.locator(".chand .ccard").count()

    _play_encounters(page, 5, check)
    ctx.close()


# Each phone once, one with smooth scrolling and one with reduced motion.
@pytest.mark.parametrize(("size", "motion"), [(PHONES[0], "no-preference"), (PHONES[1], "reduce")],
                         ids=str)
def test_a_reveal_from_the_hands_second_row_is_brought_on_screen(new_context, size, motion):
    """At the normal speed, a card placed from the hand's second row while the row is
    above the screen: the shell scrolls the revealed encounter into view (smoothly, or at
    once for reduced motion) without moving focus; a reveal already on screen scrolls
    nothing."""
    ctx = new_context(viewport=size, reduced_motion=motion)
    page = ctx.new_page()
    page.add_init_script(REVEAL_WATCH)
    page.goto("/play.html?game=cardia&mode=bot&bot=easy&seed=5&lang=ja&deck=II")
    page.wait_for_selector(READY)
    for scrolled in (True, False):
        for _ in range(20):  # answer the abilities' questions until a card is to be placed
            settle(page)
            picks = page.locator(".chand button[data-cmd^='pick:']")
            if picks.count() > 3:
                break
            page.locator("#app .main button[data-cmd^='act:']").first.click()
        card = page.locator(".chand .ccard").last
        if scrolled:  # the hand's last row at the top of the screen: the row above it
            card.evaluate("el => window.scrollTo(0, el.getBoundingClientRect().top + scrollY)")
            assert page.evaluate(OUT_OF_VIEW, [".cardia .encounters"]), "the row is still in view"
        else:
            page.evaluate("window.scrollTo(0, 0)")
        before = page.evaluate("scrollY")
        card.locator("button.cpick").evaluate("el => el.click()")  # a click scrolls nothing
        page.wait_for_selector('[data-cmd="confirm"]:not([disabled])')
        page.locator('[data-cmd="confirm"]').evaluate(
            "el => { el.focus({preventScroll: true}); el.click(); }")
        reveal = page.locator("#app [data-reveal]")
        reveal.first.wait_for()
        seen = reveals_seen(page)
        page.wait_for_function(f"() => window.__revealsSeen > {seen}")
        assert reveal_misses(page) == [], "revealed off screen"
        assert not page.evaluate("document.activeElement.closest('.encounters') !== null")
        if not scrolled:
            assert page.evaluate("scrollY") == before, "a reveal in view moved the page"
        settle(page)
    assert reveals_seen(page) > 0
    ctx.close()


def test_a_cards_full_text_is_a_tap_away_and_the_tap_plays_nothing(new_context):
    ctx = new_context(viewport=PHONES[0], is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.goto("/play.html?game=cardia&mode=bot&bot=easy&seed=5&speed=0&lang=en&deck=I")
    page.wait_for_selector(READY)
    settle(page)
    card = page.locator(".chand .ccard").first
    value = int(card.get_attribute("data-value"))
    full = cardia_ui.t(f"cardia.card.I.{value}", "en")
    assert full not in card.locator(".ct").inner_text()  # the phone shows the short form
    card.locator(".ct").tap()
    tip = page.locator(".ctip:popover-open")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(full)
    expect(page.locator('[data-cmd="confirm"]')).to_be_disabled()  # nothing picked
    assert page.locator('.chand [aria-pressed="true"]').count() == 0
    page.keyboard.press("Escape")
    expect(tip).to_have_count(0)
    # From the keyboard: the text is a button of its own.
    card.locator(".ct").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".ctip:popover-open")).to_contain_text(full)
    page.locator(".ctip:popover-open button").click()
    expect(page.locator(".ctip:popover-open")).to_have_count(0)
    ctx.close()


def test_on_a_desktop_the_cards_grow_and_the_panels_sit_beside_the_row(new_context):
    ctx = new_context(viewport={"width": 1280, "height": 800})
    page = ctx.new_page()
    page.goto("/play.html?game=cardia&mode=bot&bot=easy&seed=5&speed=0&lang=en&deck=II")
    page.wait_for_selector(READY)
    _play_encounters(page, 2)
    settle(page)
    text = page.locator(".chand .ccard .ct-full").first
    expect(text).to_be_visible()
    assert float(text.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 14
    row = page.locator(".cardia .encounters").bounding_box()
    for panel in (".cpanel.top", ".cpanel.bottom"):
        box = page.locator(panel).bounding_box()
        assert box["x"] >= row["x"] + row["width"], panel  # beside the row, not above it
        assert box["y"] < row["y"] + row["height"]
    assert overflowing(page, CARD_TEXT) == []
    assert page.evaluate(MISALIGNED) == []
    ctx.close()
