"""Tiny Duel with free-form options: each player's three cards are an option each
(``cards1``, ``cards2``: text like ``1-2-5``, three different numbers from 1 to 5; any
order and separators, canonicalised), as a deck code is. The shared layers' tests register
it to check free-form options travel everywhere options do (``tests/test_free_options.py``).
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from pygames.core import State
from tinygame import TinyGame, TinyState


class CardsError(ValueError):
    """A hand that is not three different numbers from 1 to 5; ``.ja`` in Japanese."""

    def __init__(self, en: str, ja: str) -> None:
        super().__init__(en)
        self.ja = ja

    def message(self, lang: str) -> str:
        return self.ja if lang == "ja" else str(self)


def parse_cards(text: Any) -> str:
    """``"5 2-1"`` → ``"1-2-5"``, or :class:`CardsError`."""
    digits = re.findall(r"\d", text) if isinstance(text, str) else []
    rest = re.sub(r"[\d\s\-,]", "", text) if isinstance(text, str) else "?"
    if rest or len(digits) != 3 or len(set(digits)) != 3 or not set(digits) <= set("12345"):
        raise CardsError("a hand is three different numbers from 1 to 5",
                         "手札は1〜5の異なる3つの数です")
    return "-".join(sorted(digits))


class FreeTinyState(TinyState):
    def __init__(self, game: Any, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        self.hands = [options["cards1"].split("-"), options["cards2"].split("-")]

    def view(self, player: int | None) -> dict[str, Any]:
        return {**super().view(player), "game": "tinyfree"}


class FreeTinyGame(TinyGame):
    id = "tinyfree"
    names = {"en": "Tiny Free", "ja": "タイニー・フリー"}
    max_players = 2  # one option per player's cards
    option_schema: ClassVar[dict[str, dict[str, Any]]] = {
        "cards1": {"default": "1-2-3"}, "cards2": {"default": "1-2-3"},
        "rounds": {"values": [3], "default": 3}}
    option_labels: ClassVar[dict[str, dict[Any, dict[str, str]]]] = {
        "cards1": {"label": {"en": "Player 1's cards", "ja": "プレイヤー1のカード"}},
        "cards2": {"label": {"en": "Player 2's cards", "ja": "プレイヤー2のカード"}},
        "rounds": {"label": {"en": "Rounds", "ja": "ラウンド数"}}}

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        for name in ("cards1", "cards2"):
            resolved[name] = parse_cards(resolved[name])
        return resolved

    def sample_options(self, rng: Any) -> dict[str, Any]:
        return {name: "-".join(sorted(rng.sample("12345", 3))) for name in ("cards1", "cards2")}

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> State:
        return FreeTinyState(self, seed, players, options)
