"""What the slots physically hold, with the flicker a hand makes.

A tile sliding in may read, vanish and read again; one half in a slot may
come and go for seconds; two tags in one slot make the reader alternate
between their uids. ``Table`` keeps the latest reading of every slot and the
times of its changes, so the session can ask: has this slot been quiet long
enough to trust (``settled``), is it flickering, does it hold two tags?
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from bbshared import messages as m

SETTLE_S = 0.25  # a slot unchanged this long is trusted
FLICKER_WINDOW_S = 3.0  # returns of the tag that just left, counted over this window...
FLICKER_RETURNS = 3  # ...this many or more: a tile left half in the slot
DOUBLE_WINDOW_S = 1.0  # uids alternating, no departure between, this often in this window:
DOUBLE_SWAPS = 3  # two tags (one quick exchange of tiles is a single swap)


# what the board says of a slot that cannot count, to the player who must put it right
TROUBLE = {
    m.SLOT_UNREADABLE: "a tile is there but cannot be read: lift it and put it back flat; if it "
                       "still fails, rewrite it with `botboard tiles write`",
    m.SLOT_SEVERAL: "two tiles lie in one slot: take one away",
    m.SLOT_CROSS: "this slot's reader also hears the tile of the slot beside it: lay that tile "
                  "in the middle of its slot",
}


@dataclass(frozen=True)
class Reading:
    uid: bytes
    payload: bytes
    trouble: str = ""  # why the slot cannot count (TROUBLE), "" when it reads cleanly


@dataclass
class _Slot:
    reading: Reading | None = None
    changed: float = -1e9
    uid_swaps: deque[float] = field(default_factory=lambda: deque(maxlen=8))
    returns: deque[float] = field(default_factory=lambda: deque(maxlen=8))
    gone: bytes = b""  # uid of the tag that left last


class Table:
    def __init__(self) -> None:
        self._slots: dict[int, _Slot] = {}

    def _get(self, slot: int) -> _Slot:
        return self._slots.setdefault(slot, _Slot())

    def update(self, slot: int, present: bool, uid: bytes, payload: bytes, now: float,
               trouble: str = "") -> bool:
        """Record a SLOT event; True if what the slot holds changed."""
        s = self._get(slot)
        new = Reading(bytes(uid), bytes(payload), trouble) if present else None
        if new == s.reading:
            return False
        if new is not None and s.reading is not None and new.uid != s.reading.uid and not trouble:
            s.uid_swaps.append(now)  # another uid without the first leaving: two tags?
        if new is None and s.reading is not None:
            s.gone = s.reading.uid
        elif new is not None and s.reading is None and new.uid == s.gone:
            s.returns.append(now)  # the same tag back: sliding in, or coming and going
        s.reading = new
        s.changed = now
        return True

    def reading(self, slot: int) -> Reading | None:
        s = self._slots.get(slot)
        return s.reading if s else None

    def contents(self) -> dict[int, Reading]:
        return {k: s.reading for k, s in self._slots.items() if s.reading is not None}

    def quiet_for(self, slot: int, now: float) -> float:
        s = self._slots.get(slot)
        return now - s.changed if s else 1e9

    def settled(self, slots: list[int], now: float) -> bool:
        return all(self.quiet_for(k, now) >= SETTLE_S for k in slots)

    def settle_in(self, slots: list[int], now: float) -> float:
        """Seconds until every slot in ``slots`` has been quiet for SETTLE_S (0 if already)."""
        return max([0.0] + [SETTLE_S - self.quiet_for(k, now) for k in slots])

    def flickering(self, slot: int, now: float) -> bool:
        s = self._slots.get(slot)
        return s is not None and sum(1 for t in s.returns if now - t <= FLICKER_WINDOW_S) >= FLICKER_RETURNS

    def doubled(self, slot: int, now: float) -> bool:
        s = self._slots.get(slot)
        return s is not None and sum(1 for t in s.uid_swaps if now - t <= DOUBLE_WINDOW_S) >= DOUBLE_SWAPS
