"""ART OF WAR: two players, a 2×3 field each, a five-slot waiting line, four ways to win.

Rules: ``shared/rules/artofwar.md`` (section numbers §n and decisions §13.n refer to it).
Seat 0 is player 1 (P1, who moves first), seat 1 is player 2 (P2).

The rules in short
------------------
Each player has a deck of 20 troops (Soldier S, Guardian G, Archer A, Priest P, Wizard W)
and a King K (one of K-001…K-010), a field of 6 cells (front row ``Fa Fb Fc``, back row
``Ba Bb Bc``; lanes a b c as P1 sees the table, the same letters for both players), a
waiting line (5 slots), a kingdom (cards by type) and a graveyard. Set-up (§4): draw 3,
mulligan once (P1 decides first), the King to hand, the deck's top card to the kingdom,
one hand card to the field, one to the waiting line. A turn (§5): recovery (own cards
upright), draw 1, then phase ③: at most one of Arrange (one card to the field: the
waiting line's leftmost card if it holds any, else a hand card) or Battle (attacks by
upright cards in range, each turning sideways); timing-③ supports (Soldier +1 ATK this
turn, Archer 1 damage, Priest moves a card) at any point between steps, each put in the
waiting line; Entry (a hand card to the kingdom) once per turn; at the end the hand limit
(6 cards and no Entry yet: enter one), damage clears. An attack opens the defender's
Guardian window (cancels the attack), any support placement the other player's Wizard
window (cancels it; Wizards answer Wizards, resolved from the last back). ATK equal to the
target's DEF may capture it (to the attacker's kingdom); damage over DEF destroys it. An
empty field is refilled at once with 2 cards (waiting line first, then the kingdom).
Wins: Execution (the enemy King destroyed or captured), Founding (more cards than the
opponent in 4 of the 5 kingdom types), Annihilation (the opponent cannot refill its
field), End of War (both decks empty at a turn's end: more kingdom cards, then fewer
graveyard cards, else a draw).

Windows open by public information only: the Guardian window when the defender's waiting
line has room, its hand is not empty and its ``unseen`` cards (hand ∪ deck, public by
deduction) hold a Guardian or its King; the Wizard window likewise with a Wizard. So being
asked never tells what a hand holds; ``pass`` is always an answer.

Notation (actions)
------------------
``<cell>`` is one of ``Fa Fb Fc Ba Bb Bc`` (own cells unless said "enemy").

===========  ==============================================================================
``keep``     set-up step 4: keep the 3 cards drawn; ``mull``: put them back, reshuffle,
             draw 3 (option ``mulligan`` = ``once``)
``S>Fa``     set-up step 6: hand card S to a front cell; in phase ③: Arrange hand card S
             to Fa (only while the waiting line is empty; a displaced card goes to hand)
``S>w``      set-up step 7: hand card S to the waiting line
``w>Fa``     Arrange the leftmost waiting card to Fa (a displaced card goes to the
             waiting line's right end); in a conscription: the next waiting card to Fa
``FbxFc``    the upright card at Fb attacks the ENEMY card at Fc (in range, §3)
``+S``       a timing-③ support from hand: ``+S`` ``+A`` ``+P``; ``+KS`` ``+KA``
             ``+KP``: the King declaring that support
``+G``       in a Guardian window: a Guardian (``+KG``: the King as one)
``+W``       in a Wizard window: a Wizard (``+KW``: the King as one)
``pass``     decline a window
``cap``      after an attack with ATK = DEF (per ``capture_basis``): capture; ``dmg``:
             deal the damage instead
``aFc``      the Archer support's target: the ENEMY card at Fc
``mFa-Bb``   the Priest support: move own Fa's card to Bb (swap if Bb is occupied)
``kS>Fa``    conscription: a Soldier from the kingdom to Fa (after the waiting cards)
``eS``       Entry: hand card S into the kingdom (once per turn, never the King)
``end``      end the turn (at the hand limit with no Entry yet: phase ``limit``, where
             only ``eX`` is legal; then the turn ends by itself)
===========  ==============================================================================

Every decision has one chooser (``to_move`` is one seat): recovery, draws, Founding and
the other checks are automatic. Every attack and every support is one step: its windows,
its capture choice, its targets and any conscription it forces are played to the end
before the active player's next phase-③ action.

View (``state.view(seat)``; ``seat`` None = spectator), all JSON data
----------------------------------------------------------------------
::

    {"game": "artofwar", "options": {...resolved...}, "you": seat | None,
     "phase": "mulligan" | "field" | "wait" | "main" | "window" | "capture" | "archer" |
              "priest" | "conscript" | "limit" | "over",
     "turn": 1.. (0 during set-up), "active": seat whose turn (in set-up: the chooser),
     "kings": [1, 2],                              # each seat's King number
     "fields": [{"Fa": {"c": "S", "up": True, "dmg": 0}, ...}, {...}],  # occupied cells
     "waiting": [["G", "K"], []],                  # left to right
     "capacity": 5, "hand_limit": 6,
     "kingdoms": [{"S": 1, "G": 0, "A": 2, "P": 0, "W": 0}, {...}],
     "founding": [n0, n1],                         # types where each seat has strictly more
     "graveyards": [["S", "A"], []],               # in order of arrival
     "deck_counts": [16, 16], "hand_counts": [2, 2],
     "hand": ["A", "S", "K"] | None,               # the viewer's (TYPES order, K last)
     "unseen": [{"S": 3, ..., "W": 4, "K": 1}, {...}],   # each seat's hand ∪ deck by card
     "bonus": 0,                                   # Soldier supports resolved this turn
     "arranged": False, "attacked": False, "entered": False,   # this turn, active seat
     "attack": None | {"p", "from", "to", "atk", "card"},      # the attack being resolved
     "chain": [{"p", "c": "G" | "W" | "K", "as": "G" | "W"}],  # the open window's placements
                                                   # (a Guardian first; a support's are in
                                                   # "pending", not here)
     "pending": None | {"p", "c": card, "as": "S" | "A" | "P"},  # a timing-③ support in its
                                                   # Wizard window or awaiting its target
     "window": None | {"kind": "guardian" | "wizard", "p": responder},
     "conscript": None | {"p", "left": cards still to place, "first": cell | None},
     "last_attacked": None | {"p", "cell"},        # this turn's last attack target
     "mulligans": [bool | None, bool | None],      # True: mulliganed; None: not decided
     "to_move": [seat] | [], "outcome": None | {...}}

Events (``state.events(seat)``), each ``{"t": kind, ...}``
----------------------------------------------------------
Fields in [brackets] are seen only by seat ``p`` (``private_event``).

==============  ==========================================================================
``draw``        ``p``, ``n``, [``cards``]
``mulligan``    ``p``, ``mull`` (True: the 3 cards went back, a ``draw`` follows),
                [``cards``]: the 3 cards decided on
``kingdom``     ``p``, ``c``: set-up step 5, the deck's top card to the kingdom
``place``       ``p``, ``c``, ``to`` (a cell, or ``"w"`` the waiting line): set-up 6 and 7
``turn``        ``p``, ``n``: turn ``n`` starts
``recover``     ``p``, ``cells`` (the cells turned upright)
``arrange``     ``p``, ``c``, ``to``, ``from`` (``"hand"`` | ``"wait"``), ``out`` (the
                displaced card, absent if none) and ``out_to`` (``"hand"`` | ``"wait"``)
``attack``      ``p``, ``from``, ``to`` (enemy cell), ``c``, ``atk``
``support``     ``p``, ``c`` (the card: a type or ``K``), ``as``: a card placed in the
                waiting line as a support (timing ③, Guardian or Wizard)
``pass``        ``p``, ``kind`` (``"guardian"`` | ``"wizard"``): a window declined
``cancel``      ``p``, ``c``, ``as``: that placement was cancelled by a Wizard
``guarded``     ``p`` (the defender), ``cell``: a Guardian cancelled the attack
``damage``      ``p`` (owner), ``cell``, ``c``, ``n``, ``total``
``capture``     ``p`` (the captor), ``from`` (the owner), ``cell``, ``c``
``destroy``     ``p`` (owner: the card goes to its graveyard), ``cell``, ``c``
``advance``     ``p``, ``from`` (back cell), ``to`` (front cell), ``c``
``archer``      ``p``, ``to`` (enemy cell): the Archer support's hit (a ``damage`` follows)
``priest``      ``p``, ``from``, ``to``, ``swap``
``enter``       ``p``, ``c``
``conscript``   ``p``, ``c``, ``to``, ``src`` (``"wait"`` | ``"kingdom"``)
``end_turn``    ``p``
``execution``   ``winner``, ``p`` (whose King fell)
``founding``    ``winner``, ``types`` [n0, n1]
``annihilation`` ``winner``, ``p`` (who could not conscript)
``end_of_war``  ``winner`` (None: a draw), ``kingdoms`` [n0, n1], ``graveyards`` [g0, g1]
==============  ==========================================================================

The outcome's ``reason`` is the end event's kind; a drawn End of War has no winner.

Positions by hand: :meth:`ArtOfWarGame.from_position` builds a state from a view-like dict
(tests, embeds, rules pages, and the determiniser).

>>> s = ArtOfWarGame().new_game(seed=1)
>>> s.to_move(), s.legal_actions(0)
([0], ['keep', 'mull'])
>>> s.apply(0, "keep"); s.apply(1, "keep")
>>> s.view(0)["phase"], s.view(0)["hand_counts"], s.view(0)["deck_counts"]
('field', [4, 4], [16, 16])
"""

from __future__ import annotations

import marshal
import re
from typing import Any, ClassVar

from .core import Game, Rng, State, private_event, two_player_outcome

# -- card data (§2, §3, §11): plain data, easy to swap -------------------------------------
#: The five troop types, in the order kingdoms, decks and codes list them.
TYPES = ("S", "G", "A", "P", "W")
KING = "K"
TYPE_NAMES: dict[str, dict[str, str]] = {
    "S": {"en": "Soldier", "ja": "ソルジャー"},
    "G": {"en": "Guardian", "ja": "ガーディアン"},
    "A": {"en": "Archer", "ja": "アーチャー"},
    "P": {"en": "Priest", "ja": "プリースト"},
    "W": {"en": "Wizard", "ja": "ウィザード"},
    "K": {"en": "King", "ja": "キング"},
}
#: ATK of each troop type; None is X (the attacker's hand size when it turns sideways).
ATK: dict[str, int | None] = {"S": None, "G": 1, "A": 1, "P": 1, "W": 1}
#: DEF upright / sideways.
DEF: dict[str, tuple[int, int]] = {"S": (2, 1), "G": (3, 2), "A": (2, 1), "P": (2, 2),
                                   "W": (2, 1)}
