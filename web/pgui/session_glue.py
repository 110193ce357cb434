"""What the Python worker does for the page, as plain Python (tested in CPython).

The page's main thread only draws (``glue.js``); Python runs in a PyScript worker
(``worker.py``), which cannot see the page. So every call here takes plain values in and
gives a small JSON-able result back:

* :meth:`Session.open` turns a table query (``game=<id>&mode=bot...``, the page's own
  ``location.search`` or the lobby's form) into a :class:`pgui.table.Table`, with the
  language the page knows (saved choice, browser language), since a worker has no
  ``localStorage``;
* :meth:`Session.command` takes the ``data-cmd`` of a click, :meth:`Session.advance`
  the next reveal step when the page's timer says so.

Each returns :meth:`Session.result`: ``{html, animating, over, lang, title, delay,
thinking, local}`` (``thinking``: a bot is thinking, call :meth:`Session.think` soon;
``local``: what to keep in storage for a local game, :mod:`pgui.saved`; a query with
``resume=<id>`` reopens that saved game, which the page passes as ``stored``; ``store``: a
game tool's writes, for ``tool=<name>``, :mod:`pgui.tools`), or
``{error, heading, reason, lang}`` for a link that cannot be opened (no such game, mode or
option; a replay with no record, a damaged one, another game's, a move past its end): the
error screen's heading and the actual problem, in the page's language (``error`` is both).

>>> s = Session()
>>> r = s.open("mode=hotseat&seed=3&lang=ja", saved_lang=None, nav_lang="en")
>>> r["lang"], r["animating"], r["over"]
('ja', False, False)
>>> "error" in s.open("game=chess", saved_lang="en", nav_lang="en")
True
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Any

import pygames
from pygames.bots import LEVELS

from . import saved, ui_module
from .i18n import LinkProblem, pick_lang, t
from .table import MODES, Table

if TYPE_CHECKING:
    from .link import LinkTable
    from .replay import ReplayTable

#: The modes of link play (:class:`pgui.link.LinkTable`, imported only for them: the
#: page starts sooner without WebRTC's, the relay's and the sync protocol's code): the
#: host's, a guest's, a spectator's.
LINK_MODES = ("link", "join", "watch")

DEFAULT_SPEED = 900
#: The problems of a replay's link (:class:`pgui.i18n.LinkProblem` codes): the error
#: screen says the record cannot be shown, then why.
REPLAY_PROBLEMS = ("no_record", "ply", "ply_text", "other_game", "perspective", "moves")


def parse_query(query: str) -> dict[str, str]:
    """The query's parameters, first value of each (like ``URLSearchParams.get``).

    >>> parse_query("?game=g1&mode=bot&mode=hotseat&lang=")
    {'game': 'g1', 'mode': 'bot', 'lang': ''}
    """
    params: dict[str, str] = {}
    for name, value in parse_qsl(query.lstrip("?")):
        params.setdefault(name, value)
    return params


def parse_qsl(query: str) -> list[tuple[str, str]]:
    """``urllib.parse.parse_qsl(query, keep_blank_values=True)``, without importing
    ``urllib.parse`` (and ``ipaddress`` with it) while the page starts: the same pairs for
    any text (a property test checks it against the standard library).

    >>> parse_qsl("a=1&b=%E5%B1%80+x&c&=d&&e=%zz")
    [('a', '1'), ('b', '局 x'), ('c', ''), ('', 'd'), ('e', '%zz')]
    """
    pairs = []
    for field in query.split("&"):
        if not field:
            continue
        name, _, value = field.partition("=")
        pairs.append((_unquote_plus(name), _unquote_plus(value)))
    return pairs


_HEX = frozenset("0123456789abcdefABCDEF")


def _unquote_plus(text: str) -> str:
    """``urllib.parse.unquote_plus``: ``+`` is a space, each run of ``%XX`` escapes is
    UTF-8 (bad bytes become U+FFFD), a ``%`` not followed by two hex digits stays."""
    text = text.replace("+", " ")
    if "%" not in text:
        return text
    out: list[str] = []
    pending = bytearray()
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "%" and i + 2 < n and text[i + 1] in _HEX and text[i + 2] in _HEX:
            pending.append(int(text[i + 1:i + 3], 16))
            i += 3
            continue
        if pending:
            out.append(pending.decode("utf-8", "replace"))
            pending.clear()
        out.append(ch)
        i += 1
    if pending:
        out.append(pending.decode("utf-8", "replace"))
    return "".join(out)


def _link_table(table: Any) -> LinkTable | None:
    """``table`` if it is a link table (whose module is then loaded), else None."""
    link = sys.modules.get(f"{__package__}.link")
    return table if link is not None and isinstance(table, link.LinkTable) else None


def query_lang(params: dict[str, str], saved_lang: str | None, nav_lang: str | None) -> str:
    """The query's language, else the saved choice, else the browser's.

    >>> query_lang({"lang": "ja"}, "en", "en-US"), query_lang({}, None, "ja-JP")
    ('ja', 'ja')
    """
    return pick_lang(params.get("lang"), saved_lang, nav_lang or "en")


def parse_options(game: pygames.Game, params: dict[str, str]) -> dict[str, Any]:
    """Options from the query, matched against the game's allowed values (as text); a
    free-form option (no ``values``: a deck code) is the text as the game's
    ``resolve_options`` makes it (its canonical form), or a :class:`LinkProblem` saying
    why not, in the game's own words when its error carries them (``.ja``)."""
    options = {}
    for name, spec in game.option_schema.items():
        if name not in params:
            continue
        raw = params[name]
        if "values" not in spec:
            options[name] = free_option(game, name, raw)
            continue
        matches = [v for v in spec["values"] if str(v) == raw]
        if not matches:
            raise LinkProblem("option", name=_option_name(game, name), value=raw)
        options[name] = matches[0]
    return options


