"""Rules engine speed: random legal games through legal_actions/apply, any registered game.

Plays complete games (until the game ends, or a game is cut at --max-turns
turns and counted as truncated) choosing uniformly among the legal actions,
and reports actions, turns and games per second of wall-clock time on one
core (and per second of the process's CPU time, steadier when the machine is
shared). What counts as a turn is the game's ``is_turn`` hook (by default every
action; Twin Tin Bots does not count the decisions inside a turn). States are
stepped with ``advance``, as a search does (no events built); ``--events``
steps with ``apply`` instead, building every event as a live game does.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

from .. import games
from ..cli import values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", default=None, help="registered game name (default "
                        f"{games.default_name()})")
    parser.add_argument("--players", type=values.whole(1, 64), default=2)
    parser.add_argument("--seconds", type=values.number(0.001, 86_400), default=5.0, help="time budget (default 5)")
    parser.add_argument("--seed", type=values.SEED, default=0)
    parser.add_argument("--options", default="{}", help="game options as JSON")
    parser.add_argument("--max-turns", type=values.whole(0, 10**9), default=0,
                        help="cut a game after this many turns (default: the game's max_turns)")
    parser.add_argument("--events", action="store_true",
                        help="step with apply and build the events (default: advance, as search does)")


def run(args: argparse.Namespace) -> dict[str, Any]:
    game = games.get(args.game or games.default_name())
    options = json.loads(args.options)
    limit = args.max_turns or game.info.max_turns
    return play(game, args.players, options, args.seconds, args.seed, limit, args.events)


def play(game: Any, players: int, options: dict[str, Any], seconds: float, seed: int,
         limit: int, events: bool = False) -> dict[str, Any]:
    rng = random.Random(seed)
    actions = turns = finished = truncated = 0
    game_turns: list[int] = []
    units: dict[str, int] = {}  # the game's own counters (BotWars: stages)
    start = time.perf_counter()
    cpu_start = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_game(players, options, seed + len(game_turns))
        turns_here = 0
        while game.outcome(state) is None and turns_here < limit:
            legal = game.legal_actions(state)
            action = legal[rng.randrange(len(legal))]
            if game.is_turn(state, action):
                turns_here += 1
            state = game.apply(state, action)[0] if events else game.advance(state, action)
            actions += 1
        if game.outcome(state) is None:
            truncated += 1
        else:
            finished += 1
        turns += turns_here
        game_turns.append(turns_here)
        for name, count in game.counters(state).items():
            units[name] = units.get(name, 0) + count
    elapsed = time.perf_counter() - start
    cpu = max(1e-9, time.process_time() - cpu_start)
    return {
        "game": game.info.name, "players": players, "options": options,
        "measured": "uniformly random legal actions, whole games, wall-clock time on one core "
                    f"(new_game + legal_actions + {'apply' if events else 'advance'} + outcome)",
        "events": events,
        "seconds": round(elapsed, 3),
        "games": len(game_turns), "games_finished": finished, "games_truncated": truncated,
        "max_turns": limit,
        "turns": turns, "actions": actions,
        "mean_turns_per_game": round(turns / max(1, len(game_turns)), 1),
        "turns_per_s": round(turns / elapsed),
        "actions_per_s": round(actions / elapsed),
        "games_per_s": round(len(game_turns) / elapsed, 2),
        # CPU time of this process: steadier than wall-clock on a busy machine
        "cpu_seconds": round(cpu, 3),
        "turns_per_cpu_s": round(turns / cpu),
        "games_per_cpu_s": round(len(game_turns) / cpu, 2),
        **{f"{name}_per_s": round(count / elapsed) for name, count in units.items()},
        **{f"{name}_per_cpu_s": round(count / cpu) for name, count in units.items()},
    }
