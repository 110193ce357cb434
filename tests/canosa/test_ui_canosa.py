"""Canosa's table, rendered in CPython: what a player would notice.

Every legal action is one selection and one click away (and nothing else is); selecting a
piece highlights exactly what it can do; an attack asks where the defeated siren goes; a
give-or-take square opens a chooser; a move can be taken back mid-turn (Undo, local play
only); the last turn stays marked; both languages have every string; any layout draws
its own size; a bot's turn plays back one step at a time.
"""

from __future__ import annotations

import copy
import html as htmllib
import random
import re

import pytest
from pgui import canosa_ui as ui
from pgui.link import LinkTable
from pgui.table import Table

import pygames

GAME = pygames.get_game("canosa")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


# -- reading the screen -------------------------------------------------------------------
def buttons(html: str) -> list[dict[str, str]]:
    """Every button's attributes (unescaped), ``disabled`` included when present."""
    out = []
    for tag in re.findall(r"<button\b[^>]*>", html):
        attrs = {k: htmllib.unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}
        if re.search(r"\sdisabled[\s>]", tag):
            attrs["disabled"] = "disabled"
        out.append(attrs)
    return out


def enabled_cmds(html: str) -> list[str]:
    return [b["data-cmd"] for b in buttons(html) if "data-cmd" in b and "disabled" not in b]


def square_button(html: str, sq: str) -> dict[str, str]:
    return next(b for b in buttons(html) if b.get("data-sq") == sq)


def highlighted(html: str) -> dict[str, set[str]]:
    """Highlighted squares and the actions each offers."""
    return {b["data-sq"]: set(b["data-actions"].split()) for b in buttons(html)
            if "data-actions" in b and "target" in b.get("class", "")}


def offered(html: str) -> set[str]:
    """Every action the screen offers right now: highlighted squares and action buttons."""
    acts = set().union(*highlighted(html).values()) if highlighted(html) else set()
    return acts | {c[4:] for c in enabled_cmds(html) if c.startswith("act:")}


def marked_last(html: str) -> set[str]:
    return {b["data-sq"] for b in buttons(html) if "last" in b.get("class", "").split()}


def click(table: Table, cmd: str) -> None:
    """A click, then whatever it set playing is played to the end (speed 0 anyway)."""
    table.command(cmd)
    table.skip()


def screen(view, legal, sel=None, lang="en", **kw) -> str:
    return ui.render_table(view, legal, lang, events=kw.pop("events", []), sel=sel, **kw)


def reachable(view: dict, legal: list[str]) -> set[str]:
    """Every action some sequence of clicks on the screen plays (selections explored)."""
    got, seen, todo = set(), set(), [ui.new_selection()]
    while todo:
        sel = todo.pop()
        key = (sel["piece"], sel["choose"])
        if key in seen:
            continue
        seen.add(key)
        for cmd in enabled_cmds(screen(view, legal, sel)):
            twin = copy.deepcopy(sel)
            action = ui.handle(cmd, twin, legal, view)
            if action is not None:
                assert action in legal, (cmd, action)
                got.add(action)
            else:
                todo.append(twin)
    return got


def piece_actions(legal: list[str], piece: str) -> set[str]:
    """The legal actions of one piece: the siren's moves, attacks and ring actions, or a
    sailor's steps and the rings given to it or taken from it."""
    out = set()
    for a in legal:
        kind, at, _ = ui.parse_action(a)
        if piece == "siren" and kind in ("siren", "attack", "give", "take"):
            out.add(a)
        elif piece != "siren" and at == piece and kind in ("sailor", "give", "take"):
            out.add(a)
    return out


def random_states(seeds, layout="standard", first_turn=1):
    for seed in seeds:
        s = GAME.new_game(seed=seed, options={"layout": layout, "first_turn": first_turn})
        rng = random.Random(seed)
        while not s.is_over():
            p = s.to_move()[0]
            yield s, p
            s.apply(p, rng.choice(s.legal_actions(p)))


