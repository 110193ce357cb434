"""Electors (選帝侯, Higando Works 2016): 2-4 prince-electors choose a king among four
candidates.

Rules: ``shared/rules/electors.md`` (section numbers §n and decisions §11.n refer to it).
Seat ``i`` plays colour ``"RBGY"[i]``; with option ``two_player_variant`` and 2 players
seat 0 plays R and G, seat 1 B and Y (both its "own colour"). The start player is drawn
from the seed (§11.24); play goes clockwise (seat order).

Cards and ids
-------------
* Kingdom cards ``kR3`` (crest colour, value); elector number cards ``B5``; specials
  ``Rs`` (Backroom Scheming), ``Rb`` (Bribery), ``Rj`` (Jester). An acquired card that a
  Change of Heart recoloured is written ``G7>R`` (printed Green 7, counts as Red).
* Influence cards: ``PR`` Power, ``XR`` Corruption, ``MR`` Manor, ``DR`` Domain (one per
  colour), ``H1``..``H3`` Change of Heart; the 21-card set adds ``M?`` (a Manor of any
  colour, cost [?, ?]) and ``H4``.
* Cells: column letter and row number from the top (``b2``).

Actions
-------
=================  =============================================================================
``b2``             A: choose that cell (phase ``turn``)
``draw``           B: draw ``draw_B`` cards (all that are left if fewer)
``pass``           hand and deck both empty (or nothing to choose and no deck): no A/B
``=R3`` ``=R4X``   ① match the pending number card with that hand card; one ``P`` (Power) or
``=kY2PP``         ``X`` (Corruption) per influence card applied (phase ``number``)
``take``           ② take the pending card into the hand
``v:R3``           put that hand card face down into the pending cell (phase ``place``)
``$PR:R5,R7``      C: buy that market card paying exactly those acquired cards (each
                   distinct payment listed once, its cards in sorted order); then phase
                   ``cube`` (unless the supply is empty)
``c:G``            the bought card's cube goes to candidate G (phase ``cube``)
``t:B3``           Bribery's owner takes that acquired card of the flipper (phase ``bribe``)
``hG7>R``          Change of Heart: that acquired card counts as R from now on
``end``            end the turn (phase ``after``: the A/B action is done)
``pr:R3,R3``       final scoring: reveal that pair from the hand (phase ``pairs``)
``done``           end one's pair reveal (``pairs``) or Change of Heart use (``hearts``)
=================  =============================================================================

C and Change of Heart are offered in the phases ``turn``, ``number`` and ``after`` of the
active player's turn (not while a card is being put back, a cube placed or a Bribery
answered); Change of Heart also in the scoring phase ``hearts``.

A Power/Corruption reveal uses either kind as needed; a combination is listed only if no
smaller one (fewer cards of each kind) reaches the same number with the same card, so
e.g. Power with Corruption at the default ±1 (no change at all) is never offered.

View (``state.view(seat)``; ``None`` = spectator)
--------------------------------------------------
``game``, ``options`` (resolved), ``you``, ``players``, ``colours`` (per seat ``"R"`` or
``"RG"``), ``start``, ``active``, ``round``, ``phase`` (turn | number | place | cube | bribe
| after | pairs | hearts | over), ``grid`` (rows of cells: None, ``{"up": True, "c"}`` or
``{"up": False, "back": "k" | colour | "?", "c" only where the viewer may see it}``),
``cubes`` ({colour: n}), ``supply``, ``market``, ``influence_deck`` (count), ``acquired``
(per seat), ``influence`` (per seat ``[{"id", "used", "spent" (hearts)}]``), ``hand`` (own,
sorted; None for a spectator), ``hand_counts``, ``deck_counts``, ``burnt`` (per seat, cards
Backroom Scheming removed), ``bought``, ``pending`` (``{"cell", "c"}`` in phase number;
``{"cell", "c": None, "taken"?}`` in phase place), ``bribe`` (``{"owner", "from"}``),
``trigger`` (None or ``{"p", "last_turn", "safety", "last"}``: ``last`` when the turn
under way is the game's last), ``resume`` (in phase cube: the phase the turn returns to),
``final`` (None; ``{"rows",
"ranks"}`` once rows are scored; then ``"scores"`` and ``"places"``), ``to_move``,
``outcome``.

Events (``{"t": kind, ...}``; [fields] only for the seats that may see them)
-------------------------------------------------------------------------------
``start`` p; ``deal`` p, n, [cards]; ``turn`` p, round; ``choose`` p, cell, c; ``trap`` p,
cell, c, owner, own; ``scheme`` p, n; ``bribe`` p (owner), from, c (None: nothing to take)
or, for ``owner_takes_random_hand_card``, back and [c] (owner and flipper); ``jester`` p,
cell, cells, cards; ``match`` p, cell, c, with, mods; ``take`` p, cell, c; ``put`` p, cell,
back, [c]; ``decktop`` p, cell, back, [c]; ``draw`` p, n, [cards]; ``buy`` p, card, paid,
refill; ``cube`` p, colour; ``heart`` p, c, as; ``pass`` p; ``end`` p; ``trigger`` p,
last_turn, safety; ``pairs`` p, cards; ``row`` row, colour, counts; ``rank`` ranks;
``score`` p, rank1, rank2, rank3, rank4, manor, domain, hand, total; ``over`` places.
A ``put``/``decktop`` face is shown to its placer and to the seat of the card's colour.

>>> s = ElectorsGame().new_game(seed=1, players=3)
>>> v = s.view(0)
>>> v["phase"], len(v["grid"]), len(v["grid"][0]), v["hand_counts"], v["deck_counts"]
('turn', 4, 5, [5, 5, 5], [12, 12, 12])
>>> p = s.to_move()[0]
>>> s.legal_actions(p)[:3], "draw" in s.legal_actions(p)
(['a1', 'b1', 'c1'], True)
"""

from __future__ import annotations

import marshal
from bisect import bisect_left, insort
from functools import lru_cache
from itertools import combinations
from typing import Any, ClassVar

from .core import Game, Rng, State, private_event

COLOURS = "RBGY"
_CI = {c: i for i, c in enumerate(COLOURS)}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
SPECIALS = "sbj"
SPECIAL_NAMES = {"s": "Backroom Scheming", "b": "Bribery", "j": "Jester"}
INFLUENCE_NAMES = {"P": "Power", "X": "Corruption", "M": "Manor", "D": "Domain",
                   "H": "Change of Heart"}
PHASES = ("turn", "number", "place", "cube", "bribe", "after", "pairs", "hearts", "over")
#: Phases of the active player's turn where C and Change of Heart may be used.
FREE_PHASES = frozenset({"turn", "number", "after"})


def influence_set(name: str) -> list[str]:
    """The influence cards of a set (§6; §9 ``influence_set``), in a fixed order.

    >>> len(influence_set("19")), len(influence_set("21")), influence_set("21")[-2:]
    (19, 21, ['M?', 'H4'])
    """
    cards = [k + c for k in "PXMD" for c in COLOURS] + ["H1", "H2", "H3"]
    if name == "21":
        cards += ["M?", "H4"]
    return cards


def influence_cost(i: str) -> tuple[str, ...]:
    """Cost marks: a colour letter or ``?``.

    >>> influence_cost("DR"), influence_cost("PB"), influence_cost("H2"), influence_cost("M?")
    (('R', 'R', '?'), ('B', '?'), ('?', '?'), ('?', '?'))
    """
    col = i[1] if len(i) > 1 and i[1] in _CI else None
    if i[0] == "H" or col is None:
        return ("?", "?")
    if i[0] == "D":
        return (col, col, "?")
    return (col, "?")


# -- card codes ------------------------------------------------------------------------
def printed(code: str) -> str:
    """The printed card of an acquired code (``G7>R`` → ``G7``)."""
    return code.split(">", 1)[0]


def colour_of(code: str) -> str:
    """The printed colour (crest or elector colour) of a card code."""
    return code[1] if code[0] == "k" else code[0]


def counts_as(code: str) -> str:
    """The colour an acquired card counts as (its recolour, else its printed colour)."""
    if ">" in code:
        return code[-1]
    return colour_of(code)


def number_of(code: str) -> int | None:
    """A card's printed number (None for a special)."""
    try:
        return _NUMBERS[code]
    except KeyError:
        pass
    base = printed(code)
    tail = base[2:] if base[0] == "k" else base[1:]
    n = _NUMBERS[code] = int(tail) if tail.isdigit() else None
    return n


#: number_of's answers (every plain code a game can hold, filled in at import).
_NUMBERS: dict[str, int | None] = {}


@lru_cache(maxsize=64)
def cell_names(cols: int, rows: int) -> tuple[str, ...]:
    """Every cell's name in row-major order (``a1 b1 … a2 …``)."""
    return tuple(f"{LETTERS[i % cols]}{i // cols + 1}" for i in range(cols * rows))


@lru_cache(maxsize=4096)
def _open_cells(cells: int, blocked: tuple[int, ...]) -> tuple[int, ...]:
    """The cells A may choose, given those it never can again (sorted)."""
    return tuple(i for i in range(cells) if i not in blocked)


@lru_cache(maxsize=4096)
def _open_names(cols: int, rows: int, blocked: tuple[int, ...]) -> tuple[str, ...]:
    names = cell_names(cols, rows)
    return tuple(names[i] for i in _open_cells(cols * rows, blocked))


@lru_cache(maxsize=64)
def _cell_indices(cols: int, rows: int) -> dict[str, int]:
    return {name: i for i, name in enumerate(cell_names(cols, rows))}


def is_kingdom(code: str) -> bool:
    return code[0] == "k"


def is_special(code: str) -> bool:
    return code[0] != "k" and code[1] in SPECIALS


