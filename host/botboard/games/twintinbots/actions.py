"""Actions: programming changes and decisions, their text notation, legality.

An action is a plain tuple whose first item says what it is:

====================  ===========================  ====================
tuple                 meaning                      notation
====================  ===========================  ====================
(PLACE, k, s, tile)   put a tile in slot s of k    ``A1=F2``
(SWAP, k, a, b)       swap two slots of robot k    ``A1<>A3``
(REMOVE, k, s)        take a tile back to hand     ``A1=-``
(RESET, k)            empty robot k's program      ``reset A``
(PASS,)               change nothing               ``pass``
(DOUBLE, c1, c2)      Double Modification          ``DM A1=F2 + B3=L``
(FIRST, c1, c2)       first turn: one per robot    ``A1=F1 + B1=L``
(ZAP_ORDER, tile)     zapper's forced order        ``zap F1``
(BLOB_MOVE, facing)   where a zapped blob goes     ``blob 1,-2`` / ``blob stay``
(ENTRY, cell)         where a crystal enters       ``enter 1,-1``
====================  ===========================  ====================

k is 0 for robot A and 1 for robot B, slots are 0..2 (written 1..3). The
constructors ``place``, ``swap``... build them for callers such as the game
session, which maps tiles seen in physical slots to these actions.
"""

from __future__ import annotations

import re
from typing import Any, Iterator, Sequence, overload

from ..base import InvalidNotation
from . import content as C

PLACE, SWAP, REMOVE, RESET, PASS, DOUBLE, FIRST, ZAP_ORDER, BLOB_MOVE, ENTRY = range(10)
PROGRAMMING = (PLACE, SWAP, REMOVE, RESET, PASS, DOUBLE, FIRST)

Action = tuple[Any, ...]  # see the table above
Programs = tuple[tuple[int, int, int], tuple[int, int, int]]  # one seat's robots A and B
_PASS: Action = (PASS,)
_PAIRS = ((0, 1), (0, 2), (1, 2))
_STANDARD = frozenset(C.STANDARD)
_SPECIALS = frozenset(C.SPECIALS)


# -- constructors ---------------------------------------------------------------
def place(robot: int, slot: int, tile: int | str) -> Action:
    return (PLACE, robot, slot, C.tile_code(tile) if isinstance(tile, str) else tile)


def swap(robot: int, slot_a: int, slot_b: int) -> Action:
    a, b = sorted((slot_a, slot_b))
    return (SWAP, robot, a, b)


def remove(robot: int, slot: int) -> Action:
    return (REMOVE, robot, slot)


def reset(robot: int) -> Action:
    return (RESET, robot)


def pass_() -> Action:
    return _PASS


def double(first: Action, second: Action) -> Action:
    return (DOUBLE, first, second)


def first_turn(on_a: Action, on_b: Action) -> Action:
    return (FIRST, on_a, on_b)


# -- the hand and single changes --------------------------------------------------
_MEMO_LIMIT = 20_000  # entries; the pair-prefix memo below is cleared when it grows past it
_BITS = 3  # bits per standard tile kind in a use count: up to 6 slots hold one kind
_USE: dict[tuple[int, int, int], int] = {}  # program -> its standard tiles, counted per kind
_FREE: dict[int, tuple[tuple[int, ...], int]] = {}  # use of both robots -> (tiles left, held)


def _use(prog: tuple[int, int, int]) -> int:
    """How many of each standard tile kind a program holds, packed _BITS bits a kind.

    Memoised without a limit: there are at most 21**3 programs.
    """
    found = _USE.get(prog)
    if found is None:
        found = sum(1 << _BITS * t for t in prog if t in _STANDARD)
        _USE[prog] = found
    return found


def _free(use: int) -> tuple[tuple[int, ...], int]:
    """Standard tile kinds not all placed under ``use``, and how many slots hold one of them.

    Memoised without a limit: a seat's six slots make at most a few thousand uses.
    """
    found = _FREE.get(use)
    if found is None:
        kinds: list[int] = []
        held = 0
        for t in C.STANDARD:
            n = use >> _BITS * t & (1 << _BITS) - 1
            if n < C.TILE_COUNT[t]:
                kinds.append(t)
                held += n
        found = (tuple(kinds), held)
        _FREE[use] = found
    return found


