"""Laser Tanks at the table: the session's questions (botboard.session.mapping), answered.

The red tank's station is the layout's first (south), the blue tank's the
second (north); each has two slots, the first and second order of the round's
program. Both seats program at once and in secret: a station is read and
judged only for its own seat (table/program.py, through SimultaneousTable),
refusals go to that seat alone, and a laid program stays in its slots until the
other seat confirms and the round plays.
"""

from __future__ import annotations

from random import Random
from typing import Any, Sequence

from botboard.board.layouts import Layout
from botboard.games.simultaneous import SimultaneousTable
from botboard.session.mapping import TableError

from ..orders import REGISTERS, WORDS
from ..state import SEATS, SIZE, State
from ..tiles import TANKS, OrderTile
from . import leds, program
from .program import SLOT_NAMES


class LaserTanksTable(SimultaneousTable[State]):
    game = "lasertanks"
    leds = leds
    palette = leds.PALETTE
    palette_index = leds.INDEX
    palette_doc = leds.PALETTE_DOC
    program = program  # read_station, judge, check_station of one station (secret_slots comes with it)
    programmers = "tank"

    @classmethod
    def default_layout(cls, players: int) -> str:
        return "lasertanks"

    def seat_stations(self, layout: Layout, state: State) -> tuple[int, ...]:
        if len(layout.stations) < len(SEATS) or len(layout.cells) < SIZE * SIZE:
            raise TableError(f"layout {layout.id}: Laser Tanks needs 2 stations and {SIZE}x{SIZE} cells "
                             "(play it on the lasertanks layout)")
        return (0, 1)

    def coords(self, state: State) -> Sequence[tuple[int, int]]:
        return leds.coords()

    def slots_per_seat(self) -> int:
        return REGISTERS

    def slot_name(self, state: State, pos: int) -> str:
        return SLOT_NAMES[pos]

    def seat_name(self, state: State, seat: int) -> str:
        return TANKS[seat]

    # -- stations: every tank without a program programs now (table/program.py judges one) --
    def acting_seats(self, state: State) -> list[int]:
        return [i for i in range(len(SEATS)) if self.engine.legal_actions_of(state, i)]

    # -- virtual hands ----------------------------------------------------------------
    def station_tiles(self, state: State, seat: int) -> list[Any]:
        laid = state.programs[seat]
        return [OrderTile(o, seat) for o in laid] if laid else [None] * REGISTERS

    def random_program(self, state: State, seat: int, rng: Random,
                       settings: dict[str, Any] | None = None) -> list[Any]:
        choices = self.engine.legal_actions_of(state, seat)
        return [OrderTile(o, seat) for o in choices[rng.randrange(len(choices))].orders]

    # -- words and views --------------------------------------------------------------
    def turn_words(self, state: State) -> str:
        return (f"round {state.round}: each tank lays two orders and presses confirm "
                f"(waiting for {self.waiting(state)})")

    def score_words(self, state: State) -> str:
        return "hits: " + ", ".join(f"{TANKS[i]} {t.hits}" for i, t in enumerate(state.tanks))

    def public_view(self, state: State) -> dict[str, Any]:
        return self.engine.observe(state, -1)  # a seat nobody holds: both programs hidden

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        doc = self.engine.observe(state, seat)
        return {"tank": TANKS[seat], **doc["tanks"][SEATS[seat]], "program": doc["programs"][SEATS[seat]],
                "orders": ", ".join(f"{o} {w}" for o, w in WORDS.items())}
