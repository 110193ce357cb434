"""The common protocol every game implements, defined once.

A :class:`Game` describes a game (names, player counts, options) and makes states;
a :class:`State` is one game in progress. Actions are short strings in the game's own
notation, so a record reads like a score sheet::

    >>> import pygames
    >>> game = pygames.get_game("kiriai")
    >>> state = game.new_game(seed=7)
    >>> state.to_move()
    [0, 1]
    >>> "CB" in state.legal_actions(0)
    True

Bots (:mod:`pygames.bots`) play a seat from its view, legal actions and events alone, through
the game's hooks for search: :meth:`Game.determinize` (worlds the seat cannot tell from the
real one), the fast path of :class:`State`, the settings ``Game.search_iterations``,
``Game.search_opponents`` and ``Game.playout_depth``, and :meth:`Game.forced_is_secret`
(default False): True where a seat's legal actions hang on what only it can see, so that a
bot with a single legal action there must think as long as it would over a real choice, or
the others could tell from its speed that it had none.

Nothing here may import js, pyodide or pyscript: the same code runs in CPython and in
Pyodide.
"""

from __future__ import annotations

import copy
import marshal
from abc import ABC, abstractmethod
from typing import Any, ClassVar, Self

__all__ = ["IllegalAction", "Game", "State", "Rng", "RECORD_VERSION", "private_event",
           "redact_event", "two_player_outcome"]

#: Version of the record format (bumped when a record's meaning changes).
RECORD_VERSION = 1


class IllegalAction(ValueError):
    """An action that is not legal now. The state is left exactly as it was.

    The message is meant for a player: it says what was wrong in plain words.
    """


