"""``botboard replay GAME``: re-run a journaled game and print its final state hash, or review it
step by step in the console's replay viewer (``--console-port``), on the board too (``--on-board``)."""

from __future__ import annotations

import argparse
import asyncio
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-run a journaled game (its state hash), or review it in the console",
                       description="Replays the game's journaled actions from its seed, checking "
                       "every recorded state hash, and prints the final one. --json prints the "
                       "game's whole record (its export) with the replayed hash. --console-port "
                       "serves the replay viewer instead (step through the actions, the arena, "
                       "the events and scores; each seat's own view once the game is over) and "
                       "prints its address; Ctrl-C stops it. The journal is only read.")
    p.add_argument("game", type=int, help="the game's id (see `botboard games`)")
    p.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    p.add_argument("--json", action="store_true", help="print the game's record as one JSON object")
    p.add_argument("--console-port", type=int, default=None, metavar="PORT",
                   help="review the game in the browser on this port (0: any free port)")
    p.add_argument("--on-board", action="store_true",
                   help="with --console-port: light the viewed step on the board's LEDs (the "
                   "simulated board unless --port gives a board no table is using)")
    p.add_argument("--port", default=None, help="with --on-board: the board's serial port")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from . import CliError

    if args.console_port is None:
        if args.on_board or args.port:
            raise CliError("--on-board and --port go with --console-port: the viewer steps the board")
        return _hash(args)
    return _review(args)


def _hash(args: argparse.Namespace) -> int:
    from ..session.journal import replay
    from . import opened_journal

    with opened_journal(args.data_dir) as journal:
        engine, state, _ = replay(journal, args.game)
        digest = engine.state_hash(state)
        if args.json:
            record = journal.export(args.game)
            record["replayed_hash"] = digest
            print(json.dumps(record))
        else:
            print(digest)
    return 0


def _review(args: argparse.Namespace) -> int:
    from ..console.review_app import serve
    from ..games import GameError
    from ..session.host import data_dir
    from ..session.journal import Journal, JournalError, journal_path, replay_steps
    from . import CliError

    path = journal_path(data_dir(args.data_dir))
    if not path.exists():
        raise CliError(f"no journal in {path.parent} (give --data-dir)")
    try:
        journal = Journal(path, read_only=True)  # a live table's game in it is never touched
    except JournalError as err:
        raise CliError(str(err)) from err
    try:
        next(replay_steps(journal, args.game))  # a game unknown or not installed: said now, not in the browser
        asyncio.run(serve(journal, args.game, args.console_port, args.port, args.on_board,
                          lambda address: print(f"review it: {address}", flush=True)))
    except KeyboardInterrupt:
        pass
    except (JournalError, GameError, OSError) as err:
        raise CliError(str(err)) from err
    finally:
        journal.close()
    return 0
