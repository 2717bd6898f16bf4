# Wiring faults of a newly built board, injected into the simulated board so
# that a maker can try `botboard bringup` without hardware (and tests can see
# it name each one).  Sim-only code (unix port); the host writes the faults as
# JSON (host/botboard/board/sim_faults.py) and hal_sim loads them at boot:
#   {"swap": [[a, b]...]     the readers of slots a and b on each other's cable
#    "dead": [r...]          reader r does not answer (a broken module or cable)
#    "cross": [[x, y]...]    reader x also hears a tile laid on slot y
#    "reverse": [c...]       LED chain c's cells wired in the reverse order
#    "supply": {"open_mv", "source_mohm"}}   the LED supply (sim/supplies.json)
# A slot here is where a hand lays a tile (the reference wiring's reader of
# that number); a reader is the chip select the firmware polls.
import json

from ..render import CHANNEL_MA, IDLE_MA

# no supply given (a Board built directly by a test): a stiff 5 V rail
_STIFF = {"open_mv": 5000, "source_mohm": 0}


class Faults:
    def __init__(self, doc=None):
        doc = doc or {}
        self.swap = {}
        for a, b in doc.get("swap", ()):
            self.swap[a] = b
            self.swap[b] = a
        self.dead = doc.get("dead", ())
        self.cross = doc.get("cross", ())
        self.reverse = doc.get("reverse", ())
        self.supply = doc.get("supply", _STIFF)

    def readers_hearing(self, slot):
        # the readers whose field a tile laid on `slot` is in
        heard = [self.swap.get(slot, slot)]
        for x, y in self.cross:
            if y == slot and x not in heard:
                heard.append(x)
        return heard

    def physical(self, buf, chains, leds_per_cell):
        # what the LEDs show where they physically are: a reversed chain's
        # cells light in the reverse order (each cell's own LEDs as designed)
        if not self.reverse:
            return buf
        out = bytearray(buf)
        step = 3 * leds_per_cell
        for c in self.reverse:
            first, count = chains[c][1], chains[c][2]
            for i in range(count):
                src = (first + count - 1 - i) * step
                out[(first + i) * step:(first + i + 1) * step] = buf[src:src + step]
        return out

    def supply_mv(self, buf):
        # the rail under load: the open-circuit voltage less the drop across
        # the source resistance (supply, wires, connectors) at the current the
        # LEDs draw, from the WS2812B figures the renderer also uses
        leds = len(buf) // 3
        ma = leds * IDLE_MA + sum(buf) * CHANNEL_MA // 255
        s = self.supply
        return max(0, s["open_mv"] - ma * s["source_mohm"] // 1000)


def load(path):
    if not path:
        return Faults()
    with open(path) as f:
        return Faults(json.load(f))
