"""Tiny Free's table: Tiny Duel's, and the hooks for free-form options (pgui.table):
``SEAT_OPTIONS`` (each player's cards: yours and the bot's against it), ``OPTION_CHOICES``
(a preset), ``OPTION_STORE`` and ``TOOLS`` (a tool that saves hands in the browser)."""

from __future__ import annotations

import secrets
from typing import Any

from pgui.i18n import esc
from pgui.tools import Tool

from tinygame.free import CardsError, parse_cards
from tinygame.ui import *  # noqa: F403 - the same table
from tinygame.ui import STRINGS as TINY_STRINGS

STRINGS = {**TINY_STRINGS, "tinyfree.hands": {"en": "Hands", "ja": "手札"}}
BLURB = {"en": "Tiny Duel with hands you choose (a test game).",
         "ja": "手札を選べるタイニー・デュエル（テスト用）。"}
SEAT_OPTIONS = {"options": ("cards1", "cards2"),
                "mine": {"en": "Your cards", "ja": "あなたのカード"},
                "theirs": {"en": "The bot's cards", "ja": "ボットのカード"}}
OPTION_CHOICES = {name: [("3-4-5", {"en": "High cards", "ja": "大きいカード"})]
                  for name in ("cards1", "cards2")}
OPTION_STORE = {"cards1": "hands", "cards2": "hands"}
TOOLS = {"hands": {"label": {"en": "Hands", "ja": "手札"}, "make": "tinygame.free_ui:HandTool"}}


class HandTool(Tool):
    """Type a hand, save it under a name; saved hands are listed (a test of pgui.tools)."""

    name = "hands"
    fields = ("hand-name", "hand-cards")

    def __init__(self, game_id: str, **kwargs: Any) -> None:
        super().__init__(game_id, **kwargs)
        self.hand_name, self.cards = "", self.params.get("cards", "1-2-3")

    def typed(self, values: list[str]) -> None:
        self.hand_name, self.cards = (values + ["", ""])[:2]

    def act(self, name: str, values: list[str]) -> None:
        if name == "save":
            try:
                value = parse_cards(self.cards)
            except CardsError as exc:
                self.message = exc.message(self.lang)
                return
            self.message = ""
            self.save(secrets.token_hex(4), {"name": self.hand_name or value, "value": value})

    def store_failed(self, entry_id: str) -> None:
        self.entries.pop(entry_id, None)
        self.message = "not saved" if self.lang == "en" else "保存できません"

    def body(self) -> str:
        saved = "".join(f"<li>{esc(e['name'])}: {esc(e['value'])}</li>"
                        for e in self.entries.values())
        return (f'<main><p role="alert">{esc(self.message)}</p>'
                f'<input id="hand-name" value="{esc(self.hand_name)}">'
                f'<input id="hand-cards" value="{esc(self.cards)}">'
                f'<button data-cmd="save"{self.with_fields()}>Save</button>'
                f'<ul>{saved}</ul></main>')
