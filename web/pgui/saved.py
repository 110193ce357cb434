"""Local games kept in this browser, so that a reload, a crash or a closed tab loses nothing.

Every local game (``mode=bot`` and ``mode=hotseat``; link play keeps its own session,
:mod:`pgui.link`) is saved after each action, the human's and the bot's. A worker has no
``localStorage``, so Python only says what to save: :meth:`pgui.session_glue.Session.result`
carries ``local = {id, key, text, failed}`` (``text``: the envelope below, only when the
game changed; ``failed``: the notice to show, in the player's language, if the page cannot
store it), and ``glue.js`` writes ``text`` under ``key``.

Storage format (version :data:`VERSION`)
----------------------------------------

One ``localStorage`` entry per game, key ``pygames.saved.<id>`` (:data:`PREFIX`; ``id``: 10
hex digits), holding a JSON envelope::

    {"kind": "pygames.saved", "v": 1, "id": "3fa9c01b2e",
     "game": "kiriai", "mode": "bot", "level": "easy", "seat": 0, "human": 0,
     "players": 2, "seats": ["you", "easy"],
     "speed": 900, "lang": "en", "created": 1764600000000, "updated": 1764600042000,
     "moves": 6, "over": false, "record": {...State.record(): game, v, seed, actions...},
     "replay": "r1....", "winners": [0]}

``players`` and ``seats``: how many play and who sits where (:data:`pgui.table.SEAT_KINDS`,
``you``, ``here`` or a bot's level per seat; written since games for more than two, an
entry without them is two players as ``mode``, ``level`` and ``human`` say), so a saved game
resumes with its bots in their seats;
``level``/``human``: the (first) bot's level and the human's seat; ``created`` and
``updated``: milliseconds since the epoch; ``moves``: the record's actions; ``replay``: the
record string (:func:`pygames.records.to_string`) once the game is over, for the lobby's
Replay link, and ``winners`` (the seats that won: ``[]`` a draw) once it is over, for the
lobby's "You won" (entries saved before it existed have none: the lobby says "Finished"
only). The record holds the deal (seed): it lives only in this browser's storage and
in memory, never in the page's HTML while the game hides something; the page's address
names the game only by its id (``play.html?...&resume=<id>``).

When a write fails (storage full), ``glue.js`` deletes the oldest finished game
(``over`` true, by ``updated``; never a game in progress, never the one being written) and
tries again, until it is written or no finished game is left; only then is ``failed``
shown.

The lobby (:mod:`pgui.lobby`) reads every ``pygames.saved.*`` entry itself (no index to
keep in step): the summary fields sit at the envelope's top level. An envelope of an
earlier version is upgraded (:data:`UPGRADES`) before use; a damaged one is refused with a
:class:`SavedError` (a message, never a crash).

>>> from pgui.table import Table
>>> table = Table("kiriai", mode="hotseat", seed=4, lang="en", speed=0)
>>> table.command("handover-ok"); table.command("pick:C"); table.command("pick:B")
>>> table.command("confirm")
>>> env = loads(dumps(envelope(table, "0123456789", created=1)))
>>> env["v"], env["moves"], env["record"]["actions"]
(1, 1, [[0, 'CB']])
>>> again = resume_table(env, lang="en")
>>> again.state == table.state
True
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

import pygames
from pygames.bots import LEVELS

from .i18n import register, t
from .table import MODES, SEAT_KINDS, Table

KIND = "pygames.saved"
#: The envelope's format version; bump it (and add an upgrade) when the envelope changes.
VERSION = 1
PREFIX = "pygames.saved."

#: ``{old version: function(envelope) -> envelope of the next version}``.
UPGRADES: dict[int, Any] = {}

STRINGS = {
    "saved_games": {"en": "Your games on this device", "ja": "この端末の対局"},
    "saved_in_progress": {"en": "In progress", "ja": "対局中"},
    "saved_finished": {"en": "Finished", "ja": "終局"},
    "saved_moves": {"en": "{n} {n|move|moves}", "ja": "{n}手"},
    "saved_continue": {"en": "Continue", "ja": "続きから"},
    "saved_replay": {"en": "Replay", "ja": "再生"},
    "saved_delete": {"en": "Delete", "ja": "削除"},
    "saved_you_won": {"en": "You won", "ja": "あなたの勝ち"},
    "saved_you_lost": {"en": "You lost", "ja": "あなたの負け"},
    "saved_won": {"en": "{who} won", "ja": "{who}の勝ち"},
    "saved_draw": {"en": "Draw", "ja": "引き分け"},
    "saved_deleted": {"en": "Game deleted.", "ja": "対局を削除しました。"},
    "saved_note": {"en": "Local games are saved in this browser after every move.",
                   "ja": "ローカルの対局は一手ごとにこのブラウザに保存されます。"},
    "saved_failed": {"en": "This browser would not store the game (storage full or blocked): "
                           "play goes on, but a reload will lose it.",
                     "ja": "このブラウザに対局を保存できません（容量不足またはブロック）。"
                           "対局は続けられますが、再読み込みすると失われます。"},
    "saved_close": {"en": "Close", "ja": "閉じる"},
    "saved_unreadable": {"en": "The saved game could not be opened ({why}): a new game started.",
                         "ja": "保存された対局を開けませんでした（{why}）。新しい対局を始めました。"},
    "saved_missing": {"en": "This saved game is no longer in this browser: a new game started.",
                      "ja": "この保存された対局はこのブラウザにありません。新しい対局を始めました。"},
    "saved_why_format": {"en": "it is damaged", "ja": "データが壊れています"},
    "saved_why_version": {"en": "a newer version of the app saved it",
                          "ja": "新しい版のアプリで保存されています"},
    "saved_why_record": {"en": "its moves do not replay", "ja": "手順を再現できません"},
}
register(STRINGS)


class SavedError(ValueError):
    """A saved entry that cannot be opened; ``code``: ``format``, ``version`` or ``record``."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"saved game refused ({code}): {detail}")
        self.code = code

    def message(self, lang: str = "en") -> str:
        return t("saved_unreadable", lang, why=t(f"saved_why_{self.code}", lang))


