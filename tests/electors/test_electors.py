"""Electors rules (shared/rules/electors.md): the worked examples of §10, every special card
and influence card, the end trigger, passing, scoring, every option of §9, hidden faces per
viewer, refusals, positions by hand, 2-4 players and the two-player variant.

Seats: seat 0 plays Red, seat 1 Blue, seat 2 Green, seat 3 Yellow. §10's P1 (Blue) is seat
1, P2 (Red) seat 0, P3 (Green) seat 2.
"""

from __future__ import annotations

import random

import pytest

from pygames import IllegalAction, Rng
from pygames.electors import (
    _COST_SLOT,
    _COSTS,
    ElectorsGame,
    _payment,
    _payment_counts,
    _payments,
    influence_set,
    known_in_hand,
    ranks_of,
)

GAME = ElectorsGame()
LETTERS = "abcde"


def grid(cells=None, rows=4, cols=5):
    """Rows of cells: ``cells`` maps a cell name to a cell (a code: face down, placed by
    nobody; or a dict); every other cell is empty."""
    out = [[None] * cols for _ in range(rows)]
    for name, cell in (cells or {}).items():
        out[int(name[1:]) - 1][LETTERS.index(name[0])] = cell
    return out


def position(options=None, **pos):
    """A hand-made position: 3 players, seat 0 (Red) to act, empty hands and decks unless
    given, an empty grid unless given."""
    pos.setdefault("players", 3)
    n = pos["players"]
    pos.setdefault("hands", [[] for _ in range(n)])
    pos.setdefault("decks", [[] for _ in range(n)])
    pos.setdefault("grid", grid(rows=(options or {}).get("grid_rows", 4),
                                cols=(options or {}).get("grid_cols", 5)))
    return GAME.from_position(pos, options=options)


def play(state, *actions):
    for action in actions:
        state.apply(state.to_move()[0], action)
    return state


def kinds(state, start=0, viewer=None):
    return [e["t"] for e in state.events(viewer, start)]


def up(c):
    return {"c": c, "up": True}


def down(c, placer=None):
    return {"c": c, "up": False, "placer": placer}


def last_turn(**pos):
    """A position at the end of seat ``active``'s last turn (the trigger has fired before):
    ``end`` starts the final scoring."""
    pos.setdefault("active", 1)
    pos.setdefault("phase", "after")
    pos["trigger"] = {"p": pos["active"], "last_turn": pos["active"], "safety": False,
                      "last": True}
    return position(**pos)


def scored(state):
    """Play the final scoring through: reveal every pair offered, use no Change of Heart."""
    while not state.is_over():
        p = state.to_move()[0]
        legal = state.legal_actions(p)
        pairs = [a for a in legal if a.startswith("pr:")]
        play(state, pairs[0] if pairs else "done" if "done" in legal else legal[0])
    return state


# -- X1: ranking with ties ----------------------------------------------------------------
@pytest.mark.parametrize(("cubes", "ranks"), [
    ([6, 5, 4, 3], [1, 2, 3, 4]),
    ([5, 5, 4, 3], [2, 2, 3, 4]),
    ([6, 6, 4, 4], [2, 2, 4, 4]),
    ([7, 4, 4, 4], [1, 4, 4, 4]),
    ([5, 5, 5, 4], [3, 3, 3, 4]),
    ([5, 5, 5, 5], [4, 4, 4, 4]),
    ([3, 0, 0, 0], [1, 4, 4, 4]),
])
def test_x1_ranks_take_the_worse_place_on_ties(cubes, ranks):
    assert ranks_of(cubes) == dict(zip("RBGY", ranks, strict=True))
    # The same through a finished game: the rank event and the final view.
    s = scored(last_turn(cubes=dict(zip("RBGY", cubes, strict=True))))
    assert s.view(None)["final"]["ranks"] == dict(zip("RBGY", ranks, strict=True))
    rank = next(e for e in s.events(None) if e["t"] == "rank")
    assert rank["ranks"] == dict(zip("RBGY", ranks, strict=True))


def test_x1_a_rank_one_card_scores_its_number_and_a_rank_four_card_minus_one():
    s = scored(last_turn(cubes={"R": 3}, acquired=[[], ["B2", "R5"], []]))
    score = s.view(None)["final"]["scores"][1]
    assert score["rank1"] == 5 and score["rank4"] == -1 and score["total"] == 4
    assert s.outcome() == {"winners": [1], "ranks": [2, 1, 2], "scores": [0, 4, 0],
                           "reason": "score"}


# -- X2: ① with Power --------------------------------------------------------------------
def x2():
    return position(active=1, start=1, grid=grid({"c2": "kG4", "a2": "kR1"}),
                    hands=[[], ["B3", "B3", "Bj"], []], decks=[[], ["B5"], []],
                    influence=[[], ["PR"], []])


def test_x2_a_match_with_power_and_a_trap_put_back():
    s = x2()
    play(s, "c2")
    assert s.view(1)["phase"] == "number"
    assert s.view(1)["pending"] == {"cell": "c2", "c": "kG4"}
    legal = s.legal_actions(1)
    assert "=B3P" in legal and "=B3" not in legal and "take" in legal
    play(s, "=B3P")
    v = s.view(1)
    assert v["acquired"][1] == ["B3", "kG4"]  # printed 3: the change was for the match only
    assert v["influence"][1] == [{"id": "PR", "used": True}]
    assert v["phase"] == "place" and v["pending"] == {"cell": "c2", "c": None}
    assert s.legal_actions(1) == ["v:B3", "v:Bj"]
    match = next(e for e in s.events(0) if e["t"] == "match")
    assert match == {"t": "match", "p": 1, "cell": "c2", "c": "kG4", "with": "B3",
                     "mods": "P"}
    play(s, "v:Bj")
    v = s.view(1)
    assert v["hand"] == ["B3"] and v["grid"][1][2] == {"up": False, "back": "B", "c": "Bj"}
    assert s.view(0)["grid"][1][2] == {"up": False, "back": "B"}  # Red sees only the back
    assert v["phase"] == "after" and "=B3P" not in s.legal_actions(1)
    with pytest.raises(IllegalAction):
        s.apply(1, "=B3P")
    # Power is spent for this turn: the next turn it is ready again.
    play(s, "end")
    assert s.view(1)["influence"][1] == [{"id": "PR", "used": False}]


