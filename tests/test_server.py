"""tools/relay.py in CPython (no browser): static files of dist/ and the link-play signaling relay.

Every test starts its own server (``start_server_thread``, a few milliseconds; or
``make_app`` with a test-only ``client_key`` in a ``ServerThread``) on a small directory of
its own, or with small ``Limits`` so each limit is reached at once.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import http.client
import json
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

aiohttp = pytest.importorskip("aiohttp")
server = pytest.importorskip("tools.relay")

from aiohttp import WSMsgType  # noqa: E402

from tools.relay import RELAY, Limits  # noqa: E402

ROOM = "room-0001"
OTHER_ROOM = "room-0002"
WAIT = 3.0  # seconds any single message may take to arrive
NONCE = "AbCdEfGhIjKl-_09"  # the shape of a 12-byte AES-GCM nonce in base64url


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def sealed(label: str = "", k: str = "p", n: str = NONCE) -> dict:
    """A sealed envelope of the shape web/peer.js sends. The relay cannot tell ciphertext
    from any other bytes: here ``c`` is ``label`` (plus a 16-byte "tag"), so the tests can
    tell their messages apart (:func:`label_of`)."""
    return {"kind": "sealed", "k": k, "n": n, "c": b64url(label.encode() + b"\x00" * 16)}


def label_of(data: dict) -> str:
    raw = base64.urlsafe_b64decode(data["c"] + "=" * (-len(data["c"]) % 4))
    return raw[:-16].decode()


#: What web/peer.js sent before signaling was sealed: the relay carries none of it now.
PLAINTEXT = [
    {"kind": "hello", "role": "guest", "mac": "0123456789abcdef" * 4, "nonce": "n0nce.-_"},
    {"kind": "hello", "role": "host"},
    {"kind": "offer", "sdp": "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n", "mac": "0" * 64},
    {"kind": "answer", "sdp": "v=0\r\n", "mac": "0" * 64},
    {
        "kind": "candidate",
        "candidate": {
            "candidate": "candidate:1 1 udp 2122260223 192.168.1.2 54321 typ host",
            "sdpMid": "0",
            "sdpMLineIndex": 0,
            "usernameFragment": "abcd",
        },
    },
    {"kind": "bye"},
]


# --------------------------------------------------------------------------- helpers


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A served directory with one file of each kind, and a secret next to it."""
    base = tmp_path_factory.mktemp("site")
    (base / "secret.txt").write_text("SECRET outside the served directory\n")
    root = base / "dist"
    files = {
        "index.html": "<!doctype html><title>lobby</title>",
        "play.html": "<!doctype html><title>play</title>",
        "app.js": "export {};",
        "mod.mjs": "export {};",
        "app.css": "body{}",
        "runtime.json": "{}",
        "notes.md": "# notes",
        "blob.bin": "??",
        "sub/index.html": "<!doctype html><title>sub</title>",
        "pyodide/pyodide.asm.wasm": "\0asm",
        "pyodide/pyodide.mjs": "export {};",
        "py/app.zip": "PK",
        "wheels/pygames-0.1.0-py3-none-any.whl": "PK",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def by_test_header(request) -> str:
    """A client key for tests only: every test client is 127.0.0.1, this one reads a header."""
    return request.headers.get("X-Test-Client", request.remote)


def as_client(name: str) -> dict:
    return {"headers": {"X-Test-Client": name}}


@contextmanager
def serving(directory, log_errors=False, client_key=None, tap=None, **limits):
    if client_key is None and tap is None:  # as build.py starts it
        srv, url = server.start_server_thread(
            0, directory, log_errors=log_errors, limits=Limits(**limits)
        )
    else:
        app = server.make_app(
            directory,
            limits=Limits(**limits),
            log_errors=log_errors,
            client_key=client_key,
            tap=tap,
        )
        srv = server.ServerThread(app, "127.0.0.1", 0)
        srv.start()
        url = srv.url
    try:
        yield srv, url
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.fixture(scope="module")
def static_url(site):
    with serving(site) as (_srv, url):
        yield url


def raw_get(url: str, path: str, method: str = "GET"):
    """One request with ``path`` sent exactly as written (no client-side normalising)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT)
    try:
        conn.request(method, path)
        resp = conn.getresponse()
        return resp.status, dict(resp.headers), resp.read()
    finally:
        conn.close()


def run(coro):
    """Run a client scenario on a fresh event loop in a thread of its own.

    Not in this thread: after a browser test, Playwright's sync API keeps an event loop
    running here, and asyncio.run() refuses to start inside it.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(coro, 20)).result()


def relay_url(url: str, room: str = ROOM) -> str:
    return f"{url}/relay/{room}"


async def recv_text(ws) -> str:
    msg = await ws.receive(timeout=WAIT)
    assert msg.type is WSMsgType.TEXT, (msg.type, msg.data, msg.extra)
    return msg.data


async def recv(ws) -> dict:
    return json.loads(await recv_text(ws))