class Rng:
    """A small seeded PRNG (splitmix64) that gives the same numbers in CPython and Pyodide.

    We never use the global :mod:`random`: its internals are not part of our record format.

    >>> Rng(1).randbelow(6) == Rng(1).randbelow(6)
    True
    """

    _MASK = (1 << 64) - 1

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        self._state = seed & self._MASK

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        # The one splitmix64 step. randbelow and shuffle write it out again (they are the
        # hot spot of every random playout): change all three together;
        # tests/test_api.py checks that they give next64's numbers.
        self._state = z = (self._state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        # next64's step written out (see there); the same numbers.
        try:
            limit = _LIMITS[n]
        except (KeyError, TypeError):
            if n <= 0:
                raise ValueError("n must be positive") from None
            limit = (1 << 64) - ((1 << 64) % n)
        s = self._state
        while True:
            s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
            z ^= z >> 31
            if z < limit:
                self._state = s
                return z % n

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other._state == self._state

    __hash__ = None  # type: ignore[assignment]  # unhashable: compared by value, mutable

    def choice(self, seq: list[Any]) -> Any:
        """Return one element of a non-empty sequence."""
        return seq[self.randbelow(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle a list in place (Fisher–Yates)."""
        # randbelow(i + 1) for i from the end down, next64's step written out (see there):
        # the same numbers.
        s = self._state
        limits = _LIMITS
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            limit = limits[n] if n < 64 else (1 << 64) - ((1 << 64) % n)
            while True:
                s = (s + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
                z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            items[i], items[j] = items[j], items[i]
        self._state = s


#: randbelow's rejection limit for small n (the largest multiple of n up to 2**64).
_LIMITS = {n: (1 << 64) - ((1 << 64) % n) for n in range(1, 64)}


def two_player_outcome(winner: int | None, reason: str | None,
                       scores: list[int] | None = None) -> dict[str, Any]:
    """The :meth:`State.outcome` of a finished two-player game: ``winner`` 0 or 1, or None
    for a draw; ``scores`` (copied) by default 1 for the winner and 0 otherwise.

    >>> two_player_outcome(1, "wounds")
    {'winners': [1], 'ranks': [2, 1], 'scores': [0, 1], 'reason': 'wounds'}
    >>> two_player_outcome(None, "draw_cap", [2, 2])
    {'winners': [], 'ranks': [1, 1], 'scores': [2, 2], 'reason': 'draw_cap'}
    """
    ranks = [1, 1]
    if winner is not None:
        ranks[1 - winner] = 2
    if scores is None:
        scores = [0, 0]
        if winner is not None:
            scores[winner] = 1
    return {"winners": [] if winner is None else [winner], "ranks": ranks,
            "scores": list(scores), "reason": reason}


def private_event(event: dict[str, Any], seats: list[int] | tuple[int, ...],
                  hide: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """Mark ``event`` as partly secret: only ``seats`` see the fields named in ``hide``.

    Every other seat (and a spectator) gets the same event without those fields, so all
    seats see the same number of events in the same order, and a table can word "Blue drew
    2 cards" for one seat and "you drew Judge, Surgeon" for the other.

    >>> e = private_event({"t": "draw", "p": 1, "n": 1, "cards": [8]}, [1], ["cards"])
    >>> redact_event(e, 0), redact_event(e, 1)
    ({'t': 'draw', 'p': 1, 'n': 1}, {'t': 'draw', 'p': 1, 'n': 1, 'cards': [8]})
    """
    event["_to"] = list(seats)
    event["_hide"] = list(hide)
    return event


def redact_event(event: dict[str, Any], player: int | None) -> dict[str, Any]:
    """The copy of a stored event that ``player`` may see (``None``: a spectator)."""
    if "_to" in event:
        hidden = () if player in event["_to"] else event["_hide"]
        event = {k: v for k, v in event.items() if k not in hidden and k not in ("_to", "_hide")}
    return marshal.loads(marshal.dumps(event))  # a deep copy of plain (JSON-safe) data, in C


class Game(ABC):
    """What a game is: its id, names, player counts and options; it makes states."""

    id: ClassVar[str]
    names: ClassVar[dict[str, str]]  # {"en": ..., "ja": ...}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    #: ``{name: {"values": [...], "default": ...}}``; ``values`` is absent for free-form options.
    option_schema: ClassVar[dict[str, dict[str, Any]]] = {}
    #: Per option value, display names: ``{name: {value: {"en":..., "ja":...}}}`` and the
    #: option's own label under the key ``"label"``.
    option_labels: ClassVar[dict[str, dict[Any, dict[str, str]]]] = {}
    #: A search bot's iterations per move at each level (pygames.bots.LEVELS); a game
    #: whose playouts are long gives fewer, so that a move takes about as long.
    #: True if no seat ever has anything hidden from it (then no State.hidden_twin needed).
    perfect_information: ClassVar[bool] = False
    search_iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 600, "strong": 6000}
    #: Whether a search's tree plays the other seats' choices by UCB1, each for its own
    #: result (True), or at random, as in its playouts (False: only the searching seat's own
    #: choices are searched). The tree's worlds show every hand, so a searched opponent
    #: answers the searcher's hidden cards as if it saw them; a game where the others'
    #: choices hang on what the searcher hides (its hand), and that rewards daring, plays
    #: better with them at random (the bot grows timid otherwise).
    search_opponents: ClassVar[bool] = True
    #: How many actions a search playout plays before it asks :meth:`State.estimate` for
    #: the result (0: to the end of the game). A game whose random games are long and
    #: whose positions are easy to judge plays short playouts and judges them.
    playout_depth: ClassVar[int] = 0

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill in defaults and check every option; raise ``ValueError`` naming the problem."""
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.option_schema))
        if unknown:
            known = ", ".join(sorted(self.option_schema)) or "none"
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(unknown)} "
                             f"(known: {known})")
        resolved = {}
        for name, spec in self.option_schema.items():
            value = options.get(name, spec.get("default"))
            if "values" in spec and value not in spec["values"]:
                allowed = ", ".join(repr(v) for v in spec["values"])
                raise ValueError(f"option {name!r} must be one of {allowed}, not {value!r}")
            resolved[name] = value
        return resolved

    def sample_options(self, rng: Any) -> dict[str, Any]:
        """Random legal values for the game's free-form options (those without
        ``"values"``), drawn from ``rng`` (a ``random.Random``): what the long random battery
        (:mod:`pygames.battery`) and the records fuzz play besides each option's default.
        Every value returned must pass :meth:`resolve_options`. The default, ``{}``, leaves
        free-form options at their defaults; a game whose free-form options change play
        (e.g. each player's deck) overrides it."""
        return {}

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not (self.min_players <= players <= self.max_players):
            if self.min_players == self.max_players:
                want = str(self.min_players)
            else:
                want = f"{self.min_players}–{self.max_players}"
            raise ValueError(f"{self.names['en']} is for {want} players, not {players!r}")

    def new_game(self, *, seed: int, players: int = 2,
                 options: dict[str, Any] | None = None) -> State:
        """Start a game. Bad options, seed or player count raise ``ValueError``."""
        self.check_players(players)
        opts = self.resolve_options(options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        return self._new_state(seed, players, opts)

    @abstractmethod
    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> State:
        """Make the first state from checked arguments."""

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> State:
        """A state consistent with everything ``seat`` has seen, its hidden parts drawn
        from ``rng`` (for search: :mod:`pygames.search`).

        It is made from ``view`` (``view(seat)`` now) and ``events`` (``events(seat)``, all
        of them) only, never from the true state, so a bot that searches it cannot cheat.
        The result gives ``seat`` exactly that view and the same legal actions; what the
        seat cannot know (an opponent's hand, the deck order, a choice made but not yet
        revealed) is sampled among what is consistent with what it saw. Its events and
        record may be left empty. Games that support search override this.
        """
        raise NotImplementedError(f"{self.id} has no determiniser yet")

    def forced_is_secret(self, seat: int, view: dict[str, Any]) -> bool:
        """Whether ``seat`` having only one legal action now is a secret, judged from its
        own ``view`` (``view(seat)``) only: True where what it may do hangs on what only it
        can see (its hand), while the decision itself came by public information, e.g. a
        chance to answer that every seat is offered whatever it holds, which its hand may
        leave it only "no" to. A bot then spends its normal thinking on a single legal
        action there (the same search, the same iterations and seconds as over a real
        choice), so how fast it answers tells nobody whether it had a choice. By default
        False: a forced move is played at once. Being True where nothing is hidden costs
        only the bot's thinking time."""
        return False

    def from_position(self, position: dict[str, Any], *,
                      options: dict[str, Any] | None = None) -> State:
        """A state built from a hand-made ``position`` (for tests, embeds and rules pages),
        with no history: a view-like dict in the game's own terms, checked as a whole (an
        impossible position raises ``ValueError`` saying what is wrong). Games that support
        hand-made positions override this and document their keys; by default it fails
        loudly (:mod:`pygames.records` turns that into "… has no positions without
        history")."""
        raise NotImplementedError(f"{self.names['en']} has no from_position: hand-made "
                                  "positions are not supported")

    def from_record(self, record: dict[str, Any]) -> State:
        """Rebuild a state by replaying a record made by :meth:`State.record`.

        A malformed record raises ``ValueError`` (an illegal action in it:
        :class:`IllegalAction`, naming the action's index).
        """
        if not isinstance(record, dict):
            raise ValueError("a record must be a JSON object")
        if record.get("game") != self.id:
            raise ValueError(f"this record is for game {record.get('game')!r}, not {self.id!r}")
        try:
            seed = record["seed"]
            players = record.get("players", 2)
            options = record.get("options", {})
            actions = record.get("actions", [])
        except (KeyError, TypeError) as exc:
            raise ValueError(f"record is missing {exc}") from None
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("record seed must be an integer")
        if not isinstance(options, dict) or not isinstance(actions, list):
            raise ValueError("record options must be an object and actions a list")
        state = self.new_game(seed=seed, players=players, options=options)
        for index, entry in enumerate(actions):
            if (not isinstance(entry, list | tuple) or len(entry) != 2
                    or not isinstance(entry[0], int) or not isinstance(entry[1], str)):
                raise ValueError(f"record action #{index + 1} is not [player, action]: {entry!r}")
            try:
                state.apply(entry[0], entry[1])
            except IllegalAction as exc:
                raise IllegalAction(f"record action #{index + 1} {entry!r}: {exc}") from None
        return state


class State(ABC):
    """One game in progress. Subclasses keep every field JSON-like so clone/compare is easy.

    What happened is kept in ``self.log``, a list of JSON-like events (``{"t": kind, ...}``)
    appended as the game goes; a seat reads it only through :meth:`events`, redacted for
    that seat (see :func:`private_event`). Tables play events back and word them in the log.
    """

    #: ``_redacted`` caches each seat's redacted events outside ``vars()``, so it is never
    #: compared; the log only grows, so each event is redacted once per seat.
    __slots__ = ("__dict__", "_redacted")

    game: Game
    seed: int
    players: int
    options: dict[str, Any]
    log: list[dict[str, Any]]
    _redacted: dict[int | None, list[dict[str, Any]]]  # a slot, set on first use

    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.seed = seed
        self.players = players
        self.options = options
        self._actions: list[list[Any]] = []
        self.log = []

    # -- the protocol -------------------------------------------------------------------
    @abstractmethod
    def to_move(self) -> list[int]:
        """Players who must act now (several when choices are simultaneous); empty when over."""

    @abstractmethod
    def legal_actions(self, player: int) -> list[str]:
        """Every action ``player`` may take now (empty if it is not their turn)."""

    def apply(self, player: int, action: str) -> None:
        """Play ``action`` for ``player``; anything illegal raises :class:`IllegalAction`.

        The check happens before anything changes, so a refused action leaves no trace.
        """
        if not isinstance(player, int) or isinstance(player, bool) or not (
                0 <= player < self.players):
            raise IllegalAction(f"there is no player {player!r} in this game")
        if not isinstance(action, str):
            raise IllegalAction(f"an action is a short text, not {type(action).__name__}")
        if self.is_over():
            raise IllegalAction("the game is over")
        if player not in self.to_move():
            raise IllegalAction(f"it is not player {player + 1}'s turn")
        legal = self.legal_actions(player)
        if action not in legal:
            raise IllegalAction(self.explain_illegal(player, action))
        self._apply(player, action)
        self._actions.append([player, action])

    @abstractmethod
    def _apply(self, player: int, action: str) -> None:
        """Play an action already known to be legal."""

    def explain_illegal(self, player: int, action: str) -> str:
        """Why ``action`` is not legal for ``player`` (games override for better words)."""
        return f"{action!r} is not a legal action now"

    @abstractmethod
    def is_over(self) -> bool:
        """True once the game has ended."""

    @abstractmethod
    def outcome(self) -> dict[str, Any] | None:
        """None while playing; then ``{"winners": [...], "ranks": [...], "scores": [...],
        "reason": str}`` (ranks: 1 = best, ties share a rank)."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """Exactly what ``player`` may see (JSON-safe); ``None`` is a spectator."""

    def events(self, player: int | None, start: int = 0) -> list[dict[str, Any]]:
        """What happened from event number ``start`` on, as ``player`` may know it.

        Every seat gets the same number of events in the same order; fields a seat may not
        see (the card it did not draw, the opponent's face-down card) are left out.
        """
        if player is not None and not (isinstance(player, int) and 0 <= player < self.players):
            raise ValueError(f"there is no player {player!r} in this game")
        try:
            cache = self._redacted
        except AttributeError:
            cache = self._redacted = {}
        seen = cache.setdefault(player, [])
        for event in self.log[len(seen):]:  # events never change once logged: redact once
            seen.append(redact_event(event, player))
        return marshal.loads(marshal.dumps(seen[start:]))  # a deep copy of plain data, in C

    def open_events(self, start: int = 0) -> list[dict[str, Any]]:
        """Every event from number ``start`` on with nothing left out: what a finished
        game's open replay shows (never for a seat during play)."""
        return [{k: copy.deepcopy(v) for k, v in e.items() if k not in ("_to", "_hide")}
                for e in self.log[start:]]

    def event_count(self) -> int:
        """How many events have happened (the same for every seat)."""
        return len(self.log)

    def record(self) -> dict[str, Any]:
        """JSON-safe record: replaying it with ``Game.from_record`` gives the same state."""
        return {
            "game": self.game.id,
            "v": RECORD_VERSION,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [list(a) for a in self._actions],
        }

    # -- the fast path for search (pygames.search) -------------------------------------
    # Games override these to be cheap; the API battery checks that they give exactly the
    # states the public protocol gives.
    def clone_fast(self) -> State:
        """An independent copy for search: ``to_move``, ``legal_actions``, ``apply_fast``,
        ``is_over``, ``outcome`` and ``view`` behave as on the original; events and the
        record may be left out (it is not for showing or saving)."""
        return self.clone()

    def apply_fast(self, player: int, action: str) -> None:
        """Play an action taken from ``legal_actions(player)`` without checking it again;
        events and the record may be skipped. Anything else is undefined."""
        self.apply(player, action)

    def random_action_fast(self, player: int, rng: Any) -> str:
        """One of ``legal_actions(player)`` drawn at random with ``rng`` (a seeded
        :class:`random.Random`: its ``random()`` only), each equally likely: a search
        playout's move. Games may draw it without making the list, from exactly the same
        set; by default the list's ``int(rng.random() * len)``-th action."""
        legal = self.legal_actions(player)
        return legal[int(rng.random() * len(legal))]

    def playout_fast(self, rng: Any, depth: int) -> bool:
        """A search playout's moves (pygames.search.playout): up to ``depth`` rounds, in
        each every mover of ``to_move()`` in turn plays ``random_action_fast(p, rng)`` by
        ``apply_fast``. True if it stopped because nobody was to move. Games may fuse the
        loop; the moves and the state must stay exactly these."""
        to_move, apply = self.to_move, self.apply_fast
        if type(self).random_action_fast is State.random_action_fast:
            # The default draw, inline (a call fewer per action)
            legal_actions, r = self.legal_actions, rng.random
            for _ in range(depth):
                movers = to_move()
                if not movers:
                    return True
                for p in movers:
                    legal = legal_actions(p)
                    apply(p, legal[int(r() * len(legal))])
            return False
        draw = self.random_action_fast
        for _ in range(depth):
            movers = to_move()
            if not movers:
                return True
            for p in movers:
                apply(p, draw(p, rng))
        return False

    # -- hooks a game must provide (each fails loudly where a game lacks it) ---------------
    def sheet_group(self) -> str | None:
        """The heading (round, turn…) of the score-sheet group the next move belongs to
        (:mod:`pygames.records`), or None for none; in English, as the sheet is."""
        raise NotImplementedError(
            f"{type(self).__name__} must say how its score sheet groups moves: "
            "define State.sheet_group")

    def hidden_twin(self, viewer: int | None) -> State | None:
        """A state that differs from this one only in things ``viewer`` may not see (an
        opponent's hand, the deck order, a choice not revealed yet), so its ``view(viewer)``
        and ``events(viewer)`` must be exactly this one's: the shared API battery checks it
        at every step. None when nothing is hidden from ``viewer`` now. A game of perfect
        information says so with ``Game.perfect_information = True``."""
        if self.game.perfect_information:
            return None
        raise NotImplementedError(
            f"{type(self).__name__} must give the API battery a hidden-information twin "
            "(State.hidden_twin), or declare Game.perfect_information = True")

    def estimate(self) -> list[float]:
        """Each seat's chance of winning from here, judged without playing on (a search
        playout cut short after ``Game.playout_depth`` actions). By default a draw."""
        return [0.5] * self.players

    def clone(self) -> Self:
        """An independent copy."""
        game = self.game
        self.game = None  # type: ignore[assignment]  # games are shared, never copied
        try:
            twin = copy.deepcopy(self)
        finally:
            self.game = game
        twin.game = game
        return twin

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        mine = {k: v for k, v in vars(self).items() if k != "game"}
        theirs = {k: v for k, v in vars(other).items() if k != "game"}
        return self.game.id == other.game.id and mine == theirs

    __hash__ = None  # type: ignore[assignment]  # unhashable: compared by value, mutable
