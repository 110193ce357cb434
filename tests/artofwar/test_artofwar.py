"""ART OF WAR rules (shared/rules/artofwar.md): the worked examples of §12, the range table
of §3, every support, interrupt, conscription and victory, the options of §11, deck codes,
the window rule's secrecy, and the shared API checks on random legal decks."""

from __future__ import annotations

import pytest

import pygames
from pygames import IllegalAction
from pygames.artofwar import ArtOfWarGame, DeckError, parse_deck

GAME = ArtOfWarGame()


def position(options=None, **pos):
    """A hand-made position (phase ③ of P1's turn 1 unless said): each King in hand
    unless given elsewhere."""
    pos.setdefault("hands", [["K"], ["K"]])
    return GAME.from_position(pos, options=options)


def play(state, *actions):
    for action in actions:
        state.apply(state.to_move()[0], action)
    return state


def attacks(state, source=None):
    p = state.to_move()[0]
    return {a for a in state.legal_actions(p) if "x" in a and (source is None
                                                                or a.startswith(source))}


def kinds(state, start=0):
    return [e["t"] for e in state.events(None, start)]


FULL = {"Fa": "S", "Fb": "S", "Fc": "S", "Ba": "G", "Bb": "G", "Bc": "G"}


# -- §12 worked examples ---------------------------------------------------------------
def test_e1_archer_reach():
    s = position(fields=[{"Fa": "A"}, FULL])
    assert attacks(s) == {"FaxBb", "FaxFc"}
    s = position(fields=[{"Fb": "S", "Bb": "A"}, FULL])
    assert attacks(s, "Bb") == {"BbxFa", "BbxFc"}
    # the same Archer moved there by a Priest support
    s = position(fields=[{"Fa": "A", "Fb": "S"}, FULL], hands=[["K", "P"], []],
                 waiting=[[], ["K"]])
    play(s, "+P", "mFa-Bb")
    assert s.view(None)["fields"][0] == {"Fb": {"c": "S", "up": True, "dmg": 0},
                                         "Bb": {"c": "A", "up": True, "dmg": 0}}
    assert attacks(s, "Bb") == {"BbxFa", "BbxFc"}
    s = position(fields=[{"Fb": "G", "Bb": "S"}, FULL])
    assert attacks(s, "Bb") == set()


def e2():
    return position(fields=[{"Fb": "G", "Fa": "K"},
                            {"Fa": "K", "Fb": {"c": "S", "up": False}, "Bb": "P"}],
                    hands=[[], []])


def test_e2_capture_on_exact_attack_and_the_advance_behind():
    s = play(e2(), "FbxFb")
    assert s.view(None)["phase"] == "capture" and s.legal_actions(0) == ["cap", "dmg"]
    play(s, "cap")
    v = s.view(None)
    assert v["kingdoms"][0]["S"] == 1
    assert v["fields"][1] == {"Fa": {"c": "K", "up": True, "dmg": 0},
                              "Fb": {"c": "P", "up": True, "dmg": 0}}
    assert kinds(s)[-2:] == ["capture", "advance"]
    s = play(e2(), "FbxFb", "dmg")
    assert s.view(None)["fields"][1]["Fb"] == {"c": "S", "up": False, "dmg": 1}
    assert s.view(None)["kingdoms"][0]["S"] == 0


def e3(hand):
    return position(fields=[{"Fa": "S", "Fc": "G"}, {"Fa": "G", "Fb": "K"}],
                    hands=[hand, []])


def test_e3_soldier_x_and_the_soldier_support():
    s = play(e3(["K", "S", "P"]), "FaxFa")
    assert s.view(None)["attack"]["atk"] == 3 and s.view(None)["phase"] == "capture"
    s = play(e3(["K", "S", "S"]), "+S")
    assert s.view(None)["bonus"] == 1
    play(s, "FaxFa")
    assert s.view(None)["attack"]["atk"] == 3 and s.view(None)["phase"] == "capture"
    s = play(e3(["K", "S", "P"]), "+P", "mFc-Fb", "FaxFa")
    v = s.view(None)
    assert v["phase"] == "main" and v["fields"][1]["Fa"] == {"c": "G", "up": True, "dmg": 2}


def e4(options=None):
    return position(options, fields=[{"Fa": "W", "Fb": "P", "Fc": "A"}, {"Fa": "G", "Fb": "K"}],
                    hands=[["K", "A"], []])


def test_e4_accumulation_archer_support_and_the_threshold():
    s = play(e4(), "FaxFa", "FbxFa", "+A", "aFa")
    assert s.view(None)["fields"][1]["Fa"]["dmg"] == 3
    play(s, "FcxFa")  # 4 > 3: destroyed
    assert s.view(None)["fields"][1] == {"Fb": {"c": "K", "up": True, "dmg": 0}}
    assert s.view(None)["graveyards"][1] == ["G"]
    s = play(e4({"destroy_when": "reaches"}), "FaxFa", "FbxFa", "+A", "aFa")
    assert s.view(None)["graveyards"][1] == ["G"]
    # the Archer support never captures, even where the total would allow it
    s = play(e4({"capture_basis": "accumulated"}), "FaxFa", "FbxFa", "+A", "aFa")
    assert s.view(None)["phase"] == "main" and s.view(None)["fields"][1]["Fa"]["dmg"] == 3


def e5(hand1=("W", "S")):
    return position({"deck1": "K2S4G4A4P4W4"},
                    fields=[{"Fb": "K"}, {"Fa": "K", "Fc": "P"}],
                    waiting=[[], ["S", "A"]], hands=[list(hand1), ["G"]],
                    decks=[["S", "S"], ["S", "A"]])


