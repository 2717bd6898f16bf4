"""``botboard selfplay``: a whole game of any table game played through the simulated board."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from typing import Any

from .. import games
from ..board import layouts
from .sim import add_chip_argument
from . import values


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("selfplay", help="play a whole game through the simulated board, like people",
                       description="Virtual hands put tagged tiles into the simulated board's "
                       "readers, press its buttons and touch its hexes until the game ends; the "
                       "game session reads every move from the board and journals it. Prints one "
                       "JSON object: winner, turns, state_hash, game (the journal id).")
    p.add_argument("--sim", action="store_true", help="start a simulated board (the default "
                   "unless --port is given)")
    p.add_argument("--game", default=None, help="the game at the table: " + ", ".join(games.table_names())
                   + f" (default {games.default_name()})")
    p.add_argument("--players", type=values.whole(1, 64), default=2)
    p.add_argument("--seed", type=values.SEED, default=0)
    p.add_argument("--full", action="store_true",
                   help="play the game's full length (default: the short game it declares, e.g. "
                   "fewer crystals on the track; `botboard games --playable --json` shows it)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                   help="an engine option, over the short game's, e.g. track=2 or teleporters=1")
    p.add_argument("--layout", default=None, help="layout: " + ", ".join(layouts.names())
                   + " (default: the game's own for the number of players)")
    p.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    p.add_argument("--speed", type=values.SECONDS, default=0.0,
                   help="animation seconds per step (default 0: no waiting)")
    p.add_argument("--port", default=None, help="use this (simulated) board instead of starting one")
    add_chip_argument(p)
    p.add_argument("--wait", type=values.SECONDS, default=20.0, metavar="S",
                   help="longest wait for the board to report a hand's move before giving up "
                   "(default 20 s; give more on a damaged or slow link)")
    p.add_argument("--control", default=None, metavar="HOST:PORT",
                   help="that board's control socket (with --port)")
    p.add_argument("--resume", action="store_true",
                   help="continue the latest unfinished game in the journal (after a crash)")
    p.add_argument("--computer", action="append", default=[], metavar="SEAT[=LEVEL]",
                   help="the computer plays this seat (1 = the first) at LEVEL random, greedy or "
                   "search (default search); the virtual hands play the others")
    p.add_argument("--think", type=values.SECONDS, default=2.0, metavar="S",
                   help="the computer's thinking time a move (default 2 s)")
    p.add_argument("--console-port", type=values.TCP_PORT, default=None, metavar="PORT",
                   help="watch the game live in the console on this port (0: any free port; "
                   "the address is printed on stderr); give --speed to see the animations")
    p.add_argument("--linger", type=values.SECONDS, default=None, metavar="S",
                   help="with --console-port: keep the console up on the end screen S seconds "
                   "(default: until Ctrl-C)")
    p.set_defaults(func=_run, preflight=check)


def check(args: argparse.Namespace) -> dict[str, Any]:
    """Every flag checked before the board starts: the game, its options and players, the
    layout, the computer's seats, flags that go together; the game's options returned."""
    from . import CliError, checks
    from .run import computer_seats, new_game_options

    game = checks.game(args.game)
    short = {} if args.full else dict(games.declaration(game).quick_options)
    options = {**short, **new_game_options(args.option)}
    checks.game(game, options, args.players)
    checks.layout(args.layout)
    checks.port(args.port)
    computer_seats(args.computer)
    if args.console_port is not None and args.port:
        raise CliError("--console-port plays on the simulated board it starts: leave out --port")
    if args.console_port is not None and args.chip:
        raise CliError("--console-port plays on the unix-port board: leave out --chip, or "
                       "watch the emulated Pico's game with botboard sim --chip and run --port")
    return options


def _run(args: argparse.Namespace) -> int:
    from .. import games
    from ..session.selfplay import SelfplayError, run
    from ..daemon import ConfigError
    from ..session.session import SessionError
    from . import CliError
    from .run import computer_seats

    try:
        options = check(args)
        game = games.canonical(args.game or games.default_name())
        computers = computer_seats(args.computer)
        if args.console_port is not None:
            result = asyncio.run(run_watched(args.players, args.seed, options, args.data_dir,
                                             args.layout, args.speed, args.resume, game,
                                             args.wait, args.console_port, computers, args.think,
                                             args.linger))
        else:
            result = asyncio.run(run(args.players, args.seed, options, args.data_dir, args.layout,
                                     args.speed, args.port, args.control, args.resume, game,
                                     args.wait, computers, args.think, args.chip))
    except (SelfplayError, SessionError, games.GameError, ConfigError) as err:
        raise CliError(str(err)) from err
    print(json.dumps(result))
    return 0


async def run_watched(players: int, seed: int, options: dict[str, Any], data_dir: str | None,
                      layout_name: str | None, step_s: float, resume: bool, game: str,
                      wait_s: float, console_port: int, computers: dict[int, str] | None = None,
                      think_s: float = 2.0, linger_s: float | None = None) -> dict[str, Any]:
    """Selfplay inside the whole daemon, so the game can be watched live in the console
    (arena, stations, log) while the virtual hands play it; the address goes to stderr.
    Once it is over the console stays up on the end screen ``linger_s`` seconds, or (None)
    until Ctrl-C: a watcher sees who won, not "console offline"."""
    from ..console.app import create_app
    from ..daemon import Daemon, DaemonConfig
    from ..session.selfplay import Hands, progress, summary

    daemon = Daemon(DaemonConfig(game=game, layout=layout_name, console_port=console_port,
                                 data_dir=data_dir, step_s=step_s))
    to_consoles = daemon.publish

    def publish(event: dict[str, Any]) -> None:  # progress on stderr, as without a console
        progress(event)
        to_consoles(event)

    daemon.publish = publish  # type: ignore[method-assign]
    ready = asyncio.Event()
    served = asyncio.create_task(daemon.run(create_app, ready))
    try:
        await asyncio.wait({served, asyncio.create_task(ready.wait())},
                           return_when=asyncio.FIRST_COMPLETED)
        if served.done():
            served.result()  # the console could not start: its error
        session, conn, control = daemon.session, daemon.conn, daemon.sim_control
        assert session is not None and conn is not None and control is not None
        print(f"watch it: {daemon.console_url}", file=sys.stderr, flush=True)
        if not (resume and session.resume()):
            session.new_game(players, options, seed)
        session.set_computers(computers or {}, think_s)
        hands = Hands(session, conn, control, seed, wait_s)
        await hands.play()
        result = summary(session)
        await _linger(linger_s, daemon.console_url)
        return result
    finally:
        served.cancel()
        await asyncio.gather(served, return_exceptions=True)


async def _linger(linger_s: float | None, url: str) -> None:
    """Wait ``linger_s`` seconds, or (None) until Ctrl-C or SIGTERM, which end the wait and
    not the program: the game's result is still printed."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    until = "Ctrl-C" if linger_s is None else f"Ctrl-C or {linger_s:g} s"
    print(f"game over: the console shows the end screen at {url} until {until}", file=sys.stderr, flush=True)
    try:
        await asyncio.wait_for(stop.wait(), linger_s)
    except asyncio.TimeoutError:
        pass
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
