# Slot scanner: polls the readers a few at a time, debounces, reports changes.
#
#   sc = SlotScanner(bank, slots, on_event, present_after=2, absent_after=3,
#                    on_error=None, read_retries=3)
#   sc.set_priority(slots_first)   host-set order, the active station first
#   sc.step(budget) -> int         poll up to `budget` slots, returns how many
#   sc.watch() -> int              the empty priority slots once more (see
#                                  Scheduling; under field groups nothing),
#                                  returns how many
#   sc.present_after, sc.absent_after   may be changed at any time
#   sc.present_every = k           a priority slot holding a tag is checked at
#       most once in k steps (default 1: every visit), and only one such slot
#       per step, the most overdue first (so each gets its turn); the visits
#       skipped cost no budget, so the empty slots of the active station, where
#       the next tile will land, are polled every step.  With T tags in the
#       station a departure takes about 2 * max(k, T) * absent_after steps to be
#       seen; arrivals are what must be quick.  (Every field on only: under
#       field groups the tile checks keep their own cycle, see Field groups.)
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
# Scheduling with every field on (scan_all_on.py; a layout without slot
# places): priority slots are polled first in every step, rotating when the
# budget is short; the rest of the budget goes to the other slots (round robin)
# and to tag checks of priority slots, at least one poll a step, so nothing
# starves.  With the budget of the board (priority slots + 1) that is one slow
# poll a step, a tag check and another slot taking turns.  With budget B, P
# priority slots and R others, a priority slot is polled every
# ceil(P / (B - 1)) steps.  watch() after a step polls the empty priority
# slots again, so that the step's slow poll and the other tasks' time never
# fall between the same two looks at an empty slot: the worst wait for a new
# tile is one of them, not their sum (host/botboard/bench/scan_worst.py).
# Field groups (bank.groups and bank.zones, from the layout:
# host/botboard/board/fields.py): neighbouring readers are in different groups
# and never have their fields on together, so a tile is never powered by its
# own reader while a neighbour listens; a zone is a set of slots joined by
# neighbours (a station), and readers of two zones never hear each other.  The
# zones holding a priority slot are the near track, the others the rest
# track, and each track takes its groups in turn on its own, so that one
# track's polls run during the other's guard time (5.1 ms after a field came
# on, ISO/IEC 14443-3, kept per reader: ReaderBank.settle).  A step:
#   1. the rest track's polls: budget less the most listed slots of a group
#      less one, the next slots of its group in rotation (fields on since the
#      last step), then its next group's fields on;
#   2. the near track's listed slots of its group, once (a look a turn: its
#      other group's turn between two looks is the wait, whatever the order);
#   3. one more of the near track: a listed slot holding a tile (the most
#      overdue) or the next unlisted one of the group; then its next group's
#      fields on, their guard passing while the other tasks and step 1 run.
# A poll of a tile whose field was off selects it again (5 ms on an RP2040):
# two of them in one acting wait would break its 30 ms, so tile checks keep a
# cycle of 5 steps (7 when the groups number 5 or 10: the cycle's length is
# prime to theirs, so that every group's tiles come round): the rest track
# checks one tile in step 0 of it, the near track in step 2, and never two
# steps running.  Without a priority list there is no near track and the rest
# track checks a tile every step.  Only the fields of the slots polled are on:
# at most `budget`.  The cost: a tile that leaves a slot of the rest track is
# seen after one turn of the cycle at that slot and absent_after - 1 turns of
# its group (a slot whose tile missed a look is in doubt, as below).
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
# a slot's track (field groups): bit 0, its zone holds a priority slot
_REST = const(0)
_NEAR = const(1)
_LISTED = const(3)  # a priority slot
# SlotScanner._gs, field groups' bookkeeping
_GS_NEAR = const(0)
_GS_REST = const(1)
_GS_NEAR_GROUPS = const(2)
_GS_DOUBT = const(3)
_GS_STEP = const(4)
_GS_REST_GROUPS = const(5)
_GS_CYCLE = const(6)
_GS_COLOURS = const(7)
_GS_MOST = const(8)
_GS_OTHERS = const(9)  # and 10: the rest track, the near track has unlisted slots
_GS_LIT = const(11)  # and 12: how many fields each track has on (SlotScanner._lit)
_GS_DUE = const(13)  # the tile the near track's next turn checks (255: none)
_GS_CURSORS = const(14)
_UNPLANNED = const(255)  # _GS_STEP after a new priority list


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
        self.polls = 0
        self.present_every = 1
        self._skips = bytearray(slots)
        self._groups = g = getattr(bank, "groups", None)
        if g is None:
            from . import scan_all_on  # every field on: its own poll order

            self._all_on = scan_all_on
            self._check_turn = False  # a tag check waited while another slot was polled
        else:
            # each slot's track: _REST, _NEAR (a zone holding a priority slot)
            # or _LISTED (a priority slot)
            self._trk = bytearray(slots)
            nc = max(g) + 1
            # [the near track's group, the rest track's group, the near track's
            # groups, a slot in doubt (255: none), the step in the tile checks'
            # cycle, the rest track's groups, the cycle's length, the groups,
            # the most listed slots a group has, whether each track has
            # unlisted slots, then each group's place in the rest track's
            # rotation and in the near track's]: one buffer, not a dozen
            # attributes
            gs = self._gs = bytearray(_GS_CURSORS + 2 * nc)
            gs[_GS_COLOURS] = nc
            gs[_GS_DOUBT] = 255
            # the cycle: a tile check on each track once in it, never in two
            # steps running; its length prime to the groups' count, so that
            # the checks come in every group's turn in turn
            gs[_GS_CYCLE] = 5 if nc % 5 else 7
            # the slots whose fields each track switched on, the rest
            # track's from 0, the near track's from `slots`: a turn switches
            # off only these, not a pass over every slot
            self._lit = bytearray(2 * slots)
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
        if self._groups is None:
            self._pcur = 0  # where the next step's rotations start (scan_all_on)
            self._rcur = 0
        else:
            self._tracks(k)

    def step(self, budget=4):
        if self._groups is None:
            return self._all_on.step(self, budget)
        return self._zoned_step(budget)

    # --- field groups and zones (see Field groups above) ------------------
    def _tracks(self, k):
        # each slot's track from the priority list's zones; each track's
        # groups; the rotations and the cycle start again
        t = self._trk
        z = getattr(self._bank, "zones", None)
        g = self._groups
        gs = self._gs
        n = self.slots
        for s in range(n):
            t[s] = _REST
        for i in range(k):
            p = self._prio[i]
            for s in range(n):
                if z is None or z[s] == z[p]:
                    t[s] |= _NEAR
            t[p] = _LISTED
        near = rest = 0
        gs[_GS_OTHERS] = gs[_GS_OTHERS + 1] = 0
        for s in range(n):
            if t[s] and g[s] >= near:
                near = g[s] + 1
            elif not t[s] and g[s] >= rest:
                rest = g[s] + 1
            if t[s] != _LISTED:
                gs[_GS_OTHERS + t[s]] = 1  # the track has unlisted slots: _turn walks them
        gs[_GS_NEAR_GROUPS] = near or 1
        gs[_GS_REST_GROUPS] = rest  # 0: no rest track
        # the most listed slots of a group: the rest track polls the budget
        # less that and one (so the fields on never number more than the
        # budget, even while the tracks change groups)
        most = bytearray(near or 1)
        for i in range(k):
            most[g[self._prio[i]]] += 1
        gs[_GS_MOST] = max(most)
        for i in range(_GS_CURSORS, len(gs)):
            gs[i] = 0
        gs[_GS_NEAR] = gs[_GS_REST] = 0
        gs[_GS_LIT] = gs[_GS_LIT + 1] = 0
        gs[_GS_DUE] = 255
        gs[_GS_STEP] = _UNPLANNED
        for s in range(n):
            # the new tracks' groups may differ from the old: no two
            # neighbours on while the first step plans them
            self._bank.field(s, False)

    def _zoned_step(self, budget):
        # the rest track's polls (their fields on since the last step), its
        # next group's fields on; the near track's listed slots, one more of
        # it, its next group's fields on (their guard time passing while the
        # other tasks and the next step's rest polls run)
        gs = self._gs
        g = self._groups
        step = gs[_GS_STEP]  # _UNPLANNED after a new priority list: every field off
        rest_k = budget - gs[_GS_MOST] - 1  # _tracks
        if rest_k < 1:
            rest_k = 1
        # the near track's unlisted slots in a step: one, or with no rest track
        # (a single zone) what the budget leaves
        near_k = 1 if gs[_GS_REST_GROUPS] else rest_k + 1
        if step == _UNPLANNED:
            step = 0
            self._switch(_REST, 0, rest_k, True)  # step 0: its tile check
            self._switch(_NEAR, 0, near_k, False)
        gs[_GS_STEP] = nxt = (step + 1) % gs[_GS_CYCLE]
        near = gs[_GS_NEAR]
        polled = 0
        rest = gs[_GS_REST]
        if gs[_GS_REST_GROUPS]:
            # no priority list: nothing to keep quick, a tile check every step
            always = not self._nprio
            polled = self._turn(_REST, rest, rest_k, 1, step == 0 or always)
            rest = gs[_GS_REST] = (rest + 1) % gs[_GS_REST_GROUPS]
            self._switch(_REST, rest, rest_k, nxt == 0 or always)
        skips = self._skips
        on = self._bank.on  # (the listed slots polled were switched on by _switch: this is a guard)
        for i in range(self._nprio):
            s = self._prio[i]
            if g[s] != near:
                continue
            if self.present[s]:
                if skips[s] < 255:
                    skips[s] += 1  # (_overdue's order)
                continue
            if not on[s]:
                self._on(_NEAR, s)
            self._poll(s)
            polled += 1
        due = gs[_GS_DUE]  # the tile this turn checks, planned by _switch
        if due != 255 and step == 2:
            skips[due] = 0
            if not on[due]:
                self._on(_NEAR, due)
            self._poll(due)
            polled += 1
        else:
            polled += self._turn(_NEAR, near, near_k, 1, step == 2)
        near = gs[_GS_NEAR] = (near + 1) % gs[_GS_NEAR_GROUPS]
        self._switch(_NEAR, near, near_k, nxt == 2)
        return polled

    def _turn(self, track, group, k, poll, check):
        # Up to k unlisted slots of a track's group, in rotation from where its
        # last turn stopped; a tile among them only when check (its field was
        # off since its last look: a select, the slowest poll), and then one;
        # the next turn starts at the first tile passed over, so every tile
        # gets its look.  A slot in doubt (its tile read elsewhere) goes first,
        # as that tile.  poll 0: only switches their fields on.  Returns how many.
        nr = self._nrest
        if not nr:
            return 0
        g = self._groups
        t = self._trk
        gs = self._gs
        at = _GS_CURSORS + group + (gs[_GS_COLOURS] if track else 0)
        c = gs[at]
        made = 0
        skipped = -1
        d = gs[_GS_DOUBT]
        if d != 255 and g[d] == group and t[d] & _NEAR == track:
            check = False
            made = 1
            self._on(track, d)
            if poll:
                self._poll(d)
                if not self.present[d] or not self._miss[d]:
                    gs[_GS_DOUBT] = 255  # gone, or still there (a true cross-read): no doubt
        for _ in range(nr if gs[_GS_OTHERS + track] else 0):
            if made >= k:
                break
            s = self._rest[c]
            c = (c + 1) % nr
            if g[s] != group or t[s] & _NEAR != track or s == d:
                continue
            if self.present[s]:
                if not check:
                    if skipped < 0:
                        skipped = (c - 1) % nr
                    continue
                check = False
            made += 1
            self._on(track, s)  # (planned by the last turn; a poll outside the plan waits its guard time)
            if poll:
                self._poll(s)
        if poll:
            gs[at] = c if skipped < 0 else skipped
        return made

    def _switch(self, track, group, k, check):
        # A track's fields for its next turn: its listed slots of the group
        # that turn polls (the empty ones, and when it checks a tile, the
        # most overdue), with the k next unlisted ones of the group (_turn's
        # plan); every other field it has on goes off first, so that no two
        # neighbours are on together, even for a moment
        due = self._overdue(group) if check and track else -1
        if track:
            self._gs[_GS_DUE] = due if due >= 0 else 255
        bank = self._bank
        g = self._groups
        t = self._trk
        present = self.present
        lit = self._lit
        gs = self._gs
        base = track * self.slots
        kept = 0
        for i in range(gs[_GS_LIT + track]):
            s = lit[base + i]
            if t[s] == _LISTED and g[s] == group and (s == due or not present[s]) and bank.on[s]:
                lit[base + kept] = s
                kept += 1
            else:
                bank.field(s, False)
        gs[_GS_LIT + track] = kept
        if track:  # the listed slots are the near track's
            for i in range(self._nprio):
                s = self._prio[i]
                if g[s] == group and (s == due or not present[s]):
                    self._on(track, s)
        self._turn(track, group, k, 0, check)

    def _overdue(self, group):
        # the listed slot of the group holding a tile whose check is most
        # overdue; -1: none
        g = self._groups
        skips = self._skips
        present = self.present
        oldest = -1
        for i in range(self._nprio):
            s = self._prio[i]
            if g[s] == group and present[s] and (oldest < 0 or skips[s] > skips[oldest]):
                oldest = s
        return oldest

    def _on(self, track, s):
        # a field on, kept in its track's list (_switch switches it off)
        bank = self._bank
        if not bank.on[s]:
            bank.field(s, True)
            at = _GS_LIT + track
            self._lit[track * self.slots + self._gs[at]] = s
            self._gs[at] += 1

    def watch(self):
        # under field groups a step's look is the turn's only one (see Field groups)
        if self._groups is None:
            return self._all_on.watch(self)
        return 0

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
        elif self._groups is not None and self._gs[_GS_DOUBT] == 255:
            # in doubt: looked at first in each turn of its group until it is
            # gone or answers again (a tile gone costs an empty look), not
            # once in the tile checks' cycle
            self._gs[_GS_DOUBT] = s

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
        n = len(uid)
        first = uid[1]
        b = self._uid
        lens = self._uidlen
        present = self.present
        for t in range(self.slots):
            # the first serial byte before the whole UID (a dozen tiles' whole
            # UIDs compared cost an RP2040 about 0.6 ms): NXP's serial numbers
            # change fastest there, while a roll's tags often share the last
            # bytes (28 80)
            if (present[t] and lens[t] == n and b[t * _UID_MAX + 1] == first
                    and t != s and self._same(t, uid)):
                # one tile heard by two readers: a fault, never a second tile
                # (the host's words for SLOT_CROSS say what to do)
                if self.trouble[s] != _CROSS:
                    self._error(s, _E_CROSS_READ, "hears the tile of slot %d too" % t)
                    if self._groups is not None:
                        self._gs[_GS_DOUBT] = t  # unless t's tile has moved here: looked at first
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
