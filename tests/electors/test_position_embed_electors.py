"""An Electors embed of a hand-made 4-player position (no history), as a rules page or a
blog would link it: ``mode=replay&position=...`` builds through ``from_position``, draws
the four seats' strips, the grid and the candidates for a spectator without any hand or
hidden face, shows a seat's hand and its own colour's faces only from that seat's
perspective, and can be played on from there; a broken position is refused in the page's
language."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from helpers.tables import enabled_commands
from pgui.session_glue import Session

from pygames import records

#: Four players, round 5, Green to move; Red has a card face down on b1, Blue on a2.
POSITION = {
    "players": 4, "round": 5, "start": 0, "active": 2,
    "grid": [["kR3", {"c": "R5", "placer": 0}, {"c": "kB2", "up": True}, "kG1", "kY4"],
             [{"c": "B7", "placer": 1}, "kR1", "kB5", {"c": "Yj", "up": True}, "kG2"],
             ["kY1", "kG3", "kR2", "kB1", "kY2"],
             ["kG5", "kY3", "kB4", "kR4", "kG4"]],
    "hands": [["R1", "R2"], ["B3", "B3", "Bs"], ["G6", "G4", "Gj"], ["Y5"]],
    "acquired": [["kY5", "R7"], [], ["kB3", "G2"], ["kR5", "Y6"]],
    "cubes": {"R": 2, "B": 1, "G": 3, "Y": 0},
}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def opened(lang="en", extra=""):
    text = records.position_to_string("electors", {"position": POSITION})
    session = Session()
    r = session.open(f"mode=replay&embed=on&position={text}&interactive=on&lang={lang}"
                     f"{extra}", page="https://blog.example/post.html")
    assert "error" not in r, r
    return session, r


@pytest.mark.parametrize(("lang", "green", "yellow"), [("en", "Green", "Yellow"),
                                                       ("ja", "緑", "黄")])
def test_a_four_player_position_opens_as_an_embed_for_a_spectator(lang, green, yellow):
    session, r = opened(lang)
    view = session.table._view(None)
    assert view["players"] == 4 and view["hand_counts"] == [2, 3, 3, 1]
    assert view["cubes"] == {"R": 2, "B": 1, "G": 3, "Y": 0}
    html = r["html"]
    assert len(re.findall(r'class="pstrip[^"]*" data-seat="\d"', html)) == 4
    words = text_of(html)
    assert green in words and yellow in words
    # A spectator sees the backs, never a hand or a face-down face.
    assert view.get("hand") is None and 'class="ehand' not in html
    assert view["grid"][0][1] == {"up": False, "back": "R"}
    assert "face kn col-R" not in html.split('data-cell="b1"')[1].split("</button>")[0]


def test_a_seat_sees_its_hand_and_its_own_faces_only():
    session, _ = opened()
    session.table.command("replay:perspective:0")
    red = session.table._view(0)
    assert sorted(red["hand"]) == ["R1", "R2"]
    assert red["grid"][0][1].get("c") == "R5" and "c" not in red["grid"][1][0]
    session.table.command("replay:perspective:1")
    blue = session.table._view(1)
    assert sorted(blue["hand"]) == ["B3", "B3", "Bs"]
    assert blue["grid"][1][0].get("c") == "B7" and "c" not in blue["grid"][0][1]


def test_play_on_from_the_position_against_the_bot():
    session, _ = opened()
    table = session.table
    table.command("replay:bot")
    assert table.playing is not None
    state = table.state
    assert state.to_move() == [2] and state.legal_actions(2)
    assert enabled_commands(table.html()), "the table offers a move at once"


def test_a_position_that_breaks_the_rules_is_refused_in_the_players_language():
    bad = {**POSITION, "hands": [["R1", "R1", "R1"], ["B3"], ["G6"], ["Y5"]]}  # 3 of 2 R1s
    with pytest.raises(records.RecordError):
        records.position_to_string("electors", {"position": bad})
    text = records._seal("p", "electors\n" + json.dumps({"position": bad}))
    for lang, heading in (("en", "cannot be shown"), ("ja", "表示できません")):
        r = Session().open(f"mode=replay&embed=on&position={text}&lang={lang}")
        assert heading in r["error"] and "html" not in r
