"""ART OF WAR's deck builder: a King and 20 troops, saved in this browser, shared as a code.

A game tool (:mod:`pgui.tools`), opened from the lobby's ART OF WAR tile or by a shared
link ``play.html?game=artofwar&tool=decks&deck=<code>``: Python draws it in the worker as it
draws a table, from the builder's state alone (:meth:`DeckBuilder.body`).

* The King: one of ten buttons; the chosen King's ATK, DEF and range are drawn (a King of
  §11's placeholders, K-003…K-010, is marked as provisional).
* Troops: each type's count with − and +; the total is shown, + is disabled at 20 troops
  (and at 10 of a type while "one box" is on: ``max_copies_per_type``), Save until the
  deck is exactly 20.
* Saved decks (``localStorage``, key ``pygames.artofwar.decks.<id>``, JSON ``{"name",
  "value": <deck code>, "updated": ms}``): listed with Load and Delete; the lobby's
  settings offer them as each player's deck (the UI hooks at the end of this module). A
  write the browser refuses is said in the player's language, and the deck on screen stays.
* Share: the code and a link that opens the builder with the deck, each with Copy.

>>> b = DeckBuilder("artofwar", params={"deck": "k2 s10 g10"}, lang="en")
>>> b.king, b.code(), b.total()
(2, 'K2S10G10', 20)
>>> b.command("sub:S"); b.total(), b.can_save()
(19, False)
"""

from __future__ import annotations

import os
import time
from typing import Any
from urllib.parse import quote

from pygames.artofwar import (
    ATK,
    DECK_TROOPS,
    DEF,
    KINGS,
    RANGES,
    STARTER,
    TYPE_NAMES,
    TYPES,
    DeckError,
    deck_code,
    king_name,
    parse_deck,
)

from .i18n import esc, register, t
from .tools import Tool

#: At most this many of one type when "one box" is on (§11 ``max_copies_per_type``).
BOX = 10
MAX_NAME = 40

