"""Bots. They decide only from their own player's view, legal actions and events, never the
state: :class:`RandomBot`, and :class:`SearchBot` at three levels (:data:`LEVELS`), which
searches worlds sampled from that knowledge (:mod:`pygames.search`).

>>> import pygames
>>> from pygames.bots import RandomBot
>>> state = pygames.get_game("kiriai").new_game(seed=3)
>>> bot = RandomBot(seed=5)
>>> action = bot.choose(state.view(1), state.legal_actions(1))
>>> action in state.legal_actions(1)
True
"""

from __future__ import annotations

import time
from typing import Any, NamedTuple

from .core import Game, Rng, State
from .search import FlatMonteCarlo, Search

__all__ = ["RandomBot", "SearchBot", "Budget", "LEVELS", "make_bot", "play_bots", "self_play"]


class Budget(NamedTuple):
    """How long a bot thinks: ``iterations`` (reproducible from its seed) and, when
    ``timed``, at most ``seconds`` of the clock as well."""

    iterations: int
    seconds: float


#: The three levels of :class:`SearchBot`: information-set MCTS with more thought each
#: (a game may set its own iterations: ``Game.search_iterations``; the seconds cap the wait
#: for a move in the app: see pgui.table.Table.think).
LEVELS: dict[str, Budget] = {
    "easy": Budget(60, 0.15),
    "normal": Budget(600, 0.5),
    "strong": Budget(6000, 1.0),
}


class RandomBot:
    """Plays a uniformly random legal action, from its own seeded PRNG."""

    name = {"en": "Random bot", "ja": "ランダムボット"}

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def choose(self, view: dict[str, Any], legal: list[str],
               events: list[dict[str, Any]] | None = None) -> str:
        """Pick an action from ``legal``; ``view`` is what this bot's player can see."""
        if not legal:
            raise ValueError("the bot has no legal action to choose from")
        return self.rng.choice(legal)

    def skip(self, legal: list[str]) -> None:
        """Draw as :meth:`choose` would among ``legal``, and forget it: a resumed game
        replays this bot's moves from its record, so the moves it makes next are those of
        the unbroken game."""
        self.rng.choice(legal)


class SearchBot:
    """Plays ``seat`` of ``game`` by searching worlds drawn from what the seat knows.

    ``kind`` is ``"ismcts"`` (the levels) or ``"flat"`` (flat Monte Carlo, the baseline
    with the same budget). Each decision uses a fresh seed from the bot's own PRNG, so a
    bot with an iteration budget (``timed=False``) plays the same game every time.

    A page that must stay responsive thinks in slices: ``search = bot.start(...)``, then
    ``search.run(n)`` between clicks until :meth:`done`, then ``search.best()``.
    """

    def __init__(self, game: Game, seat: int, *, level: str = "normal", seed: int = 0,
                 kind: str = "ismcts", timed: bool = False,
                 budget: Budget | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r} (use one of: {', '.join(LEVELS)})")
        self.game, self.seat, self.level, self.kind = game, seat, level, kind
        seconds = LEVELS[level].seconds
        self.budget = budget or Budget(game.search_iterations.get(level, LEVELS[level].iterations),
                                       seconds)
        self.timed = timed
        self.rng = Rng(seed)
        self.name = {"en": f"Bot ({level})", "ja": f"ボット（{level}）"}
        self.last_iterations = 0

    def start(self, view: dict[str, Any], legal: list[str],
              events: list[dict[str, Any]]) -> Search | FlatMonteCarlo:
        cls = FlatMonteCarlo if self.kind == "flat" else Search
        return cls(self.game, self.seat, view, legal, events, seed=self.rng.next64())

    def skip(self, legal: list[str]) -> None:
        """Use up the seed of one decision (:meth:`start` and :meth:`choose` each take
        one), as :meth:`RandomBot.skip` does: for a game resumed from its record."""
        self.rng.next64()

    def done(self, search: Search | FlatMonteCarlo, started: float | None) -> bool:
        """Whether the search has its iterations, or (``timed``) has used its seconds since
        ``started`` (None: the clock is not running yet), or needs none: a single legal
        action the game does not keep secret (``search.forced``; where it does,
        :meth:`~pygames.core.Game.forced_is_secret`, the bot thinks as over any choice)."""
        if search.iterations >= self.budget.iterations or search.forced:
            return True
        return (self.timed and started is not None
                and time.perf_counter() - started >= self.budget.seconds)

    def choose(self, view: dict[str, Any], legal: list[str],
               events: list[dict[str, Any]] | None = None) -> str:
        if not legal:
            raise ValueError("the bot has no legal action to choose from")
        search = self.start(view, legal, events or [])
        started = time.perf_counter()
        deadline = started + self.budget.seconds if self.timed else None
        search.run(self.budget.iterations, deadline)
        self.last_iterations = search.iterations
        return search.best()


def make_bot(game: Game, seat: int, name: str, seed: int = 0, *,
             timed: bool = False) -> RandomBot | SearchBot:
    """A bot by name: ``random``, ``flat`` (flat Monte Carlo with the strong budget), or a
    level of :data:`LEVELS`."""
    if name == "random":
        return RandomBot(seed)
    if name == "flat":
        return SearchBot(game, seat, level="strong", seed=seed, kind="flat", timed=timed)
    return SearchBot(game, seat, level=name, seed=seed, timed=timed)


def play_bots(state: State, bots: dict[int, Any]) -> None:
    """Let the bots act for their players until a human must act or the game is over."""
    while True:
        movers = [p for p in state.to_move() if p in bots]
        if not movers:
            return
        for p in movers:
            state.apply(p, bots[p].choose(state.view(p), state.legal_actions(p),
                                          state.events(p)))


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
