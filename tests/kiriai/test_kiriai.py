"""Kiri-ai: The Duel — rule tests against ``shared/rules/kiriai.md``.

Every worked example of spec §9, every decision K1–K10 of §10, and the other rules of
§3–§8, driven through the public protocol (``apply`` / ``legal_actions`` / ``view``).
Mid-game positions that are awkward to reach by play are made by setting the state's plain
fields (``pos``, ``stance``, ``wounds``, ``special``, ``aside``) before applying programs.

Player 0 is Red (space 1 end), player 1 is Blue (space N end).
"""

from __future__ import annotations

import random

import pytest
from helpers.protocol import public

import pygames
from pygames import IllegalAction

GAME = pygames.get_game("kiriai")
RED, BLUE = 0, 1
H, E = "H", "E"


# -- helpers ---------------------------------------------------------------------------------
def new(seed: int = 1, **options):
    return GAME.new_game(seed=seed, options=options)


def position(pos, stance=(H, H), *, wounds=(0, 0), special=("K", "X"), aside=(None, None),
             battlefield="standard", seed=1, **options):
    """A game in the programming phase with the given public state (Red first, Blue second)."""
    s = new(seed, battlefield=battlefield, **options)
    if battlefield == "advanced":
        s.apply(RED, "2H")
        s.apply(BLUE, "2H")
    s.pos = list(pos)
    s.stance = list(stance)
    s.wounds = list(wounds)
    s.special = list(special)
    s.aside = list(aside)
    return s


def play(s, red: str, blue: str) -> None:
    """Program one round (Red, then Blue); the round resolves on Blue's program."""
    s.apply(RED, red)
    s.apply(BLUE, blue)


def board(s):
    return s.view(None)["board"]


def step_events(s, step: int):
    """Events of the latest reveal number ``step`` (up to the next reveal / clean-up)."""
    starts = [i for i, e in enumerate(s.log) if e["t"] == "reveal" and e["step"] == step]
    assert starts, f"no reveal {step} in the log"
    out = []
    for e in s.log[starts[-1] + 1:]:
        if e["t"] in ("reveal", "aside", "round"):
            break
        out.append(e)
    return out


def of(events, t, p=None):
    return [e for e in events if e["t"] == t and (p is None or e.get("p") == p)]


def strike(s, step: int, p: int):
    (e,) = of(step_events(s, step), "strike", p)
    return e


