"""Seating, tiles, table, journal and the physical reconciliation, one by one."""

from __future__ import annotations

from pathlib import Path

import pytest

from botboard.board import layouts
from botboard.games.twintinbots import actions as A
from botboard.games.twintinbots import content as C
from botboard.games.twintinbots.game import GAME
from botboard.games.twintinbots.table import physical
from botboard.games.twintinbots.table.mapping import nearest_stations
from botboard.games.twintinbots.table.mapping import TwinTinBotsTable
from botboard.games.twintinbots.table.tiles import Tile, TileError, from_payload, make_tile, payload, virtual_uid
from botboard.session.journal import Journal, JournalError, replay
from botboard.session.mapping import StationReading, TableError
from botboard.session.seating import Seating
from botboard.session.table import Table


def _seating(layout: layouts.Layout, bases: list[tuple[int, int]]) -> Seating:
    return Seating(layout, nearest_stations(layout, bases), 6)


def test_seats_take_the_station_nearest_their_base() -> None:
    small = layouts.load("ttb-small")
    two = _seating(small, [(3, 0), (-3, 0)])
    assert [small.stations[s].name for s in two.station_of] == ["east", "west"]
    four = _seating(small, [(3, 0), (0, 3), (-3, 0), (0, -3)])
    assert [small.stations[s].name for s in four.station_of] == ["east", "south", "west", "north"]
    big = layouts.load("ttb-big")
    six = _seating(big, [(4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4), (4, -4)])
    assert len(set(six.station_of)) == 6
    assert big.stations[six.station_of[1]].name in ("south", "south-east")
    with pytest.raises(TableError, match="ttb-big"):
        _seating(small, [(4, 0), (0, 4), (-4, 4), (-4, 0), (0, -4)])


def test_station_slots_map_to_robot_programs_and_inactive_stations_to_none() -> None:
    small = layouts.load("ttb-small")
    seating = _seating(small, [(3, 0), (-3, 0)])
    east = small.stations[1].slots
    ref = seating.slot(east[4])
    assert ref is not None and (ref.seat, ref.pos, physical.slot_name(ref.pos)) == (0, 4, "B2")
    assert seating.slot(small.stations[0].slots[0]) is None  # north: nobody sits there
    assert seating.button(small.stations[3].buttons["confirm"]) == (1, "confirm")


def test_tile_payloads_round_trip_and_bad_ones_are_named() -> None:
    tile = make_tile("F2", "blue")
    assert from_payload(payload(tile, 9)) == Tile(C.TILE_BY_CODE["F2"], 1)
    special = make_tile("LZ", None)
    assert from_payload(payload(special, 1)).colour is None
    with pytest.raises(TileError, match="player colour"):
        make_tile("F1", None)
    with pytest.raises(TileError, match="no player colour"):
        make_tile("LZ", "red")
    corrupt = bytearray(payload(tile, 9))
    corrupt[3] ^= 1
    with pytest.raises(TileError, match="CRC"):
        from_payload(bytes(corrupt))


def test_registry_enrolls_blank_tags_and_refuses_unknown_ones(tmp_path: Path) -> None:
    table = TwinTinBotsTable(TwinTinBotsTable.load_registry(tmp_path))
    uid = bytes.fromhex("04aabbccddeeff")
    with pytest.raises(TileError, match="not enrolled"):
        table.identify(uid, b"")
    table.registry.enroll(uid, make_tile("Z", "green"))
    again = TwinTinBotsTable(TwinTinBotsTable.load_registry(tmp_path))  # kept on disk
    assert again.identify(uid, b"") == Tile(C.TILE_BY_CODE["Z"], 2)


def test_table_settles_and_spots_flicker_and_two_tags() -> None:
    table = Table()
    uid_a, uid_b = b"\x04\x01", b"\x04\x02"
    assert table.update(3, True, uid_a, b"", 10.0)
    assert not table.settled([3], 10.1)
    assert table.settled([3], 10.3)
    assert not table.update(3, True, uid_a, b"", 10.4)  # the same reading again: no change
    for i in range(6):  # tiles exchanged quickly: not flicker
        table.update(4, i % 2 == 0, bytes((4, i)), b"", 20.0 + 0.2 * i)
    assert not table.flickering(4, 21.1)
    for i in range(8):  # the same tag coming and going
        table.update(4, i % 2 == 0, uid_a, b"", 22.0 + 0.2 * i)
    assert table.flickering(4, 23.5)
    assert not table.flickering(4, 30.0)
    table.update(5, True, uid_a, b"", 40.0)
    table.update(5, True, uid_b, b"", 40.1)
    assert not table.doubled(5, 40.15)  # one quick exchange of tiles is not two tags
    table.update(5, True, uid_a, b"", 40.2)
    table.update(5, True, uid_b, b"", 40.3)
    assert table.doubled(5, 40.4)


