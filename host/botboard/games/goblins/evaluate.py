"""How a Goblins, Inc. position stands for each player (players/evaluate.py): points scored,
what the agendas would pay now, then the team's robot (tiles joined to the cockpit, weapons and
forward arrows, engines, goblins) against the enemy's."""

from __future__ import annotations

from typing import Any

from ..declaration import Evaluation
from .agendas import BET_SIDES, BETTING, score
from .combat import engines, forward_arrows, weapons
from .tiles import load_box
from .yard import connected

# agendas pay only at the round's end, and may yet change hands: counted at half, which kept
# greedy's lead over random (a full weight let random win 4 of 20) and search's over greedy
AGENDA_WEIGHT = 0.5


def standing(state: Any) -> list[float]:
    box = load_box(state.box)
    robots = []
    for robot in state.robots:
        joined = connected(robot.yard, box)
        robots.append(len(joined) + 2.0 * weapons(robot, box) + forward_arrows(robot, box)
                      + 0.5 * engines(robot, box) + 2.0 * len(robot.goblins) + len(robot.tokens)
                      - 0.5 * (len(robot.yard) - len(joined)))
    out = []
    for index, player in enumerate(state.players):
        strength = agendas = 0.0
        if len(robots) == 2:
            team = state.team_of(index)
            strength = robots[team] - robots[1 - team]
            agendas = _agenda_points(state, player, state.robots[team], state.robots[1 - team], box)
        out.append(float(player.score) + AGENDA_WEIGHT * agendas + 0.3 * strength)
    return out


def _agenda_points(state: Any, player: Any, own: Any, enemy: Any, box: Any) -> float:
    """What the player's agendas would pay if combat ended now: most of a round's points.
    Before they are kept, the 4 best of the hand (the bet pays only on a result)."""
    kept = state.shared_agendas if state.variant == "party" else player.agendas
    if kept:
        return float(sum(score(a, own, enemy, box, None) for a in kept if a not in BET_SIDES))
    hand = sorted(score(a, own, enemy, box, None) for a in player.agenda_hand if a != BETTING)
    return float(sum(hand[-4:]))


EVALUATION = Evaluation(standing, scale=5.0)