def position(**kw) -> dict:
    """A hand-set position on the standard board (Gold to move, two actions left)."""
    pos = {"sirens": [{"at": "c3", "rings": 2}, {"at": "f6", "rings": 2}],
           "sailors": [], "to_move": [0], "actions_left": 2, "turn": 4}
    pos.update(kw)
    return pos


def table_at(pos: dict, mode: str = "hotseat", lang: str = "en") -> Table:
    table = Table("canosa", mode=mode, seed=1, speed=0, lang=lang)
    table.load(lambda: GAME.from_position(pos))
    if table.handover is not None:
        table.command("handover-ok")
    return table


def siren_square(table: Table, p: int) -> str:
    return ui.square(table.state.view(None)["sirens"][p]["at"])


# -- every legal action, one selection away ------------------------------------------------
@pytest.mark.parametrize(("layout", "first_turn"), [("standard", 1), ("small", 2)])
def test_every_legal_action_is_reachable_by_clicks_in_random_games(layout, first_turn):
    checked = 0
    for s, p in random_states(range(3), layout, first_turn):
        view, legal = s.view(p), s.legal_actions(p)
        assert reachable(view, legal) == set(legal), (view["last_turn"], legal)
        checked += 1
    assert checked > 200


def test_selecting_a_piece_highlights_exactly_its_legal_actions():
    seen = {"siren": 0, "sailor": 0}
    for s, p in random_states(range(2)):
        view, legal = s.view(p), s.legal_actions(p)
        if view["placing"]:
            assert set(highlighted(screen(view, legal))) == {a[1:] for a in legal}
            continue
        html = screen(view, legal)
        assert not highlighted(html)  # nothing before a selection
        pieces = {b["data-sq"] for b in buttons(html) if "disabled" not in b and "data-sq" in b}
        for sq in pieces:
            sel = ui.new_selection()
            assert ui.handle(f"sq:{sq}", sel, legal, view) is None
            piece = sel["piece"]
            after = screen(view, legal, sel)
            assert square_button(after, sq)["aria-pressed"] == "true"
            assert offered(after) == piece_actions(legal, piece), (sq, piece)
            seen["siren" if piece == "siren" else "sailor"] += 1
    assert min(seen.values()) > 50


def test_a_move_by_two_clicks_then_the_bot_answers():
    table = Table("canosa", mode="bot", seed=2, speed=0, lang="en")
    html = table.html()
    assert "Your turn (1 action left): choose your siren or one of your sailors." in \
        htmllib.unescape(html)
    click(table, "sq:a1")  # Gold's siren, on her island
    html = table.html()
    moves = highlighted(html)
    assert set().union(*moves.values()) == {a for a in table.state.legal_actions(0)
                                            if a.startswith("S")}
    assert "move here" in square_button(html, "b2")["aria-label"]
    click(table, "sq:b2")
    view = table.state.view(0)
    assert view["sirens"][0]["at"] == [1, 1]
    assert view["to_move"] == [0] and view["turn"] == 2  # the bot has played its turn
    assert marked_last(table.html())  # the bot's turn is marked


def test_a_sailor_moves_by_clicks_and_offers_its_rings_as_buttons():
    pos = position(sailors=[{"at": "b3", "rings": [1, 0]}, {"at": "d4", "rings": [1]}])
    table = table_at(pos)
    html = table.html()
    label = square_button(html, "b3")["aria-label"]
    assert label == "b3: sailor, rings Silver, Gold — controlled by you"  # Gold's screen
    click(table, "sq:b3")
    html = table.html()
    legal = table.state.legal_actions(0)
    assert offered(html) == piece_actions(legal, "b3") == {"b3-a3", "b3-b2", "+b3", "-b3"}
    assert "act:+b3" in enabled_cmds(html) and "act:-b3" in enabled_cmds(html)
    assert "ring button" in htmllib.unescape(html)  # the prompt says where the ring actions are
    click(table, "sq:b2")
    sailors = {ui.square(s["at"]): s["rings"] for s in table.state.view(0)["sailors"]}
    assert sailors["b2"] == [1, 0]