def _option_name(game: pygames.Game, name: str) -> Any:
    return game.option_labels.get(name, {}).get("label") or name


def free_option(game: pygames.Game, name: str, raw: str) -> Any:
    """The value of the free-form option ``name`` a query's text gives: what the game's
    ``resolve_options`` makes of it, or a :class:`LinkProblem` (``option_value``, with the
    game's reason in both languages when its ``ValueError`` has a ``.ja``; else
    ``option``)."""
    try:
        return game.resolve_options({name: raw})[name]
    except ValueError as exc:
        ja = getattr(exc, "ja", None)
        if not isinstance(ja, str) or not ja:
            raise LinkProblem("option", name=_option_name(game, name), value=raw) from None
        raise LinkProblem("option_value", name=_option_name(game, name), value=raw[:40],
                          reason={"en": str(exc), "ja": ja}) from None


def seat_values(game: pygames.Game, params: dict[str, str]) -> tuple[Any, Any] | None:
    """Against the bot, ``mine=`` and ``theirs=``: the values of the UI module's
    ``SEAT_OPTIONS`` (an option per seat, e.g. each player's deck) for the human's seat and
    the bot's, which the table places once it knows the human's seat (:class:`Table`'s
    ``seat_values``). None when the query gives neither or the game has no such options;
    a value not given is None (that seat's option stays as the query or default says)."""
    spec = getattr(ui_module(game.id), "SEAT_OPTIONS", None)
    if not spec or not (params.get("mine") or params.get("theirs")):
        return None
    names = spec["options"]
    return tuple(free_option(game, names[i], params[key]) if params.get(key) else None
                 for i, key in enumerate(("mine", "theirs")))  # type: ignore[return-value]


#: The seats a query may name (``seats=you,here,strong``): you, another person at this
#: device, a bot of a level, a friend by link (link play: any seats but people here).
SEAT_TOKENS = ("you", "here", *LEVELS, "link")


def parse_seats(game: pygames.Game, params: dict[str, str]) -> tuple[str, ...] | None:
    """Who sits where, from ``players=N`` and ``seats=you,here,strong,...`` (one token of
    :data:`SEAT_TOKENS` per seat, in seat order), or None when the query gives neither
    (``mode``, ``bot`` and ``seat`` say it, as for two players always). ``players`` alone
    fills the other seats from ``mode``: people here in pass and play, friends by link in
    link play, else bots of ``bot``'s level. A count outside the game's range, an unknown
    token, a count of seats that is not the count of players, not exactly one ``you``, or
    friends by link with people here: a :class:`LinkProblem`.

    >>> game = pygames.get_game(pygames.game_ids()[0])
    >>> parse_seats(game, {"seats": "here,you"}), parse_seats(game, {"players": "2"})
    (('here', 'you'), ('you', 'normal'))
    """
    text, count = params.get("seats") or "", params.get("players") or ""
    if not text and not count:
        return None
    low, high = game.min_players, game.max_players
    if count:
        if not count.isdecimal() or not low <= int(count) <= high:
            raise LinkProblem("players", game=game.names, a=low, b=high, value=count[:20])
        players = int(count)
    if not text:
        other = {"hotseat": "here", "link": "link"}.get(params.get("mode") or "",
                                                         params.get("bot") or "normal")
        if other not in SEAT_TOKENS:
            raise LinkProblem("bot", value=other)
        text = ",".join(["you", *[other] * (players - 1)])
    seats = tuple(token.strip() for token in text.split(","))
    for token in seats:
        if token not in SEAT_TOKENS:
            raise LinkProblem("seats_token", value=token[:20])
    if not count:
        players = len(seats)
        if not low <= players <= high:
            raise LinkProblem("players", game=game.names, a=low, b=high, value=players)
    if len(seats) != players:
        raise LinkProblem("seats_count", players=players, n=len(seats))
    if seats.count("you") != 1:
        raise LinkProblem("seats_you", n=seats.count("you"))
    if "link" in seats and "here" in seats:
        raise LinkProblem("seats_link")
    return seats


