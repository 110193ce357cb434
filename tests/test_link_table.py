"""Link play tables in CPython: a host's and a guest's table, joined by direct calls.

What the page glue (peer.js) does with a data channel is done here by a tiny wire: every
message a table wants sent is handed to the other table. Both players click buttons on
their own screen only; each screen is drawn from its own seat (the guest holds no state).
Spectators' tables (``mode=watch``) hang off the host as peer.js's ``w-...`` connections
and draw nobody's view; what peer.js reports of the connection shows in the status line.
"""

from __future__ import annotations

import html as htmllib
import json
import random
import re

import pytest
from helpers.spectate import check_spectator_texts
from helpers.tables import NOT_PLAY_AT_LINK, enabled_commands
from pgui.i18n import t
from pgui.link import LinkTable, parse_fragment, watch_key
from pgui.session_glue import Session, make_table

import pygames
from pygames.session import Guest

GAME_IDS = pygames.game_ids()


class Wire:
    """Carries what each table sends to the other (peer ids as a relay would name them)."""

    def __init__(self, host: LinkTable, guest: LinkTable, drop_every: int = 0) -> None:
        self.host, self.guest = host, guest
        self.sent = 0
        self.bytes = 0
        self.drop_every = drop_every
        self.to_guest: list[str] = []

    def pump(self) -> None:
        for _ in range(1000):
            moved = False
            for to, text in self.host.take_outbox():
                assert to == "g1"
                moved = True
                self.sent += 1
                self.bytes += len(text.encode())
                if self.drop_every and self.sent % self.drop_every == 0:
                    continue  # lost on the way: the guest notices and asks again
                self.to_guest.append(text)
                self.guest.peer_message("host", text)
            for to, text in self.guest.take_outbox():
                assert to == "host"
                moved = True
                self.host.peer_message("g1", text)
            if not moved:
                return
        raise AssertionError("the two tables keep talking forever")

    def connect(self) -> None:
        self.host.peer_open("g1")
        self.guest.peer_open("host")
        self.pump()


def pair(gid: str, lang: str = "en", **host_kw):
    host = LinkTable(gid, mode="link", lang=lang, speed=0, page="http://x/play.html", **host_kw)
    invite = host.invite()
    query, _, fragment = invite.partition("?")[2].partition("#")
    guest = make_table(query + f"&lang={lang}&speed=0", fragment=fragment,
                       page="http://x/play.html")
    assert isinstance(guest, LinkTable)
    return host, guest, invite


def click_random(table: LinkTable, rng: random.Random, wire: Wire) -> None:
    """Skip any playback, then click one of the buttons on screen (if any) and deliver."""
    while table.animating:
        table.command("skip")
    cmds = [c for c in enabled_commands(table.html()) if not c.startswith(NOT_PLAY_AT_LINK)]
    if cmds:
        table.command(rng.choice(cmds))
        wire.pump()


def play_turns(host: LinkTable, guest: LinkTable, wire: Wire, rng: random.Random,
               max_clicks: int = 20_000) -> None:
    """Both players click random buttons on their own screen until the game ends."""
    for _ in range(max_clicks):
        if host.over and guest.over and not host.animating and not guest.animating:
            return
        table = rng.choice([host, guest])
        if table.animating:
            table.advance() if rng.random() < 0.8 else table.command("skip")
            continue
        cmds = [c for c in enabled_commands(table.html()) if not c.startswith(NOT_PLAY_AT_LINK)]
        if cmds:
            confirms = [c for c in cmds if c == "confirm"]
            table.command(confirms[0] if confirms and rng.random() < 0.7 else rng.choice(cmds))
            wire.pump()
        elif table is guest:  # nothing to do: time passes, and a guest that heard nothing
            guest._heard -= 100  # for a while checks in (what a lost message needs)
            guest.tick()
            wire.pump()
    raise AssertionError("the game did not end by clicking")


