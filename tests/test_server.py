"""server.py in CPython (no browser): static files of dist/ and the link-play signaling relay.

Every test starts its own server (``start_server_thread``, a few milliseconds) on a small
directory of its own, or with small ``Limits`` so each limit is reached at once.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

aiohttp = pytest.importorskip("aiohttp")
server = pytest.importorskip("server")

from aiohttp import WSMsgType  # noqa: E402

from server import RELAY, Limits  # noqa: E402

ROOM = "room-0001"
OTHER_ROOM = "room-0002"
WAIT = 3.0  # seconds any single message may take to arrive


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
        "pyscript.json": "{}",
        "notes.md": "# notes",
        "blob.bin": "??",
        "sub/index.html": "<!doctype html><title>sub</title>",
        "pyodide/pyodide.asm.wasm": "\0asm",
        "pyodide/pyodide.mjs": "export {};",
        "pyscript/core.js": "export {};",
        "wheels/pygames-0.1.0-py3-none-any.whl": "PK",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


@contextmanager
def serving(directory, log_errors=False, **limits):
    srv, url = server.start_server_thread(
        0, directory, log_errors=log_errors, limits=Limits(**limits)
    )
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


async def recv(ws) -> dict:
    msg = await ws.receive(timeout=WAIT)
    assert msg.type is WSMsgType.TEXT, (msg.type, msg.data, msg.extra)
    return json.loads(msg.data)


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


async def connect(session, url, room: str = ROOM, **kw):
    ws = await session.ws_connect(relay_url(url, room), **kw)
    welcome = await recv(ws)
    assert welcome["type"] == "welcome"
    return ws, welcome


def offer(to: str, sdp: str = "v=0") -> dict:
    return {"to": to, "data": {"kind": "offer", "sdp": sdp}}


# --------------------------------------------------------------------------- static files


@pytest.mark.parametrize(
    ("path", "mime", "cache"),
    [
        ("/pyodide/pyodide.asm.wasm", "application/wasm", "public, max-age=86400"),
        ("/pyodide/pyodide.mjs", "text/javascript", "public, max-age=86400"),
        ("/pyscript/core.js", "text/javascript", "public, max-age=86400"),
        ("/wheels/pygames-0.1.0-py3-none-any.whl", "application/zip", "public, max-age=86400"),
        ("/index.html", "text/html; charset=utf-8", "no-cache"),
        ("/app.js", "text/javascript", "no-cache"),
        ("/mod.mjs", "text/javascript", "no-cache"),
        ("/app.css", "text/css; charset=utf-8", "no-cache"),
        ("/pyscript.json", "application/json", "no-cache"),
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

            data = {"kind": "offer", "sdp": "v=0\r\n…", "extra": [1, {"x": None}]}
            await b.send_json({"to": wa["id"], "data": data})
            assert await recv(a) == {"type": "signal", "from": wb["id"], "data": data}
            for kind in ("hello", "answer", "candidate", "bye"):
                await a.send_json({"to": wc["id"], "data": {"kind": kind}})
                assert await recv(c) == {
                    "type": "signal",
                    "from": wa["id"],
                    "data": {"kind": kind},
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
            await b.send_json(offer(wa["id"]))
            assert (await recv(b))["code"] == "no_such_peer"
            await nothing_more(a)
            await a.close()
            await b.close()

    with serving(site) as (_srv, url):
        run(scenario(url))


BAD_FRAMES = [
    ("this is not json", "not_json"),
    ('{"to": "x", "data": {"kind": "offer", "n": NaN}}', "not_json"),
    ("[" * 5000 + "]" * 5000, "not_json"),
    ("[1, 2]", "malformed"),
    ('"offer"', "malformed"),
    ('{"data": {"kind": "offer"}}', "malformed"),
    ('{"to": 7, "data": {"kind": "offer"}}', "malformed"),
    ('{"to": "@A", "data": "offer"}', "malformed"),
    ('{"to": "@A"}', "malformed"),
    ('{"to": "@A", "data": {"kind": "move", "action": "CB"}}', "not_signaling"),
    ('{"to": "@A", "data": {}}', "not_signaling"),
    ('{"to": "@A", "data": {"kind": ["offer"]}}', "not_signaling"),
    ('{"to": "nobody-here", "data": {"kind": "offer"}}', "no_such_peer"),
    ('{"to": "@B", "data": {"kind": "offer"}}', "no_such_peer"),  # to oneself
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
                await b.send_json(offer(wa["id"], "still here"))
                assert await recv(a) == {
                    "type": "signal",
                    "from": wb["id"],
                    "data": {"kind": "offer", "sdp": "still here"},
                }
            await nothing_more(a)
            await a.close()
            await b.close()

    with serving(site, rate=1000) as (_srv, url):
        run(scenario(url))


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
    )


def test_max_message_counts_bytes_then_closes_1009(site):
    async def scenario(url):
        async with aiohttp.ClientSession() as s:
            a, wa = await connect(s, url)
            b, wb = await connect(s, url)
            await recv(a)
            exact = json.dumps({"to": wa["id"], "data": {"kind": "offer", "pad": ""}})
            exact = exact[:-3] + "x" * (200 - len(exact)) + '"}}'
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
                await b.send_json(offer(wa["id"], str(i)))
            for i in range(3):
                assert (await recv(a))["data"]["sdp"] == str(i)
            for _ in range(3):  # messages 4 to 6: dropped, each with an error
                await b.send_json(offer(wa["id"], "dropped"))
                assert (await recv(b))["code"] == "rate"
            await b.send_json(offer(wa["id"], "seventh"))  # over twice the rate
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
            await b.send_json(offer(wa["id"], "1"))
            await b.send_json(offer(wa["id"], "2"))
            await b.send_json(offer(wa["id"], "3"))
            assert (await recv(b))["code"] == "rate"
            await asyncio.sleep(0.45)
            await b.send_json(offer(wa["id"], "4"))
            got = [(await recv(a))["data"]["sdp"] for _ in range(3)]
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

            async def talk():  # b sends every 0.15 s (idle is 0.4 s), and reads
                for i in range(5):
                    await asyncio.sleep(0.15)
                    await b.send_json(offer(wa["id"], str(i)))

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
            # b stayed: it saw a leave, and its later offers to a were refused, not idle.
            assert {"type": "leave", "id": wa["id"]} in to_b
            codes = {m.get("code") for m in to_b if isinstance(m, dict)}
            assert "idle" not in codes
            assert wb["id"]

    # The heartbeat pings every 0.1 s and the clients answer: pongs are not activity.
    with serving(site, idle=0.4, heartbeat=0.1) as (_srv, url):
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
