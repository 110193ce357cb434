"""Cardia (Duel for Cardia): two players, simultaneous card duels, best of three rounds.

Rules: ``shared/rules/cardia.md`` (section numbers §n and decisions Cn below refer to it).
Seat 0 is "a", seat 1 is "b". Both players use the same 16-card deck ("I" or "II"); a card
is named by its value 1–16 (each player owns one card of each value). Colour of value v:
``COLOURS[(v - 1) % 4]`` = G(reen) Y(ellow) R(ed) B(lue).

Notation (actions)
------------------

=========  =====================================================================
``7``      place the hand card of value 7 (the placement of an encounter)
``G``      name a colour: ``G`` ``Y`` ``R`` ``B`` (Palace Guard, Ambusher,
           Blackmailer, Witch King)
``3a``     a card in the row: encounter 3 (1-based, left to right as it is now),
           seat 0's card (``a``) or seat 1's (``b``). Used by Void Mage, Inventor (the
           +3 target, then the −3 target), Swamp Guardian, Magistra, Kinesis Mage (from,
           then to), Envoy, Prodigy, Illusionist
``x7``     discard hand card 7 (Palace Guard victim, Revolutionary / Blackmailer /
           Serpent Temple victims one card per action, Elemental's hand card)
``k7``     keep hand card 7 (Successor's victim, one card per action)
``u7``     put hand card 7 under your deck (Scrapyard)
``+`` ``-``  Librarian: +2 or −2 to your revealed card
``m`` ``o``  Void Mage: remove the target's modifiers (``m``) or its ongoing token (``o``)
``n``      Envoy: −3 to your next card instead of a row card
``pass``   Palace Guard's victim declines to discard (always allowed, C7)
=========  =====================================================================

Every choice is its own action of the player who chooses. A choice whose options are all
public and that has exactly one option is made automatically (e.g. Inventor's −3 target
when only one other card is eligible, a forced discard of a whole hand); a choice among
hidden cards is always asked, even with one option (Palace Guard's victim may always
``pass``; Elemental's hand card), so being asked never leaks what a hand holds. A choice
with no option means the ability has no effect (logged as ``"none": true``).

Where the rules are silent (beyond C1–C19)
------------------------------------------

* "Next card" effects attach to the next card the player *places*: Surgeon / Clockmaker /
  Envoy modify it at once; Librarian and Blackmailer act at that card's reveal, Engineer at
  that card's Finish (under Foggy Swamp this is two encounters later, as on BGA).
* Foggy Swamp: the newest, face-down encounter is no target for any ability until it is
  revealed; the first placement of a round still has a Finish (draws, end checks).
* Scrapyard: a player with a single hand card keeps it (one must have a card to play).
* Both players reaching Founder's Day at once, or both Mechanical Djinns firing at once:
  the round has no winner (as both Catacombs at once). Two active Counselors in one
  encounter cancel out (as on BGA).
* A Judge-won tie is a win for an active Treasurer's extra signet.
* Void Mage only offers cards with something to remove, Kinesis Mage only cards with
  something to move; Illusionist's "losing" card: the opposing card holds signets and
  this one none (C16).
* Mechanical Djinn is checked at every Finish: its owner wins as soon as the encounter
  right of it is held by them.
* Serpent Temple counts every change of an earlier encounter to you (no signet → signet).
* Choices of both seats at one step (Scrapyard, Librarian + Blackmailer) go seat a first.

>>> s = CardiaGame().new_game(seed=3)
>>> s.to_move()
[0, 1]
>>> s.view(0)["hand"], s.legal_actions(1)
([7, 8, 14, 15, 16], ['2', '4', '11', '12', '16'])
>>> s.apply(0, "7"); s.to_move(), s.view(1)["placing"][0]["value"]
([1], None)
>>> s.apply(1, "2")   # Palace Guard 7 beats Void Mage 2, which finds nothing to clear
>>> [e["t"] for e in s.events(1)[-5:]]
['reveal', 'evaluate', 'ability', 'draw', 'draw']
>>> s.view(None)["signets"], s.view(None)["row"][0]["winner"]
([1, 0], 0)

View (``state.view(seat)``; ``seat`` None = spectator), all JSON data
----------------------------------------------------------------------

::

    {"game": "cardia", "options": {...as chosen...}, "you": 0 | 1 | None,
     "deck": "I" | "II", "location": "none" | "serpent_temple" | ... (resolved, never
     "random"), "round": 1.., "wins": [rounds won a, b], "results": [winner or None per
     finished round], "phase": "place" | "choice" | "over",
     "to_move": [...], "outcome": None | {...}, "options_now": [your legal actions],
     "signets": [a, b],               # signets now in the row per seat
     "row": [{"n": 1, "revealed": bool, "evaluated": bool,
              "winner": seat | None,  # the seat whose card holds signets (None: tie/none)
              "cards": [card_a, card_b]}, ...],
     "placing": [slot_a, slot_b],     # the encounter being placed (not yet in the row)
     "hand": [values, sorted] ([] for a spectator), "hand_sizes": [a, b],
     "deck_sizes": [a, b], "discards": [[values in discard order], [...]],
     "pending": {"next_modifier": [a, b],   # Surgeon −5 / Clockmaker +3 / Envoy −3 sums
                 "fortune_teller": victim seat | None,
                 "librarian": [a, b], "engineer": [a, b],  # counts for the next card
                 "blackmail": [[colours], [colours]],      # against that seat's next card
                 "elemental_draw": [a, b],                 # extra draws at Finish
                 "mechanical_djinn": [[n, seat], ...],     # active Mechanical Djinns
                 "waiting": [...]},                        # see below
     "choice": None | {"kind": ..., "seat": chooser, ...}}

``card_x`` = ``{"value": v | None (face down and not yours), "influence": v + modifiers |
None, "modifiers": int, "ongoing": bool (token on it), "signets": int, "face_up": bool}``
(colour: :func:`colour_of`). ``pending["waiting"]`` lists the "next card" effects already
attached to a placed row card and waiting for its reveal (Librarian, Blackmailer) or its
Finish (Engineer): ``[{"n", "seat", "librarian": count, "engineer": count, "blackmail":
[colours]}]``.
``slot_x`` = ``{"placed": bool, "value": v | None, "face_up": bool, "modifiers": int}``.

``choice`` always has ``kind``, ``seat`` (who chooses), ``ability`` (name of the ability
being resolved, e.g. ``"inventor"``), ``card`` (its value) and ``at`` (``[n, seat]`` of the
card the ability acts as, or None), plus per kind:

================================  ==================================================
``librarian``                     ``target`` [n, seat]: your revealed card (+2 / −2)
``colour``                        (name a colour for ``ability``)
``palace_guard_discard``          ``colour``: discard one of that colour or ``pass``
``void_target`` / ``void_kind``   ``target`` [n, seat] (for the kind)
``inventor_plus`` / ``_minus``    ``plus`` [n, seat] (for the −3 step)
``swamp_target`` ``magistra_target`` ``prodigy_target`` ``illusionist_target``
``envoy_target``                  (row card or ``n``)
``kinesis_from`` / ``kinesis_to``  ``from`` [n, seat] (for the second step)
``elemental_card``                (an instant card of your hand)
``discard``                       ``count`` left to discard, ``why`` (``"revolutionary"``,
                                  ``"blackmailer"``, ``"serpent_temple"``)
``successor_keep``                ``count`` left to keep, ``kept`` [values] (chooser only)
``scrapyard_under``               (a hand card to put under your deck)
================================  ==================================================

Events (``state.events(seat)``), each ``{"t": kind, ...}``
----------------------------------------------------------

Encounter numbers ``e`` are 1-based positions in the row at the time of the event.
Fields in [brackets] are seen only by seat ``p`` (private_event).

================  =====================================================================
``round``         ``n``, ``wins``: a round starts (fresh deal)
``deal``          ``p``, ``n``, [``cards``]
``place``         ``p``, ``e``, [``card``]; ``up``: True when placed face up (Fortune
                  Teller's victim; ``card`` then public); ``mod``: the next-card modifiers
                  applied (absent when 0)
``reveal``        ``e``, ``cards`` [a, b], ``influence`` [a, b]
``evaluate``      ``e``, ``winner`` (seat or None: a tie), ``signets`` [a, b] (influences:
                  the reveal's, changed since only by ``modifier`` events)
``blackmail``     ``p`` (the victim), ``colour`` (named), ``hit`` (True: not that colour,
                  ``p`` discards 2)
``signets``       ``changed``: [{``e``, ``before`` [a, b], ``after`` [a, b]}], ``totals``:
                  a re-evaluation moved signets (abilities never re-trigger)
``ability``       ``p`` (owner), ``ability`` (name), ``card`` (value whose ability it is),
                  ``e`` (encounter of the card it acts as, None if gone); when not the
                  card's own activation: ``via`` (``"magistra"``, ``"illusionist"``,
                  ``"elemental"``) and ``at`` (value of the card it acts as); ``none``:
                  True when it had no legal target (no effect)
``token``         ``p``, ``e``, ``card``, ``on`` (ongoing token placed / removed)
``modifier``      ``p`` (card owner), ``e``, ``card``, ``delta``, ``total``, ``by``
``pending``       ``p``, ``effect`` (``next_modifier``, ``fortune_teller``, ``librarian``,
                  ``engineer``, ``blackmail``), ``value``
``colour``        ``p``, ``colour``, ``ability``
``discard``       ``p``, ``cards``, ``from`` (``hand``/``deck``/``row``), ``why`` (the
                  ability or location), ``e`` (when ``from`` is ``row``)
``draw``          ``p``, ``n``, [``cards``], ``why`` (absent for the Finish draw)
``under``         ``p``, [``card``] (Scrapyard)
``decline``       ``p`` (Palace Guard's victim passed)
``return``        ``p``, ``e``, ``card`` (Swamp Guardian: back to hand)
``replace``       ``p``, ``e``, ``old``, ``new`` (Puppeteer)
``move``          ``p``, ``from`` [e, value], ``to`` [e, value], ``mod``, ``token``
                  (Kinesis Mage)
``shuffle``       ``p``
``delete``        ``e``: an encounter emptied and was removed; later ones shift left
``location``      ``loc``, ``p``: a location rule fired for seat ``p`` (its effect
                  follows as ``discard`` / ``draw`` events, or the round ends)
``round_end``     ``winner`` (seat or None), ``reason``, ``wins``
``end``           ``winner``, ``wins``: the match is over
================  =====================================================================
"""

from __future__ import annotations

import marshal
from bisect import insort
from typing import Any, ClassVar

from .core import Game, Rng, State, private_event, two_player_outcome

__all__ = ["CardiaGame", "CardiaState", "CARD_TITLES", "COLOURS", "COLOUR_TITLES",
           "ONGOING", "ABILITIES", "LOCATIONS", "LOCATION_NAMES", "colour_of"]

SEATS = (0, 1)
SEAT_LETTER = "ab"
COLOURS = "GYRB"

#: The colours' English names, for the engine's messages (players read pgui/cardia_ui.py's).
COLOUR_TITLES = {
    "G": "Green (Rebellion)",
    "Y": "Yellow (Academy)",
    "R": "Red (Guild)",
    "B": "Blue (Dynasty)",
}

#: The cards' English names per deck and value, for the engine's own (English) messages;
#: what players read, in their language, is the table's (pgui/cardia_ui.py: CARD_NAMES).
CARD_TITLES: dict[str, dict[int, str]] = {
    "I": {
        1: "Hired Blade",
        2: "Void Mage",
        3: "Surgeon",
        4: "Mediator",
        5: "Saboteur",
        6: "Fortune Teller",
        7: "Palace Guard",
        8: "Judge",
        9: "Ambusher",
        10: "Puppeteer",
        11: "Clockmaker",
        12: "Treasurer",
        13: "Swamp Guardian",
        14: "Magistra",
        15: "Inventor",
        16: "Djinn",
    },
    "II": {
        1: "Poisoner",
        2: "Kinesis Mage",
        3: "Envoy",
        4: "Tax Collector",
        5: "Revolutionary",
        6: "Librarian",
        7: "Prodigy",
        8: "Aristocrat",
        9: "Blackmailer",
        10: "Illusionist",
        11: "Engineer",
        12: "Counselor",
        13: "Witch King",
        14: "Elemental",
        15: "Mechanical Djinn",
        16: "Successor",
    },
}

#: Ability key per deck, index = value (index 0 unused). Names used in events and choices.
ABILITIES: dict[str, tuple[str, ...]] = {
    "I": ("", "hired_blade", "void_mage", "surgeon", "mediator", "saboteur",
          "fortune_teller", "palace_guard", "judge", "ambusher", "puppeteer", "clockmaker",
          "treasurer", "swamp_guardian", "magistra", "inventor", "djinn"),
    "II": ("", "poisoner", "kinesis_mage", "envoy", "tax_collector", "revolutionary",
           "librarian", "prodigy", "aristocrat", "blackmailer", "illusionist", "engineer",
           "counselor", "witch_king", "elemental", "mechanical_djinn", "successor"),
}

#: Values whose ability is ongoing (C12: Mechanical Djinn is ongoing); the rest are instant.
ONGOING: dict[str, tuple[int, ...]] = {"I": (4, 8, 12), "II": (8, 12, 15)}

LOCATIONS = ("serpent_temple", "bazaar", "founders_day", "grand_library", "scrapyard",
             "auction_house", "haunted_catacombs", "foggy_swamp")

LOCATION_NAMES = {
    "none": {"en": "None", "ja": "なし"},
    "serpent_temple": {"en": "Serpent Temple", "ja": "蛇の神殿"},
    "bazaar": {"en": "Bazaar", "ja": "市場"},
    "founders_day": {"en": "Founder's Day", "ja": "創立記念日"},
    "grand_library": {"en": "Grand Library", "ja": "大図書館"},
    "scrapyard": {"en": "Scrapyard", "ja": "スクラップヤード"},
    "auction_house": {"en": "Auction House", "ja": "オークションハウス"},
    "haunted_catacombs": {"en": "Haunted Catacombs", "ja": "呪われた地下墓地"},
    "foggy_swamp": {"en": "Foggy Swamp", "ja": "霧の沼"},
    "random": {"en": "Random", "ja": "ランダム"},
}

#: Values of the ongoing abilities that evaluation (§4.1) and the Finish look at.
_JUDGE = ABILITIES["I"].index("judge")
_MEDIATOR = ABILITIES["I"].index("mediator")
_TREASURER = ABILITIES["I"].index("treasurer")
_COUNSELOR = ABILITIES["II"].index("counselor")
_ARISTOCRAT = ABILITIES["II"].index("aristocrat")
_MECHANICAL_DJINN = ABILITIES["II"].index("mechanical_djinn")
#: Per deck, the ongoing ability that watches the whole row (counted by CardiaState._count).
_WATCHER = {"I": _JUDGE, "II": _MECHANICAL_DJINN}
#: Placement actions by card value (legal_actions is called at every step of a playout).
_PLACE = tuple(str(v) for v in range(17))

SIGNETS_TO_WIN = 5
ROUNDS_TO_WIN = 2

#: Choice kinds made automatically when they have exactly one option (options public).
_AUTO = frozenset({"void_target", "void_kind", "inventor_plus", "inventor_minus",
                   "swamp_target", "magistra_target", "prodigy_target", "illusionist_target",
                   "kinesis_from", "kinesis_to"})


def _ctx(c: dict[str, Any]) -> dict[str, Any]:
    """The fields a follow-up choice takes over from choice ``c``."""
    return {"seat": c["seat"], "ability": c["ability"], "card": c["card"], "at": c["at"]}


def colour_of(value: int) -> str:
    """Colour letter of a card value (v mod 4: 1 Green, 2 Yellow, 3 Red, 0 Blue)."""
    return COLOURS[(value - 1) % 4]


#: :func:`colour_of` by card value (the engine's own look-up: no call).
_COLOUR = tuple(colour_of(v) for v in range(17))


def _jcopy(obj: Any) -> Any:
    """A fast deep copy of JSON-like data (dicts, lists, scalars)."""
    if type(obj) is dict:
        return {k: _jcopy(v) for k, v in obj.items()}
    if type(obj) is list:
        return [_jcopy(v) for v in obj]
    return obj


#: A row card with nothing on it, and an encounter just placed: new ones are copies (a copy
#: of a small dict is made several times faster than a dict display, and cards are made
#: at every placement). Lists of colours (``bm``, pending blackmail) are replaced, never
#: changed in place, so the empty one is shared.
_CARD: dict[str, Any] = {"v": 0, "mod": 0, "on": False, "sig": 0, "up": False, "lib": 0,
                         "eng": 0, "bm": []}
_ENCOUNTER: dict[str, Any] = {"id": 0, "cards": None, "revealed": False, "evald": False,
                              "win": None}


def _new_card(value: int, up: bool = False) -> dict[str, Any]:
    card = _CARD.copy()
    card["v"] = value
    if up:
        card["up"] = True
    return card