def card_words(code: str) -> str:
    """A card in English words (for messages)."""
    names = {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow"}
    base = printed(code)
    col = names[colour_of(base)]
    if is_kingdom(base):
        text = f"{col} {number_of(base)} (kingdom)"
    elif is_special(base):
        text = f"{col} {SPECIAL_NAMES[base[1]]}"
    else:
        text = f"{col} {number_of(base)}"
    if ">" in code:
        text += f" (counts as {names[code[-1]]})"
    return text


def influence_words(i: str) -> str:
    names = {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow", "?": "any colour"}
    if i[0] == "H":
        return "Change of Heart"
    return f"{INFLUENCE_NAMES.get(i[0], i)} ({names.get(i[1:], i[1:])})"


@lru_cache(maxsize=16384)
def _payments(cost: tuple[str, ...], acquired: tuple[str, ...]) -> tuple[str, ...]:
    """Each distinct multiset of acquired cards (sorted ``acquired``) that pays ``cost``,
    as the text of a buy action's payment (cards sorted, comma-separated)."""
    k = len(cost)
    if len(acquired) < k:
        return ()
    marks = [m for m in cost if m != "?"]
    need = len(marks)
    col = marks[0] if marks else ""
    if need and sum(1 for c in acquired if counts_as(c) == col) < need:
        return ()  # not enough cards of the colour
    out: dict[tuple[str, ...], None] = {}
    for combo in combinations(acquired, k):
        if combo in out:
            continue
        if need and sum(1 for c in combo if counts_as(c) == col) < need:
            continue
        out[combo] = None
    return tuple(",".join(c) for c in out)


_COSTS = {i: influence_cost(i) for i in influence_set("21")}
#: Each influence card's cost as an index into :func:`_payment_counts`' list: 0 for
#: ``(?, ?)``, 1 + colour for ``(col, ?)``, 5 + colour for ``(col, col, ?)``.
_COST_SLOT = {i: 0 if cost[0] == "?" else (1 if len(cost) == 2 else 5) + _CI[cost[0]]
              for i, cost in _COSTS.items()}
for _c in COLOURS:
    for _k in range(1, 13):
        number_of(f"{_c}{_k}")
        number_of(f"k{_c}{_k}")
    for _s in SPECIALS:
        number_of(f"{_c}{_s}")


@lru_cache(maxsize=16384)
def _payment_counts(acquired: tuple[str, ...]) -> tuple[list[int], int]:
    """``len(_payments(cost, acquired))`` for each cost (by :data:`_COST_SLOT`), counted
    rather than listed (search's playouts mostly need only how many), and how many
    distinct codes ``acquired`` (sorted) holds.

    A payment is a distinct sub-multiset of the acquired cards. Split them into the
    cards counting as the cost's colour and the rest: a payment is a sub-multiset of
    each, and the number of distinct sub-multisets of size ``j`` of a multiset with
    ``d`` distinct codes, ``m2`` of them at least twice and ``m3`` at least three times,
    is ``f(0) = 1``, ``f(1) = d``, ``f(2) = C(d, 2) + m2`` (two different, or one twice)
    and ``f(3) = C(d, 3) + m2 (d - 1) + m3``. So ``(col, ?)`` has ``fc(1) fo(1) + fc(2)``
    payments, ``(col, col, ?)`` ``fc(2) fo(1) + fc(3)`` and ``(?, ?)`` ``f(2)``."""
    stats: dict[str, list[int]] = {}  # per colour counted as: d, m2, m3
    st: list[int] = []  # the current code's colour's
    d = m2 = run = 0
    prev = ""
    for code in acquired:  # sorted: copies are neighbours
        if code == prev:
            run += 1
            if run == 2:
                st[1] += 1
                m2 += 1
            elif run == 3:
                st[2] += 1
            continue
        prev, run, d = code, 1, d + 1
        col = code[-1] if ">" in code else code[1] if code[0] == "k" else code[0]  # counts_as
        st = stats.setdefault(col, [0, 0, 0])
        st[0] += 1
    by_cost = [d * (d - 1) // 2 + m2, 0, 0, 0, 0, 0, 0, 0, 0]  # no card of a colour: 0
    for col, (dc, m2c, m3c) in stats.items():
        f2 = dc * (dc - 1) // 2 + m2c
        by_cost[1 + _CI[col]] = dc * (d - dc) + f2
        by_cost[5 + _CI[col]] = f2 * (d - dc) + dc * (dc - 1) * (dc - 2) // 6 \
            + m2c * (dc - 1) + m3c
    return by_cost, d


def _payment(cost: tuple[str, ...], acquired: tuple[str, ...], j: int) -> str:
    """``_payments(cost, acquired)[j]`` (``acquired`` sorted), found by counting instead
    of listing: search's playouts buy with one drawn payment.

    The payments are the distinct sorted multisets of ``len(cost)`` cards, in sorted
    order. So the first card is the first code whose payments (those starting with it)
    reach past ``j`` once the earlier codes' are counted off, and so on for each card;
    the ways to go on (at most two cards left to choose) are counted as in
    :func:`_payment_counts`."""
    col = cost[0]
    need = len(cost) - 1 if col != "?" else 0  # cards that must count as col
    codes: list[str] = []
    mult: list[int] = []
    hit: list[bool] = []  # whether the code counts as col
    for c in acquired:  # sorted: copies are neighbours
        if codes and codes[-1] == c:
            mult[-1] += 1
        else:
            codes.append(c)
            mult.append(1)
            hit.append(col == (c[-1] if ">" in c else c[1] if c[0] == "k" else c[0]))
    d = len(codes)
    # after[a]: among codes[a:], the distinct ones counting as col and those twice or
    # more, then the same of the rest
    after = [(0, 0, 0, 0)] * (d + 1)
    for a in range(d - 1, -1, -1):
        dh, th, dn, tn = after[a + 1]
        two = mult[a] > 1
        after[a] = (dh + 1, th + two, dn, tn) if hit[a] else (dh, th, dn + 1, tn + two)
    picked: list[str] = []
    start = 0
    for room in range(len(cost) - 1, -1, -1):  # cards to choose after this one
        for a in range(start, d):
            left = mult[a] - 1
            if left < 0:
                continue
            dh, th, dn, tn = after[a + 1]
            if left:  # another copy of codes[a] may follow
                if hit[a]:
                    dh, th = dh + 1, th + (left > 1)
                else:
                    dn, tn = dn + 1, tn + (left > 1)
            still = need - hit[a] if need > hit[a] else 0
            # the ways to choose room more cards, still of them counting as col
            if room == 0:
                n = 0 if still else 1
            elif room == 1:
                n = (dh if still < 2 else 0) + (0 if still else dn)
            else:
                n = dh * (dh - 1) // 2 + th + (dh * dn if still < 2 else 0) + (
                    0 if still else dn * (dn - 1) // 2 + tn)
            if j < n:
                picked.append(codes[a])
                mult[a], need, start = left, still, a
                break
            j -= n
    return ",".join(picked)


@lru_cache(maxsize=4096)
def _mod_combos(diff: int, np: int, nx: int, pd: int, cd: int) -> tuple[str, ...]:
    """The modifier strings (``P`` per Power, ``X`` per Corruption) that change a number by
    ``diff`` with at most ``np`` Powers and ``nx`` Corruptions, leaving out any for which
    fewer cards of each kind do the same."""
    ok = [(a, b) for a in range(np + 1) for b in range(nx + 1) if a * pd + b * cd == diff]
    return tuple("P" * a + "X" * b for a, b in ok
                 if not any((a2, b2) != (a, b) and a2 <= a and b2 <= b for a2, b2 in ok))


@lru_cache(maxsize=4096)
def _reachable(target: int, np: int, nx: int, pd: int, cd: int) -> dict[int, tuple[str, ...]]:
    """The numbers a card may have to match ``target`` with at most ``np`` Powers and
    ``nx`` Corruptions, each with its modifier strings (:func:`_mod_combos`; ``""``: as it
    is): one look-up per card instead of one :func:`_mod_combos` call."""
    out = {}
    for n in range(target - np * pd, target - nx * cd + 1):  # pd > 0 > cd
        mods = _mod_combos(target - n, np, nx, pd, cd)
        if mods:
            out[n] = mods
    return out


def _label(en: str, ja: str) -> dict[str, str]:
    return {"en": en, "ja": ja}


def _labels(label: tuple[str, str], values: dict[Any, tuple[str, str]]
            ) -> dict[Any, dict[str, str]]:
    """An option's labels, each value under itself and under its text (the lobby looks
    values up by ``str(value)``)."""
    out: dict[Any, dict[str, str]] = {"label": _label(*label)}
    for value, words in values.items():
        out[value] = _label(*words)
        out[str(value)] = _label(*words)
    return out


class ElectorsGame(Game):
    """Electors for 2-4 players; every §9 parameter is an option with the spec's default."""

    id: ClassVar[str] = "electors"
    names: ClassVar[dict[str, str]] = {"en": "Electors", "ja": "選帝侯"}
    min_players = 2
    max_players = 4
    option_schema: ClassVar[dict[str, dict[str, Any]]] = {
        "grid_cols": {"values": [5, 4], "default": 5},
        "grid_rows": {"values": [4, 3], "default": 4},
        "hand_start": {"values": [5, 4], "default": 5},
        "draw_B": {"values": [3, 2], "default": 3},
        "market_size": {"values": [3, 4], "default": 3},
        "cube_supply": {"values": [23, 15], "default": 23},
        "kingdom_values": {"values": [5, 6], "default": 5},
        "elector_numbers": {"values": [7, 6], "default": 7},
        "specials_per_colour": {"values": [1, 2], "default": 1},
        "scheming_burn": {"values": [2, 3], "default": 2},
        "bribery_mode": {"values": ["owner_takes_acquired", "owner_takes_random_hand_card"],
                         "default": "owner_takes_acquired"},
        "jester_scope": {"values": ["row", "column", "adjacent"], "default": "row"},
        "influence_set": {"values": ["19", "21"], "default": "19"},
        "card_backs": {"values": ["colour", "plain"], "default": "colour"},
        "placer_memory": {"values": [True, False], "default": True},
        "round_limit": {"values": [30, 10], "default": 30},
        "power_delta": {"values": [1, 2], "default": 1},
        "corruption_delta": {"values": [-1, -2], "default": -1},
        "manor_vp": {"values": [2, 3], "default": 2},
        "domain_vp": {"values": [3, 4], "default": 3},
        "two_player_variant": {"values": [False, True], "default": False},
    }
    option_labels: ClassVar[dict[str, dict[Any, dict[str, str]]]] = {
        "grid_cols": _labels(("Kingdom grid columns", "王国の列数"), {
            5: ("5 (as the rules)", "5列（ルール通り）"), 4: ("4", "4列")}),
        "grid_rows": _labels(("Kingdom grid rows", "王国の行数"), {
            4: ("4 (as the rules)", "4行（ルール通り）"), 3: ("3", "3行")}),
        "hand_start": _labels(("Starting hand", "初期手札"), {
            5: ("5 cards (as the rules)", "5枚（ルール通り）"), 4: ("4 cards", "4枚")}),
        "draw_B": _labels(("Cards drawn by B", "Bで引く枚数"), {
            3: ("3 (as the rules)", "3枚（ルール通り）"), 2: ("2", "2枚")}),
        "market_size": _labels(("Market size", "マーケットの枚数"), {
            3: ("3 cards (as the rules)", "3枚（ルール通り）"), 4: ("4 cards", "4枚")}),
        "cube_supply": _labels(("Cubes", "キューブの数"), {
            23: ("23 (as the rules)", "23個（ルール通り）"), 15: ("15", "15個")}),
        "kingdom_values": _labels(("Kingdom card values", "王国カードの数字"), {
            5: ("1–5 per colour", "各色1〜5"), 6: ("1–6 per colour (extras stay in the box)",
                                                    "各色1〜6（余りは箱に）")}),
        "elector_numbers": _labels(("Elector numbers", "選帝侯カードの数字"), {
            7: ("1–7, twice each", "1〜7を2枚ずつ"), 6: ("1–6, twice each", "1〜6を2枚ずつ")}),
        "specials_per_colour": _labels(("Specials per colour", "各色の特殊カード"), {
            1: ("One of each", "各1枚"), 2: ("Two of each", "各2枚")}),
        "scheming_burn": _labels(("Backroom Scheming removes", "裏工作で除外する枚数"), {
            2: ("2 cards", "2枚"), 3: ("3 cards", "3枚")}),
        "bribery_mode": _labels(("Bribery", "買収"), {
            "owner_takes_acquired": ("Owner takes an acquired card",
                                     "持ち主が獲得カードを1枚取る"),
            "owner_takes_random_hand_card": ("Owner takes a random hand card",
                                             "持ち主が手札を無作為に1枚取る")}),
        "jester_scope": _labels(("Jester turns up", "道化が表にする範囲"), {
            "row": ("Its row", "同じ行"), "column": ("Its column", "同じ列"),
            "adjacent": ("Its 4 neighbours", "上下左右")}),
        "influence_set": _labels(("Influence cards", "影響力カード"), {
            "19": ("19 cards", "19枚"), "21": ("21 cards", "21枚")}),
        "card_backs": _labels(("Card backs", "カードの裏"), {
            "colour": ("Show the colour", "色が分かる"), "plain": ("Plain", "無地")}),
        "placer_memory": _labels(("Remember cards you put down", "置いたカードを覚えている"), {
            True: ("Yes", "はい"), False: ("No (strict)", "いいえ（厳密）")}),
        "round_limit": _labels(("Round limit", "ラウンド上限"), {
            30: ("30 rounds", "30ラウンド"), 10: ("10 rounds", "10ラウンド")}),
        "power_delta": _labels(("Power", "権力"), {1: ("+1", "+1"), 2: ("+2", "+2")}),
        "corruption_delta": _labels(("Corruption", "堕落"), {-1: ("−1", "−1"), -2: ("−2", "−2")}),
        "manor_vp": _labels(("Manor points", "荘園の得点"), {
            2: ("2", "2点"), 3: ("3", "3点")}),
        "domain_vp": _labels(("Domain points", "領地の得点"), {
            3: ("3", "3点"), 4: ("4", "4点")}),
        "two_player_variant": _labels(("Two colours each (2 players)", "2人で2色ずつ"), {
            False: ("No", "いいえ"), True: ("Yes", "はい")}),
    }
    #: An iteration is a cut playout (:attr:`playout_depth`) judged by the projected score.
    search_iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 300, "strong": 1000}
    #: Random games run 200-400 actions (past search's 400-action cap from the start), so a
    #: playout plays a few turns each and :meth:`ElectorsState.estimate` judges the rest.
    playout_depth: ClassVar[int] = 48
    #: The others' choices (what they match, take and put back) hang on hands the searcher
    #: cannot see: played at random, as in the playouts.
    search_opponents = False

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> ElectorsState:
        return ElectorsState(self, seed, players, options)

    def forced_is_secret(self, seat: int, view: dict[str, Any]) -> bool:
        """True where the legal actions hang on the seat's hand while the question came by
        public information: a chosen number card (whether any hand card matches it), the
        put-back (which distinct cards the hand holds) and the pair reveal (every seat
        holding two cards or more is asked, pair or not)."""
        return view.get("phase") in ("number", "place", "pairs") and view.get("active") == seat

    def from_position(self, position: dict[str, Any], *,
                      options: dict[str, Any] | None = None) -> ElectorsState:
        """A state from a hand-made position (tests, embeds, rules pages): a view
        (``state.view(seat)``) with what it hides filled in, or a short form.

        Keys (all optional unless said):

        * ``players`` (else from ``colours``/``hand_counts``/``hands``; default 3).
        * ``options`` (a view's): used when ``options`` is not given.
        * ``grid``: rows of cells (``grid_rows`` × ``grid_cols``): None (empty), a code
          (face down, placed by nobody: ``"kR3"``), or ``{"c", "up" (False), "placer"
          (seat or None)}``; a view's face-down cell without ``"c"`` is filled at random
          with a card its ``back`` allows. Default: a random deal of kingdom cards.
        * ``hands`` (per seat a list of codes), or a view's ``hand`` (seat ``you``'s):
          hands not given are drawn at random from the cards nowhere else (at the size of
          ``hand_counts``, default ``hand_start``).
        * ``decks`` (per seat, bottom first, the last is the top): default the seat's own
          cards found nowhere else, shuffled (``deck_counts`` if given must match).
        * ``burnt``: per seat, how many (or which) own cards Backroom Scheming removed.
        * ``acquired`` (per seat), ``influence`` (per seat: ids or ``{"id", "used",
          "spent"}``), ``market``, ``influence_deck`` (a list of ids, top last; or a count,
          checked), ``cubes`` ({colour: n}), ``supply`` (default ``cube_supply`` less the
          cubes), ``start``, ``active``, ``round``, ``phase`` (turn, number, place, after,
          cube, bribe), ``bought``, ``pending``, ``bribe``, ``trigger`` (``{"p",
          "last_turn", "safety", "at"?}``), ``turn_no``, ``seed``, ``cube_return``.

        Checked (``ValueError`` saying what is wrong): card codes, no card more often than
        the game holds, elector cards only of colours in play, decks only of their seat's
        colours, specials never face up in a hand's place, a phase's needs (a pending cell
        for number and place, the chosen card face up in it for number). The state has an
        empty record."""
        return _load_position(self, position, options)

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> ElectorsState:
        """A state ``seat`` cannot tell from the real one, from ``view`` and ``events`` only.

        Kept: everything public, the seat's hand and every face it sees. Sampled with
        ``rng``: the face-down faces it cannot see (each as its back allows; with plain
        backs never one of its own colours, which it would see), the other hands (with
        the cards the events prove are still in them: a card taken by ②, or given by a
        Bribery this seat saw, until a card that may be it leaves), every deck's order and
        the cards Backroom Scheming removed (own colours), the box's kingdom cards and the
        influence deck's order."""
        return _determinize(self, seat, view, events, rng)


# -- the state ---------------------------------------------------------------------------
Cell = tuple[str, bool, int]  # (code, face up, placer seat or -1)


class ElectorsState(State):
    """An Electors game in progress. Every field is plain data.

    ``grid`` is flat (row-major, ``cols`` × ``rows``), each cell None or ``(code, up,
    placer)`` (a tuple, replaced, never changed). Decks are lists whose last card is the
    top. ``infl[p]`` holds ``(id, used this turn, spent)`` tuples in buying order.
    ``pend`` is ``(cell index, code or None, taken code or None)``; ``trigger`` is
    ``(p, last_turn, safety, turn number when it fired)``. ``apply`` and ``apply_fast``
    both run :meth:`_apply`; a fast copy is ``quiet`` (no events)."""

    quiet = False

    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any],
                 *, deal: bool = True) -> None:
        super().__init__(game, seed, players, options)
        self._configure(players, options)
        if deal:
            self._deal(seed)

    def _configure(self, n: int, o: dict[str, Any]) -> None:
        self.cols_n = o["grid_cols"]
        self.rows_n = o["grid_rows"]
        if o["two_player_variant"] and n == 2:
            self.colours = ["RG", "BY"]
        else:
            self.colours = [COLOURS[i] for i in range(n)]
        self.owner = {c: p for p, cs in enumerate(self.colours) for c in cs}
        self.draw_n = o["draw_B"]
        self.burn = o["scheming_burn"]
        self.brib_hand = o["bribery_mode"] == "owner_takes_random_hand_card"
        self.jscope = o["jester_scope"]
        self.backs = o["card_backs"] == "colour"
        self.memory = o["placer_memory"]
        self.rlimit = o["round_limit"]
        self.pd = o["power_delta"]
        self.cd = o["corruption_delta"]
        self.rng = Rng(0)
        self.grid: list[Cell | None] = [None] * (self.cols_n * self.rows_n)
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.decks: list[list[str]] = [[] for _ in range(n)]
        self.acq: list[list[str]] = [[] for _ in range(n)]
        self.burnt: list[list[str]] = [[] for _ in range(n)]
        self.infl: list[list[tuple[str, bool, bool]]] = [[] for _ in range(n)]
        self.hearts_left = [0] * n  # unspent Change of Heart cards per seat
        #: Cells A can never choose again: face-up specials and cells left empty for good.
        self.blocked: tuple[int, ...] = ()
        self.used_any = False  # whether some influence card is marked used this turn
        self.box: list[str] = []
        self.market: list[str] = []
        self.ideck: list[str] = []
        self.cubes = [0, 0, 0, 0]
        self.supply = o["cube_supply"]
        self.start = 0
        self.active = 0
        self.mover = 0
        self.rnd = 1
        self.turn_no = 0
        self.phase = "turn"
        self.bought = False
        self.pend: tuple[int, str | None, str | None] | None = None
        self.cube_ret = "turn"
        self.bribe: tuple[int, int] | None = None
        self.trigger: tuple[int, int, bool, int] | None = None
        self.order_i = 0
        self.revealed = 0
        self.final: dict[str, Any] | None = None
        self.places: list[int] | None = None
        self.totals: list[int] | None = None

    def own_cards(self, p: int) -> list[str]:
        """Every elector card of seat ``p``'s colour(s) (its starting deck, unshuffled)."""
        o = self.options
        out = []
        for c in self.colours[p]:
            out += [f"{c}{k}" for k in range(1, o["elector_numbers"] + 1) for _ in (0, 1)]
            out += [f"{c}{s}" for s in SPECIALS for _ in range(o["specials_per_colour"])]
        return out

    def kingdom_cards(self) -> list[str]:
        return [f"k{c}{v}" for c in COLOURS for v in range(1, self.options["kingdom_values"] + 1)]

    def _deal(self, seed: int) -> None:
        n = self.players
        rng = self.rng = Rng(seed)
        self.start = rng.randbelow(n)
        kingdom = self.kingdom_cards()
        rng.shuffle(kingdom)
        cells = len(self.grid)
        self.grid = [(kingdom[i], False, -1) for i in range(cells)]
        self.box = sorted(kingdom[cells:])
        ideck = influence_set(self.options["influence_set"])
        rng.shuffle(ideck)
        self.ideck = ideck
        for _ in range(self.options["market_size"]):
            if ideck:
                self.market.append(ideck.pop())
        if not self.quiet:
            self._ev({"t": "start", "p": self.start})
        for p in range(n):
            deck = self.own_cards(p)
            rng.shuffle(deck)
            self.decks[p] = deck
            k = min(self.options["hand_start"], len(deck))
            cards = deck[len(deck) - k:][::-1]
            del deck[len(deck) - k:]
            self.hands[p] = sorted(cards)
            if not self.quiet:
                self._ev(private_event({"t": "deal", "p": p, "n": k, "cards": sorted(cards)},
                                       [p], ["cards"]))
        self.rnd = 1
        self._start_turn(self.start)

    # -- protocol -----------------------------------------------------------------------
    def to_move(self) -> list[int]:
        return [] if self.phase == "over" else [self.mover]

    def legal_actions(self, player: int) -> list[str]:
        if self.phase == "over" or player != self.mover:
            return []
        return self._legal()

    def sheet_group(self) -> str | None:
        if self.phase in ("pairs", "hearts", "over"):
            return "Final scoring"
        return f"Round {self.rnd}"

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> dict[str, Any] | None:
        if self.phase != "over" or self.places is None or self.totals is None:
            return None
        return {"winners": [p for p in range(self.players) if self.places[p] == 1],
                "ranks": list(self.places), "scores": list(self.totals), "reason": "score"}

    def _ev(self, event: dict[str, Any]) -> None:
        if not self.quiet:
            self.log.append(event)

    def clone(self) -> ElectorsState:
        """An independent copy (every field is plain data: marshal copies it in C)."""
        twin = object.__new__(type(self))
        fields = {k: v for k, v in vars(self).items() if k not in ("game", "rng", "options")}
        twin.__dict__.update(marshal.loads(marshal.dumps(fields)))
        twin.game = self.game
        twin.options = dict(self.options)
        twin.rng = Rng(0)
        twin.rng._state = self.rng._state
        return twin

    def hidden_twin(self, viewer: int | None) -> ElectorsState | None:
        """The same game with what ``viewer`` cannot see changed: every deck reversed and
        the influence deck too, each other seat's first hand card swapped with a
        different card of its deck, and two face-down cards the viewer cannot see (with
        the same back) swapped."""
        twin = self.clone_fast()
        twin.quiet = self.quiet
        twin.log = list(self.log)  # the same events, already redacted: share the cache
        twin._actions = [list(a) for a in self._actions]
        try:
            twin._redacted = {k: list(v) for k, v in self._redacted.items()}
        except AttributeError:
            pass
        for p in range(self.players):
            twin.decks[p].reverse()
            if p == viewer:
                continue
            hand, deck = twin.hands[p], twin.decks[p]
            if hand:
                k = next((k for k, d in enumerate(deck) if d != hand[0]), None)
                if k is not None:
                    hand[0], deck[k] = deck[k], hand[0]
                    hand.sort()
        twin.ideck.reverse()
        seen: dict[str, int] = {}
        for i, cell in enumerate(twin.grid):
            if cell is None or cell[1] or self._sees(viewer, cell):
                continue
            back = self._back(cell[0])
            j = seen.get(back)
            if j is None:
                seen[back] = i
                continue
            other = twin.grid[j]
            assert other is not None
            if other[0] != cell[0]:
                twin.grid[j] = (cell[0], False, other[2])
                twin.grid[i] = (other[0], False, cell[2])
                break
        return twin

    # -- what a seat sees ------------------------------------------------------------------
    def _back(self, code: str) -> str:
        if not self.backs:
            return "?"
        return "k" if code[0] == "k" else code[0]

    def _sees(self, viewer: int | None, cell: Cell) -> bool:
        """Whether ``viewer`` may look at this face-down card: its own colour, or (with
        ``placer_memory``) a card it put there."""
        if viewer is None:
            return False
        code = cell[0]
        if code[0] != "k" and code[0] in self.colours[viewer]:
            return True
        return self.memory and cell[2] == viewer

    def view(self, player: int | None) -> dict[str, Any]:
        n = self.players
        W = self.cols_n
        grid = []
        for r in range(self.rows_n):
            row: list[dict[str, Any] | None] = []
            for c in range(W):
                cell = self.grid[r * W + c]
                if cell is None:
                    row.append(None)
                elif cell[1]:
                    row.append({"up": True, "c": cell[0]})
                else:
                    d: dict[str, Any] = {"up": False, "back": self._back(cell[0])}
                    if self._sees(player, cell):
                        d["c"] = cell[0]
                    row.append(d)
            grid.append(row)
        pending = None
        if self.pend is not None:
            i, code, taken = self.pend
            pending = {"cell": self.cell_name(i), "c": code}
            if taken is not None:
                pending["taken"] = taken
        influence = []
        for items in self.infl:
            out = []
            for ident, used, spent in items:
                d = {"id": ident, "used": used}
                if ident[0] == "H":
                    d["spent"] = spent
                out.append(d)
            influence.append(out)
        trig = None
        if self.trigger is not None:
            trig = {"p": self.trigger[0], "last_turn": self.trigger[1],
                    "safety": self.trigger[2],
                    "last": self.trigger[1] == self.active and self.turn_no > self.trigger[3]}
        return {
            "game": "electors", "options": dict(self.options), "you": player, "players": n,
            "colours": list(self.colours), "start": self.start, "active": self.active,
            "round": self.rnd, "phase": self.phase, "grid": grid,
            "cubes": dict(zip(COLOURS, self.cubes, strict=True)), "supply": self.supply,
            "market": list(self.market), "influence_deck": len(self.ideck),
            "acquired": [list(a) for a in self.acq], "influence": influence,
            "hand": None if player is None else list(self.hands[player]),
            "hand_counts": [len(h) for h in self.hands],
            "deck_counts": [len(d) for d in self.decks],
            "burnt": [len(b) for b in self.burnt],
            "bought": self.bought, "pending": pending,
            "bribe": None if self.bribe is None else {"owner": self.bribe[0],
                                                       "from": self.bribe[1]},
            "trigger": trig,
            "final": None if self.final is None else marshal.loads(marshal.dumps(self.final)),
            "resume": self.cube_ret if self.phase == "cube" else None,
            "to_move": self.to_move(), "outcome": self.outcome(),
        }

    def cell_name(self, i: int) -> str:
        return cell_names(self.cols_n, self.rows_n)[i]

    def cell_index(self, name: str) -> int | None:
        """A cell's index in :attr:`grid` (None: no such cell on this grid)."""
        return _cell_indices(self.cols_n, self.rows_n).get(name)

    # -- legal actions ------------------------------------------------------------------
    def _choosable(self) -> list[int]:
        """Cells A may choose: a card there, and not a face-up special."""
        return [i for i, cell in enumerate(self.grid)
                if cell is not None and not (cell[1] and is_special(cell[0]))]

    def _legal(self) -> list[str]:
        ph, p = self.phase, self.mover
        if ph == "turn":
            out = []
            if self.hands[p]:
                out = list(_open_names(self.cols_n, self.rows_n, self.blocked))
            if self.decks[p]:
                out.append("draw")
            if not out:
                out.append("pass")
            return out + self._extras(p)
        if ph == "number":
            return self._matches(p) + ["take"] + self._extras(p)
        if ph == "place":
            assert self.pend is not None
            hand = list(self.hands[p])
            taken = self.pend[2]
            if taken is not None:
                hand.remove(taken)
            return ["v:" + c for c in sorted(set(hand))]
        if ph == "after":
            return ["end"] + self._extras(p)
        if ph == "cube":
            return ["c:" + c for c in COLOURS]
        if ph == "bribe":
            assert self.bribe is not None
            return ["t:" + c for c in sorted({printed(c) for c in self.acq[self.bribe[1]]})]
        if ph == "pairs":
            return self._pair_actions(p) + ["done"]
        if ph == "hearts":
            return self._hearts(p) + ["done"]
        return []

    def _extras(self, p: int) -> list[str]:
        """C (each market card with each distinct payment) and Change of Heart."""
        acq = self.acq[p]
        if not acq or (len(acq) < 2 and not self.hearts_left[p]):
            return []  # every cost takes two cards or more
        out = []
        if not self.bought and len(acq) > 1:
            key = tuple(acq)
            for i in self.market:
                out += [f"${i}:{pay}" for pay in _payments(_COSTS[i], key)]
        return out + self._hearts(p)

    def _extras_count(self, p: int) -> int:
        """How many actions :meth:`_extras` lists (without writing them out)."""
        acq = self.acq[p]
        if not acq or (len(acq) < 2 and not self.hearts_left[p]):
            return 0
        counts, distinct = _payment_counts(tuple(acq))
        k = 0
        if not self.bought and len(acq) > 1:
            for i in self.market:
                k += counts[_COST_SLOT[i]]
        if self.hearts_left[p]:
            k += 3 * distinct
        return k

    def _extra(self, p: int, j: int) -> str:
        """``_extras(p)[j]`` without listing them (search's playouts play one drawn
        extra): the market cards' payments counted (:func:`_payment_counts`) and the
        drawn one picked (:func:`_payment`), or the Change of Heart at that place."""
        acq = self.acq[p]
        if not self.bought and len(acq) > 1:
            key = tuple(acq)
            counts = _payment_counts(key)[0]
            for i in self.market:
                k = counts[_COST_SLOT[i]]
                if j < k:
                    return f"${i}:{_payment(_COSTS[i], key, j)}"
                j -= k
        code = sorted(set(acq))[j // 3]
        now = counts_as(code)
        return f"h{code}>{[c for c in COLOURS if c != now][j % 3]}"

    def _hearts(self, p: int) -> list[str]:
        if not self.hearts_left[p] or not self.acq[p]:
            return []
        out = []
        for code in sorted(set(self.acq[p])):
            now = counts_as(code)
            out += [f"h{code}>{c}" for c in COLOURS if c != now]
        return out

    def _matches(self, p: int) -> list[str]:
        assert self.pend is not None and self.pend[1] is not None
        nums = _NUMBERS
        target = nums[self.pend[1]]
        np, nx = self._unused(p)
        out: list[str] = []
        prev = ""
        if not np and not nx:
            for c in self.hands[p]:  # sorted: copies are neighbours
                if c != prev and nums[c] == target:
                    out.append("=" + c)
                prev = c
            return out
        pd, cd = self.pd, self.cd
        for code in self.hands[p]:
            n = nums[code]
            if code == prev or n is None:
                prev = code
                continue
            prev = code
            assert target is not None
            ok = _mod_combos(target - n, np, nx, pd, cd)
            out += ["=" + code + mods for mods in ok]
        return out

    def _unused(self, p: int) -> tuple[int, int]:
        """How many Power and Corruption cards seat ``p`` has not used this turn."""
        np = nx = 0
        for ident, used, _ in self.infl[p]:
            if not used:
                if ident[0] == "P":
                    np += 1
                elif ident[0] == "X":
                    nx += 1
        return np, nx

    def _pair_actions(self, p: int) -> list[str]:
        by: dict[int, list[str]] = {}
        for code in self.hands[p]:
            n = number_of(code)
            if n is not None:
                by.setdefault(n, []).append(code)
        out: set[str] = set()
        for cards in by.values():
            for a, b in combinations(sorted(cards), 2):
                out.add(f"pr:{a},{b}")
        return sorted(out)

    # -- playing -----------------------------------------------------------------------
    def _apply(self, player: int, action: str) -> None:
        ph = self.phase
        head = action[0]
        if head == "$":
            self._buy(player, action)
        elif head == "h":
            self._heart(player, action)
        elif ph == "turn":
            if action == "draw":
                self._draw(player)
            elif action == "pass":
                if not self.quiet:
                    self._ev({"t": "pass", "p": player})
                self.phase = "after"
            else:
                i = self.cell_index(action)
                assert i is not None
                self._choose(player, i)
        elif ph == "number":
            if action == "take":
                self._take(player)
            else:
                self._match(player, action)
        elif ph == "place":
            self._put(player, action[2:])
        elif ph == "after":
            self._end_turn()
        elif ph == "cube":
            self._cube(player, action[2])
        elif ph == "bribe":
            self._bribe_take(action[2:])
        elif ph == "pairs":
            if action == "done":
                self._next_pairs(advance=True)
            else:
                a, b = action[3:].split(",")
                self._reveal(player, a, b)
        elif ph == "hearts":  # "done" (a heart's action went above)
            self.order_i += 1
            self._next_hearts()

    def _start_turn(self, p: int) -> None:
        self.active = self.mover = p
        self.phase = "turn"
        self.bought = False
        self.pend = None
        self.turn_no += 1
        if self.used_any:
            self.used_any = False
            for items in self.infl:
                if any(u for _, u, _ in items):
                    items[:] = [(i, False, s) for i, _, s in items]
        if not self.quiet:
            self._ev({"t": "turn", "p": p, "round": self.rnd})

    def _end_turn(self) -> None:
        p = self.active
        if not self.quiet:
            self._ev({"t": "end", "p": p})
        tr = self.trigger
        if tr is not None and tr[1] == p and self.turn_no > tr[3]:
            self._scoring()
            return
        n = self.players
        last = (self.start - 1) % n
        if tr is None and p == last and self.rnd >= self.rlimit:
            self.trigger = (p, p, True, self.turn_no)
            if not self.quiet:
                self._ev({"t": "trigger", "p": p, "last_turn": p, "safety": True})
        q = (p + 1) % n
        if q == self.start:
            self.rnd += 1
        self._start_turn(q)

    def _emptied(self, p: int) -> None:
        """Seat ``p``'s deck has just become empty: the end trigger, unless it fired."""
        if self.trigger is None:
            self.trigger = (p, p, False, self.turn_no)
            if not self.quiet:
                self._ev({"t": "trigger", "p": p, "last_turn": p, "safety": False})

    def _draw(self, p: int) -> None:
        deck = self.decks[p]
        k = min(self.draw_n, len(deck))
        cards = deck[len(deck) - k:][::-1]
        del deck[len(deck) - k:]
        self.hands[p] = sorted(self.hands[p] + cards)
        if not self.quiet:
            self._ev(private_event({"t": "draw", "p": p, "n": k, "cards": sorted(cards)},
                                   [p], ["cards"]))
        if not deck:
            self._emptied(p)
        self.phase = "after"

    def _choose(self, p: int, i: int) -> None:
        cell = self.grid[i]
        assert cell is not None
        code = cell[0]
        if not cell[1]:
            self.grid[i] = (code, True, cell[2])
        if code[0] != "k" and code[1] in SPECIALS:
            self.blocked = tuple(sorted((*self.blocked, i)))
            col = code[0]
            owner = self.owner.get(col)
            own = col in self.colours[p]
            if not self.quiet:
                self._ev({"t": "trap", "p": p, "cell": self.cell_name(i), "c": code,
                          "owner": owner, "own": own})
            self.phase = "after"
            if own:
                return
            kind = code[1]
            if kind == "s":
                self._scheme(p)
            elif kind == "j":
                self._jester(p, i)
            elif owner is not None:
                self._bribery(owner, p)
            return
        if not self.quiet:
            self._ev({"t": "choose", "p": p, "cell": self.cell_name(i), "c": code})
        self.pend = (i, code, None)
        self.phase = "number"

    def _scheme(self, p: int) -> None:
        deck = self.decks[p]
        k = min(self.burn, len(deck))
        had = bool(deck)
        gone = deck[len(deck) - k:]
        del deck[len(deck) - k:]
        self.burnt[p] += gone
        if not self.quiet:
            self._ev({"t": "scheme", "p": p, "n": k})
        if had and not deck:
            self._emptied(p)

    def _jester(self, p: int, i: int) -> None:
        W, H = self.cols_n, self.rows_n
        r, c = divmod(i, W)
        if self.jscope == "row":
            scope = [r * W + x for x in range(W)]
        elif self.jscope == "column":
            scope = [y * W + c for y in range(H)]
        else:
            scope = [y * W + x for y, x in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c))
                     if 0 <= y < H and 0 <= x < W]
        cells, cards = [], []
        for j in sorted(scope):
            cell = self.grid[j]
            if j != i and cell is not None and not cell[1]:
                self.grid[j] = (cell[0], True, cell[2])
                if is_special(cell[0]):
                    self.blocked = tuple(sorted((*self.blocked, j)))
                cells.append(self.cell_name(j))
                cards.append(cell[0])
        if not self.quiet:
            self._ev({"t": "jester", "p": p, "cell": self.cell_name(i), "cells": cells,
                      "cards": cards})

    def _bribery(self, owner: int, p: int) -> None:
        if self.brib_hand:
            hand = self.hands[p]
            if not hand:
                if not self.quiet:
                    self._ev({"t": "bribe", "p": owner, "from": p, "c": None})
                return
            card = hand.pop(self.rng.randbelow(len(hand)))
            self.hands[owner] = sorted(self.hands[owner] + [card])
            if not self.quiet:
                self._ev(private_event({"t": "bribe", "p": owner, "from": p,
                                        "back": self._back(card), "c": card},
                                       [owner, p], ["c"]))
            return
        if not self.acq[p]:
            if not self.quiet:
                self._ev({"t": "bribe", "p": owner, "from": p, "c": None})
            return
        self.bribe = (owner, p)
        self.phase = "bribe"
        self.mover = owner

    def _bribe_take(self, code: str) -> None:
        assert self.bribe is not None
        owner, p = self.bribe
        pool = self.acq[p]
        # The plain copy if there is one: the flipper keeps its recolour (§11 decision).
        k = pool.index(code) if code in pool else next(
            k for k, c in enumerate(pool) if printed(c) == code)
        pool.pop(k)
        self.acq[owner] = sorted(self.acq[owner] + [code])
        if not self.quiet:
            self._ev({"t": "bribe", "p": owner, "from": p, "c": code})
        self.bribe = None
        self.phase = "after"
        self.mover = self.active

    def _match(self, p: int, action: str) -> None:
        assert self.pend is not None and self.pend[1] is not None
        i, field, _ = self.pend
        code = action[1:].rstrip("PX")
        mods = action[1 + len(code):]
        self.hands[p].remove(code)
        if mods:
            np, nx = mods.count("P"), mods.count("X")
            items = []
            for ident, used, spent in self.infl[p]:
                if not used and ident[0] == "P" and np:
                    np -= 1
                    used = True
                elif not used and ident[0] == "X" and nx:
                    nx -= 1
                    used = True
                items.append((ident, used, spent))
            self.infl[p] = items
            self.used_any = True
        self.grid[i] = None
        assert field is not None
        self.acq[p] = sorted(self.acq[p] + [field, code])
        if not self.quiet:
            self._ev({"t": "match", "p": p, "cell": self.cell_name(i), "c": field, "with": code,
                      "mods": mods})
        if self.hands[p]:
            self.pend = (i, None, None)
            self.phase = "place"
            return
        self.pend = None
        self.phase = "after"
        deck = self.decks[p]
        if deck:
            card = deck.pop()
            self.grid[i] = (card, False, p)
            self._placed("decktop", p, i, card)
            if not deck:
                self._emptied(p)
        else:
            self.blocked = tuple(sorted((*self.blocked, i)))  # the cell stays empty

    def _placed(self, kind: str, p: int, i: int, card: str) -> None:
        if self.quiet:
            return
        seats = [p]
        if card[0] != "k":
            q = self.owner.get(card[0])
            if q is not None and q != p:
                seats.append(q)
        if not self.quiet:
            self._ev(private_event({"t": kind, "p": p, "cell": self.cell_name(i),
                                    "back": self._back(card), "c": card}, seats, ["c"]))

    def _take(self, p: int) -> None:
        assert self.pend is not None and self.pend[1] is not None
        i, field, _ = self.pend
        assert field is not None
        self.grid[i] = None
        insort(self.hands[p], field)
        if not self.quiet:
            self._ev({"t": "take", "p": p, "cell": self.cell_name(i), "c": field})
        self.pend = (i, None, field)
        self.phase = "place"

    def _put(self, p: int, card: str) -> None:
        assert self.pend is not None
        i = self.pend[0]
        self.hands[p].remove(card)
        self.grid[i] = (card, False, p)
        self._placed("put", p, i, card)
        self.pend = None
        self.phase = "after"

    def _buy(self, p: int, action: str) -> None:
        ident, _, paid_text = action[1:].partition(":")
        paid = paid_text.split(",")
        acq = self.acq[p]
        for c in paid:
            acq.remove(c)
        k = self.market.index(ident)
        refill = self.ideck.pop() if self.ideck else None
        if refill is None:
            self.market.pop(k)
        else:
            self.market[k] = refill
        self.infl[p].append((ident, False, False))
        if ident[0] == "H":
            self.hearts_left[p] += 1
        self.bought = True
        if not self.quiet:
            self._ev({"t": "buy", "p": p, "card": ident, "paid": paid, "refill": refill})
        if self.supply > 0:
            self.cube_ret = self.phase
            self.phase = "cube"

    def _cube(self, p: int, colour: str) -> None:
        self.cubes[_CI[colour]] += 1
        self.supply -= 1
        if not self.quiet:
            self._ev({"t": "cube", "p": p, "colour": colour})
        self.phase = self.cube_ret

    def _heart(self, p: int, action: str) -> None:
        card, _, col = action[1:].rpartition(">")
        items = self.infl[p]
        k = next(k for k, (i, _, s) in enumerate(items) if i[0] == "H" and not s)
        items[k] = (items[k][0], True, True)
        self.used_any = True
        self.hearts_left[p] -= 1
        acq = self.acq[p]
        acq.remove(card)
        base = printed(card)
        acq.append(base if colour_of(base) == col else f"{base}>{col}")
        acq.sort()
        if not self.quiet:
            self._ev({"t": "heart", "p": p, "c": card, "as": col})
        if self.phase == "hearts" and not self._hearts(p):
            self.order_i += 1
            self._next_hearts()

    # -- final scoring ---------------------------------------------------------------------
    def _order(self) -> list[int]:
        return [(self.start + k) % self.players for k in range(self.players)]

    def _scoring(self) -> None:
        self.phase = "pairs"
        self.pend = None
        self.bought = False
        for items in self.infl:
            items[:] = [(i, False, s) for i, _, s in items]
        self.order_i = 0
        self.revealed = 0
        self._next_pairs(advance=False)

    def _next_pairs(self, advance: bool) -> None:
        order = self._order()
        if advance:
            if not self.revealed:
                if not self.quiet:
                    self._ev({"t": "pairs", "p": order[self.order_i], "cards": []})
            self.order_i += 1
            self.revealed = 0
        while self.order_i < len(order):
            q = order[self.order_i]
            if len(self.hands[q]) >= 2:  # public: whether a pair is there is not
                self.mover = self.active = q
                return
            if not self.revealed:
                if not self.quiet:
                    self._ev({"t": "pairs", "p": q, "cards": []})
            self.order_i += 1
            self.revealed = 0
        self._rows()

    def _reveal(self, p: int, a: str, b: str) -> None:
        hand = self.hands[p]
        hand.remove(a)
        hand.remove(b)
        self.acq[p] = sorted(self.acq[p] + [a, b])
        self.revealed += 1
        if not self.quiet:
            self._ev({"t": "pairs", "p": p, "cards": [a, b]})

    def _rows(self) -> None:
        W = self.cols_n
        rows: list[str | None] = []
        for r in range(self.rows_n):
            counts = [0, 0, 0, 0]
            for cell in self.grid[r * W:(r + 1) * W]:
                if cell is not None and cell[0][0] != "k":
                    counts[_CI[cell[0][0]]] += 1
            top = max(counts)
            colour = COLOURS[counts.index(top)] if top and counts.count(top) == 1 else None
            if colour is not None:
                if self.supply > 0:
                    self.supply -= 1
                    self.cubes[_CI[colour]] += 1
                else:
                    colour = None  # the supply ran out (21-card set): the cube is lost
            if not self.quiet:
                self._ev({"t": "row", "row": r + 1, "colour": colour,
                          "counts": {COLOURS[k]: counts[k] for k in range(4) if counts[k]}})
            rows.append(colour)
        ranks = ranks_of(self.cubes)
        if not self.quiet:
            self._ev({"t": "rank", "ranks": dict(ranks)})
        self.final = {"rows": rows, "ranks": ranks}
        self.phase = "hearts"
        self.order_i = 0
        self._next_hearts()

    def _next_hearts(self) -> None:
        order = self._order()
        while self.order_i < len(order):
            q = order[self.order_i]
            if self.hearts_left[q] and self.acq[q]:  # self._hearts(q), not listed
                self.mover = self.active = q
                return
            self.order_i += 1
        self._final_scores()

    def _final_scores(self) -> None:
        assert self.final is not None
        ranks = self.final["ranks"]
        o = self.options
        scores, totals = [], []
        for p in range(self.players):
            rank1 = rank2 = rank4 = 0
            for code in self.acq[p]:
                r = ranks[counts_as(code)]
                if r == 1:
                    rank1 += number_of(code) or 0
                elif r == 2:
                    rank2 += 1
                elif r == 4:
                    rank4 -= 1
            kinds = [i[0] for i, _, _ in self.infl[p]]
            hand = 0
            for c in self.hands[p]:
                hand -= number_of(c) or 0
            parts = {"rank1": rank1, "rank2": rank2, "rank3": 0, "rank4": rank4,
                     "manor": o["manor_vp"] * kinds.count("M"),
                     "domain": o["domain_vp"] * kinds.count("D"), "hand": hand}
            parts["total"] = sum(parts.values())
            scores.append(parts)
            totals.append(parts["total"])
            if not self.quiet:
                self._ev({"t": "score", "p": p, **parts})
        keys = [(totals[p], len(self.infl[p])) for p in range(self.players)]
        places = [1 + sum(1 for k in keys if k > keys[p]) for p in range(self.players)]
        self.final["scores"] = scores
        self.final["places"] = places
        self.totals, self.places = totals, places
        if not self.quiet:
            self._ev({"t": "over", "places": list(places)})
        self.phase = "over"
        self.mover = -1

    # -- the fast path -------------------------------------------------------------------
    def clone_fast(self) -> ElectorsState:
        """A copy for search: the same game, an empty log and record, no events made from
        now on (``quiet``); only the lists that change are copied."""
        twin = object.__new__(ElectorsState)
        twin.__dict__.update(self.__dict__)
        rng = twin.rng = Rng(0)
        rng._state = self.rng._state
        twin.log = []
        twin._actions = []
        twin.quiet = True
        twin.grid = self.grid[:]
        twin.hands = [h[:] for h in self.hands]
        twin.decks = [d[:] for d in self.decks]
        twin.acq = [a[:] for a in self.acq]
        twin.burnt = [b[:] for b in self.burnt]
        twin.infl = [i[:] for i in self.infl]
        twin.market = self.market[:]
        twin.ideck = self.ideck[:]
        twin.cubes = self.cubes[:]
        twin.hearts_left = self.hearts_left[:]
        if self.final is not None:
            twin.final = marshal.loads(marshal.dumps(self.final))
        return twin

    def apply_fast(self, player: int, action: str) -> None:
        """An action from ``legal_actions(player)``, unchecked, with no record: the public
        rules (:meth:`_apply`) as they are (a quiet state makes no events)."""
        self._apply(player, action)

    def playout_fast(self, rng: Any, depth: int) -> bool:
        """The plain playout loop (each mover's ``random_action_fast`` by ``apply_fast``),
        fused: each step draws the same number and plays the same action as the plain
        loop's ``legal[int(r() * len(legal))]``, but the common phases count their
        actions instead of listing them, and play the drawn one in place (search's
        playouts spend most of their time here).

        The phases' actions, in :meth:`_legal`'s order: ``turn`` the open cells, a draw
        (else, with no cell either, a pass), the extras; ``number`` the matches,
        ``take``, the extras; ``place`` the distinct hand cards (less one copy of a card
        just taken); ``after`` ``end``, the extras; ``cube`` the four colours. The extras
        (C and Change of Heart) are counted by :meth:`_extras_count` and only the drawn
        one is found (:meth:`_extra`). Traps, the bribe and final scoring go through
        :meth:`_legal` and :meth:`_apply`; a state that makes events (not ``quiet``)
        plays the plain loop."""
        if not self.quiet:
            return super().playout_fast(rng, depth)
        r = rng.random
        grid, hands, decks, acq = self.grid, self.hands, self.decks, self.acq
        nums, ncells, players = _NUMBERS, len(grid), self.players
        extras_count, extra = self._extras_count, self._extra
        pd, cd = self.pd, self.cd
        # Kept from turn to turn, per seat: the extras count (-1: to count again) and the
        # unused (Powers, Corruptions) (None: to count again), until something they hang
        # on changes. An extra changes the market (everyone's count), the seat's acquired
        # and influence cards and bought; a match the seat's acquired cards and used
        # cards; a turn's start makes used cards unused; a turn with C was counted with
        # bought; traps change none of it (a Bribery's taking is phase bribe's); any
        # other phase may change anything.
        ext: list[int] = [-1] * players
        px: list[tuple[int, int] | None] = [None] * players
        blocked: tuple[int, ...] | None = None  # the blocked cells open_cells is of
        open_cells: tuple[int, ...] = ()
        for _ in range(depth):
            ph = self.phase
            p = self.mover
            if ph == "after":
                if acq[p]:
                    e = ext[p]
                    if e < 0:
                        e = ext[p] = extras_count(p)
                    k = int(r() * (1 + e))
                    if k:
                        self._apply(p, extra(p, k - 1))
                        ext = [-1] * players
                        px[p] = None
                        continue
                else:
                    r()  # the only action, end: the number is drawn all the same
                if self.bought:
                    ext[p] = -1  # counted without C: not its next turn's count
                if self.used_any:  # the next turn's start makes used cards unused
                    px = [None] * players
                self._end_turn()  # the rules' own: scoring, or the next seat's turn
            elif ph == "turn":
                deck = decks[p]
                if hands[p]:
                    if self.blocked is not blocked:
                        blocked = self.blocked
                        open_cells = _open_cells(ncells, blocked)
                    nc = len(open_cells)
                else:
                    nc = 0
                base = nc + 1 if deck or not nc else nc  # a draw, else a pass
                if acq[p]:
                    e = ext[p]
                    if e < 0:
                        e = ext[p] = extras_count(p)
                    k = int(r() * (base + e))
                else:
                    k = int(r() * base)
                if k < nc:
                    i = open_cells[k]
                    cell = grid[i]
                    code = cell[0]  # type: ignore[index]
                    if code[1] in SPECIALS:  # a trap (a kingdom card's is its colour)
                        self._choose(p, i)
                    else:  # _choose of a number card, inline
                        if not cell[1]:  # type: ignore[index]
                            grid[i] = (code, True, cell[2])  # type: ignore[index]
                        self.pend = (i, code, None)
                        self.phase = "number"
                elif k < base:
                    if deck:
                        self._draw(p)
                    else:
                        self.phase = "after"  # a pass
                else:
                    self._apply(p, extra(p, k - base))
                    ext = [-1] * players
                    px[p] = None
            elif ph == "number":
                i, field, _ = self.pend  # type: ignore[misc]
                hand = hands[p]
                target = nums[field]  # type: ignore[index]  # _matches, inline
                unused = px[p]
                if unused is None:
                    unused = px[p] = self._unused(p)
                np, nx = unused
                matches, prev = [], ""
                if np or nx:
                    reach = _reachable(target, np, nx, pd, cd)
                    for c in hand:  # sorted: copies are neighbours
                        if c != prev and nums[c] in reach:
                            for mods in reach[nums[c]]:  # type: ignore[index]
                                matches.append("=" + c + mods)
                        prev = c
                else:
                    for c in hand:
                        if c != prev and nums[c] == target:
                            matches.append("=" + c)
                        prev = c
                nm = len(matches)
                if acq[p]:
                    e = ext[p]
                    if e < 0:
                        e = ext[p] = extras_count(p)
                    k = int(r() * (nm + 1 + e))
                else:
                    k = int(r() * (nm + 1))
                if k < nm:
                    self._match(p, matches[k])
                    ext[p] = -1
                    px[p] = None
                elif k == nm:  # take: _take, inline
                    grid[i] = None
                    insort(hand, field)  # type: ignore[misc]
                    self.pend = (i, None, field)
                    self.phase = "place"
                else:
                    self._apply(p, extra(p, k - nm - 1))
                    ext = [-1] * players
                    px[p] = None
            elif ph == "place":  # the distinct hand cards less one copy of a taken card
                i, _, skip = self.pend  # type: ignore[misc]
                hand = hands[p]
                cards, prev = [], ""
                for c in hand:
                    if c == skip:
                        skip = None
                    elif c != prev:
                        cards.append(c)
                        prev = c
                card = cards[int(r() * len(cards))]  # put it back: _put, inline
                hand.remove(card)
                grid[i] = (card, False, p)
                self.pend = None
                self.phase = "after"
            elif ph == "cube":
                self._cube(p, COLOURS[int(r() * 4)])
            elif ph == "over":
                return True
            else:
                legal = self._legal()
                self._apply(p, legal[int(r() * len(legal))])
                ext, px = [-1] * players, [None] * players
        return False

    def estimate(self) -> list[float]:
        """Each seat's chance judged from the score it would have if the game ended now
        (a logistic of its lead over the best other seat)."""
        import math

        totals = self.projected_scores()
        out = []
        for p, t in enumerate(totals):
            best = max(x for q, x in enumerate(totals) if q != p)
            out.append(1 / (1 + math.exp(-(t - best) / 4)))
        return out

    def projected_scores(self) -> list[int]:
        """The scores if the game ended now (row majorities counted, no pairs revealed,
        no Change of Heart used)."""
        cubes = self.cubes[:]
        W = self.cols_n
        for r in range(self.rows_n):
            counts = [0, 0, 0, 0]
            for cell in self.grid[r * W:(r + 1) * W]:
                if cell is not None and cell[0][0] != "k":
                    counts[_CI[cell[0][0]]] += 1
            top = max(counts)
            if top and counts.count(top) == 1:
                cubes[counts.index(top)] += 1
        ranks = ranks_of(cubes)
        o = self.options
        out = []
        for p in range(self.players):
            s = 0
            for code in self.acq[p]:
                r = ranks[counts_as(code)]
                s += (number_of(code) or 0) if r == 1 else 1 if r == 2 else -1 if r == 4 else 0
            for i, _, _ in self.infl[p]:
                s += o["manor_vp"] if i[0] == "M" else o["domain_vp"] if i[0] == "D" else 0
            s -= sum(number_of(c) or 0 for c in self.hands[p])
            out.append(s)
        return out

    # -- refusals in words ---------------------------------------------------------------
    def explain_illegal(self, player: int, action: str) -> str:
        try:
            return self._why(player, action)
        except Exception:  # noqa: BLE001 - a malformed action gets the plain words
            return f"{action!r} is not a legal action now"

    def _why(self, p: int, action: str) -> str:
        ph = self.phase
        if not action:
            return "an empty action is not a move"
        if action.startswith("$"):
            return self._why_buy(p, action)
        if action.startswith("h") and ">" in action:
            return self._why_heart(p, action)
        i = self.cell_index(action)
        if i is not None or (action[0] in LETTERS and action[1:].isdigit()):
            if i is None:
                return (f"there is no cell {action} on the {self.cols_n} × {self.rows_n} "
                        "grid")
            if ph != "turn":
                return "a cell is chosen at the start of your turn (A), not now"
            if not self.hands[p]:
                return "your hand is empty: you must draw (B)"
            cell = self.grid[i]
            if cell is None:
                return f"{action} is empty: there is no card to choose"
            return f"{action} holds a face-up special card, which can never be chosen"
        if action == "draw":
            if ph != "turn":
                return "you may draw only as your turn's action (B), before doing A or B"
            return "your deck is empty: you must choose a card on the grid (A)"
        if action == "pass":
            return "you may pass only when you can neither choose a card (A) nor draw (B)"
        if action.startswith("="):
            if ph != "number":
                return "a match answers a number card you have just chosen on the grid"
            return self._why_match(p, action)
        if action == "take":
            return "you may take only a number card you have just chosen on the grid"
        if action.startswith("v:"):
            if ph != "place":
                return "you put a card back only into the cell you have just emptied"
            card = action[2:]
            assert self.pend is not None
            if card == self.pend[2] and self.hands[p].count(card) == 1:
                return (f"you must put back another card than the {card_words(card)} you "
                        "just took")
            return f"you have no {card} in your hand"
        if action.startswith("c:"):
            if ph != "cube":
                return "a cube is placed only right after buying an influence card"
            return f"{action[2:]!r} is not a candidate: choose R, B, G or Y"
        if action.startswith("t:"):
            if ph != "bribe":
                return "a card is taken only by the owner of a sprung Bribery"
            return f"the flipper has no acquired card {action[2:]}"
        if action == "end":
            if ph == "turn":
                return "do your turn's action first: choose a card (A) or draw (B)"
            return "you cannot end your turn in the middle of an action"
        if action.startswith("pr:"):
            if ph != "pairs":
                return "pairs are revealed only at the final scoring"
            return "that is not a pair of same-number cards in your hand"
        if action == "done":
            return "'done' ends the pair reveal or the Change of Heart use at final scoring"
        return f"{action!r} is not an Electors action"

    def _why_buy(self, p: int, action: str) -> str:
        if self.phase not in FREE_PHASES or p != self.active:
            return ("you may buy an influence card only during your own turn (not while a "
                    "card is put back, a cube placed or a Bribery answered)")
        if self.bought:
            return "you have already bought an influence card this turn"
        ident, _, paid = action[1:].partition(":")
        if ident not in self.market:
            return f"{ident} is not in the market"
        cost = influence_cost(ident)
        marks = " + ".join("any card" if m == "?" else f"a {m} card" for m in cost)
        return (f"that payment does not match {influence_words(ident)}'s cost ({marks}, "
                f"paid with your acquired cards)")

    def _why_heart(self, p: int, action: str) -> str:
        if self.phase not in FREE_PHASES | {"hearts"} or p != self.active:
            return "a Change of Heart is used during your turn or at the final scoring"
        if not any(i[0] == "H" and not s for i, _, s in self.infl[p]):
            return "you have no unused Change of Heart"
        card, _, col = action[1:].rpartition(">")
        if card not in self.acq[p]:
            return f"you have no acquired card {card}"
        return f"{card} already counts as {col}"

    def _why_match(self, p: int, action: str) -> str:
        assert self.pend is not None and self.pend[1] is not None
        target = number_of(self.pend[1])
        body = action[1:].rstrip("PX")
        mods = action[1 + len(body):]
        if body not in self.hands[p]:
            return f"you have no {body} in your hand"
        n = number_of(body)
        if n is None:
            return "a special card has no number to match"
        unused = {k: sum(1 for i, u, _ in self.infl[p] if i[0] == k and not u) for k in "PX"}
        for k, name in (("P", "Power"), ("X", "Corruption")):
            if mods.count(k) > unused[k]:
                return f"you have no unused {name} card left for this turn"
        value = n + mods.count("P") * self.pd + mods.count("X") * self.cd
        if value != target:
            return f"{card_words(body)} (as {value}) does not match the {target}"
        return "use no more Power or Corruption cards than the match needs"


