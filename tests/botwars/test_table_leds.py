"""BotWars' LED language: pictures of states, frames of turns, decisions' candidates."""

from __future__ import annotations

from typing import Any

import pytest

from bbshared import messages as m
from botboard.games import get
from botboard.games.botwars.board import neighbour, parse_square
from botboard.games.botwars.cards import deck
from botboard.games.botwars.state import State
from botboard.games.botwars.table import leds
from botboard.link.image import CellState

from .helpers import board, play, position

I = leds.INDEX
FLOOR = CellState(I["floor"], m.NO_FACING, m.SOLID)


def cell(state: State, square: str) -> int:
    return leds.cell_of(state.board, parse_square(square))


def at(picture: dict[int, CellState], state: State, square: str) -> CellState:
    return picture[cell(state, square)]


def hand(*cards: str) -> list[str]:
    return list(cards)


def test_cells_run_along_rows_from_the_south_west_as_the_layout_does() -> None:
    state = position({"p1": {}})
    brd = state.board
    assert leds.cell_of(brd, (1, 1)) == 0 and leds.cell_of(brd, (6, 1)) == 5
    assert leds.cell_of(brd, (1, 2)) == 6 and leds.cell_of(brd, (6, 6)) == 35
    coords = leds.coords(brd)
    assert len(coords) == 36 and coords[0] == (1, 1) and coords[7] == (2, 2)
    assert all(leds.cell_of(brd, xy) == i for i, xy in enumerate(coords))


def test_the_palette_has_sixteen_entries_with_what_the_session_asks_for() -> None:
    assert len(leds.PALETTE) == 16 and len(I) == 16
    assert {"off", "floor", "choice", "alert"} <= set(I) and I["off"] == 0
    assert leds.ROBOT_COLOURS == ("red", "blue", "green", "yellow")
    for colour in leds.ROBOT_COLOURS:  # a nose is the robot's colour at a quarter
        full, dim = leds.PALETTE[I[colour]], leds.PALETTE[I[f"{colour}-nose"]]
        assert all(abs(d - f / 4) <= 12 for f, d in zip(full, dim)), colour


@pytest.mark.parametrize("facing", [0, 1, 2, 3])
def test_a_robot_shows_in_its_colour_with_its_nose_on_the_square_it_faces(facing: int) -> None:
    name = "NESW"[facing]
    state = position({"p1": {"square": "r3c3", "facing": name, "mode": "real"},
                      "p2": {"square": "r5c5", "facing": "W", "mode": "real"}})
    picture = leds.picture(state)
    assert at(picture, state, "r3c3") == CellState(I["red"], facing, m.SOLID)
    front = neighbour((3, 3), facing)
    for side in range(4):
        square = neighbour((3, 3), side)
        expected = CellState(I["red-nose"], m.NO_FACING, m.SOLID) if square == front else FLOOR
        assert picture[leds.cell_of(state.board, square)] == expected, (name, side)
    assert at(picture, state, "r5c5") == CellState(I["blue"], 3, m.SOLID)
    assert at(picture, state, "r5c4") == CellState(I["blue-nose"], m.NO_FACING, m.SOLID)


def test_a_robot_facing_the_edge_has_no_nose_and_a_body_hides_a_nose() -> None:
    state = position({"p1": {"square": "r1c3", "facing": "S", "mode": "real"},
                      "p2": {"square": "r2c3", "facing": "S", "mode": "real"}})
    picture = leds.picture(state)
    assert at(picture, state, "r1c3").palette == I["red"]
    assert at(picture, state, "r2c3").palette == I["blue"]  # blue's body, blue's nose on red
    noses = [c for c, s in picture.items() if s.palette in (I["red-nose"], I["blue-nose"])
             and s.effect == m.SOLID]
    assert noses == []


