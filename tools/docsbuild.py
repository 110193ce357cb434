"""The rules pages (``dist/docs/``): one page per game in Japanese and in English, with
live boards embedded where a picture helps, and an index of them.

    from tools.docsbuild import build_docs
    build_docs(Path("dist/docs"))   # dist/docs/{ja,en}/<id>.html, index.html, docs.css

The words live in ``docs/pages/<lang>/<id>.html`` (HTML fragments, easy to edit); the
boards' records in ``docs/records.json`` (made by playing the engines:
``python -m tools.records``). In a fragment:

* ``<h1>`` is the page's heading (and its ``<title>``); a ``<p class="lead">`` its intro,
  also shown in the index; every ``<h2 id="...">`` gets an entry in the page's contents.
* ``{{board NAME "what it shows"}}`` is replaced by the live board ``NAME`` of
  records.json: an ``<iframe>`` of its board page (the quoted text is its title), and
  ``{{ply NAME}}`` by the step that board opens at. Put the board in a ``<figure>`` whose
  ``<figcaption>`` says what to look at.

Each board page (``<lang>/board-<NAME>.html``) is ``embed.html`` with the board's first
frame already in it, drawn here by the app's own renderer (``pgui``, pure Python): the
reader sees every board at once, and Python starts (one runtime shared by the page's
boards) only when a board comes into view or is touched.

Standard library only (build.py runs it with any Python 3.11+); pygames and pgui are
imported to list the games, write the records and draw the first frames.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import sys
from pathlib import Path
from typing import Any
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = DOCS / "pages"
RECORDS = DOCS / "records.json"
LANGS = ("ja", "en")
#: The way from a rules page (``<lang>/<id>.html``) to the top of the app beside it.
APP_BASE = "../../"

#: The few words of the page frame (the rest is in the fragments).
WORDS = {
    "ja": {
        "skip": "本文へ移動",
        "site": "サイト内",
        "app": "ゲーム一覧（アプリ）へ戻る",
        "index": "遊び方の一覧",
        "other": "English",
        "contents": "目次",
        "index_title": "遊び方",
        "language": "日本語",
        "index_lead": "ブラウザで遊べるゲームのルール説明です。動く盤面で手順を確かめられます。",
        "footer": "ルールは pygames のために独自の言葉でまとめたものです。"
                  "盤面はこのサイトのアプリで動いています。",
    },
    "en": {
        "skip": "Skip to the rules",
        "site": "Site",
        "app": "Back to the games (the app)",
        "index": "All rules pages",
        "other": "日本語",
        "contents": "Contents",
        "index_title": "How to play",
        "language": "English",
        "index_lead": "The rules of the games you can play in your browser, with live "
                      "boards to step through.",
        "footer": "The rules are written in our own words for pygames. The boards run on "
                  "this site's own app.",
    },
}

HEIGHT_SCRIPT = """
(function () {
  // An embedded board tells its height (embed.html); size the iframe it came from.
  addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== "pygames:height") return;
    var height = Number(data.height);
    if (!isFinite(height) || height < 80 || height > 5000) return;
    var frames = document.querySelectorAll("iframe.board");
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.ceil(height) + "px";
      }
    }
  });
})();
"""

CSS = """/* pygames rules pages: light and dark, no external resources. */
:root {
  color-scheme: light dark;
  --paper: #f7f3ea; --card: #fffdf8; --ink: #1f1d1a; --muted: #4f4a43; --line: #d9cfbd;
  --link: #1f4f8f; --accent: #8a2a22; --note: #efe6d2;
  font-family: system-ui, -apple-system, "Hiragino Sans", "Noto Sans JP", "Yu Gothic", sans-serif;
  line-height: 1.7; color: var(--ink); background: var(--paper);
}
@media (prefers-color-scheme: dark) {
  :root { --paper: #17161a; --card: #222127; --ink: #ece8e1; --muted: #bdb6ab;
    --line: #3c3a42; --link: #9cc3ff; --accent: #ffb4a8; --note: #2b2a31; }
}
* { box-sizing: border-box; }
body { margin: 0; }
a { color: var(--link); }
a:focus-visible { outline: 3px solid #e0a000; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
.skip:focus { left: 1rem; z-index: 10; }
.top { background: var(--card); border-bottom: 1px solid var(--line); }
.top nav { max-width: 52rem; margin: 0 auto; padding: .5rem 1rem; display: flex;
  flex-wrap: wrap; gap: .25rem 1.25rem; align-items: center; }
.top a { min-height: 44px; display: inline-flex; align-items: center; }
.top .lang { margin-left: auto; }
main { max-width: 52rem; margin: 0 auto; padding: 1rem 1rem 2rem; }
h1 { font-size: 1.8rem; line-height: 1.3; margin: 1rem 0 .5rem; }
h2 { font-size: 1.35rem; margin: 2.2rem 0 .5rem; padding-bottom: .2rem;
  border-bottom: 2px solid var(--line); }
h3 { font-size: 1.1rem; margin: 1.5rem 0 .3rem; }
.lead { font-size: 1.1rem; }
.toc { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: .5rem 1rem; margin: 1rem 0; }
.toc h2 { font-size: 1rem; margin: .3rem 0; border: 0; padding: 0; }
.toc ol { margin: .2rem 0 .4rem; padding-left: 1.4rem; }
table { border-collapse: collapse; margin: .75rem 0; width: 100%; background: var(--card); }
th, td { border: 1px solid var(--line); padding: .35rem .6rem; text-align: left;
  vertical-align: top; }
th { background: var(--note); }
.tip { background: var(--note); border-left: 4px solid var(--accent); padding: .5rem .9rem;
  border-radius: 0 8px 8px 0; }
figure.live { margin: 1.25rem 0; background: var(--card); border: 1px solid var(--line);
  border-radius: 10px; padding: .5rem; }
figure.live iframe { display: block; width: 100%; border: 0; border-radius: 6px; }
figure.live figcaption { padding: .5rem .4rem .2rem; }
figure.live figcaption b { color: var(--accent); }
.games { list-style: none; padding: 0; display: grid; gap: 1rem;
  grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); }
.games li { background: var(--card); border: 1px solid var(--line); border-radius: 10px;
  padding: .75rem 1rem; }
.games h3 { margin: 0 0 .3rem; }
footer { max-width: 52rem; margin: 0 auto; padding: 1rem; color: var(--muted);
  font-size: .9rem; border-top: 1px solid var(--line); }
"""

_BOARD = re.compile(r'\{\{board ([\w-]+) "([^"]+)"\}\}')
_PLY = re.compile(r"\{\{ply ([\w-]+)\}\}")
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S)
_H2 = re.compile(r'<h2 id="([\w-]+)"[^>]*>(.*?)</h2>', re.S)
_LEAD = re.compile(r'<p class="lead">(.*?)</p>', re.S)
_TAG = re.compile(r"<[^>]+>")


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _text(fragment: str) -> str:
    """Plain text of an HTML fragment (for a title)."""
    return html.unescape(_TAG.sub("", fragment)).strip()


def game_ids() -> list[str]:
    import pygames

    return list(pygames.game_ids())


def load_boards(path: Path = RECORDS) -> dict[str, dict[str, Any]]:
    return json.loads(path.read_text(encoding="utf-8"))["boards"]


def record_string(record: dict[str, Any]) -> str:
    """The record as the embed page reads it (``pygames.records.to_string``; until that
    module exists, compact JSON)."""
    try:
        from pygames import records
    except ModuleNotFoundError as e:
        if e.name not in ("pygames.records",):
            raise
        return json.dumps(record, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
    return records.to_string(record)


def embed_query(board: dict[str, Any], lang: str) -> str:
    """The embed's query for ``board`` (as ``embed.html`` reads it)."""
    params = [
        ("game", board["game"]),
        ("record", record_string(board["record"])),
        ("ply", str(board["ply"])),
        ("perspective", str(board["perspective"])),
        ("controls", "on"),
        ("moves", board.get("moves", "off")),
        ("lang", lang),
        ("theme", "auto"),
        ("interactive", "on"),  # a reader may play on from any board
    ]
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in params)