def test_the_invite_carries_game_options_room_and_key_in_the_fragment():
    host, guest, invite = pair("cardia", options={"deck": "II"})
    assert invite.startswith("http://x/play.html?game=cardia&mode=join&deck=II")
    frag = parse_fragment(invite.partition("#")[2])
    assert frag["r"] == host.room and frag["k"] == host.key
    assert len(host.key) >= 20  # not guessable
    html = host.html()
    assert f'data-invite href="{invite.replace("&", "&amp;")}"' in html
    assert html.count("<svg") == 1 and 'class="qr"' in html  # the invite as a QR code
    # The guest sees what it is invited to, and Join.
    ghtml = guest.html()
    assert "join" in enabled_commands(ghtml)
    assert "Cardia" in ghtml and "II" in ghtml
    assert guest.peer_info()["connect"] is False
    guest.command("join")
    assert guest.peer_info()["connect"] is True and guest.status == "connecting"


@pytest.mark.parametrize("gid", GAME_IDS)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_game_by_clicking_on_both_screens(gid, lang):
    rng = random.Random(f"{gid}{lang}")
    host, guest, _ = pair(gid, lang)
    guest.command("join")
    wire = Wire(host, guest)
    wire.connect()
    assert host.playing and guest.playing
    assert host.html().count('class="peer-status"') == 1
    play_turns(host, guest, wire, rng)
    for table in (host, guest):
        html = table.html()
        assert 'class="overlay gameover"' in html
    assert guest.link.verdict.ok, guest.link.verdict
    assert 'data-verdict="ok"' in guest.html()
    # The record: on the host always, on the guest now that the game is over.
    pre = re.search(r"<pre hidden data-record>(.*?)</pre>", host.html(), re.S)
    hrec = json.loads(htmllib.unescape(pre.group(1)))
    grec = json.loads(guest.record())
    assert hrec == grec and hrec["game"] == gid
    # Each side's headline is its own: one wins where the other loses (or both draw).
    outcome = host.link.outcome
    if outcome["winners"]:
        win = htmllib.escape(t("you_win", lang), quote=True)
        assert (win in host.html()) != (win in guest.html())
    # The guest never held a state, and every message to it is its seat's own business.
    assert not hasattr(guest.link, "state")
    # Rematch: only the host starts one; the guest is told so, and both go to match 2.
    assert "rematch" not in enabled_commands(guest.html())
    host.command("rematch")
    wire.pump()
    assert host.link.match == guest.link.match == 2
    assert guest.playing and not guest.over


@pytest.mark.parametrize("gid", GAME_IDS)
def test_lost_messages_and_reloads_on_either_side_lose_nothing(gid):
    rng = random.Random(gid)
    host, guest, invite = pair(gid)
    guest.command("join")
    wire = Wire(host, guest, drop_every=5)
    wire.connect()
    for step in range(400):
        if host.over:
            break
        click_random(rng.choice([host, guest]), rng, wire)
        guest._heard -= 100  # time passes: a guest that heard nothing checks in
        guest.tick()
        wire.pump()
        if step % 40 == 13:  # the host reloads its page: its storage brings the game back
            saved = host.link.to_json()
            host = LinkTable(gid, mode="link", speed=0, fragment=host.fragment(), stored=saved,
                             page="http://x/play.html")
            wire.host = host
            host.peer_open("g1")
            guest.peer_close("host")
            guest.peer_open("host")
            wire.pump()
        if step % 40 == 33:  # the guest closes its tab and opens the link again
            saved = guest.link.to_json()
            fragment = invite.partition("#")[2]
            guest = LinkTable(gid, mode="join", speed=0, fragment=fragment, stored=saved)
            assert guest.joined  # no second Join: it goes on by itself
            wire.guest = guest
            host.peer_close("g1")
            wire.connect()
        assert host.link.ply == guest.link.ply or guest.link.ply <= host.link.ply
    wire.drop_every = 0
    play_turns(host, guest, wire, rng)
    assert guest.link.verdict.ok, guest.link.verdict
    assert guest.link.outcome == host.link.outcome


def test_a_second_guest_is_told_the_seat_is_taken():
    host, guest, invite = pair("kiriai")
    guest.command("join")
    wire = Wire(host, guest)
    wire.connect()
    other = LinkTable("kiriai", mode="join", speed=0, fragment=invite.partition("#")[2])
    other.command("join")
    other.peer_open("host")
    for _to, text in other.take_outbox():
        for _, reply in host.link.receive("g2", text):
            other.peer_message("host", reply)
    html = other.html()
    assert "data-taken" in html and "seat is taken" in html
    assert not other.peer_info()["connect"]
    assert guest.playing  # the first guest plays on


