"""A Laser Tanks position: two tanks, the round, the programs laid and the score; immutable.

JSON (a scenario's ``position``; keys but ``tanks`` may be left out):

    {"round": 1, "tanks": {"p1": {"square": "r1c2", "facing": "N", "hits": 0}, "p2": {...}},
     "programs": {"p1": ["F", "X"], "p2": null}, "revealed": {...}, "outcome": null}

``programs`` are this round's, hidden from the other seat until both are laid;
``revealed`` are last round's, public.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from botboard.games.base import JSON, Outcome
from botboard.games.fields import BadValue, each, entries, field, whole
from botboard.games.squares import FACINGS, Square, parse_facing, parse_square, square_name

from .orders import ORDERS, REGISTERS

SIZE = 6  # the arena is SIZE x SIZE squares
SEATS = ("p1", "p2")
STARTS = (((2, 1), 0), ((5, 6), 2))  # each seat's (square, facing): south side facing N, north facing S


@dataclass(frozen=True)
class Tank:
    square: Square
    facing: int  # 0..3: N E S W
    hits: int = 0  # hits this tank has scored on the other

    def to_json(self) -> dict[str, JSON]:
        return {"square": square_name(self.square), "facing": FACINGS[self.facing], "hits": self.hits}


@dataclass(frozen=True)
class State:
    tanks: tuple[Tank, ...]
    programs: tuple[tuple[str, ...] | None, ...] = (None, None)
    revealed: tuple[tuple[str, ...] | None, ...] = (None, None)
    round: int = 1
    hits_to_win: int = 3
    max_rounds: int = 20
    outcome: Outcome | None = None

    def to_json(self) -> dict[str, JSON]:
        return {"round": self.round, "hits_to_win": self.hits_to_win, "max_rounds": self.max_rounds,
                "tanks": {SEATS[i]: t.to_json() for i, t in enumerate(self.tanks)},
                "programs": _programs_json(self.programs), "revealed": _programs_json(self.revealed),
                "outcome": self.outcome.to_json() if self.outcome else None}

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> State:
        if not isinstance(doc, Mapping):
            raise BadValue("expected an object (a Laser Tanks position)")
        tanks = field(doc, "tanks", _tanks)
        state = cls(tanks, field(doc, "programs", _programs, (None, None)),
                    field(doc, "revealed", _programs, (None, None)),
                    field(doc, "round", whole(1, 10_000), 1), field(doc, "hits_to_win", whole(1, 99), 3),
                    field(doc, "max_rounds", whole(1, 10_000), 20), field(doc, "outcome", _outcome, None))
        if tanks[0].square == tanks[1].square:
            raise BadValue("both tanks on one square", "tanks")
        if state.outcome is None and None not in state.programs:
            raise BadValue("both programs laid: the round plays when the second is, so give one at most",
                           "programs")
        if state.round > state.max_rounds:
            raise BadValue(f"round {state.round} is past the last ({state.max_rounds})", "round")
        return state


def _programs_json(programs: tuple[tuple[str, ...] | None, ...]) -> dict[str, JSON]:
    return {SEATS[i]: list(p) if p is not None else None for i, p in enumerate(programs)}


def _tank(doc: Any) -> Tank:
    if not isinstance(doc, Mapping):
        raise BadValue(f"expected an object with square, facing and hits, got {doc!r}")
    square = field(doc, "square", parse_square)
    if not (1 <= square[0] <= SIZE and 1 <= square[1] <= SIZE):
        raise BadValue(f"{square_name(square)} is off the {SIZE}x{SIZE} arena", "square")
    return Tank(square, field(doc, "facing", parse_facing), field(doc, "hits", whole(0, 99), 0))


def _tanks(doc: Any) -> tuple[Tank, ...]:
    found = entries(doc, _seat_key, _tank)
    missing = [s for s in SEATS if s not in found]
    if missing:
        raise BadValue(f"no tank {missing[0]}: give both p1 and p2")
    return tuple(found[s] for s in SEATS)


def _seat_key(key: str) -> str:
    if key not in SEATS:
        raise BadValue(f"no seat {key!r}: the seats are p1 and p2")
    return key


def _program(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    orders = tuple(each(value, _order))
    if len(orders) != REGISTERS:
        raise BadValue(f"a program holds {REGISTERS} orders, not {len(orders)}")
    return orders


def _order(value: Any) -> str:
    if value not in ORDERS:
        raise BadValue(f"no order {value!r}: one of {', '.join(ORDERS)}")
    return str(value)


def _programs(doc: Any) -> tuple[tuple[str, ...] | None, ...]:
    found = entries(doc, _seat_key, _program)
    return tuple(found.get(s) for s in SEATS)


def _outcome(doc: Any) -> Outcome | None:
    if doc is None:
        return None
    if not isinstance(doc, Mapping):
        raise BadValue(f"expected null or an object with winners, reason and scores, got {doc!r}")
    seats = whole(0, len(SEATS) - 1, " (a seat index)")
    return Outcome(field(doc, "winners", lambda v: tuple(each(v, seats))), field(doc, "reason", str),
                   field(doc, "scores", lambda v: tuple(each(v, whole(0, 99)))))
