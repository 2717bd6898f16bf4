"""Laser Tanks at the table: the session's questions (botboard.session.mapping), answered.

The red tank's station is the layout's first (south), the blue tank's the
second (north); each has two slots, the first and second order of the round's
program. Both seats program at once and in secret: a station is read and
judged only for its own seat, refusals go to that seat alone, and a laid
program stays in its slots until the other seat confirms and the round plays.
"""

from __future__ import annotations

from random import Random
from typing import Any, Sequence

from botboard.board.layouts import Layout
from botboard.games.base import GameError
from botboard.games.catalogue import TileError
from botboard.session.mapping import StationReading, TableError, TableMapping, Verdict

from ..orders import REGISTERS, WORDS
from ..state import SEATS, SIZE, State
from ..tiles import TANKS, OrderTile
from . import leds

SLOT_NAMES = ("first order", "second order")


class LaserTanksTable(TableMapping[State]):
    game = "lasertanks"
    leds = leds
    palette = leds.PALETTE
    palette_index = leds.INDEX
    palette_doc = leds.PALETTE_DOC
    secret_slots = True  # a program is hidden until both are laid

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

    # -- stations ---------------------------------------------------------------------
    def acting_seats(self, state: State) -> list[int]:
        return [i for i in range(len(SEATS)) if self.engine.legal_actions_of(state, i)]

    def read_station(self, state: State, seat: int, tiles: list[Any], slots: list[int]) -> StationReading:
        held: list[str | None] = [None] * REGISTERS
        problems: dict[int, str] = {}
        for pos, (slot, tile) in enumerate(zip(slots, tiles)):
            if isinstance(tile, TileError):
                problems[slot] = f"{SLOT_NAMES[pos]}: {tile}"
            elif isinstance(tile, OrderTile) and tile.owner != seat:
                problems[slot] = f"{SLOT_NAMES[pos]}: that is the {tile}: give it back to {TANKS[tile.owner]}"
            elif tile is not None:
                held[pos] = tile.order
        return StationReading(tuple(held), problems)

    def judge(self, state: State, seat: int, reading: StationReading, slots: list[int],
              settings: dict[str, Any]) -> Verdict:
        if not reading.ok:
            return Verdict(None, "; ".join(reading.problems.values()), tuple(reading.problems))
        empty = [pos for pos, order in enumerate(reading.held) if order is None]
        if empty:
            return Verdict(None, "a program is two orders: put a tile on the "
                           + " and the ".join(SLOT_NAMES[p] for p in empty), tuple(slots[p] for p in empty))
        text = f"{SEATS[seat]} program {' '.join(reading.held)}"
        try:
            self.engine.action_from_str(state, text)
        except GameError as err:
            return Verdict(None, str(err), tuple(slots))
        return Verdict(text, "program: " + ", then ".join(WORDS[o] for o in reading.held))

    def check_station(self, state: State, seat: int, reading: StationReading,
                      slots: list[int]) -> tuple[list[int], list[str]]:
        """A laid program stays in its slots until the round plays."""
        laid = state.programs[seat]
        if laid is None:
            return [], []
        wrong = [pos for pos in range(REGISTERS) if reading.held[pos] != laid[pos]]
        return ([slots[p] for p in wrong],
                [f"put {WORDS[laid[p]]} back on the {SLOT_NAMES[p]}" for p in wrong])

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
        waiting = [TANKS[s] for s in self.acting_seats(state)]
        return (f"round {state.round}: each tank lays two orders and presses confirm "
                f"(waiting for {', '.join(waiting) or 'nobody'})")

    def score_words(self, state: State) -> str:
        return "hits: " + ", ".join(f"{TANKS[i]} {t.hits}" for i, t in enumerate(state.tanks))

    def public_view(self, state: State) -> dict[str, Any]:
        return self.engine.observe(state, -1)  # a seat nobody holds: both programs hidden

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        doc = self.engine.observe(state, seat)
        return {"tank": TANKS[seat], **doc["tanks"][SEATS[seat]], "program": doc["programs"][SEATS[seat]],
                "orders": ", ".join(f"{o} {w}" for o, w in WORDS.items())}

    def public_action(self, state: State, text: str) -> str:
        words = text.split()
        if len(words) > 1 and words[1] == "program":
            return f"{words[0]} program (hidden until both tanks have confirmed)"
        return text
