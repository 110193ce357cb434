"""Kiri-ai: The Duel — two samurai, simultaneous programmed actions on a 1-D battlefield.

Rules: ``shared/rules/kiriai.md`` (our engine follows it section by section).

Notation
--------
Cards are single letters:

====  ================  ====  =========================
``A``  Approach          ``H``  High Strike
``R``  Retreat           ``L``  Low Strike
``C``  Charge            ``B``  Balanced Strike
``S``  Change Stance     ``K``  Kesa Strike (special)
                         ``Z``  Zan-Tetsu Strike (special)
                         ``X``  Counterattack (special)
====  ================  ====  =========================

``A``/``R`` are the two halves of one physical movement card, as are ``C``/``S``.

Actions:

* Program a round: two letters, 1st then 2nd card, e.g. ``"CB"`` = Charge, then Balanced.
* Advanced battlefield setup: the start space counted from your own end (2–4) and a
  stance letter, ``H`` (Heaven) or ``E`` (Earth), e.g. ``"3E"``.

Player 0 is Red (space 1 end), player 1 is Blue (space N end).

>>> s = KiriaiGame().new_game(seed=1)
>>> s.apply(0, "CB"); s.apply(1, "CH")
>>> s.view(None)["board"]["wounds"]
[0, 1]
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from .core import Game, Rng, State, two_player_outcome

__all__ = ["KiriaiGame", "KiriaiState", "CARD_TITLES", "SPECIALS"]

RED, BLUE = 0, 1
HEAVEN, EARTH = "H", "E"
MOVES = "ARCS"
BASIC_STRIKES = "HLB"
SPECIALS = "KZX"
ALL_CARDS = MOVES + BASIC_STRIKES + SPECIALS

#: Physical card each letter belongs to (a movement card has two halves).
PHYSICAL = {"A": "AR", "R": "AR", "C": "CS", "S": "CS",
            "H": "H", "L": "L", "B": "B", "K": "K", "Z": "Z", "X": "X"}
#: The five coloured cards each player owns, in hand order.
BASE_HAND = ("AR", "CS", "H", "L", "B")

#: The cards' English names, for the engine's own (English) messages; what players read, in
#: their language, is the table's (pgui/kiriai_ui.py: CARD_NAMES).
CARD_TITLES = {
    "A": "Approach", "R": "Retreat", "C": "Charge", "S": "Change Stance", "H": "High Strike",
    "L": "Low Strike", "B": "Balanced Strike", "K": "Kesa Strike", "Z": "Zan-Tetsu Strike",
    "X": "Counterattack",
}

#: Strike cards: (distances that hit, stance needed or None).
STRIKES = {
    "H": ((2,), HEAVEN),
    "L": ((1,), EARTH),
    "B": ((0,), None),
    "K": ((0, 1), HEAVEN),
    "Z": ((2, 3), EARTH),
}
#: Specials that switch their attacker's stance after attacking (hit or miss, K9).
SWITCH_AFTER = {"K": EARTH, "Z": HEAVEN}

#: Movement group (§5.1) for (card, stance at the start of the reveal).
_GROUP = {("C", HEAVEN): 1, ("A", HEAVEN): 2, ("R", HEAVEN): 2,
          ("C", EARTH): 3, ("A", EARTH): 4, ("R", EARTH): 4,
          ("S", HEAVEN): 5, ("S", EARTH): 5}


def _other(stance: str) -> str:
    return EARTH if stance == HEAVEN else HEAVEN


#: Advanced setup choices (§3.3): start space from your own end, then stance.
SETUP_CHOICES = tuple(f"{space}{st}" for space in (2, 3, 4) for st in (HEAVEN, EARTH))


def _program_list(aside: str | None, special: str | None) -> list[str]:
    """Legal programs (§4.1) with ``aside`` resting and ``special`` in hand (None: spent)."""
    letters = [c for c in MOVES + BASIC_STRIKES if PHYSICAL[c] != aside]
    if special is not None:
        letters.append(special)
    return [a + b for a in letters for b in letters if PHYSICAL[a] != PHYSICAL[b]]


#: The legal programs are a pure function of (card set aside, unspent special or None):
#: all 24 sets, made once as tuples (callers get lists).
_PROGRAMS = {(aside, special): tuple(_program_list(aside, special))
             for aside in (None, *BASE_HAND) for special in (None, *SPECIALS)}
#: What a 2nd card leaves set aside at clean-up (§4.4; a special is spent instead, K5).
_ASIDE_AFTER = {c: None if c in SPECIALS else PHYSICAL[c] for c in ALL_CARDS}
#: How many strike cards a samurai could play that would land from where it stands (§5.2):
#: ``{(distance, its stance, its card set aside, its unspent special or None): count}``
#: (for :meth:`KiriaiState.estimate`).
_THREATS = {(d, st, aside, special): sum(
    1 for c in BASIC_STRIKES + (special or "")
    if c in STRIKES and PHYSICAL[c] != aside and d in STRIKES[c][0]
    and STRIKES[c][1] in (None, st))
    for d in range(7) for st in (HEAVEN, EARTH) for aside in (None, *BASE_HAND)
    for special in (None, *SPECIALS)}
#: :meth:`KiriaiState.estimate`'s weights, fitted to the results of random games (a logistic
#: regression over 210,000 round starts): a wound ahead is worth about 3 to 1 (random
#: games won 79% / 22% from one wound up / down), a strike that would land now 0.2, an
#: unspent special a little.
_WOUND, _THREAT, _SPECIAL = 1.1, 0.2, 0.05

#: The fast path's boards: (size, Red's space, Blue's space, Red's stance, Blue's stance),
#: each numbered on first use (``_board_id``); ``_BOARDS[id]`` is the board again.
_BOARD_IDS: dict[tuple[Any, ...], int] = {}
_BOARDS: list[tuple[Any, ...]] = []
#: Fast-path memo of one reveal (§5), per board id, filled on first use by the public rules
#: code (``_FastKiriaiState._step``): {red card + blue card: (board id after the reveal,
#: board id after the movement only, the player wounded or None, Red plays a special,
#: Blue plays a special)}. At most 2 x 28 x 4 boards x 100 card pairs.
_STEPS: list[dict[str, tuple[Any, ...]]] = []


def _board_id(size: int, r: int, b: int, sr: str, sb: str) -> int:
    key = (size, r, b, sr, sb)
    bid = _BOARD_IDS.get(key)
    if bid is None:
        bid = _BOARD_IDS[key] = len(_BOARDS)
        _BOARDS.append(key)
        _STEPS.append({})
    return bid


class KiriaiGame(Game):
    """Kiri-ai: The Duel (Standard or Advanced battlefield)."""

    id: ClassVar[str] = "kiriai"
    names: ClassVar[dict[str, str]] = {"en": "Kiri-ai: The Duel", "ja": "キリアイ･ザ･デュエル"}
    min_players = 2
    max_players = 2
    option_schema: ClassVar[dict[str, dict[str, Any]]] = {
        "battlefield": {"values": ["standard", "advanced"], "default": "standard"},
        # K6: the rules have no draw; a cap is a house option for bot self-play.
        "round_limit": {"values": [0, 200], "default": 0},
    }
    option_labels: ClassVar[dict[str, dict[Any, dict[str, str]]]] = {
        "battlefield": {
            "label": {"en": "Battlefield", "ja": "戦場"},
            "standard": {"en": "Standard (5 spaces)", "ja": "スタンダード（5マス）"},
            "advanced": {"en": "Advanced (7 spaces, secret start)",
                         "ja": "アドバンス（7マス・秘密の初期配置）"},
        },
        "round_limit": {
            "label": {"en": "Round limit", "ja": "ラウンド上限"},
            0: {"en": "None (as the rules)", "ja": "なし（ルール通り）"},
            200: {"en": "Draw after 200 rounds", "ja": "200ラウンドで引き分け"},
        },
    }

    #: A search playout plays this many rounds at random, then :meth:`KiriaiState.estimate`
    #: judges the position (wounds decide most of it), so an iteration is cheap (a random
    #: game runs about 7 rounds; the strong bot then makes 10,000 iterations in a second in
    #: Pyodide, issue 8).
    playout_depth: ClassVar[int] = 1
    search_iterations: ClassVar[dict[str, int]] = {"easy": 60, "normal": 600, "strong": 10000}

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> KiriaiState:
        return KiriaiState(self, seed, players, options)

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> KiriaiState:
        """A world for search made from ``view(seat)`` alone (§8), its hidden parts drawn
        from ``rng``, in this order:

        1. the opponent's special card while it is unspent: one of the two specials ``seat``
           does not hold, evenly (the third lies face down unseen, so either may be it);
           the unused special is then the one left;
        2. if the opponent has committed in the current simultaneous step and ``seat`` has
           not (``view["ready"]``), its hidden choice: evenly one of its legal programs
           given the special drawn in 1, or in the Advanced setup one of the six secret
           start-and-stance choices.

        Everything else (battlefield and options, positions, stances, wounds, round, phase,
        the cards set aside, spent specials, the seat's own special and program, the
        outcome) is read from the view. Kiri-ai has no private events, so ``events`` adds
        nothing to the view; the world keeps a copy as its log (its ``events(seat)`` are
        the seat's), an empty record and seed 0.
        """
        if seat not in (RED, BLUE) or view.get("you") != seat:
            raise ValueError(f"determinize needs seat {seat!r}'s own view")
        world = object.__new__(KiriaiState)
        State.__init__(world, self, 0, 2, dict(view["options"]))
        world.log = list(events)
        hands, board, outcome = view["hands"], view["board"], view["outcome"]
        world.size = view["size"]
        world.round = view["round"]
        world.phase = view["phase"]
        world.spent = [hands[RED]["special_spent"], hands[BLUE]["special_spent"]]
        world.aside = [hands[RED]["aside"], hands[BLUE]["aside"]]
        world.wounds = list(board["wounds"])
        if world.phase == "setup":  # positions are secret until both reveal
            world.pos, world.stance = [0, 0], [HEAVEN, HEAVEN]
        else:
            world.pos, world.stance = list(board["pos"]), list(board["stance"])
        world.winner = outcome["winners"][0] if outcome and outcome["winners"] else None
        world.over_reason = outcome["reason"] if outcome else None
        other = 1 - seat
        mine, theirs = hands[seat]["special"], hands[other]["special"]
        if theirs is None:
            theirs = rng.choice([c for c in SPECIALS if c != mine])
        world.special = [mine, theirs] if seat == RED else [theirs, mine]
        unused = next((c for c in SPECIALS if c not in world.special), None)
        assert unused is not None  # three specials, two of them held: one is always left
        world._unused_special = unused
        world.pending = [None, None]
        world.pending[seat] = view["mine"]
        if view["ready"][other] and world.phase != "over":
            world.pending[other] = rng.choice(
                list(SETUP_CHOICES) if world.phase == "setup" else world._programs(other))
        return world


class KiriaiState(State):
    """A Kiri-ai game in progress. Every field is plain data (clone/compare friendly)."""

    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        rng = Rng(seed)
        specials = list(SPECIALS)
        rng.shuffle(specials)
        self.size = 5 if options["battlefield"] == "standard" else 7
        self.special = specials[:2]          # each player's special card
        self._unused_special = specials[2]   # discarded face down, never seen
        self.spent = [False, False]          # special revealed (and so gone)
        self.aside: list[str | None] = [None, None]  # physical card set aside last round
        self.wounds = [0, 0]
        self.round = 1
        self.pending: list[str | None] = [None, None]  # programmed, not yet revealed
        self.winner: int | None = None
        self.over_reason: str | None = None
        if options["battlefield"] == "standard":
            self.phase = "program"
            self.pos = [1, self.size]        # K1: each on its own end space
            self.stance = [HEAVEN, HEAVEN]
            self.log.append({"t": "round", "n": 1})
        else:
            self.phase = "setup"
            self.pos = [0, 0]                # unknown until both reveal
            self.stance = [HEAVEN, HEAVEN]

    # -- protocol -----------------------------------------------------------------------
    def to_move(self) -> list[int]:
        if self.phase == "over":
            return []
        red, blue = self.pending
        if red is None:
            return [RED, BLUE] if blue is None else [RED]
        return [BLUE] if blue is None else []

    def legal_actions(self, player: int) -> list[str]:
        phase = self.phase
        if phase == "over" or player not in (RED, BLUE) or self.pending[player] is not None:
            return []
        if phase == "setup":
            return list(SETUP_CHOICES)
        # The hot path of a playout: _programs inlined.
        key = (self.aside[player], None if self.spent[player] else self.special[player])
        programs = _PROGRAMS.get(key)
        return _program_list(*key) if programs is None else list(programs)

    def _playable(self, player: int) -> list[str]:
        """Card letters ``player`` may put in a program slot this round."""
        letters = [c for c in MOVES + BASIC_STRIKES if PHYSICAL[c] != self.aside[player]]
        if not self.spent[player]:
            letters.append(self.special[player])
        return letters

    def _programs(self, player: int) -> list[str]:
        key = (self.aside[player], None if self.spent[player] else self.special[player])
        programs = _PROGRAMS.get(key)
        return _program_list(*key) if programs is None else list(programs)

    def explain_illegal(self, player: int, action: str) -> str:
        if self.phase == "setup":
            return (f"{action!r} is not a start choice: give your start space counted from "
                    "your own end (2, 3 or 4) and a stance H or E, e.g. '3H'")
        if len(action) != 2 or any(c not in ALL_CARDS for c in action):
            return (f"{action!r} is not a program: give two card letters, 1st then 2nd, "
                    "e.g. 'CB' for Charge then Balanced Strike")
        for c in action:
            name = CARD_TITLES[c]
            if c in SPECIALS and c != self.special[player]:
                return f"you do not hold {name}"
            if c in SPECIALS and self.spent[player]:
                return f"{name} is already spent"
            if PHYSICAL[c] == self.aside[player]:
                return f"{name} is on the card you set aside last round: it rests this round"
        if PHYSICAL[action[0]] == PHYSICAL[action[1]]:
            return "both actions would use the same physical card"
        return f"{action!r} is not a legal program now"

    def _apply(self, player: int, action: str) -> None:
        self.pending[player] = action
        if all(p is not None for p in self.pending):
            if self.phase == "setup":
                self._reveal_setup()
            else:
                self._resolve_round()

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        return two_player_outcome(self.winner, self.over_reason)

    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and player not in (RED, BLUE):
            raise ValueError(f"there is no player {player!r} in this game")
        setup_hidden = self.phase == "setup"
        hands = []
        for p in (RED, BLUE):
            cards = [c for c in BASE_HAND if c != self.aside[p]]
            special_known = self.spent[p] or p == player
            hands.append({
                "cards": cards,                       # coloured cards in hand (public)
                "aside": self.aside[p],
                "special": self.special[p] if special_known else None,
                "special_spent": self.spent[p],
            })
        view: dict[str, Any] = {
            "game": self.game.id,
            "options": dict(self.options),
            "you": player,
            "size": self.size,
            "round": self.round,
            "phase": self.phase,
            "board": {
                "pos": None if setup_hidden else list(self.pos),
                "stance": None if setup_hidden else list(self.stance),
                "wounds": list(self.wounds),
            },
            "hands": hands,
            "ready": [p is not None for p in self.pending],
            "mine": self.pending[player] if player is not None else None,
            "to_move": self.to_move(),
            "outcome": self.outcome(),
        }
        if player is not None and not setup_hidden:
            view["playable"] = self._playable(player)
        return view

    def sheet_group(self) -> str | None:
        return "Setup" if self.phase == "setup" else f"Round {self.round}"

    def hidden_twin(self, viewer: int | None) -> KiriaiState | None:
        """Another opponent's program (or secret start), and the opponent's unplayed
        special swapped with the one nobody saw: what ``viewer`` cannot tell apart."""
        twin = self.clone()
        changed = False
        for p in (RED, BLUE):
            if p == viewer:
                continue
            if twin.pending[p] is not None:
                others = ([a for a in twin._programs(p) if a != twin.pending[p]]
                          if twin.phase == "program"
                          else ["2H" if twin.pending[p] != "2H" else "4E"])
                twin.pending[p], changed = others[0], True
            if not twin.spent[p]:
                twin.special[p], twin._unused_special = twin._unused_special, twin.special[p]
                changed = True
        return twin if changed else None

    def estimate(self) -> list[float]:
        """Red's and Blue's chances, judged without playing on (search's cut-short
        playout): a logistic of the wounds each is ahead, the strikes each could land from
        where it stands now (distance and stance, its card set aside and unspent special:
        ``_THREATS``), and whether each still holds its special."""
        if self.phase == "over":
            return [1.0, 0.0] if self.winner == RED else [0.0, 1.0] if self.winner == BLUE \
                else [0.5, 0.5]
        wounds, spent, special, aside, stance = (self.wounds, self.spent, self.special,
                                                 self.aside, self.stance)
        d = self.pos[BLUE] - self.pos[RED]
        x = _WOUND * (wounds[BLUE] - wounds[RED]) + _SPECIAL * (spent[BLUE] - spent[RED])
        if self.phase == "program":
            x += _THREAT * (
                _THREATS[d, stance[RED], aside[RED], None if spent[RED] else special[RED]]
                - _THREATS[d, stance[BLUE], aside[BLUE], None if spent[BLUE] else special[BLUE]])
        red = 1.0 / (1.0 + math.exp(-x))
        return [red, 1.0 - red]

    # -- the fast path for search (pygames.search) ---------------------------------------
    def clone_fast(self) -> KiriaiState:
        """A copy for search (a :class:`_FastKiriaiState`): the same game, an empty log and
        record (the view reads neither). The game and options are shared; they are never
        changed."""
        twin = object.__new__(_FastKiriaiState)
        twin.__dict__ = d = self.__dict__.copy()
        d["log"], d["_actions"] = [], []
        d["special"], d["spent"], d["aside"] = self.special[:], self.spent[:], self.aside[:]
        d["wounds"], d["pending"] = self.wounds[:], self.pending[:]
        r, b = d["pos"] = self.pos[:]
        sr, sb = d["stance"] = self.stance[:]
        twin._bid = _board_id(self.size, r, b, sr, sb)
        twin._refresh_legal()
        return twin

    @staticmethod
    def _reveal_entry(key: tuple[Any, ...]) -> tuple[Any, ...]:
        """One reveal worked out by the public rules code on a scratch state: (size, r, b,
        red stance, blue stance, red card, blue card) -> (r, b, red/blue stance after the
        movement, red/blue stance after the strikes' switches, the player wounded or
        None)."""
        size, r, b, sr, sb, cr, cb = key
        scratch = object.__new__(KiriaiState)
        scratch.size, scratch.pos, scratch.stance = size, [r, b], [sr, sb]
        scratch.wounds, scratch.log = [0, 0], []
        cards, start = [cr, cb], [sr, sb]
        scratch._movement(cards, start)
        moved = list(scratch.stance)
        scratch._attacks(cards, start)  # one wound at most: never the end from [0, 0]
        victim = RED if scratch.wounds[RED] else BLUE if scratch.wounds[BLUE] else None
        return (*scratch.pos, *moved, *scratch.stance, victim)

    # -- setup (Advanced) ---------------------------------------------------------------
    def _reveal_setup(self) -> None:
        red, blue = self.pending
        assert red is not None and blue is not None
        self.pos = [int(red[0]), self.size + 1 - int(blue[0])]
        self.stance = [red[1], blue[1]]
        self.pending = [None, None]
        self.phase = "program"
        self.log.append({"t": "start", "pos": list(self.pos), "stance": list(self.stance)})
        self.log.append({"t": "round", "n": 1})

    # -- a round ------------------------------------------------------------------------
    def _resolve_round(self) -> None:
        red, blue = self.pending
        assert red is not None and blue is not None  # _apply resolves once both committed
        programs = [red, blue]
        self.pending = [None, None]
        for step in (0, 1):
            cards = [programs[RED][step], programs[BLUE][step]]
            self._resolve_reveal(step + 1, cards)
            if self.phase == "over":
                return
        # §4.4 clean-up: 2nd card set aside (specials are spent instead), 1st returns.
        for p in (RED, BLUE):
            second = programs[p][1]
            self.aside[p] = None if second in SPECIALS else PHYSICAL[second]
            if self.aside[p]:
                self.log.append({"t": "aside", "p": p, "card": second})
        limit = self.options["round_limit"]
        if limit and self.round >= limit:
            self._end(None, "round_limit")
            return
        self.round += 1
        self.log.append({"t": "round", "n": self.round})

    def _board(self) -> dict[str, Any]:
        return {"pos": list(self.pos), "stance": list(self.stance), "wounds": list(self.wounds)}

    def _resolve_reveal(self, step: int, cards: list[str]) -> None:
        self.log.append({"t": "reveal", "step": step, "cards": list(cards),
                         "board": self._board()})
        for p in (RED, BLUE):
            if cards[p] in SPECIALS:
                self.spent[p] = True
        start_stance = list(self.stance)
        self._movement(cards, start_stance)
        self._attacks(cards, start_stance)

    def _movement(self, cards: list[str], stance: list[str]) -> None:
        groups: dict[int, list[int]] = {}
        for p in (RED, BLUE):
            group = _GROUP.get((cards[p], stance[p]))
            if group is not None:
                groups.setdefault(group, []).append(p)
        for group in sorted(groups):
            movers = groups[group]
            if group == 5:
                for p in movers:
                    self.stance[p] = _other(self.stance[p])
                    self.log.append({"t": "stance", "p": p, "card": "S", "to": self.stance[p]})
                continue
            before = list(self.pos)
            if len(movers) == 1:
                p = movers[0]
                self.pos[p] = self._single_move(p, cards[p])
            else:
                self._pair_move(cards)
            for p in movers:
                self.log.append({"t": "move", "p": p, "card": cards[p],
                                 "from": before[p], "to": self.pos[p]})

    def _single_move(self, p: int, card: str) -> int:
        r, b = self.pos
        if card == "R":
            return max(r - 1, 1) if p == RED else min(b + 1, self.size)
        k = 2 if card == "C" else 1
        return min(r + k, b) if p == RED else max(b - k, r)

    def _pair_move(self, cards: list[str]) -> None:
        r, b = self.pos
        d = b - r
        if cards[RED] == cards[BLUE] == "C":
            k = 2 if d >= 4 else 1 if d >= 2 else 0
        elif cards[RED] == cards[BLUE] == "A":
            k = 1 if d >= 2 else 0
        else:
            # K8: Approach/Retreat mixes move independently from the pre-group positions,
            # clamped to the ends only (they never cross).
            step = {"A": 1, "R": -1}
            self.pos = [min(max(r + step[cards[RED]], 1), self.size),
                        min(max(b - step[cards[BLUE]], 1), self.size)]
            return
        self.pos = [r + k, b - k]

    def _attacks(self, cards: list[str], stance: list[str]) -> None:
        d = self.pos[BLUE] - self.pos[RED]
        hits = [False, False]
        for p in (RED, BLUE):
            card = cards[p]
            if card not in STRIKES:
                continue
            ranges, need = STRIKES[card]
            why = None
            if need is not None and stance[p] != need:
                why = "stance"
            elif d not in ranges:
                why = "range"
            hits[p] = why is None
            self.log.append({"t": "strike", "p": p, "card": card, "hit": hits[p], "why": why})
        countered = [False, False]
        for p in (RED, BLUE):
            if cards[p] == "X":
                o = 1 - p
                landed = hits[o]  # only a strike card can land; a Counterattack is not one
                self.log.append({"t": "counter", "p": p, "hit": landed})
                if landed:
                    countered[o] = True
        for p in (RED, BLUE):
            if countered[p]:
                hits[p] = False
                hits[1 - p] = True
        if hits[RED] and hits[BLUE]:
            self.log.append({"t": "clash"})
        elif hits[RED] or hits[BLUE]:
            victim = BLUE if hits[RED] else RED
            self.wounds[victim] += 1
            self.log.append({"t": "wound", "p": victim, "wounds": self.wounds[victim]})
            if self.wounds[victim] >= 2:
                self._end(1 - victim, "wounds")
                return
        for p in (RED, BLUE):
            if cards[p] in SWITCH_AFTER:
                self.stance[p] = SWITCH_AFTER[cards[p]]
                self.log.append({"t": "stance", "p": p, "card": cards[p], "to": self.stance[p]})

    def _end(self, winner: int | None, reason: str) -> None:
        self.phase = "over"
        self.winner = winner
        self.over_reason = reason
        self.log.append({"t": "end", "winner": winner, "reason": reason})


#: Each player's legal programs once the game is over.
_NO_PROGRAMS: tuple[str, ...] = ()


class _FastKiriaiState(KiriaiState):
    """A copy for search (:meth:`KiriaiState.clone_fast`): the same fields, kept up to date
    by :meth:`apply_fast` only, plus the board's number (``_bid``, for the ``_STEPS`` memo)
    and each player's legal programs (``_legal``, shared table tuples).

    A fast copy changes ``spent``, ``wounds`` and ``pending`` in place and only ever
    replaces its other lists (``special``, ``aside``, ``pos``, ``stance``), so a copy of a
    fast copy shares those."""

    def clone_fast(self) -> _FastKiriaiState:
        twin = object.__new__(_FastKiriaiState)
        twin.__dict__ = d = self.__dict__.copy()  # _bid, _legal and the shared lists
        d["log"], d["_actions"] = [], []
        d["spent"], d["wounds"], d["pending"] = self.spent[:], self.wounds[:], self.pending[:]
        return twin

    def legal_actions(self, player: int) -> list[str]:
        if (player == RED or player == BLUE) and self.pending[player] is None:
            return list(self._legal[player])
        return []

    def legal_fast(self, player: int) -> tuple[str, ...]:
        """``legal_actions(player)`` as a shared tuple (for search's tree: never change
        it)."""
        if (player == RED or player == BLUE) and self.pending[player] is None:
            return self._legal[player]
        return _NO_PROGRAMS

    def _refresh_legal(self) -> None:
        if self.phase == "over":
            self._legal = [_NO_PROGRAMS, _NO_PROGRAMS]
        elif self.phase == "setup":
            self._legal = [SETUP_CHOICES, SETUP_CHOICES]
        else:
            spent, special, aside = self.spent, self.special, self.aside
            self._legal = [_PROGRAMS[aside[RED], None if spent[RED] else special[RED]],
                           _PROGRAMS[aside[BLUE], None if spent[BLUE] else special[BLUE]]]

    def _apply(self, player: int, action: str) -> None:
        self.apply_fast(player, action)  # the fields stay right; no events on a fast copy

    def apply_fast(self, player: int, action: str) -> None:
        """Play a legal action with no checks, no events and no record.

        The same state as :meth:`apply` (``_resolve_round``): each reveal's movement and
        strikes come from the ``_STEPS`` memo, worked out once by the public code."""
        pending = self.pending
        other = pending[1 - player]
        if other is None:
            pending[player] = action
            return
        red, blue = (action, other) if player == RED else (other, action)
        self.pending = [None, None]
        self._reveal_fast(red, blue)

    def _reveal_fast(self, red: str, blue: str) -> None:
        """Both choices revealed together (the pending pair already cleared)."""
        if self.phase == "setup":
            self.pos = [int(red[0]), self.size + 1 - int(blue[0])]
            self.stance = [red[1], blue[1]]
            self.phase = "program"
            self._bid = _board_id(self.size, self.pos[RED], self.pos[BLUE],
                                  self.stance[RED], self.stance[BLUE])
            self._refresh_legal()
            return
        steps, wounds = _STEPS, self.wounds
        bid = self._bid
        for cards in (red[0] + blue[0], red[1] + blue[1]):
            entry = steps[bid].get(cards) or self._step(bid, cards)
            bid, moved, victim, special_r, special_b = entry
            if special_r:
                self.spent[RED] = True
            if special_b:
                self.spent[BLUE] = True
            if victim is not None:
                wounds[victim] += 1
                if wounds[victim] >= 2:  # over before the switches (§5.3)
                    _, r, b, sr, sb = _BOARDS[moved]
                    self.pos, self.stance, self._bid = [r, b], [sr, sb], moved
                    self.phase, self.winner, self.over_reason = "over", 1 - victim, "wounds"
                    self._legal = [_NO_PROGRAMS, _NO_PROGRAMS]
                    return
        _, r, b, sr, sb = _BOARDS[bid]
        self.pos, self.stance, self._bid = [r, b], [sr, sb], bid
        self.aside = aside = [_ASIDE_AFTER[red[1]], _ASIDE_AFTER[blue[1]]]
        spent, special = self.spent, self.special
        self._legal = [_PROGRAMS[aside[RED], None if spent[RED] else special[RED]],
                       _PROGRAMS[aside[BLUE], None if spent[BLUE] else special[BLUE]]]
        limit = self.options["round_limit"]
        if limit and self.round >= limit:
            self.phase, self.winner, self.over_reason = "over", None, "round_limit"
            self._legal = [_NO_PROGRAMS, _NO_PROGRAMS]
            return
        self.round += 1

    def random_action_fast(self, player: int, rng: Any) -> str:
        legal = self._legal[player]
        return legal[int(rng.random() * len(legal))]

    def playout_fast(self, rng: Any, depth: int) -> bool:
        """State.playout_fast, fused: each round Red's then Blue's draw from the shared
        legal lists (as random_action_fast), revealed at once when both were drawn here."""
        r = rng.random
        for _ in range(depth):
            if self.phase == "over":
                return True
            pending = self.pending
            red, blue = pending
            if red is None and blue is None:
                reds, blues = self._legal
                red = reds[int(r() * len(reds))]
                blue = blues[int(r() * len(blues))]
                self._reveal_fast(red, blue)
            elif red is None:
                legal = self._legal[RED]
                self.apply_fast(RED, legal[int(r() * len(legal))])
            elif blue is None:
                legal = self._legal[BLUE]
                self.apply_fast(BLUE, legal[int(r() * len(legal))])
            else:
                return True
        return False

    @classmethod
    def _step(cls, bid: int, cards: str) -> tuple[Any, ...]:
        """Work out one ``_STEPS`` entry with the public rules code."""
        size, r, b, sr, sb = _BOARDS[bid]
        cr, cb = cards[0], cards[1]
        r, b, mr, mb, sr, sb, victim = cls._reveal_entry((size, r, b, sr, sb, cr, cb))
        entry = (_board_id(size, r, b, sr, sb), _board_id(size, r, b, mr, mb), victim,
                 cr in SPECIALS, cb in SPECIALS)
        _STEPS[bid][cards] = entry
        return entry

