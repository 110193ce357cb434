"""Saving and sharing a game: its record as a file and as text, a link, an embed snippet.

Every table offers this panel (:func:`share_panel`) once its record may be seen: when the
game is over, or at once for a game with nothing hidden, and always in a replay. A record
holds the deal, so during a game with hidden cards it would tell what the table must not.

* **Save**: the score sheet as a file (an ``<a download>`` of a ``data:`` URL: no script),
  and the compact record string to copy.
* **Copy link**: the full app's replay of this game (``play.html?mode=replay&record=...``).
* **Copy embed code**: an iframe of ``embed.html`` with the same record, ply and
  perspective, and the few lines of script that let it set its own height; previewed in
  the panel (the preview loads only when opened).
* **Open a record**: paste a record string or score sheet, or pick a file (the page's
  only script here reads the file into the box), and open it in the replay viewer.

>>> import pygames
>>> s = pygames.get_game("canosa").new_game(seed=1)
>>> s.apply(0, "e3-d3")
>>> html = share_panel(s.record(), "en", base="https://x.example/games/", ply=1)
>>> "embed.html?game=canosa" in html and 'download="canosa-' in html
True
"""

from __future__ import annotations

from typing import Any

from pygames import records

from .i18n import esc, register, t

STRINGS: dict[str, dict[str, str]] = {
    "share.title": {"en": "Save and share this game", "ja": "この対局を保存・共有"},
    "share.download": {"en": "Download the score sheet", "ja": "記録ファイルを保存"},
    "share.record": {"en": "Record (paste it anywhere to open this game again)",
                     "ja": "記録の文字列（貼っておけば、あとでこの対局を開き直せます）"},
    "share.copy": {"en": "Copy", "ja": "コピー"},
    "share.copied": {"en": "Copied.", "ja": "コピーしました。"},
    "share.copy_failed": {"en": "Could not copy: select the text and copy it yourself.",
                          "ja": "コピーできませんでした。テキストを選択して手動でコピーしてください。"},
    "share.link": {"en": "Link to this replay", "ja": "このリプレイへのリンク"},
    "share.copy_link": {"en": "Copy link", "ja": "リンクをコピー"},
    "share.embed": {"en": "Embed code (paste it into a blog or web page)",
                    "ja": "埋め込みコード（ブログやウェブページに貼り付けてください）"},
    "share.copy_embed": {"en": "Copy embed code", "ja": "埋め込みコードをコピー"},
    "share.preview": {"en": "Preview the embedded board", "ja": "埋め込んだときの表示を確認"},
    "share.replay": {"en": "Replay this game", "ja": "この対局をリプレイ"},
    "share.open": {"en": "Open a record", "ja": "記録を開く"},
    "share.open_text": {"en": "Record string or score sheet", "ja": "記録の文字列（または記録ファイルの中身）"},
    "share.open_file": {"en": "…or a score sheet file", "ja": "…または記録ファイルを選ぶ"},
    "share.open_button": {"en": "Open in the replay viewer", "ja": "リプレイで開く"},
    "share.embed_title": {"en": "{game}: a game you can step through",
                          "ja": "{game}：1手ずつ見られる記録"},
}
register(STRINGS)

#: The parent page's part of an embed: it sets each pygames iframe to the height its page
#: reports (``{type: "pygames:height", height}``). Without it the iframe keeps its height.
PARENT_SCRIPT = ('<script>addEventListener("message",function(e){'
                 'if(!e.data||e.data.type!=="pygames:height")return;'
                 'document.querySelectorAll("iframe").forEach(function(f){'
                 'if(f.contentWindow===e.source)f.style.height=e.data.height+"px";});});'
                 '</script>')

_STRING_CACHE: dict[str, str] = {}


def record_string(record: dict[str, Any]) -> str:
    """:func:`pygames.records.to_string`, remembered (it replays the record to check it)."""
    key = repr(record)
    if key not in _STRING_CACHE:
        if len(_STRING_CACHE) > 8:
            _STRING_CACHE.clear()
        _STRING_CACHE[key] = records.to_string(record)
    return _STRING_CACHE[key]


def replay_params(record: dict[str, Any], *, ply: int | None = None,
                  perspective: str = "open", lang: str = "en",
                  source: dict[str, str] | None = None) -> dict[str, str]:
    """The query naming this record (or ``source``: a position) at ``ply``."""
    params = {"game": record["game"], **(source or {"record": record_string(record)})}
    if ply is not None:
        params["ply"] = str(ply)
    if _hides(record["game"]):  # a game that hides nothing looks the same to everyone
        params["perspective"] = perspective
    params["lang"] = lang
    return params


def _hides(game_id: str) -> bool:
    from . import ui_module

    return bool(getattr(ui_module(game_id), "SECRETS", True))


def embed_snippet(base: str, params: dict[str, str], title: str, height: int = 640) -> str:
    """The iframe (and its height script) a blogger pastes into a page."""
    from urllib.parse import urlencode  # not while the page starts

    src = f"{base}embed.html?{urlencode(params)}"
    return (f'<iframe src="{esc(src)}" title="{esc(title)}" loading="lazy" '
            f'style="width:100%;height:{height}px;border:0"></iframe>\n{PARENT_SCRIPT}')


