"""``botboard selfplay``: a whole game of any table game played through the simulated board."""

from __future__ import annotations

import argparse
import asyncio
import json

from .. import games
from ..board import layouts


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selfplay", help="play a whole game through the simulated board, like people",
                       description="Virtual hands put tagged tiles into the simulated board's "
                       "readers, press its buttons and touch its hexes until the game ends; the "
                       "game session reads every move from the board and journals it. Prints one "
                       "JSON object: winner, turns, state_hash, game (the journal id).")
    p.add_argument("--sim", action="store_true", help="start a simulated board (the default "
                   "unless --port is given)")
    p.add_argument("--game", default="twin-tin-bots", help="the game at the table: " + ", ".join(games.table_names()))
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--variants", default=None, metavar="SPEC",
                   help="variant pieces: 'all' (one of each) or e.g. teleporters=1,rocks=2,blobs=1,mud=1")
    p.add_argument("--track", type=int, default=0, metavar="N",
                   help="Twin Tin Bots: crystals left on the track at the start (default 0: the "
                   "end phase starts at once, a short game; -1: the full track)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                   help="any other engine option, e.g. score_victory=false")
    p.add_argument("--layout", default=None, help="layout: " + ", ".join(layouts.names())
                   + " (default: the game's own; ttb-big for 5-6 players of Twin Tin Bots)")
    p.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    p.add_argument("--speed", type=float, default=0.0,
                   help="animation seconds per step (default 0: no waiting)")
    p.add_argument("--port", default=None, help="use this (simulated) board instead of starting one")
    p.add_argument("--wait", type=float, default=20.0, metavar="S",
                   help="longest wait for the board to report a hand's move before giving up "
                   "(default 20 s; give more on a damaged or slow link)")
    p.add_argument("--control", default=None, metavar="HOST:PORT",
                   help="that board's control socket (with --port)")
    p.add_argument("--resume", action="store_true",
                   help="continue the latest unfinished game in the journal (after a crash)")
    p.add_argument("--computer", action="append", default=[], metavar="SEAT[=LEVEL]",
                   help="the computer plays this seat (1 = the first) at LEVEL random, greedy or "
                   "search (default search); the virtual hands play the others")
    p.add_argument("--think", type=float, default=2.0, metavar="S",
                   help="the computer's thinking time a move (default 2 s)")
    p.add_argument("--console-port", type=int, default=None, metavar="PORT",
                   help="watch the game live in the console on this port (0: any free port; "
                   "the address is printed on stderr); give --speed to see the animations")
    p.add_argument("--linger", type=float, default=None, metavar="S",
                   help="with --console-port: keep the console up on the end screen S seconds "
                   "(default: until Ctrl-C)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from .. import games
    from ..session.selfplay import SelfplayError, run, run_watched
    from ..daemon import ConfigError
    from ..session.session import SessionError
    from . import CliError
    from .run import computer_seats, new_game_options

    try:
        options = new_game_options(args.variants, args.option)
        computers = computer_seats(args.computer)
        if args.track >= 0 and games.canonical(args.game) == "twin-tin-bots":
            options["track"] = args.track
        if args.console_port is not None:
            if args.port:
                raise CliError("--console-port plays on the simulated board it starts: leave out --port")
            result = asyncio.run(run_watched(args.players, args.seed, options, args.data_dir,
                                             args.layout, args.speed, args.resume, args.game,
                                             args.wait, args.console_port, computers, args.think,
                                             args.linger))
        else:
            result = asyncio.run(run(args.players, args.seed, options, args.data_dir, args.layout,
                                     args.speed, args.port, args.control, args.resume, args.game,
                                     args.wait, computers, args.think))
    except (SelfplayError, SessionError, games.GameError, ConfigError) as err:
        raise CliError(str(err)) from err
    print(json.dumps(result))
    return 0
