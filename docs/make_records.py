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

    python docs/make_records.py           write docs/records.json
    python docs/make_records.py --check   exit 1 if docs/records.json is not what this makes

The output is the same on every run (seeded; no clock, no global random). The captions in
docs/pages/ describe what happens in each board (who plays what, at which step): when a
change to an engine or to this script changes a board, reread its captions.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pygames  # noqa: E402

OUT = Path(__file__).resolve().parent / "records.json"
#: Seeds tried per board before giving up (every board is found far sooner).
MAX_SEEDS = 400
#: A game longer than this many actions is abandoned (and its seed skipped).
MAX_ACTIONS = 600

Policy = Callable[[Any, int, list[str], random.Random], str]
Found = Callable[[Any, list[dict[str, Any]], int], bool]


# --------------------------------------------------------------------------- policies


def random_policy(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def _canosa_value(view: dict[str, Any], me: int) -> float:
    """Our own judgement of a Canosa position for ``me``: sailors home, then sailors
    controlled and how close they are to their island, then rings."""
    rows, cols = view["rows"], view["cols"]
    islands = view["islands"]
    value = 100.0 * (view["scores"][me] - view["scores"][1 - me])
    for sailor in view["sailors"]:
        if not sailor["rings"]:
            continue
        owner = sailor["rings"][-1]
        r, c = sailor["at"]
        ir, ic = islands[owner]
        near = (rows + cols) - (abs(r - ir) + abs(c - ic))
        value += (8 + near) * (1 if owner == me else -1)
    for seat, sign in ((me, 1), (1 - me, -1)):
        siren = view["sirens"][seat]
        value += sign * 1.5 * siren["rings"]
        if not siren["left"]:  # a siren at home blocks her own island
            value -= sign * 12
    return value


def canosa_policy(eps: float) -> Policy:
    """Greedy over single actions (each judged by :func:`_canosa_value`), with a random
    action now and then (probability ``eps``) and random tie-breaks."""

    def choose(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
        if rng.random() < eps:
            return rng.choice(legal)
        best, best_value = [], None
        for action in legal:
            twin = state.clone()
            twin.apply(seat, action)
            value = _canosa_value(twin.view(None), seat)
            if twin.is_over():
                value += 10_000 if seat in twin.outcome()["winners"] else -10_000
            if best_value is None or value > best_value + 1e-9:
                best, best_value = [action], value
            elif abs(value - best_value) <= 1e-9:
                best.append(action)
        return rng.choice(best)

    return choose


# --------------------------------------------------------------------------- what to find


def kiriai_movement_order(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A reveal where the samurai in Heaven moves first and so cuts the other's move short
    (both move, in different stances; the second mover stops on the first one's space)."""
    for i, ev in enumerate(new):
        if ev["t"] != "reveal":
            continue
        stance = ev["board"]["stance"]
        moves = []
        for later in new[i + 1:]:
            if later["t"] in ("reveal", "round", "end"):
                break
            if later["t"] == "move":
                moves.append(later)
        if len(moves) != 2 or stance[0] == stance[1]:
            continue
        second = moves[1]
        nominal = {"C": 2, "A": 1}.get(second["card"])
        if nominal and abs(second["to"] - second["from"]) < nominal:
            return True
    return False


def kiriai_counterattack(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A Counterattack that turns the opponent's landing strike against them."""
    return any(ev["t"] == "counter" and ev["hit"] for ev in new)


def cardia_reevaluation(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A loser's ability that moves the signets of an EARLIER encounter."""
    current = None
    for ev in state.log:
        if ev["t"] == "ability":
            current = ev.get("e")
    if current is None:
        return False
    return any(ev["t"] == "signets" and any(ch["e"] < current for ch in ev["changed"])
               for ev in new)


def cardia_ongoing(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """An ongoing token put on a Mediator (its encounter becomes a tie: the signet goes)."""
    return any(ev["t"] == "token" and ev["on"] and ev["card"] == 4 for ev in new) and any(
        ev["t"] == "signets" for ev in new)


def canosa_ring_control(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A siren gives her ring to a sailor the opponent controlled: it changes sides."""
    return any(ev["t"] == "give" and len(ev["rings"]) >= 2 and ev["rings"][-2] != ev["p"]
               for ev in new)


def canosa_attack(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """An attack, with the defeated siren placed (the attack's two halves)."""
    return any(ev["t"] == "place" for ev in new)


def game_over(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    return state.is_over()


# --------------------------------------------------------------------------- the boards

#: name -> how it is made and shown. ``accept`` (optional) filters whole games for the
#: "short whole game" boards. ``ply``: "event" (the board opens right after the event),
#: or an int (0: the start, to step through). ``height``: the iframe's fallback height in
#: pixels (what the board measures at 900 px wide; the embed tells the page its own).
BOARDS: dict[str, dict[str, Any]] = {
    "kiriai-movement": {"game": "kiriai", "policy": random_policy, "find": kiriai_movement_order,
                        "perspective": "spectator", "moves": "off", "height": 860},
    "kiriai-counter": {"game": "kiriai", "policy": random_policy, "find": kiriai_counterattack,
                       "perspective": "spectator", "moves": "off", "height": 860},
    "kiriai-game": {"game": "kiriai", "policy": random_policy, "find": game_over,
                    "accept": lambda s: 5 <= s.round <= 7 and s.outcome()["winners"],
                    "ply": 0, "perspective": "open", "moves": "bottom", "height": 1160},
    "cardia-reeval": {"game": "cardia", "policy": random_policy, "find": cardia_reevaluation,
                      "perspective": "spectator", "moves": "off", "height": 820},
    "cardia-ongoing": {"game": "cardia", "policy": random_policy, "find": cardia_ongoing,
                       "perspective": "spectator", "moves": "off", "height": 820},
    "cardia-game": {"game": "cardia", "policy": random_policy, "find": game_over,
                    "accept": lambda s: len(s.record()["actions"]) <= 70,
                    "ply": 0, "perspective": "open", "moves": "bottom", "height": 1440},
    "canosa-ring": {"game": "canosa", "policy": canosa_policy(0.2), "find": canosa_ring_control,
                    "perspective": "spectator", "moves": "off", "height": 780},
    "canosa-attack": {"game": "canosa", "policy": canosa_policy(0.5), "find": canosa_attack,
                      "accept": lambda s: len(s.record()["actions"]) <= 30,
                      "perspective": "spectator", "moves": "off", "height": 780},
    "canosa-game": {"game": "canosa", "policy": canosa_policy(0.1), "find": game_over,
                    "accept": lambda s: s.outcome()["winners"] and s.turn <= 32
                    and canosa_ring_control(s, s.log, 0),
                    "ply": 0, "perspective": "spectator", "moves": "bottom", "height": 1260},
}


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
    for seed in range(MAX_SEEDS):
        hit = play_until(spec["game"], seed, spec["policy"], spec["find"])
        if hit is None:
            continue
        state, ply = hit
        if "accept" in spec and not spec["accept"](state):
            continue
        record = state.record()
        record["actions"] = record["actions"][:ply]
        return {
            "game": spec["game"],
            "record": record,
            "ply": spec.get("ply", ply),
            "perspective": spec["perspective"],
            "moves": spec["moves"],
            "height": spec["height"],
            "about": " ".join((spec["find"].__doc__ or "").split()),
        }
    raise SystemExit(f"make_records: no seed below {MAX_SEEDS} gives board {name!r}")


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
            print(f"{OUT} is stale: run python docs/make_records.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(BOARDS)} boards)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