def embed_url(board: dict[str, Any], lang: str, embed_base: str) -> str:
    """The embed page's address for ``board``, relative (``embed_base`` + embed.html)."""
    return f"{embed_base}embed.html?{embed_query(board, lang)}"


def board_page_name(name: str) -> str:
    return f"board-{name}.html"


def board_url(name: str, board: dict[str, Any], lang: str) -> str:
    """The board page's address from its rules page (the same folder)."""
    return f"./{board_page_name(name)}?{embed_query(board, lang)}"


def first_frame(board: dict[str, Any], lang: str, app_base: str = APP_BASE) -> tuple[str, str]:
    """(HTML, stylesheet) of ``board`` as the embed first draws it, by the app's renderer."""
    from pgui.session_glue import Session

    r = Session().open("mode=replay&embed=on&" + embed_query(board, lang), nav_lang=lang,
                       page=f"{app_base}play.html")
    if "error" in r:
        raise ValueError(f"board {board.get('game')}: {r['error']}")
    return r["html"], r.get("css") or ""


def render_board_page(name: str, title: str, boards: dict[str, dict[str, Any]], lang: str,
                      app_base: str = APP_BASE) -> str:
    """The board page of ``name``: ``embed.html`` holding its first frame."""
    from pgui.pages import render_embed

    frame, css = first_frame(boards[name], lang, app_base)
    # The game's look from the first frame on (glue.js finds the link and adds none).
    return render_embed(prefix=app_base, frame=frame, title=f"{esc(title)} | pygames",
                        lang=lang, stylesheet=css)


