"""Search for bots: information-set MCTS over the core protocol, and flat Monte Carlo.

A bot's seat knows only its view, its legal actions and its events. Each iteration of
:class:`Search` plays in one *world*: a full state drawn by the game's determiniser
(:meth:`pygames.core.Game.determinize`) from exactly that knowledge, so the search never
sees what its seat may not (single-observer information-set MCTS: one tree over the
seat's information, statistics shared by every world that passes through a node).

* A node where one player moves picks by UCB1 among the actions legal *in this world*,
  counting how often that legal set was offered (ISMCTS's availability count), so an
  opponent's action that only some worlds allow is not over-trusted.
* A node where several players move at once (Kiri-ai programs, Cardia placements) is a
  simultaneous node searched by decoupled UCT: each mover keeps its own statistics and
  picks by UCB1 as if alone; the child is the joint choice. At the root the bot then plays
  a *mixed* strategy: one of the actions visited almost as often as the most visited
  (:data:`MIX`), drawn in proportion to its visits, so it cannot be read.
  (Regret matching was tried too: its average strategy stayed near uniform at our budgets
  and lost to flat Monte Carlo, 47% at 2,000 iterations; this beat it, 62.5% at 6,000.)
* Where the game says so (``Game.search_opponents`` False), only the searching seat's own
  choices are searched: the others play at random in the tree, as in the playouts. The
  worlds show every hand, so a searched opponent would answer the seat's hidden cards as
  if it saw them (in a game of hidden hands that made the bot timid: 47.5% against flat
  Monte Carlo at 2,500 iterations; with the others at random, 60% at 500).
* UCB1's scores are cached per legal set and made again only as its exploration term grows
  (:data:`REFRESH`), so a pick is a C-level ``max``; the tree reads each mover's legal set
  by ``legal_fast(p)`` where a fast state offers it (``legal_actions(p)`` as a shared
  tuple: no list is built; else the tuple of ``legal_actions(p)``).
* Below the tree, a playout plays random legal actions by the fast path
  (:meth:`~pygames.core.State.clone_fast`, :meth:`~pygames.core.State.apply_fast`) to
  the end, up to :data:`PLAYOUT_CAP` actions (then a draw), or, in a game with a
  ``playout_depth``, that many actions, then :meth:`~pygames.core.State.estimate` judges
  the position. A result is 1 for a winner, 0 for a loser and 1/2 each for a draw.

A seat with one legal action has nothing to search (:attr:`Search.forced`: ``run`` counts
its iterations done at once), unless the game says that this is a secret
(:meth:`~pygames.core.Game.forced_is_secret`): then the search runs its iterations over that
one action like over any choice, so the move takes as long as a real one.

The search is resumable: :meth:`Search.run` takes a number of iterations, so a page can
run it in slices between clicks; everything random comes from the bot's own seed (a
:class:`~pygames.core.Rng` for worlds, a seeded :class:`random.Random` for the fast
choices inside the search), so an iteration budget gives the same move every time (a
time budget caps it, for play, and is then not reproducible).

>>> import pygames
>>> game = pygames.get_game("kiriai")
>>> state = game.new_game(seed=1)
>>> s = Search(game, 1, state.view(1), state.legal_actions(1), state.events(1), seed=3)
>>> s.run(200)
200
>>> s.best() in state.legal_actions(1)
True
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from .core import Game, Rng, State

__all__ = ["Search", "FlatMonteCarlo", "PLAYOUT_CAP", "MIX", "rewards", "playout", "is_forced"]

#: Actions a playout may take before it is scored a draw.
PLAYOUT_CAP = 400
#: How many sampled worlds a search keeps and reuses (each iteration clones one).
WORLDS = 48
#: At a simultaneous root the bot plays, in proportion to their visits, the actions visited
#: at least this share as often as the most visited one (so it cannot be read, yet never
#: plays what its search found clearly worse).
MIX = 0.7


def rewards(state: State) -> list[float]:
    """Each seat's result of a finished (or abandoned: a draw) game, in [0, 1]."""
    outcome = state.outcome() if state.is_over() else None
    n = state.players
    if not outcome or not outcome["winners"]:
        return [0.5] * n
    winners = outcome["winners"]
    share = 1.0 / len(winners) if len(winners) < n else 0.5
    return [share if p in winners else 0.0 for p in range(n)]