def test_attack_then_the_placement_by_clicks():
    pos = position(sirens=[{"at": "c3", "rings": 3}, {"at": "d3", "rings": 1}],
                   sailors=[{"at": "d2", "rings": [1]}])
    table = table_at(pos)
    click(table, "sq:c3")
    html = table.html()
    target = square_button(html, "d3")
    assert "t-attack" in target["class"] and target["aria-label"].endswith("attack")
    assert target["data-actions"] == "Xd3"
    click(table, "sq:d3")
    view = table.state.view(0)
    assert view["placing"]["at"] == [2, 3]
    html = table.html()
    assert "Your attack won: choose where Silver's siren goes" in htmllib.unescape(html)
    assert 'data-placing="true"' in html
    spots = highlighted(html)
    legal = table.state.legal_actions(0)
    assert set().union(*spots.values()) == set(legal) == {f"P{sq}" for sq in spots}
    assert "c3" in spots and "d2" not in spots  # the square the attacker left counts
    assert all("place the defeated siren here" in square_button(html, sq)["aria-label"]
               for sq in spots)
    assert "defeated, waiting to be placed" in square_button(html, "d3")["aria-label"]
    click(table, "sq:e4")
    view = table.state.view(0)
    assert view["sirens"][1]["at"] == [3, 4] and view["placing"] is None
    assert view["actions_left"] == 1 and view["to_move"] == [0]
    kinds = [e["t"] for e in table.state.events(0)]
    assert kinds[-2:] == ["attack", "place"]


def test_give_and_take_on_one_sailor_opens_a_chooser():
    pos = position(sailors=[{"at": "d4", "rings": [0]}])
    table = table_at(pos)
    click(table, "sq:c3")
    html = table.html()
    sq = square_button(html, "d4")
    assert set(sq["data-actions"].split()) == {"+d4", "-d4"}
    assert "give or take a ring" in sq["aria-label"]
    click(table, "sq:d4")  # two actions on one square: a chooser, nothing played yet
    html = table.html()
    assert table.state.view(0)["actions_left"] == 2
    assert "Give a ring to the sailor on d4, or take your ring back?" in htmllib.unescape(html)
    assert {"act:+d4", "act:-d4", "cancel"} <= set(enabled_cmds(html))
    click(table, "act:-d4")
    view = table.state.view(0)
    assert view["sirens"][0]["rings"] == 3
    assert {ui.square(s["at"]): s["rings"] for s in view["sailors"]}["d4"] == []
    assert "d4: sailor, no ring — controlled by nobody" in table.html()


def test_cancel_and_a_second_click_drop_the_selection():
    table = Table("canosa", mode="hotseat", seed=3, speed=0)
    table.command("handover-ok")
    click(table, "sq:a1")
    assert table.sel["piece"] == "siren" and highlighted(table.html())
    click(table, "sq:a1")
    assert table.sel["piece"] is None and not highlighted(table.html())
    click(table, "sq:a1")
    click(table, "cancel")
    assert table.sel["piece"] is None
    click(table, "sq:c3")  # an empty, idle square: nothing happens
    assert table.state.event_count() == 0


# -- undo ----------------------------------------------------------------------------------
def test_undo_takes_back_the_first_action_of_a_turn_against_the_bot():
    table = Table("canosa", mode="bot", seed=5, speed=0, lang="en")
    click(table, "sq:a1")
    click(table, "sq:b2")  # Gold's one-action first turn: over at once, nothing to undo
    assert 'data-cmd="undo"' not in table.html()
    view, legal, count = table.state.view(0), table.state.legal_actions(0), table._count()
    sailor = next(a for a in legal if "-" in a[1:] and a[0] not in "+-")
    src, dst = sailor.split("-")
    click(table, f"sq:{src}")
    click(table, f"sq:{dst}")
    assert table.state.view(0)["actions_left"] == 1
    html = table.html()
    assert 'data-cmd="undo"' in html and "Undo" in html
    click(table, "undo")
    assert table.state.view(0) == view and table.state.legal_actions(0) == legal
    assert table._count() == count and not table.animating
    assert 'data-cmd="undo"' not in table.html()
    # Two actions end the turn: the bot answers and nothing can be taken back.
    for _ in range(2):
        click(table, f"sq:{siren_square(table, 0)}")
        click(table, f"sq:{next(iter(highlighted(table.html())))}")
    assert table.state.view(0)["to_move"] == [0] and table.state.view(0)["actions_left"] == 2
    assert 'data-cmd="undo"' not in table.html()


