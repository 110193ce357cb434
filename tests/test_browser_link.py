"""Link play in real Chromium: two browser contexts (two people) over a real WebRTC data
channel, signaled through the relay of ``python build.py serve`` on 127.0.0.1.

Each side plays only by clicking its own screen. On this loopback-only machine Chromium
gathers ICE candidates only with ``--allow-loopback-in-peer-connection`` (conftest) and
camera/microphone permission granted to the context; real users need neither.
"""

from __future__ import annotations

import json
import random
from urllib.parse import parse_qsl

import pytest
from helpers import signaling
from helpers.browser import (
    LINK_NOT_PLAY,
    axe_problems,
    link_record,
    playable,
)
from helpers.link import PERMS, finish_and_check, peer_state, play, wait_peer
from helpers.lobby import choose
from helpers.spectate import check_spectator_texts
from playwright.sync_api import Page, expect

import pygames


def open_pair(new_context, gid: str, options: str = "", lang: str = "en", axe: bool = False):
    """The host opens Play a friend, the guest opens the invite and presses Join. ``axe``:
    the host's invitation (its QR code and, opened, the copy-and-paste codes), the guest's
    Join screen and both connected tables pass axe-core on the way."""
    hctx = new_context(permissions=PERMS)
    gctx = new_context(permissions=PERMS)
    host = hctx.new_page()
    host.goto(f"/play.html?game={gid}&mode=link&lang={lang}&speed=0{options}")
    invite = host.locator("[data-invite]").get_attribute("href")
    assert "#r=" in invite and "&k=" in invite
    assert peer_state(host) == "waiting"
    if axe:
        host.locator("details.manual summary").click()
        host.locator('[data-link-cmd="offer"]').click()
        host.wait_for_selector("textarea[data-offer]")
        assert axe_problems(host) == [], "the host's invitation"
    guest = gctx.new_page()
    guest_url = invite.replace("#", "&speed=0#", 1)
    guest.goto(guest_url)
    guest.wait_for_selector('[data-cmd="join"]')
    if axe:
        assert axe_problems(guest) == [], "the guest's Join screen"
    guest.locator('[data-cmd="join"]').click()
    wait_peer(guest, "connected")
    wait_peer(host, "connected")
    guest.wait_for_selector("#app .main")
    host.wait_for_selector("#app .main")
    if axe:
        for page in (host, guest):
            page.wait_for_selector("#app .main .peer-status, #app .bar .peer-status")
            page.wait_for_selector('#app[data-animating="false"]')
            assert axe_problems(page) == [], "a connected table"
    return hctx, gctx, host, guest, guest_url


def choose_kiriai(page: Page) -> None:
    """A Kiri-ai seat picks its first two cards and confirms them."""
    for _ in range(10):
        page.wait_for_selector('#app[data-animating="false"]')
        cmds, _ = playable(page.locator("#app .main button[data-cmd]:not([disabled])"),
                           LINK_NOT_PLAY)
        cmd = "confirm" if "confirm" in cmds else next(c for c in cmds if c.startswith("pick:"))
        page.locator(f'#app .main button[data-cmd="{cmd}"]').first.click()
        if cmd == "confirm":
            return
    raise AssertionError("no confirm after ten picks")


#: Options for each game's whole game by link, not their defaults, so the game proves they
#: travel to the guest (Canosa's small board keeps it short; ART OF WAR's guest gets a deck
#: that is no starter, King K-003 and twenty troops of two types; Electors' round limit of
#: 10 ends it at half its length, on a kingdom of four columns).
LINK_OPTIONS = {"cardia": "&deck=II", "canosa": "&layout=small",
                "artofwar": "&deck2=K3S10G10&capture_basis=accumulated",
                "electors": "&round_limit=10&grid_cols=4"}