def playout(world: State, rng: random.Random, cap: int | None = None) -> list[float]:
    """Random legal actions by the fast path (``State.playout_fast``: each mover's
    ``random_action_fast`` played by ``apply_fast``) until the end, or ``cap`` rounds (by
    default the game's ``playout_depth``, then judged by ``State.estimate``; else
    :data:`PLAYOUT_CAP`, then a draw).

    ``rng`` is a seeded :class:`random.Random` (C-fast, and the same numbers in CPython
    and Pyodide); the search's own, never the global one."""
    depth = cap if cap is not None else world.game.playout_depth or PLAYOUT_CAP
    if world.playout_fast(rng, depth) or world.is_over():
        return rewards(world)
    return world.estimate() if cap is None and world.game.playout_depth else rewards(world)


def is_forced(game: Game, seat: int, view: dict[str, Any], legal: list[str]) -> bool:
    """Whether a search may skip the decision: ``legal`` is one action, and the game does
    not keep that a secret (:meth:`~pygames.core.Game.forced_is_secret`)."""
    return len(legal) == 1 and not game.forced_is_secret(seat, view)


class _Node:
    """One point of the tree, as the searching seat knows it."""

    __slots__ = ("stats", "groups", "children")

    def __init__(self) -> None:
        #: ``{(player, action): [visits, total reward, mean, 1/sqrt(visits)]}``, shared by
        #: every legal set the action is part of
        self.stats: dict[tuple[int, str], list[float]] = {}
        #: One mover's legal set as met here: ``{(player, actions): [times offered, its
        #: stats entries in order (None until this set first picks it), the indices this
        #: set has not picked yet]}``
        self.groups: dict[tuple[int, tuple[str, ...]], list[Any]] = {}
        #: ``{((player, action), ...): child}`` (one pair per mover, in seat order)
        self.children: dict[tuple[tuple[int, str], ...], _Node] = {}


class _Worlds:
    """Worlds drawn from the seat's knowledge, each kept and cloned for reuse."""

    def __init__(self, game: Game, seat: int, view: dict[str, Any],
                 events: list[dict[str, Any]], rng: Rng, size: int = WORLDS) -> None:
        self.game, self.seat, self.view, self.events = game, seat, view, events
        self.rng = rng
        self.size = size
        self.pool: list[State] = []
        self.turn = 0

    def next(self) -> State:
        if len(self.pool) < self.size:  # kept as a fast copy (cloned the cheapest way)
            world = self.game.determinize(self.seat, self.view, self.events,
                                          Rng(self.rng.next64())).clone_fast()
            self.pool.append(world)
            return world.clone_fast()
        self.turn = (self.turn + 1) % self.size
        return self.pool[self.turn].clone_fast()


