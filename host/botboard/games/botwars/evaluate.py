"""How a BotWars position stands for each seat (players/evaluate.py): flags touched, then
nearness to the next flag, HP and lives, less a turn for a robot rebooting."""

from __future__ import annotations

from typing import Any

from ..declaration import Evaluation

REBOOT = 3.0  # a rebooting robot sits out a turn, about what a turn's progress is worth


def standing(state: Any) -> list[float]:
    flags = state.board.flags
    out = []
    for player in state.players:
        score = 10.0 * player.flags + 0.5 * player.hp + 3.0 * player.lives + 0.5 * player.options
        if player.rebooting or player.reboot_next:
            score -= REBOOT  # the HP come back, the turn does not
        if player.flags < len(flags) and player.square is not None:
            goal = flags[player.flags]
            score -= 0.4 * (abs(goal[0] - player.square[0]) + abs(goal[1] - player.square[1]))
        elif player.square is None:
            score -= 5.0
        out.append(score)
    return out


EVALUATION = Evaluation(standing, scale=5.0)
