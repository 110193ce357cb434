"""Records replay identically in CPython and in Pyodide: the code both run.

test_browser_pyodide.py runs :data:`DIGEST_CODE` in Chromium's Pyodide (through our wheel)
and compares with :func:`cpython_digests`; test_pyodide.py checks in CPython that the
digests could not agree trivially.
"""

from __future__ import annotations

#: Seeds per option set (every game's option sets as the shared tests choose them,
#: ``pygames.battery.option_combos``): each game's volume of random play is the battery's;
#: this proves the two interpreters agree on it.
SEEDS = range(10)

DIGEST_CODE = '''
import hashlib, json
import pygames
from pygames.battery import option_combos
from pygames.bots import self_play

def digests(seeds):
    out = {}
    for gid in pygames.game_ids():
        game = pygames.get_game(gid)
        for options in option_combos(game):
            for seed in seeds:
                state = self_play(game, seed=seed, options=options)
                text = json.dumps([state.record(), state.outcome(), state.view(None)],
                                  sort_keys=True)
                key = f"{gid} {json.dumps(options, sort_keys=True)} {seed}"
                out[key] = hashlib.sha256(text.encode()).hexdigest()
    return out
'''


def cpython_digests() -> dict[str, str]:
    """Every game's digests over :data:`SEEDS`, computed here by :data:`DIGEST_CODE`."""
    namespace: dict = {}
    exec(DIGEST_CODE, namespace)  # the very code the browser runs
    return namespace["digests"](SEEDS)
