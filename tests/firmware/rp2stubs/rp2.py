# Stand-in for the rp2 module (PIO state machines, DMA) in the unix port.
log = []


class PIO:
    OUT_LOW = 0
    SHIFT_LEFT = 0


def asm_pio(**kw):
    def wrap(fn):
        return fn  # the PIO program is not assembled here
    return wrap


class StateMachine:
    def __init__(self, n, prog, freq=0, sideset_base=None):
        log.append(("sm", n, sideset_base.n))

    def active(self, on):
        pass


class DMA:
    def pack_ctrl(self, **kw):
        return 0

    def config(self, **kw):
        log.append(("dma", kw["count"]))

    def active(self):
        return False
