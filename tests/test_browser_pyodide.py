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

from helpers.probe import run_python
from helpers.pyodide import DIGEST_CODE, SEEDS, cpython_digests

import pygames

PROBE = f"""
{DIGEST_CODE}
import sys
seeds = range({SEEDS.start}, {SEEDS.stop})
result = json.dumps({{"python": sys.version, "digests": digests(seeds)}})
"""


def test_pyodide_replays_every_game_exactly_like_cpython(page, server_url):
    browser = json.loads(run_python(page, server_url, PROBE, "replay"))
    assert browser["python"].split()[0] != "", browser
    ours = cpython_digests()
    assert browser["digests"].keys() == ours.keys()
    differing = [k for k in ours if browser["digests"][k] != ours[k]]
    assert not differing, f"Pyodide ({browser['python'].split()[0]}) differs on {differing[:5]}"


BYTECODE_PROBE = """
import importlib, importlib.machinery, importlib.util, json, os, sys
compiled = []
original = importlib.machinery.SourceFileLoader.source_to_code
def spy(self, data, path, *args, **kwargs):
    compiled.append(path)
    return original(self, data, path, *args, **kwargs)
importlib.machinery.SourceFileLoader.source_to_code = spy
import pygames
import pgui
pgui.ui_modules()  # every game's own modules, fetched on import (lazy)
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
result = json.dumps(report)
"""


def test_pyodide_imports_our_modules_from_their_shipped_bytecode(page, server_url):
    """Every module of the wheel and of pgui/ comes with bytecode made from exactly its
    shipped source, and Pyodide imports them without compiling a line of ours."""
    report = json.loads(run_python(page, server_url, BYTECODE_PROBE, "bytecode"))
    modules = report["checked"]
    assert {"pygames", "pygames.core", *(f"pygames.{gid}" for gid in pygames.game_ids()),
            "pgui", "pgui.table", "pgui.session_glue", "pgui.kiriai_ui"} <= set(modules)
    wrong = {m: r for m, r in modules.items()
             if r != {"unchecked_hash": True, "its_source": True}}
    assert not wrong, wrong
    assert report["compiled"] == [], report["compiled"]
