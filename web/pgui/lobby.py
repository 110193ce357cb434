"""The lobby page, rendered at build time from the engines' registry.

It is plain HTML and CSS (usable before Python has booted), in both languages at once:
CSS shows the spans matching ``<html lang>``, which ``boot.js`` sets from the URL, the
saved choice or the browser's language. While the player reads it, Python starts in a
worker in the background (``glue.js``; the page never waits for it); Play then opens the
table in this same page, without a second start.

Each game is a tile: its board (the UI module's ``thumbnail``), players and play time, its
blurb and rules link, a line saying what Play will start, and Play. The choices (mode, bot,
seat, options with their ``OPTION_HELP``) wait in a modal ``<dialog>`` opened by the tile's
Change, so nothing on the page moves; the script redraws the line from the checked choices
(``data-plan-en``/``-ja``, the same words :func:`plan` gives). Saved games follow the tiles.
"""

from __future__ import annotations

import json
from typing import Any

import pygames
from pygames.bots import LEVELS

from . import link_seat_words, tools, ui_module
from .i18n import LANGS, bilingual, both, esc, t
from .pages import head, python_shell
from .share import import_form_both


def _players(game: pygames.Game) -> str:
    if game.min_players == game.max_players:
        return both("players_n", n=game.min_players)
    return both("players_range", a=game.min_players, b=game.max_players)


def _hook(gid: str, name: str) -> Any:
    """A lobby hook the game's UI module must provide (see :mod:`pgui.table`): missing, the
    build stops naming it."""
    ui = ui_module(gid)
    if not hasattr(ui, name):
        raise NotImplementedError(
            f"{ui.__name__} has no {name}: the lobby tile needs it (see pgui.table's docstring)")
    return getattr(ui, name)


def _minutes(gid: str) -> str:
    low, high = _hook(gid, "PLAY_TIME")
    return both("minutes", a=low, b=high) if low != high else both("minutes_n", n=low)


def _thumbnail(gid: str) -> str:
    """The tile's picture, drawn by the game's own ``thumbnail(lang)``: decorative (the
    tile's title names the game), one copy when both languages draw the same."""
    draw = _hook(gid, "thumbnail")
    pictures = {lang: draw(lang) for lang in LANGS}
    if len(set(pictures.values())) == 1:
        inner = pictures["en"]
    else:
        inner = "".join(f'<div class="l-{lang}">{pictures[lang]}</div>' for lang in LANGS)
    return f'<div class="thumb" aria-hidden="true">{inner}</div>'


def option_help(game: pygames.Game) -> dict[str, dict[str, dict[str, str]]]:
    """The game's ``OPTION_HELP`` (optional), checked against its option schema: a word
    about an option or value that does not exist, or in one language only, stops the build."""
    helps = getattr(ui_module(game.id), "OPTION_HELP", {})
    for name, values in helps.items():
        if name not in game.option_schema:
            raise ValueError(f"{game.id} OPTION_HELP names no option {name!r}")
        known = {str(v) for v, _ in _choices(game, name)}
        for value, texts in values.items():
            if value not in known or set(texts) != set(LANGS):
                raise ValueError(f"{game.id} OPTION_HELP[{name!r}][{value!r}]: not a value "
                                 f"of the option, or not in {', '.join(LANGS)}")
    return helps


def _choices(game: pygames.Game, name: str) -> list[tuple[Any, dict[str, str]]]:
    """The values the settings offer for an option, with their words: every value of a
    listed option; for a free-form one (no ``values``) its default and the UI module's
    ``OPTION_CHOICES`` (the lobby adds what ``OPTION_STORE`` finds saved in the browser)."""
    spec = game.option_schema[name]
    if "values" in spec:
        return [(v, _option_label(game, name, v)) for v in spec["values"]]
    offered = dict(getattr(ui_module(game.id), "OPTION_CHOICES", {}).get(name, ()))
    for value, words in offered.items():
        if set(words) != set(LANGS):
            raise ValueError(f"{game.id} OPTION_CHOICES[{name!r}][{value!r}]: not in "
                             f"{', '.join(LANGS)}")
    default = spec["default"]
    out = [(default, offered.get(default) or _option_label(game, name, default))]
    return out + [(v, w) for v, w in offered.items() if v != default]


