"""Seats for games of 2 to 4 players (issue 22): who sits in each seat (you, another person
at this device, a bot of a level), in the table, the query, saved games, records and the
lobby. Tiny Duel (tests/tinygame, for 2-4, plugged in as test_plugin does) plays it, and
Tiny Turns, the same game with the choices one after another, gives pass and play with
bots between the people."""

from __future__ import annotations

import json
import random
import re

import pgui
import pytest
from helpers.tables import NOT_PLAY, enabled_commands
from pgui import saved
from pgui.i18n import t
from pgui.session_glue import Session, make_table, parse_seats
from pgui.table import Table

import pygames
from pygames.bots import RandomBot, SearchBot

GAMES = {"tiny": "TinyGame", "tinyturns": "TinyTurnsGame"}


@pytest.fixture(autouse=True)
def tiny():
    for gid, cls in GAMES.items():
        pygames.register(gid, "tinygame", cls)
        pgui.register_ui(gid, "tinygame.ui")
    yield
    for gid in GAMES:
        pygames.unregister(gid)
        pgui.UI_MODULES.pop(gid, None)


class Watch:
    """What happened at a table as a person sees it: each hand-over screen (to whom, and
    who had the device before), each action with who made it and whose screen it was."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.handovers: list[tuple[int, int | None]] = []
        self.actions: list[tuple[int, int | None]] = []  # (seat, the screen's seat)


def play_to_end(table: Table, rng: random.Random) -> Watch:
    """Click the screen's buttons until the game is over, as the people at the device do
    (a hand-over screen is answered by whoever it names)."""
    watch = Watch(table)
    holder = None
    for _ in range(2000):
        if table.animating:
            assert table.mode == "bot" or table.viewer() is None, "a hand shown in a playback"
            table.advance() if rng.random() < 0.5 else table.command("skip")
            continue
        if table.over:
            return watch
        html = table.html()
        if table.handover is not None:
            assert 'class="overlay handover"' in html
            who = table.ui.who(table.handover, table.lang)
            assert t("handover_title", table.lang, who=who) in html  # whose hand comes next
            assert 'data-cmd="card:' not in html  # no hand behind the screen
            watch.handovers.append((table.handover, holder))
            holder = table.handover
            table.command("handover-ok")
            continue
        me = table.viewer()
        assert me is not None and me in table.people(), "a screen nobody at the device owns"
        if table.mode == "hotseat":
            assert me == holder, "a hand shown to someone who was not handed the device"
        cmds = [c for c in enabled_commands(html) if not c.startswith(NOT_PLAY)]
        assert cmds, "a person must act but the screen offers no button"
        before = len(table.played)
        table.command(rng.choice(cmds))
        watch.actions += [(p, me) for p, _ in table.played[before:before + 1]]
    raise AssertionError("the game did not end")


SEATINGS = [
    ("you", "here", "strong", "easy"),
    ("here", "you", "here", "normal"),
    ("you", "easy", "here"),
    ("easy", "you", "strong"),
    ("you", "here", "here", "here"),
    ("strong", "easy", "normal", "you"),
]


@pytest.mark.parametrize("gid", list(GAMES))
@pytest.mark.parametrize("seats", SEATINGS, ids=",".join)
def test_three_and_four_seats_play_to_the_end(gid, seats):
    for seed in range(2):
        lang = ("en", "ja")[seed]
        table = Table(gid, seats=seats, seed=seed, lang=lang, speed=0)
        assert table.state.players == len(seats) and table.seat_kinds == seats
        people = [p for p, k in enumerate(seats) if k in ("you", "here")]
        assert table.people() == people and set(table.bots) == set(range(len(seats))) - set(people)
        assert table.mode == ("bot" if len(people) == 1 else "hotseat")
        watch = play_to_end(table, random.Random(seed))
        html = table.html()
        assert 'class="overlay gameover"' in html and "rematch" in enabled_commands(html)
        # Every person acted on their own screen, every bot for itself.
        moves = [p for p, _ in table.played]
        assert all(screen == p for p, screen in watch.actions)
        assert {p for p, _ in watch.actions} == set(people)
        assert set(moves) == set(range(len(seats)))
        # A seat label says who is a bot; people share the screen unlabelled.
        labels = table.seats()
        for p, kind in enumerate(seats):
            assert (labels[p] == t("bot", lang)) == (kind not in ("you", "here"))
        if len(people) == 1:
            assert watch.handovers == []
            assert t("you_win" if table.state.outcome()["winners"] == people else "you_lose",
                     lang) in html or t("draw", lang) in html
        else:  # each hand-over goes from one person to another, and only to people
            assert watch.handovers
            for to, had in watch.handovers:
                assert to in people and to != had


def test_a_hand_over_comes_before_each_turn_of_another_person_only():
    """Tiny Turns, you, a strong bot, a person, an easy bot: the bots' moves play out on the
    device, and the device goes from you to the other person and back, every round."""
    table = Table("tinyturns", seats=("you", "strong", "here", "easy"), seed=5, lang="en",
                  speed=0)
    watch = play_to_end(table, random.Random(5))
    assert [to for to, _ in watch.handovers] == [0, 2] * 3
    assert [p for p, _ in table.played] == [0, 1, 2, 3] * 3


def test_bots_decide_from_their_own_view_only(monkeypatch):
    seen: list[tuple[int, dict, list]] = []
    real = {SearchBot: SearchBot.choose, RandomBot: RandomBot.choose}

    def spy(cls):
        def choose(self, view, legal, events):
            seen.append((view["you"], json.loads(json.dumps(view)), events))
            return real[cls](self, view, legal, events)
        return choose

    monkeypatch.setattr(SearchBot, "choose", spy(SearchBot))
    monkeypatch.setattr(RandomBot, "choose", spy(RandomBot))
    for seats in (("you", "here", "strong", "easy"), ("normal", "you", "strong")):
        seen.clear()
        table = Table("tinyturns", seats=seats, seed=2, lang="en", speed=0)
        for p, bot in table.bots.items():
            assert bot.seat == p
        play_to_end(table, random.Random(2))
        bots = set(table.bots)
        assert {you for you, _, _ in seen} == bots
        for you, view, events in seen:
            assert you in bots
            # Another seat's secret choice never reaches a bot (it sees only that one chose).
            for event in events:
                if event["t"] == "chose" and event["p"] != you:
                    assert "card" not in event, event
            others_chosen = [p for p, c in enumerate(view["chosen"]) if c and p != you]
            assert view["mine"] is None or not others_chosen or view["mine"] in "123"


@pytest.mark.parametrize("query, seats, mode", [
    ("game=tiny&players=3&seats=you,here,strong", ("you", "here", "strong"), "hotseat"),
    ("game=tiny&seats=easy,you,normal,strong", ("easy", "you", "normal", "strong"), "bot"),
    ("game=tiny&players=4&mode=hotseat", ("you", "here", "here", "here"), "hotseat"),
    ("game=tiny&players=3&bot=strong", ("you", "strong", "strong"), "bot"),
    ("game=tiny&players=2", ("you", "normal"), "bot"),
])
def test_the_query_names_the_players_and_their_seats(query, seats, mode):
    table = make_table(query + "&seed=3", nav_lang="en")
    assert table.seat_kinds == seats and table.mode == mode
    assert table.state.players == len(seats)


def test_two_player_queries_seat_as_before():
    assert make_table("game=tiny&mode=bot&bot=easy&seat=1&seed=1").seat_kinds == ("easy", "you")
    assert make_table("game=tiny&mode=hotseat&seed=1").seat_kinds == ("you", "here")
    random_seat = make_table("game=tiny&mode=bot&seat=random&seed=1")
    assert random_seat.seat_kinds[random_seat.human] == "you"
    random_seat.rematch()  # the seat is drawn again for each game
    assert random_seat.seat_kinds[random_seat.human] == "you" and random_seat.human == 0
    assert parse_seats(pygames.get_game("tiny"), {"mode": "bot"}) is None


def test_friends_by_link_are_link_play_with_bots_on_the_host():
    from pgui.link import LinkTable

    table = make_table("game=tiny&players=2&seats=you,link", page="https://x.test/play.html")
    assert isinstance(table, LinkTable) and table.mode == "link"
    table = make_table("game=tiny&mode=link&players=2", page="https://x.test/play.html")
    assert isinstance(table, LinkTable)
    table = make_table("game=tiny&mode=link&players=3", page="https://x.test/play.html")
    assert isinstance(table, LinkTable) and table.link_kinds == ("you", "link", "link")
    table = make_table("game=tiny&players=4&seats=link,you,strong,link",
                       page="https://x.test/play.html")
    assert isinstance(table, LinkTable) and table.link.seat == 1
    assert table.link.bots == {2} and table.link.guest_seats == [0, 3]


@pytest.mark.parametrize("query, en, ja", [
    ("players=5", "Tiny Duel is for 2 to 4 players, not “5”.", "タイニー・デュエルは2〜4人"),
    ("players=1&seats=you", "Tiny Duel is for 2 to 4 players, not “1”.", "「1」人"),
    ("players=three", "not “three”", "「three」人"),
    ("seats=you,here,easy,normal,strong", "not “5”", "2〜4人"),
    ("players=3&seats=you,robot,easy", "There is no seat “robot”", "「robot」"),
    ("players=3&seats=you,easy", "3 players need 3 seats, not 2.", "3人なら席も3つです"),
    ("players=2&seats=you,easy,easy", "2 players need 2 seats, not 3.", "2人なら席も2つです"),
    ("players=3&seats=here,easy,strong", "Exactly one seat must be “you”, not 0.",
     "ちょうど1つです（0つ"),
    ("players=3&seats=you,you,strong", "not 2.", "（2つ"),
    ("players=3&seats=you,link,here", "Link play needs at least one friend by link",
     "リンク対戦には"),
    ("players=3&seats=here,you,link", "friends by link play with you and bots",
     "（here）は入れられません"),
    ("mode=link&players=3&seats=you,strong,easy", "at least one friend by link (link)",
     "少なくとも1人必要"),
    ("players=3&bot=genius", "no bot level “genius”", "「genius」"),
])
def test_bad_players_or_seats_are_refused_in_the_players_language(query, en, ja):
    for lang, words in (("en", en), ("ja", ja)):
        result = Session().open(f"game=tiny&{query}&lang={lang}", nav_lang="en")
        assert "error" in result and "html" not in result, result
        assert words in result["reason"], result["reason"]
        assert result["lang"] == lang


def test_a_saved_three_player_game_resumes_with_its_bots():
    session = Session()
    session.open("game=tinyturns&players=4&seats=you,strong,here,easy&seed=8&lang=ja",
                 nav_lang="en")
    table = session.table
    rng = random.Random(1)
    text = None
    while len(table.played) < 6:
        if table.animating:
            table.skip()
        elif table.thinking:
            table.think(200)
        elif table.handover is not None:
            table.command("handover-ok")
        else:
            table.command(rng.choice([c for c in enabled_commands(table.html())
                                      if c.startswith("card:")]))
        local = session.result()["local"]
        text = local["text"] or text
    env = saved.loads(text)
    assert env["players"] == 4 and env["seats"] == ["you", "strong", "here", "easy"]
    assert env["record"]["players"] == 4
    again = saved.resume_table(env, lang="ja", speed=0)
    assert again.seat_kinds == ("you", "strong", "here", "easy") and again.mode == "hotseat"
    assert set(again.bots) == {1, 3} and again.bots[1].level == "strong"
    assert again.state.record()["actions"] == env["record"]["actions"]
    assert again.handover is not None  # whoever holds the device now says who they are
    play_to_end(again, random.Random(3))
    # A saved entry with seats that do not fit its record is refused, not opened.
    for bad in (["you", "strong"], ["you", "you", "here", "easy"], ["you", "x", "here", "easy"]):
        with pytest.raises(saved.SavedError):
            saved.loads(saved.dumps({**env, "seats": bad}))


def test_a_finished_games_record_names_who_sat_where():
    table = Table("tiny", seats=("easy", "you", "here"), seed=4, lang="en", speed=0)
    assert table.export_record() is None  # hidden choices: nothing shown before the end
    play_to_end(table, random.Random(4))
    record = table.export_record()
    assert record["players"] == 3 and record["names"] == ["Bot (Easy)", "You", "Player 3"]
    from pygames import records

    again = records.from_string(records.to_string(record))
    assert again["names"] == record["names"] and again["players"] == 3
    # Two-player tables made the old way share their records as before (no names).
    old = Table("tiny", mode="bot", seed=4, lang="en", speed=0)
    play_to_end(old, random.Random(4))
    assert "names" not in old.export_record()


def _tile(html: str, gid: str) -> str:
    return re.search(rf'<article class="game" id="game-{gid}".*?</article>', html, re.S).group(0)


def test_the_lobby_offers_a_count_of_players_and_a_choice_per_seat():
    from pgui.lobby import render_lobby

    html = render_lobby()
    tile = _tile(html, "tiny")
    counts = re.findall(r'<input type="radio" name="players" value="(\d)"( checked)?', tile)
    assert counts == [("2", " checked"), ("3", ""), ("4", "")]
    assert 'name="mode"' not in tile and 'name="bot"' not in tile and 'name="seat"' not in tile
    selects = re.findall(r'<select id="tiny-seat-(\d)" data-seat="\d"( disabled)?>', tile)
    assert selects == [("0", ""), ("1", ""), ("2", " disabled"), ("3", " disabled")]
    for i in range(4):  # each list is labelled, in both languages
        label = re.search(rf'<label for="tiny-seat-{i}">(.*?)</label>', tile).group(1)
        assert f"Player {i + 1}" in label and f"プレイヤー{i + 1}" in label
    first = re.search(r'<select id="tiny-seat-0".*?</select>', tile).group(0)
    assert re.findall(r'<option value="(\w+)"', first) == [
        "you", "here", "easy", "normal", "strong", "link"]
    assert 'data-ja="ボット：つよい"' in first and 'data-en="Bot: Strong"' in first
    assert '<input type="hidden" name="seats" value="you,normal">' in tile
    line = re.search(r'id="plan-tiny">(.*?)</p>', tile).group(1)
    assert "2 players · you · Normal bot" in line and "2人 · あなた · ボット（ふつう）" in line
    # A game for two keeps its settings as they were.
    for gid in pygames.game_ids():
        if pygames.get_game(gid).max_players == 2:
            other = _tile(html, gid)
            assert 'name="mode"' in other and "data-seat" not in other
            assert 'name="players"' not in other
