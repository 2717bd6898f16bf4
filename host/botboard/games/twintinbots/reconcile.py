"""From "the slots held this, now they hold that" to the programming action taken.

The game session sees physical tiles in a player's six slots. Given the
seat's programs before and after the player's hands moved tiles, ``reconcile``
lists the legal programming actions that turn one into the other (several
when they are equivalent, e.g. Reset vs Remove of a robot's only tile; a
Double Modification only when no single change does it), or explains why no
legal action does, with what to put back.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import actions as A
from . import content as C


@dataclass(frozen=True)
class Reconciliation:
    actions: tuple[A.Action, ...]  # legal actions giving ``after``, simplest first
    reason: str | None = None  # why none does (when ``actions`` is empty)
    undo: tuple[str, ...] = ()  # what to put back, slot by slot, to return to ``before``

    @property
    def ok(self) -> bool:
        return bool(self.actions)


def _slot_name(k: int, s: int) -> str:
    return f"{'AB'[k]}{s + 1}"


def undo_steps(before: A.Programs, after: A.Programs) -> tuple[str, ...]:
    steps = []
    for k in (0, 1):
        for s in (0, 1, 2):
            was, now = before[k][s], after[k][s]
            if was != now:
                what = f"put back {C.TILE_CODES[was]}" if was else "leave it empty"
                steps.append(f"{_slot_name(k, s)}: {what} (it holds "
                             f"{C.TILE_CODES[now] if now else 'nothing'})")
    return tuple(steps)


def _tile_problem(before: A.Programs, hand: tuple[int, ...], after: A.Programs) -> str | None:
    """Tiles in ``after`` that the player does not own (more than the count, a special not held)."""
    owned_specials = set(hand) | {t for p in before for t in p if t in C.SPECIALS}
    placed = after[0] + after[1]
    for tile in sorted(set(placed) - {0}):
        if tile in C.SPECIALS:
            if tile not in owned_specials:
                return f"the special {C.TILE_CODES[tile]} is not yours to place"
            if placed.count(tile) > 1:
                return f"there is only one {C.TILE_CODES[tile]} tile"
        elif placed.count(tile) > C.TILE_COUNT[tile]:
            return f"you own {C.TILE_COUNT[tile]} {C.TILE_NAMES[tile]} tiles, not {placed.count(tile)}"
    return None


def reconcile(before: A.Programs, hand: tuple[int, ...], after: A.Programs, first_turn: bool = False,
              can_double: bool = False) -> Reconciliation:
    """Legal programming actions turning ``before`` into ``after``, or why none does."""
    undo = undo_steps(before, after)
    problem = _tile_problem(before, hand, after)
    if problem:
        return Reconciliation((), problem, undo)
    changed = [(k, s) for k in (0, 1) for s in (0, 1, 2) if before[k][s] != after[k][s]]
    if first_turn:
        return _first_turn(before, hand, after, changed, undo)
    if not changed:
        return Reconciliation((A.pass_(),), None, undo)
    singles = [a for a in A.single_changes(before, hand, with_pass=False)
               if A.apply_change(before, hand, a)[0] == after]
    doubles: list[A.Action] = []
    if can_double and not singles:  # nobody spends the joker on what one change does
        doubles = _double_changes(before, hand, after)
    found = tuple(singles + doubles)
    if found:
        return Reconciliation(found, None, undo)
    robots = {k for k, _ in changed}
    if len(robots) == 2 and not can_double:
        reason = ("both robots' programs changed; one turn changes one robot "
                  f"(the {C.DM_NAME} tile, which allows two changes, is spent)")
    elif can_double:
        reason = (f"{len(changed)} slots changed ({', '.join(_slot_name(*c) for c in changed)}); "
                  f"even with {C.DM_NAME} a turn makes at most two changes")
    else:
        reason = (f"{len(changed)} slots changed ({', '.join(_slot_name(*c) for c in changed)}); "
                  "a turn makes one change: place, swap two slots of one robot, remove, or reset")
    return Reconciliation((), reason, undo)


def _double_changes(before: A.Programs, hand: tuple[int, ...], after: A.Programs) -> list[A.Action]:
    """Pairs of changes reaching ``after``; each distinct pair once, whatever its order."""
    out: list[A.Action] = []
    seen: set[frozenset[A.Action]] = set()
    for head in A.single_changes(before, hand, with_pass=False):
        mid, mid_hand = A.apply_change(before, hand, head)
        if mid == before:
            continue
        for tail in A.single_changes(mid, mid_hand, with_pass=False):
            if A.apply_change(mid, mid_hand, tail)[0] == after:
                key = frozenset((head, tail))
                if key not in seen:
                    seen.add(key)
                    out.append(A.double(head, tail))
    return out


def _first_turn(before: A.Programs, hand: tuple[int, ...], after: A.Programs,
                changed: list[tuple[int, int]], undo: tuple[str, ...]) -> Reconciliation:
    per_robot = [[s for k, s in changed if k == robot] for robot in (0, 1)]
    if len(per_robot[0]) == 1 and len(per_robot[1]) == 1:
        sa, sb = per_robot[0][0], per_robot[1][0]
        if after[0][sa] and after[1][sb]:
            action = A.first_turn(A.place(0, sa, after[0][sa]), A.place(1, sb, after[1][sb]))
            problem = A.check_programming(before, hand, True, False, action)
            if problem is None:
                return Reconciliation((action,), None, undo)
            return Reconciliation((), problem, undo)
    return Reconciliation((), "on the first turn place exactly one order on robot A and one on "
                              f"robot B (changed: {', '.join(_slot_name(*c) for c in changed) or 'nothing'})",
                          undo)
