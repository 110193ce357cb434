"""Local games saved in the browser's storage (pgui.saved), in CPython.

The envelope round trip and its versions, damaged entries refused with a message (never a
crash), resume giving the same position for every game (the bots' moves included), the
fixtures of saved games written by an earlier build, and what the session tells the page
to store (only for local play, only when the game changed).
"""

from __future__ import annotations

import json
import random

import pytest
from helpers.saved_fixtures import fixture, fixture_files, play, plays
from pgui import saved
from pgui.session_glue import Session
from pgui.table import Table

import pygames

QUERIES = {
    "kiriai": "game=kiriai&mode=bot&bot=easy&speed=0&seed=5",
    "cardia": "game=cardia&mode=bot&bot=easy&speed=0&seed=6",
    "canosa": "game=canosa&mode=bot&bot=easy&speed=0&seed=7&layout=small",
    "artofwar": "game=artofwar&mode=bot&bot=easy&speed=0&seed=8",
    "electors": "game=electors&players=3&seats=you,easy,easy&speed=0&seed=9",
}


def test_every_game_has_a_query():
    assert set(QUERIES) == set(pygames.game_ids())


def played_table(gid: str, mode: str = "bot", moves: int = 6, seed: int = 3) -> Table:
    """A table that played ``moves`` actions (random legal ones, bots included)."""
    options = {"layout": "small"} if gid == "canosa" else None
    table = Table(gid, mode=mode, seed=seed, level=None, lang="en", speed=0, options=options)
    rng = random.Random(seed)
    while len(table.played) < moves and not table.over:
        movers = [p for p in table.state.to_move() if p not in table.bots]
        p = movers[0]
        table._apply(p, rng.choice(table.state.legal_actions(p)))
        table._after_change()
    table.skip()
    return table


@pytest.mark.parametrize("gid", pygames.game_ids())
@pytest.mark.parametrize("mode", ["bot", "hotseat"])
def test_envelope_round_trip_and_resume_give_the_same_state(gid, mode):
    table = played_table(gid, mode)
    env = saved.envelope(table, "abcdef0123", created=5)
    text = saved.dumps(env)
    back = saved.loads(text)
    assert back == json.loads(text)
    assert back["v"] == saved.VERSION and back["kind"] == "pygames.saved"
    assert back["moves"] == len(table.played) and back["record"] == table.state.record()
    again = saved.resume_table(back, lang="ja")
    assert again.state == table.state
    assert [list(a) for a in again.played] == [list(a) for a in table.played]
    assert again.mode == mode and again.human == table.human and again.lang == "ja"
    seat = table.human if mode == "bot" else None
    assert again.state.view(seat) == table.state.view(seat)
    if mode == "bot":
        assert again.state.legal_actions(seat) == table.state.legal_actions(seat)
        assert set(again.bots) == set(table.bots)


def play_on(table: Table, rng: random.Random, moves: int) -> None:
    """``moves`` more human actions (random legal ones); the bots answer each."""
    for _ in range(moves):
        if table.over:
            return
        p = next(p for p in table.state.to_move() if p not in table.bots)
        table._apply(p, rng.choice(table.state.legal_actions(p)))
        table._after_change()
        table.skip()


@pytest.mark.parametrize("gid", pygames.game_ids())
@pytest.mark.parametrize("level", [None, "easy"])
def test_after_a_resume_the_bot_plays_on_as_in_the_unbroken_game(gid, level):
    """The bots' moves after a reload are the ones they would have made without it: the
    resumed bot is where the unbroken one was in its own random numbers."""
    options = {"layout": "small"} if gid == "canosa" else None
    unbroken = Table(gid, mode="bot", seed=9, level=level, lang="en", speed=0,
                     options=options)
    play_on(unbroken, random.Random(1), 2)
    env = saved.loads(saved.dumps(saved.envelope(unbroken, "abcdef0123", created=5)))
    resumed = saved.resume_table(env, lang="en")
    assert resumed.state == unbroken.state
    bot = 1 - unbroken.human
    before = sum(p == bot for p, _ in unbroken.played)
    play_on(unbroken, random.Random(2), 12)
    play_on(resumed, random.Random(2), 12)
    assert sum(p == bot for p, _ in unbroken.played) > before, "the bot moved after"
    assert resumed.state.record() == unbroken.state.record()


def test_a_finished_game_carries_its_replay_string():
    from pygames import records

    table = played_table("kiriai", "hotseat", moves=10_000)
    assert table.over
    env = saved.loads(saved.dumps(saved.envelope(table, "0000000000", created=1)))
    assert env["over"] is True
    assert records.from_string(env["replay"]) == table.state.record()


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_a_finished_game_says_who_won_and_one_in_progress_does_not(gid):
    table = played_table(gid, "hotseat", moves=10_000)
    assert table.over
    env = saved.loads(saved.dumps(saved.envelope(table, "0000000000", created=1)))
    assert env["winners"] == sorted(table.state.outcome()["winners"])
    assert env["winners"] in ([0], [1], [], [0, 1])
    going = played_table(gid, "hotseat", moves=1)
    assert "winners" not in saved.envelope(going, "0000000001", created=1)


