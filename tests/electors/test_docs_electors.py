"""Electors' live boards on the rules pages (docs/pages/{en,ja}/electors.html) show what
their captions say: each claim of a caption (who plays what at which step, and what it
does) is checked here against the record in docs/records.json, replayed by the engine.
When an engine change makes tools.records pick other games, these fail: reread and rewrite
the captions with the new steps."""

from __future__ import annotations

from typing import Any

import pytest

import pygames
from pygames.electors import number_of, ranks_of
from tools import docsbuild

GAME = pygames.get_game("electors")
RED, BLUE = 0, 1  # seat i plays "RBGY"[i]


@pytest.fixture(scope="module")
def boards() -> dict[str, dict[str, Any]]:
    return docsbuild.load_boards()


def steps(board: dict[str, Any]) -> tuple[list[Any], list[tuple[int, str, list[dict]]]]:
    """The states after each step (0: the start) and, per step 1.., (seat, action, the
    events it made, with nothing hidden)."""
    record = board["record"]
    state = GAME.new_game(seed=record["seed"], players=record["players"],
                          options=record["options"])
    states, played = [state.clone()], []
    for seat, action in record["actions"]:
        assert state.to_move() == [seat]
        before = len(state.log)
        state.apply(seat, action)
        played.append((seat, action, [{k: v for k, v in e.items() if k not in ("_to", "_hide")}
                                      for e in state.log[before:]]))
        states.append(state.clone())
    return states, played


def kinds(events: list[dict]) -> list[str]:
    return [e["t"] for e in events]


def cell(state: Any, name: str) -> dict[str, Any] | None:
    """A grid cell as everybody sees it (a spectator's view)."""
    return state.view(None)["grid"][int(name[1:]) - 1]["abcde".index(name[0])]


def test_the_boards_are_two_player_games_with_the_default_rules(boards):
    for name in ("electors-match", "electors-jester", "electors-ranks"):
        board = boards[name]
        assert board["game"] == "electors"
        assert board["record"]["players"] == 2
        options = GAME.resolve_options(board["record"]["options"])
        assert options == GAME.resolve_options({}), f"{name}: the default rules"
        state = GAME.from_record(board["record"])
        assert state.view(None)["colours"] == ["R", "B"]
        assert state.is_over() == (name == "electors-ranks")
        assert board["perspective"] == ("open" if state.is_over() else "spectator")


def test_match_board(boards):
    """Blue starts. 11-13: Blue chooses a4 (kingdom Green 1), takes it (②) and puts its
    Blue 3 there face down. 26: Blue matches a kingdom Red 2 with a kingdom Blue 2 from its
    hand; 28: pays those two for a Power. 35: Blue chooses c3, a kingdom Green 2; 36 (the
    board opens there): it holds no 2 and shows the Green 1 raised to 2 by Power, both
    Green cards become acquired, c3 is empty. 37: Blue puts its Blue 5 face down in c3, a
    blue back for Red."""
    board = boards["electors-match"]
    states, played = steps(board)
    assert board["ply"] == 36 and len(played) == 37
    assert states[0].view(None)["start"] == BLUE
    assert played[10] == (BLUE, "a4", [{"t": "choose", "p": BLUE, "cell": "a4", "c": "kG1"}])
    assert played[11][:2] == (BLUE, "take")
    assert played[12][:2] == (BLUE, "v:B3")
    assert played[25][:2] == (BLUE, "=kB2")
    assert played[25][2][0]["c"] == "kR2"
    seat, action, events = played[27]  # step 28
    assert (seat, action) == (BLUE, "$PB:kB2,kR2")
    assert events[0]["card"] == "PB"
    assert played[34] == (BLUE, "c3", [{"t": "choose", "p": BLUE, "cell": "c3", "c": "kG2"}])
    hand = states[35].view(BLUE)["hand"]
    assert "kG1" in hand and 2 not in [number_of(c) for c in hand]
    assert "=kG1" not in states[35].legal_actions(BLUE)
    seat, action, events = played[35]  # step 36
    assert (seat, action) == (BLUE, "=kG1P")
    assert events == [{"t": "match", "p": BLUE, "cell": "c3", "c": "kG2", "with": "kG1",
                       "mods": "P"}]
    after = states[36].view(None)
    assert sorted(after["acquired"][BLUE]) == ["kG1", "kG2"]
    assert cell(states[36], "c3") is None
    assert after["influence"][BLUE] == [{"id": "PB", "used": True}]
    seat, action, events = played[36]  # step 37
    assert (seat, action) == (BLUE, "v:B5")
    assert cell(states[37], "c3") == {"up": False, "back": "B"}
    assert "c" not in states[37].view(RED)["grid"][2][2]


