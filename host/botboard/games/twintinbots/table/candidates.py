"""Twin Tin Bots' decisions on the board: where each choice is shown.

Every choice the engine offers is a candidate, shown on a hex: where a
crystal may enter (that hex), where a zapped blob may go (that hex; "stay"
is the blob's own hex), the order a zapped robot must perform (the hex in
front of it for Forward, front-left for Turn left, front-right for Turn
right, the robot's own hex for Load and Unload, told apart with
previous/next). The session's ``Picker`` does the choosing.
"""

from __future__ import annotations

from ....session.mapping import Candidate
from ...base import Decision
from .. import content as C
from ..state import State

_TURN_SIDE = {"F1": 0, "L": -1, "R": 1}  # zap orders shown beside the robot: facing offset


def candidates(state: State, decision: Decision) -> list[Candidate]:
    grid = state.layout.arena
    out = []
    for choice in decision.choices:
        word, _, rest = choice.partition(" ")
        if word in ("enter", "blob") and rest != "stay":
            cell = grid.cell(rest)
            words = f"{word} at {rest}"
        elif word == "blob":  # stay: the blob's own hex
            assert state.pending is not None
            cell = state.pending[2]
            words = "the blob stays"
        else:  # zap order
            assert state.pending is not None
            target = state.pending[2]
            here, face = state.cell[target], state.face[target]
            code = rest.strip().upper()
            cell = here
            if code in _TURN_SIDE:
                beside = grid.nbr[here][(face + _TURN_SIDE[code]) % 6]
                cell = beside if beside >= 0 else here
            words = C.TILE_NAMES[C.TILE_BY_CODE[code]]
        out.append(Candidate(choice, cell, words))
    return out
