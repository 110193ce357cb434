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
* ``step_delay(event, speed)``: milliseconds to look at a step;
* for the lobby's tile (:mod:`pgui.lobby`, built in CPython; a missing one stops the build
  naming it): ``thumbnail(lang)``, its picture, static inert SVG/HTML of a typical position
  drawn from the engine's public view (the lobby hides it from screen readers), and
  ``PLAY_TIME``, ``(low, high)`` minutes.

Optionally, ``UNDO = True``: in local play (against the bot, hot-seat) a player who is
still to move after an action of their own may take it back (``command("undo")``, the
button under the table), and in hot-seat that player keeps the device without a hand-over
(a game whose turn is several actions by one player). Link play never offers it.
``SECRETS = False``: the game hides nothing, so pass and play shows no hand-over screen
and a replay offers no perspective. ``move_text(action, seat, lang)``: an action in words
for a replay's move list (else the list says what the log says the mover did);
``open_view(views)``: every seat's view merged, for a finished game's open replay.
The view always says whose screen it is (``view["you"]``: a seat, or None for nobody's);
a game whose view is the same for every seat gets it from the table.
``render_table`` marks its one status line (what the viewer must do now, or is waiting
for) with ``data-status``; the shell keeps it on screen. It marks the controls of the
current choice (the hand a card is played from, a question's buttons) with
``data-choice``, and what a playback step reveals (the cards turned over) with
``data-reveal``: the shell scrolls that into view, and the phone tests check both are on
screen.
``handover_quick(view, seat, lang)``: what pass and play's hand-over screen for ``seat``
may say and do without showing that seat's hand (a game whose other player answers in the
middle of a turn: an interrupt most often passed). It returns None (the plain hand-over),
or ``{"say": text, "actions": [(action, label), ...], "ok": label}``: ``view`` is
nobody's view (public information only, so the screen tells whoever holds the device
nothing secret), ``say`` what is being answered, each action a button that plays that
action for ``seat`` at once (``command("handover-act:<action>")``, if it is legal), after
which the device goes on to whoever moves next; ``ok`` (optional) relabels the button
that shows the hand.
``OPTION_HELP``: ``{option: {value (as a string): {"en": ..., "ja": ...}}}``, a sentence
the lobby's settings show under an option value its label does not explain.
Free-form options (no ``values`` in the game's option schema, e.g. a deck code: the game's
``resolve_options`` canonicalises the text and raises a ``ValueError`` for a bad one; with
a ``.ja`` the app says why in Japanese too) travel as text in URLs, records and invites.
For them a UI module may give, all optional:
``OPTION_CHOICES``: ``{option: [(value, {"en": ..., "ja": ...}), ...]}``, values the
lobby's settings offer besides the default (with nothing offered and nothing stored, the
settings show a text field);
``OPTION_STORE``: ``{option: tool}``, a tool of ``TOOLS`` whose entries saved in this
browser (``{"name", "value"}``) the settings offer too (:mod:`pgui.tools`);
``SEAT_OPTIONS``: ``{"options": (seat 0's option, seat 1's), "mine": {"en", "ja"},
"theirs": {"en", "ja"}}``, an option per seat (each player's deck): against the bot the
settings ask for yours and the bot's (the query's ``mine=`` and ``theirs=``), and the
table puts them on the right seats once the human's seat is known (a random seat, each
rematch); pass and play and link play (the host is seat 0) use the options themselves,
and with an optional ``"opponent": {"en", "ja"}`` link play names them as each player reads
them: the host's settings and the guest's Join screen say ``mine`` for the reader's own
seat's option and ``opponent`` for the other's;
``TOOLS``: ``{name: {"label": {"en", "ja"}, "make": "module:Class"}}``, pages of the game
besides its table (a deck builder), each a :class:`pgui.tools.Tool`, opened by
``play.html?game=<id>&tool=<name>`` and linked from the lobby's tile.
``STYLESHEET``: the table's own stylesheet, a path from the app's root (the games of this
package keep theirs beside their module, ``pgui/<game id>.css``); the page loads it with
the table, after the shared ``app.css``, which names no game.
``seat_name(seat, view, lang)`` (optional): a seat's name for the screens around the table
(link play's invite per friend's seat, "Invite for Red"; without it "Player N").

