"""The HTML shells of our pages, rendered at build time.

Every page starts Python the same way, in a Web Worker (``pyworker.mjs``: our own Pyodide,
``runtime.json``, running ``worker.py``) that the main-thread glue (``glue.js``) talks to,
and shares the loading and error screens, so they are written once here:

* ``index.html`` (:func:`pgui.lobby.render_lobby`) is the lobby: plain HTML usable at
  once, which boots Python in the background and opens the chosen table in place.
* ``play.html`` (:func:`render_play`) opens the table named by its URL directly.
* ``embed.html`` (:func:`render_embed`) is a replay (:mod:`pgui.replay`) with minimal
  chrome, for iframes on other sites: its query is the replay's (``game``, ``record`` or
  ``position``, ``ply``, ``perspective``, ``controls``, ``moves``, ``lang``, ``theme``,
  ``interactive``), and it tells its parent page its height (``glue.js``). Python starts
  when the board comes into view or is touched; a board page of the rules pages
  (:func:`render_embed` with ``frame``, written by ``tools/docsbuild.py``) shows its first
  frame, drawn at build time, until then.
"""

from __future__ import annotations

from .i18n import both


def head(title: str, description: str = "", prefix: str = "./") -> str:
    """The shared ``<head>`` content: styles, boot/error glue, worker glue (``prefix``: the
    way from the page to the top of the app)."""
    meta = f'<meta name="description" content="{description}">' if description else ""
    p = prefix
    return f"""<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>{meta}
<link rel="icon" href="{p}favicon.svg" type="image/svg+xml">
<link rel="manifest" href="{p}manifest.webmanifest">
<link rel="apple-touch-icon" href="{p}icons/icon-192.png">
<meta name="theme-color" content="#1f1d1a">
<link rel="stylesheet" href="{p}app.css">
<script src="{p}boot.js"></script>
<script src="{p}peer.js" defer></script>
<script src="{p}glue.js" defer></script>
<script src="{p}offline.js" defer></script>"""


#: The load stages ``glue.js`` reports (see its ``STAGES``), each with its words.
LOAD_STAGES = ("page", "runtime", "games", "ready")


def python_shell(*, loading_hidden: bool, lobby_link: bool = True, prefix: str = "./",
                 frame: str = "", open_link: bool = False) -> str:
    """Loading screen (with progress), error screen, the table's root.

    Python itself is a worker that ``glue.js`` starts (``pyworker.mjs``): at once on a
    table's page, when the player presses Play (or the page is idle) in the lobby, when the
    board comes into view in an embed. It never blocks the page while it loads or computes.

    On a page that is only the table (``play.html``, ``embed.html``) the loading and error
    screens are each the page's ``main`` with its ``h1`` while they show; on a page of
    its own (the lobby, whose screens start hidden) they are plain boxes over it. With a
    ``frame`` (a board's first frame, drawn at build time) the table shows at once and the
    loading screen stays hidden. ``open_link``: the error screen offers the same board in
    the app itself (an embed whose browser would not start it here).
    """
    hidden = " hidden" if loading_hidden or frame else ""
    box, head = ("div", "p") if loading_hidden else ("main", "h1")
    p = prefix
    stages = "".join(
        f'<span data-stage="{name}"{"" if name == "page" else " hidden"}>'
        f'{both(f"load_stage_{name}")}</span>' for name in LOAD_STAGES)
    app = (f'<div id="app" data-static="true">{frame}</div>' if frame
           else '<div id="app" hidden></div>')
    opener = (f'<a class="button" id="load-error-open" href="{p}play.html" target="_blank" '
              f'rel="noopener">{both("open_in_app")} ↗</a>') if open_link else ""
    return f"""<{box} id="loading" class="loading"{hidden}>
  <div class="box" role="status" aria-live="polite">
    <{head} class="title">{both("loading_python")}</{head}>
    <progress id="load-progress" max="100" value="0"></progress>
    <p id="load-detail" class="muted">{stages}</p>
    {f'<p class="muted"><a href="{p}index.html">← {both("lobby")}</a></p>' if lobby_link else ""}
  </div>
</{box}>
<{box} id="load-error" class="loading error" hidden>
  <div class="box" role="alert">
    <{head} class="title" id="load-error-title">{both("load_failed")}</{head}>
    <p id="load-error-text" class="reason"></p>
    <p><button type="button" onclick="location.reload()">{both("reload")}</button>
       {f'<a class="button" href="{p}index.html">{both("back_to_lobby")}</a>' if lobby_link else ""}{opener}</p>
  </div>
</{box}>
<noscript><p class="loading">{both("no_js")}</p></noscript>
{app}"""


def render_play() -> str:
    """``play.html``: a table straight from its URL (``?game=kiriai&mode=bot...``)."""
    return f"""<!doctype html>
<html lang="en" data-ready="false">
<head>
{head("pygames")}
</head>
<body class="play">
{python_shell(loading_hidden=False)}
</body>
</html>
"""


def render_embed(prefix: str = "./", frame: str = "", title: str = "pygames",
                 lang: str = "en", stylesheet: str = "") -> str:
    """``embed.html``: a record or position on a board, for an iframe on any site (with
    ``frame``, a rules page's board: its first frame in ``lang``, shown before Python
    starts, with its game's ``stylesheet``, a path from the top of the app).

    It needs no cross-origin isolation and no storage, and fetches nothing from any host
    but its own."""
    sheet = (f'\n<link rel="stylesheet" href="{prefix}{stylesheet.removeprefix("./")}" '
             f'data-game="true">') if stylesheet else ""
    return f"""<!doctype html>
<html lang="{lang}" data-ready="false" data-page="embed">
<head>
{head(title, both_text("embed_description"), prefix)}{sheet}
</head>
<body class="embed">
{python_shell(loading_hidden=False, lobby_link=False, prefix=prefix, frame=frame,
              open_link=True)}
</body>
</html>
"""


def both_text(key: str) -> str:
    """One of our strings in English and Japanese, as plain text (a meta description)."""
    from .i18n import t

    return f"{t(key, 'en')} / {t(key, 'ja')}"
