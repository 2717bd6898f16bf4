# Stand-in for the rp2 port's machine module, for running hal_rp2 where there
# is none (the unix port in tests, the webassembly port in the 32-bit heap
# benchmark): pins and SPI record what the HAL does. Unwired, nothing answers
# on the bus; wire(bus, pins) puts a bus model behind SPI and model pins
# behind pin numbers, so that the chip models answer.  Sim-only code.
log = []  # what the HAL did; None: record nothing (a long benchmark run)
adc_u16 = {}  # GPIO -> what ADC(Pin(GPIO)).read_u16() reads (a test sets it)
_bus = None
_pins = {}


def _note(entry):
    if log is not None:
        log.append(entry)


def wire(bus, pins):
    # bus: SPI-like (spi_model.SPIBus); pins: {GPIO number: SimPin-like}
    global _bus, _pins
    _bus = bus
    _pins = pins


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_RISING = 8

    def __init__(self, n, mode=-1, pull=-1, value=None):
        self.n = n
        self._model = _pins.get(n)
        self.v = 1 if pull == Pin.PULL_UP else (value or 0)
        if value is not None and self._model is not None:
            self._model.value(value)
        _note(("pin", n, mode))

    def value(self, v=None):
        if self._model is not None:
            return self._model.value(v)
        if v is None:
            return self.v
        self.v = v

    def __call__(self, v=None):
        return self.value(v)

    def irq(self, handler=None, trigger=0):
        _note(("irq", self.n, handler is not None))


class SPI:
    def __init__(self, bus, **kw):
        self.written = 0
        _note(("spi", bus, kw.get("baudrate")))

    def write(self, buf):
        self.written += len(buf)
        if _bus is not None:
            _bus.write(buf)

    def write_readinto(self, w, r):
        if _bus is not None:
            _bus.write_readinto(w, r)
            return
        for i in range(len(r)):
            r[i] = 0xFF  # MISO pulled up: no reader answers

    def readinto(self, buf, write=0):
        self.write_readinto(buf, buf)


class ADC:
    def __init__(self, pin):
        self.n = pin.n

    def read_u16(self):
        return adc_u16.get(self.n, 0)


class WDT:
    def __init__(self, timeout=0):
        _note(("wdt", timeout))

    def feed(self):
        pass


_SIO_GPIO_IN = 0xD0000004


class _Mem:
    def __getitem__(self, a):
        if a == _SIO_GPIO_IN:  # GPIO 0-29, all high: nothing pulls an input low
            return 0x3FFFFFFF
        return 0xFFFFFFFF

    def __setitem__(self, a, v):
        _note(("mem32", a, v))


mem32 = _Mem()