def test_robots_sharing_a_square_show_shared_and_keep_their_noses() -> None:
    state = position({"p1": {"square": "r3c3", "facing": "N", "mode": "real"},
                      "p2": {"square": "r3c3", "facing": "E", "mode": "virtual"}})
    picture = leds.picture(state)
    assert at(picture, state, "r3c3") == CellState(I["shared"], m.NO_FACING, m.SOLID)
    assert at(picture, state, "r4c3").palette == I["red-nose"]
    assert at(picture, state, "r3c4").palette == I["blue-nose"]
    ghosts = position({"p1": {"square": "r3c3", "facing": "N"}, "p2": {"square": "r3c3", "facing": "N"}})
    picture = leds.picture(ghosts)
    assert at(picture, ghosts, "r3c3") == CellState(I["shared"], m.NO_FACING, m.PULSE)
    assert at(picture, ghosts, "r4c3").palette == I["red-nose"]  # the lowest seat's nose shows


def test_a_virtual_robot_pulses_in_its_colour() -> None:
    state = position({"p1": {"square": "r3c3", "facing": "E", "mode": "virtual"},
                      "p2": {"square": "r5c5", "facing": "W", "mode": "real"}})
    picture = leds.picture(state)
    assert at(picture, state, "r3c3") == CellState(I["red"], 1, m.PULSE)
    assert at(picture, state, "r5c5") == CellState(I["blue"], 3, m.SOLID)


def test_checkpoints_pulse_dim_and_a_destroyed_robot_blinks_on_its_own() -> None:
    state = position({"p1": {"square": "r3c3", "facing": "N", "mode": "real", "checkpoint": "r2c5"},
                      "p2": {"square": None, "mode": "destroyed", "checkpoint": "r5c2"},
                      "p3": {"square": None, "mode": "out", "lives": 0, "checkpoint": "r6c1"}})
    picture = leds.picture(state)
    assert at(picture, state, "r2c5") == CellState(I["red-nose"], m.NO_FACING, m.PULSE)
    assert at(picture, state, "r5c2") == CellState(I["blue"], m.NO_FACING, m.BLINK)
    assert at(picture, state, "r6c1") == FLOOR  # a robot out of the game shows nowhere
    assert leds.robot_cell(state, 0) == cell(state, "r3c3")
    assert leds.robot_cell(state, 1) == cell(state, "r5c2")
    assert leds.robot_cell(state, 2) is None


def test_flags_pulse_when_next_for_someone_and_go_dark_once_everyone_touched_them() -> None:
    brd = board(flags=("r6c6", "r6c1", "r1c6"))
    state = position({"p1": {"square": "r3c3", "flags": 1}, "p2": {"square": "r3c4", "flags": 0}}, brd)
    picture = leds.picture(state)
    assert at(picture, state, "r6c6") == CellState(I["flag"], m.NO_FACING, m.PULSE)  # p2's next
    assert at(picture, state, "r6c1") == CellState(I["flag"], m.NO_FACING, m.PULSE)  # p1's next
    assert at(picture, state, "r1c6") == CellState(I["flag"], m.NO_FACING, m.SOLID)  # ahead of both
    state = position({"p1": {"square": "r3c3", "flags": 1}, "p2": {"square": "r3c4", "flags": 1}}, brd)
    picture = leds.picture(state)
    assert at(picture, state, "r6c6") == FLOOR
    assert at(picture, state, "r6c1").effect == m.PULSE and at(picture, state, "r1c6").effect == m.SOLID


def test_seat_colours_follow_the_robots_colours_and_never_repeat() -> None:
    assert leds.seat_colours(["blue", "red"]) == ["blue", "red"]
    assert leds.seat_colours(["orange", "red", "purple"]) == ["blue", "red", "green"]
    assert leds.seat_colours(["red", "RED"]) == ["red", "blue"]
    state = get("botwars").new_game(2, {"colours": ["green", "yellow"]}, 1)
    start = leds.picture(state)[leds.cell_of(state.board, state.board.start)]
    assert start.palette == I["shared"]  # both on the start square
    assert leds.Scene.from_state(state).bots[0].colour == "green"


# -- frames ---------------------------------------------------------------------

def _turn(state: State, programs: list[list[str]]) -> tuple[State, list[Any]]:
    return play(state, *(f"p{i + 1} program {' '.join(cards)}" for i, cards in enumerate(programs)))