def _option_label(game: pygames.Game, name: str, value: Any) -> dict[str, str]:
    labels = game.option_labels.get(name, {})
    return labels.get(str(value), {lang: str(value) for lang in LANGS})


def _plan_words(game: pygames.Game, name: str, value: Any,
                label: dict[str, str] | None = None) -> dict[str, str]:
    """What the tile's line says for this choice ('' : nothing, an option at its default);
    ``label``: the option's words instead of its own label (a per-seat option in link play)."""
    if name == "mode":
        return {lang: t(f"plan_{value}", lang) for lang in LANGS}
    if name == "players":
        return {lang: t("plan_players", lang, n=int(value)) for lang in LANGS}
    if name == "bot":
        return {lang: t("plan_level", lang, level=t(f"level_{value}", lang)) for lang in LANGS}
    if name == "seat":
        return {lang: t(f"plan_seat_{value}", lang) for lang in LANGS}
    if name in ("mine", "theirs"):  # SEAT_OPTIONS against the bot: yours, the bot's
        seat = ui_module(game.id).SEAT_OPTIONS
        option = seat["options"][name == "theirs"]
        label, default = seat[name], game.option_schema[option]["default"]
        value_label = dict(_choices(game, option)).get(value) or _option_label(
            game, option, value)
    else:
        labels = game.option_labels.get(name, {})
        label = label or labels.get("label", {lang: name for lang in LANGS})
        default = game.option_schema[name]["default"]
        value_label = dict(_choices(game, name)).get(value) or _option_label(game, name, value)
    if value == default:
        return {lang: "" for lang in LANGS}
    return {lang: t("plan_option", lang, label=label[lang], value=value_label[lang])
            for lang in LANGS}


#: Each choice's default: the tile's line as the page is built (the script redraws it).
DEFAULTS = {"mode": "bot", "bot": "normal", "seat": "0"}

#: A seat's choices in the settings of a game for more than two (the query's ``seats=``
#: tokens, :data:`pgui.session_glue.SEAT_TOKENS`), in the order offered.
SEAT_CHOICES = ("you", "here", *LEVELS, "link")


def seated(game: pygames.Game) -> bool:
    """The game is for more than two: its settings choose the count of players and who
    sits in each seat (``players=``, ``seats=``) instead of a mode, a bot and a seat."""
    return game.max_players > 2


def default_seats(players: int) -> list[str]:
    """The seats the settings start with: you first, then bots of the default level."""
    return ["you", *[DEFAULTS["bot"]] * (players - 1)]


def _seat_words(token: str) -> dict[str, dict[str, str]]:
    """A seat choice's label in its list and its words on the tile's line."""
    if token in LEVELS:
        level = {lang: t(f"level_{token}", lang) for lang in LANGS}
        return {"label": {lang: t("seat_bot", lang, level=level[lang]) for lang in LANGS},
                "plan": {lang: t("plan_bot_level", lang, level=level[lang]) for lang in LANGS}}
    plan_key = {"you": "plan_you", "here": "plan_here", "link": "plan_link_seat"}[token]
    return {"label": {lang: t(f"seat_{token}", lang) for lang in LANGS},
            "plan": {lang: t(plan_key, lang) for lang in LANGS}}


def _seats_plan(players: int, seats: list[str]) -> list[dict[str, str]]:
    words = [{lang: t("plan_players", lang, n=players) for lang in LANGS}]
    return words + [_seat_words(token)["plan"] for token in seats[:players]]