def test_x2_power_used_once_per_turn_even_with_another_number():
    s = x2()
    play(s, "a2")  # kR1: no hand card is 1, and Power only raises
    assert s.legal_actions(1)[:1] == ["take"]
    with pytest.raises(IllegalAction, match="does not match"):
        s.apply(1, "=B3P")


# -- X3: ② and a sprung trap ---------------------------------------------------------------
def x3(active):
    row2 = {"a2": "kR1", "b2": down("R4", 0), "c2": down("Bj", 1), "d2": "kY5",
            "e2": up("kG2")}
    return position(active=active, grid=grid({**row2, "a1": "kB3", "a3": "kY1"}),
                    hands=[["R2", "R6"], ["B1"], ["G1"]])


def test_x3_another_colours_jester_turns_up_its_row_and_ends_the_action():
    s = x3(0)
    before = s.view(0)
    play(s, "c2")
    v = s.view(0)
    assert v["phase"] == "after" and v["hand"] == before["hand"]
    assert v["acquired"] == before["acquired"]
    assert [c["up"] for c in v["grid"][1]] == [True, True, True, True, True]
    assert v["grid"][1][0] == {"up": True, "c": "kR1"}
    assert v["grid"][0][0]["up"] is False and v["grid"][2][0]["up"] is False
    trap, jester = s.events(2)[-2:]
    assert trap == {"t": "trap", "p": 0, "cell": "c2", "c": "Bj", "owner": 1, "own": False}
    assert jester == {"t": "jester", "p": 0, "cell": "c2", "cells": ["a2", "b2", "d2"],
                      "cards": ["kR1", "R4", "kY5"]}
    assert s.legal_actions(0) == ["end"]
    play(s, "end")  # Blue's turn: the Jester can never be chosen again
    assert "c2" not in s.legal_actions(1) and "b2" in s.legal_actions(1)


def test_x3_own_jester_does_nothing_but_keeps_the_cell():
    s = x3(1)
    play(s, "c2")
    v = s.view(None)
    assert [c["up"] for c in v["grid"][1]] == [False, False, True, False, True]
    assert s.events(None)[-1] == {"t": "trap", "p": 1, "cell": "c2", "c": "Bj", "owner": 1,
                                  "own": True}
    assert v["phase"] == "after" and s.view(1)["hand"] == ["B1"]
    play(s, "end")
    assert "c2" not in s.legal_actions(2)
    # Blue keeps the cell for the row count: Red 1, Blue 1 in row 2.
    s = scored(last_turn(grid=grid({"c2": up("Bj"), "b2": "R4", "a2": "B1"})))
    assert s.view(None)["final"]["rows"][1] == "B"


# -- X4: row majority ----------------------------------------------------------------------
def test_x4_row_majorities_count_electors_face_up_or_down_never_kingdom_cards():
    g = grid({"a1": "kY2", "b1": down("B5", 1), "c1": up("Bj"), "d1": down("R1", 0),
              "e1": up("kR3"),
              "a3": "B2", "b3": "R6", "c3": down("Rb", 0), "d3": "B7", "e3": "kG1",
              "a4": up("kB4"), "b4": up("kB5")})
    s = scored(last_turn(grid=g))
    rows = [e for e in s.events(None) if e["t"] == "row"]
    assert rows[0] == {"t": "row", "row": 1, "colour": "B", "counts": {"R": 1, "B": 2}}
    assert rows[1] == {"t": "row", "row": 2, "colour": None, "counts": {}}
    assert rows[2] == {"t": "row", "row": 3, "colour": None, "counts": {"R": 2, "B": 2}}
    assert rows[3] == {"t": "row", "row": 4, "colour": None, "counts": {}}
    v = s.view(None)
    assert v["cubes"] == {"R": 0, "B": 1, "G": 0, "Y": 0} and v["supply"] == 22
    assert v["final"]["rows"] == ["B", None, None, None]


# -- X5: buying an influence card ----------------------------------------------------------
def x5():
    return position(active=2, market=["DR", "H1", "PG"], influence_deck=["MY", "XB"],
                    acquired=[[], [], ["G1", "R2", "R5", "kY4"]], hands=[[], [], ["G3"]],
                    grid=grid({"a1": "kR1"}))


def test_x5_a_purchase_pays_with_acquired_cards_then_places_a_cube():
    s = x5()
    legal = s.legal_actions(2)
    assert "$DR:R2,R5,kY4" in legal and "$DR:G1,R2,R5" in legal
    assert "$PG:G1,R2" in legal and "$H1:R2,R5" in legal
    assert not any(a.startswith("$DR:") and a.count("R") < 2 for a in legal)
    play(s, "$DR:R2,R5,kY4")
    v = s.view(0)
    assert v["phase"] == "cube" and v["acquired"][2] == ["G1"]
    assert v["market"] == ["XB", "H1", "PG"] and v["influence_deck"] == 1
    assert s.legal_actions(2) == ["c:R", "c:B", "c:G", "c:Y"]
    play(s, "c:G")
    v = s.view(0)
    assert v["cubes"]["G"] == 1 and v["supply"] == 22 and v["bought"] is True
    assert v["phase"] == "turn" and v["influence"][2] == [{"id": "DR", "used": False}]
    assert [e["t"] for e in s.events(0)[-2:]] == ["buy", "cube"]
    assert s.events(0)[-2]["paid"] == ["R2", "R5", "kY4"] and s.events(0)[-2]["refill"] == "XB"
    assert not any(a.startswith("$") for a in s.legal_actions(2))
    with pytest.raises(IllegalAction, match="already bought"):
        s.apply(2, "$H1:G1,G1")