def test_jester_board(boards):
    """103: Blue puts its Bribery face down in e2. 110-112: Blue takes the kingdom card in
    a2 and puts its Jester there face down. 114 (the board opens there): Red chooses a2 and
    springs it: b2-e2 turn face up, kingdom Yellow 1, Red 4, Green 5 and Blue's Bribery,
    which does nothing; Red gains no card."""
    board = boards["electors-jester"]
    states, played = steps(board)
    assert board["ply"] == len(played) == 114
    assert played[102][:2] == (BLUE, "v:Bb") and played[102][2][0]["cell"] == "e2"
    assert played[109][:2] == (BLUE, "a2") and played[109][2][0]["c"][0] == "k"
    assert played[110][:2] == (BLUE, "take")
    assert played[111][:2] == (BLUE, "v:Bj") and played[111][2][0]["cell"] == "a2"
    before = states[113]
    assert cell(before, "a2") == {"up": False, "back": "B"}
    assert cell(before, "e2") == {"up": False, "back": "B"}
    seat, action, events = played[113]  # step 114
    assert (seat, action) == (RED, "a2")
    assert kinds(events) == ["trap", "jester"]
    assert events[0] == {"t": "trap", "p": RED, "cell": "a2", "c": "Bj", "owner": BLUE,
                         "own": False}
    assert events[1]["cells"] == ["b2", "c2", "d2", "e2"]
    assert events[1]["cards"] == ["kY1", "kR4", "kG5", "Bb"]
    after = states[114]
    assert [cell(after, f"{c}2") for c in "abcde"] == [
        {"up": True, "c": c} for c in ("Bj", "kY1", "kR4", "kG5", "Bb")]
    assert after.view(None)["phase"] == "after"  # no card: the A is over
    assert after.view(None)["acquired"] == before.view(None)["acquired"]
    assert after.view(None)["hand_counts"] == before.view(None)["hand_counts"]
    assert "e2" not in after.legal_actions(RED) and "a2" not in after.legal_actions(RED)


