"""ART OF WAR's live boards on the rules pages (docs/pages/{en,ja}/artofwar.html) show what
their captions say: each claim of a caption (who plays what at which step, and what it
does) is checked here against the record in docs/records.json, replayed by the engine.
When an engine change makes tools.records pick other games, these fail: reread and rewrite
the captions with the new steps."""

from __future__ import annotations

from typing import Any

import pytest

import pygames
from tools import docsbuild

GAME = pygames.get_game("artofwar")


@pytest.fixture(scope="module")
def boards() -> dict[str, dict[str, Any]]:
    return docsbuild.load_boards()


def steps(board: dict[str, Any]) -> tuple[list[Any], list[tuple[int, str, list[dict]]]]:
    """The states after each step (0: the start) and, per step 1.., (seat, action, the
    events it made)."""
    record = board["record"]
    state = GAME.new_game(seed=record["seed"], options=record["options"])
    states, played = [state.clone()], []
    for seat, action in record["actions"]:
        assert state.to_move() == [seat]
        before = len(state.log)
        state.apply(seat, action)
        played.append((seat, action, state.log[before:]))
        states.append(state.clone())
    return states, played


def kinds(events: list[dict]) -> list[str]:
    return [e["t"] for e in events]


def test_the_boards_are_starter_deck_games_seen_as_their_captions_say(boards):
    for name in ("artofwar-capture", "artofwar-wizard", "artofwar-founding"):
        board = boards[name]
        assert board["game"] == "artofwar"
        options = GAME.resolve_options(board["record"]["options"])
        assert options == GAME.resolve_options({}), f"{name}: the default rules and decks"
        state = GAME.from_record(board["record"])
        assert state.is_over() == (name == "artofwar-founding")
        assert board["perspective"] == ("open" if state.is_over() else "spectator")


def test_capture_board(boards):
    """Step 27: P1's Soldier (ATK = its hand, 2) destroys P2's Archer, sideways since its
    attack at step 18 (DEF 1). Step 31: P2's King K-002 attacks that Soldier (sideways);
    32: P1 passes; 33 (the board opens there): ATK 1 = DEF 1, P2 captures it into its
    kingdom and P1's Soldier behind steps up."""
    board = boards["artofwar-capture"]
    states, played = steps(board)
    assert board["ply"] == len(played) == 33
    assert played[17][:2] == (1, "FcxFa")  # step 18: the Archer's own attack
    before = states[26].view(None)
    assert before["fields"][1]["Fc"] == {"c": "A", "up": False, "dmg": 0}
    assert before["hand_counts"][0] == 2
    seat, action, events = played[26]  # step 27
    assert (seat, action) == (0, "FcxFc")
    attack = events[0]
    assert attack["t"] == "attack" and attack["c"] == "S" and attack["atk"] == 2
    seat, action, events = played[27]  # step 28: no Guardian; the damage destroys it
    assert (seat, action) == (1, "pass")
    assert {"t": "destroy", "p": 1, "cell": "Fc", "c": "A"} in events
    assert states[28].view(None)["graveyards"][1] == ["A"]

    before = states[30].view(None)
    assert before["turn"] == 6 and before["active"] == 1
    assert before["kings"] == [1, 2]
    assert before["fields"][0] == {"Fc": {"c": "S", "up": False, "dmg": 0},
                                   "Bc": {"c": "S", "up": True, "dmg": 0}}
    seat, action, events = played[30]  # step 31
    assert (seat, action) == (1, "FbxFc")
    assert events[0]["c"] == "K" and events[0]["atk"] == 1
    assert played[31][:2] == (0, "pass")  # step 32
    seat, action, events = played[32]  # step 33
    assert (seat, action) == (1, "cap")
    assert kinds(events) == ["capture", "advance"]
    assert events[0] == {"t": "capture", "p": 1, "from": 0, "cell": "Fc", "c": "S"}
    assert events[1] == {"t": "advance", "p": 0, "from": "Bc", "to": "Fc", "c": "S"}
    after = states[33].view(None)
    assert after["kingdoms"][1]["S"] == before["kingdoms"][1]["S"] + 1
    assert after["fields"][0] == {"Fc": {"c": "S", "up": True, "dmg": 0}}
    # Step 20-22 (the caption's aside): P2 captured P1's only card, and P1 conscripted
    # both of its waiting Soldiers.
    assert played[19][:2] == (1, "cap")
    assert [e["src"] for s in played[20:22] for e in s[2] if e["t"] == "conscript"] == [
        "wait", "wait"]


