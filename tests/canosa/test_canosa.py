"""Canosa — rule tests against ``shared/rules/canosa.md``.

The worked examples of §9, every action at edges and corners, the §6 scoring table row by
row, the decisions N6, N7, N12, N13, N15, N16 and N17, the options, the layouts as data,
the notation and refused actions — all through the public protocol (``apply`` /
``legal_actions`` / ``view`` / ``events``), with positions built by
:meth:`CanosaGame.from_position` so they stay valid whatever the default layout is.

The engine writes each rule once (``CanosaState._play``, ``_legal``); the tests at the end
check it against a plain reading of §5 and N6 off the view (``_reference_legal``), and
search's fast path (``clone_fast`` / ``apply_fast`` / ``random_action_fast`` /
``playout_fast``) against the public protocol, from ordinary and odd positions.

Squares are written ``[row, col]`` as in the spec; actions use the engine's notation
(column letter + row number: ``[0, 0]`` is ``a1``, ``[3, 4]`` is ``e4``).
"""

from __future__ import annotations

import json
import random
import re

import pytest
from helpers.protocol import public

import pygames
from pygames import IllegalAction
from pygames.canosa import (
    LAYOUTS,
    CanosaGame,
    load_layouts,
    parse_layouts,
    parse_square,
    square_name,
)

GAME = pygames.get_game("canosa")
GOLD, SILVER = 0, 1


# -- helpers ---------------------------------------------------------------------------------
def sq(r, c):
    return square_name(r, c)


def pos(gold, silver, sailors, *, to_move=GOLD, actions_left=2, scores=(0, 0), turn=5,
        **extra):
    """A position: sirens as ``([r, c], rings)``, sailors as ``([r, c], [rings])``."""
    return {"sirens": [{"at": list(gold[0]), "rings": gold[1]},
                       {"at": list(silver[0]), "rings": silver[1]}],
            "sailors": [{"at": list(at), "rings": list(rings)} for at, rings in sailors],
            "to_move": [to_move], "actions_left": actions_left, "scores": list(scores),
            "turn": turn, **extra}


def make(gold, silver, sailors, options=None, **kw):
    return GAME.from_position(pos(gold, silver, sailors, **kw), options=options)


def sailor_at(state, r, c):
    for s in state.view(None)["sailors"]:
        if s["at"] == [r, c]:
            return s["rings"]
    return None


def refuse(state, player, action, match=None):
    """``action`` raises IllegalAction (with ``match`` in its words) and changes nothing."""
    before = state.clone()
    assert action not in state.legal_actions(player)
    with pytest.raises(IllegalAction, match=match):
        state.apply(player, action)
    assert state == before


# -- §9 worked examples ----------------------------------------------------------------------
def test_9_1_control_and_direction():
    sailors = [([3, 3], [SILVER, GOLD])]
    state = make(([0, 5], 2), ([4, 4], 1), sailors)
    gold = state.legal_actions(GOLD)
    assert "d4-d3" in gold and "d4-c4" in gold        # (2,3) and (3,2): towards (0,0)
    assert "d4-d5" not in gold and "d4-e4" not in gold
    refuse(state, GOLD, "d4-d5", "towards your island")
    # Silver cannot move it; she may give a ring and then control it.
    state = make(([0, 5], 2), ([4, 4], 1), sailors, to_move=SILVER)
    assert not [a for a in state.legal_actions(SILVER) if a.startswith("d4-")]
    refuse(state, SILVER, "d4-e4", "controlled by Gold")
    state.apply(SILVER, "+d4")
    assert sailor_at(state, 3, 3) == [SILVER, GOLD, SILVER]
    assert state.view(None)["sirens"][SILVER]["rings"] == 0
    silver = state.legal_actions(SILVER)
    assert "d4-d5" in silver and "d4-e4" in silver     # (4,3), (3,4): towards (5,5)
    assert "d4-d3" not in silver and "d4-c4" not in silver


def test_9_2_scoring_three_rings():
    state = make(([2, 2], 1), ([5, 5], 3), [([0, 1], [GOLD, SILVER, GOLD])])
    out_before = state.view(None)["rings_out"]
    state.apply(GOLD, "b1-a1")
    v = state.view(None)
    assert v["scores"] == [1, 0]
    assert v["sailors"] == []
    assert v["sirens"][GOLD]["rings"] == 2 and v["sirens"][SILVER]["rings"] == 3
    assert v["rings_out"] == [out_before[0] + 1, out_before[1] + 1]  # 2 rings gone for good
    assert state.events(None)[-2:] == [
        {"t": "sailor", "p": GOLD, "from": [0, 1], "to": [0, 0]},
        {"t": "score", "p": GOLD, "at": [0, 0], "rings": [0, 1, 0], "returned": [1, 0],
         "lost": [1, 1]}]
    assert state.to_move() == [GOLD] and v["actions_left"] == 1


def test_9_3_attack_and_the_swap_placement():
    state = make(([3, 3], 3), ([3, 4], 2), [([2, 5], [GOLD])], actions_left=1)
    assert "Xe4" in state.legal_actions(GOLD)
    state.apply(GOLD, "Xe4")
    v = state.view(None)
    assert v["placing"]["at"] == [3, 4] and v["placing"]["siren"] == SILVER
    assert v["sirens"][GOLD]["at"] == v["sirens"][SILVER]["at"] == [3, 4]
    legal = state.legal_actions(GOLD)
    assert set(legal) == {"P" + sq(r, c) for r, c in
                          [[2, 3], [2, 4], [3, 3], [3, 5], [4, 3], [4, 4], [4, 5]]}
    assert "Pf3" not in legal                            # (2,5) holds a sailor
    assert [r for r in v["placing"]["squares"]] == [
        [int(a[2:]) - 1, ord(a[1]) - 97] for a in legal]
    refuse(state, GOLD, "Sd3", "place the defeated Silver siren")
    state.apply(GOLD, "Pd4")                             # N12: onto the square just left
    v = state.view(None)
    assert v["sirens"][GOLD]["at"] == [3, 4] and v["sirens"][SILVER]["at"] == [3, 3]
    assert [s["rings"] for s in v["sirens"]] == [3, 2]  # ring counts do not change
    assert state.to_move() == [SILVER] and v["placing"] is None
    assert [e["t"] for e in state.events(None)] == ["attack", "place", "turn"]
    assert state.events(None)[1] == {"t": "place", "p": GOLD, "siren": SILVER, "to": [3, 3]}
    assert v["last_turn"] == [
        {"p": GOLD, "action": "Xe4", "from": [3, 3], "to": [3, 4]},
        {"p": GOLD, "action": "Pd4", "from": [3, 4], "to": [3, 3]}]
    # The empty (2,5): placement there is offered.
    state = make(([3, 3], 3), ([3, 4], 2), [], actions_left=1)
    state.apply(GOLD, "Xe4")
    assert "Pf3" in state.legal_actions(GOLD)
    # Equal rings: refused.
    state = make(([3, 3], 2), ([3, 4], 2), [])
    refuse(state, GOLD, "Xe4", "2 rings, the same as yours: an attack needs strictly more")
    state = make(([3, 3], 1), ([3, 4], 2), [])
    refuse(state, GOLD, "Xe4", "strictly more")


def test_9_4_capacity():
    state = make(([2, 2], 3), ([5, 5], 2), [([2, 3], [GOLD]), ([1, 1], [SILVER, GOLD, GOLD])])
    legal = state.legal_actions(GOLD)
    assert "-d3" not in legal and "-b2" not in legal
    refuse(state, GOLD, "-d3", "a siren holds at most 3 rings")
    assert "+d3" in legal
    refuse(state, GOLD, "+b2", "a sailor holds at most 3 rings")
    state = make(([2, 2], 0), ([5, 5], 2), [([2, 3], [SILVER])])
    legal = state.legal_actions(GOLD)
    assert not [a for a in legal if a[0] in "+-X"]
    assert "Sc2" in legal                                # a ringless siren still moves
    refuse(state, GOLD, "+d3", "no ring to give")
    refuse(state, GOLD, "-d3", "never take the opponent's ring")


