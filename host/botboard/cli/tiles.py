"""``botboard tiles``: a game's tiles: list them, write one to a tag, enroll tags that cannot be written.

Every game's tiles come from its declared catalogue (games/catalogue.py), so
this command knows no game: a tile is given by its fields, as the console's
picker shows them, e.g. ``botboard tiles write --game volt colour=red owner=blue``.
``kinds`` lists a game's fields and their choices. ``write`` puts the tile's
payload (docs/tiles.md) on the tag lying on a slot's reader: the board writes
it (WRITE_TAG, docs/protocol.md), reads it back and announces the tile.
``enroll`` records the uid of a tag that cannot be written (read-only, or
another format) in the data directory's registry; ``list`` shows those.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from typing import Any

from .. import games
from . import values


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("tiles", help="a game's tiles: list them, write their tags, enroll read-only tags")
    verbs = p.add_subparsers(dest="verb", metavar="VERB", required=True)
    game_help = "the game: " + ", ".join(games.names()) + f" (default {games.default_name()})"
    spec_help = "the tile by its fields, e.g. kind=F1 colour=red (`botboard tiles kinds --game G` lists them)"

    k = verbs.add_parser("kinds", help="a game's tile fields and their choices (what a tile is picked by)")
    k.add_argument("--game", default=None, help=game_help)
    k.add_argument("--all", action="store_true", help="every tile of the game with its payload instead")
    k.set_defaults(func=_kinds)

    w = verbs.add_parser("write", help="write a tile's payload to the tag on a slot's reader")
    w.add_argument("--port", required=True, help="the board's serial port")
    w.add_argument("--game", default=None, help=game_help)
    w.add_argument("spec", nargs="+", metavar="FIELD=VALUE", help=spec_help)
    w.add_argument("--slot", type=values.whole(0, 255), default=0, help="slot (reader) index (default 0)")
    w.add_argument("--serial", type=values.whole(0, 2**32 - 1), default=1, help="serial number written, to tell copies apart "
                   "(default 1; games whose tiles are unique write their own)")
    w.epilog = "The port must be free: with `botboard run` going, write from its console."
    w.set_defaults(func=_write, preflight=_check_write)

    e = verbs.add_parser("enroll", help="register a tag that has no payload as a tile")
    e.add_argument("--uid", required=True, help="the tag's uid in hex (the console's trace shows it)")
    e.add_argument("--game", default=None, help=game_help)
    e.add_argument("spec", nargs="+", metavar="FIELD=VALUE", help=spec_help)
    e.add_argument("--data-dir", default=None, help="registry directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    e.set_defaults(func=_enroll, preflight=_check_enroll)

    ls = verbs.add_parser("list", help="the enrolled tags of a game")
    ls.add_argument("--game", default=None, help=game_help)
    ls.add_argument("--data-dir", default=None)
    ls.set_defaults(func=_list)


def _catalogue(name: str | None) -> Any:
    from . import CliError

    try:
        return games.catalogue(games.canonical(name or games.default_name()))
    except games.GameError as err:
        raise CliError(f"--game {name}: {err}" if name else str(err)) from err


def _tile(catalogue: Any, items: list[str]) -> Any:
    """The tile FIELD=VALUE items describe; CliError naming what is wrong."""
    from ..games.catalogue import TileError
    from . import CliError

    spec: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            fields = ", ".join(f.name for f in catalogue.fields())
            raise CliError(f"{item!r}: give the tile as FIELD=VALUE; {catalogue.title}'s fields are "
                           f"{fields} (`botboard tiles kinds` lists their values)")
        spec[key.strip()] = value.strip()
    try:
        return catalogue.make(spec)
    except TileError as err:
        raise CliError(f"FIELD=VALUE {' '.join(items)[:60]!r}: {err} (`botboard tiles kinds` lists "
                       "the fields and their values)") from err


def _kinds(args: argparse.Namespace) -> int:
    catalogue = _catalogue(args.game)
    if args.all:
        print(json.dumps({catalogue.words(t): catalogue.payload(t).hex() for t in catalogue.every_tile()}))
    else:
        print(json.dumps({"game": games.canonical(args.game or games.default_name()),
                          "fields": [f.to_json() for f in catalogue.fields()]}, indent=1))
    return 0


def _check_write(args: argparse.Namespace) -> Any:
    """The tile and its payload, before the port is opened."""
    from . import checks

    checks.port(args.port)
    catalogue = _catalogue(args.game)
    tile = _tile(catalogue, args.spec)
    return catalogue, tile


def _check_enroll(args: argparse.Namespace) -> tuple[Any, Any, bytes]:
    from . import CliError

    catalogue = _catalogue(args.game)
    tile = _tile(catalogue, args.spec)
    try:
        uid = bytes.fromhex(args.uid)
    except ValueError as err:
        raise CliError(f"--uid {args.uid[:40]!r}: not hex ({err}); give the tag's uid as the console's trace shows it") from err
    if not 4 <= len(uid) <= 10:
        raise CliError(f"--uid {args.uid[:40]!r}: expected 4 to 10 bytes in hex (NTAG213: 7)")
    return catalogue, tile, uid


def _write(args: argparse.Namespace) -> int:
    from ..link.connection import BoardConnection, HandshakeError
    from ..link.tags import TagWriteError, write_tag
    from ..link.transport import PortError
    from . import CliError

    catalogue, tile = _check_write(args)
    data = catalogue.payload(tile, args.serial)

    async def write() -> bytes:
        conn = BoardConnection(args.port)
        try:
            info = await conn.connect()
            if not 0 <= args.slot < info.slots:
                raise CliError(f"no slot {args.slot}: the board has slots 0..{info.slots - 1}")
            return await write_tag(conn, args.slot, data)
        finally:
            conn.close()

    try:
        uid = asyncio.run(write())
    except (PortError, HandshakeError, TagWriteError) as err:
        hint = " (is `botboard run` holding the port? write from its console instead)" \
            if isinstance(err, PortError) and "busy" in str(err) else ""
        raise CliError(f"{err}{hint}") from err
    print(json.dumps({"slot": args.slot, "uid": uid.hex(), "tile": catalogue.words(tile),
                      "payload": data.hex()}))
    return 0


def _registry(args: argparse.Namespace) -> Any:
    from ..session.enrolled import Enrolled, EnrolledError
    from ..session.host import data_dir
    from . import CliError

    catalogue = _catalogue(args.game)  # an unknown game: CliError with the known ones
    try:
        return Enrolled(data_dir(args.data_dir), games.canonical(args.game or games.default_name()), catalogue)
    except EnrolledError as err:
        raise CliError(str(err)) from err


def _enroll(args: argparse.Namespace) -> int:
    catalogue, tile, uid = _check_enroll(args)
    registry = _registry(args)
    registry.enroll(uid, tile)
    print(json.dumps({"uid": uid.hex(), "tile": catalogue.words(tile), "registry": str(registry.path)}))
    return 0


def _list(args: argparse.Namespace) -> int:
    registry = _registry(args)
    print(json.dumps({uid: registry.catalogue.words(t) for uid, t in registry.tags.items()}))
    return 0