def test_a_purchase_between_the_flip_and_the_match_is_usable_at_once():
    s = position(active=1, grid=grid({"a1": "kR4"}), hands=[[], ["B3"], []],
                 acquired=[[], ["G1", "R2"], []], market=["PR"], influence_deck=[])
    play(s, "a1")
    assert s.legal_actions(1)[:1] == ["take"]
    play(s, "$PR:G1,R2")
    assert s.view(None)["market"] == [] and s.events(None)[-1]["refill"] is None
    play(s, "c:R")
    assert s.view(None)["phase"] == "number" and "=B3P" in s.legal_actions(1)
    play(s, "=B3P")
    assert s.view(None)["acquired"][1] == ["B3", "kR4"]


# -- X6: final scoring -----------------------------------------------------------------------
def x6(p1_influence=("MB",)):
    return last_turn(cubes={"R": 6, "B": 5, "G": 4, "Y": 3},
                     hands=[[], ["B4", "B4", "B6", "Bb"], []],
                     acquired=[["B2", "R5"], ["B1", "G7", "R3", "R5", "kY1"], []],
                     influence=[["PR"], list(p1_influence), []])


def test_x6_pairs_then_ranks_then_scores_with_a_shared_place():
    s = x6()
    play(s, "end")
    assert s.view(1)["phase"] == "pairs" and s.to_move() == [1]
    assert s.legal_actions(1) == ["pr:B4,B4", "done"]
    play(s, "pr:B4,B4")
    assert s.view(None)["phase"] == "pairs" and s.legal_actions(1) == ["done"]
    play(s, "done")
    v = s.view(None)
    assert v["phase"] == "over"
    assert v["acquired"][1] == ["B1", "B4", "B4", "G7", "R3", "R5", "kY1"]
    assert v["final"]["ranks"] == {"R": 1, "B": 2, "G": 3, "Y": 4}
    assert v["final"]["scores"][1] == {"rank1": 8, "rank2": 3, "rank3": 0, "rank4": -1,
                                       "manor": 2, "domain": 0, "hand": -6, "total": 6}
    assert v["final"]["scores"][0]["total"] == 6  # Red: R5 + B2 = 5 + 1, one influence card
    assert v["final"]["places"] == [1, 1, 3]
    assert s.outcome() == {"winners": [0, 1], "ranks": [1, 1, 3], "scores": [6, 6, 0],
                           "reason": "score"}
    assert kinds(s)[-10:] == ["pairs", "row", "row", "row", "row", "rank", "score", "score",
                              "score", "over"]
    assert kinds(s)[-1] == "over" and s.events(None)[-1]["places"] == [1, 1, 3]


def test_x6_an_unused_change_of_heart_at_scoring():
    s = x6(("MB", "H2"))
    play(s, "end", "pr:B4,B4", "done")
    v = s.view(1)
    assert v["phase"] == "hearts" and v["final"] == {"rows": [None] * 4,
                                                      "ranks": {"R": 1, "B": 2, "G": 3, "Y": 4}}
    assert "hG7>R" in s.legal_actions(1) and "done" in s.legal_actions(1)
    play(s, "hG7>R")
    v = s.view(None)
    assert v["final"]["scores"][1]["total"] == 13
    assert v["acquired"][1][3] == "G7>R"
    assert v["influence"][1][1] == {"id": "H2", "used": True, "spent": True}
    # More influence cards break the tie now: Blue is alone in first place.
    assert v["final"]["places"] == [2, 1, 3]


def test_x6_pairs_may_be_kept_and_three_of_a_kind_gives_one_pair():
    s = last_turn(hands=[[], ["B4", "B4", "kR4", "B6"], []])
    play(s, "end")
    assert s.legal_actions(1) == ["pr:B4,B4", "pr:B4,kR4", "done"]
    play(s, "pr:B4,kR4")  # one pair: the leftover B4 has no partner
    assert s.legal_actions(1) == ["done"]
    play(s, "done")
    assert s.is_over() and s.view(None)["hand_counts"][1] == 2
    assert s.view(None)["final"]["scores"][1]["hand"] == -10
    s = last_turn(hands=[[], ["B4", "B4"], []])
    play(s, "end", "done")
    assert s.view(None)["final"]["scores"][1]["hand"] == -8
    assert [e for e in s.events(None) if e["t"] == "pairs"] == [
        {"t": "pairs", "p": 0, "cards": []}, {"t": "pairs", "p": 1, "cards": []},
        {"t": "pairs", "p": 2, "cards": []}]


# -- X7: the end trigger ---------------------------------------------------------------------
def x7():
    return position(start=0, active=1, grid=grid({"a1": "kR1", "b1": "kR2", "c1": "kB3"}),
                    hands=[["R6"], ["B5"], ["G7"]],
                    decks=[["R1", "R2", "R3"], ["B1", "B2"], ["G1"]])


def test_x7_the_player_who_emptied_the_deck_first_takes_one_more_turn():
    s = x7()
    play(s, "draw")
    assert s.events(None)[-1] == {"t": "trigger", "p": 1, "last_turn": 1, "safety": False}
    assert s.view(None)["trigger"] == {"p": 1, "last_turn": 1, "safety": False, "last": False}
    play(s, "end")
    play(s, "draw")  # Green empties its deck in the last round: the end does not move
    assert kinds(s)[-1] == "draw" and s.view(None)["trigger"]["p"] == 1
    play(s, "end", "draw", "end")
    v = s.view(1)
    assert v["active"] == 1 and v["trigger"]["last"] is True
    assert "draw" not in s.legal_actions(1) and "a1" in s.legal_actions(1)  # deck empty: A
    play(s, "a1", "take", "v:B1", "end")
    assert s.view(None)["phase"] in ("pairs", "over")
    assert [e["p"] for e in s.events(None) if e["t"] == "turn"] == [2, 0, 1]