def _number(text: str | None) -> int | None:
    return int(text) if text and text.isdecimal() else None


def make_table(query: str, *, saved_lang: str | None = None, nav_lang: str | None = None,
               seed: int | None = None, fragment: str = "", stored: str = "",
               page: str = "") -> Table:
    """The table a query names. Raises ``ValueError``/``KeyError`` for a bad link.

    ``seed`` is the deal when the query names none (random if None). Link play
    (``mode=link`` hosts, ``mode=join`` joins, ``mode=watch`` watches: :mod:`pgui.link`)
    also takes the address's
    ``fragment``, the session the page had ``stored`` for it, and the ``page``'s own URL
    (for the invite link).
    """
    params = parse_query(query)
    lang = query_lang(params, saved_lang, nav_lang)
    speed = _number(params.get("speed"))
    mode = params.get("mode") or "bot"
    if mode == "replay":
        return make_replay(params, lang=lang, speed=speed, seed=seed, page=page)
    if mode not in (*MODES, *LINK_MODES):
        raise LinkProblem("mode", value=mode)
    game = _game(params.get("game") or pygames.game_ids()[0])
    seats = parse_seats(game, params) if mode not in ("join", "watch") else None
    if seats is not None and "link" in seats:
        mode = "link"  # friends by link: this device hosts (bots play on it)
    elif mode == "link" and seats is not None:
        raise LinkProblem("seats_link")
    if mode in LINK_MODES:
        from .link import LinkTable

        return LinkTable(game.id, mode=mode, options=parse_options(game, params), lang=lang,
                         speed=DEFAULT_SPEED if speed is None else speed, fragment=fragment,
                         stored=stored, page=page, query=query, seats=seats, slices=True)
    deal = _number(params.get("seed"))
    if deal is None:
        deal = seed if seed is not None else random.randrange(2**31)
    level = params.get("bot") or "normal"
    if level not in LEVELS:
        raise LinkProblem("bot", value=level)
    seat_text = params.get("seat") or "0"
    if seat_text not in ("0", "1", "random"):
        raise LinkProblem("seat", value=seat_text)
    seat: int | str = seat_text if seat_text == "random" else int(seat_text)
    table = Table(game.id, mode=mode, seed=deal, level=level, seat=seat, slices=True,
                  options=parse_options(game, params), lang=lang,
                  seat_values=seat_values(game, params) if mode == "bot" else None,
                  speed=DEFAULT_SPEED if speed is None else speed, seats=seats)
    table.page = page
    return table


def _game(game_id: str) -> pygames.Game:
    if game_id not in pygames.game_ids():
        names = [pygames.get_game(g).names for g in pygames.game_ids()]
        raise LinkProblem("game", value=game_id, games={
            "en": ", ".join(n["en"] for n in names), "ja": "、".join(n["ja"] for n in names)})
    return pygames.get_game(game_id)


def _switch(params: dict[str, str], name: str, default: bool) -> bool:
    value = params.get(name)
    if value in (None, ""):
        return default
    if value not in ("on", "off", "1", "0", "true", "false"):
        raise LinkProblem("switch", name=name, value=value)
    return value in ("on", "1", "true")


def parse_record_text(text: str) -> dict[str, Any]:
    """A record from what a person pasted or a link carries: a record string
    (:func:`pygames.records.from_string`) or a score sheet (several lines)."""
    from pygames import records

    if "\n" in text.strip() or text.lstrip().startswith("#"):
        return records.from_sheet(text)
    return records.from_string(text)