def test_undo_in_hotseat_keeps_the_device_mid_turn_and_steps_back_through_an_attack():
    pos = position(sirens=[{"at": "c3", "rings": 3}, {"at": "d3", "rings": 1}])
    table = table_at(pos, lang="ja")
    click(table, "sq:c3")
    click(table, "sq:d3")  # attack
    assert table.handover is None and table.viewer() == 0  # no hand-over mid-turn
    assert 'data-cmd="undo"' in table.html() and "取り消す" in table.html()
    click(table, "sq:c2")  # place
    assert table.state.view(0)["sirens"][1]["at"] == [1, 2]
    click(table, "undo")  # back to the placement
    assert table.state.view(0)["placing"]["at"] == [2, 3]
    click(table, "undo")  # back before the attack
    assert table.state.view(0) == GAME.from_position(pos).view(0)
    assert 'data-cmd="undo"' not in table.html()
    click(table, "sq:c3")
    click(table, "sq:b2")
    click(table, "sq:b2")
    click(table, "sq:b1")  # the turn's second action: Silver's turn, on the same screen
    # nothing is hidden in Canosa: no hand-over screen, and no Undo of Gold's turn
    assert table.handover is None and table.viewer() == 1
    assert 'data-cmd="undo"' not in table.html() and "handover" not in table.html()


def test_undo_is_offered_neither_to_other_games_nor_in_link_play():
    kiriai = Table("kiriai", mode="hotseat", seed=1, speed=0)
    kiriai.command("handover-ok")
    kiriai.command("pick:C")
    kiriai.command("pick:B")
    kiriai.command("confirm")
    assert not kiriai.can_undo() and 'data-cmd="undo"' not in kiriai.html()
    assert kiriai.handover == 1  # hot-seat Kiri-ai hands the device over as before
    cardia = Table("cardia", mode="bot", seed=1, speed=0)
    cardia.command(f"pick:{cardia.state.view(0)['hand'][0]}")
    cardia.command("confirm")
    assert not cardia.can_undo()
    host = LinkTable("canosa", mode="link", speed=0)
    assert not host.can_undo() and 'data-cmd="undo"' not in host.html()
    host.command("undo")  # refused quietly


# -- what the board shows ------------------------------------------------------------------
def test_squares_name_their_content_and_the_islands_in_both_languages():
    table = Table("canosa", mode="hotseat", seed=1, speed=0)
    table.command("handover-ok")
    html = table.html()
    a1 = square_button(html, "a1")["aria-label"]  # Gold to move: Gold's screen
    assert a1.startswith("a1: your siren, 2 rings") and "Gold's island (yours)" in a1
    assert square_button(html, "a1")["aria-pressed"] == "false"
    assert square_button(html, "f6")["aria-label"].startswith("f6: Silver's siren, 2 rings")
    assert square_button(html, "f2")["aria-label"] == "f2: sailor, ring Gold — controlled by you"
    assert square_button(html, "b1")["aria-label"] == "b1: empty"
    assert "disabled" in square_button(html, "b1")
    assert html.count('class="edge col"') == 6 and html.count('class="edge row"') == 6
    table.command("lang:ja")
    html = table.html()
    assert square_button(html, "f2")["aria-label"] == (
        "f2: 船員、リング1個（下から金） — あなたが支配")
    assert "金の島" in html and "銀の島" in html


def test_the_last_turn_stays_marked_until_the_next_turn():
    table = Table("canosa", mode="hotseat", seed=1, speed=0)
    table.command("handover-ok")
    click(table, "sq:a1")
    click(table, "sq:b2")
    table.command("handover-ok")  # Silver's turn: Gold's move is marked
    html = table.html()
    assert marked_last(html) == {"a1", "b2"}
    assert "last-from" in square_button(html, "a1")["class"]
    assert "last-to" in square_button(html, "b2")["class"]
    assert square_button(html, "b2")["aria-label"].endswith("last turn: to here")
    click(table, "sq:f6")
    click(table, "sq:e5")  # Silver's first action joins the marks
    html = table.html()
    assert marked_last(html) == {"a1", "b2", "f6", "e5"}


