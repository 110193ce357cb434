"""The pages' DOM layer: the only Python here that touches the browser.

Everything else (rules, rendering, the session) is plain Python in ``pygames`` and
``pgui``, tested in CPython. This file turns a table query (``game=kiriai&mode=bot...``)
into a :class:`pgui.table.Table`, renders it into ``#app``, routes clicks on
``[data-cmd]`` back to it, and paces reveals.

On ``play.html`` the query is the page's own. In the lobby, Python boots while the
player reads; Play hands the query over (``boot.js``) and the table opens in place.
"""

from pgui.i18n import pick_lang, t
from pgui.table import Table
from pyodide.ffi import create_proxy
from pyscript import document, window

import pygames

root = document.documentElement
app = document.getElementById("app")
table = None
timer = None


def param(params, name):
    """A query parameter as text, or None (``get`` gives JS null, not None, when absent)."""
    return str(params.get(name)) if params.has(name) else None


def query_lang(params):
    """The query's language, else the saved choice, else the browser's."""
    try:
        saved = window.localStorage.getItem("pygames.lang")
        saved = saved if isinstance(saved, str) else None
    except Exception:  # storage can be blocked; the browser language still works
        saved = None
    return pick_lang(param(params, "lang"), saved, str(window.navigator.language or "en"))


def parse_options(game, params):
    """Options from the query, matched against the game's allowed values."""
    options = {}
    for name, spec in game.option_schema.items():
        if not params.has(name):
            continue
        raw = str(params.get(name))
        matches = [v for v in spec.get("values", []) if str(v) == raw]
        if not matches:
            raise ValueError(f"option {name!r} cannot be {raw!r}")
        options[name] = matches[0]
    return options


def make_table(query):
    params = window.URLSearchParams.new(query)
    lang = query_lang(params)
    game = pygames.get_game(param(params, "game") or pygames.game_ids()[0])
    seed_text = param(params, "seed")
    seed = int(seed_text) if seed_text and seed_text.isdigit() else int(
        window.Math.random() * 2**31)
    speed_text = param(params, "speed")
    speed = int(speed_text) if speed_text and speed_text.isdigit() else 900
    return Table(game.id, mode=param(params, "mode") or "bot", seed=seed,
                 options=parse_options(game, params), lang=lang, speed=speed)


def render():
    # JS null arrives as pyodide's falsy ``jsnull``, not None: test DOM values by truth.
    focused = document.activeElement
    focus_cmd = str(focused.getAttribute("data-cmd") or "") if focused else ""
    app.innerHTML = table.html()
    app.dataset.animating = "true" if table.animating else "false"
    app.dataset.over = "true" if table.over else "false"
    root.lang = table.lang
    document.title = f"{table.title()} — pygames"
    log = app.querySelector(".log-lines")
    if log:  # keep the newest line in view
        log.scrollTop = log.scrollHeight
    target = app.querySelector(".overlay [autofocus]")
    if not target and focus_cmd:
        for el in app.querySelectorAll("[data-cmd]"):
            if el.getAttribute("data-cmd") == focus_cmd and not el.disabled:
                target = el
                break
        if not target:
            target = app.querySelector(
                ".controls button:not([disabled]), .hand button:not([disabled])")
    if target:
        target.focus()


def schedule():
    global timer
    if timer is not None:
        window.clearTimeout(timer)
        timer = None
    if table.animating:
        timer = window.setTimeout(tick_proxy, table.delay())


def tick(*_):
    global timer
    timer = None
    table.advance()
    render()
    schedule()


def on_click(event):
    el = event.target.closest("[data-cmd]")
    if not el or el.disabled or table is None:
        return
    cmd = str(el.getAttribute("data-cmd"))
    table.command(cmd)
    if cmd.startswith("lang:"):
        try:
            window.localStorage.setItem("pygames.lang", table.lang)
        except Exception:
            pass
    render()
    schedule()


def open_table(query, *_):
    """Start the table a query names and show it (a bad query gets a readable error)."""
    global table
    query = str(query).lstrip("?")
    try:
        table = make_table(query)
    except (ValueError, KeyError) as exc:
        lang = query_lang(window.URLSearchParams.new(query))
        detail = str(exc).strip("'\"")  # KeyError quotes its message
        window.pygamesFail(f"{t('bad_link', lang)}\n({detail})")
        return
    render()
    schedule()
    lobby = document.getElementById("lobby")
    if lobby:  # opened in place from the lobby: the address becomes the table's own
        lobby.hidden = True
        window.history.pushState(None, "", f"./play.html?{query}")
    document.getElementById("loading").hidden = True
    app.hidden = False
    root.dataset.table = "open"
    root.dataset.ready = "true"


tick_proxy = create_proxy(tick)
app.addEventListener("click", create_proxy(on_click))
if document.getElementById("lobby"):
    window.pygamesOpen = create_proxy(open_table)
    if window.pygamesPending:  # Play was pressed while Python was still booting
        open_table(window.pygamesPending)
else:
    open_table(window.location.search)
