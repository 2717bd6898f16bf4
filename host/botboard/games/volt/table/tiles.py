"""Dice as tiles: a die's tag says its colour and whose it is, never its face.

    die_payload(colour, seat, serial)   the 16 bytes `botboard tiles write --game volt --die red` writes
    die_from_payload(data) -> Die       or TileError saying what is wrong and what to do

A VOLT die tag carries, in the shared payload format (docs/tiles.md), game id
4, kind 0 for red and 1 for blue, the operator's seat as its colour byte
(255: anybody's die) and a serial. An NFC tag cannot tell which face of a
die is up: the face and the key are set on the operator's phone
(docs/playing-volt.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from bbshared import tilepayload

from ....session.mapping import TileError

GAME_ID = next(k for k, v in tilepayload.GAMES.items() if v == "volt")
COLOURS = ("red", "blue")
ANYBODY = 255
_REWRITE = "write it again with `botboard tiles write --game volt --die red|blue`"


@dataclass(frozen=True)
class DieTile:
    colour: str  # red or blue
    owner: int  # seat, or ANYBODY
    serial: int

    def __str__(self) -> str:
        return f"{self.colour} die"


def die_payload(colour: str, owner: int = ANYBODY, serial: int = 1) -> bytes:
    if colour not in COLOURS:
        raise TileError(f"a VOLT die is red or blue, not {colour!r}")
    return bytes(tilepayload.encode(GAME_ID, COLOURS.index(colour), owner, serial))


def die_from_payload(data: bytes) -> DieTile:
    try:
        game, kind, owner, serial = tilepayload.decode(data)
    except ValueError as err:
        raise TileError(f"{err}: {_REWRITE}") from err
    if game != GAME_ID:
        raise TileError(f"this tag is a {tilepayload.GAMES.get(game, f'game {game}')} tile, not a "
                        "VOLT die: take it out")
    if kind >= len(COLOURS):
        raise TileError(f"die kind {kind} is neither red (0) nor blue (1): {_REWRITE}")
    return DieTile(COLOURS[kind], owner, serial)


def virtual_uid(tile: DieTile) -> bytes:
    """A stable 7-byte NTAG-like uid for the simulated tag of a die."""
    owner = tile.owner & 0xFF
    return bytes((0x04, GAME_ID, COLOURS.index(tile.colour), owner, (tile.serial >> 8) & 0xFF,
                  tile.serial & 0xFF, 0x80))
