"""Every page passes axe-core in Chromium with no serious or critical violation.

axe-core comes from the npm registry (a devDependency in package.json, pinned in
package-lock.json) and is injected into the page by the test; it is never served in dist/.
Pages are checked in the states a player meets: the lobby in both languages, every game's
table in both modes (hand-over screen, mid-game, game over), and the error screen of a bad
link.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import pygames

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
READY = 'html[data-ready="true"]'
#: Commands a random clicker leaves alone: they leave the game, not play it.
NOT_PLAY = ("lang:", "rematch", "dismiss", "skip")
#: Commands it clicks only when nothing else is offered: they take back what was picked
#: (a random clicker who undoes half its moves plays a Canosa game in ~1,000 clicks).
TAKE_BACK = ("undo", "cancel")


def axe_problems(page: Page) -> list[str]:
    """Serious and critical axe-core violations on the page as it is now."""
    assert AXE.is_file(), "axe-core missing: run `npm ci` (python build.py test does)"
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"]});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
    }""")
    return [f"{v['impact']} {v['id']}: {v['help']} at {v['nodes']}" for v in result
            if v["impact"] in ("serious", "critical")]


def playable(buttons, not_play: tuple[str, ...] = NOT_PLAY) -> tuple[list[str], list[str]]:
    """What a player would click among ``buttons`` (a locator of enabled buttons): their
    commands, leaving out ``not_play`` and, unless nothing else is offered, those that take
    back (:data:`TAKE_BACK`); and of those, the highlighted squares (a picked piece's
    targets)."""
    offered = [(c, t) for c, t in buttons.evaluate_all(
        "els => els.map(e => [e.dataset.cmd, e.classList.contains('target')])")
        if not c.startswith(not_play)]
    cmds = [c for c, _ in offered if not c.startswith(TAKE_BACK)] or [c for c, _ in offered]
    return cmds, [c for c, t in offered if t and c in cmds]


def click_some(page: Page, rng: random.Random, clicks: int) -> None:
    """Play by clicking enabled buttons on the settled table, the way a player would: one
    who confirms what is picked, plays a highlighted square once a piece is picked, and
    rarely takes anything back."""
    settled = page.locator('#app[data-animating="false"]')
    for _ in range(clicks):
        settled.wait_for()  # not mid-playback, and no click on its way to Python
        if page.locator('#app[data-over="true"]').count():
            return
        cmds, targets = playable(page.locator("#app button[data-cmd]:not([disabled])"))
        if not cmds:
            continue
        urgent = [c for c in ("confirm", "handover-ok") if c in cmds]
        cmd = urgent[0] if urgent else rng.choice(targets or cmds)
        try:  # the table may still re-render under the pointer: then look again
            page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
                timeout=2_000)
        except PlaywrightTimeoutError:
            continue


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_lobby_has_no_serious_accessibility_violation(page: Page, lang):
    page.goto(f"/index.html?lang={lang}")
    page.wait_for_selector(READY)
    page.locator("details.options summary").first.click()
    assert axe_problems(page) == []


@pytest.mark.parametrize("gid", pygames.game_ids())
@pytest.mark.parametrize("mode", ["bot", "hotseat"])
def test_tables_have_no_serious_accessibility_violation(page: Page, gid, mode):
    lang = "ja" if mode == "hotseat" else "en"
    page.goto(f"/play.html?game={gid}&mode={mode}&lang={lang}&seed=5&speed=0")
    page.wait_for_selector(READY)
    assert axe_problems(page) == [], "at the start"
    rng = random.Random(5)
    click_some(page, rng, 12)
    assert axe_problems(page) == [], "mid-game"
    click_some(page, rng, 3000)
    page.wait_for_selector('#app[data-over="true"]')
    page.wait_for_selector(".overlay.gameover")
    assert axe_problems(page) == [], "game over"
    page.click('[data-cmd="dismiss"]')
    assert axe_problems(page) == [], "reviewing the final board"


def test_error_screen_has_no_serious_accessibility_violation(page: Page):
    page.goto("/play.html?game=nosuchgame&lang=en")
    page.wait_for_selector('html[data-failed="true"]')
    assert axe_problems(page) == []


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_link_play_pages_have_no_serious_accessibility_violation(new_context, gid):
    """The host's invitation (with its QR code and copy-and-paste codes), the guest's Join
    screen, and both tables once connected."""
    perms = ["camera", "microphone"]
    host = new_context(permissions=perms).new_page()
    host.goto(f"/play.html?game={gid}&mode=link&lang=ja&speed=0")
    host.wait_for_selector(READY)
    host.locator("details.manual summary").click()
    host.locator('[data-link-cmd="offer"]').click()
    host.wait_for_selector("textarea[data-offer]")
    assert axe_problems(host) == [], "the host's invitation"
    invite = host.locator("[data-invite]").get_attribute("href")
    guest = new_context(permissions=perms).new_page()
    guest.goto(invite.replace("#", "&speed=0&lang=en#", 1))
    guest.wait_for_selector('[data-cmd="join"]')
    assert axe_problems(guest) == [], "the guest's Join screen"
    guest.locator('[data-cmd="join"]').click()
    for page in (host, guest):
        page.wait_for_selector("#app .main .peer-status, #app .bar .peer-status")
        page.wait_for_selector('#app[data-animating="false"]')
        assert axe_problems(page) == [], "a connected table"
