"""``botboard run``: the main job. The board (or the simulated one), the daemon, the console."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from .. import games
from ..board import layouts
from ..session.palette import VARIANTS


def add_daemon_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--port", help="the board's serial port (default: a plugged-in Pico, "
                   "else the simulated board)")
    p.add_argument("--layout", default=None, help="layout in hardware/layouts: "
                   + ", ".join(layouts.names()) + " (default: the game's own; ttb-big for 5-6 "
                   "players of Twin Tin Bots)")
    p.add_argument("--game", default="twin-tin-bots",
                   help="the game at the table: " + ", ".join(games.table_names()))
    p.add_argument("--listen", default="127.0.0.1",
                   help="console address (default 127.0.0.1; anything else needs --token)")
    p.add_argument("--console-port", type=int, default=8700, help="console TCP port (default 8700)")
    p.add_argument("--token", help="token every console request must carry; 'auto' makes one")
    p.add_argument("--sim-baud", type=int, default=None,
                   help="pace the simulated board's link like a UART at this rate")
    p.add_argument("--data-dir", default=None,
                   help="where the game journal and tile registry live (default ./var)")
    p.add_argument("--new-journal", action="store_true",
                   help="start a new journal beside the data directory's current one (say, a "
                   "damaged one, which is left untouched); later runs use the new one")
    p.add_argument("--players", type=int, default=None,
                   help="start a game of this many players unless an unfinished one resumes")
    p.add_argument("--seed", type=int, default=0, help="seed of a new game (default 0)")
    p.add_argument("--variants", default=None, metavar="SPEC",
                   help="Twin Tin Bots' variant pieces of a new game: 'all' or e.g. teleporters=1,rocks=2")
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                   help="an engine option of a new game, e.g. ruleset=\"v1\" or max_turns=10")
    p.add_argument("--speed", type=float, default=None,
                   help="animation seconds per step (default 0.35; 0: no animation)")
    p.add_argument("--palette", choices=VARIANTS, default="standard",
                   help="the LED colours: standard, or colourblind (kept apart under simulated "
                   "deuteranopia and protanopia; docs/palettes.md)")
    p.add_argument("--computer", action="append", default=[], metavar="SEAT[=LEVEL]",
                   help="the computer plays this seat (1 = the first seat), at LEVEL random, "
                   "greedy or search (default search); give it once per seat")
    p.add_argument("--think", type=float, default=2.0, metavar="S",
                   help="the computer's thinking time a move (default 2 s)")


def computer_seats(items: list[str]) -> dict[int, str]:
    """--computer 2=greedy --computer 3 as {seat index: level}; CliError on a bad one."""
    from ..players import LEVELS
    from . import CliError

    seats: dict[int, str] = {}
    for item in items:
        seat, _, level = item.partition("=")
        level = level.strip() or "search"
        if not seat.strip().isdigit() or int(seat) < 1:
            raise CliError(f"--computer {item}: SEAT is the seat's number from 1, e.g. --computer 2=greedy")
        if level not in LEVELS:
            raise CliError(f"--computer {item}: no level {level!r}; levels: {', '.join(LEVELS)}")
        seats[int(seat) - 1] = level
    return seats


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="start the board link, the game and the console (the main job)",
                       description="Connect to the board (with none attached, start the simulated "
                       "board), run the host daemon with a game slot, serve the console, and print "
                       "the console's address. Ctrl-C stops everything.")
    add_daemon_arguments(p)
    p.set_defaults(func=run)


def new_game_options(variants: str | None, items: list[str]) -> dict[str, Any]:
    """--variants and --option KEY=JSON as engine options; CliError on a bad JSON value."""
    from ..session.selfplay import parse_variants
    from . import CliError

    options = parse_variants(variants)
    for item in items:
        key, _, value = item.partition("=")
        try:
            options[key.strip()] = json.loads(value)
        except json.JSONDecodeError as err:
            raise CliError(f"--option {item}: the value is not JSON ({err}); strings need "
                           "quotes, e.g. ruleset='\"v1\"'") from err
    return options


def _usable_journal(where: str | None, new: bool) -> None:
    """Check the data directory's journal before anything starts; a damaged or foreign one
    is left untouched, and a new one beside it is offered (asked at a terminal, else the
    flag that does it is named)."""
    from ..session.host import data_dir
    from ..session.journal import Journal, JournalError, new_journal_path
    from . import CliError

    folder = data_dir(where)
    try:
        if new:
            Journal(new_journal_path(folder)).close()
        Journal.in_dir(folder).close()
        return
    except JournalError as err:
        problem = str(err)
    fresh = new_journal_path(folder)
    if sys.stdin.isatty() and input(f"{problem}\nStart a new journal beside it, {fresh}? "
                                    "[y/N] ").strip().lower() in ("y", "yes"):
        Journal(fresh).close()
        return
    raise CliError(problem)


def run(args: argparse.Namespace) -> int:
    from ..console.app import create_app
    import segno

    from ..daemon import ConfigError, Daemon, DaemonConfig, is_loopback
    from ..board.layouts import LayoutError
    from . import CliError

    _usable_journal(args.data_dir, args.new_journal)
    config = DaemonConfig(port=args.port, layout=args.layout, game=args.game, listen=args.listen,
                          console_port=args.console_port, token=args.token, sim_baud=args.sim_baud,
                          data_dir=args.data_dir, players=args.players, seed=args.seed,
                          options=new_game_options(args.variants, args.option), step_s=args.speed,
                          computers=computer_seats(args.computer), think_s=args.think,
                          palette=args.palette)
    try:
        daemon = Daemon(config)
    except (ConfigError, LayoutError) as err:
        raise CliError(str(err)) from err

    async def main() -> None:
        ready = asyncio.Event()
        task = asyncio.create_task(daemon.run(create_app, ready))
        done, _ = await asyncio.wait({task, asyncio.create_task(ready.wait())},
                                     return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            task.result()
            return
        where = f"simulated board on {daemon.sim.port}" if daemon.sim else \
            f"board on {daemon.conn.port_name if daemon.conn else '?'}"
        print(f"botboard: {where}, game {daemon.game_name}", flush=True)
        print(f"console: {daemon.console_url}", flush=True)
        if not is_loopback(daemon.config.listen):  # a tablet at the table scans it
            segno.make(daemon.console_url, error="m").terminal(compact=True)
            print("(the console's Seats panel has each player's own link and code)", flush=True)
        await task

    try:
        asyncio.run(main())
    except ConfigError as err:
        raise CliError(str(err)) from err
    except KeyboardInterrupt:
        pass
    finally:
        daemon.stop()
    return 0
