"""Canosa: two Sirens lure Sailors to their islands with rings (2 players, perfect information).

Rules: ``shared/rules/canosa.md`` (section numbers §n and decisions Nn below refer to it).
Player 0 is Gold (moves first), player 1 is Silver. Ring colours are ``0`` (gold) and ``1``
(silver). The board (size, islands, starting sailors and rings) is data:
``pygames/canosa_boards.json``, one entry per layout (option ``layout``; see
:func:`load_layouts`), so a layout is changed or added without touching this code.

Notation
--------
A square is its column letter and row number as read off the board's edge labels:
columns ``a``.. left to right, rows ``1``.. top to bottom, so (row 0, col 0) is ``a1`` and
(5, 5) is ``f6`` (Gold's island is ``a1`` and Silver's ``f6`` on the standard board).

=========  ==========================================================================
``Sb2``    A1: move your siren to b2 (one of the 8 squares around her, empty)
``Xc3``    A5: attack: your siren moves onto the opposing siren at c3 (one action)
``Pd4``    after an attack, the attacker places the defeated siren on d4 (empty, next to
           the contested square, not an island); this is part of the attack and does
           not count as one of the turn's actions
``c3-c2``  A2: move the sailor at c3 to c2 (onto your island: it scores, §6)
``+c3``    A3: your siren gives one of her rings to the sailor at c3
``-c3``    A4: your siren takes the top ring (yours) of the sailor at c3
=========  ==========================================================================

A turn is 2 actions by the same player (Gold's very first turn: 1 with option
``first_turn`` = 1, the default). A first action is offered only if a second action can
follow it, or if it wins (N6). An attack always qualifies, and so does each of its
placements: the attacker may attack the siren she has just placed once more (she still
holds more rings, and the square she would leave is a placement square, N12). Only a
siren move from her own island and a sailor move can be refused.
A player who cannot play a complete turn loses (reason ``"trapped"``); 4 sailors scored
win at once (``"sailors"``, N15); option ``draw_cap`` 400 draws the game when the 400th
turn in all ends (``"draw_cap"``, N8/N16).

>>> s = CanosaGame().new_game(seed=0)
>>> s.to_move(), s.view(None)["actions_left"]
([0], 1)
>>> s.apply(0, "Sb2")             # Gold's one-action first turn
>>> s.to_move(), [e["t"] for e in s.events(None)]
([1], ['siren', 'turn'])
>>> s.apply(1, "d2-e2"); s.apply(1, "Se5")
>>> s.view(None)["sirens"][1]
{'at': [4, 4], 'rings': 2, 'left': True}

View (``state.view(seat)``, the same for every seat and for a spectator)
------------------------------------------------------------------------

::

    {"game": "canosa", "options": {...},
     "rows": 6, "cols": 6, "islands": [[0, 0], [5, 5]],   # island i belongs to player i
     "sirens": [{"at": [r, c], "rings": n, "left": bool}, ...],  # per player; left = has
                                                                 # left her island
     "sailors": [{"at": [r, c], "rings": [0, 1, ...]}, ...],  # rings bottom -> top, by square
     "scores": [n0, n1], "rings_out": [n_gold, n_silver],     # rings that left the game
     "to_move": [p] or [], "actions_left": k,   # this turn's actions still to take
     "placing": None or {"at": [r, c], "siren": defeated player, "squares": [[r, c], ...]},
                                                # the attacker must place the defeated
                                                # siren (squares = the legal P actions)
     "turn": completed turns so far, "first_turn": 1 or 2, "layout": name,
     "last_turn": [{"p": p, "action": "Sb2", "from": [r, c], "to": [r, c]}, ...],
     "outcome": None or {...}}

``last_turn`` holds the actions of the last completed turn and of the current turn so
far. ``from``/``to``: siren move and attack: the siren's squares; placement: the contested
square and the placement square; sailor move: its squares; give / take: the siren's
square and the sailor's. During a placement both sirens stand on ``placing["at"]``.

Events (``state.events(seat)``, nothing is hidden), each ``{"t": kind, ...}``
-----------------------------------------------------------------------------

==========  ==========================================================================
``siren``   ``p``, ``from``, ``to``: a siren move (A1)
``attack``  ``p``, ``from``, ``to``: an attack (A5); ``to`` is the contested square
``place``   ``p`` (the attacker), ``siren`` (the defeated player), ``to``
``sailor``  ``p``, ``from``, ``to``: a sailor move (A2); onto the island a ``score`` follows
``score``   ``p``, ``at`` (the island), ``rings`` (bottom -> top), ``returned`` [gold,
            silver] (back to the sirens), ``lost`` [gold, silver] (left the game)
``give``    ``p``, ``at`` (the sailor), ``rings`` (its rings after)
``take``    ``p``, ``at``, ``rings`` (after)
``turn``    ``p``: the turn passes to player ``p``
``end``     ``winners``, ``reason`` (``"sailors"``, ``"trapped"``, ``"draw_cap"``)
==========  ==========================================================================

Squares in events are ``[row, col]``.

Positions by hand (N17): :meth:`CanosaGame.from_position` builds a state from a view-like
dict (tests, and the bots' determiniser).
"""

from __future__ import annotations

import json
import marshal
import math
from importlib import resources
from itertools import product
from pathlib import Path
from typing import Any, ClassVar

from .core import Game, Rng, State, two_player_outcome

__all__ = ["CanosaGame", "CanosaState", "LAYOUTS", "load_layouts", "parse_layouts",
           "square_name", "parse_square", "GOLD", "SILVER"]

GOLD, SILVER = 0, 1
#: A piece holds at most this many rings (§5 limits).
MAX_RINGS = 3
#: Sailors scored to win (§7).
TO_WIN = 4
#: Ring colours as stored on a sailor: a string, bottom ring first ("01" = gold, silver on top).
_RING = ("0", "1")
_COLOUR = ("Gold", "Silver")
#: A stack string -> its list of colours (every stack of up to 3 rings).
_RING_LISTS = {"".join(map(str, rings)): list(rings) for n in range(MAX_RINGS + 1)
               for rings in product((0, 1), repeat=n)}

BOARDS_FILE = "canosa_boards.json"
#: A sailor's possible steps (row, column): up, left, right, down.
_DIRS = ((-1, 0), (0, -1), (0, 1), (1, 0))
#: Why :meth:`CanosaState._play`'s loop stopped: the depth is played, the game is over,
#: draw from the list (N6), the draw cap, check whether the next player is trapped.
_DONE, _OVER, _LIST, _DRAW, _CHECK = range(5)


# -- layouts (data) ---------------------------------------------------------------------
def square_name(r: int, c: int) -> str:
    """``(row, col)`` -> notation: ``square_name(0, 0) == "a1"``, ``(5, 5)`` -> ``"f6"``."""
    return f"{chr(97 + c)}{r + 1}"


def parse_square(text: str) -> tuple[int, int] | None:
    """Notation -> ``(row, col)`` (None if it is not a square name; bounds not checked)."""
    if (not isinstance(text, str) or len(text) < 2 or not "a" <= text[0] <= "z"
            or not (text[1:].isascii() and text[1:].isdigit()) or text[1] == "0"):
        return None
    return int(text[1:]) - 1, ord(text[0]) - 97


