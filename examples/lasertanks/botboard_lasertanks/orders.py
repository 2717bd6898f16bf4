"""Order tiles and the one action of the game: a seat's program of two orders.

    Program.parse("p1 program F X")  ->  Program(seat=0, orders=("F", "X"))
    str(program)                     ->  "p1 program F X"

InvalidNotation is text that is not a program; whether a program is legal in
a state is the engine's question (game.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from botboard.games.base import InvalidNotation

ORDERS = ("F", "B", "L", "R", "X")
WORDS = {"F": "forward", "B": "back up", "L": "turn left", "R": "turn right", "X": "fire"}
REGISTERS = 2  # orders a program holds, played one after the other


@dataclass(frozen=True)
class Program:
    seat: int
    orders: tuple[str, ...]

    def __str__(self) -> str:
        return f"p{self.seat + 1} program {' '.join(self.orders)}"

    @classmethod
    def parse(cls, text: str) -> Program:
        words = text.split() if isinstance(text, str) else []
        if len(words) != 2 + REGISTERS or words[1].lower() != "program" or not _seat_word(words[0]):
            raise InvalidNotation(f"{text!r}: expected 'p<seat> program' and {REGISTERS} orders, "
                                  f"e.g. 'p1 program F X' (orders: {', '.join(ORDERS)})")
        orders = tuple(w.upper() for w in words[2:])
        wrong = [o for o in orders if o not in ORDERS]
        if wrong:
            raise InvalidNotation(f"{text!r}: no order {wrong[0]!r}; orders are "
                                  + ", ".join(f"{o} ({WORDS[o]})" for o in ORDERS))
        return cls(int(words[0][1:]) - 1, orders)


def _seat_word(word: str) -> bool:
    return len(word) > 1 and word[0] in "pP" and word[1:].isdigit() and int(word[1:]) >= 1


def every_program(seat: int) -> list[Program]:
    """The programs a seat may lay: any order in each register (each seat has two of every tile)."""
    return [Program(seat, orders) for orders in product(ORDERS, repeat=REGISTERS)]
