"""VOLT dice as tiles: what a die's tag carries, and `botboard tiles write --game volt` through the board."""

from __future__ import annotations

import json
import subprocess

import pytest

from bbshared import tilepayload
from botboard.games.volt.table import tiles
from botboard.session.mapping import TileError

from ..simboard import BOTBOARD, SimProcess


@pytest.mark.parametrize("colour", tiles.COLOURS)
def test_a_die_round_trips_through_its_tag_with_its_owner(colour: str) -> None:
    die = tiles.die_from_payload(tiles.die_payload(colour, 2, 7))
    assert (die.colour, die.owner, die.serial) == (colour, 2, 7)
    assert str(die) == f"{colour} die"


def test_another_games_tile_a_bad_kind_and_a_corrupt_tag_are_refused_in_words() -> None:
    with pytest.raises(TileError, match="a tile of BotWars, not of VOLT: take it out"):
        tiles.die_from_payload(bytes(tilepayload.encode(2, 0, 255, 670)))
    with pytest.raises(TileError, match="neither red .0. nor blue .1."):
        tiles.die_from_payload(bytes(tilepayload.encode(tiles.GAME_ID, 5, 255, 1)))
    corrupt = bytearray(tiles.die_payload("red"))
    corrupt[6] ^= 0xFF
    with pytest.raises(TileError, match="damaged.*colour=red.blue"):
        tiles.die_from_payload(bytes(corrupt))
    with pytest.raises(TileError, match="red or blue"):
        tiles.die_payload("green")


def test_virtual_uids_tell_dice_apart() -> None:
    uids = {tiles.virtual_uid(tiles.DieTile(c, o, s)) for c in tiles.COLOURS for o in (0, 1) for s in (1, 2)}
    assert len(uids) == 8 and all(len(u) == 7 and u[0] == 0x04 for u in uids)


def test_tiles_write_puts_a_die_on_the_tag_through_the_board() -> None:
    sim = SimProcess("--layout", "volt")
    try:
        sim.control("place", slot=2, uid="04aabbccddee03")
        done = subprocess.run([BOTBOARD, "tiles", "write", "--game", "volt", "--port", sim.port, "colour=blue",
                               "owner=green", "--slot", "2"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        result = json.loads(done.stdout)
        assert result["tile"] == "blue die (green's)"
        die = tiles.die_from_payload(bytes.fromhex(result["payload"]))
        assert (die.colour, die.owner) == ("blue", 2)
        assert sim.control("tag", slot=2)["payload"] == result["payload"]
        wrong = subprocess.run([BOTBOARD, "tiles", "write", "--game", "volt", "--port", sim.port, "colour=red",
                                "owner=purple"], capture_output=True, text=True, timeout=60)
        assert wrong.returncode == 2 and "anybody, red, blue, green, yellow" in wrong.stderr
    finally:
        sim.stop()