@pytest.mark.parametrize("text, code", [
    ("", "format"), ("{not json", "format"), ("[]", "format"), ('{"kind": "other"}', "format"),
    ('{"kind": "pygames.saved", "v": "1"}', "format"),
    ('{"kind": "pygames.saved", "v": 99}', "version"),
    ('{"kind": "pygames.saved", "v": 1, "id": "x", "mode": "bot"}', "format"),
])
def test_damaged_entries_are_refused_with_a_code_and_a_message(text, code):
    with pytest.raises(saved.SavedError) as info:
        saved.loads(text)
    assert info.value.code == code
    assert info.value.message("ja") and info.value.message("en")


def test_a_record_that_does_not_replay_is_refused():
    env = saved.envelope(played_table("cardia"), "aaaaaaaaaa", created=1)
    env["record"]["actions"][0][1] = "no such card"
    with pytest.raises(saved.SavedError) as info:
        saved.resume_table(saved.loads(saved.dumps(env)), lang="en")
    assert info.value.code == "record"


def test_an_earlier_version_is_upgraded(monkeypatch):
    """When the envelope changes (version 2, say), a version-1 entry goes through
    UPGRADES, one version at a time, before it is used."""
    table = played_table("canosa", "hotseat")
    env = saved.envelope(table, "bbbbbbbbbb", created=1)
    monkeypatch.setattr(saved, "VERSION", 2)
    monkeypatch.setattr(saved, "UPGRADES", {1: lambda e: dict(e, v=2, upgraded=True)})
    up = saved.loads(saved.dumps(env))
    assert up["v"] == 2 and up["upgraded"] and up["record"] == env["record"]
    assert saved.resume_table(up, lang="en").state == table.state


# ------------------------------------------------------------------------- the session


def drive(session: Session, rng: random.Random, moves: int) -> list[dict]:
    """Play at a session by its commands (as the page does); every ``local`` it returned."""
    import re

    out = []
    out.append(session.result()["local"])
    while len(session.table.played) < moves and not session.table.over:
        table = session.table
        if table.thinking:
            r = session.think()
            if r.get("local"):
                out.append(r["local"])
            continue
        if table.animating:
            out.append(session.command("skip")["local"])
            continue
        cmds = [c for c in re.findall(r'data-cmd="([^"]+)"(?![^>]*disabled)', table.html())
                if not c.startswith(("lang:", "rematch", "dismiss", "skip", "undo"))]
        urgent = [c for c in ("confirm", "handover-ok") if c in cmds]
        out.append(session.command(urgent[0] if urgent else rng.choice(cmds))["local"])
    return out


@pytest.mark.parametrize("gid", pygames.game_ids())
def test_the_session_saves_after_every_action_and_resume_reopens_it(gid):
    session = Session()
    first = session.open(QUERIES[gid], nav_lang="en")
    assert first["local"]["text"] is None  # nothing played yet: nothing to keep
    locals_ = drive(session, random.Random(1), 4)
    texts = [loc["text"] for loc in locals_ if loc and loc["text"]]
    assert texts, "nothing was saved"
    ids = {loc["id"] for loc in locals_}
    assert len(ids) == 1
    (save_id,) = ids
    last = saved.loads(texts[-1])
    table = session.table
    assert last["record"] == table.state.record() and last["id"] == save_id
    assert [len(saved.loads(t)["record"]["actions"]) for t in texts] == sorted(
        len(saved.loads(t)["record"]["actions"]) for t in texts)
    assert session.result()["local"]["text"] is None  # unchanged: nothing new to write
    # The saved text never reaches the page's HTML (it holds the deal).
    assert texts[-1] not in session.result()["html"]
    assert '"seed"' not in session.result()["html"]
    # A reload: the page passes what it stored under the key the address names.
    again = Session()
    r = again.open(QUERIES[gid] + f"&resume={save_id}", nav_lang="en", stored=texts[-1])
    assert "error" not in r and not again.table.message
    assert again.table.state == table.state and r["local"]["id"] == save_id
    assert r["local"]["text"] is None  # as stored
    human = table.human
    assert again.table.state.view(human) == table.state.view(human)
    assert again.table.html().count("data-cmd") > 0


def test_a_rematch_is_a_new_saved_game():
    session = Session()
    session.open("game=kiriai&mode=hotseat&speed=0&seed=2", nav_lang="en")
    drive(session, random.Random(2), 10_000)
    assert session.table.over
    old = session.result()["local"]["id"]
    r = session.command("rematch")
    assert r["local"]["id"] != old and r["local"]["text"] is None


