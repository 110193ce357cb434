"""Link play across the internet, proved in the NAT lab (tests/helpers/natlab.py): two
Chromiums in different home networks behind NAT routers, one of them symmetric, that reach
only a plain static server (no relay), an MQTT broker and a STUN/TURN server.

- Kiri-ai between two cone-NAT homes: signaled through the broker, connected directly,
  the guest's network cut for 15 s and restored, finished; the broker carried ciphertext
  only; forged signaling (replayed, tampered, foreign) is dropped and counted.
- Cardia across the symmetric NAT: through TURN, with a spectator (a third home) who
  reloads half way and never receives a hidden card.
- Kiri-ai across the symmetric NAT with the broker stopped: the copy-and-paste codes,
  carried by the test, connect it through TURN.

Needs root, nftables, coturn and mosquitto (``.ci/run`` installs them); skips elsewhere
with the reason. With ``PYGAMES_FIGURES=<file>`` each game appends its figures (time from
opening the link to the first state on screen, signaling bytes) to that file as JSON lines.
"""

from __future__ import annotations

import base64
import json
import os
import random
import time
from urllib.parse import parse_qs

from helpers import natlab
from helpers import signaling as signal
from helpers.browser import link_record, over
from helpers.link import finish_and_check, play, wait_peer
from helpers.spectate import check_spectator_texts

lab = natlab.fixture(lambda lab: {"relay": "./relay/", "brokers": [lab.broker_ws],
                                  "iceServers": [lab.stun, lab.turn]})

#: The homes' addresses, the routers' and the servers': none may reach the broker.
ADDRESSES = ("192.168.", "203.0.113.1", natlab.SERVER)


def figures(**row) -> None:
    """Append ``row`` to $PYGAMES_FIGURES (a JSON line), if set."""
    path = os.environ.get("PYGAMES_FIGURES")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


def _browsers(playwright, the_lab, *homes):
    return [natlab.launch(playwright, the_lab, home) for home in homes]


def _host(browser, the_lab, gid: str):
    page = browser.new_context().new_page()
    page.goto(the_lab.url + f"play.html?game={gid}&mode=link&lang=en&speed=0")
    invite = page.locator("[data-invite]").get_attribute("href")
    return page, invite


def _join(browser, invite: str):
    """The guest opens the link and presses Join: seconds until its first state shows."""
    page = browser.new_context().new_page()
    t0 = time.perf_counter()
    page.goto(invite.replace("#", "&speed=0#", 1))
    page.locator('[data-cmd="join"]').click()
    page.wait_for_selector("#app .main", timeout=60_000)
    return page, time.perf_counter() - t0


def _signal_bytes(*pages) -> int:
    return sum(p.evaluate("window.pygamesPeer.stats.signalBytesOut") for p in pages)


def _path(page) -> str:
    page.wait_for_selector(".peer-status[data-path]")
    return page.evaluate("document.documentElement.dataset.peerPath")


def test_kiriai_between_cone_homes_goes_direct_and_resumes_after_a_cut(playwright, lab):
    """Signaled through the broker (the static host has no relay), direct between the two
    cone NATs; forgeries published into the room are counted and ignored; the guest's
    network is cut for 15 s mid-game and the game goes on; the broker saw ciphertext only."""
    lab.spy()
    hb, gb = _browsers(playwright, lab, "a", "c")
    try:
        host, invite = _host(hb, lab, "kiriai")
        guest, first_state = _join(gb, invite)
        wait_peer(host, "connected")
        wait_peer(guest, "connected")
        for page in (host, guest):
            assert page.evaluate("document.documentElement.dataset.signal") == "broker"
            assert _path(page) == "direct"
        figures(game="kiriai", via="broker", path="direct", first_state_s=round(first_state, 2),
                signal_bytes=_signal_bytes(host, guest))

        topic = host.evaluate("window.pygamesPeer.topic()")
        hello = next(json.loads(p) for t, p in lab.broker_capture() if t.endswith("/all"))
        before = signal.page_stats(host)
        everyone = f"pygames/v1/{topic}/all"
        lab.publish(everyone, json.dumps(hello))                   # replayed
        lab.publish(everyone, json.dumps(signal.tampered(hello)))  # tampered
        lab.publish(everyone, json.dumps(host.evaluate(signal.FOREIGN_JS, ["p"])))  # foreign
        host.wait_for_function(
            f"window.pygamesPeer.stats.rejected >= {before['rejected'] + 2}"
            f" && window.pygamesPeer.stats.replayed >= {before['replayed'] + 1}")
        assert signal.page_stats(host)["offersMade"] == before["offersMade"]

        rng = random.Random(24)
        play(host, guest, rng, clicks=6)
        lab.cut("c")
        wait_peer(host, "reconnecting", timeout=20_000)
        host.wait_for_timeout(15_000 - 5_000)   # "reconnecting" shows after 5 s of silence
        lab.restore("c")
        wait_peer(host, "connected", timeout=60_000)
        wait_peer(guest, "connected", timeout=60_000)
        finish_and_check(host, guest, rng, "kiriai")

        payloads = [p.decode() for _, p in lab.broker_capture()]
        fragment = parse_qs(invite.partition("#")[2])
        assert {t.split("/")[2] for t, _ in lab.broker_capture()} == {topic}
        assert len(signal.envelopes(payloads)) == len(payloads) >= 4
        assert signal.sealed_problems(
            payloads, secrets=(fragment["r"][0], fragment["k"][0], *ADDRESSES)) == []
    finally:
        hb.close()
        gb.close()