def make_replay(params: dict[str, str], *, lang: str, speed: int | None = None,
                seed: int | None = None, page: str = "") -> ReplayTable:
    """``mode=replay`` (the replay viewer, and every embed): ``record=`` (a record string
    or score sheet) or ``position=`` (a position string), or ``seed=``: the start of that
    deal of ``game`` (to play on from); with none of them there is nothing to replay;
    ``ply``, ``perspective``, ``controls``, ``moves``, ``interactive``, ``bot``, ``embed``."""
    from pygames import records

    from .replay import ReplayTable  # first: its words name what is wrong with a record

    record, make, source = None, None, {}
    if params.get("record"):
        record = parse_record_text(params["record"])
        source = {"record": params["record"]}
    elif params.get("position"):
        game_id, kwargs = records.position_from_string(params["position"])
        game = _game(game_id)
        make = lambda: game.from_position(**kwargs)  # noqa: E731
        source = {"position": params["position"]}
    named = params.get("game")
    if record is not None:
        game_id = record["game"]
    elif make is None:
        if not params.get("seed"):  # a deal's start (seed=) may be played on; else nothing
            raise LinkProblem("no_record")
        game_id = named or pygames.game_ids()[0]
        deal = _number(params.get("seed"))
        game = _game(game_id)
        record = game.new_game(seed=deal if deal is not None else (
            seed if seed is not None else random.randrange(2**31))).record()
        source = {"record": records.to_string(record)}
    if named and named != game_id:
        raise LinkProblem("other_game", named=_game(game_id).names, game=_game(named).names)
    text = params.get("perspective") or "spectator"
    perspective: int | str = int(text) if text.isdecimal() else text
    level = params.get("bot") or "normal"
    if level not in LEVELS:
        raise LinkProblem("bot", value=level)
    return ReplayTable(game_id, record=record, make=make, lang=lang,
                       speed=DEFAULT_SPEED if speed is None else speed,
                       ply=params.get("ply") or "last", perspective=perspective,
                       controls=_switch(params, "controls", True),
                       moves=params.get("moves") or "right",
                       interactive=_switch(params, "interactive", False),
                       embed=_switch(params, "embed", False), level=level, page=page,
                       source=source)


