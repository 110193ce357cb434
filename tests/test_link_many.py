"""Link play for 3 and 4 seats in CPython: one host, a friend by link per ``link`` seat, bots
on the host (issue 22, item 5), played with Tiny Duel (tests/tinygame: simultaneous
choices) and Tiny Turns (the same game one after another), plugged in as test_seats does.

A :class:`Star` carries what each table wants sent, as peer.js does over one data
channel per friend; every message to a friend is kept, and :func:`check_secrecy` proves
each holds only what that friend's seat may see. Everyone plays only by clicking buttons
on their own screen. A spectator in the stands (:class:`Stands`) never takes a seat and
is sent only nobody's view.
"""

from __future__ import annotations

import html as htmllib
import json
import random
import re

import pgui
import pytest
from helpers.spectate import check_spectator_texts
from helpers.tables import NOT_PLAY_AT_LINK, enabled_commands
from pgui.i18n import t
from pgui.link import LinkTable, parse_fragment
from pgui.session_glue import Session, make_table

import pygames
from pygames.session import TO_GUEST, Guest, _validate, unpack

GAMES = {"tiny": "TinyGame", "tinyturns": "TinyTurnsGame"}
PAGE = "http://x/play.html"


@pytest.fixture(autouse=True)
def tiny():
    for gid, cls in GAMES.items():
        pygames.register(gid, "tinygame", cls)
        pgui.register_ui(gid, "tinygame.ui")
    yield
    for gid in GAMES:
        pygames.unregister(gid)
        pgui.UI_MODULES.pop(gid, None)


class Star:
    """The host's table and a friend's table per peer id, joined by direct calls."""

    def __init__(self, host: LinkTable) -> None:
        self.host = host
        self.guests: dict[str, LinkTable] = {}
        #: Every message the host sent to each friend's seat, as ``(seat, text)``.
        self.to_seat: list[tuple[int, str]] = []

    def open(self, peer: str, guest: LinkTable) -> None:
        """A friend's data channel opens (its page pressed Join, or reopened)."""
        self.guests[peer] = guest
        self.host.peer_open(peer)
        guest.peer_open("host")
        self.pump()

    def close(self, peer: str) -> LinkTable:
        """A friend's page is closed (or its network is gone)."""
        guest = self.guests.pop(peer)
        self.host.peer_close(peer)
        return guest

    def pump(self) -> None:
        for _ in range(5000):
            moved = False
            for to, text in self.host.take_outbox():
                moved = True
                guest = self.guests.get(to)
                if guest is None:
                    continue   # a closed channel
                seat = self.host.link.seat_of(to)
                msg = json.loads(text)
                if seat is not None and msg["seq"] != 0:
                    self.to_seat.append((seat, text))
                guest.peer_message("host", text)
            for peer, guest in list(self.guests.items()):
                for to, text in guest.take_outbox():
                    assert to == "host"
                    moved = True
                    self.host.peer_message(peer, text)
            if not moved:
                return
        raise AssertionError("the tables keep talking forever")


def host_table(gid: str, seats: str, lang: str = "en", **kw) -> LinkTable:
    table = make_table(f"game={gid}&seats={seats}&lang={lang}&speed=0", page=PAGE)
    assert isinstance(table, LinkTable) and table.role == "host"
    table.slices = kw.get("slices", False)   # CPython: the bots play at once
    table.bots = table._link_bots()
    return table


def invites(host: LinkTable) -> dict[int, str]:
    """Each friend's seat's invite, read from the host's screen (``data-invite-<seat>``)."""
    found = re.findall(r'<a data-invite-(\d+) href="([^"]*)"', host.html())
    return {int(s): htmllib.unescape(url) for s, url in found}


def open_invite(url: str, lang: str = "en", stored: str = "") -> LinkTable:
    query, _, fragment = url.partition("?")[2].partition("#")
    guest = make_table(query + f"&lang={lang}&speed=0", fragment=fragment, page=PAGE,
                       stored=stored)
    assert isinstance(guest, LinkTable) and guest.role == "guest"
    return guest


def seated(gid: str, seats: str, order=None, lang: str = "en"):
    """The host opens the table; each friend opens their own seat's invite and joins
    (in ``order`` of seats, default as they sit)."""
    host = host_table(gid, seats, lang)
    star = Star(host)
    links = invites(host)
    for seat in order or sorted(links):
        guest = open_invite(links[seat], lang)
        guest.command("join")
        star.open(f"g{seat}", guest)
        assert guest.link.seat == seat
    return host, star, links


