# Stand-in for the rp2 module (PIO state machines, DMA) where there is none
# (the unix port in tests, the webassembly port in the heap benchmark).
log = []  # what the HAL did; None: record nothing (a long benchmark run)


def _note(entry):
    if log is not None:
        log.append(entry)


class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0


def asm_pio(**kw):
    def wrap(fn):
        return fn  # the PIO program is not assembled here
    return wrap


class StateMachine:
    def __init__(self, n, prog, freq=0, sideset_base=None):
        _note(("sm", n, sideset_base.n))

    def active(self, on):
        pass


class DMA:
    def pack_ctrl(self, **kw):
        return 0

    def config(self, **kw):
        _note(("dma", kw["count"]))

    def active(self):
        return False
