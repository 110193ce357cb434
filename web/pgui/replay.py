"""Replays, embeds and playing on from a position: a record stepped move by move.

A :class:`ReplayTable` is a table (:class:`pgui.table.Table`) whose game comes from a
record (or a hand-set position) instead of from play. It draws one perspective:

* a seat (``0``, ``1``): what that seat saw at that point, nothing more (its own hand, the
  opponent's cards face down until revealed, the opponent's secret actions as •••);
* ``spectator``: what anyone watching the table saw;
* ``open``: everything, for a finished game only (the UI module's ``open_view`` merges
  every seat's view; a game without one shows seat 0's).

Stepping forward plays the step back as it played at the table (reveal steps paced, the
log worded); stepping back jumps at once. ``interactive`` lets the reader play on from the
ply on screen, against the bot or as both sides, then go back to the recorded line.

Its ``data-cmd`` commands are ``replay:<what>``: ``first``, ``prev``, ``next``, ``last``,
``goto:<ply>``, ``play`` / ``pause`` (autoplay), ``speed:<ms>``, ``bot`` / ``both`` (play
on from here), ``back`` (to the recorded line). The page maps the arrow keys, Home and
End to the first four (``[data-keys]``).

>>> import pygames
>>> s = pygames.get_game("canosa").new_game(seed=1)
>>> for a in ("e3-d3", "b4-b5", "c3-c4"): s.apply(s.to_move()[0], a)
>>> r = ReplayTable("canosa", record=s.record(), lang="en", ply=1, speed=0)
>>> r.cursor, len(r.line)
(1, 3)
>>> r.command("replay:next"); r.skip(); r.cursor
2
>>> r.command("replay:first"); r.cursor
0
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any
from urllib.parse import urlencode

import pygames
from pygames.bots import SearchBot

from .i18n import LANGS, LinkProblem, esc, register, t
from .table import Table

OPEN = "open"
SPECTATOR = "spectator"
MOVES = ("off", "right", "bottom")
SPEEDS = (300, 900, 2000)  # autoplay: ms per move (and per reveal step)

STRINGS: dict[str, dict[str, str]] = {
    "replay.title": {"en": "{game}: replay", "ja": "{game}のリプレイ"},
    "replay.first": {"en": "First move", "ja": "最初へ"},
    "replay.prev": {"en": "Previous move", "ja": "1手戻る"},
    "replay.next": {"en": "Next move", "ja": "1手進む"},
    "replay.last": {"en": "Last move", "ja": "最後へ"},
    "replay.play": {"en": "Play", "ja": "自動再生"},
    "replay.pause": {"en": "Pause", "ja": "一時停止"},
    "replay.speed": {"en": "Speed", "ja": "再生速度"},
    "replay.speed_300": {"en": "Fast", "ja": "速く"},
    "replay.speed_900": {"en": "Normal", "ja": "ふつう"},
    "replay.speed_2000": {"en": "Slow", "ja": "ゆっくり"},
    "replay.ply": {"en": "Move {n} of {total}", "ja": "{n}手目（全{total}手）"},
    "replay.start": {"en": "Start of the game", "ja": "開始局面"},
    "replay.moves": {"en": "Moves", "ja": "手順"},
    "replay.and": {"en": "; at the same time, ", "ja": "。同時に、"},  # read aloud only
    "replay.controls": {"en": "Replay controls", "ja": "リプレイの操作"},
    "replay.hidden": {"en": "(hidden)", "ja": "（非公開）"},
    "replay.seen_by": {"en": "Seen by {who}", "ja": "{who}の視点"},
    "replay.seen_spectator": {"en": "Seen by a spectator", "ja": "観戦者の視点"},
    "replay.seen_open": {"en": "Everything open", "ja": "すべて公開"},
    "replay.seen": {"en": "Seen by", "ja": "視点"},
    "replay.seen_colon": {"en": "Seen by:", "ja": "視点："},
    "replay.as_spectator": {"en": "Spectator", "ja": "観戦者"},
    "replay.as_open": {"en": "All open", "ja": "すべて公開"},
    "replay.open_unfinished": {
        "en": "Everything can be shown only for a finished game: showing what a spectator saw.",
        "ja": "すべて公開できるのは終わった対局だけです。観戦者の視点で表示します。"},
    "replay.play_on": {"en": "Play on from here:", "ja": "ここから続きを遊ぶ："},
    "replay.vs_bot": {"en": "vs bot", "ja": "ボットと対戦"},
    "replay.both": {"en": "as both sides", "ja": "1人で両方を操作"},
    "replay.back": {"en": "Back to the game (move {n})", "ja": "元の記録に戻る（{n}手目）"},
    "replay.playing_on": {"en": "Playing on from move {n}: {k} {k|move|moves} of yours so far.",
                          "ja": "{n}手目から続きを遊んでいます（ここまで{k}手）。"},
    "replay.open_app": {"en": "Open in pygames", "ja": "pygamesで開く"},
    "replay.result": {"en": "Result: {what}", "ja": "結果：{what}"},
    "replay.bad_record": {"en": "This record cannot be shown", "ja": "この記録は表示できません"},
    "replay.nothing": {"en": "Nothing to replay", "ja": "再生する記録がありません"},
}
register(STRINGS)


def parse_ply(text: str | None, total: int) -> int:
    """A ``ply`` parameter: a number of actions from the start, or ``last``.

    >>> parse_ply("last", 9), parse_ply("4", 9), parse_ply(None, 9)
    (9, 4, 9)
    >>> parse_ply("40", 9)
    Traceback (most recent call last):
    pgui.i18n.LinkProblem: This record has 9 moves: there is no move 40.
    """
    if text is None or text == "" or text == "last":
        return total
    if not text.isdecimal():
        raise LinkProblem("ply_text", value=text)
    ply = int(text)
    if ply > total:
        raise LinkProblem("ply", ply=ply, total=total)
    return ply


class ReplayTable(Table):
    """A record on a table: stepped, played back, seen from one perspective."""

    modes = ("replay",)

    def __init__(self, game_id: str, *, record: dict[str, Any] | None = None,
                 make: Any = None, lang: str = "en", speed: int = 900,
                 ply: int | str = "last", perspective: int | str = SPECTATOR,
                 controls: bool = True, moves: str = "right", interactive: bool = False,
                 embed: bool = False, level: str = "normal", page: str = "",
                 source: dict[str, str] | None = None) -> None:
        """``record``: what :meth:`pygames.State.record` gives (validated by replaying
        it), or ``make``: a function making the first state (a position) with no record.
        ``page``: this page's URL (for "open in pygames"); ``source``: the query
        parameters that name the record (``record=`` or ``position=``)."""
        game = pygames.get_game(game_id)
        if record is None:
            record = (make() if make else game.new_game(seed=0)).record()
        self.record_in = record
        self.make = make
        if perspective not in (SPECTATOR, OPEN) and perspective not in range(
                record.get("players", 2)):
            raise LinkProblem("perspective", value=perspective)
        if moves not in MOVES:
            raise LinkProblem("moves", value=moves)
        self.perspective = perspective
        self.controls, self.moves, self.interactive = controls, moves, interactive
        self.embed, self.source = embed, dict(source or {})
        self.ply_in = ply
        super().__init__(game_id, mode="replay", seed=record.get("seed", 0),
                         options=record.get("options"), lang=lang, speed=speed,
                         level=level, slices=True)
        self.page = page

    # -- the line ------------------------------------------------------------------------
    def _base(self) -> pygames.State:
        if self.make is not None:
            return self.make()
        r = self.record_in
        return self.game.new_game(seed=r["seed"], players=r.get("players", 2),
                                  options=r.get("options"))

    def start(self, seed: int) -> None:
        self.seed = seed
        #: The recorded actions, validated: the whole record replays (else ValueError).
        if self.make is None:
            self.game.from_record(self.record_in)  # a ValueError naming a bad action
        self.line = [tuple(a) for a in self.record_in.get("actions", [])]
        final = self._base()
        #: The ply by which everybody has seen action i (a simultaneous choice shows once
        #: the last of its batch is made; one player's own choice at once).
        self.revealed_at: list[int] = []
        #: How many events had happened once action i was played (the first is 0).
        self._event_at: list[int] = [final.event_count()]
        batch: list[int] = []
        waiting: set[int] = set()
        for i, (p, action) in enumerate(self.line):
            movers = final.to_move()
            if not batch and len(movers) > 1:
                waiting = set(movers)
            final.apply(p, action)
            self._event_at.append(final.event_count())
            if waiting:
                batch.append(i)
                waiting.discard(p)
                if not waiting:
                    self.revealed_at.extend([i + 1] * len(batch))
                    batch = []
            else:
                self.revealed_at.append(i + 1)
        self.revealed_at.extend([len(self.line) + 1] * len(batch))  # never completed
        #: The move list's entries: each the actions (their indices, in record order) of
        #: one move, several when seats chose at once (one batch of ``to_move``).
        self.entries: list[list[int]] = []
        for i, shown_at in enumerate(self.revealed_at):
            first = self.entries[-1][0] if self.entries else -1
            if first >= 0 and self.revealed_at[first] == shown_at and shown_at > first + 1:
                self.entries[-1].append(i)  # the same batch as the entry's first action
            else:
                self.entries.append([i])
        #: The ply at the end of each entry: where stepping stops.
        self.bounds = [entry[-1] + 1 for entry in self.entries]
        self.finished = final.is_over()
        self._final = final  # the whole line played: its events name each move in words
        self._log_words: dict[tuple[Any, str], list[str]] = {}
        self.note = ""
        if not getattr(self.ui, "SECRETS", True):  # everyone sees the same: no perspective
            self.perspective = SPECTATOR
        elif self.perspective == OPEN and not self.finished:
            self.perspective, self.note = SPECTATOR, "replay.open_unfinished"
        self.bots, self.thinking, self.played = {}, {}, []
        self.human = self.perspective if isinstance(self.perspective, int) else 0
        self.playing: str | None = None  # "bot" or "both" once the reader plays on
        self.fork = 0
        self.autoplay = False
        self.sel = self.ui.new_selection()
        self.active = self.handover = None
        self.dismissed = True
        self.state = self._base()
        self.cursor = 0
        self._fresh = self._base
        self.goto(parse_ply(self.ply_in, len(self.line)) if isinstance(self.ply_in, str)
                  else max(0, min(int(self.ply_in), len(self.line))))

    def goto(self, ply: int) -> None:
        """Jump to ``ply`` actions from the start (no playback)."""
        ply = max(0, min(ply, len(self.line)))
        if ply < self.cursor:
            self.state, self.cursor = self._base(), 0
        for p, action in self.line[self.cursor:ply]:
            self.state.apply(p, action)
        self.cursor = ply
        self.shown = self._count()
        self.since = self.before = None

    def step(self) -> None:
        """One move forward (every action of a simultaneous choice at once, as the move
        list has them), played back as at the table."""
        if self.cursor >= len(self.line):
            return
        if self.animating:
            self.skip()
        count, before = self._count(), self._view(self.viewer())
        end = self.bounds[bisect_right(self.bounds, self.cursor)]
        for p, action in self.line[self.cursor:end]:
            self.state.apply(p, action)
        self.cursor = end
        if self._count() > count:
            self._play_back_from(count, before)

    def step_back(self) -> None:
        """One move back (to the end of the move list's entry before the one on screen)."""
        k = bisect_left(self.bounds, self.cursor)
        self.goto(self.bounds[k - 1] if k > 0 else 0)

    def move_number(self, ply: int) -> int:
        """The move-list entry that ``ply`` actions reach into (0: the start)."""
        return bisect_left(self.bounds, ply) + 1 if ply > 0 else 0

    # -- playing on from the shown ply ---------------------------------------------------
    def play_on(self, kind: str) -> None:
        if not self.interactive or self.playing or self.state.is_over():
            return
        self.skip()
        self.autoplay = False
        self.playing, self.fork = kind, self.cursor
        movers = self.state.to_move()
        if isinstance(self.perspective, int):
            self.human = self.perspective
        elif movers:
            self.human = movers[0]
        if kind == "bot":
            other = 1 - self.human
            self.bots = {other: SearchBot(self.game, other, level=self.level or "normal",
                                          seed=self.seed * 7 + self.cursor + 1, timed=True)}
        self.played = []
        self._after_change()

    def back_to_line(self) -> None:
        fork = self.fork
        self.playing, self.bots, self.thinking, self.played = None, {}, {}, []
        self.sel = self.ui.new_selection()
        self.state, self.cursor = self._base(), 0
        self.goto(fork)

    def _play(self, p: int, action: str) -> None:
        self.state.apply(p, action)
        self.played.append((p, action))

    def _apply(self, seat: int, action: str) -> None:
        if not self.playing:
            raise pygames.IllegalAction(t("replay.play_on", self.lang))
        self._play(seat, action)

    def perspectives(self) -> list[int | str]:
        """What this replay may be seen as: each seat, a spectator, and (finished) all;
        nothing to choose in a game that hides nothing."""
        if not getattr(self.ui, "SECRETS", True):
            return []
        return [*range(self.game_players()), SPECTATOR, *([OPEN] if self.finished else [])]

    def set_perspective(self, text: str) -> None:
        wanted: int | str = int(text) if text.isdecimal() else text
        if wanted not in self.perspectives():
            return
        self.skip()
        self.perspective, self.note = wanted, ""
        self.human = wanted if isinstance(wanted, int) else 0
        self.since = self.before = None

    # -- whose eyes ----------------------------------------------------------------------
    def viewer(self) -> int | str | None:
        if self.playing == "bot":
            return self.human
        if self.playing == "both":
            movers = self.state.to_move()
            if self.animating or not movers:
                return self.human if isinstance(self.perspective, int) else None
            return movers[0]
        return None if self.perspective == SPECTATOR else self.perspective

    def _view(self, seat: int | str | None) -> dict[str, Any]:
        if seat == OPEN:
            views = [self.state.view(p) for p in range(self.state.players)]
            merge = getattr(self.ui, "open_view", None)
            return merge(views) if merge else views[0]
        return self.state.view(seat)

    def _events(self, seat: int | str | None, start: int = 0) -> list[dict[str, Any]]:
        if seat == OPEN:
            return self.state.open_events(start)
        return self.state.events(seat, start)

    def _legal(self, seat: int | str) -> list[str]:
        if not self.playing or seat == OPEN or seat is None:
            return []
        if self.playing == "bot" and seat != self.human:
            return []
        return self.state.legal_actions(seat)

    # -- autoplay: the page's playback timer drives it -----------------------------------
    @property
    def animating(self) -> bool:
        return self.shown < self._count() or (self.autoplay and self.cursor < len(self.line))

    def advance(self) -> None:
        if self.shown < self._count():
            super().advance()
        elif self.autoplay and not self.playing:
            self.step()
        if self.autoplay and self.cursor >= len(self.line) and self.shown >= self._count():
            self.autoplay = False  # the end: the last move has played back

    def delay(self) -> int:
        if self.shown < self._count():
            return super().delay()
        return self.speed if self.animating else 0

    def skip(self) -> None:
        self.shown = self._count()

    # -- input ---------------------------------------------------------------------------
    def command(self, cmd: str) -> None:
        name, _, arg = cmd.partition(":")
        if name == "replay":
            self.message = ""
            self._replay_command(arg)
            return
        if name in ("rematch", "undo", "handover-ok"):
            return
        super().command(cmd)

    def _replay_command(self, arg: str) -> None:
        what, _, value = arg.partition(":")
        if what == "back" and self.playing:
            self.back_to_line()
            return
        if what in ("bot", "both"):
            self.play_on(what)
            return
        if self.playing:
            return  # the line's controls wait until the reader goes back to it
        if what == "perspective":
            self.set_perspective(value)
        elif what == "speed" and value.isdecimal() and int(value) in SPEEDS:
            self.speed = int(value)
        elif what == "play":
            if self.cursor >= len(self.line):
                self.goto(0)
            self.autoplay = True
        elif what == "pause":
            self.autoplay = False
            self.skip()
        else:
            self.autoplay = False
            if what == "next":
                self.step()
            elif what == "prev":
                self.step_back()
            elif what == "first":
                self.goto(0)
            elif what == "last":
                self.goto(len(self.line))
            elif what == "goto" and value.isdecimal():
                self.goto(int(value))

    # -- output --------------------------------------------------------------------------
    def seats(self) -> tuple[str, ...]:
        if self.playing == "bot":
            return tuple(t("you" if p == self.human else "bot", self.lang)
                         for p in range(self.game_players()))
        names = self.record_in.get("names")
        if isinstance(names, list) and len(names) == self.game_players():
            return tuple(str(n) for n in names)
        return ("",) * self.game_players()

    def title(self) -> str:
        return t("replay.title", self.lang, game=self.game.names[self.lang])

    def _action_text(self, i: int, p: int, action: str) -> str:
        """Action ``i`` in the move list in words, unless this perspective cannot see it
        yet: the game's own ``move_text`` if it has one, else the first thing the log says
        the mover did in that move (what this perspective may know of it)."""
        secrets = getattr(self.ui, "SECRETS", True)
        if not (not secrets or self.perspective == OPEN or p == self.perspective
                or self.revealed_at[i] <= self.cursor):
            return t("replay.hidden", self.lang)
        words = getattr(self.ui, "move_text", None)
        if words is not None:
            return str(words(action, p, self.lang))
        return self._words_from_log()[i] or action

    def _words_from_log(self) -> list[str]:
        """Each move as the log says it, for this perspective and language (worked out once
        per pair: the move list is drawn on every step)."""
        key = (self.perspective, self.lang)
        cache = self._log_words
        if key not in cache:
            seat = None if self.perspective == SPECTATOR else self.perspective
            events = (self._final.open_events() if seat == OPEN
                      else self._final.events(seat))   # type: ignore[arg-type]
            view = self._final.view(None)
            out = []
            for i, (p, _) in enumerate(self.line):
                these = events[self._event_at[i]:self._event_at[i + 1]]
                mine = [e for e in these if e.get("p") == p] or these
                out.append(self.ui.describe(mine[0], self.lang, view).rstrip(".。")
                           if mine else "")
            cache[key] = out
        return cache[key]

    def _move_html(self, i: int, p: int, action: str) -> str:
        """The mover, then the move: a description that names its mover stands alone."""
        who, text = self.ui.who(p, self.lang), self._action_text(i, p, action)
        if text.startswith(who):
            return f'<span class="part" data-seat="{p}"><b>{esc(text)}</b></span>'
        return f'<span class="part" data-seat="{p}">{esc(who)} <b>{esc(text)}</b></span>'

    def _entry_html(self, entry: list[int]) -> str:
        """One entry of the move list: its actions in seat order (several when the seats
        chose at once), a screen reader's pause between them."""
        parts = [self._move_html(i, *self.line[i])
                 for i in sorted(entry, key=lambda i: self.line[i][0])]
        pause = f'<span class="sr-only">{esc(t("replay.and", self.lang))}</span>'
        return f'<span class="parts">{pause.join(parts)}</span>'

    def _perspective_label(self) -> str:
        if self.perspective == OPEN:
            return t("replay.seen_open", self.lang)
        if self.perspective == SPECTATOR:
            return t("replay.seen_spectator", self.lang)
        return t("replay.seen_by", self.lang, who=self.ui.who(self.perspective, self.lang))

    def render_moves(self) -> str:
        lang = self.lang
        first = ' aria-current="step"' if self.cursor == 0 and not self.playing else ""
        items = [f'<li><button type="button" data-cmd="replay:goto:0" class="mv"{first}'
                 f'{" disabled" if self.playing else ""}>'
                 f'{esc(t("replay.start", lang))}</button></li>']
        now = self.move_number(self.cursor)
        for k, (entry, end) in enumerate(zip(self.entries, self.bounds, strict=True), start=1):
            current = ' aria-current="step"' if k == now and not self.playing else ""
            items.append(
                f'<li><button type="button" class="mv" data-cmd="replay:goto:{end}"'
                f' data-ply="{end}"{current}{" disabled" if self.playing else ""}>'
                f'<span class="n">{k}.</span> {self._entry_html(entry)}'
                f'</button></li>')
        return (f'<nav class="moves moves-{self.moves}" aria-label="{esc(t("replay.moves", lang))}">'
                f'<h2>{esc(t("replay.moves", lang))}</h2>'
                f'<ol class="move-list" tabindex="-1">{"".join(items)}</ol></nav>')

    def render_controls(self) -> str:
        lang = self.lang
        total = len(self.line)
        if self.playing:
            mine = sum(1 for p, _ in self.played if self.playing == "both" or p == self.human)
            fork = self.move_number(self.fork)
            return (f'<div class="replay-bar" role="group" aria-label="{esc(t("replay.controls", lang))}">'
                    f'<p class="ply" role="status">{esc(t("replay.playing_on", lang, n=fork, k=mine))}</p>'
                    f'<button type="button" data-cmd="replay:back">'
                    f'{esc(t("replay.back", lang, n=fork))}</button></div>')
        at_start, at_end = self.cursor == 0, self.cursor >= total

        def button(what: str, glyph: str, disabled: bool) -> str:
            label = esc(t(f"replay.{what}", lang))
            return (f'<button type="button" class="step" data-cmd="replay:{what}" '
                    f'aria-label="{label}" title="{label}"{" disabled" if disabled else ""}>'
                    f'<span aria-hidden="true">{glyph}</span></button>')

        ply = (t("replay.start", lang) if at_start else
               t("replay.ply", lang, n=self.move_number(self.cursor), total=len(self.entries)))
        play = (f'<button type="button" data-cmd="replay:pause">{esc(t("replay.pause", lang))}</button>'
                if self.autoplay else
                f'<button type="button" data-cmd="replay:play"{" disabled" if not total else ""}>'
                f'{esc(t("replay.play", lang))}</button>')
        speeds = "".join(
            f'<button type="button" data-cmd="replay:speed:{ms}" class="speed"'
            f' aria-pressed="{"true" if ms == self.speed else "false"}">'
            f'{esc(t(f"replay.speed_{ms}", lang))}</button>' for ms in SPEEDS)
        parts = [button("first", "|◀", at_start), button("prev", "◀", at_start),
                 f'<p class="ply" role="status" aria-live="polite">{esc(ply)}</p>',
                 button("next", "▶", at_end), button("last", "▶|", at_end), play,
                 f'<span class="speeds" role="group" aria-label="{esc(t("replay.speed", lang))}">'
                 f'{speeds}</span>']
        seen = "".join(
            f'<button type="button" class="persp-pick" data-cmd="replay:perspective:{p}" '
            f'aria-pressed="{"true" if p == self.perspective else "false"}">'
            f'{esc(self.ui.who(p, lang) if isinstance(p, int) else t(f"replay.as_{p}", lang))}'
            f'</button>' for p in self.perspectives())
        if seen:
            parts.append(f'<span class="seen" role="group" aria-label="{esc(t("replay.seen", lang))}">'
                         f'<span aria-hidden="true">{esc(t("replay.seen_colon", lang))}</span> {seen}</span>')
        keys = ('{"ArrowLeft": "replay:prev", "ArrowRight": "replay:next", '
                '"Home": "replay:first", "End": "replay:last"}')
        return (f'<div class="replay-bar" role="group" data-keys="{esc(keys)}" '
                f'aria-label="{esc(t("replay.controls", lang))}">{"".join(parts)}</div>')

    def render_play_on(self) -> str:
        if not self.interactive or self.playing or self.state.is_over():
            return ""
        lang = self.lang
        return (f'<div class="play-on"><span>{esc(t("replay.play_on", lang))}</span>'
                f'<button type="button" data-cmd="replay:bot">{esc(t("replay.vs_bot", lang))}</button>'
                f'<button type="button" data-cmd="replay:both">{esc(t("replay.both", lang))}</button>'
                f'</div>')

    def app_link(self) -> str:
        """The full app's replay of the same record at the same ply (``play.html``)."""
        base = self.page.rsplit("/", 1)[0] + "/" if "/" in self.page else "./"
        params = {"mode": "replay", "game": self.game.id, **self.source,
                  "ply": str(self.cursor), "lang": self.lang,
                  "perspective": str(self.perspective), "interactive": "on"}
        return f"{base}play.html?{urlencode(params)}"

    def html(self) -> str:
        lang = self.lang
        me = self.viewer()
        view = self._view(me)
        events = self._events(me)
        legal = self._legal(me) if me is not None and not self.animating else []
        waiting = ""
        if self.playing and me is not None and not legal:
            others = [p for p in view.get("to_move", []) if p != me]
            waiting = self.ui.who(others[0], lang) if others else ""
        table = self.ui.render_table(view, legal, lang, events=events, sel=self.sel,
                                     shown=self.shown, since=self.since, seats=self.seats(),
                                     waiting_for=waiting,
                                     before=self.before if self.animating else None)
        notes = []
        if self.note:
            notes.append(f'<p class="note" role="note">{esc(t(self.note, lang))}</p>')
        if self.message:
            notes.append(f'<p class="message" role="alert">{esc(self.message)}</p>')
        outcome = view.get("outcome")
        if outcome is not None and not self.animating:
            what = self._headline(outcome)
            reason = self.ui.result_reason(outcome, lang)
            notes.append(f'<p class="result" role="status"><b>{esc(t("replay.result", lang, what=what))}</b> '
                         f'{esc(reason)}</p>')
        controls = self.render_controls() if self.controls or self.playing else ""
        moves = self.render_moves() if self.moves != "off" else ""
        other = LANGS[1 - LANGS.index(lang)]
        top = f'<div class="replay-top"><p class="persp">{esc(self._perspective_label())}</p>'
        if self.embed:  # no header bar: its thinking dot and language switch are here
            top += (f'{self._header_extra()}'
                    f'<button type="button" class="lang" data-cmd="lang:{other}" lang="{other}" '
                    f'title="{esc(t("lang_switch_label", lang))}">{esc(t("lang_switch", lang))}</button>'
                    f'<a class="open-app" href="{esc(self.app_link())}" target="_blank" '
                    f'rel="noopener">{esc(t("replay.open_app", lang))} ↗</a>')
        top += "</div>"
        log = (f'<details class="log"{"" if self.embed else " open"}><summary>{esc(t("log", lang))}</summary>'
               f'{self.render_log(events, view)}</details>')
        # An embed has no header bar: its heading is for screen readers (the page's h1).
        title = f'<h1 class="sr-only">{esc(self.title())}</h1>' if self.embed else ""
        main = (f'<main class="main">{title}{top}{"".join(notes)}{controls}'
                f'{self.render_play_on()}{table}</main>')
        side = f'<aside class="side">{moves if self.moves == "right" else ""}{log}'
        if not self.embed:
            side += (f'<details class="rules"><summary>{esc(t("rules", lang))}</summary>'
                     f'<div class="rules-text">{self.ui.rules_html(lang)}</div></details>'
                     f'{self._side_extra()}{self._share()}')
        side += "</aside>"
        bottom = moves if self.moves == "bottom" else ""
        header = "" if self.embed else self._header()
        return (f'{header}<div class="layout replay{" embed" if self.embed else ""}" '
                f'data-mode="replay" data-ply="{self.cursor}" data-plies="{len(self.line)}" '
                f'data-perspective="{esc(self.perspective)}" '
                f'data-playing="{self.playing or ""}" data-played="{len(self.played)}">'
                f'{main}{side}{bottom}</div>')

    def export_record(self) -> dict[str, Any] | None:
        if self.animating and not self.autoplay:
            return None
        if self.playing:  # the game played on: the line up to the fork, then the reader's
            return self.state.record() if self.make is None else None
        return self.record_in

    def _share(self, **kwargs: Any) -> str:
        if self.embed:
            return ""
        position = "position" in self.source
        if self.playing:
            return super()._share() if not position else ""
        return super()._share(ply=self.cursor, perspective=str(self.perspective),
                              source=self.source if position else None)

    def _headline(self, outcome: dict[str, Any]) -> str:
        if self.playing == "bot":
            return super()._headline(outcome)
        if not outcome["winners"]:
            return t("draw", self.lang)
        return t("wins", self.lang, who=self.ui.who(outcome["winners"][0], self.lang))