def test_a_second_layout_draws_its_own_size():
    table = Table("canosa", mode="bot", seed=1, speed=0, options={"layout": "small"})
    html = table.html()
    assert 'data-rows="5" data-cols="5"' in html and 'data-layout="small"' in html
    squares = [b["data-sq"] for b in buttons(html) if "data-sq" in b]
    assert len(squares) == 25 and "e5" in squares and "f6" not in squares
    assert "isle-gold" in square_button(html, "a1")["class"]
    assert "isle-silver" in square_button(html, "e5")["class"]
    assert "--rows:5;--cols:5" in htmllib.unescape(html)


def test_panels_show_scores_rings_and_whose_turn():
    pos = position(scores=[2, 1], sailors=[{"at": "b3", "rings": [1, 0, 0]}])
    table = table_at(pos)
    html = table.html()
    gold = re.search(r'<section class="cpanel-c gold moving" data-player="0".*?</section>',
                     html, re.S).group(0)
    assert 'data-scored="2"' in gold and "to move" in gold and 'data-rings="2"' in gold
    silver = re.search(r'<section class="cpanel-c silver" data-player="1".*?</section>',
                       html, re.S).group(0)
    out = GAME.from_position(pos).view(None)["rings_out"][1]
    assert f'data-out="{out}"' in silver and 'data-scored="1"' in silver
    assert "Turn 5 · your turn · 2 actions left" in htmllib.unescape(html)


# -- the log and the playback --------------------------------------------------------------
def test_every_event_is_worded_in_both_languages():
    kinds = set()
    for seed in range(40):
        if {"attack", "place"} <= kinds and seed >= 4:
            break
        s = GAME.new_game(seed=seed)
        rng = random.Random(seed)
        while not s.is_over():
            p = s.to_move()[0]
            s.apply(p, rng.choice(s.legal_actions(p)))
        view = s.view(None)
        for e in s.events(None):
            kinds.add(e["t"])
            en, ja = ui.describe(e, "en", view), ui.describe(e, "ja", view)
            assert en and ja and en != ja, e
            assert e["t"] not in (en, ja) and JAPANESE.search(ja), e
            assert "{" not in en + ja
    assert kinds >= {"siren", "sailor", "score", "give", "take", "turn", "end", "attack", "place"}
    assert ui.describe({"t": "score", "p": 0, "at": [0, 0], "rings": [0, 1, 0],
                        "returned": [1, 0], "lost": [1, 1]}, "en") == (
        "Gold brings a sailor home (rings Gold, Silver, Gold). Back to the sirens: Gold×1. "
        "Out of the game: Gold×1, Silver×1.")
    assert ui.describe({"t": "end", "winners": [1], "reason": "trapped"}, "en") == \
        "Gold cannot make a whole turn: Silver wins."
    assert ui.describe({"t": "end", "winners": [], "reason": "draw_cap"}, "ja") == \
        "手番の上限に達したため引き分け。"
    for outcome in ({"winners": [0], "reason": "sailors"}, {"winners": [1], "reason": "trapped"},
                    {"winners": [], "reason": "draw_cap"}):
        for lang in ("en", "ja"):
            assert ui.result_reason(outcome, lang)


def test_japanese_and_english_tables_have_every_string():
    for s, p in random_states(range(2)):
        view, legal = s.view(p), s.legal_actions(p)
        for lang in ("en", "ja"):
            sel = ui.new_selection()
            pieces = [b["data-sq"] for b in buttons(screen(view, legal, lang=lang))
                      if "disabled" not in b and "data-sq" in b]
            if pieces:
                ui.handle(f"sq:{pieces[-1]}", sel, legal, view)
            html = screen(view, legal, sel, lang=lang, seats=("you", "bot"),
                          events=s.events(p))
            prompt = re.search(r'<p class="prompt"[^>]*>(.*?)</p>', html).group(1)
            assert prompt
            assert bool(JAPANESE.search(prompt)) == (lang == "ja")
            assert "canosa." not in html  # no raw key
    for lang in ("en", "ja"):
        rules = ui.rules_html(lang)
        assert "<ul>" in rules and (lang == "en" or JAPANESE.search(rules))