def click(table: LinkTable, rng: random.Random, star: Star) -> bool:
    """Skip any playback, then click one of the buttons on screen (if any) and deliver."""
    while table.animating:
        table.command("skip")
    cmds = [c for c in enabled_commands(table.html()) if not c.startswith(NOT_PLAY_AT_LINK)]
    if not cmds:
        return False
    table.command(rng.choice(cmds))
    star.pump()
    return True


def play(star: Star, rng: random.Random, until=None, max_clicks: int = 2000) -> None:
    """Everyone clicks their own screen until the game ends (or ``until()``)."""
    for _ in range(max_clicks):
        tables = [star.host, *star.guests.values()]
        if until is not None and until():
            return
        if all(t.over and not t.animating for t in tables):
            return
        table = rng.choice(tables)
        if not click(table, rng, star) and table is not star.host:
            table._heard -= 100   # time passes: a friend that heard nothing checks in
            table.tick()
            star.pump()
    raise AssertionError("the game did not end by clicking")


def pictures(record: dict) -> dict[int, dict[int, dict]]:
    """What each seat may see at each ply of the game, by replaying the record:
    ``{ply: {seat: {"view", "legal", "events", "to_move"}}}``."""
    game = pygames.get_game(record["game"])
    state = game.new_game(seed=record["seed"], players=record["players"],
                          options=record["options"])
    out = {}
    for ply in range(len(record["actions"]) + 1):
        out[ply] = {s: json.loads(json.dumps({
            "view": state.view(s), "legal": state.legal_actions(s), "events": state.events(s),
            "to_move": state.to_move()})) for s in range(record["players"])}
        if ply < len(record["actions"]):
            seat, action = record["actions"][ply]
            state.apply(seat, action)
    return out


def check_secrecy(star: Star, record: dict, secret: str, values: dict) -> int:
    """Every message the host sent to a friend's seat holds only that seat's view, legal
    actions and events at that ply (the engine's redaction for that seat), commitments as
    hashes only, and neither the secret, the seed nor another seat's seed value before the
    game's end message. Returns how many messages were checked."""
    seen = pictures(record)
    seed = str(record["seed"])
    checked = 0
    for seat, text in star.to_seat:
        msg = unpack(text, 1 << 20)
        _validate(msg, TO_GUEST)   # no field the protocol does not name
        checked += 1
        if msg["type"] == "end":
            continue
        assert secret not in text and seed not in text, msg["type"]
        for other, value in values.items():
            if int(other) != seat:
                assert value not in text, f"seat {other}'s seed value went to seat {seat}"
        if msg["type"] == "commits" or (msg["type"] == "state" and msg.get("step")):
            step = msg if msg["type"] == "commits" else msg["step"]
            assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in step["commits"].values())
        if msg["type"] == "state":
            assert msg["seat"] == seat
        if "view" in msg and msg.get("view") is not None:
            mine = seen[msg["ply"]][seat]
            assert msg["view"] == mine["view"], (seat, msg["ply"])
            assert msg["legal"] == mine["legal"] and msg["to_move"] == mine["to_move"]
            start = msg.get("start") or 0
            assert msg["events"] == mine["events"][start:start + len(msg["events"])]
            for other in range(record["players"]):   # and differs where the seats differ
                if other != seat and seen[msg["ply"]][other]["view"] != mine["view"]:
                    assert msg["view"] != seen[msg["ply"]][other]["view"]
    return checked


def finish(host: LinkTable, star: Star, rng: random.Random) -> dict:
    """Play to the end; every friend's verdict is ok and its record is the host's."""
    play(star, rng)
    record = json.loads(host.record())
    assert record["game"] == host.game.id and pygames.get_game(host.game.id).from_record(
        record).is_over()
    for guest in star.guests.values():
        assert guest.link.verdict is not None and guest.link.verdict.ok, guest.link.verdict
        assert 'data-verdict="ok"' in guest.html()
        assert json.loads(guest.record()) == record
        assert guest.link.outcome == json.loads(json.dumps(host.link.outcome))
        assert not hasattr(guest.link, "state")
    return record


SEATS = {3: "you,link,link", 4: "you,link,strong,link"}