_FRONT = ((0, 1),)
_ROW = tuple((dx, 1) for dx in (-2, -1, 0, 1, 2))
#: Range offsets ``(dx, k)``: ``k`` steps toward the enemy, ``dx`` lanes sideways (§3).
RANGES: dict[str, tuple[tuple[int, int], ...]] = {
    "S": _FRONT,
    "G": _FRONT,
    "A": ((-1, 2), (1, 2), (-2, 1), (2, 1)),
    "P": ((-1, 1), (1, 1)),
    "W": ((0, 1), (0, 2), (0, 3)),
}
#: The Kings, by number: ATK (None: X), DEF upright/sideways, range, and whether the data
#: is a placeholder of §11 (shown as provisional wherever the app shows it).
KINGS: dict[int, dict[str, Any]] = {
    1: {"atk": 1, "def": (4, 4), "range": (*_ROW, (0, 2)), "provisional": False},
    2: {"atk": 1, "def": (5, 4), "range": _ROW, "provisional": False},
    3: {"atk": 1, "def": (4, 3), "range": (*_FRONT, *RANGES["P"]), "provisional": True},
    4: {"atk": 1, "def": (4, 3), "range": RANGES["A"], "provisional": True},
    5: {"atk": 1, "def": (4, 3), "range": RANGES["W"], "provisional": True},
    6: {"atk": None, "def": (4, 3), "range": _FRONT, "provisional": True},
    7: {"atk": 2, "def": (4, 3), "range": _FRONT, "provisional": True},
    8: {"atk": 1, "def": (6, 3), "range": _FRONT, "provisional": True},
    9: {"atk": 1, "def": (5, 3), "range": (*RANGES["P"], (0, 2)), "provisional": True},
    10: {"atk": 1, "def": (4, 4), "range": _ROW, "provisional": True},
}
#: Troops in a deck besides its King (§4).
DECK_TROOPS = 20


def king_name(number: int) -> str:
    """``K-001`` … ``K-010``."""
    return f"K-{number:03d}"


# -- deck codes (§4): short text, so a deck travels in URLs, records and invite links -------
#: The starter decks (K-001 / K-002 and 4 of each troop): player 1's and player 2's default.
STARTER = ("K1S4G4A4P4W4", "K2S4G4A4P4W4")
_CODE = re.compile(r"K(\d{1,2})((?:[A-Z]\d{1,2})*)")


class DeckError(ValueError):
    """A deck code that is not a legal deck; ``str()`` says why in English, ``.ja`` in
    Japanese, ``.key`` names the problem (``code``, ``king``, ``card``, ``twice``,
    ``count``, ``copies``)."""

    def __init__(self, key: str, en: str, ja: str) -> None:
        super().__init__(en)
        self.key, self.ja = key, ja

    def message(self, lang: str) -> str:
        """The reason in ``lang`` (``en`` or ``ja``)."""
        return self.ja if lang == "ja" else str(self)


def deck_code(king: int, counts: dict[str, int]) -> str:
    """The canonical code of a deck: ``K`` and the King's number, then each troop type
    with its count in the order of :data:`TYPES`, types with none left out.

    >>> deck_code(1, {"S": 4, "G": 4, "A": 4, "P": 4, "W": 4})
    'K1S4G4A4P4W4'
    >>> deck_code(2, {"S": 10, "G": 10})
    'K2S10G10'
    """
    return f"K{king}" + "".join(f"{t}{counts[t]}" for t in TYPES if counts.get(t))


def parse_deck(code: Any, max_copies: int = 0) -> tuple[int, dict[str, int]]:
    """``(king number, {type: count})`` of a deck code (every type present, 0 if none),
    or :class:`DeckError` saying what is wrong. Letters may be lower case and types in any
    order; ``max_copies`` (``max_copies_per_type``, 0 for no limit) caps each type.

    >>> parse_deck("k2 s10 g10")
    (2, {'S': 10, 'G': 10, 'A': 0, 'P': 0, 'W': 0})
    >>> parse_deck("K1S4G4A4P4W3")
    Traceback (most recent call last):
    ...
    pygames.artofwar.DeckError: a deck holds 20 troops besides its King; this one holds 19
    """
    text = re.sub(r"[\s\-_.]", "", code).upper() if isinstance(code, str) else None
    shown = str(code)[:30] if isinstance(code, str) else type(code).__name__
    match = _CODE.fullmatch(text) if text is not None and len(text) <= 40 else None
    if match is None:
        raise DeckError("code", f"\u201c{shown}\u201d is not a deck code (a deck code reads "
                        "like K1S4G4A4P4W4: the King's number, then each troop type's letter "
                        "and count)",
                        f"「{shown}」はデッキコードではありません（K1S4G4A4P4W4 のように、"
                        "キングの番号のあとに兵種の文字と枚数を続けます）")
    king = int(match.group(1))
    if king not in KINGS:
        raise DeckError("king", f"there is no King K-{king:03d} (the Kings are K-001 to "
                        f"K-{len(KINGS):03d})",
                        f"キング K-{king:03d} はありません（K-001〜K-{len(KINGS):03d}）")
    counts = dict.fromkeys(TYPES, 0)
    seen: set[str] = set()
    for letter, number in re.findall(r"([A-Z])(\d{1,2})", match.group(2)):
        if letter not in counts:
            raise DeckError("card", f"\u201c{letter}\u201d is no troop type (the types are "
                            "S Soldier, G Guardian, A Archer, P Priest, W Wizard)",
                            f"「{letter}」という兵種はありません（S ソルジャー、G ガーディアン、"
                            "A アーチャー、P プリースト、W ウィザード）")
        if letter in seen:
            name = TYPE_NAMES[letter]
            raise DeckError("twice", f"the code gives the {name['en']} count twice",
                            f"コードに{name['ja']}の枚数が2回あります")
        seen.add(letter)
        counts[letter] = int(number)
    total = sum(counts.values())
    if total != DECK_TROOPS:
        raise DeckError("count", f"a deck holds {DECK_TROOPS} troops besides its King; "
                        f"this one holds {total}",
                        f"デッキはキングのほかに兵{DECK_TROOPS}枚です（このデッキは{total}枚）")
    if max_copies:
        over = [t for t in TYPES if counts[t] > max_copies]
        if over:
            t = over[0]
            raise DeckError("copies", f"at most {max_copies} cards of one type "
                            f"({TYPE_NAMES[t]['en']}: {counts[t]})",
                            f"同じ兵種は{max_copies}枚までです（{TYPE_NAMES[t]['ja']}："
                            f"{counts[t]}枚）")
    return king, counts


def deck_cards(code: str) -> list[str]:
    """The 20 troop cards of a deck as letters, in :data:`TYPES` order (no King)."""
    _, counts = parse_deck(code)
    return [t for t in TYPES for _ in range(counts[t])]


# -- the engine: geometry and notation (§3) ------------------------------------------------
#: A player's own cells, by index: 0-2 the front row (lanes a b c), 3-5 the back row.
CELLS = ("Fa", "Fb", "Fc", "Ba", "Bb", "Bc")
CELL_INDEX = {c: i for i, c in enumerate(CELLS)}
#: Hand counts are kept per card in this order: the five troops, then the King.
CARDS = (*TYPES, KING)
_IDX = {c: i for i, c in enumerate(CARDS)}
_K = 5  # the King's index in a hand's counts
_G, _A, _P, _W = 1, 2, 3, 4