def _copy_row(target: str, label: str, lang: str) -> str:
    return (f'<div class="row"><button type="button" data-copy-from="{target}">{esc(label)}</button>'
            f'<span role="status" data-copied="{esc(t("share.copied", lang))}" '
            f'data-copy-failed="{esc(t("share.copy_failed", lang))}"></span></div>')


def _save_links(record: dict[str, Any], link: str, lang: str) -> str:
    """Download the score sheet (a ``data:`` URL, no script) and replay it at ``link``."""
    from urllib.parse import quote  # not while the page starts

    name = f'{record["game"]}-{record["seed"]}-{len(record["actions"])}.txt'
    return (f'<a class="button" data-download '
            f'href="data:text/plain;charset=utf-8,{quote(records.to_sheet(record))}" '
            f'download="{esc(name)}">{esc(t("share.download", lang))}</a> '
            f'<a class="button" data-replay-link href="{esc(link)}">{esc(t("share.replay", lang))}</a>')


def share_panel(record: dict[str, Any], lang: str, *, base: str = "./",
                ply: int | None = None, perspective: str = "open",
                source: dict[str, str] | None = None, game_name: str = "",
                open_: bool = False) -> str:
    """The panel: download, record text, link, embed code with preview, open a record.

    ``base`` is the app's address (ending in ``/``) for links that leave this page."""
    from urllib.parse import urlencode  # not while the page starts

    params = replay_params(record, ply=ply, perspective=perspective, lang=lang, source=source)
    link = f"{base}play.html?{urlencode({'mode': 'replay', **params})}"
    title = t("share.embed_title", lang, game=game_name or record["game"])
    snippet = embed_snippet(base, params, title)
    preview = f"./embed.html?{urlencode(params)}"
    saving = ""
    if "position" not in params:  # a hand-set position has no record to save
        text = record_string(record)
        saving = (
            f'<p>{_save_links(record, link, lang)}</p>'
            f'<label for="share-record">{esc(t("share.record", lang))}</label>'
            f'<textarea id="share-record" readonly rows="3" data-record-string>{esc(text)}</textarea>'
            f'{_copy_row("share-record", t("share.copy", lang), lang)}')
    return (
        f'<details class="share"{" open" if open_ else ""}><summary>{esc(t("share.title", lang))}</summary>'
        f'{saving}'
        f'<label for="share-link">{esc(t("share.link", lang))}</label>'
        f'<input id="share-link" readonly value="{esc(link)}">'
        f'{_copy_row("share-link", t("share.copy_link", lang), lang)}'
        f'<label for="share-embed">{esc(t("share.embed", lang))}</label>'
        f'<textarea id="share-embed" readonly rows="5" data-embed-code>{esc(snippet)}</textarea>'
        f'{_copy_row("share-embed", t("share.copy_embed", lang), lang)}'
        f'<details class="preview" data-preview="{esc(preview)}"><summary>{esc(t("share.preview", lang))}</summary>'
        f'<div class="frame"></div></details>'
        f'{import_form(lang)}</details>')


def import_form(lang: str) -> str:
    """Open a pasted record or a file in the replay viewer (a plain GET form)."""
    return _import_form(lambda key: esc(t(key, lang)), "open-record", "h3",
                        f'<input type="hidden" name="lang" value="{esc(lang)}">')


def _import_form(words: Any, prefix: str, heading: str, extra: str = "") -> str:
    """The form, its words from ``words(key)`` (HTML), its ids starting ``prefix``."""
    cls = ' class="section"' if heading == "h2" else ""
    return (f'<form class="open-record" action="./play.html" method="get">'
            f'<{heading}{cls}>{words("share.open")}</{heading}>'
            f'<input type="hidden" name="mode" value="replay">{extra}'
            f'<label for="{prefix}-text">{words("share.open_text")}</label>'
            f'<textarea id="{prefix}-text" name="record" rows="3" required></textarea>'
            f'<label for="{prefix}-file">{words("share.open_file")}</label>'
            f'<input id="{prefix}-file" type="file" accept=".txt,text/plain" '
            f'data-file-into="{prefix}-text">'
            f'<div class="row"><button type="submit">{words("share.open_button")}</button></div>'
            f'</form>')


def over_links(record: dict[str, Any], lang: str, *, base: str = "./") -> str:
    """The game-over screen's row: download the score sheet, replay the game."""
    from urllib.parse import urlencode  # not while the page starts

    params = replay_params(record, perspective="open", lang=lang)
    link = f"{base}play.html?{urlencode({'mode': 'replay', **params})}"
    return f'<p class="over-links">{_save_links(record, link, lang)}</p>'


def import_form_both() -> str:
    """:func:`import_form` for a static page in both languages (the lobby)."""
    from .i18n import both

    return _import_form(both, "lobby-record", "h2")


def open_panel(lang: str) -> str:
    """The side panel of a table with nothing to save yet: open another record."""
    return (f'<details class="share open-only"><summary>{esc(t("share.open", lang))}</summary>'
            f'{import_form(lang)}</details>')