def test_the_playback_board_follows_each_action_to_the_view():
    steps = 0
    for s, p in random_states(range(4)):
        before, count = s.view(None), s.event_count()
        twin = s.clone()
        twin.apply(p, random.Random(steps).choice(s.legal_actions(p)))
        board = ui.board_at(before, twin.events(None, count))
        after = twin.view(None)
        for key in ("sirens", "scores", "rings_out", "placing"):
            want = after[key]
            if key == "placing" and want is not None:
                want = {"at": want["at"], "siren": want["siren"]}
            assert board[key] == want, key
        assert sorted(map(str, board["sailors"])) == sorted(map(str, after["sailors"]))
        steps += 1
    assert steps > 300


def test_a_bots_turn_plays_back_one_step_at_a_time():
    table = Table("canosa", mode="bot", seed=4, speed=500, lang="en")
    table.command("sq:a1")
    table.command("sq:b2")
    seen = []
    while table.animating:
        html = table.html()
        assert 'data-cmd="skip"' in html and "undo" not in enabled_cmds(html)
        assert not highlighted(html) and not any(c.startswith("sq:") for c in enabled_cmds(html))
        prompt = re.search(r'<p class="prompt"[^>]*>(.*?)</p>', html).group(1)
        seen.append(htmllib.unescape(prompt))
        assert table.delay() >= 500
        table.advance()
    assert any(line.startswith("Silver") for line in seen), seen
    assert len(seen) >= 2  # Silver's two actions, one after the other
    assert "Your turn (2 actions left): choose your siren" in table.html()


def test_whole_hotseat_game_by_clicks_in_japanese():
    table = Table("canosa", mode="hotseat", seed=8, speed=0, lang="ja")
    rng = random.Random(8)
    for _ in range(20_000):
        if table.over:
            break
        if table.animating:
            table.skip()
            continue
        cmds = enabled_cmds(table.html())
        if "handover-ok" in cmds:
            table.command("handover-ok")
            continue
        me = table.viewer()
        legal = table.state.legal_actions(me)
        html = table.html()
        if highlighted(html):
            sq = rng.choice(sorted(highlighted(html)))
            click(table, f"sq:{sq}")
            if table.sel["choose"]:
                table.command(rng.choice([c for c in enabled_cmds(table.html())
                                          if c.startswith("act:")]))
        else:
            pieces = [c for c in cmds if c.startswith("sq:")]
            assert pieces and legal
            table.command(rng.choice(pieces))
    assert table.over
    html = table.html()
    assert 'class="overlay gameover"' in html and JAPANESE.search(html)


# -- to whom the words are said ---------------------------------------------------------------
def log_lines(html: str) -> list[str]:
    return [htmllib.unescape(x) for x in re.findall(r'<li class="ev-[^"]*">(.*?)</li>', html)]


def status(html: str) -> str:
    return htmllib.unescape(re.search(r'<p class="prompt"[^>]*>(.*?)</p>', html).group(1))


def played_by_clicks(table: Table, seed: int, until) -> None:
    """Random clicks (sailor moves first, so that sailors come home) until ``until(table)``."""
    rng = random.Random(seed)
    for _ in range(20_000):
        if table.over or until(table):
            return
        html = table.html()
        lit = highlighted(html)
        moves = sorted(sq for sq, acts in lit.items() if any("-" in a[1:] for a in acts))
        cmds = [c for c in enabled_cmds(html) if c.startswith(("sq:", "act:"))]
        if lit:
            cmd = f"sq:{rng.choice(moves or sorted(lit))}"
        elif any(c.startswith("act:") for c in cmds):
            cmd = rng.choice([c for c in cmds if c.startswith("act:")])
        else:
            cmd = rng.choice(cmds)
        click(table, cmd)
    raise AssertionError("never got there")


