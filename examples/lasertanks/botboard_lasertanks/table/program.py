"""What a Laser Tanks station's two slots mean (the station module of ``SimultaneousTable``).

The table judges a station only when its own confirm is pressed, and only with its own tiles:
the other tank's program is never read here, and the words of a verdict go to that seat
alone (``secret_slots``). A laid program stays in its slots until the round plays.
"""

from __future__ import annotations

from typing import Any

from botboard.games.base import GameError
from botboard.session.mapping import StationReading, Verdict

from ..orders import REGISTERS, WORDS
from ..state import SEATS, State
from ..tiles import TANKS

SLOT_NAMES = ("first order", "second order")


def read_station(tiles: list[Any], slots: list[int]) -> StationReading:
    """The order tiles in the slots (None where empty); a tag that could not be read is a problem."""
    return StationReading.by_position(tiles, slots, SLOT_NAMES)


def judge(engine: Any, state: State, seat: int, reading: StationReading, slots: list[int],
          settings: dict[str, Any]) -> Verdict:
    foreign = {slots[pos]: f"{SLOT_NAMES[pos]}: that is the {tile}: give it back to {TANKS[tile.owner]}"
               for pos, tile in enumerate(reading.held) if tile is not None and tile.owner != seat}
    if foreign:
        return Verdict.refused(foreign)
    empty = [pos for pos, tile in enumerate(reading.held) if tile is None]
    if empty:
        return Verdict(None, "a program is two orders: put a tile on the "
                       + " and the ".join(SLOT_NAMES[p] for p in empty), tuple(slots[p] for p in empty))
    orders = [tile.order for tile in reading.held]
    text = f"{SEATS[seat]} program {' '.join(orders)}"
    try:
        engine.action_from_str(state, text)
    except GameError as err:
        return Verdict(None, str(err), tuple(slots))
    return Verdict(text, "program: " + ", then ".join(WORDS[o] for o in orders))


def check_station(state: State, seat: int, reading: StationReading, slots: list[int]) -> tuple[list[int], list[str]]:
    """A laid program stays in its slots until the round plays."""
    laid = state.programs[seat]
    if laid is None:
        return [], []
    wrong = [pos for pos in range(REGISTERS)
             if reading.held[pos] is None or reading.held[pos].order != laid[pos]]
    return ([slots[p] for p in wrong], [f"put {WORDS[laid[p]]} back on the {SLOT_NAMES[p]}" for p in wrong])
