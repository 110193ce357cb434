"""One table for every game: what the table promises whichever game is plugged in.

The table draws one seat from what the protocol gives that seat (view, legal actions,
events) and knows no game; every registered game has a UI module that plugs into it and
can be played to the end by clicking the buttons on screen, in both languages, in both
modes.
"""

from __future__ import annotations

import html as htmllib
import random
import re

import pytest
from helpers.tables import NOT_PLAY, enabled_commands
from pgui import ui_module, ui_modules
from pgui.i18n import STRINGS
from pgui.table import Table

import pygames
from tools.paths import ROOT

GAME_IDS = pygames.game_ids()


class ProtocolOnly:
    """A state behind a wall: only the protocol may be used; anything else fails the test."""

    #: ``record`` only for saving and sharing a game (once it is over, or when the game
    #: hides nothing: test_replay.py checks when); drawing never reads it.
    ALLOWED = {"to_move", "legal_actions", "apply", "view", "events", "event_count",
               "is_over", "players", "record"}

    def __init__(self, state) -> None:
        object.__setattr__(self, "_state", state)

    def __getattr__(self, name: str):
        if name not in self.ALLOWED:
            raise AssertionError(f"the table read state.{name}, which is not the protocol")
        return getattr(self._state, name)


def click_to_end(table: Table, rng: random.Random, max_clicks: int = 20_000) -> int:
    """Click random enabled buttons (confirming often) until the game is over."""
    for n in range(max_clicks):
        if table.animating:
            table.advance() if rng.random() < 0.8 else table.command("skip")
            continue
        if table.over:
            return n
        html = table.html()
        cmds = [c for c in enabled_commands(html) if not c.startswith(NOT_PLAY)]
        assert cmds, "a player must act but the screen offers no button"
        # The one status line (the shell pins it in view) says what to do now.
        status = re.findall(r"<[a-z]+ [^>]*\bdata-status\b[^>]*>(.*?)</", html, re.S)
        assert len(status) == 1, "no status line, or more than one"
        assert status[0].strip() or 'class="overlay handover"' in html, "an empty status line"
        confirms = [c for c in cmds if c == "confirm"]
        table.command(confirms[0] if confirms and rng.random() < 0.7 else rng.choice(cmds))
    raise AssertionError("the game did not end by clicking")


@pytest.mark.parametrize("gid", GAME_IDS)
@pytest.mark.parametrize("mode", ["bot", "hotseat"])
def test_every_game_plays_to_the_end_by_clicking_through_the_protocol_only(gid, mode):
    for seed in range(2):  # one game in each language (the goldens and Chromium play more)
        lang = ("en", "ja")[seed % 2]
        table = Table(gid, mode=mode, seed=seed, lang=lang, speed=0)
        table.state = ProtocolOnly(table.state)
        click_to_end(table, random.Random(seed))
        html = table.html()
        assert 'class="overlay gameover"' in html
        assert "rematch" in enabled_commands(html)
        assert len(re.findall(r"<li class=\"ev-", html)) == table.state.event_count()


#: Games for more than two, at each count above two: (game, players).
BIGGER = [(gid, n) for gid in GAME_IDS for n in range(3, pygames.get_game(gid).max_players + 1)]


@pytest.mark.parametrize(("gid", "players"), BIGGER)
def test_a_game_for_more_plays_to_the_end_by_clicking_at_every_count(gid, players):
    """Two people here and easy bots mixed (pass and play between the people, the bots'
    moves between theirs), through the protocol only, to the game-over screen."""
    seats = ["you", "here", *["easy"] * (players - 2)]
    table = Table(gid, seed=players, lang=("en", "ja")[players % 2], speed=0, seats=seats)
    table.state = ProtocolOnly(table.state)
    assert table.state.players == players
    click_to_end(table, random.Random(players))
    html = table.html()
    assert 'class="overlay gameover"' in html
    assert len(re.findall(r"<li class=\"ev-", html)) == table.state.event_count()


