"""The immutable state of a game of Twin Tin Bots.

Two parts: a ``Layout`` that never changes during a game (arena, bases,
rocks, teleporters, mud, options) and is shared by every state of the game,
and a ``State`` named tuple of small ints and tuples of ints that each action
replaces. Robots are numbered ``2 * seat + k`` (k = 0 for robot A, 1 for B).

``occ`` holds what stands on each cell, one int per cell:
0 empty, 1..12 a robot (id + 1), 22..24 a crystal (20 + points), 30 a blob,
31 a rock, 32 a teleporter (nothing ever stops there), 40 + seat a base.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple

from . import content
from .hexgrid import Arena, arena

EMPTY = 0
CRYSTAL0 = 20  # + points
BLOB = 30
ROCK = 31
TELEPORTER = 32
BASE0 = 40  # + seat
PUSHABLE_MAX = BLOB  # robots, crystals and blobs are 1..30, the rest never moves

# pending decision kinds (first item of State.pending)
ZAP_CHOICE, BLOB_CHOICE, ENTRY_CHOICE = 1, 2, 3

# how a game ended (first item of State.result)
END_SCORE, END_ATTRITION = 1, 2


@dataclass(frozen=True)
class Layout:
    """Everything fixed for the whole game; compared by its defining fields."""

    radius: int
    players: int
    bases: tuple[int, ...]  # cell of each seat's base
    rocks: tuple[int, ...] = ()
    teleporters: tuple[tuple[int, int], ...] = ()  # (cell, cell) per colour
    mud: tuple[int, ...] = ()
    teams: bool = False
    score_target: int = 0  # 0: no score victory
    arena: Arena = field(init=False, compare=False, repr=False)
    # mnbr[cell][facing]: where something moving that way lands (through teleporters)
    mnbr: tuple[tuple[int, ...], ...] = field(init=False, compare=False, repr=False)
    is_mud: tuple[bool, ...] = field(init=False, compare=False, repr=False)
    static_occ: tuple[int, ...] = field(init=False, compare=False, repr=False)
    team: tuple[int, ...] = field(init=False, compare=False, repr=False)  # per seat

    def __post_init__(self) -> None:
        grid = arena(self.radius)
        object.__setattr__(self, "arena", grid)
        occ = [EMPTY] * grid.size
        for seat, cell in enumerate(self.bases):
            occ[cell] = BASE0 + seat
        for cell in self.rocks:
            occ[cell] = ROCK
        partner: dict[int, int] = {}
        for a, b in self.teleporters:
            occ[a] = occ[b] = TELEPORTER
            partner[a], partner[b] = b, a
        object.__setattr__(self, "static_occ", tuple(occ))
        object.__setattr__(self, "mnbr", tuple(
            tuple(_through(grid, partner, n, d) for d, n in enumerate(row)) for row in grid.nbr))
        mud = set(self.mud)
        object.__setattr__(self, "is_mud", tuple(c in mud for c in range(grid.size)))
        team = tuple(seat % 2 if self.teams else seat for seat in range(self.players))
        object.__setattr__(self, "team", team)

    def partner(self, cell: int) -> int:
        for a, b in self.teleporters:
            if cell == a:
                return b
            if cell == b:
                return a
        return -1


def _through(grid: Arena, partner: dict[int, int], cell: int, facing: int) -> int:
    """Entering a teleporter puts you beyond its partner, in the same direction."""
    if cell < 0 or cell not in partner:
        return cell
    beyond = grid.nbr[partner[cell]][facing]
    return -1 if beyond in partner else beyond


@lru_cache(maxsize=256)
def make_layout(radius: int, players: int, bases: tuple[int, ...], rocks: tuple[int, ...] = (),
                teleporters: tuple[tuple[int, int], ...] = (), mud: tuple[int, ...] = (),
                teams: bool = False, score_target: int = 0) -> Layout:
    """Layouts are shared: building the tables once per distinct layout."""
    return Layout(radius, players, bases, tuple(sorted(rocks)), teleporters,
                  tuple(sorted(mud)), teams, score_target)


class State(NamedTuple):
    layout: Layout
    occ: tuple[int, ...]
    cell: tuple[int, ...]  # per robot
    face: tuple[int, ...]  # per robot, 0..5
    load: tuple[int, ...]  # per robot: 0 or the points of the crystal carried
    programs: tuple[tuple[int, int, int], ...]  # per robot, tile codes (0 empty)
    hands: tuple[tuple[int, ...], ...]  # per seat: special tiles in hand, sorted
    dm_used: tuple[bool, ...]  # per seat: Double Modification spent
    delivered: tuple[tuple[int, int, int], ...]  # per seat: blue, green, pink in base
    track: tuple[int, ...]  # crystals still to enter, next first
    deck: tuple[int, ...]  # special tiles still to draw, next first
    player: int  # seat whose turn it is
    turns: int  # player turns completed since the start
    countdown: int  # -1 before the end phase; else counters left to the first player
    pending: tuple[int, ...] | None = None  # (kind, decider, detail)
    pc: tuple[int, int, int] | None = None  # where execution resumes: robot k, slot, step
    stuck: int = 0  # bitmask of robots whose next forward move skids (mud)
    result: tuple[int, tuple[int, ...]] | None = None  # (how it ended, winning seats)
    revealed: tuple[tuple[int, ...], ...] = ()  # per seat: specials everyone has seen placed


def points(counts: tuple[int, int, int] | list[int]) -> int:
    return sum(n * p for n, p in zip(counts, content.CRYSTAL_POINTS))


def final_scores(state: State) -> tuple[int, ...]:
    """Per seat: delivered points plus carried crystals at one point less."""
    scores = [points(d) for d in state.delivered]
    for rid, carried in enumerate(state.load):
        if carried:
            scores[rid // 2] += carried - 1
    return tuple(scores)


def ranking_key(state: State, seats: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Final points, then blue in base, green in base, delivered points (sums over ``seats``)."""
    scores = final_scores(state)
    total = sum(scores[s] for s in seats)
    blue = sum(state.delivered[s][0] for s in seats)
    green = sum(state.delivered[s][1] for s in seats)
    base = sum(points(state.delivered[s]) for s in seats)
    return (total, blue, green, base)


def winners(state: State) -> tuple[int, ...]:
    """Seats of the best player (or team) under the tie-breakers; several on a shared win."""
    layout = state.layout
    groups: dict[int, tuple[int, ...]] = {}
    for seat in range(layout.players):
        groups[layout.team[seat]] = groups.get(layout.team[seat], ()) + (seat,)
    keys = {t: ranking_key(state, seats) for t, seats in groups.items()}
    best = max(keys.values())
    return tuple(sorted(s for t, seats in groups.items() if keys[t] == best for s in seats))


def program_has(state: State, rid: int, tile: int) -> bool:
    return tile in state.programs[rid]


def crystals_in_play(state: State) -> int:
    """Crystals on the ground, on robots, in bases and on the track (always 18 unless trimmed)."""
    ground = sum(1 for o in state.occ if CRYSTAL0 < o < BLOB)
    carried = sum(1 for x in state.load if x)
    based = sum(sum(d) for d in state.delivered)
    return ground + carried + based + len(state.track)
