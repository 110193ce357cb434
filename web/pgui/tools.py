"""A game's tools: pages of its own besides the table (a deck builder), drawn by Python.

A UI module may list them in ``TOOLS`` (see :mod:`pgui.table`)::

    TOOLS = {"decks": {"label": {"en": "Decks", "ja": "デッキ"},
                       "make": "pgui.artofwar_decks:DeckBuilder"}}

The lobby's tile links to each (``play.html?game=<id>&tool=<name>``, opened in the lobby's
page as Play is), and :class:`pgui.session_glue.Session` opens it in the worker instead of a
table: the tool is a :class:`Tool` (its ``html()``, ``command(cmd)``, ``title()``, ``lang``),
so the page's glue draws it and sends its clicks as it does a table's.

Storage
-------

A worker has no ``localStorage``, so a tool reads and writes it through the page:

* when it opens, the page hands it every entry whose key starts with :func:`prefix`
  (``pygames.<game id>.<tool>.``): ``stored`` is the JSON object ``{key: text}`` (empty
  when the browser's storage cannot be read);
* a tool's :meth:`Tool.save` and :meth:`Tool.remove` queue writes, which the result of the
  call carries as ``store`` (``[{"op": "set", "key", "text"}, {"op": "remove", "key"}]``);
  the page performs them in order and, when one fails (storage full or blocked), sends the
  command ``store-failed:<key>`` so the tool can say so in the player's language (and keep
  what is on screen). A tool's entries are JSON; one that is a value of a free-form option
  (``{"name": ..., "value": ...}``) is offered by the lobby's settings for that option when
  the UI module's ``OPTION_STORE`` names the tool.

Controls that need what the player typed carry ``data-with="<id> <id>..."``: the page sends
the command followed, for each id, by a newline and the value of that field (so no typed
text is lost to a redraw; :func:`split_command` takes it apart). ``data-enter`` on a text
field names the button Enter presses.

>>> split_command("save\\nMy deck")
('save', ['My deck'])
"""

from __future__ import annotations

import importlib
import json
from typing import Any

from . import ui_module
from .i18n import LANGS, LinkProblem, esc, t


def prefix(game_id: str, tool: str) -> str:
    """Where a game's tool keeps its entries in the browser: ``pygames.<id>.<tool>.``."""
    return f"pygames.{game_id}.{tool}."


def split_command(cmd: str) -> tuple[str, list[str]]:
    """A command and the typed values it carries (``data-with``)."""
    name, *values = cmd.split("\n")
    return name, values


def tools(game_id: str) -> dict[str, dict[str, Any]]:
    """The game's ``TOOLS`` (none: ``{}``)."""
    return dict(getattr(ui_module(game_id), "TOOLS", {}))


def make_tool(game_id: str, name: str, *, params: dict[str, str], lang: str,
              stored: str = "", page: str = "") -> Tool:
    """The tool ``name`` of the game, opened from a query's ``params``; a tool the game
    does not have is a :class:`LinkProblem`."""
    spec = tools(game_id).get(name)
    if spec is None:
        raise LinkProblem("tool", value=name)
    module, _, cls = spec["make"].partition(":")
    factory = getattr(importlib.import_module(module), cls)
    tool: Tool = factory(game_id, params=params, lang=lang, stored=stored, page=page)
    return tool


class Tool:
    """What a tool shares with a table for the page's glue: a language, a title, HTML, and
    clicks as commands; never animating, never thinking. Subclasses draw :meth:`body`."""

    #: The tool's name in ``TOOLS`` (its storage prefix's last part).
    name = ""
    #: The tool's own stylesheet (a path from the app's root), loaded instead of the
    #: game's ``STYLESHEET``; None: the game's.
    stylesheet: str | None = None
    animating = False
    over = False
    thinking: dict[int, Any] = {}
    bot_move = None
    seed = None

    def __init__(self, game_id: str, *, params: dict[str, str], lang: str, stored: str = "",
                 page: str = "") -> None:
        self.game_id = game_id
        self.lang = lang if lang in LANGS else "en"
        self.page = page or "./play.html"
        self.params = params
        self.message = ""
        self._store: list[dict[str, str]] = []
        self.entries: dict[str, Any] = {}
        try:
            raw = json.loads(stored) if stored else {}
        except ValueError:
            raw = {}
        start = prefix(self.game_id, self.name)
        for key, text in (raw.items() if isinstance(raw, dict) else ()):
            if isinstance(key, str) and key.startswith(start) and isinstance(text, str):
                try:
                    self.entries[key[len(start):]] = json.loads(text)
                except ValueError:
                    continue  # an entry that cannot be read is left alone

    @property
    def game(self) -> Any:
        """The game (looked up when first asked: a tool's own drawing may not need it)."""
        import pygames

        return pygames.get_game(self.game_id)

    @property
    def ui(self) -> Any:
        return ui_module(self.game_id)

    # -- storage ---------------------------------------------------------------------------
    def save(self, entry_id: str, entry: Any) -> None:
        """Keep ``entry`` (JSON-able) under ``entry_id`` in this browser."""
        self.entries[entry_id] = entry
        self._store.append({"op": "set", "key": prefix(self.game_id, self.name) + entry_id,
                            "text": json.dumps(entry, ensure_ascii=False,
                                               separators=(",", ":"))})

    def remove(self, entry_id: str) -> None:
        self.entries.pop(entry_id, None)
        self._store.append({"op": "remove", "key": prefix(self.game_id, self.name) + entry_id})

    def take_store(self) -> list[dict[str, str]]:
        """The writes the page is to make now (each once)."""
        out, self._store = self._store, []
        return out

    def entry_id(self, key: str) -> str:
        """The entry id of a storage key this tool wrote."""
        return key[len(prefix(self.game_id, self.name)):]

    # -- what the glue calls ---------------------------------------------------------------
    #: The ids of the tool's text fields: every control sends their values along
    #: (:meth:`with_fields`), and :meth:`typed` receives them first.
    fields: tuple[str, ...] = ()

    def with_fields(self) -> str:
        """The ``data-with`` attribute every control of the tool carries."""
        return f' data-with="{" ".join(self.fields)}"' if self.fields else ""

    def typed(self, values: list[str]) -> None:
        """What the player has typed in :attr:`fields`, in their order."""

    def command(self, cmd: str) -> None:
        name, values = split_command(cmd)
        if values:
            self.typed(values)
        if name.startswith("lang:") and name[5:] in LANGS:
            self.lang = name[5:]
            return
        if name.startswith("store-failed:"):
            self.store_failed(self.entry_id(name[len("store-failed:"):]))
            return
        self.act(name, values)

    def act(self, name: str, values: list[str]) -> None:
        """A click (``name``) with the typed ``values`` it carries."""

    def store_failed(self, entry_id: str) -> None:
        """The page could not write (or remove) ``entry_id``."""

    def advance(self) -> None:
        pass

    def think(self) -> bool:
        return False

    def delay(self) -> int:
        return 0

    def title(self) -> str:
        return self.game.names[self.lang]

    def body(self) -> str:
        return ""

    def html(self) -> str:
        lang = self.lang
        other = LANGS[1 - LANGS.index(lang)]
        return (
            f'<header class="bar"><a class="home" href="./index.html">← '
            f'{esc(t("lobby", lang))}</a><h1>{esc(self.title())}</h1>'
            f'<button type="button" class="lang" data-cmd="lang:{other}" lang="{other}" '
            f'title="{esc(t("lang_switch_label", lang))}"{self.with_fields()}>{esc(t("lang_switch", lang))}'
            f'</button></header>{self.body()}')