class CardiaGame(Game):
    """Cardia: Deck I or II, optional location, best of three rounds."""

    id: ClassVar[str] = "cardia"
    names: ClassVar[dict[str, str]] = {"en": "Cardia", "ja": "カーディア"}
    min_players = 2
    max_players = 2
    option_schema: ClassVar[dict[str, dict[str, Any]]] = {
        "deck": {"values": ["I", "II"], "default": "I"},
        "location": {"values": ["none", *LOCATIONS, "random"], "default": "none"},
    }
    #: A round of Cardia is about four times as long a playout as a Kiri-ai game.
    search_iterations: ClassVar[dict[str, int]] = {"easy": 25, "normal": 200, "strong": 1200}
    option_labels: ClassVar[dict[str, dict[str, dict[str, str]]]] = {
        "deck": {
            "label": {"en": "Deck", "ja": "デッキ"},
            "I": {"en": "Deck I (beginners)", "ja": "デッキI（初心者向け）"},
            "II": {"en": "Deck II (advanced)", "ja": "デッキII（上級）"},
        },
        "location": {
            "label": {"en": "Location", "ja": "ロケーション"},
            **{k: dict(v) for k, v in LOCATION_NAMES.items()},
        },
    }

    def _new_state(self, seed: int, players: int, options: dict[str, Any]) -> CardiaState:
        return CardiaState(self, seed, players, options)

    def determinize(self, seat: int, view: dict[str, Any], events: list[dict[str, Any]],
                    rng: Rng) -> CardiaState:
        """A state that ``seat`` cannot tell from the real one, made from ``view`` and
        ``events`` (this seat's, from the start) only; what the seat cannot know is drawn
        from ``rng``.

        Known and copied: everything public in the view (row, tokens, signets, discards,
        sizes, pending effects, the choice being made) and the seat's own cards. The
        seat's own face-down cards and hand are its own; its deck holds exactly the rest of
        its 16 cards, shuffled, except that cards it put under its deck (Scrapyard) since
        the last shuffle stay at the bottom in the order it put them there.

        Sampled, for the opponent: the cards of their 16 not seen in public this round
        (row face up, discards) are dealt at random to their hand, their deck (in random
        order) and their face-down cards (their placement already made in this step, the
        unrevealed Foggy Swamp encounter), with the hand sizes, deck sizes and face-down
        counts of the view. A card the seat saw go back to that hand (Swamp Guardian) goes
        to the hand or to a face-down card placed since (unless the opponent has put a card
        under their deck since, which may have been it); after the seat's Witch King, the
        opponent's unseen cards of the named colour can only be face-down cards placed
        before it. When the opponent is choosing, the hidden parts of the choice come from
        the sampled hand (their options; the cards Successor's victim has kept so far), and
        an Elemental choice gets a hand with an instant card. Not used: that an Ambusher's
        victim held no other card of the colour (blurred by the next draw: the sample may
        give them one right after), and the order of the opponent's deck (uniform, though
        cards they put under it went to the bottom).

        Derived from the events: the "next card" effects attached to a placed card not yet
        in the row, and what is left to do of the encounter being resolved (remaining
        Librarian / Blackmailer steps, Serpent Temple wins still to come, the draw that
        follows a Revolutionary's discard). The world's own random draws (Puppeteer, Witch
        King's reshuffle) come from ``rng`` too; it keeps no log or record (``quiet``).
        """
        return _Determinizer(self, seat, view, events, rng).world()

    def from_position(self, position: dict[str, Any], *,
                      options: dict[str, Any] | None = None) -> CardiaState:
        """A state from a hand-made position (tests, embeds, rules pages): a view
        (``state.view(seat)``, JSON data) with what it hides filled in, or a short form.

        ``position`` keys; seat lists are ``[a's, b's]``, a card is its value 1..16:

        * ``hands``: both hands (any order). A view's ``hand`` is seat ``you``'s. A hand not
          given is dealt at random from that seat's cards found nowhere else, at the size
          ``hand_sizes`` gives (one of the two is needed per seat).
        * ``row``: the encounters left to right, each ``[card_a, card_b]`` or ``{"cards":
          [card_a, card_b], "revealed", "evaluated"}``; a card is a value or ``{"value",
          "modifiers" (0), "ongoing" (False: no token), "face_up"}``. ``revealed``: every
          encounter, but under Foggy Swamp the newest (face down until the next
          placement); ``evaluated``: every revealed one, but the encounter being resolved
          while one of its Librarian / Blackmailer choices is open. A face-down card's
          ``value`` may be None (dealt as a hidden hand is). Signets and ``winner`` are
          decided from the row by §4.1 (and must be that if given).
        * ``placing``: the encounter being placed, a slot per seat: None, a value, or
          ``{"placed", "value", "face_up", "modifiers", "librarian", "engineer",
          "blackmail"}`` (the last three: "next card" effects that went with the card,
          which a view does not show; default none).
        * ``decks``: bottom card first (the last is the top). Not in a view (it gives
          ``deck_sizes``, then checked): by default a seat's deck is its cards found
          nowhere else, shuffled by the state's own PRNG (:class:`Rng`, ``seed``).
        * ``discards`` (default empty), ``pending`` (as in a view; default nothing
          pending), ``round``, ``wins`` and ``results`` (each defaults from the others: a
          fresh match by default), ``seed`` (the state's PRNG: hidden cards and deck order
          not given, then everything random in play; default 0).
        * ``choice``: None or the choice being made, as in a view (``kind``, ``seat``,
          ``ability``, ``card``, ``at`` and the kind's fields; row cards as ``[n, seat]``).
          Its options are worked out from the hands as the engine asks them. Successor's
          ``kept`` (only in the keeper's view): if not given, drawn from the keeper's hand.
        * ``procedure`` (only with a choice; not in a view): what is left of the encounter
          being resolved besides that choice: ``encounter`` (its number; default the
          newest revealed one; None: it left the row), ``librarian`` [a, b] and
          ``blackmail`` [[colours], [colours]] still to come at its reveal, ``serpent``
          [a, b] Serpent Temple wins still to process (default none of them). Without it
          the procedure goes on from the choice as the engine would from there.
        * Checked against the state if given: ``game``, ``deck``, ``location`` (the
          resolved one) and ``options`` (against ``options``, which defaults to them),
          ``phase``, ``to_move``, ``outcome``, ``signets``, ``hand_sizes``,
          ``deck_sizes``, ``options_now`` (``you``'s), ``pending["mechanical_djinn"]``.
          Other view keys (``influence``, ``n``, ``winner``…) are checked where they say
          something, else ignored.

        So ``state.view(None)`` with both hands and the face-down values (each seat's own
        view has them) gives a state whose every seat's view and legal actions are the
        original's; ``state.view(seat)`` alone gives the same ``view(seat)``.

        Checked (``ValueError`` saying what is wrong): unknown cards, a card in two places,
        a seat's cards not adding up to 16 (``hand_sizes`` / ``deck_sizes`` included),
        more than 16 encounters, bad numbers (negative signets or counts), signets or
        winners that are not §4.1's, the revealed / evaluated / face-up layout the rules
        allow, both seats placed, the Fortune Teller's order, "next card" effects of a
        seat that has placed (they went with its card), effects of the other deck (a
        Librarian in Deck I…), waiting effects where none can wait, a choice that the
        engine would not ask (unknown kind, ability not in the deck, a target not in the
        row, no option or one made automatically, a hand too small for it), rounds, wins
        and results that do not fit, ``to_move`` and the other derived keys, options that
        contradict the position. With no choice open the position stands after a Finish:
        one that the Finish would have ended (§6.2 five signets and more, Founder's Day,
        Mechanical Djinn) is refused, so is a seat to place with an empty hand but cards in
        its deck (it would have drawn); a seat to place with no card at all cannot play, so
        the round ends at once (§6.3, as the engine's own check does: its events are in
        the log) and the next one is dealt (or the match is over).

        The state has seed ``seed`` and an empty record: it cannot be replayed from a
        record (replaying its record gives a new game).
        """
        return _Position(self, position, options).state()


