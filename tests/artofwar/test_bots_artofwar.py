"""ART OF WAR's bot keeps the secret of its hand in its speed: a Guardian or Wizard window
opens by public information, so a bot whose hand leaves it only ``pass`` must think as
much as one holding the card (``Game.forced_is_secret``), counted in playouts played, never
timed. Elsewhere a single legal action is still played without thought."""

from __future__ import annotations

import json

import pytest
from pgui.table import Table

import pygames
from pygames import search
from pygames.bots import Budget, SearchBot
from pygames.search import Search

GAME = pygames.get_game("artofwar")


def guardian_window(guardian: bool):
    """P1's King attacks P2's Priest; P2's Guardian window opens (a Guardian is among its
    unseen cards). P2 holds it (``+G`` or ``pass``) or a Soldier (only ``pass``), its deck
    the other card: P1's view is the same either way."""
    hand, deck = (["G"], ["S", "A"]) if guardian else (["S"], ["G", "A"])
    state = GAME.from_position(
        {"fields": [{"Fb": "K"}, {"Fa": "K", "Fc": "P"}], "waiting": [[], ["S", "A"]],
         "hands": [["W", "S"], hand], "decks": [["S", "S"], deck]},
        options={"deck1": "K2S4G4A4P4W4"})
    state.apply(0, "FbxFc")
    return state


@pytest.fixture
def playouts(monkeypatch):
    """How many playouts the search plays (its real work), counted."""
    count = [0]
    real = search.playout

    def counted(*args, **kwargs):
        count[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "playout", counted)
    return count


def test_the_window_looks_the_same_from_across_the_table_whatever_the_hand():
    held, empty = guardian_window(True), guardian_window(False)
    assert json.dumps(held.view(0)) == json.dumps(empty.view(0))
    assert held.legal_actions(1) == ["+G", "pass"] and empty.legal_actions(1) == ["pass"]
    assert GAME.forced_is_secret(1, empty.view(1)) and GAME.forced_is_secret(1, held.view(1))


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_a_bot_left_only_pass_searches_as_much_as_one_holding_a_guardian(playouts, level):
    work = {}
    for guardian in (True, False):
        state = guardian_window(guardian)
        bot = SearchBot(GAME, 1, level=level, seed=4)
        playouts[0] = 0
        move = bot.choose(state.view(1), state.legal_actions(1), state.events(1))
        assert move in state.legal_actions(1)
        work[guardian] = (playouts[0], bot.last_iterations)
    budget = GAME.search_iterations[level]
    assert work[True] == work[False] == (budget, budget)


def test_the_sliced_thinking_of_a_table_does_the_same_work_in_a_window(playouts):
    """The app's bot thinks in slices (Table.think); with only ``pass`` it is not played at
    once: it takes as many slices' iterations as with a Guardian in hand."""
    work = {}
    for guardian in (True, False):
        table = Table("artofwar", mode="bot", seat=0, level="easy", slices=True)
        bot = table.bots[1]
        bot.budget = Budget(bot.budget.iterations, 1e9)  # iterations only: no clock
        table.load(lambda guardian=guardian: guardian_window(guardian))
        assert 1 in table.thinking  # the bot's window: it thinks, it has not answered yet
        playouts[0] = 0
        thinks = 1
        while not table.think(ms=1):
            thinks += 1
            assert thinks < 10_000
        work[guardian] = (playouts[0], table.bot_move["iterations"])
        assert table.played[-1][0] == 1
    assert work[True] == work[False] == (bot.budget.iterations,) * 2


def test_a_forced_move_nobody_learns_from_is_still_played_without_thought(playouts):
    """An Archer support with one enemy card to hit: that its target is forced is
    public, so the bot plays it without a search."""
    state = GAME.from_position({"fields": [{"Fa": "S", "Fb": "A"}, {"Fa": "G"}],
                                "hands": [["K", "A"], ["K"]]})
    state.apply(0, "+A")
    if state.view(0)["phase"] == "window":  # P2's King may answer as a Wizard
        state.apply(1, "pass")
    assert state.view(0)["phase"] == "archer" and state.legal_actions(0) == ["aFa"]
    assert not GAME.forced_is_secret(0, state.view(0))
    s = Search(GAME, 0, state.view(0), state.legal_actions(0), state.events(0), seed=1)
    assert s.forced and s.run(500) == 500 and playouts[0] == 0
    bot = SearchBot(GAME, 0, level="strong", seed=1)
    assert bot.done(s, None)
