"""What a player reads about a slot the board cannot count: one instruction, the right one."""

from __future__ import annotations

from bbshared import messages as m
from botboard.games.botwars.table.program import read_station as botwars_station
from botboard.games.twintinbots.table.physical import read_station as ttb_station
from botboard.games.twintinbots.table.tiles import Registry
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
    registry = Registry(None)
    damaged = registry_error(registry, b"\x04\x01\x02\x03\x04\x05\x06", b"\x13\x37garbage")
    assert "damaged" in damaged and "has no tile payload" not in damaged and "botboard tiles write" in damaged
    blank = registry_error(registry, b"\x04\x01\x02\x03\x04\x05\x07", b"")
    assert "has no tile payload" in blank


def registry_error(registry: Registry, uid: bytes, data: bytes) -> str:
    try:
        registry.identify(uid, data)
    except TileError as err:
        return str(err)
    raise AssertionError("identified")
