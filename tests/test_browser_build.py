"""The built site in Chromium: Pyodide and our wheel load from this server, and from no
other (the site's files themselves are checked in test_build.py)."""

from __future__ import annotations

from urllib.parse import urlsplit

from helpers.browser import READY
from helpers.dist import wheel_name


def test_bare_pyodide_loads_from_this_server(page, server_url, page_errors):
    responses = []
    page.on("response", lambda r: responses.append((r.url, r.status)))
    page.goto(f"{server_url}/bench/bare.html")
    page.wait_for_selector(READY, state="attached")
    wasm = [(u, s) for u, s in responses if u.endswith("/pyodide.asm.wasm")]
    assert wasm == [(f"{server_url}/pyodide/pyodide.asm.wasm", 200)]
    assert all(urlsplit(u).hostname == "127.0.0.1" for u, _ in responses if "://" in u)
    assert not [e for e in page_errors if "pyodide" in e.lower()], page_errors


PROBE = """<!doctype html>
<html><head><meta charset="utf-8">
<script type="module" src="./pyscript/core.js"></script></head>
<body><script type="py" config="./pyscript.json">
import pygames
import pgui
from pyscript import document

root = document.documentElement
root.dataset.pygames = pygames.__file__
root.dataset.pgui = pgui.__file__
root.dataset.ready = "true"
</script></body></html>
"""


def test_pyscript_page_loads_wheel_and_pgui_locally(page, server_url, page_errors):
    """A page next to play.html gets our wheel (no micropip) and pgui through pyscript.json."""
    page.route(
        f"{server_url}/__probe__.html",
        lambda route: route.fulfill(body=PROBE, content_type="text/html; charset=utf-8"),
    )
    requested = []
    page.on("requestfinished", lambda r: requested.append(r.url))
    page.goto(f"{server_url}/__probe__.html")
    page.wait_for_selector(READY, state="attached")
    root = page.locator("html")
    assert "site-packages/pygames" in root.get_attribute("data-pygames")
    assert root.get_attribute("data-pgui").endswith("pgui/__init__.py")
    assert f"{server_url}/wheels/{wheel_name()}" in requested
    assert not [u for u in requested if "micropip" in u]