def test_9_5_first_turn_and_no_return():
    state = GAME.new_game(seed=1)
    assert state.to_move() == [GOLD] and state.view(None)["actions_left"] == 1
    state.apply(GOLD, "Sb2")                             # (0,0) -> (1,1)
    assert state.to_move() == [SILVER] and state.view(None)["actions_left"] == 2
    assert state.view(None)["sirens"][GOLD] == {"at": [1, 1], "rings": 2, "left": True}
    state.apply(SILVER, "Se5")
    refuse(state, SILVER, "Sf6", "may never return")     # nor may Silver's
    state.apply(SILVER, "Se4")
    assert state.to_move() == [GOLD]
    assert "Sa1" not in state.legal_actions(GOLD)
    refuse(state, GOLD, "Sa1", "your siren has left her island and may never return")


def test_siren_never_reenters_her_island_nor_enters_the_opponents():
    state = make(([1, 1], 2), ([4, 4], 2), [])
    refuse(state, GOLD, "Sa1", "may never return")
    state = make(([4, 4], 2), ([3, 3], 1), [])
    refuse(state, GOLD, "Sf6", "never enter the opponent's island")
    state = make(([1, 1], 2), ([4, 4], 2), [], to_move=SILVER)
    refuse(state, SILVER, "Sf6", "may never return")


def test_9_6_trapped_when_no_action():
    boxed = [([4, 3], [GOLD]), ([4, 4], [GOLD]), ([4, 5], [GOLD]), ([5, 3], [GOLD])]
    state = make(([0, 3], 2), ([5, 4], 0), boxed, to_move=SILVER)
    assert state.is_over() and state.to_move() == []
    assert state.outcome() == {"winners": [GOLD], "ranks": [1, 2], "scores": [0, 0],
                               "reason": "trapped"}
    assert state.events(None) == [{"t": "end", "winners": [GOLD], "reason": "trapped"}]


def test_9_6_trapped_by_the_opponents_turn():
    # Silver could take back her ring at (5,3); Gold covers it with a gold ring.
    boxed = [([4, 3], [GOLD]), ([4, 4], [GOLD]), ([4, 5], [GOLD]), ([5, 3], [GOLD, SILVER])]
    state = make(([4, 2], 2), ([5, 4], 0), boxed)
    state.apply(GOLD, "+d6")
    state.apply(GOLD, "Sc4")
    assert state.is_over()
    assert state.outcome()["winners"] == [GOLD] and state.outcome()["reason"] == "trapped"
    assert [e["t"] for e in state.events(None)] == ["give", "siren", "turn", "end"]
    assert state.events(None)[2:] == [{"t": "turn", "p": SILVER},
                                      {"t": "end", "winners": [GOLD], "reason": "trapped"}]


def test_9_6_trapped_on_her_island_by_the_opponents_turn():
    # Gold has not left her island: her one exit b1 leads on only to c1. Silver's siren
    # walks onto c1: b1 is now a dead end, Gold has no complete turn and loses at once.
    walls = [([1, 0], []), ([1, 1], []), ([1, 2], [])]
    start = make(([0, 0], 0), ([1, 4], 0), walls, to_move=SILVER)
    assert start.legal_actions(SILVER)[:2] == ["Sd1", "Se1"]
    for fast in (False, True):
        state = start.clone_fast() if fast else start.clone()
        for action in ("Sd1", "Sc1"):
            state.apply_fast(SILVER, action) if fast else state.apply(SILVER, action)
        assert state.outcome() == {"winners": [SILVER], "ranks": [2, 1], "scores": [0, 0],
                                   "reason": "trapped"}
        assert fast or [e["t"] for e in state.events(None)] == ["siren", "siren", "turn",
                                                                 "end"]
    # With d1 free too, b1 is no dead end: Gold plays on.
    state = start.clone()
    state.apply(SILVER, "Sd1")
    state.apply(SILVER, "Se1")
    assert state.to_move() == [GOLD] and state.legal_actions(GOLD) == ["Sb1"]


def test_9_6_one_action_and_nothing_after_it_is_a_loss():
    # Silver's only action is f1-f2; after it the sailor is stuck (f3 taken) and her
    # siren is boxed in: a turn needs two actions (N6).
    boxed = [([4, 3], [GOLD]), ([4, 4], [GOLD]), ([4, 5], [GOLD]), ([5, 3], [GOLD]),
             ([0, 5], [SILVER]), ([2, 5], [GOLD])]
    one = make(([0, 3], 2), ([5, 4], 0), boxed, to_move=SILVER, actions_left=1)
    assert one.legal_actions(SILVER) == ["f1-f2"]        # as a last action it is fine
    state = make(([0, 3], 2), ([5, 4], 0), boxed, to_move=SILVER)
    assert state.is_over() and state.outcome()["reason"] == "trapped"
    assert state.outcome()["winners"] == [GOLD]


def test_n6_a_first_action_that_leaves_nothing_is_not_offered():
    # Gold's siren on (5,0) is boxed by full silver-topped stacks; she has 0 rings. Her
    # sailor on (0,1) may score; on a later turn it is the only action.
    stacks = [([4, 0], [GOLD, GOLD, SILVER]), ([4, 1], [GOLD, GOLD, SILVER]),
              ([5, 1], [GOLD, GOLD, SILVER])]
    scorer = [([0, 1], [GOLD])]
    # With 3 sailors scored the move wins, so it is legal as a first action (N6 exemption).
    state = make(([5, 0], 0), ([5, 5], 2), stacks + scorer, scores=(3, 0))
    assert state.legal_actions(GOLD) == ["b1-a1"]
    state.apply(GOLD, "b1-a1")
    assert state.outcome() == {"winners": [GOLD], "ranks": [1, 2], "scores": [4, 0],
                               "reason": "sailors"}
    # With 2 scored it does not win and leaves no second action: Gold is trapped at once.
    state = make(([5, 0], 0), ([5, 5], 2), stacks + scorer, scores=(2, 0))
    assert state.is_over() and state.outcome()["reason"] == "trapped"
    assert state.outcome()["winners"] == [SILVER]
    # As the last action of a turn it is fine.
    state = make(([5, 0], 0), ([5, 5], 2), stacks + scorer, scores=(2, 0), actions_left=1)
    assert state.legal_actions(GOLD) == ["b1-a1"]


def test_n6_leaving_the_island_into_a_dead_end_is_not_offered():
    # Gold's siren on her island with 0 rings and no sailor of hers; her only exit is
    # (0,1). From there she can go on only while (0,2) is free: she cannot step back.
    walls = [([1, 0], [SILVER]), ([1, 1], [SILVER]), ([1, 2], [SILVER])]
    state = make(([0, 0], 0), ([5, 5], 2), walls)
    assert state.legal_actions(GOLD) == ["Sb1"]
    state.apply(GOLD, "Sb1")
    assert state.legal_actions(GOLD) == ["Sc1"]
    state = make(([0, 0], 0), ([5, 5], 2), walls + [([0, 2], [SILVER])])
    assert state.is_over() and state.outcome()["reason"] == "trapped"
    # With one action left (Gold's first turn) the dead end is fine.
    state = make(([0, 0], 0), ([5, 5], 2), walls + [([0, 2], [SILVER])], actions_left=1,
                 turn=0)
    assert state.legal_actions(GOLD) == ["Sb1"]


