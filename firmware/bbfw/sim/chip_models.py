# The chips on the emulated Pico's pins (host/botboard/chip): the same reader
# field, NTAG213 tags, coupling and 74HC595 models as the simulated board,
# driven here by the SPI bytes and pin levels of MicroPython's own rp2 build
# running in the RP2040 emulator.  Sim-only code: it runs in MicroPython's
# webassembly port inside the emulator's node process (chip/node/models.mjs).
#
#   models = ChipModels(config_json)     the simulated board's config (slots,
#                                        buttons, coupling, the readers' places)
#   models.xfer(b, now_us) -> miso       one SPI0 byte: both 595 chains clock
#                                        it, the selected reader answers
#   models.latch(which, v, now_us) -> columns   a chain's RCLK ("cs" or "row")
#                                        or the reader chain's /OE ("oe") moved
#   models.columns() -> mask             the matrix columns a held key pulls low
#   models.key(k, down) -> columns       a hand on key k
#   models.control(line, now_us) -> line a tile op (sim/hands.py) as JSON
#
# Time: the models ask time.ticks_us() how long a field has been on and
# whether a tag's answer is due; here that is the emulated clock (now_us,
# passed with each call), so the emulated chip meets the same guard times and
# latencies as a real Pico would, however slowly this host runs it.
import json
import time as _host_time

from micropython import const

from . import coupling, faults, hands, mfrc522_model, spi_model

_TICKS_MASK = const(0x3FFFFFFF)  # MicroPython's ticks wrap at 2**30


class EmulatedTime:
    # what the models use of the time module, on the emulated clock
    now_us = 0

    @staticmethod
    def ticks_us():
        return EmulatedTime.now_us & _TICKS_MASK

    @staticmethod
    def ticks_ms():
        return (EmulatedTime.now_us // 1000) & _TICKS_MASK

    ticks_diff = _host_time.ticks_diff
    ticks_add = _host_time.ticks_add


for _module in (coupling, mfrc522_model, spi_model):
    _module.time = EmulatedTime


class ChipModels:
    def __init__(self, config_json):
        cfg = json.loads(config_json)
        slots = cfg["slots"]
        self.field = spi_model.SimReaderField(slots, chain=True, coupling=cfg.get("coupling"),
                                              slot_mm=cfg.get("slot_mm"))
        self.faults = faults.Faults()
        bus = self.field.spi
        keys = cfg["buttons"] + (cfg["cells"] if cfg.get("touch") else 0)
        self.cols = len(cfg.get("pins", {}).get("cols", ())) or 8
        self.down = bytearray(keys)
        self.rows = spi_model.ShiftRegModel(max(1, (keys + self.cols - 1) // self.cols))
        self.rows.oe_pin.value(0)  # the row chain has no /OE pin: its outputs always drive (hal_rp2)
        bus.clock_into(self.rows)
        self._pins = {"cs": self.field.shift.latch_pin, "oe": self.field.shift.oe_pin,
                      "row": self.rows.latch_pin}

    def xfer(self, b, now_us):
        EmulatedTime.now_us = now_us
        return self.field.spi._xfer(b)

    def latch(self, which, v, now_us):
        EmulatedTime.now_us = now_us
        self._pins[which].value(v)
        return self.columns()

    def columns(self):
        # a column reads low while a held key's row is driven low (the diodes
        # let no other path through)
        mask = 0
        down = self.down
        cols = self.cols
        rows = self.rows
        for k in range(len(down)):
            if down[k] and not rows.output(k // cols):
                mask |= 1 << (k % cols)
        return mask

    def key(self, k, down):
        if not 0 <= k < len(self.down):
            raise ValueError("no button or touch pad %d on this board" % k)
        self.down[k] = 1 if down else 0
        return self.columns()

    def control(self, line, now_us):
        EmulatedTime.now_us = now_us
        try:
            reply = hands.tile_op(self.field, self.faults, json.loads(line))
            if reply is None:
                reply = {"ok": False, "error": "not a tile op"}
        except Exception as err:  # a bad request must not stop the board
            reply = {"ok": False, "error": "%s: %s" % (type(err).__name__, err)}
        return json.dumps(reply)