def new_id() -> str:
    return os.urandom(5).hex()  # as secrets.token_hex(5), without importing hmac


def now_ms() -> int:
    return int(time.time() * 1000)


def saveable(table: Any) -> bool:
    """A local game (bot, pass and play) with a record: not link play, not a replay, not a
    hand-set position."""
    return (type(table) is Table and table.mode in MODES
            and not getattr(table, "positional", False))


def envelope(table: Table, save_id: str, created: int) -> dict[str, Any]:
    """What the page stores for ``table`` (see the module's docstring)."""
    from pygames import records

    record = table.state.record()
    over = bool(table.over)
    env = {
        "kind": KIND, "v": VERSION, "id": save_id, "game": table.game.id, "mode": table.mode,
        "level": table.level, "seat": table.seat_choice, "human": table.human,
        "speed": table.speed, "lang": table.lang, "created": created, "updated": now_ms(),
        "moves": len(record["actions"]), "over": over, "record": record,
        "players": len(table.seat_kinds), "seats": list(table.seat_kinds),
    }
    if over:
        env["replay"] = records.to_string(record)
        env["winners"] = winners(table)
    return env


def winners(table: Table) -> list[int]:
    """Who won a finished game (``[]``: a draw), from the outcome every seat is shown."""
    outcome = table.state.outcome() or {}
    return sorted(p for p in outcome.get("winners", ()) if 0 <= p < table.state.players)


def dumps(env: dict[str, Any]) -> str:
    return json.dumps(env, ensure_ascii=False, separators=(",", ":"))


def loads(text: str) -> dict[str, Any]:
    """The envelope stored as ``text``, upgraded to :data:`VERSION`; :class:`SavedError`
    if it is not one (damaged, unknown, from a newer build)."""
    try:
        env = json.loads(text)
    except (TypeError, ValueError) as exc:
        raise SavedError("format", str(exc)) from None
    if not isinstance(env, dict) or env.get("kind") != KIND:
        raise SavedError("format", "not a saved game")
    version = env.get("v")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SavedError("format", f"version {version!r}")
    if version > VERSION:
        raise SavedError("version", f"version {version} > {VERSION}")
    while env["v"] < VERSION:
        env = UPGRADES[env["v"]](env)
    record = env.get("record")
    seats = env.get("seats")
    players = len(seats) if isinstance(seats, list) else 2
    if (not isinstance(env.get("id"), str) or env.get("mode") not in MODES
            or not isinstance(record, dict) or record.get("game") not in pygames.game_ids()
            or env.get("game") != record.get("game")
            or env.get("level") not in (None, *LEVELS)
            or env.get("human") not in range(players)
            or (seats is not None and not _seats_ok(seats, record))):
        raise SavedError("format", "missing or wrong fields")
    return env


def _seats_ok(seats: Any, record: dict[str, Any]) -> bool:
    """A saved game's seats: a list of :data:`SEAT_KINDS` with one ``you``, one per player
    of its record."""
    return (isinstance(seats, list) and all(isinstance(k, str) and k in SEAT_KINDS
                                            for k in seats)
            and seats.count("you") == 1 and len(seats) == record.get("players", 2))


def resume_table(env: dict[str, Any], *, lang: str, speed: int | None = None,
                 slices: bool = False) -> Table:
    """The table of a saved game, where it was: its record is replayed (the bots' moves
    are in it); the bots then think again if they are to move."""
    record = env["record"]
    speed = speed if speed is not None else env.get("speed")
    try:
        table = Table(env["game"], mode=env["mode"], seed=record["seed"], level=env["level"],
                      seat=env["human"], slices=slices, options=record.get("options") or {},
                      lang=lang, speed=speed if isinstance(speed, int) else 900,
                      seats=env.get("seats"))
        table.game.from_record(record)  # checks the record as a whole first
        table.resume(record["actions"])
    except (ValueError, KeyError, TypeError) as exc:
        raise SavedError("record", str(exc)) from None
    return table