def test_e5_guardian_interrupt_and_wizard_chain():
    s = play(e5(), "FbxFc")
    assert s.view(None)["window"] == {"kind": "guardian", "p": 1}
    assert s.legal_actions(1) == ["+G", "pass"]
    play(s, "+G")
    assert s.view(None)["window"] == {"kind": "wizard", "p": 0}
    assert s.view(None)["chain"] == [{"p": 1, "c": "G", "as": "G"}]
    play(s, "+W")
    v = s.view(None)
    assert v["phase"] == "main" and v["fields"][1]["Fc"] == {"c": "P", "up": True, "dmg": 1}
    assert v["fields"][0]["Fb"]["up"] is False
    assert v["waiting"] == [["W"], ["S", "A", "G"]]
    assert [e for e in s.events(None) if e["t"] == "cancel"] == [
        {"t": "cancel", "p": 1, "c": "G", "as": "G"}]
    # had P1 not answered: nothing, and K-002 stays sideways
    s = play(e5(), "FbxFc", "+G", "pass")
    v = s.view(None)
    assert v["fields"][1]["Fc"]["dmg"] == 0 and v["fields"][0]["Fb"]["up"] is False
    assert "guarded" in kinds(s)
    # P2's next Arrange must deploy the leftmost waiting card (S)
    play(s, "end")
    arranges = [a for a in s.legal_actions(1) if ">" in a]
    assert arranges and all(a.startswith("w>") for a in arranges)
    play(s, "w>Fb")
    assert s.view(None)["fields"][1]["Fb"]["c"] == "S"


def e6():
    return position(fields=[{"Fa": "A", "Fb": "K"}, {"Fc": {"c": "S", "up": False}}],
                    waiting=[[], ["P"]], hands=[["S"], ["K"]],
                    kingdoms=[{"S": 1, "G": 1, "A": 2, "P": 1}, {"S": 2, "A": 1, "W": 1}])


@pytest.mark.parametrize(("taken", "ends"), [("S", True), ("A", False), ("W", False)])
def test_e6_conscription_and_founding(taken, ends):
    s = play(e6(), "FaxFc", "pass", "cap")
    v = s.view(None)
    assert v["founding"] == [3, 1] and v["phase"] == "conscript"
    assert v["conscript"] == {"p": 1, "left": 2, "first": None}
    assert s.to_move() == [1]
    assert s.legal_actions(1) == ["w>Fa", "w>Fb", "w>Fc"]  # the waiting Priest first
    play(s, "w>Fb")
    assert set(s.legal_actions(1)) == {f"k{t}>{c}" for t in "SAW" for c in ("Fa", "Fc", "Bb")}
    play(s, f"k{taken}>Fa")
    if ends:
        assert s.outcome()["winners"] == [0] and s.outcome()["reason"] == "founding"
    else:
        assert not s.is_over() and s.view(None)["phase"] == "main" and s.to_move() == [0]


def test_e7_the_waiting_line_forces_deployment():
    s = position(fields=[{"Fc": "S"}, {"Fa": "S"}], waiting=[["A", "K"], []],
                 hands=[["S"], ["K"]])
    arranges = {a for a in s.legal_actions(0) if ">" in a}
    assert arranges == {"w>Fa", "w>Fb", "w>Fc", "w>Bc"}
    play(s, "w>Fc")
    assert s.view(None)["waiting"][0] == ["K", "S"]
    assert s.view(None)["fields"][0] == {"Fc": {"c": "A", "up": True, "dmg": 0}}
    assert not any(">" in a for a in s.legal_actions(0))  # one Arrange per turn


# -- §3 the range table, from both rows and for both seats -------------------------------
def expected(card, lane, back):
    """§3's table as written: the enemy cells hit (F/B + lane), lanes 0..2."""
    near = {lane + d for d in (-1, 1)} & {0, 1, 2}
    far = {lane + d for d in (-2, 2)} & {0, 1, 2}
    F = lambda lanes: {"F" + "abc"[x] for x in lanes}  # noqa: E731
    B = lambda lanes: {"B" + "abc"[x] for x in lanes}  # noqa: E731
    table = {
        "S": (F({lane}), set()),
        "G": (F({lane}), set()),
        "P": (F(near), set()),
        "W": (F({lane}) | B({lane}), F({lane}) | B({lane})),
        "A": (B(near) | F(far), F(near)),
        "K1": (F({0, 1, 2}) | B({lane}), F({lane})),
        "K2": (F({0, 1, 2}), set()),
    }
    return table[card][1 if back else 0]


@pytest.mark.parametrize("card", ["S", "G", "P", "W", "A", "K1", "K2"])
@pytest.mark.parametrize("seat", [0, 1])
def test_every_range_row_from_both_rows(card, seat):
    king = card[1:] or "1"
    letter = card[0]
    opts = {"deck1": f"K{king}S4G4A4P4W4", "deck2": f"K{king}S4G4A4P4W4"}
    for lane in range(3):
        for back in (False, True):
            cell = ("B" if back else "F") + "abc"[lane]
            mine = {cell: letter}
            if back:
                mine["F" + "abc"[lane]] = "G"
            fields = [mine, dict(FULL)]
            hands = [[] if letter == "K" else ["K"], ["K"]]
            if seat == 1:
                fields.reverse()
                hands.reverse()
            s = position(opts, fields=fields, hands=hands, turn=1 + seat)
            got = {a[3:] for a in attacks(s, cell)}
            assert got == expected(card, lane, back), (card, cell, seat)


# -- capture and destruction under the options -------------------------------------------
@pytest.mark.parametrize(("basis", "when", "target", "offered", "destroyed"), [
    ("single_attack", "exceeds", {"c": "A", "up": False}, True, False),
    ("accumulated", "exceeds", {"c": "A", "up": False}, True, False),
    ("single_attack", "exceeds", {"c": "W", "dmg": 1}, False, False),
    ("single_attack", "reaches", {"c": "W", "dmg": 1}, False, True),
    ("accumulated", "exceeds", {"c": "W", "dmg": 1}, True, False),
    ("accumulated", "reaches", {"c": "W", "dmg": 1}, True, True),
    ("single_attack", "exceeds", {"c": "S", "up": False, "dmg": 1}, True, True),
])
def test_capture_against_destruction(basis, when, target, offered, destroyed):
    opts = {"capture_basis": basis, "destroy_when": when}
    s = position(opts, fields=[{"Fa": "G", "Fb": "K"}, {"Fa": target, "Fb": "K"}],
                 hands=[[], []])
    play(s, "FaxFa")
    assert (s.view(None)["phase"] == "capture") == offered
    if offered:
        play(s, "dmg")
    v = s.view(None)
    assert (v["graveyards"][1] == [target["c"]]) == destroyed
    if offered:
        s = position(opts, fields=[{"Fa": "G", "Fb": "K"}, {"Fa": target, "Fb": "K"}],
                     hands=[[], []])
        play(s, "FaxFa", "cap")
        assert s.view(None)["kingdoms"][0][target["c"]] == 1
        assert s.view(None)["graveyards"][1] == []


