"""Worst tag-to-event time, from the scanner's poll order and per-operation costs.

The firmware (firmware/bbfw/app.py ``input_step``, scanner.py ``step`` and
``watch``) runs, with SET_PRIORITY naming the active station's slots:

    step:   each priority slot (one holding a tag only on its tag-check turn),
            then ONE slow poll: a tag check or the next other slot, in turns
    watch:  the empty priority slots again, in the same order
    then the other tasks: the button matrix, a render frame, the link

A tile lands in an empty priority slot just after it was looked at; the next
look selects it and reads its payload at once (``present_after`` 1: the select
and the READ are the two reads), and the SLOT event goes out. So the wait is
one round of the other looks, and a round holds the station's other empty slots
and either the slow poll (from the step's look to the watch's) or the other
tasks (from the watch's look to the next step's), never both: whichever costs
more. tests/firmware/test_scanner_worst.py records the real sequence in the
firmware for every phase and checks these counts against it.

Not counted: a tile landing or leaving somewhere else at the same moment (each
adds its own select and read, or a failed check), a slot in trouble, a dead reader.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

STATION_SLOTS = 6  # slots of a station, the active one in the priority list (ttb-big: 6 x 6)
OTHER_SLOTS = 30  # the other stations' slots on the big arena

# the operations, as the firmware test names what it records
EMPTY_POLL = "empty_poll"  # WUPA, no answer: the chip's 0.5 ms timer runs out
PRESENT_POLL = "present_poll"  # FAST_READ of the UID pages of the selected tag
RECHECK_POLL = "recheck_poll"  # one in RECHECK_EVERY: HLTA, WUPA, anticollision + select
GONE_POLL = "gone_poll"  # FAST_READ unanswered, then WUPA unanswered
TAG_SELECT = "tag_select"  # WUPA, anticollision + select at two cascade levels
# a known tile after its field was off: WUPA, SELECT by its UID, a REQA no second tag answers
TAG_RESELECT = "tag_reselect"
PAYLOAD_READ = "payload_read"  # NTAG READ of the payload pages and its CRC check
OTHER_TASKS = "other_tasks"  # button matrix scan, a render frame, an idle link step
SLOT_EVENT = "slot_event"  # encode and queue the SLOT message, and its way to the host
TAG_POLLS = (PRESENT_POLL, RECHECK_POLL)  # what a poll of a slot holding a tile can be


@dataclass(frozen=True)
class Phase:
    """What the slots hold: ``station_tiles`` of the active station's slots hold
    tiles; ``others_full``: every other slot holds one; ``lists_filled``: the
    host's priority list still names the station's filled slots (its update
    lags an arrival), otherwise only the empty ones (what the session sends)."""

    name: str
    station_tiles: int
    others_full: bool
    lists_filled: bool
    text: str

    @property
    def empty_priority(self) -> int:
        return STATION_SLOTS - self.station_tiles

    def slow_polls(self) -> tuple[str, ...]:
        """What the one slow poll of a step can be in this phase."""
        kinds: set[str] = set()
        rest_tiles = self.others_full or (self.station_tiles and not self.lists_filled)
        if rest_tiles or (self.station_tiles and self.lists_filled):
            kinds.update(TAG_POLLS)
        if not self.others_full:
            kinds.add(EMPTY_POLL)
        return tuple(sorted(kinds))


PHASES = (
    Phase("idle", 0, False, False, "no tiles on the board; the active station's 6 slots listed"),
    Phase("mid_game", 0, True, False,
          "the other stations' 30 slots hold tiles; the active station empty"),
    Phase("programming", 4, True, False,
          "the active station holds 4 tiles, its 2 empty slots listed; the rest full"),
    Phase("programming_lag", 4, True, True,
          "as programming, the host still listing all 6 station slots (tag checks)"),
)


def total_us(ops: dict[str, int], cost: dict[str, float]) -> float:
    return sum(n * cost[op] for op, n in ops.items())


def worst_ops(phase: Phase, cost: dict[str, float]) -> dict[str, int]:
    """Operations between a tile's landing and its SLOT event, worst case."""
    others = {EMPTY_POLL: phase.empty_priority - 1}  # the station's other empty slots
    slow = max(phase.slow_polls(), key=lambda op: cost[op])
    after_step = Counter(others) + Counter({slow: 1})
    after_watch = Counter(others) + Counter({OTHER_TASKS: 1})
    wait = max(after_step, after_watch, key=lambda ops: total_us(ops, cost))
    ops = wait + Counter({TAG_SELECT: 1, PAYLOAD_READ: 1, SLOT_EVENT: 1})
    return {op: n for op, n in sorted(ops.items()) if n}


def worst_us(phase: Phase, cost: dict[str, float]) -> float:
    return total_us(worst_ops(phase, cost), cost)