@pytest.mark.parametrize("gid,options", [(g, LINK_OPTIONS.get(g, "")) for g in pygames.game_ids()])
def test_a_whole_game_by_clicking_on_both_sides(new_context, gid, options):
    """Each game by link from the invitation to a verified end and a rematch, its pages
    passing axe-core on the way (the invitation, Join, the connected tables and both
    game-over screens with their verdicts; the host plays in Japanese); a spectator follows
    by the host's spectator link and is sent nobody's view only."""
    rng = random.Random(gid)
    _, _, host, guest, _ = open_pair(new_context, gid, options, lang="ja", axe=True)
    # The guest holds no record (nor state) during play; the host's is on its page.
    assert guest.locator("[data-record]").count() == 0
    assert link_record(host)["actions"] == []
    watcher = new_context(permissions=PERMS).new_page()
    watcher.add_init_script("window.pygamesCapture = [];")  # what came over its channel
    watch = host.locator("[data-watch-link]").first.get_attribute("href")
    watcher.goto(watch.replace("#", "&speed=0#", 1))
    watcher.wait_for_selector("#app .main")
    host.wait_for_selector('[data-watching="1"]', state="attached")
    finish_and_check(host, guest, rng, gid)
    watcher.wait_for_selector('#app[data-over="true"]', timeout=30_000)
    assert check_spectator_texts(link_record(host),
                                 watcher.evaluate("window.pygamesCapture.slice()")) >= 2
    assert axe_problems(watcher) == [], "a spectator's game-over screen"
    played = link_record(host)["options"]  # the same on both sides (finish_and_check)
    for name, value in parse_qsl(options.lstrip("&")):
        assert str(played[name]) == value, name
    for page in (host, guest):
        assert axe_problems(page) == [], "the game-over screen with its verdict"
    # Rematch: the host's button; the same connection, a new deal made the same fair way.
    first = link_record(host)
    assert guest.locator('[data-cmd="rematch"]').count() == 0
    host.locator('[data-cmd="rematch"]').click()
    guest.wait_for_selector('#app[data-over="false"] .main')
    host.wait_for_selector('#app[data-over="false"] .main')
    assert link_record(host)["seed"] != first["seed"] and link_record(host)["actions"] == []
    assert peer_state(host) == peer_state(guest) == "connected"


def test_either_side_leaves_and_comes_back_and_a_third_browser_is_refused(new_context):
    """In one game: the guest closes its page and reopens the link (no Join again: this
    browser kept its seat), the host reloads its own, a third browser with the link is told
    the seat is taken; nothing played is lost and the game ends verified."""
    rng = random.Random(8)
    _, gctx, host, guest, guest_url = open_pair(new_context, "kiriai")
    # The guest chooses, then keeps a finger on its table while the host chooses: its
    # table waits to redraw, but what it must send meanwhile (its reveal) still goes.
    choose_kiriai(guest)
    guest.wait_for_selector('#app[data-animating="false"] .main')
    box = guest.locator("#app .main").bounding_box()
    assert box is not None
    guest.mouse.move(box["x"] + 2, box["y"] + 2)
    guest.mouse.down()
    choose_kiriai(host)
    host.wait_for_function("JSON.parse(document.querySelector('[data-record]').textContent)"
                           ".actions.length >= 2", timeout=10_000)
    guest.wait_for_timeout(1500)  # ticks come in while the finger is still down
    guest.mouse.up()
    guest.wait_for_selector('#app[data-animating="false"] .main')
    kept = json.loads(guest.evaluate(
        "localStorage.getItem(Object.keys(localStorage).find(k => k.endsWith('.guest')))"))
    assert kept["ply"] >= 1, "the guest kept its seat as it was before the finger went down"
    assert peer_state(host) == peer_state(guest) == "connected"
    play(host, guest, rng, clicks=8)
    before = link_record(host)
    guest.close()
    wait_peer(host, "reconnecting")
    guest = gctx.new_page()
    guest.goto(guest_url)
    wait_peer(guest, "connected")
    wait_peer(host, "connected")
    guest.wait_for_selector("#app .main")
    after = link_record(host)  # nothing lost (a move still on its way may have landed since)
    assert after["actions"][:len(before["actions"])] == before["actions"], "guest reopened"

    play(host, guest, rng, clicks=6)
    before = link_record(host)
    assert "#r=" in host.url  # the room and key stay in the host's own address
    host.reload()
    wait_peer(host, "connected")
    wait_peer(guest, "connected")
    host.wait_for_selector("#app .main")
    after = link_record(host)
    assert after["seed"] == before["seed"]
    assert after["actions"][:len(before["actions"])] == before["actions"], "host reloaded"

    other = new_context(permissions=PERMS).new_page()
    other.goto(guest_url)
    other.locator('[data-cmd="join"]').click()
    other.wait_for_selector("[data-taken]")
    assert peer_state(guest) == "connected"
    other.close()
    finish_and_check(host, guest, rng, "kiriai")