def test_a_bad_invite_is_a_clear_message():
    table = LinkTable("kiriai", mode="join", lang="ja", fragment="r=abc")
    html = table.html()
    assert "招待リンク" in html and 'role="alert"' in html
    assert not table.peer_info()["connect"]


def test_the_page_session_passes_sends_saves_and_peer_info():
    s = Session()
    r = s.open("game=kiriai&mode=link", saved_lang="en", nav_lang="en",
               page="http://x/play.html")
    frag = parse_fragment(r["peer"]["fragment"])
    assert r["peer"]["role"] == "host" and r["peer"]["connect"]
    assert r["save"]["key"] == f"pygames.link.{frag['r']}.host"
    g = Session()
    gr = g.open("game=kiriai&mode=join", fragment=r["peer"]["fragment"], nav_lang="en")
    assert gr["peer"]["role"] == "guest" and not gr["peer"]["connect"]
    gr = g.command("join")
    gr = g.peer("open", "host")
    assert gr["sends"] and json.loads(gr["sends"][0][1])["type"] == "join"
    hr = s.peer("open", "g1")
    for _, text in gr["sends"]:
        hr = s.peer("message", "g1", text)
    for _, text in hr["sends"]:
        gr = g.peer("message", "host", text)
    for _, text in gr["sends"]:
        hr = s.peer("message", "g1", text)
    for _, text in hr["sends"]:
        gr = g.peer("message", "host", text)
    assert gr["save"] and gr["save"]["key"].endswith(".guest")
    assert "data-record" in hr["html"]
    # A host page reopened with its fragment and storage is the same game.
    s2 = Session()
    r2 = s2.open("game=kiriai&mode=link", fragment=r["peer"]["fragment"],
                 stored=s.table.link.to_json())
    assert s2.table.link.secret == s.table.link.secret
    assert r2["peer"]["fragment"] == r["peer"]["fragment"]


def test_a_guest_keeps_its_own_part_when_the_host_is_gone():
    host, guest, _ = pair("cardia")
    guest.command("join")
    wire = Wire(host, guest)
    wire.connect()
    play_turns_until = random.Random(5)
    for _ in range(200):
        if len(guest.link.sent) >= 2:
            break
        for table in (host, guest):
            click_random(table, play_turns_until, wire)
    guest.set_status("lost")  # the host never comes back
    html = guest.html()
    assert 'data-link-cmd="download"' in html
    part = json.loads(htmllib.unescape(re.search(r"<pre hidden data-partial>(.*?)</pre>", html,
                                                 re.S).group(1)))
    assert part["seat"] == guest.link.seat and part["events"] == guest.link.events
    assert part["my_actions"] == {str(p): a for p, a in guest.link.sent.items()}
    # Only what the guest's seat may see: the same view and events the host gives it.
    assert part["view"] == json.loads(json.dumps(host.link.state.view(guest.link.seat)))
    assert 'data-link-cmd="download"' not in host.html()  # the host has the record itself


# -- hardening: verdicts that cannot be silenced, copy-paste games, seats that move ---------
def _joined(gid: str = "kiriai", lang: str = "en"):
    host, guest, invite = pair(gid, lang)
    guest.command("join")
    wire = Wire(host, guest)
    wire.connect()
    return host, guest, wire, invite


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_host_whose_record_does_not_replay_is_shown_not_verified(lang):
    """A cheating host's end message: a record with an illegal action. The guest's
    game-over screen still draws, says "Not verified" and what failed, and offers no record
    to save or share (there is none that replays)."""
    host, guest, wire, _ = _joined("cardia", lang)
    real_end = host.link._end_msg

    def bad_end():
        msg = real_end()
        msg["record"] = {**msg["record"], "actions": [*msg["record"]["actions"][:-1],
                                                      [1, "no such action"]]}
        return msg

    host.link._end_msg = bad_end
    play_turns(host, guest, wire, random.Random(4))
    html = guest.html()
    assert 'class="overlay gameover"' in html and 'data-verdict="failed"' in html
    assert htmllib.escape(t("link_not_verified", lang)) in html
    assert "cannot be replayed" in html
    assert guest.export_record() is None and "data-record-string" not in html
    assert 'data-verdict="pending"' not in html


