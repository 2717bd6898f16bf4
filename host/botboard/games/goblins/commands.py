"""``botboard goblins read-box``: a box file's tile list from the construction tiles on the readers.

Every construction tile's tag carries its whole definition (tagcodec.py), so
laying a physical box's tiles on the board's readers once defines the box.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from ...cli import CliError
from ...cli import checks, values


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("goblins", help="Goblins, Inc. tools (docs/goblins.md)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    rb = verbs.add_parser("read-box", help="the box file's tile list from the construction tiles "
                          "lying on the board's readers")
    rb.add_argument("--port", required=True, help="the board's serial port")
    rb.add_argument("--settle", type=values.number(0, 3600), default=1.5, help="seconds to collect the slots' tags")
    rb.set_defaults(func=_read_box, preflight=lambda args: checks.port(args.port))


def _read_box(args: argparse.Namespace) -> int:
    """Collect the payloads of the tags on the readers (the board's census after the
    handshake, then arrivals for --settle seconds) and print the box file's tiles."""
    from bbshared import messages as m

    from ...link.connection import BoardConnection, HandshakeError, Message
    from ...link.transport import PortError
    from . import tagcodec

    checks.port(args.port)
    payloads: dict[int, bytes] = {}

    def on_slot(msg: Message) -> None:
        if msg.type == m.SLOT:
            if msg.fields["present"] and msg.fields["payload"]:
                payloads[msg.fields["slot"]] = msg.fields["payload"]
            else:
                payloads.pop(msg.fields["slot"], None)

    async def collect() -> None:
        conn = BoardConnection(args.port)
        conn.listeners.append(on_slot)
        try:
            await conn.connect()
            await asyncio.sleep(args.settle)
        finally:
            conn.close()

    try:
        asyncio.run(collect())
        tiles = tagcodec.box_tiles(payloads.values())
    except (PortError, HandshakeError, tagcodec.TagError) as err:
        raise CliError(str(err)) from err
    if not tiles:
        raise CliError("no Goblins, Inc. construction tile on any reader: lay written tiles on the "
                       "yard's readers and try again")
    print(json.dumps({"tiles": tiles}, indent=1))
    return 0
