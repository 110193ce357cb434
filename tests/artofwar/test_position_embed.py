"""An ART OF WAR embed from a hand-made position (no history), as a rules page or a blog
would link it: ``mode=replay&position=...`` builds through ``from_position``, draws the
position's field for a spectator without any hand, shows a seat's hand only from that
seat's perspective, and can be played on from there."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from helpers.tables import enabled_commands
from pgui.session_glue import Session

from pygames import records

POSITION = {"fields": [{"Fa": "S", "Fb": "A", "Bb": "P"}, {"Fa": "G", "Fb": "K", "Fc": "W"}],
            "hands": [["K", "G", "W"], ["S", "A"]], "waiting": [["G"], []]}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def opened(lang="en", extra=""):
    text = records.position_to_string("artofwar", {"position": POSITION})
    session = Session()
    r = session.open(f"mode=replay&embed=on&position={text}&interactive=on&lang={lang}"
                     f"{extra}", page="https://blog.example/post.html")
    assert "error" not in r, r
    return session, r


def test_a_hand_made_position_opens_as_an_embed_in_both_languages():
    for lang, archer, guardian in (("en", "Archer", "Guardian"),
                                   ("ja", "アーチャー", "ガーディアン")):
        session, r = opened(lang)
        view = session.table._view(None)
        assert view["fields"][0]["Bb"]["c"] == "P" and view["fields"][1]["Fb"]["c"] == "K"
        words = text_of(r["html"])
        assert archer in words and guardian in words
        # A spectator sees hand sizes, never the hands.
        assert view.get("hand") is None and view["hand_counts"] == [3, 2]


def test_a_seat_perspective_shows_that_seat_hand_only():
    session, _ = opened()
    assert session.table._view(None).get("hand") is None
    session.table.command("replay:perspective:1")
    assert sorted(session.table._view(1)["hand"]) == ["A", "S"]


def test_play_on_from_the_position_against_the_bot():
    session, _ = opened()
    table = session.table
    table.command("replay:bot")
    assert table.playing is not None
    state = table.state
    mover = state.to_move()[0]
    legal = state.legal_actions(mover)
    assert legal
    cmds = enabled_commands(table.html())
    assert cmds, "the table offers a move at once"


def test_a_position_that_breaks_the_rules_is_refused_in_the_players_language():
    bad = {**POSITION, "waiting": [["S"] * 6, []]}  # over the 5-card waiting line
    with pytest.raises(records.RecordError):
        records.position_to_string("artofwar", {"position": bad})
    # Sealed by hand (as a hostile or stale link would be): the page says why, in its
    # language, and opens nothing.
    text = records._seal("p", "artofwar\n" + json.dumps({"position": bad}))
    for lang, heading in (("en", "cannot be shown"), ("ja", "表示できません")):
        r = Session().open(f"mode=replay&embed=on&position={text}&lang={lang}")
        assert heading in r["error"] and "html" not in r