def test_copy_and_paste_connects_with_no_relay_twice_in_a_row(new_context):
    """Two copy-and-paste games one after the other in the same two browsers: each link
    carries its own room, so the second is joined afresh (not the first one reopened)."""
    hctx = new_context(permissions=PERMS)
    gctx = new_context(permissions=PERMS)
    for ctx in (hctx, gctx):  # no relay can be reached
        ctx.route_web_socket("**/relay/**", lambda ws: ws.close())
    rng = random.Random(3)
    seeds = []
    for game in (1, 2):
        host = hctx.new_page()
        host.goto("/play.html?game=kiriai&mode=link&lang=en&speed=0")
        host.locator("details.manual summary").click()
        host.locator('[data-link-cmd="offer"]').click()
        offer = host.locator("textarea[data-offer]").input_value(timeout=30_000)
        assert "#r=" in offer and "&o=" in offer and len(offer) < 3000
        guest = gctx.new_page()
        guest.goto(offer.replace("#", "&speed=0#", 1))
        guest.locator('[data-cmd="join"]').click()  # game 2 too: a new invitation
        answer = guest.locator("textarea[data-answer]").input_value(timeout=30_000)
        host.locator("#manual-answer").fill(answer)
        host.locator('[data-link-cmd="answer"]').click()
        wait_peer(host, "connected")
        wait_peer(guest, "connected")
        guest.wait_for_selector("#app .main")
        for _ in range(20):  # both choose and reveal: the first actions reach the record
            play(host, guest, rng, clicks=4)
            if len(link_record(host)["actions"]) >= 2:
                break
        assert len(link_record(host)["actions"]) >= 2
        seeds.append(link_record(host)["seed"])
        if game == 1:
            host.close()
            guest.close()
    assert seeds[0] != seeds[1]
    # The guest can keep its own part of the game as a file (for a host gone for good).
    guest.locator("details.link-about summary").click()
    with guest.expect_download() as info:
        guest.locator('[data-link-cmd="download"]').click()
    part = json.loads(open(info.value.path(), encoding="utf-8").read())
    assert part["game"] == "kiriai" and part["seat"] == 1 and part["events"]


def test_a_pasted_code_that_is_not_one_is_a_clear_message(new_context):
    host = new_context(permissions=PERMS).new_page()
    host.goto("/play.html?game=kiriai&mode=link&lang=ja")
    host.locator("details.manual summary").click()
    host.locator('[data-link-cmd="offer"]').click()
    host.locator("#manual-answer").fill("not-a-code")
    host.locator('[data-link-cmd="answer"]').click()
    host.wait_for_selector(".link-room .message[role=alert]")
    assert "コード" in host.locator(".link-room .message").text_content()
    assert peer_state(host) == "waiting"