def test_x7_with_an_empty_hand_and_deck_the_last_turn_is_a_pass():
    s = position(active=1, start=0, grid=grid({"a1": "kR1"}), hands=[["R1"], [], ["G1"]],
                 decks=[["R2"], [], ["G2"]], trigger={"p": 1, "last_turn": 1, "last": True})
    assert s.legal_actions(1) == ["pass"]
    play(s, "pass")
    assert kinds(s)[-1] == "pass" and s.legal_actions(1) == ["end"]
    play(s, "end")
    assert s.view(None)["phase"] in ("pairs", "over")


def test_the_trigger_by_backroom_scheming_and_by_the_deck_top_placement():
    s = position(active=0, grid=grid({"a1": down("Bs", 1)}), hands=[["R3"], [], []],
                 decks=[["R1", "R2"], [], []])
    play(s, "a1")
    assert kinds(s)[-3:] == ["trap", "scheme", "trigger"]
    assert s.events(None)[-2] == {"t": "scheme", "p": 0, "n": 2}
    v = s.view(None)
    assert v["deck_counts"][0] == 0 and v["burnt"] == [2, 0, 0]
    s = position(active=0, grid=grid({"a1": "kB3"}), hands=[["R3"], [], []],
                 decks=[["R5"], [], []])
    play(s, "a1", "=R3")
    assert kinds(s)[-2:] == ["decktop", "trigger"]
    e = s.events(1)[-2]
    assert e == {"t": "decktop", "p": 0, "cell": "a1", "back": "R"}
    assert s.events(0)[-2]["c"] == "R5"
    assert s.view(0)["grid"][0][0] == {"up": False, "back": "R", "c": "R5"}
    # Hand and deck both empty: the cell stays empty.
    s = position(active=0, grid=grid({"a1": "kB3"}), hands=[["R3"], [], []])
    play(s, "a1", "=R3")
    assert s.view(None)["grid"][0][0] is None and kinds(s)[-1] == "match"


def test_the_safety_valve_fires_after_the_last_round():
    opts = {"round_limit": 10}
    s = position(opts, start=1, active=0, round=10, phase="after", hands=[["R1"], ["B1"],
                                                                          ["G1"]],
                 decks=[["R2"], ["B2"], ["G2"]], grid=grid({"a1": "kR1"}))
    play(s, "end")
    assert s.events(None)[-2] == {"t": "trigger", "p": 0, "last_turn": 0, "safety": True}
    assert s.view(None)["round"] == 11
    for _ in range(2):
        play(s, "draw", "end")
    assert s.view(None)["active"] == 0 and not s.is_over()
    play(s, "draw", "end")
    assert s.view(None)["phase"] in ("pairs", "over")
    # Earlier rounds do not fire it.
    s = position(opts, start=1, active=0, round=9, phase="after", hands=[["R1"], ["B1"],
                                                                         ["G1"]],
                 decks=[["R2"], ["B2"], ["G2"]])
    play(s, "end")
    assert s.view(None)["trigger"] is None


def test_a_game_of_drawing_only_when_forced_ends_by_the_round_limit():
    s = GAME.new_game(seed=3, players=2, options={"round_limit": 10})
    while not s.is_over():
        p = s.to_move()[0]
        legal = s.legal_actions(p)
        if s.view(None)["phase"] == "turn" and legal[0] != "draw":
            play(s, legal[0])
        else:
            play(s, "take" if "take" in legal else "done" if "done" in legal else legal[0])
    trig = next(e for e in s.events(None) if e["t"] == "trigger")
    assert trig["safety"] is True and s.view(None)["round"] == 11
    turns = [e for e in s.events(None) if e["t"] == "turn"]
    assert turns[-1]["round"] == 11 and turns[-1]["p"] == (s.view(None)["start"] - 1) % 2


# -- the specials ------------------------------------------------------------------------------
def test_backroom_scheming_removes_the_flippers_top_cards_unseen():
    s = position(active=0, grid=grid({"a1": down("Bs", 1)}), hands=[["R3"], [], []],
                 decks=[["R1", "R2", "R4"], [], []])
    play(s, "a1")
    assert s.view(0)["deck_counts"][0] == 1 and s.view(0)["burnt"][0] == 2
    assert s.view(0)["trigger"] is None
    play(s, "end", "pass", "end", "pass", "end", "draw")
    assert s.view(0)["hand"] == ["R1", "R3"]  # the bottom card was left: R4 and R2 are gone
    # An empty deck: nothing to remove.
    s = position(active=0, grid=grid({"a1": down("Bs", 1)}), hands=[["R3"], [], []])
    play(s, "a1")
    assert s.events(None)[-1] == {"t": "scheme", "p": 0, "n": 0}
    assert s.view(None)["trigger"] is None


def test_bribery_the_owner_takes_an_acquired_card_and_a_recolour_lapses():
    s = position(active=0, grid=grid({"a1": down("Bb", 1)}), hands=[["R3"], ["B1"], []],
                 acquired=[["G7>B", "G7", "kY2"], [], []])
    play(s, "a1")
    v = s.view(2)
    assert v["phase"] == "bribe" and v["bribe"] == {"owner": 1, "from": 0}
    assert s.to_move() == [1] and v["active"] == 0
    assert s.legal_actions(1) == ["t:G7", "t:kY2"] and s.legal_actions(0) == []
    play(s, "t:G7")
    v = s.view(None)
    assert v["acquired"] == [["G7>B", "kY2"], ["G7"], []]  # Red keeps the recoloured copy
    assert s.events(None)[-1] == {"t": "bribe", "p": 1, "from": 0, "c": "G7"}
    assert s.to_move() == [0] and v["phase"] == "after"
    s = position(active=0, grid=grid({"a1": down("Bb", 1)}), hands=[["R3"], ["B1"], []],
                 acquired=[["G7>B"], [], []])
    play(s, "a1", "t:G7")
    assert s.view(None)["acquired"] == [[], ["G7"], []]  # back to its printed colour


