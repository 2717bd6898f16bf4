"""A plain-text picture of the arena, for docs, logs and the console.

Each hex is three characters; rows are shifted by half a hex so that the
neighbours of a hex sit around it as on the board (pointy-top, r southwards).

    base ``R##``  robot ``rA>`` (colour, A/B, facing arrow)  crystal ``*b``/``*g``/``*p``
    blob ``@@``  rock ``###``  teleporter ``T1``..``T3``  mud ``~~``  empty ``.``
"""

from __future__ import annotations

from . import content as C
from .state import BASE0, BLOB, CRYSTAL0, ROCK, State

ARROWS = ("→", "↘", "↙", "←", "↖", "↗")


def board_text(state: State) -> str:
    layout = state.layout
    grid = layout.arena
    tele = {c: i + 1 for i, pair in enumerate(layout.teleporters) for c in pair}
    radius = grid.radius
    lines = []
    for r in range(-radius, radius + 1):
        cells = []
        for q in range(-radius, radius + 1):
            cell = grid.index.get((q, r))
            if cell is not None:
                cells.append(_token(state, cell, tele))
        lines.append("  " * abs(r) + " ".join(f"{t:^3}" for t in cells).rstrip())
    return "\n".join(lines)


def _token(state: State, cell: int, tele: dict[int, int]) -> str:
    thing = state.occ[cell]
    if 0 < thing <= 12:
        rid = thing - 1
        return f"{C.COLOUR_LETTERS[rid // 2]}{'AB'[rid % 2]}{ARROWS[state.face[rid]]}"
    if CRYSTAL0 < thing < BLOB:
        return "*" + C.CRYSTAL_LETTER[thing - CRYSTAL0]
    if thing >= BASE0:
        return C.COLOUR_LETTERS[thing - BASE0].upper() + "##"
    if thing == BLOB:
        return "@@"
    if thing == ROCK:
        return "###"
    if cell in tele:
        return f"T{tele[cell]}"
    if state.layout.is_mud[cell]:
        return "~~"
    return "."
