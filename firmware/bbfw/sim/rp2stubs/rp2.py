# Stand-in for the rp2 module (PIO state machines, DMA) where there is none
# (the unix port in tests, the webassembly port in the heap benchmark).
#
# asm_pio really assembles: it runs the decorated function twice (labels, then
# code) with the PIO vocabulary as its globals, like the rp2 port's asm_pio, and
# returns the same program list: [words, -1, -1, EXECCTRL, SHIFTCTRL, out_init,
# set_init, sideset_init].  Encodings: RP2040 datasheet 3.4 (instruction set),
# 3.7 (SMx_EXECCTRL, SMx_SHIFTCTRL bit positions); constants as the rp2 port's.
# tests/firmware/test_ws2812_pio.py runs the words in a PIO emulator.
from array import array

log = []  # what the HAL did; None: record nothing (a long benchmark run)
machines = []  # (state machine number, program, freq) for each StateMachine made


def _note(entry):
    if log is not None:
        log.append(entry)


class PIO:
    IN_LOW = 0
    IN_HIGH = 1
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1
    JOIN_NONE = 0
    JOIN_TX = 1
    JOIN_RX = 2


# operand numbers of the instruction set (datasheet 3.4.2-3.4.10)
_OPERANDS = {"pins": 0, "x": 1, "y": 2, "null": 3, "pindirs": 4, "pc": 5, "status": 5,
             "isr": 6, "osr": 7, "exec": 8,
             "not_x": 1, "x_dec": 2, "not_y": 3, "y_dec": 4, "x_not_y": 5, "pin": 6, "not_osre": 7,
             "block": 0x21, "noblock": 0x01, "ifempty": 0x40, "iffull": 0x40}


def _blocking(flags):
    # bit 0 marks noblock; without it push and pull block (bit 5)
    return (flags if flags & 1 else flags | 0x20) & 0x60


class _Asm:
    def __init__(self, sideset_init=None, side_pindir=False, in_shiftdir=0, out_shiftdir=0,
                 autopush=False, autopull=False, push_thresh=32, pull_thresh=32, fifo_join=0,
                 out_init=None, set_init=None):
        if sideset_init is None:
            self.side_bits = 0
        else:
            self.side_bits = 1 if isinstance(sideset_init, int) else len(sideset_init)
        self.execctrl = side_pindir << 29
        self.shiftctrl = (fifo_join << 30 | (pull_thresh & 31) << 25 | (push_thresh & 31) << 20
                          | out_shiftdir << 19 | in_shiftdir << 18 | autopull << 17 | autopush << 16)
        self.inits = [out_init, set_init, sideset_init]
        self.labels = {}
        self.words = array("H")

    def run(self, fn):
        for self.final in (False, True):
            self.count = 0
            self.sides = 0
            self.wrapped = False
            self.execctrl &= ~(31 << 12 | 31 << 7)
            self.words = array("H")
            if self.final:
                self.opt = self.side_bits and self.sides_seen != self.instrs_seen
                self.execctrl |= bool(self.opt) << 30
            fn()
            if not self.wrapped:
                self.wrap()
            self.instrs_seen, self.sides_seen = self.count, self.sides
        return [self.words, -1, -1, self.execctrl, self.shiftctrl] + self.inits

    def vocabulary(self):
        names = dict(_OPERANDS)
        for name in ("wrap_target", "wrap", "label", "word", "nop", "jmp", "wait", "in_", "out",
                     "push", "pull", "mov", "irq", "set"):
            names[name] = getattr(self, name)
        return names

    # directives
    def wrap_target(self):
        self.execctrl |= self.count << 7

    def wrap(self):
        self.execctrl |= (self.count - 1) << 12
        self.wrapped = True

    def label(self, name):
        if not self.final:
            self.labels[name] = self.count

    # instructions: each emits one word and returns self for .side() and [delay]
    def word(self, w, target=None):
        self.count += 1
        if self.final:
            self.words.append(w | (self.labels[target] if target is not None else 0))
        return self

    def side(self, value):
        self.sides += 1
        if self.final:
            bits = self.side_bits + bool(self.opt)
            if value >= 1 << self.side_bits:
                raise ValueError("side-set value %d does not fit %d bits" % (value, self.side_bits))
            self.words[-1] |= (value | (1 << self.side_bits if self.opt else 0)) << (13 - bits)
        return self

    def __getitem__(self, delay):
        if self.final:
            bits = self.side_bits + bool(self.opt)
            if not 0 <= delay < 1 << (5 - bits):
                raise ValueError("delay %d does not fit %d bits" % (delay, 5 - bits))
            self.words[-1] |= delay << 8
        return self

    def nop(self):
        return self.mov(2, 2)  # mov y, y

    def jmp(self, cond, target=None):
        if target is None:
            cond, target = 0, cond
        return self.word(cond << 5, target)

    def wait(self, polarity, src, index):
        return self.word(0x2000 | polarity << 7 | {0: 0, 6: 1}.get(src, 2) << 5 | index)

    def in_(self, src, bits):
        return self.word(0x4000 | src << 5 | bits & 31)

    def out(self, dest, bits):
        return self.word(0x6000 | (7 if dest == 8 else dest) << 5 | bits & 31)

    def push(self, a=0, b=0):
        return self.word(0x8000 | _blocking(a | b))

    def pull(self, a=0, b=0):
        return self.word(0x8080 | _blocking(a | b))

    def mov(self, dest, src):
        return self.word(0xA000 | (4 if dest == 8 else dest) << 5 | src)

    def irq(self, mod, index=None):
        if index is None:
            mod, index = 0, mod
        return self.word(0xC000 | mod & 0x60 | index)

    def set(self, dest, data):
        return self.word(0xE000 | dest << 5 | data)


def asm_pio(**kw):
    def assemble(fn):
        asm = _Asm(**kw)
        names = fn.__globals__
        saved = dict(names)
        names.clear()
        names.update(asm.vocabulary())
        try:
            return asm.run(fn)
        finally:
            names.clear()
            names.update(saved)
    return assemble


class StateMachine:
    def __init__(self, n, prog, freq=-1, sideset_base=None):
        _note(("sm", n, sideset_base.n))
        machines.append((n, prog, freq))

    def active(self, on):
        pass


class DMA:
    def pack_ctrl(self, **kw):
        return 0

    def config(self, **kw):
        _note(("dma", kw["count"]))

    def active(self):
        return False
