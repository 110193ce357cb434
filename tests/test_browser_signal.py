"""Link play's signaling through a broker in Chromium on this machine (no NAT:
tests/test_browser_nat.py has those; what the relay carried: test_browser_link's flood
test): a game signaled through an MQTT broker when the relay cannot be reached, what the
broker carried (ciphertext and a topic only), and forged signaling messages (replayed,
tampered, sealed under another key) dropped and counted while the game goes on.
"""

from __future__ import annotations

import base64
import json
import random
from urllib.parse import parse_qs

import pytest
from helpers import signaling as signal
from helpers.link import PERMS, finish_and_check, wait_peer

pytestmark = pytest.mark.skipif(bool(signal.available()), reason=signal.available() or "")


#: A page with no WebCrypto, as one that is no secure context (a LAN game over plain http).
NO_WEBCRYPTO = "Object.defineProperty(Crypto.prototype, 'subtle', {get: () => undefined});"


def b64(obj) -> str:
    """A link's list parameter (``ice=``, ``b=``): base64url of its JSON."""
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).decode().rstrip("=")


def _pair(new_context, gid: str, settings: dict | None, *, block_relay: bool,
          guest_without_webcrypto: bool = False, fragment: str = ""):
    pages = []
    for who in ("host", "guest"):
        ctx = new_context(permissions=PERMS)
        if who == "guest" and guest_without_webcrypto:
            ctx.add_init_script(NO_WEBCRYPTO)
        if settings is not None:
            signal.settings_route(ctx, settings)
        if block_relay:  # as on a static host: no relay answers
            ctx.route_web_socket("**/relay/**", lambda ws: ws.close())
        pages.append(ctx.new_page())
    host, guest = pages
    host.goto(f"/play.html?game={gid}&mode=link&lang=en&speed=0" + fragment)
    invite = host.locator("[data-invite]").get_attribute("href")
    guest.goto(invite.replace("#", "&speed=0#", 1))
    guest.locator('[data-cmd="join"]').click()
    wait_peer(guest, "connected")
    wait_peer(host, "connected")
    guest.wait_for_selector("#app .main")
    fragment = parse_qs(invite.partition("#")[2])
    return host, guest, fragment["r"][0], fragment["k"][0]


def test_a_game_over_a_broker_carries_only_ciphertext_and_forgeries_are_dropped(new_context):
    """The relay is out of reach and the link names two brokers (the settings none), of
    which the first refuses: the pages go on to the second broker, say so, and play a
    whole Kiri-ai game (the guest's page has no WebCrypto, as over plain http on a LAN,
    and seals with @noble's); the broker forwarded only sealed envelopes under the room's
    topic; a replayed, a tampered and a foreign message published into the room mid-game
    are counted and change nothing."""
    with signal.Broker() as broker:
        broker.spy()
        dead = f"ws://127.0.0.1:{signal.free_port()}"
        settings = {"relay": "./relay/", "brokers": [], "iceServers": []}
        # The brokers come with the link (its own b=, passed on in the invite).
        host, guest, room, key = _pair(new_context, "kiriai", settings, block_relay=True,
                                       guest_without_webcrypto=True,
                                       fragment="#b=" + b64([dead, broker.url]))
        # The guest sealed with @noble's AES-GCM, the host with WebCrypto's: the same.
        assert guest.evaluate("window.pygamesPeer.stats.cipher") == "noble"
        assert host.evaluate("window.pygamesPeer.stats.cipher") == "webcrypto"
        for page in (host, guest):
            assert page.evaluate("document.documentElement.dataset.signal") == "broker"
            assert page.evaluate("document.documentElement.dataset.peerPath") == "direct"
        for page in (host, guest):  # both players see how they are connected
            page.wait_for_selector('.peer-status[data-path="direct"]')

        topic = host.evaluate("window.pygamesPeer.topic()")
        assert topic and topic == guest.evaluate("window.pygamesPeer.topic()")
        hello = next(json.loads(p) for t, p in broker.captured if t.endswith("/all"))
        before = signal.page_stats(host)
        everyone = f"pygames/v1/{topic}/all"
        broker.publish(everyone, json.dumps(hello))                    # replayed
        broker.publish(everyone, json.dumps(signal.tampered(hello)))   # tampered
        broker.publish(everyone, json.dumps(host.evaluate(signal.FOREIGN_JS, ["p"])))
        host.wait_for_function(
            f"window.pygamesPeer.stats.rejected >= {before['rejected'] + 2}"
            f" && window.pygamesPeer.stats.replayed >= {before['replayed'] + 1}")
        after = signal.page_stats(host)
        assert after["offersMade"] == before["offersMade"]  # no forgery made the host offer

        finish_and_check(host, guest, random.Random(3), "kiriai")
        assert {t.split("/")[2] for t, _ in broker.captured} == {topic}
        payloads = [p for _, p in broker.captured]
        assert len(signal.envelopes(payloads)) == len(payloads) >= 4
        assert signal.sealed_problems(payloads, secrets=(room, key, "127.0.0.1")) == []
