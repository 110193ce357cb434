"""Tiny Duel: a game of a few dozen lines that plugs in from its own files only.

It proves that a game needs no shared file edited: ``tests/test_plugin.py`` registers it
(:func:`pygames.register`, :func:`pgui.register_ui`) and runs the shared API battery, the
table click-through, records, the replay viewer and the lobby on it.

Rules: each player holds the cards 1, 2 and 3. Three rounds worth the points of the
seed's prize order; each round both choose a card at once, in secret; the higher card
takes the round's prize (equal cards: nobody). Most points wins; equal points: a draw.
"""

from __future__ import annotations

from typing import Any

from pygames.core import Game, Rng, State, private_event, two_player_outcome

CARDS = ("1", "2", "3")


class TinyState(State):
    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        self.prizes = [1, 2, 3]
        Rng(seed).shuffle(self.prizes)
        self.hands: list[list[str]] = [list(CARDS), list(CARDS)]
        self.pending: list[str | None] = [None, None]
        self.scores = [0, 0]
        self.round = 0
        self.log.append({"t": "round", "n": 1, "prize": self.prizes[0]})

    def to_move(self) -> list[int]:
        if self.is_over():
            return []
        return [p for p in (0, 1) if self.pending[p] is None]

    def legal_actions(self, player: int) -> list[str]:
        return list(self.hands[player]) if player in self.to_move() else []

    def _apply(self, player: int, action: str) -> None:
        self.pending[player] = action
        self.log.append(private_event({"t": "chose", "p": player, "card": action},
                                      [player], ["card"]))
        if None in self.pending:
            return
        a, b = (int(c) for c in self.pending)  # type: ignore[arg-type]
        prize = self.prizes[self.round]
        winner = 0 if a > b else 1 if b > a else None
        if winner is not None:
            self.scores[winner] += prize
        for p in (0, 1):
            self.hands[p].remove(self.pending[p])  # type: ignore[arg-type]
        self.log.append({"t": "reveal", "cards": [a, b], "winner": winner, "prize": prize})
        self.pending = [None, None]
        self.round += 1
        if self.round < 3:
            self.log.append({"t": "round", "n": self.round + 1, "prize": self.prizes[self.round]})

    def is_over(self) -> bool:
        return self.round >= 3

    def outcome(self) -> dict[str, Any] | None:
        if not self.is_over():
            return None
        a, b = self.scores
        return two_player_outcome(0 if a > b else 1 if b > a else None, "points", self.scores)

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
        for p in (0, 1):
            card = twin.pending[p]
            if p != viewer and card is not None and len(twin.hands[p]) > 1:
                twin.pending[p] = next(c for c in twin.hands[p] if c != card)
        return twin if twin.pending != self.pending else None


class TinyGame(Game):
    id = "tiny"
    names = {"en": "Tiny Duel", "ja": "タイニー・デュエル"}
    search_iterations = {"easy": 20, "normal": 50, "strong": 100}

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> State:
        return TinyState(self, seed, players, options)

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> State:
        world = TinyState(self, 0, 2, {})
        world.prizes, world.round = list(view["prizes"]), view["round"]
        world.hands = [list(h) for h in view["hands"]]
        world.scores = list(view["scores"])
        world.pending = [None, None]
        world.pending[seat] = view["mine"]
        other = 1 - seat
        if view["chosen"][other]:
            world.pending[other] = rng.choice(world.hands[other])
        world.log = []
        return world
