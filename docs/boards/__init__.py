"""The rules pages' live boards, one module per game (``boards.<game id>``), each with its
``BOARDS``: name -> how it is made and shown. ``game``: the game id; ``policy``: who plays
(a seeded :data:`Policy`); ``find``: the event the board is about (its docstring is the
board's ``about``); ``accept`` (optional) filters whole games for the "short whole game"
boards; ``ply``: absent (the board opens right after the event), an int (0: the start,
to step through), or a function ``(state, event ply) -> int``; ``seeds`` (optional): how
many seeds to try (a rare event may need more than the default); ``perspective``,
``moves``: the embed's; ``height``: the iframe's fallback height in pixels (what the
board measures at 900 px wide; the embed tells the page its own).

What every game's boards may share is here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Policy = Callable[[Any, int, list[str], random.Random], str]
Found = Callable[[Any, list[dict[str, Any]], int], bool]


def random_policy(state: Any, seat: int, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def game_over(state: Any, new: list[dict[str, Any]], ply: int) -> bool:
    return state.is_over()