def _pair(value: Any, what: str, rows: int, cols: int) -> tuple[int, int]:
    if isinstance(value, str):
        rc = parse_square(value)
        if rc is None:
            raise ValueError(f"{what}: {value!r} is not a square (e.g. 'b2')")
        value = list(rc)
    if (not isinstance(value, list | tuple) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise ValueError(f"{what}: {value!r} is not a square [row, col]")
    r, c = value
    if not (0 <= r < rows and 0 <= c < cols):
        raise ValueError(f"{what}: {list(value)} is off the {rows}x{cols} board")
    return r, c


def _rings(value: Any, what: str) -> str:
    if not isinstance(value, list | tuple) or not all(v in (0, 1) and not isinstance(v, bool)
                                                       for v in value):
        raise ValueError(f"{what}: rings must be a list of colours 0 (gold) / 1 (silver), "
                         f"not {value!r}")
    if len(value) > MAX_RINGS:
        raise ValueError(f"{what}: a sailor holds at most {MAX_RINGS} rings, not {len(value)}")
    return "".join(_RING[v] for v in value)


def _check_layout(name: str, spec: Any) -> dict[str, Any]:
    """One layout, checked: a clean copy, or ``ValueError`` saying what is wrong."""
    where = f"Canosa layout {name!r}"
    if not isinstance(spec, dict):
        raise ValueError(f"{where} must be an object, not {type(spec).__name__}")
    known = {"rows", "cols", "islands", "sailors", "siren_rings", "names"}
    unknown = sorted(set(spec) - known)
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)} "
                         f"(known: {', '.join(sorted(known))})")
    for key in ("rows", "cols", "islands", "sailors", "siren_rings"):
        if key not in spec:
            raise ValueError(f"{where} is missing {key!r}")
    rows, cols = spec["rows"], spec["cols"]
    for key, v in (("rows", rows), ("cols", cols)):
        if not isinstance(v, int) or isinstance(v, bool) or not 2 <= v <= 26:
            raise ValueError(f"{where}: {key} must be an integer from 2 to 26, not {v!r}")
    islands = spec["islands"]
    if not isinstance(islands, list) or len(islands) != 2:
        raise ValueError(f"{where}: islands must be two squares [[r, c], [r, c]] "
                         "(Gold's, then Silver's)")
    isl = [_pair(v, f"{where}, island", rows, cols) for v in islands]
    if isl[0] == isl[1]:
        raise ValueError(f"{where}: the two islands are on the same square")
    sr = spec["siren_rings"]
    if not isinstance(sr, int) or isinstance(sr, bool) or not 0 <= sr <= MAX_RINGS:
        raise ValueError(f"{where}: siren_rings must be 0..{MAX_RINGS}, not {sr!r}")
    sailors = spec["sailors"]
    if not isinstance(sailors, list) or not sailors:
        raise ValueError(f"{where}: sailors must be a non-empty list of [[r, c], [rings]]")
    seen = set()
    clean = []
    for i, entry in enumerate(sailors):
        what = f"{where}, sailor #{i + 1}"
        if not isinstance(entry, list | tuple) or len(entry) != 2:
            raise ValueError(f"{what}: must be [[r, c], [rings]], not {entry!r}")
        rc = _pair(entry[0], what, rows, cols)
        if rc in isl:
            raise ValueError(f"{what}: {square_name(*rc)} is an island")
        if rc in seen:
            raise ValueError(f"{what}: two sailors on {square_name(*rc)}")
        seen.add(rc)
        clean.append([list(rc), [int(ch) for ch in _rings(entry[1], what)]])
    names = spec.get("names", {"en": name, "ja": name})
    if (not isinstance(names, dict) or not all(isinstance(names.get(k), str)
                                               for k in ("en", "ja"))):
        raise ValueError(f"{where}: names must be {{'en': ..., 'ja': ...}}")
    return {"rows": rows, "cols": cols, "islands": [list(v) for v in isl],
            "siren_rings": sr, "sailors": clean, "names": {"en": names["en"], "ja": names["ja"]}}


def parse_layouts(data: Any) -> dict[str, dict[str, Any]]:
    """Check a layouts table (the JSON file's content): ``{name: layout}``, in file order."""
    if not isinstance(data, dict) or not data:
        raise ValueError("Canosa layouts must be a non-empty object {name: layout}")
    out = {}
    for name, spec in data.items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"Canosa layout names must be non-empty text, not {name!r}")
        out[name] = _check_layout(name, spec)
    return out