def test_frames_of_a_new_games_turn_follow_each_move_and_end_exactly_on_the_state_after() -> None:
    game = get("botwars")
    for seed in (1, 5, 9):
        before = game.new_game(2, {}, seed)
        hands = [[deck().name(c) for c in p.hand[:5]] for p in before.players]
        submitted, _ = play(before, f"p1 program {' '.join(hands[0])}")
        after, events = play(submitted, f"p2 program {' '.join(hands[1])}")
        frames = leds.frames(submitted, events, after)
        assert frames[-1] == (None, leds.picture(after))
        shown = [e for e, _ in frames[:-1]]
        assert shown == [e for e in events if e.kind in leds.VISIBLE]
        colours = leds.seat_colours([p.colour for p in before.players])
        for event, picture in frames[:-1]:
            assert event is not None
            if event.kind in ("move", "push", "conveyor", "teleport"):
                robot = int(event.data["robot"][1:]) - 1
                look = picture[cell(after, event.data["square"])]
                assert look.palette in (I[colours[robot]], I["shared"]), (seed, event.text)


def test_a_three_square_move_shows_the_robot_on_each_square_on_the_way() -> None:
    state = position({"p1": {"square": "r1c1", "facing": "N", "mode": "real",
                             "hand": hand("FWD3:790", "LF90:070", "RT90:080", "LF90:090", "RT90:100")},
                      "p2": {"square": "r1c6", "facing": "N", "mode": "real",
                             "hand": hand("UTRN:010", "UTRN:020", "UTRN:030", "UTRN:040", "UTRN:050")}})
    after, events = _turn(state, [["FWD3:790", "LF90:070", "RT90:080", "LF90:090", "RT90:100"],
                                  ["UTRN:010", "UTRN:020", "UTRN:030", "UTRN:040", "UTRN:050"]])
    frames = leds.frames(state, events, after)
    moves = [(e, p) for e, p in frames if e is not None and e.kind == "move"]
    assert [e.data["square"] for e, _ in moves] == ["r2c1", "r3c1", "r4c1"]
    first = moves[0][1]
    assert at(first, state, "r2c1") == CellState(I["red"], 0, m.SOLID)
    assert at(first, state, "r3c1").palette == I["red-nose"]
    assert at(first, state, "r1c1") == CellState(I["red-nose"], m.NO_FACING, m.PULSE)  # its checkpoint
    turns = [(e, p) for e, p in frames if e is not None and e.kind == "turn" and e.data["robot"] == "p1"]
    assert at(turns[0][1], state, "r4c1") == CellState(I["red"], 3, m.SOLID)  # LF90: now facing W
    assert frames[-1] == (None, leds.picture(after))
    assert at(frames[-1][1], after, "r4c1") == CellState(I["red"], 0, m.SOLID)


def test_a_laser_frame_lights_the_beam_and_the_robot_it_hits() -> None:
    state = position({"p1": {"square": "r2c1", "facing": "E", "mode": "real",
                             "hand": hand("FWD1:490", "LF90:070", "RT90:080", "LF90:090", "RT90:100")},
                      "p2": {"square": "r2c5", "facing": "N", "mode": "real",
                             "hand": hand("UTRN:020", "LF90:110", "RT90:120", "LF90:130", "RT90:140")}})
    after, events = _turn(state, [["FWD1:490", "LF90:070", "RT90:080", "LF90:090", "RT90:100"],
                                  ["UTRN:020", "LF90:110", "RT90:120", "LF90:130", "RT90:140"]])
    frames = leds.frames(state, events, after)
    index, (event, shot) = next((i, f) for i, f in enumerate(frames)
                                if f[0] is not None and f[0].kind == "laser" and f[0].data["robot"] == "p1")
    assert event is not None
    assert event.data["squares"] == "r2c3-5" and event.data["hits"] == ["p2"]
    laser = CellState(I["laser"], m.NO_FACING, m.SOLID)
    assert at(shot, state, "r2c3") == laser and at(shot, state, "r2c4") == laser
    assert at(shot, state, "r2c5") == CellState(I["damage"], m.NO_FACING, m.SOLID)
    assert at(shot, state, "r2c2") == CellState(I["red"], 1, m.SOLID)
    hurt = [p for e, p in frames[index:] if e is not None and e.kind == "damage"]
    assert hurt and at(hurt[0], state, "r2c5").palette == I["damage"]
    assert at(frames[-1][1], after, "r2c3") != laser  # flashes last one frame


