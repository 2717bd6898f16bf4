# The simulated board's HAL, for the MicroPython unix port.
#
# Serial is stdin/stdout (the launcher, `botboard sim`, joins them to a
# pseudo-terminal). The LED strip is a model that keeps what was last shown.
# Tiles, buttons and cell touches come in through a control socket on
# 127.0.0.1 (one JSON object per line, answered by one JSON line), which is
# also how tests and the console read back what the LEDs show.
#
# Usage: micropython -m bbfw.sim_main CONFIG_PATH CONTROL_PORT
import json
import select
import sys

import asyncio
from bbshared import messages as m

from . import config as board_config


class ModelStrip:
    # What a WS2812 chain would show: `buf` is drawn into, show() latches it.
    def __init__(self, leds):
        self.buf = bytearray(3 * leds)
        self.shown = bytearray(3 * leds)
        self.frames = 0

    def show(self):
        self.shown[:] = self.buf
        self.frames += 1


class VirtualReaders:
    # Slot readers with virtual tags placed through the control socket.
    def __init__(self, slots):
        self.tags = [None] * slots

    def place(self, slot, uid, payload):
        self.tags[slot] = (uid, payload)

    def remove(self, slot):
        self.tags[slot] = None

    def poll(self, slot):
        tag = self.tags[slot]
        return tag[0] if tag else None

    def read_payload(self, slot):
        tag = self.tags[slot]
        return tag[1] if tag else None


class VirtualButtons:
    # Buttons pressed through the control socket, reported on the next scan.
    def __init__(self, on_button):
        self._on_button = on_button
        self.queue = []

    def scan(self, now_ms):
        while self.queue:
            self._on_button(*self.queue.pop(0))


_ACTIONS = {"press": m.PRESS, "release": m.RELEASE, "long": m.LONG_PRESS}


class Hal:
    def __init__(self, config_path=None, control_port=None):
        argv = sys.argv
        self.config = board_config.load(config_path or (argv[1] if len(argv) > 1 else "board.json"))
        self.control_port = int(control_port or (argv[2] if len(argv) > 2 else 0))
        leds = self.config["cells"] * self.config["leds_per_cell"]
        self.strip = ModelStrip(leds)
        self.readers = VirtualReaders(self.config["slots"])
        self._stdin = sys.stdin.buffer
        self._stdout = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self.buttons = None

    # -- serial -----------------------------------------------------------
    def read_into(self, buf):
        # Bytes waiting on the serial line, without blocking; None once closed.
        n = 0
        poll = self._poll
        while n < len(buf):
            ready = poll.poll(0)
            if not ready or not ready[0][1] & select.POLLIN:
                if ready and ready[0][1] & (select.POLLHUP | select.POLLERR):
                    return n or None
                break
            b = self._stdin.read(1)
            if not b:
                return n or None
            buf[n] = b[0]
            n += 1
        return n

    async def wait_readable(self, timeout_ms):
        await asyncio.sleep_ms(1)

    def write(self, data):
        self._stdout.write(data)
        self._stdout.flush()

    # -- inputs -----------------------------------------------------------
    def make_buttons(self, on_button):
        self.buttons = VirtualButtons(on_button)
        return self.buttons

    def watchdog_checkin(self, task):
        pass  # no watchdog on the unix port

    def extra_tasks(self, board):
        if self.control_port:
            return [self._control_server(board)]
        return []

    async def _control_server(self, board):
        async def client(reader, writer):
            while True:
                line = await reader.readline()
                if not line:
                    break
                try:
                    reply = self._control(board, json.loads(line))
                except Exception as err:  # a bad request must not stop the board
                    reply = {"ok": False, "error": "%s: %s" % (type(err).__name__, err)}
                writer.write(json.dumps(reply).encode() + b"\n")
                await writer.drain()
            writer.close()

        await asyncio.start_server(client, "127.0.0.1", self.control_port)
        while board.running:
            await asyncio.sleep_ms(200)

    async def _flood(self, board, count):
        i = 0
        while i < count:
            if board.link.send(m.TOUCH, m.encode(m.TOUCH, i & 0xFFFF)):
                i += 1
            else:
                await asyncio.sleep_ms(1)

    def _control(self, board, req):
        op = req.get("op")
        if op == "place":
            self.readers.place(req["slot"], bytes.fromhex(req["uid"]),
                               bytes.fromhex(req.get("payload", "")))
        elif op == "remove":
            self.readers.remove(req["slot"])
        elif op == "button":
            self.buttons.queue.append((req["button"], _ACTIONS[req.get("action", "press")]))
        elif op == "touch":
            board.touch(req["cell"])
        elif op == "leds":
            return {"ok": True, "frames": self.strip.frames, "leds": self.strip.shown.hex()}
        elif op == "cells":
            return {"ok": True, "cells": board.cells.hex(), "waiting": board.waiting}
        elif op == "stats":
            import gc

            return {"ok": True, "link": board.link.stats, "heap_free": gc.mem_free(),
                    "present": sorted(board.present), "cell_updates": board.cell_updates,
                    "cell_updates_check": board.cell_updates_check}
        elif op == "flood":  # link tests: send n TOUCH events numbered 0..n-1
            asyncio.create_task(self._flood(board, req["count"]))
        else:
            return {"ok": False, "error": "unknown op %r" % op}
        return {"ok": True}