def test_wizard_board(boards):
    """Step 20: P1's King K-001 attacks P2's Soldier face to face in lane b; 21: P2 places a
    Guardian; 22: P1 answers with a Wizard; 23 (the board opens there): P2 passes, the
    Guardian is cancelled (it stays in P2's waiting line) and the attack deals 1 damage
    (the Soldier, DEF 2 upright, survives)."""
    board = boards["artofwar-wizard"]
    states, played = steps(board)
    assert board["ply"] == len(played) == 23
    seat, action, events = played[19]  # step 20
    assert (seat, action) == (0, "FbxFb")
    assert events[0]["c"] == "K" and events[0]["atk"] == 1
    assert states[19].view(None)["fields"][1]["Fb"] == {"c": "S", "up": True, "dmg": 0}
    seat, action, events = played[20]  # step 21
    assert (seat, action) == (1, "+G")
    assert states[21].view(None)["window"] == {"kind": "wizard", "p": 0}
    seat, action, events = played[21]  # step 22
    assert (seat, action) == (0, "+W")
    seat, action, events = played[22]  # step 23
    assert (seat, action) == (1, "pass")
    assert kinds(events) == ["pass", "cancel", "damage"]
    assert events[1] == {"t": "cancel", "p": 1, "c": "G", "as": "G"}
    assert events[2]["cell"] == "Fb" and events[2]["n"] == 1 and events[2]["total"] == 1
    after = states[23].view(None)
    assert after["waiting"][1] == ["G"] and after["waiting"][0][-1] == "W"
    assert after["fields"][1]["Fb"] == {"c": "S", "up": True, "dmg": 1}
    # Step 11-14 (the caption's aside): a Priest support moved the Soldier out of lane b,
    # then the King came from the waiting line to Fb.
    assert [a for _s, a, _e in played[10:14]] == ["+P", "pass", "mFb-Fc", "w>Fb"]


def _conscriptions(state: Any) -> list[Any]:
    """Every way the conscription open in ``state`` can be played to its end."""
    if state.phase != "conscript":
        return [state]
    seat = state.to_move()[0]
    out = []
    for action in state.legal_actions(seat):
        twin = state.clone()
        twin.apply(seat, action)
        out += _conscriptions(twin)
    return out


def test_founding_board(boards):
    """Opens at step 44, as P1's turn 11 begins: P1 leads 3 types (Soldier, Guardian,
    Priest), P2 one (Archer, 2-1); P2 has only a sideways Archer on its field and an empty
    waiting line. 45: P1's King attacks it; 46: P2 passes (its King could have been a
    Guardian); 47: P1 captures it (Archers 2-2); 48: P2 must conscript from its kingdom
    (Guardian 1, Archer 2, Wizard 1), takes the Wizard, and P1 wins by Founding. Any
    other choice lost too."""
    board = boards["artofwar-founding"]
    states, played = steps(board)
    assert len(played) == 48 and board["ply"] == 44
    view = states[44].view(None)
    assert view["turn"] == 11 and view["active"] == 0 and played[43][1] == "end"
    assert view["founding"] == [3, 1]
    k0, k1 = view["kingdoms"]
    assert [t for t in "SGAPW" if k0[t] > k1[t]] == ["S", "G", "P"]
    assert [t for t in "SGAPW" if k1[t] > k0[t]] == ["A"] and (k1["A"], k0["A"]) == (2, 1)
    assert view["fields"][1] == {"Fa": {"c": "A", "up": False, "dmg": 0}}
    assert view["waiting"][1] == []
    assert view["fields"][0] == {"Fc": {"c": "K", "up": True, "dmg": 0}}
    assert played[44][:2] == (0, "FcxFa") and played[44][2][0]["atk"] == 1
    assert played[45][:2] == (1, "pass")
    assert "+KG" in states[45].legal_actions(1)
    seat, action, events = played[46]  # step 47
    assert (seat, action) == (0, "cap")
    assert events == [{"t": "capture", "p": 0, "from": 1, "cell": "Fa", "c": "A"}]
    mid = states[47]
    assert mid.phase == "conscript" and mid.to_move() == [1]
    view = mid.view(None)
    assert view["kingdoms"][0]["A"] == view["kingdoms"][1]["A"] == 2
    assert {t: n for t, n in view["kingdoms"][1].items() if n} == {"G": 1, "A": 2, "W": 1}
    seat, action, events = played[47]  # step 48
    assert (seat, action) == (1, "kW>Fa")
    assert kinds(events) == ["conscript", "founding"]
    assert events[0]["src"] == "kingdom" and events[1]["winner"] == 0
    assert events[1]["types"] == [4, 0]
    assert states[48].outcome()["reason"] == "founding"
    # Whatever P2 had taken (in any order, to any cells), P1 would have won by Founding.
    ends = _conscriptions(mid)
    assert len(ends) > 3
    assert all(s.is_over() and s.outcome()["reason"] == "founding"
               and s.outcome()["winners"] == [0] for s in ends)


def test_every_caption_names_the_steps_the_tests_check():
    """The captions name the steps checked above (both languages), so a board that moves
    cannot keep a stale caption."""
    expected = {"artofwar-capture": ("18", "27", "31", "20", "21", "22"),
                "artofwar-wizard": ("20", "21", "22"),
                "artofwar-founding": ("45", "46", "47", "48")}
    for lang in ("en", "ja"):
        text = (docsbuild.PAGES / lang / "artofwar.html").read_text(encoding="utf-8")
        for name, numbers in expected.items():
            start = text.index(f"{{{{board {name} ")
            caption = text[start:text.index("</figcaption>", start)]
            assert f"{{{{ply {name}}}}}" in caption, (lang, name)
            for n in numbers:
                assert n in caption, (lang, name, n)

