"""Cardia's boards for the rules pages (docs/make_records.py reads every game's module
here: a game contributes its boards from its own file). ``BOARDS``: name -> how the board
is made and shown (see :mod:`boards`)."""

from __future__ import annotations

from typing import Any

from . import game_over, random_policy


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


BOARDS: dict[str, dict[str, Any]] = {
    "cardia-reeval": {"game": "cardia", "policy": random_policy, "find": cardia_reevaluation,
                      "perspective": "spectator", "moves": "off", "height": 820},
    "cardia-ongoing": {"game": "cardia", "policy": random_policy, "find": cardia_ongoing,
                       "perspective": "spectator", "moves": "off", "height": 820},
    "cardia-game": {"game": "cardia", "policy": random_policy, "find": game_over,
                    "accept": lambda s: len(s.record()["actions"]) <= 70,
                    "ply": 0, "perspective": "open", "moves": "bottom", "height": 1440},
}
