"""Tiny Duel: a game of a few dozen lines that plugs in from its own files only.

It proves that a game needs no shared file edited: ``tests/test_plugin.py`` registers it
(:func:`pygames.register`, :func:`pgui.register_ui`) and runs the shared API battery, the
table click-through, records, the replay viewer and the lobby on it.

Rules: each player holds the cards 1, 2 and 3. Three rounds worth the points of the
seed's prize order; each round both choose a card at once, in secret; the higher card
takes the round's prize (equal cards: nobody). Most points wins; equal points: a draw.

For 2 to 4 players (``tests/test_seats.py``): the one highest card takes the prize (a tie
for highest: nobody); most points win (all equal: a draw). :class:`TinyTurnsGame`
(``tinyturns``) is the same game with the choices made one after another in seat order,
each still secret: a game of turns, for pass and play with bots between people.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pygames.core import Game, Rng, State, private_event, two_player_outcome

CARDS = ("1", "2", "3")


class TinyState(State):
    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        self.prizes = [1, 2, 3]
        Rng(seed).shuffle(self.prizes)
        self.hands: list[list[str]] = [list(CARDS) for _ in range(players)]
        self.pending: list[str | None] = [None] * players
        self.scores = [0] * players
        self.round = 0
        self.log.append({"t": "round", "n": 1, "prize": self.prizes[0]})

    def to_move(self) -> list[int]:
        if self.is_over():
            return []
        waiting = [p for p in range(self.players) if self.pending[p] is None]
        return waiting[:1] if self.game.turns else waiting

    def legal_actions(self, player: int) -> list[str]:
        return list(self.hands[player]) if player in self.to_move() else []

    def _apply(self, player: int, action: str) -> None:
        self.pending[player] = action
        self.log.append(private_event({"t": "chose", "p": player, "card": action},
                                      [player], ["card"]))
        if None in self.pending:
            return
        cards = [int(c) for c in self.pending]  # type: ignore[arg-type]
        prize = self.prizes[self.round]
        top = [p for p, c in enumerate(cards) if c == max(cards)]
        winner = top[0] if len(top) == 1 else None
        if winner is not None:
            self.scores[winner] += prize
        for p in range(self.players):
            self.hands[p].remove(self.pending[p])  # type: ignore[arg-type]
        self.log.append({"t": "reveal", "cards": cards, "winner": winner, "prize": prize})
        self.pending = [None] * self.players
        self.round += 1
        if self.round < 3:
            self.log.append({"t": "round", "n": self.round + 1, "prize": self.prizes[self.round]})

    def is_over(self) -> bool:
        return self.round >= 3

    def outcome(self) -> dict[str, Any] | None:
        if not self.is_over():
            return None
        if self.players == 2:
            a, b = self.scores
            return two_player_outcome(0 if a > b else 1 if b > a else None, "points",
                                      self.scores)
        best = max(self.scores)
        top = [p for p, s in enumerate(self.scores) if s == best]
        return {"winners": [] if len(top) == self.players else top,
                "ranks": [1 + sum(o > s for o in self.scores) for s in self.scores],
                "scores": list(self.scores), "reason": "points"}

    def view(self, player: int | None) -> dict[str, Any]:
        return {"game": "tiny", "you": player, "round": self.round, "prizes": self.prizes,
                "hands": [list(h) for h in self.hands], "scores": list(self.scores),
                "chosen": [c is not None for c in self.pending],
                "mine": self.pending[player] if player is not None else None,
                "to_move": self.to_move(), "outcome": self.outcome()}

    def sheet_group(self) -> str | None:
        return f"Round {self.round + 1}"

    def hidden_twin(self, viewer: int | None) -> TinyState | None:
        twin = self.clone()
        for p in range(self.players):
            card = twin.pending[p]
            if p != viewer and card is not None and len(twin.hands[p]) > 1:
                twin.pending[p] = next(c for c in twin.hands[p] if c != card)
        return twin if twin.pending != self.pending else None


class TinyGame(Game):
    id = "tiny"
    names = {"en": "Tiny Duel", "ja": "タイニー・デュエル"}
    max_players = 4
    search_iterations = {"easy": 20, "normal": 50, "strong": 100}
    #: The choices are made one after another (:class:`TinyTurnsGame`), else all at once.
    turns: ClassVar[bool] = False

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> State:
        return TinyState(self, seed, players, options)

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> State:
        world = TinyState(self, 0, len(view["hands"]), {})
        world.prizes, world.round = list(view["prizes"]), view["round"]
        world.hands = [list(h) for h in view["hands"]]
        world.scores = list(view["scores"])
        world.pending = [None] * world.players
        world.pending[seat] = view["mine"]
        for other in range(world.players):
            if other != seat and view["chosen"][other]:
                world.pending[other] = rng.choice(world.hands[other])
        world.log = []
        return world


class TinyTurnsGame(TinyGame):
    id = "tinyturns"
    names = {"en": "Tiny Turns", "ja": "タイニー・ターンズ"}
    turns = True
