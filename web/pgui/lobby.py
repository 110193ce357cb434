"""The lobby page, rendered at build time from the engines' registry.

It is plain HTML and CSS (usable before Python has booted), in both languages at once:
CSS shows the spans matching ``<html lang>``, which a few lines of inline script set from
the saved choice or the browser's language. While the player reads it, the browser
prefetches the Python runtime so the table opens sooner.
"""

from __future__ import annotations

from typing import Any

import pygames

from .i18n import LANGS, both, esc, t

#: Runtime files fetched in the background as soon as the lobby is shown.
PREFETCH = (
    "./pyscript/core.js",
    "./pyodide/pyodide.mjs",
    "./pyodide/pyodide.asm.mjs",
    "./pyodide/pyodide.asm.wasm",
    "./pyodide/python_stdlib.zip",
    "./pyodide/pyodide-lock.json",
)

#: A short line per game for its lobby card (our own words).
BLURBS = {
    "kiriai": {"en": "A tense samurai duel of simultaneous secret moves. 2 players, 10 min.",
               "ja": "同時に秘密の行動を決める、緊張感ある侍の決闘。2人・10分。"},
    "cardia": {"en": "Simultaneous card duels, best of three.", "ja": "同時に出し合うカード対決、3本勝負。"},
    "canosa": {"en": "Two sirens lure sailors with rings.", "ja": "2人のセイレーンが指輪で船員を誘う。"},
    "artofwar": {"en": "A compact card battle on a 2×3 field.", "ja": "2×3の戦場で戦うコンパクトなカードバトル。"},
    "electors": {"en": "Prince-electors choose the next king. 2–4 players.",
                 "ja": "選帝侯となって次の王を選ぶ。2〜4人。"},
}


def _bi(texts: dict[str, str]) -> str:
    return "".join(f'<span lang="{lang}" class="l-{lang}">{esc(texts[lang])}</span>'
                   for lang in LANGS)


def _players(game: pygames.Game) -> str:
    if game.min_players == game.max_players:
        return both("players_n", n=game.min_players)
    return both("players_range", a=game.min_players, b=game.max_players)


def _radio_group(name: str, legend: str, choices: list[tuple[Any, str]], default: Any,
                 gid: str) -> str:
    items = []
    for value, label_html in choices:
        checked = " checked" if value == default else ""
        items.append(f'<label class="choice"><input type="radio" name="{esc(name)}" '
                     f'value="{esc(value)}"{checked}> {label_html}</label>')
    return (f'<fieldset class="opt" id="{esc(gid)}-{esc(name)}"><legend>{legend}</legend>'
            f'{"".join(items)}</fieldset>')


def _game_card(game: pygames.Game) -> str:
    gid = game.id
    modes = _radio_group("mode", both("mode"), [("bot", both("mode_bot")),
                                                ("hotseat", both("mode_hotseat"))], "bot", gid)
    options = []
    for name, spec in game.option_schema.items():
        labels = game.option_labels.get(name, {})
        legend = _bi(labels["label"]) if "label" in labels else esc(name)
        choices = [(v, _bi(labels[v]) if v in labels else esc(v)) for v in spec["values"]]
        options.append(_radio_group(name, legend, choices, spec["default"], gid))
    return (
        f'<article class="game" id="game-{esc(gid)}" data-game="{esc(gid)}">'
        f'<h2>{_bi(game.names)}</h2><p class="meta">{_players(game)}</p>'
        f'<p>{_bi(BLURBS.get(gid, game.names))}</p>'
        f'<form action="./play.html" method="get" class="start">'
        f'<input type="hidden" name="game" value="{esc(gid)}">'
        f'<input type="hidden" name="lang" value="en" class="lang-field">'
        f'{modes}<details class="options"><summary>{both("options")}</summary>'
        f'{"".join(options)}</details>'
        f'<button type="submit" class="primary play">{both("play")}</button></form></article>')


def _planned_card(gid: str, names: dict[str, str]) -> str:
    return (f'<article class="game planned" data-game="{esc(gid)}" aria-disabled="true">'
            f'<h2>{_bi(names)}</h2><p>{_bi(BLURBS.get(gid, names))}</p>'
            f'<p class="soon">{both("coming_soon")}</p></article>')


BOOT_LANG = """
(function () {
  var q = new URLSearchParams(location.search).get("lang");
  var saved = null;
  try { saved = localStorage.getItem("pygames.lang"); } catch (e) {}
  var nav = (navigator.language || "en").toLowerCase();
  var lang = q || saved || (nav.indexOf("ja") === 0 ? "ja" : "en");
  if (lang !== "ja") lang = "en";
  document.documentElement.lang = lang;
})();
"""

LOBBY_SCRIPT = """
(function () {
  var root = document.documentElement;
  function apply(lang) {
    root.lang = lang;
    try { localStorage.setItem("pygames.lang", lang); } catch (e) {}
    document.querySelectorAll(".lang-field").forEach(function (f) { f.value = lang; });
  }
  apply(root.lang);
  document.getElementById("lang-toggle").addEventListener("click", function () {
    apply(root.lang === "ja" ? "en" : "ja");
  });
  root.dataset.ready = "true";
})();
"""


def render_lobby(prefetch: tuple[str, ...] = PREFETCH) -> str:
    """The complete lobby HTML document."""
    links = "".join(f'<link rel="prefetch" href="{esc(h)}">' for h in prefetch)
    games = "".join(_game_card(pygames.get_game(g)) for g in pygames.game_ids())
    planned = "".join(_planned_card(g, n) for g, n in pygames.PLANNED.items())
    toggle = "".join(f'<span lang="{lang}" class="l-{lang}">{esc(t("lang_switch", lang))}</span>'
                     for lang in LANGS)
    return f"""<!doctype html>
<html lang="en" data-ready="false">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>pygames</title>
<meta name="description" content="Board and card games in your browser, no server.">
<link rel="icon" href="./favicon.svg" type="image/svg+xml">
<link rel="manifest" href="./manifest.webmanifest">
<link rel="stylesheet" href="./app.css">
{links}
<script>{BOOT_LANG}</script>
</head>
<body class="lobby">
<header class="bar"><h1>pygames</h1>
<button type="button" id="lang-toggle" class="lang">{toggle}</button></header>
<main class="lobby-main">
<p class="tagline">{both("tagline")}</p>
<h2 class="section">{both("choose_game")}</h2>
<div class="games">{games}{planned}</div>
<p class="note">{both("offline_note")} {both("loading_hint")}</p>
</main>
<script>{LOBBY_SCRIPT}</script>
</body>
</html>
"""
