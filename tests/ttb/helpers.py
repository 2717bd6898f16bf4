"""Shared helpers for the Twin Tin Bots tests: random play and invariants."""

from __future__ import annotations

import random
from typing import Any

from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.state import BLOB, CRYSTAL0, State, crystals_in_play, points


def random_game(players: int, seed: int, options: dict[str, Any] | None = None,
                max_actions: int = 400, check: bool = True) -> tuple[State, int]:
    """Play uniformly random legal actions; check invariants after each one."""
    rng = random.Random(seed)
    state = GAME.new_game(players, options or {}, seed)
    total = crystals_in_play(state)
    blobs = sum(1 for o in state.occ if o == BLOB)
    n = 0
    while GAME.outcome(state) is None and n < max_actions:
        legal = GAME.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        state, _ = GAME.apply(state, action)
        n += 1
        if check:
            check_invariants(state, total, blobs)
    return state, n


def check_invariants(state: State, crystals: int, blobs: int) -> None:
    layout = state.layout
    assert crystals_in_play(state) == crystals, "crystals are conserved"
    assert sum(1 for o in state.occ if o == BLOB) == blobs, "blobs are neither made nor lost"
    robots = [o - 1 for o in state.occ if 0 < o <= 12]
    assert sorted(robots) == list(range(2 * layout.players)), "each robot on exactly one hex"
    for rid, cell in enumerate(state.cell):
        assert state.occ[cell] == rid + 1
        assert 0 <= state.face[rid] < 6
        assert state.load[rid] in (0, 2, 3, 4)
    for cell, static in enumerate(layout.static_occ):
        if static:
            assert state.occ[cell] == static, "bases, rocks and teleporters never move"
        else:
            assert state.occ[cell] == 0 or state.occ[cell] <= 12 or CRYSTAL0 < state.occ[cell] <= BLOB
    for seat in range(layout.players):
        hand, placed = state.hands[seat], state.programs[2 * seat] + state.programs[2 * seat + 1]
        assert not set(hand) & set(placed), "a special is in the hand or in a program, not both"
    if state.result is None:
        target = layout.score_target
        assert not target or all(points(d) < target for d in state.delivered), "victory ends it"
    if state.pending:
        assert GAME.pending(state) is not None and GAME.pending(state).choices