def test_a_host_that_never_sends_the_end_is_shown_not_verified_after_a_while():
    host, guest, wire, _ = _joined()
    real_send = host.link._send
    host.link._send = lambda seat, msg: [] if msg["type"] == "end" else real_send(seat, msg)
    play_turns(host, guest, wire, random.Random(2))
    assert 'data-verdict="pending"' in guest.html()
    guest.tick()             # the wait starts
    guest._end_since -= 25   # time passes
    guest.tick()
    wire.pump()
    html = guest.html()
    assert 'data-verdict="failed"' in html and "has not sent" in html


def test_a_silent_guest_pings_and_the_host_answers():
    host, guest, wire, _ = _joined()
    wire.sent = 0
    guest._heard -= 3  # nothing heard for 3 s: more than PING_AFTER, less than POLL_AFTER
    guest.tick()
    kinds = [json.loads(text)["type"] for _, text in guest.outbox]
    assert kinds == ["ping"]
    wire.pump()
    assert json.loads(wire.to_guest[-1])["type"] == "pong" and wire.sent == 1
    guest.tick()  # just heard the pong: nothing more to say
    assert guest.take_outbox() == []


def test_a_join_lost_on_the_way_is_asked_again_and_the_game_starts():
    """The guest's first join never reaches the host (or the welcome never comes back):
    the guest's table does not wait on "starting" for good, it joins again."""
    host, guest, _ = pair("kiriai")
    guest.command("join")
    wire = Wire(host, guest)
    host.peer_open("g1")
    guest.peer_open("host")
    assert [json.loads(text)["type"] for _, text in guest.take_outbox()] == ["join"]  # lost
    guest.tick()            # just joined: not yet
    assert guest.take_outbox() == [] and not guest.playing
    guest._heard -= 3       # nothing heard back for 3 s
    guest.tick()
    wire.pump()
    assert guest.playing and 'class="main' in guest.html()
    guest._heard -= 3
    guest.tick()            # seated now: a ping, not another join
    assert [json.loads(text)["type"] for _, text in guest.outbox] == ["ping"]


def test_copy_and_paste_games_are_kept_apart_by_their_own_room():
    """Two copy-and-paste games in one browser: each link carries its own room, so each
    guest's seat is stored and reopened under its own key."""
    keys = set()
    for _ in range(2):
        host = LinkTable("kiriai", mode="link", speed=0, page="http://x/play.html")
        host.manual("offer", "CODE")
        frag = host.manual_offer.partition("#")[2]
        got = parse_fragment(frag)
        assert (got["r"], got["o"], got.get("k", host.key)) == (host.room, "CODE", host.key)
        guest = LinkTable("kiriai", mode="join", speed=0, fragment=frag)
        assert not guest.bad_link and "join" in enabled_commands(guest.html())
        guest.command("join")
        wire = Wire(host, guest)
        wire.connect()
        assert guest.playing and guest.store_key() == f"pygames.link.{host.room}.guest"
        keys.add(guest.store_key())
        # Reopened from storage with the same link: the same seat, no Join again.
        again = LinkTable("kiriai", mode="join", speed=0, fragment=frag, stored=guest.save())
        assert again.joined and again.link.token == guest.link.token
    assert len(keys) == 2


def test_a_copy_and_paste_game_reconnects_with_a_new_code_mid_game():
    host = LinkTable("kiriai", mode="link", speed=0, page="http://x/play.html")
    host.manual("offer", "CODE1")
    guest = LinkTable("kiriai", mode="join", speed=0,
                      fragment=host.manual_offer.partition("#")[2])
    guest.command("join")
    wire = Wire(host, guest)
    wire.connect()
    host.set_status("reconnecting")  # the connection went down during the game
    html = host.html()
    assert host.playing and 'data-link-cmd="offer"' in html  # make a new code, mid-game
    host.manual("offer", "CODE2")
    frag = host.manual_offer.partition("#")[2]
    reopened = LinkTable("kiriai", mode="join", speed=0, fragment=frag,
                         stored=guest.link.to_json())
    reopened.manual("answer", "ANSWER2")
    assert reopened.joined and "data-answer" in reopened.html()  # its answer code, in play