def test_bribery_with_nothing_to_take_and_ones_own_bribery():
    s = position(active=0, grid=grid({"a1": down("Bb", 1)}), hands=[["R3"], [], []])
    play(s, "a1")
    assert s.events(None)[-1] == {"t": "bribe", "p": 1, "from": 0, "c": None}
    assert s.view(None)["phase"] == "after" and s.to_move() == [0]
    s = position(active=1, grid=grid({"a1": down("Bb", 1)}), hands=[[], ["B3"], []],
                 acquired=[[], ["R1"], []])
    play(s, "a1")
    assert kinds(s)[-1] == "trap" and s.view(None)["phase"] == "after"


def test_bribery_owner_takes_a_random_hand_card_hidden_from_the_others():
    opts = {"bribery_mode": "owner_takes_random_hand_card"}
    s = position(opts, active=0, grid=grid({"a1": down("Bb", 1)}),
                 hands=[["R3", "kG2"], ["B1"], []], acquired=[["G7"], [], []])
    play(s, "a1")
    e2, e0, e1 = s.events(2)[-1], s.events(0)[-1], s.events(1)[-1]
    assert e2["t"] == "bribe" and "c" not in e2 and e2["back"] in ("R", "k")
    assert e0 == e1 and e0["c"] in ("R3", "kG2")
    assert s.view(1)["hand"] == sorted(["B1", e0["c"]])
    assert s.view(None)["hand_counts"] == [1, 2, 0]
    assert s.view(None)["acquired"][0] == ["G7"] and s.to_move() == [0]


@pytest.mark.parametrize(("scope", "turned"), [
    ("row", ["a2", "b2", "e2"]), ("column", ["c1", "c3", "c4"]),
    ("adjacent", ["c1", "b2", "c3"])])
def test_jester_scopes(scope, turned):
    kingdom = iter(f"k{c}{v}" for c in "RBGY" for v in range(1, 6))
    cells = {f"{c}{r}": next(kingdom) for r in (1, 2, 3, 4) for c in "abcde"}
    cells["c2"] = down("Bj", 1)
    cells["d2"] = up(cells["d2"])  # already face up: not turned
    s = position({"jester_scope": scope}, active=0, grid=grid(cells), hands=[["R1"], [], []])
    play(s, "c2")
    e = s.events(None)[-1]
    assert e["t"] == "jester" and e["cells"] == turned
    assert e["cards"] == [cells[c] for c in turned]
    assert all(s.view(2)["grid"][int(c[1]) - 1][LETTERS.index(c[0])]["up"] for c in turned)


# -- influence cards ----------------------------------------------------------------------------
def matching(options=None, field="kR4", hand=("B3",), influence=("PR",)):
    s = position(options, active=1, grid=grid({"a1": field}), hands=[[], list(hand), []],
                 influence=[[], list(influence), []])
    play(s, "a1")
    return s


def test_power_and_corruption_and_several_on_one_reveal():
    assert [a for a in matching().legal_actions(1) if a[0] == "="] == ["=B3P"]
    assert [a for a in matching(influence=["XR"], hand=["B5"]).legal_actions(1)
            if a[0] == "="] == ["=B5X"]
    s = matching(field="kR5", influence=["PR", "PB", "XG"])
    assert [a for a in s.legal_actions(1) if a[0] == "="] == ["=B3PP"]
    # Numbers are not clamped; Power with Corruption (no change) is never offered.
    s = matching(field="kR1", hand=["B1"], influence=["PR", "XR"])
    assert [a for a in s.legal_actions(1) if a[0] == "="] == ["=B1"]
    play(s, "=B1")
    assert s.view(None)["influence"][1] == [{"id": "PR", "used": False},
                                            {"id": "XR", "used": False}]
    s = matching(field="kR2", hand=["B7"], influence=[])
    assert [a for a in s.legal_actions(1) if a[0] == "="] == []
    with pytest.raises(IllegalAction, match="no unused Power"):
        s.apply(1, "=B7P")


def test_power_and_corruption_deltas_are_options():
    s = matching({"power_delta": 2}, field="kR5")
    assert "=B3P" in s.legal_actions(1)
    s = matching({"corruption_delta": -2}, field="kR1", influence=["XR"])
    assert "=B3X" in s.legal_actions(1)
    s = matching({"power_delta": 2}, field="kR4", hand=["B3"], influence=["PR", "XR"])
    assert "=B3PX" in s.legal_actions(1)  # +2 −1: only the pair of them reaches 4


@pytest.mark.parametrize(("options", "manor", "domain"), [
    ({}, 2, 3), ({"manor_vp": 3}, 3, 3), ({"domain_vp": 4}, 2, 4)])
def test_manor_and_domain_score_their_points(options, manor, domain):
    s = position(options, active=1, phase="after", influence=[[], ["MR", "MB", "DG"], []],
                 trigger={"p": 1, "last_turn": 1, "last": True})
    scored(s)
    sc = s.view(None)["final"]["scores"][1]
    assert sc["manor"] == 2 * manor and sc["domain"] == domain and sc["total"] == 2 * manor + domain


