"""Free-form options (no ``values``: a deck code) travel everywhere options do: the lobby's
settings and tile line, URLs (with a clear error in the player's language), the table vs
the bot (yours and the bot's, whatever your seat), link invites, records and sheets, the
battery, and a game's tool that saves values in the browser. On Tiny Free
(``tests/tinygame/free.py``), registered here: no shared file names a game."""

from __future__ import annotations

import json
import random
import re

import pgui
import pytest
from helpers.markup import outer, tags, visible_text

import pygames
from pygames import battery, records


@pytest.fixture
def free():
    pygames.register("tinyfree", "tinygame.free", "FreeTinyGame")
    pgui.register_ui("tinyfree", "tinygame.free_ui")
    yield pygames.get_game("tinyfree")
    pygames.unregister("tinyfree")
    pgui.UI_MODULES.pop("tinyfree", None)


def _dialog(html: str) -> str:
    return outer(outer(html, 'id="game-tinyfree"'), "<dialog")


def test_the_settings_offer_a_free_form_options_default_and_presets(free):
    from pgui.lobby import render_lobby

    html = render_lobby()
    dialog = _dialog(html)
    radios = {(a["name"], a["value"]) for tag, a in tags(dialog) if a.get("type") == "radio"}
    # Each seat's cards for pass and play / link, "yours" and "the bot's" against the bot.
    for name in ("cards1", "cards2", "mine", "theirs"):
        assert {(name, "1-2-3"), (name, "3-4-5")} <= radios, name
    mine = outer(dialog, 'id="tinyfree-mine"')
    assert "Your cards" in visible_text(mine) and "あなたのカード" in visible_text(mine)
    assert 'data-store="pygames.tinyfree.hands."' in mine  # saved hands join it
    assert outer(dialog, 'class="vs-bot"').count('id="tinyfree-mine"') == 1
    assert 'id="tinyfree-cards1"' in outer(dialog, 'class="not-bot"')
    # The tile links to the game's tool, in both languages.
    tile = outer(html, 'id="game-tinyfree"')
    assert 'href="./play.html?game=tinyfree&amp;tool=hands&amp;lang=ja"' in tile


def test_a_free_form_option_with_nothing_to_offer_is_a_text_field(free, monkeypatch):
    from pgui.lobby import render_lobby

    ui = pgui.ui_module("tinyfree")
    monkeypatch.setattr(ui, "OPTION_CHOICES", {})
    monkeypatch.setattr(ui, "OPTION_STORE", {})
    dialog = _dialog(render_lobby())
    field = [a for tag, a in tags(dialog) if tag == "input" and a.get("name") == "cards1"]
    assert field and field[0]["type"] == "text" and field[0]["value"] == "1-2-3"
    assert field[0]["data-plan-en"] == "Player 1's cards: {value}"
    box = outer(dialog, 'id="tinyfree-cards1"')
    label = re.search(r'<label class="legend" for="([\w-]+)"', box)
    assert label and label.group(1) == field[0]["id"]


def test_the_tiles_line_names_a_chosen_free_form_value(free):
    from pgui.lobby import plan

    assert plan(free) == {"en": "vs bot · Normal · you go first",
                          "ja": "ボットと対戦 · 強さ：ふつう · あなたが先手"}
    assert plan(free, {"theirs": "3-4-5"})["en"].endswith("The bot's cards: High cards")
    assert plan(free, {"mode": "hotseat", "cards2": "1-4-5"}) == {
        "en": "Pass and play · Player 2's cards: 1-4-5",
        "ja": "1台で交代 · プレイヤー2のカードは1-4-5"}


def test_a_url_gives_a_free_form_option_in_its_canonical_form(free):
    from pgui.session_glue import Session

    s = Session()
    r = s.open("game=tinyfree&mode=hotseat&cards1=5+1-3&seed=2", nav_lang="en")
    assert "error" not in r and s.table.options["cards1"] == "1-3-5"
    assert s.table.state.legal_actions(0) == ["1", "3", "5"]


@pytest.mark.parametrize("lang,words", [("en", "three different numbers from 1 to 5"),
                                        ("ja", "1〜5の異なる3つの数です")])
def test_a_bad_free_form_value_in_a_url_is_a_clear_error_in_the_players_language(
        free, lang, words):
    from pgui.session_glue import Session

    for query in ("game=tinyfree&cards2=9-9", "game=tinyfree&mode=bot&mine=1-1-1",
                  "game=tinyfree&mode=join&cards1=x"):
        r = Session().open(query + f"&lang={lang}", fragment="r=abcdefgh12&k=abcdefghijklmnop12")
        assert words in r["reason"], (query, r)
        label = "cards" if lang == "en" else "カード"
        assert label in r["reason"] and r["heading"]
        if lang == "ja":
            assert not re.search(r"[a-z]{4,}", r["reason"]), r["reason"]  # no English inside


