"""Electors end to end in a real Chromium, as a player on a phone holds it (JA, 390 × 844).

- From the lobby: three players, you and two easy bots, chosen in the tile's settings, and
  a whole game played by clicking the table's buttons to the final score table. At every
  settled step nothing scrolls sideways and the one hand on the page is yours, card for
  card as the engine (replaying the saved record in CPython) holds it; the others' hands
  show only as counts. At the end the score table's totals and places are the engine's.
- Pass and play with three people and a bot: the device is handed from one person to the
  next with no hand on the page while it is handed over, and the bot's moves are played
  out between theirs.
"""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from helpers.browser import PYTHON_READY, READY, axe_problems, no_sideways_scroll, saved_games
from helpers.browser import settle_skipping as settle
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import pygames

if "electors" not in pygames.game_ids():
    pytest.skip("Electors is not registered", allow_module_level=True)

from pgui import electors_ui  # noqa: E402  (after the skip: only with the engine)

PHONE = {"width": 390, "height": 844}
#: What this player clicks first: a hand-over, a match, the cube's candidate, Bribery's
#: card, a pair, a put-back, a payment; then (by a coin) a cell or a draw; then the rest.
URGENT = ("handover-ok", "act:=", "act:c:", "act:t:", "act:pr:", "act:v:", "act:$")
LATER = ("act:take", "act:done", "act:end", "act:pass", "cancel")
#: Never: what leaves the game or the page, and the picks that only open a choice.
NOT_PLAY = ("lang:", "undo", "rematch", "dismiss", "skip", "buy:", "heart")


def pick(cmds: list[str], rng: random.Random) -> str | None:
    cmds = [c for c in cmds if not c.startswith(NOT_PLAY)]
    for head in URGENT:
        hits = [c for c in cmds if c.startswith(head)]
        if hits:
            return rng.choice(hits)
    cells = [c for c in cmds if c.startswith("cell:")]
    if "act:draw" in cmds and (not cells or rng.random() < 0.45):
        return "act:draw"
    if cells:
        return rng.choice(cells)
    for head in LATER:
        hits = [c for c in cmds if c.startswith(head)]
        if hits:
            return hits[0]
    return rng.choice(cmds) if cmds else None


def replay(record: dict) -> pygames.State:
    return pygames.get_game(record["game"]).from_record(record)


#: The page's hand, strips and open hands, read in one go with the saved record.
ON_PAGE = """() => {
  const app = document.getElementById("app");
  const saved = Object.keys(localStorage).filter(k => k.startsWith("pygames.saved."))
    .map(k => JSON.parse(localStorage.getItem(k)));
  return {
    saved,
    mine: [...app.querySelectorAll(".ehand .face")].map(e => e.dataset.t || e.textContent),
    stray: [...app.querySelectorAll(".hcard")].filter(e => !e.closest(".ehand")).length,
    counts: Object.fromEntries([...app.querySelectorAll(".pstrip[data-seat]")].map(
      p => [p.dataset.seat, Number(p.dataset.hand)])),
    open: app.querySelectorAll("[data-open-hand]").length,
    animating: app.dataset.animating, thinking: app.dataset.thinking,
  };
}"""


def assert_only_my_hand(page: Page, me: int, again: bool = True) -> bool:
    """The one hand on the page is ``me``'s, card for card as the engine holds it; every
    other seat's shows only as its count. False: nothing saved yet."""
    now = page.evaluate(ON_PAGE)
    if not now["saved"]:
        return False
    (env,) = now["saved"]
    state = replay(env["record"])
    hands = [state.view(p)["hand"] for p in range(state.players)]
    same = (Counter(now["mine"]) == Counter(electors_ui.short_card(c, "ja") for c in hands[me])
            and now["counts"] == {str(p): len(h) for p, h in enumerate(hands)})
    if not same and again and (now["animating"] != "false" or now["thinking"] == "true"):
        settle(page)
        return assert_only_my_hand(page, me, again=False)
    assert same, (now["mine"], now["counts"], hands)
    assert now["stray"] == 0 and now["open"] == 0, "a hand card outside your hand"
    return True


def click(page: Page, cmd: str) -> bool:
    try:
        page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
            timeout=2_000)
        return True
    except PlaywrightTimeoutError:
        return False