def test_change_of_heart_during_the_turn_counts_for_payment_and_is_spent():
    s = position(active=1, acquired=[[], ["G7", "kY2"], []], influence=[[], ["H1", "H2"], []],
                 market=["DR"], hands=[[], ["B1"], []], decks=[[], ["B2"], []])
    legal = s.legal_actions(1)
    assert "hG7>R" in legal and "hG7>G" not in legal and not any(a[0] == "$" for a in legal)
    play(s, "hG7>R")
    v = s.view(None)
    assert v["acquired"][1] == ["G7>R", "kY2"]
    assert v["influence"][1][0] == {"id": "H1", "used": True, "spent": True}
    assert s.events(None)[-1] == {"t": "heart", "p": 1, "c": "G7", "as": "R"}
    play(s, "hkY2>R")  # the second Change of Heart in the same turn
    assert s.view(None)["acquired"][1] == ["G7>R", "kY2>R"]
    assert not any(a[0] == "h" for a in s.legal_actions(1))  # both are spent
    assert not any(a[0] == "$" for a in s.legal_actions(1))  # Domain needs three cards


def test_a_change_of_heart_pays_a_colour_mark():
    s = position(active=1, acquired=[[], ["G7", "kY2"], []], influence=[[], ["H1"], []],
                 market=["PR"], hands=[[], ["B1"], []], decks=[[], ["B2"], []])
    assert not any(a.startswith("$PR") for a in s.legal_actions(1))
    play(s, "hG7>R")
    assert s.legal_actions(1)[-1] == "$PR:G7>R,kY2" or "$PR:G7>R,kY2" in s.legal_actions(1)
    play(s, "$PR:G7>R,kY2", "c:B")
    assert s.view(None)["acquired"][1] == [] and s.view(None)["cubes"]["B"] == 1


def test_the_cube_is_skipped_when_the_supply_is_empty():
    s = position(active=1, acquired=[[], ["R1", "kY2"], []], market=["PR"], supply=0,
                 cubes={"R": 23}, hands=[[], ["B1"], []], decks=[[], ["B2"], []])
    play(s, "$PR:R1,kY2")
    assert s.view(None)["phase"] == "turn" and kinds(s)[-1] == "buy"


# -- passing, the turn's choices, refusals ----------------------------------------------------
def test_forced_choices_draw_with_an_empty_hand_a_with_an_empty_deck():
    s = position(active=0, grid=grid({"a1": "kR1"}), hands=[[], [], []],
                 decks=[["R1", "R2"], [], []])
    assert s.legal_actions(0) == ["draw"]
    play(s, "draw")
    assert s.events(0)[-2] == {"t": "draw", "p": 0, "n": 2, "cards": ["R1", "R2"]} or \
        s.events(0)[-2]["cards"] == ["R1", "R2"]
    assert s.events(1)[-2] == {"t": "draw", "p": 0, "n": 2}
    s = position(active=0, grid=grid({"a1": "kR1", "b1": up("Bs")}), hands=[["R1"], [], []])
    assert s.legal_actions(0) == ["a1"]


def test_refusals_say_why_and_change_nothing():
    s = x2()
    before = s.clone()
    for action, words in [("c2x", "not an Electors action"), ("f9", "no cell f9"),
                          ("take", "just chosen"), ("v:B3", "just emptied"),
                          ("$PR:B3", "not in the market"), ("end", "action first"),
                          ("pass", "neither"), ("c:R", "after buying"),
                          ("=B3", "just chosen"), ("pr:B3,B3", "final scoring")]:
        with pytest.raises(IllegalAction, match=words):
            s.apply(1, action)
        assert s == before
    with pytest.raises(IllegalAction, match="not player 1's turn"):
        s.apply(0, "a2")
    s = position(active=0, grid=grid({"a1": "kR1", "b1": up("Bs")}), hands=[["R1"], [], []])
    for action, words in [("b1", "face-up special"), ("c1", "empty"), ("draw", "deck is empty")]:
        with pytest.raises(IllegalAction, match=words):
            s.apply(0, action)
    play(s, "a1", "take")
    with pytest.raises(IllegalAction, match="another card than the Red 1"):
        s.apply(0, "v:kR1")
    assert s.legal_actions(0) == ["v:R1"]


def test_after_a_take_another_copy_of_the_taken_card_may_go_back():
    s = position(active=1, grid=grid({"a1": up("B3")}), hands=[[], ["B3", "B5"], []])
    play(s, "a1", "take")
    assert s.view(1)["pending"] == {"cell": "a1", "c": None, "taken": "B3"}
    assert s.legal_actions(1) == ["v:B3", "v:B5"]


# -- hidden information ----------------------------------------------------------------------
def test_each_seat_sees_its_own_colour_and_what_it_placed():
    g = grid({"a1": down("R5", 0), "b1": down("B2", 0), "c1": down("kG3", 2), "d1": "kY1",
              "e1": down("G4", 2)})
    s = position(grid=g)
    faces = {seat: [c.get("c") for c in s.view(seat)["grid"][0]] for seat in (0, 1, 2, None)}
    assert faces[0] == ["R5", "B2", None, None, None]  # own colour; placed by memory
    assert faces[1] == [None, "B2", None, None, None]  # Blue's own card placed by Red
    assert faces[2] == [None, None, "kG3", None, "G4"]
    assert faces[None] == [None] * 5
    assert [c["back"] for c in s.view(1)["grid"][0]] == ["R", "B", "k", "k", "G"]
    strict = position({"placer_memory": False}, grid=g)
    assert [c.get("c") for c in strict.view(0)["grid"][0]] == ["R5", None, None, None, None]
    assert [c.get("c") for c in strict.view(2)["grid"][0]] == [None, None, None, None, "G4"]
    plain = position({"card_backs": "plain"}, grid=g)
    assert [c["back"] for c in plain.view(1)["grid"][0]] == ["?"] * 5
    assert [c.get("c") for c in plain.view(1)["grid"][0]] == [None, "B2", None, None, None]


