"""Helpers for the Chromium tests (Playwright pages of the app): waiting for a page,
reading and clicking its table like a player, axe-core, the long-task probe, and the saved
games in its storage."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from helpers.tables import NOT_PLAY
from tools.paths import NODE_MODULES

#: The page is drawn and answers clicks (Python has opened the lobby or the table).
READY = 'html[data-ready="true"]'
#: Python has started in the worker (the lobby shows before it has).
PYTHON_READY = "() => Boolean(window.pygamesOpen)"

# --------------------------------------------------------------------------- clicking

#: Commands a clicker in the browser leaves alone: those that leave the game
#: (helpers/tables.py), and Skip (a playback ends by itself; the clickers wait for it).
BROWSER_NOT_PLAY = (*NOT_PLAY, "skip")
#: Commands it clicks only when nothing else is offered: they take back what was picked
#: (a random clicker who undoes half its moves plays a Canosa game in ~1,000 clicks).
TAKE_BACK = ("undo", "cancel")


def click_cmd(page: Page, cmd: str, timeout: int = 3_000) -> bool:
    """Click the enabled ``#app`` button whose ``data-cmd`` is ``cmd``; False on timeout."""
    try:
        page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
            timeout=timeout)
        return True
    except PlaywrightTimeoutError:  # re-rendered under the pointer (playback): look again
        return False


_TABLE_NOW = """() => {
    const app = document.getElementById("app");
    const on = sel => [...app.querySelectorAll(sel)].map(e => e.dataset.cmd);
    return {
        animating: app.dataset.animating === "true",
        over: app.dataset.over === "true",
        prompt: (app.querySelector(".prompt") || {}).innerText || "",
        cmds: on("button[data-cmd]:not([disabled])"),
        EXTRA};
}"""


def table_now(page: Page, extra: str = "") -> dict:
    """What the table offers now, read in one go (it may re-render any time): whether it
    is playing back (``animating``) or ``over``, its ``prompt`` and its enabled commands
    (``cmds``); ``extra`` adds a game's own fields, as JavaScript ``name: value`` entries
    that may use ``app`` (the ``#app`` element) and ``on(selector)`` (the ``data-cmd`` of
    what it selects)."""
    return page.evaluate(_TABLE_NOW.replace("EXTRA", extra))


def playable(buttons, not_play: tuple[str, ...] = BROWSER_NOT_PLAY
             ) -> tuple[list[str], list[str]]:
    """What a player would click among ``buttons`` (a locator of enabled buttons): their
    commands, leaving out ``not_play`` and, unless nothing else is offered, those that take
    back (:data:`TAKE_BACK`); and of those, the highlighted squares (a picked piece's
    targets)."""
    offered = [(c, t) for c, t in buttons.evaluate_all(
        "els => els.map(e => [e.dataset.cmd, e.classList.contains('target')])")
        if not c.startswith(not_play)]
    cmds = [c for c, _ in offered if not c.startswith(TAKE_BACK)] or [c for c, _ in offered]
    return cmds, [c for c, t in offered if t and c in cmds]


def click_some(page: Page, rng: random.Random, clicks: int,
               check: Callable[[Page], None] | None = None) -> None:
    """Play by clicking enabled buttons on the settled table, the way a player would: one
    who confirms what is picked, plays a highlighted square once a piece is picked, and
    rarely takes anything back. ``check``: called on each settled table before a click."""
    settled = page.locator('#app[data-animating="false"]')
    for _ in range(clicks):
        settled.wait_for()  # not mid-playback, and no click on its way to Python
        if page.locator('#app[data-over="true"]').count():
            return
        if check is not None:
            check(page)
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


# --------------------------------------------------------------------------- axe-core

#: axe-core comes from the npm registry (a devDependency in package.json, pinned in
#: package-lock.json) and is injected into the page by the test; it is never in dist/.
AXE = NODE_MODULES / "axe-core" / "axe.min.js"