async def recv_close(ws) -> tuple[int, str]:
    msg = await ws.receive(timeout=WAIT)
    assert msg.type is WSMsgType.CLOSE, (msg.type, msg.data)
    return msg.data, msg.extra


async def read_all(ws) -> list:
    """Every message until the socket closes: decoded JSON, then the closing WSMessage."""
    out: list = []
    while True:
        msg = await ws.receive(timeout=WAIT)
        if msg.type is not WSMsgType.TEXT:
            out.append(msg)
            return out
        out.append(json.loads(msg.data))


async def nothing_more(ws, wait: float = 0.15) -> None:
    with pytest.raises(asyncio.TimeoutError):
        msg = await ws.receive(timeout=wait)
        pytest.fail(f"unexpected message {msg}")


async def until(condition, what: str) -> None:
    """Wait (at most WAIT s) for the relay, in the server's thread, to get where expected."""
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    pytest.fail(f"the relay never got to: {what}")


async def refused(session, url, room: str = ROOM, **kw) -> tuple[dict, tuple[int, str]]:
    """Connect to a relay that refuses: its error message and its close (code, reason)."""
    ws = await session.ws_connect(relay_url(url, room), **kw)
    error = await recv(ws)
    assert error["type"] == "error"
    return error, await recv_close(ws)


async def connect(session, url, room: str = ROOM, **kw):
    ws = await session.ws_connect(relay_url(url, room), **kw)
    welcome = await recv(ws)
    assert welcome["type"] == "welcome"
    return ws, welcome


def signal(to: str, label: str = "", k: str = "p") -> dict:
    return {"to": to, "data": sealed(label, k)}


# --------------------------------------------------------------------------- static files


@pytest.mark.parametrize(
    ("path", "mime", "cache"),
    [
        ("/pyodide/pyodide.asm.wasm", "application/wasm", "public, max-age=86400"),
        ("/pyodide/pyodide.mjs", "text/javascript", "public, max-age=86400"),
        ("/py/app.zip", "application/zip", "no-cache"),
        ("/wheels/pygames-0.1.0-py3-none-any.whl", "application/zip", "no-cache"),
        ("/index.html", "text/html; charset=utf-8", "no-cache"),
        ("/app.js", "text/javascript", "no-cache"),
        ("/mod.mjs", "text/javascript", "no-cache"),
        ("/app.css", "text/css; charset=utf-8", "no-cache"),
        ("/runtime.json", "application/json", "no-cache"),
        ("/notes.md", "text/plain; charset=utf-8", "no-cache"),
        ("/blob.bin", "application/octet-stream", "no-cache"),
    ],
)
def test_types_and_cache_headers(static_url, path, mime, cache):
    status, headers, _body = raw_get(static_url, path)
    assert status == 200
    assert headers["Content-Type"] == mime
    assert headers["Cache-Control"] == cache


def test_index_pages_and_directory_redirect(static_url, site):
    status, headers, body = raw_get(static_url, "/")
    assert (status, body) == (200, (site / "index.html").read_bytes())
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    status, _h, body = raw_get(static_url, "/sub/")
    assert (status, body) == (200, (site / "sub" / "index.html").read_bytes())
    status, headers, _b = raw_get(static_url, "/sub?lang=ja")
    assert (status, headers["Location"]) == (301, "/sub/?lang=ja")
    (site / "a dir é").mkdir(exist_ok=True)
    status, headers, _b = raw_get(static_url, "/a%20dir%20%C3%A9")
    assert (status, headers["Location"]) == (301, "/a%20dir%20%C3%A9/")
    status, _h, body = raw_get(static_url, "/play.html?game=kiriai&mode=bot")
    assert (status, body) == (200, (site / "play.html").read_bytes())


def test_missing_files_are_404_and_not_cached(static_url):
    for path in ("/nope.html", "/pyodide/nope.wasm", "/sub/nope/", "/relay/", "/relay/a/b"):
        status, headers, _body = raw_get(static_url, path)
        assert status == 404, path
        assert "Cache-Control" in headers


@pytest.mark.parametrize(
    "path",
    [
        "/../secret.txt",
        "/sub/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/sub/..%2f..%2fsecret.txt",
        "/..%5csecret.txt",
        "/%2e%2e%2fsecret.txt",
        "//../secret.txt",
    ],
)
def test_no_path_outside_the_directory(static_url, path):
    status, _headers, body = raw_get(static_url, path)
    assert status != 200 or b"SECRET" not in body
    assert b"SECRET" not in body


def test_head_has_headers_and_no_body(static_url, site):
    status, headers, body = raw_get(static_url, "/pyodide/pyodide.asm.wasm", method="HEAD")
    assert status == 200
    assert body == b""
    assert int(headers["Content-Length"]) == (site / "pyodide" / "pyodide.asm.wasm").stat().st_size
    assert headers["Content-Type"] == "application/wasm"
    status, _headers, body = raw_get(static_url, "/nope", method="HEAD")
    assert (status, body) == (404, b"")


