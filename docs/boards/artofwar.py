"""ART OF WAR's boards for the rules pages (tools/records.py reads every game's module
here: a game contributes its boards from its own file). ``BOARDS``: name -> how the board
is made and shown (see :mod:`boards`).

Every board is a game the engine plays from a seed with the starter decks, both seats
played by :func:`artofwar_policy` (a plain player of our own that decides from its own
view: it takes captures and kills, guards and answers with Wizards when it can, builds its
field and its kingdom). A conscription that hands the opponent Founding is rare (3 games
in the first 1,000 seeds; 6 s to play them), so that board may look through 3,000 seeds.
"""

from __future__ import annotations

import random
from typing import Any

from pygames.artofwar import ATK, DEF, KING, KINGS, TYPES

from . import Policy


def _atk(view: dict[str, Any], seat: int, card: str) -> int:
    """The ATK ``card`` of ``seat`` would attack with now (X: the hand; plus the Soldier
    supports of this turn)."""
    base = KINGS[view["kings"][seat]]["atk"] if card == KING else ATK[card]
    return (view["hand_counts"][seat] if base is None else base) + view["bonus"]


def _def(view: dict[str, Any], seat: int, cell: dict[str, Any]) -> int:
    up, side = KINGS[view["kings"][seat]]["def"] if cell["c"] == KING else DEF[cell["c"]]
    return up if cell["up"] else side


def _lead(mine: dict[str, int], theirs: dict[str, int]) -> int:
    """Types where ``mine`` has more, less types where ``theirs`` has more."""
    return sum((mine[t] > theirs[t]) - (theirs[t] > mine[t]) for t in TYPES)


def artofwar_policy(eps: float, arrange: float = 0.2, attack: float = 0.4,
                    enter: float = 0.8) -> Policy:
    """A plain player: with probability ``eps`` any legal action; else it captures
    whenever it may, places a Guardian or a Wizard whenever a window lets it (mostly),
    attacks first where the hit captures or destroys, then (in turn, each with its
    probability) arranges while its field is thin, attacks anyway, enters the card that
    best helps its Founding; now and then a support; else it ends the turn. Set-up,
    conscription, the Archer's and Priest's targets: at random."""

    def choose(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
        if len(legal) == 1 or rng.random() < eps:
            return rng.choice(legal)
        view = state.view(seat)
        phase = view["phase"]
        if phase == "capture":
            return "cap"
        if phase == "window":
            want = "+G" if view["window"]["kind"] == "guardian" else "+W"
            return want if want in legal and rng.random() < 0.8 else "pass"
        if phase != "main":
            return rng.choice(legal)
        mine, theirs = view["fields"][seat], view["fields"][1 - seat]
        attacks = [a for a in legal if "x" in a]
        strong = []
        for a in attacks:
            target = theirs[a[3:]]
            atk, dfn = _atk(view, seat, mine[a[:2]]["c"]), _def(view, 1 - seat, target)
            if atk == dfn or target["dmg"] + atk > dfn:
                strong.append(a)
        if strong:
            return rng.choice(strong)
        arranges = [a for a in legal if ">" in a and not a.startswith(KING)]
        if arranges and len(mine) < 4 and rng.random() < arrange:
            return rng.choice(arranges)
        if attacks and rng.random() < attack:
            return rng.choice(attacks)
        entries = [a for a in legal if a[0] == "e" and a != "end"]
        if entries and rng.random() < enter:
            kingdoms = view["kingdoms"]

            def gain(a: str) -> tuple[int, float]:
                after = dict(kingdoms[seat])
                after[a[1]] += 1
                return _lead(after, kingdoms[1 - seat]), rng.random()

            return max(entries, key=gain)
        supports = [a for a in legal if a[0] == "+" and KING not in a]
        if supports and rng.random() < 0.15:
            return rng.choice(supports)
        return "end"

    return choose


def _at(new: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [ev for ev in new if ev["t"] == kind]


def artofwar_capture(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A troop captured: the attack's ATK equals the target's DEF, the attacker takes it
    into its own kingdom, and the card behind it steps forward."""
    return any(ev["c"] != KING for ev in _at(new, "capture")) and bool(
        _at(new, "advance"))


def artofwar_wizard(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A Guardian cancelled by a Wizard: the defender places a Guardian against an attack,
    the attacker answers with a Wizard, and the attack goes through."""
    return any(ev["as"] == "G" for ev in _at(new, "cancel")) and bool(
        _at(new, "damage") or state.phase == "capture")


def artofwar_founding(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    """A conscription from the kingdom that hands the opponent Founding (4 types ahead)."""
    return bool(_at(new, "founding")) and any(
        ev["src"] == "kingdom" for ev in _at(new, "conscript"))


def _before_founding(state: Any, ply: int) -> int:
    """The founding board opens just before the last attack (the one that empties the
    field), so that a reader steps through it, the conscription and the win."""
    actions = [action for _seat, action in state.record()["actions"][:ply]]
    return max(k for k, action in enumerate(actions) if "x" in action)


BOARDS: dict[str, dict[str, Any]] = {
    "artofwar-capture": {"game": "artofwar", "policy": artofwar_policy(0.05),
                         "find": artofwar_capture,
                         "accept": lambda s: len(s.record()["actions"]) <= 50,
                         "perspective": "spectator", "moves": "off", "height": 1000},
    "artofwar-wizard": {"game": "artofwar", "policy": artofwar_policy(0.05),
                        "find": artofwar_wizard,
                        "perspective": "spectator", "moves": "off", "height": 1000},
    "artofwar-founding": {"game": "artofwar", "policy": artofwar_policy(0.05),
                          "find": artofwar_founding, "seeds": 3000, "ply": _before_founding,
                          "perspective": "open", "moves": "bottom", "height": 1540},
}