def _tiles_and_held(progs: Programs, hand: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The available tiles and how many of the six slots hold one of them."""
    a, b = progs
    use_a, use_b = _USE.get(a), _USE.get(b)  # looked up inline: this runs twice a turn
    kinds, held = _free((_use(a) if use_a is None else use_a)
                        + (_use(b) if use_b is None else use_b))
    if not hand:
        return kinds, held
    for t in hand:  # a special is in the hand or on a robot, but positions may say both
        if t in a or t in b:
            held += a.count(t) + b.count(t)
    return kinds + hand, held


def available(progs: Programs, hand: tuple[int, ...]) -> tuple[int, ...]:
    """Tile kinds the seat can place now: standard tiles not all on the board, specials in hand."""
    return _tiles_and_held(progs, hand)[0]


def single_changes(progs: Programs, hand: tuple[int, ...], with_pass: bool = True,
                   places: bool = True) -> list[Action]:
    """Every single programming change (place, swap, remove, reset, and pass), in that order."""
    tiles = available(progs, hand) if places else []
    out: list[Action] = []
    for k in (0, 1):
        prog = progs[k]
        for s in (0, 1, 2):
            current = prog[s]
            out.extend((PLACE, k, s, t) for t in tiles if t != current)
    for k in (0, 1):
        prog = progs[k]
        for a, b in _PAIRS:
            if prog[a] != prog[b]:
                out.append((SWAP, k, a, b))
        for s in (0, 1, 2):
            if prog[s]:
                out.append((REMOVE, k, s))
        if prog != (0, 0, 0):
            out.append((RESET, k))
    if with_pass:
        out.append(_PASS)
    return out


_PREFIXES: dict[tuple[Programs, tuple[int, ...], bool], list[int]] = {}


def count_changes(progs: Programs, hand: tuple[int, ...]) -> int:
    """len(single_changes(..., with_pass=False)) without building the list."""
    tiles, held = _tiles_and_held(progs, hand)
    return (6 * len(tiles) - held + len(_reshuffles(0, progs[0]))
            + len(_reshuffles(1, progs[1])))


def check_change(progs: Programs, hand: tuple[int, ...], action: Action) -> str | None:
    """Why a single change is not allowed, or None when it is."""
    kind = action[0]
    if kind == PASS:
        return None
    k = action[1]
    if k not in (0, 1):
        return "robot must be A or B"
    prog = progs[k]
    if kind == PLACE:
        _, _, s, tile = action
        if tile == prog[s]:
            return f"slot {'AB'[k]}{s + 1} already holds {C.TILE_CODES[tile]}; that is no change"
        if tile not in available(progs, hand):
            if tile in C.SPECIALS:
                return f"the special order {C.TILE_CODES[tile]} is not in your hand"
            return f"all your {C.TILE_NAMES[tile]} tiles are already placed"
        return None
    if kind == SWAP:
        if prog[action[2]] == prog[action[3]]:
            return "swapping two identical slots changes nothing"
        return None
    if kind == REMOVE:
        return None if prog[action[2]] else f"slot {'AB'[k]}{action[2] + 1} is already empty"
    if kind == RESET:
        return None if prog != (0, 0, 0) else f"robot {'AB'[k]} has no orders to reset"
    return "not a single programming change"


def apply_change(progs: Programs, hand: tuple[int, ...],
                 action: Action) -> tuple[Programs, tuple[int, ...]]:
    """The seat's programs and hand after a (legal) single change."""
    kind = action[0]
    if kind == PASS:
        return progs, hand
    k = action[1]
    slots = list(progs[k])
    if kind == PLACE:
        _, _, s, tile = action
        back = slots[s]
        slots[s] = tile
        if tile in _SPECIALS:
            hand = tuple(t for t in hand if t != tile)
        if back in _SPECIALS:
            hand = tuple(sorted(hand + (back,)))
    elif kind == SWAP:
        a, b = action[2], action[3]
        slots[a], slots[b] = slots[b], slots[a]
    elif kind == REMOVE:
        back = slots[action[2]]
        slots[action[2]] = 0
        if back in _SPECIALS:
            hand = tuple(sorted(hand + (back,)))
    else:  # RESET
        returned = tuple(t for t in slots if t in _SPECIALS)
        if returned:
            hand = tuple(sorted(hand + returned))
        slots = [0, 0, 0]
    new: tuple[int, int, int] = (slots[0], slots[1], slots[2])
    return ((new, progs[1]) if k == 0 else (progs[0], new)), hand


# -- the lazy list of legal programming actions ------------------------------------
class ProgrammingActions(Sequence[Action]):
    """Legal programming actions of a turn, built on demand.

    Placements are counted, not built: an index decodes to its action (random
    play needs len() and one item). Double Modification and the first turn pair
    two changes, which makes thousands of actions; the pairs are counted the
    same way and built one at a time.
    """

    def __init__(self, progs: Programs, hand: tuple[int, ...], first: bool, can_double: bool) -> None:
        self.progs, self.hand, self.first = progs, hand, first
        # placements: one block per slot (robot A's three, then B's), each every
        # available tile but the one already there; counted, decoded by _place
        tiles, held = _tiles_and_held(progs, hand)
        self.tiles = tiles
        self.pairing = first or can_double
        if first:
            self._n_places = self._blocks_size(0)
            self._shuffles: tuple[list[Action], list[Action]] = ([], [])
            self._n_singles = 0
        else:
            self._n_places = 6 * len(tiles) - held
            self._shuffles = (_reshuffles(0, progs[0]), _reshuffles(1, progs[1]))
            self._n_singles = (self._n_places + len(self._shuffles[0]) + len(self._shuffles[1])
                               + 1)  # pass
        self._starts: list[int] | None = None  # prefix counts of the pairs, per first change
        self._singles: list[Action] | None = None

    @property
    def singles(self) -> list[Action]:
        """Every single change (pass last); on the first turn, none."""
        if self._singles is None:
            self._singles = [self._single(i) for i in range(self._n_singles)]
        return self._singles

    def _place(self, index: int) -> Action:
        tiles = self.tiles
        size = len(tiles)
        for k in ((0,) if self.first else (0, 1)):
            prog = self.progs[k]
            for s in (0, 1, 2):
                current = prog[s]
                held = current in tiles
                if index < size - held:
                    if held and index >= tiles.index(current):
                        index += 1
                    return (PLACE, k, s, tiles[index])
                index -= size - held
        raise IndexError(index)

    def _single(self, index: int) -> Action:
        if index < self._n_places:
            return self._place(index)
        index -= self._n_places
        for shuffles in self._shuffles:
            if index < len(shuffles):
                return shuffles[index]
            index -= len(shuffles)
        return _PASS

    def _pair_heads(self) -> list[Action]:
        if self.first:
            return [self._place(i) for i in range(self._n_places)]
        return self.singles[:-1]

    def _prefix(self) -> list[int]:
        """Where each head's pairs start in the index space (memoised per programs and hand)."""
        if self._starts is None:
            key = (self.progs, self.hand, self.first)
            starts = _PREFIXES.get(key)
            if starts is None:
                starts, total = [], 0
                for head in self._pair_heads():
                    starts.append(total)
                    progs, hand = apply_change(self.progs, self.hand, head)
                    total += (_count_b_places(progs, hand) if self.first
                              else count_changes(progs, hand))
                starts.append(total)
                if len(_PREFIXES) > _MEMO_LIMIT // 20:
                    _PREFIXES.clear()
                _PREFIXES[key] = starts
            self._starts = starts
        return self._starts

    def __len__(self) -> int:
        pairs = self._prefix()[-1] if self.pairing else 0
        return self._n_singles + pairs

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if 0 <= index < self._n_singles:
            return self._single(index)
        index -= self._n_singles
        starts = self._prefix()
        if not self.pairing or index >= starts[-1] or index < 0:
            raise IndexError(index)
        lo, hi = 0, len(starts) - 1  # find the head whose range holds index
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if starts[mid] <= index else (lo, mid)
        head = self._place(lo) if self.first else self._single(lo)
        progs, hand = apply_change(self.progs, self.hand, head)
        after = ProgrammingActions(progs, hand, False, False)
        offset = index - starts[lo]
        if self.first:  # robot B's placements are the second half of the placements
            return (FIRST, head, after._place(offset + after._blocks_size(0)))
        return (DOUBLE, head, after._single(offset))

    def _blocks_size(self, robot: int) -> int:
        """How many placements robot ``robot`` has: every available tile in each slot but its own."""
        tiles = self.tiles
        return 3 * len(tiles) - sum(1 for t in self.progs[robot] if t in tiles)

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        return isinstance(action, tuple) and check_programming(
            self.progs, self.hand, self.first, self.pairing and not self.first, action) is None


_RESHUFFLES: tuple[dict[tuple[int, int, int], list[Action]], ...] = ({}, {})  # per robot


def _reshuffles(k: int, prog: tuple[int, int, int]) -> list[Action]:
    """Swaps, removes and reset of one robot: they depend on its program alone.

    Memoised without a limit: there are at most 21**3 programs.
    """
    found = _RESHUFFLES[k].get(prog)
    if found is None:
        found = [(SWAP, k, a, b) for a, b in _PAIRS if prog[a] != prog[b]]
        found += [(REMOVE, k, s) for s in (0, 1, 2) if prog[s]]
        if prog != (0, 0, 0):
            found.append((RESET, k))
        _RESHUFFLES[k][prog] = found
    return found


def _count_b_places(progs: Programs, hand: tuple[int, ...]) -> int:
    tiles = available(progs, hand)
    return 3 * len(tiles) - sum(1 for s in progs[1] if s in tiles)


def check_programming(progs: Programs, hand: tuple[int, ...], first: bool, can_double: bool,
                      action: Action) -> str | None:
    """Why a programming action is not allowed this turn, or None when it is."""
    kind = action[0] if action else None
    if first:
        if kind != FIRST:
            return ("on a player's first turn, place one order on each robot "
                    "(for example A1=F1 + B1=L)")
        head, tail = action[1], action[2]
        if head[0] != PLACE or tail[0] != PLACE or {head[1], tail[1]} != {0, 1}:
            return "the first turn places one order on robot A and one on robot B"
        problem = check_change(progs, hand, head)
        if problem:
            return problem
        progs, hand = apply_change(progs, hand, head)
        return check_change(progs, hand, tail)
    if kind == FIRST:
        return "placing one order on each robot is only for a player's first turn"
    if kind == DOUBLE:
        if not can_double:
            return f"the {C.DM_NAME} tile is already spent"
        head, tail = action[1], action[2]
        if PASS in (head[0], tail[0]):
            return f"{C.DM_NAME} makes two changes; pass is not one"
        problem = check_change(progs, hand, head)
        if problem:
            return f"first change: {problem}"
        progs, hand = apply_change(progs, hand, head)
        problem = check_change(progs, hand, tail)
        return f"second change: {problem}" if problem else None
    if kind not in (PLACE, SWAP, REMOVE, RESET, PASS):
        return "a programming change is expected now"
    return check_change(progs, hand, action)


def apply_programming(progs: Programs, hand: tuple[int, ...],
                      action: Action) -> tuple[Programs, tuple[int, ...]]:
    if action[0] in (DOUBLE, FIRST):
        progs, hand = apply_change(progs, hand, action[1])
        return apply_change(progs, hand, action[2])
    return apply_change(progs, hand, action)


# -- notation -----------------------------------------------------------------------
_SLOT_RE = re.compile(r"^([AB])([123])$")


def _slot(text: str) -> tuple[int, int]:
    match = _SLOT_RE.match(text.strip().upper())
    if not match:
        raise InvalidNotation(f"{text.strip()!r} is not a slot; write A1..A3 or B1..B3")
    return "AB".index(match.group(1)), int(match.group(2)) - 1


def change_from_str(text: str) -> Action:
    t = text.strip()
    low = t.lower()
    if low == "pass":
        return _PASS
    if low.startswith("reset"):
        robot = t[5:].strip().upper()
        if robot not in ("A", "B"):
            raise InvalidNotation(f"{t!r}: write reset A or reset B")
        return (RESET, "AB".index(robot))
    if "<>" in t:
        left, right = t.split("<>", 1)
        k, a = _slot(left)
        right = right.strip()
        k2, b = _slot(right if right[:1].isalpha() else "AB"[k] + right)
        if k2 != k:
            raise InvalidNotation(f"{t!r}: swaps stay within one robot's program")
        if a == b:
            raise InvalidNotation(f"{t!r}: swap two different slots")
        return swap(k, a, b)
    if "=" in t:
        left, right = t.split("=", 1)
        k, s = _slot(left)
        code = right.strip().upper()
        if code in ("-", ""):
            return (REMOVE, k, s)
        if code not in C.TILE_BY_CODE or code == "-":
            raise InvalidNotation(f"{right.strip()!r} is not an order tile; tiles are "
                                  f"{', '.join(C.TILE_CODES[1:])}")
        return (PLACE, k, s, C.TILE_BY_CODE[code])
    raise InvalidNotation(f"{t!r} is not a programming change; examples: A1=F2, A1=-, A1<>A3, "
                          "reset A, pass")


def change_to_str(action: Action) -> str:
    kind = action[0]
    if kind == PLACE:
        return f"{'AB'[action[1]]}{action[2] + 1}={C.TILE_CODES[action[3]]}"
    if kind == SWAP:
        robot = "AB"[action[1]]
        return f"{robot}{action[2] + 1}<>{robot}{action[3] + 1}"
    if kind == REMOVE:
        return f"{'AB'[action[1]]}{action[2] + 1}=-"
    if kind == RESET:
        return f"reset {'AB'[action[1]]}"
    return "pass"


def programming_from_str(text: str) -> Action:
    t = text.strip()
    double_mod = t.upper().startswith("DM ") or t.upper().startswith("DM:")
    if double_mod:
        t = t[3:]
    parts = t.split("+")
    if len(parts) == 1:
        if double_mod:
            raise InvalidNotation(f"{text!r}: {C.DM_NAME} takes two changes joined by +")
        return change_from_str(parts[0])
    if len(parts) != 2:
        raise InvalidNotation(f"{text!r}: at most two changes, joined by +")
    return (DOUBLE if double_mod else FIRST, change_from_str(parts[0]), change_from_str(parts[1]))


def programming_to_str(action: Action) -> str:
    if action[0] == DOUBLE:
        return f"DM {change_to_str(action[1])} + {change_to_str(action[2])}"
    if action[0] == FIRST:
        return f"{change_to_str(action[1])} + {change_to_str(action[2])}"
    return change_to_str(action)