def axe_problems(page: Page, *, moderate: bool = False) -> list[str]:
    """Serious and critical axe-core violations on the page as it is now; ``moderate``:
    the moderate ones too (a page without a ``main`` landmark or an ``h1``, content
    outside every landmark, ...)."""
    assert AXE.is_file(), "axe-core missing: run `npm ci` (python build.py test does)"
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ["violations"],
            rules: {"target-size": {enabled: true}}});  // WCAG 2.2 (off by default)
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}));
    }""")
    impacts = ("moderate", "serious", "critical") if moderate else ("serious", "critical")
    return [f"{v['impact']} {v['id']}: {v['help']} at {v['nodes']}" for v in result
            if v["impact"] in impacts]


#: Every visible tap target smaller than 44 × 44 px: buttons, links set apart from text
#: (buttons, the header's, "How to play"), disclosure toggles, form fields and the label
#: rows of radio buttons (a radio's target is its whole row).
SMALL_TARGETS = """() => {
  const out = [];
  const sel = "button, a.button, .bar a, a.how-to-play, summary, select, label.choice, "
    + "input:not([type=hidden]):not([type=radio]):not([type=checkbox])";
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest("[hidden], [aria-hidden=true]")) continue;
    if (getComputedStyle(el).visibility === "hidden") continue;
    if (r.width < 43.5 || r.height < 43.5) {
      const text = (el.textContent || el.getAttribute("aria-label") || "").trim().slice(0, 24);
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${text}" `
               + `${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""
#: A phone's screen (CSS pixels), as the issue's players held it.
PHONE = {"width": 390, "height": 844}

#: Where the status line is, if it is drawn: null, or whether it is inside the viewport.
STATUS_IN_VIEW = """() => {
  const el = document.querySelector("#app [data-status]");
  if (!el || document.querySelector("#app .overlay")) return null;
  const r = el.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= innerHeight && r.height > 0;
}"""


def status_in_view(page: Page) -> None:
    """The table's status line (``[data-status]``) is on screen (any overlay aside)."""
    assert page.evaluate(STATUS_IN_VIEW) is not False, (
        "the status line is off screen: " + page.locator("#app [data-status]").inner_text())


#: The current choice's controls (``[data-choice]``, which every table marks: the hand a card
#: is played from, the buttons of a question) that are not wholly inside the viewport, while
#: the seat has something to click; null when nothing is asked (or an overlay covers it).
CHOICE_OUT_OF_VIEW = """() => {
  if (document.querySelector("#app .overlay")) return null;
  if (!document.querySelector("#app button[data-cmd]:not([disabled])")) return null;
  const els = [...document.querySelectorAll("#app [data-choice]")];
  if (!els.length) return ["no [data-choice] marks the controls of the current choice"];
  const out = [];
  for (const el of els) {
    const r = el.getBoundingClientRect();
    if (!r.height) continue;
    if (r.top < -1 || r.bottom > innerHeight + 1 || r.left < -1 || r.right > innerWidth + 1)
      out.push(`${el.className} ${Math.round(r.top)}..${Math.round(r.bottom)} of ${innerHeight}`);
  }
  return out;
}"""


def phone_check(page: Page) -> None:
    """On a settled table: the status line is on screen, and so are the controls of the
    current choice (:data:`CHOICE_OUT_OF_VIEW`), with no scrolling by the player."""
    status_in_view(page)
    out = page.evaluate(CHOICE_OUT_OF_VIEW)
    assert not out, f"the current choice is off screen: {out}"


#: Installed before any page script: every 100 ms, what a playback step reveals
#: (``[data-reveal="<what>"]``, marked by the table while the step is shown) that has been
#: on the table for 500 ms (time for the shell to scroll it into view) and is still not
#: inside the viewport. Keyed by the attribute's value, as the table is redrawn each step.
REVEAL_WATCH = """
window.__revealMisses = [];
window.__revealsSeen = 0;
(function () {
  let since = new Map();
  setInterval(() => {
    const now = performance.now(), next = new Map();
    for (const el of document.querySelectorAll("#app [data-reveal]")) {
      const key = el.dataset.reveal || el.className;
      const first = since.has(key) ? since.get(key) : now;
      next.set(key, first);
      if (first === null || now - first < 500) continue;
      next.set(key, null);  // checked once
      window.__revealsSeen++;
      const r = el.getBoundingClientRect();
      if (r.height && (r.top < -1 || r.bottom > innerHeight + 1))
        window.__revealMisses.push(`${key} ${Math.round(r.top)}..${Math.round(r.bottom)}`);
    }
    since = next;
  }, 100);
})();
"""


def reveal_misses(page: Page) -> list[str]:
    """What was revealed off screen since :data:`REVEAL_WATCH` was installed."""
    return page.evaluate("window.__revealMisses")


def reveals_seen(page: Page) -> int:
    """How many reveals :data:`REVEAL_WATCH` has checked (a test that proves something
    checks some)."""
    return page.evaluate("window.__revealsSeen")


#: Text that does not fit its box (cut off or spilling): elements matching the selector
#: whose content is wider or taller than their box.
OVERFLOWING = """(sel) => [...document.querySelectorAll(sel)].filter(el => {
  const r = el.getBoundingClientRect();
  return r.width && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1);
}).map(el => `${el.className} "${el.textContent.trim().slice(0, 30)}" `
             + `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`)"""


def overflowing(page: Page, selector: str) -> list[str]:
    """The elements matching ``selector`` whose text does not fit them (:data:`OVERFLOWING`)."""
    return page.evaluate(OVERFLOWING, selector)


def small_targets(page: Page) -> list[str]:
    """The page's tap targets under 44 × 44 px as it is now (:data:`SMALL_TARGETS`)."""
    return page.evaluate(SMALL_TARGETS)


# --------------------------------------------------------------------------- long scripts
# What freezes a page is script: Python run on the main thread (a bot's search, a table's
# drawing) takes hundreds of milliseconds to seconds. The probe times each script the main
# thread runs (the Long Animation Frames API), less the style and layout it forces: layout
# is the browser's own work, which a loaded machine stretches several times over (two
# Chromiums and a bot's search on two cores). How long whole tasks take, layout included,
# is a speed figure, which `python build.py bench` measures and reports.

#: Installed before any page script: every main-thread script of 5 ms or more in a frame
#: of 50 ms or more, as its time less the style and layout it forced.
LONG_SCRIPTS = """
window.__longScripts = [];
new PerformanceObserver((list) => {
  for (const frame of list.getEntries()) {
    for (const s of frame.scripts) {
      window.__longScripts.push({ start: s.startTime, what: s.invoker,
        ms: Math.round(s.duration - s.forcedStyleAndLayoutDuration) });
    }
  }
}).observe({ type: "long-animation-frame", buffered: true });
"""
#: The longest main-thread script a page may have.
LIMIT_MS = 200


def long_scripts(page: Page, since: float = 0.0) -> list[int]:
    """The times (ms) of the page's long scripts so far (:data:`LONG_SCRIPTS` installed),
    of those begun at ``since`` (the page's ``performance.now()``) or later."""
    return page.evaluate(
        "since => window.__longScripts.filter(t => t.start >= since).map(t => t.ms)", since)


def assert_no_long_script(page: Page, since: float = 0.0) -> None:
    """No script over :data:`LIMIT_MS` since ``since``, and the probe works: a 300 ms busy
    loop (a stand-in for Python on the main thread) shows up."""
    times = long_scripts(page, since)
    slow = page.evaluate(
        "([since, limit]) => window.__longScripts.filter(t => t.start >= since && t.ms > limit)",
        [since, LIMIT_MS])
    assert not slow, f"main-thread scripts over {LIMIT_MS} ms: {slow} (all: {times})"
    before = len(long_scripts(page))
    page.evaluate("() => setTimeout(() => {"
                  " const t = performance.now(); while (performance.now() - t < 300); })")
    page.wait_for_function(f"() => window.__longScripts.length > {before}")
    assert max(long_scripts(page)[before:]) >= 250


# --------------------------------------------------------------------------- saved games

#: What :func:`click_one` leaves alone: what the browser's clickers do, and Undo (it would
#: shrink the saved record :func:`play_until` waits to grow).
NOT_PLAY_NOR_UNDO = (*BROWSER_NOT_PLAY, "undo")


def saved_games(page: Page) -> dict:
    """Every saved game's envelope in this browser, by id."""
    return page.evaluate("""() => {
        const out = {};
        for (const k of Object.keys(localStorage)) {
            if (!k.startsWith("pygames.saved.")) continue;
            try { const g = JSON.parse(localStorage.getItem(k)); out[g.id] = g; } catch (e) {}
        }
        return out;
    }""")


def settle(page: Page) -> None:
    """Wait until nothing moves: no playback, no click on its way, no bot thinking."""
    page.wait_for_selector('#app[data-animating="false"]')
    page.wait_for_function("() => !document.querySelector('#app .bar .thinking')")
    page.wait_for_selector('#app[data-animating="false"]')


def seen(page: Page) -> dict:
    """What the player sees: the log and the buttons on offer."""
    return page.evaluate("""() => ({
        log: [...document.querySelectorAll("#app .log-lines li")].map(li => li.textContent),
        cmds: [...document.querySelectorAll("#app button[data-cmd]:not([disabled])")]
            .map(b => b.dataset.cmd).filter(c => !c.startsWith("lang:")).sort()})""")


def click_one(page: Page, rng: random.Random) -> None:
    """One click a player might make on the settled table (confirm what is picked, take
    the device when asked, else any enabled button that plays, never Undo)."""
    cmds = [c for c in page.locator("#app button[data-cmd]:not([disabled])").evaluate_all(
        "els => els.map(e => e.dataset.cmd)") if not c.startswith(NOT_PLAY_NOR_UNDO)]
    if not cmds:
        return
    urgent = [c for c in ("confirm", "handover-ok") if c in cmds]
    cmd = urgent[0] if urgent else rng.choice(cmds)
    try:  # the table may re-render under the pointer: then look again
        page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
            timeout=2_000)
    except PlaywrightTimeoutError:
        pass


def play_until(page: Page, rng: random.Random, moves: int, limit: int = 400) -> dict:
    """Click like a player until the saved record has ``moves`` actions; its envelope."""
    for _ in range(limit):
        settle(page)
        games = saved_games(page)
        if games and max(g["moves"] for g in games.values()) >= moves:
            break
        if page.locator('#app[data-over="true"]').count():
            break
        click_one(page, rng)
    settle(page)
    (game,) = saved_games(page).values()
    return game


# --------------------------------------------------------------------------- a player in a hurry

def no_sideways_scroll(page: Page) -> None:
    """Nothing on the page scrolls sideways (a phone's whole width is the table's)."""
    wide = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
    assert wide <= 0, f"{wide} px sideways scroll"


def settle_skipping(page: Page) -> None:
    """No playback (Skip pressed, as a player in a hurry does), no click on its way, no bot
    thinking (several bots' turns in a row: up to 20 s)."""
    for _ in range(400):
        skip = page.locator('#app button[data-cmd="skip"]:not([disabled])')
        if skip.count():
            try:
                skip.first.click(timeout=1_000)
            except PlaywrightTimeoutError:
                pass
        if page.evaluate("""() => { const app = document.getElementById("app");
                return app.dataset.animating === "false" && app.dataset.busy !== "true"
                    && app.dataset.thinking !== "true"; }"""):
            return
        page.wait_for_timeout(50)
    raise AssertionError("the table never settled")


# --------------------------------------------------------------------------- link play

#: What a clicker at a link-play table leaves alone besides: Join, the guest's move to
#: another browser, and the host's giving a gone friend's seat to a bot.
LINK_NOT_PLAY = (*BROWSER_NOT_PLAY, "join", "move_seat", "seat_bot:")


def link_record(page: Page) -> dict:
    """The game's record on a link-play page (``[data-record]``: the host's, a guest's
    once the game is over)."""
    return json.loads(page.locator("[data-record]").text_content())


def click_a_move(page: Page, rng: random.Random) -> bool:
    """One click on a settled table if it offers a move; False if there is none now."""
    if not page.locator('#app[data-animating="false"]').count():
        return False
    # Like a player: rarely takes back (undo, cancel), plays a highlighted square once a
    # piece is picked, confirms what is picked.
    cmds, targets = playable(page.locator("#app .main button[data-cmd]:not([disabled])"),
                             LINK_NOT_PLAY)
    if not cmds:
        return False
    cmd = ("confirm" if "confirm" in cmds and rng.random() < 0.8
           else rng.choice(targets or cmds))
    try:
        page.locator(f'#app .main button[data-cmd="{cmd}"]:not([disabled])').first.click(
            timeout=2_000)
    except PlaywrightTimeoutError:
        return False
    return True


def over(page: Page) -> bool:
    """The game is over on this page and its last playback has ended."""
    return bool(page.locator('#app[data-over="true"][data-animating="false"]').count())
