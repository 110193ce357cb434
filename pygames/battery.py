"""The long random battery: many random games per engine, counting every crash.

The suite plays a few hundred random games per option set (``tests/test_api.py``) and
the golden playthroughs; this command plays as many as you ask, on several processes,
and reports games per second and every failure with the seed that reproduces it::

    python -m pygames.battery                      # 100,000 games of every game
    python -m pygames.battery cardia --games 20000 --jobs 2
    python -m pygames.battery electors --games 3000 --players 0   # 2, 3, 4 players in turn

Each game: a random option set (every option value in turn; free-form options at the
values the game's ``Game.sample_options`` draws for that game number, else their default),
``new_game`` with the game's
seed, then random legal actions by a seeded ``random.Random`` (one player to move at a
time) until the game ends or 10,000 actions. Checked at every step: ``to_move`` and
``legal_actions`` agree, no duplicate or empty action, no outcome before the end; at the
end a complete outcome. Every 50th game also checks that a junk action is refused
without change and that its JSON record replays to the same state. Nothing here names a
game: it uses only the protocol.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from . import IllegalAction, game_ids, get_game

__all__ = ["play_one", "run"]

MAX_ACTIONS = 10_000
JUNK = ("", "??", "\x00", "ZZZZZZ")


#: Above this many combinations, :func:`option_combos` varies one option at a time.
MAX_COMBOS = 24


def option_combos(game: Any) -> list[dict[str, Any]]:
    """The option sets the shared tests (and the Pyodide agreement check) play: every
    combination of every option's values when there are at most :data:`MAX_COMBOS` of
    them; otherwise the defaults, then each other value of each option alone (a game with
    many independent rule switches, e.g. 1,152 combinations, would else cost minutes per
    test). Free-form options keep their defaults, plus two sets from the game's own
    :meth:`~pygames.core.Game.sample_options` (seeded by the game's id)."""
    schema = game.option_schema
    names = sorted(schema)
    values = [schema[n].get("values", [schema[n]["default"]]) for n in names]
    if math.prod(len(v) for v in values) <= MAX_COMBOS:
        combos = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]
    else:
        base = {n: schema[n]["default"] for n in names}
        combos = [base] + [{**base, n: value} for n, vals in zip(names, values, strict=True)
                           for value in vals if value != base[n]]
    rng = random.Random(f"options-{game.id}")
    for _ in range(2):
        sample = game.sample_options(rng)
        if sample:
            combos.append({**combos[0], **sample})
    return combos


def _option_sets(game: Any) -> list[dict[str, Any]]:
    names = sorted(game.option_schema)
    values = [game.option_schema[n].get("values", [game.option_schema[n]["default"]])
              for n in names]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]


def _option_set(game: Any, n: int) -> dict[str, Any]:
    """``_option_sets(game)[n % len]`` without making the list (a game with many options
    has millions of combinations): the product's ``n``-th, the last name fastest."""
    names = sorted(game.option_schema)
    values = [game.option_schema[k].get("values", [game.option_schema[k]["default"]])
              for k in names]
    n %= math.prod(len(v) for v in values)
    out: dict[str, Any] = {}
    for name, vals in zip(reversed(names), reversed(values), strict=True):
        n, i = divmod(n, len(vals))
        out[name] = vals[i]
    return {k: out[k] for k in names}


