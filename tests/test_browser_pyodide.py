"""Records replay identically in CPython and in Pyodide.

The same seeded self-play games run here and inside Chromium's Pyodide (through our
wheel); every game's record, outcome and spectator view must hash the same.
"""

from __future__ import annotations

import json

import pygames
from pygames.bots import self_play

READY = 'html[data-ready="true"]'
SEEDS = range(40)

DIGEST_CODE = '''
import hashlib, itertools, json
import pygames
from pygames.bots import self_play

def digests(seeds):
    out = {}
    for gid in pygames.game_ids():
        game = pygames.get_game(gid)
        names = sorted(game.option_schema)
        values = [game.option_schema[n].get("values", [game.option_schema[n]["default"]])
                  for n in names]
        for combo in itertools.product(*values):
            options = dict(zip(names, combo))
            for seed in seeds:
                state = self_play(game, seed=seed, options=options)
                text = json.dumps([state.record(), state.outcome(), state.view(None)],
                                  sort_keys=True)
                key = f"{gid} {json.dumps(options, sort_keys=True)} {seed}"
                out[key] = hashlib.sha256(text.encode()).hexdigest()
    return out
'''

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


def cpython_digests():
    namespace: dict = {}
    exec(DIGEST_CODE, namespace)  # the very code the browser runs
    return namespace["digests"](SEEDS)


def test_digest_code_really_depends_on_the_games():
    # Guard against a probe that would agree trivially: different seeds, different games.
    ours = cpython_digests()
    assert len(set(ours.values())) == len(ours)
    state = self_play(pygames.get_game("kiriai"), seed=1)
    assert state.is_over()


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