@pytest.mark.parametrize("seat", ["0", "1", "random"])
def test_yours_and_the_bots_follow_your_seat_through_rematches(free, seat):
    from pgui.session_glue import Session

    s = Session()
    s.open(f"game=tinyfree&mode=bot&seat={seat}&mine=3-4-5&theirs=1-2-4&seed=5")
    for _ in range(3):
        table = s.table
        mine = table.options[("cards1", "cards2")[table.human]]
        theirs = table.options[("cards1", "cards2")[1 - table.human]]
        assert (mine, theirs) == ("3-4-5", "1-2-4")
        assert table.state.legal_actions(table.human) in ([], ["3", "4", "5"])
        table.rematch()
    # Pass and play ignores "yours": it has no bot and no "you".
    s.open("game=tinyfree&mode=hotseat&mine=3-4-5&seed=5")
    assert s.table.options["cards1"] == "1-2-3"


def test_a_link_invite_carries_and_shows_a_free_form_option(free):
    from pgui.link import LinkTable

    host = LinkTable("tinyfree", mode="link", options={"cards2": "2 4 5"}, page="http://x/play.html")
    invite = host.invite()
    assert "cards2=2-4-5" in invite
    query, _, frag = invite.partition("?")[2].partition("#")
    guest = LinkTable("tinyfree", mode="join", lang="ja", fragment=frag, query=query,
                      options={"cards2": "2-4-5"})
    assert "プレイヤー2のカード: 2-4-5" in visible_text(guest.html())


def test_a_record_keeps_a_free_form_option_and_refuses_a_bad_one_in_both_languages(free):
    state = free.new_game(seed=3, options={"cards1": "3 4 5"})
    state.apply(0, "5")
    record = state.record()
    assert records.from_string(records.to_string(record))["options"]["cards1"] == "3-4-5"
    sheet = records.to_sheet(record)
    assert "cards1=3-4-5" in sheet
    assert records.from_sheet(sheet)["options"]["cards1"] == "3-4-5"
    with pytest.raises(records.RecordError) as info:
        records.to_string({**record, "options": {"cards1": "7-8-9"}})
    assert "three different numbers" in info.value.message("en")
    assert "1〜5の異なる3つの数です" in info.value.message("ja")


def test_the_battery_plays_the_games_own_samples_of_free_form_options(free, monkeypatch):
    seen = []
    real = free.new_game

    def spy(**kwargs):
        seen.append((kwargs["options"]["cards1"], kwargs["options"]["cards2"]))
        return real(**kwargs)

    monkeypatch.setattr(free, "new_game", spy)
    result = battery.run("tinyfree", games=30)
    assert result["failures"] == [] and result["games"] == 30
    assert len(set(seen)) > 5  # not only the defaults
    assert battery.play_one("tinyfree", 7) == battery.play_one("tinyfree", 7)  # reproducible
    # The default hook draws nothing: a game without free-form options is unchanged.
    assert pygames.Game.sample_options(pygames.get_game("kiriai"), random.Random(1)) == {}


def test_a_tool_reads_its_entries_and_its_writes_go_to_the_page(free):
    from pgui.session_glue import Session

    stored = {"pygames.tinyfree.hands.aa": json.dumps({"name": "Low", "value": "1-2-3"}),
              "pygames.other.hands.bb": json.dumps({"name": "Elsewhere", "value": "x"}),
              "pygames.tinyfree.hands.cc": "{damaged"}
    s = Session()
    r = s.open("game=tinyfree&tool=hands&lang=en", stored=json.dumps(stored))
    assert "Low: 1-2-3" in r["html"] and "Elsewhere" not in r["html"] and r["store"] == []
    r = s.command("save\nTop\n5 4 3")
    (op,) = r["store"]
    assert op["op"] == "set" and op["key"].startswith("pygames.tinyfree.hands.")
    assert json.loads(op["text"]) == {"name": "Top", "value": "3-4-5"}
    assert "Top: 3-4-5" in r["html"]
    r = s.command("store-failed:" + op["key"])  # the page could not write it
    assert "not saved" in r["html"] and "Top: 3-4-5" not in r["html"] and r["store"] == []
    r = s.command("lang:ja")
    assert r["lang"] == "ja" and 'value="5 4 3"' in r["html"]  # what was typed stays
    r = s.command("save\nBad\n1-1-1")
    assert r["store"] == [] and "手札は1〜5の異なる3つの数です" in r["html"]
    assert "error" in s.open("game=tinyfree&tool=nothing&lang=en")