@pytest.mark.parametrize("gid", GAME_IDS)
def test_a_guest_moves_its_seat_to_another_browser(gid):
    rng = random.Random(gid)
    host, guest, wire, _ = _joined(gid)
    for _ in range(6):
        click_random(host, rng, wire)
        click_random(guest, rng, wire)
    html = guest.html()
    assert 'data-cmd="move_seat"' in html and "data-move" not in html  # shown on request
    guest.command("move_seat")
    html = guest.html()
    link = guest.move_link()
    assert "data-move" in html and html.count("<svg") >= 1
    assert parse_fragment(link.partition("#")[2])["t"] == guest.link.token
    # The other browser (no storage of this game) opens it and presses Continue.
    query, _, fragment = link.partition("?")[2].partition("#")
    other = make_table(query + "&speed=0", fragment=fragment, page="http://x/play.html")
    assert "join" in enabled_commands(other.html()) and "Continue" in other.html()
    other.command("join")
    old = guest
    wire.guest = other
    other.peer_open("host")
    sends = other.take_outbox()
    replies = []
    for _, text in sends:
        replies += host.link.receive("g2", text)
    for to, text in replies:
        (old if to == "g1" else other).peer_message("host", text)
    # The old page is told its seat moved, stops connecting, and keeps saying so on reload.
    assert old.elsewhere and not old.peer_info()["connect"]
    assert htmllib.escape(t("link_seat_moved", "en")) in old.html()
    reloaded = LinkTable(gid, mode="join", speed=0, fragment=fragment.split("&t=")[0],
                         stored=old.link.to_json())
    assert reloaded.elsewhere and not reloaded.peer_info()["connect"]
    # The host's page closes the old connection.
    assert host.peer_info()["drop"] == ["g1"] and host.peer_info()["drop"] == []
    # The new browser plays the seat to a verified end.
    host.peer_close("g1")

    class Wire2(Wire):
        def pump(self):
            for _ in range(1000):
                moved = False
                for to, text in self.host.take_outbox():
                    if to == "g2":
                        moved = True
                        self.guest.peer_message("host", text)
                for _to, text in self.guest.take_outbox():
                    moved = True
                    self.host.peer_message("g2", text)
                if not moved:
                    return

    wire2 = Wire2(host, other)
    wire2.pump()
    assert other.playing and other.link.seat == old.link.seat
    play_turns(host, other, wire2, rng)
    assert other.link.verdict.ok, other.link.verdict


# -- spectators (mode=watch), the host's spectator link, and what peer.js reports -----------
def watch_table(url: str, lang: str = "en") -> LinkTable:
    """A spectator's page opened at the spectator link ``url``."""
    query, _, fragment = url.partition("?")[2].partition("#")
    table = make_table(query + f"&lang={lang}&speed=0", fragment=fragment,
                       page="http://x/play.html")
    assert isinstance(table, LinkTable) and table.role == "watch" and table.mode == "watch"
    return table


class Party(Wire):
    """The host's and the guest's tables, and spectators' tables on the host's connections
    ``w-...`` (as peer.js names a spectator's), every message to a spectator kept."""

    def __init__(self, host: LinkTable, guest: LinkTable) -> None:
        super().__init__(host, guest)
        self.watchers: dict[str, LinkTable] = {}
        self.to_watchers: list[tuple[str, int, str]] = []   # (peer, match, text)

    def pump(self) -> None:
        for _ in range(2000):
            moved = False
            for to, text in self.host.take_outbox():
                moved = True
                if to == "g1":
                    self.guest.peer_message("host", text)
                elif to in self.watchers:
                    self.to_watchers.append((to, self.host.link.match, text))
                    self.watchers[to].peer_message("host", text)
            for to, text in self.guest.take_outbox():
                assert to == "host"
                moved = True
                self.host.peer_message("g1", text)
            for peer, table in list(self.watchers.items()):
                for to, text in table.take_outbox():
                    assert to == "host"
                    moved = True
                    self.host.peer_message(peer, text)
            if not moved:
                return
        raise AssertionError("the tables keep talking forever")

    def watch(self, peer: str, table: LinkTable) -> LinkTable:
        """A spectator's page connects (peer.js opens the channel at once: no Join)."""
        assert table.peer_info()["connect"]
        self.watchers[peer] = table
        self.host.peer_open(peer)
        table.peer_open("host")
        self.pump()
        return table


#: Commands a spectator's page may offer: none of them reaches the game.
LOOKING = ("lang:", "skip", "dismiss")