def ranks_of(cubes: list[int]) -> dict[str, int]:
    """Candidate ranks (§8.3): the number of colours with at least as many cubes.

    >>> ranks_of([5, 5, 4, 3])
    {'R': 2, 'B': 2, 'G': 3, 'Y': 4}
    """
    low = sorted(cubes)
    return {COLOURS[k]: 4 - bisect_left(low, cubes[k]) for k in range(4)}


# -- hand-made positions -------------------------------------------------------------------
def _valid_code(code: Any) -> bool:
    if not isinstance(code, str) or len(code) < 2:
        return False
    if code[0] == "k":
        return len(code) >= 3 and code[1] in _CI and code[2:].isdigit()
    return code[0] in _CI and (code[1:] in tuple(SPECIALS) or code[1:].isdigit())


def _code(value: Any, what: str, recolour: bool = False) -> str:
    base = value.split(">", 1)[0] if recolour and isinstance(value, str) else value
    if not _valid_code(base) or (recolour and isinstance(value, str) and ">" in value
                                 and (value[-1] not in _CI or len(value) != len(base) + 2)):
        raise ValueError(f"{what}: {value!r} is not a card code (kR3, B5, Rs, Rb, Rj)")
    return str(value)


def _seat(value: Any, n: int, what: str, none: bool = False) -> int | None:
    if value is None and none:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < n:
        raise ValueError(f"{what} must be a seat 0..{n - 1}, not {value!r}")
    return value


