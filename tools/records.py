#!/usr/bin/env python3
"""Make the records behind the rules pages' live boards: docs/records.json.

Every board is a game PLAYED BY THE ENGINE, never a position written by hand: for each
board a seeded policy (``random.Random``; for Canosa a small greedy player of our own, so
that a game looks like a game) plays seeds 0, 1, 2, ... until the event the board is
about happens (a Counterattack, a re-evaluation, an ongoing token, a ring that changes a
sailor's controller, an attack...), and the record is cut right after the action that
caused it. ``ply`` is then the number of actions the board opens at, ``perspective`` the
seat it is seen from: a cut record (a game in progress) is seen as a spectator sees it,
a whole game (finished) with everything open where something was hidden.

    python -m tools.records           write docs/records.json
    python -m tools.records --check   exit 1 if docs/records.json is not what this makes

Each game contributes its boards from its own module, ``docs/boards/<game id>.py``.

The output is the same on every run (seeded; no clock, no global random). The captions in
docs/pages/ describe what happens in each board (who plays what, at which step): when a
change to an engine or to this script changes a board, reread its captions.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import re
import sys
from typing import Any

import pygames
from docs.boards import Found, Policy
from tools.paths import DOCS

HERE = DOCS
OUT = DOCS / "records.json"
#: Seeds tried per board before giving up (every board is found far sooner).
MAX_SEEDS = 400
#: A game longer than this many actions is abandoned (and its seed skipped).
MAX_ACTIONS = 600



# --------------------------------------------------------------------------- the boards


def all_boards() -> dict[str, dict[str, Any]]:
    """Every registered game's boards (``docs.boards.<game id>``), in registry order; a game
    with no module there contributes none."""
    out: dict[str, dict[str, Any]] = {}
    for gid in pygames.game_ids():
        if (HERE / "boards" / f"{gid}.py").is_file():
            out.update(importlib.import_module(f"docs.boards.{gid}").BOARDS)
    return out


BOARDS = all_boards()


def play_until(game_id: str, seed: int, policy: Policy, found: Found) -> tuple[Any, int] | None:
    """Play one seeded game until ``found``; the state and the ply it happened at."""
    game = pygames.get_game(game_id)
    state = game.new_game(seed=seed)
    rng = random.Random(f"{game_id}/{seed}")
    ply = 0
    while not state.is_over() and ply < MAX_ACTIONS:
        for seat in sorted(state.to_move()):
            if state.is_over() or seat not in state.to_move():
                continue
            before = len(state.log)
            state.apply(seat, policy(state, seat, state.legal_actions(seat), rng))
            ply += 1
            if found(state, state.log[before:], ply):
                return state, ply
    return None


def make_board(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    seeds = spec.get("seeds", MAX_SEEDS)
    for seed in range(seeds):
        hit = play_until(spec["game"], seed, spec["policy"], spec["find"])
        if hit is None:
            continue
        state, ply = hit
        if "accept" in spec and not spec["accept"](state):
            continue
        record = state.record()
        record["actions"] = record["actions"][:ply]
        opens = spec.get("ply", ply)
        return {
            "game": spec["game"],
            "record": record,
            "ply": opens(state, ply) if callable(opens) else opens,
            "perspective": spec["perspective"],
            "moves": spec["moves"],
            "height": spec["height"],
            "about": " ".join((spec["find"].__doc__ or "").split()),
        }
    raise SystemExit(f"tools.records: no seed below {seeds} gives board {name!r}")


def make_all() -> dict[str, Any]:
    return {"boards": {name: make_board(name, spec) for name, spec in BOARDS.items()}}


def dumps(data: dict[str, Any]) -> str:
    """Stable JSON: one board per block, each record's actions one per line."""
    text = json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False)
    # [\n  0,\n  "CB"\n ] -> [0, "CB"]: pairs on one line keep the file short to read.
    return re.sub(r"\[\s+(\d+),\s+(\"[^\"]*\")\s+\]", r"[\1, \2]", text) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="exit 1 if records.json is not what this script makes")
    args = ap.parse_args(argv)
    text = dumps(make_all())
    if args.check:
        current = OUT.read_text(encoding="utf-8") if OUT.exists() else ""
        if current != text:
            print(f"{OUT} is stale: run python -m tools.records", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(BOARDS)} boards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