def test_a_captured_card_later_destroyed_goes_to_its_captors_graveyard():
    """P1 once captured a Guardian (it is in P1's kingdom); conscripted and destroyed, it
    goes to P1's graveyard (§13.25)."""
    s = position(fields=[{"Fa": {"c": "S", "up": False}}, {"Fa": "S", "Fb": "S", "Fc": "K"}],
                 waiting=[["K"], []], kingdoms=[{"G": 1}, {}], hands=[[], ["S"] * 4],
                 turn=2, options={"deck2": "K2S10G2A2P2W4"})
    play(s, "FaxFa")  # X = 4 on DEF 1: destroyed, no capture offered
    assert s.view(None)["graveyards"][0] == ["S"] and s.to_move() == [0]
    play(s, "w>Fa", "kG>Fb")
    assert s.to_move() == [1]
    play(s, "FbxFb")  # X = 4 on the Guardian's DEF 3
    assert s.view(None)["graveyards"] == [["S", "G"], []]


# -- supports and interrupts -------------------------------------------------------------
def main_position(**extra):
    base = dict(fields=[{"Fa": "G", "Fb": "S", "Fc": "K"}, {"Fa": "S", "Fb": "G", "Bb": "A"}],
                hands=[["S", "S", "A", "P"], []], waiting=[[], ["K"]])
    options = extra.pop("options", None)
    base.update(extra)
    return position(options, **base)


def test_soldier_support_stacks_and_expires():
    s = play(main_position(), "+S", "+S")
    assert s.view(None)["bonus"] == 2
    play(s, "FaxFa")  # Guardian ATK 1 + 2 = 3 on a Soldier (DEF 2): destroyed
    assert s.view(None)["graveyards"][1] == ["S"]
    play(s, "end")
    assert s.view(None)["bonus"] == 0


def test_archer_support_any_enemy_card_and_last_attacked():
    s = play(main_position(), "+A")
    assert s.legal_actions(0) == ["aFa", "aFb", "aBb"]
    play(s, "aBb")
    assert s.view(None)["fields"][1]["Bb"]["dmg"] == 1
    s = main_position(options={"archer_support_target": "last_attacked"})
    assert "+A" not in s.legal_actions(0)
    play(s, "FbxFb")  # Soldier X = 4 on the Guardian (DEF 3): 4 damage, destroyed
    assert "+A" not in s.legal_actions(0)  # the card just attacked has left the field
    s = main_position(options={"archer_support_target": "last_attacked"},
                      hands=[["A", "P"], []])
    play(s, "FaxFa")  # Guardian ATK 1 on the Soldier: 1 damage
    assert "+A" in s.legal_actions(0)
    play(s, "+A")
    assert s.legal_actions(0) == ["aFa"]
    play(s, "aFa")  # 2 damage on DEF 2: survives under "exceeds"
    assert s.view(None)["fields"][1]["Fa"]["dmg"] == 2


def test_a_guarded_attack_still_counts_and_the_archer_may_hit_its_target():
    s = position({"archer_support_target": "last_attacked"},
                 fields=[{"Fa": "G", "Fc": "K"}, {"Fa": "S", "Fb": "K"}],
                 hands=[["A", "P"], ["G"]], decks=[["S"], ["S"]])
    play(s, "FaxFa", "+G")
    assert s.view(None)["phase"] == "main" and "guarded" in kinds(s)
    v = s.view(None)
    assert v["attacked"] and v["fields"][0]["Fa"]["up"] is False
    assert not any(">" in a for a in s.legal_actions(0))  # no Arrange after an attack
    assert v["last_attacked"] == {"p": 1, "cell": "Fa"} and "+A" in s.legal_actions(0)


def test_priest_moves_swaps_and_the_legality_of_back_cells():
    s = play(main_position(), "+P")
    moves = set(s.legal_actions(0))
    assert "mFa-Fb" in moves and "mFa-Bb" in moves  # a swap; a back cell behind a card
    assert "mFa-Ba" not in moves  # own lane's back: nothing in front after the move
    play(s, "mFa-Fb")
    f = s.view(None)["fields"][0]
    assert f["Fa"]["c"] == "S" and f["Fb"]["c"] == "G"
    s = position(fields=[{"Fa": "G", "Ba": "A", "Fb": "K"}, {"Fa": "S", "Fb": "K"}],
                 hands=[["P"], []])
    play(s, "+P", "mFa-Fc")  # the Archer behind steps forward, as it was
    f = s.view(None)["fields"][0]
    assert f == {"Fa": {"c": "A", "up": True, "dmg": 0}, "Fb": {"c": "K", "up": True, "dmg": 0},
                 "Fc": {"c": "G", "up": True, "dmg": 0}}
    assert kinds(s)[-2:] == ["priest", "advance"]


def test_wizard_cancels_a_support_and_the_card_stays():
    s = main_position(hands=[["S", "P"], ["W"]])
    play(s, "+S")
    assert s.view(None)["window"] == {"kind": "wizard", "p": 1}
    assert s.view(None)["pending"] == {"p": 0, "c": "S", "as": "S"}
    play(s, "+W")
    assert s.view(None)["window"] == {"kind": "wizard", "p": 0}
    play(s, "pass")
    v = s.view(None)
    assert v["bonus"] == 0 and v["waiting"] == [["S"], ["K", "W"]] and v["pending"] is None
    assert {"t": "cancel", "p": 0, "c": "S", "as": "S"} in s.events(None)


