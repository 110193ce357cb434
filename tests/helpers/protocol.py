"""Games through the protocol alone: every option combination, and what a state shows
(to compare two states by, e.g. search's fast path against the public one)."""

from __future__ import annotations

import itertools


def option_combos(game) -> list[dict]:
    """Every combination of every option's values (defaults for free-form options)."""
    names = sorted(game.option_schema)
    values = [game.option_schema[n].get("values", [game.option_schema[n]["default"]])
              for n in names]
    return [dict(zip(names, combo, strict=True)) for combo in itertools.product(*values)]


def public(state) -> tuple:
    """Everything the protocol shows of a state, for every seat (and a spectator)."""
    return (state.to_move(), state.is_over(), state.outcome(),
            [state.view(p) for p in [None, *range(state.players)]],
            [state.legal_actions(p) for p in range(state.players)])