def _targets(offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """Per own cell, the enemy cells a range reaches (§3): ``k`` steps forward from the
    front row reach the enemy front row at 1 and its back row at 2; from the back row one
    step more is needed (the first lands in the own front row and is ignored)."""
    out = []
    for i in range(6):
        lane, back = i % 3, i >= 3
        hit: set[int] = set()
        for dx, k in offsets:
            to = lane + dx
            reach = k - (1 if back else 0)
            if 0 <= to < 3 and reach in (1, 2):
                hit.add(to if reach == 1 else 3 + to)
        out.append(tuple(sorted(hit)))
    return tuple(out)


def _stats(king: int) -> tuple[tuple[int | None, int, int, tuple[tuple[int, ...], ...]], ...]:
    """Per card index (:data:`CARDS`, the King being ``king``): (ATK or None for X, DEF
    upright, DEF sideways, targets per own cell)."""
    rows = [(ATK[t], DEF[t][0], DEF[t][1], _targets(RANGES[t])) for t in TYPES]
    k = KINGS[king]
    rows.append((k["atk"], k["def"][0], k["def"][1], _targets(k["range"])))
    return tuple(rows)


_STATS = {k: _stats(k) for k in KINGS}

# The action texts, made once (legal_actions hands these very strings out).
_PLACE = tuple(tuple(f"{c}>{CELLS[i]}" for i in range(6)) for c in CARDS)
_TOWAIT = tuple(f"{c}>w" for c in CARDS)
_WARR = tuple(f"w>{x}" for x in CELLS)
_KCON = tuple(tuple(f"k{t}>{x}" for x in CELLS) for t in TYPES)
_ATTACK = tuple(tuple(f"{a}x{b}" for b in CELLS) for a in CELLS)
_ARCH = tuple(f"a{x}" for x in CELLS)
_PRI = tuple(tuple(f"m{a}-{b}" for b in CELLS) for a in CELLS)
_ENTER = tuple(f"e{t}" for t in TYPES)
#: Every action text -> (kind, a, b).
_ACT: dict[str, tuple[str, int, int]] = {"keep": ("keep", 0, 0), "mull": ("mull", 0, 0),
                                         "pass": ("pass", 0, 0), "cap": ("cap", 0, 0),
                                         "dmg": ("dmg", 0, 0), "end": ("end", 0, 0)}
for _c in range(6):
    _ACT[_TOWAIT[_c]] = ("towait", _c, 0)
    for _i in range(6):
        _ACT[_PLACE[_c][_i]] = ("place", _c, _i)
for _i in range(6):
    _ACT[_WARR[_i]] = ("warr", 0, _i)
    _ACT[_ARCH[_i]] = ("arch", 0, _i)
    for _j in range(6):
        _ACT[_ATTACK[_i][_j]] = ("atk", _i, _j)
        if _i != _j:
            _ACT[_PRI[_i][_j]] = ("pri", _i, _j)
for _t in range(5):
    _ACT[_ENTER[_t]] = ("enter", _t, 0)
    for _i in range(6):
        _ACT[_KCON[_t][_i]] = ("kcon", _t, _i)
#: Supports: "+S" (own card) and "+KS" (the King declaring it); b = 1 for the King.
for _t, _letter in enumerate(TYPES):
    _ACT["+" + _letter] = ("sup", _t, 0)
    _ACT["+K" + _letter] = ("sup", _t, 1)
del _c, _i, _j, _t, _letter
_SUPPORT_TEXT = (("+S", "+KS"), ("+G", "+KG"), ("+A", "+KA"), ("+P", "+KP"), ("+W", "+KW"))

#: The phases a view names (``over`` once the game has ended).
PHASES = ("mulligan", "field", "wait", "main", "window", "capture", "archer", "priest",
          "conscript", "limit", "over")
_SETUP = ("mulligan", "field", "wait")


# -- the game ------------------------------------------------------------------------------
def _label(en: str, ja: str) -> dict[str, str]:
    return {"en": en, "ja": ja}


class ArtOfWarGame(Game):
    """ART OF WAR with two decks given as deck codes (options ``deck1`` and ``deck2``)."""

    id: ClassVar[str] = "artofwar"
    names: ClassVar[dict[str, str]] = {"en": "ART OF WAR", "ja": "アート・オブ・ウォー"}
    min_players = 2
    max_players = 2
    option_schema: ClassVar[dict[str, dict[str, Any]]] = {
        "deck1": {"default": STARTER[0]},
        "deck2": {"default": STARTER[1]},
        "capture_basis": {"values": ["single_attack", "accumulated"],
                          "default": "single_attack"},
        "destroy_when": {"values": ["exceeds", "reaches"], "default": "exceeds"},
        "archer_support_target": {"values": ["any", "last_attacked"], "default": "any"},
        "conscription_total": {"values": ["field", "kingdom"], "default": "field"},
        "hand_limit": {"values": [6, 5, 7], "default": 6},
        "waiting_capacity": {"values": [5, 4, 6], "default": 5},
        "mulligan": {"values": ["once", "none"], "default": "once"},
        "first_player_draws_turn1": {"values": ["yes", "no"], "default": "yes"},
        "max_copies_per_type": {"values": [0, 10], "default": 0},
    }
    option_labels: ClassVar[dict[str, dict[Any, dict[str, str]]]] = {
        "deck1": {"label": _label("Player 1's deck", "プレイヤー1のデッキ")},
        "deck2": {"label": _label("Player 2's deck", "プレイヤー2のデッキ")},
        "capture_basis": {
            "label": _label("Capture when", "捕獲の条件"),
            "single_attack": _label("This attack's ATK equals DEF (as the rules)",
                                    "この攻撃の攻撃力＝防御力（ルール通り）"),
            "accumulated": _label("Damage total after the hit equals DEF",
                                  "攻撃後のダメージ合計＝防御力"),
        },
        "destroy_when": {
            "label": _label("Destroyed when damage", "破壊されるダメージ"),
            "exceeds": _label("Exceeds DEF (as the rules)", "防御力を超えたとき（ルール通り）"),
            "reaches": _label("Reaches DEF", "防御力に達したとき"),
        },
        "archer_support_target": {
            "label": _label("Archer support hits", "アーチャー支援の対象"),
            "any": _label("Any enemy card (as the rules)", "敵の任意のカード（ルール通り）"),
            "last_attacked": _label("Only the card just attacked", "直前に攻撃したカードのみ"),
        },
        "conscription_total": {
            "label": _label("Conscription", "徴兵"),
            "field": _label("Fill the field up to 2 cards", "戦場が2枚になるまで"),
            "kingdom": _label("Waiting cards, then 2 more from the kingdom",
                              "待機カードのあと王国から2枚"),
        },
        "hand_limit": {
            "label": _label("Hand limit", "手札の上限"),
            6: _label("6 cards (as the rules)", "6枚（ルール通り）"),
            5: _label("5 cards", "5枚"),
            7: _label("7 cards", "7枚"),
        },
        "waiting_capacity": {
            "label": _label("Waiting line", "待機エリア"),
            5: _label("5 cards (as the rules)", "5枚（ルール通り）"),
            4: _label("4 cards", "4枚"),
            6: _label("6 cards", "6枚"),
        },
        "mulligan": {
            "label": _label("Mulligan", "マリガン"),
            "once": _label("Once (redraw all 3)", "1回（3枚引き直し）"),
            "none": _label("None", "なし"),
        },
        "first_player_draws_turn1": {
            "label": _label("First player draws on turn 1", "先手は1ターン目も引く"),
            "yes": _label("Yes", "はい"),
            "no": _label("No", "いいえ"),
        },
        "max_copies_per_type": {
            "label": _label("Copies of one type in a deck", "デッキの同じ兵種の枚数"),
            0: _label("No limit", "制限なし"),
            10: _label("At most 10 (one box)", "10枚まで（1箱分）"),
        },
    }
    #: A random game is ~120 actions (about 1,900 fast playouts a second from the start in
    #: CPython), and playouts run to the end: a full random playout judged this game far
    #: better than a cut one with a fitted estimate (that bot hoarded its hand and drew
    #: nearly every game against flat Monte Carlo). An iteration costs ~0.24 ms mid-game, so
    #: a strong move takes ~0.24 s (CPython median, ~2-4x that in Pyodide, capped at 1 s
    #: by the app); it beat flat Monte Carlo at 1,000 iterations 60% (100 games). A turn
    #: holds many decisions (~4), so each gets fewer iterations than Kiri-ai's.
    search_iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 300, "strong": 1000}
    #: The others' choices (a window's answer, the opponent's turn) hang on the hand the
    #: searcher hides: searched in worlds that show it, they answered it as if they saw it,
    #: and the bot grew timid (47.5% against flat Monte Carlo); at random, as in the
    #: playouts, it beat flat Monte Carlo (60%).
    search_opponents = False

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """The shared checks, then both deck codes in their canonical form (a bad one
        raises its :class:`DeckError`, a ``ValueError`` naming the problem)."""
        resolved = super().resolve_options(options)
        cap = resolved["max_copies_per_type"]
        for key in ("deck1", "deck2"):
            try:
                resolved[key] = deck_code(*parse_deck(resolved[key], cap))
            except DeckError as exc:
                seat = "1" if key == "deck1" else "2"
                raise DeckError(exc.key, f"option {key!r} (player {seat}'s deck): {exc}",
                                f"プレイヤー{seat}のデッキ：{exc.ja}") from None
        return resolved

    def sample_options(self, rng: Any) -> dict[str, Any]:
        """Two random legal decks (any King, 20 troops spread at random over the types,
        at most 10 of a type so the "one box" option accepts them too), for the battery."""
        out = {}
        for name in ("deck1", "deck2"):
            counts = dict.fromkeys(TYPES, 0)
            while sum(counts.values()) < DECK_TROOPS:
                t = TYPES[int(rng.random() * len(TYPES))]
                if counts[t] < 10:
                    counts[t] += 1
            out[name] = deck_code(1 + int(rng.random() * len(KINGS)), counts)
        return out

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> ArtOfWarState:
        return ArtOfWarState(self, seed, players, options)

    def from_position(self, position: dict[str, Any], *,
                      options: dict[str, Any] | None = None) -> ArtOfWarState:
        """A state from a hand-made position (tests, embeds, rules pages): a view
        (``state.view(seat)``) with what it hides filled in, or a short form.

        Seat lists are ``[P1's, P2's]``; a card is its letter (``S G A P W K``), a cell
        ``Fa``..``Bc``. Keys (all optional; defaults make a position in P1's phase ③ of
        turn 1):

        * ``fields``: per seat ``{cell: {"c", "up" (True), "dmg" (0)}}`` or ``{cell: "S"}``.
        * ``waiting`` (left to right), ``graveyards``: per seat a list of letters;
          ``kingdoms``: per seat ``{type: count}``.
        * ``hands``: per seat a list of letters. Or a view's ``hand`` (seat ``you``'s);
          a hand not given is drawn at random (``seed``) from that seat's ``unseen``
          cards, else from its deck's cards seen nowhere else, at the size
          ``hand_counts`` gives (the King is in it when it is nowhere else).
        * ``decks``: per seat, bottom card first (the last is the top). By default the
          seat's ``unseen`` cards not in its hand, else its deck code's troops seen
          nowhere on its side, shuffled by the state's PRNG (``seed``); ``deck_counts``,
          if given, must match.
        * ``phase`` (``main``), ``turn`` (1; 0 in set-up phases), ``bonus``, ``arranged``,
          ``attacked``, ``entered``, ``attack``, ``chain``, ``pending``, ``window``,
          ``conscript``, ``last_attacked``, ``mulligans``: as in a view (see the module
          docstring).
        * ``options`` (a view's): used when ``options`` is not given, else must agree.
        * Checked if given: ``game``, ``kings``, ``capacity``, ``hand_limit``,
          ``active``, ``to_move``, ``founding``, ``hand_counts``, ``deck_counts``,
          ``unseen`` (against the hands and decks), ``outcome`` (must be None).

        Checked as a whole (``ValueError`` saying what is wrong): unknown cards or cells,
        a back card with no card in front of it, damage the card would not have survived
        or on the player whose turn it is, a waiting line over capacity, not exactly one
        King per seat (none in hand before the mulligans are done), more cards of a type
        than both decks hold, an empty field outside set-up and conscription, a won
        Founding, and each phase's own needs (a window needs the attack or support it
        answers, a capture needs ATK equal to DEF, ...). The state has an empty record.
        """
        return _load_position(self, position, options)

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> ArtOfWarState:
        """A state ``seat`` cannot tell from the real one, made from ``view`` and
        ``events`` (this seat's, from the start) only.

        Kept: everything public and the seat's own hand. Sampled with ``rng``: the
        opponent's hand, ``hand_counts`` cards of its ``unseen`` ones (hand ∪ deck), with
        what the events prove is in it: its King when it is nowhere else, and each card an
        Arrange from hand sent back to it that no card of its type has left the hand
        since; the rest of its ``unseen`` cards are its deck. Both decks are shuffled
        uniformly (nothing in this game reveals a deck's order). The world is quiet (no
        events) and has an empty record."""
        if seat not in (0, 1):
            raise ValueError(f"there is no seat {seat!r} in ART OF WAR")
        opp = 1 - seat
        known = known_in_hand(events, opp)
        left = dict(view["unseen"][opp])
        size = view["hand_counts"][opp]
        hand = [KING] * left.get(KING, 0)
        left[KING] = 0
        for c in range(5):
            take = min(known[c], left[TYPES[c]], size - len(hand))
            hand += [TYPES[c]] * take
            left[TYPES[c]] -= take
        rest = [t for t in TYPES for _ in range(left[t])]
        rng.shuffle(rest)
        hand += rest[:size - len(hand)]
        hands: list[Any] = [None, None]
        hands[seat], hands[opp] = view["hand"], hand
        position = dict(view)
        position["hands"] = hands
        position["seed"] = rng.randbelow(1 << 62)
        world = _load_position(self, position, view.get("options"))
        world.quiet = True
        return world

    def forced_is_secret(self, seat: int, view: dict[str, Any]) -> bool:
        """True in a phase whose legal actions hang on ``seat``'s hand (:data:`HAND_PHASES`)
        while that hand holds a card: above all a window, which opens by public
        information, so that a bot left only ``pass`` by its hand thinks as long as one
        holding a Guardian or a Wizard (its speed must not tell which)."""
        return view["phase"] in HAND_PHASES and bool(view["hand_counts"][seat])


#: The phases whose legal actions hang on the chooser's hand: a Guardian or Wizard window
#: (it opens by public information; the hand decides whether ``pass`` is all there is), the
#: hand limit's Entry, set-up's card to the waiting line, and phase ③ (its supports).
HAND_PHASES = frozenset({"window", "limit", "wait", "main"})


