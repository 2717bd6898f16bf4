"""The worst-case formula (host/botboard/bench/scan_worst.py) against the real poll order.

The whole firmware runs in MicroPython (Board over the simulated HAL, the big
arena's 36 readers on the chip model) in each game phase, and every reader
operation is recorded by kind, with a mark where the other tasks (buttons,
render, link) run between input steps. Run A records a stretch of steady
scanning; for every moment and every empty slot of the active station the
operations until that slot's next look are what a tile landing then would wait
for. Run B starts the same board again and lays a tile at the worst of those
moments: the sequence it records up to the SLOT event must be the predicted one,
and its counts must be the formula's. A formula that left out a round of polls
(or counted one too many) fails here.
"""

from __future__ import annotations

import json
from collections import Counter
import pytest

from botboard.bench import scan_worst as sw
from botboard.board import layouts
from tests.mpy import run_mpy

KINDS = (sw.EMPTY_POLL, sw.PRESENT_POLL, sw.RECHECK_POLL, sw.GONE_POLL, sw.TAG_SELECT,
         sw.PAYLOAD_READ, sw.OTHER_TASKS, sw.SLOT_EVENT, "unknown")
STATION = list(range(sw.STATION_SLOTS))  # the active station: slots 0-5
WARMUP_STEPS = 80  # every tile laid has arrived, tag checks are in their cycle
HEAP = "256K"  # the big arena's board fills the Pico-sized heap; the recording needs room too
TRACE_STEPS = 250  # a full cycle of the slow polls (30 others, one recheck in 4, taking turns)

SCRIPT = """
import json, time
from bbfw.sim.box import Box, uid, PAYLOAD
from bbfw.drivers.mfrc522 import MFRC522
from bbshared import messages as m
P = json.loads(PARAMS)
KINDS = P["kinds"]
kinds = bytearray(P["steps"] * 20)  # the record, made first: one byte a kind, one a slot
slots = bytearray(len(kinds))
CALLS = {"detect1": 0, "detect0": 4, "still_there0": 1, "halt0detect0": 2,
         "still_there1detect1": 3}  # driver calls of one bank poll -> index in KINDS
box = Box(P["config"])
box.hello()
board = box.board
for s in P["tiles"]:
    box.field.place(s, uid(s), PAYLOAD)
box.send(m.SET_PRIORITY, bytes(P["priority"]))
box.steps(P["warmup"])

calls = []
def spy(name, fn):
    def call(self, *a):
        st = fn(self, *a)
        calls.append(name + str(st))
        return st
    setattr(MFRC522, name, call)
for name in ("detect", "still_there", "halt"):
    spy(name, getattr(MFRC522, name))

n = 0
def note(kind, slot):
    global n
    kinds[n] = kind
    slots[n] = slot
    n += 1
    if n == P["place_at"]:
        box.field.place(P["target"], uid(P["target"]), PAYLOAD)

bank = board.hal.readers
real_poll, real_read = bank.poll, bank.read_payload
def poll(s):
    del calls[:]
    r = real_poll(s)
    note(CALLS.get("".join(calls), 8), s)
    return r
def read_payload(s):
    r = real_read(s)
    note(5, s)
    return r
bank.poll, bank.read_payload = poll, read_payload
sc = board.scanner
real_event = sc._on_event
done = []
def on_event(slot, present, uid_, payload):
    if present:
        note(7, slot)
        if slot == P["target"]:
            done.append(n)
    real_event(slot, present, uid_, payload)
sc._on_event = on_event

for _ in range(P["steps"]):
    now = time.ticks_ms()
    board.link_step(now)
    board.input_step(now)
    note(6, 255)  # the other tasks run here: render, link, buttons (first in the next input_step)
    board.render_step(now)
    board.link_step(now)
    if done:
        break
print("ops")
for i in range(n):  # a line an operation: one big string needs a block a fragmented heap may not have
    print(kinds[i], slots[i])
"""

# per-operation costs (us) to rank the moments: RP2040-like, and one where the
# other tasks are cheap (the other branch of the formula's max)
RP2040_LIKE = {sw.EMPTY_POLL: 1100, sw.PRESENT_POLL: 2900, sw.RECHECK_POLL: 10000,
               sw.GONE_POLL: 3300, sw.TAG_SELECT: 8900, sw.PAYLOAD_READ: 3900,
               sw.OTHER_TASKS: 3600, sw.SLOT_EVENT: 1200}
