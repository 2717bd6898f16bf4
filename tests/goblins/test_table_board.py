"""Goblins, Inc. through the simulated board: the firmware reads the yards' tags, the session
refuses a tile on a blocked square with the square blinking in the board's own cell memory,
and a tile turned with the yard's next button is built as turned."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bbshared import messages as m
from botboard.board import layouts
from botboard.games.goblins.table import leds
from botboard.games.goblins.tiles import load_box
from botboard.games.goblins.yard import ALL_SQUARES, COCKPIT, connected as joined_squares
from botboard.session.host import make_session

from ..host.running import connected, until
from ..simboard import SimProcess

LAYOUT = layouts.load("goblins")
BOX = load_box("placeholder")


def test_a_yard_through_the_board_refuses_marks_turns_and_builds(tmp_path: Path) -> None:
    sim = SimProcess("--layout", "goblins")
    try:
        asyncio.run(_play(sim, tmp_path))
    finally:
        sim.stop()


def _cell(sim: SimProcess, board_cell: int) -> tuple[int, int]:
    """(palette, effect) of a cell in the firmware's own cell memory."""
    cells = bytes.fromhex(sim.control("cells")["cells"])
    return cells[2 * board_cell], cells[2 * board_cell + 1] & 0x0F


async def _play(sim: SimProcess, tmp: Path) -> None:
    async with connected(sim.port, len(LAYOUT.cells)) as conn:
        session = make_session(LAYOUT, conn, tmp, step_s=0, game="goblins")
        session.on_link_state("connected")
        session.new_game(2, {}, 1)
        while session.mode == "decide":  # the planners keep their tiles, on their phones
            session.decide(session.picker.candidates[0].choice, session.picker.decision.player)
        seat = session.acting()[0]
        state: Any = session.state
        team = state.team_of(seat)
        squares = session.mapping.squares[team]
        slot_of = {s: session.seating.physical(seat, squares.index(s)) for s in ALL_SQUARES}
        board_cell = {s: session.bmap.to_board[leds.cell_of(team, s)] for s in ALL_SQUARES}
        tile, top = next((t, "NESW"[r]) for t in state.players[seat].hand for r in (1, 2, 3)
                         if "r3c2" in joined_squares({"r3c2": [t, r]}, BOX))  # joined once turned
        uid, payload = session.mapping.virtual_tag(BOX.tiles[tile], 1)

        async def press(role: str) -> None:
            sim.control("button", button=session.seating.button_of(seat, role), action="click")
            await asyncio.sleep(0.3)  # pace: a hand's presses, one after the other

        blocked = state.robots[team].blocked[0]
        sim.control("place", slot=slot_of[blocked], uid=uid.hex(), payload=payload.hex())
        await until(lambda: session.table.reading(slot_of[blocked]) is not None, 30, "the tag read")
        for attempt in range(5):  # a click the loaded simulated board did not see is clicked again
            await press("confirm")
            try:
                await until(lambda: _cell(sim, board_cell[blocked]) == (leds.INDEX["alert"], m.BLINK), 6,
                            "the blocked square blinking on the board")
                break
            except AssertionError:
                if attempt == 4:
                    raise
        assert "blocked by this round's blueprint" in session.seat_messages[seat]
        assert all("place" not in a["action"] for a in session.journal.actions(session.game_id))

        sim.control("remove", slot=slot_of[blocked])
        await until(lambda: session.table.reading(slot_of[blocked]) is None, 30, "the tag taken off")
        sim.control("place", slot=slot_of["r3c2"], uid=uid.hex(), payload=payload.hex())
        await until(lambda: session.table.reading(slot_of["r3c2"]) is not None, 30, "the tag on r3c2")
        for _ in range("NESW".index(top)):
            await press("next")
        await until(lambda: _cell(sim, board_cell[COCKPIT])[0] == leds.INDEX["choice"], 30,
                    "the cockpit lit: the tile joins it as turned")
        await press("confirm")
        await until(lambda: any("place" in a["action"] for a in session.journal.actions(session.game_id)),
                    30, "the tile built")
        assert session.journal.actions(session.game_id)[-1]["action"] == f"p{seat + 1} place t{tile} r3c2 {top}"
        await until(lambda: _cell(sim, board_cell["r3c2"]) == (leds.INDEX[BOX.tiles[tile].type], m.SOLID),
                    30, "the built tile in its type's colour")