def test_keep_alive_serves_several_files_on_one_connection(static_url):
    parts = urlsplit(static_url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT)
    try:
        for path in ("/index.html", "/app.js", "/nope", "/pyodide/pyodide.mjs"):
            conn.request("GET", path)
            resp = conn.getresponse()
            resp.read()
            assert resp.status in (200, 404)
            assert not resp.will_close
        assert conn.sock is not None
    finally:
        conn.close()


def test_errors_are_logged_quietly_without_room_ids(site, capsys):
    with serving(site, log_errors=True) as (_srv, url):
        raw_get(url, "/index.html")
        raw_get(url, "/missing.txt?x=1")
        raw_get(url, "/favicon.ico")
        raw_get(url, "/relay/bad.room!")
        raw_get(url, "/relay/secretroom42")  # not a WebSocket: 426

        async def foreign():
            async with aiohttp.ClientSession() as s:
                with pytest.raises(aiohttp.WSServerHandshakeError):
                    await s.ws_connect(relay_url(url, "secretroom43"), origin="http://evil.test")

        run(foreign())
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "[serve] 404 GET /missing.txt?x=1",
        "[serve] 400 GET /relay/<room>",
        "[serve] 426 GET /relay/<room>",
        "[serve] 403 GET /relay/<room>",
    ]


def test_port_in_use_is_an_error(site):
    with serving(site) as (_srv, url):
        with pytest.raises(OSError):
            server.start_server_thread(urlsplit(url).port, site)


# --------------------------------------------------------------------------- relay protocol