def test_a_three_card_wizard_chain_resolves_from_the_last_back():
    s = main_position(hands=[["S", "W", "P"], ["W", "S"]])
    play(s, "+S", "+W", "+W")
    assert s.view(None)["window"] == {"kind": "wizard", "p": 1}
    assert [c["p"] for c in s.view(None)["chain"]] == [1, 0]
    play(s, "pass")
    v = s.view(None)
    assert v["bonus"] == 1  # P1's Wizard cancelled P2's, so the Soldier support acts
    cancels = [e for e in s.events(None) if e["t"] == "cancel"]
    assert cancels == [{"t": "cancel", "p": 1, "c": "W", "as": "W"}]
    # Guardian, Wizard, Wizard: the Guardian holds (one Guardian per attack, §13.17)
    s = position(fields=[{"Fa": "G", "Fc": "K"}, {"Fa": "S", "Fb": "K"}],
                 hands=[["W", "S"], ["G", "W", "S"]], decks=[["S"], ["S"]])
    play(s, "FaxFa", "+G", "+W")
    assert s.view(None)["window"] == {"kind": "wizard", "p": 1}
    assert s.legal_actions(1) == ["+W", "pass"]  # no second Guardian
    play(s, "+W")
    assert s.view(None)["phase"] == "main" and "guarded" in kinds(s)
    assert s.view(None)["fields"][1]["Fa"]["dmg"] == 0


def test_the_king_declares_a_support_at_its_timing():
    s = main_position(hands=[["K", "S"], []], fields=[
        {"Fa": "G", "Fb": "S"}, {"Fa": "S", "Fb": "G", "Bb": "A"}])
    assert {"+KS", "+KA", "+KP"} <= set(s.legal_actions(0))
    play(s, "+KS")
    assert s.view(None)["bonus"] == 1 and s.view(None)["waiting"][0] == ["K"]
    assert {"t": "support", "p": 0, "c": "K", "as": "S"} in s.events(None)
    s = position(fields=[{"Fa": "G", "Fc": "K"}, {"Fa": "S"}], hands=[["S"], ["K", "S"]])
    play(s, "FaxFa")
    assert s.legal_actions(1) == ["+KG", "pass"]
    play(s, "+KG", "pass")
    assert s.view(None)["waiting"][1] == ["K"] and "guarded" in kinds(s)


def test_a_soldier_with_an_empty_hand_attacks_with_0():
    s = position(fields=[{"Fa": "S", "Fb": "K"}, {"Fa": "S", "Fb": "K"}], hands=[[], []])
    play(s, "FaxFa")
    v = s.view(None)
    assert v["fields"][1]["Fa"]["dmg"] == 0 and v["fields"][0]["Fa"]["up"] is False


# -- conscription --------------------------------------------------------------------------
def lone(options=None, waiting=(), kingdom=None, hand2=()):
    """P2's last card (a sideways Soldier at Fa) is about to fall to P1's Guardian."""
    return position(options, fields=[{"Fa": "G", "Fb": "K"}, {"Fa": {"c": "S", "up": False}}],
                    waiting=[[], list(waiting)], kingdoms=[{}, kingdom or {}],
                    hands=[["S"], list(hand2)], decks=[["S"], ["S"]])


def test_conscription_from_the_waiting_line_then_the_kingdom():
    s = play(lone(waiting=["K"], kingdom={"A": 1, "P": 1}), "FaxFa", "dmg")
    assert s.view(None)["phase"] == "main"  # 1 damage on DEF 1: survives
    s = play(lone(waiting=["K"], kingdom={"A": 1, "P": 1}), "FaxFa", "cap")
    assert s.view(None)["conscript"] == {"p": 1, "left": 2, "first": None}
    assert s.legal_actions(1) == ["w>Fa", "w>Fb", "w>Fc"]  # the King: front row
    play(s, "w>Fb")
    assert set(s.legal_actions(1)) == {f"k{t}>{c}" for t in "AP" for c in ("Fa", "Fc", "Bb")}
    play(s, "kA>Bb")
    v = s.view(None)
    assert v["fields"][1] == {"Fb": {"c": "K", "up": True, "dmg": 0},
                              "Bb": {"c": "A", "up": True, "dmg": 0}}
    assert v["kingdoms"][1]["A"] == 0 and v["phase"] == "main" and s.to_move() == [0]
    assert s.view(None)["kingdoms"][0]["S"] == 1
    # the battle goes on: the new King may be attacked at once (K-001's DEF 4)
    assert "FbxFb" in s.legal_actions(0)


def test_a_failed_conscription_is_annihilation():
    s = play(lone(waiting=["K"]), "FaxFa", "cap")
    assert s.outcome() == {"winners": [0], "ranks": [1, 2], "scores": [1, 0],
                           "reason": "annihilation"}
    assert kinds(s)[-1] == "annihilation"


def test_conscription_total_kingdom_takes_two_more_from_the_kingdom():
    opts = {"conscription_total": "kingdom"}
    s = play(lone(opts, waiting=["K"], kingdom={"A": 1, "P": 1}), "FaxFa", "cap")
    assert s.view(None)["conscript"]["left"] == 3
    play(s, "w>Fb", "kA>Fa", "kP>Fc")
    assert len(s.view(None)["fields"][1]) == 3 and s.view(None)["phase"] == "main"
    # two waiting cards and one kingdom card: enough under "field", not under "kingdom"
    s = play(lone(waiting=["K", "G"], kingdom={"A": 1}), "FaxFa", "cap")
    play(s, "w>Fa", "w>Fb")
    assert s.view(None)["phase"] == "main" and s.view(None)["kingdoms"][1]["A"] == 1
    s = play(lone(opts, waiting=["K", "G"], kingdom={"A": 1}), "FaxFa", "cap")
    assert s.outcome()["reason"] == "annihilation"