def test_9_7_blocked_island():
    state = make(([0, 0], 2), ([5, 5], 2), [([0, 1], [GOLD])])
    assert "b1-a1" not in state.legal_actions(GOLD)
    refuse(state, GOLD, "b1-a1", "still stands on your island")
    state.apply(GOLD, "Sb2")
    assert "b1-a1" in state.legal_actions(GOLD)
    state.apply(GOLD, "b1-a1")
    assert state.view(None)["scores"] == [1, 0]


# -- every action at edges and corners -------------------------------------------------------
def test_siren_moves_at_corner_edge_and_centre():
    state = make(([0, 5], 0), ([5, 5], 2), [])
    assert sorted(a for a in state.legal_actions(GOLD) if a[0] == "S") == ["Se1", "Se2", "Sf2"]
    state = make(([3, 0], 0), ([5, 5], 2), [([2, 0], [])])
    assert sorted(a for a in state.legal_actions(GOLD) if a[0] == "S") == [
        "Sa5", "Sb3", "Sb4", "Sb5"]
    state = make(([2, 2], 0), ([5, 5], 2), [])
    assert len([a for a in state.legal_actions(GOLD) if a[0] == "S"]) == 8
    refuse(state, GOLD, "Se5", "not next to her")
    # On her own island (a corner): the three neighbours.
    state = make(([0, 0], 0), ([5, 5], 2), [])
    assert sorted(a for a in state.legal_actions(GOLD) if a[0] == "S") == ["Sa2", "Sb1", "Sb2"]
    # A square held by a sailor or by the other siren.
    state = make(([2, 2], 2), ([2, 3], 2), [([1, 1], [])])
    refuse(state, GOLD, "Sb2", "a sailor stands there")
    refuse(state, GOLD, "Sd3", "attack")


def test_sailor_steps_at_edges_and_next_to_the_islands():
    sailors = [([0, 3], [GOLD]), ([4, 5], [GOLD]), ([5, 0], [SILVER]), ([0, 1], [SILVER]),
               ([2, 2], [GOLD])]
    state = make(([3, 0], 2), ([5, 3], 2), sailors, actions_left=1)
    moves = sorted(a for a in state.legal_actions(GOLD) if "-" in a[1:])
    assert moves == ["c3-b3", "c3-c2", "d1-c1", "f5-e5", "f5-f4"]
    refuse(state, GOLD, "f5-f6", "never enters the opponent's island")
    refuse(state, GOLD, "c3-c4", "towards your island")
    refuse(state, GOLD, "c3-d3", "towards your island")
    refuse(state, GOLD, "a6-b6", "controlled by Silver")
    state = make(([3, 0], 2), ([5, 3], 2), sailors, to_move=SILVER, actions_left=1)
    moves = sorted(a for a in state.legal_actions(SILVER) if "-" in a[1:])
    assert moves == ["a6-b6", "b1-b2", "b1-c1"]          # never (0,0), never away
    refuse(state, SILVER, "b1-a1", "never enters the opponent's island")


def test_sailors_never_jump_and_need_an_empty_square():
    sailors = [([2, 2], [GOLD]), ([1, 2], []), ([2, 1], [SILVER])]
    state = make(([2, 3], 2), ([5, 5], 2), sailors, actions_left=1)
    assert not [a for a in state.legal_actions(GOLD) if a.startswith("c3-")]
    refuse(state, GOLD, "c3-c2", "a sailor stands there")
    refuse(state, GOLD, "c2-c1", "carries no ring: nobody controls it")
    # A siren in the way.
    state = make(([1, 2], 2), ([2, 1], 2), [([2, 2], [GOLD])], actions_left=1)
    assert not [a for a in state.legal_actions(GOLD) if a.startswith("c3-")]
    refuse(state, GOLD, "c3-b3", "a siren stands there")


def test_give_and_take_all_around_a_corner_siren():
    sailors = [([0, 4], []), ([1, 4], [SILVER]), ([1, 5], [GOLD, GOLD])]
    state = make(([0, 5], 2), ([5, 5], 2), sailors, actions_left=1)
    legal = state.legal_actions(GOLD)
    assert {a for a in legal if a[0] == "+"} == {"+e1", "+e2", "+f2"}
    assert {a for a in legal if a[0] == "-"} == {"-f2"}
    refuse(state, GOLD, "-e1", "carries no ring")
    refuse(state, GOLD, "-e2", "never take the opponent's ring")
    refuse(state, GOLD, "+d1", "no sailor on d1")
    state = make(([0, 5], 2), ([5, 5], 2), sailors + [([2, 2], [GOLD])], actions_left=1)
    refuse(state, GOLD, "+c3", "not next to your siren")
    state.apply(GOLD, "+e1")                             # a ringless sailor: now Gold's
    assert sailor_at(state, 0, 4) == [GOLD]
    assert state.events(None)[0] == {"t": "give", "p": GOLD, "at": [0, 4], "rings": [0]}


def test_take_hands_control_to_the_ring_below():
    state = make(([2, 2], 1), ([5, 5], 2), [([2, 3], [SILVER, GOLD]), ([3, 3], [GOLD])])
    state.apply(GOLD, "-d3")
    assert sailor_at(state, 2, 3) == [SILVER]
    assert state.view(None)["sirens"][GOLD]["rings"] == 2
    assert state.events(None)[0] == {"t": "take", "p": GOLD, "at": [2, 3], "rings": [1]}
    assert "d3-c3" not in state.legal_actions(GOLD)      # now Silver controls it
    state.apply(GOLD, "-d4")
    assert sailor_at(state, 3, 3) == []                  # ringless: nobody controls it
    assert state.to_move() == [SILVER]
    assert not [a for a in state.legal_actions(SILVER) if a.startswith("d4-")]


def test_n14_turns_that_change_nothing_are_legal():
    state = make(([2, 2], 2), ([5, 5], 2), [([2, 3], [SILVER])])
    state.apply(GOLD, "+d3")
    state.apply(GOLD, "-d3")
    assert sailor_at(state, 2, 3) == [SILVER] and state.to_move() == [SILVER]
    state = make(([2, 2], 2), ([5, 5], 2), [])
    state.apply(GOLD, "Sc2")
    state.apply(GOLD, "Sc3")
    assert state.view(None)["sirens"][GOLD]["at"] == [2, 2]


# -- §6 scoring table ------------------------------------------------------------------------
@pytest.mark.parametrize(("rings", "sirens", "after", "returned", "lost"), [
    # 1 ring, the scorer's colour: returns if there is room.
    ([GOLD], (1, 2), (2, 2), [1, 0], [0, 0]),
    ([GOLD], (3, 2), (3, 2), [0, 0], [1, 0]),
    # 2 or 3 of one colour: one returns (if room), the rest leave.
    ([GOLD, GOLD], (1, 2), (2, 2), [1, 0], [1, 0]),
    ([GOLD, GOLD, GOLD], (0, 2), (1, 2), [1, 0], [2, 0]),
    ([GOLD, GOLD, GOLD], (3, 2), (3, 2), [0, 0], [3, 0]),
    # 2, one of each colour: each returns to its own siren (if room).
    ([SILVER, GOLD], (1, 1), (2, 2), [1, 1], [0, 0]),
    ([SILVER, GOLD], (1, 3), (2, 3), [1, 0], [0, 1]),
    ([SILVER, GOLD], (3, 3), (3, 3), [0, 0], [1, 1]),
    # 3, two colours: one per colour returns (if room), the duplicate leaves.
    ([SILVER, SILVER, GOLD], (1, 1), (2, 2), [1, 1], [0, 1]),
    ([GOLD, SILVER, GOLD], (2, 0), (3, 1), [1, 1], [1, 0]),
    ([GOLD, SILVER, GOLD], (1, 3), (2, 3), [1, 0], [1, 1]),
])
def test_6_scoring_table(rings, sirens, after, returned, lost):
    state = make(([3, 3], sirens[0]), ([5, 5], sirens[1]), [([1, 0], rings)])
    out = state.view(None)["rings_out"]
    state.apply(GOLD, "a2-a1")
    v = state.view(None)
    assert (v["sirens"][GOLD]["rings"], v["sirens"][SILVER]["rings"]) == after
    assert v["scores"] == [1, 0] and v["sailors"] == []
    assert v["rings_out"] == [out[0] + lost[0], out[1] + lost[1]]
    score = state.events(None)[-1]
    assert score == {"t": "score", "p": GOLD, "at": [0, 0], "rings": rings,
                     "returned": returned, "lost": lost}


