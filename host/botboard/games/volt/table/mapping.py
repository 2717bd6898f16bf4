"""VOLT at the table: the session's questions, answered for this game.

Operators take the layout's stations in seat order (north, east, south, west
on the reference board). A station's four slots: control units I, II and III,
then the fourth die (RAM EXPANSION only). A die tile says its colour; its
face and key are set on the operator's phone, where nobody else sees them.
Programming is simultaneous and secret; the engine takes programs in the
order operators confirm, which hands out the starting numbers as the rules
say. Decisions (modules, ANCHOR, workshops, decks, reboot spaces, equipping)
are asked on the deciding operator's phone, or stepped through at the station
with previous/next and confirm.
"""

from __future__ import annotations

import re
from random import Random
from typing import Any, Sequence


from ....board.layouts import Layout
from ....session.mapping import TableError
from ...base import Decision, Event
from ...simultaneous import SimultaneousTable
from ..grid import KEYS, UNITS
from ..programs import ProgramChoices
from ..state import State
from . import leds, program, tiles, words
from .floor import floor_json

_UNSEEN = -1  # observe() as nobody: every program and inventory hidden


_DIE = re.compile(r"\b(I{1,3}|IV):([RB])(\d)(NE|NW|SE|SW|N|E|S|W)\b")  # a die as the engine writes it
_COLOUR = {"R": "red", "B": "blue"}
_ROUND_CAP = re.compile(r"round limit (\d+) reached \(the project's cap, not a rule\)")


class VoltTable(SimultaneousTable[State]):
    game = "volt"
    leds = leds
    program = program
    programmers = "operator"
    any_order = True
    default_speed_s = 0.35

    @classmethod
    def default_layout(cls, players: int) -> str:
        return "volt"

    def seat_stations(self, layout: Layout, state: State) -> tuple[int, ...]:
        if state.humans > len(layout.stations):
            raise TableError(f"layout {layout.id} has {len(layout.stations)} stations: VOLT at this "
                             f"board takes at most {len(layout.stations)} operators, not {state.humans}")
        if len(layout.cells) < state.arena.width * state.arena.height:
            raise TableError(f"arena {state.arena.name} is {state.arena.width}x{state.arena.height}: "
                             f"layout {layout.id} has only {len(layout.cells)} cells")
        return tuple(range(state.humans))

    def coords(self, state: State) -> Sequence[tuple[int, int]]:
        return leds.coords(state)

    def slots_per_seat(self) -> int:
        return program.SLOTS

    def slot_name(self, state: State, pos: int) -> str:
        return program.SLOT_NAMES[pos]

    def seat_name(self, state: State, seat: int) -> str:
        return leds.SEAT_COLOURS[seat % 4]

    def engine_words(self, text: str) -> str:
        """The round cap as players read it (the engine's note on where it comes from is for
        the rules' readers: docs/volt.md)."""
        text = _ROUND_CAP.sub(r"all \1 rounds are played: the most victory points win", text)
        return _DIE.sub(lambda m: f"unit {m[1]}'s {_COLOUR[m[2]]} {m[3]} (key {m[4]})", text)

    # -- tiles and stations ----------------------------------------------------
    def acting_seats(self, state: State) -> list[int]:
        if state.phase != "program":
            return []
        return [r.seat for r in state.robots if not r.killbot and r.alive and not r.submitted]

    def controls(self, state: State, seat: int, settings: dict[str, Any]) -> list[dict[str, Any]]:
        return program.controls(state.robots[seat], settings)

    def tile_key(self, tile: tiles.DieTile) -> Any:
        return tile.colour  # a die's owner says who may use it; in a unit only its colour counts

    def clear_reason(self, state: State, seat: int, before: State | None) -> str:
        if before is None or state.round == before.round:
            return super().clear_reason(state, seat, before)
        return f"round {before.round} is over, the dice come off the units"

    # -- virtual hands ------------------------------------------------------------
    def station_tiles(self, state: State, seat: int) -> list[Any]:
        return [tiles.DieTile(c, seat, i + 1) if c else None
                for i, c in enumerate(program.expected_dice(state.robots[seat]))]

    def random_program(self, state: State, seat: int, rng: Random,
                       settings: dict[str, Any] | None = None) -> list[Any]:
        choices = ProgramChoices(state.robots[seat])
        action = choices[rng.randrange(len(choices))]
        out: list[Any] = [None] * program.SLOTS
        for index, (unit, colour, key, number) in enumerate(action.dice):
            name = UNITS[index] if index < 3 else program.FOURTH
            out[min(index, 3)] = tiles.DieTile(colour, tiles.ANYBODY, index + 1)  # the box's dice are anybody's
            if settings is not None:
                settings.update({f"{name} number": number, f"{name} key": KEYS[key]})
                if index >= 3:
                    settings[f"{name} unit"] = UNITS[unit - 1]
        return out

    def virtual_tag(self, tile: tiles.DieTile, serial: int) -> tuple[bytes, bytes]:
        return tiles.virtual_uid(tile), tiles.die_payload(tile.colour, tile.owner, tile.serial)

    # -- words and views -------------------------------------------------------
    def turn_words(self, state: State) -> str:
        return (f"round {state.round}: every operator puts three dice on units I, II and III, sets "
                f"their faces and keys on the phone and presses confirm (waiting for "
                f"{self.waiting(state)})")

    def now_words(self, state: State, seat: int | None) -> str:
        if seat is None:
            return self.turn_words(state)
        return (f"round {state.round}: put three dice on units I, II and III, set their faces and "
                "keys below, then press confirm")

    def score_words(self, state: State) -> str:
        return "VP: " + ", ".join(f"{self.seat_name(state, r.seat) if not r.killbot else r.name} {r.vp}"
                                  for r in state.robots)

    def public_view(self, state: State) -> dict[str, Any]:
        doc = self.engine.observe(state, _UNSEEN)
        doc.pop("seed", None)  # the seed orders the decks to come: whoever knows it knows them
        for robot in doc["robots"].values():
            if isinstance(robot.get("inventory"), list):
                robot["inventory"] = len(robot["inventory"])  # modules in hand are the operator's own
        pending = doc.get("pending")
        if isinstance(pending, dict) and pending.get("kind") == "equip":
            doc["pending"] = {**pending, "choices": []}  # they name the inventory's modules
        doc.pop("render", None)
        doc["floor"] = floor_json(state.arena)
        return doc

    def seat_words(self, state: State, seat: int) -> list[tuple[str, str]]:
        return words.seat_words(self.engine.observe(state, seat)["robots"][state.robots[seat].name])

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        robot = state.robots[seat]
        own = self.engine.observe(state, seat)["robots"][robot.name]
        return {**own, "robot": robot.name, "dice": "2 red and 2 blue: put three on units I, II, III; "
                "set each one's face and key below"}

    def private_choices(self, decision: Decision) -> bool:
        return decision.kind == "equip"  # the choices name the modules in the inventory

    def public_events(self, events: list[Event]) -> list[str]:
        """A module drawn goes into the inventory, which is its operator's own."""
        return [f"{e.data['robot']}: draws a module from the {e.data['deck']} deck" if e.kind == "draw"
                else self.engine_words(e.text) for e in events]