# -- victories -----------------------------------------------------------------------------
def test_execution_by_attack_capture_and_archer_support():
    s = position(fields=[{"Fa": "G", "Fb": "K"}, {"Fa": "K", "Fb": "G"}],
                 options={"deck2": "K2S4G4A4P4W4"}, hands=[[], []])
    play(s, "FaxFa", "end")  # Guardian ATK 1 on K-002 (DEF 5): 1 damage, cleared at the end
    assert not s.is_over() and s.view(None)["fields"][1]["Fa"]["dmg"] == 0
    s = position(fields=[{"Fa": "S", "Fb": "K"}, {"Fa": "K", "Fb": "G"}],
                 options={"deck2": "K1S4G4A4P4W4"}, hands=[["S", "S", "G", "A"], []])
    play(s, "FaxFa")  # X = 4 = K-001's DEF 4: capture
    assert s.view(None)["phase"] == "capture"
    play(s, "cap")
    assert s.outcome()["reason"] == "execution" and s.outcome()["winners"] == [0]
    assert s.view(None)["kingdoms"][0] == {"S": 0, "G": 0, "A": 0, "P": 0, "W": 0}
    s = position(fields=[{"Fa": "G", "Fb": "K"}, {"Fa": {"c": "K", "dmg": 4}, "Fb": "G"}],
                 options={"deck2": "K1S4G4A4P4W4"}, hands=[["A"], []], turn=3)
    play(s, "+A", "aFa")
    assert s.outcome()["reason"] == "execution" and s.view(None)["graveyards"][1] == ["K"]


def test_founding_by_entry():
    s = position(kingdoms=[{"S": 1, "G": 1, "A": 1}, {"W": 1}], hands=[["K", "P"], ["K"]],
                 fields=[{"Fa": "S"}, {"Fa": "S"}])
    play(s, "eP")
    assert s.outcome() == {"winners": [0], "ranks": [1, 2], "scores": [1, 0],
                           "reason": "founding"}


@pytest.mark.parametrize(("kingdoms", "graves", "winners"), [
    ([{"S": 2}, {"S": 1}], [[], []], [0]),
    ([{"S": 1}, {"G": 1}], [["A"], []], [1]),
    ([{"S": 1}, {"G": 1}], [["A"], ["S"]], []),
])
def test_end_of_war_and_its_tie_breaks(kingdoms, graves, winners):
    s = position(kingdoms=kingdoms, graveyards=graves, decks=[[], []], hands=[["K"], ["K"]],
                 fields=[{"Fa": "S"}, {"Fa": "S"}], turn=32)
    assert s.to_move() == [1]
    play(s, "end")
    o = s.outcome()
    assert o["reason"] == "end_of_war" and o["winners"] == winners
    s = position(kingdoms=kingdoms, graveyards=graves, decks=[[], ["S"]],
                 hands=[["K"], ["K"]], fields=[{"Fa": "S"}, {"Fa": "S"}], turn=31)
    play(s, "end")
    assert not s.is_over()  # one deck still holds a card


def test_the_hand_limit_forces_an_entry():
    hand = ["S", "S", "G", "A", "P", "K"]
    s = position(hands=[hand, ["K"]], fields=[{"Fa": "S"}, {"Fa": "S"}])
    play(s, "end")
    assert s.view(None)["phase"] == "limit" and s.legal_actions(0) == ["eS", "eG", "eA", "eP"]
    play(s, "eG")
    assert s.view(None)["turn"] == 2 and s.view(None)["kingdoms"][0]["G"] == 1
    s = position(hands=[hand[1:], ["K"]], fields=[{"Fa": "S"}, {"Fa": "S"}])
    play(s, "end")
    assert s.view(None)["turn"] == 2
    s = position(hands=[hand, ["K"]], fields=[{"Fa": "S"}, {"Fa": "S"}], entered=True)
    play(s, "end")
    assert s.view(None)["turn"] == 2  # Entry already used: the turn may end (§6.4)
    s = position({"hand_limit": 5}, hands=[hand[1:], ["K"]], fields=[{"Fa": "S"}, {"Fa": "S"}])
    play(s, "end")
    assert s.view(None)["phase"] == "limit"
    s = position({"hand_limit": 7}, hands=[hand, ["K"]], fields=[{"Fa": "S"}, {"Fa": "S"}])
    play(s, "end")
    assert s.view(None)["turn"] == 2


# -- the other options ---------------------------------------------------------------------
def test_waiting_capacity():
    fields = [{"Fa": "S"}, {"Fa": "S"}]
    for cap, waiting, allowed in ((5, 4, True), (4, 4, False), (6, 5, True), (5, 5, False)):
        s = position({"waiting_capacity": cap}, fields=fields,
                     waiting=[list("GAPWGA"[:waiting]), []], hands=[["K", "S"], ["K"]])
        assert ("+S" in s.legal_actions(0)) == allowed, (cap, waiting)


def test_mulligan_and_the_first_draw():
    s = GAME.new_game(seed=4)
    assert s.view(None)["phase"] == "mulligan" and s.to_move() == [0]
    before = s.view(1)["hand"]
    play(s, "keep", "mull")
    assert s.view(None)["mulligans"] == [False, True]
    assert len(s.view(1)["hand"]) == 4 and "K" in s.view(1)["hand"]
    assert before is not None
    s = GAME.new_game(seed=4, options={"mulligan": "none"})
    assert s.view(None)["phase"] == "field" and s.view(None)["hand_counts"] == [4, 4]
    for draws, size in (("yes", 3), ("no", 2)):
        s = GAME.new_game(seed=4, options={"mulligan": "none",
                                           "first_player_draws_turn1": draws})
        for _ in range(4):
            play(s, s.legal_actions(s.to_move()[0])[0])
        v = s.view(0)
        assert v["turn"] == 1 and v["phase"] == "main" and v["hand_counts"][0] == size
        assert v["deck_counts"] == [16 - (size - 2), 16]
        assert sum(v["kingdoms"][0].values()) == 1


def test_mulligan_events_hide_the_cards_from_the_other_seat():
    s = play(GAME.new_game(seed=9), "mull")
    mine, theirs = s.events(0), s.events(1)
    assert len(mine) == len(theirs)
    assert "cards" in mine[-1] and "cards" not in theirs[-1]
    assert mine[-2]["t"] == "mulligan" and "cards" not in theirs[-2]


