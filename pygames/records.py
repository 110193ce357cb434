"""Records as text: a compact string for links and chat, and a score sheet for people.

A record is what :meth:`pygames.core.State.record` returns (``game``, ``v``, ``players``,
``options``, ``seed``, ``actions``), optionally with ``names`` (one per seat). Two ways to
write it down:

* :func:`to_string` / :func:`from_string`: one URL-safe line (``r1.`` and base64url), made to
  travel (a link, a chat message); damaged or edited text is refused, never misread.
* :func:`to_sheet` / :func:`from_sheet`: a readable score sheet, one move per line in the
  game's notation, that a person may read, annotate and edit.

A position without history (a game's :meth:`~pygames.core.Game.from_position`, where the
game has one: Canosa's and Cardia's do) travels the same way: :func:`position_to_string` /
:func:`position_from_string`. :func:`load` takes any of the three and gives the state.

Everything that is refused raises :class:`RecordError` (a ``ValueError``) with a stable
``code``, and a message in English or Japanese (:meth:`RecordError.message`)::

    >>> import pygames
    >>> state = pygames.get_game("kiriai").new_game(seed=7)
    >>> state.apply(0, "CB"); state.apply(1, "AH")
    >>> text = to_string(state.record())
    >>> text[:3], from_string(text) == state.record()
    ('r1.', True)
    >>> try:
    ...     from_string(text[:-4])
    ... except RecordError as exc:
    ...     print(exc.code)
    truncated

The string format (version 1)
-----------------------------

``<kind><version>.<base64url without padding>``: kind ``r`` (a record) or ``p`` (a
position), version ``1``. The bytes are a 6-byte checksum (the first bytes of SHA-256 over
the prefix, the length and the body), the body's length (a LEB128 varint), then the body:
raw DEFLATE of the UTF-8 payload. A record's payload is lines::

    game id
    seed (decimal)
    players (empty: 2)
    options that differ from the defaults, as JSON (empty: none)
    actions, separated by spaces
    for each action taken while several players were to move, the player (0-9a-z)
    names as a JSON list (this line only when there are names)

Players of the other actions are not written: replay says who was to move. A position's
payload is the game id, a newline, and the keyword arguments of ``from_position`` as JSON.
Whitespace around the text is ignored; any other change is refused (``checksum``,
``truncated``, ``format``…), and a string that decodes is replayed and checked as a whole.

The score sheet
---------------

::

    # pygames record v1
    Game: kiriai (Kiri-ai: The Duel)
    Options: battlefield=standard round_limit=0
    Players: 2
    Seed: 7
    Names: Alice, Bob
    # Result: not finished (P1, P2 to move)

    # Round 1
    1. P1 CB
    2. P2 AH

Header lines are ``Field: value`` (``Game`` and ``Seed`` are needed; missing options take
their defaults). A move line is ``[number.] [P<seat>] action``; the number is for the eye
(moves are counted in order), the seat may be left out when only one player is to move.
``#`` starts a comment (on a move line, anywhere); blank lines and CRLF are fine. Moves
are grouped under comment headings (round, encounter, turn); a sheet is read by replaying
it, so an edited move that is legal gives that game, and an illegal one is refused naming
its move number and line.

Hostile input (any object, huge or binary text, a decompression bomb) is refused with a
``RecordError``: text over :data:`MAX_TEXT` characters, payloads over :data:`MAX_PAYLOAD`
bytes, more than :data:`MAX_ACTIONS` moves. Standard library only (CPython and Pyodide).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import sys
import zlib
from typing import Any

from .core import RECORD_VERSION, Game, IllegalAction, State

__all__ = ["RecordError", "MESSAGES", "to_string", "from_string", "position_to_string",
           "position_from_string", "to_sheet", "from_sheet", "load", "FORMAT_VERSION",
           "MAX_TEXT", "MAX_PAYLOAD", "MAX_ACTIONS"]

#: Version of the string format (the digit after the kind letter).
FORMAT_VERSION = 1
#: Longest text accepted (characters), before anything else is looked at.
MAX_TEXT = 3_000_000
#: Largest payload once decompressed (bytes): a bigger one is refused (a "zip bomb").
MAX_PAYLOAD = 2_000_000
#: Most actions in one record.
MAX_ACTIONS = 20_000
#: Longest name of a seat (characters).
MAX_NAME = 64

_CHECK = 6  # checksum bytes
_SEATS = "0123456789abcdefghijklmnopqrstuvwxyz"
_PREFIX = re.compile(r"([A-Za-z])(\d{1,6})\.")
_B64 = re.compile(r"[A-Za-z0-9_-]*")
_FIELDS = ("Game", "Options", "Players", "Seed", "Names")

#: Every message, by key: ``{key: {"en": template, "ja": template}}``. A key is an error
#: code or ``code:variant``; templates are filled with the error's ``params``.
MESSAGES: dict[str, dict[str, str]] = {
    "format:type": {
        "en": "A record must be text, not {type}.",
        "ja": "記録はテキストでなければなりません（{type} ではなく）。"},
    "format:empty": {
        "en": "There is no record here: the text is empty.",
        "ja": "記録がありません：テキストが空です。"},
    "format:prefix": {
        "en": "This is not a pygames record: it should start with \u201cr1.\u201d (a game) "
              "or \u201cp1.\u201d (a position).",
        "ja": "これは pygames の記録ではありません：「r1.」（対局）または"
              "「p1.」（局面）で始まるはずです。"},
    "format:kind": {
        "en": "This text is {found}, not {wanted}.",
        "ja": "このテキストは{found_ja}で、{wanted_ja}ではありません。"},
    "format:char": {
        "en": "This record contains a character that cannot be in a record (\u201c{char}\u201d at "
              "character {pos}): was it edited?",
        "ja": "記録に使えない文字が含まれています（{pos}文字目の「{char}」）。編集されましたか？"},
    "format:payload": {
        "en": "This record is damaged: its contents cannot be read ({detail}).",
        "ja": "この記録は壊れています：中身を読めません（{detail}）。",
        "ja_brief": "この記録は壊れています：中身を読めません。"},
    "format:record": {
        "en": "This is not a valid record: {detail}.",
        "ja": "正しい記録ではありません：{detail_ja}。"},
    "format:line": {
        "en": "Line {line} is not a move (expected e.g. \u201c12. P1 {example}\u201d): "
              "\u201c{text}\u201d",
        "ja": "{line}行目は手として読めません（例：「12. P1 {example}」）："
              "「{text}」"},
    "version": {
        "en": "This record is in format {found}, which this version does not read (it "
              "reads format {supported}). Is the app up to date?",
        "ja": "この記録は形式 {found} で、このバージョンでは読めません（読めるのは形式 "
              "{supported}）。アプリは最新ですか？"},
    "checksum": {
        "en": "This record is damaged: its checksum does not match (was it cut short or "
              "edited?)",
        "ja": "この記録は壊れています：チェックサムが一致しません（途中で切れたか、"
              "編集されましたか？）"},
    "truncated": {
        "en": "This record is incomplete: it was cut short ({missing}). Copy the whole "
              "text.",
        "ja": "この記録は不完全です：途中で切れています（{missing_ja}）。全文をコピーして"
              "ください。"},
    "size": {
        "en": "This text is too long to be a record ({size} characters; at most {limit}).",
        "ja": "記録としては長すぎます（{size}文字、上限 {limit}文字）。"},
    "size:payload": {
        "en": "This record is too large: it unpacks to more than {limit} bytes.",
        "ja": "この記録は大きすぎます：展開すると {limit} バイトを超えます。"},
    "size:actions": {
        "en": "This record has too many moves ({count}; at most {limit}).",
        "ja": "この記録は手数が多すぎます（{count}手、上限 {limit}手）。"},
    "game": {
        "en": "This record is for an unknown game \u201c{game}\u201d (known games: {known}).",
        "ja": "この記録は未知のゲーム「{game}」のものです（知っているゲーム：{known}）。"},
    "game:position": {
        "en": "{name} has no positions without history.",
        "ja": "{name_ja}には履歴のない局面がありません。"},
    "option": {
        "en": "The record's options are not valid for {name}: {detail}.",
        "ja": "記録のオプションが{name_ja}に合いません：{detail_ja}。",
        "ja_brief": "記録のオプションが{name_ja}に合いません。"},
    "players": {
        "en": "This record is for {players} players, but {name} is for {want} players.",
        "ja": "この記録のプレイヤー数は{players}人ですが、{name_ja}は{want}人用です"
              "（プレイヤー数が合いません）。"},
    "seed": {
        "en": "The record's seed must be a whole number, not {seed}.",
        "ja": "記録のシードは整数でなければなりません（{seed_ja} ではなく）。"},
    "names": {
        "en": "The record's names are not valid: {detail}.",
        "ja": "記録の名前が正しくありません：{detail_ja}。"},
    "action": {
        "en": "Move {n} ({action}) is not legal at that point: {reason}",
        "ja": "{n}手目（{action}）はその時点で合法ではありません：{reason}",
        "ja_brief": "{n}手目（{action}）は、その時点では選べない手です。"},
    "action:line": {
        "en": "Move {n} ({action}, line {line}) is not legal at that point: {reason}",
        "ja": "{n}手目（{action}、{line}行目）はその時点で合法ではありません：{reason}",
        "ja_brief": "{n}手目（{action}、{line}行目）は、その時点では選べない手です。"},
    "action:shape": {
        "en": "Move {n} is not a [player, action] pair: {entry}",
        "ja": "{n}手目が [プレイヤー, 手] の形ではありません：{entry}"},
    "action:seat": {
        "en": "Move {n} ({action}{where}) does not say which player plays it, and "
              "{count} players are to move: write P1, P2…",
        "ja": "{n}手目（{action}{where_ja}）はどのプレイヤーの手か書かれていませんが、"
              "{count}人が手番です：P1、P2…と書いてください。"},
    "header:missing": {
        "en": "The score sheet has no \u201c{field}:\u201d line.",
        "ja": "記録に「{field}:」の行がありません。"},
    "header:unknown": {
        "en": "Line {line}: unknown header \u201c{field}\u201d (known: {known}).",
        "ja": "{line}行目：未知の見出し「{field}」（使えるもの：{known}）。"},
    "header:twice": {
        "en": "Line {line}: \u201c{field}:\u201d is given twice.",
        "ja": "{line}行目：「{field}:」が二度書かれています。"},
    "header:late": {
        "en": "Line {line}: the header \u201c{field}:\u201d must come before the moves.",
        "ja": "{line}行目：見出し「{field}:」は手より前に書いてください。"},
    "header:bad": {
        "en": "Line {line}: cannot read \u201c{field}: {value}\u201d ({detail}).",
        "ja": "{line}行目：「{field}: {value}」を読めません（{detail}）。",
        "ja_brief": "{line}行目：「{field}: {value}」を読めません。"},
    "position": {
        "en": "This position cannot be set up: {detail}",
        "ja": "この局面は作れません：{detail}",
        "ja_brief": "この局面は作れません（内容が正しくありません）。"},
}

#: Parameters that come in English only unless a ``<name>_ja`` is given (an engine's own
#: reason, a decoder's detail): a message in another language then uses its ``<lang>_brief``
#: template, which leaves them out.
ENGLISH_ONLY = ("detail", "reason")

_KIND_WORDS = {"r": ("a game record", "対局の記録"), "p": ("a position", "局面")}


class RecordError(ValueError):
    """A record (string, sheet or dict) that cannot be read or is not a legal game.

    ``code`` is a short stable id (``"checksum"``, ``"truncated"``, ``"version"``,
    ``"format"``, ``"size"``, ``"game"``, ``"option"``, ``"players"``, ``"seed"``,
    ``"names"``, ``"action"``, ``"header"``, ``"position"``); ``params`` fills the message.
    ``str(exc)`` is the English message; :meth:`message` gives it in another language.

    >>> exc = RecordError("checksum")
    >>> exc.code, exc.message("ja")[:6]
    ('checksum', 'この記録は壊')
    """

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key if key in MESSAGES else key.split(":")[0]
        self.code = key.split(":")[0]
        self.params = params
        super().__init__(self.message("en"))

    def message(self, lang: str = "en") -> str:
        """The message in ``lang`` (``"en"`` or ``"ja"``; anything else: English)."""
        templates = MESSAGES[self.key]
        template = templates.get(lang, templates["en"])
        if lang != "en" and f"{lang}_brief" in templates and any(
                name in self.params and f"{name}_{lang}" not in self.params
                for name in ENGLISH_ONLY):
            template = templates[f"{lang}_brief"]  # no English reason inside Japanese
        fields = dict(self.params)
        for name, value in self.params.items():  # "_ja" variants default to the plain value
            fields.setdefault(f"{name}_ja", value)
        try:
            return template.format(**fields)
        except (KeyError, IndexError, ValueError):
            return templates["en"] + f" {self.params!r}"


def _short(value: Any, limit: int = 60) -> str:
    """A value shown in a message, cut to ``limit`` characters: text as it is (characters
    that cannot be shown become \ufffd; no quotes or escapes, the message quotes it), other
    values as JSON (else their repr)."""
    if isinstance(value, str):
        text = "".join(ch if ch.isprintable() else "\ufffd" for ch in value)
    else:
        try:
            text = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _game(game_id: Any) -> Any:
    import pygames  # here, not at the top: pygames imports the games, which import core
    if isinstance(game_id, str):
        try:
            return pygames.get_game(game_id)
        except KeyError:
            pass
    raise RecordError("game", game=_short(game_id, 40),
                      known=", ".join(pygames.game_ids()))


def _name_params(game: Any) -> dict[str, str]:
    return {"name": game.names["en"], "name_ja": game.names.get("ja", game.names["en"])}


# -- checking and replaying ----------------------------------------------------------------
def _check_header(game: Any, seed: Any, players: Any, options: Any) -> dict[str, Any]:
    """Check seed, players and options; return the resolved options."""
    if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) >= 10 ** 60:
        raise RecordError("seed", seed=_short(seed, 40))
    try:
        game.check_players(players)
    except ValueError:
        low, high = game.min_players, game.max_players
        raise RecordError("players", players=_short(players, 20),
                          want=str(low) if low == high else f"{low}–{high}",
                          **_name_params(game)) from None
    if not isinstance(options, dict):
        raise RecordError("option", detail=f"options must be an object, not {_short(options)}",
                          **_name_params(game))
    unknown = sorted(set(options) - set(game.option_schema), key=str)
    if unknown:
        names = ", ".join(_short(name, 30) for name in unknown)
        known = ", ".join(game.option_schema) or "none"
        raise RecordError("option", detail=f"unknown option(s) {names} (known: {known})",
                          detail_ja=f"未知のオプション {names}（使えるもの：{known}）",
                          **_name_params(game))
    for name, spec in game.option_schema.items():
        value = options.get(name, spec.get("default"))
        if "values" in spec and value not in spec["values"]:
            allowed = ", ".join(_short(v, 30) for v in spec["values"])
            raise RecordError("option", detail=f"\u201c{name}\u201d must be one of {allowed}, "
                              f"not \u201c{_short(value, 30)}\u201d",
                              detail_ja=f"「{name}」は {allowed} のどれかです"
                              f"（「{_short(value, 30)}」ではなく）", **_name_params(game))
    try:
        return game.resolve_options(options)
    except (ValueError, TypeError) as exc:
        # A game's own error may say it in Japanese too (``.ja``, e.g. a deck code's reason).
        ja = getattr(exc, "ja", None)
        raise RecordError("option", detail=str(exc), **_name_params(game),
                          **({"detail_ja": ja} if isinstance(ja, str) and ja else {})) from None


def _check_names(names: Any, players: int) -> list[str]:
    if not isinstance(names, list) or len(names) != players:
        raise RecordError("names", detail=f"give one name per player ({players})",
                          detail_ja=f"プレイヤーごとに1つずつ（{players}つ）名前を書いてください")
    for name in names:
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise RecordError("names", detail=f"a name is text of 1 to {MAX_NAME} "
                              f"characters, not \u201c{_short(name, 30)}\u201d",
                              detail_ja=f"名前は1～{MAX_NAME}文字のテキストです"
                              f"（「{_short(name, 30)}」ではなく）")
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:
            shown = _short(name, 30)
            raise RecordError("names", detail=f"\u201c{shown}\u201d is not writable text "
                              f"(a lone surrogate)",
                              detail_ja=f"「{shown}」は書き出せない文字を含みます") from None
        if name != name.strip() or any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
            raise RecordError("names", detail=f"\u201c{_short(name, 30)}\u201d has spaces "
                              f"around it or "
                              f"control characters",
                              detail_ja=f"「{_short(name, 30)}」の前後に空白があるか、制御文字を"
                              f"含みます")
    return list(names)


def _replay(game: Any, seed: int, players: int, options: dict[str, Any],
            moves: list[tuple[int | None, str]], lines: list[int] | None = None,
            on_move: Any = None) -> State:
    """Replay ``moves`` (player or None = the one player to move, action) from a new game.

    An illegal move raises ``RecordError("action")`` naming its number (and its sheet line
    when ``lines`` is given). ``on_move(state, player, action)`` is called before each move.
    """
    if len(moves) > MAX_ACTIONS:
        raise RecordError("size:actions", count=len(moves), limit=MAX_ACTIONS)
    state = game.new_game(seed=seed, players=players, options=options)
    for index, (player, action) in enumerate(moves):
        where = {"line": lines[index]} if lines is not None else {}
        key = "action:line" if lines is not None else "action"
        if player is None:
            to_move = state.to_move()
            if len(to_move) != 1:
                if not to_move:
                    raise RecordError(key, n=index + 1, action=action, reason="the game is "
                                      "over", **where)
                raise RecordError("action:seat", n=index + 1, action=action,
                                  count=len(to_move),
                                  where=f", line {lines[index]}" if lines else "",
                                  where_ja=f"、{lines[index]}行目" if lines else "")
            player = to_move[0]
        if on_move is not None:
            on_move(state, player, action)
        try:
            state.apply(player, action)
        except IllegalAction as exc:
            raise RecordError(key, n=index + 1, action=action, reason=str(exc),
                              **where) from None
        except Exception as exc:  # an engine that trips on odd input: refuse, never crash
            raise RecordError(key, n=index + 1, action=action,
                              reason=f"{type(exc).__name__}: {exc}", **where) from None
    return state


def _check_record(record: Any) -> tuple[Any, dict[str, Any], State, list[str]]:
    """Check a record dict all through (replaying it); return (game, normal record, state,
    seat characters of the moves taken while several players were to move)."""
    if not isinstance(record, dict):
        raise RecordError("format:record", detail=f"a record is an object (dict), not "
                          f"{type(record).__name__}",
                          detail_ja=f"記録はオブジェクト（dict）です（{type(record).__name__} "
                          f"ではなく）")
    extra = sorted(map(str, set(record) - {"game", "v", "players", "options", "seed",
                                           "actions", "names"}))
    if extra:
        raise RecordError("format:record", detail=f"unknown field(s) {', '.join(extra)}",
                          detail_ja=f"未知の項目 {', '.join(extra)}")
    game = _game(record.get("game"))
    version = record.get("v", RECORD_VERSION)
    if version != RECORD_VERSION or isinstance(version, bool):
        raise RecordError("version", found=_short(version, 20), supported=RECORD_VERSION)
    if "seed" not in record:
        raise RecordError("seed", seed="nothing (no seed)", seed_ja="なし（シードがない）")
    seed, players = record["seed"], record.get("players", 2)
    options = _check_header(game, seed, players, record.get("options", {}))
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError("format:record", detail="actions must be a list",
                          detail_ja="actions はリストでなければなりません")
    moves: list[tuple[int | None, str]] = []
    for index, entry in enumerate(actions):
        if (not isinstance(entry, list | tuple) or len(entry) != 2
                or not isinstance(entry[0], int) or isinstance(entry[0], bool)
                or not isinstance(entry[1], str)):
            raise RecordError("action:shape", n=index + 1, entry=_short(entry))
        moves.append((entry[0], entry[1]))
    seats: list[str] = []

    def note(state: State, player: int, action: str) -> None:
        if len(state.to_move()) != 1:
            seats.append(_SEATS[player] if 0 <= player < len(_SEATS) else "?")

    state = _replay(game, seed, players, options, moves, on_move=note)
    normal = {"game": game.id, "v": RECORD_VERSION, "players": players, "options": options,
              "seed": seed, "actions": [[p, a] for p, a in moves]}
    if "names" in record:
        normal["names"] = _check_names(record["names"], players)
    return game, normal, state, seats


# -- the envelope --------------------------------------------------------------------------
def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _digest(prefix: str, length: bytes, body: bytes) -> bytes:
    return hashlib.sha256(prefix.encode() + length + body).digest()[:_CHECK]


def _seal(kind: str, payload: str) -> str:
    prefix = f"{kind}{FORMAT_VERSION}."
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = packer.compress(payload.encode("utf-8")) + packer.flush()
    length = _varint(len(body))
    raw = _digest(prefix, length, body) + length + body
    return prefix + base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _open(text: Any, kind: str | None) -> tuple[str, str]:
    """The (kind, payload) of an enveloped string; ``kind`` None accepts any kind."""
    if not isinstance(text, str):
        raise RecordError("format:type", type=type(text).__name__)
    if len(text) > MAX_TEXT:
        raise RecordError("size", size=len(text), limit=MAX_TEXT)
    text = text.strip()
    if not text:
        raise RecordError("format:empty")
    match = _PREFIX.match(text)
    if not match or match.group(1) not in _KIND_WORDS:
        raise RecordError("format:prefix")
    found, version = match.group(1), int(match.group(2))
    if version != FORMAT_VERSION:
        raise RecordError("version", found=version, supported=FORMAT_VERSION)
    prefix, b64 = text[:match.end()], text[match.end():]
    b64_match = _B64.match(b64)
    assert b64_match is not None  # the pattern is starred: it matches, if only ""
    good = b64_match.end()
    if good != len(b64):
        raise RecordError("format:char", char=_short(b64[good]), pos=match.end() + good + 1)
    if len(b64) % 4 == 1 or len(b64) < 10:
        raise RecordError("truncated", missing="some characters", missing_ja="文字が欠けています")
    raw = base64.urlsafe_b64decode(b64 + "=" * (-len(b64) % 4))
    if base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii") != b64:
        raise RecordError("checksum")  # spare bits of the last character changed
    check, rest = raw[:_CHECK], raw[_CHECK:]
    length = used = 0
    while True:  # the body's length, a varint of at most 4 bytes
        if used == min(4, len(rest)):
            raise RecordError("checksum")
        byte = rest[used]
        length |= (byte & 0x7F) << (7 * used)
        used += 1
        if not byte & 0x80:
            break
    body = rest[used:]
    if len(body) < length:
        missing = length - len(body)
        raise RecordError("truncated", missing=f"{missing} bytes missing",
                          missing_ja=f"{missing}バイト不足")
    if len(body) > length or _digest(prefix, rest[:used], body) != check:
        raise RecordError("checksum")
    if kind is not None and found != kind:  # after the checksum: "p" may be a damaged "r"
        raise RecordError("format:kind", found=_KIND_WORDS[found][0],
                          wanted=_KIND_WORDS[kind][0], found_ja=_KIND_WORDS[found][1],
                          wanted_ja=_KIND_WORDS[kind][1])
    unpacker = zlib.decompressobj(-15)
    try:
        data = unpacker.decompress(body, MAX_PAYLOAD + 1)
    except zlib.error as exc:
        raise RecordError("format:payload", detail=f"deflate: {exc}") from None
    if len(data) > MAX_PAYLOAD:
        raise RecordError("size:payload", limit=MAX_PAYLOAD)
    if not unpacker.eof or unpacker.unused_data:
        raise RecordError("format:payload", detail="the compressed data does not end well")
    try:
        return found, data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("format:payload", detail="not UTF-8") from None


def _json(text: str, what: str) -> Any:
    def refuse(name: str) -> Any:
        raise ValueError(f"{name} is not allowed")
    try:
        return json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError) as exc:
        raise RecordError("format:payload", detail=f"{what}: {_short(str(exc), 80)}") from None


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True,
                      allow_nan=False)


# -- records as strings --------------------------------------------------------------------
def to_string(record: dict[str, Any]) -> str:
    """The record as one compact URL-safe line (see the module docstring).

    The record is checked first, replaying it: anything wrong raises :class:`RecordError`,
    so a string made here always loads. Default options are not written.
    """
    game, normal, _state, seats = _check_record(record)
    for _player, action in normal["actions"]:
        if not action or any(ch.isspace() for ch in action):
            raise RecordError("format:record", detail=f"the action {action!r} cannot be "
                              f"written (empty or with spaces)",
                              detail_ja=f"手 {action!r} は書き出せません（空か空白を含む）")
    defaults = game.resolve_options({})
    changed = {k: v for k, v in normal["options"].items() if defaults.get(k) != v}
    lines = [game.id, str(normal["seed"]),
             "" if normal["players"] == 2 else str(normal["players"]),
             _dumps(changed) if changed else "",
             " ".join(a for _p, a in normal["actions"]), "".join(seats)]
    if "names" in normal:
        lines.append(_dumps(normal["names"]))
    return _seal("r", "\n".join(lines))


def _parse_record(payload: str) -> tuple[Any, dict[str, Any], State]:
    lines = payload.split("\n")
    if len(lines) not in (6, 7):
        raise RecordError("format:payload", detail=f"{len(lines)} lines")
    game = _game(lines[0])
    if not re.fullmatch(r"-?\d{1,60}", lines[1]):
        raise RecordError("seed", seed=_short(lines[1], 40))
    seed = int(lines[1])
    if not re.fullmatch(r"(\d{1,3})?", lines[2]):
        raise RecordError("players", detail=_short(lines[2], 40))
    players = int(lines[2]) if lines[2] else 2
    options = _json(lines[3], "options") if lines[3] else {}
    options = _check_header(game, seed, players, options)
    actions = lines[4].split(" ") if lines[4] else []
    if len(actions) > MAX_ACTIONS:
        raise RecordError("size:actions", count=len(actions), limit=MAX_ACTIONS)
    seats = iter(lines[5])
    record: list[list[Any]] = []
    state = game.new_game(seed=seed, players=players, options=options)
    for index, action in enumerate(actions):
        to_move = state.to_move()
        if len(to_move) == 1:
            player = to_move[0]
        else:
            char = next(seats, None)
            if char is None or _SEATS.find(char) < 0:
                raise RecordError("format:payload", detail="the seats do not match the moves")
            player = _SEATS.index(char)
        try:
            state.apply(player, action)
        except IllegalAction as exc:
            raise RecordError("action", n=index + 1, action=action, reason=str(exc)) from None
        except Exception as exc:
            raise RecordError("action", n=index + 1, action=action,
                              reason=f"{type(exc).__name__}: {exc}") from None
        record.append([player, action])
    if next(seats, None) is not None:
        raise RecordError("format:payload", detail="more seats than moves")
    result = {"game": game.id, "v": RECORD_VERSION, "players": players, "options": options,
              "seed": seed, "actions": record}
    if len(lines) == 7:
        result["names"] = _check_names(_json(lines[6], "names"), players)
    return game, result, state


def from_string(text: str) -> dict[str, Any]:
    """The record a :func:`to_string` line holds, checked and replayed.

    Anything else raises :class:`RecordError`: damage (``checksum``, ``truncated``,
    ``format``), another format ``version``, or a record that is not a legal game
    (``game``, ``option``, ``players``, ``seed``, ``action`` naming the move).
    """
    _kind, payload = _open(text, "r")
    return _parse_record(payload)[1]


# -- positions -----------------------------------------------------------------------------
def _build_position(game: Any, kwargs: Any) -> State:
    if type(game).from_position is Game.from_position:  # the default: it refuses them all
        raise RecordError("game:position", **_name_params(game))
    if not isinstance(kwargs, dict) or not all(isinstance(k, str) for k in kwargs):
        raise RecordError("position", detail="the position must be keyword arguments (a "
                          "dict with text keys)")
    try:
        return game.from_position(**kwargs)
    except NotImplementedError:  # (as above, should a game refuse only some positions)
        raise RecordError("game:position", **_name_params(game)) from None
    except Exception as exc:  # odd input may trip anything: refuse, never crash
        raise RecordError("position", detail=f"{exc}" if isinstance(exc, ValueError)
                          else f"{type(exc).__name__}: {exc}") from None


def position_to_string(game_id: str, position_kwargs: dict[str, Any]) -> str:
    """A position without history as one line: ``game.from_position(**position_kwargs)``
    (Canosa: ``{"position": {...}, "options": {...}}``). It is built first: a position that
    does not build, or is not plain JSON data, raises :class:`RecordError`.
    """
    game = _game(game_id)
    _build_position(game, position_kwargs)
    try:
        data = _dumps(position_kwargs)
    except (TypeError, ValueError) as exc:
        raise RecordError("position", detail=f"not JSON data: {exc}") from None
    if len(data.encode("utf-8")) > MAX_PAYLOAD:
        raise RecordError("size:payload", limit=MAX_PAYLOAD)
    return _seal("p", f"{game.id}\n{data}")


def _parse_position(payload: str) -> tuple[str, dict[str, Any], State]:
    game_id, sep, data = payload.partition("\n")
    if not sep:
        raise RecordError("format:payload", detail="no position")
    game = _game(game_id)
    kwargs = _json(data, "position")
    return game.id, kwargs, _build_position(game, kwargs)


def position_from_string(text: str) -> tuple[str, dict[str, Any]]:
    """``(game_id, kwargs)`` from a :func:`position_to_string` line (kwargs as JSON data:
    tuples come back as lists), checked by building the position."""
    _kind, payload = _open(text, "p")
    game_id, kwargs, _state = _parse_position(payload)
    return game_id, kwargs


# -- score sheets --------------------------------------------------------------------------
def _group(state: State) -> str | None:
    """The heading of the group (round, turn…) the next move belongs to: the game's own
    :meth:`State.sheet_group` hook."""
    return state.sheet_group()


def _option_text(value: Any) -> str:
    if isinstance(value, str) and re.fullmatch(r"[A-Za-z0-9_.+-]+", value):
        return value
    return _dumps(value).replace(" ", "\\u0020")


def _outcome_text(state: State) -> str:
    outcome = state.outcome()
    if outcome is None:
        to_move = ", ".join(f"P{p + 1}" for p in state.to_move())
        return f"not finished ({to_move} to move)"
    winners = outcome.get("winners") or []
    who = " and ".join(f"P{p + 1}" for p in winners)
    reason = outcome.get("reason")
    text = f"{who} won" if winners else "draw"
    return f"{text} ({reason})" if reason else text


def to_sheet(record: dict[str, Any], names: list[str] | None = None) -> str:
    """The record as a score sheet (see the module docstring); ``names`` (one per seat)
    go in a ``Names:`` line, as do the record's own. Checked like :func:`to_string`.

    >>> import pygames
    >>> s = pygames.get_game("canosa").new_game(seed=0)
    >>> s.apply(0, "Sb2"); s.apply(1, "d2-e2")
    >>> print(to_sheet(s.record(), names=["Ann", "Bo"]))
    # pygames record v1
    Game: canosa (Canosa)
    Options: first_turn=1 draw_cap=0 layout=standard
    Players: 2
    Seed: 0
    Names: Ann, Bo
    # Result: not finished (P2 to move)
    <BLANKLINE>
    # Turn 1 (P1)
    1. P1 Sb2
    <BLANKLINE>
    # Turn 2 (P2)
    2. P2 d2-e2
    <BLANKLINE>
    """
    if names is not None:
        record = {**record, "names": names} if isinstance(record, dict) else record
    game, normal, _state, _seats = _check_record(record)
    out = ["# pygames record v1", f"Game: {game.id} ({game.names['en']})",
           "Options: " + " ".join(f"{k}={_option_text(v)}"
                                  for k, v in normal["options"].items()),
           f"Players: {normal['players']}", f"Seed: {normal['seed']}"]
    if "names" in normal:
        plain = all("," not in n and not n.startswith("[") and "#" not in n
                    for n in normal["names"])
        out.append("Names: " + (", ".join(normal["names"]) if plain
                                else _dumps(normal["names"])))
    body: list[str] = []
    last: list[str | None] = [None]
    width = len(str(len(normal["actions"])))

    def line(state: State, player: int, action: str) -> None:
        heading = _group(state)
        if heading != last[0] or heading is None and not body:
            body.extend(["", f"# {heading}"] if heading else [""])
            last[0] = heading
        body.append(f"{len(body_moves) + 1:>{width}}. P{player + 1} {action}")
        body_moves.append(action)

    body_moves: list[str] = []
    state = _replay(game, normal["seed"], normal["players"], normal["options"],
                    [(p, a) for p, a in normal["actions"]], on_move=line)
    out.append(f"# Result: {_outcome_text(state)}")
    return "\n".join(out + body) + "\n"


_MOVE = re.compile(r"(?:(\d{1,6})\s*[.)]\s*)?(?:[Pp](\d{1,3})\s*:?\s+)?(\S+)")
_HEADER = re.compile(r"([A-Za-z][A-Za-z ]{0,30}?)\s*:\s*(.*)")


def _sheet_option(game: Any, name: str, text: str) -> Any:
    spec = game.option_schema.get(name)
    if spec is not None and "values" in spec:
        for value in spec["values"]:
            if str(value) == text or _option_text(value) == text:
                return value
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def _parse_sheet(text: Any) -> tuple[Any, dict[str, Any], State]:
    if not isinstance(text, str):
        raise RecordError("format:type", type=type(text).__name__)
    if len(text) > MAX_TEXT:
        raise RecordError("size", size=len(text), limit=MAX_TEXT)
    if not text.strip():
        raise RecordError("format:empty")
    fields: dict[str, tuple[int, str]] = {}
    moves: list[tuple[int | None, str]] = []
    lines: list[int] = []
    first_comment = True
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            magic = re.fullmatch(r"#\s*pygames record(?:\s+v(\d+))?\s*", line)
            if first_comment and magic and magic.group(1) and int(magic.group(1)) != 1:
                raise RecordError("version", found=magic.group(1), supported=1)
            first_comment = False
            continue
        header = _HEADER.fullmatch(line)
        if header:
            field = header.group(1).strip().title()
            if field not in _FIELDS:
                raise RecordError("header:unknown", line=number, field=header.group(1),
                                  known=", ".join(_FIELDS))
            if moves:
                raise RecordError("header:late", line=number, field=field)
            if field in fields:
                raise RecordError("header:twice", line=number, field=field)
            fields[field] = (number, header.group(2).strip())
            continue
        move = _MOVE.fullmatch(line.split("#", 1)[0].strip())
        if not move:
            raise RecordError("format:line", line=number, text=_short(line, 60),
                              example="CB")
        if len(moves) >= MAX_ACTIONS:
            raise RecordError("size:actions", count=f"{MAX_ACTIONS}+", limit=MAX_ACTIONS)
        moves.append((int(move.group(2)) - 1 if move.group(2) else None, move.group(3)))
        lines.append(number)
    if "Game" not in fields:
        raise RecordError("header:missing", field="Game")
    game = _game((fields["Game"][1].split() or [""])[0])

    def bad(field: str, detail: str) -> RecordError:
        number, value = fields[field]
        return RecordError("header:bad", line=number, field=field, value=_short(value, 60),
                           detail=detail)

    if "Seed" not in fields:
        raise RecordError("header:missing", field="Seed")
    seed_text = fields["Seed"][1]
    if not re.fullmatch(r"-?\d{1,60}", seed_text):
        raise RecordError("seed", seed=_short(seed_text, 40))
    seed = int(seed_text)
    players = 2
    if "Players" in fields:
        match = re.match(r"(\d{1,3})\b", fields["Players"][1])
        if not match:
            raise bad("Players", "a number of players")
        players = int(match.group(1))
    options: dict[str, Any] = {}
    if "Options" in fields:
        for item in fields["Options"][1].split():
            name, eq, value = item.partition("=")
            if not eq or not name:
                raise bad("Options", f"{item!r} is not name=value")
            if name in options:
                raise bad("Options", f"{name} is given twice")
            options[name] = _sheet_option(game, name, value)
    options = _check_header(game, seed, players, options)
    record: dict[str, Any] = {"game": game.id, "v": RECORD_VERSION, "players": players,
                              "options": options, "seed": seed, "actions": []}
    if "Names" in fields:
        value = fields["Names"][1]
        if value.startswith("["):
            try:
                names = json.loads(value)
            except (ValueError, RecursionError):
                raise bad("Names", "a JSON list of names") from None
        else:
            names = [n.strip() for n in value.split(",")]
        record["names"] = _check_names(names, players)
    taken: list[list[Any]] = record["actions"]

    def note(state: State, player: int, action: str) -> None:
        taken.append([player, action])

    state = _replay(game, seed, players, options, moves, lines=lines, on_move=note)
    return game, record, state


def from_sheet(text: str) -> dict[str, Any]:
    """The record a score sheet holds, checked and replayed (an illegal move raises
    :class:`RecordError` naming its number and line)."""
    return _parse_sheet(text)[1]


def load(text: str) -> State:
    """The state of a record string, a position string or a score sheet."""
    if not isinstance(text, str):
        raise RecordError("format:type", type=type(text).__name__)
    stripped = text.strip()
    if stripped and "\n" not in stripped and _PREFIX.match(stripped) and ":" not in stripped:
        kind, payload = _open(stripped, None)
        if kind == "p":
            return _parse_position(payload)[2]
        return _parse_record(payload)[2]
    return _parse_sheet(text)[2]


# -- a long fuzz run: python -m pygames.records --fuzz N [--seed S] -------------------------
def _pool(rng: Any) -> list[tuple[str, dict[str, Any]]]:
    """Records of every game (several options, whole and partial games) as strings."""
    import pygames
    out = []
    for gid in pygames.game_ids():
        game = pygames.get_game(gid)
        sampled = game.sample_options(rng)  # free-form options (a game's decks), if any
        choices: list[dict[str, Any]] = [{}, *([sampled] if sampled else [])] + [
            {name: value} for name, spec in game.option_schema.items()
            for value in spec.get("values", [])[1:]]
        for i, options in enumerate(choices * 2):
            state = game.new_game(seed=rng.randrange(1 << 40), options=options)
            limit = rng.randrange(1, 60) if i % 2 else 10 ** 6
            while not state.is_over() and limit:
                player = rng.choice(state.to_move())
                state.apply(player, rng.choice(state.legal_actions(player)))
                limit -= 1
            record = state.record()
            if i % 3 == 1:
                record["names"] = ["Ann", "ボブ"]
            out.append((to_string(record), record))
    return out


def corrupt(text: str, rng: Any) -> str:
    """A damaged copy of ``text``: flipped, deleted, inserted, swapped or duplicated
    characters, a flipped bit, a cut, junk, or a changed prefix (the fuzz's mutations)."""
    n = len(text)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    if not n:
        return rng.choice(alphabet)
    kind = rng.randrange(10)
    i = rng.randrange(n)
    if kind == 0:
        return text[:i] + rng.choice(alphabet) + text[i + 1:]
    if kind == 1:
        return text[:i] + text[i + 1:]
    if kind == 2:
        return text[:i] + rng.choice(alphabet + " .=+/é\x00\n") + text[i:]
    if kind == 3:
        return text[:i]
    if kind == 4:
        j = rng.randrange(n)
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        return "".join(chars)
    if kind == 5:
        j = min(n, i + rng.randrange(1, 12))
        return text[:j] + text[i:j] + text[j:]
    if kind == 6:  # one bit of the decoded bytes
        try:
            raw = bytearray(base64.urlsafe_b64decode(text[3:] + "=" * (-(n - 3) % 4)))
        except ValueError:  # not base64 (already damaged): drop a character instead
            return text[:i] + text[i + 1:]
        if not raw:
            return text[:i]
        raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        return text[:3] + base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()
    if kind == 7:
        return "".join(rng.choice(alphabet + ".") for _ in range(rng.randrange(40)))
    if kind == 8:
        return rng.choice(["r2.", "p1.", "R1.", "r0.", "x1.", "r1", " r1."]) + text[3:]
    return " \t" + text[:i] + rng.choice(alphabet) * rng.randrange(1, 4) + text[i + 1:] + "\n"


def fuzz(cases: int, seed: int = 0) -> dict[str, Any]:
    """Run ``cases`` corruptions over a pool of records of every game; return counts:
    ``equal`` (decoded to the very record), ``refused`` ({code: n}), ``violations`` (a
    wrong record or another exception: must stay empty)."""
    import random
    rng = random.Random(seed)
    pool = _pool(rng)
    refused: dict[str, int]
    violations: list[tuple[str, str]]
    equal, refused, violations = 0, {}, []
    for _ in range(cases):
        text, record = pool[rng.randrange(len(pool))]
        bad = corrupt(text, rng)
        try:
            got = from_string(bad)
        except RecordError as exc:
            refused[exc.code] = refused.get(exc.code, 0) + 1
            continue
        except Exception as exc:  # noqa: BLE001 - that is what we are counting
            violations.append((bad, f"{type(exc).__name__}: {exc}"))
            continue
        if got == record:
            equal += 1
        else:
            violations.append((bad, "decoded to another record"))
    return {"cases": cases, "pool": len(pool), "equal": equal, "refused": refused,
            "violations": violations}


def _main(argv: list[str]) -> int:
    import argparse
    import time
    parser = argparse.ArgumentParser(prog="python -m pygames.records")
    parser.add_argument("--fuzz", type=int, required=True, metavar="N")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    result = fuzz(args.fuzz, args.seed)
    took = time.perf_counter() - start
    print(f"cases {result['cases']} (pool of {result['pool']} records, seed {args.seed})")
    print(f"decoded-equal {result['equal']}")
    for code, count in sorted(result["refused"].items(), key=lambda kv: -kv[1]):
        print(f"refused {code} {count}")
    print(f"violations {len(result['violations'])}")
    for bad, why in result["violations"][:20]:
        print(f"  {why}: {bad[:100]!r}")
    print(f"time {took:.1f} s")
    return 1 if result["violations"] else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
