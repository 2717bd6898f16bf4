"""Tables where every seat lays a secret program at once (BotWars, VOLT).

Each seat fills its station's slots and confirms; nothing of a program is shown
until every seat has confirmed. The game's station module (``program``) reads,
judges and checks the slots; this class answers the session with it (a slot
whose tag cannot count refuses the program before it is judged) and says who
is still programming.
"""

from __future__ import annotations

from typing import Any, TypeVar

from ..session.mapping import StationReading, TableMapping, Verdict

S = TypeVar("S")


class SimultaneousTable(TableMapping[S]):
    secret_slots = True
    simultaneous = True
    # The station module: read_station(tiles, slots), judge(engine, state, seat, reading, slots,
    # settings) and check_station(state, seat, reading, slots), as the hooks below ask them
    program: Any
    programmers = "player"  # who programs, in the rules' words ("robot", "operator")

    def read_station(self, state: S, seat: int, tiles: list[Any], slots: list[int]) -> StationReading:
        return self.program.read_station(tiles, slots)

    def judge(self, state: S, seat: int, reading: StationReading, slots: list[int],
              settings: dict[str, Any]) -> Verdict:
        if not reading.ok:  # a tag that cannot count: the program is not judged
            return Verdict.refused(reading.problems)
        return self.program.judge(self.engine, state, seat, reading, slots, settings)

    def check_station(self, state: S, seat: int, reading: StationReading,
                      slots: list[int]) -> tuple[list[int], list[str]]:
        return self.program.check_station(state, seat, reading, slots)

    def waiting(self, state: S) -> str:
        """The seats still programming, by name (for turn_words)."""
        return ", ".join(self.seat_name(state, s) for s in self.acting_seats(state)) or "nobody"

    def public_action(self, state: S, text: str) -> str:
        words = text.split()
        if len(words) > 1 and words[1] == "program":
            return f"{words[0]} program (hidden until every {self.programmers} has confirmed)"
        return text
