"""Bots. They decide only from their own player's view and legal actions, never the state.

>>> import pygames
>>> from pygames.bots import RandomBot
>>> state = pygames.get_game("kiriai").new_game(seed=3)
>>> bot = RandomBot(seed=5)
>>> action = bot.choose(state.view(1), state.legal_actions(1))
>>> action in state.legal_actions(1)
True
"""

from __future__ import annotations

from typing import Any

from .core import Game, Rng, State

__all__ = ["RandomBot", "play_bots", "self_play"]


class RandomBot:
    """Plays a uniformly random legal action, from its own seeded PRNG."""

    name = {"en": "Random bot", "ja": "ランダムボット"}

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal: list[str]) -> str:
        """Pick an action from ``legal``; ``view`` is what this bot's player can see."""
        if not legal:
            raise ValueError("the bot has no legal action to choose from")
        return self.rng.choice(legal)


def play_bots(state: State, bots: dict[int, RandomBot]) -> None:
    """Let the bots act for their players until a human must act or the game is over."""
    while True:
        movers = [p for p in state.to_move() if p in bots]
        if not movers:
            return
        for p in movers:
            state.apply(p, bots[p].choose(state.view(p), state.legal_actions(p)))


def self_play(game: Game, *, seed: int, options: dict[str, Any] | None = None,
              players: int = 2) -> State:
    """A whole game between random bots, all seeded: the same record in every runtime.

    >>> import pygames
    >>> game = pygames.get_game("kiriai")
    >>> self_play(game, seed=3).record() == self_play(game, seed=3).record()
    True
    """
    state = game.new_game(seed=seed, players=players, options=options)
    play_bots(state, {p: RandomBot(seed=seed * 1000 + p) for p in range(players)})
    return state