def only_looking(html: str) -> bool:
    return all(c.startswith(LOOKING) for c in enabled_commands(html))


@pytest.mark.parametrize("gid", GAME_IDS)
def test_the_host_offers_a_spectator_link_and_counts_who_watches(gid):
    lang = "ja" if GAME_IDS.index(gid) % 2 else "en"
    host, guest, invite = pair(gid, lang)
    url = host.watch_link()
    html = host.html()
    esc_url = url.replace("&", "&amp;")
    # Beside the invite: the link, its copy button like the invite's, and nobody watching.
    assert f'<a data-watch-link href="{esc_url}">' in html
    assert f'data-link-cmd="copy" data-copy="{esc_url}"' in html
    assert htmllib.escape(t("watch_link", lang)) in html and 'data-watching="0"' in html
    assert ("観戦リンク" in html) == (lang == "ja")
    query, _, frag = url.partition("?")[2].partition("#")
    assert query == invite.partition("?")[2].partition("#")[0].replace("mode=join", "mode=watch")
    frag = parse_fragment(frag)
    assert frag == {"r": host.room, "w": watch_key(host.key)} and host.key not in url
    assert host.peer_info()["watch"] == frag["w"]
    # Two spectators connect: the host's panel counts them, in the game too.
    guest.command("join")
    party = Party(host, guest)
    party.connect()
    party.watch("w-1", watch_table(url, lang))
    party.watch("w-2", watch_table(url, lang))
    html = host.html()
    assert 'data-watching="2"' in html and htmllib.escape(t("watch_count", lang, n=2)) in html
    assert ("2人が観戦中" in html) == (lang == "ja")
    host.peer_close("w-2")
    assert 'data-watching="1"' in host.html()


@pytest.mark.parametrize("gid", GAME_IDS)
def test_spectators_watch_a_whole_game_seeing_only_nobodys_view(gid):
    lang = "ja" if GAME_IDS.index(gid) % 2 == 0 else "en"
    rng = random.Random(f"watch{gid}")
    host, guest, _ = pair(gid, lang)
    guest.command("join")
    party = Party(host, guest)
    early = party.watch("w-early", watch_table(host.watch_link(), lang))
    assert not early.playing and "data-watching-note" in early.html()   # before the start
    party.connect()
    assert early.playing and 'data-mode="watch"' in early.html()
    for _ in range(4):
        click_random(host, rng, party)
        click_random(guest, rng, party)
    late = party.watch("w-late", watch_table(host.watch_link(), lang))   # mid-game
    for w in (early, late):
        html = w.html()
        assert htmllib.escape(t("watch_you", lang)) in html and only_looking(html)
        assert w.link.view == json.loads(json.dumps(host.link.state.view(None)))
        assert '<ol class="log-lines"' in html and "data-invite" not in html
        # Its status line (the table's, not the connection's) says whom the game waits
        # for, never nothing.
        status = re.search(r"data-status>([^<]*)<", html)
        assert status and status.group(1).strip(), "a spectator's status line is empty"
        for cmd in ("join", "rematch", "seat_bot:1", "move_seat", *guest.link.legal[:1]):
            w.command(cmd)   # nothing a spectator clicks reaches the game
        assert w.take_outbox() == []
    play_turns(host, guest, party, rng)
    record = json.loads(host.record())
    for w in (early, late):
        while w.animating:
            w.advance()
        html = w.html()
        assert 'class="overlay gameover"' in html and "data-watched" in html
        assert only_looking(html) and "data-record" not in html and w.record() is None
        assert 'data-verdict="pending"' not in html
        assert w.link.outcome == json.loads(json.dumps(host.link.outcome))
        assert w.link.view == json.loads(json.dumps(host.link.state.view(None)))
        assert w.link.events == json.loads(json.dumps(host.link.state.events(None)))
        assert not hasattr(w.link, "state") and w.save() is None
    checked = check_spectator_texts(record, [text for _, _, text in party.to_watchers])
    assert checked >= 4
    # A rematch shows on the spectators' pages too.
    host.command("rematch")
    party.pump()
    assert early.link.match == late.link.match == 2 and early.playing