def test_journal_records_replays_undoes_and_exports(tmp_path: Path) -> None:
    journal = Journal.in_dir(tmp_path)
    gid = journal.create_game("twin-tin-bots", 2, {"track": 0}, 5, "ttb-small")
    state = GAME.new_game(2, {"track": 0}, 5)
    for text in ("A1=F1 + B1=L", "A1=R + B1=F2"):
        state, _ = GAME.apply_str(state, text)
        journal.append(gid, text, GAME.state_hash(state))
    _, again, done = replay(Journal.in_dir(tmp_path), gid)
    assert GAME.state_hash(again) == GAME.state_hash(state) and len(done) == 2
    other = journal.create_game("botwars", 2, {}, 1, "")  # a newer game of another engine
    assert journal.latest_unfinished("twin-tin-bots") == gid and journal.latest_unfinished("botwars") == other
    assert journal.latest_unfinished("volt") is None
    assert journal.undo_last(gid) == "A1=R + B1=F2"
    _, back, done = replay(journal, gid)
    assert len(done) == 1 and back.turns == 1
    record = journal.export(gid)
    assert [a["undone"] for a in record["actions"]] == [False, True]
    assert journal.games()[0]["actions"] == 1
    with pytest.raises(JournalError, match="no game 99"):
        journal.game(99)


def _reading(a: tuple[str, ...], b: tuple[str, ...]) -> StationReading:
    def prog(codes: tuple[str, ...]) -> tuple[int, int, int]:
        t = [C.TILE_BY_CODE[c] if c != "-" else 0 for c in codes]
        return (t[0], t[1], t[2])
    return StationReading((prog(a), prog(b)))


def test_judge_names_the_legal_action_and_refuses_two_changes_in_words() -> None:
    small = layouts.load("ttb-small")
    seating = _seating(small, [(3, 0), (-3, 0)])
    slots = seating.slots_of(0)
    position = {"programs": {"redA": ["F1", "LD", "-"], "redB": ["L", "-", "-"]}, "turns": 2}
    state = GAME.scenario_start(2, {}, 1, {**position, "dm_used": {"red": True}})
    one = physical.judge(state, 0, _reading(("F1", "UL", "-"), ("L", "-", "-")), slots)
    assert one.ok and one.message == "A2=UL"
    two = physical.judge(state, 0, _reading(("F1", "-", "-"), ("L", "R", "-")), slots)
    assert not two.ok
    assert "put the Load tile back in A2" in two.message
    assert set(two.wrong_slots) == {seating.physical(0, 1), seating.physical(0, 4)}
    same = physical.judge(state, 0, _reading(("F1", "LD", "-"), ("L", "-", "-")), slots)
    assert same.ok and same.second_confirm == "pass"
    fresh = GAME.scenario_start(2, {}, 1, position)  # the Double Modification not yet used
    dm = physical.judge(fresh, 0, _reading(("F1", "-", "-"), ("L", "R", "-")), slots)
    assert dm.ok and dm.second_confirm == "double" and dm.action is not None
    assert GAME.action_from_str(fresh, dm.action)[0] == A.DOUBLE


def test_station_reading_refuses_another_players_tile(tmp_path: Path) -> None:
    small = layouts.load("ttb-small")
    seating = _seating(small, [(3, 0), (-3, 0)])
    table = Table()
    blue = make_tile("F1", "blue")
    slot = seating.physical(0, 0)
    table.update(slot, True, virtual_uid(blue, 1), payload(blue, 1), 1.0)
    tiles = [None if (r := table.reading(s)) is None else TwinTinBotsTable().identify(r.uid, r.payload)
             for s in seating.slots_of(0)]
    reading = physical.read_station(0, tiles, seating.slots_of(0))
    assert not reading.ok and "blue's tile, not red's" in reading.problems[slot]