def test_6_a_captured_sailor_scores_for_its_controller():
    # Silver's old sailor with a gold ring on top scores for Gold; the silver ring goes home.
    state = make(([3, 3], 1), ([5, 5], 1), [([0, 1], [SILVER, GOLD])], scores=(1, 2))
    state.apply(GOLD, "b1-a1")
    v = state.view(None)
    assert v["scores"] == [2, 2]
    assert [s["rings"] for s in v["sirens"]] == [2, 2]


# -- §7 end of game --------------------------------------------------------------------------
def test_n15_the_fourth_sailor_ends_the_game_before_the_second_action():
    state = make(([3, 3], 2), ([5, 5], 3), [([0, 1], [SILVER, GOLD]), ([2, 2], [GOLD])],
                 scores=(3, 1))
    out = state.view(None)["rings_out"]
    state.apply(GOLD, "b1-a1")
    assert state.is_over() and state.to_move() == []
    assert state.legal_actions(GOLD) == []
    v = state.view(None)
    assert v["scores"] == [4, 1]
    assert [s["rings"] for s in v["sirens"]] == [3, 3]   # gold returned, silver full: lost
    assert v["rings_out"] == [out[0], out[1] + 1]
    assert sailor_at(state, 2, 2) == [GOLD]              # the second action is not taken
    assert state.outcome() == {"winners": [GOLD], "ranks": [1, 2], "scores": [4, 1],
                               "reason": "sailors"}
    assert [e["t"] for e in state.events(None)] == ["sailor", "score", "end"]
    assert state.events(None)[-1] == {"t": "end", "winners": [GOLD], "reason": "sailors"}
    with pytest.raises(IllegalAction, match="over"):
        state.apply(GOLD, "c3-c2")


def test_n13_attack_from_the_own_island():
    # Silver's siren on (1,1) is walled in: the only free neighbour is Gold's island.
    walls = [[0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1], [2, 2]]
    state = make(([0, 0], 3), ([1, 1], 2), [(w, []) for w in walls])
    refuse(state, GOLD, "Xb2", "no empty square next to b2")
    # One free square: the attack is legal and counts as leaving the island.
    state = make(([0, 0], 3), ([1, 1], 2), [(w, []) for w in walls[1:]], actions_left=1)
    state.apply(GOLD, "Xb2")
    assert state.legal_actions(GOLD) == ["Pb1"]
    state.apply(GOLD, "Pb1")
    v = state.view(None)
    assert v["sirens"][GOLD] == {"at": [1, 1], "rings": 3, "left": True}
    assert v["sirens"][SILVER]["at"] == [0, 1]
    assert "Sa1" not in state.legal_actions(SILVER)     # nobody may enter Gold's island
    refuse(state, SILVER, "Sa1", "opponent's island")


def test_n9_a_siren_on_her_own_island_cannot_be_attacked():
    state = make(([4, 4], 3), ([5, 5], 2), [])
    refuse(state, GOLD, "Xf6", "cannot be attacked")


def test_an_attack_always_leaves_a_second_action_the_attack_back():
    # Gold on (0,1) with 3 rings attacks Silver on (0,2); the only placement square is the
    # one Gold leaves (N12). After the swap Gold is walled in but may attack again, so the
    # attack is a legal first action (N6), and so is every placement.
    walls = [([1, 0], []), ([1, 1], []), ([1, 2], []), ([1, 3], []), ([0, 3], [])]
    state = make(([0, 1], 3), ([0, 2], 2), walls)
    assert "Xc1" in state.legal_actions(GOLD)
    state.apply(GOLD, "Xc1")
    assert state.legal_actions(GOLD) == ["Pb1"]
    state.apply(GOLD, "Pb1")
    assert "Xb1" in state.legal_actions(GOLD)
    assert not [a for a in state.legal_actions(GOLD) if a[0] == "S"]
    state.apply(GOLD, "Xb1")
    state.apply(GOLD, "Pc1")                             # back where they started
    v = state.view(None)
    assert [s["at"] for s in v["sirens"]] == [[0, 1], [0, 2]] and v["to_move"] == [SILVER]


# -- N17 positions by hand -------------------------------------------------------------------
def test_positions_by_hand_round_trip_through_the_view():
    state = GAME.new_game(seed=0)
    rng = random.Random(4)
    for _ in range(30):
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    for viewer in (None, 0, 1):
        twin = GAME.from_position(state.view(viewer), options=state.options)
        assert twin.view(None) == state.view(None)
        assert twin.legal_actions(state.to_move()[0]) == state.legal_actions(state.to_move()[0])
    # Squares may also be given in notation, sailors as pairs.
    twin = GAME.from_position({"sirens": [{"at": "c3", "rings": 2}, {"at": "f6", "rings": 2}],
                               "sailors": [["b2", [0]]], "to_move": 1})
    assert twin.view(None)["sirens"][0]["at"] == [2, 2]
    assert twin.view(None)["sailors"] == [{"at": [1, 1], "rings": [0]}]
    assert twin.view(None)["rings_out"] == [4, 5]


@pytest.mark.parametrize(("change", "match"), [
    (lambda p: p["sailors"].append({"at": [2, 2], "rings": [0, 0, 1, 1]}), "at most 3 rings"),
    (lambda p: p["sirens"][0].update(rings=4), "0 to 3 rings"),
    (lambda p: p["sailors"].extend({"at": [3, c], "rings": [0]} for c in range(6)),
     "only 7"),
    (lambda p: p["sailors"].append({"at": [1, 1], "rings": [1]}), "already holds a piece"),
    (lambda p: p["sailors"].append({"at": [4, 4], "rings": [1]}), "already holds a piece"),
    (lambda p: p["sailors"].append({"at": [0, 0], "rings": [1]}), "island"),
    (lambda p: p["sirens"][1].update(at=[0, 0]), "opponent's island"),
    (lambda p: p["sirens"][0].update(left=False), "'left'"),
    (lambda p: p["sirens"][1].update(left=True), "'left'"),
    (lambda p: p.update(scores=[4, 0]), "scores"),
    (lambda p: p.update(to_move=[2]), "to_move"),
    (lambda p: p.update(to_move=[]), "to_move"),
    (lambda p: p.update(actions_left=3), "actions_left"),
    (lambda p: p["sirens"][1].update(at=[4, 4]), "same square"),
    (lambda p: p["sirens"][0].update(at=[6, 0]), "off the 6x6 board"),
    (lambda p: p.update(rows=7), "rows"),
    (lambda p: p.update(islands=[[0, 5], [5, 0]]), "islands"),
    (lambda p: p.update(rings_out=[0, 0]), "rings_out"),
    (lambda p: p.update(layout="huge"), "layout"),
    (lambda p: p.update(placing={"at": [1, 1]}), "both sirens"),
    (lambda p: p["sailors"].append({"at": [2, 2], "rings": [2]}), "colours"),
    (lambda p: p.update(sirens=[p["sirens"][0]]), "two entries"),
    (lambda p: p["sirens"][1].pop("at"), "must be {'at'"),
    (lambda p: p.update(sailors={"at": [2, 2]}), "sailors must be a list"),
    (lambda p: p["sailors"].append([[2, 2]]), "must be {'at'"),
    (lambda p: p["sailors"].append({"at": "zz", "rings": []}), "not a square"),
    (lambda p: p["sailors"].append({"at": [2], "rings": []}), r"not a square \[row, col\]"),
    (lambda p: p.update(turn=-1), "count of completed turns"),
    (lambda p: p.update(placing=[4, 4]), "placing must be None"),
    (lambda p: p.update(last_turn=[{"p": 0}]), "last_turn entry"),
])
def test_invalid_positions_are_refused(change, match):
    position = pos(([4, 4], 2), ([5, 5], 2), [([1, 1], [GOLD])])
    position["sirens"][0]["left"] = True
    GAME.from_position(json.loads(json.dumps(position)))  # the unchanged one is fine
    change(position)
    with pytest.raises(ValueError, match=match):
        GAME.from_position(position)