@pytest.mark.parametrize("stored", ["", "{damaged", '{"kind": "pygames.saved", "v": 7}'])
def test_a_missing_or_damaged_saved_game_starts_a_new_one_saying_so(stored):
    session = Session()
    r = session.open("game=cardia&mode=bot&bot=easy&speed=0&resume=0123456789&lang=ja",
                     nav_lang="en", stored=stored)
    assert "error" not in r
    table = session.table
    assert table.game.id == "cardia" and table.mode == "bot" and table.level == "easy"
    assert table.lang == "ja" and table.message and 'class="message" role="alert"' in r["html"]
    assert ("この保存された対局" if not stored else "保存された対局を開けません") in table.message
    assert r["local"]["id"] != "0123456789"


def test_a_saved_game_under_another_id_is_not_taken():
    text = fixture("kiriai-bot")["text"]
    session = Session()
    session.open("game=kiriai&resume=ffffffffff", nav_lang="en", stored=text)
    assert len(session.table.played) < 5 and session.table.message


def test_link_play_and_replays_are_not_saved_here():
    session = Session()
    r = session.open("mode=replay&game=kiriai&seed=3", nav_lang="en")
    assert r["local"] is None
    r = session.open("game=kiriai&mode=link&speed=0", nav_lang="en", page="http://x/play.html")
    assert r["local"] is None


# ------------------------------------------------------------------------- fixtures


FIXTURE_FILES = fixture_files()


def test_there_is_a_fixture_for_every_game():
    """Each game keeps its own (tests/<id>/saved/, made from its saved_plays.json); a game
    without one fails here, naming it."""
    envs = [saved.loads(json.loads(f.read_text())["text"]) for f in FIXTURE_FILES]
    missing = set(pygames.game_ids()) - {env["game"] for env in envs}
    assert not missing, f"no saved-game fixture for {sorted(missing)}: list one in " \
        "tests/<id>/saved_plays.json and run tests/helpers/saved_fixtures.py"
    assert {p.stem for p in FIXTURE_FILES} == set(plays())  # each one's play is listed
    assert {"bot", "hotseat"} <= {env["mode"] for env in envs}
    assert any(env["over"] for env in envs)


@pytest.mark.parametrize("path", FIXTURE_FILES, ids=lambda p: p.stem)
def test_saved_games_of_an_earlier_build_open_where_they_were(path):
    data = json.loads(path.read_text())
    env = saved.loads(data["text"])
    assert data["key"] == saved.PREFIX + env["id"]
    query = f"game={env['game']}&mode={env['mode']}&resume={env['id']}"
    session = Session()
    r = session.open(query, nav_lang="en", stored=data["text"])
    table = session.table
    assert not table.message, table.message
    assert len(table.played) == data["view"]["moves"] and table.over == data["view"]["over"]
    seat = table.human if table.mode == "bot" else None
    assert json.loads(json.dumps(table.state.view(seat))) == data["view"]["view"]
    if seat is not None:
        assert table.state.legal_actions(seat) == data["view"]["legal"]
    assert r["over"] == data["view"]["over"]


def test_the_fixture_maker_plays_like_the_page():
    data = play("game=kiriai&mode=hotseat&speed=0&seed=9", 3, random.Random(0))
    env = saved.loads(data["text"])
    assert env["mode"] == "hotseat" and env["moves"] == data["view"]["moves"] >= 3


def test_the_storage_notice_comes_in_the_players_language():
    """The page shows ``failed`` once if it cannot store the game (glue.js)."""
    session = Session()
    r = session.open("game=kiriai&mode=hotseat&speed=0&seed=1&lang=ja", nav_lang="en")
    assert "保存できません" in r["local"]["failed"] and r["local"]["close"] == "閉じる"
    r = session.command("lang:en")
    assert "would not store" in r["local"]["failed"] and r["local"]["close"] == "Close"
    assert r["local"]["key"] == saved.PREFIX + r["local"]["id"]


def test_undo_works_after_a_resume():
    """Canosa offers Undo mid-turn: a resumed table replays from the same deal."""
    session = Session()
    session.open("game=canosa&mode=hotseat&speed=0&seed=4&layout=small", nav_lang="en")
    table = session.table
    rng = random.Random(4)
    while len(table.played) < 3 or table.played[-1][0] not in table.state.to_move():
        assert not table.over
        p = table.state.to_move()[0]
        table._apply(p, rng.choice(table.state.legal_actions(p)))
    table.skip()
    table.active, table.handover = table.played[-1][0], None
    assert table.can_undo()
    text = session.result()["local"]["text"]
    again = Session()
    again.open(f"game=canosa&mode=hotseat&resume={saved.loads(text)['id']}", nav_lang="en",
               stored=text)
    resumed = again.table
    resumed.active, resumed.handover = table.active, None
    assert resumed.can_undo()
    resumed.undo()
    assert resumed.played == table.played[:-1]
    r = again.result()["local"]
    assert r["text"] and saved.loads(r["text"])["moves"] == len(table.played) - 1
