"""From what a station's slots hold to a programming action, or a refusal in words.

``read_station`` turns the six slots' tags into the seat's two programs,
refusing tiles that are unreadable, of another player's colour, or that
belong to another game. ``judge`` compares the programs with those the
game knows through the engine's ``reconcile`` and says which legal action
the player took, whether it needs a second confirm (a pass, the Double
Modification), or why it is refused, naming the slots to fix.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..games.twintinbots import actions as A
from ..games.twintinbots import content as C
from ..games.twintinbots.reconcile import reconcile
from ..games.twintinbots.state import State
from .seating import Seating
from .table import Table
from .tiles import Registry, TileError


@dataclass
class StationReading:
    programs: A.Programs
    problems: dict[int, str] = field(default_factory=dict)  # physical slot -> what is wrong

    @property
    def ok(self) -> bool:
        return not self.problems


def read_station(table: Table, seating: Seating, registry: Registry, seat: int) -> StationReading:
    progs = [[0, 0, 0], [0, 0, 0]]
    problems: dict[int, str] = {}
    for pos, slot in enumerate(seating.slots_of(seat)):
        reading = table.reading(slot)
        if reading is None:
            continue
        name = f"{'AB'[pos // 3]}{pos % 3 + 1}"
        try:
            tile = registry.identify(reading.uid, reading.payload)
        except TileError as err:
            problems[slot] = f"slot {name}: {err}; take it out"
            continue
        if tile.colour is not None and tile.colour != seat:
            problems[slot] = (f"slot {name}: that {C.TILE_CODES[tile.kind]} is "
                              f"{C.COLOURS[tile.colour]}'s tile, not {C.COLOURS[seat]}'s; give it back")
            continue
        progs[pos // 3][pos % 3] = tile.kind
    a, b = progs
    return StationReading(((a[0], a[1], a[2]), (b[0], b[1], b[2])), problems)


def seat_programs(state: State, seat: int) -> A.Programs:
    return state.programs[2 * seat], state.programs[2 * seat + 1]


def differing_slots(seating: Seating, seat: int, want: A.Programs, have: A.Programs) -> list[int]:
    return [seating.physical(seat, k, s) for k in (0, 1) for s in (0, 1, 2)
            if want[k][s] != have[k][s]]


def undo_words(before: A.Programs, after: A.Programs) -> list[str]:
    """What to put back, slot by slot, in words."""
    out = []
    for k in (0, 1):
        for s in (0, 1, 2):
            was, now = before[k][s], after[k][s]
            if was == now:
                continue
            where = f"robot {'AB'[k]} slot {s + 1}"
            if was and now:
                out.append(f"put the {C.TILE_NAMES[was]} tile back in {where} "
                           f"(it holds {C.TILE_NAMES[now]})")
            elif was:
                out.append(f"put the {C.TILE_NAMES[was]} tile back in {where}")
            else:
                out.append(f"take the {C.TILE_NAMES[now]} tile out of {where}")
    return out


def _fix_words(fixes: list[str], can_double: bool) -> str:
    """Either of two fixes leaves one change; with more, only some of them together do."""
    if not fixes:
        return "nothing to undo"
    if len(fixes) <= 2:
        return ", or ".join(fixes)
    left = f"two changes (with your {C.DM_NAME})" if can_double else "one change"
    return f"undo these until {left} is left: " + "; ".join(fixes)


@dataclass(frozen=True)
class Verdict:
    action: A.Action | None  # the legal action the slots show (None: refused)
    message: str  # for the console, in words
    wrong_slots: tuple[int, ...] = ()  # physical slots to fix (refused)
    second_confirm: str | None = None  # "pass" or "double": accepted only on a second confirm

    @property
    def ok(self) -> bool:
        return self.action is not None


def judge(state: State, seat: int, reading: StationReading, seating: Seating,
          first_turn: bool, can_double: bool) -> Verdict:
    before = seat_programs(state, seat)
    if not reading.ok:
        return Verdict(None, "; ".join(reading.problems.values()), tuple(reading.problems))
    after = reading.programs
    hand = state.hands[seat]
    rec = reconcile(before, hand, after, first_turn, can_double)
    wrong = tuple(differing_slots(seating, seat, before, after))
    if not rec.ok:
        fixes = undo_words(before, after)
        hint = ""
        if first_turn:
            hint = "; on your first turn put one order on robot A and one on robot B"
        message = f"{rec.reason}: {_fix_words(fixes, can_double)}{hint}"
        return Verdict(None, message, wrong)
    action = rec.actions[0]
    words = A.programming_to_str(action)
    if action[0] == A.PASS:
        return Verdict(action, "nothing changed: press confirm again to pass", (), "pass")
    if action[0] == A.DOUBLE:
        return Verdict(action, f"two changes ({words}): press confirm again to play your "
                       f"{C.DM_NAME}, or put one change back", wrong, "double")
    return Verdict(action, words)
