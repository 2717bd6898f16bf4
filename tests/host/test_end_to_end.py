"""The whole chain with real parts: firmware in MicroPython, a pty, pyserial, the host."""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any

import pytest

from bbshared import messages as m
from bbshared import tilepayload
from botboard.link.connection import BoardConnection, Message
from botboard.link.image import BoardImage, CellState

from ..simboard import SimProcess
from .running import connected, until
from ..patience import aquiet, scaled


@pytest.fixture
def sim() -> Any:
    board = SimProcess()
    yield board
    board.stop()


def _cells(sim: SimProcess) -> bytes:
    return bytes.fromhex(sim.control("cells")["cells"])


def test_tile_reaches_host_and_cell_states_reach_the_leds(sim: SimProcess) -> None:
    async def scenario() -> None:
        async with connected(sim.port) as conn:
            slots: list[Message] = []
            conn.listeners.append(lambda msg: slots.append(msg) if msg.type == m.SLOT else None)
            tile = tilepayload.encode(1, 3, 2, 77)
            sim.control("place", slot=5, uid="04a1b2c3d4e5f6", payload=tile.hex())
            await until(lambda: slots, what="slot event")
            assert slots[0].fields == {"slot": 5, "present": 1, "uid": bytes.fromhex("04a1b2c3d4e5f6"),
                                       "payload": tile}
            sim.control("remove", slot=5)
            await until(lambda: len(slots) == 2, what="departure")
            assert slots[1].fields["present"] == 0 and slots[1].fields["slot"] == 5

            conn.set_cells({0: CellState(2, 3, m.SOLID), 60: CellState(3, m.NO_FACING, m.SOLID)})
            await until(lambda: _cells(sim)[0:2] == bytes((2, m.look(3, m.SOLID))), what="cell 0")
            assert _cells(sim)[120:122] == bytes((3, m.look(m.NO_FACING, m.SOLID)))
            def leds() -> bytes:
                return bytes.fromhex(sim.control("leds")["leds"])

            await until(lambda: any(leds()[0:3]), what="the next frame shown")
            g, r, b = leds()[0:3]  # cell 0's centre LED, GRB: palette 2 is red
            assert r > 0 and g == 0 and b == 0
            g, r, b = leds()[60 * 7 * 3:60 * 7 * 3 + 3]  # cell 60's centre: palette 3 is blue
            assert b > 0 and r == 0 and g == 0
            assert not any(leds()[7 * 3:60 * 7 * 3])  # cells 1..59 stay dark

    asyncio.run(scenario())


def test_buttons_touches_and_bad_tags_reach_the_host(sim: SimProcess) -> None:
    async def scenario() -> None:
        async with connected(sim.port) as conn:
            seen: list[Message] = []
            conn.listeners.append(seen.append)
            sim.control("button", button=2, action="click")
            sim.control("touch", cell=30)
            sim.control("place", slot=1, uid="04000000000001")  # a blank tag: no tile payload
            await until(lambda: [x for x in seen if x.type == m.ERROR], what="bad-tag error")
            await until(lambda: len([x for x in seen if x.type == m.BUTTON]) == 2, what="release")
            buttons = [x.fields for x in seen if x.type == m.BUTTON]
            assert buttons == [{"button": 2, "action": m.PRESS}, {"button": 2, "action": m.RELEASE}]
            assert [x.fields["cell"] for x in seen if x.type == m.TOUCH] == [30]
            error = next(x.fields for x in seen if x.type == m.ERROR)
            assert error["code"] == m.E_BAD_TAG and error["ref"] == 1
            arrival = next(x.fields for x in seen if x.type == m.SLOT)
            assert arrival["slot"] == 1 and arrival["payload"] == b""

    asyncio.run(scenario())


async def _reboot(conn: BoardConnection, link: str, boards: list[SimProcess]) -> SimProcess:
    """Kill the board on ``link`` and start a fresh one there (added to ``boards``, for the
    caller to stop); returns it once the host has noticed the loss and reconnected."""
    boards[-1].kill()
    await until(lambda: conn.state != "connected", what="loss noticed")
    boards.append(SimProcess(link=link))
    await until(lambda: conn.state == "connected", timeout=15, what="reconnect")
    return boards[-1]


def test_reconnect_after_the_board_process_is_killed(tmp_path: Any) -> None:
    link = str(tmp_path / "board-tty")
    boards = [SimProcess(link=link)]

    async def scenario() -> None:
        async with connected(link) as conn:
            conn.set_cells({7: CellState(4, 1, m.BLINK)})
            await until(lambda: _cells(boards[0])[14:16] == bytes((4, m.look(1, m.BLINK))))
            second = await _reboot(conn, link, boards)
            # the new board shows the state the host holds, without being told again
            await until(lambda: _cells(second)[14:16] == bytes((4, m.look(1, m.BLINK))),
                        what="resync")
            assert conn.reconnects >= 1

    try:
        asyncio.run(scenario())
    finally:
        for board in boards:
            board.stop()


