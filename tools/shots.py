"""Screenshots of every table for a reviewer: ``python build.py shots [--out DIR]``.

Each game in the registry, vs the bot and in pass and play, in both languages, at a phone's
width (390 × 844) and a desktop's (1280 × 800): at the start and after a few clicks (a game
in play). Plus the lobby, a finished game's replay and a bad link's error screen. Full-page
PNGs go to ``DIR`` (``shots/`` by default, not in git) with ``index.html``, a contact sheet
that shows them all at once, grouped by page, the phone beside the desktop.
"""

from __future__ import annotations

import html
import random
from pathlib import Path

import pygames
from tools import chromium, relay

VIEWPORTS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}
LANGS = ("ja", "en")
READY = 'html[data-ready="true"]'


def _pages() -> list[tuple[str, str]]:
    """(name, address) of every page shot."""
    out = [("lobby", "/index.html?lang={lang}")]
    for gid in pygames.game_ids():
        for mode in ("bot", "hotseat"):
            out.append((f"{gid}-{mode}", f"/play.html?game={gid}&mode={mode}&seed=5&speed=0"
                                         "&lang={lang}"))
        state = pygames.get_game(gid).new_game(seed=5)
        rng = random.Random(5)
        while not state.is_over():
            p = state.to_move()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
        from pygames import records

        out.append((f"{gid}-replay", f"/play.html?mode=replay&record="
                                     f"{records.to_string(state.record())}&ply=6&lang={{lang}}"))
    out.append(("error", f"/play.html?game={pygames.game_ids()[0]}&seat=7&lang={{lang}}"))
    return out


def _click_some(page, clicks: int) -> None:
    rng = random.Random(3)
    for _ in range(clicks):
        page.wait_for_selector('#app[data-animating="false"]')
        buttons = page.locator("#app button[data-cmd]:not([disabled])")
        cmds = [b.get_attribute("data-cmd") for b in buttons.all()]
        cmds = [c for c in cmds if c and not c.startswith(("lang:", "rematch", "undo",
                                                               "replay:", "skip"))]
        if not cmds:
            return
        urgent = [c for c in ("confirm", "handover-ok") if c in cmds]
        cmd = urgent[0] if urgent else rng.choice(cmds)
        try:
            page.locator(f'#app button[data-cmd="{cmd}"]:not([disabled])').first.click(
                timeout=2_000)
        except Exception:  # the table re-rendered under the pointer: look again
            continue


def run(dist: Path, out: Path) -> int:
    from playwright.sync_api import sync_playwright

    out.mkdir(parents=True, exist_ok=True)
    server, base = relay.start_server_thread(0, dist, log_errors=False)
    shots: list[tuple[str, str, str, str]] = []  # (page, lang, viewport, file)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(**{**chromium.launch_args(), "headless": True})
            for name, address in _pages():
                for lang in LANGS:
                    for vp, size in VIEWPORTS.items():
                        ctx = browser.new_context(viewport=size, service_workers="block")
                        page = ctx.new_page()
                        page.goto(base + address.format(lang=lang))
                        page.wait_for_selector(f'{READY}, html[data-failed="true"]')
                        states = [("start", 0)]
                        if name.endswith(("-bot", "-hotseat")):
                            states.append(("playing", 10))
                        for state, clicks in states:
                            _click_some(page, clicks)
                            file = f"{name}-{state}-{lang}-{vp}.png"
                            page.screenshot(path=str(out / file), full_page=True)
                            shots.append((f"{name} ({state})", lang, vp, file))
                            print(f"[shots] {file}", flush=True)
                        ctx.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    (out / "index.html").write_text(_sheet(shots), encoding="utf-8")
    print(f"[shots] {len(shots)} screenshots: open {out / 'index.html'}")
    return 0


def _sheet(shots: list[tuple[str, str, str, str]]) -> str:
    rows: dict[str, list[tuple[str, str, str]]] = {}
    for title, lang, vp, file in shots:
        rows.setdefault(title, []).append((lang, vp, file))
    body = "".join(
        f"<section><h2>{html.escape(title)}</h2><div class=row>"
        + "".join(f'<figure><a href="{html.escape(f)}"><img src="{html.escape(f)}" '
                  f'class="{vp}" alt="{html.escape(title)}, {lang}, {vp}" loading="lazy"></a>'
                  f"<figcaption>{lang} · {vp}</figcaption></figure>" for lang, vp, f in items)
        + "</div></section>" for title, items in rows.items())
    return ("<!doctype html><html lang=en><meta charset=utf-8><title>pygames: every table"
            "</title><style>body{font:14px system-ui;margin:1rem;background:#eee}"
            ".row{display:flex;gap:1rem;align-items:flex-start;overflow-x:auto}"
            "figure{margin:0;background:#fff;padding:.3rem}img{display:block;"
            "border:1px solid #ccc}img.phone{width:195px}img.desktop{width:480px}</style>"
            f"<h1>pygames: every table</h1><main>{body}</main></html>")
