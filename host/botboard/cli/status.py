"""``botboard status``: one JSON object about a running daemon: link, firmware, game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import checks
from .console_client import ConsoleClient, add_console_arguments


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("status", help="link, firmware and game of a running daemon, as JSON",
                       description="Ask a running daemon (`botboard run`) how its board link, the "
                       "board's firmware and the game are doing; print one JSON object. Exit "
                       "status 0 when the board is connected, 1 when the daemon runs but the board "
                       "is not connected, 2 when no daemon answers.")
    add_console_arguments(p)
    p.add_argument("--full", action="store_true", help="include the per-slot readings and raw link counters")
    p.set_defaults(func=run, preflight=checks.console)


def summary(status: dict[str, Any], full: bool = False) -> dict[str, Any]:
    link = dict(status.get("link", {}))
    board = link.pop("board", None) or {}
    counters = link.pop("link", {})
    tools = status.get("tools", {})
    out: dict[str, Any] = {
        "link": {k: link.get(k) for k in ("state", "connected", "port", "rtt_ms", "frames_in",
                                          "frames_out", "checksum_errors", "retransmits",
                                          "reconnects", "last_error")},
        # the board's own link counters (LINK_STATS); null until it answered, or
        # with firmware too old to report them (board_link_supported false)
        "board_link": _board_link(link, full),
        "board_errors": link.get("board_error_kinds", {}),
        # the readers with errors counted since the board booted (READER_STATS), by
        # slot: crc_errors, collisions, over_temperature (episodes), hot (now);
        # null until the board answered, or with firmware too old to count them
        "readers": link.get("board_readers"),
        "firmware": {"version": board.get("firmware"), "protocol": board.get("protocol"),
                     "layout": board.get("layout"), "cells": board.get("cells"),
                     "slots": board.get("slots"), "buttons": board.get("buttons"),
                     "heap_free": link.get("heap_free")} if board else None,
        "game": status.get("game"),
        "layout": status.get("layout"),
        "simulated": status.get("simulated"),
        "slots_occupied": [i for i, s in enumerate(tools.get("slots", [])) if s.get("present")],
    }
    if full:
        out["link"]["counters"] = counters
        out["tools"] = tools
    return out


def _board_link(link: dict[str, Any], full: bool) -> dict[str, Any] | None:
    counters = link.get("board_link")
    if counters is None:
        return None
    if full:
        return dict(counters)
    return {"checksum_errors": counters.get("crc_errors", 0) + counters.get("cobs_errors", 0),
            **{k: counters.get(k) for k in ("oversize", "version_errors", "unknown_types",
                                            "retransmits", "events_dropped")}}


def run(args: argparse.Namespace) -> int:
    status = ConsoleClient.from_args(args).get("/api/status")
    out = summary(status, args.full)
    print(json.dumps(out, indent=2))
    if not out["link"].get("connected"):
        print(f"botboard status: the daemon runs but the board is not connected (link "
              f"{out['link'].get('state')}{': ' + out['link']['last_error'] if out['link'].get('last_error') else ''})",
              file=sys.stderr)
        return 1
    return 0