def test_a_spectators_page_reloads_and_watches_again():
    host, guest, _ = pair("cardia")
    guest.command("join")
    party = Party(host, guest)
    party.connect()
    url = host.watch_link()
    party.watch("w-a", watch_table(url))
    play = random.Random(3)
    for _ in range(5):
        click_random(host, play, party)
        click_random(guest, play, party)
    # Reloaded: a new page (nothing kept), a new connection; the old one closes.
    host.peer_close("w-a")
    del party.watchers["w-a"]
    again = party.watch("w-b", watch_table(url))
    assert again.playing and again.link.view == json.loads(json.dumps(
        host.link.state.view(None)))
    # Its watch lost on the way: the page asks again after a moment.
    lost = watch_table(url)
    lost.peer_open("host")
    assert [json.loads(text)["type"] for _, text in lost.take_outbox()] == ["watch"]
    lost._heard -= 3
    lost.tick()
    party.watchers["w-c"] = lost
    host.peer_open("w-c")
    party.pump()
    assert lost.playing
    lost._heard -= 3   # then it pings when it has heard nothing for a moment
    lost.tick()
    assert [json.loads(text)["type"] for _, text in lost.outbox] == ["ping"]
    party.pump()


def test_a_spectators_connection_never_gets_a_seat():
    host, guest, _ = pair("kiriai")
    intruder = Guest()   # a page that holds the spectator link and sends a join
    host.peer_open("w-x")
    assert host.status == "waiting"   # a spectator's channel is not the game's connection
    host.peer_message("w-x", intruder.join()[0].text)
    replies = host.take_outbox()
    assert [json.loads(text)["code"] for _, text in replies] == ["spectator"]
    assert host.link.seats == {} and host.link.seat_of("w-x") is None
    assert host.peer_info()["seats"][0]["joined"] is False
    # Even as its first message, before peer.js said the channel opened.
    host.peer_message("w-y", Guest().join()[0].text)
    assert json.loads(host.take_outbox()[0][1])["code"] == "spectator"
    # The friend's invite still has its seat.
    guest.command("join")
    party = Party(host, guest)
    party.connect()
    assert guest.link.seat == 1 and host.link.seat_of("g1") == 1
    assert set(host.link.watchers) == {"w-x", "w-y"}


def test_links_pass_on_their_ice_servers_and_brokers():
    frag = "r=Room12345&k=" + "K" * 22 + "&ice=SUNFX0xJU1Q&b=WyJ3c3M6Ly9iLmV4YW1wbGUiXQ"
    host = LinkTable("cardia", mode="link", speed=0, fragment=frag, page="http://x/play.html")
    info = host.peer_info()
    assert info["role"] == "host" and info["brokers"] == "WyJ3c3M6Ly9iLmV4YW1wbGUiXQ"
    assert info["watch"] == watch_key("K" * 22)
    for url in (host.invite(), host.watch_link(), "#" + host.fragment()):
        got = parse_fragment(url.partition("#")[2])
        assert got["ice"] == "SUNFX0xJU1Q" and got["b"] == info["brokers"], url
    guest_frag = host.invite().partition("#")[2]
    guest = LinkTable("cardia", mode="join", speed=0, fragment=guest_frag)
    assert guest.peer_info()["brokers"] == info["brokers"] and guest.peer_info()["role"] == "guest"
    guest.command("join")
    party = Party(host, guest)
    party.connect()
    assert parse_fragment(guest.move_link().partition("#")[2])["b"] == info["brokers"]
    w = watch_table(host.watch_link())
    winfo = w.peer_info()
    assert winfo["role"] == "watch" and winfo["key"] == watch_key("K" * 22) != host.key
    assert winfo["room"] == host.room and winfo["connect"] is True   # no Join to press
    assert winfo["ice"] == "SUNFX0xJU1Q" and winfo["brokers"] == info["brokers"]
    assert "watch" not in winfo and winfo["fragment"] == "" and winfo["lock"] != host.store_key()
    # A damaged broker list is not passed on; a link without one passes on nothing.
    bad = LinkTable("cardia", mode="link", speed=0, fragment=frag.replace("&b=", "&b=<x>"))
    assert bad.peer_info()["brokers"] == "" and "&b=" not in bad.invite()
    plain_host = LinkTable("cardia", mode="link", speed=0)
    assert plain_host.peer_info()["brokers"] == "" and "&b=" not in plain_host.watch_link()


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_damaged_spectator_link_says_so(lang):
    table = LinkTable("kiriai", mode="watch", lang=lang, fragment="r=Room12345&k=" + "K" * 22)
    html = table.html()
    assert table.bad_link and not table.peer_info()["connect"]
    assert 'role="alert"' in html and htmllib.escape(t("watch_bad", lang)) in html