def _watch(browser, url: str):
    page = browser.new_context().new_page()
    page.add_init_script("window.pygamesCapture = [];")  # peer.js keeps what came in
    page.goto(url.replace("#", "&speed=0#", 1))
    page.wait_for_selector("#app .main", timeout=60_000)
    return page


def _captured(page) -> list[str]:
    return page.evaluate("window.pygamesCapture.slice()")


def test_cardia_across_the_symmetric_nat_goes_through_turn_watched_by_two(playwright, lab):
    """Host (cone NAT) and guest (symmetric NAT) connect through TURN only; two spectators
    in a third home follow the match by the host's spectator link, one of them reloading
    half way; every message a spectator received is nobody's view of the game at that
    point and holds no hidden card."""
    hb, gb, sb = _browsers(playwright, lab, "a", "b", "c")
    try:
        host, invite = _host(hb, lab, "cardia")
        guest, first_state = _join(gb, invite)
        wait_peer(host, "connected")
        wait_peer(guest, "connected")
        assert _path(host) == _path(guest) == "turn"
        figures(game="cardia", via="broker", path="turn", first_state_s=round(first_state, 2),
                signal_bytes=_signal_bytes(host, guest))
        url = host.locator("[data-watch-link]").first.get_attribute("href")
        assert "mode=watch" in url and "&w=" in url and "&k=" not in url
        watchers = [_watch(sb, url), _watch(sb, url)]
        host.wait_for_selector('[data-watching="2"]', state="attached")
        assert host.evaluate("document.documentElement.dataset.peer") == "connected"
        rng = random.Random(26)
        play(host, guest, rng, clicks=8)
        before_reload = _captured(watchers[0])
        watchers[0].reload()
        watchers[0].wait_for_selector("#app .main", timeout=60_000)
        finish_and_check(host, guest, rng, "cardia")
        record = link_record(host)
        for page in watchers:
            page.wait_for_selector('#app[data-over="true"][data-animating="false"]',
                                   timeout=60_000)
            assert over(page)
        texts = [before_reload + _captured(watchers[0]), _captured(watchers[1])]
        for seen in texts:
            assert check_spectator_texts(record, seen) >= 2
    finally:
        for b in (hb, gb, sb):
            b.close()


def test_with_stun_only_the_symmetric_nat_gets_no_path_and_both_players_are_told(
        playwright, lab):
    """A link that brings its own ICE servers (``ice=``: STUN only, no TURN) across the
    symmetric NAT: no path exists, and within seconds both pages say so and what to try."""
    ice = base64.urlsafe_b64encode(json.dumps([lab.stun]).encode()).decode().rstrip("=")
    hb, gb = _browsers(playwright, lab, "a", "b")
    try:
        host = hb.new_context().new_page()
        host.goto(lab.url + f"play.html?game=kiriai&mode=link&lang=en&speed=0#ice={ice}")
        invite = host.locator("[data-invite]").get_attribute("href")
        assert f"ice={ice}" in invite
        guest = gb.new_context().new_page()
        guest.goto(invite.replace("#", "&speed=0#", 1))
        guest.locator('[data-cmd="join"]').click()
        for page in (host, guest):
            page.wait_for_selector("[data-nopath]", timeout=30_000)
            assert "TURN" in page.locator("[data-nopath]").text_content()
        assert "connected" not in (host.evaluate("document.documentElement.dataset.peer"),
                                   guest.evaluate("document.documentElement.dataset.peer"))
    finally:
        hb.close()
        gb.close()


def test_kiriai_across_the_symmetric_nat_by_copy_and_paste_with_the_broker_down(
        playwright, lab):
    """No broker and no relay: the host makes a connection code, the test carries it to
    the guest (behind the symmetric NAT) and the guest's answer back; they connect through
    TURN and finish the game."""
    lab.stop_broker()
    hb, gb = _browsers(playwright, lab, "a", "b")
    try:
        host, _ = _host(hb, lab, "kiriai")
        host.wait_for_function("document.documentElement.dataset.signal === 'none'",
                               timeout=30_000)
        host.locator("details.manual summary").click()
        host.locator('[data-link-cmd="offer"]').click()
        offer = host.locator("textarea[data-offer]").input_value(timeout=30_000)
        guest = gb.new_context().new_page()
        guest.goto(offer.replace("#", "&speed=0#", 1) if offer.startswith("http")
                   else lab.url + offer.removeprefix("./").replace("#", "&speed=0#", 1))
        guest.locator('[data-cmd="join"]').click()
        answer = guest.locator("textarea[data-answer]").input_value(timeout=30_000)
        host.locator("#manual-answer").fill(answer)
        host.locator('[data-link-cmd="answer"]').click()
        wait_peer(host, "connected")
        wait_peer(guest, "connected")
        assert _path(host) == _path(guest) == "turn"
        finish_and_check(host, guest, random.Random(25), "kiriai")
    finally:
        hb.close()
        gb.close()
        lab.start_broker()