def test_play_a_friend_from_the_lobby_with_options(new_context):
    """The lobby's card: choose Play a friend and an option, press Play; the invitation
    appears in place, its link carries the option, and the address keeps the room."""
    host = new_context(permissions=PERMS).new_page()
    host.goto("/index.html?lang=en")
    card = choose(host, "cardia", mode="link", deck="II")
    card.locator("button.play").click()
    invite = host.locator("[data-invite]").get_attribute("href")
    assert "game=cardia" in invite and "deck=II" in invite and "mode=join" in invite
    assert "play.html?" in host.url and "mode=link" in host.url
    assert host.url.split("#")[1] == invite.split("#")[1]  # the room survives a reload
    assert host.locator(".qr svg").count() == 1
    assert peer_state(host) == "waiting"


def test_a_record_that_does_not_replay_is_shown_not_verified(new_context):
    """A cheating host: its end message carries a record with an illegal last action (the
    sum is right, as a changed host app would send it). The guest's game-over screen says
    "Not verified" and why, instead of waiting on "Checking…" for good."""
    from pygames.session import pack

    rng = random.Random(11)
    _, _, host, guest, _ = open_pair(new_context, "kiriai")

    def tamper(text: str) -> str:
        msg = json.loads(text)
        if msg.get("type") == "end":
            msg["record"]["actions"][-1][1] = "no such action"
            text = pack(msg)
        return text

    host.expose_function("pygamesTamper", tamper)
    host.evaluate("""() => {
      const send = window.pygamesPeer.send;
      window.pygamesPeer.send = (sends) => {
        if (!sends.some((s) => s[1].includes('"type":"end"'))) return send(sends);
        Promise.all(sends.map((s) => window.pygamesTamper(s[1]).then((t) => [s[0], t])))
          .then(send);
      };
    }""")
    play(host, guest, rng)
    verdict = guest.locator('.verdict[data-verdict="failed"]')
    verdict.wait_for(timeout=30_000)
    assert "Not verified" in verdict.text_content()
    assert "cannot be replayed" in verdict.text_content()
    assert guest.locator('.verdict[data-verdict="pending"]').count() == 0
    assert guest.locator("[data-record-string]").count() == 0  # nothing false to share