The page contract (what tests and pages outside read; link play's is in README's "Table
URLs and options"): ``#app`` carries ``data-animating``, ``data-over``, ``data-thinking``;
moves are ``[data-cmd]`` buttons. In link play ``<html data-peer>`` is the connection, the
host's ``[data-invite]`` the invite and ``[data-record]`` the record (a guest's once the
game is over); with several friends (:mod:`pgui.link`: ``seats=you,link,link,...``) the host
gives each friend's seat ``[data-invite-<seat>]`` and ``<html data-peer-<seat>>`` instead of
``[data-invite]``, and ``[data-cmd="seat_bot:<seat>"]`` for a seat whose friend is gone.

>>> table = Table("kiriai", mode="bot", seed=1, lang="en", speed=0)
>>> table.command("pick:C"); table.command("pick:B"); table.command("confirm")
>>> table.animating
True
>>> table.skip(); table.animating
False
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import pygames
from pygames.bots import LEVELS, RandomBot, SearchBot

from . import ui_module
from .i18n import LANGS, esc, t

MODES = ("bot", "hotseat")
#: Who sits in a seat at a local table (:class:`Table`'s ``seats``): ``you`` (the person
#: whose device it is), ``here`` (another person at this device: pass and play), a bot of
#: a level (:data:`pygames.bots.LEVELS`), or ``random`` (a bot that plays at random).
PEOPLE = ("you", "here")
SEAT_KINDS = (*PEOPLE, *LEVELS, "random")