def test_ranks_board(boards):
    """A whole game, open at its end (98). 87: Blue's draw empties its deck; Red, then
    Blue, take one more turn. 95-97: Red shows the pairs R2+R2 and R3+kR3 and is done; 98:
    Blue, with none, is done too and the scoring follows. Cubes from the buys R2 B3 G2 Y0;
    rows 1 and 3 Red, row 2 Blue, row 4 a tie (one Red, one Blue): 4, 4, 2, 0, ranks 2, 2,
    3, 4. Red 12 (10 cards + a Manor), Blue 0 (6 cards, 3 Manors, minus 12 for B2, B3, B7
    in hand). With row 4, Red would be first alone and its 10 cards would score 29."""
    board = boards["electors-ranks"]
    states, played = steps(board)
    assert board["ply"] == len(played) == 98
    assert board["moves"] == "bottom"
    seat, action, events = played[86]  # step 87
    assert (seat, action) == (BLUE, "draw")
    assert {"t": "trigger", "p": BLUE, "last_turn": BLUE, "safety": False} in events
    turns = [e["p"] for _s, _a, evs in played[87:] for e in evs if e["t"] == "turn"]
    assert turns == [RED, BLUE]
    assert played[94] == (RED, "pr:R2,R2", [{"t": "pairs", "p": RED, "cards": ["R2", "R2"]}])
    assert played[95] == (RED, "pr:R3,kR3", [{"t": "pairs", "p": RED, "cards": ["R3", "kR3"]}])
    assert played[96][:2] == (RED, "done")
    assert states[97].view(BLUE)["hand"] == ["B2", "B3", "B7"]
    seat, action, events = played[97]  # step 98
    assert (seat, action) == (BLUE, "done")
    assert events[0] == {"t": "pairs", "p": BLUE, "cards": []}
    assert states[97].view(None)["cubes"] == {"R": 2, "B": 3, "G": 2, "Y": 0}
    rows = [e for e in events if e["t"] == "row"]
    assert [(e["row"], e["colour"]) for e in rows] == [(1, "R"), (2, "B"), (3, "R"), (4, None)]
    assert rows[3]["counts"] == {"R": 1, "B": 1}
    end = states[98]
    assert end.view(None)["cubes"] == {"R": 4, "B": 4, "G": 2, "Y": 0}
    ranks = {"R": 2, "B": 2, "G": 3, "Y": 4}
    assert [e for e in events if e["t"] == "rank"] == [{"t": "rank", "ranks": ranks}]
    scores = {e["p"]: e for e in events if e["t"] == "score"}
    assert scores[RED]["rank1"] == 0 and scores[BLUE]["rank1"] == 0
    view = end.view(None)
    red, blue = view["acquired"]
    assert len(red) == 10 and all(c.lstrip("k")[0] == "R" for c in red)
    assert scores[RED] == {"t": "score", "p": RED, "rank1": 0, "rank2": 10, "rank3": 0,
                           "rank4": 0, "manor": 2, "domain": 0, "hand": 0, "total": 12}
    assert len(blue) == 6 and all(c.lstrip("k")[0] == "B" for c in blue)
    assert [i["id"][0] for i in view["influence"][BLUE]].count("M") == 3
    assert end.view(BLUE)["hand"] == ["B2", "B3", "B7"]
    assert end.view(RED)["hand"] == ["Rb"]
    assert scores[BLUE] == {"t": "score", "p": BLUE, "rank1": 0, "rank2": 6, "rank3": 0,
                            "rank4": 0, "manor": 6, "domain": 0, "hand": -12, "total": 0}
    assert end.outcome()["winners"] == [RED] and end.outcome()["scores"] == [12, 0]
    # Had Red won row 4 (5 cubes against 4), it would have been first alone: its cards
    # would have scored their numbers.
    assert ranks_of([5, 4, 2, 0])["R"] == 1
    assert sum(number_of(c) for c in red) == 29


def test_every_caption_names_the_steps_the_tests_check():
    """The captions name the steps checked above (both languages), so a board that moves
    cannot keep a stale caption."""
    expected = {"electors-match": ("11", "12", "13", "26", "28", "35", "37"),
                "electors-jester": ("103", "112", "a2", "e2"),
                "electors-ranks": ("87", "95", "96", "97", "98", "29")}
    for lang in ("en", "ja"):
        text = (docsbuild.PAGES / lang / "electors.html").read_text(encoding="utf-8")
        for name, numbers in expected.items():
            start = text.index(f"{{{{board {name} ")
            caption = text[start:text.index("</figcaption>", start)]
            assert f"{{{{ply {name}}}}}" in caption, (lang, name)
            for n in numbers:
                assert n in caption, (lang, name, n)


def test_the_options_section_names_every_option_as_the_app_does():
    """Every option of the engine's schema is in the pages' Options section, under the
    name the game's settings give it."""
    for lang in ("en", "ja"):
        text = (docsbuild.PAGES / lang / "electors.html").read_text(encoding="utf-8")
        start = text.index('<h2 id="options">')
        section = text[start:text.index("</section>", start)]
        for key in GAME.option_schema:
            label = GAME.option_labels[key]["label"][lang]
            assert f"<b>{label}</b>" in section, (lang, key, label)
