"""Damaged-link benchmark: the shared Link between two ends, on a virtual clock.

Bytes flipped, dropped and doubled at each rate given, with stalls; counts
how long (in link time, not machine time) a stream of small reliable
messages takes each way, how many frames were sent again, and checks that
every message arrived once and in order. The figures depend on the protocol
(window, timeouts, selective repeat), not on the machine.
"""

from __future__ import annotations

import argparse
import struct
from typing import Any

from bbshared import messages as m
from bbshared.link import Link

from .lossy import LinkPair
from ..cli import values


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rates", default="0.01,0.03,0.05", help="byte damage rates, comma-separated")
    p.add_argument("--messages", type=values.COUNT, default=2000, help="messages each way per rate")
    p.add_argument("--seed", type=values.SEED, default=3)


def numbered(i: int) -> bytes:
    """A SLOT event carrying its number in the uid: 20 bytes on the wire, like a button."""
    return m.encode(m.SLOT, i % 36, 1, struct.pack(">I", i), b"")


def numbers(received: list[tuple[int, bytes]]) -> list[int]:
    return [struct.unpack(">I", m.decode(t, p)[2])[0] for t, p in received]


def stream(pair: LinkPair, sender: Link, received: list[tuple[int, bytes]], total: int,
           max_steps: int = 5_000_000) -> bool:
    """Send ``total`` numbered messages; True once all are acknowledged."""
    sent = 0
    for _ in range(max_steps):
        while sent < total and sender.send(m.SLOT, numbered(sent)):
            sent += 1
        pair.step()
        if len(received) == total and sender.pending == 0:
            return True
    return False


def run(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {"messages": args.messages, "seed": args.seed}
    for rate in (float(r) for r in args.rates.split(",")):
        for direction in ("board_to_host", "host_to_board"):
            pair = LinkPair(args.seed, error_rate=rate)
            sender = pair.board if direction == "board_to_host" else pair.host
            received = pair.at_host if direction == "board_to_host" else pair.at_board
            done = stream(pair, sender, received, args.messages)
            out[f"{rate:g} {direction}"] = {
                "link_s": pair.now / 1000, "messages_per_link_s": round(args.messages / pair.now * 1000, 1),
                "retransmits": sender.stats["retransmits"], "all_once_in_order":
                done and numbers(received) == list(range(args.messages))}
    return out