class Search:
    """Information-set MCTS for ``seat`` from what it knows (see the module docstring).

    ``c`` is UCB1's exploration constant.
    ``run(n)`` adds ``n`` iterations (or fewer, if ``deadline`` — a
    ``time.perf_counter()`` value — passes first) and returns how many it ran;
    :meth:`best` is the move to play. :attr:`forced` (see :func:`is_forced`): one legal
    action and no secret in it, so ``run`` counts its iterations without playing them.
    """

    def __init__(self, game: Game, seat: int, view: dict[str, Any], legal: list[str],
                 events: list[dict[str, Any]], *, seed: int = 0, c: float = 0.7,
                 worlds: int = WORLDS) -> None:
        if not legal:
            raise ValueError("the seat has no legal action to search")
        self.game, self.seat, self.legal = game, seat, list(legal)
        self.forced = is_forced(game, seat, view, self.legal)
        self.rng = Rng(seed)
        self.fast = random.Random(self.rng.next64())
        self.c = c
        self.root = _Node()
        self.iterations = 0
        self.simultaneous = False  # the root was met with several movers
        #: The one seat whose choices the tree searches (None: every seat's)
        self.alone = None if game.search_opponents else seat
        self._worlds = _Worlds(game, seat, view, events, Rng(self.rng.next64()), worlds)

    def run(self, iterations: int, deadline: float | None = None) -> int:
        done = 0
        if self.forced:  # nothing to think about, and no secret kept by thinking
            self.iterations += iterations
            return iterations
        while done < iterations:
            if deadline is not None and done % 16 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate()
            done += 1
        self.iterations += done
        return done

    def _iterate(self) -> None:
        # The hot loop, with UCB1 inline (_ucb spells out the same choice, uncached).
        r, c = self.fast.random, self.c
        world = self._worlds.next()
        # A fast state may offer legal_fast(p): legal_actions(p) as a shared tuple.
        legal_fast = getattr(world, "legal_fast", None)
        legal_actions = world.legal_actions
        node = root = self.root
        alone = self.alone
        chosen: list[tuple[list[Any], int, list[float], int]] = []  # (group, index, entry, p)
        while True:
            movers = world.to_move()
            if not movers:
                break
            if node is root and len(movers) > 1:
                self.simultaneous = True
            joint = []
            groups = node.groups
            for p in movers:  # several: decoupled UCT, each mover as if alone
                legal = legal_fast(p) if legal_fast else tuple(legal_actions(p))
                if alone is not None and p != alone:  # not searched: at random
                    joint.append((p, legal[int(r() * len(legal))]))
                    continue
                gkey = (p, legal)
                group = groups.get(gkey)
                if group is None:
                    n = len(legal)
                    group = groups[gkey] = [0, [None] * n, list(range(n)), None, 0, 0.0]
                offered = group[0] = group[0] + 1
                untried = group[2]
                if untried:  # untried actions first, at random
                    j = int(r() * len(untried))
                    i = untried[j]
                    untried[j] = untried[-1]
                    untried.pop()
                    a = legal[i]
                    entry = group[1][i] = node.stats.setdefault((p, a), [0, 0.0, 0.0, 0.0])
                else:
                    scores = group[3]
                    if offered >= group[4]:  # refresh every score (see _refresh)
                        scores = _refresh(group, c)
                    i = scores.index(max(scores))
                    a, entry = legal[i], group[1][i]
                chosen.append((group, i, entry, p))
                joint.append((p, a))
            key = tuple(joint)
            for p, a in joint:
                world.apply_fast(p, a)
            child = node.children.get(key)
            if child is None:
                node.children[key] = _Node()
                break
            node = child
        result = playout(world, self.fast)
        sqrt = math.sqrt
        for group, i, entry, p in chosen:
            v = entry[0] + 1
            entry[0] = v
            t = entry[1] = entry[1] + result[p]
            mean = entry[2] = t / v
            inv = entry[3] = 1.0 / sqrt(v)
            scores = group[3]
            if scores is not None:
                scores[i] = mean + group[5] * inv

    def visits(self) -> dict[str, int]:
        """Root visits of each of the seat's legal actions."""
        stats = self.root.stats
        return {a: int(stats.get((self.seat, a), [0])[0]) for a in self.legal}

    def value(self, action: str) -> float:
        """The mean result of ``action`` at the root (0.5 if never tried)."""
        entry = self.root.stats.get((self.seat, action))
        return entry[1] / entry[0] if entry and entry[0] else 0.5

    def strategy(self) -> dict[str, float]:
        """How the bot picks its move: at a simultaneous root, the actions visited at least
        :data:`MIX` times as often as the most visited, in proportion to their visits (a
        mixed strategy); else all on the most visited action."""
        visits = self.visits()
        if not self.simultaneous:
            return {max(self.legal, key=lambda a: (visits[a], self.value(a))): 1.0}
        top = max(visits.values())
        if top == 0:
            return {a: 1.0 / len(self.legal) for a in self.legal}
        kept = {a: v for a, v in visits.items() if v >= MIX * top}
        total = sum(kept.values())
        return {a: v / total for a, v in kept.items()}

    def best(self) -> str:
        """The move, drawn from :meth:`strategy` (at a simultaneous root: a mixed strategy,
        so the bot cannot be read)."""
        shares = self.strategy()
        if len(shares) == 1:
            return next(iter(shares))
        x = self.fast.random()
        for a, share in shares.items():
            x -= share
            if x < 0:
                return a
        return a