def plan(game: pygames.Game, choices: dict[str, Any] | None = None) -> dict[str, str]:
    """The tile's line, what Play will start, in each language: the same words as the
    lobby's script puts together from the checked choices (``data-plan-*``). For a game
    for more than two the choices are ``players`` and ``seats`` (a list of tokens)."""
    if seated(game):
        chosen = {n: s["default"] for n, s in game.option_schema.items()}
        chosen.update(choices or {})
        players = int(chosen.pop("players", game.min_players))
        seats = list(chosen.pop("seats", None) or default_seats(game.max_players))
        words = _seats_plan(players, seats)
        words += [_plan_words(game, n, chosen[n]) for n in game.option_schema]
        return {lang: " · ".join(w[lang] for w in words if w[lang]) for lang in LANGS}
    seat = getattr(ui_module(game.id), "SEAT_OPTIONS", None)
    per_seat = tuple(seat["options"]) if seat else ()
    defaults = {n: s["default"] for n, s in game.option_schema.items()}
    if per_seat:
        defaults.update(mine=defaults[per_seat[0]], theirs=defaults[per_seat[1]])
    chosen = {**DEFAULTS, **defaults, **(choices or {})}
    vs_bot = chosen["mode"] == "bot"
    names = ["mode", *(("bot", "seat") if vs_bot else ()),
             *(("mine", "theirs") if vs_bot and per_seat else ()),
             *(n for n in game.option_schema if not (vs_bot and n in per_seat))]
    linked = link_seat_words(game.id) if chosen["mode"] == "link" else {}
    words = [_plan_words(game, n, chosen[n], linked.get(n)) for n in names]
    return {lang: " · ".join(w[lang] for w in words if w[lang]) for lang in LANGS}


def _radio_group(game: pygames.Game, name: str, legend: str, choices: list[Any],
                 default: Any, labels: dict[Any, dict[str, str]],
                 helps: dict[str, dict[str, str]] | None = None, inline: bool = False,
                 extra: str = "", link_label: dict[str, str] | None = None) -> str:
    """``link_label``: in link play the line names this option so (``data-plan-link-*``)."""
    gid, items = game.id, []
    for value in choices:
        checked = " checked" if value == default else ""
        words = _plan_words(game, name, value)
        link_attrs = ""
        if link_label:
            linked = _plan_words(game, name, value, link_label)
            link_attrs = (f' data-plan-link-en="{esc(linked["en"])}" '
                          f'data-plan-link-ja="{esc(linked["ja"])}"')
        help_html = ""
        if helps and str(value) in helps:
            help_html = f'<small class="help">{bilingual(helps[str(value)])}</small>'
        items.append(f'<label class="choice"><input type="radio" name="{esc(name)}" '
                     f'value="{esc(value)}"{checked} data-plan-en="{esc(words["en"])}" '
                     f'data-plan-ja="{esc(words["ja"])}"{link_attrs}><span class="choice-text">'
                     f'<span class="name">{bilingual(labels[value])}</span>{help_html}</span>'
                     f'</label>')
    cls = "opt inline" if inline else "opt"
    return (f'<fieldset class="{cls}" id="{esc(gid)}-{esc(name)}"{extra}><legend>{legend}'
            f'</legend><div class="choices">{"".join(items)}</div></fieldset>')


