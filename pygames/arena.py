"""Bots against bots: ``python -m pygames.arena GAME --bots strong,random --games N``.

Plays ``N`` games between two bots (names as :func:`pygames.bots.make_bot` takes them:
``random``, ``flat``, ``easy``, ``normal``, ``strong``), alternating seats, and prints
each bot's win rate with a 95% Wilson interval (a draw counts half), the mean, median
and maximum time per move and the mean iterations per move. Everything is seeded: the same
command prints the same games (times aside).

    python -m pygames.arena kiriai --bots strong,flat --games 200
    python -m pygames.arena cardia --bots normal,easy --games 100 --options deck=II --jobs 2
    python -m pygames.arena electors --bots normal,random --games 40 --players 4

With ``--players N`` (more than 2) the two bots take the seats in turn (seat ``s`` of game
``g`` is bot ``(s + g) % 2``'s); a bot wins a game when one of its seats is among the winners
and none of the other's, and draws when both have a winner.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from typing import Any

from . import get_game
from .bots import make_bot


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% interval of a rate from ``score`` successes (halves allowed) out of ``n``.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _parse_options(game: Any, pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        name, _, raw = pair.partition("=")
        spec = game.option_schema.get(name)
        if spec is None:
            raise SystemExit(f"unknown option {name!r} (known: {', '.join(game.option_schema)})")
        if "values" not in spec:  # free-form: the game's resolve_options judges the text
            try:
                options[name] = game.resolve_options({name: raw})[name]
            except ValueError as exc:
                raise SystemExit(f"option {name} cannot be {raw!r}: {exc}") from None
            continue
        values = [v for v in spec["values"] if str(v) == raw]
        if not values:
            raise SystemExit(f"option {name} cannot be {raw!r}")
        options[name] = values[0]
    return options


def play_match(game_id: str, names: tuple[str, str], games: int, *, seed: int = 0,
               options: dict[str, Any] | None = None, timed: bool = False,
               progress: bool = False, jobs: int = 1, players: int = 2,
               one: bool = False) -> dict[str, Any]:
    """Play the games; return per-bot ``score`` (wins + draws/2), ``wins``, ``draws``,
    ``times`` (seconds per move) and ``iterations`` (per move). ``jobs`` > 1 plays them in
    that many processes (each game is seeded by its number: the same games either way).
    ``one``: the first bot sits in one seat only (game ``g``'s seat ``g % players``), the
    second in all the others (one bot against a table of others)."""
    stats = [{"name": n, "score": 0.0, "wins": 0, "draws": 0, "times": [], "iterations": []}
             for n in names]
    if jobs > 1:
        import multiprocessing

        work = [(game_id, names, g, seed, options, timed, players, one) for g in range(games)]
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for done, part in enumerate(pool.imap_unordered(_one_game, work), 1):
                _merge(stats, part)
                if progress:
                    print(f"\r{done}/{games} games", end="", file=sys.stderr, flush=True)
    else:
        for g in range(games):
            _merge(stats, _one_game((game_id, names, g, seed, options, timed, players, one)))
            if progress:
                print(f"\r{g + 1}/{games} games", end="", file=sys.stderr, flush=True)
    if progress:
        print(file=sys.stderr)
    return {"games": games, "bots": stats}


def _merge(stats: list[dict[str, Any]], one: list[dict[str, Any]]) -> None:
    for total, part in zip(stats, one, strict=True):
        for key in ("score", "wins", "draws", "times", "iterations"):
            total[key] += part[key]


def _one_game(work: tuple[Any, ...]) -> list[dict[str, Any]]:
    """Game number ``g`` of a match: each bot's score, wins, draws, times, iterations."""
    game_id, names, g, seed, options, timed = work[:6]
    players = work[6] if len(work) > 6 else 2
    one = work[7] if len(work) > 7 else False
    game = get_game(game_id)
    stats: list[dict[str, Any]] = [
        {"score": 0.0, "wins": 0, "draws": 0, "times": [], "iterations": []} for _ in names]
    # Which bot sits in each seat: in turn, or (one) the first in one seat only.
    bot_of = [int(s != g % players) if one else (s + g) % 2 for s in range(players)]
    bots = {s: make_bot(game, s, names[bot_of[s]],
                        seed=seed * 100_003 + g * 7 + bot_of[s] + (10 * s if players > 2 else 0),
                        timed=timed) for s in range(players)}
    state = game.new_game(seed=seed * 1_000_003 + g, players=players, options=options)
    while not state.is_over():
        for p in state.to_move():
            bot = bots[p]
            t0 = time.perf_counter()
            action = bot.choose(state.view(p), state.legal_actions(p), state.events(p))
            dt = time.perf_counter() - t0
            i = bot_of[p]
            stats[i]["times"].append(dt)
            stats[i]["iterations"].append(getattr(bot, "last_iterations", 0))
            state.apply(p, action)
    outcome = state.outcome()
    assert outcome is not None  # the game is over
    winners = outcome["winners"]
    won = [any(bot_of[w] == i for w in winners) for i in range(2)]
    for i in range(2):
        if won[0] == won[1]:
            stats[i]["draws"] += 1
            stats[i]["score"] += 0.5
        elif won[i]:
            stats[i]["wins"] += 1
            stats[i]["score"] += 1
    return stats


def report(result: dict[str, Any]) -> str:
    n = result["games"]
    lines = [f"{'bot':<8} {'score':>7} {'rate':>6} {'95% interval':>15} {'wins':>5} "
             f"{'draws':>5} {'ms/move':>8} {'median':>7} {'max ms':>7} {'iter/move':>9}"]
    for b in result["bots"]:
        lo, hi = wilson(b["score"], n)
        times = b["times"] or [0.0]
        its = b["iterations"] or [0]
        lines.append(f"{b['name']:<8} {b['score']:>7.1f} {b['score'] / n:>6.1%} "
                     f"{f'{lo:.1%}–{hi:.1%}':>15} {b['wins']:>5} {b['draws']:>5} "
                     f"{1000 * sum(times) / len(times):>8.1f} "
                     f"{1000 * statistics.median(times):>7.1f} {1000 * max(times):>7.1f} "
                     f"{sum(its) / len(its):>9.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pygames.arena", description=__doc__.split("\n")[0])
    ap.add_argument("game")
    ap.add_argument("--bots", default="strong,random", help="two bot names, comma-separated")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--options", nargs="*", default=[], metavar="K=V")
    ap.add_argument("--jobs", type=int, default=1, help="play in this many processes")
    ap.add_argument("--players", type=int, default=2,
                    help="players per game (the two bots take the seats in turn)")
    ap.add_argument("--one", action="store_true",
                    help="the first bot plays one seat (in turn), the second all the others")
    ap.add_argument("--timed", action="store_true",
                    help="cap each move by the level's seconds too (as in the app)")
    args = ap.parse_args(argv)
    names = tuple(args.bots.split(","))
    if len(names) != 2:
        ap.error("--bots takes two names, e.g. strong,random")
    game = get_game(args.game)
    result = play_match(args.game, names, args.games, seed=args.seed,
                        options=_parse_options(game, args.options), timed=args.timed,
                        progress=sys.stderr.isatty(), jobs=args.jobs, players=args.players,
                        one=args.one)
    how = f"{names[0]} in one seat" if args.one else "seats alternating"
    print(f"{game.names['en']}: {args.games} games, {args.players} players, {how}")
    print(report(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
