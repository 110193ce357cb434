"""The browser UI's shared pure-Python layer (``web/pgui``), tested in CPython with no
browser: every string exists in English and Japanese (and every key pgui uses), the i18n
helpers, the shared modules' doctests, and the lobby is a complete, fully local page.
HTML is inspected through its ``data-*`` hooks and a tiny tag matcher (helpers/markup.py).

Each game's own table is tested in its folder (kiriai/test_ui_kiriai.py,
cardia/test_ui_cardia.py, canosa/test_ui_canosa.py); what the one table promises every game
is test_table.py.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import re
import string

import pytest
from helpers.markup import outer, tags, visible_text
from pgui import i18n, lobby, pages, ui_modules
from pgui.i18n import STRINGS, t

import pygames
from tools.paths import WEB

ui_modules()  # every game's strings join pgui.i18n.STRINGS
PGUI = WEB / "pgui"
#: Keys whose Japanese text may equal the English one.
SAME_IN_BOTH = {"app_name"}


# =========================================================================== i18n
def test_every_string_has_english_and_japanese():
    for key, entry in STRINGS.items():
        assert set(entry) >= {"en", "ja"}, key
        for lang in ("en", "ja"):
            assert isinstance(entry[lang], str) and entry[lang].strip(), (key, lang)


def test_japanese_is_actually_translated():
    same = {k for k, e in STRINGS.items() if e["en"] == e["ja"]}
    assert same <= SAME_IN_BOTH, sorted(same - SAME_IN_BOTH)
    # The Japanese texts of the app's own words contain Japanese characters.
    for key, entry in STRINGS.items():
        if key not in SAME_IN_BOTH and key != "lang_switch":
            assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", entry["ja"]), key


def _fields(text: str) -> set[str]:
    text = i18n.PLURAL.sub(lambda m: "{" + m.group(1) + "}", text)  # {n|card|cards}: n
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_english_counts_agree_with_their_nouns_and_japanese_uses_its_own_colon():
    assert t("cardia.ev.draw", "en", who="Player 1", n=1).endswith("draws 1 card.")
    assert t("cardia.ev.draw", "en", who="Player 1", n=2).endswith("draws 2 cards.")
    assert t("canosa.rings_n", "en", n=1) == "1 ring"
    assert t("canosa.rings_n", "en", n=0) == "0 rings"
    for key, entry in STRINGS.items():
        assert "(s)" not in entry["en"], key
        # A colon after Japanese text is the full-width one (：), as Japanese writes it.
        assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff）」]:", entry["ja"]), key


def test_placeholders_are_the_same_in_both_languages():
    # Bar a field that only picks an English verb's form for "you" ({you|win|wins}).
    def fields(text: str) -> set[str]:
        return {f for f in _fields(text) if not f.startswith("you")}

    for key, entry in STRINGS.items():
        assert fields(entry["en"]) == fields(entry["ja"]), key


def _keys_used_in_source() -> set[str]:
    """Literal first arguments of t(...) and both(...) calls in pgui (docstrings excluded)."""
    keys = set()
    for path in sorted(PGUI.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("t", "both") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                keys.add(node.args[0].value)
    return keys


def test_every_key_used_by_pgui_exists():
    # Every module registers its words when imported (a game's UI module too, registered
    # as a game or not yet).
    for path in sorted(PGUI.glob("*.py")):
        importlib.import_module(f"pgui.{path.stem}")
    used = _keys_used_in_source()
    assert len(used) > 40  # the scan really found the calls
    assert not used - set(STRINGS), sorted(used - set(STRINGS))


@pytest.mark.parametrize("module", ["pgui.i18n", "pgui.table", "pgui.lobby", "pgui.tools"])
def test_pgui_doctests(module):
    result = doctest.testmod(importlib.import_module(module), verbose=False)
    assert result.failed == 0


# =========================================================================== lobby
@pytest.fixture(scope="module")
def lobby_html() -> str:
    return lobby.render_lobby()


def test_lobby_is_a_complete_document(lobby_html):
    assert lobby_html.lstrip().lower().startswith("<!doctype html>")
    assert lobby_html.rstrip().endswith("</html>")
    html_tag = next(attrs for tag, attrs in tags(lobby_html) if tag == "html")
    assert html_tag.get("lang") in ("en", "ja") and "data-ready" in html_tag
    names = [tag for tag, _ in tags(lobby_html)]
    for needed in ("head", "body", "title", "main"):
        assert needed in names
    assert any(tag == "meta" and attrs.get("charset") == "utf-8"
               for tag, attrs in tags(lobby_html))


def test_each_games_play_button_names_its_game_for_outside_tests(lobby_html):
    plays = [attrs["data-play"] for tag, attrs in tags(lobby_html)
             if tag == "button" and "data-play" in attrs]
    assert plays == pygames.game_ids()


def test_planned_games_are_coming_soon_not_forms(monkeypatch):
    planned = {"someday": {"en": "Someday", "ja": "いつか"}}
    monkeypatch.setattr(pygames, "PLANNED", planned)
    lobby_html = lobby.render_lobby()
    for gid, names in planned.items():
        card = outer(lobby_html, f'data-game="{gid}"')
        assert card is not None, gid
        assert "planned" in card.split(">", 1)[0]
        assert "<form" not in card and "<button" not in card and "<input" not in card
        text = visible_text(card)
        assert names["en"] in text and names["ja"] in text
        assert "Coming soon" in text and "近日公開" in text
    forms = [attrs for tag, attrs in tags(lobby_html) if tag == "form"
             and "open-record" not in attrs.get("class", "")]  # the lobby's "Open a record"
    assert len(forms) == len(pygames.game_ids())


def test_lobby_boots_python_in_the_background_but_shows_no_loading_screen(lobby_html):
    all_tags = tags(lobby_html)
    # Python runs in a worker that glue.js starts (the page's main thread only draws);
    # no PyScript tag, no Python on the page itself.
    assert any(tag == "script" and attrs.get("src") == "./glue.js" for tag, attrs in all_tags)
    assert not any(tag == "script" and attrs.get("type") == "py" for tag, attrs in all_tags)
    loading = next(attrs for tag, attrs in all_tags if attrs.get("id") == "loading")
    assert "hidden" in loading, "the lobby must not greet players with a loading screen"
    play = pages.render_play()
    play_loading = next(attrs for tag, attrs in tags(play) if attrs.get("id") == "loading")
    assert "hidden" not in play_loading, "play.html shows its progress at once"


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_each_game_is_a_tile_with_its_board_facts_and_one_play(lobby_html, gid):
    """Its picture (inert SVG drawn by the game's UI module, hidden from screen readers:
    the title names the game), players and play time, blurb, rules link, the line saying
    what Play starts (the defaults), one Play; every choice waits in its settings dialog."""
    game, tile = pygames.get_game(gid), outer(lobby_html, f'id="game-{gid}"')
    thumb = outer(tile, 'class="thumb"')
    assert 'aria-hidden="true"' in thumb.split(">", 1)[0] and "<svg" in thumb
    assert not re.search(r"<(script|a|button|input)\b|\son\w+=", thumb), "the picture is inert"
    low, high = pgui_ui(gid).PLAY_TIME
    text = visible_text(outer(tile, 'class="meta"'))
    least, most = game.min_players, game.max_players
    count = (("2 players", "2人") if most == 2
             else (f"{least}–{most} players", f"{least}〜{most}人"))
    for words in (*count, f"{low}–{high} min", f"{low}〜{high}分"):
        assert words in text
    assert f'href="./docs/en/{gid}.html"' in tile and f'href="./docs/ja/{gid}.html"' in tile
    line = visible_text(outer(tile, f'id="plan-{gid}"'))
    if most == 2:
        assert "vs bot · Normal · you go first" in line and "ボットと対戦" in line
    else:  # a game for more than two: its count of players and who sits where
        assert f"{least} players · you · Normal bot" in line and f"{least}人 · あなた" in line
    assert [a.get("data-play") for tag, a in tags(tile) if tag == "button"
            and "play" in a.get("class", "").split()] == [gid]
    dialog = outer(tile, "<dialog")
    radios = {(a["name"], a["value"]) for tag, a in tags(dialog) if a.get("type") == "radio"}
    modes = ({("mode", m) for m in ("bot", "hotseat", "link")} if most == 2
             else {("players", str(n)) for n in range(least, most + 1)})
    expected = modes | {
        (name, str(v)) for name, spec in game.option_schema.items()
        for v in spec.get("values", [])}
    assert expected <= radios
    outside = tile.replace(dialog, "")
    assert 'type="radio"' not in outside, "the tile itself stays short"


def pgui_ui(gid):
    from pgui import ui_module

    return ui_module(gid)


def test_the_tiles_line_follows_the_choices():
    cardia = pygames.get_game("cardia")
    assert lobby.plan(cardia, {"mode": "hotseat", "location": "bazaar"}) == {
        "en": "Pass and play · Location: Bazaar", "ja": "1台で交代 · ロケーションは市場"}
    assert lobby.plan(cardia, {"bot": "strong", "seat": "random", "deck": "II"})["en"] == (
        "vs bot · Strong · seats drawn at random · Deck: Deck II (advanced)")


def test_every_cardia_location_is_explained_in_both_languages(lobby_html):
    cardia = pygames.get_game("cardia")
    helps = lobby.option_help(cardia)
    assert set(helps["location"]) == set(cardia.option_schema["location"]["values"])
    dialog = outer(outer(lobby_html, 'id="game-cardia"'), "<dialog")
    choices = {re.search(r'name="(\w+)" value="(\w+)"', c).groups(): visible_text(c)
               for c in dialog.split('<label class="choice">')[1:]}
    for value, texts in helps["location"].items():  # next to its own choice
        assert texts["en"] in choices["location", value], value
        assert texts["ja"] in choices["location", value], value
    for gid, name in (("kiriai", "battlefield"), ("canosa", "layout")):
        game = pygames.get_game(gid)
        assert set(lobby.option_help(game)[name]) == {
            str(v) for v in game.option_schema[name]["values"]}


def test_option_help_for_a_value_that_does_not_exist_stops_the_build(monkeypatch):
    ui = pgui_ui("cardia")
    monkeypatch.setattr(ui, "OPTION_HELP", {"location": {"atlantis": {"en": "x", "ja": "x"}}})
    with pytest.raises(ValueError, match="atlantis"):
        lobby.render_lobby()


@pytest.mark.parametrize("hook", ["thumbnail", "PLAY_TIME"])
def test_a_game_without_a_lobby_hook_stops_the_build_naming_it(monkeypatch, hook):
    monkeypatch.delattr(pgui_ui("canosa"), hook)
    with pytest.raises(NotImplementedError, match=rf"canosa_ui has no {hook}"):
        lobby.render_lobby()


def test_saved_games_come_after_the_games(lobby_html):
    assert lobby_html.index('class="games"') < lobby_html.index('id="saved-games"')


def test_lobby_uses_no_outside_urls(lobby_html):
    assert not re.search(r"https?://", lobby_html, re.IGNORECASE)
    for _tag, attrs in tags(lobby_html):
        for attr in ("href", "src", "action"):
            value = attrs.get(attr)
            if value is not None:
                assert not value.startswith("//") and ":" not in value.split("/")[0], value


def test_i18n_module_helpers():
    assert i18n.pick_lang(None, "ja-JP") == "ja" and i18n.pick_lang("de") == "en"
    assert t("play", "xx") == "Play"  # unknown language falls back to English
    assert i18n.esc('<a href="x">') == "&lt;a href=&quot;x&quot;&gt;"
    spans = i18n.both("play")
    assert 'lang="en"' in spans and 'lang="ja"' in spans and "プレイ" in spans
