"""Playing a round once both programs are laid: register by register, moves then lasers.

In each register both tanks act at once. First they move: F one square ahead,
B one square back, L and R turn a quarter. A tank stays put (a "bump") if it
would leave the arena, enter the square the other tank stands on, or enter the
square the other tank enters. Then every tank whose order is X fires: the beam
runs straight ahead to the arena's edge and hits the other tank if it is in
line. Both may hit each other in the same register. A tank that reaches the
hits to win wins (both at once: a shared win); after the last round the most
hits win.
"""

from __future__ import annotations

from dataclasses import replace

from botboard.games.base import Event, Outcome
from botboard.games.squares import FACINGS, Square, square_name

from .orders import REGISTERS, WORDS
from .state import SEATS, SIZE, State, Tank

DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N E S W, as squares.py numbers facings
TURNS = {"L": -1, "R": 1}  # quarter turns
DRIVES = {"F": 1, "B": -1}  # squares ahead


def ahead(square: Square, facing: int, steps: int = 1) -> Square:
    dx, dy = DELTAS[facing]
    return square[0] + dx * steps, square[1] + dy * steps


def on_arena(square: Square) -> bool:
    return 1 <= square[0] <= SIZE and 1 <= square[1] <= SIZE


def beam(tank: Tank) -> list[Square]:
    """The squares a tank's laser crosses, nearest first, to the arena's edge."""
    out, square = [], ahead(tank.square, tank.facing)
    while on_arena(square):
        out.append(square)
        square = ahead(square, tank.facing)
    return out


def play_round(state: State) -> tuple[State, list[Event]]:
    """Both programs are laid: reveal them, then play them register by register."""
    programs = [p for p in state.programs if p is not None]
    assert len(programs) == len(SEATS)
    said = ", ".join(f"{seat} {' '.join(p)}" for seat, p in zip(SEATS, programs))
    events = [Event("reveal", {seat: list(p) for seat, p in zip(SEATS, programs)}, f"revealed: {said}")]
    played = replace(state, programs=(None, None), revealed=state.programs)
    tanks = state.tanks
    for register in range(REGISTERS):
        orders = [p[register] for p in programs]
        tanks = _fire(_move(tanks, orders, events), orders, events)
        outcome = _winner(state, tanks)
        if outcome is not None:
            return _over(replace(played, tanks=tanks), outcome, events)
    if state.round == state.max_rounds:
        return _over(replace(played, tanks=tanks), _on_points(tanks, state.max_rounds), events)
    return replace(played, tanks=tanks, round=state.round + 1), events


def _over(state: State, outcome: Outcome, events: list[Event]) -> tuple[State, list[Event]]:
    events.append(Event("win", outcome.to_json(), f"game over: {outcome.reason}"))
    return replace(state, outcome=outcome), events


def _move(tanks: tuple[Tank, ...], orders: list[str], events: list[Event]) -> tuple[Tank, ...]:
    """Both tanks' moves at once: where each wants to go is known before either goes."""
    turned = [replace(t, facing=(t.facing + TURNS.get(o, 0)) % 4) for t, o in zip(tanks, orders)]
    wanted = [ahead(t.square, t.facing, DRIVES.get(o, 0)) for t, o in zip(tanks, orders)]
    out = []
    for i, (tank, order) in enumerate(zip(turned, orders)):
        name, other = SEATS[i], 1 - i
        if order in TURNS:
            events.append(Event("turn", {"tank": name, "facing": FACINGS[tank.facing]},
                                f"{name}: {WORDS[order]}, now facing {FACINGS[tank.facing]}"))
        elif order in DRIVES:
            target = wanted[i]
            if on_arena(target) and target not in (tanks[other].square, wanted[other]):
                tank = replace(tank, square=target)
                events.append(Event("move", {"tank": name, "square": square_name(target)},
                                    f"{name} moves to {square_name(target)}"))
            else:
                events.append(Event("bump", {"tank": name, "square": square_name(tank.square)},
                                    f"{name} bumps and stays on {square_name(tank.square)}"))
        out.append(tank)
    return tuple(out)


def _fire(tanks: tuple[Tank, ...], orders: list[str], events: list[Event]) -> tuple[Tank, ...]:
    hits = []
    for i, (tank, order) in enumerate(zip(tanks, orders)):
        if order != "X":
            hits.append(False)
            continue
        line = beam(tank)
        hit = tanks[1 - i].square in line
        if hit:
            line = line[:line.index(tanks[1 - i].square) + 1]
        events.append(Event("fire", {"tank": SEATS[i], "beam": [square_name(s) for s in line],
                                     "hit": SEATS[1 - i] if hit else None},
                            f"{SEATS[i]} fires" + (f" and hits {SEATS[1 - i]}" if hit else " and misses")))
        hits.append(hit)
    return tuple(replace(t, hits=t.hits + 1) if hit else t for t, hit in zip(tanks, hits))


def _winner(state: State, tanks: tuple[Tank, ...]) -> Outcome | None:
    won = tuple(i for i, t in enumerate(tanks) if t.hits >= state.hits_to_win)
    if not won:
        return None
    names = " and ".join(SEATS[i] for i in won)
    return Outcome(won, f"{names} scored {state.hits_to_win} hits", tuple(t.hits for t in tanks))


def _on_points(tanks: tuple[Tank, ...], rounds: int) -> Outcome:
    best = max(t.hits for t in tanks)
    won = tuple(i for i, t in enumerate(tanks) if t.hits == best)
    return Outcome(won, f"{rounds} rounds played: most hits ({best})", tuple(t.hits for t in tanks))
