"""How good a position is for one player, per game, from the rules' goals: a number in 0..1.

A finished game is 1 for a winner (shared among several), 0 otherwise. An
unfinished one compares the player's standing with the best opponent's,
squashed into 0..1, so that a search can average it with finished games:

* Twin Tin Bots: points delivered and carried, and how near the robots are to
  a crystal (or, carrying one, to their base);
* BotWars: flags touched, then nearness to the next flag, HP and lives, less a
  turn for a robot rebooting;
* VOLT: victory points, then damage taken and nearness to a VP token;
* Goblins, Inc.: points scored, what the agendas would pay now, then the
  team's robot (tiles joined to the cockpit, weapons and forward arrows,
  engines, goblins) against the enemy's.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from ..games.base import Game

REBOOT = 3.0  # BotWars: a rebooting robot sits out a turn, about what a turn's progress is worth


def value(game: Game[Any, Any], state: Any, player: int) -> float:
    outcome = game.outcome(state)
    if outcome is not None:
        return 1.0 / len(outcome.winners) if player in outcome.winners else 0.0
    standing = STANDINGS[game.info.name](state)
    mine = standing[player]
    best = max((s for p, s in enumerate(standing) if p != player), default=mine)
    return 1.0 / (1.0 + math.exp(-(mine - best) / SCALES[game.info.name]))


def _hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _twin_tin_bots(state: Any) -> list[float]:
    from ..games.twintinbots.state import BLOB, CRYSTAL0, final_scores

    coords = state.layout.arena.coords
    crystals = [coords[c] for c, o in enumerate(state.occ) if CRYSTAL0 < o < BLOB]
    out = [float(s) for s in final_scores(state)]
    for robot, cell in enumerate(state.cell):
        seat = robot // 2
        if seat >= len(out):
            continue
        if state.load[robot]:
            out[seat] -= 0.1 * _hex_distance(coords[cell], coords[state.layout.bases[seat]])
        elif crystals:
            out[seat] -= 0.05 * min(_hex_distance(coords[cell], c) for c in crystals)
    return out


def _botwars(state: Any) -> list[float]:
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


def _volt(state: Any) -> list[float]:
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


def _goblins(state: Any) -> list[float]:
    from ..games.goblins.combat import engines, forward_arrows, weapons
    from ..games.goblins.tiles import load_box
    from ..games.goblins.yard import connected

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


# agendas pay only at the round's end, and may yet change hands: counted at half, which kept
# greedy's lead over random (a full weight let random win 4 of 20) and search's over greedy
AGENDA_WEIGHT = 0.5


def _agenda_points(state: Any, player: Any, own: Any, enemy: Any, box: Any) -> float:
    """What the player's agendas would pay if combat ended now: most of a round's points.
    Before they are kept, the 4 best of the hand (the bet pays only on a result)."""
    from ..games.goblins.agendas import BET_SIDES, BETTING, score

    kept = state.shared_agendas if state.variant == "party" else player.agendas
    if kept:
        return float(sum(score(a, own, enemy, box, None) for a in kept if a not in BET_SIDES))
    hand = sorted(score(a, own, enemy, box, None) for a in player.agenda_hand if a != BETTING)
    return float(sum(hand[-4:]))


STANDINGS: dict[str, Callable[[Any], list[float]]] = {
    "twin-tin-bots": _twin_tin_bots, "botwars": _botwars, "volt": _volt, "goblins": _goblins}
SCALES = {"twin-tin-bots": 2.0, "botwars": 5.0, "volt": 5.0, "goblins": 5.0}  # a clear lead
