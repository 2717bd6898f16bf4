"""Computer players' strength: seeded games level against level, seats rotated.

Plays --games games of --game between two levels (--levels A,B), each game
from its own seed, A in seat 1 in even games and in seat 2 in odd ones, with
--budget seconds a move. Prints each level's win rate with its 95% Wilson
interval (a shared win counts for each winner's share), the mean thinking
time per move and positions looked at per second (playouts for search). The
default run (greedy against random) finishes well within 3 minutes on one
core; give --games and --budget for longer, tighter runs.
"""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from .. import games
from ..players import Situation, make
from ..cli import values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="the game: " + ", ".join(games.names())
                        + f" (default {games.default_name()})")
    parser.add_argument("--levels", default="greedy,random", help="two levels, e.g. search,greedy")
    parser.add_argument("--games", type=values.COUNT, default=20, help="games to play (default 20)")
    parser.add_argument("--budget", type=values.number(0.001, 3600), default=0.05, help="seconds a move (default 0.05)")
    parser.add_argument("--seed", type=values.SEED, default=1)
    parser.add_argument("--options", default=None,
                        help="game options as JSON (default: the game's declared match options)")
    parser.add_argument("--max-actions", type=values.COUNT, default=3000, help="a game not over by then is a draw")


def run(args: argparse.Namespace) -> dict[str, Any]:
    levels = [level.strip() for level in args.levels.split(",")]
    if len(levels) != 2:
        raise SystemExit("--levels takes two levels, e.g. greedy,random")
    name = games.canonical(args.game or games.default_name())
    options = json.loads(args.options) if args.options else dict(games.declaration(name).match_options)
    return match(name, levels, args.games, args.budget, args.seed, options, args.max_actions)


def match(name: str, levels: list[str], count: int, budget: float, seed: int,
          options: dict[str, Any], max_actions: int, iterations: int | None = None) -> dict[str, Any]:
    """``iterations`` fixes each move's work instead of its time (tests: a busy machine
    would otherwise weaken the players)."""
    game = games.get(name)
    wins = dict.fromkeys(levels, 0.0)
    seconds = dict.fromkeys(levels, 0.0)
    moves = dict.fromkeys(levels, 0)
    nodes = dict.fromkeys(levels, 0)
    draws = 0
    for index in range(count):
        seated = levels if index % 2 == 0 else levels[::-1]
        players = [make(level, seed * 1000 + index * 10 + s, budget, iterations) for s, level in enumerate(seated)]
        state = game.new_game(2, options, seed * 1000 + index)
        for _ in range(max_actions):
            seat = game.current_player(state)
            if seat is None:
                break
            choice = players[seat].choose(Situation.of(game, state, seat))
            seconds[seated[seat]] += choice.seconds
            moves[seated[seat]] += 1
            nodes[seated[seat]] += choice.nodes
            state, _ = game.apply(state, choice.move)
        outcome = game.outcome(state)
        if outcome is None or not outcome.winners:
            draws += 1
            continue
        for winner in outcome.winners:
            wins[seated[winner]] += 1 / len(outcome.winners)
    out: dict[str, Any] = {"game": name, "games": count, "budget_s": budget, "options": options,
                           "draws": draws}
    for level in levels:
        low, high = wilson(wins[level], count)
        out[level] = {"wins": round(wins[level], 2), "win_rate": round(wins[level] / count, 3),
                      "ci95": [round(low, 3), round(high, 3)],
                      "mean_move_s": round(seconds[level] / max(moves[level], 1), 4),
                      "positions_per_s": round(nodes[level] / seconds[level]) if seconds[level] else None}
    return out


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)
