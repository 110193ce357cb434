"""No local game is lost on reload (pgui.saved, glue.js), in a real Chromium.

For every game: a game against the bot, played by clicks, reloads where it was (the same
log, the same moves and buttons); the lobby lists it; Continue reopens it. Saved games of
an earlier build (the fixtures) are listed newest first, a finished one's Replay opens the
replay viewer, Delete removes them. A browser whose storage throws tells the player once,
and play goes on. The record (with the deal) is read from localStorage by the test only:
the page never puts it in its HTML (unless the game hides nothing).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from helpers.browser import (
    PHONE,
    READY,
    axe_problems,
    click_one,
    play_until,
    saved_games,
    seen,
    settle,
)
from helpers.lobby import plays_off_screen
from helpers.saved_fixtures import fixture
from pgui import ui_module
from playwright.sync_api import Page, expect

import pygames

EXTRA = {"canosa": "&layout=small"}
LAPTOP = {"width": 1280, "height": 800}


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_a_game_vs_bot_survives_a_reload_and_continues_from_the_lobby(
        page: Page, gid):
    page.goto(f"/play.html?game={gid}&mode=bot&bot=easy&speed=0&lang=en{EXTRA.get(gid, '')}")
    page.wait_for_selector(READY)
    game = play_until(page, random.Random(gid), 3)
    assert game["moves"] >= 3 and game["game"] == gid and game["mode"] == "bot"
    assert game["v"] == 1 and game["level"] == "easy"
    # The address names the game, never its deal; the page's HTML holds no record.
    assert re.search(rf"[?&]resume={game['id']}(&|$)", page.url)
    html = page.content()
    assert "pygames.saved" not in html
    if getattr(ui_module(gid), "SECRETS", True):  # a game that hides nothing may show it
        assert f'"seed":{game["record"]["seed"]}' not in html and "data-record" not in html
    before = seen(page)
    page.reload()
    page.wait_for_selector(READY)
    settle(page)
    assert seen(page) == before
    assert saved_games(page)[game["id"]]["record"] == game["record"]
    # The lobby lists it: Continue reopens it.
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    row = page.locator(f'#saved-games li[data-saved="{game["id"]}"]')
    expect(row).to_be_visible()
    expect(row).to_contain_text(pygames.get_game(gid).names["en"])
    expect(row).to_contain_text(f"{game['moves']} moves")
    expect(row).to_contain_text("Easy")
    row.get_by_role("link", name="Continue").click()
    page.wait_for_url(re.compile(rf"/play\.html\?.*resume={game['id']}"))
    page.wait_for_selector(READY)
    settle(page)
    assert seen(page) == before
    assert saved_games(page)[game["id"]]["record"] == game["record"]


def test_the_lobby_lists_saved_games_newest_first_skips_damaged_ones_and_replays_finished(
        page: Page):
    """Fixtures saved by an earlier build: listed, newest first; a damaged entry is left
    out; a finished game's Replay opens the replay viewer; Continue resumes the position."""
    names = ["cardia-hotseat-over", "kiriai-bot", "canosa-hotseat"]
    entries = {}
    for i, name in enumerate(names):
        data = fixture(name)
        env = json.loads(data["text"])
        env["updated"] = 1_700_000_000_000 + i * 60_000  # the last one is the newest
        entries[data["key"]] = json.dumps(env)
    entries["pygames.saved.damaged"] = "{not json"
    page.goto("/index.html?lang=en")
    page.evaluate("(e) => { for (const k in e) localStorage.setItem(k, e[k]); }", entries)
    page.reload()
    page.wait_for_selector(READY)
    rows = page.locator("#saved-games li")
    expect(rows).to_have_count(3)
    ids = [json.loads(fixture(n)["text"])["id"] for n in names]
    assert rows.evaluate_all("els => els.map(e => e.dataset.saved)") == ids[::-1]
    expect(rows.nth(0)).to_contain_text("Pass and play")
    expect(rows.nth(2)).to_contain_text("Finished")
    assert axe_problems(page) == []
    assert rows.nth(2).get_by_role("link", name="Continue").count() == 0
    # Continue: the hot-seat game (Canosa hides nothing: no hand-over), where it was.
    rows.nth(0).get_by_role("link", name="Continue").click()
    page.wait_for_selector(READY)
    settle(page)
    assert f"resume={ids[2]}" in page.url
    expect(page.locator("#app .log-lines li").first).to_be_attached()
    assert saved_games(page)[ids[2]]["record"] == json.loads(
        fixture("canosa-hotseat")["text"])["record"]
    page.goto("/index.html?lang=en")
    page.wait_for_selector(READY)
    page.locator("#saved-games li").nth(2).get_by_role("link", name="Replay").click()
    page.wait_for_url(re.compile(r"/play\.html\?mode=replay&record=r1\.[^&]+&perspective=open"))
    page.wait_for_selector(READY)
    page.wait_for_selector("#app .replay-bar")
    assert page.locator('#app[data-over="true"]').count() == 1
    # Delete (in Japanese): the row goes, the focus stays in the list.
    page.goto("/index.html?lang=ja")
    page.wait_for_selector(READY)
    rows = page.locator("#saved-games li")
    expect(rows.nth(1)).to_contain_text("続きから")
    rows.nth(1).get_by_role("button", name="削除").click()
    expect(rows).to_have_count(2)
    expect(page.locator("#saved-status")).to_contain_text("削除しました")
    assert page.evaluate("() => document.activeElement.closest('li').dataset.saved") == ids[0]
    assert set(saved_games(page)) == {ids[0], ids[2]}
    for _ in range(2):  # from the keyboard: the focus moved to the next row's Continue
        page.keyboard.press("Tab")
        assert page.evaluate("() => document.activeElement.innerText") == "削除"
        page.keyboard.press("Enter")
    expect(rows).to_have_count(0)
    assert page.evaluate("() => document.activeElement.id") == "saved-title"
    assert saved_games(page) == {}


