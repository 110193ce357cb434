"""The probe test_browser_pyodide.py runs in Chromium's Pyodide, checked in CPython: the
replay digests (helpers/pyodide.py) could not agree trivially."""

from __future__ import annotations

from helpers.pyodide import cpython_digests

import pygames
from pygames.bots import self_play


def test_digest_code_really_depends_on_the_games():
    # Guard against a probe that would agree trivially: different seeds, different games.
    ours = cpython_digests()
    assert len(set(ours.values())) == len(ours)
    state = self_play(pygames.get_game("kiriai"), seed=1)
    assert state.is_over()
