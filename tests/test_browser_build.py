"""The built site in Chromium: Pyodide and our wheel load from this server, and from no
other (the site's files themselves are checked in test_build.py)."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from helpers.browser import READY
from helpers.dist import wheel_name
from helpers.probe import run_python


def test_bare_pyodide_loads_from_this_server(page, server_url, page_errors):
    responses = []
    page.on("response", lambda r: responses.append((r.url, r.status)))
    page.goto(f"{server_url}/bench/bare.html")
    page.wait_for_selector(READY, state="attached")
    wasm = [(u, s) for u, s in responses if u.endswith("/pyodide.asm.wasm")]
    assert wasm == [(f"{server_url}/pyodide/pyodide.asm.wasm", 200)]
    assert all(urlsplit(u).hostname == "127.0.0.1" for u, _ in responses if "://" in u)
    assert not [e for e in page_errors if "pyodide" in e.lower()], page_errors


def test_the_runtime_loads_wheel_and_pgui_locally_and_a_game_ui_only_when_needed(
        page, server_url, page_errors):
    """The app's runtime (pyboot.mjs) gets our wheel (no micropip) and pgui from this
    server; a game's own UI module and the QR-code wheel come only when imported."""
    requested = []
    page.on("requestfinished", lambda r: requested.append(r.url))
    out = json.loads(run_python(page, server_url, """
import sys, pygames, pgui
before = sorted(m for m in sys.modules if m.startswith("pgui.") or m == "segno")
import pgui.cardia_ui
result = json.dumps({"pygames": pygames.__file__, "pgui": pgui.__file__, "before": before})
"""))
    assert "site-packages/pygames" in out["pygames"]
    assert out["pgui"].endswith("pgui/__init__.py")
    assert not [m for m in out["before"] if m.endswith("_ui") or m == "segno"], out["before"]
    assert f"{server_url}/wheels/{wheel_name()}" in requested
    assert f"{server_url}/py/app.zip" in requested
    assert f"{server_url}/py/cardia.zip" in requested
    assert not [u for u in requested if "micropip" in u or "segno" in u
                or "/py/kiriai.zip" in u]
