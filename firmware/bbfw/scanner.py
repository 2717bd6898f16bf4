# Slot scanner: polls the readers a few at a time, debounces, reports changes.
#
#   sc = SlotScanner(bank, slots, on_event, present_after=2, absent_after=3,
#                    on_error=None, read_retries=3)
#   sc.set_priority(slots_first)   host-set order, the active station first
#   sc.step(budget) -> int         poll up to `budget` slots, returns how many
#   sc.watch() -> int              the empty priority slots once more (see
#                                  Scheduling), returns how many
#   sc.present_after, sc.absent_after   may be changed at any time
#   sc.present_every = k           a priority slot holding a tag is checked at
#       most once in k steps (default 1: every visit), and only one such slot
#       per step, the most overdue first (so each gets its turn); the visits
#       skipped cost no budget, so the empty slots of the active station, where
#       the next tile will land, are polled every step.  With T tags in the
#       station a departure takes about 2 * max(k, T) * absent_after steps to be
#       seen; arrivals are what must be quick.
#   on_event(slot, present, uid_bytes, payload_bytes_or_None)
#       once per arrival (after present_after consecutive reads of the same
#       tag, the last of them the payload READ) and once per departure (after
#       absent_after consecutive misses; the UID is the one that left)
#   on_error(slot, code, text)     code E_BAD_TAG: no or corrupt payload, or
#       several tags in the slot; E_READER: the reader stopped answering.
#       Each is reported once per episode, and scanning goes on.
#   on_trouble(slot, state)        a slot that cannot count, and when it can
#       again: UNREADABLE (something answers but its UID or payload never
#       reads cleanly: a detuned or half-inserted tag), SEVERAL (two tags or
#       more in the field), CROSS (it hears a tile another slot holds), 0 when
#       that is over; a tile does not arrive while its slot is in trouble.
#
# Scheduling: priority slots are polled first in every step, rotating when the
# budget is short; the rest of the budget goes to the other slots (round robin)
# and to tag checks of priority slots, at least one poll a step, so nothing
# starves.  With the budget of the board (priority slots + 1) that is one slow
# poll a step, a tag check and another slot taking turns.  With budget B, P
# priority slots and R others, a priority slot is polled every
# ceil(P / (B - 1)) steps.  watch() after a step polls the empty priority
# slots again, so that the step's slow poll and the other tasks' time never
# fall between the same two looks at an empty slot: the worst wait for a new
# tile is one of them, not their sum (host/botboard/bench/scan_worst.py).
# Field groups (bank.groups, from the layout: host/botboard/board/fields.py):
# neighbouring readers are in different groups and never have their fields on
# together, so a tile is never powered by its own reader while a neighbour
# listens.  Each step is one group's turn: its priority slots, then the other
# slots of that group in rotation (budget less the group's priority slots:
# more of them than without groups, so the whole board still comes round
# quickly); watch() ends the turn and switches on the next group's fields, so
# that the guard time before their first request passes while the other tasks
# run.  Only the fields of the slots a turn polls are on: at most `budget`.
# A UID already present in another slot does not arrive: the slot is in
# trouble CROSS and E_CROSS_READ names both slots (a reader hearing its
# neighbour's tile, or a tile half-way between two slots).
#
# The bank needs poll(slot) and read_payload(slot); when it also has
# status / collided byte arrays (ReaderBank), errors are classified.
# A step without arrivals or departures allocates nothing.
from micropython import const

from .drivers.mfrc522 import CHIP_TIMEOUT, OK, TIMEOUT
from .readers import NO_PAYLOAD, BAD_PAYLOAD, STATUS_NAMES

E_BAD_TAG = const(4)  # = bbshared.messages.E_BAD_TAG (ref: slot)
E_READER = const(5)  # = bbshared.messages.E_READER (ref: slot)
_E_CROSS_READ = const(11)  # = bbshared.messages.E_CROSS_READ (ref: slot)

_UID_MAX = const(10)
_F_DEAD = const(1)
_F_SEVERAL = const(2)
UNREADABLE = const(2)  # slot states (= bbshared.messages SLOT states)
SEVERAL = const(3)
_CROSS = const(4)  # = bbshared.messages.SLOT_CROSS