def test_a_robot_that_falls_shows_a_hit_then_blinks_on_its_checkpoint_and_the_facings_are_offered() -> None:
    brd = board({"r3c1": {"type": "pit"}})
    state = position({"p1": {"square": "r1c1", "facing": "N", "mode": "real",
                             "hand": hand("FWD2:670", "LF90:070", "RT90:080", "LF90:090", "RT90:100")},
                      "p2": {"square": "r1c6", "facing": "N", "mode": "real",
                             "hand": hand("UTRN:010", "UTRN:020", "UTRN:030", "UTRN:040", "UTRN:050")}}, brd)
    after, events = _turn(state, [["FWD2:670", "LF90:070", "RT90:080", "LF90:090", "RT90:100"],
                                  ["UTRN:010", "UTRN:020", "UTRN:030", "UTRN:040", "UTRN:050"]])
    frames = leds.frames(state, events, after)
    fall = next(p for e, p in frames if e is not None and e.kind == "destroyed")
    assert at(fall, state, "r3c1") == CellState(I["damage"], m.NO_FACING, m.SOLID)
    assert at(fall, state, "r1c1") == CellState(I["red"], m.NO_FACING, m.BLINK)
    assert frames[-1] == (None, leds.picture(after))
    decision = get("botwars").pending(after)
    assert decision is not None and decision.kind == "reinstate"
    found = {c.choice: c for c in leds.candidates(after, decision)}
    assert found["p1 face N"].cell == cell(after, "r2c1")
    assert found["p1 face E"].cell == cell(after, "r1c2")
    assert found["p1 face S"].cell == cell(after, "r1c1")  # off the board: on the checkpoint itself
    assert found["p1 face W"].cell == cell(after, "r1c1")
    assert "facing east" in found["p1 face E"].words
    back, events = play(after, "p1 face E")
    frames = leds.frames(after, events, back)
    shown = next(p for e, p in frames if e is not None and e.kind == "reinstate")
    assert at(shown, back, "r1c1") == CellState(I["red"], 1, m.PULSE)
    assert at(shown, back, "r1c2").palette == I["red-nose"]
    assert frames[-1] == (None, leds.picture(back))


def test_repair_or_option_are_both_offered_on_the_robots_square() -> None:
    brd = board({"r2c2": {"type": "repair", "wrenches": 2}})
    state = position({"p1": {"square": "r2c2", "facing": "N", "mode": "real",
                             "hand": hand("LF90:070", "RT90:080", "LF90:090", "RT90:100", "UTRN:010")},
                      "p2": {"square": "r5c5", "facing": "N", "mode": "real",
                             "hand": hand("UTRN:020", "UTRN:030", "UTRN:040", "UTRN:050", "UTRN:060")}}, brd)
    after, _ = _turn(state, [["LF90:070", "RT90:080", "LF90:090", "RT90:100", "UTRN:010"],
                             ["UTRN:020", "UTRN:030", "UTRN:040", "UTRN:050", "UTRN:060"]])
    decision = get("botwars").pending(after)
    assert decision is not None and decision.kind == "repair-or-option"
    found = leds.candidates(after, decision)
    assert [(c.choice, c.cell, c.words) for c in found] == [
        ("p1 repair", cell(after, "r2c2"), "repair 2 HP"),
        ("p1 option", cell(after, "r2c2"), "take an option")]


def test_an_event_the_scene_cannot_follow_is_skipped_and_the_end_is_still_exact() -> None:
    from botboard.games.base import Event

    state = position({"p1": {"square": "r3c3", "mode": "real"}})
    odd = [Event("move", {"robot": "p9", "square": "r1c1"}, "?"), Event("turn", {"robot": "p1"}, "?"),
           Event("laser", {"robot": "p1", "squares": "nowhere", "hits": []}, "?")]
    frames = leds.frames(state, odd, state)
    assert [e.kind if e else None for e, _ in frames] == ["laser", None]
    assert frames[-1][1] == leds.picture(state)


def test_the_legend_shows_every_entry_but_off_and_the_other_robot_colours() -> None:
    names = list(I)
    used = {names[look.palette] for _, look in leds.legend()}
    others = {c for colour in leds.ROBOT_COLOURS[1:] for c in (colour, leds.nose(colour))}
    assert used == set(I) - {"off"} - others
