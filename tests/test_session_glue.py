"""The worker's glue in CPython (``pgui.session_glue``): the query parsing, the language,
the options, and the session the page drives, whose results are small JSON. The same glue
in a real Chromium's worker is test_browser_worker.py."""

from __future__ import annotations

import json
import re

import pytest
from pgui.session_glue import Session, make_table, parse_options, parse_query, query_lang

import pygames
from tools.paths import ROOT


def test_query_parsing_takes_the_first_value_like_urlsearchparams():
    assert parse_query("?game=kiriai&mode=bot&mode=hotseat&x=a+b%21") == {
        "game": "kiriai", "mode": "bot", "x": "a b!"}
    assert parse_query("") == {}


def test_language_comes_from_the_query_then_saved_then_browser():
    assert query_lang({"lang": "ja"}, "en", "en-US") == "ja"
    assert query_lang({"lang": "fr"}, "ja", "en-US") == "ja"
    assert query_lang({}, None, "ja-JP") == "ja"
    assert query_lang({}, None, None) == "en"


def test_options_are_matched_against_the_game_as_text():
    game = pygames.get_game(pygames.game_ids()[0])
    name, spec = next(iter(game.option_schema.items()))
    value = spec["values"][-1]
    assert parse_options(game, {name: str(value)}) == {name: value}
    label = game.option_labels[name]["label"]
    with pytest.raises(ValueError) as info:
        parse_options(game, {name: "no-such-value"})
    for lang in ("en", "ja"):  # the option by the name players see, in their language
        assert label[lang] in info.value.message(lang)
        assert "no-such-value" in info.value.message(lang)


def test_make_table_defaults_to_the_first_game_and_a_given_deal():
    table = make_table("", saved_lang=None, nav_lang="ja-JP", seed=12)
    assert table.game.id == pygames.game_ids()[0]
    assert (table.mode, table.seed, table.lang, table.speed) == ("bot", 12, "ja", 900)
    table = make_table("mode=hotseat&seed=5&speed=0&lang=en", seed=12)
    assert (table.mode, table.seed, table.lang, table.speed) == ("hotseat", 5, "en", 0)


def test_session_results_are_small_json_for_the_page():
    session = Session()
    gid = pygames.game_ids()[0]
    result = session.open(f"game={gid}&mode=bot&seed=3&speed=0", saved_lang="en")
    # local: the game to keep (pgui.saved); css: the game's own stylesheet (pgui.table)
    assert set(result) == {"html", "animating", "over", "lang", "title", "delay", "thinking",
                           "changed", "bot", "local", "css"}
    assert json.loads(json.dumps(result)) == result
    assert result["title"] == pygames.get_game(gid).names["en"]
    assert result["lang"] == "en" and not result["over"]
    switched = session.command("lang:ja")
    assert switched["lang"] == "ja" and switched["title"] == pygames.get_game(gid).names["ja"]
    assert session.advance()["html"] == switched["html"]  # nothing to play back: unchanged


def test_a_bad_link_gets_a_readable_error_in_the_players_language():
    result = Session().open("game=chess&lang=ja")
    assert set(result) == {"error", "lang"}
    assert result["lang"] == "ja"
    assert result["error"].startswith("このリンクのゲーム・モード・オプションは存在しません")
    assert "「chess」というゲームはありません" in result["error"]
    result = Session().open("mode=nobody", saved_lang="en")
    assert "does not exist" in result["error"] and "“nobody”" in result["error"]
    # Every reason in the page's language, naming the value (no raw quotes or escapes).
    for query in ("game=kiriai&seat=7", "game=kiriai&bot=huge", "game=kiriai&mode=replay&ply=x",
                  "game=kiriai&mode=replay&controls=maybe", "game=kiriai&mode=nobody",
                  "game=kiriai&battlefield=huge"):
        text = Session().open(query + "&lang=ja")["error"]
        words = re.sub(r"「[^」]*」|（[^）]*）|random|last|right|bottom", "", text)  # values
        assert not re.search(r"[A-Za-z]{4,}", words), text
        assert "'" not in text and "\\" not in text, text


def test_glue_names_no_game():
    for path in (ROOT / "web/pgui/session_glue.py", ROOT / "web/worker.py",
                 ROOT / "web/glue.js", ROOT / "web/boot.js"):
        text = path.read_text(encoding="utf-8")
        named = [gid for gid in [*pygames.game_ids(), *pygames.PLANNED] if gid in text]
        assert not named, f"{path.name} names {named}"
        assert "_ui" not in text, f"{path.name} reaches into a game's UI module"
