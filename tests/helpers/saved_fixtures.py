"""Saved games from real play, kept as fixtures (tests/fixtures/saved/*.json).

A saved game written by one build must still open in every later one (``pgui.saved``
versions its envelope). This script plays each game at a table the way the page does
(through :class:`pgui.session_glue.Session`: clicks, the bot's moves, the worker's
``local`` result) and writes what the page would have stored::

    .venv/bin/python tests/helpers/saved_fixtures.py     # (re)write the fixtures

Each fixture is ``{"key", "text", "view"}``: the storage key and text, and what the player
saw then (the human's view and legal actions) for the tests to compare with on resume.
Rewrite them only on purpose: old fixtures are the point.
"""

from __future__ import annotations

import json
import random

from pgui.session_glue import Session

from tools.paths import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "saved"
#: One game in progress per game (and mode), plus a finished one.
PLAYS = {
    "kiriai-bot": ("game=kiriai&mode=bot&bot=easy&speed=0&seed=21", 4),
    "cardia-bot": ("game=cardia&mode=bot&bot=easy&speed=0&seed=22&seat=1", 5),
    "canosa-bot": ("game=canosa&mode=bot&bot=easy&speed=0&seed=23&layout=small", 5),
    "canosa-hotseat": ("game=canosa&mode=hotseat&speed=0&seed=24&layout=small", 6),
    "cardia-hotseat-over": ("game=cardia&mode=hotseat&speed=0&seed=25", 10_000),
}


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
        cmds = re.findall(r'data-cmd="([^"]+)"(?![^>]*disabled)', table.html())
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


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for name, (query, moves) in PLAYS.items():
        data = play(query, moves, random.Random(name))
        (FIXTURES / f"{name}.json").write_text(
            json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
        print(name, data["view"]["moves"], "moves", "over" if data["view"]["over"] else "")


if __name__ == "__main__":
    main()
