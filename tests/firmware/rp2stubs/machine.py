# Stand-in for the rp2 port's machine module, for running hal_rp2 in the unix
# port: pins and SPI record what the HAL does; nothing answers on the bus.
log = []


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = 8

    def __init__(self, n, mode=-1, pull=-1, value=None):
        self.n = n
        self.v = 1 if pull == Pin.PULL_UP else (value or 0)
        log.append(("pin", n, mode))

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=0):
        log.append(("irq", self.n, handler is not None))


class SPI:
    def __init__(self, bus, **kw):
        self.written = 0
        log.append(("spi", bus, kw.get("baudrate")))

    def write(self, buf):
        self.written += len(buf)

    def write_readinto(self, w, r):
        for i in range(len(r)):
            r[i] = 0xFF  # MISO pulled up: no reader answers

    def readinto(self, buf, write=0):
        self.write_readinto(buf, buf)


class WDT:
    def __init__(self, timeout=0):
        log.append(("wdt", timeout))

    def feed(self):
        pass


class _Mem:
    def __getitem__(self, a):
        return 0xFFFFFFFF

    def __setitem__(self, a, v):
        log.append(("mem32", a, v))


mem32 = _Mem()