CHEAP_TASKS = {**RP2040_LIKE, sw.OTHER_TASKS: 100}


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("scanworst") / "ttb-big.json"
    path.write_text(json.dumps(layouts.load("ttb-big").board_config()))
    return str(path)


def record(config: str, phase: sw.Phase, steps: int, place_at: int = -1,
           target: int = 255) -> list[tuple[str, int]]:
    filled = STATION[:phase.station_tiles]
    tiles = filled + (list(range(sw.STATION_SLOTS, sw.STATION_SLOTS + sw.OTHER_SLOTS))
                      if phase.others_full else [])
    listed = STATION if phase.lists_filled else STATION[phase.station_tiles:]
    params = {"config": config, "kinds": KINDS, "tiles": tiles, "priority": listed,
              "warmup": WARMUP_STEPS, "steps": steps, "place_at": place_at, "target": target}
    out = run_mpy(f"PARAMS = {json.dumps(json.dumps(params))}\n" + SCRIPT, timeout=180, heap=HEAP)
    lines = out.split("ops\n", 1)[1].splitlines()
    return [(KINDS[int(k)], int(s)) for k, s in (line.split() for line in lines)]


ARRIVAL = [sw.TAG_SELECT, sw.PAYLOAD_READ, sw.SLOT_EVENT]


def moments(trace: list[tuple[str, int]], targets: list[int]) -> list[tuple[int, int, list[str]]]:
    """(t, slot, kinds until its event) for a tile landing before trace[t] in each empty slot."""
    out = []
    for slot in targets:
        looks = [j for j, (kind, s) in enumerate(trace) if s == slot]
        assert all(trace[j][0] == sw.EMPTY_POLL for j in looks), "an empty slot polled otherwise"
        for t in range(looks[0] + 1, looks[-1] + 1):
            j = next(j for j in looks if j >= t)
            out.append((t, slot, [kind for kind, _ in trace[t:j]] + ARRIVAL))
    return out


@pytest.mark.parametrize("phase", sw.PHASES, ids=[p.name for p in sw.PHASES])
def test_formula_counts_equal_the_recorded_worst_case(config: str, phase: sw.Phase) -> None:
    trace = record(config, phase, TRACE_STEPS)
    assert "unknown" not in {kind for kind, _ in trace}
    targets = STATION[phase.station_tiles:]
    found = moments(trace, targets)
    worst = {}
    for name, cost in (("rp2040", RP2040_LIKE), ("cheap_tasks", CHEAP_TASKS)):
        worst[name] = max(found, key=lambda m: sw.total_us(Counter(m[2]), cost))
        assert sw.worst_ops(phase, cost) == dict(sorted(Counter(worst[name][2]).items())), (
            f"{phase.name}, {name} costs: recorded {worst[name][2]}")
    # the worst moment for real: a tile laid there waits for exactly that
    t, slot, kinds = worst["rp2040"]
    real = record(config, phase, TRACE_STEPS, place_at=t, target=slot)
    assert real[:t] == trace[:t]  # the same board, the same polls until the tile lands
    event = real.index((sw.SLOT_EVENT, slot), t)
    assert [kind for kind, _ in real[t:event + 1]] == kinds


def test_every_phase_keeps_a_slow_poll_and_the_other_tasks_apart(config: str) -> None:
    # without the watch pass both would fall in one round: the audit's missing round
    phase = sw.PHASES[1]
    trace = record(config, phase, 40)
    steps: list[list[str]] = [[]]
    for kind, _ in trace:
        steps[-1].append(kind)
        if kind == sw.OTHER_TASKS:
            steps.append([])
    full = [s for s in steps if s and s[-1] == sw.OTHER_TASKS]
    # step: 6 looks, one slow poll, 6 looks again (the watch), then the other tasks
    assert all(s[:6] == [sw.EMPTY_POLL] * 6 and s[7:13] == [sw.EMPTY_POLL] * 6
               and s[6] in sw.TAG_POLLS and len(s) == 14 for s in full), full[:3]
