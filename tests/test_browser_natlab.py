"""The NAT lab itself (helpers/natlab.py), proven with a bare WebRTC page of its own
(helpers/natlab_site/index.html), independent of the app: two homes behind cone NATs connect
directly with STUN alone, a home behind the symmetric NAT does through TURN (that STUN
alone cannot connect it is proved through the app: test_browser_nat's no-path test);
homes cannot reach each other's private addresses; the lab's origin is a secure context;
the broker serves MQTT and MQTT over WebSockets, stops, starts and is spied on; a home's
network can be cut and restored; and a lab leaves nothing behind.

One lab serves the module (``natlab.fixture``); each home runs one Chromium, launched when a
test first needs it. The test carries the SDP between the pages (non-trickle).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import natlab

SITE = Path(__file__).parent / "helpers" / "natlab_site"
SUBPATH = "games/lab"  # the site is served below a path, as a deployment may be


def _settings(lab: natlab.NatLab) -> dict:
    return {"iceServers": [lab.stun, lab.turn], "broker": lab.broker_ws + "/mqtt"}


lab = natlab.fixture(_settings, dist=SITE, path=SUBPATH)


@pytest.fixture(scope="module")
def browsers(playwright, lab):
    """home -> a Chromium running in that home, launched on first use."""
    launched: dict = {}

    def get(home: str):
        if home not in launched:
            launched[home] = natlab.launch(playwright, lab, home)
        return launched[home]

    yield get
    for browser in launched.values():
        with contextlib.suppress(Exception):
            browser.close()


@pytest.fixture
def page_in(browsers, lab):
    """home -> a new page in that home's Chromium, showing the lab page; closed after the
    test."""
    contexts = []

    def open_page(home: str):
        ctx = browsers(home).new_context()
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(30_000)
        page.goto(lab.url)
        return page

    yield open_page
    for ctx in contexts:
        with contextlib.suppress(Exception):
            ctx.close()


def candidates(sdp: str) -> list[tuple[str, str]]:
    """(type, address) of each candidate line of an SDP."""
    found = re.findall(r"a=candidate:\S+ \d+ \S+ \d+ (\S+) \d+ typ (\w+)", sdp)
    return [(typ, addr) for addr, typ in found]


def connect(offerer, answerer, ice_servers: list[dict], wait_ms: int = 10_000):
    """Signal by hand; returns (offer SDP, answer SDP, opened on both sides)."""
    offer = offerer.evaluate("s => lab.offer(s)", ice_servers)
    answer = answerer.evaluate("([s, sdp]) => lab.answer(s, sdp)", [ice_servers, offer])
    offerer.evaluate("sdp => lab.accept(sdp)", answer)
    opened = offerer.evaluate("ms => lab.opened(ms)", wait_ms)
    # The answerer had as long meanwhile.
    opened = answerer.evaluate("ms => lab.opened(ms)", 2_000 if opened else 0) and opened
    return offer, answer, opened


def test_two_cone_nats_connect_directly_with_stun_alone(lab, page_in):
    a, c = page_in("a"), page_in("c")
    offer, answer, opened = connect(a, c, [lab.stun])
    assert ("srflx", lab.homes["a"].wan) in candidates(offer)
    assert ("srflx", lab.homes["c"].wan) in candidates(answer)
    assert opened, (a.evaluate("lab.state()"), c.evaluate("lab.state()"))
    for page, other in ((a, "c"), (c, "a")):
        pair = page.evaluate("lab.selected()")
        assert pair["local"]["type"] != "relay" and pair["remote"]["type"] != "relay", pair
        # Straight to the other home's router: the public address its NAT kept.
        assert pair["remote"]["address"].startswith(lab.homes[other].wan + ":"), pair
        assert page.evaluate("t => lab.roundTrip(t)", f"from {page is a and 'a' or 'c'}") < 2000
    print("a <-> c:", a.evaluate("lab.selected()"), f"(lab set up in {lab.setup_seconds:.2f} s)")


def test_a_symmetric_nat_connects_through_turn(lab, page_in):
    a, b = page_in("a"), page_in("b")
    offer, answer, opened = connect(a, b, [lab.stun, lab.turn])
    assert ("relay", natlab.SERVER) in candidates(offer)
    assert ("relay", natlab.SERVER) in candidates(answer)
    assert opened, (a.evaluate("lab.state()"), b.evaluate("lab.state()"))
    for page in (a, b):
        pair = page.evaluate("lab.selected()")
        assert "relay" in (pair["local"]["type"], pair["remote"]["type"]), pair
        assert page.evaluate("t => lab.roundTrip(t)", "via turn") < 2000
    print("a <-> b:", a.evaluate("lab.selected()"), b.evaluate("lab.selected()"))


def test_the_origin_is_secure_and_homes_are_apart(lab, page_in):
    page = page_in("a")
    assert page.evaluate("location.href") == lab.url
    assert page.evaluate("lab.secure()") == {
        "isSecureContext": True,
        "subtle": True,
        "serviceWorker": True,
        "sharedWorker": True,
    }
    # site(): the settings file is the test's, the rest is the source's.
    assert json.loads(page.evaluate("u => lab.fetchText(u)", lab.url + "peer.json")) == (
        _settings(lab)
    )
    assert (lab.root / SUBPATH / "index.html").is_symlink()

    b = lab.homes["b"]
    code = "import socket, time\ns = socket.create_server(('0.0.0.0', 9000)); time.sleep(60)"
    listener = lab.popen("b", [sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 5
        while not lab.can_connect("b", b.addr, 9000) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lab.can_connect("b", b.addr, 9000)  # the listener is there
        assert lab.can_connect("nat-b", b.addr, 9000)  # and its router reaches it
        assert not lab.can_connect("a", b.addr, 9000, timeout=0.5)  # another home does not
        assert not lab.can_connect("c", b.addr, 9000, timeout=0.5)
        assert not lab.can_connect("a", b.wan, 9000, timeout=0.5)  # nor through b's router
        assert not lab.can_connect("inet", b.addr, 9000, timeout=0.5)  # nor does the internet
        assert lab.can_connect("a", natlab.SERVER, natlab.HTTP_PORT)  # the internet: yes
        assert lab.can_connect("c", natlab.SERVER, natlab.MQTT_PORT)
    finally:
        listener.kill()
        listener.wait()


def test_the_broker_serves_mqtt_and_websockets_stops_starts_and_is_spied_on(lab, page_in):
    lab.spy()
    page = page_in("b")
    ws = lab.broker_ws + "/mqtt"
    assert page.evaluate("([u, p]) => lab.webSocket(u, p)", [ws, "mqtt"]) == "open mqtt"
    lab.publish("lab/one", b"\x00\x01binary\n", where="a")  # through a's router
    lab.stop_broker()
    assert not lab.can_connect("a", natlab.SERVER, natlab.MQTT_PORT)
    with pytest.raises(RuntimeError, match="mosquitto_pub in c"):
        lab.publish("lab/lost", "nobody hears this", where="c")
    assert page.evaluate("([u, p]) => lab.webSocket(u, p)", [ws, "mqtt"]) != "open mqtt"
    lab.start_broker()
    assert page.evaluate("([u, p]) => lab.webSocket(u, p)", [ws, "mqtt"]) == "open mqtt"
    lab.publish("lab/two", "after the restart", where="c")
    deadline = time.monotonic() + 5
    want = [("lab/one", b"\x00\x01binary\n"), ("lab/two", b"after the restart")]
    while [m for m in lab.broker_capture() if m[0].startswith("lab/")] != want:
        assert time.monotonic() < deadline, lab.broker_capture()
        time.sleep(0.05)


def test_a_cut_home_reaches_nothing_until_restored(lab, page_in):
    page = page_in("c")
    url = lab.url + "peer.json"
    assert page.evaluate("u => lab.fetchText(u)", url).startswith("{")
    lab.cut("c")
    try:
        assert page.evaluate("u => lab.fetchText(u, 1500)", url) == "error: TimeoutError"
        assert not lab.can_connect("c", natlab.SERVER, natlab.HTTP_PORT, timeout=0.5)
        assert lab.can_connect("a", natlab.SERVER, natlab.HTTP_PORT)  # only c is cut
    finally:
        lab.restore("c")
    assert page.evaluate("u => lab.fetchText(u)", url).startswith("{")


def test_a_lab_leaves_nothing_behind(playwright, tmp_path):
    if reason := natlab.available():
        pytest.skip(reason)
    root = natlab.site(SITE, tmp_path / "www", {"iceServers": []})
    with natlab.lab(root, homes={"x": "cone", "y": "symmetric"}) as lab:
        browser = natlab.launch(playwright, lab, "y")  # left open: the lab ends it
        page = browser.new_page()
        page.goto(lab.url)
        assert page.evaluate("lab.secure().isSecureContext")
        pids = lab.pids()
        assert set(pids) == {"http", "turnserver", "mosquitto"}
        lab.spy()
        pids = lab.pids()
        tmpdir, prefix = lab.tmpdir, lab.prefix
        inside = [  # Chromium (browser, renderers...) and the servers
            int(pid)
            for ns in lab.namespaces.values()
            for pid in subprocess.run(
                ["ip", "netns", "pids", ns], capture_output=True, text=True
            ).stdout.split()
        ]
        assert len(inside) > len(pids)
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        assert sum(line.startswith(prefix) for line in listed.splitlines()) == 5
    print(f"2-home lab: setup {lab.setup_seconds:.2f} s, teardown {lab.teardown_seconds:.2f} s")
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert not [line for line in listed.splitlines() if line.startswith(prefix)]
    assert not Path(tmpdir).exists()
    for name, pid in pids.items():
        assert not _alive(pid), name
    assert not [pid for pid in inside if _alive(pid)]
    # No process mentions the lab's files (configs, wrapper scripts) any more.
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit() and int(proc.name) != os.getpid():
            with contextlib.suppress(OSError):
                cmdline = (proc / "cmdline").read_bytes().decode(errors="replace")
                assert tmpdir not in cmdline and prefix not in cmdline, cmdline
    with contextlib.suppress(Exception):
        browser.close()


def _alive(pid: int) -> bool:
    """Running (a zombie is not: it waits for its parent to read its end)."""
    try:
        return ") Z " not in Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
