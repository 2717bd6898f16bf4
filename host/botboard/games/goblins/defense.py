"""Defense tokens: one per armor plate, shared with a metal-to-metal neighbour, never on the cockpit.

A token is the list of squares it covers (one or two). A hit on a covered
tile removes one covering token instead of the tile; a token that protected
two tiles is gone for both. Tokens come from a limited supply (the box says
how many: 15 or 16 by edition); when it runs out while they are placed, the
robots take turns plate by plate and the plates left bare are named (an
event), so the table can tell the players. Tokens on a tile that is destroyed
or falls off go with it.
"""

from __future__ import annotations

from .state import Robot, State
from .tiles import Box
from .yard import ALL_SQUARES, COCKPIT, joined


def supply_left(state: State, box: Box) -> int:
    used = sum(len(r.tokens) + r.scrap_tokens for r in state.robots)
    return box.defense_tokens - used


def place_tokens(state: State, box: Box) -> tuple[list[int], list[list[str]]]:
    """Put a token on every armor plate of both robots, plate by plate in turn (robot A's
    first, robot B's first, A's second...), so a supply too short for all of them is shared
    as evenly as the plates allow. Per robot: tokens placed, and the plates left without one
    ("r2c3 N")."""
    plates = [_plates(box, robot) for robot in state.robots]
    placed = [0, 0]
    short: list[list[str]] = [[], []]
    for index in range(max(len(p) for p in plates)):
        for team, robot in enumerate(state.robots):
            if index >= len(plates[team]):
                continue
            square, side = plates[team][index]
            if supply_left(state, box) <= 0:
                short[team].append(f"{square} {'NESW'[side]}")
                continue
            other = joined(robot.yard, box, square, side)
            robot.tokens.append([square] if other in (None, COCKPIT) else sorted([square, str(other)]))
            placed[team] += 1
    return placed, short


def _plates(box: Box, robot: Robot) -> list[tuple[str, int]]:
    """(square, yard side) of each armor plate of ``robot``, in square order."""
    return [(square, side) for square in ALL_SQUARES if square in robot.yard
            for side in box.tiles[robot.yard[square][0]].plate_sides(robot.yard[square][1])]


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
