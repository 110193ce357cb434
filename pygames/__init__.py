"""pygames: rules engines for board and card games, pure standard-library Python.

The same code runs in CPython (tests, bots, benchmarks) and in the browser (Pyodide).

>>> import pygames
>>> pygames.game_ids()
['kiriai', 'cardia', 'canosa']
>>> pygames.get_game("kiriai").names["en"]
'Kiri-ai: The Duel'
"""

from __future__ import annotations

from .canosa import CanosaGame
from .cardia import CardiaGame
from .core import Game, IllegalAction, Rng, State
from .kiriai import KiriaiGame

__all__ = ["Game", "State", "IllegalAction", "Rng", "game_ids", "get_game", "PLANNED",
           "__version__"]
__version__ = "0.1.0"

_GAMES: dict[str, Game] = {g.id: g for g in (KiriaiGame(), CardiaGame(), CanosaGame())}

#: Games announced but not built yet: id -> names (shown as "coming" in the lobby).
PLANNED: dict[str, dict[str, str]] = {
    "artofwar": {"en": "ART OF WAR", "ja": "アート・オブ・ウォー"},
    "electors": {"en": "Electors", "ja": "選帝侯"},
}


def game_ids() -> list[str]:
    """Ids of every playable game, in lobby order."""
    return list(_GAMES)


def get_game(game_id: str) -> Game:
    """The game with this id; an unknown id raises ``KeyError`` listing the known ids."""
    try:
        return _GAMES[game_id]
    except (KeyError, TypeError):
        known = ", ".join(_GAMES)
        raise KeyError(f"unknown game {game_id!r}; known games: {known}") from None