def board_titles(fragment: str) -> dict[str, str]:
    """{board name: its title} of a page's fragment."""
    return {m.group(1): m.group(2) for m in _BOARD.finditer(fragment)}


def board_html(name: str, title: str, boards: dict[str, dict[str, Any]], lang: str,
               embed_base: str) -> str:
    board = boards[name]
    height = int(board.get("height", 600))
    src = (board_url(name, board, lang) if embed_base == APP_BASE
           else embed_url(board, lang, embed_base))
    return (f'<iframe class="board" id="board-{esc(name)}" '
            f'src="{esc(src)}" title="{esc(title)}" '
            f'loading="lazy" height="{height}" '
            f'style="width:100%;border:0;min-height:240px;height:{height}px"></iframe>')


def render_fragment(fragment: str, boards: dict[str, dict[str, Any]], lang: str,
                    embed_base: str) -> str:
    def board(m: re.Match[str]) -> str:
        if m.group(1) not in boards:
            raise ValueError(f"docs page names board {m.group(1)!r}, not in records.json")
        return board_html(m.group(1), m.group(2), boards, lang, embed_base)

    def ply(m: re.Match[str]) -> str:
        return str(boards[m.group(1)]["ply"])

    out = _BOARD.sub(board, fragment)
    return _PLY.sub(ply, out)


