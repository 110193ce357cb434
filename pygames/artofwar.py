"""ART OF WAR: two players, a 2×3 field each, a five-slot waiting line, four ways to win.

Rules: ``shared/rules/artofwar.md`` (section numbers §n and decisions §13.n refer to it).
Seat 0 is player 1 (P1, who moves first), seat 1 is player 2 (P2).

This part of the module is the card data and the deck codes; the engine follows.
"""

from __future__ import annotations

import re
from typing import Any

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
