"""How a VOLT position stands for each operator (players/evaluate.py): victory points, then
damage taken and nearness to a VP token."""

from __future__ import annotations

from typing import Any

from ..declaration import Evaluation


def standing(state: Any) -> list[float]:
    humans = [r for r in state.robots if not r.killbot]
    return [10.0 * r.vp - 0.5 * r.damage - (3.0 if r.destroyed else 0.0) - 0.5 * _to_token(state, r)
            for r in humans]


def _to_token(state: Any, robot: Any) -> int:
    """Moves to the nearest VP token (dice move diagonally too): without it every program that
    takes no token this round looks the same."""
    if robot.square is None or not state.tokens:
        return 0
    row, col = robot.square
    return min(max(abs(row - r), abs(col - c)) for r, c in state.tokens)


EVALUATION = Evaluation(standing, scale=5.0)