def load_layouts(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """The layouts in ``path`` (default: the package's ``canosa_boards.json``), checked."""
    if path is None:
        text = resources.files(__package__).joinpath(BOARDS_FILE).read_text(encoding="utf-8")
        where = BOARDS_FILE
    else:
        text = Path(path).read_text(encoding="utf-8")
        where = str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{where} is not valid JSON: {exc}") from None
    return parse_layouts(data)


#: The layouts shipped with the package (``canosa_boards.json``).
LAYOUTS: dict[str, dict[str, Any]] = load_layouts()


class _Geometry:
    """Everything about one layout that never changes, worked out once: squares are
    indices ``r * cols + c``; neighbour lists, sailor steps and action strings."""

    def __init__(self, name: str, layout: dict[str, Any]) -> None:
        self.name = name
        rows, cols = self.rows, self.cols = layout["rows"], layout["cols"]
        n = self.n = rows * cols
        self.rc = [(i // cols, i % cols) for i in range(n)]
        #: ``[r, c]`` per square (copied before it is handed out).
        self.rcl = [[r, c] for r, c in self.rc]
        self.names = [square_name(r, c) for r, c in self.rc]
        self.index = {nm: i for i, nm in enumerate(self.names)}
        self.islands = tuple(r * cols + c for r, c in layout["islands"])
        isl = set(self.islands)
        n8 = []
        for r, c in self.rc:
            n8.append(tuple((r + dr) * cols + c + dc for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                            if (dr or dc) and 0 <= r + dr < rows and 0 <= c + dc < cols))
        self.n8 = tuple(n8)
        self.n8set = tuple(frozenset(x) for x in n8)
        #: 8-neighbours that are not islands (where a siren may go or be placed).
        self.n8free = tuple(tuple(t for t in x if t not in isl) for x in n8)
        #: Per player, per square: the orthogonal steps towards that player's island that do
        #: not enter the other island (N2).
        steps = []
        for p in (GOLD, SILVER):
            ir, ic = self.rc[self.islands[p]]
            other = self.islands[1 - p]
            per = []
            for r, c in self.rc:
                d = abs(r - ir) + abs(c - ic)
                per.append(tuple(
                    (r + dr) * cols + c + dc for dr, dc in _DIRS
                    if 0 <= r + dr < rows and 0 <= c + dc < cols
                    and abs(r + dr - ir) + abs(c + dc - ic) == d - 1
                    and (r + dr) * cols + c + dc != other))
            steps.append(tuple(per))
        self.steps = tuple(steps)
        #: Per player, per square: the Manhattan distance to that player's island, and
        #: the board's largest (for search's estimate).
        self.dist = tuple(tuple(abs(r - self.rc[self.islands[p]][0])
                                + abs(c - self.rc[self.islands[p]][1]) for r, c in self.rc)
                          for p in (GOLD, SILVER))
        self.maxd = max(max(d) for d in self.dist) or 1
        names = self.names
        self.S = tuple("S" + x for x in names)
        self.X = tuple("X" + x for x in names)
        self.P = tuple("P" + x for x in names)
        self.G = tuple("+" + x for x in names)
        self.T = tuple("-" + x for x in names)
        self.M = {(a, b): f"{names[a]}-{names[b]}" for p in (0, 1)
                  for a in range(n) for b in self.steps[p][a]}
        #: Action text -> (kind, square, to): kind S, X, P, +, - (``to`` -1) or M (a sailor
        #: move from square to ``to``).
        parse: dict[str, tuple[str, int, int]] = {}
        for i in range(n):
            for kind, table in (("S", self.S), ("X", self.X), ("P", self.P), ("+", self.G),
                                ("-", self.T)):
                parse[table[i]] = (kind, i, -1)
        for (a, b), text in self.M.items():
            parse[text] = ("M", a, b)
        self.parse = parse
        board: list[str | None] = [None] * n
        totals = [layout["siren_rings"], layout["siren_rings"]]
        for (r, c), rings in layout["sailors"]:
            board[r * cols + c] = "".join(_RING[v] for v in rings)
            for v in rings:
                totals[v] += 1
        self.start_board = board
        self.siren_rings = layout["siren_rings"]
        #: Rings of each colour in the game at the start (in play + out = this, always).
        self.totals = tuple(totals)

        # -- what the rules code reads (CanosaState._play): square i is the bit 1 << i ----
        bit = self.bit = tuple(1 << i for i in range(n))
        self.all = (1 << n) - 1
        self.n8mask = tuple(_mask(x) for x in self.n8)
        self.n8freemask = tuple(_mask(x) for x in self.n8free)
        #: The S, +, - and P texts of a mask's squares, memoised (CanosaState._legal).
        self.texts = tuple(_Texts(table) for table in (self.S, self.G, self.T, self.P))
        #: The P actions' squares' bits (a given placement, for CanosaState._play).
        self.place_bits = {self.P[i]: bit[i] for i in range(n)}
        #: Per player ``p``, read once per turn by CanosaState._play: the opponent, the
        #: islands, the ring strings, the sailor moves' lanes, their records, and every
        #: action of ``p`` as a move set of one (see below).
        #:
        #: Sailor moves are the bits of a mask of lanes of ``n`` bits, one lane per
        #: direction ``p``'s sailors can step (two on a board with corner islands), in
        #: ``_DIRS`` order, lane ``i`` from bit ``i * n + cols``: a move is the bit of its
        #: target square in its direction's lane. Per lane: the squares with a step that
        #: way and the shift that takes each one to its target's bit (to the left: that
        #: is what the offset ``cols`` is for); the open squares' multiplier ``rep``
        #: (copies a mask into each lane); per lane bit ``(from, to, text, from bit | to
        #: bit)`` (None where no step ends).
        #:
        #: A move set is what the move generation in CanosaState._play makes, ``(siren
        #: moves, attack, gives, takes, sailor moves, n siren moves, n gives, n takes)``:
        #: masks, the attack 1 or 0, and the counts. ``given[text]`` is the set holding
        #: just that action, so that a given action is played as the draw from it.
        sides = []
        rc = self.rc
        for p in (GOLD, SILVER):
            stepdir = [_mask(a for a in range(n) for b in self.steps[p][a]
                             if (rc[b][0] - rc[a][0], rc[b][1] - rc[a][1]) == d)
                       for d in _DIRS]
            used = [d for d in range(len(_DIRS)) if stepdir[d]]
            lanes: list[int] = []
            moves: list[tuple[int, int, str, int] | None] = [None] * cols
            for i, d in enumerate(used):
                dr, dc = _DIRS[d]
                lanes += [stepdir[d], i * n + cols + dr * cols + dc]
                for b in range(n):
                    a = b - dr * cols - dc
                    act = self.M[a, b] if 0 <= a < n and b in self.steps[p][a] else None
                    moves.append(None if act is None else (a, b, act, bit[a] | bit[b]))
            lanes += [0, 0] * (len(_DIRS) - len(used))
            given: dict[str, tuple[int, ...]] = {}
            for i in range(n):
                given[self.S[i]] = (bit[i], 0, 0, 0, 0, 1, 0, 0)
                given[self.X[i]] = (0, 1, 0, 0, 0, 0, 0, 0)
                given[self.G[i]] = (0, 0, bit[i], 0, 0, 0, 1, 0)
                given[self.T[i]] = (0, 0, 0, bit[i], 0, 0, 0, 1)
            for i, rec in enumerate(moves):
                if rec is not None:
                    given[rec[2]] = (0, 0, 0, 0, 1 << i, 0, 0, 0)
            sides.append((1 - p, self.islands[p], self.islands[1 - p], _RING[p], _RING[1 - p],
                          *lanes, len(used) > 2,
                          sum(1 << (i * n + cols) for i in range(len(used))),
                          tuple(moves), given))
        self.sides = tuple(sides)
        #: All that CanosaState._play reads of the layout, in one tuple.
        self.play = (bit, self.n8mask, self.n8freemask, self.sides, self.S, self.X, self.P,
                     self.G, self.T, self.sq)

    def sq(self, i: int) -> list[int]:
        r, c = self.rc[i]
        return [r, c]


def _mask(squares: Any) -> int:
    m = 0
    for i in squares:
        m |= 1 << i
    return m


def _option_schema(layouts: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    names = list(layouts)
    return {
        "first_turn": {"values": [1, 2], "default": 1},
        # N8/N16: a house draw for bot play, counted in completed turns of both players.
        "draw_cap": {"values": [0, 400], "default": 0},
        "layout": {"values": names, "default": "standard" if "standard" in layouts
                   else names[0]},
    }


def _option_labels(layouts: dict[str, dict[str, Any]]) -> dict[str, dict[Any, dict[str, str]]]:
    return {
        "first_turn": {
            "label": {"en": "Gold's first turn", "ja": "金の最初の手番"},
            1: {"en": "1 action (as on BGA)", "ja": "1アクション（BGA）"},
            2: {"en": "2 actions (older rule)", "ja": "2アクション（旧ルール）"},
        },
        "draw_cap": {
            "label": {"en": "Draw cap", "ja": "引き分け上限"},
            0: {"en": "None (as the rules)", "ja": "なし（ルール通り）"},
            400: {"en": "Draw after 400 turns", "ja": "400手番で引き分け"},
        },
        "layout": {
            "label": {"en": "Board", "ja": "盤面"},
            **{k: dict(v["names"]) for k, v in layouts.items()},
        },
    }


class CanosaGame(Game):
    """Canosa on a layout from data (``canosa_boards.json``; option ``layout``)."""

    id: ClassVar[str] = "canosa"
    names: ClassVar[dict[str, str]] = {"en": "Canosa", "ja": "カノーサ"}
    min_players = 2
    max_players = 2
    option_schema: ClassVar[dict[str, dict[str, Any]]] = _option_schema(LAYOUTS)
    option_labels: ClassVar[dict[str, dict[Any, dict[str, str]]]] = _option_labels(LAYOUTS)
    #: A random Canosa game is ~185 actions: a playout costs ~40 of Kiri-ai's. Per move
    #: (measured): easy 0.11 s, normal 0.2 s, strong 0.8 s (Kiri-ai: 0.01, 0.07, 0.8 s).
    #: Easy and normal get more than Kiri-ai's time would give (4 and 40): with fewer
    #: iterations than legal actions (~20) the search hardly tries each one; 8 lost 1-11
    #: to random play, 30 won 11-1.
    search_iterations: ClassVar[dict[str, int]] = {"easy": 40, "normal": 200, "strong": 800}
    #: Nothing is hidden: the API battery needs no hidden-information twin.
    perfect_information: ClassVar[bool] = True
    #: Random games are long (~180 actions) and a position is easy to judge (sailors
    #: scored, and how close each side's sailors are): search plays 8 turns, then judges.
    playout_depth: ClassVar[int] = 16

    def __init__(self, layouts: dict[str, dict[str, Any]] | None = None) -> None:
        """``layouts``: a checked table (:func:`load_layouts`); default :data:`LAYOUTS`."""
        self.layouts = LAYOUTS if layouts is None else parse_layouts(layouts)
        if layouts is not None:
            self.option_schema = _option_schema(self.layouts)  # type: ignore[misc]  # own layouts: shadows the ClassVar
            self.option_labels = _option_labels(self.layouts)  # type: ignore[misc]  # own layouts: shadows the ClassVar
        self._geos: dict[str, _Geometry] = {}

    def geometry(self, layout: str) -> _Geometry:
        geo = self._geos.get(layout)
        if geo is None:
            geo = self._geos[layout] = _Geometry(layout, self.layouts[layout])
        return geo

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> CanosaState:
        return CanosaState(self, seed, players, options)

    def from_position(self, position: dict[str, Any], *,
                      options: dict[str, Any] | None = None) -> CanosaState:
        """A state from a hand-made position (N17), e.g. a view (``state.view(None)``).

        ``position`` keys (squares are ``[r, c]`` or notation such as ``"b2"``):

        * ``sirens``: two ``{"at", "rings", "left"?}`` (Gold's, Silver's); ``left``, when
          given, must be true exactly when she is not on her island;
        * ``sailors``: ``{"at", "rings": [bottom..top]}`` or ``[at, rings]`` entries;
        * ``to_move``: ``[p]`` (or ``p``); ``actions_left`` (default 2); ``scores`` (default
          ``[0, 0]``); ``turn`` (completed turns, default 0); ``rings_out`` (default: the
          layout's rings not in play; if given, in play + out must be the layout's total);
          ``placing``: None or ``{"at"}`` (both sirens on that square, the attacker to
          move); ``last_turn`` (as in the view);
        * optional and checked against the layout: ``rows``, ``cols``, ``islands``;
          ``layout`` and ``first_turn`` (if not in ``options``).

        Checked (``ValueError``): at most 3 rings per piece, no more rings of a colour in
        play than the layout has, one piece per square, no sailor on an island, no siren
        on the opponent's island, scores 0..3. If the player to move has no legal action,
        the game is over at once (``"trapped"``). The state has seed 0 and an empty
        record: it cannot be replayed from a record.
        """
        if not isinstance(position, dict):
            raise ValueError("a position must be an object (dict)")
        opts = dict(options or {})
        for key in ("layout", "first_turn"):
            if key in position and position[key] is not None:
                if key in opts and opts[key] != position[key]:
                    raise ValueError(f"the position's {key} {position[key]!r} is not the "
                                     f"options' {opts[key]!r}")
                opts[key] = position[key]
        opts = self.resolve_options(opts)
        state = object.__new__(CanosaState)
        State.__init__(state, self, 0, 2, opts)
        state._setup(self.geometry(opts["layout"]))
        state._load(position)
        return state

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> CanosaState:
        """Canosa has no hidden information: the state is rebuilt from the view alone
        (:meth:`from_position`); ``events`` and ``rng`` are not needed. The world has an
        empty log and record."""
        if seat not in (GOLD, SILVER):
            raise ValueError(f"there is no seat {seat!r} in Canosa")
        return self.from_position(view, options=view.get("options"))


class CanosaState(State):
    """A Canosa game in progress. Every field is plain data (clone/compare friendly).

    ``board[i]`` is None (no sailor) or the sailor's rings as a string, bottom first
    (``"01"``: gold under silver; ``""``: ringless). Sirens are kept apart: ``sirens``
    (square per player) and ``rings`` (each siren's count; a siren only ever holds rings
    of her own colour). ``trail`` is ``last_turn`` as tuples ``(p, action, from, to)``.
    The layout's fixed geometry sits in the slot ``_geo``, outside the compared fields.

    Where the rules are: each is written once, and the public protocol and search's fast
    path (``clone_fast``, ``apply_fast``, ``random_action_fast``, ``playout_fast``) run
    the same lines. The fast path only leaves out events, checks and the record.

    * :meth:`_play`: the move generation (§5 A1-A5: the legal actions of the player to
      move as bit masks, a "move set"), the action application, the turn structure (§4),
      scoring (:meth:`_score`, §6) and the end of the game (§7). ``apply`` plays through it
      with events, ``apply_fast`` without, ``playout_fast`` draws and plays many at once
      from the move sets, ``random_action_fast`` draws one, and :meth:`_moves` asks it for
      the move set alone.
    * :meth:`_legal`: the legal list from :meth:`_moves`, and N6 (:meth:`_follows`, tried
      only where :func:`_n6_may_refuse` says a first action may be refused).
    * :meth:`_placements`: where a defeated siren may be placed (N4, N12, N13).
    * :meth:`_why` words the refusals; it never decides what is legal.

    Beside the fields, the slots ``_open``, ``_room`` and ``_ctrl`` hold the position as
    bit masks (square ``i`` is the bit ``1 << i``), kept up to date by :meth:`_play`:
    ``_open`` the squares with neither a sailor nor a siren, ``_room`` the sailors holding
    fewer than 3 rings, ``_ctrl[p]`` the sailors whose top ring is ``p``'s.
    """

    #: ``_geo``: the layout's geometry; ``_legal_memo`` / ``_view_memo``: the legal actions
    #: and the view of this position, worked out once (None: not yet); ``_open``,
    #: ``_room``, ``_ctrl``: the masks. Slots are not compared; every change of the
    #: position clears the memos.
    __slots__ = ("_geo", "_legal_memo", "_view_memo", "_open", "_room", "_ctrl")
    _legal_memo: list[str] | None
    _view_memo: dict[str, Any] | None

    def __init__(self, game: CanosaGame, seed: int, players: int,
                 options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        geo = game.geometry(options["layout"])
        self._setup(geo)
        self.actions_left = options["first_turn"]
        self._check_trapped(self.log)

    def _setup(self, geo: _Geometry) -> None:
        self._geo = geo
        self._legal_memo = self._view_memo = None
        self.board: list[str | None] = list(geo.start_board)
        self.sirens = list(geo.islands)
        self.rings = [geo.siren_rings, geo.siren_rings]
        self.scores = [0, 0]
        self.rings_out = [0, 0]
        self.player = GOLD
        self.actions_left = 2
        self.placing: int | None = None   # contested square while the attacker must place
        self.turn = 0
        self.trail: list[tuple[int, str, int, int]] = []
        self.winner: int | None = None
        self.reason: str | None = None
        self.over = False
        self._sync_masks()

    def _sync_masks(self) -> None:
        """The masks (``_open``, ``_room``, ``_ctrl``) worked out from the fields."""
        bit = self._geo.bit
        occupied = room = 0
        ctrl = [0, 0]
        for i, st in enumerate(self.board):
            if st is not None:
                occupied |= bit[i]
                if len(st) < MAX_RINGS:
                    room |= bit[i]
                if st:
                    ctrl[st[-1] == _RING[SILVER]] |= bit[i]
        self._room, self._ctrl = room, ctrl
        self._open = self._geo.all & ~(occupied | bit[self.sirens[0]] | bit[self.sirens[1]])

    # -- the protocol -------------------------------------------------------------------
    def to_move(self) -> list[int]:
        return [] if self.over else [self.player]

    def legal_actions(self, player: int) -> list[str]:
        if self.over or player != self.player:
            return []
        legal = self._legal_memo
        if legal is None:
            if self.placing is not None:
                legal = self._placements()
            else:
                legal = self._legal(player, self.actions_left >= 2)
            self._legal_memo = legal
        return legal[:]

    def _apply(self, player: int, action: str) -> None:
        self._play(None, 1, action, self.log)

    def is_over(self) -> bool:
        return self.over

    def outcome(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        return two_player_outcome(self.winner, self.reason, self.scores)

    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and player not in (GOLD, SILVER):
            raise ValueError(f"there is no player {player!r} in this game")
        view = self._view_memo
        if view is None:
            view = self._view_memo = self._make_view()
        return marshal.loads(marshal.dumps(view))  # a deep copy of plain data, in C

    def _make_view(self) -> dict[str, Any]:
        g = self._geo
        rc = g.rcl
        placing = None
        if self.placing is not None:
            placing = {"at": rc[self.placing][:], "siren": 1 - self.player,
                       "squares": [rc[g.parse[a][1]][:] for a in self._placements()]}
        sirens, rings, islands = self.sirens, self.rings, g.islands
        return {
            "game": "canosa",
            "options": dict(self.options),
            "rows": g.rows, "cols": g.cols,
            "islands": [rc[islands[0]][:], rc[islands[1]][:]],
            "sirens": [{"at": rc[sirens[p]][:], "rings": rings[p],
                        "left": sirens[p] != islands[p]} for p in (GOLD, SILVER)],
            "sailors": [{"at": rc[i][:], "rings": _RING_LISTS[st][:]}
                        for i, st in enumerate(self.board) if st is not None],
            "scores": self.scores[:],
            "rings_out": self.rings_out[:],
            "to_move": [] if self.over else [self.player],
            "actions_left": self.actions_left,
            "placing": placing,
            "turn": self.turn,
            "first_turn": self.options["first_turn"],
            "layout": self.options["layout"],
            "last_turn": [{"p": p, "action": a, "from": rc[f][:], "to": rc[t][:]}
                          for p, a, f, t in self.trail],
            "outcome": self.outcome(),
        }

    def sheet_group(self) -> str | None:
        if self.over:
            return None
        view = self.view(None)
        return f"Turn {view['turn'] + 1} (P{view['to_move'][0] + 1})"

    def explain_illegal(self, player: int, action: str) -> str:
        return self._why(player, action) or f"{action!r} is not a legal action now"

    def clone(self) -> CanosaState:
        """An independent copy (every field is plain data; strings, tuples and the logged
        events, never changed, are shared)."""
        twin = self._copy()
        # Logged events and record entries are never changed once made (events() hands out
        # copies), so the copy shares them: its own lists, the same items.
        twin.log = self.log[:]
        twin._actions = self._actions[:]
        twin.options = dict(self.options)
        return twin

    def _copy(self) -> CanosaState:
        """The same position, with an empty log and record. The board holds strings and
        the trail tuples, so shallow list copies are independent."""
        twin = object.__new__(CanosaState)
        twin.__dict__ = d = self.__dict__.copy()
        twin._geo = self._geo
        twin._legal_memo = self._legal_memo  # the same position: never changed, only copied
        twin._view_memo = self._view_memo
        twin._open, twin._room, twin._ctrl = self._open, self._room, self._ctrl[:]
        d["log"], d["_actions"] = [], []
        d["board"], d["sirens"], d["rings"] = self.board[:], self.sirens[:], self.rings[:]
        d["scores"], d["rings_out"], d["trail"] = (self.scores[:], self.rings_out[:],
                                                   self.trail[:])
        return twin

    # -- the fast path for search (pygames.search) --------------------------------------
    # The protocol's own rules code (_play, _legal), without events, checks and record.
    def clone_fast(self) -> CanosaState:
        """A copy for search: the same position, an empty log and record."""
        return self._copy()

    def apply_fast(self, player: int, action: str) -> None:
        """Play an action from ``legal_actions(player)``: no checks, no events, no record
        (:meth:`_play`, as ``apply`` does)."""
        self._play(None, 1, action, None)

    def random_action_fast(self, player: int, rng: Any) -> str:
        """One of ``legal_actions(player)`` (``player`` is the one to move), each equally
        likely: the action :meth:`playout_fast` would play next (:meth:`_play`'s draw,
        played on a scratch copy)."""
        twin = self._copy()
        twin._play(rng.random, 1)
        return twin.trail[-1][1]

    def playout_fast(self, rng: Any, depth: int) -> bool:
        """:meth:`State.playout_fast` in one loop: :meth:`_play` drawing and playing
        ``depth`` actions (:meth:`random_action_fast`'s draw, the same numbers, the same
        moves)."""
        return self._play(rng.random, depth)

    def estimate(self) -> list[float]:
        """Gold's and Silver's chances, judged: sailors scored count most, then each
        controlled sailor by how close it stands to its controller's island, then the
        rings the sirens hold (a logistic of the difference)."""
        geo = self._geo
        near0, near1, maxd = geo.dist[GOLD], geo.dist[SILVER], geo.maxd
        x = 1.5 * (self.scores[GOLD] - self.scores[SILVER])
        x += 0.1 * (self.rings[GOLD] - self.rings[SILVER])
        for i, stack in enumerate(self.board):
            if stack:
                if stack[-1] == "0":
                    x += 0.6 * (1.0 - near0[i] / maxd)
                else:
                    x -= 0.6 * (1.0 - near1[i] / maxd)
        gold = 1.0 / (1.0 + math.exp(-x))
        return [gold, 1.0 - gold]

    # -- legal actions ------------------------------------------------------------------
    def _moves(self) -> tuple[int, int, int, int, int]:
        """The move set of the player to move (not placing), from the move generation in
        :meth:`_play`: ``(siren moves, attack, gives, takes, sailor moves)``, masks of the
        squares her siren may move to, 1 if she may attack (else 0), the sailors she may
        give a ring to and take one from, and her sailor moves (as lanes, see
        ``_Geometry.sides``). N6 is not applied (:meth:`_legal` does)."""
        return self._play(None, 1, None, None, True)

    def _placements(self) -> list[str]:
        """The legal P actions (N4, N12, N13): the empty squares next to the contested
        square that are not islands (during a placement both sirens stand on it; the
        square the attacker left is empty). N6 refuses none: after it the attacker can
        always attack the siren she has just placed once more (see :meth:`_legal`)."""
        g = self._geo
        assert self.placing is not None  # only asked while a defeated siren is placed
        squares = _placement_squares(g, self.placing, self._open)
        return list(g.texts[3][squares])

    def _legal(self, p: int, n6: bool) -> list[str]:
        """Every legal action of ``p`` (not placing), in the order S, X, +, - (by square)
        and sailor moves (by the sailor's square, then up, left, right, down), from
        :meth:`_moves`. ``n6``: only those a second action can follow (or that win), N6.

        N6 refuses neither a give nor a take (the other one undoes it), nor an attack
        (after any placement she may attack again: she still has more rings and the square
        she leaves is a placement square, N12), nor a siren move off her island (she may
        step back). It can refuse a siren move from her island, and a sailor move taking
        the last free square beside her siren: those are tried (:meth:`_follows`) where
        :func:`_n6_may_refuse` says one may be refused."""
        g = self._geo
        free, attack, gives, takes, moves = self._moves()
        texts = g.texts
        sirens: Any = texts[0][free]
        sailors: Any = sorted(_names(g.sides[p][15], moves))
        s = self.sirens[p]
        if (n6 and (not free & (free - 1) or s == g.islands[p])
                and _n6_may_refuse(g, p, s, free, self._open, moves)):
            follows = self._follows
            if s == g.islands[p]:  # a siren move into a dead end
                doubts = _dead_ends(g, free, self._open, moves)
                sirens = [a for a in sirens if not doubts & g.bit[g.parse[a][1]]
                          or follows(p, a)]
            if not free & (free - 1):  # a sailor move onto her last free square
                near = g.n8mask[s]  # (unless the square it leaves is next to her)
                sailors = [rec for rec in sailors if near & g.bit[rec[0]]
                           or follows(p, rec[2])]
        out = list(sirens)
        if attack:
            out.append(g.X[self.sirens[1 - p]])
        out += texts[1][gives]
        out += texts[2][takes]
        out += [rec[2] for rec in sailors]
        return out

    def _follows(self, p: int, action: str) -> bool:
        """Does some legal action follow ``action`` (a siren or sailor move, N6), or does
        it win? Played on a scratch copy."""
        twin = self._copy()
        twin._play(None, 1, action, None)
        return twin.over or any(twin._moves())

    # -- playing ------------------------------------------------------------------------
    def _play(self, r: Any, depth: int, action: str | None = None,
              events: list | None = None, masks: bool = False) -> Any:
        """Play ``action`` (``r`` None, ``depth`` 1), or ``depth`` actions drawn with ``r``
        (``random.Random.random``). The one place where the legal actions are generated
        (§5 A1-A5, as masks), actions are played, turns end (§4), sailors score
        (:meth:`_score`, §6) and the game ends (§7); ``events``: the log to write to, or
        None (search). ``masks``: only return the move set of the player to move (see
        :meth:`_moves`). Returns True if the game ended with actions still to draw
        (:meth:`State.playout_fast`), else False.

        The draw: one number picks uniformly among the legal actions without making the
        list, from the move set: siren moves, the attack, gives, takes, then sailor moves,
        each kind in its mask's bit order (a placement: among its squares). Where N6 may
        refuse a first action (:func:`_n6_may_refuse`) it draws from the list
        (:meth:`legal_actions`, which applies N6) instead. A given action is played as the
        draw from the move set holding only that action (``_Geometry.sides``), so the same
        lines play it.

        The position is played on local copies (the mover's and the opponent's siren,
        rings and control mask swap at each turn end) and written back to the state when
        the loop stops: at the end, or to hand a case to the state's own methods (the
        draw from the list, the draw cap, a turn end where the next player might be
        trapped: :meth:`_check_trapped`) and a score (:meth:`_score`)."""
        g = self._geo
        bit, n8mask, n8freemask, sides, S, X, P, G, T, sq = g.play
        board, sirens, rings, ctrl = self.board, self.sirens, self.rings, self._ctrl
        cap = self.options["draw_cap"] or 1 << 62  # the turn count that draws the game
        it = iter(range(depth))  # one action per step; the inner loops share it
        while True:
            if self.over:
                for _ in it:
                    return True
                return False
            p = self.player
            (q, isl, oisl, ring, oring, m1, s1, m2, s2, m3, s3, m4, s4, wide, rep, moveinfo,
             given) = sides[p]
            s, o, mine, theirs, cm, co = sirens[p], sirens[q], rings[p], rings[q], ctrl[p], ctrl[q]
            open_, room, left, placing = self._open, self._room, self.actions_left, self.placing
            # The trail grows in place: ``last`` is where the last completed turn's entries
            # start, ``cur`` where this turn's do (-1: no turn ended yet; the first turn
            # end filters the trail to the mover's entries, later ones slice it).
            turn, trail = self.turn, self.trail
            push = trail.append
            last = cur = -1
            played = len(trail)
            slow = _DONE  # why the loop stopped
            for _ in it:
                if placing is not None:  # the attack's placement (see _placements)
                    if action is None:
                        m = _placement_squares(g, placing, open_)
                        k = int(r() * m.bit_count())
                        while k:
                            m &= m - 1
                            k -= 1
                    else:
                        m = g.place_bits[action]
                        action = None
                    bt = m & -m
                    t = bt.bit_length() - 1
                    push((p, P[t], placing, t))
                    if events is not None:
                        events.append({"t": "place", "p": p, "siren": q, "to": sq(t)})
                    o = t
                    open_ ^= bt
                    placing = None
                    if left > 0:
                        continue
                else:
                    if action is None:
                        # THE move generation (§5), as masks: the move set. A1: an empty
                        # square next to her, not an island; A5: strictly more rings, next
                        # to her, not on her island, and a placement square once she has
                        # moved (N4, N12: the square she leaves counts); A3: a ring to
                        # give, a sailor next to her with room; A4: a sailor next to her
                        # with her ring on top, room on her; A2: her sailors' steps
                        # towards her island (_Geometry.steps, N2) onto empty squares.
                        near = n8mask[s]
                        free = n8freemask[s] & open_
                        n_x = 1 if (mine > theirs and near & bit[o] and o != oisl
                                    and _placement_squares(g, o, open_ | bit[s])) else 0
                        gives = near & room if mine else 0
                        takes = near & cm if mine < MAX_RINGS else 0
                        if cm:
                            moves = (cm & m1) << s1 | (cm & m2) << s2
                            if wide:
                                moves |= (cm & m3) << s3 | (cm & m4) << s4
                            moves &= open_ * rep
                        else:
                            moves = 0
                        if masks:
                            return free, n_x, gives, takes, moves
                        if (left >= 2 and (not free & (free - 1) or s == isl)
                                and _n6_may_refuse(g, p, s, free, open_, moves)):
                            slow = _LIST  # N6 may refuse a first action here
                            break
                        n_s = free.bit_count()
                        n_g = gives.bit_count()
                        n_t = takes.bit_count()
                        k = int(r() * (n_s + n_x + n_g + n_t + moves.bit_count()))
                    else:  # the given action: the draw from the set of just that one
                        free, n_x, gives, takes, moves, n_s, n_g, n_t = given[action]
                        action = None
                        k = 0
                    if k < n_s:  # A1: the siren moves
                        while k:
                            free &= free - 1
                            k -= 1
                        bt = free & -free
                        t = bt.bit_length() - 1
                        push((p, S[t], s, t))
                        if events is not None:
                            events.append({"t": "siren", "p": p, "from": sq(s), "to": sq(t)})
                        open_ ^= bit[s] | bt
                        s = t
                    elif k < n_s + n_x:  # A5: the attack; the placement follows
                        push((p, X[o], s, o))
                        if events is not None:
                            events.append({"t": "attack", "p": p, "from": sq(s), "to": sq(o)})
                        open_ |= bit[s]
                        s = placing = o
                        left -= 1
                        continue  # the turn cannot end before the placement
                    else:
                        k -= n_s + n_x
                        if k < n_g:  # A3: a ring from her onto the sailor's top
                            while k:
                                gives &= gives - 1
                                k -= 1
                            bt = gives & -gives
                            t = bt.bit_length() - 1
                            stack = board[t] = board[t] + ring
                            mine -= 1
                            cm |= bt
                            co &= ~bt
                            if len(stack) >= MAX_RINGS:
                                room ^= bt
                            push((p, G[t], s, t))
                            if events is not None:
                                events.append({"t": "give", "p": p, "at": sq(t),
                                               "rings": [int(ch) for ch in stack]})
                        elif k < n_g + n_t:  # A4: the sailor's top ring back to her
                            k -= n_g
                            while k:
                                takes &= takes - 1
                                k -= 1
                            bt = takes & -takes
                            t = bt.bit_length() - 1
                            stack = board[t] = board[t][:-1]  # type: ignore[index]  # a take's square holds a sailor
                            mine += 1
                            cm ^= bt
                            if stack:  # control passes to the owner of the new top ring
                                if stack[-1] == oring:
                                    co |= bt
                                else:
                                    cm |= bt
                            room |= bt
                            push((p, T[t], s, t))
                            if events is not None:
                                events.append({"t": "take", "p": p, "at": sq(t),
                                               "rings": [int(ch) for ch in stack]})
                        else:  # A2: a sailor moves, from a to b
                            k -= n_g + n_t
                            while k:
                                moves &= moves - 1
                                k -= 1
                            a, b, act, ab = moveinfo[(moves & -moves).bit_length() - 1]
                            stack = board[a]
                            board[a] = None
                            push((p, act, a, b))
                            if events is not None:
                                events.append({"t": "sailor", "p": p, "from": sq(a),
                                               "to": sq(b)})
                            if b == isl:  # it scores (§6)
                                ba = bit[a]
                                open_ ^= ba
                                cm ^= ba
                                if len(stack) < MAX_RINGS:
                                    room ^= ba
                                rings[p], rings[q] = mine, theirs
                                self._score(p, stack, b, events)
                                mine, theirs = rings[p], rings[q]
                                if self.over:
                                    left = 0  # as _end leaves it
                                    slow = _OVER
                                    break
                            else:
                                board[b] = stack
                                open_ ^= ab
                                cm ^= ab
                                if len(stack) < MAX_RINGS:
                                    room ^= ab
                    left -= 1
                    if left > 0:
                        continue
                # The turn ends (§4): the trail keeps the mover's actions, the draw cap
                # (N16), the next player's turn, and whether she is trapped (§7, N6).
                turn += 1
                if cur < 0:
                    trail = [e for e in trail if e[0] == p]
                    push = trail.append
                    last = 0
                else:
                    last = cur
                cur = len(trail)
                if turn >= cap:
                    slow = _DRAW
                    break
                if events is not None:
                    events.append({"t": "turn", "p": q})
                p = q
                (q, isl, oisl, ring, oring, m1, s1, m2, s2, m3, s3, m4, s4, wide, rep, moveinfo,
                 given) = sides[p]
                s, o, mine, theirs, cm, co = o, s, theirs, mine, co, cm
                left = 2
                # Sure of a complete turn: out and back; from her island (she cannot step
                # back) where N6 refuses nothing even if no sailor of hers could move.
                free = n8freemask[s] & open_
                if free and (s != isl or not _n6_may_refuse(g, p, s, free, open_, 0)):
                    continue
                slow = _CHECK
                break
            else:
                slow = _DONE  # the depth is played
            sirens[p], sirens[q], rings[p], rings[q], ctrl[p], ctrl[q] = s, o, mine, theirs, cm, co
            self._open, self._room, self.actions_left, self.placing = open_, room, left, placing
            if last > 0:
                trail = trail[last:]
            self.player, self.turn, self.trail = p, turn, trail
            if len(trail) != played or last >= 0:
                self._legal_memo = self._view_memo = None  # else nothing was played
            if slow == _DONE:
                return False
            if slow == _LIST:
                legal = self.legal_actions(p)
                self._play(None, 1, legal[int(r() * len(legal))], events)
            elif slow == _CHECK:
                self._check_trapped(events)
            elif slow == _DRAW:
                self._end(None, "draw_cap", events)

    def _score(self, p: int, stack: str, at: int, events: list | None) -> None:
        """§6: remove the sailor (done), score it, return one ring per colour (if its siren
        has room), the rest leave the game; then the 4-sailor win (N15)."""
        self.scores[p] += 1
        returned, lost = [0, 0], [0, 0]
        rings = self.rings
        for colour in (GOLD, SILVER):
            n = stack.count(_RING[colour])
            if not n:
                continue
            if rings[colour] < MAX_RINGS:
                rings[colour] += 1
                returned[colour] = 1
                n -= 1
            lost[colour] = n
        self.rings_out[0] += lost[0]
        self.rings_out[1] += lost[1]
        if events is not None:
            events.append({"t": "score", "p": p, "at": self._geo.sq(at),
                           "rings": [int(ch) for ch in stack], "returned": returned,
                           "lost": lost})
        if self.scores[p] >= TO_WIN:
            self._end(p, "sailors", events)

    def _check_trapped(self, events: list | None) -> None:
        """§7 / N6: a player who cannot play a complete turn loses at its start."""
        if not self.legal_actions(self.player):
            self._end(1 - self.player, "trapped", events)

    def _end(self, winner: int | None, reason: str, events: list | None) -> None:
        self._legal_memo = self._view_memo = None
        self.over = True
        self.winner = winner
        self.reason = reason
        self.actions_left = 0
        self.placing = None
        if events is not None:
            events.append({"t": "end", "winners": [] if winner is None else [winner],
                           "reason": reason})

    # -- explanations -------------------------------------------------------------------
    def _why(self, p: int, action: str) -> str | None:
        g = self._geo
        parsed = g.parse.get(action)
        them = _COLOUR[1 - p]
        if parsed is None:
            return self._why_unparsed(p, action)
        kind, a, b = parsed
        names = g.names
        board, s, o = self.board, self.sirens[p], self.sirens[1 - p]
        if self.placing is not None:
            c = self.placing
            if kind != "P":
                return (f"you must first place the defeated {them} siren: P and an empty "
                        f"square next to {names[c]} that is not an island")
            if a not in g.n8set[c]:
                return f"the defeated siren must be placed next to {names[c]}"
            if a in g.islands:
                return "a siren can never be placed on an island"
            if board[a] is not None:
                return f"{names[a]} is not empty"
            return ("after placing her there you would have no legal second action: a turn "
                    "is two actions (N6)")
        if kind == "P":
            return "there is no defeated siren to place: P follows your attack (X)"
        if kind in "SX" and a not in g.n8set[s]:
            return (f"your siren on {names[s]} moves one square, to one of the 8 around her; "
                    f"{names[a]} is not next to her")
        if kind == "S":
            if a == o:
                return (f"the {them} siren is on {names[a]}: to move onto her, attack "
                        f"(X{names[a]})")
            if a == g.islands[p]:
                return "your siren has left her island and may never return"
            if a == g.islands[1 - p]:
                return "a siren may never enter the opponent's island"
            if board[a] is not None:
                return f"{names[a]} is not empty: a sailor stands there"
        elif kind == "X":
            if a != o:
                return f"the {them} siren is not on {names[a]}"
            if o == g.islands[1 - p]:
                return (f"the {them} siren still stands on her island: a siren on her own "
                        "island cannot be attacked")
            mine, theirs = self.rings[p], self.rings[1 - p]
            if mine <= theirs:
                same = "the same as yours" if mine == theirs else f"more than your {mine}"
                return (f"the {them} siren has {theirs} ring{'s' * (theirs != 1)}, {same}: "
                        "an attack needs strictly more")
            if not _placement_squares(g, o, self._open | g.bit[s]):
                return (f"there is no empty square next to {names[o]} (not an island) to "
                        "place the defeated siren on, so this attack is not possible")
        elif kind in "+-":
            st = board[a]
            if st is None:
                return f"there is no sailor on {names[a]}"
            if a not in g.n8set[s]:
                return f"the sailor on {names[a]} is not next to your siren ({names[s]})"
            if kind == "+":
                if self.rings[p] == 0:
                    return "your siren has no ring to give"
                if len(st) >= MAX_RINGS:
                    return f"a sailor holds at most {MAX_RINGS} rings"
            else:
                if not st:
                    return f"the sailor on {names[a]} carries no ring"
                if st[-1] != _RING[p]:
                    return (f"the top ring of the sailor on {names[a]} is {them}'s: you can "
                            "never take the opponent's ring")
                if self.rings[p] >= MAX_RINGS:
                    return f"a siren holds at most {MAX_RINGS} rings"
        else:  # "M"
            why = self._why_sailor(p, a, b)
            if why:
                return why
        if not self.over and self.actions_left >= 2:
            return (f"after {action} you would have no legal second action: a turn is two "
                    "actions (N6)")
        return None

    def _why_sailor(self, p: int, a: int, b: int) -> str | None:
        g = self._geo
        names, board = g.names, self.board
        st = board[a]
        them = _COLOUR[1 - p]
        if st is None:
            return f"there is no sailor on {names[a]}"
        if not st:
            return f"the sailor on {names[a]} carries no ring: nobody controls it"
        if st[-1] != _RING[p]:
            return f"that sailor is controlled by {them} (the owner of its top ring)"
        if b == g.islands[1 - p]:
            return "a sailor never enters the opponent's island"
        if b not in g.steps[p][a]:
            return (f"a sailor moves one square orthogonally towards your island "
                    f"({names[g.islands[p]]}); {names[b]} is not such a step")
        if b == g.islands[p] and self.sirens[p] == b:
            return (f"your siren still stands on your island {names[b]}: she must leave "
                    "before a sailor can score there")
        if b in self.sirens:
            return f"{names[b]} is not empty: a siren stands there"
        if board[b] is not None:
            return f"{names[b]} is not empty: a sailor stands there"
        return None

    def _why_unparsed(self, p: int, action: str) -> str:
        g = self._geo
        hint = ("write Sb2 (move your siren), Xc3 (attack), Pd4 (place the defeated siren), "
                "c3-c2 (move a sailor), +c3 (give a ring) or -c3 (take a ring)")
        text = action.strip() if isinstance(action, str) else ""
        squares = []
        if text[:1] in ("S", "X", "P", "+", "-"):
            squares = [text[1:]]
        elif "-" in text:
            squares = text.split("-", 1)
        for x in squares:
            rc = parse_square(x)
            if rc is not None and not (0 <= rc[0] < g.rows and 0 <= rc[1] < g.cols):
                return f"{x} is off the {g.rows}x{g.cols} board"
        if len(squares) == 2 and all(x in g.index for x in squares):
            a, b = g.index[squares[0]], g.index[squares[1]]
            why = self._why_sailor(p, a, b)
            if why:
                return why
            return "a sailor moves one orthogonal step towards its controller's island"
        return f"{action!r} is not a Canosa action: {hint}"

    # -- positions by hand (N17) --------------------------------------------------------
    def _load(self, pos: dict[str, Any]) -> None:
        g = self._geo
        rows, cols = g.rows, g.cols
        for key, want in (("rows", rows), ("cols", cols)):
            if key in pos and pos[key] != want:
                raise ValueError(f"the position's {key} {pos[key]!r} is not the layout's {want}")
        if "islands" in pos and [list(_pair(v, "island", rows, cols)) for v in pos["islands"]
                                 ] != [g.sq(i) for i in g.islands]:
            raise ValueError(f"the position's islands {pos['islands']!r} are not the "
                             f"layout's {[g.sq(i) for i in g.islands]}")
        sirens = pos.get("sirens")
        if not isinstance(sirens, list | tuple) or len(sirens) != 2:
            raise ValueError("sirens must be two entries {at, rings} (Gold's, then Silver's)")
        at = []
        for p, entry in enumerate(sirens):
            what = f"the {_COLOUR[p]} siren"
            if not isinstance(entry, dict) or "at" not in entry:
                raise ValueError(f"{what} must be {{'at': [r, c], 'rings': n}}")
            r, c = _pair(entry["at"], what, rows, cols)
            i = r * cols + c
            n = entry.get("rings", 0)
            if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_RINGS:
                raise ValueError(f"{what} holds 0 to {MAX_RINGS} rings, not {n!r}")
            if i == g.islands[1 - p]:
                raise ValueError(f"{what} cannot stand on the opponent's island")
            if "left" in entry and entry["left"] is not None and (
                    bool(entry["left"]) != (i != g.islands[p])):
                raise ValueError(f"{what}: 'left' must be true exactly when she is not on "
                                 "her island")
            at.append(i)
            self.rings[p] = n
        self.sirens = at
        board: list[str | None] = [None] * g.n
        sailors = pos.get("sailors", [])
        if not isinstance(sailors, list | tuple):
            raise ValueError("sailors must be a list")
        for k, entry in enumerate(sailors):
            what = f"sailor #{k + 1}"
            if isinstance(entry, dict):
                where, rings = entry.get("at"), entry.get("rings", [])
            elif isinstance(entry, list | tuple) and len(entry) == 2:
                where, rings = entry
            else:
                raise ValueError(f"{what} must be {{'at': [r, c], 'rings': [...]}}")
            r, c = _pair(where, what, rows, cols)
            i = r * cols + c
            if i in g.islands:
                raise ValueError(f"{what}: no sailor may stand on an island ({g.names[i]})")
            if board[i] is not None or i in at:
                raise ValueError(f"{what}: {g.names[i]} already holds a piece")
            board[i] = _rings(rings, what)
        self.board = board
        self._sync_masks()
        in_play = [self.rings[0], self.rings[1]]
        for st in board:
            if st:
                in_play[0] += st.count("0")
                in_play[1] += st.count("1")
        for colour in (GOLD, SILVER):
            if in_play[colour] > g.totals[colour]:
                raise ValueError(f"{in_play[colour]} {_COLOUR[colour].lower()} rings are in "
                                 f"play: this layout has only {g.totals[colour]}")
        out = pos.get("rings_out")
        if out is None:
            self.rings_out = [g.totals[0] - in_play[0], g.totals[1] - in_play[1]]
        else:
            if (not isinstance(out, list | tuple) or len(out) != 2
                    or [in_play[0] + out[0], in_play[1] + out[1]] != list(g.totals)):
                raise ValueError(f"rings_out {out!r}: rings in play {in_play} plus rings out "
                                 f"must be the layout's {list(g.totals)}")
            self.rings_out = list(out)
        scores = pos.get("scores", [0, 0])
        if (not isinstance(scores, list | tuple) or len(scores) != 2
                or not all(isinstance(v, int) and 0 <= v < TO_WIN for v in scores)):
            raise ValueError(f"scores must be two numbers 0..{TO_WIN - 1}, not {scores!r}")
        self.scores = list(scores)
        mover = pos.get("to_move")
        if isinstance(mover, list | tuple) and len(mover) == 1:
            mover = mover[0]
        if mover not in (GOLD, SILVER) or isinstance(mover, bool):
            raise ValueError(f"to_move must be [0] or [1], not {pos.get('to_move')!r}")
        self.player = mover
        turn = pos.get("turn", 0)
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 0:
            raise ValueError(f"turn must be a count of completed turns, not {turn!r}")
        cap = self.options["draw_cap"]
        if cap and turn >= cap:
            raise ValueError(f"turn {turn} is past the draw cap {cap}")
        self.turn = turn
        placing = pos.get("placing")
        left = pos.get("actions_left", 2)
        if placing is not None:
            if not isinstance(placing, dict) or "at" not in placing:
                raise ValueError("placing must be None or {'at': [r, c]}")
            r, c = _pair(placing["at"], "placing", rows, cols)
            i = r * cols + c
            if at[0] != i or at[1] != i:
                raise ValueError("while a defeated siren is being placed, both sirens stand "
                                 "on the contested square placing['at']")
            if self.rings[mover] <= self.rings[1 - mover]:
                raise ValueError("the attacker (to move) must hold more rings than the "
                                 "defeated siren")
            self.placing = i
            if not self._placements():
                raise ValueError("there is no square to place the defeated siren on")
            if left not in (0, 1):
                raise ValueError("while placing, actions_left is 0 or 1 (the attack counted)")
        else:
            if at[0] == at[1]:
                raise ValueError("the two sirens are on the same square")
            if left not in (1, 2):
                raise ValueError(f"actions_left must be 1 or 2, not {left!r}")
        self.actions_left = left
        trail = []
        for e in pos.get("last_turn") or []:
            try:
                f = _pair(e["from"], "last_turn", rows, cols)
                t = _pair(e["to"], "last_turn", rows, cols)
                trail.append((int(e["p"]), str(e["action"]), f[0] * cols + f[1],
                              t[0] * cols + t[1]))
            except (KeyError, TypeError) as exc:
                raise ValueError(f"last_turn entry {e!r} is not {{p, action, from, to}}"
                                 ) from exc
        self.trail = trail
        self._legal_memo = self._view_memo = None
        self._check_trapped(self.log)


def _names(table: Any, mask: int) -> list[Any]:
    """``table[i]`` for each set bit ``i`` of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(table[low.bit_length() - 1])
        mask ^= low
    return out


class _Texts(dict):
    """``table[i]`` for each set bit ``i`` of a mask, lowest first, as a tuple: a dict from
    masks, filled on first use (the masks of the squares around one square are few)."""

    def __init__(self, table: tuple[str, ...]) -> None:
        super().__init__()
        self.table = table

    def __missing__(self, mask: int) -> tuple[str, ...]:
        out = self[mask] = tuple(_names(self.table, mask))
        return out


def _placement_squares(g: _Geometry, c: int, open_: int) -> int:
    """Where a defeated siren may be placed (N4, N12, N13), as a mask: the squares next to
    the contested square ``c`` that are empty (``open_``: the squares with no piece once
    the attacker stands on ``c``; the square she left is empty) and not islands."""
    return g.n8freemask[c] & open_


def _n6_may_refuse(g: _Geometry, p: int, s: int, free: int, open_: int, moves: int) -> bool:
    """Can N6 refuse one of ``p``'s first actions (:meth:`CanosaState._legal` then tries
    the doubtful ones)? ``s``: her siren's square, ``free``: the squares she may step to,
    ``open_`` the squares with no piece, ``moves``: her sailor moves (the masks of
    :meth:`CanosaState._moves`). Only if at most one square is free (a sailor move may
    take it), or she stands on her island (she cannot step back) and may step into a dead
    end (:func:`_dead_ends`). Where it says no, a second action can follow every action:
    the rules code tries none."""
    if not free & (free - 1):
        return True
    return s == g.islands[p] and bool(_dead_ends(g, free, open_, moves))


def _dead_ends(g: _Geometry, free: int, open_: int, moves: int) -> int:
    """The squares of ``free`` (where her siren may step, from her island: she cannot step
    back) from which she might have no second action: no free square around it and no
    sailor move (``moves``, as lanes) ending on another square. From any other one she
    steps on, or moves that sailor."""
    ends = 0  # where her sailor moves end: the lanes folded onto one another
    moves >>= g.cols
    while moves:
        ends |= moves
        moves >>= g.n
    ends &= g.all
    n8freemask = g.n8freemask
    out = 0
    while free:
        low = free & -free
        free ^= low
        if not ends & ~low and not n8freemask[low.bit_length() - 1] & open_:
            out |= low
    return out
