"""Our Python in Chromium's Pyodide: records replay there exactly as in CPython, and our
modules import from the bytecode shipped with them.

The same seeded self-play games run in CPython and inside Pyodide (through our wheel);
every game's record, outcome and spectator view must hash the same (the code both run is
in helpers/pyodide.py; test_pyodide.py checks it in CPython). Every module of the wheel and
of pgui/ comes with bytecode made from its shipped source, and Pyodide compiles none of
ours.
"""

from __future__ import annotations

import json

from helpers.browser import READY
from helpers.pyodide import DIGEST_CODE, SEEDS, cpython_digests

import pygames

PROBE = f"""<!doctype html><html data-ready="false"><head>
<script type="module" src="./pyscript/core.js"></script></head>
<body><pre id="out"></pre><script type="py" config="./pyscript.json">
{DIGEST_CODE}
import json, sys
from pyscript import document
document.getElementById("out").textContent = json.dumps(
    {{"python": sys.version, "digests": digests(range({SEEDS.start}, {SEEDS.stop}))}})
document.documentElement.dataset.ready = "true"
</script></body></html>
"""


def test_pyodide_replays_every_game_exactly_like_cpython(page, server_url):
    page.route(f"{server_url}/__replay__.html",
               lambda route: route.fulfill(body=PROBE, content_type="text/html; charset=utf-8"))
    page.goto(f"{server_url}/__replay__.html")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    browser = json.loads(page.locator("#out").text_content())
    assert browser["python"].split()[0] != "", browser
    ours = cpython_digests()
    assert browser["digests"].keys() == ours.keys()
    differing = [k for k in ours if browser["digests"][k] != ours[k]]
    assert not differing, f"Pyodide ({browser['python'].split()[0]}) differs on {differing[:5]}"


BYTECODE_PROBE = """<!doctype html><html data-ready="false"><head>
<script type="module" src="./pyscript/core.js"></script></head>
<body><pre id="out"></pre><script type="py" config="./pyscript.json">
import importlib, importlib.machinery, importlib.util, json, os, sys
compiled = []
original = importlib.machinery.SourceFileLoader.source_to_code
def spy(self, data, path, *args, **kwargs):
    compiled.append(path)
    return original(self, data, path, *args, **kwargs)
importlib.machinery.SourceFileLoader.source_to_code = spy
import pygames
import pgui
report = {"compiled": [], "checked": {}, "tag": sys.implementation.cache_tag}
for package in (pygames, pgui):
    folder = os.path.dirname(package.__file__)
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".py"):
            continue
        module = package.__name__ + ("" if name == "__init__.py" else "." + name[:-3])
        importlib.import_module(module)
        source = open(os.path.join(folder, name), "rb").read()
        try:
            pyc = open(importlib.util.cache_from_source(os.path.join(folder, name)), "rb").read()
        except OSError as e:
            report["checked"][module] = str(e)
            continue
        flags = int.from_bytes(pyc[4:8], "little")
        report["checked"][module] = {
            "unchecked_hash": flags == 1,
            "its_source": pyc[8:16] == importlib.util.source_hash(source)}
report["compiled"] = [p for p in compiled if "/pygames/" in p or "/pgui/" in p]
document = __import__("pyscript").document
document.getElementById("out").textContent = json.dumps(report)
document.documentElement.dataset.ready = "true"
</script></body></html>
"""


def test_pyodide_imports_our_modules_from_their_shipped_bytecode(page, server_url):
    """Every module of the wheel and of pgui/ comes with bytecode made from exactly its
    shipped source, and Pyodide imports them without compiling a line of ours."""
    page.route(f"{server_url}/__bytecode__.html",
               lambda route: route.fulfill(body=BYTECODE_PROBE,
                                           content_type="text/html; charset=utf-8"))
    page.goto(f"{server_url}/__bytecode__.html")
    page.wait_for_selector(READY, state="attached", timeout=120_000)
    report = json.loads(page.locator("#out").text_content())
    modules = report["checked"]
    assert {"pygames", "pygames.core", *(f"pygames.{gid}" for gid in pygames.game_ids()),
            "pgui", "pgui.table", "pgui.session_glue", "pgui.kiriai_ui"} <= set(modules)
    wrong = {m: r for m, r in modules.items()
             if r != {"unchecked_hash": True, "its_source": True}}
    assert not wrong, wrong
    assert report["compiled"] == [], report["compiled"]