def _free_option(game: pygames.Game, name: str, legend: str, option: str,
                 helps: dict[str, dict[str, str]] | None, label: dict[str, str],
                 link_label: dict[str, str] | None = None) -> str:
    """A free-form option in the settings: its offered values as choices (default first),
    and, when the UI module's ``OPTION_STORE`` names a tool that saves values of it, the
    ones saved in this browser (``data-store``: the storage prefix; the lobby's script adds
    them, ``data-plan-*`` the tile's words with ``{value}`` for the saved name). With
    nothing offered but the default, a text field (``data-free``) takes any value.
    ``name`` is the field's name (``mine``/``theirs`` for ``SEAT_OPTIONS`` vs the bot),
    ``option`` the option it gives a value of; ``link_label``: its words in link play."""
    gid = game.id
    ui = ui_module(gid)
    choices = _choices(game, option)
    default = choices[0][0]
    if name == "theirs":  # the bot's: the other seat's default
        default = game.option_schema[ui.SEAT_OPTIONS["options"][1]]["default"]
        choices = sorted(choices, key=lambda c: c[0] != default)
    tool = getattr(ui, "OPTION_STORE", {}).get(option)
    linked = ""
    if link_label:
        linked = "".join(f' data-plan-link-{lang}="'
                         + esc(t("plan_option", lang, label=link_label[lang], value="{value}"))
                         + '"' for lang in LANGS)
    if len(choices) == 1 and tool is None:
        words = {lang: t("plan_option", lang, label=label[lang], value="{value}")
                 for lang in LANGS}
        return (f'<div class="opt free" id="{esc(gid)}-{esc(name)}"><label class="legend" '
                f'for="{esc(gid)}-{esc(name)}-field">{legend}</label>'
                f'<input type="text" id="{esc(gid)}-{esc(name)}-field" name="{esc(name)}" '
                f'value="{esc(default)}" data-free data-default="{esc(default)}" '
                f'data-plan-en="{esc(words["en"])}" data-plan-ja="{esc(words["ja"])}"{linked} '
                f'autocomplete="off" autocapitalize="characters" spellcheck="false"></div>')
    extra = ""
    if tool is not None:
        words = {lang: t("plan_option", lang, label=label[lang], value="{value}")
                 for lang in LANGS}
        extra = (f' data-store="{esc(tools.prefix(gid, tool))}" data-plan-en="{esc(words["en"])}"'
                 f' data-plan-ja="{esc(words["ja"])}"{linked}')
    return _radio_group(game, name, legend, [v for v, _ in choices], default, dict(choices),
                        helps, inline=True, extra=extra, link_label=link_label)



def _how_to_play(game: pygames.Game) -> str:
    """The card's link to the game's rules page (tools/docsbuild.py), one per language."""
    return "".join(
        f'<a lang="{lang}" class="l-{lang} how-to-play" href="./docs/{lang}/{esc(game.id)}.html" '
        f'aria-label="{esc(t("how_to_play_label", lang, game=game.names[lang]))}">'
        f'{esc(t("how_to_play", lang))}</a>' for lang in LANGS)


def _strings(prefix: str, values: tuple[str, ...]) -> dict[str, dict[str, str]]:
    return {v: {lang: t(f"{prefix}{v}", lang) for lang in LANGS} for v in values}


def _seats_fields(game: pygames.Game) -> str:
    """A game for more than two: how many play (``players``), and a select per seat (you,
    a person here, a bot of a level, a friend by link), the seats past the count hidden
    and disabled. The script keeps the hidden ``seats`` field (what the query carries) and
    the tile's line in step with them, and says what cannot be played (``data-problem-*``):
    not exactly one seat for you, or friends by link with a person here."""
    gid, low, high = game.id, game.min_players, game.max_players
    counts = [str(n) for n in range(low, high + 1)]
    players = _radio_group(game, "players", both("players"), counts, str(low),
                           {n: {lang: t("players_n", lang, n=int(n)) for lang in LANGS}
                            for n in counts}, inline=True)
    seats = default_seats(high)
    rows = []
    for i, chosen in enumerate(seats):
        options = []
        for token in SEAT_CHOICES:
            words = _seat_words(token)
            label, line = words["label"], words["plan"]
            options.append(
                f'<option value="{token}"{" selected" if token == chosen else ""} '
                f'data-en="{esc(label["en"])}" data-ja="{esc(label["ja"])}" '
                f'data-plan-en="{esc(line["en"])}" data-plan-ja="{esc(line["ja"])}">'
                f'{esc(label["en"])}</option>')
        off = " hidden" if i >= low else ""
        rows.append(
            f'<div class="seat-row" data-seat-row="{i}"{off}>'
            f'<label for="{esc(gid)}-seat-{i}">{both("seat_n", n=i + 1)}</label>'
            f'<select id="{esc(gid)}-seat-{i}" data-seat="{i}"{" disabled" if off else ""}>'
            f'{"".join(options)}</select></div>')
    problems = "".join(
        f' data-problem-{key}-{lang}="{esc(t(text, lang))}"'
        for key, text in (("you", "seats_you_note"), ("link", "seats_link_note"))
        for lang in LANGS)
    return (f'{players}<fieldset class="opt seats" id="{esc(gid)}-seats"{problems}>'
            f'<legend>{both("seats_legend")}</legend>{"".join(rows)}'
            f'<input type="hidden" name="seats" value="{",".join(seats[:low])}">'
            f'<p class="seats-problem" role="alert" hidden></p></fieldset>')