@pytest.mark.parametrize("gid", list(GAMES))
@pytest.mark.parametrize("players", [3, 4])
def test_friends_join_by_their_own_invites_and_the_game_ends_verified_for_each(gid, players):
    """Each friend's seat has its own invite (its seat in the fragment), named by the seat;
    friends join in any order and get the seat their invite is for; a bot plays its seat
    on the host (4 players); every message to each friend is that seat's own business."""
    rng = random.Random(f"{gid}{players}")
    host = host_table(gid, SEATS[players])
    html = host.html()
    links = invites(host)
    friends = [p for p, k in enumerate(SEATS[players].split(",")) if k == "link"]
    assert sorted(links) == friends
    for seat, url in links.items():
        frag = parse_fragment(url.partition("#")[2])
        assert frag["r"] == host.room and frag["k"] == host.key and frag["s"] == str(seat)
        assert f"Invite for Player {seat + 1}" in html
    assert html.count("<svg") == len(friends)   # a QR code per invite
    assert "data-invite " not in html and "data-invite=" not in html  # two-player's only
    if players == 4:
        assert "Played by a bot on this device: Player 3." in html
    star = Star(host)
    for seat in reversed(friends):   # the last seat's friend comes first
        guest = open_invite(links[seat])
        assert f'data-your-seat="{seat}"' in guest.html()
        guest.command("join")
        star.open(f"g{seat}", guest)
        assert guest.link.seat == seat
        assert guest.store_key() == f"pygames.link.{host.room}.guest-{seat}"
    assert host.playing and all(g.playing for g in star.guests.values())
    info = host.peer_info()
    assert [(s["seat"], s["peer"], s["joined"], s["bot"]) for s in info["seats"]] == [
        (s, f"g{s}", True, False) for s in friends]
    assert f"Connected to {len(friends)} of {len(friends)} friends" in host.html()
    labels = star.guests["g1"].seats()
    assert labels[1] == "you" and labels[0] == "friend"
    if players == 4:
        assert labels[2] == "bot" and host.seats()[2] == "bot"
    record = finish(host, star, rng)
    assert record["players"] == players
    if players == 4:   # the bot played its seat (3 rounds of choices)
        assert sum(s == 2 for s, _ in record["actions"]) == 3
    values = {str(s): v for s, v in host.link.values.items()}
    checked = check_secrecy(star, record, host.link.secret.hex(), values)
    assert checked >= 10 * len(friends)
    assert {s for s, _ in star.to_seat} == set(friends)


@pytest.mark.parametrize("gid", list(GAMES))
@pytest.mark.parametrize("players", [3, 4])
def test_a_friend_reloads_mid_game_and_goes_on_in_its_own_seat(gid, players):
    rng = random.Random(f"reload{gid}{players}")
    host, star, links = seated(gid, SEATS[players])
    play(star, rng, until=lambda: host.link.ply >= players)
    assert not host.over
    # Friend 1 closes its page and opens its link again: its storage keeps its seat.
    old = star.close("g1")
    kept = old.save() or old._saved
    again = open_invite(links[1], stored=kept)
    assert again.joined and again.link.seat == 1 and again.link.token == old.link.token
    star.open("g1b", again)   # a new channel, as a new relay id would be
    assert host.link.seat_of("g1b") == 1 and again.playing
    play(star, rng, until=lambda: host.link.ply >= players + 3)
    # Friend 2 reloads too, in the middle of whatever step.
    last = max(links)
    old = star.close(f"g{last}")
    again = open_invite(links[last], stored=old.link.to_json())
    star.open(f"g{last}b", again)
    assert again.link.seat == last
    record = finish(host, star, rng)
    check_secrecy(star, record, host.link.secret.hex(),
                  {str(s): v for s, v in host.link.values.items()})


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_browser_opening_a_taken_seats_invite_is_told_so_in_its_language(lang):
    host, star, links = seated("tiny", "you,link,link", lang=lang)
    other = open_invite(links[2], lang=lang)   # another browser: no storage, a new token
    other.command("join")
    star.open("intruder", other)
    assert other.link.seat is None and other.taken()
    html = other.html()
    said = t("link_taken_seat", lang, seat=t("seat_n", lang, n=3))
    assert "data-taken" in html and htmllib.escape(said) in html
    assert not other.peer_info()["connect"]
    assert star.guests["g2"].playing and host.link.seat_of("g2") == 2   # the seat's friend
    # A link with no seat (an old invite) finds no free seat either.
    bare = open_invite(links[1].replace("&s=1", ""), lang=lang)
    bare.command("join")
    star.open("bare", bare)
    assert bare.taken() and "data-taken" in bare.html()


