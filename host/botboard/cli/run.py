"""``botboard run``: the main job. The board (or the simulated one), the daemon, the console."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from typing import Any

from .. import games
from ..board import layouts
from ..session.palette import VARIANTS
from .sim import add_fault_argument


def add_daemon_arguments(p: argparse.ArgumentParser) -> None:
    """The table's settings as flags. A flag not given is absent from the namespace, so the
    configuration file (botboard.settings) can supply it; defaults are named in the help."""
    def flag(name: str, help: str, **kw: Any) -> None:
        p.add_argument(name, default=argparse.SUPPRESS, help=help, **kw)

    p.add_argument("--config", default=None, metavar="PATH",
                   help="the table's settings file (default $BOTBOARD_CONFIG, else "
                   "~/.config/botboard/botboard.toml, else /etc/botboard/botboard.toml); flags win")
    flag("--port", "the board's serial port (default /dev/botboard, else a plugged-in Pico, "
         "else the simulated board)")
    flag("--layout", "the board's layout: " + ", ".join(layouts.names())
         + " (default: the game's own for the number of players)")
    flag("--game", "the game at the table: " + ", ".join(games.table_names())
         + f" (default {games.default_name()})")
    flag("--listen", "console address (default 127.0.0.1; anything else needs --token)")
    flag("--console-port", "console TCP port (default 8700)", type=int)
    flag("--token", "token every console request must carry; 'auto' makes one")
    flag("--sim-baud", "pace the simulated board's link like a UART at this rate", type=int)
    flag("--data-dir", "where the game journal and tile registry live (default: the settings file's data_dir, else var/; docs/journal.md)")
    p.add_argument("--new-journal", action="store_true",
                   help="start a new journal beside the data directory's current one (say, a "
                   "damaged one, which is left untouched); later runs use the new one")
    flag("--players", "start a game of this many players unless an unfinished one resumes", type=int)
    p.add_argument("--fresh", action="store_true",
                   help="start a new game even when one is unfinished (that one stays in the journal: "
                   "the console's Resume brings it back)")
    flag("--seed", "seed of a new game (default 0)", type=int)
    p.add_argument("--option", action="append", default=[], metavar="KEY=JSON",
                   help="an engine option of a new game, e.g. ruleset=\"v1\" or max_turns=10")
    flag("--speed", "animation seconds per step (default 0.35; 0: no animation)", type=float)
    flag("--palette", "the LED colours: standard, or colourblind (kept apart under simulated "
         "deuteranopia and protanopia; docs/palettes.md)", choices=VARIANTS)
    flag("--computer", "the computer plays this seat (1 = the first seat), at LEVEL random, "
         "greedy or search (default search); give it once per seat", action="append",
         metavar="SEAT[=LEVEL]")
    flag("--think", "the computer's thinking time a move (default 2 s)", type=float, metavar="S")
    flag("--hints", "seats may ask their phone for a hint (default yes; --no-hints forbids it)",
         action=argparse.BooleanOptionalAction)
    flag("--hint-think", "a hint's thinking time (default 2 s)", type=float, metavar="S")
    flag("--explain", "phones explain each kind of tile the first time a seat lays it (default "
         "yes; --no-explain turns it off)", action=argparse.BooleanOptionalAction)
    flag("--remote", "play in a room with other tables through an MQTT broker: "
         "mqtt://[user:password@]HOST[:PORT]/ROOM#KEY.HOST (mqtts:// for TLS). KEY encrypts and signs "
         "everything the tables send, so any broker will do; HOST names the host table's keys; the "
         "host makes a KEY when its link has none and shows the link to share at a terminal and on "
         "the console's Room panel, never in a log (docs/remote-play.md)", metavar="URL")
    flag("--room-key", "not taken any more (a passphrase could be guessed offline): give the room's "
         "link with --remote; kept only to say so", metavar="PASSPHRASE")
    flag("--seat", "with --remote: a seat this table plays, from 1 (once per seat); the table that also "
         "gives --players hosts the game", type=int, action="append", metavar="N")
    flag("--table", "with --remote: this table's name in the room (default: the computer's name)")
    flag("--spectate", "with --remote: watch the room's game, public information only",
         action="store_true")


def computer_seats(items: list[str]) -> dict[int, str]:
    """--computer 2=greedy --computer 3 as {seat index: level}; CliError on a bad one."""
    from ..players import LEVELS
    from . import CliError

    seats: dict[int, str] = {}
    for item in items:
        seat, _, level = item.partition("=")
        level = level.strip() or "search"
        if not seat.strip().isdecimal() or len(seat.strip()) > 4 or int(seat) < 1:  # isdigit passes "²"
            raise CliError(f"--computer {item}: SEAT is the seat's number from 1, e.g. --computer 2=greedy")
        if level not in LEVELS:
            raise CliError(f"--computer {item}: no level {level!r}; levels: {', '.join(LEVELS)}")
        seats[int(seat) - 1] = level
    return seats


def room_seats(seats: list[int]) -> tuple[int, ...]:
    """--seat N (from 1) as seat indexes; CliError on a seat below 1."""
    from . import CliError

    if any(n < 1 for n in seats):
        raise CliError("--seat N: seats count from 1")
    return tuple(sorted({n - 1 for n in seats}))


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="start the board link, the game and the console (the main job)",
                       description="Connect to the board (with none attached, start the simulated "
                       "board), run the host daemon with a game slot, serve the console, and print "
                       "the console's address. Ctrl-C stops everything.")
    add_daemon_arguments(p)
    add_fault_argument(p)
    p.set_defaults(func=run, preflight=prepared)


def new_game_options(items: list[str]) -> dict[str, Any]:
    """--option KEY=JSON as engine options; CliError on a bad JSON value."""
    from ..settings import SettingsError, flag_options
    from . import CliError

    try:
        return flag_options(items)
    except SettingsError as err:
        raise CliError(str(err)) from err


def table_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings in effect (flags over the file over defaults); CliError on a bad file."""
    from ..settings import SettingsError, resolve
    from . import CliError

    try:
        values = resolve(args).values
    except SettingsError as err:
        raise CliError(str(err)) from err
    return values


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


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM (systemd, kill) ends the daemon the way Ctrl-C does, so ``finally`` stops the
    simulated board; the console's server passes it on once it has shut down."""
    raise KeyboardInterrupt