def play_one(game_id: str, n: int, players: int | None = None) -> tuple[int, str | None]:
    """Game number ``n`` of ``game_id``: (actions played, None or the failure). ``players``:
    that many (default the game's least); 0 cycles through every count the game allows."""
    game = get_game(game_id)
    options = {**_option_set(game, n), **game.sample_options(random.Random(-1 - n))}
    rng = random.Random(n)
    steps = 0
    if not players:
        counts = range(game.min_players, game.max_players + 1)
        players = game.min_players if players is None else counts[n % len(counts)]
    try:
        state = game.new_game(seed=n, players=players, options=options)
        while not state.is_over():
            movers = state.to_move()
            for p in range(state.players):
                legal = state.legal_actions(p)
                if (p in movers) != bool(legal):
                    raise AssertionError(f"to_move and legal_actions disagree for {p}")
                if len(set(legal)) != len(legal) or not all(legal):
                    raise AssertionError("duplicate or empty legal actions")
            if state.outcome() is not None:
                raise AssertionError("an outcome before the end")
            p = rng.choice(movers)
            if n % 50 == 0 and steps % 7 == 0:
                before = state.clone()
                junk = next((j for j in JUNK if j not in state.legal_actions(p)), None)
                if junk is not None:
                    try:
                        state.apply(p, junk)
                    except IllegalAction:
                        pass
                    else:
                        raise AssertionError(f"junk action {junk!r} was accepted")
                    if state != before:
                        raise AssertionError("a refused action changed the state")
            state.apply(p, rng.choice(state.legal_actions(p)))
            steps += 1
            if steps >= MAX_ACTIONS:
                raise AssertionError(f"no end after {MAX_ACTIONS} actions")
        outcome = state.outcome()
        if not outcome or len(outcome["ranks"]) != state.players or state.to_move():
            raise AssertionError(f"an incomplete end: {outcome!r}")
        if n % 50 == 0:
            record = json.loads(json.dumps(state.record()))
            if game.from_record(record) != state:
                raise AssertionError("the record does not replay to the same state")
    except Exception as exc:  # noqa: BLE001 - every failure is counted and reported
        return steps, (f"{game_id} game {n} (seed {n}, {players} players, options "
                       f"{options}, after {steps} actions): {type(exc).__name__}: {exc}")
    return steps, None


def _chunk(args: tuple[str, int, int, int | None]) -> tuple[int, int, list[str]]:
    game_id, start, stop, players = args
    actions, failures = 0, []
    for n in range(start, stop):
        steps, failure = play_one(game_id, n, players)
        actions += steps
        if failure:
            failures.append(failure)
    return stop - start, actions, failures


def run(game_id: str, games: int, jobs: int = 1, start: int = 0,
        players: int | None = None) -> dict[str, Any]:
    """Play ``games`` games of ``game_id`` (numbers ``start``…) on ``jobs`` processes, with
    ``players`` players (default the game's least; 0: every count in turn)."""
    size = max(1, min(500, games // (jobs * 8) or 1))
    chunks = [(game_id, a, min(a + size, start + games), players)
              for a in range(start, start + games, size)]
    t0 = time.perf_counter()
    played = actions = 0
    failures: list[str] = []
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(_chunk, chunks))
    else:
        results = [_chunk(c) for c in chunks]
    for g, a, f in results:
        played, actions, failures = played + g, actions + a, failures + f
    seconds = time.perf_counter() - t0
    return {"game": game_id, "games": played, "actions": actions, "failures": failures,
            "seconds": seconds}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pygames.battery", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games_to_test", nargs="*", metavar="GAME", help="default: every game")
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--start", type=int, default=0, help="first game number (seed)")
    ap.add_argument("--players", type=int, default=None,
                    help="players per game (default: each game's least; 0: every count the "
                         "game allows, in turn)")
    args = ap.parse_args(argv)
    bad = 0
    for gid in args.games_to_test or game_ids():
        players = args.players
        if players:
            game = get_game(gid)
            if not game.min_players <= players <= game.max_players:
                print(f"{gid}: not for {players} players, skipped")
                continue
        r = run(gid, args.games, args.jobs, args.start, players)
        print(f"{gid}: {r['games']} games, {r['actions']} actions in {r['seconds']:.0f} s "
              f"({r['games'] / r['seconds']:.0f} games/s), {len(r['failures'])} failures",
              flush=True)
        for failure in r["failures"][:20]:
            print("  " + failure)
        bad += len(r["failures"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