def test_led_settings_survive_a_board_reboot(tmp_path: Any) -> None:
    link = str(tmp_path / "board-tty")
    boards = [SimProcess(link=link)]

    def settings(sim: SimProcess) -> tuple[int, int]:
        stats = sim.control("stats")
        return stats["brightness"], stats["power_ma"]

    async def scenario() -> None:
        # a fresh board runs its layout's budget (ttb-small: 5,000 mA) before any host speaks
        assert settings(boards[0]) == (255, 5000)
        async with connected(link) as conn:
            conn.configure(m.CONFIG_BRIGHTNESS, 40)
            conn.configure(m.CONFIG_POWER_MA, 1500)
            await until(lambda: settings(boards[0]) == (40, 1500), what="settings applied")
            # the board reboots: it comes back with the layout's defaults
            second = await _reboot(conn, link, boards)
            await until(lambda: settings(second) == (40, 1500), what="settings re-sent")

    try:
        asyncio.run(scenario())
    finally:
        for board in boards:
            board.stop()


def test_unplug_and_replug_resyncs_the_board(tmp_path: Any) -> None:
    sim = SimProcess(link=str(tmp_path / "board-tty"))

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            sim.proc.send_signal(signal.SIGUSR1)  # the cable pulled
            await until(lambda: conn.state != "connected", what="unplug noticed")
            conn.set_cells({9: CellState(5, 2, m.PULSE)})  # the game goes on meanwhile
            sim.proc.send_signal(signal.SIGUSR2)  # plugged back in
            await until(lambda: conn.state == "connected", timeout=15, what="replug")
            await until(lambda: _cells(sim)[18:20] == bytes((5, m.look(2, m.PULSE))), what="resync")

    try:
        asyncio.run(scenario())
    finally:
        sim.stop()


def test_silent_board_is_noticed_within_two_seconds(sim: SimProcess) -> None:
    async def scenario() -> None:
        async with connected(sim.port) as conn:
            sim.proc.send_signal(signal.SIGSTOP)  # frozen: port open, no answers
            try:
                stopped = time.monotonic()
                await until(lambda: conn.state != "connected", timeout=5, what="silence noticed")
                assert time.monotonic() - stopped < scaled(3.0)  # noticed in 2 s, on an idle machine
                assert "silent" in conn.last_error
            finally:
                sim.proc.send_signal(signal.SIGCONT)

    asyncio.run(scenario())


def test_a_board_starved_on_a_loaded_machine_is_slow_not_silent(
        sim: SimProcess, monkeypatch: pytest.MonkeyPatch) -> None:
    """The silence limit (2 s on an idle machine) stretches with the load: a simulated board
    the machine starves for longer is still the same board, its session and what is pending
    kept (a needless reconnect's resync dropped 2,941 of 10,000 commands under load)."""
    from botboard.link import connection

    monkeypatch.setattr(connection, "load_factor", lambda: 100.0)  # a machine far busier than this

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            reconnects = conn.reconnects
            sim.proc.send_signal(signal.SIGSTOP)  # starved: port open, no answers
            try:
                await aquiet(3.5)
                assert conn.state == "connected" and conn.reconnects == reconnects, conn.last_error
            finally:
                sim.proc.send_signal(signal.SIGCONT)
            await conn.ping(scaled(5))  # and it answers again on the same session
            assert conn.reconnects == reconnects

    asyncio.run(scenario())


def test_a_silent_host_gets_the_waiting_pattern_and_its_resync_restores_the_game(sim: SimProcess) -> None:
    game = {0: CellState(2, 3, m.SOLID), 30: CellState(4, m.NO_FACING, m.BLINK)}

    def leds() -> bytes:
        return bytes.fromhex(sim.control("leds")["leds"])

    def centre(data: bytes, cell: int) -> tuple[int, int, int]:
        g, r, b = data[21 * cell:21 * cell + 3]  # 7 LEDs x GRB per cell
        return r, g, b

    def waiting_pattern() -> list[int] | None:
        # every cell's centre blue only (palette 15 is (0, 0, 40) at the pulse's level)
        data = leds()
        shown = [centre(data, c) for c in range(61)]
        if all(r == 0 and g == 0 for r, g, b in shown) and len({b for r, g, b in shown}) == 1:
            return [b for r, g, b in shown[:1]]
        return None

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            conn.set_cells(game)
            await until(lambda: centre(leds(), 0) == (255, 0, 0), what="the game shown")
            held = list(conn.image.cells) if conn.image else []
        # the host is gone (daemon stopped, cable to the host cut): after
        # HOST_SILENT_MS (3 s) every cell pulses slowly in blue
        assert sim.control("cells")["waiting"] is False
        await until(lambda: sim.control("cells")["waiting"], timeout=6, what="the board gives up on the host")
        levels = set()
        for _ in range(20):  # a pulse: the blue level changes over 1.6 s
            level = await until(waiting_pattern, timeout=2, what="the waiting pattern")
            levels.add(level[0])
            await asyncio.sleep(0.1)  # pace: samples across the pulse
        assert len(levels) >= 3 and all(0 < b <= 40 for b in levels)
        # the board still holds the game the host set, and a returning host's resync shows it
        cells = bytes.fromhex(sim.control("cells")["cells"])
        assert cells[0:2] == bytes((2, m.look(3, m.SOLID)))
        conn = BoardConnection(sim.port, BoardImage(held))
        task = asyncio.create_task(conn.run())
        try:
            await until(lambda: conn.state == "connected", what="the host back")
            await until(lambda: centre(leds(), 0) == (255, 0, 0), what="the game restored")
            assert sim.control("cells")["waiting"] is False
            data = leds()
            assert all(centre(data, c) == (0, 0, 0) for c in range(1, 61) if c != 30)
            assert centre(data, 30) in ((0, 0, 0), (0, 200, 0))  # blinking green (host palette 4)
        finally:
            task.cancel()
            conn.close()

    asyncio.run(scenario())


