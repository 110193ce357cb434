"""Games through the protocol alone: every option combination, and what a state shows
(to compare two states by, e.g. search's fast path against the public one)."""

from __future__ import annotations

from pygames.battery import MAX_COMBOS, option_combos

__all__ = ["MAX_COMBOS", "option_combos", "public"]


def public(state) -> tuple:
    """Everything the protocol shows of a state, for every seat (and a spectator)."""
    return (state.to_move(), state.is_over(), state.outcome(),
            [state.view(p) for p in [None, *range(state.players)]],
            [state.legal_actions(p) for p in range(state.players)])
