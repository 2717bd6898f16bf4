"""``botboard tiles``: write a tile's payload to a tag, or enroll tags that cannot be written.

``write`` puts the payload (docs/tiles.md) on the tag lying on a slot's
reader. The board protocol has no tag-writing message yet, so writing works
against the simulated board, through its control socket (the virtual tag on
that slot is replaced by one carrying the payload); on a real board it says
so. ``enroll`` records a tag's uid in the data directory's registry instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tiles", help="write tile payloads to tags, or enroll read-only tags")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    w = verbs.add_parser("write", help="write a tile's payload to the tag on a slot's reader")
    w.add_argument("--port", required=True, help="the board's serial port")
    w.add_argument("--control", default=None, metavar="HOST:PORT",
                   help="the simulated board's control socket (required: see the module doc)")
    w.add_argument("--kind", required=True, help="tile code, e.g. F1, L, UL, LZ")
    w.add_argument("--colour", default=None, help="player colour (order tiles); none for specials")
    w.add_argument("--slot", type=int, default=0, help="slot (reader) index (default 0)")
    w.add_argument("--serial", type=int, default=1, help="serial number written (default 1)")
    w.set_defaults(func=_write)
    e = verbs.add_parser("enroll", help="register a tag that has no payload as a tile")
    e.add_argument("--uid", required=True, help="the tag's uid in hex (the console's trace shows it)")
    e.add_argument("--kind", required=True)
    e.add_argument("--colour", default=None)
    e.add_argument("--data-dir", default=None, help="registry directory (default ./var)")
    e.set_defaults(func=_enroll)
    ls = verbs.add_parser("list", help="the enrolled tags")
    ls.add_argument("--data-dir", default=None)
    ls.set_defaults(func=_list)


def _write(args: argparse.Namespace) -> int:
    from ..session.tiles import TileError, make_tile, payload, virtual_uid
    from ..sim_control import SimControl, SimControlError
    from . import CliError

    try:
        tile = make_tile(args.kind, args.colour)
    except TileError as err:
        raise CliError(str(err)) from err
    if not args.control:
        raise CliError(f"{args.port}: the board protocol has no tag-writing message yet, so only "
                       "the simulated board's tags can be written (give --control HOST:PORT); "
                       "for a real tag use `botboard tiles enroll`")
    data = payload(tile, args.serial)
    host, _, port = args.control.rpartition(":")

    async def write() -> None:
        ctl = SimControl(host or "127.0.0.1", int(port))
        try:
            await ctl.place(args.slot, virtual_uid(tile, args.serial), data)
        finally:
            ctl.close()

    try:
        asyncio.run(write())
    except SimControlError as err:
        raise CliError(str(err)) from err
    print(json.dumps({"slot": args.slot, "tile": str(tile), "payload": data.hex()}))
    return 0


def _enroll(args: argparse.Namespace) -> int:
    from ..session.host import data_dir
    from ..session.tiles import Registry, TileError, make_tile
    from . import CliError

    try:
        tile = make_tile(args.kind, args.colour)
        uid = bytes.fromhex(args.uid)
    except (TileError, ValueError) as err:
        raise CliError(str(err)) from err
    if not 4 <= len(uid) <= 10:
        raise CliError(f"uid {args.uid}: expected 4 to 10 bytes in hex (NTAG213: 7)")
    registry = Registry(data_dir(args.data_dir))
    registry.enroll(uid, tile)
    print(json.dumps({"uid": uid.hex(), "tile": str(tile), "registry": str(registry.path)}))
    return 0


def _list(args: argparse.Namespace) -> int:
    from ..session.host import data_dir
    from ..session.tiles import Registry

    registry = Registry(data_dir(args.data_dir))
    print(json.dumps({uid: str(t) for uid, t in registry.tags.items()}))
    return 0
