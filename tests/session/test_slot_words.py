"""What a player reads about a slot the board cannot count: one instruction, the right one."""

from __future__ import annotations

from bbshared import messages as m
from botboard.games.botwars.table.program import read_station as botwars_station
from botboard.games.twintinbots.table.physical import read_station as ttb_station
from botboard.games.twintinbots.table.mapping import TwinTinBotsTable
from botboard.games.twintinbots.table.tiles import make_tile, payload
from botboard.session.mapping import TileError
from botboard.session.table import TROUBLE


def test_two_tiles_in_one_slot_say_take_one_away_and_nothing_else() -> None:
    two = TileError(TROUBLE[m.SLOT_SEVERAL])
    for problems in (ttb_station(0, [two, None, None, None, None, None], list(range(6))).problems,
                     botwars_station([two, None, None, None, None], list(range(5))).problems):
        words = problems[0]
        assert words.endswith("two tiles lie in one slot: take one away"), words
        assert "take it out" not in words


def test_a_tag_with_a_damaged_payload_is_not_called_one_without_a_payload() -> None:
    table = TwinTinBotsTable()
    damaged = bytearray(payload(make_tile("F1", "red"), 1))
    damaged[7] ^= 0x40  # a bit flipped after the CRC was written
    words = identify_error(table, b"\x04\x01\x02\x03\x04\x05\x06", bytes(damaged))
    assert "damaged" in words and "no tile payload" not in words and "botboard tiles write" in words
    blank = identify_error(table, b"\x04\x01\x02\x03\x04\x05\x07", b"")
    assert "carries no Twin Tin Bots tile" in blank and "damaged" not in blank


def identify_error(table: TwinTinBotsTable, uid: bytes, data: bytes) -> str:
    try:
        table.identify(uid, data)
    except TileError as err:
        return str(err)
    raise AssertionError("identified")
