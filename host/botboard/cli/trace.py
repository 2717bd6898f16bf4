"""``botboard trace``: the decoded frames between a running daemon and its board, live."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, Callable

from . import checks
from .console_client import ConsoleClient, add_console_arguments
from . import values

QUIET = {"ping", "pong", "ack", "nak", "get_state", "state"}


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("trace", help="live decoded frames between the daemon and the board",
                       description="Print the frames a running daemon (`botboard run`) exchanges "
                       "with its board, decoded, with timestamps, as they happen. Heartbeats "
                       "(ping/pong) and state polls are hidden unless --all.")
    add_console_arguments(p)
    p.add_argument("--type", action="append", default=[], metavar="TYPE",
                   help="only these message types (repeatable or comma-separated: slot,button)")
    p.add_argument("--dir", choices=("in", "out"), help="only frames from the board (in) or to it (out)")
    p.add_argument("--grep", metavar="TEXT", help="only frames whose text contains TEXT")
    p.add_argument("--all", action="store_true", help="include ping/pong, acks and state polls")
    p.add_argument("--history", type=values.whole(0, 10**9), default=0, metavar="N",
                   help="first print the last N frames the daemon kept")
    p.add_argument("--count", type=values.whole(0, 10**9), default=0, metavar="N", help="stop after N frames")
    p.add_argument("--for", dest="seconds", type=values.SECONDS, default=0.0, metavar="S",
                   help="stop after S seconds")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.set_defaults(func=run, preflight=checks.console)


def frame_filter(args: argparse.Namespace) -> Callable[[dict[str, Any]], bool]:
    types = {t.strip() for group in args.type for t in group.split(",") if t.strip()}

    def wanted(frame: dict[str, Any]) -> bool:
        kind = frame.get("type", "")
        if types and kind not in types:
            return False
        if not types and not args.all and kind in QUIET:
            return False
        if args.dir and frame.get("dir") != args.dir:
            return False
        return not args.grep or args.grep.lower() in line(frame).lower()

    return wanted


def line(frame: dict[str, Any]) -> str:
    t = frame.get("t", 0.0)
    stamp = time.strftime("%H:%M:%S", time.localtime(t)) + f".{int(t * 1000) % 1000:03d}"
    fields = " ".join(f"{k}={json.dumps(v) if isinstance(v, (dict, list)) else v}"
                      for k, v in frame.items() if k not in ("t", "dir", "type"))
    arrow = "<- in " if frame.get("dir") == "in" else "-> out"
    return f"{stamp} {arrow} {frame.get('type')} {fields}".rstrip()


def run(args: argparse.Namespace) -> int:
    client = ConsoleClient.from_args(args)
    wanted = frame_filter(args)
    printed = 0
    deadline = time.monotonic() + args.seconds if args.seconds else None

    def emit(frame: dict[str, Any]) -> bool:
        nonlocal printed
        if wanted(frame):
            print(json.dumps(frame) if args.json else line(frame), flush=True)
            printed += 1
        return bool(args.count and printed >= args.count)

    if args.history:
        for frame in client.get(f"/api/trace?limit={min(args.history, 2000)}"):
            if emit(frame):
                return 0
    def opened() -> None:
        print(f"botboard trace: following {client.base} (Ctrl-C stops)", file=sys.stderr, flush=True)

    for event in client.events(on_open=opened):
        if event.get("kind") == "frames":
            for frame in event["messages"]:
                if emit(frame):
                    return 0
        if deadline and time.monotonic() > deadline:  # status events arrive every second
            return 0
    return 0