@pytest.mark.parametrize("gid", list(GAMES))
@pytest.mark.parametrize("players", [3, 4])
def test_the_host_gives_a_gone_friends_seat_to_a_bot_and_the_game_finishes(gid, players):
    rng = random.Random(f"hand{gid}{players}")
    host, star, links = seated(gid, SEATS[players])
    play(star, rng, until=lambda: host.link.ply >= players)
    assert "seat_bot:" not in host.html()   # nobody is gone
    gone = star.close("g1")
    html = host.html()
    assert 'data-cmd="seat_bot:1"' in html and "Let a bot play Player 2" in html
    assert 'data-seat-status="reconnecting"' in html
    host.command("seat_bot:1")
    star.pump()
    assert host.link.bots >= {1} and "seat_bot:" not in host.html()
    assert host.peer_info()["seats"][0] == {"seat": 1, "peer": "", "joined": False,
                                            "bot": True}
    assert 'data-seat-status="bot"' in host.html()
    record = finish(host, star, rng)
    assert len(star.guests) == len(links) - 1
    check_secrecy(star, record, host.link.secret.hex(),
                  {str(s): v for s, v in host.link.values.items()})
    # The friend who left comes back (its page reopened): a bot has its seat now.
    back = open_invite(links[1], lang="ja", stored=gone.link.to_json())
    star.open("g1c", back)
    assert back.replaced() and not back.peer_info()["connect"]
    assert t("link_replaced", "ja") in back.html()
    assert host.link.seat_of("g1c") is None


def test_a_seat_given_to_a_bot_between_a_commitment_and_its_reveal_keeps_others_verified():
    """Tiny Duel's choices are simultaneous: friend 2 has committed and friend 1 has
    revealed when friend 2's channel goes; the bot that takes seat 2 chooses again, and
    friend 1 (who revealed against friend 2's first commitment) still ends verified."""
    host, star, _ = seated("tiny", "you,link,link")
    one, two = star.guests["g1"], star.guests["g2"]
    host.command("card:1")
    star.pump()
    one.command(f"card:{one.link.legal[0]}")
    star.pump()
    two.command(f"card:{two.link.legal[0]}")   # its commit goes; the answers do not
    del star.guests["g2"]
    for _, text in two.take_outbox():
        host.peer_message("g2", text)
    star.pump()
    assert 2 in host.link.step["commits"] and 1 in host.link.step["reveals"]
    assert 2 not in host.link.step["reveals"]
    host.peer_close("g2")
    host.command("seat_bot:2")
    star.pump()
    assert host.link.ply == 3   # the bot chose again and the step resolved
    finish(host, star, random.Random(1))


def test_the_page_session_hosts_with_bots_that_think_in_slices():
    """Through the page's session (as the worker drives it): seats=you,link,strong makes a
    host whose bot thinks a slice at a time (``thinking``), and the page hears each
    friend's seat's connection (``seats``) from peer.js."""
    s = Session()
    r = s.open("game=tinyturns&players=3&seats=you,strong,link&lang=en&speed=0",
               nav_lang="en", page=PAGE)
    host = s.table
    assert isinstance(host, LinkTable) and host.slices and host.link.bots == {1}
    assert r["peer"]["seats"] == [{"seat": 2, "peer": "", "joined": False, "bot": False}]
    url = invites(host)[2]
    g = Session()
    g.open(url.partition("?")[2].partition("#")[0] + "&speed=0",
           fragment=url.partition("#")[2], nav_lang="en", page=PAGE)
    to_host: list = []
    to_guest: list = []
    to_host += g.command("join")["sends"] + g.peer("open", "host")["sends"]
    to_guest += s.peer("open", "p2")["sends"]
    rng = random.Random(2)
    thought = 0
    for _ in range(2000):
        while to_host or to_guest:
            for _, text in to_host[:]:
                to_guest += s.peer("message", "p2", text)["sends"]
            to_host.clear()
            for _, text in to_guest[:]:
                to_host += g.peer("message", "host", text)["sends"]
            to_guest.clear()
        if host.over and g.table.over:
            break
        if host.thinking:   # the page asks for slices while the result says thinking
            thought += 1
            to_guest += s.think().get("sends", [])
            continue
        for sess, out in ((s, to_guest), (g, to_host)):
            table = sess.table
            while table.animating:
                table.skip()
            cmds = [c for c in enabled_commands(table.html()) if c.startswith("card:")]
            if cmds:
                out += sess.command(rng.choice(cmds))["sends"]
                break
        else:
            to_host += g.peer("poll")["sends"]
    assert thought > 0
    assert host.over and g.table.link.verdict.ok
    assert host.bot_move is not None   # the bot thought in slices, as local play's do
    s.peer("seats", "", json.dumps({"2": "lost"}))
    assert host.seat_status == {2: "lost"}


