"""Canosa's boards for the rules pages (docs/make_records.py reads every game's module
here: a game contributes its boards from its own file). ``BOARDS``: name -> how the board
is made and shown (see :mod:`boards`)."""

from __future__ import annotations

import random
from typing import Any

from . import Policy, game_over


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


def canosa_ring_control(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A siren gives her ring to a sailor the opponent controlled: it changes sides."""
    return any(ev["t"] == "give" and len(ev["rings"]) >= 2 and ev["rings"][-2] != ev["p"]
               for ev in new)


def canosa_attack(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """An attack, with the defeated siren placed (the attack's two halves)."""
    return any(ev["t"] == "place" for ev in new)


BOARDS: dict[str, dict[str, Any]] = {
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