def test_three_players_from_the_lobby_to_the_final_score_table_in_japanese(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/index.html?lang=ja")
    page.wait_for_selector(READY)
    page.wait_for_function(PYTHON_READY)
    tile = page.locator("#game-electors")
    tile.locator("button.setup").click()
    panel = tile.locator("dialog.setup-panel")
    expect(panel).to_be_visible()
    panel.locator('input[name="players"][value="3"]').check()
    panel.locator("#electors-seat-0").select_option("you")
    panel.locator("#electors-seat-1").select_option("easy")
    panel.locator("#electors-seat-2").select_option("easy")
    expect(panel.locator(".panel-foot .plan-text .l-ja")).to_have_text(
        "3人 · あなた · ボット（やさしい） · ボット（やさしい）")
    no_sideways_scroll(page)
    panel.locator("button.done").click()
    # A fixed deal, so the game is the same each run (a player's deal is drawn at random).
    page.evaluate("""() => { const i = document.createElement("input");
        i.type = "hidden"; i.name = "seed"; i.value = "5";
        document.querySelector("#game-electors form.start").appendChild(i); }""")
    tile.locator("button.play").click()
    page.wait_for_selector(READY)
    assert re.search(r"[?&]players=3(&|$)", page.url), page.url
    expect(page.locator("#app .etable")).to_have_attribute("data-players", "3")
    rng = random.Random(5)
    checked = clicks = 0
    for _ in range(2_000):
        settle(page)
        if page.locator('#app[data-over="true"]').count():
            break
        checked += assert_only_my_hand(page, 0)
        if clicks % 20 == 0:
            no_sideways_scroll(page)
        cmds = page.locator("#app button[data-cmd]:not([disabled])").evaluate_all(
            "els => els.map(e => e.dataset.cmd)")
        cmd = pick(cmds, rng)
        if cmd is not None and click(page, cmd):
            clicks += 1
    overlay = page.locator(".overlay.gameover")
    expect(overlay).to_be_visible()
    (env,) = saved_games(page).values()
    state = replay(env["record"])
    outcome = state.outcome()
    assert outcome is not None and env["over"]
    expect(overlay).to_contain_text(electors_ui.result_reason(outcome, "ja"))
    # The final score table: each seat's total and place as the engine has them.
    if overlay.locator("button[data-cmd='dismiss']").count():
        overlay.locator("button[data-cmd='dismiss']").click()
    table = page.locator("#app table.ftable")
    expect(table).to_be_visible()
    totals = table.locator('tr[data-source="total"] td').all_inner_texts()
    assert [int(x.replace("−", "-")) for x in totals] == outcome["scores"]
    places = table.locator('tr[data-source="place"] td').evaluate_all(
        "els => els.map(e => Number(e.dataset.place))")
    assert places == outcome["ranks"]
    expect(table.locator("caption")).to_contain_text(re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"))
    no_sideways_scroll(page)
    problems = axe_problems(page)
    for x in problems:
        print(x)
    assert problems == []
    print(f"{clicks} clicks, {len(env['record']['actions'])} actions, hands checked at "
          f"{checked} steps, {outcome}")
    assert checked >= 10


def test_pass_and_play_with_three_people_and_a_bot_hands_over_without_a_hand(page: Page):
    page.set_viewport_size(PHONE)
    page.goto("/play.html?game=electors&players=4&seats=you,here,here,easy&lang=ja"
              "&seed=3&speed=0")
    page.wait_for_selector(READY)
    overlay = page.locator("#app .overlay.handover")
    rng = random.Random(3)
    handovers: list[str] = []
    for _ in range(400):
        settle(page)
        assert not page.locator('#app[data-over="true"]').count(), "the game ended first"
        if overlay.count():
            # Nobody's hand is on the page while the device is handed over.
            assert page.locator("#app .ehand, #app [data-open-hand]").count() == 0
            handovers.append(overlay.locator("h2").inner_text())
            if len(handovers) >= 4:
                break
            click(page, "handover-ok")
            continue
        cmds = page.locator("#app button[data-cmd]:not([disabled])").evaluate_all(
            "els => els.map(e => e.dataset.cmd)")
        cmd = pick(cmds, rng)
        if cmd is not None:
            click(page, cmd)
    assert len(handovers) >= 4, handovers
    (env,) = saved_games(page).values()
    movers = {p for p, _ in env["record"]["actions"]}
    assert 3 in movers, "the bot's moves were played out between the people's"
    # The hand-overs name the person who takes the device (one of the three people).
    names = [electors_ui.seat_name(p, None, "ja") for p in (0, 1, 2)]
    assert all(any(n in h for n in names) for h in handovers), handovers
