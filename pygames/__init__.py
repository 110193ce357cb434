"""pygames: rules engines for board and card games, pure standard-library Python.

The same code runs in CPython (tests, bots, benchmarks) and in the browser (Pyodide).

>>> import pygames
>>> pygames.game_ids()
['kiriai', 'cardia', 'canosa']
>>> pygames.get_game("kiriai").names["en"]
'Kiri-ai: The Duel'
"""

from __future__ import annotations

import importlib

from .core import Game, IllegalAction, Rng, State

__all__ = ["Game", "State", "IllegalAction", "Rng", "game_ids", "get_game", "PLANNED",
           "__version__"]
__version__ = "0.1.0"

#: Every playable game, in lobby order: id -> (module, class). A game's module is imported
#: the first time it is asked for, so a page that plays one game loads only that one.
REGISTRY: dict[str, tuple[str, str]] = {
    "kiriai": ("kiriai", "KiriaiGame"),
    "cardia": ("cardia", "CardiaGame"),
    "canosa": ("canosa", "CanosaGame"),
}
_GAMES: dict[str, Game] = {}

#: Games announced but not built yet: id -> names (shown as "coming" in the lobby).
PLANNED: dict[str, dict[str, str]] = {
    "artofwar": {"en": "ART OF WAR", "ja": "アート・オブ・ウォー"},
    "electors": {"en": "Electors", "ja": "選帝侯"},
}


def game_ids() -> list[str]:
    """Ids of every playable game, in lobby order."""
    return list(REGISTRY)


def get_game(game_id: str) -> Game:
    """The game with this id; an unknown id raises ``KeyError`` listing the known ids."""
    game = _GAMES.get(game_id) if isinstance(game_id, str) else None
    if game is not None:
        return game
    if not isinstance(game_id, str) or game_id not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise KeyError(f"unknown game {game_id!r}; known games: {known}") from None
    module, name = REGISTRY[game_id]
    game = _GAMES[game_id] = getattr(importlib.import_module(f".{module}", __name__), name)()
    return game