def _frame(lang: str, title: str, body: str, nav: str, css: str) -> str:
    # The app's icon, a folder above the docs' stylesheet: without one a browser asks the
    # host's root for /favicon.ico, outside the folder the app may be deployed in.
    icon = posixpath.normpath(posixpath.join(posixpath.dirname(css), "..", "favicon.svg"))
    w = WORDS[lang]
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>{esc(title)}</title>
<link rel="stylesheet" href="{css}">
<link rel="icon" href="{icon}" type="image/svg+xml">
</head>
<body>
<a class="skip" href="#main">{w["skip"]}</a>
<header class="top"><nav aria-label="{w["site"]}">{nav}</nav></header>
<main id="main">
{body}
</main>
<footer><p>{w["footer"]}</p></footer>
<script>{HEIGHT_SCRIPT}</script>
</body>
</html>
"""


def render_page(gid: str, lang: str, boards: dict[str, dict[str, Any]],
                embed_base: str = APP_BASE) -> str:
    """The rules page of game ``gid`` in ``lang`` (it lives at ``<lang>/<gid>.html``)."""
    w = WORDS[lang]
    other = "en" if lang == "ja" else "ja"
    fragment = (PAGES / lang / f"{gid}.html").read_text(encoding="utf-8")
    h1 = _H1.search(fragment)
    if not h1:
        raise ValueError(f"docs/pages/{lang}/{gid}.html has no <h1>")
    title = f"{_text(h1.group(1))} | pygames"
    body = render_fragment(fragment, boards, lang, embed_base)
    toc_items = "".join(f'<li><a href="#{esc(i)}">{t}</a></li>' for i, t in _H2.findall(body))
    toc = (f'<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title">{w["contents"]}</h2>'
           f"<ol>{toc_items}</ol></nav>") if toc_items else ""
    # The contents go right after the intro (the heading and the lead paragraph).
    lead = _LEAD.search(body)
    cut = lead.end() if lead else h1.end()
    body = body[:cut] + "\n" + toc + body[cut:]
    nav = (f'<a href="../../index.html">{w["app"]}</a>'
           f'<a href="../index.html">{w["index"]}</a>'
           f'<a class="lang" href="../{other}/{gid}.html" hreflang="{other}" lang="{other}">'
           f'{w["other"]}</a>')
    return _frame(lang, title, body, nav, "../docs.css")


def render_index(ids: list[str]) -> str:
    """The list of rules pages, in both languages (lives at ``index.html``)."""
    import pygames

    sections = []
    for lang in LANGS:
        w = WORDS[lang]
        items = []
        for gid in ids:
            fragment = (PAGES / lang / f"{gid}.html").read_text(encoding="utf-8")
            lead = _LEAD.search(fragment)
            name = pygames.get_game(gid).names[lang]
            items.append(f'<li><h3><a href="./{lang}/{gid}.html">{esc(name)}</a></h3>'
                         f'<p>{lead.group(1) if lead else ""}</p></li>')
        sections.append(f'<section lang="{lang}" aria-labelledby="idx-{lang}">'
                        f'<h2 id="idx-{lang}">{w["language"]}</h2>'
                        f'<p class="lead">{w["index_lead"]}</p>'
                        f'<ul class="games">{"".join(items)}</ul></section>')
    nav = (f'<a href="../index.html">{WORDS["ja"]["app"]}</a>'
           f'<a href="../index.html" lang="en">{WORDS["en"]["app"]}</a>')
    body = (f'<h1>{WORDS["ja"]["index_title"]} / '
            f'<span lang="en">{WORDS["en"]["index_title"]}</span></h1>\n' + "\n".join(sections))
    page = _frame("ja", "遊び方 / How to play | pygames", body, nav, "./docs.css")
    # The footer in both languages.
    return page.replace(f'<footer><p>{WORDS["ja"]["footer"]}</p></footer>',
                        f'<footer><p>{WORDS["ja"]["footer"]}</p>'
                        f'<p lang="en">{WORDS["en"]["footer"]}</p></footer>')


def _write_if_changed(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def render_all(embed_base: str = APP_BASE) -> dict[str, str]:
    """Every file of the docs, relative path -> text."""
    boards = load_boards()
    ids = game_ids()
    out = {"docs.css": CSS, "index.html": render_index(ids)}
    for lang in LANGS:
        for gid in ids:
            out[f"{lang}/{gid}.html"] = render_page(gid, lang, boards, embed_base)
            if embed_base != APP_BASE:
                continue  # boards from another app (a test's): no board pages
            fragment = (PAGES / lang / f"{gid}.html").read_text(encoding="utf-8")
            for name, title in board_titles(fragment).items():
                out[f"{lang}/{board_page_name(name)}"] = render_board_page(
                    name, title, boards, lang)
    return out


def build_docs(out_dir: Path, embed_base: str = APP_BASE) -> list[Path]:
    """Write the rules pages into ``out_dir`` (only files whose text changed are written);
    returns the path of every docs file, written or not."""
    out_dir = Path(out_dir)
    paths = []
    for rel, text in render_all(embed_base).items():
        path = out_dir / rel
        _write_if_changed(path, text)
        paths.append(path)
    return paths


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "dist" / "docs"
    for p in build_docs(target):
        print(p)
