"""The Python side of every page: runs in the Python worker, never touches the page.

``pyworker.mjs`` (a Web Worker: dedicated for a page, shared by the boards of one page)
starts Pyodide (``pyboot.mjs``), runs this file and hands each page's calls to
:func:`call`. The engines and the table (``pygames``, ``pgui``) live here, so the page's
main thread never waits for Python; ``glue.js`` draws the HTML the calls return. Each
page connected to the worker (a client) has a table of its own: a :class:`Session`.

Modules the build marks lazy (a game's own UI, the QR-code wheel: ``runtime.json``'s
``lazy``) are fetched when first imported, by :class:`LazyImporter`: a table loads only its
own game's UI and, outside link play, no QR code.

Every call returns a JSON text: see :class:`pgui.session_glue.Session`.
"""

import importlib
import io
import json
import sys
import zipfile

HOME = "/home/pyodide"


class LazyImporter:
    """Fetches a module's archive (a zip or a wheel) the first time it is imported,
    unpacks it into the home folder (on ``sys.path``), and lets the normal import find it."""

    def __init__(self, table):
        self.table = dict(table)  # module name -> archive URL

    def find_spec(self, name, path=None, target=None):
        url = self.table.get(name)
        if url is None:
            return None
        for other in [m for m, u in self.table.items() if u == url]:
            del self.table[other]  # one archive may hold several modules
        zipfile.ZipFile(io.BytesIO(fetch_bytes(url))).extractall(HOME)
        importlib.invalidate_caches()
        return None  # the path finder now finds it


def fetch_bytes(url):
    """GET ``url`` synchronously (allowed in a worker): its bytes, or OSError."""
    from js import XMLHttpRequest

    request = XMLHttpRequest.new()
    request.open("GET", url, False)
    request.responseType = "arraybuffer"
    request.send(None)
    if request.status != 200:
        raise OSError(f"{url}: HTTP {request.status}")
    return request.response.to_bytes()


# pyboot.mjs puts the table ({module: URL}) in __main__.
sys.meta_path.insert(0, LazyImporter(getattr(sys.modules["__main__"], "_PYGAMES_LAZY", {})))

from pgui.session_glue import Session  # noqa: E402 - after the importer

sessions = {}


def _session(client):
    if client not in sessions:
        sessions[client] = Session()
    return sessions[client]


def open_table(session, query, saved_lang=None, nav_lang=None, fragment="", stored="",
               page=""):
    """Start the table ``query`` names (``saved_lang``/``nav_lang``: what the page knows;
    link play also gets the address's ``fragment``, its ``stored`` session and ``page`` URL)."""
    return session.open(str(query), saved_lang=saved_lang or None, nav_lang=nav_lang or None,
                        fragment=str(fragment or ""), stored=str(stored or ""),
                        page=str(page or ""))


def command(session, cmd):
    """A click on ``[data-cmd]``."""
    return session.command(str(cmd))


def advance(session):
    """The next step of a reveal."""
    return session.advance()


def think(session):
    """A slice of the bot's thinking (about 40 ms), between the page's other calls."""
    return session.think()


def peer(session, kind, peer_id="", text=""):
    """Link play: a data channel event or message, a connection status (peer.js)."""
    return session.peer(str(kind), str(peer_id or ""), str(text or ""))


CALLS = {f.__name__: f for f in (open_table, command, advance, think, peer)}


def call(client, name, args):
    """Page ``client``'s call of ``name`` with the JSON list ``args``: a JSON text."""
    return json.dumps(CALLS[name](_session(client), *json.loads(args)))


def forget(client):
    """Page ``client`` has gone: drop its table."""
    sessions.pop(client, None)
