"""Tag-to-event latency from the firmware's real poll order, recorded in MicroPython.

The whole firmware runs in the simulated board (Board over the simulated HAL, a
layout's readers on the chip model) with tiles laid as in one game phase
(scan_worst.PHASES), and every reader operation is recorded by kind, with a mark
where the other tasks (buttons, render, link) run between input steps and where
a reader's field is switched. For every moment and every empty slot, the
operations until that slot's next look are what a tile landing then would wait
for: priced with each operation's cost, and with the guard time the firmware
keeps before the first request after a reader's field came on (readers._FIELD_GUARD_US), their
worst is the tag-to-event worst case under the field schedule.

    trace = record(config, phase, steps)             [(kind, slot), ...]
    found = moments(trace, targets)                  (t, slot, ops) per landing
    worst_ms(trace, targets, cost)                   the worst landing, in ms

tests/firmware/test_scanner_worst.py lays a tile at the worst moment and checks
that it waits for exactly the recorded operations; ``botboard bench firmware``
reports the figures.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

from . import scan_worst as sw

FIELD_ON = "field_on"  # a reader's carrier switched on (its guard time starts)
FIELD_OFF = "field_off"
KINDS = (sw.EMPTY_POLL, sw.PRESENT_POLL, sw.RECHECK_POLL, sw.GONE_POLL, sw.TAG_SELECT,
         sw.PAYLOAD_READ, sw.OTHER_TASKS, sw.SLOT_EVENT, "unknown", FIELD_ON, FIELD_OFF,
         sw.TAG_RESELECT)
POLLS = (sw.EMPTY_POLL, sw.PRESENT_POLL, sw.RECHECK_POLL, sw.GONE_POLL, sw.TAG_SELECT,
         sw.TAG_RESELECT)
STATION = list(range(sw.STATION_SLOTS))  # the active station: slots 0-5
WARMUP_STEPS = 80  # every tile laid has arrived, tag checks are in their cycle
HEAP = "256K"  # the big arena's board fills the Pico-sized heap; the recording needs room too
GUARD_US = 5100  # firmware/bbfw/readers.py _FIELD_GUARD_US
ARRIVAL = [sw.TAG_SELECT, sw.PAYLOAD_READ, sw.SLOT_EVENT]

SCRIPT = """
import json, time
from bbfw.sim.box import Box, uid, PAYLOAD
from bbfw.drivers.ntag_reader import NtagReader
from bbshared import messages as m
P = json.loads(PARAMS)
KINDS = P["kinds"]
kinds = bytearray(P["steps"] * 40)  # the record, made first: one byte a kind, one a slot
slots = bytearray(len(kinds))
CALLS = {"detect1": 0, "detect0": 4, "still_there0": 1, "halt0detect0": 2,
         "still_there1detect1": 3, "reselect0wake_others1": 11,
         "reselect0wake_others0": 11, "reselect1detect1": 3,
         "reselect1detect0": 4}  # driver calls of one bank poll -> index in KINDS
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
    setattr(NtagReader, name, call)
for name in ("detect", "still_there", "halt", "reselect", "wake_others"):
    spy(name, getattr(NtagReader, name))

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
real_field = bank.field
def field(s, on):
    if bank.on[s] != on:
        note(9 if on else 10, s)
    real_field(s, on)
bank.field = field
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


Runner = Callable[[str, str], str]  # (code, heap) -> what MicroPython printed


def record(run: Runner, config: str, phase: sw.Phase, steps: int, place_at: int = -1,
           target: int = 255, slots: int = sw.STATION_SLOTS + sw.OTHER_SLOTS) -> list[tuple[str, int]]:
    """The operations of ``steps`` input steps in a phase (the big arena's slots: the active
    station 0-5, the others after it); with ``place_at``, a tile laid in slot ``target``
    before operation place_at, recorded until its event."""
    filled = STATION[:phase.station_tiles]
    tiles = filled + (list(range(sw.STATION_SLOTS, slots)) if phase.others_full else [])
    listed = STATION if phase.lists_filled else STATION[phase.station_tiles:]
    params = {"config": config, "kinds": KINDS, "tiles": tiles, "priority": listed,
              "warmup": WARMUP_STEPS, "steps": steps, "place_at": place_at, "target": target}
    out = run(f"PARAMS = {json.dumps(json.dumps(params))}\n" + SCRIPT, HEAP)
    lines = out.split("ops\n", 1)[1].splitlines()
    return [(KINDS[int(k)], int(s)) for k, s in (line.split() for line in lines)]


Op = tuple[str, int]  # (kind, slot) as recorded


def moments(trace: list[Op], targets: Iterable[int]) -> list[tuple[int, int, list[Op]]]:
    """(t, slot, operations until its event) for a tile landing before trace[t] in each
    empty slot."""
    out = []
    for slot in targets:
        looks = [j for j, (kind, s) in enumerate(trace) if s == slot and kind in POLLS]
        assert all(trace[j][0] == sw.EMPTY_POLL for j in looks), "an empty slot polled otherwise"
        for t in range(looks[0] + 1, looks[-1] + 1):
            j = next(j for j in looks if j >= t)
            out.append((t, slot, trace[t:j] + [(kind, slot) for kind in ARRIVAL]))
    return out


def timeline(ops: list[Op], cost: dict[str, float], guard_us: float = GUARD_US) -> float:
    """Time (us) of a run of operations: each one's cost, and before the first request to a
    reader after its field came on, what is left of its guard time (the firmware's
    bank.settle(slot): each field its own)."""
    return _run(_priced(ops, cost), guard_us, 0.0, {})


Priced = list[tuple[float, bool, bool, int]]  # (cost, a poll, a field switched on, slot)


def _priced(ops: list[Op], cost: dict[str, float]) -> Priced:
    return [(cost[kind], kind in POLLS, kind == FIELD_ON, slot) for kind, slot in ops]


def _run(ops: Priced, guard_us: float, t: float, on_at: dict[int, float]) -> float:
    """timeline's walk, from time ``t`` with fields ``on_at`` (changed in place)."""
    for us, poll, field_on, slot in ops:
        if poll and slot in on_at:
            t = max(t, on_at.pop(slot) + guard_us)
        t += us
        if field_on:
            on_at[slot] = t
    return t


LEAD = 80  # operations before a landing priced with it: far more than a guard time's worth


def worst(trace: list[Op], targets: Iterable[int],
          cost: dict[str, float]) -> tuple[float, tuple[int, int, list[Op]]]:
    """The worst landing in the target slots: (its time in us, the moment)."""
    found = moments(trace, targets)
    # the trace before t matters too: a field switched on before the landing may still
    # hold a request back. Every slot landing at t has the same lead: walked once.
    priced, arrival = _priced(trace, cost), _priced([(kind, 0) for kind in ARRIVAL], cost)
    leads: dict[int, tuple[float, dict[int, float]]] = {}
    best = (-1.0, found[0])
    for m in found:
        t, slot, ops = m
        if t not in leads:
            on_at: dict[int, float] = {}
            leads[t] = (_run(priced[max(0, t - LEAD):t], GUARD_US, 0.0, on_at), on_at)
        start, on_at = leads[t]
        tail = priced[t:t + len(ops) - len(ARRIVAL)] + [(us, poll, on, slot) for us, poll, on, _ in arrival]
        us = _run(tail, GUARD_US, start, dict(on_at)) - start
        if us > best[0]:
            best = (us, m)
    return best
