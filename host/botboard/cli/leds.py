"""``botboard leds``: LED test and LED settings on a running daemon's board."""

from __future__ import annotations

import argparse
import json
import sys
import time

from . import CliError
from . import checks
from .console_client import ConsoleClient, add_console_arguments
from . import values


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("leds", help="LED test, brightness and power limit of the board",
                       description="Maker tools for the board's LEDs, through a running daemon "
                       "(`botboard run`).")
    leds = p.add_subparsers(dest="leds_command", metavar="ACTION", required=True)
    test = leds.add_parser("test", help="light each LED, then each cell, in chain order",
                           description="Light each LED of each cell (centre, then each side), "
                           "then each whole cell, one after another in LED-chain order, to check "
                           "the wiring; then put back what the board showed. Waits until the test "
                           "ends and prints a JSON summary.")
    add_console_arguments(test)
    test.add_argument("--step-ms", type=values.whole(1, 60_000), default=60, help="time each step stays lit (default 60)")
    test.add_argument("--phase", choices=("all", "leds", "cells"), default="all",
                      help="each LED, each cell, or both (default all)")
    test.add_argument("--no-wait", action="store_true", help="start the test and return")
    test.set_defaults(func=run_test, preflight=checks.console)
    config = leds.add_parser("config", help="set brightness and/or the LED power limit",
                             description="Send the board its LED brightness (0..255) and/or "
                             "LED current budget in mA (SET_CONFIG).")
    add_console_arguments(config)
    config.add_argument("--brightness", type=values.whole(0, 255), help="0..255")
    config.add_argument("--power-ma", type=values.whole(0, 100_000), help="LED current budget in mA (0: no limit)")
    config.set_defaults(func=run_config, preflight=checks.console)


def run_test(args: argparse.Namespace) -> int:
    client = ConsoleClient.from_args(args)
    test = client.post("/api/tools/led-test", {"step_ms": args.step_ms, "phase": args.phase})
    if args.no_wait:
        print(json.dumps(test))
        return 0
    started, shown = time.monotonic(), -1
    try:
        while test.get("running"):
            time.sleep(0.25)
            test = client.get("/api/status")["tools"]["led_test"]
            if sys.stderr.isatty() and test["step"] != shown:
                shown = test["step"]
                print(f"\r{test['phase']}: cell {test['cell']} ({test['step']}/{test['steps']})",
                      end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        client.post("/api/tools/led-test/stop", {})
        raise CliError("LED test stopped; the board shows what it showed before") from None
    if sys.stderr.isatty():
        print(file=sys.stderr)
    print(json.dumps({"steps": test["steps"], "completed": test["step"],
                      "seconds": round(time.monotonic() - started, 1)}))
    return 0 if test["step"] == test["steps"] else 1


def run_config(args: argparse.Namespace) -> int:
    body = {k: v for k, v in (("brightness", args.brightness), ("power_ma", args.power_ma)) if v is not None}
    if not body:
        raise CliError("give --brightness N and/or --power-ma N")
    print(json.dumps(ConsoleClient.from_args(args).post("/api/tools/config", body)))
    return 0