def _setup_panel(game: pygames.Game) -> str:
    """Mode, bot, seat and options: a modal dialog over the page (it pushes nothing around),
    opened by the tile's Change; every choice keeps the tile's line true. A game for more
    than two chooses its players and their seats instead of mode, bot and seat."""
    gid = game.id
    many = seated(game)
    modes = _radio_group(game, "mode", both("mode"), ["bot", "hotseat", "link"], "bot",
                         _strings("mode_", ("bot", "hotseat", "link")))
    bot = (_radio_group(game, "bot", both("bot_level"), list(LEVELS), "normal",
                        _strings("level_", LEVELS), inline=True)
           + _radio_group(game, "seat", both("your_seat"), ["0", "1", "random"], "0",
                          _strings("seat_", ("0", "1", "random")), inline=True))
    helps = option_help(game)
    seat = getattr(ui_module(gid), "SEAT_OPTIONS", None)
    per_seat = tuple(seat["options"]) if seat and not many else ()
    options, mine = [], []
    linked = link_seat_words(game.id) if not many else {}
    for name, spec in game.option_schema.items():
        labels = game.option_labels.get(name, {})
        label = labels.get("label") or {lang: name for lang in LANGS}
        legend = bilingual(label) if "label" in labels else esc(name)
        if "values" in spec:
            options.append(_radio_group(
                game, name, legend, list(spec["values"]), spec["default"],
                {v: _option_label(game, name, v) for v in spec["values"]}, helps.get(name),
                inline=name not in helps and len(spec["values"]) <= 3))
            continue
        if name in linked:  # in link play: yours (the host's) and your opponent's
            legend = (f'<span class="not-link">{legend}</span>'
                      f'<span class="in-link">{bilingual(linked[name])}</span>')
        field = _free_option(game, name, legend, name, helps.get(name), label, linked.get(name))
        if name in per_seat:  # vs the bot these are "yours" and "the bot's" instead
            who = ("mine", "theirs")[per_seat.index(name)]
            options.append(f'<div class="not-bot">{field}</div>')
            mine.append(_free_option(game, who, bilingual(seat[who]), name, helps.get(name),
                                     seat[who]))
        else:
            options.append(field)
    names = {lang: t("setup_title", lang, game=game.names[lang]) for lang in LANGS}
    who = (_seats_fields(game) if many
           else f'{modes}<div class="vs-bot">{bot}{"".join(mine)}</div>')
    return (
        f'<dialog class="setup-panel" id="setup-{esc(gid)}" aria-labelledby="setup-title-{esc(gid)}">'
        f'<div class="panel-head"><h3 id="setup-title-{esc(gid)}">{bilingual(names)}</h3>'
        f'<button type="button" class="close" data-close>{both("setup_close")}</button></div>'
        f'<div class="panel-body">{who}'
        f'<div class="options">{"".join(options)}</div></div>'
        f'<div class="panel-foot"><p class="plan-text" aria-live="polite">{bilingual(plan(game))}</p>'
        f'<button type="button" class="done" data-close>{both("setup_done")}</button>'
        f'<button type="submit" class="primary play-now">{both("play")}</button></div>'
        f'</dialog>')


