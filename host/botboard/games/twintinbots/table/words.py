"""What a Twin Tin Bots seat's phone says about its own game, as a player would say it."""

from __future__ import annotations

from .. import content as C
from ..state import State

Rows = list[tuple[str, str]]


def seat_words(state: State, seat: int) -> Rows:
    """The two robots' programs by tile name, and whether the double modification is spent."""
    rows: Rows = []
    for k in (0, 1):
        tiles = [C.TILE_NAMES[t] for t in state.programs[2 * seat + k] if t]
        rows.append((f"robot {'AB'[k]}'s program", ", ".join(tiles) or "no orders yet"))
    rows.append(("double modification", "already used" if state.dm_used[seat] else "still yours to use"))
    return rows
