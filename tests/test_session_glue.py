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
    assert set(result) == {"error", "heading", "reason", "lang"}
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


def finished_record(gid: str, seed: int) -> dict:
    from pygames.bots import self_play

    return self_play(pygames.get_game(gid), seed=seed).record()


def problem_screen(query: str, lang: str) -> tuple[str, str]:
    """The error screen a query opens: its heading and its reason (and no table)."""
    result = Session().open(f"{query}&lang={lang}")
    assert set(result) == {"error", "heading", "reason", "lang"}, query
    assert result["lang"] == lang
    heading, reason = result["heading"], result["reason"]
    for text in (heading, reason):  # no raw quotes or escapes, nothing of Python's
        assert not re.search(r"'[^\s']{1,4}'|[\"\\{}]|&[a-z]+;|Traceback", text), text
        if lang == "ja":  # no English reason on a Japanese page (values, the app's name aside)
            words = re.sub(r"「[^」]*」|“[^”]*”|（[^）]*）|pygames", "", text)
            assert not re.search(r"[A-Za-z]{4,}", words), text
    return heading, reason


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_replay_or_embed_that_cannot_be_shown_says_why_in_the_pages_language(lang):
    from pygames import records

    gid, other = pygames.game_ids()[:2]
    record = finished_record(gid, 3)
    text, total = records.to_string(record), len(record["actions"])
    names = {g: pygames.get_game(g).names[lang] for g in (gid, other)}
    cannot = {"en": "This record cannot be shown", "ja": "この記録は表示できません"}[lang]
    for base in ("mode=replay", "mode=replay&embed=on"):
        # No record at all: not an empty game, but a screen that says so.
        for query in (base, f"{base}&game={gid}"):
            heading, reason = problem_screen(query, lang)
            assert heading == {"en": "Nothing to replay", "ja": "再生する記録がありません"}[lang]
            assert {"en": "no record", "ja": "記録が入っていません"}[lang] in reason
        # A move past the end: how many there are, and which one was asked for.
        heading, reason = problem_screen(f"{base}&record={text}&ply={total + 2}", lang)
        assert heading == cannot
        assert str(total) in reason and str(total + 2) in reason
        # Another game's record: both games by the names players know.
        heading, reason = problem_screen(f"{base}&game={other}&record={text}", lang)
        assert heading == cannot and names[gid] in reason and names[other] in reason
        # Malformed: cut short, not a record at all, a score sheet with a line out of place.
        heading, reason = problem_screen(f"{base}&record={text[:-5]}", lang)
        assert heading == cannot and {"en": "cut short", "ja": "切れ"}[lang] in reason
        heading, reason = problem_screen(f"{base}&record=hello", lang)
        assert heading == cannot and "r1." in reason
        sheet = records.to_sheet(record).split("\n")
        move = next(line for line in sheet if re.match(r"\d+\. ", line))
        moved = "%0A".join([sheet[0], move, *sheet[1:]]).replace(" ", "+")  # before "Game:"
        heading, reason = problem_screen(f"{base}&record={moved}", lang)
        assert heading == cannot and reason
    # A new deal's start is still there to play on from (seed= names it).
    assert "error" not in Session().open(f"mode=replay&game={gid}&seed=4&lang={lang}")


def test_glue_names_no_game():
    for path in (ROOT / "web/pgui/session_glue.py", ROOT / "web/worker.py",
                 ROOT / "web/glue.js", ROOT / "web/boot.js", ROOT / "web/pyworker.mjs",
                 ROOT / "web/pyboot.mjs"):
        text = path.read_text(encoding="utf-8")
        named = [gid for gid in [*pygames.game_ids(), *pygames.PLANNED] if gid in text]
        assert not named, f"{path.name} names {named}"
        assert "_ui" not in text, f"{path.name} reaches into a game's UI module"