def _per_seat(pos: dict[str, Any], key: str, n: int) -> list[Any] | None:
    value = pos.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"{key!r} must have one entry per seat ({n})")
    return value


def _take(pool: list[str], card: str, what: str) -> None:
    try:
        pool.remove(card)
    except ValueError:
        raise ValueError(f"{what}: one {card} too many (the game holds fewer, or it is "
                         "elsewhere already)") from None


def _draw_from(pool: list[str], k: int, allowed: Any, rng: Rng, what: str) -> list[str]:
    """``k`` random cards of ``pool`` that ``allowed(code)`` accepts, taken out of it."""
    fits = [i for i, c in enumerate(pool) if allowed(c)]
    if len(fits) < k:
        raise ValueError(f"{what}: not enough cards left for it ({k} needed)")
    picks = []
    for _ in range(k):
        j = rng.randbelow(len(fits))
        picks.append(fits[j])
        fits[j] = fits[-1]
        fits.pop()
    out = [pool[i] for i in picks]
    for i in sorted(picks, reverse=True):
        pool.pop(i)
    return out


def _players_of(pos: dict[str, Any]) -> int:
    if "players" in pos:
        return int(pos["players"])
    for key in ("colours", "hand_counts", "hands", "acquired", "deck_counts"):
        if isinstance(pos.get(key), list):
            return len(pos[key])
    return 3