def test_the_page_session_opens_a_spectators_table_with_the_watch_key():
    s = Session()
    r = s.open("game=cardia&mode=link", nav_lang="en", page="http://x/play.html")
    url = s.table.watch_link()
    query, _, fragment = url.partition("?")[2].partition("#")
    w = Session()
    wr = w.open(query, fragment=fragment, nav_lang="en")
    assert wr["peer"]["role"] == "watch" and wr["peer"]["connect"]
    assert wr["save"] is None
    k = parse_fragment(r["peer"]["fragment"])["k"]
    assert r["peer"]["watch"] == watch_key(k) == wr["peer"]["key"]  # peer.js seals with it
    # The new peer events go through the page session's dispatcher.
    wr = w.peer("signal", "", json.dumps({"via": "broker", "host": "b.example"}))
    assert 'data-signal="broker"' in wr["html"] and "b.example" in wr["html"]
    wr = w.peer("open", "host")
    assert [json.loads(text)["type"] for _, text in wr["sends"]] == ["watch"]
    for _, text in wr["sends"]:
        hr = s.peer("message", "w-1", text)
    assert [to for to, _ in hr["sends"]] == ["w-1"]
    for _, text in hr["sends"]:
        wr = w.peer("message", "host", text)
    assert 'data-watching-note' in wr["html"]


def _status(table: LinkTable) -> str:
    m = re.search(r'<p class="peer-status"[^>]*>.*?</p>', table.html(), re.S)
    assert m, table.html()[:500]
    return htmllib.unescape(m.group(0))


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("role", ["host", "guest", "watch"])
def test_what_peer_js_reports_shows_in_the_status(role, lang):
    host, guest, _ = pair("cardia", lang)
    table = {"host": host, "guest": guest, "watch": watch_table(host.watch_link(), lang)}[role]
    if role == "guest":
        guest.command("join")
    other = "g1" if role == "host" else "host"
    # Looking for each other: through which server, or none at all.
    table.peer_event("signal", "", json.dumps({"via": "relay", "host": "relay.example"}))
    status = _status(table)
    assert 'data-signal="relay"' in status and "relay.example" in status
    table.peer_event("signal", "", json.dumps({"via": "broker", "host": ""}))
    assert 'data-signal="broker"' in _status(table)
    table.peer_event("signal", "", json.dumps({"via": "none", "host": ""}))
    assert t(f"signal_none_{role}", lang) in _status(table)
    table.peer_event("signal", "", "not json")   # ignored
    assert 'data-signal="none"' in _status(table)
    # No direct path in time: a hint of what to try, until told to clear it.
    table.peer_event("nopath", "", "")
    html = table.html()
    hint = re.search(r'<p class="nopath" role="status" data-nopath>(.*?)</p>', html)
    assert hint and htmllib.unescape(hint.group(1)) == t(f"nopath_{role}", lang)
    table.peer_event("nopath", "", "clear")
    assert "data-nopath" not in table.html()
    table.peer_event("nopath", "", "")
    # Connected: the hint goes, the signal line goes, the path shows.
    table.peer_event("open", other, "")
    table.peer_event("status", "", "connected")
    table.peer_event("path", other, "direct")
    status = _status(table)
    assert "data-nopath" not in table.html() and 'data-path="direct"' in status
    assert t("path_direct", lang) in status and 'class="signal"' not in status
    table.peer_event("path", other, "turn")
    assert t("path_turn", lang) in _status(table) and 'data-path="turn"' in _status(table)
    table.peer_event("rejected", "", "3")
    assert table.rejected == 3 and 'data-rejected="3"' in _status(table)
    table.peer_event("path", other, "")
    assert 'data-path=""' in _status(table)
    if role == "host":   # a spectator's channel is not the game's path
        table.peer_event("path", "w-1", "turn")
        assert 'data-path=""' in _status(table)
        table.peer_event("path", "g1", "direct")
        assert 'data-path="direct"' in _status(table)