class CardiaState(State):
    """A Cardia match in progress. Every field is plain data (clone/compare friendly).

    Cards in the row are dicts ``{"v", "mod", "on", "sig", "up", "lib", "eng", "bm"}``;
    an encounter is ``{"id", "cards": [card_a, card_b], "revealed", "evald", "win"}``
    (``win``: the seat that wins by §4.1 before Judge, None on a tie). Decks are lists
    whose last item is the top card. The rules engine is a stack of small tasks
    (``self.tasks``, plain dicts) run until a player must choose (``self.choice``); an
    encounter's procedure is one sequence of steps (:meth:`_resolve`) that leaves what is
    left of it on that stack when a step asks a choice.

    Every rule is written once and serves both the public protocol and search's fast path
    (:meth:`clone_fast`, :meth:`apply_fast`, :meth:`playout_fast`): placement
    :meth:`_place`, the encounter procedure :meth:`_resolve`, evaluation (§4.1)
    :meth:`_decide`, re-evaluation (§4.2) :meth:`_reevaluate`, abilities :meth:`_activate`
    (rules ``_ab_*``), answers ``_an_*``; the round-end check and the Finish draw are
    steps (d) and (e) of :meth:`_resolve`. A fast copy is ``quiet``: the same code, no
    events.
    """

    #: The choice a player must make now (None: nobody is asked), and the id of the
    #: encounter whose procedure is running (None: none). Declared here because methods
    #: above the round set-up assign them first.
    choice: dict[str, Any] | None
    cur: int | None

    #: True in a copy for search (:meth:`clone_fast`, a determinised world): no events are
    #: made, the log stays empty.
    quiet = False

    #: Running tallies, kept outside ``vars()`` (never compared, never copied by
    #: :meth:`clone`), each None when not known (then counted from the row, see
    #: :meth:`_count`): ``_tot`` the signets in the row per seat ``[a, b]``, ``_watch`` how
    #: many of the deck's row-watching ongoing cards there carry a token (:data:`_WATCHER`:
    #: Judge, Mechanical Djinn).
    __slots__ = ("_tot", "_watch")

    def __init__(self, game: Game, seed: int, players: int, options: dict[str, Any]) -> None:
        super().__init__(game, seed, players, options)
        self.rng = Rng(seed)
        self.deck = options["deck"]
        location = options["location"]
        if location == "random":
            location = LOCATIONS[self.rng.randbelow(len(LOCATIONS))]
        self.location = location
        self.abilities = list(ABILITIES[self.deck])
        self.ongoing = list(ONGOING[self.deck])
        self.round = 0
        self.wins = [0, 0]
        self.results: list[int | None] = []
        self.phase = "place"
        self.winner: int | None = None
        self.next_id = 1
        self._tot: list[int] | None = None
        self._watch: int | None = None
        self._start_round()

    # -- protocol -----------------------------------------------------------------------
    def to_move(self) -> list[int]:
        if self.phase == "over":
            return []
        if self.choice is not None:
            return [self.choice["seat"]]
        if self.fortune is not None and self.placed[self.fortune] is None:
            return [self.fortune]
        a, b = self.placed
        if a is None:
            return [0, 1] if b is None else [0]
        return [1] if b is None else []

    def legal_actions(self, player: int) -> list[str]:
        if self.phase == "over":
            return []
        if self.choice is not None:
            return list(self.choice["_opts"]) if player == self.choice["seat"] else []
        if player != 0 and player != 1:
            return []
        placed, f = self.placed, self.fortune
        if placed[player] is not None or (f is not None and f != player
                                          and placed[f] is None):  # not in to_move()
            return []
        return [_PLACE[v] for v in self.hands[player]]

    def sheet_group(self) -> str | None:
        view = self.view(None)
        n = len(view["row"]) + (1 if view["phase"] == "place" else 0)
        return f"Round {view['round']}, encounter {n}"

    def hidden_twin(self, viewer: int | None) -> CardiaState | None:
        """The other seats' hidden cards changed (hand swapped with deck, deck reversed,
        face-down cards exchanged with cards still in the deck or hand, an open choice's
        hidden options): what ``viewer`` cannot tell apart."""
        twin = self
        for p in range(2):
            if p != viewer:
                twin = twin._twin_for(p)
        return None if twin is self else twin

    def _twin_for(self, p: int) -> CardiaState:
        twin = object.__new__(type(self))
        twin.__dict__.update(vars(self))  # the log is shared (read only)
        twin.hands = [list(h) for h in self.hands]
        twin.decks = [list(reversed(d)) for d in self.decks]
        twin.placed = [dict(c) if c else None for c in self.placed]
        twin.row = [{**e, "cards": [dict(c) for c in e["cards"]]} for e in self.row]
        twin.choice = dict(self.choice) if self.choice else None
        hand, deck = twin.hands[p], twin.decks[p]
        # Face-down cards of p take the value of a card still in p's deck (or hand).
        down = [c for c in [twin.placed[p]] + [e["cards"][p] for e in twin.row]
                if c and not c["up"]]
        for card in down:
            pool = deck if deck else hand
            if pool:
                j = len(pool) // 2
                card["v"], pool[j] = pool[j], card["v"]
        if hand and deck:
            hand[0], deck[-1] = deck[-1], hand[0]
        hand.sort()
        if twin.choice and twin.choice["seat"] == p:
            twin.choice["_opts"] = ["x99"]
            if "_kept" in twin.choice:
                twin.choice["_kept"] = [99]
        return twin

    def explain_illegal(self, player: int, action: str) -> str:
        c = self.choice
        if c is None:
            if action.isdecimal() and str(int(action)) == action and 1 <= int(action) <= 16:
                return (f"you do not hold card {action} "
                        f"({CARD_TITLES[self.deck][int(action)]}) in your hand")
            return (f"{action!r} is not a placement: give the value of a card in your hand, "
                    "e.g. '7'")
        kind = c["kind"]
        hint = {
            "colour": "name a colour: G, Y, R or B",
            "librarian": "choose '+' (+2) or '-' (−2) for your revealed card",
            "palace_guard_discard": f"discard a {COLOUR_TITLES[c.get('colour', 'G')]} "
                                    "hand card as 'x<value>' or decline with 'pass'",
            "void_kind": "choose 'm' (remove its modifiers) or 'o' (remove its ongoing token)",
            "elemental_card": "discard an instant card of your hand as 'x<value>'",
            "discard": "discard a hand card as 'x<value>'",
            "successor_keep": "keep a hand card as 'k<value>'",
            "scrapyard_under": "put a hand card under your deck as 'u<value>'",
            "envoy_target": "choose a row card as '<encounter><a|b>', e.g. '2b', or 'n' "
                            "for your next card",
        }.get(kind, "choose a row card as '<encounter><a|b>', e.g. '2b'")
        opts = ", ".join(c["_opts"])
        return f"{action!r} is not a legal choice now: {hint} (legal: {opts})"

    def _apply(self, player: int, action: str) -> None:
        if self.choice is not None:
            choice = self.choice
            self.choice = None
            self._answer(choice, action)
        else:
            self._place(player, int(action))
        self._run()

    def is_over(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> dict[str, Any] | None:
        if self.phase != "over":
            return None
        return two_player_outcome(self.winner, "rounds", self.wins)

    def clone(self) -> CardiaState:
        """An independent copy (as :meth:`State.clone`, faster: every field is plain data)."""
        twin = object.__new__(type(self))
        fields = {k: v for k, v in vars(self).items() if k not in ("game", "rng")}
        twin.__dict__.update(marshal.loads(marshal.dumps(fields)))
        twin.game = self.game
        twin.rng = Rng(0)
        twin.rng._state = self.rng._state
        twin._tot = twin._watch = None
        return twin

    # -- the fast path for search ----------------------------------------------------------
    # A fast copy plays by the public rules code itself: apply_fast is _apply, and the
    # fused playout_fast loop only draws the moves (as State.playout_fast would) and calls
    # the same _place / _answer / _run. What makes it fast is that a quiet state makes no
    # events and has no record; the running tallies (_count) and the deals kept (_DEALS)
    # serve both paths. tests/test_cardia.py plays every rule test on a fast twin too.
    def clone_fast(self) -> CardiaState:
        """A copy for search: the same game state, an empty log and record, and no events
        made from now on (``quiet``).

        The view reads no events, so nothing it shows is lost. Task dicts are never changed
        once made and the choice dict is replaced, not changed, so both are shared.
        """
        twin = object.__new__(CardiaState)
        d = twin.__dict__
        d.update(self.__dict__)
        twin.rng = Rng(0)
        twin.rng._state = self.rng._state
        twin.log = []
        twin._actions = []
        twin.quiet = True
        twin.wins = self.wins[:]
        twin.results = self.results[:]
        row = twin.row = [e.copy() for e in self.row]
        for e in row:
            c0, c1 = e["cards"]
            e["cards"] = [c0.copy(), c1.copy()]
        twin.hands = [self.hands[0][:], self.hands[1][:]]
        twin.decks = [self.decks[0][:], self.decks[1][:]]
        twin.discards = [self.discards[0][:], self.discards[1][:]]
        p0, p1 = self.placed
        twin.placed = [p0 and p0.copy(), p1 and p1.copy()]
        twin.next_mod = self.next_mod[:]
        twin.librarian = self.librarian[:]
        twin.engineer = self.engineer[:]
        twin.blackmail = self.blackmail[:]  # (its lists are replaced, never changed)
        twin.elemental_draw = self.elemental_draw[:]
        twin.serpent = self.serpent[:]
        twin.tasks = self.tasks[:]
        tot = self._tot
        twin._tot = tot and tot[:]
        twin._watch = self._watch
        return twin

    def apply_fast(self, player: int, action: str) -> None:
        """Play an action from ``legal_actions(player)`` with no checks and no record: the
        public rules (:meth:`_apply`) as they are (a quiet state makes no events)."""
        self._apply(player, action)

    def playout_fast(self, rng: Any, depth: int) -> bool:
        """:meth:`State.playout_fast` in one loop: the movers as :meth:`to_move` gives them
        and the default draw (``int(rng.random() * n)``-th of :meth:`legal_actions`, read
        from the hand or the choice's options without making the list), each played as
        :meth:`_apply` plays it (:meth:`_answer` or :meth:`_place`, then :meth:`_run`). The
        same numbers, moves and states as the plain loop."""
        r = rng.random
        answers, place, run = _ANSWERS, self._place, self._run
        for _ in range(depth):
            if self.phase == "over":  # to_move() is []
                return True
            choice = self.choice
            if choice is not None:  # to_move() is [the chooser]
                opts = choice["_opts"]
                self.choice = None
                answers[choice["kind"]](self, choice, opts[int(r() * len(opts))])  # _answer
                run()
                continue
            placed, f = self.placed, self.fortune
            if f is not None and placed[f] is None:
                p = f
            elif placed[0] is not None:
                p = 1
            elif placed[1] is None:  # to_move() is [0, 1]: both place in this round
                # Seat a's placement only waits for b's: the engine has nothing to run and
                # b holds cards (else the round had ended when the engine last settled), so
                # _run would change nothing and legal_actions(1) is b's hand.
                h0, h1 = self.hands
                v0 = h0[int(r() * len(h0))]
                place(0, v0, h1[int(r() * len(h1))])
                if self.tasks or self.choice is not None or self.ending is not None:
                    run()
                else:  # _run would only settle: after a whole Finish both seats hold cards
                    self.cur = None
                continue
            else:
                p = 0
            hand = self.hands[p]
            place(p, hand[int(r() * len(hand))])
            run()
        return False

    def _count(self) -> tuple[list[int], int]:
        """The signets in the row per seat and how many of the deck's row-watching ongoing
        cards there carry a token (:data:`_WATCHER`: Judges, whose owners win every tie;
        Mechanical Djinns, checked at every Finish), counted from the row and kept as the
        running tallies (``_tot``, ``_watch``) from now on: :meth:`_decide` moves signets in
        ``_tot``, a card leaving the row takes its signets out (:meth:`_untally`), a token
        put on a watcher counts it. None until counted: a new round, a copy by
        :meth:`clone`, a determinised world, and for ``_watch`` a token taken off or moved
        (Void Mage, Kinesis Mage) or leaving the row."""
        watcher = _WATCHER[self.deck]
        t0 = t1 = watch = 0
        for e in self.row:
            d0, d1 = e["cards"]
            t0 += d0["sig"]
            t1 += d1["sig"]
            if d0["on"] and d0["v"] == watcher:
                watch += 1
            if d1["on"] and d1["v"] == watcher:
                watch += 1
        self._tot = tot = [t0, t1]
        self._watch = watch
        return tot, watch

    def view(self, player: int | None) -> dict[str, Any]:
        if player is not None and player not in SEATS:
            raise ValueError(f"there is no player {player!r} in this game")
        row = []
        waiting = []
        for i, enc in enumerate(self.row):
            cards = []
            for p in SEATS:
                c = enc["cards"][p]
                known = c["up"] or p == player
                v = c["v"]
                cards.append({"value": v if known else None,
                              "influence": v + c["mod"] if known else None,
                              "modifiers": c["mod"], "ongoing": c["on"], "signets": c["sig"],
                              "face_up": c["up"]})
                if c["lib"] or c["eng"] or c["bm"]:
                    waiting.append({"n": i + 1, "seat": p, "librarian": c["lib"],
                                    "engineer": c["eng"], "blackmail": list(c["bm"])})
            row.append({"n": i + 1, "revealed": enc["revealed"], "evaluated": enc["evald"],
                        "winner": self._holder(enc), "cards": cards})
        placing = []
        for p in SEATS:
            c = self.placed[p]
            if c is None:
                placing.append({"placed": False, "value": None, "face_up": False,
                                "modifiers": 0})
            else:
                placing.append({"placed": True,
                                "value": c["v"] if (c["up"] or p == player) else None,
                                "face_up": c["up"], "modifiers": c["mod"]})
        choice = None
        if self.choice is not None:
            choice = {k: _jcopy(v) for k, v in self.choice.items() if k[0] != "_"}
            for key in ("at", "target", "plus", "from"):
                if key in choice:
                    choice[key] = self._ref(choice[key])
            if player == self.choice["seat"] and "_kept" in self.choice:
                choice["kept"] = list(self.choice["_kept"])  # secret: still in that hand
        djinns = [[i + 1, p] for i, enc in enumerate(self.row) for p in SEATS
                  if self._active(enc["cards"][p], "mechanical_djinn")]
        return {
            "game": self.game.id,
            "options": dict(self.options),
            "you": player,
            "deck": self.deck,
            "location": self.location,
            "round": self.round,
            "wins": list(self.wins),
            "results": list(self.results),
            "phase": "over" if self.phase == "over" else "choice" if self.choice else "place",
            "to_move": self.to_move(),
            "outcome": self.outcome(),
            "options_now": self.legal_actions(player) if player is not None else [],
            "signets": self._totals(),
            "row": row,
            "placing": placing,
            "hand": list(self.hands[player]) if player is not None else [],
            "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": [len(d) for d in self.decks],
            "discards": [list(d) for d in self.discards],
            "pending": {"next_modifier": list(self.next_mod), "fortune_teller": self.fortune,
                        "librarian": list(self.librarian), "engineer": list(self.engineer),
                        "blackmail": [list(b) for b in self.blackmail],
                        "elemental_draw": list(self.elemental_draw),
                        "mechanical_djinn": djinns, "waiting": waiting},
            "choice": choice,
        }

    # -- round set-up -------------------------------------------------------------------
    def _start_round(self) -> None:
        """§2 / §6: every card back to its owner's deck, reshuffle, deal, clear everything."""
        self.round += 1
        self.row: list[dict[str, Any]] = []
        self.hands: list[list[int]] = [[], []]
        self.decks: list[list[int]]  # (made by _deal)
        self.discards: list[list[int]] = [[], []]
        self.placed: list[dict[str, Any] | None] = [None, None]
        self.next_mod = [0, 0]
        self.librarian = [0, 0]
        self.engineer = [0, 0]
        self.blackmail: list[list[str]] = [[], []]
        self.elemental_draw = [0, 0]
        self.serpent = [0, 0]
        self.fortune: int | None = None
        self.tasks: list[dict[str, Any]] = []
        self.choice = None
        self.cur = None
        self.ending: list[Any] | None = None
        self._tot = self._watch = None
        if not self.quiet:
            self.log.append({"t": "round", "n": self.round, "wins": list(self.wins)})
        self._deal(2 if self.location == "grand_library" else 5)

    def _deal(self, n: int) -> None:
        """§2.2: each player shuffles their deck and draws ``n``. The deal depends only on
        the PRNG state (every deck is 1..16 here), so it is kept (:data:`_DEALS`): search
        plays many rounds from the same state and meets the same deal again."""
        rng = self.rng
        key = (rng._state, n)
        deal = _DEALS.get(key)
        if deal is None:
            decks = [list(range(1, 17)), list(range(1, 17))]
            drawn = []
            for deck in decks:
                rng.shuffle(deck)
                drawn.append(tuple(deck[:-n - 1:-1]))  # the top n, in draw order
                del deck[-n:]
            if len(_DEALS) >= 4096:
                _DEALS.clear()
            deal = _DEALS[key] = (tuple(decks[0]), tuple(decks[1]), tuple(sorted(drawn[0])),
                                  tuple(sorted(drawn[1])), rng._state, drawn)
        d0, d1, h0, h1, rng._state, drawn = deal
        self.decks = [list(d0), list(d1)]
        self.hands = [list(h0), list(h1)]
        if not self.quiet:
            for p in SEATS:
                self.log.append(private_event({"t": "deal", "p": p, "n": n,
                                               "cards": list(drawn[p])}, [p], ["cards"]))

    # -- helpers ------------------------------------------------------------------------
    def _find(self, seat: int, value: int) -> int:
        """Row index of ``seat``'s card ``value`` (-1 if it is not in the row). A seat
        has one card of each value, so it is found from the newest encounter back (most
        often one of the last)."""
        row = self.row
        for i in range(len(row) - 1, -1, -1):
            c = row[i]["cards"][seat]
            if c is not None and c["v"] == value:
                return i
        return -1

    def _enc_index(self, enc_id: int | None) -> int:
        row = self.row
        if row and row[-1]["id"] == enc_id:  # most often the newest one
            return len(row) - 1
        for i, enc in enumerate(row):
            if enc["id"] == enc_id:
                return i
        return -1

    def _ref(self, ident: list[int] | None) -> list[int] | None:
        """[seat, value] of a row card -> [encounter number, seat] (None if gone)."""
        if ident is None:
            return None
        i = self._find(ident[0], ident[1])
        return None if i < 0 else [i + 1, ident[0]]

    def _card(self, ident: list[int]) -> dict[str, Any] | None:
        i = self._find(ident[0], ident[1])
        return None if i < 0 else self.row[i]["cards"][ident[0]]

    def _active(self, card: dict[str, Any] | None, ability: str) -> bool:
        return (card is not None and card["on"] and self.abilities[card["v"]] == ability)

    @staticmethod
    def _holder(enc: dict[str, Any]) -> int | None:
        s0, s1 = enc["cards"][0]["sig"], enc["cards"][1]["sig"]
        if s0 and not s1:
            return 0
        if s1 and not s0:
            return 1
        return None

    def _totals(self) -> list[int]:
        t = [0, 0]
        for enc in self.row:
            t[0] += enc["cards"][0]["sig"]
            t[1] += enc["cards"][1]["sig"]
        return t

    def _revealed_codes(self, seat: int | None = None) -> list[str]:
        """The codes of every revealed row card (of ``seat``'s only, if given), left to
        right ("1a", "1b", "2a"…): the face-down encounters are the newest (Foggy Swamp:
        the one waiting for the next placement), so the revealed ones are the row up to
        them."""
        row = self.row
        k = len(row)
        while k and not row[k - 1]["revealed"]:
            k -= 1
        return list(_ROW_CODES[k] if seat is None else _ROW_CODES[k][seat::2])

    def _revealed_cards(self) -> list[list[int]]:
        """[seat, value] of every card in a revealed encounter (ability targets)."""
        return [[p, enc["cards"][p]["v"]] for enc in self.row if enc["revealed"]
                for p in SEATS]

    def _own_revealed(self, seat: int) -> list[list[int]]:
        return [[seat, enc["cards"][seat]["v"]] for enc in self.row if enc["revealed"]]

    def _code(self, ident: list[int]) -> str:
        return f"{self._find(ident[0], ident[1]) + 1}{SEAT_LETTER[ident[0]]}"

    def _infl(self, card: dict[str, Any]) -> int:
        return card["v"] + card["mod"]

    def _draw(self, p: int, n: int, why: str) -> None:
        """Seat ``p`` draws ``n`` cards (as many as the deck has) into its sorted hand."""
        deck, hand = self.decks[p], self.hands[p]
        cards = [deck.pop() for _ in range(min(n, len(deck)))]
        for v in cards:
            insort(hand, v)
        if not self.quiet:
            self._drew(p, cards, why)

    def _drew(self, p: int, cards: list[int], why: str) -> None:
        """The event of a draw (the cards seen by ``p`` only)."""
        event = {"t": "draw", "p": p, "n": len(cards), "cards": cards}
        if why != "finish":
            event["why"] = why
        self.log.append(private_event(event, [p], ["cards"]))

    def _discard_hand(self, p: int, cards: list[int], why: str) -> None:
        for v in cards:
            self.hands[p].remove(v)
            self.discards[p].append(v)
        if not self.quiet:
            self.log.append({"t": "discard", "p": p, "cards": list(cards), "from": "hand",
                             "why": why})

    def _discard_deck_top(self, p: int, n: int, why: str) -> list[int]:
        deck = self.decks[p]
        cards = [deck.pop() for _ in range(min(n, len(deck)))]
        self.discards[p].extend(cards)
        if not self.quiet:
            self.log.append({"t": "discard", "p": p, "cards": cards, "from": "deck", "why": why})
        return cards

    def _remove(self, i: int, seat: int, to: str, why: str) -> None:
        """§4.4: a row card leaves (to the discard pile or the hand), losing its tokens."""
        enc = self.row[i]
        card = enc["cards"][seat]
        v = card["v"]
        self._untally(seat, card)
        enc["cards"][seat] = None
        if to == "hand":
            insort(self.hands[seat], v)
            if not self.quiet:
                self.log.append({"t": "return", "p": seat, "e": i + 1, "card": v})
        else:
            self.discards[seat].append(v)
            if not self.quiet:
                self.log.append({"t": "discard", "p": seat, "cards": [v], "from": "row",
                                 "why": why, "e": i + 1})

    def _untally(self, seat: int, card: dict[str, Any]) -> None:
        """Seat ``seat``'s row ``card`` leaves the row: its signets leave the running tally
        (:meth:`_count`), and a token on it has the watchers counted again."""
        tot = self._tot
        if tot is not None:
            tot[seat] -= card["sig"]
        if card["on"]:
            self._watch = None

    def _drop_empty(self, i: int) -> None:
        if self.row[i]["cards"] == [None, None]:
            self.row.pop(i)
            if not self.quiet:
                self.log.append({"t": "delete", "e": i + 1})

    def _modify(self, ident: list[int], delta: int, by: str) -> None:
        """``delta`` to the modifiers of row card ``ident`` ([seat, value]) if it is in the
        row (:meth:`_modify_at`)."""
        i = self._find(ident[0], ident[1])
        if i >= 0:
            self._modify_at(i, ident[0], delta, by)

    def _modify_at(self, i: int, p: int, delta: int, by: str) -> None:
        """``delta`` to the modifiers of seat ``p``'s card in encounter ``i``, then §4.2
        (a card's influence decides only its own encounter)."""
        card = self.row[i]["cards"][p]
        card["mod"] += delta
        if not self.quiet:
            self.log.append({"t": "modifier", "p": p, "e": i + 1, "card": card["v"],
                             "delta": delta, "total": card["mod"], "by": by})
        self._reevaluate(only=i)

    def _end_round(self, winner: int | None, reason: str) -> None:
        """Stop the round now (the rest of the encounter is skipped)."""
        if self.ending is None:
            self.ending = [winner, reason]
        self.tasks = []
        self.choice = None

    # -- the engine loop ----------------------------------------------------------------
    def _run(self) -> None:
        """Run the scheduled tasks until a player must choose, the round ends (then it is
        finished) or nothing is left (then a seat that must place with no card loses)."""
        tasks = self.tasks  # (only _end_round replaces it, and that stops the loop)
        while tasks and self.choice is None and self.ending is None:
            task = tasks.pop()
            _TASKS[task["k"]](self, task)
        if self.ending is not None:
            self._finish_round()
        elif self.choice is None and not self.tasks:
            self.cur = None
            hands = self.hands
            if not (hands[0] and hands[1]):
                self._check_stuck()

    def _push(self, *tasks: dict[str, Any]) -> None:
        """Schedule tasks to run in the order given (before anything already scheduled)."""
        self.tasks.extend(reversed(tasks))

    def _ask(self, choice: dict[str, Any], options: list[str]) -> None:
        if not options:
            return
        if len(options) == 1 and choice["kind"] in _AUTO:
            self._answer(choice, options[0])
            return
        choice["_opts"] = options
        self.choice = choice

    def _check_stuck(self) -> None:
        """A seat that must place with an empty hand cannot play (§6.3 fallback)."""
        hands = self.hands
        for p in self.to_move():
            if hands[p]:
                continue
            self._round_end_by_cards()
            if self.ending is None:  # its deck has cards (no card empties a hand so)
                self._end_round(None, "no_cards")
            self._finish_round()
            return

    def _finish_round(self) -> None:
        assert self.ending is not None  # set by the end check that ends the round
        winner, reason = self.ending
        self.ending = None
        if winner is not None:
            self.wins[winner] += 1
        self.results.append(winner)
        if not self.quiet:
            self.log.append({"t": "round_end", "winner": winner, "reason": reason,
                             "wins": list(self.wins)})
        if winner is not None and self.wins[winner] >= ROUNDS_TO_WIN:
            self.phase = "over"
            self.winner = winner
            self.tasks = []
            self.choice = None
            if not self.quiet:
                self.log.append({"t": "end", "winner": winner, "wins": list(self.wins)})
            return
        self._start_round()

    # -- placement (§3.1) ---------------------------------------------------------------
    def _place(self, p: int, v: int, then: int = 0) -> None:
        """Seat ``p`` places hand card ``v`` (§3.1): its pending "next card" effects go
        with it (Surgeon / Clockmaker / Envoy modifiers now; Librarian, Blackmailer and
        Engineer wait on the card). ``then``: the other seat's card, placed right after
        (:meth:`playout_fast` draws both placements of a round at once). Once both seats
        have placed, the pair is the next encounter and the encounter to resolve (this
        one; Foggy Swamp: the one before it) goes through :meth:`_resolve`. The one
        placement, for every path; new cards and encounters are copies of
        :data:`_CARD` and :data:`_ENCOUNTER`."""
        hands, fortune, placed, quiet = self.hands, self.fortune, self.placed, self.quiet
        next_mod, librarian, engineer, blackmail = (self.next_mod, self.librarian,
                                                    self.engineer, self.blackmail)
        while True:
            hands[p].remove(v)
            placed[p] = card = _CARD.copy()
            card["v"] = v
            if fortune == p:
                card["up"] = True
            if next_mod[p]:
                card["mod"] = next_mod[p]
                next_mod[p] = 0
            if librarian[p]:
                card["lib"] = librarian[p]
                librarian[p] = 0
            if engineer[p]:
                card["eng"] = engineer[p]
                engineer[p] = 0
            if blackmail[p]:
                card["bm"] = blackmail[p]
                blackmail[p] = []
            if not quiet:
                event = {"t": "place", "p": p, "e": len(self.row) + 1, "card": v}
                if card["mod"]:
                    event["mod"] = card["mod"]
                if card["up"]:
                    event["up"] = True
                    self.log.append(event)
                else:
                    self.log.append(private_event(event, [p], ["card"]))
            if not then:
                break
            p, v, then = 1 - p, then, 0
        if placed[1 - p] is None:
            return
        self.fortune = None
        enc = _ENCOUNTER.copy()
        enc["id"] = n = self.next_id
        self.next_id = n + 1
        enc["cards"] = placed
        self.placed = [None, None]
        row = self.row
        i = len(row)
        row.append(enc)
        if self.location == "foggy_swamp":
            if not i:  # nothing to reveal yet: only a Finish
                self._resolve(_FINISH)
                return
            i -= 1
            enc = row[i]
            n = enc["id"]
        self.cur = n
        self._resolve(_REVEAL, i, enc)

    # -- the encounter procedure (§3.2–3.7) ---------------------------------------------
    def _resolve(self, start: int, i: int = -1, enc: dict[str, Any] | None = None) -> None:
        """The procedure of encounter ``self.cur`` (``enc``, at row index ``i``, when
        ``start`` is :data:`_REVEAL`) from step ``start`` on: reveal, reveal checks,
        after-reveal effects, evaluation, the loser's ability, then the Finish (Engineer,
        Mechanical Djinn, Serpent Temple / Founder's Day, round-end checks, draws,
        Scrapyard). Written out once, for the public path and the fast path alike; a step
        that cannot do anything with this deck, location or encounter costs a test.

        A step that ends the round returns at once (the engine then finishes the round). A
        step that asks a choice or schedules tasks leaves the rest of the procedure under
        them as one task (:data:`_RESUME`: ``{"k": "resolve", "from": step}``) and returns
        for the engine (:meth:`_run`) to go on. ``start``: :data:`_REVEAL` (a whole
        encounter), :data:`_EVALUATE` (after the after-reveal effects), :data:`_FINISH`
        (after the loser's ability; also Foggy Swamp's first placement, which has only a
        Finish), :data:`_END_CHECKS` (after Serpent Temple's wins)."""
        loc = self.location
        quiet = self.quiet
        two = self.deck == "II"
        if start and two and start <= _FINISH:  # resumed (Deck II): where is it now?
            row = self.row
            i = len(row) - 1  # (most often the newest)
            if i < 0 or row[i]["id"] != self.cur:
                i = self._enc_index(self.cur)
            enc = row[i] if i >= 0 else None
        if start <= _EVALUATE:
            assert enc is not None  # given by the caller (only Deck II resumes evaluation)
            cards = enc["cards"]
            c0, c1 = cards
            if not start:  # §3.2 reveal, §3.3 reveal checks, §3.4 after-reveal effects
                enc["revealed"] = True
                c0["up"] = c1["up"] = True
                if not quiet:
                    self.log.append({"t": "reveal", "e": i + 1, "cards": [c0["v"], c1["v"]],
                                     "influence": [c0["v"] + c0["mod"], c1["v"] + c1["mod"]]})
                if i and loc in _REVEAL_RULES:
                    self._reveal_rules(i, cards)
                    if self.ending is not None:
                        return
                if two and (c0["lib"] or c1["lib"] or c0["bm"] or c1["bm"]):
                    self._after_reveal(cards)
                    self.tasks.insert(0, _RESUME[_EVALUATE])
                    return
            # §3.5 evaluate, §3.6 the loser's ability
            enc["evald"] = True
            self._decide(i, enc, c0, c1)
            if not quiet:
                self.log.append({"t": "evaluate", "e": i + 1, "winner": enc["win"],
                                 "signets": [c0["sig"], c1["sig"]]})
            if loc == "founders_day":
                self._founders_check()
                if self.ending is not None:
                    return
            w = enc["win"]
            if w is not None:  # a tie activates nothing
                q = 1 - w
                v = cards[q]["v"]
                self._activate(v, [q, v], None, i)
                if self.tasks or self.choice is not None or self.ending is not None:
                    if self.ending is None:
                        self.tasks.insert(0, _RESUME[_FINISH])
                    return
            start = _FINISH
        if start == _FINISH:  # §3.7 (a) Engineer, (b) Mechanical Djinn, (c) locations
            if two:
                if enc is not None:  # (its cards; [None, None] once it has left the row)
                    c0, c1 = enc["cards"]
                    if (c0 is not None and c0["eng"]) or (c1 is not None and c1["eng"]):
                        self._engineer(self._enc_index(self.cur))  # (where it is now)
                djinn = self._watch  # (Deck II: the active Mechanical Djinns)
                if djinn is None:
                    djinn = self._count()[1]
                if djinn:
                    self._djinn_check()
                    if self.ending is not None:
                        return
            if loc == "serpent_temple":
                serpent = self.serpent
                if serpent[0] or serpent[1]:
                    self._serpent()
                    self.tasks.insert(0, _RESUME[_END_CHECKS])
                    return
            elif loc == "founders_day":
                self._founders_check()
                if self.ending is not None:
                    return
        # §3.7 (d) the round-end checks: §6.2 signets, 5 or more and more than the
        # opponent win (from the tally, :meth:`_count`); §6.3 a player out of cards loses
        # (instant wins already ended the round). The one round-end check.
        tot = self._tot
        t0, t1 = tot if tot is not None else self._count()[0]
        hands, decks = self.hands, self.decks
        if t0 >= SIGNETS_TO_WIN and t0 > t1:
            self._end_round(0, "signets")
            return
        if t1 >= SIGNETS_TO_WIN and t1 > t0:
            self._end_round(1, "signets")
            return
        d0, d1 = decks
        if not ((hands[0] or d0) and (hands[1] or d1)):
            self._round_end_by_cards()
            if self.ending is not None:
                return
        # (e) the Finish draws: each player draws 1 if their deck has cards (Grand
        # Library, Scrapyard: 2; Bazaar: 4 instead, only to a hand of at most 1 card),
        # then Elemental's owner draws its extra cards; Scrapyard's cards under the decks
        # follow. The one Finish draw.
        if loc not in _DRAW_RULES:  # one card each: the hot spot of every playout
            if d0:
                v = d0.pop()
                insort(hands[0], v)
                if not quiet:
                    self._drew(0, [v], "finish")
            if d1:
                v = d1.pop()
                insort(hands[1], v)
                if not quiet:
                    self._drew(1, [v], "finish")
        elif loc == "bazaar":
            for p in SEATS:
                if len(hands[p]) <= 1 and decks[p]:
                    if not quiet:
                        self.log.append({"t": "location", "loc": "bazaar", "p": p})
                    self._draw(p, 4, "bazaar")
        else:  # Grand Library, Scrapyard
            if d0:
                self._draw(0, 2, "finish")
            if d1:
                self._draw(1, 2, "finish")
        extra = self.elemental_draw
        if extra[0] or extra[1]:
            for p in SEATS:
                if extra[p]:
                    self._draw(p, extra[p], "elemental")
                    extra[p] = 0
        if loc == "scrapyard":
            self._push({"k": "under", "p": 0}, {"k": "under", "p": 1})

    def _t_resolve(self, task: dict[str, Any]) -> None:
        """The rest of an encounter's procedure, where a step left it (:meth:`_resolve`)."""
        self._resolve(task["from"])

    # -- reveal (§3.2–3.4) --------------------------------------------------------------
    def _reveal_rules(self, i: int, cards: list[dict[str, Any]]) -> None:
        """The reveal's location rules (Auction House, Haunted Catacombs), for ``i`` > 0."""
        prev = self.row[i - 1]["cards"]
        if self.location == "auction_house":
            for p in SEATS:
                if self._infl(cards[p]) < self._infl(prev[p]):
                    if not self.quiet:
                        self.log.append({"t": "location", "loc": "auction_house", "p": p})
                    self._discard_deck_top(p, 1, "auction_house")
        elif self.location == "haunted_catacombs":
            losers = [p for p in SEATS if _COLOUR[cards[p]["v"]] == _COLOUR[prev[p]["v"]]]
            for p in losers:
                if not self.quiet:
                    self.log.append({"t": "location", "loc": "haunted_catacombs", "p": p})
            if len(losers) == 1:
                self._end_round(1 - losers[0], "haunted_catacombs")
            elif losers:
                self._end_round(None, "haunted_catacombs")

    def _after_reveal(self, cards: list[dict[str, Any]]) -> None:
        """§3.4: the revealed cards' waiting Librarian and Blackmailer effects, as tasks
        (Librarians first, seat a first)."""
        tasks = []
        for p in SEATS:
            c = cards[p]
            for _ in range(c["lib"]):
                tasks.append({"k": "librarian", "p": p, "v": c["v"]})
            c["lib"] = 0
        for p in SEATS:
            c = cards[p]
            for colour in c["bm"]:
                tasks.append({"k": "blackmail", "p": p, "colour": colour, "v": c["v"]})
            c["bm"] = []
        self._push(*tasks)

    def _t_librarian(self, task: dict[str, Any]) -> None:
        self._ask({"kind": "librarian", "seat": task["p"], "ability": "librarian", "card": 6,
                   "at": None, "target": [task["p"], task["v"]]}, ["+", "-"])

    def _t_blackmail(self, task: dict[str, Any]) -> None:
        p = task["p"]
        hit = _COLOUR[task["v"]] != task["colour"]
        if not self.quiet:
            self.log.append({"t": "blackmail", "p": p, "colour": task["colour"], "hit": hit})
        if hit:
            self._push({"k": "discard", "p": p, "n": 2, "why": "blackmailer"})

    def _t_discard(self, task: dict[str, Any]) -> None:
        self._discard_choice(task["p"], task["n"], task["why"])

    def _discard_choice(self, p: int, n: int, why: str) -> None:
        """``p`` discards ``n`` hand cards of their choice (fewer if unable): asked one at a
        time, the whole hand at once when it has no more than that."""
        hand = self.hands[p]
        if n <= 0 or not hand:
            return
        if len(hand) <= n:
            self._discard_hand(p, list(hand), why)
            return
        self._ask({"kind": "discard", "seat": p, "ability": why, "card": None,
                   "at": None, "count": n, "why": why}, list(map(_X.__getitem__, hand)))

    def _t_draw(self, task: dict[str, Any]) -> None:
        self._draw(task["p"], task["n"], task["why"])

    # -- evaluation (§4.1, §4.2) --------------------------------------------------------
    def _reevaluate(self, skip: int | None = None,
                    only: int | list[int] | None = None) -> None:
        """§4.2: re-decide evaluated encounters (:meth:`_decide`); signets move,
        abilities never trigger. One ``signets`` event lists what changed (but encounter
        id ``skip``).

        ``only``: the row index, or the sorted row indices, of what can change (the rest
        of the row is decided as it stands): a card's modifiers change only its own
        encounter; a token only what :meth:`_retoken` says. None: every encounter (after
        a removal shifts the row)."""
        row = self.row
        if only is None:
            indices: Any = range(len(row))
        elif type(only) is int:
            indices = (only,)
        else:
            indices = only
        quiet = self.quiet
        changed = []
        for i in indices:
            enc = row[i]
            if not enc["evald"]:
                continue
            c0, c1 = enc["cards"]
            if quiet:
                self._decide(i, enc, c0, c1)
            else:
                before = [c0["sig"], c1["sig"]]
                if self._decide(i, enc, c0, c1) and enc["id"] != skip:
                    changed.append({"e": i + 1, "before": before,
                                    "after": [c0["sig"], c1["sig"]]})
        if changed:
            self.log.append({"t": "signets", "changed": changed, "totals": self._totals()})

    def _decide(self, i: int, enc: dict[str, Any], c0: dict[str, Any],
                c1: dict[str, Any]) -> bool:
        """§4.1 for the evaluated encounter ``enc`` = ``row[i]`` (its cards ``c0``, ``c1``),
        from its cards and its neighbour's as they are now, put on the row: its winner
        (``win``) and signets; the signet tally (:meth:`_count`) and Serpent Temple's count
        of newly won earlier encounters follow. True if signets moved. The one evaluation:
        every evaluation and re-evaluation of both paths comes here.

        An ongoing ability is active when its card carries a token (``on``) and has that
        ability's value in this deck (Judge, Mediator, Treasurer: Deck I; Counselor,
        Aristocrat: Deck II). The hot spot of every playout: the tests are on plain fields,
        and an encounter with no token and no evaluated encounter right of it (most often
        the one just revealed) is decided by influence at once.
        """
        row = self.row
        a = c0["v"] + c0["mod"]
        b = c1["v"] + c1["mod"]
        if not (c0["on"] or c1["on"] or (row[-1] is not enc and row[i + 1]["evald"])):
            # No token here and no evaluated encounter right of it: influence decides.
            if a > b:
                win, s0, s1 = 0, 1, 0
            elif b > a:
                win, s0, s1 = 1, 0, 1
            else:
                win, s0, s1 = None, *self._judges(row, 1)
        else:
            win = 0 if a > b else 1 if b > a else None  # 3. influence
            n = 1  # the winner's signets
            deck_one = self.deck == "I"
            if deck_one and ((c0["on"] and c0["v"] == _MEDIATOR)
                             or (c1["on"] and c1["v"] == _MEDIATOR)):
                win = None  # 2. Mediator
            if row[-1] is not enc and row[i + 1]["evald"]:
                n0, n1 = row[i + 1]["cards"]
                if deck_one:  # 5. an active Treasurer right of it
                    n += ((n0["on"] and n0["v"] == _TREASURER)
                          + (n1["on"] and n1["v"] == _TREASURER))
                else:  # 1. an active Counselor right of it (two cancel each other out)
                    k0 = n0["on"] and n0["v"] == _COUNSELOR
                    k1 = n1["on"] and n1["v"] == _COUNSELOR
                    if k0 != k1:
                        win = 0 if k0 else 1
            if win is None:  # 4. a tie: each active Judge's owner (C3: a Mediator tie too)
                s0, s1 = self._judges(row, n)
            else:  # 5. the winner's signets, +1 for an active Aristocrat
                cw = c1 if win else c0
                if cw["on"] and not deck_one and cw["v"] == _ARISTOCRAT:
                    n += 1
                s0, s1 = (0, n) if win else (n, 0)
        enc["win"] = win
        b0 = c0["sig"]
        b1 = c1["sig"]
        if b0 == s0 and b1 == s1:
            return False
        c0["sig"] = s0
        c1["sig"] = s1
        tot = self._tot
        if tot is not None:
            if s0 != b0:
                tot[0] += s0 - b0
            if s1 != b1:
                tot[1] += s1 - b1
        if self.location == "serpent_temple" and enc["id"] != self.cur:
            if s0 and not b0:
                self.serpent[0] += 1
            if s1 and not b1:
                self.serpent[1] += 1
        return True

    def _judges(self, row: list[dict[str, Any]], n: int) -> tuple[int, int]:
        """§4.1.4, a tie: the signets of each seat that has an active Judge in the row
        (Deck I), ``n`` each (the row is looked at only if the tally counts one)."""
        s0 = s1 = 0
        if self.deck == "I":
            watch = self._watch
            if watch is None:
                watch = self._count()[1]
            if not watch:
                return 0, 0
            for e in row:
                d0, d1 = e["cards"]
                if d0["on"] and d0["v"] == _JUDGE:
                    s0 = n
                if d1["on"] and d1["v"] == _JUDGE:
                    s1 = n
        return s0, s1

    def _founders_check(self) -> None:
        """Founder's Day: signets on 3 consecutive encounters win the round at once."""
        winners = []
        for p in SEATS:
            run = 0
            for enc in self.row:
                run = run + 1 if enc["cards"][p]["sig"] else 0
                if run >= 3:
                    winners.append(p)
                    break
        for p in winners:
            if not self.quiet:
                self.log.append({"t": "location", "loc": "founders_day", "p": p})
        if winners:
            self._end_round(winners[0] if len(winners) == 1 else None, "founders_day")

    # -- abilities (§3.6, §7) ------------------------------------------------------------
    def _activate(self, ab: int, src: list[int], via: str | None, i: int | None = None) -> None:
        """Ability ``ab`` activates as row card ``src`` ([seat, value], at row index ``i``
        if known): its own (the loser's, §3.6) or copied / re-activated ``via`` Magistra,
        Illusionist or Elemental. An ongoing ability puts a token on the card (§4.3) and
        re-decides what the token changes (:meth:`_retoken`); an instant one runs its rule
        (:data:`_RULES`: ``rule(self, o, src, i, ab)``), which returns False when it had no
        legal target."""
        o = src[0]
        if i is None:
            i = self._find(o, src[1])
        quiet = self.quiet
        if not quiet:
            event = {"t": "ability", "p": o, "ability": self.abilities[ab], "card": ab,
                     "e": i + 1 if i >= 0 else None}
            if via:
                event["via"] = via
                event["at"] = src[1]
            self.log.append(event)
        rule = _RULES[self.deck][ab]
        if rule is None:  # ongoing
            card = self.row[i]["cards"][o] if i >= 0 else None
            if card is not None and not card["on"]:
                card["on"] = True
                if not quiet:
                    self.log.append({"t": "token", "p": o, "e": i + 1, "card": card["v"],
                                     "on": True})
                if ab == _WATCHER[self.deck] and self._watch is not None:
                    self._watch += 1
                self._reevaluate(only=self._retoken(i, ab))
            return
        if rule(self, o, src, i, ab) is False and not quiet:
            event["none"] = True

    def _asking(self, o: int, src: list[int], i: int, ab: int, kind: str) -> dict[str, Any]:
        """A choice of kind ``kind`` for seat ``o``, asked by ability ``ab`` acting as row
        card ``src`` (at row index ``i``, -1 if it left the row)."""
        return {"seat": o, "ability": self.abilities[ab], "card": ab,
                "at": src if i >= 0 else None, "kind": kind}

    def _t_ability(self, task: dict[str, Any]) -> None:
        self._activate(task["ab"], task["src"], task["via"])

    def _retoken(self, i: int, v: int) -> list[int]:
        """The row indices whose §4.1 decision can change when a token is put on or taken
        off card value ``v`` in encounter ``i`` (the rest of the row stays as decided): the
        encounter left of it (12: Treasurer, Counselor), every tie (8 in Deck I: Judge),
        its own encounter (4: Mediator; 8 in Deck II: Aristocrat). Any other value (a token
        moved there, Mechanical Djinn) changes no evaluation."""
        if v == _TREASURER:
            return [i - 1] if i else []
        if v == _JUDGE:
            if self.deck == "I":
                return [j for j, enc in enumerate(self.row)
                        if enc["evald"] and enc["win"] is None]
            return [i]
        if v == _MEDIATOR and self.deck == "I":
            return [i]
        return []

    # Deck I ------------------------------------------------------------------------------
    def _ab_hired_blade(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        if i < 0:
            return False
        row = self.row
        c0, c1 = row[i]["cards"]
        tokens, size = (c0 is not None and c0["on"]) or (c1 is not None and c1["on"]), len(row)
        self._remove(i, o, "discard", "hired_blade")
        if row[i]["cards"][1 - o] is not None:
            self._remove(i, 1 - o, "discard", "hired_blade")
        self._drop_empty(i)
        if tokens or len(row) == size:
            self._reevaluate()
        elif i:  # the encounter gone had no token: only its left neighbour can change
            self._reevaluate(only=i - 1)
        return None

    def _ab_void_mage(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        opts = []  # the revealed cards with something to remove
        for n, enc in enumerate(self.row):
            if enc["revealed"]:
                c0, c1 = enc["cards"]
                if c0["mod"] or c0["on"]:
                    opts.append(_CODE[n][0])
                if c1["mod"] or c1["on"]:
                    opts.append(_CODE[n][1])
        if not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "void_target"), opts)
        return None

    def _ab_surgeon(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self._pend_mod(o, -5)
        return None

    def _pend_mod(self, o: int, delta: int) -> None:
        self.next_mod[o] += delta
        if not self.quiet:
            self.log.append({"t": "pending", "p": o, "effect": "next_modifier", "value": delta})

    def _ab_saboteur(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self._discard_deck_top(1 - o, 2, "saboteur")
        return None

    def _ab_fortune_teller(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self.fortune = 1 - o
        if not self.quiet:
            self.log.append({"t": "pending", "p": o, "effect": "fortune_teller", "value": 1 - o})
        return None

    def _ab_palace_guard(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self._ask(self._asking(o, src, i, ab, "colour"), list(COLOURS))
        return None

    _ab_ambusher = _ab_palace_guard
    _ab_blackmailer = _ab_palace_guard
    _ab_witch_king = _ab_palace_guard

    def _ab_puppeteer(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        q = 1 - o
        if not self.hands[q]:  # §6.1: the opponent cannot play
            self._end_round(o, "puppeteer")
            return None
        if i < 0:
            return False
        enc = self.row[i]
        old = enc["cards"][q]["v"]
        new = self.hands[q].pop(self.rng.randbelow(len(self.hands[q])))
        self.discards[q].append(old)
        token = enc["cards"][q]["on"]
        self._untally(q, enc["cards"][q])
        enc["cards"][q] = _new_card(new, True)
        if not self.quiet:
            self.log.append({"t": "replace", "p": q, "e": i + 1, "old": old, "new": new})
        if token:
            self._reevaluate()
        else:  # a card without a token in, one without out: only this encounter changes
            self._reevaluate(only=i)
        return None

    def _ab_clockmaker(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        if i > 0:
            self._modify_at(i - 1, o, 3, "clockmaker")
        self._pend_mod(o, 3)
        return None

    def _ab_swamp_guardian(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        v = src[1]
        opts = [_CODE[n][o] for n, enc in enumerate(self.row)
                if enc["revealed"] and enc["cards"][o]["v"] != v]
        if not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "swamp_target"), opts)
        return None

    def _ab_magistra(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        if i < 0:
            return False
        me = self.row[i]["cards"][o]
        floor, v, ongoing = me["v"] + me["mod"], src[1], self.ongoing
        opts = [_CODE[n][o] for n, enc in enumerate(self.row)
                if enc["revealed"] and (c := enc["cards"][o])["v"] != v
                and c["v"] not in ongoing and c["v"] + c["mod"] >= floor]
        if not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "magistra_target"), opts)
        return None

    def _ab_inventor(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        opts = self._revealed_codes()
        if len(opts) < 2:
            return False
        self._ask(self._asking(o, src, i, ab, "inventor_plus"), opts)
        return None

    def _ab_djinn(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self._end_round(o, "djinn")
        return None

    # Deck II -----------------------------------------------------------------------------
    def _ab_poisoner(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        if i < 0:
            return False
        me, opp = self.row[i]["cards"][o], self.row[i]["cards"][1 - o]
        delta = self._infl(me) - self._infl(opp)
        self._modify_at(i, 1 - o, delta, "poisoner")
        return None

    def _ab_kinesis_mage(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        own = 0  # its owner's played cards, and those with something to move
        opts = []
        for n, enc in enumerate(self.row):
            if enc["revealed"]:
                own += 1
                c = enc["cards"][o]
                if c["mod"] or c["on"]:
                    opts.append(_CODE[n][o])
        if own < 2 or not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "kinesis_from"), opts)
        return None

    def _ab_envoy(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        opts = self._revealed_codes()
        opts.append("n")
        self._ask(self._asking(o, src, i, ab, "envoy_target"), opts)
        return None

    def _ab_tax_collector(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        if i < 0:
            return False
        self._modify_at(i, o, 4, "tax_collector")
        return None

    def _ab_revolutionary(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        q = 1 - o
        self._push({"k": "discard", "p": q, "n": 2, "why": "revolutionary"},
                   {"k": "draw", "p": q, "n": 2, "why": "revolutionary"})
        return None

    def _ab_librarian(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self.librarian[o] += 1
        if not self.quiet:
            self.log.append({"t": "pending", "p": o, "effect": "librarian", "value": 1})
        return None

    def _ab_prodigy(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        opts = [_CODE[n][o] for n, enc in enumerate(self.row)
                if enc["revealed"] and (c := enc["cards"][o])["v"] + c["mod"] <= 8]
        if not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "prodigy_target"), opts)
        return None

    def _ab_illusionist(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        opts = []
        v = src[1] if src[0] == o else None
        for n, enc in enumerate(self.row):
            if enc["evald"] and enc["cards"][1 - o]["sig"] and not enc["cards"][o]["sig"]:
                if enc["cards"][o]["v"] != v:
                    opts.append(_CODE[n][o])
        if not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "illusionist_target"), opts)
        return None

    def _ab_engineer(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        self.engineer[o] += 1
        if not self.quiet:
            self.log.append({"t": "pending", "p": o, "effect": "engineer", "value": 5})
        return None

    def _ab_elemental(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        opts = [f"x{v}" for v in self.hands[o] if v not in self.ongoing]
        if not opts:
            return False
        self._ask(self._asking(o, src, i, ab, "elemental_card"), opts)
        return None

    def _ab_successor(self, o: int, src: list[int], i: int, ab: int) -> bool | None:
        q = 1 - o
        self._discard_deck_top(q, len(self.decks[q]), "successor")
        if len(self.hands[q]) > 2:
            self._ask({**self._asking(o, src, i, ab, "successor_keep"), "seat": q, "count": 2,
                       "_kept": []},
                      [f"k{v}" for v in self.hands[q]])
        return None

    # -- answering a choice -------------------------------------------------------------
    def _answer(self, c: dict[str, Any], action: str) -> None:
        """Choice ``c`` answered with ``action`` (one of its options): its kind's
        ``_an_<kind>`` (:data:`_ANSWERS`)."""
        _ANSWERS[c["kind"]](self, c, action)

    def _target(self, code: str) -> list[int]:
        """[seat, value] of the row card ``code`` names ("3a": encounter 3, seat a)."""
        i, p = _AT[code]
        return [p, self.row[i]["cards"][p]["v"]]

    def _an_discard(self, c: dict[str, Any], action: str) -> None:
        o, why = c["seat"], c["why"]
        self._discard_hand(o, [_X_VALUE[action]], why)
        if c["count"] > 1:
            self._discard_choice(o, c["count"] - 1, why)

    def _an_librarian(self, c: dict[str, Any], action: str) -> None:
        self._modify(c["target"], 2 if action == "+" else -2, "librarian")

    def _an_colour(self, c: dict[str, Any], action: str) -> None:
        self._named(c, action)

    def _an_palace_guard_discard(self, c: dict[str, Any], action: str) -> None:
        o = c["seat"]
        if action == "pass":
            if not self.quiet:
                self.log.append({"t": "decline", "p": o})
            if c["at"] is not None:
                self._modify(c["at"], 7, "palace_guard")
        else:
            self._discard_hand(o, [_X_VALUE[action]], "palace_guard")

    def _an_void_target(self, c: dict[str, Any], action: str) -> None:
        i, p = _AT[action]
        card = self.row[i]["cards"][p]
        opts = (["m"] if card["mod"] else []) + (["o"] if card["on"] else [])
        self._ask({**_ctx(c), "kind": "void_kind", "target": [p, card["v"]]}, opts)

    def _an_void_kind(self, c: dict[str, Any], action: str) -> None:
        t = c["target"]
        i = self._find(t[0], t[1])
        card = self.row[i]["cards"][t[0]]
        if action == "m":
            self._modify(t, -card["mod"], "void_mage")
            return
        card["on"] = False
        self._watch = None  # (it may have been a Judge's)
        if not self.quiet:
            self.log.append({"t": "token", "p": t[0], "e": i + 1, "card": t[1], "on": False})
        for j in self._retoken(i, t[1]):  # (one signets event per encounter)
            self._reevaluate(only=j)

    def _an_inventor_plus(self, c: dict[str, Any], action: str) -> None:
        target = self._target(action)
        i, p = _AT[action]
        self._modify_at(i, p, 3, "inventor")
        opts = self._revealed_codes()
        opts.remove(action)
        self._ask({**_ctx(c), "kind": "inventor_minus", "plus": target}, opts)

    def _an_inventor_minus(self, c: dict[str, Any], action: str) -> None:
        i, p = _AT[action]
        self._modify_at(i, p, -3, "inventor")

    def _an_swamp_target(self, c: dict[str, Any], action: str) -> None:
        o = c["seat"]
        i = _AT[action][0]
        self._remove(i, o, "hand", "swamp_guardian")
        self._remove(i, 1 - o, "discard", "swamp_guardian")
        self._drop_empty(i)
        self._reevaluate()

    def _an_magistra_target(self, c: dict[str, Any], action: str) -> None:
        self._push({"k": "ability", "ab": self._target(action)[1], "src": c["at"],
                    "via": "magistra"})

    def _an_illusionist_target(self, c: dict[str, Any], action: str) -> None:
        target = self._target(action)
        self._push({"k": "ability", "ab": target[1], "src": target, "via": "illusionist"})

    def _an_prodigy_target(self, c: dict[str, Any], action: str) -> None:
        i, p = _AT[action]
        self._modify_at(i, p, 3, "prodigy")

    def _an_envoy_target(self, c: dict[str, Any], action: str) -> None:
        if action == "n":
            self._pend_mod(c["seat"], -3)
        else:
            i, p = _AT[action]
            self._modify_at(i, p, -3, "envoy")

    def _an_kinesis_from(self, c: dict[str, Any], action: str) -> None:
        opts = self._revealed_codes(c["seat"])
        opts.remove(action)
        self._ask({**_ctx(c), "kind": "kinesis_to", "from": self._target(action)}, opts)

    def _an_kinesis_to(self, c: dict[str, Any], action: str) -> None:
        self._kinesis(c["from"], self._target(action))

    def _an_elemental_card(self, c: dict[str, Any], action: str) -> None:
        o = c["seat"]
        v = _X_VALUE[action]
        self._discard_hand(o, [v], "elemental")
        self.elemental_draw[o] += 1
        self._push({"k": "ability", "ab": v, "src": c["at"] or [o, c["card"]],
                    "via": "elemental"})

    def _an_successor_keep(self, c: dict[str, Any], action: str) -> None:
        o = c["seat"]
        kept = [*c["_kept"], int(action[1:])]
        rest = [v for v in self.hands[o] if v not in kept]
        if len(kept) < 2 and len(rest) > 1:
            self._ask({**c, "count": 2 - len(kept), "_kept": kept}, [f"k{v}" for v in rest])
        else:  # (one kept and one left: both stay)
            self._discard_hand(o, rest if len(kept) == 2 else [], "successor")

    def _an_scrapyard_under(self, c: dict[str, Any], action: str) -> None:
        o = c["seat"]
        v = int(action[1:])
        self.hands[o].remove(v)
        self.decks[o].insert(0, v)
        if not self.quiet:
            self.log.append(private_event({"t": "under", "p": o, "card": v}, [o], ["card"]))

    def _named(self, c: dict[str, Any], colour: str) -> None:
        o, q = c["seat"], 1 - c["seat"]
        name = c["ability"]
        if not self.quiet:
            self.log.append({"t": "colour", "p": o, "colour": colour, "ability": name})
        if name == "palace_guard":
            opts = [_X[v] for v in self.hands[q] if _COLOUR[v] == colour] + ["pass"]
            self._ask({**_ctx(c), "kind": "palace_guard_discard", "seat": q, "colour": colour},
                      opts)
        elif name == "ambusher":
            self._discard_hand(q, [v for v in self.hands[q] if _COLOUR[v] == colour],
                               "ambusher")
        elif name == "blackmailer":
            self.blackmail[q] = [*self.blackmail[q], colour]  # (never changed in place)
            if not self.quiet:
                self.log.append({"t": "pending", "p": o, "effect": "blackmail", "value": colour})
        else:  # witch_king
            self._discard_hand(q, [v for v in self.hands[q] if _COLOUR[v] == colour],
                               "witch_king")
            deck = self.decks[q]
            gone = [v for v in deck if _COLOUR[v] == colour]
            self.decks[q] = [v for v in deck if _COLOUR[v] != colour]
            self.discards[q].extend(gone)
            if not self.quiet:
                self.log.append({"t": "discard", "p": q, "cards": gone, "from": "deck",
                                 "why": "witch_king"})
            self.rng.shuffle(self.decks[q])
            if not self.quiet:
                self.log.append({"t": "shuffle", "p": q})

    def _kinesis(self, frm: list[int], to: list[int]) -> None:
        """Kinesis Mage (Deck II): all modifiers and the ongoing token of row card ``frm``
        move to row card ``to``. Re-decided: the two encounters whose cards lost and got
        them and, when the token moved, the encounter left of each (Counselor)."""
        i, j = self._find(frm[0], frm[1]), self._find(to[0], to[1])
        a, b = self.row[i]["cards"][frm[0]], self.row[j]["cards"][to[0]]
        mod, token = a["mod"], a["on"]
        b["mod"] += mod  # C17: moved modifiers add to the destination's own
        a["mod"] = 0
        again = {i, j}
        if token:
            a["on"] = False
            b["on"] = True
            self._watch = None
            if i:
                again.add(i - 1)
            if j:
                again.add(j - 1)
        if not self.quiet:
            self.log.append({"t": "move", "p": frm[0], "from": [i + 1, frm[1]],
                             "to": [j + 1, to[1]], "mod": mod, "token": token})
        self._reevaluate(only=sorted(again))

    # -- Finish (§3.7) ------------------------------------------------------------------
    def _engineer(self, i: int) -> None:
        """(a) Pending Engineer +5 on the cards of encounter ``i`` that wait for it."""
        for p in SEATS:
            card = self.row[i]["cards"][p]
            if card is not None and card["eng"]:
                n, card["eng"] = card["eng"], 0
                self._modify_at(i, p, 5 * n, "engineer")

    def _djinn_check(self) -> None:
        """(b) Mechanical Djinn: its owner wins the round once the encounter right of it
        is theirs (both at once: no winner)."""
        winners = set()
        row = self.row
        for i in range(len(row) - 1):
            for p, c in enumerate(row[i]["cards"]):
                if c["on"] and c["v"] == _MECHANICAL_DJINN:
                    nxt = row[i + 1]
                    if nxt["evald"] and self._holder(nxt) == p:
                        winners.add(p)
        if winners:
            w = winners.pop() if len(winners) == 1 else None
            self._end_round(w, "mechanical_djinn")

    def _serpent(self) -> None:
        """(c) Serpent Temple: each earlier encounter newly won (counted by
        :meth:`_decide`) draws its winner 1 card and makes the opponent discard 1."""
        tasks = []
        for p in SEATS:
            for _ in range(self.serpent[p]):
                tasks.append({"k": "serpent_win", "p": p})
            self.serpent[p] = 0
        self._push(*tasks)

    def _t_serpent_win(self, task: dict[str, Any]) -> None:
        p = task["p"]
        if not self.quiet:
            self.log.append({"t": "location", "loc": "serpent_temple", "p": p})
        self._draw(p, 1, "serpent_temple")
        self._push({"k": "discard", "p": 1 - p, "n": 1, "why": "serpent_temple"})

    def _round_end_by_cards(self) -> None:
        """§6.3: a player with no card in hand or deck loses; both: more signets win."""
        out = [not self.hands[p] and not self.decks[p] for p in SEATS]
        if out[0] and out[1]:
            t = self._totals()
            self._end_round(0 if t[0] > t[1] else 1 if t[1] > t[0] else None, "no_cards")
        elif out[0] or out[1]:
            self._end_round(1 if out[0] else 0, "no_cards")

    def _t_under(self, task: dict[str, Any]) -> None:
        """Scrapyard, after the draws: seat ``p`` puts a hand card under its deck."""
        p = task["p"]
        if len(self.hands[p]) >= 2:  # never put your last card away: you must play one
            self._ask({"kind": "scrapyard_under", "seat": p, "ability": "scrapyard",
                       "card": None, "at": None}, [f"u{v}" for v in self.hands[p]])


#: Steps where :meth:`CardiaState._resolve` can start: a whole encounter, its evaluation
#: (after the after-reveal effects), its Finish (after the loser's ability), the round-end
#: checks (after Serpent Temple's wins).
_REVEAL, _EVALUATE, _FINISH, _END_CHECKS = range(4)
#: The task that resumes an encounter's procedure at each of them (shared, never changed).
_RESUME = tuple({"k": "resolve", "from": step} for step in range(4))
#: The engine's task handlers by name (looked up once, not per call).
_TASKS = {name[3:]: f for name, f in vars(CardiaState).items() if name.startswith("_t_")}
#: The answer of each choice kind.
_ANSWERS = {name[4:]: f for name, f in vars(CardiaState).items() if name.startswith("_an_")}
_ABILITY_RULES = {name[4:]: f for name, f in vars(CardiaState).items()
                  if name.startswith("_ab_")}
#: Per deck and card value: its instant ability's rule, or None for an ongoing ability.
_RULES = {deck: tuple(None if v in ONGOING[deck] or not v else _ABILITY_RULES[names[v]]
                      for v in range(17))
          for deck, names in ABILITIES.items()}
assert _TREASURER == _COUNSELOR and _JUDGE == _ARISTOCRAT and ONGOING == {
    "I": (_MEDIATOR, _JUDGE, _TREASURER), "II": (_ARISTOCRAT, _COUNSELOR, _MECHANICAL_DJINN)}
#: Deals (:meth:`CardiaState._deal`): (PRNG state, hand size) -> (decks, hands, PRNG
#: state after, the cards each seat drew in draw order).
_DEALS: dict[tuple[int, int], tuple[Any, ...]] = {}
#: Locations with a rule at the reveal (:meth:`CardiaState._reveal_rules`).
_REVEAL_RULES = frozenset({"auction_house", "haunted_catacombs"})
#: Locations with a Finish draw of their own (:meth:`CardiaState._resolve`, step (e)).
_DRAW_RULES = frozenset({"bazaar", "grand_library", "scrapyard"})
#: Row card codes by row index and seat ("3a": encounter 3, seat a).
_CODE = tuple((f"{n + 1}a", f"{n + 1}b") for n in range(32))
#: The codes of the first k encounters' cards, by k (:meth:`CardiaState._revealed_codes`).
_ROW_CODES = tuple(tuple(c for pair in _CODE[:k] for c in pair) for k in range(33))
#: Discard actions by card value ("x7").
_X = tuple(f"x{v}" for v in range(17))
#: Card values by discard action ("x7" -> 7).
_X_VALUE = {a: v for v, a in enumerate(_X)}
#: (row index, seat) by row card code ("3a" -> (2, 0)).
_AT = {code: (n, p) for n, codes in enumerate(_CODE) for p, code in enumerate(codes)}
assert set(_ANSWERS) == _AUTO | {"envoy_target", "librarian", "colour", "palace_guard_discard",
                                 "elemental_card", "discard", "successor_keep",
                                 "scrapyard_under"}


class _Determinizer:
    """Builds :meth:`CardiaGame.determinize`'s world (one use)."""

    def __init__(self, game: CardiaGame, seat: int, view: dict[str, Any],
                 events: list[dict[str, Any]], rng: Rng) -> None:
        self.game, self.seat, self.view, self.rng = game, seat, view, rng
        self.opp = 1 - seat
        first = max((i for i, e in enumerate(events) if e["t"] == "round"), default=0)
        self._scan(events[first:])

    # -- what the events tell ---------------------------------------------------------
    def _scan(self, events: list[dict[str, Any]]) -> None:
        """Follow this round's events: attachments of next-card effects, the encounter
        being resolved and how far it got, returned and put-under cards."""
        me, opp = self.seat, self.opp
        lib, eng = [0, 0], [0, 0]
        bm: list[list[str]] = [[], []]
        slots: list[dict[str, Any] | None] = [None, None]
        shadow: list[dict[str, Any]] = []  # per row encounter: its cards' attachments
        self.cur: dict[str, Any] | None = None  # the encounter last revealed
        self.cur_pos: int | None = None
        self.lib_done = self.bm_done = 0
        self.serpent = [0, 0]
        self.serpent_fired = 0
        self.own_under: list[int] = []
        self.returned: dict[int, int] = {}  # opponent's card back in hand -> event index
        self.witch: list[tuple[str, int]] = []  # (colour, event index) of my Witch Kings
        self.opp_down: list[int] = []  # event index of each face-down placement of opp
        for n, e in enumerate(events):
            t = e["t"]
            if t == "pending":
                if e["effect"] == "librarian":
                    lib[e["p"]] += 1
                elif e["effect"] == "engineer":
                    eng[e["p"]] += 1
                elif e["effect"] == "blackmail":
                    bm[1 - e["p"]].append(e["value"])
            elif t == "place":
                p = e["p"]
                slots[p] = {"lib": lib[p], "eng": eng[p], "bm": bm[p]}
                lib[p], eng[p], bm[p] = 0, 0, []
                if p == opp and not e.get("up"):
                    self.opp_down.append(n)
                if slots[0] is not None and slots[1] is not None:
                    shadow.append({"cards": slots})
                    slots = [None, None]
            elif t == "delete":
                i = e["e"] - 1
                shadow.pop(i)
                if self.cur_pos is not None:
                    if i < self.cur_pos:
                        self.cur_pos -= 1
                    elif i == self.cur_pos:
                        self.cur_pos = None
            elif t == "reveal":
                self.cur_pos = e["e"] - 1
                self.cur = shadow[self.cur_pos]
                self.lib_done = self.bm_done = self.serpent_fired = 0
                self.serpent = [0, 0]
            elif t == "modifier" and e["by"] == "librarian":
                self.lib_done += 1
            elif t == "blackmail":
                self.bm_done += 1
            elif t == "signets":
                for ch in e["changed"]:
                    if ch["e"] - 1 != self.cur_pos:
                        for p in SEATS:
                            if ch["after"][p] and not ch["before"][p]:
                                self.serpent[p] += 1
            elif t == "location" and e["loc"] == "serpent_temple":
                self.serpent_fired += 1
            elif t == "under":
                if e["p"] == me:
                    self.own_under.append(e["card"])
                else:
                    self.returned.clear()  # it may have been one of them
            elif t == "shuffle" and e["p"] == me:
                self.own_under = []
            elif t == "return" and e["p"] == opp:
                self.returned[e["card"]] = n
            elif t == "colour" and e["p"] == me and e["ability"] == "witch_king":
                self.witch.append((e["colour"], n))
        self.slots = slots

    # -- the world ----------------------------------------------------------------------
    def world(self) -> CardiaState:
        view, me, rng = self.view, self.seat, self.rng
        s = object.__new__(CardiaState)
        State.__init__(s, self.game, 0, 2, dict(view["options"]))
        s.quiet = True
        s._tot = s._watch = None
        s.rng = Rng(rng.next64())
        s.deck, s.location = view["deck"], view["location"]
        s.abilities, s.ongoing = list(ABILITIES[s.deck]), list(ONGOING[s.deck])
        s.round, s.wins, s.results = view["round"], list(view["wins"]), list(view["results"])
        outcome = view["outcome"]
        s.phase = "over" if outcome is not None else "place"
        s.winner = outcome["winners"][0] if outcome and outcome["winners"] else None
        pend = view["pending"]
        s.next_mod, s.fortune = list(pend["next_modifier"]), pend["fortune_teller"]
        s.librarian, s.engineer = list(pend["librarian"]), list(pend["engineer"])
        s.blackmail = [list(b) for b in pend["blackmail"]]
        s.elemental_draw = list(pend["elemental_draw"])
        s.discards = [list(d) for d in view["discards"]]
        waiting = {(w["n"], w["seat"]): w for w in pend["waiting"]}
        s.row = []
        for enc in view["row"]:
            cards = []
            for p, vc in enumerate(enc["cards"]):
                c = _new_card(vc["value"], vc["face_up"])
                c["mod"], c["on"], c["sig"] = vc["modifiers"], vc["ongoing"], vc["signets"]
                w = waiting.get((enc["n"], p))
                if w is not None:
                    c["lib"], c["eng"] = w["librarian"], w["engineer"]
                    c["bm"] = list(w["blackmail"])
                cards.append(c)
            s.row.append({"id": enc["n"], "cards": cards, "revealed": enc["revealed"],
                          "evald": enc["evaluated"], "win": None})
        s.next_id = len(s.row) + 1
        s.placed = [None, None]
        for p, slot in enumerate(view["placing"]):
            if slot["placed"]:
                c = _new_card(slot["value"], slot["face_up"])
                c["mod"] = slot["modifiers"]
                att = self.slots[p] or {"lib": 0, "eng": 0, "bm": []}
                c["lib"], c["eng"], c["bm"] = att["lib"], att["eng"], list(att["bm"])
                s.placed[p] = c
        s.hands = [[], []]
        s.hands[me] = list(view["hand"])
        s.decks = [[], []]
        s.decks[me] = self._own_deck(s)
        self._deal_opponent(s)
        s.serpent = [0, 0]
        s.ending = None
        s.cur = None
        s.tasks = []
        s.choice = None
        if view["choice"] is not None:
            self._resume(s)
        s._reevaluate()  # enc["win"] from the row as it is (the signets do not change)
        return s

    def _own_deck(self, s: CardiaState) -> list[int]:
        me = self.seat
        gone = set(s.hands[me]) | set(s.discards[me])
        gone.update(enc["cards"][me]["v"] for enc in s.row)
        mine = s.placed[me]
        if mine is not None:
            gone.add(mine["v"])
        rest = [v for v in range(1, 17) if v not in gone]
        bottom: list[int] = []
        for v in reversed(self.own_under):  # the last one put under is the bottom card
            if v in rest and v not in bottom:
                bottom.append(v)
        top = [v for v in rest if v not in bottom]
        self.rng.shuffle(top)
        return bottom + top

    def _deal_opponent(self, s: CardiaState) -> None:
        """The opponent's unseen cards to hand, deck and face-down cards (see the doc)."""
        opp, rng, view = self.opp, self.rng, self.view
        down = [enc["cards"][opp] for enc in s.row if enc["cards"][opp]["v"] is None]
        face_down = s.placed[opp]
        if face_down is not None and face_down["v"] is None:
            down.append(face_down)
        seen = set(s.discards[opp])
        seen.update(enc["cards"][opp]["v"] for enc in s.row)
        if face_down is not None:
            seen.add(face_down["v"])
        unseen = [v for v in range(1, 17) if v not in seen]
        n_hand, n_deck = view["hand_sizes"][opp], view["deck_sizes"][opp]
        if len(unseen) != n_hand + n_deck + len(down):
            raise ValueError("this view and these events do not fit together")
        # Positions: 0..n_hand-1 the hand, then one per face-down card (oldest first).
        since = self.opp_down[len(self.opp_down) - len(down):] if down else []
        choice = self.view["choice"]
        needs_instant = (choice is not None and choice["seat"] == opp
                         and choice["kind"] == "elemental_card")
        # Where the cards the seat knows something about may be (positions, as above).
        allowed: dict[int, list[int]] = {}
        for v, n in self.returned.items():  # in hand, or played face down since
            if v in unseen:
                allowed[v] = [*range(n_hand), *(n_hand + k for k, m in enumerate(since)
                                                if m > n)]
        for colour, n in self.witch:  # gone from hand and deck: only face down already
            for v in unseen:
                if colour_of(v) == colour and v not in self.returned:
                    before = [n_hand + k for k, m in enumerate(since) if m < n]
                    allowed[v] = [i for i in allowed.get(v, before) if i in before]
        for _ in range(1000):
            pool = list(unseen)
            rng.shuffle(pool)
            placed: dict[int, int] = {}  # position -> card
            for v in sorted(allowed, key=lambda v: len(allowed[v])):
                free = [i for i in allowed[v] if i not in placed]
                if not free:
                    break
                placed[free[rng.randbelow(len(free))]] = v
                pool.remove(v)
            else:
                for i in range(n_hand + len(down)):
                    if i not in placed:
                        placed[i] = pool.pop()
                hand = sorted(placed[i] for i in range(n_hand))
                if needs_instant and all(v in s.ongoing for v in hand):
                    continue
                for k, card in enumerate(down):
                    card["v"] = placed[n_hand + k]
                s.hands[opp] = hand
                s.decks[opp] = pool  # already in random order
                return
        raise ValueError("no deal of the unseen cards fits this view")  # pragma: no cover

    def _resume(self, s: CardiaState) -> None:
        """The choice being made and what is left of the encounter being resolved."""
        me, opp = self.seat, self.opp
        vc = self.view["choice"]
        c = {k: v for k, v in vc.items() if k != "kept"}
        for key in ("at", "target", "plus", "from"):
            if c.get(key) is not None:
                n, p = c[key]
                c[key] = [p, s.row[n - 1]["cards"][p]["v"]]
        kind, chooser = c["kind"], c["seat"]
        if kind == "successor_keep":
            if chooser == me:
                c["_kept"] = list(vc["kept"])
            else:
                hand = list(s.hands[opp])
                self.rng.shuffle(hand)
                c["_kept"] = sorted(hand[:2 - c["count"]])
        s.choice = c
        if chooser == me:
            c["_opts"] = list(self.view["options_now"])
        else:
            c["_opts"] = self._options(s, c)
        # Where the encounter being resolved has got to.
        if self.cur_pos is not None:
            s.cur = s.row[self.cur_pos]["id"]
        else:
            s.cur = s.next_id  # it left the row
            s.next_id += 1
        why = c.get("why")
        if kind == "librarian" or why == "blackmailer":
            after = "after_reveal"
            s.tasks = [_RESUME[_EVALUATE]]
        elif why == "serpent_temple":
            after = "serpent"
            s.tasks = [_RESUME[_END_CHECKS]]
        elif kind == "scrapyard_under":
            after = "scrapyard"  # the last step
            s.tasks = []
        else:
            after = "loser"
            s.tasks = [_RESUME[_FINISH]]
        extra: list[dict[str, Any]] = []  # in the order they will run
        if after == "after_reveal":
            cards = s.row[self.cur_pos]["cards"]  # type: ignore[index]  # set: a reveal is open
            att = self.cur["cards"]  # type: ignore[index]  # set: a reveal is open
            libs = [{"k": "librarian", "p": p, "v": cards[p]["v"]}
                    for p in SEATS for _ in range(att[p]["lib"])]
            bms = [{"k": "blackmail", "p": p, "colour": colour, "v": cards[p]["v"]}
                   for p in SEATS for colour in att[p]["bm"]]
            if kind == "librarian":
                extra = libs[self.lib_done + 1:] + bms
            else:
                extra = bms[self.bm_done:]
        elif after == "serpent":
            wins = [p for p in SEATS for _ in range(self.serpent[p])]
            extra = [{"k": "serpent_win", "p": p} for p in wins[self.serpent_fired:]]
        elif after == "scrapyard":
            if chooser == 0:
                extra = [{"k": "under", "p": 1}]
        else:
            s.serpent = list(self.serpent) if s.location == "serpent_temple" else [0, 0]
            if why == "revolutionary":
                extra = [{"k": "draw", "p": chooser, "n": 2, "why": "revolutionary"}]
        s.tasks.extend(reversed(extra))

    @staticmethod
    def _options(s: CardiaState, c: dict[str, Any]) -> list[str]:
        """The opponent's options in their choice, as the engine asked it (their hidden
        ones from the sampled hand)."""
        kind, o, at = c["kind"], c["seat"], c["at"]
        hand = s.hands[o]
        code = s._code

        def in_row(t: list[int]) -> dict[str, Any]:
            """A revealed card the options name: in the row (so never None)."""
            card = s._card(t)
            assert card is not None
            return card

        if kind == "colour":
            return list(COLOURS)
        if kind == "librarian":
            return ["+", "-"]
        if kind == "palace_guard_discard":
            return [f"x{v}" for v in hand if colour_of(v) == c["colour"]] + ["pass"]
        if kind in ("elemental_card", "discard", "scrapyard_under"):
            prefix = "u" if kind == "scrapyard_under" else "x"
            return [f"{prefix}{v}" for v in hand
                    if kind != "elemental_card" or v not in s.ongoing]
        if kind == "successor_keep":
            return [f"k{v}" for v in hand if v not in c["_kept"]]
        if kind == "void_kind":
            card = in_row(c["target"])
            return (["m"] if card["mod"] else []) + (["o"] if card["on"] else [])
        everyone, own = s._revealed_cards(), s._own_revealed(o)
        if kind == "void_target":
            return [code(t) for t in everyone if (x := in_row(t))["mod"] or x["on"]]
        if kind == "inventor_plus":
            return [code(t) for t in everyone]
        if kind == "inventor_minus":
            return [code(t) for t in everyone if t != c["plus"]]
        if kind == "envoy_target":
            return [code(t) for t in everyone] + ["n"]
        if kind == "swamp_target":
            return [code(t) for t in own if t != at]
        if kind == "magistra_target":
            floor = s._infl(in_row(at))
            return [code(t) for t in own if t != at and t[1] not in s.ongoing
                    and s._infl(in_row(t)) >= floor]
        if kind == "prodigy_target":
            return [code(t) for t in own if s._infl(in_row(t)) <= 8]
        if kind == "illusionist_target":
            return [code([o, enc["cards"][o]["v"]]) for enc in s.row
                    if enc["evald"] and enc["cards"][1 - o]["sig"] and not enc["cards"][o]["sig"]
                    and [o, enc["cards"][o]["v"]] != at]
        if kind == "kinesis_from":
            return [code(t) for t in own if (x := in_row(t))["mod"] or x["on"]]
        if kind == "kinesis_to":
            return [code(t) for t in own if t != c["from"]]
        raise ValueError(f"unknown choice {kind!r}")  # pragma: no cover


# -- positions by hand (CardiaGame.from_position) -----------------------------------------
#: Per choice kind, the abilities (or locations) that ask it.
_CHOICE_ABILITIES: dict[str, tuple[str, ...]] = {
    "librarian": ("librarian",),
    "colour": ("palace_guard", "ambusher", "blackmailer", "witch_king"),
    "palace_guard_discard": ("palace_guard",),
    "void_target": ("void_mage",), "void_kind": ("void_mage",),
    "inventor_plus": ("inventor",), "inventor_minus": ("inventor",),
    "swamp_target": ("swamp_guardian",), "magistra_target": ("magistra",),
    "prodigy_target": ("prodigy",), "illusionist_target": ("illusionist",),
    "envoy_target": ("envoy",),
    "kinesis_from": ("kinesis_mage",), "kinesis_to": ("kinesis_mage",),
    "elemental_card": ("elemental",), "successor_keep": ("successor",),
    "discard": ("revolutionary", "blackmailer", "serpent_temple"),
    "scrapyard_under": ("scrapyard",),
}
#: The fields a choice of each kind has besides kind, seat, ability, card and at: a row
#: card ([n, seat] in a view), or plain data.
_CHOICE_REFS = {"librarian": "target", "void_kind": "target", "inventor_minus": "plus",
                "kinesis_to": "from"}
_CHOICE_DATA = {"palace_guard_discard": ("colour",), "discard": ("count", "why"),
                "successor_keep": ("count",)}
#: Where in an encounter's procedure (CardiaState._resolve) a choice is open: at its
#: reveal (after-reveal effects), in the loser's ability, Serpent Temple's wins, Scrapyard.
_AT_REVEAL, _LOSER, _SERPENT, _SCRAPYARD = range(4)
_SEAT_NAME = ("seat a", "seat b")


def _whole(x: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``x`` if it is a whole number within ``low``..``high``, else a ValueError."""
    if (not isinstance(x, int) or isinstance(x, bool) or (low is not None and x < low)
            or (high is not None and x > high)):
        span = ("" if low is None else f" from {low}" if high is None
                else f" from {low} to {high}")
        raise ValueError(f"{what} must be a whole number{span}, not {x!r}")
    return x


def _two(x: Any, what: str) -> list[Any]:
    if not isinstance(x, list | tuple) or len(x) != 2:
        raise ValueError(f"{what} must be two entries [seat a's, seat b's], not {x!r}")
    return list(x)


def _seat_of(x: Any, what: str) -> int:
    if x not in SEATS or isinstance(x, bool):
        raise ValueError(f"{what} must be a seat, 0 (a) or 1 (b), not {x!r}")
    return int(x)


def _card_value(x: Any, what: str) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or not 1 <= x <= 16:
        raise ValueError(f"{what}: {x!r} is not a Cardia card (a value from 1 to 16)")
    return x


def _card_values(x: Any, what: str) -> list[int]:
    if not isinstance(x, list | tuple):
        raise ValueError(f"{what} must be a list of card values, not {x!r}")
    return [_card_value(v, what) for v in x]


def _colour_list(x: Any, what: str) -> list[str]:
    if not isinstance(x, list | tuple) or not all(
            isinstance(c, str) and len(c) == 1 and c in COLOURS for c in x):
        raise ValueError(f"{what} must be a list of colours (G, Y, R, B), not {x!r}")
    return list(x)


def _plain(x: Any) -> Any:
    """JSON-like data with tuples as lists (what a view holds), for comparing."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, list | tuple):
        return [_plain(v) for v in x]
    return x


class _Position:
    """Builds :meth:`CardiaGame.from_position`'s state (one use)."""

    def __init__(self, game: CardiaGame, position: Any, options: Any) -> None:
        if not isinstance(position, dict):
            raise ValueError("a position must be an object (dict)")
        if options is not None and not isinstance(options, dict):
            raise ValueError("options must be an object (dict)")
        self.game, self.pos, self.given_options = game, position, options

    def state(self) -> CardiaState:
        pos = self.pos
        if pos.get("game", "cardia") != "cardia":
            raise ValueError(f"this position is for game {pos['game']!r}, not 'cardia'")
        opts = self._options()
        seed = _whole(pos.get("seed", 0), "seed")
        s = self.s = object.__new__(CardiaState)
        State.__init__(s, self.game, seed, 2, opts)
        s.rng = Rng(seed)
        s.deck = opts["deck"]
        location = pos.get("location")
        if location is None:
            location = opts["location"]
            if location == "random":  # drawn as a new game draws it
                location = LOCATIONS[s.rng.randbelow(len(LOCATIONS))]
        s.location = location
        s.abilities, s.ongoing = list(ABILITIES[s.deck]), list(ONGOING[s.deck])
        s._tot = s._watch = None
        s.serpent = [0, 0]
        s.ending = None
        s.tasks = []
        s.choice = None
        s.cur = None
        s.hands, s.decks = [[], []], [[], []]
        self._rounds()
        self._pending()
        self._cards()
        self._waiting()
        self._choice()
        self._procedure()
        self._evaluate()
        self._deal_and_ask()
        self._schedule()
        self._layout()
        self._derived()
        return self._settle()

    # -- options, rounds --------------------------------------------------------------
    def _options(self) -> dict[str, Any]:
        pos, given, game = self.pos, self.given_options, self.game
        own = pos.get("options")
        if own is not None and not isinstance(own, dict):
            raise ValueError("the position's options must be an object (dict)")
        if given is not None and own is not None and (
                game.resolve_options(own) != game.resolve_options(given)):
            raise ValueError(f"the position's options {own!r} are not the options given, "
                             f"{given!r}")
        raw = dict(given if given is not None else own or {})
        deck = pos.get("deck")
        if deck is not None:
            if "deck" in raw and raw["deck"] != deck:
                raise ValueError(f"the position's deck {deck!r} is not the options' "
                                 f"{raw['deck']!r}")
            raw["deck"] = deck
        loc = pos.get("location")
        if loc is not None:
            if loc not in ("none", *LOCATIONS):
                raise ValueError(f"location {loc!r} is not one of none, {', '.join(LOCATIONS)}")
            chosen = raw.get("location")
            if chosen == "random":
                if loc == "none":
                    raise ValueError("the options draw a random location: the position's "
                                     "location cannot be 'none'")
            elif chosen is not None and chosen != loc:
                raise ValueError(f"the position's location {loc!r} is not the options' "
                                 f"{chosen!r}")
            else:
                raw["location"] = loc
        return game.resolve_options(raw)

    def _rounds(self) -> None:
        pos, s = self.pos, self.s
        results: Any = pos.get("results")
        wins = pos.get("wins")
        if results is not None:
            if not isinstance(results, list | tuple) or any(
                    r not in (None, 0, 1) or isinstance(r, bool) for r in results):
                raise ValueError("results must list each finished round's winner: 0, 1 or "
                                 f"None (no winner), not {results!r}")
            results = list(results)
            counted = [results.count(0), results.count(1)]
            if wins is not None and _two(wins, "wins") != counted:
                raise ValueError(f"wins {wins!r} are not the rounds won in results "
                                 f"{results!r} ({counted})")
            wins = counted
        else:
            wins = ([_whole(w, "wins", 0, ROUNDS_TO_WIN) for w in _two(wins, "wins")]
                    if wins is not None else [0, 0])
            results = [0] * wins[0] + [1] * wins[1]
        over = max(wins) >= ROUNDS_TO_WIN
        if over:
            winner = 0 if wins[0] >= ROUNDS_TO_WIN else 1
            if max(wins) > ROUNDS_TO_WIN or min(wins) >= ROUNDS_TO_WIN or (
                    results[-1] != winner):
                raise ValueError(f"wins {wins}, results {results}: the match ends with the "
                                 f"round that gives a seat its {ROUNDS_TO_WIN}nd win")
        rnd = pos.get("round")
        expected = len(results) + (0 if over else 1)
        if rnd is None:
            rnd = expected
        elif _whole(rnd, "round", 1) != expected:
            raise ValueError(f"round {rnd} does not follow from the {len(results)} finished "
                             f"round(s) in results ({'the match is over: ' if over else ''}"
                             f"round {expected})")
        s.round, s.wins, s.results = rnd, wins, results
        s.phase = "over" if over else "place"
        s.winner = (0 if wins[0] >= ROUNDS_TO_WIN else 1) if over else None
        self.over = over

    # -- what is pending ----------------------------------------------------------------
    def _pending(self) -> None:
        s = self.s
        pend = self.pos.get("pending") or {}
        if not isinstance(pend, dict):
            raise ValueError("pending must be an object (dict), as in a view")
        self.pend = pend

        def counts(key: str) -> list[int]:
            return [_whole(n, f"pending {key}", 0) for n in _two(pend.get(key, [0, 0]),
                                                                  f"pending {key}")]
        s.next_mod = [_whole(n, "pending next_modifier") for n in
                      _two(pend.get("next_modifier", [0, 0]), "pending next_modifier")]
        fortune = pend.get("fortune_teller")
        s.fortune = None if fortune is None else _seat_of(fortune, "pending fortune_teller")
        s.librarian, s.engineer = counts("librarian"), counts("engineer")
        s.elemental_draw = counts("elemental_draw")
        s.blackmail = [_colour_list(b, "pending blackmail")
                       for b in _two(pend.get("blackmail", [[], []]), "pending blackmail")]
        if s.deck == "I":
            for key, name in (("librarian", "Librarian"), ("engineer", "Engineer"),
                              ("blackmail", "Blackmailer"), ("elemental_draw", "Elemental")):
                if any(getattr(s, key)):
                    raise ValueError(f"pending {key}: the {name} is a Deck II card, and this "
                                     "is Deck I")
        else:
            if s.fortune is not None:
                raise ValueError("pending fortune_teller: the Fortune Teller is a Deck I card, "
                                 "and this is Deck II")
            if any(m > 0 or m % 3 for m in s.next_mod):
                raise ValueError(f"pending next_modifier {s.next_mod}: in Deck II only the "
                                 "Envoy makes one, -3 each")

    # -- the cards ----------------------------------------------------------------------
    def _cards(self) -> None:
        pos, s = self.pos, self.s
        row = pos.get("row", [])
        if not isinstance(row, list | tuple):
            raise ValueError("row must be a list of encounters")
        if len(row) > 16:
            raise ValueError(f"the row holds {len(row)} encounters: each seat has only 16 "
                             "cards")
        foggy = s.location == "foggy_swamp"
        self.down: list[list[dict[str, Any]]] = [[], []]  # cards whose value is dealt
        self.given: list[tuple[list[Any], Any, Any]] = []  # (signets, winner, evaluated)
        s.row = []
        for i, entry in enumerate(row):
            where = f"encounter {i + 1}"
            extra: dict[str, Any] = {}
            if isinstance(entry, dict):
                extra, cards = entry, entry.get("cards")
                if extra.get("n", i + 1) != i + 1:
                    raise ValueError(f"{where} is numbered {extra['n']!r}: encounters are "
                                     "numbered 1, 2… left to right")
            else:
                cards = entry
            cards = _two(cards, f"{where}'s cards")
            revealed = extra.get("revealed")
            if revealed is None:
                revealed = not (foggy and i == len(row) - 1)
            elif not isinstance(revealed, bool):
                raise ValueError(f"{where}: revealed must be true or false")
            made, sigs = [], []
            for p, c in enumerate(cards):
                card, sig = self._row_card(c, f"{where}, {_SEAT_NAME[p]}'s card", revealed, p)
                made.append(card)
                sigs.append(sig)
            if not revealed and made[0]["up"] and made[1]["up"]:
                raise ValueError(f"{where} is not revealed yet: only a Fortune Teller's victim "
                                 "places face up, so one of its cards at most is face up")
            evaluated = extra.get("evaluated")
            if evaluated is not None and not isinstance(evaluated, bool):
                raise ValueError(f"{where}: evaluated must be true or false")
            s.row.append({"id": i + 1, "cards": made, "revealed": revealed, "evald": False,
                          "win": None})
            self.given.append((sigs, extra.get("winner", "?"), evaluated))
        s.next_id = len(s.row) + 1
        # the encounter being placed
        s.placed = [None, None]
        self.attached = [False, False]
        for p, slot in enumerate(_two(pos.get("placing", [None, None]), "placing")):
            what = f"{_SEAT_NAME[p]}'s placed card"
            if slot is None or slot is False:
                continue
            info: dict[str, Any] = slot if isinstance(slot, dict) else {"value": slot}
            if not info.get("placed", True):
                if info.get("value") is not None:
                    raise ValueError(f"{what}: a slot not placed has no value")
                continue
            value = info.get("value")
            if value is not None:
                _card_value(value, what)
            up = info.get("face_up")
            if up is None:
                up = s.fortune == p and value is not None
            if not isinstance(up, bool):
                raise ValueError(f"{what}: face_up must be true or false")
            if up and value is None:
                raise ValueError(f"{what} is face up: give its value")
            card = _new_card(value or 0, up)
            card["mod"] = _whole(info.get("modifiers", 0), f"{what}'s modifiers")
            card["lib"] = _whole(info.get("librarian", 0), f"{what}'s librarian", 0)
            card["eng"] = _whole(info.get("engineer", 0), f"{what}'s engineer", 0)
            card["bm"] = _colour_list(info.get("blackmail", []), f"{what}'s blackmail")
            self.attached[p] = bool(card["lib"] or card["eng"] or card["bm"])
            if value is None:
                self.down[p].append(card)
            s.placed[p] = card
        # hands, decks, discards
        you, hand = pos.get("you"), pos.get("hand")
        hands: list[list[int] | None] = [None, None]
        if pos.get("hands") is not None:
            for p, h in enumerate(_two(pos["hands"], "hands")):
                if h is not None:
                    hands[p] = _card_values(h, f"{_SEAT_NAME[p]}'s hand")
        if you is not None:
            you = _seat_of(you, "you")
            if hand is not None:
                mine = _card_values(hand, "hand")
                if hands[you] is not None and sorted(hands[you] or []) != sorted(mine):
                    raise ValueError(f"hand {hand!r} (seat you={you}'s) is not hands[{you}] "
                                     f"{hands[you]!r}")
                hands[you] = mine
        elif hand:
            raise ValueError("hand is one seat's own hand: give you (0 or 1) with it, or "
                             "give both hands as hands")
        sizes = pos.get("hand_sizes")
        hand_sizes = None if sizes is None else [
            _whole(n, "hand_sizes", 0, 16) for n in _two(sizes, "hand_sizes")]
        sizes = pos.get("deck_sizes")
        deck_sizes = None if sizes is None else [
            _whole(n, "deck_sizes", 0, 16) for n in _two(sizes, "deck_sizes")]
        decks: list[list[int] | None] = [None, None]
        if pos.get("decks") is not None:
            for p, d in enumerate(_two(pos["decks"], "decks")):
                if d is not None:
                    decks[p] = _card_values(d, f"{_SEAT_NAME[p]}'s deck")
        s.discards = [_card_values(d, f"{_SEAT_NAME[p]}'s discards")
                      for p, d in enumerate(_two(pos.get("discards", [[], []]), "discards"))]
        self.hands, self.decks = hands, decks
        self.pool: list[list[int]] = [[], []]
        self.n_hand = [0, 0]
        for p in SEATS:
            name = _SEAT_NAME[p]
            if hands[p] is None and hand_sizes is None:
                raise ValueError(f"{name}'s hand is not given: give hands (or hand_sizes, to "
                                 "deal it at random)")
            if hands[p] is not None and hand_sizes is not None and (
                    len(hands[p] or []) != hand_sizes[p]):
                raise ValueError(f"{name}'s hand holds {len(hands[p] or [])} cards, not "
                                 f"hand_sizes {hand_sizes[p]}")
            if decks[p] is not None and deck_sizes is not None and (
                    len(decks[p] or []) != deck_sizes[p]):
                raise ValueError(f"{name}'s deck holds {len(decks[p] or [])} cards, not "
                                 f"deck_sizes {deck_sizes[p]}")
            places = [(v, "the discards") for v in s.discards[p]]
            places += [(enc["cards"][p]["v"], f"encounter {i + 1}")
                       for i, enc in enumerate(s.row) if enc["cards"][p]["v"]]
            slot = s.placed[p]
            if slot is not None and slot["v"]:
                places.append((slot["v"], "the placed card"))
            places += [(v, "the hand") for v in hands[p] or []]
            places += [(v, "the deck") for v in decks[p] or []]
            seen: dict[int, str] = {}
            for v, where in places:
                if v in seen:
                    raise ValueError(f"{name}'s card {v} ({CARD_TITLES[s.deck][v]}) is "
                                     f"in two places: {seen[v]} and {where}")
                seen[v] = where
            pool = [v for v in range(1, 17) if v not in seen]
            n_hand = hand_sizes[p] if hands[p] is None and hand_sizes is not None else 0
            hidden = n_hand + len(self.down[p])
            short = (f"{name}'s cards do not add up to 16: {len(seen)} given and {hidden} "
                     f"hidden (hand, face-down cards) make {len(seen) + hidden}")
            if decks[p] is not None:
                if len(pool) != hidden:
                    raise ValueError(short)
            else:
                n_deck = len(pool) - hidden
                if n_deck < 0:
                    raise ValueError(short)
                if deck_sizes is not None and n_deck != deck_sizes[p]:
                    raise ValueError(
                        f"{name}'s deck holds the {n_deck} card(s) found nowhere else, not "
                        f"deck_sizes {deck_sizes[p]}")
            self.pool[p], self.n_hand[p] = pool, n_hand

    def _row_card(self, c: Any, what: str, revealed: bool,
                  p: int) -> tuple[dict[str, Any], Any]:
        if isinstance(c, dict):
            value, mod, on = c.get("value"), c.get("modifiers", 0), c.get("ongoing", False)
            sig, up, infl = c.get("signets"), c.get("face_up"), c.get("influence")
        else:
            value, mod, on, sig, up, infl = c, 0, False, None, None, None
        if value is not None:
            _card_value(value, what)
        elif revealed:
            raise ValueError(f"{what} is in a revealed encounter: give its value")
        _whole(mod, f"{what}'s modifiers")
        if not isinstance(on, bool):
            raise ValueError(f"{what}: ongoing must be true or false")
        if sig is not None:
            _whole(sig, f"{what}'s signets", 0)
        if up is None:
            up = revealed
        if not isinstance(up, bool):
            raise ValueError(f"{what}: face_up must be true or false")
        if revealed and not up:
            raise ValueError(f"{what} is face down in a revealed encounter")
        if up and value is None:
            raise ValueError(f"{what} is face up: give its value")
        if on and not revealed:
            raise ValueError(f"{what} carries an ongoing token but is not revealed yet")
        if infl is not None and value is not None and infl != value + mod:
            raise ValueError(f"{what}: influence {infl!r} is not its value {value} plus its "
                             f"modifiers {mod}")
        card = _new_card(value or 0, up)
        card["mod"], card["on"] = mod, on
        if value is None:
            self.down[p].append(card)
        return card, sig

    def _waiting(self) -> None:
        """pending["waiting"]: "next card" effects already on a row card."""
        s = self.s
        waiting = self.pend.get("waiting", [])
        if not isinstance(waiting, list | tuple):
            raise ValueError("pending waiting must be a list of {n, seat, librarian, engineer, "
                             "blackmail}")
        self.waits: list[tuple[int, int]] = []
        seen = set()
        for w in waiting:
            if not isinstance(w, dict):
                raise ValueError(f"pending waiting entry {w!r} is not {{n, seat, librarian, "
                                 "engineer, blackmail}")
            n = _whole(w.get("n"), "pending waiting n", 1, max(len(s.row), 1))
            if n > len(s.row):
                raise ValueError(f"pending waiting: there is no encounter {n}")
            p = _seat_of(w.get("seat"), "pending waiting seat")
            if (n - 1, p) in seen:
                raise ValueError(f"pending waiting lists encounter {n}, {_SEAT_NAME[p]}, "
                                 "twice")
            seen.add((n - 1, p))
            card = s.row[n - 1]["cards"][p]
            card["lib"] = _whole(w.get("librarian", 0), "pending waiting librarian", 0)
            card["eng"] = _whole(w.get("engineer", 0), "pending waiting engineer", 0)
            card["bm"] = _colour_list(w.get("blackmail", []), "pending waiting blackmail")
            if s.deck == "I" and (card["lib"] or card["eng"] or card["bm"]):
                raise ValueError("pending waiting: Librarian, Engineer and Blackmailer are "
                                 "Deck II cards, and this is Deck I")
            if card["lib"] or card["eng"] or card["bm"]:
                self.waits.append((n - 1, p))

    # -- the choice being made, the rest of the encounter ---------------------------------
    def _ref(self, ref: Any, what: str, owner: int | None = None) -> list[int]:
        """[seat, value] of the revealed row card a choice names as ``[n, seat]``."""
        s = self.s
        if not isinstance(ref, list | tuple) or len(ref) != 2:
            raise ValueError(f"{what} must be a row card [n, seat], not {ref!r}")
        n = _whole(ref[0], f"{what}'s encounter", 1)
        p = _seat_of(ref[1], f"{what}'s seat")
        if n > len(s.row) or not s.row[n - 1]["revealed"]:
            raise ValueError(f"{what} {list(ref)}: there is no revealed encounter {n} (an "
                             "ability only acts on revealed cards)")
        if owner is not None and p != owner:
            raise ValueError(f"{what} {list(ref)} must be a card of {_SEAT_NAME[owner]}")
        return [p, s.row[n - 1]["cards"][p]["v"]]

    def _choice(self) -> None:
        s = self.s
        vc = self.pos.get("choice")
        self.stage: int | None = None
        self.c: dict[str, Any] | None = None
        if vc is None:
            return
        if self.over:
            raise ValueError("the match is over: no choice can be open")
        if not isinstance(vc, dict):
            raise ValueError("choice must be None or an object, as in a view")
        kind = vc.get("kind")
        if not isinstance(kind, str) or kind not in _CHOICE_ABILITIES:
            raise ValueError(f"unknown choice kind {kind!r} (known: "
                             f"{', '.join(sorted(_CHOICE_ABILITIES))})")
        fields = {"kind", "seat", "ability", "card", "at", "kept", _CHOICE_REFS.get(kind),
                  *_CHOICE_DATA.get(kind, ())}
        unknown = sorted(k for k in vc if k not in fields)
        if unknown:
            raise ValueError(f"the {kind} choice has no field(s) {', '.join(map(str, unknown))}")
        seat = _seat_of(vc.get("seat"), "choice seat")
        ability = vc.get("ability")
        if kind == "discard":
            why = vc.get("why", ability)
            if ability is not None and why != ability:
                raise ValueError(f"a discard choice's ability {ability!r} and why {why!r} "
                                 "must be the same")
            ability = why
        allowed = _CHOICE_ABILITIES[kind]
        if ability is None and len(allowed) == 1:
            ability = allowed[0]
        if ability not in allowed:
            raise ValueError(f"the {kind} choice comes from {' or '.join(allowed)}, not "
                             f"{ability!r}")
        if ability in LOCATIONS:
            if s.location != ability:
                raise ValueError(f"the {ability} choice needs that location, and this one is "
                                 f"{s.location!r}")
            card = None
        elif ability not in s.abilities:
            raise ValueError(f"the {kind} choice comes from {ability}, which is not in Deck "
                             f"{s.deck}")
        else:
            card = None if kind == "discard" else s.abilities.index(ability)
        if vc.get("card", card) != card:
            raise ValueError(f"the card of a choice {ability} asks is {card!r}, not "
                             f"{vc['card']!r}")
        c: dict[str, Any] = {"kind": kind, "seat": seat, "ability": ability, "card": card,
                             "at": None}
        owner = 1 - seat if kind in ("palace_guard_discard", "successor_keep") else seat
        at = vc.get("at")
        if at is not None:
            if kind in ("librarian", "discard", "scrapyard_under"):
                raise ValueError(f"the {kind} choice acts as no row card: its at is None")
            c["at"] = self._ref(at, "choice at", owner)
            if c["at"][1] not in (card, 14):
                raise ValueError(f"choice at {list(at)} is the card the ability acts as: the "
                                 f"{CARD_TITLES[s.deck][card or 0]} itself, or a "
                                 f"{CARD_TITLES[s.deck][14]} copying it")
        elif kind == "magistra_target":
            raise ValueError("a magistra_target choice needs at: the Magistra's card [n, seat]")
        ref = _CHOICE_REFS.get(kind)
        if ref is not None:
            if vc.get(ref) is None:
                raise ValueError(f"the {kind} choice needs {ref}: a row card [n, seat]")
            c[ref] = self._ref(vc[ref], f"choice {ref}",
                               seat if kind in ("librarian", "kinesis_to") else None)
        if kind == "palace_guard_discard":
            colour = vc.get("colour")
            if colour not in tuple(COLOURS):
                raise ValueError(f"a palace_guard_discard choice needs the colour named (G, Y, "
                                 f"R or B), not {colour!r}")
            c["colour"] = colour
        elif kind == "discard":
            c["count"] = _whole(vc.get("count"), "a discard choice's count", 1)
            c["why"] = ability
        elif kind == "successor_keep":
            c["count"] = _whole(vc.get("count"), "a successor_keep choice's count", 1, 2)
        if kind == "librarian" or (kind == "discard" and ability == "blackmailer"):
            self.stage = _AT_REVEAL
        elif kind == "discard" and ability == "serpent_temple":
            self.stage = _SERPENT
        elif kind == "scrapyard_under":
            self.stage = _SCRAPYARD
        else:
            self.stage = _LOSER
        self.c = c

    def _procedure(self) -> None:
        s, stage = self.s, self.stage
        proc = self.pos.get("procedure")
        if proc is None:
            proc = {}
        if not isinstance(proc, dict):
            raise ValueError("procedure must be an object: {encounter, librarian, blackmail, "
                             "serpent}")
        if proc and stage is None:
            raise ValueError("procedure is what is left of the encounter being resolved: "
                             "only with an open choice")
        unknown = sorted(set(proc) - {"encounter", "librarian", "blackmail", "serpent"})
        if unknown:
            raise ValueError(f"procedure has no field(s) {', '.join(map(str, unknown))}")
        revealed = [i for i, enc in enumerate(s.row) if enc["revealed"]]
        last = revealed[-1] if revealed else None
        n = proc.get("encounter", None if last is None else last + 1)
        if n is not None:
            n = _whole(n, "procedure encounter", 1)
            if last is None or n != last + 1:
                raise ValueError(f"procedure encounter {n}: the encounter being resolved is "
                                 "the newest revealed one (or None: it left the row)")
        self.cur_i = None if n is None else n - 1
        lib = [_whole(k, "procedure librarian", 0)
               for k in _two(proc.get("librarian", [0, 0]), "procedure librarian")]
        bm = [_colour_list(b, "procedure blackmail")
              for b in _two(proc.get("blackmail", [[], []]), "procedure blackmail")]
        serpent = [_whole(k, "procedure serpent", 0)
                   for k in _two(proc.get("serpent", [0, 0]), "procedure serpent")]
        c = self.c
        if stage == _AT_REVEAL:
            assert c is not None
            if self.cur_i is None:
                raise ValueError("a Librarian or Blackmailer choice at a reveal needs that "
                                 "encounter in the row (procedure encounter)")
            cards = s.row[self.cur_i]["cards"]
            if c["kind"] == "librarian":
                if c["target"] != [c["seat"], cards[c["seat"]]["v"]]:
                    raise ValueError("a librarian choice's target is the chooser's card in the "
                                     "encounter being revealed "
                                     f"([{self.cur_i + 1}, {c['seat']}])")
                if c["seat"] == 1 and lib[0]:
                    raise ValueError("procedure librarian: seat a's Librarian steps come "
                                     "before seat b's, which is being chosen")
            else:
                if any(lib):
                    raise ValueError("procedure librarian: Librarian steps come before "
                                     "Blackmailer ones, which are being resolved")
                if c["seat"] == 1 and bm[0]:
                    raise ValueError("procedure blackmail: seat a's card is checked before "
                                     "seat b's, which is being resolved")
        elif any(lib) or bm[0] or bm[1]:
            raise ValueError("procedure librarian / blackmail: only while a reveal's effects "
                             "are being resolved (a Librarian or Blackmailer choice)")
        if any(serpent):
            if s.location != "serpent_temple" or stage not in (_LOSER, _SERPENT):
                raise ValueError("procedure serpent: Serpent Temple wins wait only under that "
                                 "location, until they are processed at the Finish")
            if stage == _SERPENT and c is not None and c["seat"] == 0 and serpent[0]:
                raise ValueError("procedure serpent: seat a's wins are processed before seat "
                                 "b's, which is being processed")
        if n is None and stage is not None and stage != _AT_REVEAL:
            s.cur = s.next_id  # it left the row
            s.next_id += 1
        elif stage is not None and self.cur_i is not None:
            s.cur = s.row[self.cur_i]["id"]
        self.lib, self.bm, self.serpent = lib, bm, serpent

    def _deal_and_ask(self) -> None:
        """The hidden cards dealt (hands, face-down cards, decks not given), and the open
        choice's options from the hands, as the engine would have asked it."""
        s, c = self.s, self.c
        for _attempt in range(200):
            for p in SEATS:
                pool = list(self.pool[p])
                s.rng.shuffle(pool)
                known = self.hands[p]
                if known is None:
                    hand = sorted(pool[:self.n_hand[p]])
                    pool = pool[self.n_hand[p]:]
                else:
                    hand = sorted(known)
                for card in self.down[p]:
                    card["v"] = pool.pop()
                s.hands[p] = hand
                given = self.decks[p]
                s.decks[p] = pool if given is None else list(given)
            if c is None:
                return
            if self._ask(c):
                return
        assert c is not None
        raise ValueError(f"no deal of the hidden cards gives {_SEAT_NAME[c['seat']]} an "
                         f"option in this {c['kind']} choice")

    def _ask(self, c: dict[str, Any]) -> bool:
        """Put the choice on the state with its options; False if the hidden cards dealt
        give it none (then they are dealt again), ValueError if it is not a choice the
        engine asks."""
        s = self.s
        kind, seat = c["kind"], c["seat"]
        hand = s.hands[seat]
        dealt = self.hands[seat] is None
        if kind == "successor_keep":
            need = 2 - c["count"]
            kept = self.pos["choice"].get("kept")
            if kept is None:  # (only the keeper's view has it): drawn from that hand
                rest = list(hand)
                s.rng.shuffle(rest)
                kept = sorted(rest[:need])
            kept = _card_values(kept, "the successor_keep choice's kept")
            if len(kept) != need or len(set(kept)) != need or not set(kept) <= set(hand):
                raise ValueError(f"a successor_keep choice with count {c['count']} has kept "
                                 f"{need} card(s) of the keeper's hand, not {kept!r}")
            c["_kept"] = kept
            if len(hand) < 3:
                raise ValueError("Successor's victim is asked only with more than 2 cards to "
                                 "choose from")
        limits = {"discard": (c.get("count", 0) + 1, "more cards than it discards"),
                  "scrapyard_under": (2, "at least 2 cards (the last is never put away)")}
        if kind in limits and len(hand) < limits[kind][0]:
            raise ValueError(f"the {kind} choice is asked only of a hand holding "
                             f"{limits[kind][1]}; {_SEAT_NAME[seat]} holds {len(hand)}")
        if kind == "kinesis_from" and sum(e["revealed"] for e in s.row) < 2:
            raise ValueError("the Kinesis Mage needs 2 of its owner's played cards")
        opts = _Determinizer._options(s, c)
        if not opts:
            if dealt:
                return False
            raise ValueError(f"this {kind} choice has no option: the ability would have had "
                             "no effect, and nothing would be asked")
        if kind in _AUTO and len(opts) == 1:
            raise ValueError(f"this {kind} choice has one option ({opts[0]}), which the engine "
                             "takes by itself: give the position after it")
        c["_opts"] = opts
        s.choice = c
        return True

    def _schedule(self) -> None:
        """The rest of the encounter's procedure under the open choice, as the engine
        leaves it there (:meth:`CardiaState._resolve`): the steps still to come, then the
        task that resumes the procedure."""
        s, c, stage = self.s, self.c, self.stage
        if c is None:
            return
        extra: list[dict[str, Any]] = []  # in the order they will run
        if stage == _AT_REVEAL:
            assert self.cur_i is not None  # (checked by _procedure)
            cards = s.row[self.cur_i]["cards"]
            extra = [{"k": "librarian", "p": p, "v": cards[p]["v"]}
                     for p in SEATS for _ in range(self.lib[p])]
            extra += [{"k": "blackmail", "p": p, "colour": colour, "v": cards[p]["v"]}
                      for p in SEATS for colour in self.bm[p]]
            resume = [_RESUME[_EVALUATE]]
        elif stage == _LOSER:
            if c["kind"] == "discard":  # (a Revolutionary's: its draw follows)
                extra = [{"k": "draw", "p": c["seat"], "n": 2, "why": "revolutionary"}]
            resume = [_RESUME[_FINISH]]
        elif stage == _SERPENT:
            extra = [{"k": "serpent_win", "p": p} for p in SEATS for _ in range(self.serpent[p])]
            s.serpent = [0, 0]  # (they are tasks now)
            resume = [_RESUME[_END_CHECKS]]
        else:  # Scrapyard, the last step: seat b's card goes under after seat a's
            extra = [{"k": "under", "p": 1}] if c["seat"] == 0 else []
            resume = []
        s.tasks = resume + extra[::-1]

    # -- signets, layout ----------------------------------------------------------------
    def _evaluate(self) -> None:
        """§4.1 for every evaluated encounter: its winner and signets (checked against the
        position's)."""
        s, stage = self.s, self.stage
        for i, enc in enumerate(s.row):
            given = self.given[i][2]
            expected = enc["revealed"] and not (stage == _AT_REVEAL and i == self.cur_i)
            if given is None:
                given = expected
            elif given != expected and not (self.over and enc["revealed"] and not given
                                            and i == max(j for j, e in enumerate(s.row)
                                                         if e["revealed"])):
                if not enc["revealed"]:
                    why = "it is not revealed"
                elif given:
                    why = ("its Librarian / Blackmailer effects are being chosen: it is "
                           "evaluated after them")
                else:
                    why = "every revealed encounter is evaluated (but the one being resolved, "\
                          "while its Librarian / Blackmailer effects are chosen)"
                raise ValueError(f"encounter {i + 1} cannot be "
                                 f"{'evaluated' if given else 'unevaluated'}: {why}")
            enc["evald"] = given
        for i, enc in enumerate(s.row):
            if enc["evald"]:
                c0, c1 = enc["cards"]
                s._decide(i, enc, c0, c1)
        s.serpent = list(self.serpent) if s.location == "serpent_temple" else [0, 0]
        s._tot = s._watch = None
        for i, enc in enumerate(s.row):
            sigs, winner, _evald = self.given[i]
            got = [enc["cards"][0]["sig"], enc["cards"][1]["sig"]]
            for p in SEATS:
                if sigs[p] is not None and sigs[p] != got[p]:
                    raise ValueError(
                        f"encounter {i + 1}: {_SEAT_NAME[p]}'s card holds {sigs[p]} signet(s), "
                        f"but §4.1 gives it {got[p]} in this row")
            if winner != "?" and winner != s._holder(enc):
                raise ValueError(f"encounter {i + 1}'s winner is {winner!r}, but §4.1 gives "
                                 f"{s._holder(enc)!r} in this row")

    def _layout(self) -> None:
        """What the rules allow where (not for a finished match, frozen where it ended)."""
        s, stage = self.s, self.stage
        placed = s.placed
        if placed[0] is not None and placed[1] is not None:
            raise ValueError("both seats have placed: that pair is an encounter of the row")
        for p in SEATS:
            card = placed[p]
            if card is None:
                continue
            if stage is not None:
                raise ValueError("while a choice is open nobody has placed a card yet (both "
                                 "placements start an encounter)")
            if card["up"] != (s.fortune == p):
                raise ValueError(f"{_SEAT_NAME[p]}'s placed card is face up exactly when it "
                                 "is the Fortune Teller's victim (pending fortune_teller)")
            if s.fortune is not None and s.fortune != p and placed[s.fortune] is None:
                raise ValueError(f"the Fortune Teller's victim, {_SEAT_NAME[s.fortune]}, "
                                 f"places first: {_SEAT_NAME[p]} cannot have placed yet")
            if s.next_mod[p] or s.librarian[p] or s.engineer[p] or s.blackmail[p]:
                raise ValueError(f"{_SEAT_NAME[p]} has placed, so its pending \"next card\" "
                                 "effects went with that card (give them on the slot)")
            if s.deck == "II" and (card["mod"] > 0 or card["mod"] % 3):
                raise ValueError(f"{_SEAT_NAME[p]}'s placed card: in Deck II a card gets "
                                 "modifiers before its reveal only from the Envoy (-3 each)")
            if s.deck == "I" and self.attached[p]:
                raise ValueError("Librarian, Engineer and Blackmailer are Deck II cards")
        foggy = s.location == "foggy_swamp"
        for i, enc in enumerate(s.row):
            want = not (foggy and i == len(s.row) - 1)
            if enc["revealed"] != want:
                raise ValueError(
                    f"encounter {i + 1} cannot be {'revealed' if enc['revealed'] else 'face down'}"
                    + (": under Foggy Swamp every encounter is revealed when the next one is "
                       "placed, so only the newest waits" if foggy else
                       ": every encounter is revealed as soon as both cards are placed"))
            if not enc["revealed"] and s.deck == "II":
                for p in SEATS:
                    m = enc["cards"][p]["mod"]
                    if m > 0 or m % 3:
                        raise ValueError(f"encounter {i + 1}, {_SEAT_NAME[p]}'s card: in Deck "
                                         "II a card gets modifiers before its reveal only from "
                                         "the Envoy (-3 each)")
        if self.over:
            return
        for i, p in self.waits:
            card = s.row[i]["cards"][p]
            if s.row[i]["revealed"] and (card["lib"] or card["bm"]):
                raise ValueError(f"pending waiting: encounter {i + 1} is revealed, so its "
                                 "Librarian / Blackmailer effects are no longer waiting")
            if card["eng"] and s.row[i]["revealed"] and not (
                    stage in (_AT_REVEAL, _LOSER) and i == self.cur_i):
                raise ValueError(f"pending waiting: encounter {i + 1} has had its Finish, so "
                                 "no Engineer waits on it")
        if any(s.elemental_draw) and stage not in (_LOSER, _SERPENT):
            raise ValueError("pending elemental_draw: the Elemental's extra draw waits only "
                             "until the Finish of the encounter being resolved")

    def _derived(self) -> None:
        """The keys of a view that follow from the rest must be what they follow as."""
        s, pos = self.s, self.pos
        you = pos.get("you")
        checks = {
            "phase": "over" if s.phase == "over" else "choice" if s.choice else "place",
            "to_move": s.to_move(), "outcome": s.outcome(), "signets": s._totals(),
            "hand_sizes": [len(h) for h in s.hands], "deck_sizes": [len(d) for d in s.decks],
            "options_now": s.legal_actions(you) if you is not None else [],
        }
        for key, got in checks.items():
            if pos.get(key) is not None and _plain(pos[key]) != got:
                raise ValueError(f"{key} {pos[key]!r} is not what this position gives: "
                                 f"{got!r}")
        djinns = [[i + 1, p] for i, enc in enumerate(s.row) for p in SEATS
                  if s._active(enc["cards"][p], "mechanical_djinn")]
        given = self.pend.get("mechanical_djinn")
        if given is not None and _plain(given) != djinns:
            raise ValueError(f"pending mechanical_djinn {given!r} are not the active Mechanical "
                             f"Djinns of the row, {djinns!r}")

    def _settle(self) -> CardiaState:
        """No choice open: the position stands after a Finish (see from_position)."""
        s = self.s
        if self.over or s.choice is not None:
            return s
        # Would the last Finish have ended the round? Its checks, run on a quiet copy.
        twin = s.clone_fast()
        if s.location == "founders_day":
            twin._founders_check()
            if twin.ending is not None:
                raise ValueError("a seat holds signets on 3 encounters in a row: under "
                                 "Founder's Day the round would have ended")
        if s.deck == "II":
            twin._djinn_check()
            if twin.ending is not None:
                raise ValueError("a Mechanical Djinn's owner holds the encounter right of it: "
                                 "the round would have ended at the Finish")
        twin._resolve(_END_CHECKS)  # (d) the round-end checks (then draws, on the copy)
        if twin.ending is not None and twin.ending[1] == "signets":
            w, t = twin.ending[0], s._totals()
            raise ValueError(f"{_SEAT_NAME[w]} holds {t[w]} signets, more than "
                             f"{_SEAT_NAME[1 - w]}'s {t[1 - w]}: the round would have ended "
                             "at the last Finish (§6.2)")
        for p in s.to_move():
            if not s.hands[p] and s.decks[p]:
                raise ValueError(f"{_SEAT_NAME[p]} is to place with no card in hand but "
                                 f"{len(s.decks[p])} in its deck: it would have drawn at the "
                                 "last Finish")
        s._run()  # a seat to place with no card at all cannot play: the round ends (§6.3)
        return s