class SlotScanner:
    def __init__(self, bank, slots, on_event, present_after=2, absent_after=3,
                 on_error=None, read_retries=3, on_trouble=None):
        self._bank = bank
        self._status = getattr(bank, "status", None)
        self._collided = getattr(bank, "collided", None)
        self.slots = slots
        self._on_event = on_event
        self._on_error = on_error
        self._on_trouble = on_trouble
        self.trouble = bytearray(slots)  # UNREADABLE, SEVERAL or 0, as last reported
        self._garbled = bytearray(slots)  # garbled answers since the slot last read or fell quiet
        self._quiet = bytearray(slots)  # silent polls in a row
        self.present_after = present_after
        self.absent_after = absent_after
        self.read_retries = read_retries
        self._hits = bytearray(slots)
        self._miss = bytearray(slots)
        self._fails = bytearray(slots)
        self._flags = bytearray(slots)
        self.present = bytearray(slots)
        self._uid = bytearray(_UID_MAX * slots)  # confirmed, or candidate UID
        self._uidlen = bytearray(slots)
        self._prio = bytearray(slots)
        self._rest = bytearray(slots)
        self._nprio = 0
        self._nrest = 0
        self._pcur = 0
        self._rcur = 0
        self.polls = 0
        self.present_every = 1
        self._skips = bytearray(slots)
        self._check_turn = False  # a tag check waited while another slot was polled
        self._groups = g = getattr(bank, "groups", None)
        if g is not None:
            # [the group whose turn it is, the last step's budget (the next turn's
            # fields are switched with it), the groups, a slot in doubt (255:
            # none), then each group's place in the other slots' rotation]: one
            # buffer, not six attributes
            self._gs = bytearray(4 + max(g) + 1)
            self._gs[1] = 4
            self._gs[2] = max(g) + 1
            self._gs[3] = 255
        self.set_priority(())

    def set_priority(self, slots_first):
        n = self.slots
        seen = bytearray(n)
        k = 0
        for s in slots_first:
            if 0 <= s < n and not seen[s]:
                seen[s] = 1
                self._prio[k] = s
                k += 1
        self._nprio = k
        r = 0
        for s in range(n):
            if not seen[s]:
                self._rest[r] = s
                r += 1
        self._nrest = r
        self._pcur = 0
        self._rcur = 0
        if self._groups is not None:
            for i in range(4, len(self._gs)):
                self._gs[i] = 0

    def step(self, budget=4):
        np = self._nprio
        nr = self._nrest
        quota = budget - 1 if nr and budget > 1 else budget
        polled = 0
        visits = 0
        oldest = -1  # the priority slot holding a tag whose check is most overdue
        every = self.present_every
        skips = self._skips
        g = self._groups
        turn = 0
        mine = np
        if g is not None:
            turn = self._gs[0]
            self._gs[1] = budget
            mine = self._fields_on(turn, budget)
        while polled < quota and visits < np:
            s = self._prio[self._pcur]
            self._pcur = (self._pcur + 1) % np
            visits += 1
            if g is not None and g[s] != turn:
                continue
            if every > 1 and self.present[s]:
                if skips[s] < 255:
                    skips[s] += 1
                if skips[s] >= every and (oldest < 0 or skips[s] > skips[oldest]):
                    oldest = s
                continue
            self._poll(s)
            polled += 1
        # the polls beyond the priority visits (a skipped visit still uses its
        # share): tag checks and the other slots.  Both can be slow (a select),
        # so with one such poll a step they take turns: no step holds two
        slow = budget - min(quota, mine)
        if oldest >= 0:
            if slow > 1 or self._check_turn or (not nr and polled < quota):
                # one tag check per step, the most overdue first: every slot
                # holding a tag gets its turn
                self._check_turn = False
                skips[oldest] = 0
                self._poll(oldest)
                polled += 1
                slow -= 1
            else:
                self._check_turn = True  # the other slots have this step, the check the next
        if g is not None:
            return polled + self._rest_turn(turn, min(slow, nr), 1)
        for _ in range(min(slow, nr)):
            s = self._rest[self._rcur]
            self._rcur = (self._rcur + 1) % nr
            self._poll(s)
            polled += 1
        return polled

    def _rest_turn(self, turn, k, poll):
        # Up to k other slots of the turn's group, in rotation from where the
        # group's last turn stopped, at most one of them holding a tile (its
        # field was off since its last look: a full select, the slowest poll);
        # the next turn starts at the first tile passed over, so every tile
        # gets its look.  A slot in doubt (its tile read elsewhere) goes first,
        # as that tile.  poll 0: only switches their fields on.  Returns how many.
        nr = self._nrest
        g = self._groups
        gs = self._gs
        c = gs[4 + turn]
        tile = 1
        made = 0
        skipped = -1
        d = gs[3]
        if d != 255 and g[d] == turn:
            tile = 0
            made = 1
            if poll:
                self._poll(d)
                if not self.present[d] or not self._miss[d]:
                    gs[3] = 255  # gone, or still there (a true cross-read): no doubt
            else:
                self._bank.field(d, True)
        for _ in range(nr):
            if made >= k:
                break
            s = self._rest[c]
            c = (c + 1) % nr
            if g[s] != turn or s == d:
                continue
            if self.present[s]:
                if not tile:
                    if skipped < 0:
                        skipped = (c - 1) % nr
                    continue
                tile = 0
            made += 1
            if poll:
                self._poll(s)
            else:
                self._bank.field(s, True)
        if poll:
            gs[4 + turn] = c if skipped < 0 else skipped
        return made

    def _fields_on(self, turn, budget):
        # The fields of the slots this turn may poll, and no other group's:
        # its group's priority slots and the next others of the group in
        # rotation.  Returns the group's priority slots.  (poll() switches a
        # field on itself should a slot outside this plan be polled.)
        bank = self._bank
        g = self._groups
        on = bank.on
        for s in range(self.slots):
            if on[s] and g[s] != turn:
                bank.field(s, False)
        mine = 0
        for i in range(self._nprio):
            s = self._prio[i]
            if g[s] == turn:
                bank.field(s, True)
                mine += 1
        self._rest_turn(turn, budget - mine, 0)
        return mine

    def watch(self):
        # The empty priority slots again, in the order of the last step, after
        # its slow poll: between two looks at an empty slot there is then
        # either that poll or the time the other tasks take, never both
        # (a new tile is what must be seen quickly).  After a step that visited
        # every priority slot, _pcur is where that step began.  Slots holding a tag, a
        # candidate still being confirmed, trouble or a dead reader wait for
        # the next step.  Returns the polls made.
        np = self._nprio
        polled = 0
        g = self._groups
        for i in range(np):
            s = self._prio[(self._pcur + i) % np]
            if (self.present[s] or self._hits[s] or self.trouble[s]
                    or self._flags[s] & _F_DEAD or g is not None and g[s] != self._gs[0]):
                continue
            self._poll(s)
            polled += 1
        if g is not None:
            # the turn ends: the next group's fields on now, their guard time
            # passing while the other tasks run
            gs = self._gs
            gs[0] = (gs[0] + 1) % gs[2]
            self._fields_on(gs[0], gs[1])
        return polled

    # --- one slot --------------------------------------------------------
    def _same(self, s, uid):
        n = len(uid)
        if n != self._uidlen[s]:
            return False
        b = self._uid
        base = s * _UID_MAX
        for i in range(n):
            if b[base + i] != uid[i]:
                return False
        return True

    def _keep(self, s, uid):
        b = self._uid
        base = s * _UID_MAX
        n = len(uid)
        for i in range(n):
            b[base + i] = uid[i]
        self._uidlen[s] = n

    def _stored(self, s):
        base = s * _UID_MAX
        return bytes(self._uid[base:base + self._uidlen[s]])

    def _error(self, s, code, text):
        if self._on_error is not None:
            self._on_error(s, code, "slot %d: %s" % (s, text))

    def _poll(self, s):
        self.polls += 1
        if not self.present[s] and self._hits[s] and self._hits[s] + 1 >= self.present_after:
            # The confirming read is the payload READ itself: the tag is
            # still selected from the last poll, and only that tag can answer
            # it, so a second UID check first would only add an exchange
            # (about 2.5 ms on a Pico) to every arrival.
            self._arrive(s)
            return
        uid = self._bank.poll(s)
        st = self._status[s] if self._status is not None else 0
        self._check_health(s, st)
        if uid is None:
            self._hits[s] = 0
            self._fails[s] = 0
            self._garble(s, st)
            if self.present[s]:
                self._missed(s)
            return
        self._garbled[s] = 0
        self._quiet[s] = 0
        if self.present[s]:
            if self._same(s, uid):
                self._miss[s] = 0
            else:
                self._missed(s)  # another tag: the old one left; it arrives later
            return
        if self._hits[s] and self._same(s, uid):
            self._hits[s] += 1
        else:
            self._keep(s, uid)
            self._hits[s] = 1
        if self._hits[s] >= self.present_after:
            self._arrive(s)

    def _check_health(self, s, st):
        f = self._flags[s]
        if st == CHIP_TIMEOUT:
            if not f & _F_DEAD:
                self._flags[s] = f | _F_DEAD
                self._error(s, E_READER, "reader not answering")
        elif f & _F_DEAD:
            self._flags[s] = f & ~_F_DEAD
        c = self._collided
        if c is not None and c[s]:
            if not self._flags[s] & _F_SEVERAL:
                self._flags[s] |= _F_SEVERAL
                self._error(s, E_BAD_TAG, "several tags in the slot")
            self._set_trouble(s, SEVERAL)
        elif st != CHIP_TIMEOUT and (st == OK or st == TIMEOUT):
            # a clean answer or a clean silence: one tag, or none, again
            self._flags[s] &= ~_F_SEVERAL
            if self.trouble[s] == SEVERAL:
                self._set_trouble(s, 0)

    def _garble(self, s, st):
        # no UID: absent_after silences in a row clear an unreadable slot (a
        # garbled tag's failed select leaves it mute on the next poll, so
        # single silences come between its answers); a garbled answer keeps it
        if st == TIMEOUT or st == CHIP_TIMEOUT:
            self._quiet[s] = min(self._quiet[s] + 1, 255)
            if self._quiet[s] >= self.absent_after:
                self._garbled[s] = 0
                if self.trouble[s] == UNREADABLE or self.trouble[s] == _CROSS:
                    self._set_trouble(s, 0)
            return
        self._quiet[s] = 0
        if self._garbled[s] < 255:
            self._garbled[s] += 1
            if self._garbled[s] >= self.present_after + self.read_retries:
                self._set_trouble(s, UNREADABLE)

    def _set_trouble(self, s, state):
        if self.trouble[s] != state:
            self.trouble[s] = state
            if self._on_trouble is not None:
                self._on_trouble(s, state)

    def _missed(self, s):
        self._miss[s] += 1
        if self._miss[s] >= self.absent_after:
            self.present[s] = 0
            self._miss[s] = 0
            self._hits[s] = 0
            self._on_event(s, False, self._stored(s), None)

    def _arrive(self, s):
        payload = self._bank.read_payload(s)
        if payload is None:
            st = self._status[s] if self._status is not None else NO_PAYLOAD
            if st == NO_PAYLOAD:
                self._error(s, E_BAD_TAG, "tag has no tile payload")
            elif st == BAD_PAYLOAD:
                self._error(s, E_BAD_TAG, "tile payload corrupt")
            elif self._fails[s] + 1 < self.read_retries:
                # transient (tag leaving, noise): confirm again on the next poll
                self._fails[s] += 1
                self._hits[s] = self.present_after - 1
                return
            elif st != TIMEOUT and st != CHIP_TIMEOUT:
                # the tag answers but its payload never reads cleanly: it does
                # not arrive (its tile would count as a blank tag); the slot says why
                if self.trouble[s] != UNREADABLE:
                    self._error(s, E_BAD_TAG, "payload unreadable: " + STATUS_NAMES[st])
                self._set_trouble(s, UNREADABLE)
                self._hits[s] = 0
                self._fails[s] = 0
                return
            else:
                self._hits[s] = 0  # never read: the tag is gone, no arrival
                self._fails[s] = 0
                return
        uid = self._stored(s)
        for t in range(self.slots):
            if t != s and self.present[t] and self._same(t, uid):
                # one tile heard by two readers: a fault, never a second tile
                # (the host's words for SLOT_CROSS say what to do)
                if self.trouble[s] != _CROSS:
                    self._error(s, _E_CROSS_READ, "hears the tile of slot %d too" % t)
                    if self._groups is not None:
                        self._gs[3] = t  # unless t's tile has moved here: looked at first
                self._set_trouble(s, _CROSS)
                self._hits[s] = 0
                self._fails[s] = 0
                return
        self.present[s] = 1
        self._miss[s] = 0
        self._fails[s] = 0
        if self.trouble[s] == UNREADABLE or self.trouble[s] == _CROSS:
            self._set_trouble(s, 0)  # it read in the end, and alone
        self._on_event(s, True, uid, payload)
