"""A game plugs in from its own files: Tiny Duel (``tests/tinygame``: an engine and a UI
module, registered at run time) goes through the shared tests with no shared file naming
it: the API battery, its golden playthrough, the table click-through in both local modes,
records, the replay viewer, search bots and the lobby."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pgui
import pytest

import pygames
from tools.paths import ROOT

PLUGIN = "tiny=tinygame:TinyGame,tinygame.ui"
SHARED = ["test_api.py", "test_golden.py", "test_table.py", "test_records.py",
          "test_replay.py", "test_search.py", "test_battery.py"]


@pytest.fixture
def tiny():
    pygames.register("tiny", "tinygame", "TinyGame")
    pgui.register_ui("tiny", "tinygame.ui")
    yield pygames.get_game("tiny")
    pygames.unregister("tiny")
    pgui.UI_MODULES.pop("tiny", None)


def test_the_shared_tests_run_on_a_game_no_shared_file_names():
    env = {**os.environ, "PYGAMES_PLUGIN": PLUGIN}
    cmd = [sys.executable, "-m", "pytest", "-v", "-p", "no:xdist", "-p", "no:cacheprovider",
           "-k", "tiny", "-m", "not browser", "-o", "addopts=",
           *(f"tests/{name}" for name in SHARED)]
    run = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", run.stdout).group(1))
    assert passed >= 25, run.stdout[-2000:]  # every shared capability, not a handful
    for name in SHARED:  # each shared module ran something on it
        assert re.search(rf"tests/{name}::\S*tiny\S* PASSED", run.stdout), name


def test_the_lobby_offers_a_plugged_in_game(tiny):
    from pgui.lobby import render_lobby

    html = render_lobby()
    assert 'id="game-tiny"' in html and "Tiny Duel" in html and "タイニー" in html
    assert "A three-card duel" in html


def test_a_game_missing_a_hook_says_which(tiny):
    from tinygame import TinyState

    from pygames import records

    state = tiny.new_game(seed=1)
    state.apply(0, "2")
    assert "# Round 1" in records.to_sheet(state.record())
    original = TinyState.sheet_group
    del TinyState.sheet_group
    try:
        with pytest.raises(NotImplementedError, match="sheet_group"):
            records.to_sheet(state.record())
        with pytest.raises(NotImplementedError, match="hidden_twin"):
            pygames.State.hidden_twin(state, 0)
    finally:
        TinyState.sheet_group = original