def test_a_position_mid_attack():
    position = pos(([3, 4], 3), ([3, 4], 2), [], actions_left=1, placing={"at": [3, 4]})
    state = GAME.from_position(position)
    assert state.view(None)["placing"]["at"] == [3, 4]
    assert len(state.legal_actions(GOLD)) == 8 and all(
        a[0] == "P" for a in state.legal_actions(GOLD))
    state.apply(GOLD, "Pd4")
    assert state.view(None)["actions_left"] == 1 and state.to_move() == [GOLD]


# -- options ---------------------------------------------------------------------------------
def test_first_turn_option():
    one = GAME.new_game(seed=0, options={"first_turn": 1})
    two = GAME.new_game(seed=0, options={"first_turn": 2})
    assert one.view(None)["actions_left"] == 1 and two.view(None)["actions_left"] == 2
    assert one.view(None)["first_turn"] == 1 and two.view(None)["first_turn"] == 2
    two.apply(GOLD, "Sb2")
    assert two.to_move() == [GOLD]
    assert "Sa1" not in two.legal_actions(GOLD)
    two.apply(GOLD, "Sc2")
    assert two.to_move() == [SILVER] and two.view(None)["turn"] == 1
    one.apply(GOLD, "Sb2")
    assert one.to_move() == [SILVER] and one.view(None)["turn"] == 1
    # Gold's first turn with 1 action: leaving the island needs no second action.
    assert set(one.view(None)["last_turn"][0]) == {"p", "action", "from", "to"}


def test_draw_cap_ends_the_400th_turn_in_a_draw():
    options = {"draw_cap": 400}
    state = make(([2, 2], 2), ([4, 4], 2), [([1, 1], [GOLD])], options=options, turn=399)
    state.apply(GOLD, "Sc2")
    assert not state.is_over()
    state.apply(GOLD, "Sc3")
    assert state.is_over() and state.view(None)["turn"] == 400
    assert state.outcome() == {"winners": [], "ranks": [1, 1], "scores": [0, 0],
                               "reason": "draw_cap"}
    assert state.events(None)[-1] == {"t": "end", "winners": [], "reason": "draw_cap"}
    # Without the cap play goes on.
    state = make(([2, 2], 2), ([4, 4], 2), [([1, 1], [GOLD])], turn=399)
    state.apply(GOLD, "Sc2")
    state.apply(GOLD, "Sc3")
    assert not state.is_over() and state.to_move() == [SILVER]
    with pytest.raises(ValueError, match="draw cap"):
        make(([2, 2], 2), ([4, 4], 2), [], options=options, turn=400)


def test_draw_cap_counts_both_players_turns_from_the_start():
    state = GAME.new_game(seed=0, options={"draw_cap": 400})
    for n in range(400):
        assert not state.is_over()
        p = state.to_move()[0]
        assert p == n % 2
        while state.to_move() == [p]:
            # Siren shuffles only: out and back (a no-op turn is legal, N14).
            legal = [a for a in state.legal_actions(p) if a[0] in "SP"]
            state.apply(p, legal[0])
    assert state.outcome()["reason"] == "draw_cap" and state.view(None)["turn"] == 400


# -- layouts are data ------------------------------------------------------------------------
def test_the_standard_layout_is_the_spec_layout():
    v = GAME.new_game(seed=0).view(None)
    assert (v["rows"], v["cols"], v["islands"]) == (6, 6, [[0, 0], [5, 5]])
    gold = sorted(s["at"] for s in v["sailors"] if s["rings"] == [GOLD])
    silver = sorted(s["at"] for s in v["sailors"] if s["rings"] == [SILVER])
    assert gold == [[1, 5], [2, 4], [3, 3], [4, 2], [5, 1]]
    assert silver == [[0, 4], [1, 3], [2, 2], [3, 1], [4, 0]]
    assert [s["rings"] for s in v["sirens"]] == [2, 2]
    assert v["rings_out"] == [0, 0] and v["layout"] == "standard"


def test_every_layout_is_symmetric_under_rotation_with_colours_swapped():
    for name, layout in LAYOUTS.items():
        rows, cols = layout["rows"], layout["cols"]
        turn = {(r, c): (rows - 1 - r, cols - 1 - c) for r in range(rows) for c in range(cols)}
        isl = [tuple(i) for i in layout["islands"]]
        assert turn[isl[0]] == isl[1], name
        placed = {tuple(at): tuple(rings) for at, rings in layout["sailors"]}
        assert {turn[at]: tuple(1 - x for x in rings) for at, rings in placed.items()
                } == placed, name


def test_the_small_layout_plays_to_the_end():
    game = CanosaGame()
    assert "small" in game.option_schema["layout"]["values"]
    reasons = set()
    for seed in range(40):
        state = game.new_game(seed=seed, options={"layout": "small"})
        v = state.view(None)
        assert (v["rows"], v["cols"], v["islands"]) == (5, 5, [[0, 0], [4, 4]])
        assert len(v["sailors"]) == 8
        rng = random.Random(seed)
        steps = 0
        while not state.is_over():
            p = state.to_move()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))
            steps += 1
            assert steps < 5000
        reasons.add(state.outcome()["reason"])
        assert max(state.outcome()["scores"]) == 4 or state.outcome()["reason"] != "sailors"
    assert "sailors" in reasons


def test_layouts_come_from_the_data_file(tmp_path):
    data = json.loads(json.dumps(LAYOUTS))
    data["tiny"] = {"names": {"en": "Tiny", "ja": "タイニー"}, "rows": 4, "cols": 4,
                    "islands": [[0, 0], [3, 3]], "siren_rings": 3,
                    "sailors": [[[1, 3], [0]], [[2, 2], [0]], [[3, 1], [0]],
                                [[0, 2], [1]], [[1, 1], [1]], [[2, 0], [1]]]}
    data["standard"]["siren_rings"] = 1
    path = tmp_path / "boards.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    game = CanosaGame(load_layouts(path))
    assert game.option_schema["layout"]["values"] == ["standard", "small", "tiny"]
    assert game.option_labels["layout"]["tiny"] == {"en": "Tiny", "ja": "タイニー"}
    state = game.new_game(seed=0, options={"layout": "tiny"})
    v = state.view(None)
    assert (v["rows"], v["cols"], v["islands"]) == (4, 4, [[0, 0], [3, 3]])
    assert [s["rings"] for s in v["sirens"]] == [3, 3]
    assert game.new_game(seed=0).view(None)["sirens"][0]["rings"] == 1
    rng = random.Random(1)
    while not state.is_over():
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    # The packaged game does not know "tiny".
    with pytest.raises(ValueError, match="layout"):
        GAME.new_game(seed=0, options={"layout": "tiny"})
    # The default loader reads the package's file.
    assert load_layouts() == LAYOUTS


