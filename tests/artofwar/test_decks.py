"""ART OF WAR's deck builder (pgui/artofwar_decks.py) in CPython: what the player sees and
can press, from the builder's own state (no browser; the page's storage is simulated by the
writes the builder asks for, pgui/tools.py)."""

from __future__ import annotations

import doctest
import json

import pytest
from helpers.markup import outer, tags, visible_text
from pgui import artofwar_decks
from pgui.artofwar_decks import DeckBuilder

from pygames.artofwar import KINGS, STARTER


def builder(lang="en", stored=None, **params):
    return DeckBuilder("artofwar", params=params, lang=lang,
                       stored=json.dumps(stored or {}), page="http://x/play.html")


def press(b, *cmds):
    for cmd in cmds:
        b.command(cmd)


def buttons(html):
    """{data-cmd: attributes} of every button."""
    return {a["data-cmd"]: a for tag, a in tags(html) if tag == "button" and "data-cmd" in a}


def test_doctests():
    assert doctest.testmod(artofwar_decks).failed == 0


def test_it_opens_on_the_starter_deck_complete_and_saveable():
    b = builder()
    html = b.html()
    assert b.code() == STARTER[0]
    assert "20 / 20 troops" in visible_text(html)
    assert "disabled" not in buttons(html)["save"]


def test_twenty_troops_are_enforced_as_you_go():
    b = builder()
    b.command("add:S")  # already 20: + does nothing and is disabled
    assert b.counts["S"] == 4 and "disabled" in buttons(b.html())["add:S"]
    b.command("sub:G")
    html = b.html()
    assert "19 / 20 troops" in visible_text(html)
    assert "disabled" in buttons(html)["save"] and "Add 1 more troop to save." in visible_text(html)
    assert all("disabled" not in buttons(html)[f"add:{k}"] for k in "SGAPW")
    b.command("save\nHalf\n")  # refused: not 20
    assert b.take_store() == []
    b.command("clear")
    assert b.total() == 0 and "disabled" in buttons(b.html())["sub:S"]
    for _ in range(25):
        b.command("add:A")
    assert b.counts["A"] == 20 and b.code() == "K1A20"


def test_one_box_caps_each_type_at_ten():
    b = builder(deck="K1A12S8")
    b.command("box")
    html = b.html()
    assert buttons(html)["box"]["aria-pressed"] == "true"
    assert "disabled" in buttons(html)["save"] and "At most 10 of one type" in visible_text(html)
    press(b, "sub:A", "sub:A", "add:S", "add:S")
    assert b.counts == {"S": 10, "G": 0, "A": 10, "P": 0, "W": 0}
    assert "disabled" in buttons(b.html())["add:S"] and b.can_save()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_king_can_be_chosen_and_provisional_ones_say_so(lang):
    b = builder(lang=lang)
    for number, data in KINGS.items():
        b.command(f"king:{number}")
        html = b.html()
        assert buttons(html)[f"king:{number}"]["aria-pressed"] == "true"
        card = outer(html, 'class="card king-card"')
        assert f"K-{number:03d}" in visible_text(card)
        assert card.count('class="hit"') == len(data["range"])  # its range, drawn
        note = "Provisional" if lang == "en" else "仮のデータ"
        assert (note in visible_text(card)) == data["provisional"], number
    assert b.code().startswith("K10")


def test_save_load_delete_and_the_list():
    b = builder(stored={"pygames.artofwar.decks.old": json.dumps(
        {"name": "Archers", "value": "K4A20", "updated": 1}),
        "pygames.artofwar.decks.bad": json.dumps({"name": "Broken", "value": "K1S3"})})
    html = b.html()
    assert "Archers" in visible_text(html) and "Broken" not in visible_text(html)
    press(b, "king:2", "sub:S", "add:W")
    b.command("save\nMy wizards\n")
    (op,) = b.take_store()
    entry = json.loads(op["text"])
    assert op["op"] == "set" and op["key"].startswith("pygames.artofwar.decks.")
    assert (entry["name"], entry["value"]) == ("My wizards", "K2S3G4A4P4W5")
    html = b.html()
    assert "Saved “My wizards”." in visible_text(html)
    assert 'data-saved-deck="K2S3G4A4P4W5"' in html
    # Saving under the same name again writes over it.
    press(b, "sub:W", "add:S", "save\nMy wizards\n")
    (again,) = b.take_store()
    assert again["key"] == op["key"] and "Saved over" in visible_text(b.html())
    b.command("load:old")
    assert b.code() == "K4A20" and b.deck_name == "Archers"
    b.command("delete:old")
    (gone,) = b.take_store()
    assert gone == {"op": "remove", "key": "pygames.artofwar.decks.old"}
    assert "Archers" not in outer(b.html(), 'class="yours"')


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_refused_write_is_said_and_the_deck_stays(lang):
    b = builder(lang=lang)
    press(b, "king:3", "sub:P", "add:G")
    b.command("save\nGuards\n")
    (op,) = b.take_store()
    b.command("store-failed:" + op["key"])
    html = b.html()
    message = outer(html, "data-deck-message")
    assert 'role="alert"' in message
    words = "would not keep the deck" if lang == "en" else "デッキを保存できません"
    assert words in visible_text(message)
    assert b.code() == "K3S4G5A4P3W4" and 'value="Guards"' in html  # nothing lost
    assert "Guards" not in visible_text(outer(html, 'class="yours"'))


