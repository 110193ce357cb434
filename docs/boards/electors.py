"""Electors' boards for the rules pages (tools/records.py reads every game's module here: a
game contributes its boards from its own file). ``BOARDS``: name -> how the board is made
and shown (see :mod:`boards`).

Every board is a game the engine plays from a seed (the table's default: 2 players, the
default rules), both seats played by :func:`electors_policy`, a plain player of our own
that decides from its own view: it buys often (Power first) and puts the cube on the
colour it holds most of (acquired and in hand), chooses the cells it can match or the
kingdom's plain backs and mostly keeps away from its rival's cards, matches when it can,
puts its specials back as traps, and reveals every pair at the end.
"""

from __future__ import annotations

import random
from typing import Any

from pygames.electors import counts_as, is_special, number_of

from . import Policy


def _numbers(view: dict[str, Any]) -> list[int]:
    """The numbers the viewer's hand can show in a match (each unused Power or Corruption
    shifting one card once)."""
    me = view["you"]
    opts = view["options"]
    power = sum(1 for i in view["influence"][me] if i["id"][0] == "P" and not i["used"])
    corr = sum(1 for i in view["influence"][me] if i["id"][0] == "X" and not i["used"])
    out = set()
    for c in view["hand"]:
        n = number_of(c)
        if n is None:
            continue
        for a in range(power + 1):
            for b in range(corr + 1):
                out.add(n + a * opts["power_delta"] + b * opts["corruption_delta"])
    return sorted(out)


def _cell(view: dict[str, Any], name: str) -> dict[str, Any] | None:
    col = ord(name[0]) - ord("a")
    return view["grid"][int(name[1:]) - 1][col]


def _worth(view: dict[str, Any], name: str, rng: random.Random) -> float:
    """How much the viewer likes choosing cell ``name`` (higher: better)."""
    cell = _cell(view, name)
    assert cell is not None
    mine = view["colours"][view["you"]]
    face = cell.get("c")
    if face is not None:
        if is_special(face):
            return -5.0  # its own special (a face it may see): wasted
        n = number_of(face)
        return (4.0 if n in _numbers(view) else 1.0) + rng.random()
    back = cell["back"]
    if back == "k":
        return 2.0 + rng.random()
    if back in mine:
        return -1.0
    return -2.0 + rng.random()  # a rival's card: maybe a trap


def _held_by_colour(view: dict[str, Any]) -> dict[str, int]:
    """The numbers the viewer holds per colour, acquired and in hand."""
    out = dict.fromkeys("RBGY", 0)
    for c in view["acquired"][view["you"]] + view["hand"]:
        out[counts_as(c)] += number_of(c) or 0
    return out


def electors_policy(eps: float, buy: float = 0.7) -> Policy:
    """A plain player: with probability ``eps`` any legal action; else as the module says."""

    def choose(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1:
            return legal[0]
        if rng.random() < eps:
            return rng.choice(legal)
        view = state.view(seat)
        phase = view["phase"]
        buys = [a for a in legal if a[0] == "$"]
        if buys and phase in ("turn", "after") and rng.random() < buy:
            powers = [a for a in buys if a[1] == "P"]
            return rng.choice(powers or buys)
        if phase == "turn":
            cells = [a for a in legal if a[0].isalpha() and a[1:].isdigit()]
            if "draw" in legal and (len(view["hand"]) <= 2 or not cells):
                return "draw"
            if cells:
                best = max(cells, key=lambda a: _worth(view, a, rng))
                if _worth(view, best, rng) > 0 or "draw" not in legal:
                    return best
            return "draw" if "draw" in legal else rng.choice(legal)
        if phase == "number":
            matches = [a for a in legal if a[0] == "="]
            return min(matches, key=len) if matches else "take"
        if phase == "place":
            traps = [a for a in legal if is_special(a[2:])]
            if traps and rng.random() < 0.7:
                return rng.choice(traps)
            return rng.choice(legal)
        if phase == "cube":
            held = _held_by_colour(view)
            return max(legal, key=lambda a: (held[a[2]], rng.random()))
        if phase == "bribe":
            return max(legal, key=lambda a: (number_of(a[2:]) or 0, rng.random()))
        if phase == "pairs":
            pairs = [a for a in legal if a.startswith("pr:")]
            return pairs[0] if pairs else "done"
        if phase == "after":
            return "end"
        return rng.choice(legal)

    return choose


def _this_turn(state: Any) -> list[dict[str, Any]]:
    """The events of the turn under way (from its ``turn`` event on)."""
    start = max(k for k, ev in enumerate(state.log) if ev["t"] == "turn")
    return state.log[start:]


def electors_match(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A match raised by Power: a player chooses a grid card, shows a hand card whose
    number Power raises to the chosen card's, takes both as acquired cards, and puts a
    hand card face down in the empty cell."""
    if not any(ev["t"] == "put" for ev in new):
        return False
    return any(ev["t"] == "match" and "P" in ev["mods"] for ev in _this_turn(state))


def _at_match(state: Any, ply: int) -> int:
    """The match board opens at the match (the step before the put-back)."""
    return ply - 1


def electors_jester(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A Jester sprung by another player: its owner put it back face down as a trap; a
    rival chooses that cell and every other face-down card of its row turns face up."""
    for ev in new:
        if ev["t"] == "trap" and ev["c"][1] == "j" and not ev["own"]:
            jester = next(e for e in new if e["t"] == "jester")
            put = [e for e in state.log if e["t"] == "put" and e["cell"] == ev["cell"]]
            return len(jester["cells"]) >= 3 and bool(put) and put[-1].get("c") == ev["c"]
    return False


def electors_shared_rank(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A final scoring where two candidates share the top cubes: both take rank 2, so no
    candidate is first, and the others rank 3 and 4 (5, 5, 4, 3 -> 2, 2, 3, 4)."""
    return any(ev["t"] == "rank" and sorted(ev["ranks"].values()) == [2, 2, 3, 4]
               for ev in new)


def _finished_well(state: Any) -> bool:
    """A whole game (the scoring ends it at once: nobody holds a Change of Heart) whose
    winner scores above 0."""
    return state.is_over() and max(state.outcome()["scores"]) > 0


BOARDS: dict[str, dict[str, Any]] = {
    "electors-match": {"game": "electors", "policy": electors_policy(0.05),
                       "find": electors_match, "ply": _at_match,
                       "perspective": "spectator", "moves": "off", "height": 1020},
    "electors-jester": {"game": "electors", "policy": electors_policy(0.3),
                        "find": electors_jester,
                        "perspective": "spectator", "moves": "off", "height": 1050},
    "electors-ranks": {"game": "electors", "policy": electors_policy(0.05),
                       "find": electors_shared_rank, "accept": _finished_well,
                       "perspective": "open", "moves": "bottom", "height": 1790},
}
