"""The lobby page, rendered at build time from the engines' registry.

It is plain HTML and CSS (usable before Python has booted), in both languages at once:
CSS shows the spans matching ``<html lang>``, which ``boot.js`` sets from the URL, the
saved choice or the browser's language. While the player reads it, Python starts in a
worker in the background (``glue.js``; the page never waits for it); Play then opens the
table in this same page, without a second start.
"""

from __future__ import annotations

import json
from typing import Any

import pygames
from pygames.bots import LEVELS

from . import ui_module
from .i18n import LANGS, bilingual, both, esc, t
from .pages import head, python_shell
from .share import import_form_both


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


def _how_to_play(game: pygames.Game) -> str:
    """The card's link to the game's rules page (tools/docsbuild.py), one per language."""
    return "".join(
        f'<a lang="{lang}" class="l-{lang} how-to-play" href="./docs/{lang}/{esc(game.id)}.html" '
        f'aria-label="{esc(t("how_to_play_label", lang, game=game.names[lang]))}">'
        f'{esc(t("how_to_play", lang))}</a>' for lang in LANGS)


def _game_card(game: pygames.Game) -> str:
    gid = game.id
    modes = _radio_group("mode", both("mode"), [("bot", both("mode_bot")),
                                                ("hotseat", both("mode_hotseat")),
                                                ("link", both("mode_link"))], "bot", gid)
    bot = (_radio_group("bot", both("bot_level"), [(lv, both(f"level_{lv}")) for lv in LEVELS],
                        "normal", gid)
           + _radio_group("seat", both("your_seat"), [(v, both(f"seat_{v}")) for v in
                                                      ("0", "1", "random")], "0", gid))
    options = []
    for name, spec in game.option_schema.items():
        labels = game.option_labels.get(name, {})
        legend = bilingual(labels["label"]) if "label" in labels else esc(name)
        choices = [(v, bilingual(labels[v]) if v in labels else esc(v)) for v in spec["values"]]
        options.append(_radio_group(name, legend, choices, spec["default"], gid))
    return (
        f'<article class="game" id="game-{esc(gid)}" data-game="{esc(gid)}">'
        f'<h2>{bilingual(game.names)}</h2><p class="meta">{_players(game)}</p>'
        f'<p>{bilingual(ui_module(gid).BLURB)}</p>'
        f'<p class="rules-link">{_how_to_play(game)}</p>'
        f'<form action="./play.html" method="get" class="start">'
        f'<input type="hidden" name="game" value="{esc(gid)}">'
        f'<input type="hidden" name="lang" value="en" class="lang-field">'
        f'{modes}<div class="vs-bot">{bot}</div><details class="options"><summary>{both("options")}</summary>'
        f'{"".join(options)}</details>'
        f'<button type="submit" class="primary play" data-play="{esc(gid)}">{both("play")}</button></form></article>')


def _planned_card(gid: str, names: dict[str, str]) -> str:
    return (f'<article class="game planned" data-game="{esc(gid)}" aria-disabled="true">'
            f'<h2>{bilingual(names)}</h2><p>{bilingual(pygames.PLANNED_BLURBS.get(gid, names))}</p>'
            f'<p class="soon">{both("coming_soon")}</p></article>')


def _saved_games() -> str:
    """The games kept in this browser (:mod:`pgui.saved`): the section is empty and hidden
    at build time; ``SAVED_SCRIPT`` lists them from storage, with the words it needs (both
    languages) in ``data-labels``."""
    from . import saved

    keys = ("saved_in_progress", "saved_finished", "saved_moves", "saved_continue",
            "saved_replay", "saved_delete", "saved_deleted")
    labels: dict[str, Any] = {key: {lang: t(key, lang) for lang in LANGS} for key in keys}
    labels["names"] = {gid: pygames.get_game(gid).names for gid in pygames.game_ids()}
    labels["modes"] = {m: {lang: t(f"mode_{m}", lang) for lang in LANGS}
                       for m in ("bot", "hotseat")}
    labels["levels"] = {lv: {lang: t(f"level_{lv}", lang) for lang in LANGS} for lv in LEVELS}
    data = esc(json.dumps(labels, ensure_ascii=False, separators=(",", ":")))
    return (f'<section id="saved-games" class="saved-games" aria-labelledby="saved-title" '
            f'data-prefix="{esc(saved.PREFIX)}" data-labels="{data}" hidden>'
            f'<h2 class="section" id="saved-title" tabindex="-1">{both("saved_games")}</h2>'
            f'<ul class="saved-list"></ul>'
            f'<p class="note">{both("saved_note")} <span id="saved-status" role="status"></span>'
            f'</p></section>')