def _show_room_link(url: Any, terminal: bool) -> None:
    """The room's link and its QR code at a terminal; where the output may be a log (a service,
    a pipe) only where to find it: the link holds the room's key."""
    import segno

    if terminal:
        print(f"room: the tables that join give --remote '{url.link()}'", flush=True)
        segno.make(url.link(), error="m").terminal(compact=True)
        return
    print(f"room: hosting {url}; the link to join it holds the room's key, so it is not printed "
          "here: open the console's Room panel", flush=True)


TOKEN_FILE = "console-token"  # in the data directory: --token auto's token, for a service's owner


def _show_console(daemon: Any, terminal: bool) -> None:
    """The console's address with its token at a terminal; where the output may be a log (a
    service, a pipe) the address alone and where a person finds the token: the one configured,
    or --token auto's in a file of the data directory only its owner reads."""
    if terminal or not daemon.token:
        print(f"console: {daemon.console_url}", flush=True)
        return
    address = daemon.console_url.split("?", 1)[0]
    if daemon.config.token == "auto":
        where = _write_token(daemon.token, daemon.config.data_dir)
        said = f"--token auto's token is in {where} (readable by its owner only): open {address}?token=TOKEN"
    else:
        said = ("the token is the one configured (--token, or token in the settings file; "
                "`botboard config` names the file): open it as ?token=TOKEN")
    print(f"console: {address} (its token is not printed here: {said})", flush=True)


def _write_token(token: str, data_dir: str | None) -> Any:
    """--token auto's token in DATA_DIR/console-token, 0600 whatever the umask."""
    from ..private import private_file
    from ..session.host import data_dir as folder

    path = private_file(folder(data_dir) / TOKEN_FILE)
    path.write_text(token + "\n")
    return path


def _say_resumed(daemon: Any, args: argparse.Namespace) -> None:
    """A game that resumed takes none of the new game's flags: say so, and how to start fresh."""
    if daemon.resumed is None:
        return
    given = [flag for flag, on in (("--seed", "seed" in vars(args)), ("--option", bool(args.option)),
                                   ("--players", "players" in vars(args))) if on]
    if not given:
        print(f"botboard: unfinished game {daemon.resumed} resumes", flush=True)
        return
    print(f"botboard: unfinished game {daemon.resumed} resumes, so {' and '.join(given)} "
          "(for a new game) are not used; to start fresh with them, add --fresh (the unfinished game "
          "stays in the journal) or press New game in the console", flush=True)