STRINGS = {
    "artofwar.decks.tool": {"en": "Decks", "ja": "デッキ"},
    "artofwar.decks.title": {"en": "ART OF WAR: deck builder", "ja": "アート・オブ・ウォー：デッキ作成"},
    "artofwar.decks.king": {"en": "King", "ja": "キング"},
    "artofwar.decks.kings": {"en": "Choose a King", "ja": "キングを選ぶ"},
    "artofwar.decks.provisional": {"en": "provisional", "ja": "仮"},
    "artofwar.decks.provisional_note": {
        "en": "Provisional: this King's real card data is not known; these numbers stand in.",
        "ja": "仮のデータ：このキングの実際の数値は不明のため、仮の値です。"},
    "artofwar.decks.atk": {"en": "ATK", "ja": "攻撃力"},
    "artofwar.decks.def": {"en": "DEF", "ja": "防御力"},
    "artofwar.decks.atk_x": {"en": "X (your hand size)", "ja": "X（手札の枚数）"},
    "artofwar.decks.def_value": {"en": "{up} upright / {side} sideways",
                                 "ja": "縦{up}／横{side}"},
    "artofwar.decks.range": {"en": "Range", "ja": "レンジ"},
    "artofwar.decks.ahead": {"en": "{k} ahead", "ja": "前{k}"},
    "artofwar.decks.ahead_side": {"en": "{k} ahead, {n} to the {side}",
                                  "ja": "前{k}・{side}{n}"},
    "artofwar.decks.left": {"en": "left", "ja": "左"},
    "artofwar.decks.right": {"en": "right", "ja": "右"},
    "artofwar.decks.troops": {"en": "Troops", "ja": "兵"},
    "artofwar.decks.total": {"en": "{n} / {max} troops", "ja": "兵 {n}／{max}枚"},
    "artofwar.decks.more": {"en": "One {name} more", "ja": "{name}を1枚増やす"},
    "artofwar.decks.fewer": {"en": "One {name} fewer", "ja": "{name}を1枚減らす"},
    "artofwar.decks.count": {"en": "{name}: {n}", "ja": "{name}：{n}枚"},
    "artofwar.decks.box": {"en": "At most {n} of a type (one box)",
                           "ja": "同じ兵種は{n}枚まで（1箱分）"},
    "artofwar.decks.clear": {"en": "Remove all troops", "ja": "兵をすべて外す"},
    "artofwar.decks.need": {"en": "Add {n} more {n|troop|troops} to save.",
                            "ja": "保存するにはあと{n}枚の兵が必要です。"},
    "artofwar.decks.too_many": {"en": "At most {n} of one type while “one box” is on.",
                                "ja": "「1箱分」では同じ兵種は{n}枚までです。"},
    "artofwar.decks.ready": {"en": "The deck is complete: name it and save it.",
                             "ja": "デッキが完成しました。名前を付けて保存できます。"},
    "artofwar.decks.name": {"en": "Deck name", "ja": "デッキ名"},
    "artofwar.decks.save": {"en": "Save in this browser", "ja": "このブラウザに保存"},
    "artofwar.decks.saved": {"en": "Saved “{name}”.", "ja": "「{name}」を保存しました。"},
    "artofwar.decks.updated": {"en": "Saved over “{name}”.", "ja": "「{name}」を上書き保存しました。"},
    "artofwar.decks.not_saved": {
        "en": "This browser would not keep the deck (storage full or blocked). Your deck "
              "is still here: copy its code or link to keep it.",
        "ja": "このブラウザにデッキを保存できません（容量不足またはブロック）。デッキは画面に"
              "残っています。コードかリンクをコピーして残してください。"},
    "artofwar.decks.not_deleted": {
        "en": "This browser would not delete “{name}” (storage blocked).",
        "ja": "このブラウザでは「{name}」を削除できません（ストレージがブロックされています）。"},
    "artofwar.decks.share": {"en": "Share", "ja": "共有"},
    "artofwar.decks.code": {"en": "Deck code", "ja": "デッキコード"},
    "artofwar.decks.link": {"en": "Link to this deck", "ja": "このデッキへのリンク"},
    "artofwar.decks.copy_code": {"en": "Copy code", "ja": "コードをコピー"},
    "artofwar.decks.copy_link": {"en": "Copy link", "ja": "リンクをコピー"},
    "artofwar.decks.copied": {"en": "Copied", "ja": "コピーしました"},
    "artofwar.decks.copy_failed": {"en": "Could not copy: select the text and copy it.",
                                   "ja": "コピーできませんでした。文字を選択してコピーしてください。"},
    "artofwar.decks.incomplete_share": {
        "en": "A deck can be shared once it has {n} troops.",
        "ja": "兵が{n}枚そろうと共有できます。"},
    "artofwar.decks.play": {"en": "Play this deck vs the bot", "ja": "このデッキでボットと対戦"},
    "artofwar.decks.open": {"en": "Open a deck code", "ja": "デッキコードを開く"},
    "artofwar.decks.open_button": {"en": "Open", "ja": "開く"},
    "artofwar.decks.opened": {"en": "Opened the deck {code}.", "ja": "デッキ {code} を開きました。"},
    "artofwar.decks.bad_link": {"en": "The link's deck cannot be opened: {reason}.",
                                "ja": "リンクのデッキを開けません：{reason}。"},
    "artofwar.decks.bad_code": {"en": "That deck code cannot be opened: {reason}.",
                                "ja": "そのデッキコードは開けません：{reason}。"},
    "artofwar.decks.yours": {"en": "Your decks in this browser", "ja": "このブラウザのデッキ"},
    "artofwar.decks.none": {"en": "No deck saved yet.", "ja": "保存したデッキはまだありません。"},
    "artofwar.decks.load": {"en": "Load", "ja": "読み込む"},
    "artofwar.decks.load_sr": {"en": "Load “{name}”", "ja": "「{name}」を読み込む"},
    "artofwar.decks.delete": {"en": "Delete", "ja": "削除"},
    "artofwar.decks.delete_sr": {"en": "Delete “{name}”", "ja": "「{name}」を削除"},
    "artofwar.decks.loaded": {"en": "Loaded “{name}”.", "ja": "「{name}」を読み込みました。"},
    "artofwar.decks.deleted": {"en": "Deleted “{name}”.", "ja": "「{name}」を削除しました。"},
    "artofwar.decks.starter": {"en": "Starter deck ({king})", "ja": "スターターデッキ（{king}）"},
    "artofwar.decks.mine": {"en": "Your deck", "ja": "あなたのデッキ"},
    "artofwar.decks.theirs": {"en": "The bot's deck", "ja": "ボットのデッキ"},
    "artofwar.decks.opponent": {"en": "Your opponent's deck", "ja": "相手のデッキ"},
}
register(STRINGS)