def values(obj):
    """Every scalar inside a JSON-like object (dict values, list items), recursively."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from values(v)
    elif isinstance(obj, list | tuple):
        for v in obj:
            yield from values(v)
    else:
        yield obj


# -- §9 worked examples ----------------------------------------------------------------------
def test_example1_opening_double_charge():
    s = new(seed=1)
    play(s, "CB", "CH")
    moves = of(step_events(s, 1), "move")
    assert [(m["p"], m["from"], m["to"]) for m in moves] == [(RED, 1, 3), (BLUE, 5, 3)]
    assert board(s) == {"pos": [3, 3], "stance": [H, H], "wounds": [0, 1]}
    assert strike(s, 2, RED)["hit"] is True
    assert strike(s, 2, BLUE) == {"t": "strike", "p": BLUE, "card": "H", "hit": False,
                                  "why": "range"}
    assert of(step_events(s, 2), "wound") == [{"t": "wound", "p": BLUE, "wounds": 1}]
    assert s.view(None)["hands"][RED]["aside"] == "B"
    assert s.view(None)["hands"][BLUE]["aside"] == "H"
    assert not s.is_over()


def test_example2_equal_movement():
    s = position((2, 5))
    play(s, "CH", "CH")  # High misses at d=1: only the movement matters
    assert board(s)["pos"] == [3, 4]
    assert board(s)["wounds"] == [0, 0]


def test_example3_heaven_first():
    s = position((1, 4), (H, E))
    play(s, "AH", "CH")  # both Highs miss (d=0; Blue also in Earth)
    moves = of(step_events(s, 1), "move")
    # G2 (Heaven Approach) before G3 (Earth Charge); Blue stops on Red's space.
    assert [(m["p"], m["from"], m["to"]) for m in moves] == [(RED, 1, 2), (BLUE, 4, 2)]
    assert board(s) == {"pos": [2, 2], "stance": [H, E], "wounds": [0, 0]}


def test_example4_both_hit_cancel_then_zantetsu_switch():
    s = position((2, 4), (H, E), special=("K", "Z"))
    play(s, "HL", "ZB")  # action 2: Red Low needs Earth, Blue Balanced needs d=0: both miss
    ev = step_events(s, 1)
    assert strike(s, 1, RED)["hit"] and strike(s, 1, BLUE)["hit"]
    assert of(ev, "clash") == [{"t": "clash"}]
    assert of(ev, "wound") == []
    assert of(ev, "stance", BLUE) == [{"t": "stance", "p": BLUE, "card": "Z", "to": H}]
    assert board(s) == {"pos": [2, 4], "stance": [H, H], "wounds": [0, 0]}
    hand = s.view(None)["hands"][BLUE]
    assert hand["special"] == "Z" and hand["special_spent"] is True
    assert not any("Z" in a for a in s.legal_actions(BLUE))


def test_example5_counterattack():
    s = position((2, 3), (E, H), special=("K", "X"))
    play(s, "LH", "XH")  # action 2: Red High needs Heaven, Blue High needs d=2: both miss
    ev = step_events(s, 1)
    assert strike(s, 1, RED)["hit"] is True  # would have hit
    assert of(ev, "counter") == [{"t": "counter", "p": BLUE, "hit": True}]
    assert of(ev, "wound") == [{"t": "wound", "p": RED, "wounds": 1}]
    assert board(s)["wounds"] == [1, 0]


def test_example6_stance_failure_and_set_aside():
    s = position((2, 5), (E, H))
    play(s, "AH", "RL")  # Red approaches to d=2 but is in Earth; Blue stays on its end
    assert board(s)["pos"] == [3, 5]
    assert strike(s, 2, RED) == {"t": "strike", "p": RED, "card": "H", "hit": False,
                                 "why": "stance"}
    assert board(s)["wounds"] == [0, 0]
    # Round 2: High is set aside and may not be used.
    red = s.view(RED)
    assert red["hands"][RED]["aside"] == "H"
    assert "H" not in red["playable"] and "H" not in red["hands"][RED]["cards"]
    assert not any("H" in a for a in s.legal_actions(RED))
    with pytest.raises(IllegalAction):
        s.apply(RED, "CH")
    play(s, "CB", "AS")
    # After round 2, High is back and Balanced is set aside.
    red = s.view(RED)
    assert red["hands"][RED]["aside"] == "B"
    assert "H" in red["playable"] and "B" not in red["playable"]
    assert "CH" in s.legal_actions(RED) and "CB" not in s.legal_actions(RED)


def test_example7_edge_retreat_does_not_fall_off():
    s = new()
    play(s, "RH", "HL")  # Blue does not move
    (m,) = of(step_events(s, 1), "move", RED)
    assert (m["from"], m["to"]) == (1, 1)
    assert board(s)["pos"] == [1, 5]


# -- §10 decisions ---------------------------------------------------------------------------
def test_k1_standard_start():
    s = new(seed=3)
    assert s.view(None)["size"] == 5
    assert board(s) == {"pos": [1, 5], "stance": [H, H], "wounds": [0, 0]}
    assert [h["aside"] for h in s.view(None)["hands"]] == [None, None]  # §3.4
    assert s.to_move() == [RED, BLUE]
    assert s.view(None)["phase"] == "program"


@pytest.mark.parametrize(("pos", "red", "blue", "after"), [
    ((1, 2), "CH", "SH", [2, 2]),   # Red charges 2 but stops on Blue's space
    ((4, 5), "SH", "CH", [4, 4]),   # Blue likewise
    ((3, 3), "AH", "SH", [3, 3]),   # already sharing: Approach cannot pass
    ((3, 3), "SH", "CH", [3, 3]),
])
def test_k2_stop_on_opponent_never_beyond(pos, red, blue, after):
    s = position(pos)
    play(s, red, blue)
    assert board(s)["pos"] == after


STRIKE_TABLE = {"H": ((2,), H), "L": ((1,), E), "B": ((0,), None),
                "K": ((0, 1), H), "Z": ((2, 3), E)}


@pytest.mark.parametrize("card", list(STRIKE_TABLE))
@pytest.mark.parametrize("stance", [H, E])
@pytest.mark.parametrize("d", [0, 1, 2, 3, 4])
def test_k3_k4_strike_geometry_and_attacker_stance(card, stance, d):
    ranges, need = STRIKE_TABLE[card]
    expected = d in ranges and need in (None, stance)
    # Blue is in the other stance: only the attacker's own stance matters (K4).
    other = E if stance == H else H
    s = position((5 - d, 5), (stance, other), special=(card if card in "KZ" else "K", "X"))
    play(s, card + "S", "RS")  # Blue retreats on its end (no move); both flip in action 2
    e = strike(s, 1, RED)
    assert e["hit"] is expected
    if not expected:
        assert e["why"] == ("stance" if need not in (None, stance) else "range")
    assert board(s)["wounds"] == [0, int(expected)]


def test_k4_opponent_change_stance_same_reveal_is_irrelevant():
    s = position((2, 3), (E, H))
    play(s, "LH", "SH")  # Blue flips to Earth in the same reveal; Red's Low still hits
    assert strike(s, 1, RED)["hit"] is True
    assert board(s)["wounds"] == [0, 1]


def test_k5_special_as_second_card():
    s = position((1, 5), special=("K", "X"))
    play(s, "RH", "RL")
    assert s.aside == ["H", "L"]
    n = len(s.log)
    play(s, "AK", "RB")
    assert [e for e in s.log[n:] if e["t"] == "aside"] == [
        {"t": "aside", "p": BLUE, "card": "B"}]
    red = s.view(RED)["hands"][RED]
    assert red["aside"] is None                        # nothing set aside ...
    assert red["special_spent"] is True                # ... the special is spent ...
    assert "H" in red["cards"] and "H" in s.view(RED)["playable"]  # ... High returned
    assert "K" not in s.view(RED)["playable"]
    assert "HB" in s.legal_actions(RED)


def test_spent_special_cannot_be_played_again():
    s = position((1, 5), special=("K", "X"))
    play(s, "KR", "RL")  # Kesa (misses at d=4) spent in action 1
    assert s.spent == [True, False]
    assert all("K" not in a for a in s.legal_actions(RED))
    before = s.clone()
    with pytest.raises(IllegalAction, match="already spent"):
        s.apply(RED, "KB")
    assert s == before


def _play_rounds(s, n):
    """n quiet rounds: both retreat on their end, then a strike that cannot hit at d=4."""
    for _ in range(n):
        second = "B" if s.aside[RED] == "L" else "L"
        play(s, "R" + second, "R" + second)


def test_k6_round_limit_200_is_a_draw():
    s = new(round_limit=200)
    _play_rounds(s, 199)
    assert not s.is_over() and s.outcome() is None and s.view(None)["round"] == 200
    _play_rounds(s, 1)
    assert s.is_over()
    assert s.outcome() == {"winners": [], "ranks": [1, 1], "scores": [0, 0],
                           "reason": "round_limit"}
    assert s.log[-1] == {"t": "end", "winner": None, "reason": "round_limit"}
    assert s.to_move() == [] and s.legal_actions(RED) == []
    assert board(s)["wounds"] == [0, 0]


def test_k6_no_cap_by_default():
    s = new()
    assert s.options["round_limit"] == 0
    _play_rounds(s, 250)
    assert not s.is_over() and s.outcome() is None
    assert s.view(None)["round"] == 251 and s.to_move() == [RED, BLUE]


def test_k7_advanced_shared_middle_start():
    s = new(battlefield="advanced")
    s.apply(RED, "4H")
    s.apply(BLUE, "4E")
    assert board(s) == {"pos": [4, 4], "stance": [H, E], "wounds": [0, 0]}


@pytest.mark.parametrize(("pos", "red", "blue", "after"), [
    ((3, 3), "A", "R", [4, 4]),   # the spec's example
    ((2, 3), "A", "R", [3, 4]),
    ((3, 3), "R", "A", [2, 2]),
    ((2, 4), "R", "R", [1, 5]),
    ((1, 5), "R", "R", [1, 5]),   # both on their ends: clamped
    ((4, 5), "A", "R", [5, 5]),   # Blue cannot retreat off space 5
])
def test_k8_independent_approach_retreat_pair(pos, red, blue, after):
    s = position(pos)
    play(s, red + "L", blue + "L")  # Low needs Earth: both miss
    moves = of(step_events(s, 1), "move")
    assert {m["p"]: (m["from"], m["to"]) for m in moves} == {
        RED: (pos[0], after[0]), BLUE: (pos[1], after[1])}
    assert board(s)["pos"] == after


@pytest.mark.parametrize(("card", "stance", "pos", "after"), [
    ("K", H, (1, 5), E),   # Kesa out of range: still switches to Earth
    ("K", E, (2, 3), E),   # Kesa in wrong stance: ends in Earth
    ("Z", E, (3, 3), H),   # Zan-Tetsu out of range: still switches to Heaven
    ("Z", H, (2, 4), H),
])
def test_k9_kesa_zantetsu_switch_on_miss(card, stance, pos, after):
    s = position(pos, (stance, H), special=(card, "X"))
    play(s, card + "R", "SR")  # Blue only changes stance / retreats: no strike against Red
    assert strike(s, 1, RED)["hit"] is False
    (sw,) = of(step_events(s, 1), "stance", RED)
    assert sw == {"t": "stance", "p": RED, "card": card, "to": after}
    assert s.stance[RED] == after
    assert s.spent[RED] is True


@pytest.mark.parametrize("blue", ["AL", "SR", "CL", "RL"])
def test_k10_counterattack_against_non_attack(blue):
    s = position((1, 5), special=("X", "K"))
    play(s, "XR", blue)
    assert of(step_events(s, 1), "counter") == [{"t": "counter", "p": RED, "hit": False}]
    assert board(s)["wounds"] == [0, 0]
    assert s.view(None)["hands"][RED] | {"cards": None} == {
        "cards": None, "aside": "AR", "special": "X", "special_spent": True}
    assert all("X" not in a for a in s.legal_actions(RED))


def test_counterattack_against_missed_strike_does_nothing():
    s = position((1, 5), special=("X", "K"))
    play(s, "XR", "HR")  # High misses at d=4
    assert of(step_events(s, 1), "counter") == [{"t": "counter", "p": RED, "hit": False}]
    assert board(s)["wounds"] == [0, 0]
    assert s.spent[RED] is True


# -- §4 programming rules --------------------------------------------------------------------
@pytest.mark.parametrize(("second", "blocked"), [("A", "AR"), ("R", "AR"),
                                                 ("C", "CS"), ("S", "CS")])
def test_set_aside_movement_card_blocks_both_halves(second, blocked):
    s = new()
    first = "H" if second in "AR" else "L"
    play(s, first + second, "HL")
    assert s.view(None)["hands"][RED]["aside"] == blocked
    legal = s.legal_actions(RED)
    for half in blocked:
        assert not any(half in a for a in legal)
        before = s.clone()
        with pytest.raises(IllegalAction, match="set aside"):
            s.apply(RED, half + "B")
        assert s == before
    assert "LB" in legal  # other cards unaffected


@pytest.mark.parametrize("program", ["AR", "RA", "CS", "SC", "AA", "CC", "HH", "BB"])
def test_same_physical_card_twice_is_illegal(program):
    s = new()
    assert program not in s.legal_actions(RED)
    before = s.clone()
    with pytest.raises(IllegalAction, match="same physical card"):
        s.apply(RED, program)
    assert s == before


def test_opening_legal_programs():
    s = position((1, 5), special=("K", "X"))
    letters = "ARCSHLBK"
    phys = {"A": 0, "R": 0, "C": 1, "S": 1}
    want = {a + b for a in letters for b in letters
            if a != b and not (a in phys and b in phys and phys[a] == phys[b])}
    assert set(s.legal_actions(RED)) == want and len(want) == 52
    assert not any(c in a for a in s.legal_actions(BLUE) for c in "KZ")


def test_game_ending_in_action_1_skips_action_2():
    s = position((3, 3), wounds=(0, 1), special=("Z", "K"))
    play(s, "BR", "AK")  # Blue's Approach cannot pass; Red's Balanced hits
    assert s.is_over()
    assert s.outcome() == {"winners": [RED], "ranks": [1, 2], "scores": [1, 0],
                           "reason": "wounds"}
    assert [e["step"] for e in s.log if e["t"] == "reveal"] == [1]
    assert s.log[-1] == {"t": "end", "winner": RED, "reason": "wounds"}
    assert board(s) == {"pos": [3, 3], "stance": [H, H], "wounds": [0, 2]}  # no Retreat
    assert s.spent == [False, False]                       # unrevealed Kesa not spent
    assert s.view(None)["hands"][BLUE]["special"] is None  # ... and still hidden
    assert s.view(RED)["hands"][BLUE]["special"] is None
    assert s.aside == [None, None]                        # no clean-up
    assert s.to_move() == [] and s.legal_actions(BLUE) == []
    before = s.clone()
    with pytest.raises(IllegalAction, match="over"):
        s.apply(RED, "CB")
    assert s == before


def test_second_wound_in_action_2_blue_wins():
    s = position((2, 3), (H, E), wounds=(1, 0))
    play(s, "RH", "AL")  # Red (Heaven) retreats to 1, then Blue (Earth) approaches to 2
    assert s.is_over()
    assert s.outcome() == {"winners": [BLUE], "ranks": [2, 1], "scores": [0, 1],
                           "reason": "wounds"}
    assert board(s)["wounds"] == [2, 0]


def test_wound_one_does_not_end_the_game():
    s = position((3, 3))
    play(s, "BR", "SR")
    assert board(s)["wounds"] == [0, 1] and not s.is_over()
    assert s.view(None)["round"] == 2


# -- §5.1 movement ---------------------------------------------------------------------------
@pytest.mark.parametrize(("stances", "red", "blue", "after"), [
    ((E, H), "A", "C", [2, 2]),   # Heaven Charge (Blue) before Earth Approach
    ((H, E), "A", "C", [3, 3]),   # Heaven Approach (Red) before Earth Charge
    ((H, H), "A", "C", [2, 2]),   # same stance: Charge before Approach
    ((E, E), "C", "A", [4, 4]),
])
def test_movement_order(stances, red, blue, after):
    s = position((2, 4), stances)
    play(s, red + "H", blue + "H")  # Highs miss (d=0 after movement)
    assert board(s)["pos"] == after


@pytest.mark.parametrize(("bf", "pos", "after"), [
    ("advanced", (1, 7), [3, 5]),   # d=6 -> 2 each
    ("advanced", (1, 6), [3, 4]),   # d=5 -> 2 each
    ("standard", (1, 5), [3, 3]),   # d=4 -> 2 each
    ("standard", (1, 4), [2, 3]),   # d=3 -> 1 each
    ("standard", (2, 4), [3, 3]),   # d=2 -> 1 each
    ("standard", (2, 3), [2, 3]),   # d=1 -> nobody
    ("standard", (3, 3), [3, 3]),   # d=0 -> nobody
])
@pytest.mark.parametrize("stance", [H, E])
def test_charge_pair_distances(bf, pos, after, stance):
    s = position(pos, (stance, stance), battlefield=bf)
    play(s, "CR", "CR")
    (red, blue) = of(step_events(s, 1), "move")
    assert (red["to"], blue["to"]) == tuple(after)


@pytest.mark.parametrize(("pos", "after"), [
    ((1, 5), [2, 4]), ((1, 4), [2, 3]), ((2, 4), [3, 3]), ((2, 3), [2, 3]), ((3, 3), [3, 3]),
])
def test_approach_pair_distances(pos, after):
    s = position(pos)
    play(s, "AL", "AL")
    assert board(s)["pos"] == after


@pytest.mark.parametrize(("before", "after"), [((H, H), [E, E]), ((H, E), [E, H]),
                                               ((E, E), [H, H])])
def test_change_stance_both_at_once(before, after):
    s = position((1, 5), before)
    play(s, "SB", "SB")
    ev = of(step_events(s, 1), "stance")
    assert [(e["p"], e["to"]) for e in ev] == [(RED, after[0]), (BLUE, after[1])]
    assert board(s)["stance"] == after and board(s)["pos"] == [1, 5]


def test_blue_retreat_on_its_end_does_not_move():
    s = position((2, 5))
    play(s, "HL", "RL")
    (m,) = of(step_events(s, 1), "move", BLUE)
    assert (m["from"], m["to"]) == (5, 5)
    s = position((2, 7), battlefield="advanced")
    play(s, "HL", "RL")
    assert board(s)["pos"] == [2, 7]


def test_single_retreat_moves_one_back():
    s = position((3, 4))
    play(s, "RL", "HL")
    assert board(s)["pos"] == [2, 4]
    s = position((3, 4))
    play(s, "HL", "RL")
    assert board(s)["pos"] == [3, 5]


# -- §5.2 stance timing ----------------------------------------------------------------------
def test_change_stance_in_action_1_applies_to_action_2_attack():
    s = position((2, 3), (H, H))
    play(s, "SL", "HB")  # Red: Heaven -> Earth, then Low at d=1 hits
    assert strike(s, 2, RED)["hit"] is True
    assert board(s)["wounds"] == [0, 1]
    s = position((2, 3), (E, H))
    play(s, "SL", "HB")  # Red: Earth -> Heaven, so the Low fails on stance
    assert strike(s, 2, RED)["why"] == "stance"
    assert board(s)["wounds"] == [0, 0]


def test_change_stance_in_action_1_applies_to_action_2_grouping():
    # Red (Heaven) Approach would go before Blue's Earth Charge (-> both on 3), but Red
    # turns Earth in action 1, so in action 2 Blue's Charge (G3) goes before Red's (G4).
    s = position((2, 4), (H, E))
    play(s, "SA", "HC")  # Blue's High misses (Earth)
    assert board(s)["stance"] == [E, E]
    moves = of(step_events(s, 2), "move")
    assert [(m["p"], m["to"]) for m in moves] == [(BLUE, 2), (RED, 2)]
    assert board(s)["pos"] == [2, 2]
    s = position((2, 4), (H, E))
    play(s, "LA", "HC")  # control: Red still in Heaven -> Red moves first
    assert board(s)["pos"] == [3, 3]


def test_kesa_switch_in_action_1_applies_to_action_2():
    s = position((2, 3), (H, H), special=("K", "X"))
    play(s, "KL", "HB")  # Kesa hits at d=1 (Red -> Earth), then Earth-only Low hits too
    assert strike(s, 1, RED)["hit"] is True
    assert strike(s, 2, RED)["hit"] is True  # Earth Low at d=1
    assert s.is_over() and s.outcome()["winners"] == [RED]


# -- §5.2 Counterattack ----------------------------------------------------------------------
def test_counterattack_answers_kesa_and_kesa_still_switches():
    s = position((2, 3), (H, H), special=("K", "X"))
    play(s, "KH", "XH")  # action 2: Red High needs Heaven (Red now Earth); Blue High d=1
    ev = step_events(s, 1)
    assert strike(s, 1, RED)["hit"] is True
    assert of(ev, "counter") == [{"t": "counter", "p": BLUE, "hit": True}]
    assert of(ev, "wound") == [{"t": "wound", "p": RED, "wounds": 1}]
    assert of(ev, "stance", RED) == [{"t": "stance", "p": RED, "card": "K", "to": E}]
    assert board(s) == {"pos": [2, 3], "stance": [E, H], "wounds": [1, 0]}


def test_counterattack_answers_zantetsu_and_zantetsu_still_switches():
    s = position((2, 4), (E, H), special=("Z", "X"))
    play(s, "ZL", "XB")  # action 2: Red Low needs Earth (Red now Heaven); Blue Balanced d=2
    assert of(step_events(s, 1), "counter") == [{"t": "counter", "p": BLUE, "hit": True}]
    assert board(s) == {"pos": [2, 4], "stance": [H, H], "wounds": [1, 0]}


def test_counterattack_by_red():
    s = position((3, 3), special=("X", "K"))
    play(s, "XR", "BR")
    assert board(s)["wounds"] == [0, 1]


def test_both_counterattack_nothing_happens():
    # Unreachable in a real game (there is only one Counterattack card); defensive only.
    s = position((3, 3), special=("X", "X"))
    play(s, "XR", "XR")
    ev = step_events(s, 1)
    assert of(ev, "counter") == [{"t": "counter", "p": RED, "hit": False},
                                 {"t": "counter", "p": BLUE, "hit": False}]
    assert of(ev, "wound") == [] and of(ev, "clash") == []
    assert board(s)["wounds"] == [0, 0] and s.spent == [True, True]


def test_zantetsu_kill_does_not_switch_stance():
    # §5.3: the switch happens after damage, only if the game continues.
    s = position((2, 4), (E, H), wounds=(0, 1), special=("Z", "X"))
    play(s, "ZB", "RB")  # Blue retreats to 5: d=3, Zan-Tetsu hits
    assert s.is_over() and s.outcome()["winners"] == [RED]
    assert board(s)["stance"] == [E, H]


# -- Advanced setup (§3.3) -------------------------------------------------------------------
def test_advanced_setup_choices_and_hidden_positions():
    s = new(battlefield="advanced")
    want = {"2H", "2E", "3H", "3E", "4H", "4E"}
    assert s.to_move() == [RED, BLUE]
    for p in (RED, BLUE):
        assert sorted(s.legal_actions(p)) == sorted(want)
        assert s.view(p)["board"]["pos"] is None and s.view(p)["board"]["stance"] is None
    s.apply(RED, "3E")
    assert s.legal_actions(RED) == [] and s.to_move() == [BLUE]
    for p in (RED, BLUE, None):
        v = s.view(p)
        assert v["phase"] == "setup"
        assert v["board"]["pos"] is None and v["board"]["stance"] is None
    assert s.view(RED)["mine"] == "3E"
    assert s.view(BLUE)["mine"] is None and s.view(None)["mine"] is None
    for p in (BLUE, None):
        assert "3E" not in list(values(s.view(p)))
    assert s.view(BLUE)["ready"] == [True, False]
    s.apply(BLUE, "2H")
    v = s.view(None)
    assert v["size"] == 7 and v["phase"] == "program"
    assert v["board"] == {"pos": [3, 6], "stance": [E, H], "wounds": [0, 0]}
    assert {"t": "start", "pos": [3, 6], "stance": [E, H]} in s.log
    assert s.to_move() == [RED, BLUE] and "CB" in s.legal_actions(BLUE)


@pytest.mark.parametrize(("red", "blue", "pos"), [("2H", "2H", [2, 6]), ("4E", "3H", [4, 5]),
                                                  ("2E", "4E", [2, 4])])
def test_advanced_start_spaces_count_from_own_end(red, blue, pos):
    s = new(battlefield="advanced")
    s.apply(RED, red)
    s.apply(BLUE, blue)
    assert board(s)["pos"] == pos
    assert board(s)["stance"] == [red[1], blue[1]]


@pytest.mark.parametrize("action", ["1H", "5H", "3X", "3", "CB", "3h", ""])
def test_advanced_setup_rejects_bad_choices(action):
    s = new(battlefield="advanced")
    before = s.clone()
    with pytest.raises(IllegalAction, match="2, 3 or 4"):
        s.apply(RED, action)
    assert s == before


# -- §4 illegal actions leave the state unchanged --------------------------------------------
def _after_round_one():
    s = position((1, 5), special=("K", "Z"))
    play(s, "AH", "RL")
    return s


@pytest.mark.parametrize(("setup", "player", "action", "match"), [
    ("wrong_turn", RED, "CH", "not player 1's turn"),
    ("fresh", RED, "CH", None),  # sanity: the same action is fine on a fresh state
    ("aside", RED, "CH", "set aside"),
    ("aside", RED, "HC", "set aside"),
    ("aside", BLUE, "LA", "set aside"),
    ("fresh", RED, "", "not a program"),
    ("fresh", RED, "C", "not a program"),
    ("fresh", RED, "CBH", "not a program"),
    ("fresh", RED, "cb", "not a program"),
    ("fresh", RED, "Q1", "not a program"),
    ("fresh", RED, "3H", "not a program"),
    ("fresh", RED, "C ", "not a program"),
    ("fresh", RED, "CX", "do not hold Counterattack"),
    ("fresh", BLUE, "KB", "do not hold Kesa"),
    ("fresh", RED, 12, "short text"),
    ("fresh", 2, "CB", "no player"),
    ("fresh", -1, "CB", "no player"),
])
def test_illegal_actions_leave_state_unchanged(setup, player, action, match):
    if setup == "aside":
        s = _after_round_one()
    else:
        s = position((1, 5), special=("K", "Z"))
        if setup == "wrong_turn":
            s.apply(RED, "AB")
    before = s.clone()
    views = [s.view(p) for p in (RED, BLUE, None)]
    if match is None:
        s.apply(player, action)
        return
    with pytest.raises(IllegalAction, match=match):
        s.apply(player, action)
    assert s == before
    assert [s.view(p) for p in (RED, BLUE, None)] == views


def test_illegal_action_message_names_the_card():
    s = _after_round_one()
    with pytest.raises(IllegalAction) as info:
        s.apply(RED, "BH")
    assert "High Strike" in str(info.value)


# -- §8 hidden information -------------------------------------------------------------------
def test_hidden_program_and_special():
    s = position((1, 5), special=("K", "Z"))
    s.apply(RED, "CK")
    v0, v1, vn = s.view(RED), s.view(BLUE), s.view(None)
    assert v0["mine"] == "CK" and v0["hands"][RED]["special"] == "K"
    assert v1["mine"] is None and vn["mine"] is None
    assert v1["ready"] == [True, False]
    assert v1["hands"][RED]["special"] is None and v1["hands"][BLUE]["special"] == "Z"
    assert vn["hands"][RED]["special"] is None and vn["hands"][BLUE]["special"] is None
    assert v0["hands"][BLUE]["special"] is None
    for v in (v1, vn):
        seen = list(values(v))
        assert "CK" not in seen and "K" not in seen
    assert "Z" not in list(values(v0)) and "Z" not in list(values(vn))
    s.apply(BLUE, "RH")
    # Kesa was the 2nd card: revealed, spent, public.
    for p in (RED, BLUE, None):
        hand = s.view(p)["hands"][RED]
        assert hand["special"] == "K" and hand["special_spent"] is True
    assert s.view(RED)["hands"][BLUE]["special"] is None
    assert s.view(None)["hands"][BLUE]["special"] is None


def test_third_special_is_never_seen():
    for seed in range(20):
        s = new(seed=seed)
        assert len(set(s.special)) == 2 and set(s.special) <= set("KZX")
        unused = (set("KZX") - set(s.special)).pop()
        play(s, s.special[RED] + "R", s.special[BLUE] + "R")  # both specials revealed
        for p in (RED, BLUE, None):
            assert unused not in list(values(s.view(p)))


def test_record_replays_to_same_state():
    s = new(seed=5)
    play(s, "CB", "CH")
    play(s, "AH", "SL")
    twin = GAME.from_record(s.record())
    assert twin == s


# -- the fast path for search (clone_fast / apply_fast) --------------------------------------
def fields(s):
    """The game fields of a state (the fast path keeps no log and no record, and keeps
    its board's number and the legal programs besides)."""
    return {k: v for k, v in vars(s).items()
            if k not in ("game", "log", "_actions", "_bid", "_legal")}


#: (position, rounds of (Red, Blue) programs): spec §9 examples and the endings.
FAST_CASES = {
    "example1": ({"pos": (1, 5)}, [("CB", "CH"), ("AH", "SL")]),
    "example2": ({"pos": (2, 5)}, [("CH", "CH")]),
    "example3": ({"pos": (1, 4), "stance": (H, E)}, [("AH", "CH")]),
    "example4": ({"pos": (2, 4), "stance": (H, E), "special": ("K", "Z")}, [("HL", "ZB")]),
    "example5": ({"pos": (2, 3), "stance": (E, H)}, [("LH", "XH")]),
    "example6": ({"pos": (2, 5), "stance": (E, H)}, [("AH", "RL"), ("CB", "AS")]),
    "example7": ({"pos": (1, 5)}, [("RH", "HL")]),
    "special_2nd": ({"pos": (1, 5)}, [("AK", "RX"), ("CB", "SL")]),
    "end_in_action_1": ({"pos": (2, 4), "stance": (E, H), "wounds": (0, 1),
                         "special": ("Z", "X")}, [("ZB", "RB")]),
    "end_in_action_2": ({"pos": (3, 3), "wounds": (1, 1)}, [("AB", "HL")]),
    "advanced": ({"pos": (3, 4), "stance": (E, E), "battlefield": "advanced"},
                 [("RH", "RL"), ("SK", "CX")]),
}


@pytest.mark.parametrize("blue_first", [False, True])
@pytest.mark.parametrize("case", list(FAST_CASES))
def test_fast_path_matches_public_on_worked_examples(case, blue_first):
    where, rounds = FAST_CASES[case]
    s = position(**where)
    fast = s.clone_fast()
    for red, blue in rounds:
        for p, program in ((BLUE, blue), (RED, red)) if blue_first else ((RED, red), (BLUE, blue)):
            s.apply(p, program)
            fast.apply_fast(p, program)
            assert public(fast) == public(s)
            assert fields(fast) == fields(s)
            fast = fast.clone_fast()  # a fast copy of a fast copy too


def test_fast_path_advanced_setup_and_round_limit():
    s = new(battlefield="advanced", round_limit=200)
    fast = s.clone_fast()
    for p, choice in ((BLUE, "4E"), (RED, "2H")):
        s.apply(p, choice)
        fast.apply_fast(p, choice)
        assert fields(fast) == fields(s) and public(fast) == public(s)
    s.round = fast.round = 200
    play(s, "RL", "RL")
    fast.apply_fast(RED, "RL")
    fast.apply_fast(BLUE, "RL")
    assert s.outcome()["reason"] == "round_limit"
    assert fields(fast) == fields(s) and public(fast) == public(s)


def test_fast_clone_is_independent_and_lists_are_fresh():
    s = new(seed=4)
    before = s.clone()
    fast = s.clone_fast()
    fast.apply_fast(RED, "CB")
    fast.apply_fast(BLUE, "CH")
    fast.legal_actions(RED).clear()  # a caller's list is its own: the tables stay intact
    fast.to_move().clear()
    assert s == before and s.log == before.log
    assert fast.log == [] and fast.record()["actions"] == []
    assert fast.view(None)["board"] == {"pos": [3, 3], "stance": [H, H], "wounds": [0, 1]}
    assert fast.legal_actions(RED) == [a for a in s.legal_actions(RED) if "B" not in a]


# -- the determiniser (Game.determinize) -----------------------------------------------------
def world_of(s, seat, n):
    return GAME.determinize(seat, s.view(seat), s.events(seat), pygames.Rng(n))


def hidden_twin(s, p, program):
    """A copy of ``s`` that differs only in what is hidden from ``p``'s opponent: ``p``'s
    unspent special swapped with the unused one, and ``p``'s committed choice."""
    twin = s.clone()
    twin.special[p], twin._unused_special = twin._unused_special, twin.special[p]
    twin.pending[p] = program
    return twin


@pytest.mark.parametrize(("battlefield", "blue", "other"), [("standard", "CZ", "AB"),
                                                            ("advanced", "3E", "4H")])
def test_determinize_reads_only_what_the_seat_saw(battlefield, blue, other):
    s = new(battlefield=battlefield)
    s.special, s._unused_special = ["K", "Z"], "X"
    if battlefield == "standard":
        play(s, "AH", "RL")  # some history first
    s.apply(BLUE, blue)
    twin = hidden_twin(s, BLUE, other)
    assert twin.special != s.special and twin.pending != s.pending
    assert twin.view(RED) == s.view(RED) and twin.events(RED) == s.events(RED)
    for n in range(30):
        world, world2 = world_of(s, RED, n), world_of(twin, RED, n)
        assert world == world2 and world.log == world2.log


def test_determinize_samples_each_hidden_special_and_keeps_the_known_ones():
    s = position((1, 5), special=("K", "Z"))
    for seat, mine in ((RED, "K"), (BLUE, "Z")):
        drawn = [world_of(s, seat, n).special for n in range(200)]
        assert all(w[seat] == mine for w in drawn)
        theirs = [w[1 - seat] for w in drawn]
        for special in set("KZX") - {mine}:
            assert theirs.count(special) > 60, f"{special} is too rarely sampled"
    play(s, "CB", "SZ")  # Blue's Zan-Tetsu revealed: known from then on
    for n in range(50):
        world = world_of(s, RED, n)
        assert world.special == ["K", "Z"] and world._unused_special == "X"
        assert world.spent == [False, True]


@pytest.mark.parametrize("battlefield", ["standard", "advanced"])
def test_determinize_samples_the_opponents_committed_choice(battlefield):
    s = new(seed=2, battlefield=battlefield)
    s.apply(RED, "2E" if battlefield == "advanced" else "CB")
    drawn = set()
    for n in range(300):
        world = world_of(s, BLUE, n)
        assert world.pending[BLUE] is None and world.to_move() == [BLUE]
        red = world.pending[RED]
        if battlefield == "advanced":
            assert world.pos == [0, 0] and world.view(BLUE)["board"]["pos"] is None
            assert red in {"2H", "2E", "3H", "3E", "4H", "4E"}
        else:
            probe = world.clone()
            probe.pending[RED] = None
            assert red in probe.legal_actions(RED)
        drawn.add(red)
    assert len(drawn) == 6 if battlefield == "advanced" else len(drawn) > 30
    # The seat's own committed choice is its own, never sampled.
    s = new(seed=2, battlefield=battlefield)
    s.apply(RED, "2E" if battlefield == "advanced" else "CB")
    world = world_of(s, RED, 7)
    assert world.pending == [s.pending[RED], None] and world.to_move() == [BLUE]


@pytest.mark.parametrize("battlefield", ["standard", "advanced"])
def test_determinised_worlds_agree_with_the_seat_and_play_on_publicly(battlefield):
    for seed in range(15):
        s = new(seed=seed, battlefield=battlefield)
        rng = random.Random(seed)
        while not s.is_over():
            for seat in (RED, BLUE):
                world = world_of(s, seat, rng.randrange(2**32))
                assert world.view(seat) == s.view(seat)
                assert world.events(seat) == s.events(seat)
                assert world.legal_actions(seat) == s.legal_actions(seat)
                assert world.to_move() == s.to_move()
                for _ in range(6):  # the public path accepts what the world offers
                    if world.is_over():
                        break
                    q = rng.choice(world.to_move())
                    world.apply(q, rng.choice(world.legal_actions(q)))
            p = rng.choice(s.to_move())
            s.apply(p, rng.choice(s.legal_actions(p)))
        world = world_of(s, RED, 1)
        assert world.is_over() and world.outcome() == s.outcome()


def test_determinize_wants_the_seats_own_view():
    s = new()
    with pytest.raises(ValueError, match="own view"):
        GAME.determinize(RED, s.view(BLUE), s.events(RED), pygames.Rng(1))
    with pytest.raises(ValueError, match="own view"):
        GAME.determinize(RED, s.view(None), s.events(None), pygames.Rng(1))


# -- search's cut-short playout: KiriaiState.estimate (issue 8) --------------------------------
def test_estimate_prefers_the_player_a_wound_ahead():
    even = position((2, 4))
    red_ahead = position((2, 4), wounds=(0, 1))
    blue_ahead = position((2, 4), wounds=(1, 0))
    assert even.estimate() == pytest.approx([0.5, 0.5])
    for s in (red_ahead, blue_ahead):
        assert sum(s.estimate()) == pytest.approx(1.0)
    assert red_ahead.estimate()[RED] > 0.7 and blue_ahead.estimate()[BLUE] > 0.7
    # the same judgement on a fast copy (what search plays with)
    assert red_ahead.clone_fast().estimate() == red_ahead.estimate()


def test_estimate_prefers_the_player_whose_strike_would_land():
    # d = 2: Red in Heaven has High Strike ready; Blue in Earth has nothing that lands at 2
    # (Zan-Tetsu needs Earth, but Blue holds Kesa)
    threat = position((2, 4), (H, E), special=("X", "K"))
    assert threat.estimate()[RED] > 0.5
    # High Strike set aside: the threat is gone
    rested = position((2, 4), (H, E), special=("X", "K"), aside=("H", None))
    assert rested.estimate()[RED] == pytest.approx(0.5)
    # holding a special is worth a little
    spent = position((2, 4), special=("X", "K"))
    spent.spent = [False, True]
    assert spent.estimate()[RED] > 0.5


def test_estimate_of_a_finished_game_is_its_result():
    s = position((3, 3), wounds=(1, 1))
    play(s, "AB", "HL")  # Red's Balanced lands at d = 0 in action 2
    assert s.is_over() and s.outcome()["winners"] == [RED]
    assert s.estimate() == [1.0, 0.0]


def test_depth_limited_playouts_are_deterministic_for_a_seed_and_cut_short():
    from pygames.search import playout
    assert GAME.playout_depth > 0
    results = []
    for _ in range(2):
        world = new(seed=3).clone_fast()
        results.append((playout(world, random.Random(7)), world.round, world.wounds))
    assert results[0] == results[1]
    assert results[0][1] <= 1 + GAME.playout_depth  # no more rounds than the depth
    assert {tuple(playout(new(seed=3).clone_fast(), random.Random(n))) for n in range(30)} \
        != {(0.5, 0.5)}


def test_legal_fast_is_legal_actions_as_a_shared_tuple():
    rng = random.Random(2)
    for seed in range(20):
        world = new(seed=seed, battlefield=rng.choice(["standard", "advanced"])).clone_fast()
        while True:
            for p in (RED, BLUE):
                assert world.legal_fast(p) == tuple(world.legal_actions(p))
            if world.is_over():
                break
            p = rng.choice(world.to_move())
            world.apply_fast(p, world.random_action_fast(p, rng))


def test_a_fast_copy_of_a_fast_copy_is_independent():
    s = position((2, 4), (H, E), special=("K", "Z"))
    fast = s.clone_fast()
    before = fields(fast), public(fast)
    twin = fast.clone_fast()
    for red, blue in (("HL", "ZB"), ("CB", "AS"), ("AK", "RL")):
        if twin.is_over():
            break
        twin.apply_fast(RED, red)
        twin.apply_fast(BLUE, blue)
    assert twin.wounds != fast.wounds or twin.pos != fast.pos
    assert (fields(fast), public(fast)) == before
