"""BotWars at the table: the session's questions, answered for this game.

Seats take the layout's stations in order (north, east, south, west on the
reference board); a station's five slots are registers 1..5. Programming is
simultaneous: every robot on the floor programs at once, each seat confirms
when ready, and nothing of a program is shown to anyone until every seat has
confirmed (the engine takes programs in seat order; the session holds a
confirmed one, unseen, until then). Cards are dealt by the host from the
seeded deck; each seat's view (a phone) lists the cards to take from the
card rack. Reboot and the option-sacrifice threshold are declared with the
program: previous toggles the reboot, next steps the threshold, or the seat
view sets them.
"""

from __future__ import annotations

from random import Random
from typing import Any, Sequence


from ....board.layouts import Layout
from ....session.mapping import TableError
from ...simultaneous import SimultaneousTable
from ..actions import ProgramChoices
from ..cards import deck
from ..state import REGISTERS, State
from . import leds, program, tiles, words
from .floor import floor_json

_UNSEEN = -1  # observe() as a player who is none of the seats: every hand and program hidden


class BotWarsTable(SimultaneousTable[State]):
    game = "botwars"
    leds = leds
    program = program
    programmers = "robot"
    default_speed_s = 0.3

    @classmethod
    def default_layout(cls, players: int) -> str:
        return "botwars"

    def seat_stations(self, layout: Layout, state: State) -> tuple[int, ...]:
        players = len(state.players)
        if players > len(layout.stations):
            raise TableError(f"layout {layout.id} has {len(layout.stations)} stations: BotWars at "
                             f"this board takes at most {len(layout.stations)} players, not {players}")
        return tuple(range(players))

    def coords(self, state: State) -> Sequence[tuple[int, int]]:
        return leds.coords(state.board)

    def slots_per_seat(self) -> int:
        return REGISTERS

    def slot_name(self, state: State, pos: int) -> str:
        return program.register_name(pos)

    def seat_name(self, state: State, seat: int) -> str:
        player = state.players[seat]
        return player.colour or player.name

    # -- tiles and stations ----------------------------------------------------
    def acting_seats(self, state: State) -> list[int]:
        if state.phase != "program":
            return []
        return [i for i, p in enumerate(state.players) if p.on_board and p.program is None]

    def controls(self, state: State, seat: int, settings: dict[str, Any]) -> list[dict[str, Any]]:
        robot = state.players[seat]
        out = [{"name": "reboot", "label": "reboot next turn (previous toggles it)",
                "value": bool(settings.get("reboot", False)), "choices": [False, True]}]
        if robot.options:
            out.append({"name": "threshold", "label": "sacrifice an option instead of a hit point "
                        "at or below this HP (next steps it)",
                        "value": settings.get("threshold", robot.threshold), "choices": list(range(11))})
        return out

    def station_button(self, state: State, seat: int, role: str, settings: dict[str, Any]) -> str | None:
        robot = state.players[seat]
        if role == "previous":
            settings["reboot"] = not settings.get("reboot", False)
            return "reboot next turn: " + ("yes" if settings["reboot"] else "no")
        if role == "next" and robot.options:
            settings["threshold"] = (settings.get("threshold", robot.threshold) + 1) % 11
            return f"sacrifice an option at or below {settings['threshold']} HP"
        return None

    # -- virtual hands -------------------------------------------------------------
    def clear_reason(self, state: State, seat: int, before: State | None) -> str:
        if before is None:
            return super().clear_reason(state, seat, before)
        return "last turn's cards go back in the rack before the deal"

    def station_tiles(self, state: State, seat: int) -> list[int | None]:
        return list(program.expected_registers(state.players[seat]))

    def random_program(self, state: State, seat: int, rng: Random,
                       settings: dict[str, Any] | None = None) -> list[int | None]:
        robot = state.players[seat]
        choices = ProgramChoices(state, seat)
        chosen = list(choices[rng.randrange(choices.programs)].cards) if choices.programs else []
        out: list[int | None] = [robot.fused.get(i) for i in range(REGISTERS)]
        for index, card in zip(robot.free_registers(), chosen):
            out[index] = card
        return out

    def virtual_tag(self, tile: int, serial: int) -> tuple[bytes, bytes]:
        return tiles.virtual_uid(tile), tiles.card_payload(tile)

    # -- words and views -------------------------------------------------------
    def turn_words(self, state: State) -> str:
        return (f"turn {state.turn}: everyone lays a program in the five registers and presses "
                f"confirm (waiting for {self.waiting(state)})")

    def now_words(self, state: State, seat: int | None) -> str:
        if seat is None:
            return self.turn_words(state)
        return f"turn {state.turn}: lay your program in the five registers, then press confirm"

    def score_words(self, state: State) -> str:
        goal = len(state.board.flags)
        return "flags: " + ", ".join(f"{self.seat_name(state, s)} {p.flags}/{goal}"
                                     for s, p in enumerate(state.players))

    def public_view(self, state: State) -> dict[str, Any]:
        doc = self.engine.observe(state, _UNSEEN)
        doc.pop("seed", None)  # the seed deals every hand to come: whoever knows it knows them
        if state.phase == "program":  # a threshold is declared with the program: hidden with it
            for robot in doc["robots"].values():
                if robot.get("submitted"):
                    robot["threshold"] = "hidden"
        doc["floor"] = floor_json(state.board)
        return doc

    def seat_words(self, state: State, seat: int) -> list[tuple[str, str]]:
        own = self.engine.observe(state, seat)["robots"][state.players[seat].name]
        return words.seat_words(own, len(state.board.flags))

    def seat_view(self, state: State, seat: int) -> dict[str, Any]:
        robot = state.players[seat]
        own = self.engine.observe(state, seat)["robots"][robot.name]
        hand = sorted(robot.hand, reverse=True)
        fused = robot.fused
        return {**own, "robot": robot.name,
                "hand": [deck().name(c) for c in hand],
                "take": ("take these cards from the rack: " + ", ".join(deck().name(c) for c in hand))
                if hand else "",
                "registers": [{"register": i + 1, "fused": i in fused,
                               "card": _card_name(fused.get(i))}
                              for i in range(REGISTERS)]}


def _card_name(card: int | None) -> str | None:
    return deck().name(card) if card is not None else None
