"""pygames: rules engines for board and card games, pure standard-library Python.

The same code runs in CPython (tests, bots, benchmarks) and in the browser (Pyodide).

>>> import pygames
>>> pygames.game_ids()
['kiriai', 'cardia', 'canosa', 'artofwar', 'electors']
>>> pygames.get_game("kiriai").names["en"]
'Kiri-ai: The Duel'
"""

from __future__ import annotations

import importlib

from .core import Game, IllegalAction, Rng, State

__all__ = ["Game", "State", "IllegalAction", "Rng", "game_ids", "get_game", "register",
           "unregister", "PLANNED", "__version__"]
__version__ = "0.1.0"

#: Every playable game, in lobby order: id -> (module, class), the module an importable
#: dotted name. A game's module is imported the first time it is asked for, so a page that
#: plays one game loads only that one. Games plug in with :func:`register`.
REGISTRY: dict[str, tuple[str, str]] = {
    "kiriai": ("pygames.kiriai", "KiriaiGame"),
    "cardia": ("pygames.cardia", "CardiaGame"),
    "canosa": ("pygames.canosa", "CanosaGame"),
    "artofwar": ("pygames.artofwar", "ArtOfWarGame"),
    "electors": ("pygames.electors", "ElectorsGame"),
}
_GAMES: dict[str, Game] = {}


def register(game_id: str, module: str, name: str) -> None:
    """Plug a game in: class ``name`` of module ``module`` (imported when first asked for)
    is the game ``game_id``, after the games already registered. Nothing shared has to
    know it: every capability reads the registry.

    >>> register("kiriai", "pygames.kiriai", "KiriaiGame")  # the same again: no change
    >>> register("kiriai", "elsewhere", "Other")
    Traceback (most recent call last):
    ...
    ValueError: a game with id 'kiriai' is already registered
    """
    if not isinstance(game_id, str) or not game_id.isidentifier() or game_id != game_id.lower():
        raise ValueError(f"a game id is a lowercase identifier, not {game_id!r}")
    if REGISTRY.get(game_id, (module, name)) != (module, name):
        raise ValueError(f"a game with id {game_id!r} is already registered")
    REGISTRY[game_id] = (module, name)


def unregister(game_id: str) -> None:
    """Take a game out of the registry again (tests that plug one in use it)."""
    REGISTRY.pop(game_id, None)
    _GAMES.pop(game_id, None)


#: Games announced but not built yet: id -> names (shown as "coming" in the lobby).
PLANNED: dict[str, dict[str, str]] = {}
#: One line per planned game for its lobby card (our own words; a playable game's line is
#: its UI module's ``BLURB``).
PLANNED_BLURBS: dict[str, dict[str, str]] = {}


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
    game = getattr(importlib.import_module(module), name)()
    if game.id != game_id:
        raise ValueError(f"{module}.{name} is the game {game.id!r}, not {game_id!r}")
    _GAMES[game_id] = game
    return game