@pytest.mark.parametrize(("change", "match"), [
    (lambda d: d.update(x=[]), "must be an object"),
    (lambda d: d["standard"].pop("rows"), "missing 'rows'"),
    (lambda d: d["standard"].update(rows=1), "rows must be an integer from 2 to 26"),
    (lambda d: d["standard"].update(islands=[[0, 0]]), "islands must be two squares"),
    (lambda d: d["standard"].update(islands=[[0, 0], [0, 0]]), "same square"),
    (lambda d: d["standard"].update(islands=[[0, 0], [6, 6]]), "off the 6x6 board"),
    (lambda d: d["standard"]["sailors"].append([[0, 0], [0]]), "is an island"),
    (lambda d: d["standard"]["sailors"].append([[1, 5], [0]]), "two sailors on f2"),
    (lambda d: d["standard"]["sailors"].append([[2, 0], [0, 0, 0, 0]]), "at most 3"),
    (lambda d: d["standard"].update(siren_rings=4), "siren_rings"),
    (lambda d: d["standard"].update(colour="red"), "unknown key"),
    (lambda d: d["standard"].update(names={"en": "x"}), "names"),
    (lambda d: d.clear(), "non-empty"),
    (lambda d: d.update({"": d["standard"]}), "non-empty text"),
    (lambda d: d["standard"].update(sailors=[]), "non-empty list"),
    (lambda d: d["standard"]["sailors"].append([[0, 1]]), r"must be \[\[r, c\], \[rings\]\]"),
    (lambda d: d["standard"].update(islands=["a1", "zz"]), "not a square"),
])
def test_bad_layout_data_is_a_clear_error(tmp_path, change, match):
    data = json.loads(json.dumps(LAYOUTS))
    change(data)
    with pytest.raises(ValueError, match=match):
        parse_layouts(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=match):
        load_layouts(path)


def test_a_layout_file_that_is_not_json(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="not valid JSON"):
        load_layouts(path)


# -- notation, views, events, refusals -------------------------------------------------------
def test_square_notation_round_trip():
    assert square_name(0, 0) == "a1" and square_name(5, 5) == "f6"
    assert square_name(3, 1) == "b4"
    for r in range(12):
        for c in range(26):
            assert parse_square(square_name(r, c)) == (r, c)
    for junk in ("", "a", "1a", "a0", "A1", "a-1", "aa1", None):
        assert parse_square(junk) is None


def test_every_legal_action_reads_back_in_the_notation():
    pattern = re.compile(r"^(?:[SXP+-]([a-z])(\d+)|([a-z])(\d+)-([a-z])(\d+))$")
    for layout in ("standard", "small"):
        state = GAME.new_game(seed=0, options={"layout": layout})
        rng = random.Random(2)
        while not state.is_over():
            p = state.to_move()[0]
            legal = state.legal_actions(p)
            for action in legal:
                m = pattern.match(action)
                assert m, action
            before = state.view(None)
            action = rng.choice(legal)
            state.apply(p, action)
            entry = state.view(None)["last_turn"][-1] if state.view(None)[
                "last_turn"] else None
            if entry and entry["action"] == action:
                if action[0] in "SX":
                    assert entry["from"] == before["sirens"][p]["at"]
                    assert square_name(*entry["to"]) == action[1:]
                elif "-" in action[1:]:
                    a, b = action.split("-")
                    assert [square_name(*entry["from"]), square_name(*entry["to"])] == [a, b]
                elif action[0] in "+-":
                    assert square_name(*entry["to"]) == action[1:]


def test_view_shape_is_the_same_for_every_seat():
    state = GAME.new_game(seed=0)
    rng = random.Random(7)
    for _ in range(60):
        if state.is_over():
            break
        views = [state.view(s) for s in (None, 0, 1)]
        assert views[0] == views[1] == views[2]
        assert {"rows", "cols", "islands", "sirens", "sailors", "scores", "rings_out",
                "to_move", "actions_left", "placing", "turn", "first_turn", "layout",
                "last_turn", "outcome"} <= set(views[0])
        assert views[0]["sailors"] == sorted(views[0]["sailors"], key=lambda s: s["at"])
        json.dumps(views[0])
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    with pytest.raises(ValueError):
        state.view(2)


def test_last_turn_holds_the_previous_turn_and_the_current_one():
    state = GAME.new_game(seed=0, options={"first_turn": 2})
    state.apply(GOLD, "Sb2")
    state.apply(GOLD, "Sc2")
    state.apply(SILVER, "Se5")
    assert [e["action"] for e in state.view(None)["last_turn"]] == ["Sb2", "Sc2", "Se5"]
    state.apply(SILVER, "Se4")
    assert [e["action"] for e in state.view(None)["last_turn"]] == ["Se5", "Se4"]
    assert state.view(None)["last_turn"][0] == {"p": SILVER, "action": "Se5",
                                                "from": [5, 5], "to": [4, 4]}
    assert [e["t"] for e in state.events(None)] == ["siren", "siren", "turn", "siren",
                                                    "siren", "turn"]


def test_junk_and_illegal_actions_are_refused_without_change():
    state = GAME.new_game(seed=0)
    for junk in ("", "S", "Sz9", "Sa99", "a1-a2-a3", "x", "+", "Pb2", "b2-b1", "Sb2 ", "sb2"):
        refuse(state, GOLD, junk)
    refuse(state, SILVER, "Se5", "turn")
    with pytest.raises(IllegalAction, match="not a Canosa action"):
        state.apply(GOLD, "hello")
    with pytest.raises(IllegalAction, match="off the 6x6 board"):
        state.apply(GOLD, "Sg7")


def test_more_refusals_say_why():
    # While the attacker must place the defeated siren.
    state = make(([3, 3], 3), ([3, 4], 2), [([2, 5], [GOLD])], actions_left=1)
    state.apply(GOLD, "Xe4")
    refuse(state, GOLD, "Pa1", "must be placed next to e4")
    refuse(state, GOLD, "Pf3", "f3 is not empty")
    state = make(([4, 4], 3), ([4, 5], 2), [], actions_left=1)
    state.apply(GOLD, "Xf5")
    refuse(state, GOLD, "Pf6", "never be placed on an island")
    # An attack on a square where she is not; a siren move N6 refuses.
    refuse(make(([3, 3], 3), ([3, 4], 2), []), GOLD, "Xc3", "siren is not on c3")
    state = _edge(([0, 2], 0), ([4, 2], 2), _RINGLESS + [([1, 4], [])])
    refuse(state, GOLD, "Sb1", "no legal second action")
    # A sailor move N6 refuses: it scores, fills her siren (no take) and leaves nothing.
    boxed = [([4, 0], [SILVER] * 3), ([4, 1], [SILVER, SILVER, GOLD]),
             ([5, 1], [SILVER, GOLD, SILVER]), ([3, 1], []), ([0, 1], [GOLD])]
    state = make(([5, 0], 2), ([5, 5], 0), boxed, scores=(2, 0))
    assert state.legal_actions(GOLD) == ["-b5"]
    refuse(state, GOLD, "b1-a1", "no legal second action")
    # A sailor "move" that is no step at all: said why by the same words.
    state = make(([2, 2], 2), ([5, 5], 2), [([3, 3], [GOLD])])
    refuse(state, GOLD, "d4-d6", "not such a step")
    refuse(state, GOLD, "a1-a3", "no sailor on a1")
    # A legal last action gets the plain words (nothing is wrong with it).
    one = make(([2, 2], 2), ([5, 5], 2), [([3, 3], [GOLD])], actions_left=1)
    assert one.explain_illegal(GOLD, "Sb2") == "'Sb2' is not a legal action now"
    # Positions: not a dict, options that contradict it; determinise for no seat.
    with pytest.raises(ValueError, match="object"):
        GAME.from_position([])
    with pytest.raises(ValueError, match="layout"):
        GAME.from_position({**state.view(None), "layout": "small"},
                           options={"layout": "standard"})
    with pytest.raises(ValueError, match="no seat"):
        GAME.determinize(2, state.view(None), [], pygames.Rng(1))
    # A position mid-attack must be a real one.
    attack = pos(([3, 4], 2), ([3, 4], 2), [], actions_left=1, placing={"at": [3, 4]})
    with pytest.raises(ValueError, match="more rings"):
        GAME.from_position(attack)
    attack = pos(([3, 4], 3), ([3, 4], 2), [], actions_left=2, placing={"at": [3, 4]})
    with pytest.raises(ValueError, match="actions_left is 0 or 1"):
        GAME.from_position(attack)
    walls = [([r, c], []) for r in (0, 1) for c in (0, 1, 2) if [r, c] not in ([0, 0], [0, 1])]
    attack = pos(([0, 1], 3), ([0, 1], 2), walls, actions_left=1, placing={"at": [0, 1]})
    with pytest.raises(ValueError, match="no square to place"):
        GAME.from_position(attack)