def _words(key: str, **kwargs: Any) -> dict[str, str]:
    return {lang: t(key, lang, **kwargs) for lang in ("en", "ja")}


def range_words(offsets: tuple[tuple[int, int], ...], lang: str) -> str:
    """A range in words, for screen readers and the list under the drawing.

    >>> range_words(RANGES["A"], "en")
    '2 ahead, 1 to the left; 2 ahead, 1 to the right; 1 ahead, 2 to the left; 1 ahead, 2 to the right'
    """
    parts = []
    for dx, k in offsets:
        if dx == 0:
            parts.append(t("artofwar.decks.ahead", lang, k=k))
        else:
            side = t("artofwar.decks.left" if dx < 0 else "artofwar.decks.right", lang)
            parts.append(t("artofwar.decks.ahead_side", lang, k=k, n=abs(dx), side=side))
    return ("; " if lang == "en" else "、").join(parts)


def range_grid(offsets: tuple[tuple[int, int], ...]) -> str:
    """The range drawn: five lanes across (two each side), three steps ahead, the card at
    the bottom in the middle; a hit cell is dark. Decorative (the words say the same)."""
    hits = set(offsets)
    rows = []
    for k in (3, 2, 1, 0):
        cells = []
        for dx in (-2, -1, 0, 1, 2):
            cls = "me" if (k, dx) == (0, 0) else "hit" if (dx, k) in hits else ""
            cells.append(f'<span class="{cls}"></span>' if cls else "<span></span>")
        rows.append("".join(cells))
    return f'<span class="range-grid" aria-hidden="true">{"".join(rows)}</span>'


def _stats(atk: int | None, df: tuple[int, int], lang: str) -> str:
    atk_text = t("artofwar.decks.atk_x", lang) if atk is None else str(atk)
    return (f'{esc(t("artofwar.decks.atk", lang))} {esc(atk_text)} · '
            f'{esc(t("artofwar.decks.def", lang))} '
            f'{esc(t("artofwar.decks.def_value", lang, up=df[0], side=df[1]))}')


def _new_id() -> str:
    return os.urandom(5).hex()