def _flood(url: str, topic: str, total: int, at_once: int, stop) -> dict:
    """Raw relay clients (no browser, no key) that each send the host (the oldest peer of
    the welcome) two forged sealed messages, well formed but of random nonce and ciphertext,
    one as if under the players' key and one under the spectators', then leave; ``at_once``
    of them at a time. Returns how many got in and their relay ids."""
    import asyncio
    import base64
    import contextlib
    import os

    import aiohttp

    def b64url(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    counts: dict = {"clients": 0, "refused": 0, "errors": 0, "ids": set()}

    async def one(session) -> None:
        try:
            async with session.ws_connect(f"{url}/relay/{topic}") as ws:
                welcome = json.loads((await ws.receive()).data)
                if welcome.get("type") != "welcome" or not welcome["peers"]:
                    counts["refused"] += 1
                    return
                counts["clients"] += 1
                counts["ids"].add(welcome["id"])
                host = welcome["peers"][0]
                for kk in ("p", "w"):
                    forged = {
                        "kind": "sealed",
                        "k": kk,
                        "n": b64url(os.urandom(12)),
                        "c": b64url(os.urandom(random.randrange(16, 400))),
                    }
                    await ws.send_str(json.dumps({"to": host, "data": forged}))
                with contextlib.suppress(asyncio.TimeoutError):
                    while True:  # what the relay says back until we leave: no errors
                        msg = await ws.receive(timeout=0.2)
                        if msg.type is not aiohttp.WSMsgType.TEXT:
                            break
                        if json.loads(msg.data).get("type") == "error":
                            counts["errors"] += 1
        except (aiohttp.ClientError, ValueError):
            counts["refused"] += 1

    async def main() -> None:
        async with aiohttp.ClientSession() as session:
            started = 0
            while started < total and not stop.is_set():
                batch = min(at_once, total - started)
                await asyncio.gather(*(one(session) for _ in range(batch)))
                started += batch

    asyncio.run(main())
    return counts


def test_a_flood_of_hellos_neither_knocks_the_host_off_nor_stops_a_real_guest(new_context):
    """Raw clients who know the room's topic on the relay (not the key) flood the host with
    forged sealed messages while a real guest joins and plays to a verified end. The relay
    here lets one address send as much as it likes (on this machine every client is
    127.0.0.1; its per-address limits have their own tests), so all of the flood reaches
    the host: the host rejects all of it (none authenticates), makes no offer for any of it,
    and its relay connection stays open. The relay's tap shows it carried only sealed
    messages, in a room named by the topic, never the room id or the key."""
    import threading
    from urllib.parse import parse_qs

    from tools import relay as server
    from tools.paths import DIST

    tapped: list[tuple[str, str]] = []
    limits = server.Limits(client_rate=1_000_000, connections_per_client=1_000)
    app = server.make_app(DIST, limits=limits, tap=lambda room, text: tapped.append((room, text)))
    relay = server.ServerThread(app, "127.0.0.1", 0)
    relay.start()
    try:
        _flood_game(new_context, relay.url, threading, parse_qs, tapped)
    finally:
        relay.shutdown()


def _flood_game(new_context, server_url, threading, parse_qs, tapped) -> None:
    import hashlib

    hctx = new_context(permissions=PERMS)
    host = hctx.new_page()
    host.goto(server_url + "/play.html?game=kiriai&mode=link&lang=en&speed=0")
    invite = host.locator("[data-invite]").get_attribute("href")
    fragment = parse_qs(invite.partition("#")[2])
    room, key = fragment["r"][0], fragment["k"][0]
    topic = hashlib.sha256(f"pygames room|{room}".encode()).hexdigest()[:32]
    host.wait_for_function("window.pygamesPeer.stats.via === 'relay'")  # in the room
    assert host.evaluate("window.pygamesPeer.topic()") == topic
    stop = threading.Event()
    result: dict = {}
    flood = threading.Thread(
        target=lambda: result.update(_flood(server_url, topic, total=150, at_once=4, stop=stop))
    )
    flood.start()
    try:
        guest = new_context(permissions=PERMS).new_page()
        guest.goto(invite.replace("#", "&speed=0#", 1))
        guest.locator('[data-cmd="join"]').click()
        wait_peer(guest, "connected")
        wait_peer(host, "connected")
        guest.wait_for_selector("#app .main")
        flood.join(timeout=120)
    finally:
        stop.set()
        flood.join()
    assert result["clients"] >= 100, result  # the flood really reached the room
    assert result["errors"] == 0, result  # the relay forwarded every forgery
    carried = list(tapped)
    forged = [
        json.loads(text)["data"]
        for _room, text in carried
        if json.loads(text)["from"] in result["ids"]
    ]
    under = {kk: sum(1 for d in forged if d["k"] == kk) for kk in ("p", "w")}
    assert under == {"p": result["clients"], "w": result["clients"]}, (under, result)
    # Forgeries under the players' key fail to authenticate: each one is rejected. Those
    # under the spectators' key are rejected too when the host has one (else ignored).
    host.wait_for_function(f"window.pygamesPeer.stats.rejected >= {under['p']}", timeout=10_000)
    stats = host.evaluate("({...window.pygamesPeer.stats})")
    assert under["p"] <= stats["rejected"] <= under["p"] + under["w"], (stats, under)
    assert stats["offersMade"] == 1  # only the guest got an offer
    assert stats["relayOpens"] == 1 and stats["relayCloses"] == 0, stats
    print(f"flood: {result['clients']} clients, forgeries {under}, rejected {stats['rejected']}")
    # What the relay carried: sealed envelopes only, in the topic's room, no room id or key.
    assert {r for r, _text in carried} == {topic}
    assert all(json.loads(text)["data"]["kind"] == "sealed" for _r, text in carried)
    assert not [text for _r, text in carried if room in text or key in text]
    # ...and nothing a browser said in plain text: no SDP, candidate, address or message.
    sealed = [json.dumps(json.loads(text)["data"]) for _r, text in carried]
    assert signaling.sealed_problems(sealed) == []
    assert not [t for t in carried if "127.0.0.1" in t[1] or "v=0" in t[1]]
    finish_and_check(host, guest, random.Random(5), "kiriai")
    assert host.evaluate("window.pygamesPeer.stats.relayCloses") == 0


def test_a_seat_moves_to_another_browser(new_context):
    """The guest opened the invite in one browser (a chat app's, say) and goes on in
    another: its seat's link, opened there, takes the seat; the first page stops."""
    rng = random.Random(12)
    _, _, host, guest, _ = open_pair(new_context, "cardia")
    play(host, guest, rng, clicks=6)
    guest.locator("details.link-move summary").click()
    guest.locator('[data-cmd="move_seat"]').click()
    link = guest.locator("textarea[data-move]").input_value()
    assert "&t=" in link and guest.locator("details.link-move .qr svg").count() == 1
    other = new_context(permissions=PERMS).new_page()
    other.goto(link.replace("#", "&speed=0#", 1))
    other.locator('[data-cmd="join"]').click()  # "Continue"
    wait_peer(other, "connected")
    other.wait_for_selector("#app .main")
    guest.wait_for_selector("[data-taken]")
    assert "moved to another" in guest.locator("[data-taken]").text_content()
    before = len(link_record(host)["actions"])
    for _ in range(40):  # the new browser plays the seat
        play(host, other, rng, clicks=4)
        if len(link_record(host)["actions"]) >= before + 4:
            break
    assert len(link_record(host)["actions"]) >= before + 4
    assert peer_state(host) == peer_state(other) == "connected"
    guest.reload()  # the old page, reopened, does not take the seat back
    guest.wait_for_selector("[data-taken]")
    play(host, other, rng, clicks=2)
    assert peer_state(other) == "connected"


def test_a_network_that_drops_every_packet_shows_reconnecting_within_seconds(
        playwright, _browser_guard):
    """Both browsers and the server in a network namespace of the test's own; nftables
    there drops every UDP packet (the data channel's), as a dead Wi-Fi would: no error, no
    close, just silence. The pages say "reconnecting" within seconds (the session's pings
    stop coming back), long before WebRTC calls the connection failed, and "connected"
    again once packets flow, with the game going on."""
    import time

    from helpers import netlab

    if reason := netlab.available():
        pytest.skip(reason)
    with netlab.lab("drop") as lab:
        browser = netlab.launch(playwright, lab)
        try:
            hctx = browser.new_context(permissions=PERMS, base_url=lab.url)
            gctx = browser.new_context(permissions=PERMS, base_url=lab.url)
            for ctx in (hctx, gctx):
                _browser_guard.attach(ctx)
            host = hctx.new_page()
            host.goto("/play.html?game=kiriai&mode=link&lang=en&speed=0")
            invite = host.locator("[data-invite]").get_attribute("href")
            guest = gctx.new_page()
            guest.goto(invite.replace("#", "&speed=0#", 1))
            guest.locator('[data-cmd="join"]').click()
            for page in (host, guest):
                wait_peer(page, "connected")
            guest.wait_for_selector("#app .main")
            rng = random.Random(9)
            play(host, guest, rng, clicks=4)
            lab.cut_udp(silent=True)
            cut = time.monotonic()
            for page in (host, guest):
                wait_peer(page, "reconnecting", timeout=12_000)
            took = time.monotonic() - cut
            # The table says so too (Python's redraw follows the page's own status).
            expect(host.locator('.peer-status[data-status="reconnecting"]')).to_have_count(
                1, timeout=5_000)
            lab.restore_udp()
            for page in (host, guest):
                wait_peer(page, "connected", timeout=30_000)
            before = len(link_record(host)["actions"])
            for _ in range(40):
                play(host, guest, rng, clicks=4)
                if len(link_record(host)["actions"]) > before:
                    break
            assert len(link_record(host)["actions"]) > before
            print(f"reconnecting shown {took:.1f} s after the cut")
        finally:
            browser.close()