def test_share_gives_the_code_and_a_link_that_opens_the_builder_with_it():
    b = builder(deck="K7S10W10")
    html = b.html()
    fields = {a["id"]: a for tag, a in tags(html) if tag == "input" and "id" in a}
    assert fields["deck-code"]["value"] == "K7S10W10" and "readonly" in fields["deck-code"]
    link = fields["deck-link"]["value"]
    assert link == "http://x/play.html?game=artofwar&tool=decks&deck=K7S10W10"
    copies = [a["data-copy-from"] for tag, a in tags(html) if "data-copy-from" in a]
    assert copies == ["deck-code", "deck-link"]
    again = builder(deck=link.partition("deck=")[2])
    assert again.code() == "K7S10W10"
    b.command("sub:S")  # incomplete: nothing to share
    assert "deck-link" not in b.html()


@pytest.mark.parametrize("lang,words", [("en", "holds 19"), ("ja", "このデッキは19枚")])
def test_a_bad_deck_in_a_link_or_typed_is_explained_in_the_players_language(lang, words):
    b = builder(lang=lang, deck="K1S4G4A4P4W3")
    assert words in visible_text(outer(b.html(), "data-deck-message"))
    assert b.code() == STARTER[0]
    b.command("open\n\nK99S20")
    assert "K-099" in visible_text(outer(b.html(), "data-deck-message"))
    b.command("open\n\nk2 s10 g10")
    assert b.code() == "K2S10G10"


def test_every_control_is_labelled_and_carries_what_was_typed():
    b = builder(lang="ja")
    html = b.html()
    for cmd, attrs in buttons(html).items():
        assert attrs.get("data-with") == "deck-name deck-open", cmd
    steppers = [a for tag, a in tags(html) if tag == "button" and "step" in a.get("class", "")]
    assert len(steppers) == 10 and all(a.get("aria-label") for a in steppers)
    assert buttons(html)["add:S"]["aria-label"] == "ソルジャーを1枚増やす"
    for field in ("deck-name", "deck-open", "deck-code", "deck-link"):
        assert f'<label for="{field}">' in html, field
    b.command("lang:en\nKeep me\nK1")  # switching language keeps what was typed
    html = b.html()
    assert 'value="Keep me"' in html and 'value="K1"' in html and "Deck name" in html


# -- decks as options, through the shared layers (the game registered for these tests) -------
@pytest.fixture
def registered():
    import pygames

    known = "artofwar" in pygames.game_ids()
    pygames.register("artofwar", "pygames.artofwar", "ArtOfWarGame")
    yield pygames.get_game("artofwar")
    if not known:
        pygames.unregister("artofwar")


def test_the_tile_links_the_builder_and_the_settings_offer_saved_decks(registered):
    from pgui.lobby import render_lobby

    html = render_lobby()
    tile = outer(html, 'id="game-artofwar"')
    links = [a for tag, a in tags(tile) if tag == "a" and "data-tool" in a]
    assert [a["href"] for a in links] == [f"./play.html?game=artofwar&tool=decks&lang={lang}"
                                          for lang in ("en", "ja")]
    assert visible_text(tile).count("デッキ") >= 1
    dialog = outer(tile, "<dialog")
    for group in ("mine", "theirs", "deck1", "deck2"):
        box = outer(dialog, f'id="artofwar-{group}"')
        assert 'data-store="pygames.artofwar.decks."' in box, group
        values = [a["value"] for tag, a in tags(box) if a.get("type") == "radio"]
        assert sorted(values) == sorted(STARTER), group
    checked = {a["name"]: a["value"] for tag, a in tags(dialog)
               if a.get("type") == "radio" and "checked" in a}
    assert checked["mine"] == STARTER[0] and checked["theirs"] == STARTER[1]
    assert "あなたのデッキ" in visible_text(outer(dialog, 'id="artofwar-mine"'))
    assert "ボットのデッキ" in visible_text(outer(dialog, 'id="artofwar-theirs"'))


