"""Golden playthroughs: one seeded random game written out step by step, as text.

In the style of OpenSpiel's playthroughs: a game played by seeded random choices, with
everything the protocol shows at every step (who is to move, every seat's view and legal
actions, the events each seat sees for the first time, the action taken), so a change of
behaviour anywhere in an engine shows up as a readable diff of a file under version
control. The suite replays every file in ``tests/golden/`` and compares; after a change
that *should* alter games (a rule fixed), regenerate and review the diff::

    python -m pygames.playthrough kiriai --seed 3 --option battlefield=advanced > FILE
    python -m pygames.playthrough --check tests/golden     # exit 1 naming what differs
    python -m pygames.playthrough --write tests/golden     # rewrite each file from its header

A file is its own recipe: its header names the game, the seed, the players and the
options. Choices: ``random.Random(seed)`` picks one player to move (so half-made
simultaneous choices are written too), then one of its legal actions. Views and events
that are the same for several viewers are written once (``= 0``: as viewer 0's).

Nothing here names a game: it uses only the protocol.
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import sys
from pathlib import Path
from typing import Any

from . import get_game

__all__ = ["playthrough", "header", "check_file", "MAX_STEPS"]

#: A playthrough stops (and says so) after this many actions, so a file stays reviewable.
MAX_STEPS = 400


def _dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header(text: str) -> dict[str, Any]:
    """The recipe at the top of a playthrough: ``game``, ``seed``, ``players``,
    ``options``."""
    out: dict[str, Any] = {}
    for line in text.splitlines():
        if not line.startswith("# "):
            break
        name, _, value = line[2:].partition(" ")
        if name in ("game", "seed", "players", "options"):
            out[name] = json.loads(value) if name != "game" else value
    missing = {"game", "seed", "players", "options"} - set(out)
    if missing:
        raise ValueError(f"not a playthrough: no {', '.join(sorted(missing))} in its header")
    return out


def _per_viewer(label: str, values: dict[str, str]) -> list[str]:
    """One line per viewer; a value equal to an earlier viewer's refers to it."""
    lines: list[str] = []
    first: dict[str, str] = {}
    for viewer, text in values.items():
        if text in first:
            lines.append(f"{label} {viewer} = {first[text]}")
        else:
            first[text] = viewer
            lines.append(f"{label} {viewer} {text}")
    return lines


def playthrough(game_id: str, *, seed: int, players: int | None = None,
                options: dict[str, Any] | None = None, max_steps: int = MAX_STEPS) -> str:
    """The playthrough text of one seeded random game (see the module docstring)."""
    game = get_game(game_id)
    players = game.min_players if players is None else players
    options = game.resolve_options(options or {})
    state = game.new_game(seed=seed, players=players, options=options)
    rng = random.Random(seed)
    viewers: list[int | None] = [None, *range(players)]
    names = ["spectator" if v is None else str(v) for v in viewers]
    seen = dict.fromkeys(names, 0)
    lines = [f"# game {game.id}", f"# seed {seed}", f"# players {players}",
             f"# options {_dumps(options)}",
             "# written by python -m pygames.playthrough; check: --check, rewrite: --write"]
    step = 0
    while True:
        lines.append(f"step {step}")
        lines.append(f"to_move {_dumps(state.to_move())}")
        lines += _per_viewer("view", {n: _dumps(state.view(v))
                                      for n, v in zip(names, viewers, strict=True)})
        news = {}
        for n, v in zip(names, viewers, strict=True):
            news[n] = _dumps(state.events(v, seen[n]))
            seen[n] = state.event_count()
        lines += _per_viewer("events", news)
        lines += _per_viewer("legal", {str(p): _dumps(state.legal_actions(p))
                                       for p in range(players)})
        if state.is_over():
            lines.append(f"outcome {_dumps(state.outcome())}")
            break
        if step >= max_steps:
            lines.append(f"stopped after {max_steps} actions")
            break
        player = rng.choice(state.to_move())
        action = rng.choice(state.legal_actions(player))
        lines.append(f"apply {player} {_dumps(action)}")
        state.apply(player, action)
        step += 1
    lines.append(f"record {_dumps(state.record())}")
    return "\n".join(lines) + "\n"


def _again(text: str) -> str:
    h = header(text)
    return playthrough(h["game"], seed=h["seed"], players=h["players"], options=h["options"])


def check_file(path: Path) -> str | None:
    """None if ``path`` plays as written, else a short diff of the first lines that differ."""
    text = path.read_text(encoding="utf-8")
    fresh = _again(text)
    if fresh == text:
        return None
    diff = difflib.unified_diff(text.splitlines(), fresh.splitlines(), str(path), "now",
                                n=1, lineterm="")
    lines = [line if len(line) < 300 else line[:300] + "…" for line in diff]
    return "\n".join(lines[:40])


def _files(where: Path) -> list[Path]:
    return sorted(where.glob("*.txt")) if where.is_dir() else [where]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pygames.playthrough", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game", nargs="?", help="write one playthrough of this game to stdout")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--players", type=int)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a game option (repeat for more; values are read as JSON if they "
                         "parse, else as text)")
    ap.add_argument("--check", type=Path, metavar="DIR_OR_FILE")
    ap.add_argument("--write", type=Path, metavar="DIR_OR_FILE")
    args = ap.parse_args(argv)
    if args.check or args.write:
        bad = 0
        for path in _files(args.check or args.write):
            if args.write:
                path.write_text(_again(path.read_text(encoding="utf-8")), encoding="utf-8")
                print(f"wrote {path}")
            elif (problem := check_file(path)) is not None:
                bad += 1
                print(problem)
        return 1 if bad else 0
    if not args.game:
        ap.error("name a game, or give --check or --write")
    options: dict[str, Any] = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            options[name] = json.loads(value)
        except ValueError:
            options[name] = value
    sys.stdout.write(playthrough(args.game, seed=args.seed, players=args.players,
                                 options=options))
    return 0


if __name__ == "__main__":
    sys.exit(main())
