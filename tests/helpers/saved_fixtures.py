"""Saved games from real play, kept as fixtures (``tests/<game id>/saved/*.json``).

A saved game written by one build must still open in every later one (``pgui.saved``
versions its envelope). This script plays each game at a table the way the page does
(through :class:`pgui.session_glue.Session`: clicks, the bot's moves, the worker's
``local`` result) and writes what the page would have stored::

    .venv/bin/python tests/helpers/saved_fixtures.py     # (re)write the fixtures
    .venv/bin/python tests/helpers/saved_fixtures.py artofwar   # one game's only

Each game lists what is played in ``tests/<game id>/saved_plays.json``, ``{name: [query,
moves]}``: a table's query and how many actions to play (a large number: to the end).

Each fixture is ``{"key", "text", "view"}``: the storage key and text, and what the player
saw then (the human's view and legal actions) for the tests to compare with on resume.
Rewrite them only on purpose: old fixtures are the point.
"""

from __future__ import annotations

import html
import json
import random
from pathlib import Path

from pgui.session_glue import Session

import pygames
from tools.paths import ROOT

TESTS = ROOT / "tests"


def fixture_dir(game_id: str) -> Path:
    return TESTS / game_id / "saved"


def plays() -> dict[str, tuple[str, str, int]]:
    """name -> (game id, query, moves), from every registered game's saved_plays.json."""
    out = {}
    for gid in pygames.game_ids():
        path = TESTS / gid / "saved_plays.json"
        if path.is_file():
            for name, (query, moves) in json.loads(path.read_text()).items():
                out[name] = (gid, query, moves)
    return out


def fixture_files() -> list[Path]:
    """Every registered game's saved-game fixtures."""
    return sorted(p for gid in pygames.game_ids() for p in fixture_dir(gid).glob("*.json"))


def fixture(name: str) -> dict:
    """The fixture called ``name`` (its file's stem), read."""
    path = next((p for p in fixture_files() if p.stem == name), None)
    if path is None:
        raise KeyError(f"no saved-game fixture {name!r}")
    return json.loads(path.read_text())


def play(query: str, moves: int, rng: random.Random) -> dict:
    """Click (random enabled buttons) until the record has ``moves`` actions or the game
    ends; the last ``local`` text the page would have written."""
    import re

    session = Session()
    result = session.open(query, nav_lang="en")
    last = None
    for _ in range(50_000):
        table = session.table
        if result.get("local") and result["local"]["text"]:
            last = result["local"]
        if table.thinking:
            result = session.think()
            continue
        if table.animating:
            result = session.command("skip")
            continue
        if len(table.played) >= moves or table.over:
            break
        cmds = [html.unescape(c) for c in
                re.findall(r'data-cmd="([^"]+)"(?![^>]*disabled)', table.html())]
        cmds = [c for c in cmds if not c.startswith(("lang:", "rematch", "dismiss", "skip",
                                                     "undo"))]
        urgent = [c for c in ("confirm", "handover-ok") if c in cmds]
        result = session.command(urgent[0] if urgent else rng.choice(cmds))
    result = session.result()
    if result["local"]["text"]:
        last = result["local"]
    table = session.table
    seat = table.human if table.mode == "bot" else None
    return {"key": last["key"], "text": last["text"],
            "view": {"view": table.state.view(seat),
                     "legal": table.state.legal_actions(seat) if seat is not None else [],
                     "moves": len(table.played), "over": table.over}}


def main(only: list[str] | None = None) -> None:
    """Write the fixtures (of the games in ``only``, e.g. a game just added: the command
    line's arguments; none: every game)."""
    for name, (gid, query, moves) in plays().items():
        if only and gid not in only:
            continue
        data = play(query, moves, random.Random(name))
        fixture_dir(gid).mkdir(parents=True, exist_ok=True)
        (fixture_dir(gid) / f"{name}.json").write_text(
            json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        print(name, data["view"]["moves"], "moves", "over" if data["view"]["over"] else "")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
