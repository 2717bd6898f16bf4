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

from botboard.bench import scan_trace as st
from botboard.bench import scan_worst as sw
from botboard.board import fields, layouts
from tests.mpy import run_mpy

STATION = st.STATION
TRACE_STEPS = 250  # a full cycle of the slow polls (30 others, one recheck in 4, taking turns)


# per-operation costs (us) to rank the moments: RP2040-like, and one where the
# other tasks are cheap (the other branch of the formula's max)
RP2040_LIKE = {sw.EMPTY_POLL: 1100, sw.PRESENT_POLL: 2900, sw.RECHECK_POLL: 10000,
               sw.GONE_POLL: 3300, sw.TAG_SELECT: 8900, sw.PAYLOAD_READ: 3900,
               sw.OTHER_TASKS: 3600, sw.SLOT_EVENT: 1200}
CHEAP_TASKS = {**RP2040_LIKE, sw.OTHER_TASKS: 100}
FIELDS_RP2040_LIKE = {**RP2040_LIKE, st.FIELD_ON: 150, st.FIELD_OFF: 150, sw.TAG_RESELECT: 5400}


@pytest.fixture(scope="module")
def config(tmp_path_factory: pytest.TempPathFactory) -> str:
    # the formula is the scanner's with every field on (a layout without slot places);
    # under field groups the bench prices the recorded poll order itself (scan_trace.py)
    path = tmp_path_factory.mktemp("scanworst") / "ttb-big.json"
    cfg = layouts.load("ttb-big").board_config()
    del cfg["fields"]
    path.write_text(json.dumps(cfg))
    return str(path)


def record(config: str, phase: sw.Phase, steps: int, place_at: int = -1,
           target: int = 255) -> list[tuple[str, int]]:
    return st.record(lambda code, heap: run_mpy(code, timeout=180, heap=heap), config, phase, steps,
                     place_at, target)


moments = st.moments


@pytest.mark.parametrize("phase", sw.PHASES, ids=[p.name for p in sw.PHASES])
def test_formula_counts_equal_the_recorded_worst_case(config: str, phase: sw.Phase) -> None:
    trace = record(config, phase, TRACE_STEPS)
    assert "unknown" not in {kind for kind, _ in trace}
    targets = STATION[phase.station_tiles:]
    found = moments(trace, targets)
    worst = {}
    for name, cost in (("rp2040", RP2040_LIKE), ("cheap_tasks", CHEAP_TASKS)):
        worst[name] = max(found, key=lambda m: sw.total_us(Counter(k for k, _ in m[2]), cost))
        recorded = Counter(k for k, _ in worst[name][2])
        assert sw.worst_ops(phase, cost) == dict(sorted(recorded.items())), (
            f"{phase.name}, {name} costs: recorded {worst[name][2]}")
    # the worst moment for real: a tile laid there waits for exactly that
    t, slot, ops = worst["rp2040"]
    real = record(config, phase, TRACE_STEPS, place_at=t, target=slot)
    assert real[:t] == trace[:t]  # the same board, the same polls until the tile lands
    event = real.index((sw.SLOT_EVENT, slot), t)
    assert real[t:event + 1] == ops


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


@pytest.mark.parametrize("phase", [sw.PHASES[0], sw.PHASES[2]], ids=["idle", "programming"])
def test_under_field_groups_a_tile_at_the_worst_moment_waits_for_the_recorded_operations(
        tmp_path_factory: pytest.TempPathFactory, phase: sw.Phase) -> None:
    # the board as the reference layout deploys it: readers in two field groups
    path = tmp_path_factory.mktemp("groups") / "ttb-big.json"
    path.write_text(json.dumps(layouts.load("ttb-big").board_config()))
    trace = record(str(path), phase, 120)
    kinds = {kind for kind, _ in trace}
    assert "unknown" not in kinds and st.FIELD_ON in kinds
    # a station slot is looked at in its group's turn only: the worst wait holds the
    # other group's turn and a field switch (with its guard time) before the next look
    us, (t, slot, waited) = st.worst(trace, STATION[phase.station_tiles:], FIELDS_RP2040_LIKE)
    kinds = [kind for kind, _ in waited]
    assert st.FIELD_ON in kinds and kinds.count(sw.OTHER_TASKS) >= 1
    real = record(str(path), phase, 120, place_at=t, target=slot)
    assert real[:t] == trace[:t]
    event = real.index((sw.SLOT_EVENT, slot), t)
    assert real[t:event + 1] == waited
    assert us >= st.timeline(waited, FIELDS_RP2040_LIKE)  # and the guard time on top, if any


def _fields_on_over_time(trace: list[tuple[str, int]]) -> list[tuple[str, int, set[int]]]:
    """(kind, slot, the fields on as it runs) for each recorded operation; a field whose first
    switch in the trace is off was on from the start."""
    first: dict[int, str] = {}
    for kind, slot in trace:
        if kind in (st.FIELD_ON, st.FIELD_OFF):
            first.setdefault(slot, kind)
    on = {s for s, kind in first.items() if kind == st.FIELD_OFF}
    on |= {s for kind, s in trace if kind in st.POLLS and s not in first}  # on all along
    out = []
    for kind, slot in trace:
        if kind == st.FIELD_ON:
            on.add(slot)
        elif kind == st.FIELD_OFF:
            on.discard(slot)
        out.append((kind, slot, set(on)))
    return out


@pytest.mark.parametrize("phase", sw.PHASES, ids=[p.name for p in sw.PHASES])
def test_under_field_groups_neighbours_are_never_on_together_and_every_slot_is_looked_at(
        tmp_path_factory: pytest.TempPathFactory, phase: sw.Phase) -> None:
    # the acting station's zone and the others take their groups in turn on their own: at no
    # moment two neighbours' fields on, never more fields than the budget (the power tables
    # count that many), every poll with its reader's field on, and no empty slot starved
    layout = layouts.load("ttb-big")
    path = tmp_path_factory.mktemp("zones") / "ttb-big.json"
    path.write_text(json.dumps(layout.board_config()))
    trace = record(str(path), phase, 120)
    near = fields.neighbours(layout.slot_positions() or [])
    listed = STATION if phase.lists_filled else STATION[phase.station_tiles:]
    most = 0
    for kind, slot, on in _fields_on_over_time(trace):
        most = max(most, len(on))
        assert not any(near[s] & on for s in on), f"neighbours on together: {sorted(on)}"
        if kind in st.POLLS:
            assert slot in on, f"slot {slot} polled with its field off"
    assert most <= len(listed) + 1
    tiles = set(STATION[:phase.station_tiles]) | (
        set(range(sw.STATION_SLOTS, layout.slot_count)) if phase.others_full else set())
    looked = {slot for kind, slot in trace if kind in st.POLLS}
    assert set(range(layout.slot_count)) - tiles <= looked  # every empty slot, in 120 steps
