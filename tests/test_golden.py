"""Golden playthroughs (``pygames.playthrough``): each file in ``tests/golden/`` is one
seeded random game with every seat's view, legal actions and new events at every step;
replayed now, it must read exactly the same. A rules change that should alter games is
rewritten with ``python -m pygames.playthrough --write tests/golden`` and its diff reviewed.

Every registered game has at least one file, and every value of every option of a game
appears in at least one of its files.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pygames
from pygames.playthrough import check_file, header

GOLDEN = Path(__file__).parent / "golden"
#: The files of registered games (a plugged-in test game's file waits for its game).
FILES = [p for p in sorted(GOLDEN.glob("*.txt"))
         if header(p.read_text(encoding="utf-8"))["game"] in pygames.game_ids()]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_a_golden_playthrough_plays_as_written(path):
    problem = check_file(path)
    assert problem is None, problem


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_every_option_value_of_every_game_has_a_golden_playthrough(gid):
    game = pygames.get_game(gid)
    recipes = [header(p.read_text(encoding="utf-8")) for p in FILES]
    mine = [r["options"] for r in recipes if r["game"] == gid]
    assert mine, f"no golden playthrough of {gid}"
    for name, spec in game.option_schema.items():
        for value in spec.get("values", [spec["default"]]):
            assert any(o.get(name) == value for o in mine), (
                f"no golden playthrough of {gid} with {name}={value!r}")


def test_a_changed_game_is_named_with_the_line_that_differs(tmp_path):
    path = FILES[0]
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("apply ")) + 3
    lines[at] = lines[at].replace(":", ": ", 1) if ":" in lines[at] else lines[at] + " "
    changed = tmp_path / path.name
    changed.write_text("".join(lines), encoding="utf-8")
    problem = check_file(changed)
    assert problem is not None and str(changed) in problem and "\n-" in problem


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_search_fast_path_plays_each_golden_game_alike(path):
    """The same actions through clone_fast + apply_fast (what search plays with): every
    seat sees the same views and legal actions as in the playthrough, at every step."""
    text = path.read_text(encoding="utf-8")
    recipe = header(text)
    game = pygames.get_game(recipe["game"])
    public = game.new_game(seed=recipe["seed"], players=recipe["players"],
                           options=recipe["options"])
    fast = public.clone_fast()
    seats = range(recipe["players"])
    for line in text.splitlines():
        if not line.startswith("apply "):
            continue
        _, player, action = line.split(" ", 2)
        action = json.loads(action)
        fast = fast.clone_fast()  # a copy of a copy keeps everything too
        public.apply(int(player), action)
        fast.apply_fast(int(player), action)
        assert fast.to_move() == public.to_move(), line
        for viewer in [None, *seats]:
            assert fast.view(viewer) == public.view(viewer), (line, viewer)
        for seat in seats:
            assert fast.legal_actions(seat) == public.legal_actions(seat), (line, seat)
    assert fast.outcome() == public.outcome()