def _game_card(game: pygames.Game) -> str:
    gid = game.id
    change = bilingual({lang: t("setup_change", lang) for lang in LANGS})
    change_sr = bilingual({lang: t("setup_change_sr", lang, game=game.names[lang])
                           for lang in LANGS})
    return (
        f'<article class="game" id="game-{esc(gid)}" data-game="{esc(gid)}" '
        f'aria-labelledby="title-{esc(gid)}">'
        f'{_thumbnail(gid)}<div class="tile-body">'
        f'<h2 id="title-{esc(gid)}">{bilingual(game.names)}</h2>'
        f'<p class="meta"><span>{_players(game)} · {_minutes(gid)}</span>'
        f'<span class="links">{_how_to_play(game)}{_tools(game)}</span></p>'
        f'<p class="blurb">{bilingual(ui_module(gid).BLURB)}</p>'
        f'<form action="./play.html" method="get" class="start">'
        f'<input type="hidden" name="game" value="{esc(gid)}">'
        f'<input type="hidden" name="lang" value="en" class="lang-field">'
        f'<div class="plan"><p class="plan-text" id="plan-{esc(gid)}">{bilingual(plan(game))}</p>'
        f'<button type="button" class="setup" aria-haspopup="dialog" '
        f'aria-controls="setup-{esc(gid)}">{change}<span class="sr-only">{change_sr}</span>'
        f'</button></div>'
        f'<button type="submit" class="primary play" data-play="{esc(gid)}" '
        f'aria-describedby="plan-{esc(gid)}">{both("play")}</button>'
        f'{_setup_panel(game)}</form></div></article>')