# -- deck codes ------------------------------------------------------------------------------
@pytest.mark.parametrize(("code", "key", "en", "ja"), [
    ("K1S4G4A4P4W3", "count", "holds 19", "19枚"),
    ("K1S4G4A4P4X4", "card", "no troop type", "兵種はありません"),
    ("K11S4G4A4P4W4", "king", "no King K-011", "K-011 はありません"),
    ("K1S11G9", "copies", "at most 10", "10枚まで"),
    ("hello", "code", "not a deck code", "デッキコードではありません"),
])
def test_bad_decks_are_refused_in_both_languages(code, key, en, ja):
    with pytest.raises(DeckError) as info:
        GAME.new_game(seed=1, options={"deck2": code, "max_copies_per_type": 10})
    assert info.value.key == key and en in str(info.value) and "player 2" in str(info.value)
    assert ja in info.value.message("ja") and "プレイヤー2" in info.value.message("ja")
    assert isinstance(info.value, ValueError)


def test_deck_codes_are_canonicalised_and_the_copy_limit_is_an_option():
    opts = GAME.resolve_options({"deck1": "k3 w10 s10", "deck2": "K1S11G9"})
    assert opts["deck1"] == "K3S10W10" and opts["deck2"] == "K1S11G9"
    with pytest.raises(ValueError):
        GAME.resolve_options({"deck2": "K1S11G9", "max_copies_per_type": 10})
    assert parse_deck(opts["deck1"])[0] == 3
    s = GAME.new_game(seed=2, options={"deck1": "K3S10W10"})
    assert s.view(None)["kings"] == [3, 2]
    assert s.view(0)["unseen"][0]["S"] + s.view(0)["unseen"][0]["W"] == 20


def test_every_option_and_value_has_labels_in_both_languages():
    for name, spec in GAME.option_schema.items():
        labels = GAME.option_labels[name]
        assert labels["label"]["en"] and labels["label"]["ja"]
        for value in spec.get("values", []):
            assert labels[value]["en"] and labels[value]["ja"], (name, value)


# -- the window rule never leaks ---------------------------------------------------------------
def defended(hand, deck, king_in_hand=False):
    fields = [{"Fa": "G", "Fb": "K"}, {"Fa": "S"} if king_in_hand else {"Fa": "S", "Fb": "K"}]
    return position(fields=fields, hands=[["S"], hand], decks=[["S"], deck])


def test_the_guardian_window_opens_by_public_information_only():
    # the same unseen cards ({G, S}), split differently between hand and deck
    a = play(defended(["G"], ["S"]), "FaxFa")
    b = play(defended(["S"], ["G"]), "FaxFa")
    assert a.to_move() == b.to_move() == [1]
    assert a.view(0) == b.view(0)
    assert a.legal_actions(1) == ["+G", "pass"] and b.legal_actions(1) == ["pass"]
    # no Guardian among the unseen cards and no King in hand: no window
    c = play(defended(["S"], ["S"]), "FaxFa")
    assert c.view(None)["phase"] == "main" and c.to_move() == [0]
    # an empty hand: no window
    d = play(defended([], ["G"]), "FaxFa")
    assert d.to_move() == [0]
    # the King in hand is public: a window
    e = play(defended(["K"], ["S"], king_in_hand=True), "FaxFa")
    assert e.to_move() == [1] and e.legal_actions(1) == ["+KG", "pass"]


def test_the_wizard_window_opens_by_public_information_only():
    def support(hand, deck):
        s = position(fields=[{"Fa": "G", "Fb": "K"}, {"Fa": "S", "Fb": "K"}],
                     hands=[["S"], hand], decks=[["S"], deck])
        return play(s, "+S")

    a, b = support(["W"], ["S"]), support(["S"], ["W"])
    assert a.to_move() == b.to_move() == [1] and a.view(0) == b.view(0)
    assert b.legal_actions(1) == ["pass"]
    assert support(["S"], ["G"]).to_move() == [0]


# -- explanations and positions --------------------------------------------------------------
def test_illegal_actions_are_explained_in_plain_words():
    s = position(fields=[{"Fa": "S", "Fb": "K"}, {"Fa": "S"}], waiting=[["G"], []],
                 hands=[["S"], ["K"]])
    for action, words in (("S>Fa", "leftmost"), ("w>Bc", "back cell"), ("+G", "Guardian"),
                          ("eK", "not an ART OF WAR action"), ("FbxFc", "no enemy card")):
        with pytest.raises(IllegalAction, match=words):
            s.apply(0, action)
    play(s, "FaxFa", "pass")
    with pytest.raises(IllegalAction, match="attacked this turn"):
        s.apply(0, "w>Fa")
    with pytest.raises(IllegalAction, match="sideways"):
        s.apply(0, "FaxFa")
    with pytest.raises(IllegalAction, match="not player 2's turn"):
        s.apply(1, "end")
    assert "player 1's move" in s.explain_illegal(1, "end")


@pytest.mark.parametrize(("pos", "words"), [
    ({"fields": [{"Ba": "S"}, {"Fa": "S"}]}, "behind an empty"),
    ({"fields": [{"Fa": "X"}, {"Fa": "S"}]}, "not a card"),
    ({"fields": [{"Fd": "S"}, {"Fa": "S"}]}, "not a cell"),
    ({"fields": [{"Fa": "S"}, {"Fa": {"c": "S", "dmg": 3}}]}, "destroyed"),
    ({"fields": [{"Fa": {"c": "S", "dmg": 1}}, {"Fa": "S"}]}, "damage"),
    ({"fields": [{"Fa": "S"}, {}]}, "empty"),
    ({"fields": [{"Fa": "S"}, {"Fa": "S"}], "hands": [["K", "K"], ["K"]]}, "exactly one King"),
    ({"fields": [{"Fa": "S"}, {"Fa": "S"}], "waiting": [list("SGAPWS"), []]}, "capacity"),
    ({"fields": [{"Fa": "S"}, {"Fa": "S"}], "phase": "capture"}, "needs attack"),
    ({"fields": [{"Fa": "S"}, {"Fa": "S"}], "kingdoms": [{"S": 1, "G": 1, "A": 1, "P": 1},
                                                         {}]}, "Founding"),
    ({"fields": [{"Fa": "S"}, {"Fa": "S"}], "hands": [["K"] + ["S"] * 40, ["K"]]}, "only"),
])
def test_impossible_positions_are_refused_saying_why(pos, words):
    pos.setdefault("hands", [["K"], ["K"]])
    with pytest.raises(ValueError, match=words):
        GAME.from_position(pos)


