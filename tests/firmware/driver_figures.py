# Firmware driver figures: SPI bytes, RF frames and bits per reader operation, and
# interpreter time in the simulated board (36 readers on the 74HC595 chain).
# Run: MICROPYPATH=firmware:shared .venv/bin/micropython -X heapsize=160K tests/firmware/driver_figures.py
# Each count is [SPI bytes, RF frames, bits sent, bits received].
import json, time
from bbfw.sim.spi_model import SimReaderField
from bbfw.drivers.ntag_reader import NtagReader
from bbfw.readers import ReaderBank
from bbshared import tilepayload as tp
f = SimReaderField(36, chain=True)
bank = ReaderBank([NtagReader(f.spi, f.cs(i)) for i in range(36)]); bank.init()
m = f.engine  # air-time counters: all readers together
def snap(): return [f.spi.bytes, m.frames, m.tx_bits, m.rx_bits]
def measure(fn):
    a = snap(); fn(); b = snap(); return [b[i] - a[i] for i in range(4)]
bank.poll(0)
out = {"empty_poll": measure(lambda: bank.poll(0)),
       "empty_poll_other_reader": [0]}
bank.poll(1)
out["empty_poll_other_reader"] = measure(lambda: bank.poll(0))
f.place(0, b'\x04\x01\x02\x03\x04\x05\x06', tp.encode(1, 2, 3, 4))
out["arrival_poll"] = measure(lambda: bank.poll(0))
out["arrival_payload"] = measure(lambda: bank.read_payload(0))
out["present_poll"] = measure(lambda: bank.poll(0))
f.remove(0)
out["departure_poll"] = measure(lambda: bank.poll(0))
t = time.ticks_us()
for i in range(10000): bank.poll(1)
out["sim_empty_poll_us"] = time.ticks_diff(time.ticks_us(), t) / 10000
t = time.ticks_us()
for i in range(1000):
    f.place(2, b'\x04\x01\x02\x03\x04\x05\x06', tp.encode(1, 2, 3, 4)); bank.poll(2); bank.read_payload(2)
out["sim_arrival_us"] = time.ticks_diff(time.ticks_us(), t) / 1000
print(json.dumps(out))