def test_a_put_back_is_seen_by_its_placer_and_the_cards_colour_only():
    s = position(active=0, grid=grid({"a1": up("B4")}), hands=[["B4", "R2"], ["B1"], ["G1"]])
    play(s, "a1", "=B4")
    s = position(active=0, grid=grid({"a1": "kY4"}), hands=[["kY3", "B2", "R3"], [], []])
    play(s, "a1", "take", "v:B2")
    e = {seat: s.events(seat)[-1] for seat in (0, 1, 2, None)}
    assert e[0]["c"] == e[1]["c"] == "B2" and "c" not in e[2] and "c" not in e[None]
    assert e[2] == {"t": "put", "p": 0, "cell": "a1", "back": "B"}


def test_views_hide_hands_and_decks_and_the_twin_shows_why():
    s = GAME.new_game(seed=4, players=4)
    for seat in range(4):
        v = s.view(seat)
        assert len(v["hand"]) == 5 and v["hand_counts"] == [5, 5, 5, 5]
        assert all(c["back"] == "k" and "c" not in c for row in v["grid"] for c in row)
    assert s.view(None)["hand"] is None
    for viewer in (None, 0, 1, 2, 3):
        twin = s.hidden_twin(viewer)
        assert twin.view(viewer) == s.view(viewer) and twin != s


def test_the_start_player_comes_from_the_seed():
    starts = {GAME.new_game(seed=k, players=4).view(None)["start"] for k in range(30)}
    assert starts == {0, 1, 2, 3}
    s = GAME.new_game(seed=9, players=3)
    v = s.view(None)
    assert s.to_move() == [v["start"]] and v["active"] == v["start"]
    assert kinds(s)[:5] == ["start", "deal", "deal", "deal", "turn"]


# -- player counts and options --------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_counts_use_all_four_candidates(players):
    s = GAME.new_game(seed=1, players=players)
    v = s.view(0)
    assert v["colours"] == list("RBGY"[:players]) and len(v["cubes"]) == 4
    assert v["deck_counts"] == [12] * players
    assert sum(len(r) for r in v["grid"]) == 20 and v["supply"] == 23
    assert len(v["market"]) == 3 and v["influence_deck"] == 16


def test_the_two_player_variant_plays_two_colours_each():
    s = GAME.new_game(seed=1, players=2, options={"two_player_variant": True})
    v = s.view(0)
    assert v["colours"] == ["RG", "BY"] and v["deck_counts"] == [29, 29]
    assert {c[0] for c in v["hand"]} <= {"R", "G"}
    g = grid({"a1": down("G3", 1), "b1": down("Y2", 0)})
    s = position({"two_player_variant": True}, players=2, grid=g, hands=[["G1"], ["B1"]],
                 active=1)
    assert [c.get("c") for c in s.view(0)["grid"][0][:2]] == ["G3", "Y2"]
    assert [c.get("c") for c in s.view(1)["grid"][0][:2]] == ["G3", "Y2"]
    s = position({"two_player_variant": True}, players=2, active=1,
                 grid=grid({"a1": down("Yj", 1), "b1": "kR1"}), hands=[["G1"], ["B1"]])
    play(s, "a1")
    assert s.events(None)[-1]["own"] is True
    # With 3 players the variant changes nothing.
    assert GAME.new_game(seed=1, players=3, options={"two_player_variant": True}).view(
        None)["colours"] == ["R", "B", "G"]


@pytest.mark.parametrize(("option", "value", "check"), [
    ("grid_cols", 4, lambda v: [len(r) for r in v["grid"]] == [4] * 4),
    ("grid_rows", 3, lambda v: len(v["grid"]) == 3),
    ("hand_start", 4, lambda v: v["hand_counts"] == [4, 4, 4] and v["deck_counts"][0] == 13),
    ("market_size", 4, lambda v: len(v["market"]) == 4 and v["influence_deck"] == 15),
    ("cube_supply", 15, lambda v: v["supply"] == 15),
    ("elector_numbers", 6, lambda v: v["deck_counts"][0] == 10),
    ("specials_per_colour", 2, lambda v: v["deck_counts"][0] == 15),
    ("influence_set", "21", lambda v: len(v["market"]) + v["influence_deck"] == 21),
    ("card_backs", "plain", lambda v: {c["back"] for r in v["grid"] for c in r} == {"?"}),
])
def test_option_values_change_the_set_up(option, value, check):
    v = GAME.new_game(seed=2, players=3, options={option: value}).view(0)
    assert v["options"][option] == value
    assert check(v)


def test_kingdom_values_beyond_the_grid_stay_in_the_box():
    s = GAME.new_game(seed=2, players=3, options={"kingdom_values": 6})
    assert len(s.box) == 4 and all(c[0] == "k" for c in s.box)
    grid_cards = [c[0] for c in s.grid]
    assert len(set(grid_cards + s.box)) == 24


@pytest.mark.parametrize(("draw", "n"), [(2, 2), (3, 3)])
def test_draw_b_and_scheming_burn_options(draw, n):
    s = position({"draw_B": draw}, active=0, hands=[[], [], []],
                 decks=[["R1", "R2", "R3", "R4", "R5"], [], []])
    play(s, "draw")
    assert s.view(0)["hand_counts"][0] == n
    s = position({"scheming_burn": draw}, active=0, grid=grid({"a1": down("Bs", 1)}),
                 hands=[["R7"], [], []], decks=[["R1", "R2", "R3", "R4", "R5"], [], []])
    play(s, "a1")
    assert s.view(0)["deck_counts"][0] == 5 - draw


def test_the_21_card_set_has_a_manor_of_any_colour_and_row_cubes_may_be_lost():
    assert influence_set("21")[-2:] == ["M?", "H4"]
    s = position({"influence_set": "21"}, active=1, acquired=[[], ["R1", "kY2"], []],
                 market=["M?"], hands=[[], ["B1"], []], decks=[[], ["B2"], []])
    assert s.legal_actions(1)[-1] == "$M?:R1,kY2"
    s = scored(last_turn(options={"influence_set": "21"}, supply=0, cubes={"R": 23},
                         grid=grid({"a1": "B1"})))
    row1 = next(e for e in s.events(None) if e["t"] == "row")
    assert row1 == {"t": "row", "row": 1, "colour": None, "counts": {"B": 1}}  # no cube left
    assert s.view(None)["cubes"]["B"] == 0 and s.view(None)["final"]["rows"][0] is None