def test_determinise_rebuilds_the_same_state():
    state = GAME.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(25):
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    seat = state.to_move()[0]
    world = GAME.determinize(seat, state.view(seat), state.events(seat), pygames.Rng(1))
    assert world.view(seat) == state.view(seat)
    assert world.legal_actions(seat) == state.legal_actions(seat)
    assert world.events(seat) == []


def test_the_fast_path_keeps_the_public_view():
    state = GAME.new_game(seed=5)
    rng = random.Random(5)
    fast = state.clone_fast()
    while not state.is_over():
        p = state.to_move()[0]
        action = rng.choice(state.legal_actions(p))
        state.apply(p, action)
        fast.apply_fast(p, action)
        assert fast.view(None) == state.view(None)
    assert fast.events(None) == [] and fast.outcome() == state.outcome()


#: A layout whose islands are mid-edge: a siren leaving hers may step into a dead end with
#: two free squares around her (on a corner island two free squares always touch).
EDGE = CanosaGame(layouts={"edge": {"rows": 5, "cols": 5, "islands": [[0, 2], [4, 2]],
                                    "siren_rings": 2,
                                    "sailors": [[[2, 1], [0]], [[2, 3], [1]]]}})


def _edge(gold, silver, sailors, **kw):
    """A position on :data:`EDGE` (with the draw cap: 2 sailors cannot win)."""
    return EDGE.from_position(pos(gold, silver, sailors, **kw), options={"draw_cap": 400})


_RINGLESS = [([0, 0], []), ([1, 0], []), ([1, 1], []), ([1, 2], []), ([1, 3], [])]
#: Odd corners for search's fast path: cut-offs, the draw cap, an attack, trapped turns, a
#: winning first action, sirens on their islands, a last_turn out of the usual order. All
#: with the draw cap: random play from a few sailors may never end without it.
CAP = {"draw_cap": 400}
FAST_POSITIONS = {
    "draw cap": lambda: make(([2, 2], 2), ([4, 4], 2), [([1, 1], [GOLD]), ([3, 3], [SILVER])],
                             options=CAP, turn=398),
    "mid attack": lambda: GAME.from_position(pos(([3, 4], 3), ([3, 4], 2), [([2, 2], [1])],
                                                 actions_left=1, placing={"at": [3, 4]}),
                                           options=CAP),
    "trapped next": lambda: make(([4, 2], 2), ([5, 4], 0), [
        ([4, 3], [GOLD]), ([4, 4], [GOLD]), ([4, 5], [GOLD]), ([5, 3], [GOLD, SILVER])],
        options=CAP),
    "wins at once": lambda: make(([5, 0], 0), ([5, 5], 2), [
        ([4, 0], [GOLD, GOLD, SILVER]), ([4, 1], [GOLD, GOLD, SILVER]),
        ([5, 1], [GOLD, GOLD, SILVER]), ([0, 1], [GOLD])], scores=(3, 2), options=CAP),
    "on the islands": lambda: make(([0, 0], 1), ([5, 5], 3), [
        ([0, 1], [SILVER]), ([1, 1], [GOLD, SILVER]), ([4, 4], [GOLD]), ([4, 5], [1, 0]),
        ([2, 2], [])], to_move=SILVER, turn=2, options=CAP),
    "odd last_turn": lambda: GAME.from_position({
        **GAME.new_game(seed=3).view(None), "to_move": [GOLD], "actions_left": 2, "turn": 2,
        "last_turn": [{"p": GOLD, "action": "Sb2", "from": [0, 0], "to": [1, 1]},
                      {"p": SILVER, "action": "Se5", "from": [5, 5], "to": [4, 4]},
                      {"p": GOLD, "action": "Sb2", "from": [0, 0], "to": [1, 1]}]},
        options=CAP),
    "edge dead end": lambda: _edge(([0, 2], 0), ([4, 2], 2), _RINGLESS),
    "edge island": lambda: _edge(([0, 2], 1), ([4, 2], 1), [
        ([1, 1], [GOLD]), ([1, 3], []), ([2, 2], [SILVER]), ([3, 1], [SILVER, GOLD])]),
}


def _played(world, rng, depth):
    """search's playout spelled out (random_action_fast played by apply_fast): whether
    nobody was left to move, and the actions."""
    actions = []
    for _ in range(depth):
        if world.is_over():
            return True, actions
        p = world.to_move()[0]
        actions.append((p, world.random_action_fast(p, rng)))
        world.apply_fast(p, actions[-1][1])
    return False, actions


@pytest.mark.parametrize("name", list(FAST_POSITIONS))
def test_a_fast_playout_from_odd_positions_is_the_public_protocols_game(name):
    """playout_fast (one loop on local copies, handing odd cases to the rules code) plays
    the plain loop's moves, cut off at any depth, and the public protocol replaying those
    moves reaches the very same state."""
    ended = 0
    for seed in range(25):
        for depth in (1, 2, 3, 4, 7, 10**6):
            start = FAST_POSITIONS[name]()
            assert not start.is_over()
            mine, plain = start.clone_fast(), start.clone_fast()
            over = mine.playout_fast(random.Random(seed), depth)
            assert (over, None) == (_played(plain, random.Random(seed), depth)[0], None)
            assert public(mine) == public(plain)
            _, actions = _played(start.clone_fast(), random.Random(seed), depth)
            for p, action in actions:
                start.apply(p, action)
            assert public(mine) == public(start)
            assert mine.trail == start.trail and mine.board == start.board
            ended += start.is_over()
    assert ended or name.startswith("edge")


def _reference_actions(state, p):
    """§5 read plainly off the view (no masks, no tables): ``p``'s actions before N6, in
    the engine's order: siren moves, the attack, gives, takes (each by square), then
    sailor moves (by the sailor's square, then up, left, right, down). During a
    placement: the P actions."""
    v = state.view(None)
    rows, cols = v["rows"], v["cols"]
    islands = [tuple(x) for x in v["islands"]]
    me, them = v["sirens"][p], v["sirens"][1 - p]
    s, o = tuple(me["at"]), tuple(them["at"])
    stacks = {tuple(x["at"]): x["rings"] for x in v["sailors"]}

    def around(x):
        return [(x[0] + dr, x[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if (dr or dc) and 0 <= x[0] + dr < rows and 0 <= x[1] + dc < cols]

    def empty(x):
        return x not in stacks and x != s and x != o

    if v["placing"] is not None:  # N4, N12, N13: both sirens stand on the contested square
        c = tuple(v["placing"]["at"])
        return ["P" + sq(*t) for t in around(c) if t not in islands and t not in stacks]
    out = ["S" + sq(*t) for t in around(s) if empty(t) and t not in islands]       # A1
    if (me["rings"] > them["rings"] and o in around(s) and o != islands[1 - p]    # A5
            and any(t not in islands and t not in stacks for t in around(o))):
        out.append("X" + sq(*o))
    if me["rings"] >= 1:                                                          # A3
        out += ["+" + sq(*t) for t in around(s) if t in stacks and len(stacks[t]) <= 2]
    if me["rings"] <= 2:                                                          # A4
        out += ["-" + sq(*t) for t in around(s) if stacks.get(t) and stacks[t][-1] == p]
    home = islands[p]
    for a in sorted(stacks):                                                      # A2
        if stacks[a] and stacks[a][-1] == p:
            for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0)):
                b = (a[0] + dr, a[1] + dc)
                if (0 <= b[0] < rows and 0 <= b[1] < cols and b != islands[1 - p] and empty(b)
                        and abs(b[0] - home[0]) + abs(b[1] - home[1])
                        == abs(a[0] - home[0]) + abs(a[1] - home[1]) - 1):
                    out.append(f"{sq(*a)}-{sq(*b)}")
    return out


