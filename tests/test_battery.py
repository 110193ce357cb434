"""The long random battery's command (``python -m pygames.battery``): it plays, and it
reports a failure with the game number that reproduces it."""

from __future__ import annotations

import pytest

import pygames
from pygames import battery


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_the_battery_plays_random_games_of_every_game(gid):
    result = battery.run(gid, games=51)  # game 50 also checks junk and the record
    assert result["games"] == 51 and result["failures"] == []
    assert result["actions"] > 51


def test_a_failure_is_reported_with_its_game_number(monkeypatch):
    game = pygames.get_game("kiriai")
    state_cls = type(game.new_game(seed=0))
    real = state_cls.apply

    def broken(self, player, action):
        if len(self.record()["actions"]) >= 3:
            raise RuntimeError("boom")
        return real(self, player, action)

    monkeypatch.setattr(state_cls, "apply", broken)
    result = battery.run("kiriai", games=2, start=7)
    assert len(result["failures"]) == 2
    assert result["failures"][0].startswith("kiriai game 7 (seed 7")
    assert "RuntimeError: boom" in result["failures"][0]
    assert battery.main(["kiriai", "--games", "1", "--jobs", "1"]) == 1
