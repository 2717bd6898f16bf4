"""Running the robots' programs: every order, push, zap, delivery and the turn end.

A ``Run`` copies the few tuples of a ``State`` that can change into lists,
executes steps on them and freezes the result into a new ``State``. When a
player must choose (a zap's forced order, a zapped blob, where a crystal
enters) the run stops with ``pending`` set and remembers where the program
resumes; the decision's action continues from there.
"""

from __future__ import annotations

from typing import Callable

from ..base import Event
from . import content as C
from .hexgrid import FACING_WORDS
from .state import (BASE0, BLOB, BLOB_CHOICE, CRYSTAL0, END_ATTRITION, END_SCORE,
                    ENTRY_CHOICE, PUSHABLE_MAX, ZAP_CHOICE, State, points, winners)

_TURN_WORDS = {C.LEFT: "left", C.RIGHT: "right"}


_ROBOT_NAMES = tuple(f"{colour.capitalize()} robot {k}" for colour in C.COLOURS for k in "AB")


def robot_name(rid: int) -> str:
    return _ROBOT_NAMES[rid]


def crystal_name(points_: int) -> str:
    return f"{C.CRYSTAL_COLOUR[points_]} crystal"


class Run:
    """Mutable working copy of a state while orders execute.

    With ``tell`` False no events are built (search and benchmarks want the next
    state only, and the words cost more than the moves).
    """

    def __init__(self, state: State, tell: bool = True) -> None:
        layout = state.layout
        self.layout = layout
        self.grid = layout.arena
        self.nbr = layout.arena.nbr
        self.mnbr = layout.mnbr
        self.is_mud = layout.is_mud
        self.team = layout.team
        self.tell = tell
        self.programs = state.programs
        self.dm_used = state.dm_used
        self.revealed = state.revealed
        self.occ = list(state.occ)
        self.cell = list(state.cell)
        self.face = list(state.face)
        self.load = list(state.load)
        self.hands = list(state.hands)
        self.delivered = list(state.delivered)
        self.track = state.track
        self.deck = state.deck
        self.stuck = state.stuck
        self.countdown = state.countdown
        self.player = state.player
        self.turns = state.turns
        self.pending: tuple[int, ...] | None = None
        self.result: tuple[int, tuple[int, ...]] | None = None
        self.events: list[Event] = []

    # -- bookkeeping ------------------------------------------------------
    def say(self, kind: str, text: str, **data: object) -> None:
        self.events.append(Event(kind, data, text))

    def freeze(self, pc: tuple[int, int, int] | None) -> State:
        pending = self.pending
        return State(self.layout, tuple(self.occ), tuple(self.cell), tuple(self.face),
                     tuple(self.load), self.programs, tuple(self.hands), self.dm_used,
                     tuple(self.delivered), self.track, self.deck, self.player, self.turns,
                     self.countdown, pending, pc if pending else None,
                     self.stuck if pending else 0, self.result, self.revealed)

    def where(self, cell: int) -> str:
        return f"({self.grid.names[cell]})"

    # -- running programs -------------------------------------------------
    def run_from(self, k0: int, s0: int, m0: int) -> tuple[int, int, int] | None:
        """Execute the current player's programs from robot k0, slot s0, step m0.

        Returns where to resume when a decision interrupts, else None.
        """
        seat = self.player
        for k in range(k0, 2):
            rid = 2 * seat + k
            program = self.programs[rid]
            steps = _PLANS.get(program)
            if steps is None:
                steps = _plan(program)
            if k == k0 and (s0 or m0):
                steps = tuple(x for x in steps if (x[0], x[1]) >= (s0, m0))
            for s, m, step in steps:
                step(self, rid)
                if self.pending or self.result:
                    return (k, s, m + 1)
        return None

    def step(self, rid: int, kind: int) -> None:
        _STEP_FUNCS[kind](self, rid)

    def _fwd(self, rid: int) -> None:
        self.forward(rid, self.face[rid])

    def _back(self, rid: int) -> None:
        self.forward(rid, (self.face[rid] + 3) % 6)

    def _left(self, rid: int) -> None:
        self.turn(rid, 5)

    def _right(self, rid: int) -> None:
        self.turn(rid, 1)

    def _zap(self, rid: int) -> None:
        self.zap(rid, False)

    def _longzap(self, rid: int) -> None:
        self.zap(rid, True)

    def turn(self, rid: int, by: int) -> None:
        self.face[rid] = facing = (self.face[rid] + by) % 6
        if self.tell:
            self.say("turn", f"{robot_name(rid)} turns {'right' if by == 1 else 'left'} to face "
                     f"{FACING_WORDS[facing]}", robot=rid, facing=facing)

    # -- movement ---------------------------------------------------------
    def relocate(self, src: int, dst: int) -> None:
        """Move whatever stands on ``src`` to ``dst`` (known to be empty)."""
        occ = self.occ
        thing = occ[src]
        occ[src] = 0
        occ[dst] = thing
        if thing <= 12:
            rid = thing - 1
            self.cell[rid] = dst
            bit = 1 << rid
            self.stuck = (self.stuck | bit) if self.is_mud[dst] else (self.stuck & ~bit)

    def forward(self, rid: int, d: int) -> None:
        """One Forward (or Back up) step: push one object, or a row with Bulldozer."""
        bit = 1 << rid
        if self.stuck & bit:
            self.stuck &= ~bit
            if self.tell:
                self.say("skid", f"{robot_name(rid)} skids in the mud", robot=rid)
            return
        here = self.cell[rid]
        dest = self.mnbr[here][d]
        if dest < 0:
            if self.tell:
                self.say("blocked", f"{robot_name(rid)} cannot move: edge of the arena", robot=rid)
            return
        occ = self.occ
        thing = occ[dest]
        if thing:
            if thing > PUSHABLE_MAX:
                if self.tell:
                    self.say("blocked", f"{robot_name(rid)} cannot move: {self.what(thing)} "
                             "in the way", robot=rid)
                return
            row = [dest]
            end = self.mnbr[dest][d]
            if C.BULLDOZER in self.programs[rid]:
                seen = {here, dest}
                while end >= 0 and end not in seen and 0 < occ[end] <= PUSHABLE_MAX:
                    row.append(end)
                    seen.add(end)
                    end = self.mnbr[end][d]
                if end in seen:
                    end = -1
            if end < 0 or occ[end]:
                if self.tell:
                    self.say("blocked", f"{robot_name(rid)} cannot push the {self.what(thing)}",
                             robot=rid)
                return
            for src in reversed(row):
                pushed = occ[src]
                self.relocate(src, end)
                if self.tell:
                    self.say("push", f"{robot_name(rid)} pushes the {self.what(pushed)} to "
                             f"{self.where(end)}", robot=rid, to=self.grid.names[end])
                end = src
        self.relocate(here, dest)
        if self.tell:
            via = " through the teleporter" if dest != self.nbr[here][d] else ""
            self.say("move", f"{robot_name(rid)} moves{via} to {self.where(dest)}",
                     robot=rid, to=self.grid.names[dest])

    def jump(self, rid: int) -> None:
        here, d = self.cell[rid], self.face[rid]
        middle = self.nbr[here][d]
        dest = self.mnbr[middle][d] if middle >= 0 else -1
        if dest < 0 or self.occ[dest]:
            if self.tell:
                self.say("blocked", f"{robot_name(rid)} cannot jump: no empty hex to land on",
                         robot=rid)
            return
        self.relocate(here, dest)
        if self.tell:
            self.say("jump", f"{robot_name(rid)} jumps to {self.where(dest)}", robot=rid,
                     to=self.grid.names[dest])

    def what(self, thing: int) -> str:
        if thing <= 12:
            return robot_name(thing - 1)
        if thing < BLOB:
            return crystal_name(thing - CRYSTAL0)
        if thing >= BASE0:
            return f"{C.COLOURS[thing - BASE0]} base"
        return ("blob", "rock", "teleporter")[thing - BLOB]

    # -- crystals -----------------------------------------------------------
    def load_crystal(self, rid: int) -> None:
        name = robot_name(rid)
        if self.load[rid]:
            if self.tell:
                self.say("ignored", f"{name} is already carrying a crystal", robot=rid)
            return
        front = self.nbr[self.cell[rid]][self.face[rid]]
        thing = self.occ[front] if front >= 0 else 0
        if CRYSTAL0 < thing < BLOB:
            self.occ[front] = 0
            self.load[rid] = thing - CRYSTAL0
            if self.tell:
                self.say("load", f"{name} loads the {crystal_name(thing - CRYSTAL0)}", robot=rid)
        elif 0 < thing <= 12 and self.load[thing - 1]:
            victim = thing - 1
            if (C.ANTITHEFT in self.programs[victim]
                    and self.team[victim // 2] != self.team[rid // 2]):
                if self.tell:
                    self.say("protected", f"{robot_name(victim)}'s anti-theft stops {name}",
                             robot=rid, target=victim)
                return
            self.load[rid], self.load[victim] = self.load[victim], 0
            if self.tell:
                self.say("steal", f"{name} takes the {crystal_name(self.load[rid])} from "
                         f"{robot_name(victim)}", robot=rid, target=victim)
        elif self.tell:
            self.say("ignored", f"{name} finds nothing to load", robot=rid)

    def unload_crystal(self, rid: int) -> None:
        name = robot_name(rid)
        carried = self.load[rid]
        if not carried:
            if self.tell:
                self.say("ignored", f"{name} has nothing to unload", robot=rid)
            return
        front = self.nbr[self.cell[rid]][self.face[rid]]
        thing = self.occ[front] if front >= 0 else -1
        if thing == 0:
            self.occ[front] = CRYSTAL0 + carried
            self.load[rid] = 0
            if self.tell:
                self.say("unload", f"{name} unloads the {crystal_name(carried)} on "
                         f"{self.where(front)}", robot=rid, to=self.grid.names[front])
        elif thing >= BASE0:
            self.load[rid] = 0
            if self.tell:
                colour = C.COLOURS[thing - BASE0]
                self.say("unload", f"{name} unloads the {crystal_name(carried)} into the "
                         f"{colour} base", robot=rid, base=colour)
            self.deliver(thing - BASE0, carried)
        elif 0 < thing <= 12 and not self.load[thing - 1]:
            self.load[rid], self.load[thing - 1] = 0, carried
            if self.tell:
                self.say("unload", f"{name} hands the {crystal_name(carried)} to "
                         f"{robot_name(thing - 1)}", robot=rid, target=thing - 1)
        elif self.tell:
            self.say("ignored", f"{name} cannot unload there", robot=rid)

    def deliver(self, seat: int, carried: int) -> None:
        counts = list(self.delivered[seat])
        counts[C.CRYSTAL_POINTS.index(carried)] += 1
        self.delivered[seat] = (counts[0], counts[1], counts[2])
        total = points(counts)
        owner = C.COLOURS[seat].capitalize()
        if self.tell:
            self.say("deliver", f"{owner}'s base scores a {crystal_name(carried)} ({total})",
                     seat=seat, crystal=C.CRYSTAL_COLOUR[carried], score=total)
        target = self.layout.score_target
        if target and total >= target:
            self.result = (END_SCORE, (seat,))
            if self.tell:
                self.say("victory", f"{owner} reaches {total} points and wins at once", seat=seat)
            return
        if carried == C.BLUE and self.deck:
            self.hands[seat] = tuple(sorted(self.hands[seat] + self.deck[:1]))
            self.deck = self.deck[1:]
            if self.tell:
                self.say("draw", f"{owner} draws a special order", seat=seat)
        self.enter_crystal(seat)

    def entry_choices(self) -> list[int]:
        """Free hexes closest to the centre (the centre itself when it is free)."""
        occ = self.occ
        for ring in self.grid.rings:
            free = [c for c in ring if occ[c] == 0]
            if free:
                return free
        return []

    def enter_crystal(self, seat: int) -> None:
        if not self.track:
            return
        free = self.entry_choices()
        if len(free) == 1:
            self.place_entering(free[0])
        elif free:
            self.pending = (ENTRY_CHOICE, seat, self.track[0])
            if self.tell:
                self.say("choose-entry", f"{C.COLOURS[seat].capitalize()} chooses where the next "
                         f"{crystal_name(self.track[0])} enters", seat=seat)

    def place_entering(self, cell: int) -> None:
        crystal = self.track[0]
        self.track = self.track[1:]
        self.occ[cell] = CRYSTAL0 + crystal
        if self.tell:
            self.say("enter", f"A {crystal_name(crystal)} enters at {self.where(cell)}",
                     crystal=C.CRYSTAL_COLOUR[crystal], at=self.grid.names[cell])
        if not self.track:
            self.countdown = C.COUNTDOWN
            if self.tell:
                self.say("end-phase", "The last crystal is in play: the game ends after this "
                         f"round and {C.COUNTDOWN} more", countdown=C.COUNTDOWN)

    # -- zaps -------------------------------------------------------------
    def zap(self, rid: int, long_range: bool) -> None:
        name = robot_name(rid)
        d = self.face[rid]
        cell = self.nbr[self.cell[rid]][d]
        reach = 0
        while cell >= 0 and not self.occ[cell]:
            reach += 1
            if reach == 2 and not long_range:
                cell = -1
                break
            cell = self.nbr[cell][d]
        if cell < 0:
            if self.tell:
                self.say("fizzle", f"{name}'s zap hits nothing", robot=rid)
            return
        thing = self.occ[cell]
        if thing <= 12:
            target = thing - 1
            if C.ANTIZAP in self.programs[target] and self.team[target // 2] != self.team[rid // 2]:
                if self.tell:
                    self.say("protected", f"{robot_name(target)}'s anti-zap shield stops "
                             f"{name}'s zap", robot=rid, target=target)
                return
            self.pending = (ZAP_CHOICE, rid // 2, target)
            if self.tell:
                self.say("zap", f"{name} zaps {robot_name(target)}", robot=rid, target=target)
        elif thing == BLOB and self.blob_moves(cell):
            self.pending = (BLOB_CHOICE, rid // 2, cell)
            if self.tell:
                self.say("zap", f"{name} zaps the blob at {self.where(cell)}", robot=rid,
                         at=self.grid.names[cell])
        elif self.tell:
            self.say("fizzle", f"{name}'s zap is stopped by the {self.what(thing)}", robot=rid)

    def forced(self, target: int, order: int) -> None:
        """A zapped robot performs the order its zapper chose."""
        if order == C.T_F1:
            self.forward(target, self.face[target])
        elif order == C.T_L or order == C.T_R:
            self.turn(target, 5 if order == C.T_L else 1)
        elif order == C.T_LD:
            self.load_crystal(target)
        else:
            self.unload_crystal(target)

    def blob_moves(self, cell: int) -> list[int]:
        """Facings in which a zapped blob can go: to an empty hex, or pushing one object."""
        out = []
        for d in range(6):
            dest = self.mnbr[cell][d]
            if dest < 0:
                continue
            thing = self.occ[dest]
            if thing == 0:
                out.append(d)
            elif thing <= PUSHABLE_MAX:
                beyond = self.mnbr[dest][d]
                if beyond >= 0 and self.occ[beyond] == 0:
                    out.append(d)
        return out

    def move_blob(self, cell: int, d: int) -> None:
        dest = self.mnbr[cell][d]
        if self.occ[dest]:
            pushed = self.occ[dest]
            beyond = self.mnbr[dest][d]
            self.relocate(dest, beyond)
            if self.tell:
                self.say("push", f"The blob pushes the {self.what(pushed)} to {self.where(beyond)}",
                         to=self.grid.names[beyond])
        self.relocate(cell, dest)
        if self.tell:
            self.say("blob", f"The blob moves to {self.where(dest)}", to=self.grid.names[dest])

    # -- end of a player's turn ---------------------------------------------
    def end_turn(self) -> None:
        players = self.layout.players
        self.turns += 1
        self.player = (self.player + 1) % players
        if self.player == 0 and self.countdown >= 0:
            if self.countdown == 0:
                self.result = (END_ATTRITION, ())
                if self.tell:
                    self.say("game-end", "The countdown is over: the game ends")
                return
            if self.tell:
                self.say("countdown", f"{C.COLOURS[0].capitalize()} discards countdown counter "
                         f"{self.countdown}", counter=self.countdown)
            self.countdown -= 1

    def finish(self) -> State:
        """Freeze; at a game end, fill in the winners under the tie-breakers."""
        state = self.freeze(None)
        if self.result and self.result[0] == END_ATTRITION:
            state = state._replace(result=(END_ATTRITION, winners(state)))
        return state


# step kind (content.FWD...) -> what the robot does
def _nothing(run: Run, rid: int) -> None:
    """Step code 0 does not occur; a table entry keeps the codes as indices."""


_STEP_FUNCS: tuple[Callable[[Run, int], None], ...] = (
    _nothing, Run._fwd, Run._back, Run._left, Run._right, Run.load_crystal, Run.unload_crystal,
    Run._zap, Run._longzap, Run.jump)
assert (C.FWD, C.BACK, C.LEFT, C.RIGHT, C.LOAD, C.UNLOAD, C.ZAP, C.LONGZAP, C.JUMP) == tuple(
    range(1, 10))
Plan = tuple[tuple[int, int, Callable[[Run, int], None]], ...]  # (slot, step, what it does)
_PLANS: dict[tuple[int, ...], Plan] = {}


def _plan(program: tuple[int, ...]) -> Plan:
    """A program's steps in order, each with its slot and place in its tile.

    Memoised without a limit: there are at most 21**3 programs.
    """
    plan = tuple((s, m, _STEP_FUNCS[kind]) for s, tile in enumerate(program)
                 for m, kind in enumerate(C.STEPS[tile]))
    _PLANS[program] = plan
    return plan
