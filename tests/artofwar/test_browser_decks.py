"""ART OF WAR's deck builder in a real Chromium, as a player on a phone uses it (JA,
360 × 740): reached from the lobby's tile, a deck built with the steppers (20 troops
enforced as you go), saved in this browser, found again after a reload, shared as a link
that opens the builder with it, and chosen in the settings as your deck against the bot
(the table's address carries its code); storage that refuses the write says so and keeps
the deck; axe and a 320 px screen on the builder."""

from __future__ import annotations

import re

import pytest
from helpers.browser import PYTHON_READY, READY, axe_problems, small_targets
from playwright.sync_api import Page, expect

PHONE = {"width": 360, "height": 740}
BUILDER = "#app main.decks"


def builder_ready(page: Page) -> None:
    page.wait_for_selector(READY)
    expect(page.locator(BUILDER)).to_be_visible()
    expect(page.locator("#app")).not_to_have_attribute("data-busy", "true")


def press(page: Page, cmd: str, times: int = 1) -> None:
    for _ in range(times):
        button = page.locator(f'#app button[data-cmd="{cmd}"]')
        expect(button).to_be_enabled()
        button.click()
        expect(page.locator("#app")).not_to_have_attribute("data-busy", "true")


def deck_on_screen(page: Page) -> str:
    return page.locator(BUILDER).get_attribute("data-deck")


def test_build_save_reload_share_and_play_a_deck(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/index.html?lang=ja")
    page.wait_for_selector(READY)
    page.wait_for_function(PYTHON_READY)
    tile = page.locator("#game-artofwar")
    tile.locator("a[data-tool]:visible").click()  # デッキ, on the tile
    builder_ready(page)
    assert "tool=decks" in page.url
    expect(page.locator("#app h1")).to_have_text("アート・オブ・ウォー：デッキ作成")
    # A provisional King says so.
    press(page, "king:3")
    expect(page.locator('#app button[data-cmd="king:3"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#app .king-card")).to_contain_text("仮のデータ")
    # Start from nothing: Save waits for 20 troops, + stops at 20.
    press(page, "clear")
    save = page.locator("#deck-save")
    expect(save).to_be_disabled()
    expect(page.locator("#app .total")).to_have_text("兵 0／20枚")
    # From the keyboard: Enter on + adds, and focus stays on it.
    page.locator('#app button[data-cmd="add:S"]').focus()
    for _ in range(10):
        page.keyboard.press("Enter")
        expect(page.locator("#app")).not_to_have_attribute("data-busy", "true")
    expect(page.locator('#app [data-count="S"]')).to_have_text("10")
    assert page.evaluate("document.activeElement.dataset.cmd") == "add:S"
    press(page, "add:G", 9)  # by touch
    expect(save).to_be_disabled()
    expect(page.locator("#deck-hint")).to_have_text("保存するにはあと1枚の兵が必要です。")
    press(page, "add:G")
    expect(page.locator("#app .total")).to_have_text("兵 20／20枚")
    for kind in "SGAPW":
        expect(page.locator(f'#app button[data-cmd="add:{kind}"]')).to_be_disabled()
    expect(save).to_be_enabled()
    assert deck_on_screen(page) == "K3S10G10"
    # Name it and save it in this browser.
    page.locator("#deck-name").fill("盾の壁")
    save.click()
    expect(page.locator("[data-deck-message]")).to_have_text("「盾の壁」を保存しました。")
    stored = page.evaluate("""() => Object.keys(localStorage)
        .filter(k => k.startsWith("pygames.artofwar.decks."))
        .map(k => JSON.parse(localStorage.getItem(k)))""")
    assert [(e["name"], e["value"]) for e in stored] == [("盾の壁", "K3S10G10")]
    # A reload finds it (and the builder opens on the starter again).
    page.reload()
    builder_ready(page)
    mine = page.locator('#app li[data-saved-deck="K3S10G10"]')
    expect(mine).to_contain_text("盾の壁")
    mine.get_by_role("button", name="「盾の壁」を読み込む").click()
    expect(page.locator(BUILDER)).to_have_attribute("data-deck", "K3S10G10")
    # Share: the link opens the builder with the deck.
    link = page.locator("#deck-link").input_value()
    assert link.endswith("play.html?game=artofwar&tool=decks&deck=K3S10G10")
    expect(page.locator("#deck-code")).to_have_value("K3S10G10")
    page.goto(link + "&lang=ja")
    builder_ready(page)
    assert deck_on_screen(page) == "K3S10G10"
    # The settings offer it as your deck against the bot; the table plays it.
    page.goto("/index.html?lang=ja")
    page.wait_for_selector(READY)
    page.wait_for_function(PYTHON_READY)
    tile.locator("button.setup").click()
    panel = tile.locator("dialog.setup-panel")
    expect(panel).to_be_visible()
    panel.locator('input[name="seat"][value="1"]').check()  # second: yours is deck2
    chosen = panel.locator("#artofwar-mine label.choice", has_text="盾の壁")
    expect(chosen).to_have_count(1)
    chosen.click()
    expect(panel.locator(".plan-text .l-ja")).to_contain_text("あなたのデッキは盾の壁")
    panel.locator("button.done").click()
    expect(tile.locator("#plan-artofwar .l-ja")).to_contain_text("あなたのデッキは盾の壁")
    tile.locator("button.play").click()
    page.wait_for_selector(READY)
    expect(page.locator("#app")).to_have_attribute("data-over", "false")
    assert re.search(r"[?&]mine=K3S10G10(&|$)", page.url), page.url
    assert "seat=1" in page.url
    # The table is drawn from the view, which names each seat's King: K-003 is yours.
    expect(page.locator("#app")).to_contain_text("K-003")


def test_storage_that_refuses_the_deck_says_so_and_keeps_it(page: Page):
    page.add_init_script("""(() => {
      const real = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        if (String(key).startsWith("pygames.artofwar.decks."))
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return real.call(this, key, value);
      };
    })();""")
    page.set_viewport_size(PHONE)
    page.goto("/play.html?game=artofwar&tool=decks&lang=ja&deck=K2S10W10")
    builder_ready(page)
    page.locator("#deck-name").fill("魔法使い")
    page.locator("#deck-save").click()
    message = page.locator("[data-deck-message]")
    expect(message).to_have_attribute("role", "alert")
    expect(message).to_contain_text("このブラウザにデッキを保存できません")
    assert deck_on_screen(page) == "K2S10W10"
    expect(page.locator("#deck-name")).to_have_value("魔法使い")
    expect(page.locator("#app .yours")).not_to_contain_text("魔法使い")
    assert axe_problems(page) == []


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_builder_passes_axe_and_fits_320_px(page: Page, lang):
    page.set_viewport_size({"width": 320, "height": 700})
    page.goto(f"/play.html?game=artofwar&tool=decks&lang={lang}&deck=K5S4G4A4P4W3")
    builder_ready(page)
    expect(page.locator("[data-deck-message]")).to_have_attribute("role", "alert")  # 19
    press(page, "king:5")
    assert axe_problems(page) == []
    wide = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{wide} px sideways scroll at 320 px"
    assert small_targets(page) == []