def test_a_view_rebuilds_the_same_position():
    s = play(e5(), "FbxFc", "+G")
    for seat in (0, 1):
        view = s.view(seat)
        twin = GAME.from_position({**view, "hands": [s.view(0)["hand"], s.view(1)["hand"]]})
        assert twin.view(seat) == view
        assert twin.legal_actions(seat) == s.legal_actions(seat)


def test_sheet_groups():
    s = GAME.new_game(seed=3, options={"mulligan": "none"})
    assert s.sheet_group() == "Setup"
    for _ in range(4):
        play(s, s.legal_actions(s.to_move()[0])[0])
    assert s.sheet_group() == "Turn 1"
    play(s, "end")
    assert s.sheet_group() == "Turn 2"


@pytest.fixture
def registered():
    """The game as the registry gives it (every shared layer reads the registry)."""
    return pygames.get_game("artofwar")


# -- the shared API checks, on random legal decks and option sets ---------------------------
def random_deck(rng, max_copies=0):
    from pygames.artofwar import TYPES, deck_code

    while True:
        counts = dict.fromkeys(TYPES, 0)
        weights = [rng.random() for _ in TYPES]
        for _ in range(20):
            counts[rng.choices(TYPES, weights)[0]] += 1
        if not max_copies or max(counts.values()) <= max_copies:
            return deck_code(rng.randint(1, 10), counts)


def random_options(game, rng):
    opts = {n: rng.choice(spec["values"]) for n, spec in game.option_schema.items()
            if "values" in spec}
    opts["deck1"] = random_deck(rng, opts["max_copies_per_type"])
    opts["deck2"] = random_deck(rng, opts["max_copies_per_type"])
    return opts


GARBAGE = ["", " ", "??", "S>Fz", "FaxFd", "+K", "+KK", "eK", "kK>Fa", "mFa-Fa", "w>",
           "\x00", "END", None]


def check_step(state, game, seen, deep):
    """The protocol's promises on one state (as tests/test_api.py checks them)."""
    import json

    movers = state.to_move()
    assert len(movers) <= 1
    for p in (0, 1):
        legal = state.legal_actions(p)
        assert (p in movers) == bool(legal)
        assert len(set(legal)) == len(legal) and all(isinstance(a, str) and a for a in legal)
    for viewer in (None, 0, 1):
        view_text = json.dumps(state.view(viewer))
        old = seen.setdefault(viewer, [])
        new = state.events(viewer, len(old))
        text = json.dumps(new)
        assert '"_to"' not in text and '"_hide"' not in text
        twin = state.hidden_twin(viewer)
        if twin is not None:
            assert json.dumps(twin.view(viewer)) == view_text, "the view leaks"
            assert json.dumps(twin.events(viewer, len(old))) == text, "events leak"
            assert twin.to_move() == movers
        old.extend(new)
        if viewer is not None:
            hand = state.view(viewer)["hand"]
            for e in new:  # another seat's drawn cards are never shown
                if e["t"] in ("draw", "mulligan") and e["p"] != viewer:
                    assert "cards" not in e
            assert hand is not None
    assert len({len(v) for v in seen.values()}) == 1
    if deep and movers:
        before = state.clone()
        assert before == state
        legal = set(state.legal_actions(movers[0]))
        for action in GARBAGE:
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                state.apply(movers[0], action)
            assert state == before
        with pytest.raises(IllegalAction):
            state.apply(1 - movers[0], state.legal_actions(movers[0])[0])
        assert state == before


def test_the_shared_api_checks_on_random_decks_and_options(registered):
    """Random legal games of random decks under random option sets, every step checked:
    to_move and legal_actions agree, no view or event of a seat changes when only what it
    cannot see changes (hidden_twin), junk is refused without change, the fast path
    (clone_fast + apply_fast) shows exactly the public states, random_action_fast draws
    every legal action, determinize agrees with the seat's view and plays on, and the
    record replays to the same state."""
    import json
    import random

    from helpers.protocol import public

    game = registered
    reasons = set()
    for seed in range(150):
        rng = random.Random(seed)
        opts = random_options(game, rng)
        state = game.new_game(seed=seed, options=opts)
        fast = state.clone_fast()
        seen: dict = {}
        steps = 0
        while not state.is_over():
            check_step(state, game, seen, deep=seed < 6 or steps % 25 == 0)
            assert public(fast) == public(state)
            p = state.to_move()[0]
            legal = state.legal_actions(p)
            n = len(legal)
            drawn = {fast.clone_fast().random_action_fast(p, _Fixed((i + 0.5) / n))
                     for i in range(n)}
            assert drawn == set(legal)
            if rng.random() < 0.1:
                seat = rng.choice((0, 1))
                view = state.view(seat)
                world = game.determinize(seat, view, state.events(seat),
                                         pygames.Rng(rng.randrange(2**32)))
                assert world.view(seat) == view
                assert world.legal_actions(seat) == state.legal_actions(seat)
                assert world.to_move() == state.to_move()
                world.playout_fast(random.Random(seed), 10**6)
                assert world.is_over()
            if rng.random() < 0.1:
                fast = fast.clone_fast()
            action = rng.choice(legal)
            state.apply(p, action)
            fast.apply_fast(p, action)
            steps += 1
            assert steps < 3000
        assert public(fast) == public(state) and state.to_move() == []
        assert json.dumps(state.outcome())
        reasons.add(state.outcome()["reason"])
        assert game.from_record(json.loads(json.dumps(state.record()))) == state
    assert {"end_of_war", "founding"} <= reasons