class DeckBuilder(Tool):
    """The builder's state: the King, the counts, "one box", the name being typed, the
    saved decks (:attr:`entries`) and the last message."""

    name = "decks"
    stylesheet = "pgui/artofwar_decks.css"
    fields = ("deck-name", "deck-open")

    def __init__(self, game_id: str, **kwargs: Any) -> None:
        super().__init__(game_id, **kwargs)
        self.entries = {k: v for k, v in self.entries.items() if _entry_ok(v)}
        self.king, self.counts = parse_deck(STARTER[0])
        self.box = False
        self.deck_name = ""
        self.typed_code = ""
        self.alert = False  # the message is an error (role=alert), else a status
        #: The last write (entry id, the entry before it, "save" or "delete"), undone if
        #: the browser refuses it.
        self.undo: tuple[str, Any, str] | None = None
        code = self.params.get("deck")
        if code:
            try:
                self.king, self.counts = parse_deck(code)
            except DeckError as exc:
                self._say("artofwar.decks.bad_link", alert=True, reason=exc.message(self.lang))

    # -- the deck ------------------------------------------------------------------------
    def total(self) -> int:
        return sum(self.counts.values())

    def code(self) -> str:
        return deck_code(self.king, self.counts)

    def cap(self) -> int:
        return BOX if self.box else DECK_TROOPS

    def can_add(self, kind: str) -> bool:
        return self.total() < DECK_TROOPS and self.counts[kind] < self.cap()

    def over_box(self) -> bool:
        return self.box and any(n > BOX for n in self.counts.values())

    def can_save(self) -> bool:
        return self.total() == DECK_TROOPS and not self.over_box()

    def _say(self, key: str, alert: bool = False, **kwargs: Any) -> None:
        self.message, self.alert = t(key, self.lang, **kwargs), alert
        self._said = (key, kwargs)

    # -- commands --------------------------------------------------------------------------
    def typed(self, values: list[str]) -> None:
        name, code = (values + ["", ""])[:2]
        self.deck_name, self.typed_code = name.strip()[:MAX_NAME], code.strip()[:60]

    def command(self, cmd: str) -> None:
        before = self.lang
        super().command(cmd)
        if self.lang != before and getattr(self, "_said", None):  # the message follows
            key, kwargs = self._said
            self.message = t(key, self.lang, **kwargs)

    def act(self, name: str, values: list[str]) -> None:
        verb, _, arg = name.partition(":")
        if verb == "king" and arg.isdecimal() and int(arg) in KINGS:
            self.king = int(arg)
        elif verb == "add" and arg in TYPES and self.can_add(arg):
            self.counts[arg] += 1
        elif verb == "sub" and arg in TYPES and self.counts[arg] > 0:
            self.counts[arg] -= 1
        elif verb == "box":
            self.box = not self.box
        elif verb == "clear":
            self.counts = dict.fromkeys(TYPES, 0)
        elif verb == "save" and self.can_save():
            self._save()
        elif verb == "open":
            self._open(self.typed_code)
        elif verb == "load" and arg in self.entries:
            entry = self.entries[arg]
            self.king, self.counts = parse_deck(entry["value"])
            self.deck_name = entry["name"]
            self._say("artofwar.decks.loaded", name=entry["name"])
        elif verb == "delete" and arg in self.entries:
            entry = self.entries[arg]
            self.undo = (arg, entry, "delete")
            self.remove(arg)
            self._say("artofwar.decks.deleted", name=entry["name"])

    def _save(self) -> None:
        code = self.code()
        name = self.deck_name or code
        same = next((k for k, e in self.entries.items() if e["name"] == name), None)
        entry_id = same or _new_id()
        self.undo = (entry_id, self.entries.get(entry_id), "save")
        self.save(entry_id, {"name": name, "value": code, "updated": int(time.time() * 1000)})
        self.deck_name = name
        self._say("artofwar.decks.updated" if same else "artofwar.decks.saved", name=name)

    def _open(self, text: str) -> None:
        try:
            self.king, self.counts = parse_deck(text, BOX if self.box else 0)
        except DeckError as exc:
            self._say("artofwar.decks.bad_code", alert=True, reason=exc.message(self.lang))
            return
        self.typed_code = ""
        self._say("artofwar.decks.opened", code=self.code())

    def store_failed(self, entry_id: str) -> None:
        """The browser refused a write: the list is as it was, the deck stays on screen."""
        if not self.undo or self.undo[0] != entry_id:
            return
        _, previous, kind = self.undo
        self.undo = None
        if previous is None:
            self.entries.pop(entry_id, None)
        else:
            self.entries[entry_id] = previous
        if kind == "delete":
            self._say("artofwar.decks.not_deleted", alert=True, name=previous["name"])
        else:
            self._say("artofwar.decks.not_saved", alert=True)

    # -- drawing ---------------------------------------------------------------------------
    def title(self) -> str:
        return t("artofwar.decks.title", self.lang)

    def body(self) -> str:
        role = "alert" if self.alert else "status"
        message = (f'<p class="message{" error" if self.alert else ""}" role="{role}" '
                   f'data-deck-message>{esc(self.message)}</p>')
        return (f'<main class="decks" aria-labelledby="decks-title" data-deck="{esc(self.code())}">'
                f'<h2 id="decks-title" class="sr-only">{esc(self.title())}</h2>'
                f'{message}{self._king_html()}{self._troops_html()}{self._save_html()}'
                f'{self._share_html()}{self._saved_html()}{self._open_html()}</main>')

    def _button(self, cmd: str, text: str, *, cls: str = "", label: str = "",
                disabled: bool = False, extra: str = "") -> str:
        attrs = f' class="{cls}"' if cls else ""
        attrs += f' aria-label="{esc(label)}"' if label else ""
        attrs += " disabled" if disabled else ""
        return (f'<button type="button" data-cmd="{esc(cmd)}"{attrs}{extra}'
                f'{self.with_fields()}>{text}</button>')

    def _king_html(self) -> str:
        lang = self.lang
        buttons = []
        for number, data in KINGS.items():
            mark = (f'<span aria-hidden="true">*</span><span class="sr-only"> '
                    f'({esc(t("artofwar.decks.provisional", lang))})</span>'
                    if data["provisional"] else "")
            pressed = "true" if number == self.king else "false"
            buttons.append(self._button(f"king:{number}", f"{esc(king_name(number))}{mark}",
                                        cls="king", extra=f' aria-pressed="{pressed}"'))
        king = KINGS[self.king]
        note = (f'<p class="provisional">{esc(t("artofwar.decks.provisional_note", lang))}</p>'
                if king["provisional"] else "")
        return (f'<section class="kings" aria-labelledby="king-title">'
                f'<h3 id="king-title">{esc(t("artofwar.decks.kings", lang))}</h3>'
                f'<div class="king-buttons" role="group" aria-labelledby="king-title">'
                f'{"".join(buttons)}</div>'
                f'<div class="card king-card" data-king="{self.king}">'
                f'{range_grid(king["range"])}<div><p class="card-name">'
                f'<b>{esc(t("artofwar.decks.king", lang))} {esc(king_name(self.king))}</b></p>'
                f'<p>{_stats(king["atk"], king["def"], lang)}</p>'
                f'<p class="range-words">{esc(t("artofwar.decks.range", lang))}: '
                f'{esc(range_words(king["range"], lang))}</p>{note}</div></div></section>')

    def _troops_html(self) -> str:
        lang = self.lang
        rows = []
        for kind in TYPES:
            name = TYPE_NAMES[kind][lang]
            n = self.counts[kind]
            minus = self._button(f"sub:{kind}", "−", cls="step",
                                 label=t("artofwar.decks.fewer", lang, name=name),
                                 disabled=n == 0)
            plus = self._button(f"add:{kind}", "+", cls="step",
                                label=t("artofwar.decks.more", lang, name=name),
                                disabled=not self.can_add(kind))
            over = " over" if self.box and n > BOX else ""
            rows.append(
                f'<li class="card troop" data-type="{kind}">{range_grid(RANGES[kind])}'
                f'<div class="about"><p class="card-name"><b>{esc(name)}</b></p>'
                f'<p>{_stats(ATK[kind], DEF[kind], lang)}</p>'
                f'<p class="range-words">{esc(t("artofwar.decks.range", lang))}: '
                f'{esc(range_words(RANGES[kind], lang))}</p></div>'
                f'<div class="stepper">{minus}<span class="count{over}" data-count="{kind}" '
                f'aria-label="{esc(t("artofwar.decks.count", lang, name=name, n=n))}">{n}'
                f'</span>{plus}</div></li>')
        total = self.total()
        if self.over_box():
            hint = t("artofwar.decks.too_many", lang, n=BOX)
        elif total < DECK_TROOPS:
            hint = t("artofwar.decks.need", lang, n=DECK_TROOPS - total)
        else:
            hint = t("artofwar.decks.ready", lang)
        box = self._button("box", esc(t("artofwar.decks.box", lang, n=BOX)), cls="box",
                           extra=f' aria-pressed="{"true" if self.box else "false"}"')
        clear = self._button("clear", esc(t("artofwar.decks.clear", lang)), cls="clear",
                             disabled=total == 0)
        return (f'<section class="troops" aria-labelledby="troops-title">'
                f'<h3 id="troops-title">{esc(t("artofwar.decks.troops", lang))} '
                f'<span class="total" data-total="{total}">'
                f'{esc(t("artofwar.decks.total", lang, n=total, max=DECK_TROOPS))}</span></h3>'
                f'<p class="hint" id="deck-hint" aria-live="polite">{esc(hint)}</p>'
                f'<ul class="troop-list">{"".join(rows)}</ul>'
                f'<p class="buttons">{box}{clear}</p></section>')

    def _save_html(self) -> str:
        lang = self.lang
        save = self._button("save", esc(t("artofwar.decks.save", lang)), cls="primary",
                            disabled=not self.can_save(),
                            extra=' id="deck-save" aria-describedby="deck-hint"')
        return (f'<section class="save" aria-label="{esc(t("artofwar.decks.save", lang))}">'
                f'<label for="deck-name">{esc(t("artofwar.decks.name", lang))}</label>'
                f'<div class="row"><input type="text" id="deck-name" maxlength="{MAX_NAME}" '
                f'value="{esc(self.deck_name)}" placeholder="{esc(self.code())}" '
                f'autocomplete="off" data-enter="deck-save">{save}</div></section>')

    def _link(self) -> str:
        return f"{self.page}?game={quote(self.game_id)}&tool=decks&deck={quote(self.code())}"

    def _share_html(self) -> str:
        lang = self.lang
        head = f'<h3 id="share-title">{esc(t("artofwar.decks.share", lang))}</h3>'
        if self.total() != DECK_TROOPS:
            return (f'<section class="share" aria-labelledby="share-title">{head}<p>'
                    f'{esc(t("artofwar.decks.incomplete_share", lang, n=DECK_TROOPS))}</p>'
                    f'</section>')
        status = (f'<span role="status" data-copied="{esc(t("artofwar.decks.copied", lang))}" '
                  f'data-copy-failed="{esc(t("artofwar.decks.copy_failed", lang))}"></span>')
        play = (f"./play.html?game={quote(self.game_id)}&mode=bot&mine={quote(self.code())}"
                f"&lang={lang}")

        def row(field: str, label: str, value: str, copy: str) -> str:
            return (f'<label for="{field}">{esc(label)}</label><div class="row">'
                    f'<input type="text" id="{field}" readonly value="{esc(value)}">'
                    f'<button type="button" data-copy-from="{field}">{esc(copy)}</button>'
                    f'{status}</div>')

        return (f'<section class="share" aria-labelledby="share-title">{head}'
                f'{row("deck-code", t("artofwar.decks.code", lang), self.code(), t("artofwar.decks.copy_code", lang))}'
                f'{row("deck-link", t("artofwar.decks.link", lang), self._link(), t("artofwar.decks.copy_link", lang))}'
                f'<p><a class="button" href="{esc(play)}" data-play-deck>'
                f'{esc(t("artofwar.decks.play", lang))}</a></p></section>')

    def _saved_html(self) -> str:
        lang = self.lang
        items = []
        for entry_id, entry in sorted(self.entries.items(), key=lambda e: e[1]["name"]):
            name = entry["name"]
            what = f"saved-deck-{entry_id}"
            load = self._button(f"load:{entry_id}", esc(t("artofwar.decks.load", lang)),
                                label=t("artofwar.decks.load_sr", lang, name=name))
            delete = self._button(f"delete:{entry_id}", esc(t("artofwar.decks.delete", lang)),
                                  cls="delete",
                                  label=t("artofwar.decks.delete_sr", lang, name=name))
            items.append(f'<li data-saved-deck="{esc(entry["value"])}"><span class="what" '
                         f'id="{what}"><b>{esc(name)}</b> <code>{esc(entry["value"])}</code>'
                         f'</span><span class="buttons">{load}{delete}</span></li>')
        body = (f'<ul class="saved-decks">{"".join(items)}</ul>' if items else
                f'<p>{esc(t("artofwar.decks.none", lang))}</p>')
        return (f'<section class="yours" aria-labelledby="yours-title">'
                f'<h3 id="yours-title">{esc(t("artofwar.decks.yours", lang))}</h3>{body}'
                f'</section>')

    def _open_html(self) -> str:
        lang = self.lang
        button = self._button("open", esc(t("artofwar.decks.open_button", lang)),
                              extra=' id="deck-open-button"')
        return (f'<section class="open" aria-label="{esc(t("artofwar.decks.open", lang))}">'
                f'<label for="deck-open">{esc(t("artofwar.decks.open", lang))}</label>'
                f'<div class="row"><input type="text" id="deck-open" value="{esc(self.typed_code)}" '
                f'placeholder="K1S4G4A4P4W4" autocomplete="off" autocapitalize="characters" '
                f'spellcheck="false" data-enter="deck-open-button">{button}</div></section>')


def _entry_ok(entry: Any) -> bool:
    """A saved deck this builder can list: a name and a legal deck code."""
    if not (isinstance(entry, dict) and isinstance(entry.get("name"), str)
            and isinstance(entry.get("value"), str)):
        return False
    try:
        parse_deck(entry["value"])
    except DeckError:
        return False
    return True


# -- the UI hooks (pgui.table) ART OF WAR's UI module takes from here ------------------------
#: The deck builder, linked from the lobby's tile.
TOOLS = {"decks": {"label": _words("artofwar.decks.tool"),
                   "make": "pgui.artofwar_decks:DeckBuilder"}}
#: Both starter decks are offered for either player; saved decks join them.
OPTION_CHOICES = {name: [(code, _words("artofwar.decks.starter", king=king_name(k)))
                         for k, code in ((1, STARTER[0]), (2, STARTER[1]))]
                  for name in ("deck1", "deck2")}
OPTION_STORE = {"deck1": "decks", "deck2": "decks"}
SEAT_OPTIONS = {"options": ("deck1", "deck2"), "mine": _words("artofwar.decks.mine"),
                "theirs": _words("artofwar.decks.theirs"),
                "opponent": _words("artofwar.decks.opponent")}