# -- positions by hand, determinisation ---------------------------------------------------------
def test_from_position_checks_what_it_is_given():
    with pytest.raises(ValueError, match="not a card code"):
        position(hands=[["Q9"], [], []])
    with pytest.raises(ValueError, match="too many"):
        position(hands=[["R1", "R1", "R1"], [], []])
    with pytest.raises(ValueError, match="not in this game"):
        position(hands=[["Y1"], [], []])
    with pytest.raises(ValueError, match="not one of its own"):
        position(decks=[["B1"], [], []])
    with pytest.raises(ValueError, match="rows"):
        position(grid=[[None] * 5])
    with pytest.raises(ValueError, match="face up in the pending"):
        position(phase="number", pending={"cell": "a1", "c": "kR1"}, grid=grid({"a1": "kR1"}))
    s = position(phase="number", pending={"cell": "a1", "c": "kR1"},
                 grid=grid({"a1": up("kR1")}), hands=[["R1"], [], []])
    assert s.legal_actions(0) == ["=R1", "take"]
    # A view round-trips: the same view for its seat.
    real = GAME.new_game(seed=5, players=3)
    for _ in range(12):
        p = real.to_move()[0]
        real.apply(p, real.legal_actions(p)[len(real.legal_actions(p)) // 2])
    view = real.view(1)
    again = GAME.from_position(dict(view, turn_no=1))
    assert again.view(1)["grid"] == view["grid"] and again.view(1)["hand"] == view["hand"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_the_seats_view_and_samples_the_rest(players):
    opts = {"card_backs": "plain"} if players == 3 else {}
    for seed in range(4):
        s = GAME.new_game(seed=seed, players=players, options=opts)
        rng = random.Random(seed)
        steps = 0
        while not s.is_over():
            if steps % 7 == 0:
                for seat in range(players):
                    view = s.view(seat)
                    world = GAME.determinize(seat, view, s.events(seat), Rng(steps))
                    assert world.view(seat) == view
                    assert world.legal_actions(seat) == s.legal_actions(seat)
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
            steps += 1


def test_known_in_hand_follows_a_taken_card_until_it_may_have_left():
    events = [{"t": "take", "p": 1, "cell": "a1", "c": "kR3"},
              {"t": "put", "p": 1, "cell": "a1", "back": "B"}]
    assert known_in_hand(events, 1) == ["kR3"]
    assert known_in_hand([*events, {"t": "put", "p": 1, "cell": "a1", "back": "k"}], 1) == []
    assert known_in_hand([*events, {"t": "match", "p": 1, "cell": "b1", "c": "B3",
                                    "with": "kR3", "mods": ""}], 1) == []


def test_the_fast_path_plays_like_the_public_one_and_is_quiet():
    s = GAME.new_game(seed=8, players=4)
    fast = s.clone_fast()
    rng = random.Random(1)
    while not s.is_over():
        p = s.to_move()[0]
        a = rng.choice(s.legal_actions(p))
        s.apply(p, a)
        fast.apply_fast(p, a)
    assert fast.outcome() == s.outcome() and fast.log == []


def test_the_fast_path_counts_and_picks_payments_as_they_are_listed():
    """Search's playouts count the payments (_payment_counts) and find the drawn one
    (_payment) without listing them: the same numbers and the same payments, in order,
    for acquired piles with copies (up to three of a code) and recoloured cards."""
    rng = random.Random(3)
    cards = ["R1", "R1", "R1", "R2", "B3", "B3", "G4", "Y5", "kR2", "kB1", "G7>R", "G7>R",
             "R3>B"]
    for _ in range(300):
        acquired = tuple(sorted(rng.sample(cards, rng.randint(0, 9))))
        counts, distinct = _payment_counts(acquired)
        assert distinct == len(set(acquired))
        for i in influence_set("21"):
            cost = _COSTS[i]
            listed = _payments(cost, acquired)
            assert counts[_COST_SLOT[i]] == len(listed)
            assert [_payment(cost, acquired, j) for j in range(len(listed))] == list(listed)


def test_sheet_groups_and_forced_secrets():
    s = x2()
    assert s.sheet_group() == "Round 1"
    play(s, "c2")
    assert GAME.forced_is_secret(1, s.view(1)) is True
    s = scored(last_turn())
    assert s.sheet_group() == "Final scoring"


def test_ones_own_scheming_does_nothing():
    s = position(active=1, grid=grid({"a1": down("Bs", 1)}), hands=[[], ["B3"], []],
                 decks=[[], ["B1", "B2"], []])
    play(s, "a1")
    assert s.events(None)[-1]["t"] == "trap" and s.view(None)["deck_counts"][1] == 2


def test_the_tables_influence_costs_and_names_agree_with_the_engine():
    from pgui import electors_ui as ui

    from pygames.electors import influence_cost

    for ident in influence_set("21"):
        assert ui.influence_cost(ident) == list(influence_cost(ident)), ident
        assert ui.influence_kind(ident) is not None
    assert ui.influence_name("M?", "en") == "Manor (any)"


def test_a_search_bot_plays_a_whole_game_from_its_own_view():
    from pygames.bots import make_bot

    s = GAME.new_game(seed=2, players=3)
    bots = [make_bot(GAME, seat, "easy" if seat == 0 else "random", seed=seat)
            for seat in range(3)]
    while not s.is_over():
        p = s.to_move()[0]
        s.apply(p, bots[p].choose(s.view(p), s.legal_actions(p), s.events(p)))
    assert s.outcome()["reason"] == "score"
