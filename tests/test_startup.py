"""What a page loads before it can play (issue 11, startup): the worker imports only what
opening a table needs, so each page starts sooner. Every stdlib import costs a compile in
Pyodide (its standard library ships no bytecode), and every game module tens of
milliseconds; a player notices the sum as a longer "Loading" bar.

Checked in a fresh CPython process (the same imports run in the browser's worker); that
Pyodide imports our modules from their shipped bytecode is in test_browser_pyodide.py."""

from __future__ import annotations

import json
import subprocess
import sys
from urllib.parse import parse_qsl as stdlib_parse_qsl

from hypothesis import given, settings
from hypothesis import strategies as st
from pgui.session_glue import LINK_MODES, parse_qsl

import pygames
from tools.paths import ROOT


def loaded_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code`` (with the app's path)."""
    probe = f"import sys, json\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, cwd=ROOT,
                         env={"PYTHONPATH": f"{ROOT}{':'}{ROOT / 'web'}", "PATH": "/usr/bin"})
    return set(json.loads(out.stdout.strip().splitlines()[-1]))


OPEN = ("from pgui.session_glue import Session\n"
        "r = Session().open('game={game}&mode=bot&seed=3&lang=en')\n"
        "assert 'error' not in r and r['html'], r\n")


def test_the_worker_starts_without_any_game_or_link_play():
    mods = loaded_after("import pgui.session_glue")
    assert not {f"pygames.{gid}" for gid in pygames.game_ids()} & mods
    # link play (WebRTC's glue, the sync protocol, its HMAC) and the replay viewer
    assert not {"pgui.link", "pygames.session", "pgui.replay", "hmac", "secrets"} & mods
    assert "urllib.parse" not in mods  # ipaddress with it: ~90 ms in Pyodide


def test_a_table_loads_its_own_game_only():
    for game in pygames.game_ids():
        others = [gid for gid in pygames.game_ids() if gid != game]
        mods = loaded_after(OPEN.format(game=game))
        assert f"pygames.{game}" in mods and f"pgui.{game}_ui" in mods
        for other in others:
            assert f"pygames.{other}" not in mods and f"pgui.{other}_ui" not in mods, other
        assert "pgui.link" not in mods and "pgui.replay" not in mods


def test_link_play_and_replays_still_load_when_asked_for():
    mods = loaded_after(
        "from pgui.session_glue import Session\n"
        "assert 'error' not in Session().open('game=cardia&mode=link&lang=en')\n"
        "assert 'error' not in Session().open('game=kiriai&mode=replay&seed=3&lang=en')\n")
    assert {"pgui.link", "pygames.session", "pgui.replay"} <= mods


def test_a_bad_link_is_explained_in_a_fresh_worker():
    """The words of a lazily loaded mode are there for its errors too (a damaged record
    in an embed, an unknown option of link play), in a worker that loaded nothing else."""
    out = subprocess.run(
        [sys.executable, "-c",
         "import json\nfrom pgui.session_glue import Session\nfrom pygames import records\n"
         "from pygames.bots import self_play\nimport pygames\n"
         "r = records.to_string(self_play(pygames.get_game('kiriai'), seed=7).record())\n"
         "print(json.dumps([Session().open(q)['error'] for q in ("
         "'game=kiriai&mode=replay&lang=ja&record=' + r[:-5],"
         "'game=kiriai&mode=replay&lang=en&record=' + r[:-5],"
         "'game=cardia&mode=link&lang=ja&deck=IX')]))"],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'web'}", "PATH": "/usr/bin"})
    ja, en, link = json.loads(out.stdout.strip().splitlines()[-1])
    assert "表示できません" in ja and "Traceback" not in ja
    assert "cannot" in en.lower() or "can't" in en.lower(), en
    assert "「デッキ」" in link and "「IX」" in link  # the option by its name, in Japanese


def test_the_link_modes_are_the_link_tables():
    from pgui.link import LinkTable

    assert LINK_MODES == LinkTable.modes


QUERY_TEXT = st.text(alphabet=st.sampled_from("ab=&+%2Fe9E5B1zZ%-_.~ 局\u00e9\ud7ff0"),
                     max_size=40)


@settings(max_examples=600, deadline=None)
@given(QUERY_TEXT)
def test_the_query_parser_reads_any_text_as_the_standard_library(text):
    assert parse_qsl(text) == stdlib_parse_qsl(text, keep_blank_values=True)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), st.text(max_size=12), max_size=5))
def test_the_query_parser_reads_what_the_page_writes(params):
    from urllib.parse import urlencode

    assert parse_qsl(urlencode(params)) == list(params.items())
