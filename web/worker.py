"""The Python side of every page: runs in a PyScript worker, never touches the page.

``<script type="py" worker src="./worker.py" config="./pyscript.json">`` starts it (in
``pgui.pages.python_shell``). The engines and the table (``pygames``, ``pgui``) live
here, so the page's main thread never waits for Python; ``glue.js`` on the main thread
calls the functions exported below (``await script.xworker.sync.open_table(...)``) and
draws the HTML they return.

Every function returns a JSON text: see :class:`pgui.session_glue.Session`.
"""

import json

from polyscript import xworker

# The runtime is up and this code runs: tell the page's progress bar, then load the games.
xworker.postMessage("pygames:python")

from pgui.session_glue import Session  # noqa: E402 - after the progress message

session = Session()


def open_table(query, saved_lang=None, nav_lang=None, fragment="", stored="", page=""):
    """Start the table ``query`` names (``saved_lang``/``nav_lang``: what the page knows;
    link play also gets the address's ``fragment``, its ``stored`` session and ``page`` URL)."""
    return json.dumps(session.open(str(query), saved_lang=saved_lang or None,
                                   nav_lang=nav_lang or None, fragment=str(fragment or ""),
                                   stored=str(stored or ""), page=str(page or "")))


def command(cmd):
    """A click on ``[data-cmd]``."""
    return json.dumps(session.command(str(cmd)))


def advance():
    """The next step of a reveal."""
    return json.dumps(session.advance())


def think():
    """A slice of the bot's thinking (about 40 ms), between the page's other calls."""
    return json.dumps(session.think())


def peer(kind, peer_id="", text=""):
    """Link play: a data channel event or message, a connection status (peer.js)."""
    return json.dumps(session.peer(str(kind), str(peer_id or ""), str(text or "")))


def mac(text):
    """Link play: the HMAC of an offer's or answer's SDP under the link's key."""
    return json.dumps(session.mac(str(text)))


__export__ = ["open_table", "command", "advance", "think", "peer", "mac"]