def test_finished_games_say_who_won_and_play_stays_on_screen_with_games_listed(page: Page):
    """A finished game's row says who won (you, the bot's opponent, a seat by its colour, a
    draw), in both languages; an entry saved before the field existed still lists as
    finished. With games listed, Play is still on screen at 390 × 844 and 1280 × 800."""
    old = json.loads(fixture("cardia-hotseat-over")["text"])  # saved with no "winners"
    assert "winners" not in old
    won = {**old, "id": "00000000a1", "mode": "bot", "level": "easy", "human": 1,
           "winners": [1]}
    lost = {**won, "id": "00000000a2", "winners": [0]}
    seat = {**old, "id": "00000000a3", "winners": [1]}
    draw = {**old, "id": "00000000a4", "winners": []}
    kiriai = json.loads(fixture("kiriai-bot")["text"])
    blue = {**kiriai, "id": "00000000a5", "mode": "hotseat", "level": None, "over": True,
            "winners": [1]}
    envs = [old, won, lost, seat, draw, blue]
    page.goto("/index.html?lang=en")
    page.evaluate("envs => { for (const e of envs) localStorage.setItem("
                  "'pygames.saved.' + e.id, JSON.stringify(e)); }", envs)
    for lang, size in (("en", PHONE), ("ja", LAPTOP)):
        page.set_viewport_size(size)
        page.goto(f"/index.html?lang={lang}")
        page.wait_for_selector(READY)
        expect(page.locator("#saved-games li")).to_have_count(len(envs))
        assert plays_off_screen(page, first_only=size == PHONE) == [], lang
    def result(env, lang):
        return page.locator(f'#saved-games li[data-saved="{env["id"]}"] .result .l-{lang}')

    expect(result(old, "ja")).to_have_count(0)
    expect(page.locator(f'li[data-saved="{old["id"]}"]')).to_contain_text("終局")
    expect(result(won, "ja")).to_have_text("あなたの勝ち")
    expect(result(blue, "ja")).to_have_text("青の勝ち")
    page.click("#lang-toggle")
    expect(result(won, "en")).to_have_text("You won")
    expect(result(lost, "en")).to_have_text("You lost")
    expect(result(seat, "en")).to_have_text(f"{ui_module('cardia').who(1, 'en')} won")
    expect(result(draw, "en")).to_have_text("Draw")
    expect(result(blue, "en")).to_have_text("Blue won")
    assert axe_problems(page) == []


def test_storage_that_throws_is_reported_once_and_play_goes_on(page: Page):
    page.add_init_script("""Storage.prototype.setItem = function () {
        throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
    };""")
    page.goto("/play.html?game=canosa&mode=hotseat&speed=0&lang=ja&layout=small")
    page.wait_for_selector(READY)
    rng = random.Random(3)
    notice = page.locator(".save-notice")
    for _ in range(60):
        settle(page)
        if len(page.locator("#app .log-lines li").all()) > 6 and notice.count():
            break
        click_one(page, rng)
    expect(notice).to_have_count(1)
    expect(notice).to_have_attribute("role", "status")
    expect(notice).to_contain_text("保存できません")
    assert "resume=" not in page.url
    assert axe_problems(page) == []
    notice.get_by_role("button", name="閉じる").click()
    expect(notice).to_have_count(0)
    # Play goes on, and no second notice comes.
    before = len(page.locator("#app .log-lines li").all())
    for _ in range(60):
        settle(page)
        if len(page.locator("#app .log-lines li").all()) > before:
            break
        click_one(page, rng)
    settle(page)
    assert len(page.locator("#app .log-lines li").all()) > before
    expect(notice).to_have_count(0)


def test_full_storage_makes_room_by_forgetting_the_oldest_finished_games(page: Page):
    """A browser whose storage holds only a few games: the oldest finished ones go, the
    games in progress stay, the new game is saved, and no notice is needed."""
    done = json.loads(fixture("cardia-hotseat-over")["text"])
    going = json.loads(fixture("kiriai-bot")["text"])
    assert done["over"] and not going["over"]
    old = [dict(going, id="0000000000", updated=500),  # the oldest of all, but in progress
           dict(done, id="0000000001", updated=1_000),  # the oldest finished game
           dict(done, id="0000000002", updated=2_000)]
    # Room for exactly as many saved games as are there already, like a full disk.
    page.add_init_script("""(() => {
      const limit = LIMIT, real = Storage.prototype.setItem;
      Storage.prototype.setItem = function (key, value) {
        const saved = Object.keys(this).filter(k => k.startsWith("pygames.saved."));
        if (key.startsWith("pygames.saved.") && !saved.includes(key) && saved.length >= limit)
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        return real.call(this, key, value);
      };
    })();""".replace("LIMIT", str(len(old))))
    page.goto("/index.html?lang=en")
    page.evaluate("envs => { for (const e of envs) localStorage.setItem("
                  "'pygames.saved.' + e.id, JSON.stringify(e)); }", old)
    page.goto("/play.html?game=kiriai&mode=hotseat&speed=0&lang=en")
    page.wait_for_selector(READY)
    rng = random.Random(5)
    for _ in range(40):
        settle(page)
        if "resume=" in page.url:
            break
        click_one(page, rng)
    games = saved_games(page)
    assert "resume=" in page.url, "the new game is saved"
    new_id = re.search(r"resume=(\w+)", page.url).group(1)
    assert set(games) == {new_id, old[0]["id"], old[2]["id"]}, "only the oldest finished went"
    expect(page.locator(".save-notice")).to_have_count(0)
