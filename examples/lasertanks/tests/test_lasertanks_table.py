"""Laser Tanks at the table: what a station's tiles become (a program or a refusal in words), what a
laid program's station must keep, what the LEDs show of a round, and what each view may say."""

from __future__ import annotations

import json

import pytest

from botboard import games
from botboard.games.catalogue import TileError

pytest.importorskip("botboard_lasertanks", reason="not installed: `bash .ci/setup --test` installs the examples")
from botboard_lasertanks.table import leds  # noqa: E402
from botboard_lasertanks.tiles import OrderTile  # noqa: E402

GAME, TABLE = games.get("lasertanks"), games.table("lasertanks")()
SLOTS = [0, 1]


def _judge(state, seat, tiles):
    return TABLE.judge(state, seat, TABLE.read_station(state, seat, tiles, SLOTS), SLOTS, {})


def test_a_station_becomes_a_program_or_a_refusal_naming_the_slot() -> None:
    state = GAME.new_game(2)
    verdict = _judge(state, 0, [OrderTile("X", 0), OrderTile("F", 0)])
    assert verdict.action == "p1 program X F" and verdict.message == "program: fire, then forward"
    empty = _judge(state, 0, [OrderTile("X", 0), None])
    assert empty.action is None and empty.wrong_slots == (1,) and "second order" in empty.message
    foreign = _judge(state, 0, [OrderTile("L", 1), OrderTile("F", 0)])
    assert foreign.wrong_slots == (0,) and "blue turn left" in foreign.message and "give it back" in foreign.message
    unread = _judge(state, 0, [TileError("the tag's tile payload is damaged"), OrderTile("F", 0)])
    assert unread.wrong_slots == (0,) and "damaged" in unread.message
    laid = GAME.apply_str(state, "p1 program X F")[0]
    again = _judge(laid, 0, [OrderTile("X", 0), OrderTile("F", 0)])
    assert again.action is None and "already" in again.message


def test_a_laid_program_stays_in_its_slots_until_the_round_plays() -> None:
    laid = GAME.apply_str(GAME.new_game(2), "p1 program X F")[0]
    assert TABLE.acting_seats(laid) == [1] and TABLE.station_tiles(laid, 0) == [OrderTile("X", 0), OrderTile("F", 0)]
    moved = TABLE.read_station(laid, 0, [OrderTile("F", 0), OrderTile("F", 0)], SLOTS)
    assert TABLE.check_station(laid, 0, moved, SLOTS) == ([0], ["put fire back on the first order"])
    kept = TABLE.read_station(laid, 0, TABLE.station_tiles(laid, 0), SLOTS)
    assert TABLE.check_station(laid, 0, kept, SLOTS) == ([], [])


def test_a_round_shows_as_moves_and_beams_and_ends_on_the_state() -> None:
    state = GAME.scenario_start(2, {}, 0, {"tanks": {"p1": {"square": "r1c2", "facing": "N"},
                                                     "p2": {"square": "r5c2", "facing": "S"}}})
    laid = GAME.apply_str(state, "p1 program X F")[0]
    after, events = GAME.apply_str(laid, "p2 program L F")
    frames = TABLE.frames(laid, events, after)
    assert frames[-1] == (None, TABLE.picture(after))
    shot = next(picture for event, picture in frames if event is not None and event.kind == "fire")
    beam = [leds.cell_of((2, y)) for y in range(2, 5)]
    assert all(shot[cell] == leds.look("laser") for cell in beam) and shot[leds.cell_of((2, 5))] == leds.look("hit")
    assert TABLE.picture(after)[leds.cell_of((3, 5))] == leds.look("blue")  # p2 drove east


def test_a_laid_program_shows_only_in_its_own_seat_view() -> None:
    laid = GAME.apply_str(GAME.new_game(2), "p1 program X F")[0]
    assert TABLE.seat_view(laid, 0)["program"] == ["X", "F"]
    for shown in (TABLE.public_view(laid), TABLE.seat_view(laid, 1),
                  TABLE.public_action(laid, "p1 program X F")):
        assert '"X", "F"' not in json.dumps(shown) and "X F" not in json.dumps(shown)
