"""pgui: the app's user interface in Python.

Pure rendering functions (view, legal actions, language) -> HTML live here and are
tested in CPython; only the page glue touches the DOM. Each game plugs in with one module,
``pgui/<game id>_ui.py`` (the interface is described in :mod:`pgui.table`), or any module
named with :func:`register_ui`; nothing else here names a game.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pygames

from . import i18n

#: UI modules of games that keep theirs outside pgui: game id -> importable dotted name.
UI_MODULES: dict[str, str] = {}


def register_ui(game_id: str, module: str) -> None:
    """A game's UI module lives at ``module`` (default: ``pgui.<game id>_ui``)."""
    UI_MODULES[game_id] = module


def ui_module(game_id: str) -> ModuleType:
    """The UI module of a registered game; its strings join :data:`pgui.i18n.STRINGS`.

    An unknown game raises ``KeyError`` listing the known ids (as :func:`pygames.get_game`).
    """
    pygames.get_game(game_id)  # a KeyError naming the known games if there is none
    module = importlib.import_module(UI_MODULES.get(game_id, f"{__name__}.{game_id}_ui"))
    i18n.register(module.STRINGS)
    return module


def ui_modules() -> dict[str, ModuleType]:
    """Every registered game's UI module, in lobby order."""
    return {gid: ui_module(gid) for gid in pygames.game_ids()}


def link_seat_words(game_id: str, seat: int = 0) -> dict[str, Any]:
    """In link play, the words for each per-seat option (the UI module's ``SEAT_OPTIONS``)
    as the player of ``seat`` reads them (the host is seat 0): that seat's option is
    ``mine`` ("Your deck"), the other's ``opponent``. Empty when the module gives no
    ``opponent`` words (then the options' own labels stand)."""
    spec = getattr(ui_module(game_id), "SEAT_OPTIONS", None)
    if not spec or "opponent" not in spec:
        return {}
    return {name: spec["mine"] if i == seat else spec["opponent"]
            for i, name in enumerate(spec["options"])}