async def _first(task: asyncio.Task[None], *events: asyncio.Event) -> None:
    """Until the task ends or one of the events is set."""
    waiters = [asyncio.create_task(e.wait()) for e in events]
    await asyncio.wait({task, *waiters}, return_when=asyncio.FIRST_COMPLETED)
    for waiter in waiters:
        waiter.cancel()


async def _ended(task: asyncio.Task[None], grace_s: float = 3.0) -> None:
    """The daemon's run, ended: on its own (the console's server also stops on SIGTERM), else
    cancelled after a grace; its error, if any, raised."""
    done, _ = await asyncio.wait({task}, timeout=grace_s)
    if not done:
        task.cancel()
    try:
        await task
    except asyncio.CancelledError:
        pass


def prepared(args: argparse.Namespace) -> Any:
    """The daemon ``run`` starts, every flag and setting checked (CliError names the bad one);
    nothing runs yet."""
    from ..daemon import ConfigError, Daemon, DaemonConfig
    from ..board.layouts import LayoutError
    from . import CliError, checks

    v = table_settings(args)
    if v["players"] is None and not v["remote"]:  # a table of its own plays at once, as the README says
        try:
            v["players"] = max(2, games.get(v["game"] or games.default_name()).info.min_players)
        except games.GameError as err:
            raise CliError(f"--game {v['game']}: {err}") from err
    checks.layout(v["layout"])
    checks.port(v["port"])
    _usable_journal(v["data_dir"], args.new_journal)
    config = DaemonConfig(port=v["port"], layout=v["layout"], game=v["game"], listen=v["listen"],
                          console_port=v["console_port"], token=v["token"], sim_baud=v["sim_baud"],
                          data_dir=v["data_dir"], players=v["players"], seed=v["seed"],
                          options=v["options"], step_s=v["speed"],
                          computers=computer_seats(v["computer"]), think_s=v["think"],
                          palette=v["palette"], remote=v["remote"], seats=room_seats(v["seat"]),
                          table=v["table"], spectate=v["spectate"], room_key=v["room_key"],
                          hints=v["hints"], hint_s=v["hint_think"], explain=v["explain"],
                          faults=tuple(getattr(args, "fault", ())), fresh=getattr(args, "fresh", False))
    try:
        return Daemon(config)
    except (ConfigError, LayoutError) as err:
        raise CliError(str(err)) from err


def run(args: argparse.Namespace) -> int:
    from ..console.app import create_app
    import segno

    from ..daemon import ConfigError, is_loopback
    from . import CliError

    daemon = prepared(args)

    async def main() -> None:
        ready, stopping = asyncio.Event(), asyncio.Event()
        # SIGTERM and SIGINT (systemd's stop, Ctrl-C) inside the loop only ask the daemon to
        # stop: raised as an exception, or a cancel, they land in whichever task runs (uvicorn's
        # re-raises them), a traceback at every stop, or a stop cut short
        for sig in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(sig, stopping.set)
        task = asyncio.create_task(daemon.run(create_app, ready))
        await _first(task, ready, stopping)
        if task.done() or stopping.is_set():
            await _ended(task)
            return
        where = f"simulated board on {daemon.sim.port}" if daemon.sim else \
            f"board on {daemon.conn.port_name if daemon.conn else '?'}"
        print(f"botboard: {where}, game {daemon.game_name}", flush=True)
        terminal = sys.stdout.isatty()
        _show_console(daemon, terminal)
        _say_resumed(daemon, args)  # after the address: what reads the first two lines finds it
        if daemon.remote_role == "host":  # what the other tables need to join
            _show_room_link(daemon.remote_url, terminal)
        if terminal and not is_loopback(daemon.config.listen):  # a tablet at the table scans it
            segno.make(daemon.console_url, error="m").terminal(compact=True)
            print("(the console's Seats panel has each player's own link and code)", flush=True)
        await _first(task, stopping)
        await _ended(task)

    signal.signal(signal.SIGTERM, _interrupt)  # stopped as by Ctrl-C: the board and console go with it
    try:
        asyncio.run(main())
    except ConfigError as err:
        raise CliError(str(err)) from err
    except KeyboardInterrupt:
        pass
    finally:
        daemon.stop()
    return 0
