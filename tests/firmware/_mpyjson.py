"""Run a MicroPython snippet that prints one JSON object on its last line."""

from __future__ import annotations

import json
from typing import Any

from tests.mpy import run_mpy

# Four readers on the simulated SPI bus, initialised; `f` is the field.
READERS = """
import json, gc
from bbfw.sim.spi_model import SimReaderField
from bbfw.drivers import ntag_reader as M
f = SimReaderField(4, chain=CHAIN)
rs = [M.NtagReader(f.spi, f.cs(i)) for i in range(4)]
inits = [r.init() for r in rs]
import time
time.sleep_us(5100)  # the fields' guard time before any request (ISO/IEC 14443-3; readers.GUARD_US)
UID = b'\\x04\\x1a\\x2b\\x3c\\x4d\\x5e\\x6f'
"""


def run_json(code: str, chain: bool = False) -> Any:
    out = run_mpy(READERS.replace("CHAIN", str(chain)) + code)
    return json.loads(out.strip().splitlines()[-1])
