"""Games through the protocol alone: every option combination, and what a state shows
(to compare two states by, e.g. search's fast path against the public one)."""

from __future__ import annotations

import itertools
import math
import random

#: Above this many combinations, :func:`option_combos` varies one option at a time.
MAX_COMBOS = 24


def option_combos(game) -> list[dict]:
    """The option sets the shared tests play: every combination of every option's values
    when there are at most :data:`MAX_COMBOS` of them; otherwise the defaults, then each
    alternative value of each option alone (a game with many independent rule switches,
    e.g. ART OF WAR's 1,152 combinations, would else cost minutes per test). Free-form
    options keep their defaults, plus two sets from the game's own
    :meth:`~pygames.core.Game.sample_options` (seeded by the game's id)."""
    names = sorted(game.option_schema)
    values = [game.option_schema[n].get("values", [game.option_schema[n]["default"]])
              for n in names]
    if math.prod(len(v) for v in values) <= MAX_COMBOS:
        combos = [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]
    else:
        base = {n: v[0] for n, v in zip(names, values, strict=True)}
        combos = [base] + [{**base, n: value} for n, vals in zip(names, values, strict=True)
                           for value in vals[1:]]
    rng = random.Random(f"options-{game.id}")
    for _ in range(2):
        sample = game.sample_options(rng)
        if sample:
            combos.append({**combos[0], **sample})
    return combos


def public(state) -> tuple:
    """Everything the protocol shows of a state, for every seat (and a spectator)."""
    return (state.to_move(), state.is_over(), state.outcome(),
            [state.view(p) for p in [None, *range(state.players)]],
            [state.legal_actions(p) for p in range(state.players)])