def _tools(game: pygames.Game) -> str:
    """Links to the game's tools (the UI module's ``TOOLS``, e.g. a deck builder): each
    opens ``play.html?game=<id>&tool=<name>``, in this page like Play."""
    offered = tools.tools(game.id)
    if not offered:
        return ""
    links = []
    for name, spec in offered.items():
        label = spec["label"]
        aria = {lang: f"{label[lang]} ({game.names[lang]})" for lang in LANGS}
        links.append("".join(
            f'<a lang="{lang}" class="l-{lang} tool" data-tool '
            f'href="./play.html?game={esc(game.id)}&amp;tool={esc(name)}&amp;lang={lang}" '
            f'aria-label="{esc(aria[lang])}">{esc(label[lang])}</a>' for lang in LANGS))
    return "".join(links)


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
            "saved_replay", "saved_delete", "saved_deleted", "saved_you_won", "saved_you_lost",
            "saved_draw")
    labels: dict[str, Any] = {key: {lang: t(key, lang) for lang in LANGS} for key in keys}
    labels["names"] = {gid: pygames.get_game(gid).names for gid in pygames.game_ids()}
    # Who won a pass-and-play game: "Red won", in the words of the game's own seats.
    labels["won"] = {gid: [{lang: t("saved_won", lang, who=ui_module(gid).who(p, lang))
                            for lang in LANGS}
                           for p in range(pygames.get_game(gid).max_players)]
                     for gid in pygames.game_ids()}
    labels["players_n"] = {lang: t("players_n", lang) for lang in LANGS}
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
  function won(g) {  // a finished game's result, from its stored winners (seats)
    if (g.winners.length !== 1) return L.saved_draw;
    if (g.mode === "bot") return g.winners[0] === g.human ? L.saved_you_won : L.saved_you_lost;
    return (L.won[g.game] || [])[g.winners[0]] || null;
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
    if (g.mode === "bot" && L.levels[g.level] && !(g.players > 2)) {
      text(what, " (");
      what.appendChild(bi(L.levels[g.level]));
      text(what, ")");
    }
    if (g.players > 2) {  // a game for more than two says how many played
      text(what, " · ");
      what.appendChild(bi(L.players_n, g.players));
    }
    text(what, " · ");
    what.appendChild(bi(g.over ? L.saved_finished : L.saved_in_progress));
    var result = g.over && Array.isArray(g.winners) ? won(g) : null;
    if (result) {
      text(what, " · ");
      var res = document.createElement("b");
      res.className = "result";
      res.appendChild(bi(result));
      what.appendChild(res);
    }
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
    // A list's entries cannot hold both languages' spans: each says its own (data-en/-ja).
    document.querySelectorAll("option[data-en]").forEach(function (o) {
      o.textContent = o.dataset[lang] || o.dataset.en;
    });
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
  // The tile's line says what Play will start: the words of every checked choice
  // (data-plan-en/-ja; the bot's level and seat only against the bot), redrawn on change.
  function plan(form) {
    var mode = form.querySelector('input[name="mode"]:checked');
    var vsBot = !mode || mode.value === "bot";
    var link = Boolean(mode) && mode.value === "link";  // per-seat options: yours, theirs
    // A free-form option's text field (data-free) and a saved value's choice (data-saved)
    // say the value in their words: the field's own template, "{value}" filled in.
    // A seat's list (a game for more than two) says its chosen entry's words.
    var fields = form.querySelectorAll(
      "input[type=radio]:checked, input[data-free], select[data-seat]:not(:disabled)");
    var chosen = Array.prototype.map.call(fields, function (r) {
      return r.matches("select") ? r.options[r.selectedIndex] : r;
    }).filter(function (r) {
        if (r.matches("[data-free]") && (!r.value || r.value === r.dataset.default)) return false;
        return r.dataset.planEn && !(!vsBot && r.closest(".vs-bot")) && !(vsBot && r.closest(".not-bot"));
      });
    form.querySelectorAll(".plan-text").forEach(function (line) {
      line.textContent = "";
      ["en", "ja"].forEach(function (lang) {
        var s = document.createElement("span");
        s.lang = lang;
        s.className = "l-" + lang;
        s.textContent = chosen.map(function (r) {
          var key = lang === "en" ? "planEn" : "planJa";
          var linked = link ? r.dataset[key.replace("plan", "planLink")] : undefined;
          var words = linked !== undefined ? linked : r.dataset[key];
          return r.matches("[data-free]") ? words.replace("{value}", r.value) : words;
        }).join(" \u00b7 ");
        line.appendChild(s);
      });
    });
  }
  // A free-form option's values saved in this browser by the game's tool (data-store: the
  // storage prefix of entries {name, value}; pgui/tools.py) join its choices, by name.
  function saved(group) {
    var prefix = group.dataset.store, found = [];
    try {
      for (var i = 0; i < localStorage.length; i++) {
        var key = localStorage.key(i);
        if (!key || key.indexOf(prefix) !== 0) continue;
        var entry = null;
        try { entry = JSON.parse(localStorage.getItem(key)); } catch (e) { entry = null; }
        if (entry && typeof entry.name === "string" && typeof entry.value === "string") found.push(entry);
      }
    } catch (e) { return; }  // storage blocked: only what the page offers
    found.sort(function (a, b) { return a.name.localeCompare(b.name); });
    var choices = group.querySelector(".choices");
    var radio = choices.querySelector("input");
    choices.querySelectorAll("[data-saved]").forEach(function (l) { l.remove(); });
    found.forEach(function (entry) {
      var label = document.createElement("label");
      label.className = "choice";
      label.dataset.saved = "true";
      var input = document.createElement("input");
      input.type = "radio";
      input.name = radio.name;
      input.value = entry.value;
      input.dataset.planEn = group.dataset.planEn.replace("{value}", entry.name);
      input.dataset.planJa = group.dataset.planJa.replace("{value}", entry.name);
      if (group.dataset.planLinkEn !== undefined) {
        input.dataset.planLinkEn = group.dataset.planLinkEn.replace("{value}", entry.name);
        input.dataset.planLinkJa = group.dataset.planLinkJa.replace("{value}", entry.name);
      }
      var text = document.createElement("span");
      text.className = "choice-text";
      var name = document.createElement("span");
      name.className = "name";
      name.textContent = entry.name;
      text.appendChild(name);
      label.appendChild(input);
      label.appendChild(text);
      choices.appendChild(label);
    });
  }
  // A game for more than two: the count of players shows that many seats' lists (the
  // others hidden and disabled); choosing "you" for a seat gives the seat that had it this
  // one's old choice; the hidden "seats" field carries the lists' choices, and Play waits
  // while they cannot be played (not one "you"; friends by link with a person here).
  function seats(form, changed) {
    var box = form.querySelector("fieldset.seats");
    if (!box) return;
    var count = Number(form.querySelector('input[name="players"]:checked').value);
    var lists = Array.prototype.slice.call(box.querySelectorAll("select[data-seat]"));
    if (changed && changed.matches("select[data-seat]") && changed.value === "you") {
      lists.forEach(function (s) {
        if (s !== changed && s.value === "you") s.value = changed.dataset.was || "here";
      });
    }
    lists.forEach(function (s, i) {
      var off = i >= count;
      s.disabled = off;
      box.querySelector('[data-seat-row="' + i + '"]').hidden = off;
      s.dataset.was = s.value;
    });
    var values = lists.slice(0, count).map(function (s) { return s.value; });
    box.querySelector('input[name="seats"]').value = values.join(",");
    var yous = values.filter(function (v) { return v === "you"; }).length;
    var problem = yous !== 1 ? "you" :
      values.indexOf("link") >= 0 && values.indexOf("here") >= 0 ? "link" : "";
    var note = box.querySelector(".seats-problem");
    note.textContent = "";
    note.hidden = !problem;
    if (problem) {
      ["en", "ja"].forEach(function (lang) {
        var s = document.createElement("span");
        s.lang = lang;
        s.className = "l-" + lang;
        s.textContent = box.getAttribute("data-problem-" + problem + "-" + lang);
        note.appendChild(s);
      });
    }
    form.querySelectorAll('button[type="submit"]').forEach(function (b) { b.disabled = !!problem; });
  }
  document.querySelectorAll("form.start").forEach(function (form) {
    var panel = form.querySelector("dialog");
    form.querySelectorAll("[data-store]").forEach(saved);
    form.querySelector("button.setup").addEventListener("click", function () {
      panel.showModal();
      // The first choice (mode, or the count of players): arrows move it.
      form.querySelector('input[name="mode"]:checked, input[name="players"]:checked').focus();
    });
    form.querySelectorAll("[data-close]").forEach(function (b) {
      b.addEventListener("click", function () { panel.close(); });
    });
    panel.addEventListener("click", function (e) {  // a tap on the backdrop closes it
      if (e.target === panel) panel.close();
    });
    form.addEventListener("change", function (e) { seats(form, e.target); plan(form); });
    form.addEventListener("input", function (e) { if (e.target.matches("[data-free]")) plan(form); });
    addEventListener("pageshow", function () { seats(form); plan(form); });  // restored choices
    seats(form);
    plan(form);
    form.addEventListener("submit", function (e) {
      if (panel.open) panel.close();
      if (!window.pygamesWait) return;  // boot glue missing: plain navigation
      e.preventDefault();
      var query = new URLSearchParams(new FormData(form)).toString();
      root.dataset.ready = "false";
      lobby.hidden = true;
      window.pygamesWait(query);
    });
  });
  document.querySelectorAll("a[data-tool]").forEach(function (a) {  // like Play: in place
    a.addEventListener("click", function (e) {
      if (!window.pygamesWait) return;
      e.preventDefault();
      root.dataset.ready = "false";
      lobby.hidden = true;
      window.pygamesWait(a.search.slice(1));
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
<h2 class="section">{both("choose_game")}</h2>
<div class="games">{games}{planned}</div>
{_saved_games()}
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
