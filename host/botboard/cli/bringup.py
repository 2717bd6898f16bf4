"""``botboard bringup``: a newly built board's first hour, in the console and at the terminal."""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
from typing import Any

from ..board import layouts
from .sim import add_fault_argument
from . import values

DEFAULT_PORT = 8700


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bringup", help="a new board's first hour: map LEDs, readers and buttons, "
                       "check the supply, write a corrected layout",
                       description="Light each LED chain's cells and click where they lit, lay a tile "
                       "in each slot, press each button, measure the LED supply at full white; each "
                       "fault is named with what to do, and a corrected layout is written (and shown "
                       "as a diff), ready to deploy. Open the printed address (the page /bringup); at "
                       "a terminal, Enter starts it and answers 'nothing lit / not heard / no press', "
                       "and 'Q R' names the cell that lit (docs/first-hour.md).")
    p.add_argument("--port", default=None, help="the board's serial port (default: a plugged-in "
                   "Pico, else the simulated board)")
    p.add_argument("--layout", default="ttb-small", help="the layout the board was built to: "
                   + ", ".join(layouts.names()) + " (default ttb-small)")
    p.add_argument("--out", metavar="PATH", default=None,
                   help="where to write the corrected layout (default DATA_DIR/layouts/LAYOUT.json)")
    p.add_argument("--data-dir", default=None, help="the data directory (default: var/)")
    p.add_argument("--steps", default="leds,readers,buttons,supply",
                   help="the steps to run, in order (default leds,readers,buttons,supply)")
    p.add_argument("--console-port", type=values.TCP_PORT, default=DEFAULT_PORT, help="console TCP port (default 8700)")
    p.add_argument("--token", default=None, help="token every console request must carry")
    p.add_argument("--start", action="store_true", help="start at once (else: Start in the console, "
                   "or Enter at the terminal)")
    p.add_argument("--exit", action="store_true", help="stop once the corrected layout is written")
    p.add_argument("--deploy", action="store_true", help="deploy the corrected layout to the board "
                   "when done (a real board; docs/flashing.md)")
    add_fault_argument(p)
    p.set_defaults(func=_run, preflight=check)


def check(args: argparse.Namespace) -> list[str]:
    """The layout, its faults and the steps, before the board starts; the steps returned."""
    from ..board import sim_faults
    from ..board.layouts import LayoutError
    from ..bringup.flow import STEPS
    from . import CliError, checks

    layout = checks.layout(args.layout)
    checks.port(args.port)
    try:
        sim_faults.parse(args.fault, layout)
    except LayoutError as err:
        raise CliError(str(err)) from err
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    if not set(steps) <= set(STEPS):
        raise CliError(f"--steps {args.steps[:40]!r}: give some of {','.join(STEPS)}, comma-separated")
    return steps


def _run(args: argparse.Namespace) -> int:
    from ..board.deploy import DeployError, deploy
    from ..board.layouts import LayoutError
    from ..board.tools import ToolError
    from ..console.app import create_app
    from ..daemon import ConfigError, Daemon, DaemonConfig
    from ..session.host import data_dir
    from . import CliError

    steps = check(args)
    try:
        out = args.out or str(data_dir(args.data_dir) / "layouts" / f"{layouts.load(args.layout).id}.json")
        daemon = Daemon(DaemonConfig(port=args.port, layout=args.layout, console_port=args.console_port,
                                     token=args.token, data_dir=args.data_dir, faults=tuple(args.fault),
                                     bringup=out))
    except (ConfigError, LayoutError) as err:
        raise CliError(str(err)) from err

    async def main() -> bool:
        task = await daemon.start(create_app)
        if task.done():
            return False
        flow = daemon.bringup
        url = daemon.console_url.replace("/?", "/bringup?") if "?" in daemon.console_url \
            else daemon.console_url + "bringup"
        board = f"simulated board on {daemon.sim.port}" if daemon.sim else \
            f"board on {daemon.conn.port_name if daemon.conn else '?'}"
        print(f"botboard bringup: {board}, layout {daemon.layout.id}\nconsole: {url}", flush=True)
        await _connected(daemon)
        loop = asyncio.get_running_loop()
        if sys.stdin.isatty():
            threading.Thread(target=_terminal, args=(loop, flow, steps), daemon=True).start()
        if args.start:
            try:
                flow.start(steps)
            except ToolError as err:
                raise CliError(str(err)) from err
        deploy_now = asyncio.create_task(flow.deploy_requested.wait())
        await asyncio.wait({task, deploy_now, asyncio.create_task(_report(flow, args.exit, args.deploy))},
                           return_when=asyncio.FIRST_COMPLETED)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return flow.deploy_requested.is_set()

    try:
        wants_deploy = asyncio.run(main())
    except ConfigError as err:
        raise CliError(str(err)) from err
    except KeyboardInterrupt:
        return 0
    finally:
        daemon.stop()
    if daemon.bringup is not None and daemon.bringup.state == "failed":
        raise CliError(daemon.bringup.prompt)
    if wants_deploy and daemon.conn is not None:
        try:  # the console and the link have let go of the port: the deploy has it alone
            deploy(daemon.conn.port_name, out)
        except (DeployError, LayoutError) as err:
            raise CliError(str(err)) from err
    return 0


async def _connected(daemon: Any) -> None:
    while daemon.conn is None or daemon.conn.state != "connected":
        await asyncio.sleep(0.1)


async def _report(flow: Any, exit_when_done: bool, deploy: bool) -> None:
    """Print each question and finding once, then the result; returns when done (with --exit or
    --deploy), else runs until Ctrl-C (the console stays open)."""
    prompt, told, result_told = "", 0, None
    while True:
        told = min(told, len(flow.findings))  # a new run starts its list afresh
        for finding in flow.findings[told:]:
            print(f"FAULT {finding.fault}: {finding.words}", flush=True)
        told = len(flow.findings)
        if flow.prompt != prompt:
            prompt = flow.prompt
            print(f"> {prompt}", flush=True)
        if flow.state in ("done", "failed") and flow.result is not result_told:
            result_told = flow.result  # a new run makes a new one
            fig = flow.figures
            if fig:
                print(f"LED rail: {fig['dark_mv']} mV dark ({fig['dark_ma']} mA), {fig['lit_mv']} mV "
                      f"at full white ({fig['lit_ma']} mA)"
                      + (f"; about {fig['source_mohm']} mOhm to the supply" if "source_mohm" in fig else ""),
                      flush=True)
            if flow.result:
                print(flow.result["diff"] or "(the layout is unchanged)", flush=True)
                print(f"corrected layout: {flow.result['path']}", flush=True)
            if deploy and flow.result and flow.state == "done":
                flow.deploy_requested.set()
            if exit_when_done or deploy:
                return
        await asyncio.sleep(0.1)


def _terminal(loop: asyncio.AbstractEventLoop, flow: Any, steps: list[str]) -> None:
    """Answers typed at the terminal: Enter starts, or says nothing lit / not heard / no press;
    'Q R' (or 'Q,R') is the cell that lit."""
    from ..board.tools import ToolError

    for line in sys.stdin:
        words = line.replace(",", " ").split()

        def act(words: list[str] = words) -> None:
            try:
                if flow.state != "running":
                    flow.start(steps)
                else:
                    flow.answer([int(w) for w in words] if words else None)
            except (ToolError, ValueError) as err:
                print(f"  {err}", flush=True)
        loop.call_soon_threadsafe(act)