@pytest.mark.parametrize("gid", list(GAMES))
def test_the_host_reloads_mid_game_with_its_bots_and_a_seat_it_handed_over(gid):
    """The host's page reloads (its storage brings the game back, under the room in its
    address): its bot and the seat it gave a bot go on playing, the friends reconnect."""
    rng = random.Random(f"host{gid}")
    host, star, links = seated(gid, "you,link,strong,link")
    play(star, rng, until=lambda: host.link.ply >= 4)
    star.close("g3")
    host.command("seat_bot:3")
    star.pump()
    saved = host.link.to_json()
    again = make_table(f"game={gid}&seats=you,link,strong,link&lang=en&speed=0",
                       fragment=host.fragment(), stored=saved, page=PAGE)
    assert isinstance(again, LinkTable) and again.link.secret == host.link.secret
    again.slices = False
    again.bots = again._link_bots()
    assert again.link.bots == {2, 3} and again.link_kinds == ("you", "link", "strong", "normal")
    assert set(again.bots) == {2, 3}
    star.host = again
    guest = star.close("g1")
    star.open("g1", guest)   # the friend's channel comes back to the reloaded host
    assert again.playing and again.link.seat_of("g1") == 1
    record = finish(again, star, rng)
    assert sum(s == 3 for s, _ in record["actions"]) == 3


# -- spectators of a game of friends and bots --------------------------------------------------
class Stands(Star):
    """A :class:`Star` whose host also has spectators' connections (``w-...``, as peer.js
    names them), each message to one of them kept."""

    def __init__(self, host: LinkTable) -> None:
        super().__init__(host)
        self.watchers: dict[str, LinkTable] = {}
        self.to_watchers: list[str] = []

    def pump(self) -> None:
        for _ in range(5000):
            moved = False
            for to, text in self.host.take_outbox():
                moved = True
                if to in self.watchers:
                    self.to_watchers.append(text)
                    self.watchers[to].peer_message("host", text)
                elif to in self.guests:
                    seat = self.host.link.seat_of(to)
                    if seat is not None and json.loads(text)["seq"] != 0:
                        self.to_seat.append((seat, text))
                    self.guests[to].peer_message("host", text)
            for peer, table in [*self.guests.items(), *self.watchers.items()]:
                for to, text in table.take_outbox():
                    assert to == "host"
                    moved = True
                    self.host.peer_message(peer, text)
            if not moved:
                return
        raise AssertionError("the tables keep talking forever")

    def watch(self, peer: str, table: LinkTable) -> None:
        self.watchers[peer] = table
        self.host.peer_open(peer)
        table.peer_open("host")
        self.pump()


@pytest.mark.parametrize("gid", list(GAMES))
def test_spectators_watch_friends_and_a_bot_and_never_take_a_seat(gid):
    """A spectator connected before any friend cannot take a friend's seat (its join is
    refused, the seat stays its friend's), sees who plays each seat, and watches the game
    to its end seeing only nobody's view; the friends' games are verified as ever."""
    rng = random.Random(f"watch{gid}")
    host = host_table(gid, SEATS[4])
    star = Stands(host)
    url = re.search(r'<a data-watch-link href="([^"]*)"', host.html()).group(1)
    query, _, fragment = htmllib.unescape(url).partition("?")[2].partition("#")
    watcher = make_table(query + "&speed=0", fragment=fragment, page=PAGE)
    assert isinstance(watcher, LinkTable) and watcher.role == "watch"
    star.watch("w-1", watcher)
    host.peer_message("w-1", Guest(seat=1).join()[0].text)   # a seat, from the stands
    host.peer_message("w-1", Guest().join()[0].text)
    assert host.link.seats == {} and host.link.seat_of("w-1") is None
    star.pump()
    links = invites(host)
    for seat in sorted(links):
        guest = open_invite(links[seat])
        guest.command("join")
        star.open(f"g{seat}", guest)
        assert guest.link.seat == seat
    assert watcher.playing and watcher.link.kinds == ["host", "guest", "bot", "guest"]
    assert watcher.seats() == ("host", "guest", "bot", "guest")
    assert 'data-watching="1"' in host.html()
    play(star, rng)
    record = json.loads(host.record())
    for guest in star.guests.values():
        assert guest.link.verdict is not None and guest.link.verdict.ok, guest.link.verdict
    while watcher.animating:
        watcher.command("skip")
    assert watcher.link.outcome == json.loads(json.dumps(host.link.outcome))
    assert watcher.link.view == json.loads(json.dumps(host.link.state.view(None)))
    assert 'class="overlay gameover"' in watcher.html() and watcher.record() is None
    assert check_spectator_texts(record, star.to_watchers) >= len(record["actions"]) // 4
    assert not {json.loads(t)["type"] for t in star.to_watchers} - {"spectate", "update",
                                                                   "error", "pong"}