def _load_position(game: ElectorsGame, pos: Any,
                   options: dict[str, Any] | None) -> ElectorsState:
    if not isinstance(pos, dict):
        raise ValueError("a position is a dict (a view-like object)")
    opts = game.resolve_options(options if options is not None else pos.get("options"))
    n = _players_of(pos)
    game.check_players(n)
    seed = pos.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("seed must be an integer")
    s = ElectorsState(game, seed, n, opts, deal=False)
    rng = Rng(seed)
    s.rng = Rng(rng.next64())
    you = _seat(pos.get("you"), n, "you", none=True)
    if "colours" in pos and list(pos["colours"]) != s.colours:
        raise ValueError(f"colours {pos['colours']!r} do not fit {n} players with these "
                         f"options ({s.colours!r})")
    kingdom = s.kingdom_cards()
    pool = list(kingdom)
    for p in range(n):
        pool += s.own_cards(p)
    in_play = set(pool)

    def known(code: Any, what: str, recolour: bool = False) -> str:
        code = _code(code, what, recolour)
        if printed(code) not in in_play:
            raise ValueError(f"{what}: {code} is not in this game (colours in play: "
                             f"{''.join(s.colours)})")
        _take(pool, printed(code), what)
        return code

    # The grid: known faces first, the hidden ones drawn after.
    W, H = s.cols_n, s.rows_n
    rows = pos.get("grid")
    hidden: list[tuple[int, str, int]] = []  # (cell, back, placer)
    if rows is None:
        k = _draw_from(pool, W * H, is_kingdom, rng, "grid")
        s.grid = [(c, False, -1) for c in k]
    else:
        if not isinstance(rows, list) or len(rows) != H or any(
                not isinstance(r, list) or len(r) != W for r in rows):
            raise ValueError(f"grid must be {H} rows of {W} cells")
        for r, row in enumerate(rows):
            for c, cell in enumerate(row):
                i = r * W + c
                name = s.cell_name(i)
                if cell is None:
                    continue
                if isinstance(cell, str):
                    s.grid[i] = (known(cell, f"grid {name}"), False, -1)
                    continue
                if not isinstance(cell, dict):
                    raise ValueError(f"grid {name}: a cell is None, a code or a dict")
                up = bool(cell.get("up", False))
                placer = cell.get("placer")
                placer = -1 if placer is None else _seat(placer, n, f"grid {name} placer")
                assert placer is not None
                if "c" in cell and cell["c"] is not None:
                    code = known(cell["c"], f"grid {name}")
                    if (placer == -1 and not up and you is not None and s.memory
                            and not (code[0] != "k" and code[0] in s.colours[you])):
                        placer = you  # a view's face this seat sees by memory
                    s.grid[i] = (code, up, placer)
                elif up:
                    raise ValueError(f"grid {name}: a face-up card needs its code 'c'")
                else:
                    back = cell.get("back", "k")
                    if back not in ("k", "?", *COLOURS):
                        raise ValueError(f"grid {name}: back {back!r} is not k, ?, or a colour")
                    hidden.append((i, back, placer))
                    s.grid[i] = ("", False, placer)
    # Hands, acquired cards, decks, burnt cards.
    pend_cell = s.cell_index(str((pos.get("pending") or {}).get("cell")))
    s.blocked = tuple(i for i, cell in enumerate(s.grid) if i != pend_cell and (
        cell is None or (cell[1] and is_special(cell[0]))))
    hands = _per_seat(pos, "hands", n)
    if hands is None and you is not None and pos.get("hand") is not None:
        hands = [None] * n
        hands[you] = pos["hand"]
    counts = _per_seat(pos, "hand_counts", n)
    for p in range(n):
        if hands is not None and hands[p] is not None:
            s.hands[p] = sorted(known(c, f"seat {p}'s hand") for c in hands[p])
            if counts is not None and counts[p] != len(s.hands[p]):
                raise ValueError(f"seat {p}'s hand has {len(s.hands[p])} cards, not "
                                 f"hand_counts' {counts[p]}")
    acquired = _per_seat(pos, "acquired", n) or [[] for _ in range(n)]
    for p in range(n):
        s.acq[p] = sorted(known(c, f"seat {p}'s acquired cards", True) for c in acquired[p])
    decks = _per_seat(pos, "decks", n)
    for p in range(n):
        if decks is not None and decks[p] is not None:
            s.decks[p] = [known(c, f"seat {p}'s deck") for c in decks[p]]
            for code in s.decks[p]:
                if code[0] == "k" or code[0] not in s.colours[p]:
                    raise ValueError(f"seat {p}'s deck holds {code}, not one of its own cards")
    burnt = _per_seat(pos, "burnt", n) or [0] * n
    for p in range(n):
        if isinstance(burnt[p], list):
            s.burnt[p] = [known(c, f"seat {p}'s burnt cards") for c in burnt[p]]
    box = pos.get("box")
    if box is not None:
        s.box = sorted(known(c, "box") for c in box)
    pend0: dict[str, Any] = pos["pending"] if isinstance(pos.get("pending"), dict) else {}
    act0 = _seat(pos.get("active", pos.get("start", 0)), n, "active") or 0
    if pend0.get("taken") and (hands is None or hands[act0] is None):
        s.hands[act0] = [known(pend0["taken"], "the card just taken")]
    # What is not given is drawn: hidden faces by their backs, the box, decks, hands.
    for i, back, placer in hidden:
        if back in _CI:
            s.grid[i] = (_draw_from(pool, 1, lambda c, b=back: c[0] == b, rng,
                                    f"grid {s.cell_name(i)}")[0], False, placer)
    for i, back, placer in hidden:
        if back == "k":
            s.grid[i] = (_draw_from(pool, 1, is_kingdom, rng,
                                    f"grid {s.cell_name(i)}")[0], False, placer)
    if box is None:
        size = len(kingdom) - W * H
        s.box = sorted(_draw_from(pool, min(size, sum(1 for c in pool if c[0] == "k")),
                                  is_kingdom, rng, "box"))
    deck_counts = _per_seat(pos, "deck_counts", n)
    rest: list[int] = []  # decks made of the seat's own cards left at the end

    def own_of(p: int) -> Any:
        return lambda c, m=s.colours[p]: c[0] != "k" and c[0] in m

    for p in range(n):
        if not isinstance(burnt[p], list):
            k = burnt[p]
            if not isinstance(k, int) or isinstance(k, bool) or k < 0:
                raise ValueError(f"burnt: {k!r} is not a count")
            s.burnt[p] = _draw_from(pool, k, own_of(p), rng, f"seat {p}'s burnt cards")
        if decks is None or decks[p] is None:
            if deck_counts is not None:
                s.decks[p] = _draw_from(pool, deck_counts[p], own_of(p), rng,
                                        f"seat {p}'s deck")
            else:
                rest.append(p)
    not_yours = (lambda c: c[0] == "k" or c[0] not in s.colours[you]) if you is not None \
        else (lambda c: True)
    for i, back, placer in hidden:
        if back == "?":
            s.grid[i] = (_draw_from(pool, 1, not_yours, rng,
                                    f"grid {s.cell_name(i)}")[0], False, placer)
    for p in range(n):
        if hands is None or hands[p] is None:
            size = counts[p] if counts is not None else opts["hand_start"]
            size -= len(s.hands[p])  # the card just taken, if any
            fits = own_of(p) if sum(1 for c in pool if own_of(p)(c)) >= size else (
                lambda c: True)
            s.hands[p] = sorted(s.hands[p] + _draw_from(pool, size, fits, rng,
                                                          f"seat {p}'s hand"))
    for p in rest:
        s.decks[p] = _draw_from(pool, sum(1 for c in pool if own_of(p)(c)), own_of(p), rng,
                                f"seat {p}'s deck")
    for p in range(n):
        if decks is None or decks[p] is None:
            s.rng.shuffle(s.decks[p])
        if deck_counts is not None and len(s.decks[p]) != deck_counts[p]:
            raise ValueError(f"seat {p}'s deck has {len(s.decks[p])} cards, not "
                             f"deck_counts' {deck_counts[p]}")
    # Influence cards, market, cubes.
    ids = influence_set(opts["influence_set"])
    ipool = list(ids)

    def inf(value: Any, what: str) -> str:
        if value not in ipool:
            raise ValueError(f"{what}: {value!r} is not an influence card left in this set")
        ipool.remove(value)
        return str(value)

    influence = _per_seat(pos, "influence", n) or [[] for _ in range(n)]
    for p in range(n):
        items = []
        for item in influence[p]:
            if isinstance(item, dict):
                ident = inf(item.get("id"), f"seat {p}'s influence")
                spent = bool(item.get("spent", False))
                if spent and ident[0] != "H":
                    raise ValueError(f"seat {p}'s {ident}: only a Change of Heart is spent")
                items.append((ident, bool(item.get("used", False)), spent))
            else:
                items.append((inf(item, f"seat {p}'s influence"), False, False))
        s.infl[p] = items
        s.hearts_left[p] = sum(1 for i, _, sp in items if i[0] == "H" and not sp)
        s.used_any = s.used_any or any(u for _, u, _ in items)
    market = pos.get("market")
    ideck = pos.get("influence_deck")
    if market is not None:
        s.market = [inf(i, "market") for i in market]
    if isinstance(ideck, list):
        s.ideck = [inf(i, "influence deck") for i in ideck]
    if market is None:
        s.rng.shuffle(ipool)
        s.market = [ipool.pop() for _ in range(min(opts["market_size"], len(ipool)))]
    if not isinstance(ideck, list):
        s.rng.shuffle(ipool)
        if isinstance(ideck, int) and not isinstance(ideck, bool):
            if ideck > len(ipool):
                raise ValueError(f"influence_deck: only {len(ipool)} influence cards are left")
            s.ideck = ipool[:ideck]
        else:
            s.ideck = ipool
    cubes = pos.get("cubes", {})
    if not isinstance(cubes, dict) or set(cubes) - set(COLOURS):
        raise ValueError("cubes is {colour: count} for R, B, G, Y")
    s.cubes = [int(cubes.get(c, 0)) for c in COLOURS]
    if min(s.cubes) < 0:
        raise ValueError("a candidate cannot have fewer than 0 cubes")
    s.supply = int(pos.get("supply", opts["cube_supply"] - sum(s.cubes)))
    if s.supply < 0 or s.supply + sum(s.cubes) > opts["cube_supply"]:
        raise ValueError(f"supply and cubes make more than the {opts['cube_supply']} cubes")
    # Whose turn and where in it.
    s.start = _seat(pos.get("start", 0), n, "start") or 0
    s.active = _seat(pos.get("active", s.start), n, "active") or 0
    s.rnd = int(pos.get("round", 1))
    s.turn_no = int(pos.get("turn_no", 1))
    s.bought = bool(pos.get("bought", False))
    phase = pos.get("phase", "turn")
    if phase not in PHASES or phase == "over":
        raise ValueError(f"phase {phase!r}: a position is in one of "
                         f"{', '.join(PHASES[:-1])}")
    s.phase = phase
    s.mover = s.active
    trig = pos.get("trigger")
    if trig is not None:
        tp = _seat(trig.get("p"), n, "trigger p")
        tl = _seat(trig.get("last_turn", tp), n, "trigger last_turn")
        assert tp is not None and tl is not None
        at = trig.get("at", s.turn_no - 1 if trig.get("last") else s.turn_no)
        s.trigger = (tp, tl, bool(trig.get("safety", False)), int(at))
    pend = pos.get("pending")
    resume = pos.get("resume") or "after"
    pending_phase = resume if phase == "cube" else phase
    if pending_phase in ("number", "place"):
        if not isinstance(pend, dict):
            raise ValueError(f"phase {phase} needs pending {{'cell', 'c'}}")
        i = s.cell_index(str(pend.get("cell")))
        if i is None:
            raise ValueError(f"pending cell {pend.get('cell')!r} is not on the grid")
        cell = s.grid[i]
        if pending_phase == "number":
            if cell is None or not cell[1] or is_special(cell[0]) or cell[0] != pend.get("c"):
                raise ValueError("phase number needs the chosen number card face up in the "
                                 "pending cell (pending 'c')")
            s.pend = (i, cell[0], None)
        else:
            if cell is not None:
                raise ValueError("phase place needs the pending cell empty")
            taken = pend.get("taken")
            if taken is not None and taken not in s.hands[s.active]:
                raise ValueError(f"the taken card {taken} is not in the hand")
            if not s.hands[s.active] or (taken is not None and len(s.hands[s.active]) < 2):
                raise ValueError("phase place needs a card to put back")
            s.pend = (i, None, taken)
    elif pend is not None:
        raise ValueError(f"pending is only for phases number and place, not {phase}")
    if phase == "cube":
        s.cube_ret = resume
        if s.cube_ret not in FREE_PHASES or not s.bought or s.supply <= 0:
            raise ValueError("phase cube follows a purchase (bought) in turn, number or "
                             "after, with a cube in the supply")
    if phase == "bribe":
        b = pos.get("bribe") or {}
        owner = _seat(b.get("owner"), n, "bribe owner")
        frm = _seat(b.get("from"), n, "bribe from")
        assert owner is not None and frm is not None
        if frm != s.active or owner == frm or not s.acq[frm]:
            raise ValueError("phase bribe: the flipper is the active seat and has an "
                             "acquired card; the owner is another seat")
        s.bribe = (owner, frm)
        s.mover = owner
    if phase in ("pairs", "hearts"):
        s.order_i = s._order().index(s.active)
        s.revealed = int(pos.get("revealed", 0))
        if phase == "hearts":
            fin = pos.get("final") or {}
            if "rows" not in fin or "ranks" not in fin:
                raise ValueError("phase hearts needs final {'rows', 'ranks'}")
            s.final = {"rows": list(fin["rows"]), "ranks": dict(fin["ranks"])}
        if phase == "hearts" and not s._hearts(s.active):
            raise ValueError(f"phase {phase}: seat {s.active} has nothing to choose")
    if phase != "bribe" and pos.get("bribe"):
        raise ValueError("bribe is only for phase bribe")
    return s


