"""How a Laser Tanks position stands for each seat (the greedy and search players): hits, then aim."""

from __future__ import annotations

from botboard.games.declaration import Evaluation

from .state import State, Tank


def standing(state: State) -> list[float]:
    """Ten a hit scored, less half a point for each order the tank needs before the other is in
    its line of fire (the computer players compare a seat's standing with the other's)."""
    first, second = state.tanks
    return [10.0 * first.hits - 0.5 * steps_to_aim(first, second),
            10.0 * second.hits - 0.5 * steps_to_aim(second, first)]


def steps_to_aim(tank: Tank, target: Tank) -> int:
    """Orders ``tank`` needs before ``target`` is in its line of fire (if ``target`` stays):
    squares to drive into its row or column, then quarter turns to face it."""
    dx, dy = target.square[0] - tank.square[0], target.square[1] - tank.square[1]
    drive, toward = (abs(dx), 0 if dy > 0 else 2) if abs(dx) <= abs(dy) else (abs(dy), 1 if dx > 0 else 3)
    return drive + min((toward - tank.facing) % 4, (tank.facing - toward) % 4)


EVALUATION = Evaluation(standing, scale=10.0)
