"""The HTML shells of our pages, rendered at build time.

Both pages start Python the same way, in a PyScript worker (``worker.py``, with the local
Pyodide of ``pyscript.json``) that the main-thread glue (``glue.js``) talks to, and share
the loading and error screens, so they are written once here:

* ``index.html`` (:func:`pgui.lobby.render_lobby`) is the lobby: plain HTML usable at
  once, which boots Python in the background and opens the chosen table in place.
* ``play.html`` (:func:`render_play`) opens the table named by its URL directly.
* ``embed.html`` (:func:`render_embed`) is a replay (:mod:`pgui.replay`) with minimal
  chrome, for iframes on other sites: its query is the replay's (``game``, ``record`` or
  ``position``, ``ply``, ``perspective``, ``controls``, ``moves``, ``lang``, ``theme``,
  ``interactive``), and it tells its parent page its height (``glue.js``).
"""

from __future__ import annotations

from .i18n import both


def head(title: str, description: str = "") -> str:
    """The shared ``<head>`` content: styles, boot/error glue, worker glue, PyScript."""
    meta = f'<meta name="description" content="{description}">' if description else ""
    return f"""<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>{meta}
<link rel="icon" href="./favicon.svg" type="image/svg+xml">
<link rel="manifest" href="./manifest.webmanifest">
<link rel="apple-touch-icon" href="./icons/icon-192.png">
<meta name="theme-color" content="#1f1d1a">
<link rel="stylesheet" href="./pyscript/core.css">
<link rel="stylesheet" href="./app.css">
<script src="./boot.js"></script>
<script src="./peer.js" defer></script>
<script src="./glue.js" defer></script>
<script src="./offline.js" defer></script>
<script type="module" src="./pyscript/core.js"></script>"""


#: The load stages ``glue.js`` reports (see its ``STAGES``), each with its words.
LOAD_STAGES = ("page", "runtime", "games", "ready")


def python_shell(*, loading_hidden: bool, lobby_link: bool = True) -> str:
    """Loading screen (with progress), error screen, the table's root, and Python itself.

    Python is a worker (``<script type="py" worker>``): it starts as soon as PyScript has
    read the page, and never blocks the page while it loads or computes.

    On a page that is only the table (``play.html``, ``embed.html``) the loading and error
    screens are each the page's ``main`` with its ``h1`` while they show; on a page of
    its own (the lobby, whose screens start hidden) they are plain boxes over it.
    """
    hidden = " hidden" if loading_hidden else ""
    box, head = ("div", "p") if loading_hidden else ("main", "h1")
    stages = "".join(
        f'<span data-stage="{name}"{"" if name == "page" else " hidden"}>'
        f'{both(f"load_stage_{name}")}</span>' for name in LOAD_STAGES)
    return f"""<{box} id="loading" class="loading"{hidden}>
  <div class="box" role="status" aria-live="polite">
    <{head} class="title">{both("loading_python")}</{head}>
    <progress id="load-progress" max="100" value="0"></progress>
    <p id="load-detail" class="muted">{stages}</p>
    {f'<p class="muted"><a href="./index.html">← {both("lobby")}</a></p>' if lobby_link else ""}
  </div>
</{box}>
<{box} id="load-error" class="loading error" hidden>
  <div class="box" role="alert">
    <{head} class="title" id="load-error-title">{both("load_failed")}</{head}>
    <p id="load-error-text" class="reason"></p>
    <p><button type="button" onclick="location.reload()">{both("reload")}</button>
       {f'<a class="button" href="./index.html">{both("back_to_lobby")}</a>' if lobby_link else ""}</p>
  </div>
</{box}>
<noscript><p class="loading">{both("no_js")}</p></noscript>
<div id="app" hidden></div>
<script type="py" worker src="./worker.py" config="./pyscript.json"></script>"""


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


def render_embed() -> str:
    """``embed.html``: a record or position on a board, for an iframe on any site.

    It needs no cross-origin isolation and fetches nothing from any host but its own."""
    return f"""<!doctype html>
<html lang="en" data-ready="false" data-page="embed">
<head>
{head("pygames", both_text("embed_description"))}
</head>
<body class="embed">
{python_shell(loading_hidden=False, lobby_link=False)}
</body>
</html>
"""


def both_text(key: str) -> str:
    """One of our strings in English and Japanese, as plain text (a meta description)."""
    from .i18n import t

    return f"{t(key, 'en')} / {t(key, 'ja')}"