def test_random_play_ends_every_way(registered):
    """Fast random playouts (starter decks, and 20 Soldiers against them) end by
    Execution, Founding, End of War and in draws, and none runs long. (Annihilation needs
    an almost empty kingdom, which random play never leaves: it is tested above.)"""
    import random

    seen = set()
    decks = [{}, {"deck1": "K1S20"}, {"deck2": "K2S20"}]
    for seed in range(3000):
        world = registered.new_game(seed=seed, options=decks[seed % 3]).clone_fast()
        assert world.playout_fast(random.Random(seed), 2000)
        o = world.outcome()
        seen.add(o["reason"] if o["winners"] else "draw")
        if len(seen) == 4:
            break
    assert seen == {"end_of_war", "founding", "execution", "draw"}


def test_the_long_battery_runs_on_the_registered_game(registered):
    """pygames.battery's random games (every option value in turn, junk refused without
    change, records replayed every 50th game), here 1,500 of them."""
    from pygames import battery

    result = battery.run("artofwar", 1500)
    assert result["games"] == 1500 and result["failures"] == []


class _Fixed:
    def __init__(self, x):
        self.x = x

    def random(self):
        return self.x


# -- more of §5-§8 and §13 ----------------------------------------------------------------------
def test_k006_attacks_with_x():
    s = position({"deck1": "K6S4G4A4P4W4"}, fields=[{"Fa": "K"}, {"Fa": "G", "Fb": "K"}],
                 hands=[["S", "A"], []])
    play(s, "FaxFa")
    assert s.events(None)[0]["atk"] == 2  # X: two cards in hand
    assert s.view(None)["fields"][1]["Fa"]["dmg"] == 2


def test_founding_right_after_a_capture_comes_before_the_conscription():
    s = position(fields=[{"Fa": "G", "Fb": "K"}, {"Fa": {"c": "S", "up": False}}],
                 waiting=[[], ["K", "A"]], kingdoms=[{"G": 1, "A": 1, "P": 1}, {}],
                 hands=[[], []])
    play(s, "FaxFa", "cap")
    assert s.outcome()["reason"] == "founding" and s.outcome()["winners"] == [0]
    assert "conscript" not in kinds(s)


def test_recovery_damage_reset_and_sideways_through_the_opponents_turn():
    s = position(fields=[{"Fa": "G", "Fb": "K"}, {"Fa": "S", "Fb": "K"}],
                 hands=[["S"], ["S"]], decks=[["S", "S"], ["S", "S"]])
    play(s, "FaxFa", "end")  # Guardian 1 damage on the Soldier; no window (unseen: no G)
    v = s.view(None)
    assert v["turn"] == 2 and v["fields"][1]["Fa"]["dmg"] == 0  # damage cleared
    assert v["fields"][0]["Fa"]["up"] is False  # still sideways in P2's turn
    assert v["hand_counts"] == [1, 2]  # P2 drew
    play(s, "end")
    assert s.view(None)["fields"][0]["Fa"]["up"] is True  # P1's recovery


def test_the_draw_is_skipped_on_an_empty_deck():
    s = position(fields=[{"Fa": "S"}, {"Fa": "S"}], hands=[["K"], ["K"]],
                 decks=[[], ["S", "S"]], turn=2)
    play(s, "end")
    assert s.view(None)["turn"] == 3 and s.view(None)["hand_counts"][0] == 1
    assert [e["t"] for e in s.events(None)] == ["end_turn", "turn", "recover"]


def test_arrange_from_hand_displaces_to_hand_and_the_back_row_needs_a_front_card():
    s = position(fields=[{"Fa": "S"}, {"Fa": "S"}], hands=[["K", "A"], ["K"]])
    assert {"A>Fa", "A>Fb", "A>Fc", "A>Ba", "K>Ba"} <= set(s.legal_actions(0))
    assert "A>Bb" not in s.legal_actions(0)
    play(s, "A>Fa")
    v = s.view(0)
    assert v["hand"] == ["S", "K"] and v["fields"][0]["Fa"]["c"] == "A"
    assert s.events(None)[-1] == {"t": "arrange", "p": 0, "c": "A", "to": "Fa",
                                  "from": "hand", "out": "S", "out_to": "hand"}
    assert not any("x" in a for a in s.legal_actions(0))  # no attack after an Arrange


def test_determinize_reads_only_what_the_seat_sees():
    """A state and its hidden twin (the opponent's hand and deck changed) give the same
    worlds from the same seed: the determiniser never looks at the true state."""
    import json

    s = GAME.new_game(seed=8)
    import random

    rng = random.Random(1)
    for _ in range(40):
        p = s.to_move()[0]
        s.apply(p, rng.choice(s.legal_actions(p)))
    twin = s.hidden_twin(0)
    assert twin is not None and twin.hands != s.hands
    worlds = [GAME.determinize(0, x.view(0), x.events(0), pygames.Rng(5)) for x in (s, twin)]
    assert json.dumps(worlds[0].view(None)) == json.dumps(worlds[1].view(None))
    assert worlds[0].hands == worlds[1].hands and worlds[0].decks == worlds[1].decks


def test_a_card_sent_back_to_a_hand_stays_in_it_in_every_determinised_world():
    """P2 arranged its King from hand onto its Soldier: P1 saw the Soldier go back to P2's
    hand, so every world P1 samples has it there (until a Soldier leaves that hand)."""
    s = position(fields=[{"Fa": "S", "Fb": "K"}, {"Fa": "S"}], hands=[["G"], ["K", "A"]],
                 turn=2)
    play(s, "K>Fa")
    assert s.view(1)["hand"] == ["S", "A"]
    for seed in range(20):
        world = GAME.determinize(0, s.view(0), s.events(0), pygames.Rng(seed))
        assert world.hands[1][0] >= 1  # the Soldier
    play(s, "+S")  # a Soldier left the hand: it may have been that one
    if s.to_move() == [0]:
        play(s, "pass")
    worlds = [GAME.determinize(0, s.view(0), s.events(0), pygames.Rng(seed)).hands[1][0]
              for seed in range(30)]
    assert set(worlds) == {0, 1}
