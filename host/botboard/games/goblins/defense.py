"""Defense tokens: one per armor plate, shared with a metal-to-metal neighbour, never on the cockpit.

A token is the list of squares it covers (one or two). A hit on a covered
tile removes one covering token instead of the tile; a token that protected
two tiles is gone for both. Tokens come from a limited supply (the box says
how many); tokens on a tile that is destroyed or falls off go with it.
"""

from __future__ import annotations

from .state import Robot, State
from .tiles import Box
from .yard import ALL_SQUARES, COCKPIT, joined


def supply_left(state: State, box: Box) -> int:
    used = sum(len(r.tokens) + r.scrap_tokens for r in state.robots)
    return box.defense_tokens - used


def place_tokens(state: State, box: Box, robot: Robot) -> int:
    """Put the tokens of every armor plate on ``robot``; how many were placed."""
    placed = 0
    for square in ALL_SQUARES:
        if square not in robot.yard:
            continue
        tile_id, rot = robot.yard[square]
        for side in box.tiles[tile_id].plate_sides(rot):
            if supply_left(state, box) <= 0:
                return placed
            other = joined(robot.yard, box, square, side)
            cover = [square] if other in (None, COCKPIT) else sorted([square, str(other)])
            robot.tokens.append(cover)
            placed += 1
    return placed


def covering(robot: Robot, square: str) -> list[int]:
    """Indices of the tokens covering ``square``."""
    return [i for i, cover in enumerate(robot.tokens) if square in cover]


def token_choices(robot: Robot, square: str) -> list[str]:
    """The distinct tokens a hit on ``square`` may remove, named by what they cover."""
    return sorted({"+".join(robot.tokens[i]) for i in covering(robot, square)})


def remove_token(robot: Robot, cover: str) -> None:
    """Take off one token covering exactly ``cover`` ("r2c3" or "r2c3+r2c4")."""
    squares = cover.split("+")
    robot.tokens.remove(squares)


def tokens_on(robot: Robot, square: str) -> int:
    return len(covering(robot, square))