def test_in_link_play_each_player_reads_their_own_deck_as_theirs(registered):
    """The host (seat 0) sets "Your deck" and "Your opponent's deck", not Player 1's and
    Player 2's; the guest's Join screen names them the other way round."""
    from pgui.i18n import t
    from pgui.link import LinkTable
    from pgui.lobby import plan, render_lobby

    code = "K3S10G10"
    assert plan(registered, {"mode": "link", "deck1": code, "deck2": code}) == {
        "en": f"Play a friend · Your deck: {code} · Your opponent's deck: {code}",
        "ja": f"{t('plan_link', 'ja')} · あなたのデッキは{code} · 相手のデッキは{code}"}
    assert plan(registered, {"mode": "hotseat", "deck1": code})["en"].endswith(
        f"Player 1's deck: {code}")
    dialog = outer(outer(render_lobby(), 'id="game-artofwar"'), "<dialog")
    for group, link_words in (("deck1", "Your deck"), ("deck2", "Your opponent's deck")):
        box = outer(dialog, f'id="artofwar-{group}"')
        assert link_words in visible_text(outer(box, 'class="in-link"')), group
        assert "Player" in visible_text(outer(box, 'class="not-link"')), group
        # The tile's line in link play names the saved deck the player picks the same way.
        attrs = next(a for tag, a in tags(box) if tag == "fieldset")
        assert attrs["data-plan-link-en"] == f"{link_words}: {{value}}", group
    fragment = "r=abcdefghij&k=abcdefghijklmnopqrstu"
    guest = LinkTable("artofwar", mode="join", lang="en", fragment=fragment,
                      options={"deck1": STARTER[1], "deck2": STARTER[0]})
    words = visible_text(guest.html())
    assert "Your opponent's deck: Starter deck (K-002)" in words
    assert "Your deck: Starter deck (K-001)" in words
    assert "Player 1" not in words


@pytest.mark.parametrize("seat", [0, 1])
def test_your_deck_goes_to_your_seat_against_the_bot(registered, seat):
    from pgui.session_glue import Session

    s = Session()
    r = s.open(f"game=artofwar&mode=bot&seat={seat}&mine=k3+s10+g10&theirs=K9W20&seed=4")
    assert "error" not in r, r
    table = s.table
    assert table.options[f"deck{seat + 1}"] == "K3S10G10"
    assert table.options[f"deck{2 - seat}"] == "K9W20"
    assert table.state.view(seat)["kings"][seat] == 3


@pytest.mark.parametrize("lang,words", [("en", "holds 19"), ("ja", "このデッキは19枚")])
def test_a_bad_deck_in_a_table_link_is_explained(registered, lang, words):
    from pgui.session_glue import Session

    r = Session().open(f"game=artofwar&mode=hotseat&deck1=K1S4G4A4P4W3&lang={lang}")
    assert words in r["reason"] and r["heading"]
    label = "Player 1's deck" if lang == "en" else "プレイヤー1のデッキ"
    assert label in r["reason"]


def test_the_builder_opens_through_the_session_with_its_saved_decks(registered):
    from pgui.session_glue import Session

    stored = {"pygames.artofwar.decks.x1": json.dumps({"name": "Mine", "value": "K1S20"})}
    s = Session()
    r = s.open("game=artofwar&tool=decks&deck=K2A20&lang=ja", stored=json.dumps(stored))
    assert r["css"] == "pgui/artofwar_decks.css" and r["local"] is None
    assert 'data-deck="K2A20"' in r["html"] and "Mine" in r["html"]
    r = s.command("save\n新しい\n")
    assert [json.loads(op["text"])["value"] for op in r["store"]] == ["K2A20"]


@pytest.mark.parametrize("lang,words", [("en", "at most 10 cards of one type"),
                                        ("ja", "同じ兵種は10枚までです")])
def test_a_deck_that_breaks_the_one_box_option_is_explained(registered, lang, words):
    from pgui.session_glue import Session

    r = Session().open(f"game=artofwar&mode=bot&mine=K1A20&max_copies_per_type=10&lang={lang}")
    assert words in r["reason"] and r["heading"], r
