"""The replay viewer and the embed's table (pgui.replay), the share panel (pgui.share).

What a player notices: stepping lands on the position the record had after that many
moves; a seat's replay hides what that seat had not seen (cards face down, secret choices
as "(hidden)"); reveals play back step by step; autoplay runs to the end; the reader can
play on and go back; a bad link says what is wrong in the page's language; the share panel's
record, file, link and embed code all open the same game.
"""

from __future__ import annotations

import doctest
import importlib
import random
import re
from html import unescape
from urllib.parse import parse_qsl, unquote, urlsplit

import pytest
from pgui.replay import OPEN, ReplayTable
from pgui.session_glue import Session, parse_query
from pgui.table import Table

import pygames
from pygames import records

GAMES = pygames.game_ids()


def played(game_id: str, seed: int, *, moves: int | None = None,
           options: dict | None = None) -> pygames.State:
    """A game of random legal moves (to the end, or ``moves`` actions)."""
    state = pygames.get_game(game_id).new_game(seed=seed, options=options)
    rng = random.Random(seed)
    while not state.is_over() and (moves is None or len(state.record()["actions"]) < moves):
        p = rng.choice(state.to_move())
        state.apply(p, rng.choice(state.legal_actions(p)))
    return state


def prefix_state(record: dict, ply: int) -> pygames.State:
    return pygames.get_game(record["game"]).from_record(
        dict(record, actions=record["actions"][:ply]))


def move_items(html: str) -> list[str]:
    """The move list's entries (move 1 first), as their HTML."""
    return re.findall(r'class="mv" data-cmd="replay:goto:\d+" data-ply="\d+"[^>]*>(.*?)</button>',
                      html)


def move_parts(html: str) -> list[dict[int, str]]:
    """Each entry of the move list (move 1 first): what it says of each seat, as HTML, in
    the order it says them."""
    return [dict((int(seat), part) for seat, part in re.findall(
        r'<span class="part" data-seat="(\d+)">(.*?)</span>(?=<span class="sr-only">|</span>)',
        item)) for item in move_items(html)]


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def settle(table: ReplayTable) -> None:
    while table.shown < table._count():
        table.advance()