def test_welcome_join_signal_leave(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            assert wa["peers"] == []
            assert len(wa["id"]) == 12
            b, wb = await connect(s, url)
            assert wb["peers"] == [wa["id"]]
            assert await recv(a) == {"type": "join", "id": wb["id"]}
            c, wc = await connect(s, url)
            assert wc["peers"] == [wa["id"], wb["id"]]
            assert await recv(a) == {"type": "join", "id": wc["id"]}
            assert await recv(b) == {"type": "join", "id": wc["id"]}
            assert len({wa["id"], wb["id"], wc["id"]}) == 3

            await b.send_json(signal(wa["id"], "an offer"))
            assert await recv(a) == {"type": "signal", "from": wb["id"], "data": sealed("an offer")}
            for label, k in (("hello", "p"), ("a spectator's hello", "w"), ("answer", "p")):
                await a.send_json(signal(wc["id"], label, k))
                assert await recv(c) == {
                    "type": "signal",
                    "from": wa["id"],
                    "data": sealed(label, k),
                }
            await nothing_more(b)  # a signal goes to its target only

            await c.close()
            assert await recv(a) == {"type": "leave", "id": wc["id"]}
            assert await recv(b) == {"type": "leave", "id": wc["id"]}
            await b.close()
            assert await recv(a) == {"type": "leave", "id": wb["id"]}
            await a.close()

    with serving(site) as (srv, url):
        run(scenario(url))
        time.sleep(0.05)
        assert srv.app[RELAY].rooms == {}  # the empty room was deleted


def test_signals_stay_inside_their_room(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url, ROOM)
            b, wb = await connect(s, url, OTHER_ROOM)
            assert wb["peers"] == []  # rooms do not see each other
            await b.send_json(signal(wa["id"]))
            assert (await recv(b))["code"] == "no_such_peer"
            await nothing_more(a)
            await a.close()
            await b.close()

    with serving(site) as (_srv, url):
        run(scenario(url))


SEALED_TEXT = json.dumps(sealed("x"))
PLAIN_OFFER = json.dumps(PLAINTEXT[2])
BAD_FRAMES = [
    ("this is not json", "not_json"),
    ('{"to": "x", "data": {"kind": "sealed", "n": NaN}}', "not_json"),
    ("[" * 5000 + "]" * 5000, "not_json"),
    ("[1, 2]", "malformed"),
    ('"sealed"', "malformed"),
    ('{"data": ' + SEALED_TEXT + "}", "malformed"),
    ('{"to": 7, "data": ' + SEALED_TEXT + "}", "malformed"),
    ('{"to": "@A", "data": "sealed"}', "malformed"),
    ('{"to": "@A"}', "malformed"),
    ('{"to": "@A", "data": {"kind": "move", "action": "CB"}}', "not_signaling"),
    ('{"to": "@A", "data": {}}', "not_signaling"),
    ('{"to": "@A", "data": {"kind": ["sealed"]}}', "not_signaling"),
    ('{"to": "@A", "data": ' + PLAIN_OFFER + "}", "not_signaling"),  # as before sealing
    ('{"to": "@A", "data": {"kind": "sealed"}}', "malformed"),  # no k, n or c
    ('{"to": "nobody-here", "data": ' + SEALED_TEXT + "}", "no_such_peer"),
    ('{"to": "@B", "data": ' + SEALED_TEXT + "}", "no_such_peer"),  # to oneself
    (b"\x00binary", "malformed"),
]


def test_each_bad_message_gets_its_error_and_the_connection_stays_open(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)  # join
            for frame, code in BAD_FRAMES:
                if isinstance(frame, bytes):
                    await b.send_bytes(frame)
                else:
                    await b.send_str(frame.replace("@A", wa["id"]).replace("@B", wb["id"]))
                error = await recv(b)
                assert error["type"] == "error", frame
                assert error["code"] == code, frame
                assert isinstance(error["message"], str) and error["message"], frame
                # Still open, and nothing bad reached the other peer.
                await b.send_json(signal(wa["id"], "still here"))
                assert await recv(a) == {
                    "type": "signal",
                    "from": wb["id"],
                    "data": sealed("still here"),
                }
            await nothing_more(a)
            await a.close()
            await b.close()

    with serving(site, rate=1000) as (_srv, url):
        run(scenario(url))


def envelope(**changes) -> dict:
    """A sealed envelope with some keys changed (a value of None: the key left out)."""
    data = {**sealed("x"), **changes}
    return {key: value for key, value in data.items() if value is not None}


# With max_sealed=100 (see test_bad_payloads_are_refused_and_not_forwarded).
BAD_PAYLOADS = [
    *((data, "not_signaling") for data in PLAINTEXT),
    ({"kind": "Sealed", "k": "p", "n": NONCE, "c": "AAAA"}, "not_signaling"),
    ({"k": "p", "n": NONCE, "c": "AAAA"}, "not_signaling"),  # no kind
    (envelope(k=None), "malformed"),
    (envelope(n=None), "malformed"),
    (envelope(c=None), "malformed"),
    (envelope(to="someone"), "malformed"),  # an extra key
    (envelope(mac="0" * 64), "malformed"),
    (envelope(k="x"), "malformed"),
    (envelope(k="P"), "malformed"),
    (envelope(k="pw"), "malformed"),
    (envelope(k=""), "malformed"),
    (envelope(k=["p"]), "malformed"),
    (envelope(k=0), "malformed"),
    (envelope(n=NONCE[:-1]), "malformed"),  # 15 characters: not 12 bytes
    (envelope(n=NONCE + "A"), "malformed"),
    (envelope(n="AAAAAAAAAAAAAAA="), "malformed"),  # padded
    (envelope(n="AbCdEfGhIjKl+/09"), "malformed"),  # base64, not base64url
    (envelope(n="AbCdEfGhIjKl é09"), "malformed"),
    (envelope(n=12345678901234567890), "malformed"),
    (envelope(n=["AbCdEfGhIjKl-_09"]), "malformed"),
    (envelope(c=""), "malformed"),
    (envelope(c="QQ=="), "malformed"),  # padded
    (envelope(c="ab+/"), "malformed"),  # base64, not base64url
    (envelope(c="ab cd"), "malformed"),
    (envelope(c="AAAAA"), "malformed"),  # 5 characters: no bytes have that base64url
    (envelope(c="ééé"), "malformed"),
    (envelope(c="\ud800AAA"), "malformed"),  # not Unicode text
    (envelope(c=123), "malformed"),
    (envelope(c={"ct": "AAAA"}), "malformed"),
    (envelope(c="A" * 102), "too_big"),
    (envelope(c="A" * 104), "too_big"),
    (envelope(c="=" * 104), "malformed"),  # a bad shape is told first
]


def test_bad_payloads_are_refused_and_not_forwarded(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)  # join
            for i, (data, code) in enumerate(BAD_PAYLOADS):
                await b.send_json({"to": wa["id"], "data": data})
                error = await recv(b)
                assert (error["type"], error["code"]) == ("error", code), data
                assert error["message"], data
                # b is still open (a too_big payload, unlike a too_big frame, does not close
                # it), and the next thing a gets is this one: the bad one never reached it.
                await b.send_json(signal(wa["id"], f"good {i}"))
                assert await recv(a) == {
                    "type": "signal",
                    "from": wb["id"],
                    "data": sealed(f"good {i}"),
                }, data
            await nothing_more(a)
            await a.close()
            await b.close()

    limits = {"max_sealed": 100, "rate": 1000, "client_rate": 2000}
    with serving(site, **limits) as (_srv, url):
        run(scenario(url))


GOOD_PAYLOADS = [
    sealed("a hello"),
    sealed("a spectator's", k="w"),
    envelope(n="Az09-_" + "z" * 10),  # every kind of character
    envelope(n="________________", c="-_-_"),
    envelope(c="AA"),  # 1 byte
    envelope(c="AAA"),  # 2 bytes
    envelope(c="Az09-_" * 16 + "AAAA"),  # exactly max_sealed (100) characters
    envelope(c="B" * 99),
    envelope(c="C" * 98),
]  # and sealed messages at the default limits in test_welcome_join_signal_leave


def test_good_payloads_are_forwarded_unchanged(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)  # join
            for data in GOOD_PAYLOADS:
                await b.send_json({"to": wa["id"], "data": data})
                assert await recv(a) == {"type": "signal", "from": wb["id"], "data": data}, data
            await nothing_more(b)  # no error
            await a.close()
            await b.close()

    with serving(site, max_sealed=100) as (_srv, url):
        run(scenario(url))


def test_the_tap_sees_exactly_what_was_forwarded(site):
    """make_app(tap=...) is called with (room, text) for each frame forwarded: the very
    text its recipient got, and nothing for what was refused."""
    tapped: list[tuple[str, str]] = []

    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url, ROOM)
            b, wb = await connect(s, url, ROOM)
            c, wc = await connect(s, url, OTHER_ROOM)
            d, wd = await connect(s, url, OTHER_ROOM)
            await recv(a)  # joins
            await recv(c)
            got = []
            await b.send_json(signal(wa["id"], "one"))
            got.append((ROOM, await recv_text(a)))
            await b.send_json({"to": wa["id"], "data": PLAINTEXT[2]})  # refused
            assert (await recv(b))["code"] == "not_signaling"
            await b.send_json(signal("nobody-here", "lost"))  # refused
            assert (await recv(b))["code"] == "no_such_peer"
            await a.send_json(signal(wb["id"], "two", k="w"))
            got.append((ROOM, await recv_text(b)))
            await d.send_json(signal(wc["id"], "three"))
            got.append((OTHER_ROOM, await recv_text(c)))
            for ws in (a, b, c, d):
                await ws.close()
            return got, (wa, wb, wc, wd)

    with serving(site, tap=lambda room, text: tapped.append((room, text))) as (_srv, url):
        got, (wa, wb, _wc, wd) = run(scenario(url))
    assert tapped == got
    assert [json.loads(text) for _room, text in tapped] == [
        {"type": "signal", "from": wb["id"], "data": sealed("one")},
        {"type": "signal", "from": wa["id"], "data": sealed("two", k="w")},
        {"type": "signal", "from": wd["id"], "data": sealed("three")},
    ]