@pytest.mark.parametrize("seat", [0, 1])
def test_the_log_and_the_prompts_say_you_to_the_player_and_name_the_bot_by_seat(seat):
    table = Table("canosa", mode="bot", seed=6, speed=0, lang="en", seat=seat)
    mine, theirs = ui.who(seat, "en"), ui.who(1 - seat, "en")
    played_by_clicks(table, 6, lambda t: t.state.view(None)["turn"] >= 8)
    html = table.html()
    lines = log_lines(html)
    moves = [e for e in table.state.events(seat) if e["t"] in ("siren", "sailor", "give", "take")]
    assert len([x for x in lines if x.startswith(("You ", "Your siren"))]) == len(
        [e for e in moves if e["p"] == seat])
    assert any(x.startswith((f"{theirs} ", f"{theirs}'s siren")) for x in lines)
    assert not any(x.startswith(mine) for x in lines), "your own side is you, not its colour"
    assert "— Your turn —" in lines and f"— {theirs}'s turn —" in lines
    if table.state.to_move() == [seat]:
        assert status(html).startswith("Your turn (")
        assert "your turn ·" in html
    table.command("lang:ja")
    lines = log_lines(table.html())
    assert any(x.startswith("あなたが") or x.startswith("あなたのセイレーン") for x in lines)
    assert not any(x.startswith(ui.who(seat, "ja") + "が") for x in lines)


def test_pass_and_play_says_you_to_whoever_is_to_move():
    table = Table("canosa", mode="hotseat", seed=2, speed=0, lang="en")
    click(table, "sq:a1")
    click(table, "sq:b2")  # Gold's one-action first turn: Silver's screen now
    html = table.html()
    assert status(html).startswith("Your turn (2 actions left)")
    assert "Turn 2 · your turn · 2 actions left" in htmllib.unescape(html)
    assert log_lines(html)[-2:] == ["Gold's siren moves a1 → b2.", "— Your turn —"]
    assert "a1: empty, Gold's island," in square_button(html, "a1")["aria-label"]
    assert "f6: your siren, 2 rings, Silver's island (yours)" in square_button(html, "f6")[
        "aria-label"]


def test_a_spectator_sees_seat_names_and_whose_turn_it_is():
    from pgui.replay import ReplayTable

    state = GAME.new_game(seed=3)
    rng = random.Random(3)
    for _ in range(9):
        p = state.to_move()[0]
        state.apply(p, rng.choice(state.legal_actions(p)))
    for lang, you in (("en", re.compile(r"\b[Yy]ou")), ("ja", re.compile("あなた"))):
        html = ReplayTable("canosa", record=state.record(), speed=0, lang=lang).html()
        table = html[html.index('<div class="canosa ctable"'):html.index("</main>")]
        words = log_lines(html) + [status(html)]
        assert not you.search(" ".join(words) + htmllib.unescape(table)), words
        mover = ui.who(state.to_move()[0], lang)
        assert status(html) == ui.t("canosa.prompt_watch", lang, k=state.view(None)["actions_left"],
                                    whose=ui.t("canosa.whose", lang, who=mover))


def test_english_counts_agree_and_japanese_is_said_to_you():
    one = {"t": "score", "p": 0, "at": [0, 0], "rings": [0], "returned": [1, 0], "lost": [0, 0]}
    assert ui.describe(one, "en") == (
        "Gold brings a sailor home (ring Gold). Back to the sirens: Gold×1.")
    assert ui.describe(one, "en", {"you": 0}).startswith("You bring a sailor home (ring Gold).")
    assert ui.describe(one, "ja", {"you": 0}).startswith(
        "あなたが船員を島に迎え入れた（リング1個：金）。")
    place = {"t": "place", "p": 1, "to": [2, 2]}
    assert ui.describe(place, "en", {"you": 0}) == "Silver puts your defeated siren on c3."
    assert ui.describe(place, "en", {"you": 1}) == "You put Gold's defeated siren on c3."
    assert ui.describe(place, "ja", {"you": 0}) == "銀が、負けたあなたのセイレーンをc3に置いた。"
    trapped = {"t": "end", "winners": [1], "reason": "trapped"}
    assert ui.describe(trapped, "en", {"you": 0}) == "You cannot make a whole turn: Silver wins."
    assert ui.describe(trapped, "en", {"you": 1}) == "Gold cannot make a whole turn: you win."
    assert ui.describe({"t": "turn", "p": 1}, "ja", {"you": 1}) == "― あなたの手番 ―"
    view = GAME.from_position(position(actions_left=1)).view(0)
    html = screen({**view, "you": 0}, GAME.from_position(position(actions_left=1)).legal_actions(0))
    assert "Your turn (1 action left)" in status(html) and "· 1 action left" in html