@pytest.mark.parametrize("gid", GAMES)
def test_every_ply_shows_the_position_the_record_had_then(gid):
    record = played(gid, 11).record()
    total = len(record["actions"])
    table = ReplayTable(gid, record=record, perspective=0, ply=0, speed=0)
    assert table.cursor == 0
    ends = table.bounds  # where each move ends (a simultaneous choice is one move)
    n = len(ends)
    plies = sorted({0, *(ends[i] for i in (0, 1, n // 3, n // 2, n - 2, n - 1))})
    for ply in plies:  # forward, one move at a time, played back
        while table.cursor < ply:
            table.command("replay:next")
            settle(table)
        assert table._view(0) == prefix_state(record, ply).view(0)
        assert f'data-ply="{ply}"' in table.html()
    for ply in reversed(sorted({*plies, 1, 2, total // 3, total - 1})):  # back, by jumping
        table.command(f"replay:goto:{ply}")
        assert table._view(0) == prefix_state(record, ply).view(0)
        assert table.shown == table._count(), "stepping back does not play anything back"
    table.command("replay:last")
    assert table.cursor == total and table.state.is_over()
    table.command("replay:first")
    assert table.cursor == 0 and table.state == pygames.get_game(gid).from_record(
        dict(record, actions=[]))


@pytest.mark.parametrize("gid", GAMES)
def test_ply_parameter_and_its_errors(gid):
    record = played(gid, 12).record()
    text = records.to_string(record)
    total = len(record["actions"])
    s = Session()
    r = s.open(f"mode=replay&record={text}&ply=3&lang=en")
    assert s.table.cursor == 3 and 'data-ply="3"' in r["html"]
    s.open(f"mode=replay&record={text}&ply=last")
    assert s.table.cursor == total
    s.open(f"mode=replay&record={text}")
    assert s.table.cursor == total, "a replay opens at the end by default"
    for bad in (f"ply={total + 1}", "ply=-1", "ply=x", "perspective=7", "moves=left",
                "controls=maybe", "bot=genius"):
        r = s.open(f"mode=replay&record={text}&{bad}&lang=ja")
        assert "error" in r and ("このリンク" in r["error"] or "この記録" in r["error"]), bad
    past = s.open(f"mode=replay&record={text}&ply={total + 1}&lang=ja")["error"]
    assert f"{total}手まで" in past and f"{total + 1}手目はありません" in past  # the actual problem


def test_a_damaged_record_gets_a_message_in_the_pages_language():
    text = records.to_string(played("cardia", 3).record())
    s = Session()
    en = s.open(f"mode=replay&record={text[:-4]}&lang=en")
    ja = s.open(f"mode=replay&record={text[:-4]}&lang=ja")
    assert "cannot be shown" in en["error"] and "cut short" in en["error"]
    assert "表示できません" in ja["error"]
    flipped = text[:20] + ("A" if text[20] != "A" else "B") + text[21:]
    assert "error" in s.open(f"mode=replay&record={flipped}&lang=en")
    other = s.open(f"mode=replay&game=kiriai&record={text}&lang=en")
    assert "error" in other and "a game of Cardia, not of Kiri-ai" in other["error"]


def test_a_seats_replay_hides_what_that_seat_had_not_seen_yet():
    """Cardia: the opponent's face-down card and hand stay hidden in seat 0's replay (and
    their placements read "(hidden)" until revealed); the open replay shows them."""
    record = played("cardia", 21).record()
    game = pygames.get_game("cardia")
    replay = game.new_game(seed=record["seed"])
    for first, (p, action) in enumerate(record["actions"]):  # noqa: B007 - used below
        both = replay.to_move() == [0, 1]
        replay.apply(p, action)
        if both and p == 1:
            break
    ply = first + 1
    before = prefix_state(record, ply)
    table = ReplayTable("cardia", record=record, perspective=0, ply=ply, speed=0)
    html = table.html()
    hidden_value = before.view(1)["placing"][1]["value"]
    assert before.view(0)["placing"][1]["value"] is None
    assert before.view(0)["hand"] and "open-hand" not in html
    assert re.search(rf'data-ply="{ply}"', html)
    moves = move_items(html)
    assert "(hidden)" in moves[first], "seat 1's unrevealed placement is not named"
    opened = ReplayTable("cardia", record=record, perspective=OPEN, ply=ply, speed=0)
    open_html = opened.html()
    assert 'data-open-hand="1"' in open_html
    hand1 = before.view(1)["hand"]
    for value in hand1:
        assert f"({value})" in open_html
    assert opened._view(OPEN)["placing"][1]["value"] == hidden_value
    # Once both placed, the move list names seat 1's card for seat 0 too.
    table.command("replay:last")
    moves = move_items(table.html())
    assert "(hidden)" not in moves[first]


def test_kiriai_programs_stay_hidden_in_the_move_list_until_revealed():
    from pgui.kiriai_ui import move_text

    record = played("kiriai", 4).record()
    acts = record["actions"]

    def said(p: int, action: str) -> str:
        return f"<b>{move_text(action, p, 'en')}</b>"

    # Seat 0 and 1 program at plies 1 and 2 (in either order), one move of the list: at
    # ply 1 (a link may stop there) the other's is hidden.
    me, other = acts[1][0], acts[0][0]
    table = ReplayTable("kiriai", record=record, perspective=me, ply=1, speed=0)
    moves = move_parts(table.html())
    assert "(hidden)" in moves[0][other] and said(*acts[0]) not in moves[0][other]
    assert all("(hidden)" in m[other] for m in moves[1:]), "nor the opponent's future"
    assert said(*acts[1]) in moves[0][me], "the seat's own choices are its to see"
    table.command("replay:next")
    settle(table)
    assert table.cursor == 2, "the rest of the move"
    moves = move_parts(table.html())
    assert said(*acts[0]) in moves[0][other] and said(*acts[1]) in moves[0][me], "together"
    assert "(hidden)" in moves[1][other]


@pytest.mark.parametrize("gid", GAMES)
def test_moves_made_at_once_are_one_entry_of_the_move_list_in_seat_order(gid):
    """Where the seats choose at the same time (the protocol's ``to_move`` names several),
    whoever chose first, the move list has one entry for the lot, seat 0 first; the step
    buttons go a move at a time and the counter counts moves. A game whose seats take
    turns lists each action on its own."""
    game = pygames.get_game(gid)
    state, rng = game.new_game(seed=9), random.Random(9)
    groups: list[list[int]] = []
    while not state.is_over() and len(groups) < 12:
        movers = state.to_move()
        p = max(movers)  # the last seat first: the bot's choice comes in before yours
        if len(movers) > 1:
            seats = sorted(movers, reverse=True)
            for p in seats:
                state.apply(p, rng.choice(state.legal_actions(p)))
            groups.append(seats)
        else:
            state.apply(p, rng.choice(state.legal_actions(p)))
            groups.append([p])
    record = state.record()
    table = ReplayTable(gid, record=record, perspective=0, speed=0, lang="en")
    moves = move_parts(table.html())  # at the end: seat 0 has seen every move
    assert [list(m) for m in moves] == [sorted(g) for g in groups]
    together = [i for i, g in enumerate(groups) if len(g) > 1]
    for i in together[:3]:
        words = [text_of(part) for part in moves[i].values()]
        assert all(w and "(hidden)" not in w for w in words) and len(set(words)) == len(words)
    table.command("replay:first")
    ply = 0
    stepped = groups[:6]
    for i, g in enumerate(stepped):  # Next plays the whole move
        table.command("replay:next")
        settle(table)
        ply += len(g)
        assert table.cursor == ply
        assert f"Move {i + 1} of {len(groups)}" in table.html()
        assert re.search(rf'data-ply="{ply}" aria-current="step"', table.html())
    table.command("replay:prev")
    assert table.cursor == ply - len(stepped[-1])


def test_canosa_hides_nothing_and_the_spectator_sees_every_move():
    record = played("canosa", 2, moves=12).record()
    table = ReplayTable("canosa", record=record, ply=0, speed=0)
    items = [unescape(re.sub(r"<.*?>", "", label)) for label in move_items(table.html())]
    assert "(hidden)" not in "".join(items)
    for (_, action), label in zip(record["actions"], items, strict=True):
        # Every square the move names, as the log says it ("b4-c4": "… b4 → c4").
        assert all(sq in label for sq in re.findall(r"[a-f][1-6]", action)), (action, label)


def test_open_needs_a_finished_game():
    partial = played("cardia", 5, moves=9).record()
    table = ReplayTable("cardia", record=partial, perspective=OPEN, speed=0)
    assert table.perspective == "spectator"
    assert "only for a finished game" in table.html()
    finished = played("cardia", 5).record()
    assert ReplayTable("cardia", record=finished, perspective=OPEN).perspective == OPEN


@pytest.mark.parametrize("gid", ["kiriai", "cardia"])
def test_stepping_forward_plays_reveals_back_step_by_step(gid):
    record = played(gid, 6).record()
    table = ReplayTable(gid, record=record, perspective=0, ply=0, speed=500)
    steps = []
    for _ in range(len(record["actions"])):
        table.command("replay:next")
        n = 0
        while table.animating:
            assert table.delay() > 0, "each step is on screen for a while"
            table.advance()
            n += 1
        steps.append(n)
    assert max(steps) >= 2, "some move reveals in several paced steps"


@pytest.mark.parametrize("gid", GAMES)
def test_autoplay_runs_to_the_end_and_pause_stops_it(gid):
    record = played(gid, 7, moves=20).record()
    table = ReplayTable(gid, record=record, ply=0, speed=300)
    table.command("replay:play")
    assert table.animating and table.delay() > 0
    for _ in range(20_000):
        if not table.animating:
            break
        table.advance()
    assert table.cursor == len(record["actions"]) and not table.autoplay
    table.command("replay:play")  # from the end: starts again from the beginning
    table.advance()
    table.advance()
    assert 0 < table.cursor < len(record["actions"]) or table.shown < table._count()
    table.command("replay:pause")
    at = table.cursor
    assert not table.animating
    table.advance()
    assert table.cursor == at
    table.command("replay:speed:2000")
    assert table.speed == 2000
    table.command("replay:speed:7")
    assert table.speed == 2000, "only the offered speeds"


@pytest.mark.parametrize("gid", GAMES)
def test_interactive_play_on_against_the_bot_then_back_to_the_line(gid):
    record = played(gid, 8).record()
    ply = len(record["actions"]) // 2
    table = ReplayTable(gid, record=record, perspective=0, ply=ply, speed=0,
                        interactive=True, level="easy")
    assert 'data-cmd="replay:bot"' in table.html()
    line_view = table._view(0)
    table.command("replay:bot")
    assert table.playing == "bot"
    rng = random.Random(1)
    for _ in range(6):
        while table.thinking:
            table.think(1000)
        table.skip()
        if table.state.is_over():
            break
        me = table.viewer()
        legal = table._legal(me)
        if legal:
            before = len(table.played)
            table._apply(me, rng.choice(legal))
            assert len(table.played) == before + 1
            table._after_change()
    assert table.played, "the reader played on"
    assert 'data-cmd="replay:back"' in table.html()
    assert 'data-cmd="replay:next"' not in table.html(), "the line waits meanwhile"
    table.command("replay:back")
    assert table.playing is None and table.cursor == ply
    assert table._view(0) == line_view


def test_play_on_as_both_sides_shows_the_seat_to_move():
    record = played("cardia", 9).record()
    table = ReplayTable("cardia", record=record, ply=4, speed=0, interactive=True)
    table.command("replay:both")
    movers = table.state.to_move()
    assert table.viewer() == movers[0]
    assert table._legal(movers[0]) == table.state.legal_actions(movers[0])


def test_a_replay_without_interactive_offers_no_move():
    record = played("canosa", 3, moves=10).record()
    table = ReplayTable("canosa", record=record, ply=4, speed=0)
    table.command("replay:bot")
    assert table.playing is None and "replay:bot" not in table.html()
    with pytest.raises(pygames.IllegalAction):
        table._apply(0, record["actions"][4][1])


def test_a_canosa_position_opens_without_history():
    game = pygames.get_game("canosa")
    state = played("canosa", 5, moves=30)
    view = state.view(None)
    # The position is the one the engine reached, read back through the protocol.
    text = records.position_to_string("canosa", {"position": view})
    assert game.from_position(view).view(None)["sailors"] == view["sailors"]
    s = Session()
    r = s.open(f"mode=replay&position={text}&interactive=on&lang=en")
    assert "error" not in r
    assert s.table._view(None)["sailors"] == view["sailors"]


def test_the_embed_flag_gives_minimal_chrome_and_an_app_link():
    text = records.to_string(played("kiriai", 2).record())
    s = Session()
    full = s.open(f"mode=replay&record={text}&ply=2", page="https://a.example/g/play.html")
    assert 'class="bar"' in full["html"] and "share" in full["html"]
    r = s.open(f"mode=replay&embed=on&record={text}&ply=2&moves=off&controls=off",
               page="https://a.example/g/embed.html")
    html = r["html"]
    assert 'class="bar"' not in html and 'class="share"' not in html
    assert 'class="moves' not in html and "replay:next" not in html
    link = unescape(re.search(r'class="open-app" href="([^"]+)"', html).group(1))
    parts = urlsplit(link)
    assert parts.netloc == "a.example" and parts.path == "/g/play.html"
    q = dict(parse_qsl(parts.query))
    assert q["mode"] == "replay" and q["ply"] == "2" and q["record"] == text
    bottom = s.open(f"mode=replay&embed=on&record={text}&moves=bottom")["html"]
    assert 'class="moves moves-bottom"' in bottom


# -- the share panel -----------------------------------------------------------------------
def _share_parts(html: str) -> dict[str, str]:
    get = lambda pat: unescape(re.search(pat, html, re.S).group(1))  # noqa: E731
    return {
        "record": get(r"data-record-string>(.*?)</textarea>"),
        "download": get(r'data-download href="data:text/plain;charset=utf-8,([^"]*)"'),
        "link": get(r'id="share-link" readonly value="([^"]*)"'),
        "embed": get(r"data-embed-code>(.*?)</textarea>"),
    }


@pytest.mark.parametrize("gid", GAMES)
def test_the_game_over_share_panel_opens_the_same_game_everywhere(gid):
    table = Table(gid, mode="hotseat", seed=4, speed=0)
    table.page = "https://blog.example/app/play.html"
    rng = random.Random(4)
    while not table.over:
        s = table.state
        p = s.to_move()[0]
        table._play(p, rng.choice(s.legal_actions(p)))
    table.skip()
    record = table.state.record()
    html = table.html()
    assert 'class="over-links"' in html, "the game-over screen offers to save and replay"
    parts = _share_parts(html)
    assert records.from_string(parts["record"]) == record
    assert records.from_sheet(unquote(parts["download"])) == record
    link = urlsplit(parts["link"])
    assert link.netloc == "blog.example" and link.path == "/app/play.html"
    s = Session()
    s.open(link.query)
    assert isinstance(s.table, ReplayTable) and s.table.state == table.state
    src = re.search(r'<iframe src="([^"]+)"', parts["embed"]).group(1)
    embed = urlsplit(unescape(src))
    assert embed.path == "/app/embed.html" and "pygames:height" in parts["embed"]
    s.open("mode=replay&embed=on&" + embed.query)
    assert s.table.embed and s.table.state == table.state


def test_no_share_panel_while_cards_are_hidden():
    table = Table("cardia", mode="bot", seed=4, speed=0)
    assert "share-record" not in table.html() and table.export_record() is None
    assert 'class="open-record"' in table.html(), "another record can still be opened"
    canosa = Table("canosa", mode="bot", seed=4, speed=0)
    assert "share-record" in canosa.html(), "Canosa hides nothing"


def test_the_replay_share_panel_keeps_ply_and_perspective():
    record = played("kiriai", 3).record()
    table = ReplayTable("kiriai", record=record, perspective=1, ply=5, speed=0,
                        page="http://h/play.html")
    parts = _share_parts(table.html())
    q = parse_query(urlsplit(parts["link"]).query)
    assert q["ply"] == "5" and q["perspective"] == "1" and q["mode"] == "replay"


def test_the_import_form_opens_a_pasted_score_sheet():
    record = played("canosa", 6, moves=15).record()
    sheet = records.to_sheet(record)
    from urllib.parse import urlencode
    s = Session()
    r = s.open(urlencode({"mode": "replay", "lang": "en", "record": sheet}))
    assert "error" not in r and s.table.state == pygames.get_game("canosa").from_record(record)
    edited = sheet.replace(record["actions"][3][1], "a1-a9")
    r = s.open(urlencode({"mode": "replay", "lang": "en", "record": edited}))
    assert "error" in r and "4" in r["error"], "names the move that is wrong"


@pytest.mark.parametrize("module", ["pgui.replay", "pgui.share"])
def test_doctests(module):
    assert doctest.testmod(importlib.import_module(module)).failed == 0


def test_kiriai_open_replay_shows_both_special_cards_and_names_the_hand():
    record = played("kiriai", 13).record()
    spectator = ReplayTable("kiriai", record=record, ply=0, speed=0)
    opened = ReplayTable("kiriai", record=record, perspective=OPEN, ply=0, speed=0)
    assert [h["special"] for h in spectator._view(None)["hands"]] == [None, None]
    specials = [opened.state.view(p)["hands"][p]["special"] for p in (0, 1)]
    assert [h["special"] for h in opened._view(OPEN)["hands"]] == specials
    html = unescape(opened.html())
    assert "Special card (hidden)" not in html and "Red's hand" in html


def test_kiriai_open_replay_shows_a_programme_its_owner_sees():
    """A programme chosen and not yet revealed is face up in the open view (it showed face
    down, though its owner's own view shows it)."""
    record = played("kiriai", 13).record()
    checked = 0
    for ply in range(1, 8):
        opened = ReplayTable("kiriai", record=record, perspective=OPEN, ply=ply, speed=0)
        while opened.animating:
            opened.command("skip")
        html = opened.html()
        for p in (0, 1):
            mine = opened.state.view(p)["mine"]
            slot = re.search(rf'<div class="slot" data-player="{p}" data-step="1">.*?</div></div>',
                             html, re.S)
            if mine and slot:
                assert "mini mine" in slot.group(0), (ply, p)
                checked += 1
    assert checked, "no programme waited for its reveal in the first moves"


def test_the_reader_switches_perspective_without_losing_the_move():
    record = played("cardia", 14).record()
    table = ReplayTable("cardia", record=record, perspective=0, ply=7, speed=0)
    html = table.html()
    assert 'data-cmd="replay:perspective:open"' in html, "a finished game can be opened"
    table.command("replay:perspective:1")
    assert table.perspective == 1 and table.cursor == 7
    assert table._view(table.viewer()) == prefix_state(record, 7).view(1)
    table.command("replay:perspective:open")
    assert table.perspective == OPEN and 'data-open-hand="1"' in table.html()
    partial = ReplayTable("cardia", record=dict(record, actions=record["actions"][:9]))
    assert 'replay:perspective:open' not in partial.html(), "not for an unfinished game"
    partial.command("replay:perspective:open")
    assert partial.perspective == "spectator"


def test_the_lobby_opens_a_pasted_record_or_file_in_the_replay_viewer():
    from pgui.lobby import render_lobby

    html = render_lobby()
    form = re.search(r'<form class="open-record" action="./play.html" method="get">(.*?)</form>',
                     html, re.S).group(1)
    assert 'name="mode" value="replay"' in form and 'name="record"' in form
    assert 'type="file"' in form and "記録を開く" in form and "Open a record" in form


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_replay_being_watched_waits_for_nobody(gid, lang):
    """Stepping through a replay, the prompt never says the table waits for a player: no
    one is playing."""
    record = played(gid, 5).record()
    table = ReplayTable(gid, record=record, perspective=0, ply=0, speed=0, lang=lang)
    waiting = re.compile(r"Waiting for|待っています")
    seen_other_to_move = False
    for ply in range(1, min(len(record["actions"]), 30) + 1):
        # A move at a time, played back; and every ply (a link may stop mid-move).
        for cmd in ("replay:next", f"replay:goto:{ply}"):
            if cmd == "replay:next" and table.cursor >= ply:
                continue
            table.command(cmd)
            settle(table)
            if 0 not in table.state.to_move() and not table.state.is_over():
                seen_other_to_move = True
            assert not waiting.search(table.html()), table.cursor
    assert seen_other_to_move  # the check met a position where seat 0 had nothing to do


@pytest.mark.parametrize("embed", [False, True])
def test_one_language_switch_and_one_thinking_dot_on_a_replay_page(embed):
    """The full page's header bar has them; an embed (no bar) has them above the table."""
    record = played("kiriai", 4).record()
    for ply in range(len(record["actions"])):  # a ply where the bot (seat 1) is to move
        table = ReplayTable("kiriai", record=record, ply=ply, speed=0, interactive=True,
                            level="strong", embed=embed)
        table.command("replay:bot")
        if table.thinking:
            break
    assert table.thinking, "the bot thinks (in slices) at some ply"
    html = table.html()
    assert html.count('class="lang"') == 1
    assert html.count('class="thinking"') == 1
    assert ('class="bar"' in html) is not embed


def test_a_game_that_hides_nothing_offers_no_perspective():
    """Canosa shows everyone the same board: its replay has no "seen by" switch, its share
    links and embeds name no perspective, and an embed asking for "open" mid-game is not
    refused (there is nothing to open)."""
    record = played("canosa", 3, moves=6).record()
    table = ReplayTable("canosa", record=record, perspective=OPEN, speed=0)
    html = table.html()
    assert "replay:perspective:" not in html and 'class="seen"' not in html
    assert table.note == ""
    live = Table("canosa", mode="hotseat", seed=3, speed=0)
    assert "perspective" not in unescape(live.html())   # the share panel, mid-game
    cardia = ReplayTable("cardia", record=played("cardia", 14).record(), speed=0)
    assert "replay:perspective:open" in cardia.html()    # a game with secrets still has it


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_move_list_reads_in_words_not_notation(gid, lang):
    """Each move in the list says what was done, in the game's own words (the log's, or
    the game's move_text), never the record's notation ("1. Blue AC", "40. Player 2 x4")."""
    record = played(gid, 11).record()
    for perspective in (0, "spectator", OPEN):
        table = ReplayTable(gid, record=record, perspective=perspective, speed=0, lang=lang)
        parts = [(p, text_of(html)) for move in move_parts(table.html())
                 for p, html in move.items()]
        assert sorted(p for p, _ in parts) == sorted(p for p, _ in record["actions"])
        by_seat = {p: [a for q, a in record["actions"] if q == p] for p, _ in parts}
        for p, text in parts:
            action = by_seat[p].pop(0)
            words = text.replace(table.ui.who(p, lang), "")  # the move
            assert action not in words.split(), (text, action)
            letters = r"[A-Za-z]{3,}" if lang == "en" else r"[\u3040-\u30ff\u4e00-\u9fff]{2,}"
            assert re.search(letters, words), text
