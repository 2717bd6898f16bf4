"""``botboard tiles``: write a tile's payload to a tag, or enroll tags that cannot be written.

``write`` puts the payload (docs/tiles.md) of a Twin Tin Bots tile
(``--kind``), a BotWars card (``--game botwars --card FWD2:670``) or a
Goblins, Inc. tile on the tag lying on a slot's reader: the board writes it
(WRITE_TAG, docs/protocol.md), reads it back and announces the tile.
``enroll`` records the uid of a tag that cannot be written (read-only, or
another format) in the data directory's registry.
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
    w.add_argument("--game", choices=("twin-tin-bots", "ttb", "botwars", "volt"), default=None,
                   help="the tile's game (default: twin-tin-bots for --kind, botwars for --card, "
                        "volt for --die)")
    w.add_argument("--kind", help="Twin Tin Bots tile code, e.g. F1, L, UL, LZ")
    w.add_argument("--card", metavar="KIND:PRIORITY", help="BotWars program card, e.g. FWD2:670")
    w.add_argument("--die", choices=("red", "blue"), help="a VOLT die (its face is set on the phone)")
    w.add_argument("--colour", default=None,
                   help="player colour (TTB order tiles; none for specials); a VOLT die's operator "
                        "(red, blue, green, yellow; none: anybody's)")
    w.add_argument("--goblins-tile", type=int, metavar="ID",
                   help="instead: the Goblins, Inc. construction tile ID of --box, with its definition")
    w.add_argument("--box", default="placeholder",
                   help="Goblins, Inc. box file (default: the shipped placeholder box)")
    w.add_argument("--slot", type=int, default=0, help="slot (reader) index (default 0)")
    w.add_argument("--serial", type=int, default=1, help="serial number written (default 1)")
    w.epilog = "The port must be free: with `botboard run` going, write from its console."
    w.set_defaults(func=_write)
    e = verbs.add_parser("enroll", help="register a tag that has no payload as a tile")
    e.add_argument("--uid", required=True, help="the tag's uid in hex (the console's trace shows it)")
    e.add_argument("--kind", required=True)
    e.add_argument("--colour", default=None)
    e.add_argument("--data-dir", default=None, help="registry directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    e.set_defaults(func=_enroll)
    rb = verbs.add_parser("read-box", help="Goblins, Inc.: the box file's tile list from the "
                          "construction tiles lying on the board's readers")
    rb.add_argument("--port", required=True, help="the board's serial port")
    rb.add_argument("--settle", type=float, default=1.5, help="seconds to collect the slots' tags")
    rb.set_defaults(func=_read_box)
    ls = verbs.add_parser("list", help="the enrolled tags (--game botwars: the deck's card tags)")
    ls.add_argument("--data-dir", default=None)
    ls.add_argument("--game", choices=("twin-tin-bots", "ttb", "botwars"), default="twin-tin-bots")
    ls.set_defaults(func=_list)


def _write(args: argparse.Namespace) -> int:
    from ..link.connection import BoardConnection, HandshakeError
    from ..link.tags import TagWriteError, write_tag
    from ..link.transport import PortError
    from ..games.twintinbots.table.tiles import TileError, make_tile, payload
    from . import CliError

    try:
        if args.goblins_tile is not None:
            label, data = _goblins_tile(args.box, args.goblins_tile)
        elif args.card or args.game == "botwars":
            label, data = _botwars_card(args.card, args.game)
        elif args.die or args.game == "volt":
            label, data = _volt_die(args.die, args.colour, args.serial)
        elif args.kind:
            tile = make_tile(args.kind, args.colour)
            label, data = str(tile), payload(tile, args.serial)
        else:
            raise CliError("say which tile: --kind (Twin Tin Bots), --card (BotWars), --die (VOLT) or "
                           "--goblins-tile (Goblins, Inc.)")
    except TileError as err:
        raise CliError(str(err)) from err

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
    print(json.dumps({"slot": args.slot, "uid": uid.hex(), "tile": label, "payload": data.hex()}))
    return 0


def _botwars_card(text: str | None, game: str | None) -> tuple[str, bytes]:
    from ..games.botwars.cards import deck
    from ..games.botwars.table.tiles import card_payload, parse_card
    from . import CliError

    if game not in (None, "botwars"):
        raise CliError(f"--card is a BotWars card: say --game botwars, not {game}")
    if not text:
        raise CliError("say which card: --card KIND:PRIORITY, e.g. FWD2:670")
    card = parse_card(text)
    return deck().name(card), card_payload(card)


def _volt_die(colour: str | None, owner: str | None, serial: int) -> tuple[str, bytes]:
    from ..games.volt.table.leds import SEAT_COLOURS
    from ..games.volt.table.tiles import ANYBODY, die_payload
    from . import CliError

    if colour is None:
        raise CliError("say which die: --die red or --die blue")
    if owner is not None and owner not in SEAT_COLOURS:
        raise CliError(f"--colour {owner}: a VOLT operator is one of {', '.join(SEAT_COLOURS)}")
    seat = SEAT_COLOURS.index(owner) if owner else ANYBODY
    return f"{colour} die" + (f" of {owner}" if owner else ""), die_payload(colour, seat, serial)


def _goblins_tile(box_ref: str, tile_id: int) -> tuple[str, bytes]:
    from ..games.goblins import tagcodec
    from ..games.goblins.tiles import BoxError, load_box
    from . import CliError

    try:
        box = load_box(box_ref)
        tile = box.tiles[tile_id]
        return tile.describe(), tagcodec.encode(tile)
    except KeyError:
        raise CliError(f"no tile {tile_id} in box {box_ref!r}") from None
    except (BoxError, tagcodec.TagError) as err:
        raise CliError(str(err)) from err


def _read_box(args: argparse.Namespace) -> int:
    """Collect the payloads of the tags on the readers (the board's census after the
    handshake, then arrivals for --settle seconds) and print the box file's tiles."""
    from bbshared import messages as m

    from ..games.goblins import tagcodec
    from ..link.connection import BoardConnection, HandshakeError, Message
    from ..link.transport import PortError
    from . import CliError

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


def _enroll(args: argparse.Namespace) -> int:
    from ..session.host import data_dir
    from ..games.twintinbots.table.tiles import Registry, TileError, make_tile
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
    from ..games.twintinbots.table.tiles import Registry

    if args.game == "botwars":  # cards carry their payload: nothing is enrolled, every card can be written
        from ..games.botwars.cards import deck
        from ..games.botwars.table.tiles import card_payload

        cards = deck()
        print(json.dumps({cards.name(c): card_payload(c).hex() for c in cards.base + cards.upgrade}))
        return 0
    registry = Registry(data_dir(args.data_dir))
    print(json.dumps({uid: str(t) for uid, t in registry.tags.items()}))
    return 0
