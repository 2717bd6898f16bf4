# The slot scanner's poll order when every reader's field stays on (a layout
# without slot places: scanner.py, Scheduling), apart so that a board whose
# readers are in field groups never loads it.  sc is the SlotScanner.
#
#   step(sc, budget) -> int   the priority slots, then one slow poll
#   watch(sc) -> int          the empty priority slots once more
from micropython import const

_F_DEAD = const(1)  # = scanner._F_DEAD


def step(sc, budget):
    np = sc._nprio
    nr = sc._nrest
    quota = budget - 1 if nr and budget > 1 else budget
    polled = 0
    visits = 0
    oldest = -1  # the priority slot holding a tag whose check is most overdue
    every = sc.present_every
    skips = sc._skips
    while polled < quota and visits < np:
        s = sc._prio[sc._pcur]
        sc._pcur = (sc._pcur + 1) % np
        visits += 1
        if every > 1 and sc.present[s]:
            if skips[s] < 255:
                skips[s] += 1
            if skips[s] >= every and (oldest < 0 or skips[s] > skips[oldest]):
                oldest = s
            continue
        sc._poll(s)
        polled += 1
    # the polls beyond the priority visits (a skipped visit still uses its
    # share): tag checks and the other slots.  Both can be slow (a select),
    # so with one such poll a step they take turns: no step holds two
    slow = budget - min(quota, np)
    if oldest >= 0:
        if slow > 1 or sc._check_turn or (not nr and polled < quota):
            # one tag check per step, the most overdue first: every slot
            # holding a tag gets its turn
            sc._check_turn = False
            skips[oldest] = 0
            sc._poll(oldest)
            polled += 1
            slow -= 1
        else:
            sc._check_turn = True  # the other slots have this step, the check the next
    for _ in range(min(slow, nr)):
        s = sc._rest[sc._rcur]
        sc._rcur = (sc._rcur + 1) % nr
        sc._poll(s)
        polled += 1
    return polled


def watch(sc):
    # The empty priority slots again, in the order of the last step, after its
    # slow poll: between two looks at an empty slot there is then either that
    # poll or the time the other tasks take, never both (a new tile is what
    # must be seen quickly).  After a step that visited every priority slot,
    # _pcur is where that step began.  Slots holding a tag, a candidate still
    # being confirmed, trouble or a dead reader wait for the next step.
    np = sc._nprio
    polled = 0
    for i in range(np):
        s = sc._prio[(sc._pcur + i) % np]
        if sc.present[s] or sc._hits[s] or sc.trouble[s] or sc._flags[s] & _F_DEAD:
            continue
        sc._poll(s)
        polled += 1
    return polled
