# The simulated board's control socket (hal_sim): tiles, buttons and touches
# in, what the LEDs and cells show and the board's statistics out, one JSON
# object a line each way on 127.0.0.1.  Loaded only when the board has a
# control port.  Sim-only code (unix port).
import binascii
import gc
import json
import time

import asyncio
from bbshared import messages as m

from . import hands

_HOLD_MS = {"click": 80, "long": 1200}  # how long a click or a long press holds the key
_SEEN_MS = 10000  # longest wait for the scanner to see a key go down or up


async def _write_hex_reply(writer, key, data, extra):
    # A large buffer as hex in a JSON reply, written in pieces: one big
    # string would need a block the firmware's small heap may not have free.
    head = json.dumps(extra)
    writer.write(('{"ok": true, %s"%s": "' % (head[1:-1] + ", " if extra else "", key)).encode())
    view = memoryview(data)
    for i in range(0, len(data), 96):
        writer.write(binascii.hexlify(view[i:i + 96]))
        await writer.drain()
    writer.write(b'"}\n')


async def _answer(hal, board, writer, line):
    try:
        reply = _control(hal, board, json.loads(line))
    except Exception as err:  # a bad request must not stop the board
        reply = {"ok": False, "error": "%s: %s" % (type(err).__name__, err)}
    gc.collect()  # the reply is built while the link may hold many frames
    if isinstance(reply, tuple):
        await _write_hex_reply(writer, *reply)
        return
    try:
        data = json.dumps(reply).encode()
    except MemoryError:
        data = b'{"ok": false, "error": "MemoryError: the reply did not fit the heap"}'
    writer.write(data)
    writer.write(b"\n")
    await writer.drain()


async def serve(hal, board):
    # the control socket: one JSON request a line, one JSON reply a line
    async def client(reader, writer):
        # TCP_NODELAY (Linux: IPPROTO_TCP 6, option 1): a reply written in
        # pieces would otherwise wait 40 ms for the client's delayed ACK
        writer.s.setsockopt(6, 1, 1)
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                await _answer(hal, board, writer, line)
        finally:
            writer.close()  # a client never waits on a connection nobody serves

    await asyncio.start_server(client, "127.0.0.1", hal.control_port)
    while board.running:
        await asyncio.sleep_ms(200)


def _press(hal, board, key, action):
    # What is asked of one key is done in order, a press held until the
    # scanner has seen it down, a release until it has seen it up: a loaded
    # machine starves this process for longer than a press lasts, and a key
    # let go (or pressed again) before the scan saw it would be a press lost.
    if not 0 <= key < len(hal.matrix.down):
        raise ValueError("no button or touch pad %d on this board" % key)
    _last[key] = asyncio.create_task(_after(_last.get(key), hal, board, key, action))


_last: dict = {}  # key -> the task doing the latest thing asked of it


async def _after(previous, hal, board, key, action):
    if previous is not None:
        await previous
        previous = None  # a finished task kept here would keep every one before it: the heap
    if action != "release":
        hal.matrix.down[key] = 1
        await _until(lambda: board.buttons.down(key))
        hold = _HOLD_MS.get(action)  # a click or a long press lets go after this
        if hold is None:
            return
        await asyncio.sleep_ms(hold)
    if hal.matrix.down[key]:
        hal.matrix.down[key] = 0
        await _until(lambda: not board.buttons.down(key))


async def _until(ready):
    # at most _SEEN_MS (a key the scanner cannot see: stuck, or at boot)
    start = time.ticks_ms()
    while not ready() and time.ticks_diff(time.ticks_ms(), start) < _SEEN_MS:
        await asyncio.sleep_ms(2)


async def _flood(board, count):
    i = 0
    while i < count:
        if board.link.send(m.LOG, m.encode(m.LOG, m.LOG_DEBUG, str(i))):
            i += 1
        else:
            await asyncio.sleep_ms(1)


def _control(hal, board, req):
    op = req.get("op")
    reply = hands.tile_op(hal.field, hal.faults, req)
    if reply is not None:
        return reply
    if op == "button":  # action: press, release, or click / long (press, then release)
        _press(hal, board, req["button"], req.get("action", "click"))
    elif op == "touch":
        _press(hal, board, hal.config["buttons"] + req["cell"], req.get("action", "click"))
    elif op == "leds":  # where they light on the board (a reversed chain: sim/faults.py)
        cfg = hal.config
        return ("leds", hal.faults.physical(hal.strip.buf, cfg["chains"], cfg["leds_per_cell"]),
                {"frames": hal.strip.frames})
    elif op == "cells":
        return ("cells", board.cells, {"waiting": board.waiting})
    elif op == "stats":
        gc.collect()
        return {"ok": True, "link": board.link.stats, "heap_free": gc.mem_free(),
                "heap_used": gc.mem_alloc(), "polls": board.scanner.polls,
                "present": board.present_slots(), "events_dropped": board.events_dropped,
                "events_unacked": board.link.pending + len(board._events), "cell_updates": board.cell_updates,
                "cell_updates_check": board.cell_updates_check,
                "brightness": board.renderer.brightness, "power_ma": board.renderer.budget_ma,
                "current_ma": board.renderer.current_ma,
                # per reader: bad-CRC answers, collisions, over-temperature episodes
                "reader_errors": list(hal.readers.errors), "readers_hot": list(hal.readers.hot)}
    elif op == "flood":  # link tests: send n LOG lines numbered 0..n-1
        asyncio.create_task(_flood(board, req["count"]))
    else:
        return {"ok": False, "error": "unknown op %r" % op}
    return {"ok": True}
