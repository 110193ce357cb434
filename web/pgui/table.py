"""The table controller: one game session on this device, with no DOM in sight.

It owns the session (the engine state, the bots), whose eyes the screen is for
(hot-seat hand-over), the step-by-step playback of what happened, and the language.
``html()`` renders the whole table; ``command()`` takes the ``data-cmd`` of whatever was
clicked.

The table draws one seat from what the protocol gives that seat: ``view(seat)``,
``legal_actions(seat)`` and ``events(seat)``; it never reads the engine state. The same
inputs can come from a peer's browser, a replay or an embed. It knows no game: each game
plugs in with one UI module, ``pgui/<game id>_ui.py`` (see :func:`pgui.ui_module`),
which provides

* ``STRINGS``: its texts, ``{key: {"en": ..., "ja": ...}}``, keys prefixed by the game id;
* ``BLURB``: one line for the lobby, ``{"en": ..., "ja": ...}``;
* ``STEP_EVENTS``: event kinds that get their own pause when played back;
* ``new_selection()``: the seat's local, not yet confirmed choices;
* ``handle(cmd, sel, legal, view)``: a click, returning an engine action once one is made;
* ``render_table(view, legal, lang, *, events, shown, since, sel, seats, waiting_for,
  before)``: ``since`` is where the last playback began (None before any action);
* ``describe(event, lang, view)``: one event in words for the log (``view`` is the
  viewer's, for what an event does not repeat, e.g. which deck is in play);
* ``who(seat, lang)``, ``result_reason(outcome, lang)``, ``rules_html(lang)``;
* ``step_delay(event, speed)``: milliseconds to look at a step.

>>> table = Table("kiriai", mode="bot", seed=1, lang="en", speed=0)
>>> table.command("pick:C"); table.command("pick:B"); table.command("confirm")
>>> table.animating
True
>>> table.skip(); table.animating
False
"""

from __future__ import annotations

from typing import Any

import pygames
from pygames.bots import RandomBot, play_bots

from . import ui_module
from .i18n import LANGS, esc, t

MODES = ("bot", "hotseat")