@pytest.mark.parametrize("gid", GAME_IDS)
def test_log_lines_are_the_seats_own_events_in_words(gid):
    table = Table(gid, mode="bot", seed=3, lang="en", speed=0)
    click_to_end(table, random.Random(3))
    ui = ui_module(gid)
    html = table.html()
    lines = re.findall(r'<li class="ev-[^"]*">(.*?)</li>', html)
    events = table.state.events(0)
    view = {"you": 0, **table.state.view(0)}  # seat 0's screen (the table says whose)
    assert len(lines) == len(events)
    for line, event in zip(lines, events, strict=True):
        worded = ui.describe(event, "en", view)
        assert worded and worded != event["t"], event  # every event is worded
        assert line == htmllib.escape(worded, quote=True)


#: Every shared module: none may name a game (outside docstrings and comments, where an
#: example may). The registry (pygames/__init__.py) is the one place that lists them.
SHARED_MODULES = [
    "pygames/core.py", "pygames/records.py", "pygames/session.py", "pygames/search.py",
    "pygames/bots.py", "pygames/arena.py", "pygames/playthrough.py", "pygames/battery.py",
    "web/pgui/__init__.py", "web/pgui/table.py", "web/pgui/lobby.py", "web/pgui/replay.py",
    "web/pgui/share.py", "web/pgui/saved.py", "web/pgui/session_glue.py",
    "web/pgui/link.py", "web/pgui/pages.py", "web/pgui/i18n.py",
    "docs/boards/__init__.py", "build.py",
    # Every tool, present and future (benchmarks, screenshots, the docs builder ...).
    *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tools").glob("*.py")),
    "web/glue.js", "web/peer.js", "web/sw.js", "web/offline.js", "web/boot.js",
    "web/app.css",
]


@pytest.mark.parametrize("path", SHARED_MODULES)
def test_a_shared_module_names_no_game(path):
    names = set(GAME_IDS) | set(pygames.PLANNED)
    text = (ROOT / path).read_text(encoding="utf-8").lower()
    if path.endswith(".py"):
        code = re.sub(r'""".*?"""', "", text, flags=re.S)  # docstrings may give examples
        code = re.sub(r"#[^\n]*", "", code)
    else:
        code = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    for gid in names:
        assert not re.search(rf"\b{gid}\b", code), f"{path} names {gid}"


def test_every_game_has_a_complete_ui_module():
    for gid, ui in ui_modules().items():
        for name in ("STRINGS", "BLURB", "STEP_EVENTS", "new_selection", "handle",
                     "render_table", "describe", "who", "result_reason", "rules_html",
                     "step_delay"):
            assert hasattr(ui, name), f"{gid}_ui lacks {name}"
        assert all(k.startswith(f"{gid}.") for k in ui.STRINGS), gid
        assert set(ui.STRINGS) <= set(STRINGS)
        for lang in ("en", "ja"):
            assert ui.BLURB[lang] and ui.rules_html(lang)


def test_unknown_game_is_a_clear_error():
    with pytest.raises(KeyError, match="known games"):
        Table("chess")
    with pytest.raises(ValueError, match="mode"):
        Table(GAME_IDS[0], mode="online")


def _human_moves(table: Table, rng: random.Random) -> None:
    """The person at the table plays a random legal action (as a click would)."""
    table._apply(table.human, rng.choice(table.state.legal_actions(table.human)))
    table._after_change()
    while table.animating:
        table.command("skip")


@pytest.mark.parametrize("gid", ["kiriai", "cardia"])
def test_a_bots_clock_runs_only_while_a_person_waits_for_it(gid):
    """Both choose at once: the bot thinks to its iterations while the person is still
    choosing (no seconds at all would stop it), and only once the person has chosen does
    the clock cut it short."""
    from pygames.bots import Budget

    rng = random.Random(3)
    table = Table(gid, mode="bot", seed=4, level="strong", seat=1, slices=True, speed=0)
    table.bots[0].budget = Budget(300, 0.0)
    both = lambda: table.state.to_move() == [0, 1] and 0 in table.thinking  # noqa: E731
    assert both()
    while table.thinking:
        table.think(5)
    assert table.bot_move["iterations"] == 300 and table.bot_move["waited"] == 0
    for _ in range(50):  # on to the next time both choose at once
        while table.thinking and not both():
            table.think(5)
        if both():
            break
        _human_moves(table, rng)
    assert both()
    _human_moves(table, rng)  # the person chooses first now: the bot's clock runs
    assert table.state.to_move() == [0] and 0 in table.thinking
    before = table.bot_move
    table.think(50)
    assert table.bot_move is not before, "the bot has moved"
    assert table.bot_move["iterations"] < 300