def known_in_hand(events: list[dict[str, Any]], p: int) -> list[int]:
    """Per card (:data:`CARDS` order), how many the events prove are in seat ``p``'s hand
    now beyond its King: cards an Arrange from hand sent back to it, less one for each
    card of that type that has left the hand since (it may have been that one)."""
    known = [0] * 6
    for e in events:
        if e.get("p") != p:
            continue
        t = e["t"]
        if t == "mulligan":
            known = [0] * 6
        elif t in ("support", "enter", "place") or (t == "arrange" and e["from"] == "hand"):
            c = _IDX[e["c"]]
            known[c] = max(0, known[c] - 1)
            if t == "arrange" and e.get("out_to") == "hand":
                known[_IDX[e["out"]]] += 1
    return known


# -- the state -----------------------------------------------------------------------------
Cell = tuple[str, bool, int]  # (card letter, upright, damage)


class ArtOfWarState(State):
    """An ART OF WAR game in progress. Every field is plain data (clone/compare friendly).

    ``fields[p]`` has 6 entries (:data:`CELLS` order), each None or ``(card, upright,
    damage)`` (a tuple: replaced, never changed). ``hands[p]`` counts cards per
    :data:`CARDS` index (troops, then the King); ``kingdoms[p]`` per troop type; decks are
    lists whose last item is the top card; waiting lines and graveyards are lists in
    order. ``mover`` is the one seat to act (every decision has one chooser). The step
    being resolved is ``attack`` ``(p, from, to, card, atk)``, ``pending`` (a timing-③
    support ``(p, card, as)``), ``chain`` (the placements of the open window, the support
    first when there is one), ``window`` ``(kind, responder)``, ``conscript`` ``(seat,
    cards left, first cell or None)``, ``last_attacked`` ``(seat, cell)``.

    Every rule is written once and serves both the public protocol and search's fast path:
    ``apply`` and ``apply_fast`` both run :meth:`_apply`; a fast copy is ``quiet`` (it
    makes no events). The cards' numbers for each seat (its King's included) sit in the
    slot ``_st`` (from :data:`_STATS`, never compared).
    """

    __slots__ = ("_st",)
    _st: tuple[Any, Any]
    #: True in a copy for search (:meth:`clone_fast`, a determinised world): no events.
    quiet = False

    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        self._configure(options)
        self.rng = Rng(seed)
        for p, key in enumerate(("deck1", "deck2")):
            deck = deck_cards(options[key])
            self.rng.shuffle(deck)
            self.decks[p] = deck
        for p in (0, 1):
            self._draw(p, 3)
        if self.mull_once:
            self.phase = "mulligan"
        else:
            self._after_mulligans()

    def _configure(self, options: dict[str, Any]) -> None:
        """The fields every state has, empty, and the options as flags."""
        self.cap_acc = options["capture_basis"] == "accumulated"
        self.reaches = options["destroy_when"] == "reaches"
        self.arch_last = options["archer_support_target"] == "last_attacked"
        self.kconsc = options["conscription_total"] == "kingdom"
        self.limit = options["hand_limit"]
        self.capacity = options["waiting_capacity"]
        self.mull_once = options["mulligan"] == "once"
        self.draw1 = options["first_player_draws_turn1"] == "yes"
        self.kings = [parse_deck(options["deck1"])[0], parse_deck(options["deck2"])[0]]
        self._st = (_STATS[self.kings[0]], _STATS[self.kings[1]])
        self.rng = Rng(0)
        self.fields: list[list[Cell | None]] = [[None] * 6, [None] * 6]
        self.hands = [[0] * 6, [0] * 6]
        self.decks: list[list[str]] = [[], []]
        self.waiting: list[list[str]] = [[], []]
        self.kingdoms = [[0] * 5, [0] * 5]
        self.graves: list[list[str]] = [[], []]
        self.mulligans: list[bool | None] = [None, None]
        self.phase = "mulligan"
        self.turn = 0
        self.active = 0
        self.mover = 0
        self.bonus = 0
        self.arranged = self.attacked = self.entered = False
        self.attack: tuple[int, int, int, str, int] | None = None
        self.pending: tuple[int, str, str] | None = None
        self.chain: tuple[tuple[int, str, str], ...] = ()
        self.window: tuple[str, int] | None = None
        self.conscript: tuple[int, int, int | None] | None = None
        self.last_attacked: tuple[int, int] | None = None
        self.winner: int | None = None
        self.reason: str | None = None

    # -- protocol -----------------------------------------------------------------------
    def to_move(self) -> list[int]:
        return [] if self.phase == "over" else [self.mover]

    def legal_actions(self, player: int) -> list[str]:
        if self.phase == "over" or player != self.mover:
            return []
        return self._legal()

    def sheet_group(self) -> str | None:
        return "Setup" if self.turn == 0 else f"Turn {self.turn}"

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        return two_player_outcome(self.winner, self.reason)

    def hidden_twin(self, viewer: int | None) -> ArtOfWarState | None:
        """The other seats' hidden cards changed: a hand card swapped with a different
        deck card, and the deck reversed. What ``viewer`` cannot tell apart (hand and deck
        sizes and their union ``unseen`` stay the same). None when every other seat's deck
        is empty (then its hand is known: it is its ``unseen``)."""
        twin: ArtOfWarState | None = None
        for p in (0, 1):
            if p == viewer or not self.decks[p]:
                continue
            if twin is None:
                twin = object.__new__(type(self))
                twin.__dict__.update(vars(self))  # the log is shared (read only)
                twin._st = self._st
                twin.hands = [h[:] for h in self.hands]
                twin.decks = [d[:] for d in self.decks]
            hand, deck = twin.hands[p], twin.decks[p]
            deck.reverse()
            for c in range(6):
                if hand[c]:
                    k = next((k for k, d in enumerate(deck) if d != CARDS[c]), None)
                    if k is not None:
                        hand[c] -= 1
                        hand[_IDX[deck[k]]] += 1
                        deck[k] = CARDS[c]
                        break
        return twin

    def clone(self) -> ArtOfWarState:
        """An independent copy (as :meth:`State.clone`, faster: every field is plain data)."""
        twin = object.__new__(type(self))
        fields = {k: v for k, v in vars(self).items() if k not in ("game", "rng")}
        twin.__dict__.update(marshal.loads(marshal.dumps(fields)))
        twin.game = self.game
        twin._st = self._st
        twin.rng = Rng(0)
        twin.rng._state = self.rng._state
        return twin

    def _apply(self, player: int, action: str) -> None:
        kind, a, b = _ACT[action]
        ph = self.phase
        if ph == "main":
            if kind == "atk":
                self._declare(player, a, b)
            elif kind == "sup":
                self._support(player, a, b)
            elif kind == "place":
                self._arrange(player, a, b)
            elif kind == "warr":
                self._arrange(player, -1, b)
            elif kind == "enter":
                self._enter(player, a)
            else:  # end
                if sum(self.hands[player]) >= self.limit and not self.entered:
                    self.phase = "limit"
                else:
                    self._end_turn()
        elif ph == "window":
            if kind == "sup":
                self._answer(player, a, b)
            else:
                self._pass(player)
        elif ph == "capture":
            self._capture(kind == "cap")
        elif ph == "archer":
            self._archer(player, b)
        elif ph == "priest":
            self._priest(player, a, b)
        elif ph == "conscript":
            self._conscript(player, -1 if kind == "warr" else a, b)
        elif ph == "limit":
            self._enter(player, a)
        elif ph == "mulligan":
            self._mulligan(player, kind == "mull")
        elif ph == "field":
            self._setup_field(player, a, b)
        else:  # wait
            self._setup_wait(player, a)

    # -- the fast path for search ----------------------------------------------------------
    def clone_fast(self) -> ArtOfWarState:
        """A copy for search: the same game state, an empty log and record, and no events
        made from now on (``quiet``). Only the lists that change are copied (cells,
        chains and steps are tuples, replaced rather than changed)."""
        twin = object.__new__(ArtOfWarState)
        twin.__dict__.update(self.__dict__)
        twin._st = self._st
        rng = twin.rng = Rng(0)
        rng._state = self.rng._state
        twin.log = []
        twin._actions = []
        twin.quiet = True
        f, h, d, w, k, g = (self.fields, self.hands, self.decks, self.waiting,
                            self.kingdoms, self.graves)
        twin.fields = [f[0][:], f[1][:]]
        twin.hands = [h[0][:], h[1][:]]
        twin.decks = [d[0][:], d[1][:]]
        twin.waiting = [w[0][:], w[1][:]]
        twin.kingdoms = [k[0][:], k[1][:]]
        twin.graves = [g[0][:], g[1][:]]
        twin.mulligans = self.mulligans[:]
        return twin

    def apply_fast(self, player: int, action: str) -> None:
        """Play an action from ``legal_actions(player)`` with no checks and no record: the
        public rules (:meth:`_apply`) as they are (a quiet state makes no events)."""
        self._apply(player, action)

    # -- legal actions ------------------------------------------------------------------
    def _legal(self) -> list[str]:
        ph, p = self.phase, self.mover
        h = self.hands[p]
        if ph == "main":
            return self._main_actions(p)
        if ph == "window":
            out = []
            t = _G if self.window[0] == "guardian" else _W  # type: ignore[index]
            if h[t]:
                out.append(_SUPPORT_TEXT[t][0])
            if h[_K]:
                out.append(_SUPPORT_TEXT[t][1])
            out.append("pass")
            return out
        if ph == "capture":
            return ["cap", "dmg"]
        if ph == "archer":
            return [_ARCH[j] for j in self._archer_targets(p)]
        if ph == "priest":
            return self._priest_moves(p)
        if ph == "conscript":
            F = self.fields[p]
            dests = [i for i in range(6) if F[i] is None and (i < 3 or F[i - 3] is not None)]
            if self._conscript_from_wait():
                return [_WARR[i] for i in dests]
            k = self.kingdoms[p]
            return [_KCON[t][i] for t in range(5) if k[t] for i in dests]
        if ph == "limit":
            return [_ENTER[t] for t in range(5) if h[t]]
        if ph == "mulligan":
            return ["keep", "mull"]
        if ph == "field":
            return [_PLACE[c][i] for c in range(6) if h[c] for i in range(3)]
        return [_TOWAIT[c] for c in range(6) if h[c]]  # wait

    def _main_actions(self, p: int) -> list[str]:
        F = self.fields[p]
        h = self.hands[p]
        out: list[str] = []
        if not self.arranged:
            if not self.attacked:
                dests = [i for i in range(6) if i < 3 or F[i - 3] is not None]
                if self.waiting[p]:
                    out += [_WARR[i] for i in dests]
                else:
                    for c in range(6):
                        if h[c]:
                            row = _PLACE[c]
                            out += [row[i] for i in dests]
            st = self._st[p]
            E = self.fields[1 - p]
            for i in range(6):
                cell = F[i]
                if cell is not None and cell[1]:
                    row = _ATTACK[i]
                    for j in st[_IDX[cell[0]]][3][i]:
                        if E[j] is not None:
                            out.append(row[j])
        if len(self.waiting[p]) < self.capacity:
            king = h[_K]
            soldier = bool(h[0]) or king
            archer = (h[_A] or king) and bool(self._archer_targets(p))
            # A non-empty field always has a Priest move (a move to an empty front cell,
            # or a swap when the front row is full); the own field is never empty here.
            priest = (h[_P] or king) and any(F)
            if h[0]:
                out.append("+S")
            if h[_A] and archer:
                out.append("+A")
            if h[_P] and priest:
                out.append("+P")
            if king:
                if soldier:
                    out.append("+KS")
                if archer:
                    out.append("+KA")
                if priest:
                    out.append("+KP")
        if not self.entered:
            out += [_ENTER[t] for t in range(5) if h[t]]
        out.append("end")
        return out

    def _archer_targets(self, p: int) -> list[int]:
        """The enemy cells an Archer support of ``p`` may hit now (§6.3, §13.31)."""
        E = self.fields[1 - p]
        if self.arch_last:
            la = self.last_attacked
            return [la[1]] if la is not None and la[0] == 1 - p and E[la[1]] else []
        return [j for j in range(6) if E[j] is not None]

    def _priest_moves(self, p: int) -> list[str]:
        """Every legal Priest move of ``p`` (§13.20): to another cell; a swap always; a
        move to an empty back cell only with another card in front of it after."""
        F = self.fields[p]
        out = []
        for a in range(6):
            if F[a] is None:
                continue
            row = _PRI[a]
            for b in range(6):
                if b == a:
                    continue
                if F[b] is None and b >= 3 and (F[b - 3] is None or b - 3 == a):
                    continue
                out.append(row[b])
        return out

    def _conscript_from_wait(self) -> bool:
        """Whether the next conscripted card comes from the waiting line (§8, §13.32)."""
        q, left, _ = self.conscript  # type: ignore[misc]
        return left > 2 if self.kconsc else bool(self.waiting[q])

    def _opens(self, q: int, t: int) -> bool:
        """Whether ``q`` gets a window for support ``t`` (Guardian or Wizard), by public
        information only: room in its waiting line, a card in hand, and the type (or its
        King) among its unseen cards (hand ∪ deck, known by deduction)."""
        h = self.hands[q]
        if len(self.waiting[q]) >= self.capacity or not any(h):
            return False
        return bool(h[t] or h[_K]) or CARDS[t] in self.decks[q]

    def _def(self, p: int, cell: Cell) -> int:
        s = self._st[p][_IDX[cell[0]]]
        return s[1] if cell[1] else s[2]

    def unseen(self, p: int) -> dict[str, int]:
        """Seat ``p``'s hand ∪ deck by card (public by deduction: every other card is in
        view, and both deck codes are known)."""
        out = dict(zip(CARDS, self.hands[p], strict=True))
        for c in self.decks[p]:
            out[c] += 1
        return out

    # -- playing: set-up (§4) -------------------------------------------------------------
    def _ev(self, event: dict[str, Any]) -> None:
        self.log.append(event)

    def _draw(self, p: int, n: int) -> None:
        deck, hand = self.decks[p], self.hands[p]
        got = []
        for _ in range(min(n, len(deck))):
            c = deck.pop()
            hand[_IDX[c]] += 1
            got.append(c)
        if got and not self.quiet:
            self._ev(private_event({"t": "draw", "p": p, "n": len(got), "cards": got},
                                   [p], ["cards"]))

    def _mulligan(self, p: int, mull: bool) -> None:
        self.mulligans[p] = mull
        hand = self.hands[p]
        cards = [c for i, c in enumerate(CARDS) for _ in range(hand[i])]
        if not self.quiet:
            self._ev(private_event({"t": "mulligan", "p": p, "mull": mull, "cards": cards},
                                   [p], ["cards"]))
        if mull:
            self.hands[p] = [0] * 6
            self.decks[p] += cards
            self.rng.shuffle(self.decks[p])
            self._draw(p, 3)
        if p == 0:
            self.mover = self.active = 1
        else:
            self._after_mulligans()

    def _after_mulligans(self) -> None:
        """Step 4's Kings to hand, step 5's kingdom cards, then step 6."""
        for p in (0, 1):
            self.hands[p][_K] += 1
        for p in (0, 1):
            c = self.decks[p].pop()
            self.kingdoms[p][_IDX[c]] += 1
            if not self.quiet:
                self._ev({"t": "kingdom", "p": p, "c": c})
        self.phase = "field"
        self.mover = self.active = 0

    def _setup_field(self, p: int, c: int, i: int) -> None:
        self.hands[p][c] -= 1
        self.fields[p][i] = (CARDS[c], True, 0)
        if not self.quiet:
            self._ev({"t": "place", "p": p, "c": CARDS[c], "to": CELLS[i]})
        if p == 0:
            self.mover = self.active = 1
        else:
            self.phase = "wait"
            self.mover = self.active = 0

    def _setup_wait(self, p: int, c: int) -> None:
        self.hands[p][c] -= 1
        self.waiting[p].append(CARDS[c])
        if not self.quiet:
            self._ev({"t": "place", "p": p, "c": CARDS[c], "to": "w"})
        if p == 0:
            self.mover = self.active = 1
        else:
            self._start_turn(0)

    # -- playing: the turn (§5, §6) -------------------------------------------------------
    def _start_turn(self, p: int) -> None:
        self.turn += 1
        self.active = self.mover = p
        self.phase = "main"
        if not self.quiet:
            self._ev({"t": "turn", "p": p, "n": self.turn})
        F = self.fields[p]
        turned = []
        for i in range(6):
            cell = F[i]
            if cell is not None and not cell[1]:
                F[i] = (cell[0], True, cell[2])
                turned.append(CELLS[i])
        if not self.quiet:
            self._ev({"t": "recover", "p": p, "cells": turned})
        if self.turn > 1 or self.draw1:
            self._draw(p, 1)

    def _end_turn(self) -> None:
        p = self.active
        if not self.quiet:
            self._ev({"t": "end_turn", "p": p})
        for F in self.fields:
            for i in range(6):
                cell = F[i]
                if cell is not None and cell[2]:
                    F[i] = (cell[0], cell[1], 0)
        self.bonus = 0
        self.arranged = self.attacked = self.entered = False
        self.last_attacked = None
        if not self.decks[0] and not self.decks[1]:
            n = [sum(k) for k in self.kingdoms]
            g = [len(x) for x in self.graves]
            if n[0] != n[1]:
                w: int | None = 0 if n[0] > n[1] else 1
            elif g[0] != g[1]:
                w = 0 if g[0] < g[1] else 1
            else:
                w = None
            self._win(w, "end_of_war", {"kingdoms": n, "graveyards": g})
        else:
            self._start_turn(1 - p)

    def _arrange(self, p: int, c: int, i: int) -> None:
        """§6.1: ``c`` from hand, or -1: the leftmost waiting card."""
        F = self.fields[p]
        old = F[i]
        if c < 0:
            card = self.waiting[p].pop(0)
            if old is not None:
                self.waiting[p].append(old[0])
        else:
            card = CARDS[c]
            self.hands[p][c] -= 1
            if old is not None:
                self.hands[p][_IDX[old[0]]] += 1
        F[i] = (card, True, 0)
        self.arranged = True
        if not self.quiet:
            e = {"t": "arrange", "p": p, "c": card, "to": CELLS[i],
                 "from": "wait" if c < 0 else "hand"}
            if old is not None:
                e["out"] = old[0]
                e["out_to"] = "wait" if c < 0 else "hand"
            self._ev(e)

    def _enter(self, p: int, t: int) -> None:
        """§6.4 Entry (also the forced one of the hand limit, then the turn ends)."""
        self.hands[p][t] -= 1
        self.kingdoms[p][t] += 1
        self.entered = True
        if not self.quiet:
            self._ev({"t": "enter", "p": p, "c": TYPES[t]})
        if self._founding():
            return
        if self.phase == "limit":
            self._end_turn()

    # -- playing: attacks and windows (§6.2, §6.3) ---------------------------------------
    def _declare(self, p: int, i: int, j: int) -> None:
        F = self.fields[p]
        c, _, dmg = F[i]  # type: ignore[misc]
        F[i] = (c, False, dmg)
        base = self._st[p][_IDX[c]][0]
        atk = (sum(self.hands[p]) if base is None else base) + self.bonus
        self.attacked = True
        o = 1 - p
        self.last_attacked = (o, j)
        self.attack = (p, i, j, c, atk)
        if not self.quiet:
            self._ev({"t": "attack", "p": p, "from": CELLS[i], "to": CELLS[j], "c": c,
                      "atk": atk})
        if self._opens(o, _G):
            self.phase = "window"
            self.window = ("guardian", o)
            self.mover = o
        else:
            self._strike()

    def _support(self, p: int, t: int, king: int) -> None:
        """A timing-③ support placed (§6.3): then the opponent's Wizard window."""
        card = KING if king else CARDS[t]
        self.hands[p][_K if king else t] -= 1
        self.waiting[p].append(card)
        self.pending = (p, card, CARDS[t])
        self.chain = (self.pending,)
        if not self.quiet:
            self._ev({"t": "support", "p": p, "c": card, "as": CARDS[t]})
        self._wizard_window(1 - p)

    def _answer(self, q: int, t: int, king: int) -> None:
        """A Guardian or Wizard placed in an open window."""
        card = KING if king else CARDS[t]
        self.hands[q][_K if king else t] -= 1
        self.waiting[q].append(card)
        self.chain = (*self.chain, (q, card, CARDS[t]))
        if not self.quiet:
            self._ev({"t": "support", "p": q, "c": card, "as": CARDS[t]})
        self._wizard_window(1 - q)

    def _wizard_window(self, q: int) -> None:
        if self._opens(q, _W):
            self.phase = "window"
            self.window = ("wizard", q)
            self.mover = q
        else:
            self._settle()

    def _pass(self, q: int) -> None:
        kind = self.window[0]  # type: ignore[index]
        if not self.quiet:
            self._ev({"t": "pass", "p": q, "kind": kind})
        self.window = None
        if kind == "guardian":
            self._strike()
        else:
            self._settle()

    def _settle(self) -> None:
        """The chain resolved from the last card back: each uncancelled Wizard cancels the
        card before it; then the first card (Guardian or support) acts if uncancelled."""
        chain = self.chain
        n = len(chain)
        if not self.quiet:
            for k in range(n - 2, -1, -1):
                if (n - 1 - k) % 2:
                    self._ev({"t": "cancel", "p": chain[k][0], "c": chain[k][1],
                              "as": chain[k][2]})
        self.window = None
        self.chain = ()
        works = (n - 1) % 2 == 0
        self.phase = "main"
        self.mover = self.active
        if self.pending is None:  # the attack's Guardian
            if works:
                p, i, j, c, atk = self.attack  # type: ignore[misc]
                self.attack = None
                if not self.quiet:
                    self._ev({"t": "guarded", "p": 1 - p, "cell": CELLS[j]})
            else:
                self._strike()
            return
        p, card, as_ = self.pending
        if not works:
            self.pending = None
        elif as_ == "S":
            self.pending = None
            self.bonus += 1
        elif as_ == "A":
            self.phase = "archer"
        else:
            self.phase = "priest"

    def _strike(self) -> None:
        """An attack that was not guarded: capture may be offered (§7), else damage."""
        p, i, j, c, atk = self.attack  # type: ignore[misc]
        o = 1 - p
        target = self.fields[o][j]
        assert target is not None
        self.phase = "main"
        self.mover = self.active
        if (target[2] + atk if self.cap_acc else atk) == self._def(o, target):
            self.phase = "capture"
            return
        self.attack = None
        self._hurt(o, j, atk)

    def _capture(self, take: bool) -> None:
        p, i, j, c, atk = self.attack  # type: ignore[misc]
        self.attack = None
        self.phase = "main"
        if take:
            self._leave(1 - p, j, p)
        else:
            self._hurt(1 - p, j, atk)

    def _archer(self, p: int, j: int) -> None:
        self.pending = None
        self.phase = "main"
        if not self.quiet:
            self._ev({"t": "archer", "p": p, "to": CELLS[j]})
        self._hurt(1 - p, j, 1)

    def _priest(self, p: int, a: int, b: int) -> None:
        self.pending = None
        self.phase = "main"
        F = self.fields[p]
        swap = F[b] is not None
        F[a], F[b] = F[b], F[a]
        if not self.quiet:
            self._ev({"t": "priest", "p": p, "from": CELLS[a], "to": CELLS[b], "swap": swap})
        if not swap and a < 3:
            self._advance(p, a)

    # -- playing: damage, leaving the field, conscription (§7, §8, §13.22) ---------------
    def _hurt(self, o: int, j: int, n: int) -> None:
        F = self.fields[o]
        c, up, dmg = F[j]  # type: ignore[misc]
        total = dmg + n
        cell = F[j] = (c, up, total)
        if not self.quiet:
            self._ev({"t": "damage", "p": o, "cell": CELLS[j], "c": c, "n": n,
                      "total": total})
        d = self._def(o, cell)
        if total > d or (self.reaches and total >= d):
            self._leave(o, j, None)

    def _leave(self, o: int, j: int, captor: int | None) -> None:
        """A card leaves ``o``'s field, captured by ``captor`` or destroyed; then the
        checks of §13.22: Execution, auto-advance, Founding, conscription."""
        F = self.fields[o]
        c = F[j][0]  # type: ignore[index]
        F[j] = None
        if captor is not None:
            if c != KING:
                self.kingdoms[captor][_IDX[c]] += 1
            if not self.quiet:
                self._ev({"t": "capture", "p": captor, "from": o, "cell": CELLS[j], "c": c})
        else:
            self.graves[o].append(c)
            if not self.quiet:
                self._ev({"t": "destroy", "p": o, "cell": CELLS[j], "c": c})
        if self.last_attacked == (o, j):
            self.last_attacked = None
        if c == KING:
            self._win(1 - o, "execution", {"p": o})
            return
        if j < 3:
            self._advance(o, j)
        if captor is not None and self._founding():
            return
        if not any(F):
            self._start_conscription(o)

    def _advance(self, o: int, j: int) -> None:
        """Auto-advance (§3, §13.21): the back card behind the emptied front cell ``j``
        moves forward, keeping its damage and orientation."""
        F = self.fields[o]
        if F[j] is None and F[j + 3] is not None:
            F[j], F[j + 3] = F[j + 3], None
            if self.last_attacked == (o, j + 3):
                self.last_attacked = (o, j)
            if not self.quiet:
                self._ev({"t": "advance", "p": o, "from": CELLS[j + 3], "to": CELLS[j],
                          "c": F[j][0]})  # type: ignore[index]

    def _start_conscription(self, q: int) -> None:
        w, k = len(self.waiting[q]), sum(self.kingdoms[q])
        if self.kconsc:
            if k < 2:
                self._win(1 - q, "annihilation", {"p": q})
                return
            total = min(2, w) + 2
        else:
            if w + k < 2:
                self._win(1 - q, "annihilation", {"p": q})
                return
            total = 2
        self.conscript = (q, total, None)
        self.phase = "conscript"
        self.mover = q

    def _conscript(self, q: int, t: int, i: int) -> None:
        """One conscripted card: ``t`` -1 the leftmost waiting card, else a kingdom type."""
        if t < 0:
            c = self.waiting[q].pop(0)
        else:
            c = TYPES[t]
            self.kingdoms[q][t] -= 1
        self.fields[q][i] = (c, True, 0)
        _, left, first = self.conscript  # type: ignore[misc]
        if not self.quiet:
            self._ev({"t": "conscript", "p": q, "c": c, "to": CELLS[i],
                      "src": "wait" if t < 0 else "kingdom"})
        left -= 1
        self.conscript = (q, left, i if first is None else first)
        if t >= 0 and self._founding():
            return
        if left == 0:
            self.conscript = None
            self.phase = "main"
            self.mover = self.active

    # -- the end (§10) ------------------------------------------------------------------
    def _founding(self) -> bool:
        k0, k1 = self.kingdoms
        n0 = sum(1 for a, b in zip(k0, k1, strict=True) if a > b)
        n1 = sum(1 for a, b in zip(k0, k1, strict=True) if b > a)
        if n0 >= 4 or n1 >= 4:
            self._win(0 if n0 >= 4 else 1, "founding", {"types": [n0, n1]})
            return True
        return False

    def _win(self, winner: int | None, reason: str, detail: dict[str, Any]) -> None:
        self.phase = "over"
        self.winner = winner
        self.reason = reason
        self.window = None
        self.conscript = None
        if not self.quiet:
            self._ev({"t": reason, "winner": winner, **detail})

    # -- what a seat sees ---------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and player not in (0, 1):
            raise ValueError(f"there is no player {player!r} in this game")
        k0, k1 = self.kingdoms
        hand = None
        if player is not None:
            h = self.hands[player]
            hand = [c for i, c in enumerate(CARDS) for _ in range(h[i])]
        att = self.attack
        pend = self.pending
        chain = self.chain[1:] if pend is not None else self.chain
        cons = self.conscript
        la = self.last_attacked
        win = self.window
        return {
            "game": "artofwar",
            "options": dict(self.options),
            "you": player,
            "phase": self.phase,
            "turn": self.turn,
            "active": self.active,
            "kings": list(self.kings),
            "fields": [{CELLS[i]: {"c": cell[0], "up": cell[1], "dmg": cell[2]}
                        for i, cell in enumerate(F) if cell is not None}
                       for F in self.fields],
            "waiting": [list(w) for w in self.waiting],
            "capacity": self.capacity,
            "hand_limit": self.limit,
            "kingdoms": [dict(zip(TYPES, k, strict=True)) for k in self.kingdoms],
            "founding": [sum(1 for a, b in zip(k0, k1, strict=True) if a > b),
                         sum(1 for a, b in zip(k0, k1, strict=True) if b > a)],
            "graveyards": [list(g) for g in self.graves],
            "deck_counts": [len(d) for d in self.decks],
            "hand_counts": [sum(h) for h in self.hands],
            "hand": hand,
            "unseen": [self.unseen(0), self.unseen(1)],
            "bonus": self.bonus,
            "arranged": self.arranged,
            "attacked": self.attacked,
            "entered": self.entered,
            "attack": None if att is None else {"p": att[0], "from": CELLS[att[1]],
                                                "to": CELLS[att[2]], "atk": att[4],
                                                "card": att[3]},
            "chain": [{"p": q, "c": c, "as": a} for q, c, a in chain],
            "pending": None if pend is None else {"p": pend[0], "c": pend[1], "as": pend[2]},
            "window": None if win is None else {"kind": win[0], "p": win[1]},
            "conscript": None if cons is None else {
                "p": cons[0], "left": cons[1],
                "first": None if cons[2] is None else CELLS[cons[2]]},
            "last_attacked": None if la is None else {"p": la[0], "cell": CELLS[la[1]]},
            "mulligans": list(self.mulligans),
            "to_move": self.to_move(),
            "outcome": self.outcome(),
        }

    # -- explanations -------------------------------------------------------------------
    def explain_illegal(self, player: int, action: str) -> str:
        """Why ``action`` is not legal for ``player`` now, in plain words (it never
        decides what is legal: :meth:`legal_actions` does)."""
        if self.phase == "over":
            return "the game is over"
        if player != self.mover:
            return f"it is player {self.mover + 1}'s move, not player {player + 1}'s"
        act = _ACT.get(action)
        legal = self._legal()
        some = ", ".join(legal[:8]) + (", …" if len(legal) > 8 else "")
        if act is None:
            return (f"{action!r} is not an ART OF WAR action (they read like S>Fa, w>Fa, "
                    f"FbxFc, +S, +KA, eS, end); legal now: {some}")
        why = self._why(player, action, act)
        return f"{why} (legal now: {some})"

    def _why(self, p: int, action: str, act: tuple[str, int, int]) -> str:
        kind, a, b = act
        ph = self.phase
        h = self.hands[p]
        names = {"mulligan": "decide whether to mulligan (keep or mull)",
                 "field": "put a hand card on your front row (set-up step 6, e.g. S>Fa)",
                 "wait": "put a hand card in your waiting line (set-up step 7, e.g. S>w)",
                 "capture": "choose to capture (cap) or to deal damage (dmg)",
                 "archer": "choose the enemy card your Archer support hits (e.g. aFb)",
                 "priest": "choose your Priest's move (e.g. mFa-Bb)",
                 "conscript": "conscript a card onto your field",
                 "limit": "enter a card into your kingdom (hand limit), e.g. eS"}
        if ph == "window":
            kind_now = self.window[0]  # type: ignore[index]
            want = "Guardian" if kind_now == "guardian" else "Wizard"
            if kind == "sup" and action in ("+G", "+KG", "+W", "+KW"):
                card = TYPE_NAMES[CARDS[a]]["en"]
                if card != want:
                    what = f"your King as a {card}" if b else f"a {card}"
                    return f"this window takes a {want} (or your King as one), not {what}"
                return "you hold no King" if b else f"you hold no {card}"
            return f"now answer with a {want} (+{want[0]}, +K{want[0]}) or pass"
        if ph in names:
            if kind == "enter" and ph == "limit":
                return f"you hold no {TYPE_NAMES[TYPES[a]]['en']}"
            if ph == "conscript" and kind in ("warr", "kcon"):
                if kind == "kcon" and self._conscript_from_wait():
                    return "the waiting line's leftmost card must be conscripted first (w>…)"
                if kind == "warr" and not self._conscript_from_wait():
                    return "the next conscripted card comes from your kingdom (k…>…)"
                if kind == "kcon" and not self.kingdoms[p][a]:
                    return f"your kingdom holds no {TYPE_NAMES[TYPES[a]]['en']}"
                return self._cell_why(p, b, conscript=True)
            if ph == "field" and kind == "place":
                if not h[a]:
                    return f"you hold no {TYPE_NAMES[CARDS[a]]['en']}"
                return "in set-up step 6 your field is empty, so the card goes to the front row"
            if ph == "wait" and kind == "towait":
                return f"you hold no {TYPE_NAMES[CARDS[a]]['en']}"
            if ph == "priest" and kind == "pri":
                F = self.fields[p]
                if F[a] is None:
                    return f"you have no card at {CELLS[a]}"
                return (f"{CELLS[b]} is an empty back cell with no other card in front of it "
                        "after the move")
            if ph == "archer" and kind == "arch":
                if self.arch_last:
                    return "the Archer support may hit only the card just attacked"
                return f"there is no enemy card at {CELLS[b]}"
            return f"now {names[ph]}"
        # phase ③ of your own turn
        if kind in ("keep", "mull", "towait", "pass", "cap", "dmg", "arch", "pri", "kcon"):
            return "that is not a choice open now: it is your phase ③ (arrange or battle)"
        if kind in ("place", "warr"):
            if self.arranged:
                return "you have already arranged this turn (one Arrange per turn)"
            if self.attacked:
                return "you attacked this turn, so you may no longer arrange"
            if kind == "place" and self.waiting[p]:
                return (f"your waiting line holds cards: Arrange must deploy its leftmost "
                        f"card ({self.waiting[p][0]}) with w>…")
            if kind == "warr" and not self.waiting[p]:
                return "your waiting line is empty: arrange a hand card (e.g. S>Fa)"
            if kind == "place" and not h[a]:
                return f"you hold no {TYPE_NAMES[CARDS[a]]['en']}"
            return self._cell_why(p, b, conscript=False)
        if kind == "atk":
            if self.arranged:
                return "you arranged this turn, so you may not attack"
            cell = self.fields[p][a]
            if cell is None:
                return f"you have no card at {CELLS[a]}"
            if not cell[1]:
                return f"your card at {CELLS[a]} is sideways: it has attacked already"
            if self.fields[1 - p][b] is None:
                return f"there is no enemy card at {CELLS[b]}"
            name = TYPE_NAMES[cell[0]]["en"]
            return f"the enemy cell {CELLS[b]} is out of your {name}'s range from {CELLS[a]}"
        if kind == "sup":
            t = CARDS[a]
            card = "King" if b else TYPE_NAMES[t]["en"]
            if t == "G":
                return "a Guardian is placed only when the opponent attacks one of your cards"
            if t == "W":
                return "a Wizard is placed only to answer the opponent's support"
            if len(self.waiting[p]) >= self.capacity:
                return f"your waiting line is full ({self.capacity} cards): no support now"
            if not h[_K if b else a]:
                return f"you hold no {card}"
            if t == "A":
                if self.arch_last:
                    return "the Archer support needs the card just attacked still on the field"
                return "there is no enemy card to hit"
            return "that support has nothing to act on"
        if kind == "enter":
            if self.entered:
                return "you have already entered a card this turn (one Entry per turn)"
            return f"you hold no {TYPE_NAMES[TYPES[a]]['en']}"
        return "that is not legal now"

    def _cell_why(self, p: int, i: int, conscript: bool) -> str:
        F = self.fields[p]
        if i >= 3 and F[i - 3] is None:
            return (f"{CELLS[i]} is a back cell: a card may stand there only while "
                    f"{CELLS[i - 3]} (the front cell of its lane) holds a card")
        if conscript and F[i] is not None:
            return f"{CELLS[i]} is taken: a conscripted card goes to an empty cell"
        return f"{CELLS[i]} is not a legal cell now"


