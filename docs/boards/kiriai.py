"""Kiri-ai's boards for the rules pages (docs/make_records.py reads every game's module
here: a game contributes its boards from its own file). ``BOARDS``: name -> how the board
is made and shown (see :mod:`boards`)."""

from __future__ import annotations

from typing import Any

from . import game_over, random_policy


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


BOARDS: dict[str, dict[str, Any]] = {
    "kiriai-movement": {"game": "kiriai", "policy": random_policy, "find": kiriai_movement_order,
                        "perspective": "spectator", "moves": "off", "height": 860},
    "kiriai-counter": {"game": "kiriai", "policy": random_policy, "find": kiriai_counterattack,
                       "perspective": "spectator", "moves": "off", "height": 860},
    "kiriai-game": {"game": "kiriai", "policy": random_policy, "find": game_over,
                    "accept": lambda s: 5 <= s.round <= 7 and s.outcome()["winners"],
                    "ply": 0, "perspective": "open", "moves": "bottom", "height": 1160},
}