class Table:
    #: The modes this kind of table plays (link play: :class:`pgui.link.LinkTable`).
    modes = MODES

    def __init__(self, game_id: str, *, mode: str = "bot", seed: int = 0,
                 options: dict[str, Any] | None = None, lang: str = "en",
                 speed: int = 900) -> None:
        if mode not in self.modes:
            raise ValueError(f"unknown mode {mode!r} (use one of: {', '.join(self.modes)})")
        self.game = pygames.get_game(game_id)
        self.ui = ui_module(game_id)
        self.mode = mode
        self.lang = lang if lang in LANGS else "en"
        self.speed = speed
        self.options = self.game.resolve_options(options)
        self.message = ""
        self.start(seed)

    # -- session -------------------------------------------------------------------------
    def start(self, seed: int) -> None:
        self.seed = seed
        self.state = self.game.new_game(seed=seed, options=self.options)
        self.human = 0
        self.bots = {1: RandomBot(seed=seed * 7 + 1)} if self.mode == "bot" else {}
        self.sel = self.ui.new_selection()
        self.shown = 0
        self.before: dict[str, Any] | None = None
        self.since: int | None = None  # where the last playback began
        self.dismissed = False
        # Hot-seat: the player whose hand may be on screen (None = nobody's).
        self.active: int | None = None
        self.handover: int | None = None
        self._after_change()  # bots may act (and setup events appear) before anything shows
        self.shown = self._count()
        self._next_handover()

    def rematch(self) -> None:
        self.start(self.seed + 1)

    @property
    def animating(self) -> bool:
        return self.shown < self._count()

    @property
    def over(self) -> bool:
        """True once the game has ended (the page marks ``#app[data-over]``)."""
        return self._over()

    def viewer(self) -> int | None:
        if self.mode == "bot":
            return self.human
        if self.animating or self.handover is not None:
            return None
        return self.active

    def _after_change(self) -> None:
        """Let bots act, then decide whose eyes the screen is for."""
        if self.bots:
            play_bots(self.state, self.bots)
        self._next_handover()

    def _next_handover(self) -> None:
        if self.mode != "hotseat" or self.animating:
            return
        movers = self._to_move()
        if not movers:
            self.active = self.handover = None
        elif self.active not in movers:
            self.active = None
            self.handover = movers[0]

    # -- what the table reads: one seat's part of the protocol ----------------------------
    # Local play reads the engine state on this device; link play (pgui.link) overrides
    # these to read a session's host or guest instead.
    def _view(self, seat: int | None) -> dict[str, Any]:
        return self.state.view(seat)

    def _legal(self, seat: int) -> list[str]:
        return self.state.legal_actions(seat)

    def _events(self, seat: int | None, start: int = 0) -> list[dict[str, Any]]:
        return self.state.events(seat, start)

    def _count(self) -> int:
        return self.state.event_count()

    def _to_move(self) -> list[int]:
        return self.state.to_move()

    def _over(self) -> bool:
        return self.state.is_over()

    def _apply(self, seat: int, action: str) -> None:
        self.state.apply(seat, action)

    def game_players(self) -> int:
        return self.state.players

    # -- input ---------------------------------------------------------------------------
    def command(self, cmd: str) -> None:
        """Handle one click (its ``data-cmd``). Illegal input shows a message, changes nothing."""
        self.message = ""
        name, _, arg = cmd.partition(":")
        if name == "lang" and arg in LANGS:
            self.lang = arg
            return
        if name == "skip":
            self.skip()
            return
        if name == "rematch":
            self.rematch()
            return
        if name == "dismiss":
            self.dismissed = True
            return
        if name == "handover-ok" and self.handover is not None and not self.animating:
            self.active, self.handover = self.handover, None
            return
        me = self.viewer()
        if me is None or self.animating:
            return
        legal = self._legal(me)
        action = self.ui.handle(cmd, self.sel, legal, self._view(me))
        if action is None:
            return
        before = self._count()
        # What the table looked like before this action: panels keep showing it while a
        # reveal plays back, so nothing later (set-aside cards, spent specials) leaks early.
        self.before = self._view(None if self.mode == "hotseat" else me)
        try:
            self._apply(me, action)
        except pygames.IllegalAction as exc:
            self.message = t("error", self.lang, msg=str(exc))
            return
        self.shown = self.since = before
        if self.mode == "hotseat":
            self.active = None  # the screen goes dark until the next player takes the device
        self._after_change()
        if self.animating:
            self._skip_quiet()
            self.advance()  # the first reveal shows at once; later steps are paced

    def _skip_quiet(self) -> None:
        """Events that need no pause (round headers, set-aside notes) are shown at once."""
        kinds = [e["t"] for e in self._events(self.viewer(), self.shown)]
        for kind in kinds:
            if kind in self.ui.STEP_EVENTS:
                break
            self.shown += 1
        if not self.animating:
            self._next_handover()

    def advance(self) -> None:
        """Show the next step of a reveal."""
        if self.animating:
            self.shown += 1
            self._skip_quiet()

    def skip(self) -> None:
        self.shown = self._count()
        self._next_handover()

    def delay(self) -> int:
        """Milliseconds to wait before the next step (a reveal gets a longer look)."""
        if not self.animating:
            return 0
        event = self._events(self.viewer(), self.shown - 1)[0]  # the step on screen now
        return self.ui.step_delay(event, self.speed)

    # -- output --------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        """A label per seat ("you", "bot"), or empty labels when people share the device."""
        if self.mode == "bot":
            return tuple(t("you" if p == self.human else "bot", self.lang)
                         for p in range(self.game_players()))
        return ("",) * self.game_players()

    def title(self) -> str:
        return self.game.names[self.lang]

    def html(self) -> str:
        lang = self.lang
        me = self.viewer()
        # Everything below is drawn from what the protocol gives this one seat.
        view = self._view(me)
        events = self._events(me)
        legal = self._legal(me) if me is not None and not self.animating else []
        waiting = ""
        if me is not None and not legal:
            others = [p for p in view.get("to_move", []) if p != me]
            waiting = self.ui.who(others[0], lang) if others else ""
        table = self.ui.render_table(view, legal, lang, events=events, sel=self.sel,
                                     shown=self.shown, since=self.since, seats=self.seats(),
                                     waiting_for=waiting,
                                     before=self.before if self.animating else None)
        other = LANGS[1 - LANGS.index(lang)]
        header = (
            f'<header class="bar"><a class="home" href="./index.html">← {esc(t("lobby", lang))}</a>'
            f'<h1>{esc(self.title())}</h1>'
            f'<button type="button" class="lang" data-cmd="lang:{other}" lang="{other}" '
            f'title="{esc(t("lang_switch_label", lang))}">{esc(t("lang_switch", lang))}</button>'
            f'{self._header_extra()}</header>')
        message = f'<p class="message" role="alert">{esc(self.message)}</p>' if self.message else ""
        side = (
            f'<aside class="side"><details class="log" open><summary>{esc(t("log", lang))}</summary>'
            f'{self.render_log(events, view)}</details>'
            f'<details class="rules"><summary>{esc(t("rules", lang))}</summary>'
            f'<div class="rules-text">{self.ui.rules_html(lang)}</div></details>'
            f'{self._side_extra()}</aside>')
        overlay = self._overlay(view)
        return (f'{header}<div class="layout" data-mode="{self.mode}">'
                f'<main class="main">{message}{table}</main>{side}</div>{overlay}')

    def render_log(self, events: list[dict[str, Any]], view: dict[str, Any]) -> str:
        """The played-back events in words, one line each, newest last."""
        lines = ((e["t"], self.ui.describe(e, self.lang, view)) for e in events[:self.shown])
        items = "".join(f'<li class="ev-{esc(kind)}">{esc(text)}</li>'
                        for kind, text in lines)
        # Focusable, so the scrolled log can be read from the keyboard too.
        return (f'<ol class="log-lines" tabindex="0" aria-label="{esc(t("log", self.lang))}">'
                f'{items}</ol>')

    def _overlay(self, view: dict[str, Any]) -> str:
        lang = self.lang
        if self.handover is not None and not self.animating:
            name = self.ui.who(self.handover, lang)
            return (f'<div class="overlay handover" role="dialog" aria-modal="true" '
                    f'aria-labelledby="ov-title"><div class="box">'
                    f'<h2 id="ov-title">{esc(t("handover_title", lang, who=name))}</h2>'
                    f'<p>{esc(t("handover_body", lang, who=name))}</p>'
                    f'<button type="button" class="primary" data-cmd="handover-ok" autofocus>'
                    f'{esc(t("handover_ok", lang, who=name))}</button></div></div>')
        outcome = view["outcome"]
        if outcome is None or self.animating:
            return ""
        headline = self._headline(outcome)
        winner = outcome["winners"][0] if outcome["winners"] else "none"
        rematch = self._rematch_button()
        lobby = f'<a class="button" href="./index.html">{esc(t("back_to_lobby", lang))}</a>'
        if self.dismissed:  # the board stays in view, with a bar to go on from
            return (f'<div class="endbar" data-winner="{winner}" role="status">'
                    f'<b>{esc(headline)}</b>{rematch}{lobby}</div>')
        return (f'<div class="overlay gameover" role="dialog" aria-modal="true" '
                f'aria-labelledby="ov-title" data-winner="{winner}"><div class="box">'
                f'<p class="kicker">{esc(t("game_over", lang))}</p>'
                f'<h2 id="ov-title">{esc(headline)}</h2>'
                f'<p>{esc(self.ui.result_reason(outcome, lang))}</p>{self._over_extra()}'
                f'<div class="buttons">{rematch}'
                f'<button type="button" data-cmd="dismiss">{esc(t("review_board", lang))}</button>'
                f'{lobby}</div></div></div>')

    # -- hooks for other kinds of table (link play adds its connection and checks) -------
    def _header_extra(self) -> str:
        return ""

    def _side_extra(self) -> str:
        return ""

    def _over_extra(self) -> str:
        return ""

    def _rematch_button(self) -> str:
        return (f'<button type="button" class="primary" data-cmd="rematch" autofocus>'
                f'{esc(t("rematch", self.lang))}</button>')

    def _headline(self, outcome: dict[str, Any]) -> str:
        lang = self.lang
        if not outcome["winners"]:
            return t("draw", lang)
        if self.mode == "bot":
            return t("you_win" if outcome["winners"] == [self.human] else "you_lose", lang)
        return t("wins", lang, who=self.ui.who(outcome["winners"][0], lang))