#: Lists the saved games (newest first) with Continue or Replay, and Delete; an entry it
#: cannot read is skipped (a console warning), and blocked storage lists nothing.
SAVED_SCRIPT = """
(function () {
  var section = document.getElementById("saved-games");
  if (!section) return;
  var L = JSON.parse(section.getAttribute("data-labels"));
  var prefix = section.getAttribute("data-prefix");
  var list = section.querySelector(".saved-list");
  var status = document.getElementById("saved-status");
  function bi(texts, n) {  // both languages, like the rest of the lobby
    var frag = document.createDocumentFragment();
    ["en", "ja"].forEach(function (lang) {
      var s = document.createElement("span");
      s.lang = lang;
      s.className = "l-" + lang;
      s.textContent = String(texts[lang])  // {n|move|moves}: as pgui.i18n.t does
        .replace(/\\{(\\w+)\\|([^{}|]*)\\|([^{}|]*)\\}/g, function (m, k, one, other) {
          return n === 1 ? one : other;
        }).replace("{n}", n);
      frag.appendChild(s);
    });
    return frag;
  }
  function games() {
    var out = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (!key || key.indexOf(prefix) !== 0) continue;
        var g = null;
        try { g = JSON.parse(localStorage.getItem(key)); } catch (e) { g = null; }
        if (g && g.kind === "pygames.saved" && prefix + g.id === key && L.names[g.game] &&
            L.modes[g.mode] && typeof g.updated === "number") out.push(g);
        else console.warn("pygames: skipped a saved game that cannot be read: " + key);
      }
    } catch (e) { return []; }  // storage blocked: nothing to list
    out.sort(function (a, b) { return b.updated - a.updated; });
    return out;
  }
  function text(parent, s) { parent.appendChild(document.createTextNode(s)); }
  function action(tag, label, cls) {
    var b = document.createElement(tag);
    if (tag === "button") b.type = "button";
    b.className = cls;
    b.appendChild(bi(label));
    return b;
  }
  function row(g) {
    var li = document.createElement("li");
    li.dataset.saved = g.id;
    var what = document.createElement("span");
    what.className = "what";
    what.id = "saved-" + g.id;
    var name = document.createElement("b");
    name.appendChild(bi(L.names[g.game]));
    what.appendChild(name);
    text(what, " · ");
    what.appendChild(bi(L.modes[g.mode]));
    if (g.mode === "bot" && L.levels[g.level]) {
      text(what, " (");
      what.appendChild(bi(L.levels[g.level]));
      text(what, ")");
    }
    text(what, " · ");
    what.appendChild(bi(g.over ? L.saved_finished : L.saved_in_progress));
    text(what, " · ");
    what.appendChild(bi(L.saved_moves, Number(g.moves) || 0));
    text(what, " · ");
    var date = new Date(g.updated);
    var when = document.createElement("time");
    when.dateTime = date.toISOString();
    var style = { dateStyle: "medium", timeStyle: "short" };
    when.appendChild(bi({ en: date.toLocaleString("en", style), ja: date.toLocaleString("ja", style) }));
    what.appendChild(when);
    var go;
    if (g.over && g.replay) {
      go = action("a", L.saved_replay, "button");
      go.href = "./play.html?" + new URLSearchParams(
        { mode: "replay", record: g.replay, perspective: "open" }).toString();
    } else {
      go = action("a", L.saved_continue, "button primary");
      var q = { game: g.game, mode: g.mode, resume: g.id };
      if (g.level) q.bot = g.level;
      go.href = "./play.html?" + new URLSearchParams(q).toString();
    }
    go.setAttribute("aria-describedby", what.id);
    go.addEventListener("click", function (e) {  // like Play: in this page, Python is here
      if (!window.pygamesWait) return;
      e.preventDefault();
      document.documentElement.dataset.ready = "false";
      document.getElementById("lobby").hidden = true;
      window.pygamesWait(go.search.slice(1));
    });
    var del = action("button", L.saved_delete, "delete");
    del.setAttribute("aria-describedby", what.id);
    del.addEventListener("click", function () { remove(g, li); });
    var buttons = document.createElement("span");
    buttons.className = "buttons";
    buttons.appendChild(go);
    buttons.appendChild(del);
    li.appendChild(what);
    li.appendChild(buttons);
    return li;
  }
  function remove(g, li) {
    try { localStorage.removeItem(prefix + g.id); } catch (e) { /* blocked */ }
    var next = li.nextElementSibling || li.previousElementSibling;
    li.remove();
    status.textContent = "";
    status.appendChild(bi(L.saved_deleted));
    if (next) next.querySelector("a, button").focus();
    else document.getElementById("saved-title").focus();
  }
  function render() {
    var all = games();
    list.textContent = "";
    all.forEach(function (g) { list.appendChild(row(g)); });
    if (all.length) section.hidden = false;
  }
  render();
  addEventListener("pageshow", function (e) { if (e.persisted) render(); });
})();
"""