def test_a_press_while_the_board_waits_for_a_silent_host_reaches_it_when_it_speaks_again(
        sim: SimProcess) -> None:
    """A noisy cable or a starved host can leave the board a few seconds without one clean
    frame: it shows the waiting pattern, and a press made then is kept, not dropped."""
    async def scenario() -> None:
        async with connected(sim.port) as conn:
            presses: list[int] = []
            conn.listeners.append(lambda msg: presses.append(msg.fields["action"])
                                  if msg.type == m.BUTTON else None)
            speak = conn.link._write
            conn.link._write = lambda data: None  # every frame the host sends is lost
            await until(lambda: sim.control("cells")["waiting"], timeout=8,
                        what="the board gives up on the host")
            dropped = sim.control("stats")["events_dropped"]
            sim.control("button", button=1, action="click")

            def scanned() -> bool:  # the press and the release went somewhere: queued or dropped
                stats = sim.control("stats")
                return stats["events_unacked"] + stats["events_dropped"] - dropped >= 2

            await until(scanned, what="the board's scan of the press and the release")
            conn.link._write = speak
            await until(lambda: m.RELEASE in presses, timeout=10, what="the press kept for the host")
            assert presses == [m.PRESS, m.RELEASE]

    asyncio.run(scenario())


def test_an_unreadable_tag_and_a_stacked_tile_are_slot_states_over_the_link(sim: SimProcess) -> None:
    async def scenario() -> None:
        async with connected(sim.port) as conn:
            states: list[tuple[int, int]] = []
            conn.listeners.append(lambda msg: states.append((msg.fields["slot"], msg.fields["present"]))
                                  if msg.type == m.SLOT else None)
            tile = tilepayload.encode(1, 3, 2, 78)
            sim.control("place", slot=6, uid="04a1b2c3d4e5f7", payload=tile.hex(), fault="crc")
            await until(lambda: (6, m.SLOT_UNREADABLE) in states, 10, "the slot said unreadable")
            sim.control("place", slot=6, uid="04a1b2c3d4e5f7", payload=tile.hex())  # put back flat
            await until(lambda: states[-1] == (6, m.SLOT_TAG), 10, "the tile read cleanly")
            sim.control("place", slot=6, uid="04a1b2c3d4e5f8", payload=tile.hex(), stack=True)
            await until(lambda: states[-1] == (6, m.SLOT_SEVERAL), 10, "the stacked tile seen")
            sim.control("remove", slot=6)
            await until(lambda: states[-1] == (6, m.SLOT_EMPTY), 10, "the slot empty")
            assert states.count((6, m.SLOT_UNREADABLE)) == 1  # said once, not on every poll

    asyncio.run(scenario())


def test_reader_errors_and_over_temperature_reach_the_host(sim: SimProcess) -> None:
    from botboard.cli.status import summary

    async def scenario() -> None:
        async with connected(sim.port) as conn:
            tile = tilepayload.encode(1, 3, 2, 79)
            sim.control("place", slot=3, uid="04a1b2c3d4e5f9", payload=tile.hex(), fault="crc")
            sim.control("heat", slot=7, hot=True)
            readers = await until(lambda: conn.board_readers and 7 in conn.board_readers
                                  and conn.board_readers.get(3, {}).get("crc_errors"),
                                  10, "the counters in READER_STATS") and conn.board_readers
            assert readers[7] == {"hot": 1, "crc_errors": 0, "collisions": 0, "over_temperature": 1}
            assert readers[3]["hot"] == 0
            await until(lambda: conn.board_error_kinds.get("reader fault"), 10, "the ERROR")
            errors = [msg.fields["text"] for msg in conn.trace if msg.type == m.ERROR]
            assert any(t.startswith("slot 7: reader over temperature") for t in errors), errors
            status = summary({"link": conn.status()})
            assert status["readers"]["7"]["over_temperature"] == 1
            assert sim.control("stats")["readers_hot"][7] == 1
            sim.control("heat", slot=7, hot=False)
            await until(lambda: conn.board_readers and conn.board_readers[7]["hot"] == 0, 10,
                        "the reader cooled")

    asyncio.run(scenario())