# -- determinisation -----------------------------------------------------------------------
def known_in_hand(events: list[dict[str, Any]], q: int) -> list[str]:
    """Cards the events (as one seat saw them) prove are in seat ``q``'s hand now: taken by
    ② or received by a Bribery that seat saw, until a card that may be one of them leaves
    the hand (then every known card with that back counts as gone)."""
    known: list[str] = []

    def drop(back: Any, code: Any) -> None:
        if code:
            if code in known:
                known.remove(code)
            return
        if back == "?" or back is None:
            known.clear()
        else:
            known[:] = [c for c in known if ("k" if c[0] == "k" else c[0]) != back]

    for e in events:
        t = e["t"]
        if t == "take" and e["p"] == q:
            known.append(e["c"])
        elif t == "match" and e["p"] == q:
            drop(None, e["with"])
        elif t == "put" and e["p"] == q:
            drop(e.get("back"), e.get("c"))
        elif t == "pairs" and e["p"] == q:
            for c in e["cards"]:
                drop(None, c)
        elif t == "bribe" and "back" in e:
            if e["from"] == q:
                drop(e.get("back"), e.get("c"))
            elif e["p"] == q and e.get("c"):
                known.append(e["c"])
    return known


def _determinize(game: ElectorsGame, seat: int, view: dict[str, Any],
                 events: list[dict[str, Any]], rng: Rng) -> ElectorsState:
    n = view["players"]
    if not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"there is no seat {seat!r} in this game")
    opts = view["options"]
    base = ElectorsState(game, 0, n, opts, deal=False)
    kingdom = base.kingdom_cards()
    pool = list(kingdom)
    for p in range(n):
        pool += base.own_cards(p)
    # Out of the pool: what this seat sees or knows is gone.
    gone = list(view["hand"])
    for a in view["acquired"]:
        gone += [printed(c) for c in a]
    placers: dict[str, int] = {}
    for e in events:
        if e["t"] == "buy":
            gone += [printed(c) for c in e["paid"]]
        elif e["t"] in ("put", "decktop"):
            placers[e["cell"]] = e["p"]
    grid_rows = view["grid"]
    W = len(grid_rows[0])
    cells: list[dict[str, Any] | None] = []
    hidden: list[tuple[int, str]] = []
    for r, row in enumerate(grid_rows):
        for c, cell in enumerate(row):
            i = r * W + c
            if cell is None:
                cells.append(None)
                continue
            name = f"{LETTERS[c]}{r + 1}"
            placer = placers.get(name)
            d = {"up": cell["up"], "placer": placer}
            if cell.get("c"):
                gone.append(cell["c"])
                d["c"] = cell["c"]
            else:
                hidden.append((i, cell["back"]))
            cells.append(d)
    for c in gone:
        pool.remove(c)
    hands: list[list[str] | None] = [None] * n
    hands[seat] = list(view["hand"])
    for q in range(n):
        if q != seat:
            sure: list[str] = []
            for code in known_in_hand(events, q):
                if code in pool and len(sure) < view["hand_counts"][q]:
                    pool.remove(code)
                    sure.append(code)
            hands[q] = sure
    colours = base.colours
    yours = colours[seat]

    def draw(k: int, allowed: Any) -> list[str]:
        return _draw_from(pool, k, allowed, rng, "determinize")

    for i, back in hidden:
        if back in _CI:
            cells[i]["c"] = draw(1, lambda c, b=back: c[0] == b)[0]  # type: ignore[index]
    for i, back in hidden:
        if back == "k":
            cells[i]["c"] = draw(1, is_kingdom)[0]  # type: ignore[index]
    box = draw(len(kingdom) - len(cells), is_kingdom)
    decks, burnt = [], []
    for q in range(n):
        mine = colours[q]
        cards = draw(view["deck_counts"][q] + view["burnt"][q],
                     lambda c, m=mine: c[0] != "k" and c[0] in m)
        burnt.append(cards[:view["burnt"][q]])
        decks.append(cards[view["burnt"][q]:])
    for i, back in hidden:
        if back == "?":
            cells[i]["c"] = draw(1, lambda c: c[0] == "k" or c[0] not in yours)[0]  # type: ignore[index]
    for q in range(n):
        if q != seat:
            h = hands[q]
            assert h is not None
            h += draw(view["hand_counts"][q] - len(h), lambda c: True)
    owned = [item["id"] for items in view["influence"] for item in items]
    ideck = [i for i in influence_set(opts["influence_set"])
             if i not in owned and i not in view["market"]]
    rng.shuffle(ideck)
    trig = view["trigger"]
    position = {
        "players": n, "seed": rng.randbelow(1 << 62), "you": None,
        "grid": [cells[r * W:(r + 1) * W] for r in range(len(grid_rows))],
        "hands": hands, "decks": decks, "burnt": burnt, "box": box,
        "acquired": view["acquired"], "influence": view["influence"],
        "market": view["market"], "influence_deck": ideck, "cubes": view["cubes"],
        "supply": view["supply"], "start": view["start"], "active": view["active"],
        "round": view["round"], "phase": view["phase"], "bought": view["bought"],
        "pending": view["pending"], "bribe": view["bribe"], "resume": view.get("resume"),
        "final": view["final"], "turn_no": 1,
        "trigger": None if trig is None else dict(trig),
        "revealed": _revealed(events) if view["phase"] == "pairs" else 0,
    }
    world = _load_position(game, position, opts)
    world.quiet = True
    return world


def _revealed(events: list[dict[str, Any]]) -> int:
    """Pairs the seat revealing pairs now has revealed so far."""
    k = 0
    last = None
    for e in reversed(events):
        if e["t"] != "pairs" or not e["cards"] or (k and e["p"] != last):
            break
        last = e["p"]
        k += 1
    return k