#: A legal set's UCB1 scores are all made again when it has been offered this much more
#: often than at the last time (its exploration term, ``c * sqrt(log(offered))``, has then
#: grown by well under 1%); in between only the score of the action it picked moves (by
#: that action's new mean), so a pick costs a C-level ``max`` instead of a Python loop over
#: the actions. An action whose stats another legal set changed is seen at the next refresh.
REFRESH = 1.05


def _refresh(group: list[Any], c: float) -> list[float]:
    """Make every UCB1 score of ``group`` again (all its actions tried)."""
    offered = group[0]
    explore = group[5] = c * math.sqrt(math.log(offered))
    group[4] = offered * REFRESH + 1.0
    scores = group[3] = [entry[2] + explore * entry[3] for entry in group[1]]
    return scores


def _ucb(group: list[Any], r: Any, c: float) -> int:
    """UCB1 over one legal set (its index), counting how often the set was offered (the
    availability of its actions); actions this set has not picked yet first, at random.
    The plain, uncached choice (:meth:`Search._iterate` caches the scores: :data:`REFRESH`)."""
    group[0] += 1
    untried = group[2]
    if untried:
        j = int(r() * len(untried))
        i = untried[j]
        untried[j] = untried[-1]
        untried.pop()
        return i
    explore = c * math.sqrt(math.log(group[0]))
    best, best_score = 0, -math.inf
    for i, entry in enumerate(group[1]):
        score = entry[2] + explore * entry[3]
        if score > best_score:
            best, best_score = i, score
    return best


class FlatMonteCarlo:
    """The baseline: every root action gets playouts in turn from sampled worlds (the
    other players random from there on); the best mean wins. Same interface as Search."""

    def __init__(self, game: Game, seat: int, view: dict[str, Any], legal: list[str],
                 events: list[dict[str, Any]], *, seed: int = 0,
                 worlds: int = WORLDS) -> None:
        if not legal:
            raise ValueError("the seat has no legal action to search")
        self.seat, self.legal = seat, list(legal)
        self.forced = is_forced(game, seat, view, self.legal)
        self.rng = Rng(seed)
        self.fast = random.Random(self.rng.next64())
        self.totals = {a: [0, 0.0] for a in self.legal}
        self.iterations = 0
        self._worlds = _Worlds(game, seat, view, events, Rng(self.rng.next64()), worlds)

    def run(self, iterations: int, deadline: float | None = None) -> int:
        done = 0
        if self.forced:  # as Search.run
            self.iterations += iterations
            return iterations
        while done < iterations:
            if deadline is not None and done % 16 == 0 and time.perf_counter() >= deadline:
                break
            action = self.legal[(self.iterations + done) % len(self.legal)]
            world = self._worlds.next()
            world.apply_fast(self.seat, action)
            result = playout(world, self.fast)
            entry = self.totals[action]
            entry[0] += 1
            entry[1] += result[self.seat]
            done += 1
        self.iterations += done
        return done

    def best(self) -> str:
        return max(self.legal, key=lambda a: (self.totals[a][1] / self.totals[a][0]
                                              if self.totals[a][0] else 0.0))
