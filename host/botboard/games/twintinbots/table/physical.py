"""From what a station's slots hold to a programming action, or a refusal in words.

``read_station`` turns the six slots' tiles into the seat's two programs,
refusing tiles that are unreadable, of another player's colour, or that
belong to another game. ``judge`` compares the programs with those the
game knows through the engine's ``reconcile`` and says which legal action
the player took, whether it needs a second confirm (a pass, the Double
Modification), or why it is refused, naming the slots to fix.

A station's six slots are robot A's three program slots left to right, then
robot B's: position ``pos`` is robot ``pos // 3``, slot ``pos % 3``.
"""

from __future__ import annotations

from ....session.mapping import StationReading, TileError, Verdict
from .. import actions as A
from .. import content as C
from ..reconcile import reconcile
from ..state import State
from .tiles import Tile


def slot_name(pos: int) -> str:
    return f"{'AB'[pos // 3]}{pos % 3 + 1}"


def read_station(seat: int, tiles: list[Tile | TileError | None], slots: list[int]) -> StationReading:
    """``tiles``: what each of the seat's six positions holds (``slots``: their board numbers)."""
    progs = [[0, 0, 0], [0, 0, 0]]
    problems: dict[int, str] = {}
    for pos, (slot, tile) in enumerate(zip(slots, tiles)):
        if tile is None:
            continue
        name = slot_name(pos)
        if isinstance(tile, TileError):
            problems[slot] = f"slot {name}: {tile}"  # a TileError says what to do
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


def differing_slots(slots: list[int], want: A.Programs, have: A.Programs) -> list[int]:
    return [slots[3 * k + s] for k in (0, 1) for s in (0, 1, 2) if want[k][s] != have[k][s]]


def undo_words(before: A.Programs, after: A.Programs) -> list[str]:
    """What to put back, slot by slot, in words."""
    out = []
    for k in (0, 1):
        for s in (0, 1, 2):
            was, now = before[k][s], after[k][s]
            if was == now:
                continue
            where = slot_name(3 * k + s)  # as the board labels it: "B3"
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


def judge(state: State, seat: int, reading: StationReading, slots: list[int]) -> Verdict:
    first_turn = state.turns < state.layout.players
    can_double = not first_turn and not state.dm_used[seat]
    before = seat_programs(state, seat)
    if not reading.ok:
        return Verdict.refused(reading.problems)
    after = reading.held
    hand = state.hands[seat]
    rec = reconcile(before, hand, after, first_turn, can_double)
    wrong = tuple(differing_slots(slots, before, after))
    if not rec.ok:
        fixes = undo_words(before, after)
        reason = str(rec.reason).replace(" (changed: nothing)", "")  # said once, plainly
        message = f"{reason}: {_fix_words(fixes, can_double)}" if fixes else reason
        return Verdict(None, message, wrong)
    action = rec.actions[0]
    words = A.programming_to_str(action)
    text = words  # the engine's notation of a programming action
    if action[0] == A.PASS:
        return Verdict(text, "nothing changed: press confirm again to pass", (), "pass")
    if action[0] == A.DOUBLE:
        return Verdict(text, f"two changes ({words}): press confirm again to play your "
                       f"{C.DM_NAME}, or put one change back", wrong, "double")
    return Verdict(text, words)