def _n6_reference(state, p):
    """N6 spelled out: the first actions after which a second one can be played (or that
    win), each tried on a copy; an attack after each of its placements."""
    def goes_on(twin):
        return twin.is_over() or bool(twin.legal_actions(p))

    out = []
    for action in _reference_actions(state, p):
        twin = state.clone_fast()
        twin.apply_fast(p, action)
        if twin.placing is not None:
            ok = True
            for place in twin.legal_actions(p):
                after = twin.clone_fast()
                after.apply_fast(p, place)
                ok = ok and goes_on(after)
        else:
            ok = goes_on(twin)
        if ok:
            out.append(action)
    return out


def _reference_legal(state, p):
    """``legal_actions(p)`` by the plain reading: the reference actions, N6 on a first
    action."""
    if state.is_over() or state.to_move() != [p]:
        return []
    v = state.view(None)
    if v["placing"] is None and v["actions_left"] >= 2:
        return _n6_reference(state, p)
    return _reference_actions(state, p)


def _random_positions(seeds=6):
    """Positions along random games (both first-turn options, the small and the
    mid-edge-island layouts) and from the odd positions, each with the player to move."""
    for game, options in ((GAME, {}), (GAME, {"first_turn": 2}), (GAME, {"layout": "small"}),
                          (EDGE, {"draw_cap": 400})):
        for seed in range(seeds):
            state = game.new_game(seed=seed, options=options)
            rng = random.Random(seed)
            while not state.is_over():
                yield state
                p = state.to_move()[0]
                state.apply(p, rng.choice(state.legal_actions(p)))
    for name, make_start in FAST_POSITIONS.items():
        state = make_start()
        rng = random.Random(len(name))
        for _ in range(60):
            if state.is_over():
                break
            yield state
            p = state.to_move()[0]
            state.apply(p, rng.choice(state.legal_actions(p)))


def test_legal_actions_are_the_plain_reading_of_the_rules():
    """The one move generation (masks, in CanosaState._play) and N6 (tried only where
    _n6_may_refuse says it may refuse) against §5 and N6 read plainly off the view, on the
    public state and on a fast copy, for both players, from every point of random games."""
    n = 0
    for state in _random_positions():
        fast = state.clone_fast()
        for p in (GOLD, SILVER):
            want = _reference_legal(state, p)
            assert state.legal_actions(p) == want, (state.view(None), p)
            assert fast.legal_actions(p) == want
        n += 1
    assert n > 2000


def test_the_fast_draw_asks_the_rules_code_where_n6_can_refuse():
    from pygames.canosa import _n6_may_refuse
    # Leaving the mid-edge island: b1 and d1 are free, but from either she could do
    # nothing (no ring, no sailor of hers, every square around taken): N6 refuses both,
    # except d1 while e1 is free.
    state = _edge(([0, 2], 0), ([4, 2], 2), _RINGLESS + [([0, 4], []), ([1, 4], [])])
    assert state.is_over() and state.outcome()["reason"] == "trapped"
    state = _edge(([0, 2], 0), ([4, 2], 2), _RINGLESS + [([1, 4], [])])
    assert state.legal_actions(GOLD) == ["Sd1"]
    fast = state.clone_fast()
    geo = fast._geo
    island = geo.islands[GOLD]
    free, _, _, _, moves = fast._moves()
    assert free == geo.n8freemask[island] & fast._open and free.bit_count() == 2
    assert _n6_may_refuse(geo, GOLD, island, free, fast._open, moves)
    assert fast.legal_actions(GOLD) == ["Sd1"]
    assert {fast.random_action_fast(GOLD, random.Random(seed)) for seed in range(20)} == {"Sd1"}
    # With a sailor of hers able to move elsewhere, nothing is refused (and the rules code
    # does not try).
    state = _edge(([0, 2], 0), ([4, 2], 2), [*_RINGLESS[:4], ([1, 3], [GOLD]),
                                              ([2, 4], [GOLD]), ([1, 4], [])])
    fast = state.clone_fast()
    free, _, _, _, moves = fast._moves()
    assert moves and not _n6_may_refuse(geo, GOLD, island, free, fast._open, moves)
    assert state.legal_actions(GOLD) == state._legal(GOLD, False) == fast.legal_actions(GOLD)
    assert _n6_may_refuse(geo, GOLD, island, free, fast._open, 0)  # a dead end without them
    # In random games: wherever the rules code does not try, N6 refuses nothing.
    sure = 0
    for state in _random_positions(12):
        p = state.to_move()[0]
        if state.placing is None and state.actions_left >= 2:
            s = state.sirens[p]
            free, _, _, _, moves = state._moves()
            if not _n6_may_refuse(state._geo, p, s, free, state._open, moves):
                assert _n6_reference(state, p) == _reference_actions(state, p)
                sure += s == state._geo.islands[p]
    assert sure > 50


def test_the_estimate_reads_the_position_alone():
    """estimate (search's judgement of a playout cut short) is the same on a fast copy, on
    the state rebuilt from the view, and after the same moves by the fast path; it sums to
    1 and favours the side with more sailors home."""
    for state in _random_positions(2):
        fast = state.clone_fast()
        twin = GAME.from_position(state.view(None), options=state.options) if (
            state.options["layout"] != "edge") else fast
        gold, silver = state.estimate()
        assert fast.estimate() == twin.estimate() == [gold, silver]
        assert 0 < gold < 1 and abs(gold + silver - 1) < 1e-12
    ahead = make(([2, 2], 2), ([3, 3], 2), [([1, 1], [GOLD]), ([4, 4], [SILVER])], scores=(2, 0))
    level = make(([2, 2], 2), ([3, 3], 2), [([1, 1], [GOLD]), ([4, 4], [SILVER])])
    assert ahead.estimate()[GOLD] > level.estimate()[GOLD] == pytest.approx(0.5)
    nearer = make(([2, 2], 2), ([3, 3], 2), [([0, 1], [GOLD]), ([4, 4], [SILVER])])
    assert nearer.estimate()[GOLD] > 0.5 > nearer.estimate()[SILVER]
    assert make(([2, 2], 3), ([3, 3], 1), []).estimate()[GOLD] > 0.5


def test_the_game_is_registered():
    assert "canosa" in pygames.game_ids() and "canosa" not in pygames.PLANNED
    assert GAME.names == {"en": "Canosa", "ja": "カノーサ"}
    assert (GAME.min_players, GAME.max_players) == (2, 2)
    for name, spec in GAME.option_schema.items():
        labels = GAME.option_labels[name]
        assert set(labels["label"]) == {"en", "ja"}
        for value in spec["values"]:
            assert set(labels[value]) == {"en", "ja"}
    with pytest.raises(ValueError, match="players"):
        GAME.new_game(seed=0, players=3)
