"""Animation frames, the LED language, speed and skip, and journal-before-show."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bbshared import messages as m
from botboard.games.twintinbots.game import GAME
from botboard.link.image import CellState
from botboard.games.twintinbots.table import leds
from botboard.games.twintinbots.table.frames import frames
from botboard.session.animation import TABLE_SPEEDS
from botboard.games.twintinbots.table.scene import Scene

from ..patience import until
from .helpers import Table


def _turn(position: dict, action: str):  # type: ignore[no-untyped-def]
    before = GAME.scenario_start(2, {"track": 0}, 1, position)
    after, events = GAME.apply_str(before, action)
    return before, events, after


def test_each_step_moves_the_robot_and_the_last_frame_is_the_engine_state() -> None:
    before, events, after = _turn({"crystals": {}, "robots": {"redA": {"at": "0,0", "facing": 0}},
                                   "programs": {"redA": ["F2", "-", "-"]}}, "A2=R")
    grid = before.layout.arena
    red = leds.seat_colour(0)
    pictures = frames(before, events, after)
    robot_b = before.cell[1]
    robot_cells = [[c for c, s in p.items() if s.palette == red and s.facing != m.NO_FACING
                    and c != robot_b] for _, p in pictures]
    # F2 then R: (1,0), (2,0), then the turn to face south-east at (2,0)
    assert robot_cells[0] == [grid.index[(1, 0)]]
    assert robot_cells[1] == [grid.index[(2, 0)]]
    assert pictures[2][1][grid.index[(2, 0)]].facing == 1
    assert pictures[-1][1] == leds.picture(Scene.from_state(after))


def test_a_load_makes_the_robot_pulse_and_a_zap_flashes_its_path() -> None:
    before, events, after = _turn({"crystals": {"1,0": "pink"}, "robots": {
        "redA": {"at": "0,0", "facing": 0}, "blueA": {"at": "-2,0", "facing": 0}},
        "programs": {"redA": ["LD", "-", "-"]}}, "B1=Z")
    grid = before.layout.arena
    pictures = frames(before, events, after)
    loaded = next(p for e, p in pictures if e and e.kind == "load")
    assert loaded[grid.index[(0, 0)]].effect == m.PULSE
    assert loaded[grid.index[(1, 0)]].palette != leds.CRYSTAL_PALETTE[4]  # picked up
    zapped = next(p for e, p in pictures if e and e.kind in ("zap", "fizzle"))
    assert leds.cell("choice", m.BLINK) in zapped.values()


def test_the_led_language_draws_every_piece() -> None:
    state = GAME.new_game(2, {"teleporters": 1, "rocks": 1, "blobs": 1, "mud": 1, "track": 0}, 4)
    picture = leds.picture(Scene.from_state(state))
    layout = state.layout
    assert picture[layout.rocks[0]] == leds.cell("rock")
    assert picture[layout.mud[0]] == leds.cell("mud")
    a, b = layout.teleporters[0]
    assert picture[a].facing == picture[b].facing == leds.TELEPORTER_MARKS[0]
    assert picture[layout.bases[0]].effect == m.SPIN  # red to play
    assert picture[layout.bases[1]].effect == m.SOLID
    assert [picture[c] for c in leds.corners(Scene.from_state(state))].count(leds.cell("choice")) \
        == state.countdown  # the track is empty: the countdown shows on the corners
    assert len(leds.PALETTE) == 16 and all(len(c) == 3 for c in leds.PALETTE)


def test_the_journal_is_written_before_the_board_shows_the_turn(tmp_path: Path) -> None:
    t = Table(tmp_path)
    gid = t.session.new_game(2, {"track": 0}, 3)
    seen: list[int] = []
    original = t.board.set_cells

    def watch(changes: dict[int, CellState]) -> None:
        seen.append(len(t.journal.actions(gid)))
        original(changes)

    t.board.set_cells = watch  # type: ignore[method-assign]
    t.place(0, "A1", "F1/red")
    t.place(0, "B1", "L/red")
    seen.clear()
    t.press(0, "confirm")
    assert seen and all(n == 1 for n in seen)


def test_animation_runs_at_its_speed_skips_and_a_returning_board_gets_the_end(tmp_path: Path) -> None:
    async def scenario() -> None:
        t = Table(tmp_path)
        t.session.set_speed(5.0)  # five seconds a step: only a skip ends it in time
        t.session.new_game(2, {"track": 0}, 3)
        t.place(0, "A1", "F2/red")
        t.place(0, "B1", "L/red")
        t.press(0, "confirm")
        assert t.session.mode == "animate"
        await asyncio.sleep(0.05)  # pace: the robots under way when the board comes back
        t.reconnect()  # the board was unplugged and is back
        await until(lambda: t.session.mode == "program", 0.5, "the end of the game's steps")
        final = leds.picture(Scene.from_state(t.session.state))
        assert t.session.bmap is not None
        shown = {t.session.bmap.to_engine[b]: s for b, s in t.board.cells.items()}
        assert all(shown[c] == s for c, s in final.items() if c not in t.session.alerts)
        t.session.set_speed(5.0)
        t.place(1, "A1", "R/blue")
        t.place(1, "B1", "L/blue")
        t.press(1, "confirm")
        assert t.session.mode == "animate"
        t.press(1, "next")  # next (or confirm) skips
        await until(lambda: t.session.mode == "program", 5, "the skip")
        assert t.session.mode == "program" and t.session.view()["turn"] == "red"

    asyncio.run(scenario())


def test_a_tile_moved_while_the_robots_run_is_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        t = Table(tmp_path)
        t.session.set_speed(5.0)
        gid = t.session.new_game(2, {"track": 0}, 3)
        t.place(0, "A1", "F2/red")
        t.place(0, "B1", "L/red")
        t.press(0, "confirm")
        assert t.session.mode == "animate"
        t.remove(0, "A1")  # a hand pulls the tile while robot A moves
        assert "while the robots run" in t.session.message
        t.session.skip()
        await until(lambda: t.session.mode == "program", 5, "the skip")
        assert [a["action"] for a in t.journal.actions(gid)] == ["A1=F2 + B1=L"]  # untouched
        assert any(c.palette == leds.INDEX["alert"] for c in t.board.cells.values())
        t.place(0, "A1", "F2/red")
        assert not any(c.palette == leds.INDEX["alert"] for c in t.board.cells.values())

    asyncio.run(scenario())


def test_previous_during_an_animation_steps_through_the_table_speeds(tmp_path: Path) -> None:
    async def scenario() -> None:
        t = Table(tmp_path)
        t.session.new_game(2, {"track": 0}, 3)
        t.session.set_speed(TABLE_SPEEDS["normal"])  # the tests' table starts with no animation
        t.place(0, "A1", "F2/red")
        t.place(0, "B1", "L/red")
        t.press(0, "confirm")
        assert t.session.mode == "animate"
        t.press(0, "previous")
        assert t.session.animation.step_s == TABLE_SPEEDS["fast"]
        assert t.session.message.startswith("animation fast (0.15 s a step)")
        t.press(1, "previous")  # anyone at the table may change it
        assert t.session.animation.step_s == TABLE_SPEEDS["slow"]
        t.press(0, "previous")
        assert t.session.animation.step_s == TABLE_SPEEDS["normal"]
        t.press(0, "next")
        await until(lambda: t.session.mode == "program", 5, "the skip")
        t.press(1, "previous")  # outside an animation, previous does not touch the speed
        assert t.session.animation.step_s == TABLE_SPEEDS["normal"]

    asyncio.run(scenario())