# -- sailors brought home ------------------------------------------------------------------
def home_of(html: str, p: int) -> list[str]:
    """The rings (bottom to top, "01") of each sailor in side ``p``'s tally, then "-" for
    each place still free."""
    panel = re.search(rf'<section class="cpanel-c [^"]*" data-player="{p}".*?</section>', html,
                      re.S).group(0)
    slots = re.findall(r'<li class="slot( filled)?"(?: data-rings="(\d*)")?>', panel)
    return [rings if filled else "-" for filled, rings in slots]


def test_sailors_brought_home_stay_in_their_sides_panel_with_their_rings():
    table = Table("canosa", mode="hotseat", seed=4, speed=0, lang="en")
    played_by_clicks(table, 4, lambda t: sum(t.state.view(None)["scores"]) >= 3)
    scored = [e for e in table.state.events(None) if e["t"] == "score"]
    html = table.html()
    for p in (0, 1):
        rings = ["".join(map(str, e["rings"])) for e in scored if e["p"] == p]
        assert home_of(html, p) == rings + ["-"] * (4 - len(rings))
        # A screen reader reads the same tally: how many, and each one's rings.
        panel = re.search(rf'data-player="{p}".*?<p class="sr-only">(.*?)</p>', html, re.S).group(1)
        assert f"{len(rings)} of 4 sailors brought home" in panel
        for e in (e for e in scored if e["p"] == p):
            assert ui._ring_names(e["rings"], "en") in panel
    assert any(home_of(html, p)[0] != "-" for p in (0, 1))
    # During a playback the tally is the board's: a sailor comes home when its step shows.
    last = scored[-1]
    before = table.state.view(None)
    before = {**before, "scores": [s - (p == last["p"]) for p, s in enumerate(before["scores"])]}
    events = table.state.events(None)
    at = events.index(last)
    mid = ui.render_table(table.state.view(None), [], "en", events=events, shown=at, since=at,
                          before=before)
    assert home_of(mid, last["p"]).count("-") == home_of(html, last["p"]).count("-") + 1


def test_a_hand_set_position_shows_its_scores_without_their_history():
    table = table_at(position(scores=[2, 1]))
    html = table.html()
    assert home_of(html, 0) == ["", "", "-", "-"] and home_of(html, 1) == ["", "-", "-", "-"]
    assert "2 of 4 sailors brought home (their rings: not recorded; not recorded)" in html


# -- the current choice ----------------------------------------------------------------------
def test_the_board_and_the_ring_buttons_are_the_current_choice():
    pos = position(sailors=[{"at": "d4", "rings": [0]}])
    table = table_at(pos)
    html = table.html()
    assert re.search(r'<section class="cboard"[^>]* data-choice', html)
    assert "canosa-acts" not in html  # nothing selected: no buttons yet
    click(table, "sq:c3")
    click(table, "sq:d4")  # give or take: the chooser's buttons join the choice
    acts = re.search(r'<div class="controls canosa-acts"[^>]*>', table.html()).group(0)
    assert "data-choice" in acts
    labels = [b.get("aria-label") for b in buttons(table.html())
              if b.get("data-cmd", "").startswith("act:")]
    assert labels == ["Give a ring to the sailor on d4",
                      "Take back your ring from the sailor on d4"]
    over = Table("canosa", mode="hotseat", seed=1, speed=0)
    played_by_clicks(over, 1, lambda t: False)
    assert over.over and "data-choice" not in over.html()


def test_canosa_ui_doctests():
    import doctest

    failures, tried = doctest.testmod(ui)
    assert tried >= 3 and failures == 0