@pytest.mark.parametrize("room", ["short", "x" * 65, "bad.room!", "with%20space", "ルーム12345678"])
def test_bad_room_ids_are_refused(site, room):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            with pytest.raises(aiohttp.WSServerHandshakeError) as info:
                await s.ws_connect(relay_url(url, room))
            assert info.value.status == 400

    with serving(site) as (_srv, url):
        run(scenario(url))


def test_room_ids_at_the_length_limits_are_fine(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            for room in ("A" * 8, "a_Z-9" * 12 + "abcd"):
                ws, _welcome = await connect(s, url, room)
                await ws.close()

    with serving(site) as (_srv, url):
        run(scenario(url))


def test_a_plain_get_of_the_relay_says_it_is_a_websocket(site):
    with serving(site) as (_srv, url):
        status, headers, body = raw_get(url, f"/relay/{ROOM}")
    assert status == 426
    assert headers["Upgrade"] == "websocket"
    assert json.loads(body)["type"] == "error"


# --------------------------------------------------------------------------- limits


def test_limits_defaults():
    assert Limits() == Limits(
        max_message=16384,
        rate=60,
        rate_window=10.0,
        peers_per_room=8,
        max_rooms=1000,
        idle=600.0,
        heartbeat=30.0,
        rooms_per_client=20,
        connections_per_client=40,
        client_rate=400,
        max_sealed=12288,
    )


def test_max_message_counts_bytes_then_closes_1009(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)
            exact = json.dumps(signal(wa["id"], "x" * 40))
            exact += " " * (200 - len(exact))  # JSON may end with white space
            assert len(exact.encode()) == 200
            await b.send_str(exact)  # exactly the limit: forwarded
            assert (await recv(a))["type"] == "signal"
            # 101 characters but 202 bytes of UTF-8: too big.
            await b.send_str("é" * 101)
            error = await recv(b)
            assert error["code"] == "too_big"
            assert await recv_close(b) == (1009, "too_big")
            assert await recv(a) == {"type": "leave", "id": wb["id"]}
            await a.close()

    with serving(site, max_message=200) as (_srv, url):
        run(scenario(url))


def test_rate_drops_then_closes_1008_at_twice_the_rate(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, _wb = await connect(s, url)
            await recv(a)
            for i in range(3):
                await b.send_json(signal(wa["id"], str(i)))
            for i in range(3):
                assert label_of((await recv(a))["data"]) == str(i)
            for _ in range(3):  # messages 4 to 6: dropped, each with an error
                await b.send_json(signal(wa["id"], "dropped"))
                assert (await recv(b))["code"] == "rate"
            await b.send_json(signal(wa["id"], "seventh"))  # over twice the rate
            assert (await recv(b))["code"] == "rate"
            assert await recv_close(b) == (1008, "rate")
            assert (await recv(a))["type"] == "leave"  # none of the dropped ones came
            await a.close()

    with serving(site, rate=3, rate_window=30) as (_srv, url):
        run(scenario(url))


def test_rate_window_slides(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, _wb = await connect(s, url)
            await recv(a)
            await b.send_json(signal(wa["id"], "1"))
            await b.send_json(signal(wa["id"], "2"))
            await b.send_json(signal(wa["id"], "3"))
            assert (await recv(b))["code"] == "rate"
            await asyncio.sleep(0.45)
            await b.send_json(signal(wa["id"], "4"))
            got = [label_of((await recv(a))["data"]) for _ in range(3)]
            assert got == ["1", "2", "4"]
            await a.close()
            await b.close()

    with serving(site, rate=2, rate_window=0.4) as (_srv, url):
        run(scenario(url))


def test_peers_per_room(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)
            c = await s.ws_connect(relay_url(url))
            error = await recv(c)
            assert error["code"] == "room_full"
            assert await recv_close(c) == (1008, "room_full")
            await nothing_more(a)  # the refused one never joined
            await nothing_more(b)
            other, _ = await connect(s, url, OTHER_ROOM)  # other rooms are not affected
            await b.close()
            assert await recv(a) == {"type": "leave", "id": wb["id"]}
            d, wd = await connect(s, url)  # a place is free again
            assert wd["peers"] == [wa["id"]]
            for ws in (a, d, other):
                await ws.close()

    with serving(site, peers_per_room=2) as (_srv, url):
        run(scenario(url))


def test_max_rooms(site):
    async def scenario(url, srv):
        async with aiohttp.ClientSession() as s:
            a, _ = await connect(s, url, ROOM)
            b, _ = await connect(s, url, ROOM)  # joining an existing room is fine
            c = await s.ws_connect(relay_url(url, OTHER_ROOM))
            assert (await recv(c))["code"] == "too_many_rooms"
            assert await recv_close(c) == (1013, "too_many_rooms")
            assert list(srv.app[RELAY].rooms) == [ROOM]
            await a.close()
            await b.close()
            await asyncio.sleep(0.05)
            d, _ = await connect(s, url, OTHER_ROOM)  # the first room is gone
            await d.close()

    with serving(site, max_rooms=1) as (srv, url):
        run(scenario(url, srv))


def test_idle_connections_are_closed_1000(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)
            t0 = time.monotonic()

            async def talk():  # b signals a every 0.15 s (idle is 0.4 s) while a is open
                i = 0
                while not a.closed:
                    await asyncio.sleep(0.15)
                    await b.send_json(signal(wa["id"], str(i)))
                    i += 1

            talking = asyncio.create_task(talk())
            to_b = asyncio.create_task(read_all(b))
            to_a = await read_all(a)  # a only listens (and answers pings)
            idle_after = time.monotonic() - t0
            await talking
            await b.close()
            to_b = await to_b

            *signals, error, closed = to_a
            assert all(m["type"] == "signal" for m in signals) and signals
            assert error["code"] == "idle"
            assert (closed.type, closed.data, closed.extra) == (WSMsgType.CLOSE, 1000, "idle")
            assert 0.35 < idle_after < 2
            # What a was sent did not keep it open; b, whose offers were forwarded, stayed.
            assert {"type": "leave", "id": wa["id"]} in to_b
            codes = {m.get("code") for m in to_b if isinstance(m, dict)}
            assert "idle" not in codes
            assert wb["id"]

    # The heartbeat pings every 0.1 s and the clients answer: pongs are not activity.
    with serving(site, idle=0.4, heartbeat=0.1) as (_srv, url):
        run(scenario(url))


def test_connections_per_client_are_limited_then_released(site):
    async def scenario(url, relay):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url, ROOM)
            b, _ = await connect(s, url, OTHER_ROOM)
            error, closed = await refused(s, url, ROOM)
            assert error["code"] == "too_many_connections"
            assert "your address" in error["message"]
            assert closed == (1013, "too_many_connections")
            await nothing_more(a)  # the refused one never joined
            c, wc = await connect(s, url, ROOM, **as_client("another"))  # others still get in
            assert await recv(a) == {"type": "join", "id": wc["id"]}
            await b.close()
            await until(lambda: relay.clients["127.0.0.1"].connections == 1, "b closed")
            d, wd = await connect(s, url, ROOM)  # a place is free again
            assert wd["peers"] == [wa["id"], wc["id"]]
            for ws in (a, c, d):
                await ws.close()
        await until(lambda: not relay.clients and not relay.rooms, "everything released")

    with serving(site, client_key=by_test_header, connections_per_client=2) as (srv, url):
        run(scenario(url, srv.app[RELAY]))


def test_the_client_address_is_never_taken_from_a_header(site):
    async def scenario(url, relay):
        async with aiohttp.ClientSession() as s:
            a, _ = await connect(
                s, url, headers={"X-Test-Client": "one", "X-Forwarded-For": "10.0.0.1"}
            )
            error, closed = await refused(
                s,
                url,
                headers={"X-Test-Client": "two", "X-Forwarded-For": "10.0.0.2", "Forwarded": "x"},
            )
            assert (error["code"], closed) == (
                "too_many_connections",
                (1013, "too_many_connections"),
            )
            assert list(relay.clients) == ["127.0.0.1"]
            await a.close()

    with serving(site, connections_per_client=1) as (srv, url):  # the default client_key
        run(scenario(url, srv.app[RELAY]))


def test_one_client_cannot_take_every_room(site):
    rooms = [f"room-{i:04}" for i in range(6)]

    async def scenario(url, relay):
        async with aiohttp.ClientSession() as s:
            a0, _ = await connect(s, url, rooms[0], **as_client("a"))
            a1, _ = await connect(s, url, rooms[1], **as_client("a"))
            error, closed = await refused(s, url, rooms[2], **as_client("a"))
            assert (error["code"], closed) == ("too_many_rooms", (1013, "too_many_rooms"))
            assert "your address" in error["message"]
            a0_again, _ = await connect(s, url, rooms[0], **as_client("a"))  # joining is fine
            b2, _ = await connect(s, url, rooms[2], **as_client("b"))  # b still gets a room
            c3, _ = await connect(s, url, rooms[3], **as_client("c"))
            error, closed = await refused(s, url, rooms[4], **as_client("c"))
            assert (error["code"], closed) == ("too_many_rooms", (1013, "too_many_rooms"))
            assert "your address" not in error["message"]  # the relay's own limit, max_rooms
            assert sorted(relay.rooms) == rooms[:4]

            # A room counts for the address that created it until its last peer leaves.
            b1, _ = await connect(s, url, rooms[1], **as_client("b"))
            await c3.close()
            await a1.close()
            await until(lambda: rooms[3] not in relay.rooms, "room 3 deleted")
            await until(lambda: len(relay.rooms[rooms[1]]) == 1, "a left room 1")
            error, _closed = await refused(s, url, rooms[4], **as_client("a"))
            assert "your address" in error["message"]
            await b1.close()
            await until(lambda: rooms[1] not in relay.rooms, "room 1 deleted")
            a4, _ = await connect(s, url, rooms[4], **as_client("a"))
            for ws in (a0, a0_again, b2, a4):
                await ws.close()
        await until(lambda: not relay.clients and not relay.rooms, "everything released")

    with serving(site, client_key=by_test_header, rooms_per_client=2, max_rooms=4) as (srv, url):
        run(scenario(url, srv.app[RELAY]))


def test_client_rate_counts_every_connection_of_an_address(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url, **as_client("listener"))
            b, wb = await connect(s, url, **as_client("sender"))
            c, wc = await connect(s, url, **as_client("sender"))
            d, wd = await connect(s, url, **as_client("someone else"))
            for ws, joins in ((a, 3), (b, 2), (c, 1)):
                for _ in range(joins):
                    assert (await recv(ws))["type"] == "join"
            for i in range(3):  # b's whole rate
                await b.send_json(signal(wa["id"], f"b{i}"))
            await c.send_json(signal(wa["id"], "c0"))  # the address's 4th: still forwarded
            for _ in range(2):  # c has sent 2 and 3, under its rate, but the address is over
                await c.send_json(signal(wa["id"], "dropped"))
                error = await recv(c)
                assert error["code"] == "rate"
                assert "your address" in error["message"]
            await d.send_json(signal(wa["id"], "d0"))  # another address is not affected
            got = [(m["from"], label_of(m["data"])) for m in [await recv(a) for _ in range(5)]]
            assert got == [
                (wb["id"], "b0"),
                (wb["id"], "b1"),
                (wb["id"], "b2"),
                (wc["id"], "c0"),
                (wd["id"], "d0"),
            ]
            await nothing_more(a)
            assert not c.closed  # dropped, not closed: only a connection's own rate closes
            for ws in (a, b, c, d):
                await ws.close()

    limits = {"rate": 3, "client_rate": 4, "rate_window": 60}
    with serving(site, client_key=by_test_header, **limits) as (_srv, url):
        run(scenario(url))


def test_idle_counts_only_forwarded_signaling(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            c, wc = await connect(s, url)
            refusals = [
                "not json",
                b"\x00binary",
                json.dumps({"to": wa["id"], "data": {**sealed("x"), "why": "no"}}),
                json.dumps({"to": "nobody-here", "data": sealed("x")}),
                json.dumps({"to": wa["id"], "data": {"kind": "move"}}),
            ]

            async def keep_signaling(ws, to, times=10):  # every 0.1 s, idle is 0.5 s
                for i in range(times):
                    await asyncio.sleep(0.1)
                    await ws.send_json(signal(to, str(i)))

            async def refuse(ws, most=40):  # every 0.1 s until closed (or 4 s)
                sent = 0
                while sent < most and not ws.closed:
                    await asyncio.sleep(0.1)
                    frame = refusals[sent % len(refusals)]
                    with contextlib.suppress(ConnectionError):
                        await (ws.send_bytes if isinstance(frame, bytes) else ws.send_str)(frame)
                    sent += 1
                return sent

            refusing = asyncio.create_task(refuse(c))
            signaling = [
                asyncio.create_task(keep_signaling(a, wb["id"])),
                asyncio.create_task(keep_signaling(b, wa["id"])),
            ]
            to_a, to_b, to_c = await asyncio.gather(read_all(a), read_all(b), read_all(c))
            await asyncio.gather(*signaling)
            sent_by_c = await refusing

            # c kept sending, more often than idle, and was closed while it still did.
            *errors, idle, closed = to_c
            assert sent_by_c < 40
            assert len(errors) >= 2 and all(m["code"] != "idle" for m in errors)
            assert idle["code"] == "idle"
            assert (closed.type, closed.data, closed.extra) == (WSMsgType.CLOSE, 1000, "idle")
            # a and b, whose signals were forwarded, stayed until they stopped (1 s, twice
            # idle): each got all 10 signals of the other before its own idle close.
            for got, sender in ((to_a, wb["id"]), (to_b, wa["id"])):
                signals = [m for m in got[:-2] if m["type"] == "signal"]
                assert [m["from"] for m in signals] == [sender] * 10
                assert {"type": "leave", "id": wc["id"]} in got
                assert [m for m in got[:-2] if m["type"] == "error"] == []
                assert got[-2]["code"] == "idle"
                assert (got[-1].data, got[-1].extra) == (1000, "idle")

    with serving(site, idle=0.5) as (_srv, url):
        run(scenario(url))


def test_a_peer_is_never_closed_for_what_others_send_it(site):
    limits = {"rate": 20, "client_rate": 100, "rate_window": 60}

    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            host, wh = await connect(s, url, **as_client("host"))
            senders = [await connect(s, url, **as_client("crowd")) for _ in range(7)]
            for _ in senders:
                assert (await recv(host))["type"] == "join"
            hello = signal(wh["id"], "a hello")

            async def flood(ws):  # each its whole rate: 140 hellos, 100 from the crowd get in
                for _ in range(limits["rate"]):
                    await ws.send_json(hello)

            await asyncio.gather(*(flood(ws) for ws, _w in senders))
            signals = [await recv(host) for _ in range(limits["client_rate"])]
            assert all(m["type"] == "signal" and m["data"] == hello["data"] for m in signals)
            await nothing_more(host)
            codes = []

            async def drain(ws):
                with contextlib.suppress(asyncio.TimeoutError):
                    while True:
                        msg = await ws.receive(timeout=0.3)
                        codes.append(json.loads(msg.data).get("code"))

            await asyncio.gather(*(drain(ws) for ws, _w in senders))
            assert [c for c in codes if c is not None] == ["rate"] * (
                7 * limits["rate"] - limits["client_rate"]
            )
            # The host, sent five times its own rate, is open and may still signal.
            assert not host.closed
            first, wfirst = senders[0]
            await host.send_json(signal(wfirst["id"], "the host's hello"))
            assert await recv(first) == {
                "type": "signal",
                "from": wh["id"],
                "data": sealed("the host's hello"),
            }
            for ws in (host, *(ws for ws, _w in senders)):
                await ws.close()

    with serving(site, client_key=by_test_header, **limits) as (_srv, url):
        run(scenario(url))


# --------------------------------------------------------------------------- origin


@pytest.mark.parametrize(
    ("origin", "ok"),
    [
        (None, True),
        ("{url}", True),
        ("{url_upper}", True),
        ("http://evil.test", False),
        ("http://127.0.0.1:1", False),
        ("https://{host}", False),
        ("http://localhost:{port}", False),
        ("null", False),
        ("garbage", False),
    ],
)
def test_origin_must_be_this_server(site, origin, ok):
    async def scenario(url):
        parts = urlsplit(url)
        kw = {}
        if origin is not None:
            kw["origin"] = origin.format(
                url=url, url_upper=url.upper(), host=parts.netloc, port=parts.port
            )
        async with aiohttp.ClientSession() as s:
            if ok:
                ws, _welcome = await connect(s, url, **kw)
                await ws.close()
            else:
                with pytest.raises(aiohttp.WSServerHandshakeError) as info:
                    await s.ws_connect(relay_url(url), **kw)
                assert info.value.status == 403

    with serving(site) as (_srv, url):
        run(scenario(url))


def test_foreign_origin_gets_a_json_403(site):
    parts = None
    with serving(site) as (_srv, url):
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=WAIT)
        conn.request(
            "GET",
            f"/relay/{ROOM}",
            headers={
                "Origin": "http://evil.test",
                "Upgrade": "websocket",
                "Connection": "Upgrade",
                "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            },
        )
        resp = conn.getresponse()
        body = json.loads(resp.read())
        conn.close()
    assert resp.status == 403
    assert body["code"] == "origin"


# --------------------------------------------------------------------------- shutdown


def test_shutdown_closes_relay_connections_1001(site):
    srv, url = server.start_server_thread(0, site, log_errors=False)

    async def scenario():
        async with aiohttp.ClientSession() as s:
            a, _ = await connect(s, url)
            t0 = time.monotonic()
            stopping = asyncio.get_running_loop().run_in_executor(None, srv.shutdown)
            msg = await a.receive(timeout=WAIT)
            assert (msg.type, msg.data) == (WSMsgType.CLOSE, 1001)
            await stopping
            assert time.monotonic() - t0 < 3

    run(scenario())
    srv.server_close()  # harmless after shutdown