class Table:
    #: The modes this kind of table plays (link play: :class:`pgui.link.LinkTable`).
    modes = MODES
    #: This page's address (the session glue sets it), for links that leave the page.
    page = ""

    def __init__(self, game_id: str, *, mode: str = "bot", seed: int = 0,
                 options: dict[str, Any] | None = None, lang: str = "en",
                 speed: int = 900, level: str | None = None, seat: int | str = 0,
                 slices: bool = False, seat_values: tuple[Any, Any] | None = None,
                 seats: Sequence[str] | None = None) -> None:
        """``level``: the bot's (``easy``/``normal``/``strong``: :class:`SearchBot`; None: a
        random bot); ``seat``: the human's against the bot (0 = first player, or
        ``"random"``: drawn from the seed); ``slices``: the bot thinks only in
        :meth:`think`, a slice at a time, so a page stays answerable (else at once);
        ``seat_values``: against the bot, the human's and the bot's values of the UI
        module's ``SEAT_OPTIONS`` (None: leave that one as ``options`` says), set on the
        right seats each time the human's seat is drawn (a random seat, every rematch).

        ``seats``: who sits where, one of :data:`SEAT_KINDS` per seat (as many as the game
        is played by, within its ``min_players``..``max_players``), exactly one ``you``;
        it replaces ``mode``, ``level`` and ``seat``. One person at the device is
        ``mode="bot"`` (that person's screen throughout), several are ``"hotseat"`` (pass
        and play, the bots' moves playing out on the device between theirs). Without it,
        ``mode="bot"`` is ``you`` and a bot of ``level``, ``"hotseat"`` is ``you, here``."""
        if seats is not None:
            seats = tuple(seats)
            bad = [k for k in seats if k not in SEAT_KINDS]
            if bad:
                raise ValueError(f"unknown seat {bad[0]!r} (use: {', '.join(SEAT_KINDS)})")
            if seats.count("you") != 1:
                raise ValueError(f"exactly one seat is 'you', not {seats.count('you')}")
            mode = "bot" if sum(k in PEOPLE for k in seats) == 1 else "hotseat"
            seat = seats.index("you")
            level = next((k for k in seats if k in LEVELS), None)
        if level is not None and level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r} (use one of: {', '.join(LEVELS)})")
        if seat not in (0, 1, "random") and seats is None:
            raise ValueError(f"the seat must be 0, 1 or random, not {seat!r}")
        self.level, self.seat_choice, self.slices = level, seat, slices
        self.seats_in = seats
        #: Who sits in each seat (:data:`SEAT_KINDS`), set by :meth:`start`.
        self.seat_kinds: tuple[str, ...] = ()
        #: Pass and play: the person who last had the device (their seat), so it is handed
        #: over only from one person to another (None: nobody yet, or not known).
        self.holder: int | None = None
        #: Each thinking bot's ``[search, its first slice's time, when its clock started]``
        #: (the times None until then; see :meth:`think`).
        self.thinking: dict[int, list[Any]] = {}
        #: The last bot move's search: ``{"iterations", "ms", "waited"}``: ms thought, and
        #: how long of that a person waited for it (the page shows them to tests and the
        #: benchmark as ``#app[data-bot-iterations]``, ``[data-bot-ms]``, ``[data-bot-waited]``).
        self.bot_move: dict[str, int] | None = None
        if mode not in self.modes:
            raise ValueError(f"unknown mode {mode!r} (use one of: {', '.join(self.modes)})")
        self.game = pygames.get_game(game_id)
        self.ui = ui_module(game_id)
        if seats is not None:
            self.game.check_players(len(seats))
        self.mode = mode
        self.lang = lang if lang in LANGS else "en"
        self.speed = speed
        self.options = self.game.resolve_options(options)
        self.seat_values = seat_values if mode == "bot" else None
        self.message = ""
        self.start(seed)

    # -- session -------------------------------------------------------------------------
    def start(self, seed: int) -> None:
        self.seed = seed
        self.human = seed % 2 if self.seat_choice == "random" else int(self.seat_choice)
        self.seat_kinds = self._seat_kinds()
        self._place_seat_values()
        players = len(self.seat_kinds)
        self.state = self.game.new_game(seed=seed, players=players, options=self.options)
        self._fresh = lambda: self.game.new_game(seed=seed, players=players,
                                                 options=self.options)
        #: Every action played at this table, in order (undo replays all but the last).
        self.played: list[tuple[int, str]] = []
        self.bots: dict[int, Any] = self._new_bots()
        self.thinking = {}
        self.sel = self.ui.new_selection()
        self.shown = 0
        self.before: dict[str, Any] | None = None
        self.since: int | None = None  # where the last playback began
        self.dismissed = False
        # Hot-seat: the player whose hand may be on screen (None = nobody's).
        self.active: int | None = None
        self.handover: int | None = None
        self.holder = None
        self._after_change()  # bots may act (and setup events appear) before anything shows
        self.shown = self._count()
        self._next_handover()

    def _seat_kinds(self) -> tuple[str, ...]:
        """Who sits where this game: the ``seats`` given, else what the mode says (against
        the bot, the human's seat drawn anew each game when it is random)."""
        if self.seats_in is not None:
            return self.seats_in
        if self.mode == "bot":
            bot = self.level or "random"
            return tuple("you" if p == self.human else bot for p in range(2))
        return ("you", "here")

    def people(self) -> list[int]:
        """The seats of the people at this device (the others are bots)."""
        return [p for p, kind in enumerate(self.seat_kinds) if kind in PEOPLE]

    def _place_seat_values(self) -> None:
        """``seat_values`` (the human's, the bot's) onto the options of their seats."""
        names = (getattr(self.ui, "SEAT_OPTIONS", None) or {}).get("options")
        if not self.seat_values or not names or len(self.seat_kinds) != 2:
            return
        options = dict(self.options)
        for who, value in ((self.human, self.seat_values[0]), (1 - self.human,
                                                                 self.seat_values[1])):
            if value is not None:
                options[names[who]] = value
        self.options = self.game.resolve_options(options)

    def _new_bots(self) -> dict[int, Any]:
        """The bots of the seats no person sits in (each seeded by the deal and its place
        among the bots), before their first decision."""
        bots: dict[int, Any] = {}
        for p, kind in enumerate(self.seat_kinds):
            if kind in PEOPLE:
                continue
            seed = self.seed * 7 + 1 + 7919 * len(bots)
            bots[p] = (RandomBot(seed=seed) if kind == "random" else
                       SearchBot(self.game, p, level=kind, seed=seed, timed=self.slices))
        return bots

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
        """Let bots act (or start thinking), then decide whose eyes the screen is for."""
        if self.bots:
            if self.slices:
                self._start_thinking()
            else:
                self._play_bots()
        self._next_handover()

    def _play_bots(self) -> None:
        """The bots act at once until a person must act (as :func:`play_bots`), each
        action kept in :attr:`played`."""
        while movers := [p for p in self.state.to_move() if p in self.bots]:
            for p in movers:
                s = self.state
                self._play(p, self.bots[p].choose(s.view(p), s.legal_actions(p), s.events(p)))

    def _play(self, p: int, action: str) -> None:
        self.state.apply(p, action)
        self.played.append((p, action))

    # -- a bot that thinks in slices ------------------------------------------------------
    def _start_thinking(self) -> None:
        """Every bot to move begins a search (a random bot just plays)."""
        for p in self.state.to_move():
            bot = self.bots.get(p)
            if bot is None or p in self.thinking:
                continue
            view, legal, events = (self.state.view(p), self.state.legal_actions(p),
                                   self.state.events(p))
            if isinstance(bot, SearchBot):
                self.thinking[p] = [bot.start(view, legal, events), None, None]
            else:
                self._bot_plays(p, bot.choose(view, legal, events))

    def think(self, ms: float = 40.0) -> bool:
        """Think for about ``ms`` milliseconds; True if a bot has moved (redraw).

        A bot's clock (its level's seconds) runs only while nobody else has to decide: while
        a person chooses at the same time (Kiri-ai's programs, Cardia's cards) the bot
        thinks on up to its iterations, as a person across the table would, and it never
        keeps anyone waiting longer than its seconds once they have chosen. Nor does the
        clock count the time the page took to draw the table before the first slice."""
        now = time.perf_counter()
        deadline = now + ms / 1000
        moved = False
        others = self._undecided_people()
        for p, thought in list(self.thinking.items()):
            search, first, started = thought
            bot = self.bots[p]
            if first is None:
                first = thought[1] = now
            if started is None and not others:  # someone waits for this bot from now on
                started = thought[2] = now
            while not bot.done(search, started) and time.perf_counter() < deadline:
                search.run(min(16, bot.budget.iterations - search.iterations), deadline)
            if bot.done(search, started):
                del self.thinking[p]
                bot.last_iterations = search.iterations
                end = time.perf_counter()
                self.bot_move = {"iterations": search.iterations,
                                 "ms": round((end - first) * 1000),
                                 "waited": round((end - started) * 1000) if started else 0,
                                 "n": (self.bot_move or {}).get("n", 0) + 1}
                self._bot_plays(p, search.best())
                moved = True
        return moved

    def _undecided_people(self) -> list[int]:
        """The people (not bots) who still have to decide now: a bot's clock waits for
        them (:meth:`think`)."""
        return [q for q in self._to_move() if q not in self.bots]

    def _bot_plays(self, p: int, action: str) -> None:
        """A bot's move, played back as a person's would be."""
        was_animating, count = self.animating, self._count()
        before = self._view(None if self.mode == "hotseat" else self.human)
        self._play(p, action)
        if self._count() > count and not was_animating:
            self._play_back_from(count, before)
        self._start_thinking()
        self._next_handover()

    def _play_back_from(self, count: int, before: dict[str, Any] | None) -> None:
        """Play back the events from number ``count`` on that came without a click here
        (a bot's move, a friend's), the panels showing the table as it was (``before``)."""
        self.shown = self.since = count
        self.before = before
        self._skip_quiet()
        if self.animating:
            self.advance()

    def _next_handover(self) -> None:
        """Pass and play: whose hand the screen may show now. The first person to move gets
        the device through the hand-over screen, unless they hold it already (never a
        hand-over from someone to themselves); while only bots are to move (or think) the
        screen shows nobody's hand."""
        if self.mode != "hotseat" or self.animating:
            return
        movers = [p for p in self._to_move() if p not in self.bots]
        if not movers:
            self.active = self.handover = None
        elif not getattr(self.ui, "SECRETS", True):  # nothing hidden: no need to hand over
            self.active, self.handover = movers[0], None
            self.holder = self.active
        elif self.active not in movers:
            if movers[0] == self.holder:  # still in this person's hands: nothing to hand over
                self.active, self.handover = self.holder, None
            else:
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
        self._play(seat, action)

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
            self.holder = self.active
            return
        if name == "handover-act":
            self._handover_act(arg)
            return
        if name == "undo":
            self.undo()
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
        if self.mode == "hotseat" and not (self._undoable() and me in self._to_move()):
            self.active = None  # the screen goes dark until the next player takes the device
        self._after_change()
        if self.animating:
            self._skip_quiet()
            self.advance()  # the first reveal shows at once; later steps are paced

    def _quick(self, seat: int) -> dict[str, Any] | None:
        """The UI module's quick answers for the hand-over to ``seat`` (see the module
        docstring: ``handover_quick``), from nobody's view."""
        quick = getattr(self.ui, "handover_quick", None)
        return quick(self._view(None), seat, self.lang) if quick else None

    def _handover_act(self, action: str) -> None:
        """A quick answer on the hand-over screen: played for the seat the device is being
        handed to, whose hand never shows; then the device goes to whoever moves next."""
        seat = self.handover
        if seat is None or self.animating:
            return
        quick = self._quick(seat) or {}
        if action not in [a for a, _ in quick.get("actions", [])] or action not in self._legal(seat):
            return
        before = self._count()
        self.before = self._view(None)
        try:
            self._apply(seat, action)
        except pygames.IllegalAction as exc:
            self.message = t("error", self.lang, msg=str(exc))
            return
        self.shown = self.since = before
        self.holder, self.active, self.handover = seat, None, None
        self._after_change()
        if self.animating:
            self._skip_quiet()
            self.advance()

    # -- undo (local play, for games whose UI module says UNDO) ---------------------------
    def _undoable(self) -> bool:
        """This table may take actions back: local play of a game that offers it."""
        return self.mode in MODES and getattr(self.ui, "UNDO", False)

    def can_undo(self) -> bool:
        """The last action was the viewer's, who is still to move (mid-turn), and the
        screen is settled."""
        me = self.viewer()
        return (self._undoable() and bool(self.played) and me is not None
                and not self.animating and not self._over()
                and self.played[-1][0] == me and me in self._to_move())

    def undo(self) -> None:
        """Take the viewer's last action back: the session is rebuilt by replaying every
        action but that one (nothing changes if :meth:`can_undo` is False)."""
        if not self.can_undo():
            return
        keep = self.played[:-1]
        self.state = self._fresh()
        self.played = []
        for p, action in keep:
            self._play(p, action)
        self.sel = self.ui.new_selection()
        self.shown = self._count()
        self.since = None
        self.before = None

    def resume(self, actions: list[list[Any]]) -> None:
        """Play on from a saved game (:mod:`pgui.saved`): replay its ``[player, action]``
        pairs (the bots' too) from this table's deal, then let the bots think if they are
        to move. The screen shows the position at once (no playback)."""
        self.state, self.played, self.thinking = self._fresh(), [], {}
        self.bots = self._new_bots()  # as they were before their first decision
        for p, action in actions:
            bot = self.bots.get(p)
            if bot is not None:  # one decision of the bot's: its later moves stay the same
                bot.skip(self.state.legal_actions(p))
            self._play(p, action)
        self._settle_new_state()

    def load(self, make: Callable[[], Any]) -> None:
        """Play on from a hand-set position: ``make()`` returns a new state (tests,
        puzzles); undo replays from another ``make()``. The bots act if they are to move."""
        self.state, self._fresh, self.played = make(), make, []
        self.positional = True  # no record replays it: nothing to save or share
        self._settle_new_state()

    def _settle_new_state(self) -> None:
        """After :meth:`resume` or :meth:`load` replaced the state: nothing selected or
        played back, the bots act if they are to move, then whose eyes the screen is for."""
        self.sel = self.ui.new_selection()
        self.before = self.since = None
        self.active = self.handover = self.holder = None
        self._after_change()
        self.shown = self._count()
        self._next_handover()

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
        """A label per seat ("you", "bot"); when people share the device theirs are empty
        (the screen is each one's in turn), the bots' still say "bot"."""
        kinds = self.seat_kinds or ("",) * self.game_players()
        if self.mode == "bot":
            return tuple(t("you" if p == self.human else "bot", self.lang)
                         for p in range(self.game_players()))
        return tuple("" if kind in PEOPLE or not kind else t("bot", self.lang)
                     for kind in kinds)

    def title(self) -> str:
        return self.game.names[self.lang]

    def watched_movers(self) -> list[int]:
        """On a spectator's table of a game in play (link play's watch page): the seats the
        game waits for, which its status line names; else none (a replay shown from
        nobody's seat says nothing)."""
        return []

    def html(self) -> str:
        lang = self.lang
        me = self.viewer()
        # Everything below is drawn from what the protocol gives this one seat.
        view = self._view(me)
        if "you" not in view:  # a game that shows every seat the same: say whose screen
            view = {**view, "you": me}
        events = self._events(me)
        legal = self._legal(me) if me is not None and not self.animating else []
        waiting = ""
        if me is not None and not legal:
            others = [p for p in view.get("to_move", []) if p != me]
            waiting = self.ui.who(others[0], lang) if others else ""
        elif me is None and (movers := self.watched_movers()):  # a spectator: whom the
            waiting = ("、" if lang == "ja" else ", ").join(      # game waits for
                self.ui.who(p, lang) for p in movers)
        table = self.ui.render_table(view, legal, lang, events=events, sel=self.sel,
                                     shown=self.shown, since=self.since, seats=self.seats(),
                                     waiting_for=waiting,
                                     before=self.before if self.animating else None)
        header = self._header()
        message = f'<p class="message" role="alert">{esc(self.message)}</p>' if self.message else ""
        if self.can_undo():
            table += (f'<div class="controls undo"><button type="button" data-cmd="undo" '
                      f'title="{esc(t("undo_label", lang))}"><span aria-hidden="true">↶ </span>'
                      f'{esc(t("undo", lang))}</button></div>')
        side = (
            f'<aside class="side"><details class="log" open><summary>{esc(t("log", lang))}</summary>'
            f'{self.render_log(events, view)}</details>'
            f'<details class="rules"><summary>{esc(t("rules", lang))}</summary>'
            f'<div class="rules-text">{self.ui.rules_html(lang)}</div></details>'
            f'{self._side_extra()}{self._share()}</aside>')
        overlay = self._overlay(view)
        return (f'{header}<div class="layout" data-mode="{self.mode}">'
                f'<main class="main">{message}{table}</main>{side}</div>{overlay}')

    def _header(self) -> str:
        """The bar: back to the lobby, the game's name, the language switch, and what a
        kind of table adds (a bot thinking, the connection)."""
        lang = self.lang
        other = LANGS[1 - LANGS.index(lang)]
        return (
            f'<header class="bar"><a class="home" href="./index.html">← {esc(t("lobby", lang))}</a>'
            f'<h1>{esc(self.title())}</h1>'
            f'<button type="button" class="lang" data-cmd="lang:{other}" lang="{other}" '
            f'title="{esc(t("lang_switch_label", lang))}">{esc(t("lang_switch", lang))}</button>'
            f'{self._header_extra()}</header>')

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
            quick = self._quick(self.handover) or {}
            say = f'<p class="quick-say">{esc(quick["say"])}</p>' if quick.get("say") else ""
            acts = "".join(f'<button type="button" class="primary" '
                           f'data-cmd="handover-act:{esc(a)}" autofocus>{esc(label)}</button>'
                           for a, label in quick.get("actions", []))
            ok = quick.get("ok") or t("handover_ok", lang, who=name)
            plain = "" if acts else ' class="primary" autofocus'  # else a quick answer leads
            return (f'<div class="overlay handover" role="dialog" aria-modal="true" '
                    f'aria-labelledby="ov-title"><div class="box">'
                    f'<h2 id="ov-title">{esc(t("handover_title", lang, who=name))}</h2>'
                    f'{say}<p>{esc(t("handover_body", lang, who=name))}</p>{acts}'
                    f'<button type="button"{plain} data-cmd="handover-ok">'
                    f'{esc(ok)}</button></div></div>')
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
                f'{self._over_links()}'
                f'<div class="buttons">{rematch}'
                f'<button type="button" data-cmd="dismiss">{esc(t("review_board", lang))}</button>'
                f'{lobby}</div></div></div>')

    # -- saving and sharing (pgui.share) -----------------------------------------------
    def export_record(self) -> dict[str, Any] | None:
        """The record this table may show: once the game is over, or at any time for a
        game that hides nothing (a record holds the deal)."""
        if self.animating or getattr(self, "positional", False):
            return None
        if self._over() or not getattr(self.ui, "SECRETS", True):
            record = self.state.record()
            if self.seats_in is not None:  # who sat where: names the replay shows
                record["names"] = self.seat_names()
            return record
        return None

    def seat_names(self) -> list[str]:
        """A name per seat for a record: you, the other people here (by their place), the
        bots with their level."""
        lang = self.lang
        return [t("record_you", lang) if kind == "you"
                else t("record_here", lang, n=p + 1) if kind == "here"
                else t("record_bot", lang, level=t(f"level_{kind}", lang) if kind in LEVELS
                       else kind)
                for p, kind in enumerate(self.seat_kinds)]

    def base_url(self) -> str:
        """The app's address, ending in ``/`` (``./`` when the page did not say)."""
        return self.page.rsplit("/", 1)[0] + "/" if "/" in self.page else "./"

    def _share(self, **kwargs: Any) -> str:
        record = self.export_record()
        if record is None:  # nothing to save yet: another game may still be opened
            from .share import open_panel

            return open_panel(self.lang)
        from .share import share_panel

        return share_panel(record, self.lang, base=self.base_url(),
                           game_name=self.game.names[self.lang], **kwargs)

    def _over_links(self) -> str:
        """The game-over screen's way to save or replay the game."""
        record = self.export_record()
        if record is None:
            return ""
        from .share import over_links

        return over_links(record, self.lang, base=self.base_url())

    # -- hooks for other kinds of table (link play adds its connection and checks) -------
    def _header_extra(self) -> str:
        if not self.thinking or self.animating:  # a reveal on screen: not "thinking…"
            return ""
        who = self.ui.who(next(iter(self.thinking)), self.lang)
        return (f'<p class="thinking" role="status"><span class="dot" aria-hidden="true"></span>'
                f'{esc(t("bot_thinking", self.lang, who=who))}</p>')

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
            if self.human in outcome["winners"] and len(outcome["winners"]) > 1:
                return t("draw", lang)  # a shared first place
            return t("you_win" if outcome["winners"] == [self.human] else "you_lose", lang)
        return t("wins", lang, who=self.ui.who(outcome["winners"][0], lang))