# -- positions by hand ---------------------------------------------------------------------
def _seat_pair(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"{what} must be a list of two (player 1's, player 2's), "
                         f"not {value!r}")
    return list(value)


def _card(value: Any, what: str, king: bool = True) -> str:
    ok = CARDS if king else TYPES
    if not isinstance(value, str) or value not in ok:
        raise ValueError(f"{what}: {value!r} is not a card ({', '.join(ok)})")
    return value


def _cell(value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in CELL_INDEX:
        raise ValueError(f"{what}: {value!r} is not a cell ({', '.join(CELLS)})")
    return CELL_INDEX[value]


def _count(value: Any, what: str, high: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0 or (
            high is not None and value > high):
        top = "" if high is None else f" up to {high}"
        raise ValueError(f"{what} must be a whole number from 0{top}, not {value!r}")
    return value


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{what} must be true or false, not {value!r}")
    return value


def _seat(value: Any, what: str) -> int:
    if value not in (0, 1) or isinstance(value, bool):
        raise ValueError(f"{what} must be a seat, 0 or 1, not {value!r}")
    return int(value)


def _cards(value: Any, what: str) -> list[str]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"{what} must be a list of cards, not {value!r}")
    return [_card(c, f"{what} #{k + 1}") for k, c in enumerate(value)]


def _tally(cards: list[str]) -> list[int]:
    out = [0] * 6
    for c in cards:
        out[_IDX[c]] += 1
    return out


def _load_position(game: ArtOfWarGame, pos: Any,
                   options: dict[str, Any] | None) -> ArtOfWarState:
    if not isinstance(pos, dict):
        raise ValueError("a position must be an object (dict)")
    if pos.get("game", "artofwar") != "artofwar":
        raise ValueError(f"this position is for the game {pos.get('game')!r}")
    given = pos.get("options")
    if options is None:
        options = given
    elif given is not None and game.resolve_options(given) != game.resolve_options(options):
        raise ValueError("the position's options are not the options given")
    opts = game.resolve_options(options)
    seed = pos.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an integer, not {seed!r}")
    s = object.__new__(ArtOfWarState)
    State.__init__(s, game, seed, 2, opts)
    s._configure(opts)
    s.rng = Rng(seed)
    if "kings" in pos and list(pos["kings"]) != s.kings:
        raise ValueError(f"kings {pos['kings']!r} are not the decks' Kings {s.kings} "
                         "(set them with the options deck1 / deck2)")
    for key, have in (("capacity", s.capacity), ("hand_limit", s.limit)):
        if key in pos and pos[key] != have:
            raise ValueError(f"{key} {pos[key]!r} is not the options' {have}")
    if pos.get("outcome") is not None:
        raise ValueError("a position must be of a game still being played (outcome None)")
    phase = pos.get("phase", "main")
    if phase not in PHASES or phase == "over":
        raise ValueError(f"phase must be one of {', '.join(PHASES[:-1])}, not {phase!r}")
    s.phase = phase
    setup = phase in _SETUP
    s.turn = _count(pos.get("turn", 0 if setup else 1), "turn")
    if setup != (s.turn == 0):
        raise ValueError("turn is 0 exactly during set-up (phases mulligan, field, wait)")
    # -- the public cards
    for p in (0, 1):
        who = f"player {p + 1}'s"
        cells = _seat_pair(pos.get("fields", [{}, {}]), "fields")[p]
        if not isinstance(cells, dict):
            raise ValueError(f"{who} field must be an object {{cell: card}}, not {cells!r}")
        for name, spec in cells.items():
            i = _cell(name, f"{who} field")
            where = f"{who} card at {name}"
            if isinstance(spec, str):
                spec = {"c": spec}
            if not isinstance(spec, dict) or not set(spec) <= {"c", "up", "dmg"}:
                raise ValueError(f"{where} must be a letter or {{'c', 'up', 'dmg'}}, "
                                 f"not {spec!r}")
            c = _card(spec.get("c"), where)
            up = _flag(spec.get("up", True), f"{where}: up")
            dmg = _count(spec.get("dmg", 0), f"{where}: dmg")
            s.fields[p][i] = (c, up, dmg)
        s.waiting[p] = _cards(_seat_pair(pos.get("waiting", [[], []]), "waiting")[p],
                              f"{who} waiting line")
        ks = _seat_pair(pos.get("kingdoms", [{}, {}]), "kingdoms")[p]
        if not isinstance(ks, dict):
            raise ValueError(f"{who} kingdom must be an object {{type: count}}, not {ks!r}")
        for t, n in ks.items():
            _card(t, f"{who} kingdom", king=False)
            s.kingdoms[p][_IDX[t]] = _count(n, f"{who} kingdom {t}")
        s.graves[p] = _cards(_seat_pair(pos.get("graveyards", [[], []]), "graveyards")[p],
                             f"{who} graveyard")
    # -- hands and decks
    codes = [parse_deck(opts["deck1"])[1], parse_deck(opts["deck2"])[1]]
    you = pos.get("you")
    hands: list[list[str] | None] = [None, None]
    if "hands" in pos:
        hands = [_cards(h, f"player {p + 1}'s hand")
                 for p, h in enumerate(_seat_pair(pos["hands"], "hands"))]
    elif you is not None and pos.get("hand") is not None:
        hands[_seat(you, "you")] = _cards(pos["hand"], "hand")
    unseen = pos.get("unseen")
    for p in (0, 1):
        who = f"player {p + 1}'s"
        seen = [0] * 6
        for cell in s.fields[p]:
            if cell is not None:
                seen[_IDX[cell[0]]] += 1
        for c in s.waiting[p] + s.graves[p]:
            seen[_IDX[c]] += 1
        for t in range(5):
            seen[t] += s.kingdoms[p][t]
        king_free = phase != "mulligan" and seen[_K] == 0
        if unseen is not None:
            u = _seat_pair(unseen, "unseen")[p]
            if not isinstance(u, dict):
                raise ValueError(f"{who} unseen must be an object {{card: count}}")
            pool = [c for c in CARDS for _ in range(_count(u.get(c, 0), f"{who} unseen {c}"))]
        else:
            counts = [codes[p][t] for t in TYPES] + [1 if king_free else 0]
            pool = [c for i, c in enumerate(CARDS) for _ in range(max(0, counts[i] - seen[i]))]
        hand = hands[p]
        decks = pos.get("decks")
        if hand is None:
            if decks is not None:
                raise ValueError("with decks, give both hands too (hands)")
            size = pos.get("hand_counts")
            if size is None:
                raise ValueError(f"{who} hand is missing: give hands, or hand_counts to "
                                 "draw it at random")
            n = _count(_seat_pair(size, "hand_counts")[p], f"{who} hand count")
            hand = [KING] if KING in pool else []
            rest = [c for c in pool if c != KING]
            s.rng.shuffle(rest)
            if n < len(hand) or n - len(hand) > len(rest):
                raise ValueError(f"{who} hand of {n} cards cannot be drawn from its "
                                 f"{len(pool)} unseen cards")
            hand += rest[:n - len(hand)]
        if decks is not None:
            deck = _cards(_seat_pair(decks, "decks")[p], f"{who} deck")
            if KING in deck:
                raise ValueError(f"{who} deck holds the King: a King is never in a deck")
        else:
            deck = list(pool)
            for c in hand:
                if c in deck:
                    deck.remove(c)
                elif unseen is not None:
                    raise ValueError(f"{who} hand holds a {c} that is not among its unseen "
                                     "cards")
            if KING in deck:
                if unseen is not None:
                    raise ValueError(f"{who} King is unseen but not in its hand")
                deck.remove(KING)
            s.rng.shuffle(deck)
        s.hands[p] = _tally(hand)
        s.decks[p] = deck
        if "deck_counts" in pos and _seat_pair(pos["deck_counts"], "deck_counts")[p] != len(deck):
            raise ValueError(f"{who} deck holds {len(deck)} cards, not "
                             f"{pos['deck_counts'][p]!r} (give decks)")
        if "hand_counts" in pos and pos["hand_counts"][p] != len(hand):
            raise ValueError(f"{who} hand holds {len(hand)} cards, not "
                             f"{pos['hand_counts'][p]!r}")
        if unseen is not None and s.unseen(p) != {c: int(unseen[p].get(c, 0)) for c in CARDS}:
            raise ValueError(f"{who} hand and deck are not its unseen cards")
        kings = seen[_K] + s.hands[p][_K]
        if phase == "mulligan" and kings:
            raise ValueError(f"{who} King is set aside until the mulligans are done")
        if phase != "mulligan" and kings != 1:
            raise ValueError(f"player {p + 1} must have exactly one King (hand, field or "
                             f"waiting line), not {kings}")
        if KING in s.graves[p]:
            raise ValueError(f"{who} King is in the graveyard: that game is over")
    for t in range(5):
        n = sum(s.hands[p][t] + s.kingdoms[p][t] + s.decks[p].count(TYPES[t])
                + s.waiting[p].count(TYPES[t]) + s.graves[p].count(TYPES[t])
                + sum(1 for c in s.fields[p] if c is not None and c[0] == TYPES[t])
                for p in (0, 1))
        most = codes[0][TYPES[t]] + codes[1][TYPES[t]]
        if n > most:
            raise ValueError(f"there are {n} {TYPE_NAMES[TYPES[t]]['en']} cards, but the "
                             f"two decks hold only {most}")
    # -- the turn and the step being resolved
    s.active = (s.turn - 1) % 2 if s.turn else 0
    s.bonus = _count(pos.get("bonus", 0), "bonus")
    s.arranged = _flag(pos.get("arranged", False), "arranged")
    s.attacked = _flag(pos.get("attacked", False), "attacked")
    s.entered = _flag(pos.get("entered", False), "entered")
    mull = _seat_pair(pos.get("mulligans", [None, None]), "mulligans")
    if not all(m is None or isinstance(m, bool) for m in mull):
        raise ValueError(f"mulligans must be true, false or null, not {mull!r}")
    s.mulligans = mull
    att = pos.get("attack")
    if att is not None:
        if not isinstance(att, dict):
            raise ValueError(f"attack must be an object, not {att!r}")
        ap = _seat(att.get("p"), "attack p")
        ai, aj = _cell(att.get("from"), "attack from"), _cell(att.get("to"), "attack to")
        acell, tcell = s.fields[ap][ai], s.fields[1 - ap][aj]
        if acell is None or acell[1] or tcell is None:
            raise ValueError("attack: the attacker must be a sideways card of its player, "
                             "the target an enemy card")
        if "card" in att and att["card"] != acell[0]:
            raise ValueError(f"attack card {att['card']!r} is not the card at {att['from']}")
        if aj not in s._st[ap][_IDX[acell[0]]][3][ai]:
            raise ValueError(f"attack: {att['to']} is out of range from {att['from']}")
        s.attack = (ap, ai, aj, acell[0], _count(att.get("atk"), "attack atk"))
    pend = pos.get("pending")
    if pend is not None:
        if not isinstance(pend, dict) or pend.get("as") not in ("S", "A", "P"):
            raise ValueError(f"pending must be {{'p', 'c', 'as': S|A|P}}, not {pend!r}")
        pp = _seat(pend.get("p"), "pending p")
        pc = _card(pend.get("c"), "pending c")
        if pc not in (KING, pend["as"]):
            raise ValueError(f"pending: a {pc} cannot be used as {pend['as']}")
        if pc not in s.waiting[pp]:
            raise ValueError("pending: the support card must be in its waiting line")
        s.pending = (pp, pc, pend["as"])
    chain = []
    for k, link in enumerate(pos.get("chain") or []):
        if not isinstance(link, dict) or link.get("as") not in ("G", "W"):
            raise ValueError(f"chain #{k + 1} must be {{'p', 'c', 'as': G|W}}, not {link!r}")
        lc = _card(link.get("c"), f"chain #{k + 1} c")
        if lc not in (KING, link["as"]):
            raise ValueError(f"chain #{k + 1}: a {lc} cannot be used as {link['as']}")
        chain.append((_seat(link.get("p"), f"chain #{k + 1} p"), lc, link["as"]))
    win = pos.get("window")
    if win is not None:
        if not isinstance(win, dict) or win.get("kind") not in ("guardian", "wizard"):
            raise ValueError(f"window must be {{'kind': guardian|wizard, 'p'}}, not {win!r}")
        s.window = (win["kind"], _seat(win.get("p"), "window p"))
    cons = pos.get("conscript")
    if cons is not None:
        if not isinstance(cons, dict):
            raise ValueError(f"conscript must be an object, not {cons!r}")
        first = cons.get("first")
        s.conscript = (_seat(cons.get("p"), "conscript p"),
                       _count(cons.get("left"), "conscript left", 4),
                       None if first is None else _cell(first, "conscript first"))
    la = pos.get("last_attacked")
    if la is not None:
        if not isinstance(la, dict):
            raise ValueError(f"last_attacked must be {{'p', 'cell'}}, not {la!r}")
        s.last_attacked = (_seat(la.get("p"), "last_attacked p"),
                           _cell(la.get("cell"), "last_attacked cell"))
    _check_phase(s, chain)
    if "active" in pos and pos["active"] != s.active:
        raise ValueError(f"active must be {s.active} (turn {s.turn}), not {pos['active']!r}")
    if "to_move" in pos and list(pos["to_move"]) != s.to_move():
        raise ValueError(f"to_move {pos['to_move']!r} is not {s.to_move()} in this position")
    founding = s.view(None)["founding"]
    if "founding" in pos and list(pos["founding"]) != founding:
        raise ValueError(f"founding {pos['founding']!r} is not {founding}")
    if max(founding) >= 4:
        raise ValueError("a player leads 4 kingdom types: that game is over (Founding)")
    return s


def _check_phase(s: ArtOfWarState, chain: list[tuple[int, str, str]]) -> None:
    """Each phase's own needs; sets the mover."""
    ph = s.phase
    for p in (0, 1):
        F = s.fields[p]
        who = f"player {p + 1}'s"
        for i in range(3, 6):
            if F[i] is not None and F[i - 3] is None:
                raise ValueError(f"{who} card at {CELLS[i]} stands behind an empty "
                                 f"{CELLS[i - 3]}")
        for i, cell in enumerate(F):
            if cell is None:
                continue
            d = s._def(p, cell)
            if cell[2] > d or (s.reaches and cell[2] >= d and cell[2]):
                raise ValueError(f"{who} card at {CELLS[i]} has {cell[2]} damage: it would "
                                 "have been destroyed")
            if cell[2] and (ph in _SETUP or p == s.active):
                raise ValueError(f"{who} card at {CELLS[i]} is damaged, but only the "
                                 "cards of the player not in turn take damage")
        if len(s.waiting[p]) > s.capacity:
            raise ValueError(f"{who} waiting line holds {len(s.waiting[p])} cards, over "
                             f"its capacity {s.capacity}")
    needs = {"window": ("window",), "capture": ("attack",), "archer": ("pending",),
             "priest": ("pending",), "conscript": ("conscript",)}.get(ph, ())
    for key in ("attack", "pending", "window", "conscript"):
        have = getattr(s, key) is not None
        if key in needs and not have:
            raise ValueError(f"phase {ph} needs {key}")
        if have and key not in needs and not (ph == "window" and key in ("attack",
                                                                           "pending")):
            raise ValueError(f"{key} is only set while it is being resolved, not in "
                             f"phase {ph}")
    if ph in _SETUP:
        if ph == "mulligan":
            if not s.mull_once:
                raise ValueError("there is no mulligan with the option mulligan=none")
            if s.mulligans[0] is None and s.mulligans[1] is not None:
                raise ValueError("player 1 decides the mulligan first")
            s.mover = 0 if s.mulligans[0] is None else 1
            if s.mulligans[1] is not None:
                raise ValueError("both mulligans are decided: the set-up has gone on")
        else:
            s.mover = 0 if ph == "field" and not any(s.fields[0]) else (
                0 if ph == "wait" and not s.waiting[0] else 1)
        s.active = s.mover
        return
    cons = s.conscript
    for p in (0, 1):
        if not any(s.fields[p]) and not (cons is not None and cons[0] == p):
            raise ValueError(f"player {p + 1}'s field is empty: it must conscript "
                             "(phase conscript)")
    if ph == "window":
        if (s.attack is None) == (s.pending is None):
            raise ValueError("a window answers either an attack or a support")
        kind, q = s.window  # type: ignore[misc]
        if s.attack is not None:
            if kind == "guardian" and (chain or q == s.active):
                raise ValueError("the Guardian window is the defender's, before any card "
                                 "is placed")
            if kind == "wizard" and (not chain or chain[0][2] != "G"):
                raise ValueError("in an attack, a Wizard window answers the defender's "
                                 "Guardian (chain)")
            full = chain
        else:
            if kind != "wizard" or any(x[2] != "W" for x in chain):
                raise ValueError("a support is answered by Wizards only")
            full = [s.pending, *chain]  # type: ignore[list-item]
        if kind == "wizard":
            if full[-1][0] == q:
                raise ValueError("the Wizard window is for the player answering the "
                                 "last placed card")
            for a, b in zip(full, full[1:], strict=False):
                if a[0] == b[0]:
                    raise ValueError("the chain's placements alternate between players")
        s.chain = tuple(full)
        s.mover = q
        if not s._opens(q, _G if kind == "guardian" else _W):
            raise ValueError(f"player {q + 1}'s window cannot be open (no room, no card, "
                             "or no such card among its unseen ones)")
    elif chain:
        raise ValueError("chain is only set while a window is open")
    elif ph == "conscript":
        s.mover = cons[0]  # type: ignore[index]
        if cons[1] == 0:  # type: ignore[index]
            raise ValueError("conscript: no card left to conscript")
    else:
        s.mover = s.active
    if ph == "capture":
        ap, ai, aj, ac, atk = s.attack  # type: ignore[misc]
        target = s.fields[1 - ap][aj]
        if (target[2] + atk if s.cap_acc else atk) != s._def(1 - ap, target):  # type: ignore[index, arg-type]
            raise ValueError("capture: the attack's ATK does not equal the target's DEF")
    if ph in ("archer", "priest") and s.pending[2] != ph[0].upper():  # type: ignore[index]
        raise ValueError(f"phase {ph} needs a pending {ph} support")
    if ph == "limit" and (s.entered or sum(s.hands[s.active]) < s.limit):
        raise ValueError("phase limit: the hand must be at the limit, with no Entry yet")
    if s.phase == "archer" and not s._archer_targets(s.active):
        raise ValueError("phase archer: the Archer support has no target")
    if s.last_attacked is not None and (s.last_attacked[0] == s.active
                                        or s.fields[s.last_attacked[0]][s.last_attacked[1]]
                                        is None):
        raise ValueError("last_attacked must be an enemy card on the field")