class Session:
    """The one table of a page, driven through plain values."""

    def __init__(self) -> None:
        self.table: Table | None = None
        #: The local game being saved: ``{id, created, seed, mark}`` (:mod:`pgui.saved`).
        self.local: dict[str, Any] | None = None

    def open(self, query: str, *, saved_lang: str | None = None,
             nav_lang: str | None = None, seed: int | None = None, fragment: str = "",
             stored: str = "", page: str = "") -> dict[str, Any]:
        """Start the table a query names; a bad link gets a readable, translated error."""
        self.local = None
        params = parse_query(query)
        try:
            if params.get("tool"):  # a game's own page (a deck builder): pgui.tools
                from .tools import make_tool

                self.table = make_tool(  # type: ignore[assignment]
                    _game(params.get("game") or pygames.game_ids()[0]).id, params["tool"],
                    params=params, lang=query_lang(params, saved_lang, nav_lang),
                    stored=stored, page=page)
                return self.result()
            if params.get("resume") and (params.get("mode") or "bot") in MODES:
                return self._resume(query, params, saved_lang, nav_lang, seed, stored, page)
            self.table = make_table(query, saved_lang=saved_lang, nav_lang=nav_lang, seed=seed,
                                    fragment=fragment, stored=stored, page=page)
        except (ValueError, KeyError) as exc:
            return self.problem(exc, query_lang(parse_query(query), saved_lang, nav_lang))
        return self.result()

    @staticmethod
    def problem(exc: Exception, lang: str) -> dict[str, Any]:
        """The error screen for a link that cannot be opened: a heading that says what
        could not be done, and the actual problem, both in ``lang``."""
        if isinstance(exc, LinkProblem):
            if exc.code in REPLAY_PROBLEMS:
                head = "replay.nothing" if exc.code == "no_record" else "replay.bad_record"
            else:
                head = ("bad_link" if exc.code in ("game", "mode", "option", "option_value")
                        else "bad_link_other")
            reason = exc.message(lang)
        elif hasattr(exc, "message") and hasattr(exc, "code"):  # pygames.records.RecordError
            head, reason = "replay.bad_record", exc.message(lang)
        elif isinstance(getattr(exc, "ja", None), str) and exc.ja:  # type: ignore[attr-defined]
            # A game's own error in both languages (a deck that breaks another option's rule).
            head, reason = "bad_link", exc.ja if lang == "ja" else str(exc)  # type: ignore[attr-defined]
        else:
            # Anything else comes from deeper down, in English: shown only to English readers.
            detail = str(exc.args[0] if isinstance(exc, KeyError) and exc.args else exc)
            head, reason = "bad_link", f"({detail})" if lang == "en" and detail else ""
        heading = t(head, lang)
        return {"error": f"{heading}\n{reason}" if reason else heading, "heading": heading,
                "reason": reason, "lang": lang}

    def _resume(self, query: str, params: dict[str, str], saved_lang: str | None,
                nav_lang: str | None, seed: int | None, stored: str,
                page: str) -> dict[str, Any]:
        """``resume=<id>``: the saved game the page read from its storage (``stored``), where
        it was; if it is gone or cannot be read, a new game of the query, saying so."""
        note = ""
        if stored:
            try:
                env = saved.loads(stored)
                if env["id"] != params["resume"]:
                    raise saved.SavedError("format", "another game's id")
                lang = pick_lang(params.get("lang"), saved_lang, env.get("lang"),
                                 nav_lang or "en")
                table = saved.resume_table(env, lang=lang, speed=_number(params.get("speed")),
                                           slices=True)
            except saved.SavedError as exc:
                note = exc.message(query_lang(params, saved_lang, nav_lang))
            else:
                table.page = page
                self.table = table
                self.local = {"id": env["id"], "created": env.get("created") or saved.now_ms(),
                              "seed": table.seed, "mark": self._mark(table)}
                return self.result()
        else:
            note = t("saved_missing", query_lang(params, saved_lang, nav_lang))
        self.table = make_table(query, saved_lang=saved_lang, nav_lang=nav_lang, seed=seed,
                                page=page)
        self.table.message = note
        return self.result()

    @staticmethod
    def _mark(table: Table) -> tuple[Any, ...]:
        return (table.seed, len(table.played), bool(table.over), table.lang)

    def _local(self, table: Table) -> dict[str, Any] | None:
        """What the page should store for a local game (:mod:`pgui.saved`): the envelope
        when the game changed since the last result, else ``text: None``."""
        if not saved.saveable(table):
            self.local = None
            return None
        local = self.local
        if local is None or local["seed"] != table.seed:  # a new game (or a rematch)
            local = self.local = {"id": saved.new_id(), "created": saved.now_ms(),
                                  "seed": table.seed, "mark": None}
        text = None
        mark = self._mark(table)
        if mark != local["mark"] and table.played:
            text = saved.dumps(saved.envelope(table, local["id"], local["created"]))
            local["mark"] = mark
        return {"id": local["id"], "key": saved.PREFIX + local["id"], "text": text,
                "failed": t("saved_failed", table.lang), "close": t("saved_close", table.lang)}

    def command(self, cmd: str) -> dict[str, Any]:
        """A click on ``[data-cmd=cmd]``."""
        self._table().command(cmd)
        return self.result()

    def advance(self) -> dict[str, Any]:
        """The next step of a reveal (the page's timer waited ``delay`` ms)."""
        self._table().advance()
        return self.result()

    def peer(self, kind: str, peer: str = "", text: str = "") -> dict[str, Any]:
        """What the page's WebRTC glue saw (link play only): ``open``/``message``/``close``
        of a data channel to ``peer``, a connection ``status`` (``seats``: each friend's
        seat's, JSON ``{seat: status}``, on the host), the slow ``tick`` (``poll``:
        check in with the host now), the copy-and-paste flow's
        ``making``/``offer``/``answer``/``bad_code`` (``text`` = the code), a connection's
        ``path``, the ``signal`` way, ``nopath`` and ``rejected``: all as
        :meth:`pgui.link.LinkTable.peer_event` says."""
        table = _link_table(self._table())
        if table is not None:
            table.peer_event(kind, peer, text)
        return self.result()

    def think(self) -> dict[str, Any]:
        """A slice of the bot's thinking (the page calls it while ``thinking``): the whole
        result once the bot has moved, else only ``{"thinking": true, "changed": false}``."""
        table = self._table()
        if table.think():
            return self.result()
        return {"thinking": bool(table.thinking), "changed": False}

    def result(self) -> dict[str, Any]:
        table = self._table()
        out = {
            "html": table.html(),
            "animating": bool(table.animating),
            "over": bool(table.over),
            "lang": table.lang,
            "title": table.title(),
            "delay": int(table.delay()) if table.animating else 0,
            "thinking": bool(table.thinking),
            "changed": True,
            "bot": table.bot_move,
            # The game's own stylesheet (pgui.table: STYLESHEET), which the page loads.
            "css": getattr(table, "stylesheet", None) or getattr(table.ui, "STYLESHEET", None),
        }
        out["local"] = self._local(table)
        take_store = getattr(table, "take_store", None)
        if take_store is not None:  # a tool's writes to the browser's storage (pgui.tools)
            out["store"] = take_store()
        if _link_table(table) is not None:
            saved = table.save()
            out["peer"] = table.peer_info()
            out["sends"] = table.take_outbox()
            out["save"] = {"key": table.store_key(), "text": saved} if saved else None
        return out

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("no table is open")
        return self.table
