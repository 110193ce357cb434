"""Kiri-ai in a real Chromium, driven the way a person plays: through the lobby, by clicks.

Every test runs behind the network guard in conftest.py: a request that leaves
127.0.0.1 fails the test.
"""

from __future__ import annotations

import re

import pytest
from helpers.browser import (
    LIMIT_MS,
    LONG_SCRIPTS,
    PYTHON_READY,
    READY,
    REVEAL_WATCH,
    assert_no_long_script,
    axe_problems,
    long_scripts,
    overflowing,
    phone_check,
    reveal_misses,
    reveals_seen,
    small_targets,
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
    if pygames.PLANNED:  # (test_ui.py checks a planned tile's markup on a planted one)
        expect(planned.first).to_contain_text("Coming soon")
    expect(page.locator(".game.planned form")).to_have_count(0)


def test_play_a_whole_game_against_the_bot(page: Page, page_errors):
    """From the lobby to the game's end and a rematch, watched step by step, with no
    main-thread script over 200 ms on the way (Python starting behind the lobby included):
    the page never freezes (test_browser_worker has every game's from a table link)."""
    page.add_init_script(LONG_SCRIPTS)
    open_lobby(page)
    page.wait_for_function(PYTHON_READY)  # the whole start of Python behind the lobby
    page.wait_for_timeout(200)
    assert not [t for t in long_scripts(page) if t > LIMIT_MS], long_scripts(page)
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
    assert_no_long_script(page)
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
    page.goto("/play.html?game=kiriai&mode=bot&bot=easy&seed=4&lang=en")
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
    for path in ("/index.html", "/play.html?game=kiriai&mode=bot&bot=easy&seed=2",
                 "/play.html?game=kiriai&mode=bot&bot=easy&seed=2&battlefield=advanced"):
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
    page.goto("/play.html?game=kiriai&mode=bot&bot=easy&seed=9&speed=10&lang=en")
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


# --------------------------------------------------------------------------- phone and desktop

#: The boxes of what a player needs while choosing, as [name, top, bottom, left, right]
#: (viewport pixels), and the page's scroll position.
BOXES = """() => {
  const out = [];
  const sels = ["#app .battlefield", "#app [data-status]", "#app [data-choice]",
                "#app .hand .cards", "#app .panel"];
  for (const sel of sels) for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.height) out.push([sel + "." + el.className, r.top, r.bottom, r.left, r.right]);
  }
  return {boxes: out, scrollY: scrollY, w: innerWidth, h: innerHeight};
}"""

#: Every text of a card (its box, name, short text, tag) and a slot's label.
CARD_TEXT = ("#app .card, #app .card .cname, #app .card .cshort > span, #app .card .tag, "
             "#app .slot-label")


def _all_on_one_screen(page: Page) -> None:
    got = page.evaluate(BOXES)
    off = [b for b in got["boxes"] if b[1] < -1 or b[2] > got["h"] + 1 or b[3] < -1
           or b[4] > got["w"] + 1]
    assert not off, f"off a {got['w']}x{got['h']} screen at scroll {got['scrollY']}: {off}"
    assert any("battlefield" in b[0] for b in got["boxes"])


# The two phones, each in one language (the strings' lengths differ, the layout does not).
@pytest.mark.parametrize(("size", "lang"), [((360, 740), "ja"), ((390, 844), "en")])
def test_a_phone_shows_the_board_the_status_your_program_and_your_hand_on_one_screen(
        page: Page, size, lang):
    """Round after round on a phone: the battlefield, both strips, the status line, your
    slots with Confirm and your hand are all on screen with no scrolling; a picked card
    shows once (in its slot); no card's name or text spills out of its box."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"/play.html?game=kiriai&mode=bot&bot=easy&seed=3&speed=0&lang={lang}")
    page.wait_for_selector(READY)
    for first, second in (("C", "B"), ("A", "H"), ("S", "L")):
        expect(page.locator("#app")).to_have_attribute("data-animating", "false")
        for letter in (first, second):
            if page.locator(f'.hand button[data-cmd="pick:{letter}"]:not([disabled])').count():
                page.click(f'.hand [data-cmd="pick:{letter}"]')
            else:
                page.locator('.hand button[data-cmd^="pick:"]:not([disabled])').first.click()
        picked = page.locator(".panel.mine .duel-row .card.picked")
        expect(picked).to_have_count(2)
        for letter in picked.evaluate_all("els => els.map(e => e.dataset.card)"):
            # Once on your side of the table: in its slot, not also in the hand.
            mine = f'#app .panel.mine [data-card="{letter}"], #app .hand [data-card="{letter}"]'
            expect(page.locator(mine)).to_have_count(1)
        _all_on_one_screen(page)
        phone_check(page)
        assert overflowing(page, CARD_TEXT) == []
        assert small_targets(page) == []
        page.click('[data-cmd="confirm"]')
        finish_reveal(page)
        if page.locator(".overlay.gameover").count():
            break
    assert page.evaluate("scrollY") == 0, "the page scrolled during play"


def test_a_phone_card_says_what_it_does_and_its_full_text_is_one_tap_away(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/play.html?game=kiriai&mode=bot&bot=easy&seed=3&speed=0&lang=en")
    page.wait_for_selector(READY)
    charge = page.locator('.hand [data-cmd="pick:C"]')
    expect(charge.locator(".cshort")).to_have_text("move 2 forward")
    expect(charge.locator(".cshort")).to_be_visible()
    expect(charge).to_have_accessible_name(re.compile(r"Charge.*Move 2 toward your opponent"))
    # The full texts open from the keyboard, under the hand, and play no card.
    help_list = page.locator(".card-help")
    expect(help_list.locator("ul")).to_be_hidden()
    help_list.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(help_list.locator("ul")).to_be_visible()
    expect(help_list).to_contain_text("Charge: Move 2 toward your opponent.")
    expect(page.locator(".panel.mine .card.picked")).to_have_count(0)
    expect(page.locator(".prompt")).to_contain_text("choose 2 cards")
    # It stays open while the player picks (the table redraws on every click).
    charge.click()
    expect(help_list.locator("ul")).to_be_visible()
    assert axe_problems(page) == []


def test_the_advanced_start_fits_a_phone(page: Page):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/play.html?game=kiriai&mode=bot&bot=easy&seed=3&speed=0&lang=ja&battlefield=advanced")
    page.wait_for_selector(READY)
    expect(page.locator(".zone-pick")).to_have_count(3)
    _all_on_one_screen(page)
    phone_check(page)
    assert small_targets(page) == []


@pytest.mark.parametrize("size", [(360, 740)])  # the smaller phone (the phone test has both)
def test_a_reveal_at_normal_speed_is_marked_and_stays_on_a_phone_screen(page: Page, size):
    """The cards a step turns over carry data-reveal, and are on screen while it plays."""
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.add_init_script(REVEAL_WATCH)
    page.goto("/play.html?game=kiriai&mode=bot&bot=easy&seed=3&lang=ja")  # 900 ms a step
    page.wait_for_selector(READY)
    program_round(page, "C", "B")
    expect(page.locator("#app [data-reveal]").first).to_be_attached()
    revealed = page.locator("#app [data-reveal]").first.get_attribute("data-reveal")
    assert re.fullmatch(r"reveal-\d+-(red|blue)", revealed or ""), revealed
    expect(page.locator("#app")).to_have_attribute("data-animating", "false", timeout=30_000)
    assert reveals_seen(page) > 0
    assert reveal_misses(page) == []
    expect(page.locator("#app [data-reveal]")).to_have_count(0)  # marked only while shown


#: The battlefield's first space, a samurai, a hand card, each strip and the battlefield.
SIZES = """() => {
  const box = sel => { const r = document.querySelector(sel).getBoundingClientRect();
                       return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                               width: r.width, height: r.height}; };
  return {space: box(".space"), samurai: box(".samurai"), card: box('.hand [data-card="H"]'),
          red: box(".panel.red"), blue: box(".panel.blue"), field: box(".battlefield"),
          text: box('.hand [data-card="H"] .ctext')};
}"""


def test_on_a_desktop_the_board_grows_with_the_screen_with_the_strips_beside_it(page: Page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto("/play.html?game=kiriai&mode=bot&bot=easy&seed=3&speed=0&lang=en")
    page.wait_for_selector(READY)
    page.click('.hand [data-cmd="pick:C"]')
    at = page.evaluate(SIZES)
    # Red's strip stands left of the battlefield and Blue's right, level with it.
    assert at["red"]["right"] <= at["field"]["left"] and at["blue"]["left"] >= at["field"]["right"]
    for side in ("red", "blue"):
        assert at[side]["top"] < at["field"]["bottom"] and at[side]["bottom"] > at["field"]["top"]
    # Big pieces on a big screen, everything still on one screen, each card's full text.
    assert at["space"]["height"] >= 150 and at["samurai"]["width"] >= 70
    assert at["card"]["width"] >= 85 and at["text"]["height"] >= 20
    expect(page.locator('.hand [data-card="H"] .ctext')).to_have_text(
        "Hits at distance 2. Heaven only.")
    _all_on_one_screen(page)
    assert overflowing(page, CARD_TEXT) == []
    # A bigger screen, a bigger board; up to a point.
    page.set_viewport_size({"width": 1600, "height": 1000})
    bigger = page.evaluate(SIZES)
    assert bigger["space"]["height"] > at["space"]["height"]
    assert bigger["samurai"]["width"] > at["samurai"]["width"]
    page.set_viewport_size({"width": 2560, "height": 1440})
    huge = page.evaluate(SIZES)
    assert huge["space"]["height"] <= 220 and huge["samurai"]["width"] <= 96