LOBBY_SCRIPT = """
(function () {
  var root = document.documentElement;
  var lobby = document.getElementById("lobby");
  function apply(lang) {
    root.lang = lang;
    try { localStorage.setItem("pygames.lang", lang); } catch (e) {}
    document.querySelectorAll(".lang-field").forEach(function (f) { f.value = lang; });
    var params = new URLSearchParams(location.search);
    if (params.has("lang") && params.get("lang") !== lang) {  // a reload keeps it
      params.set("lang", lang);
      history.replaceState(history.state, "", location.pathname + "?" + params + location.hash);
    }
  }
  apply(root.lang);
  document.getElementById("lang-toggle").addEventListener("click", function () {
    apply(root.lang === "ja" ? "en" : "ja");
  });
  // Play opens the table in this page, where Python has been starting all along (in a
  // worker: glue.js); the URL becomes the table's own (play.html?...), so reload and
  // bookmarks still work.
  document.querySelectorAll("form.start").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      if (!window.pygamesWait) return;  // boot glue missing: plain navigation
      e.preventDefault();
      var query = new URLSearchParams(new FormData(form)).toString();
      root.dataset.ready = "false";
      lobby.hidden = true;
      window.pygamesWait(query);
    });
  });
  root.dataset.ready = "true";
})();
"""


def render_lobby() -> str:
    """The complete lobby HTML document."""
    games = "".join(_game_card(pygames.get_game(g)) for g in pygames.game_ids())
    planned = "".join(_planned_card(g, n) for g, n in pygames.PLANNED.items())
    toggle = both("lang_switch")
    return f"""<!doctype html>
<html lang="en" data-ready="false">
<head>
{head("pygames", "Board and card games in your browser, no server.")}
</head>
<body class="lobby">
<div id="lobby">
<header class="bar"><h1>pygames</h1>
<button type="button" id="lang-toggle" class="lang">{toggle}</button></header>
<main class="lobby-main">
<p class="tagline">{both("tagline")}</p>
{_saved_games()}
<h2 class="section">{both("choose_game")}</h2>
<div class="games">{games}{planned}</div>
<p class="note">{both("offline_note")} {both("loading_hint")}</p>
{import_form_both()}
</main>
</div>
{python_shell(loading_hidden=True)}
<script>{LOBBY_SCRIPT}</script>
<script>{SAVED_SCRIPT}</script>
</body>
</html>
"""
