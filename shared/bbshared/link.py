# Reliable, ordered delivery over a lossy byte stream (selective repeat).
#
# Each side numbers its reliable frames 0..255 and keeps up to WINDOW of
# them in flight. The receiver delivers in number order only, so order is
# kept and duplicates are dropped; a frame that comes ahead of a gap is held
# (at most WINDOW - 1 of them) until the gap is filled, and the gap is asked
# for at once (NAK n: send frame n again). It acknowledges cumulatively (ACK
# n: everything up to n arrived) once per chunk of input. On a NAK the sender
# sends that one frame again; when no ACK comes in time, all it has in flight.
# Holding what came after a loss is what keeps a badly damaged line moving:
# with Go-Back-N every loss cost the whole window again (at 5 % of bytes
# damaged, twelve times slower: `botboard bench damage`).
#
# Each session has an epoch (0..15, chosen by the host in HELLO_REQ) carried
# in the high nibble of every frame's flags: after reset(epoch) both sides
# count from 0 again, and reliable frames or ACKs left over from an earlier
# session are never taken for new ones. A message of a reliable type that
# comes without the reliable flag (so without a number to check) is dropped.
#
# Exactly once across sessions: what a side sent but saw no ACK for is sent
# again in the next session, renumbered. The ACK may only have been lost, so
# the peer opening the next session says what it had taken (delivery_mark:
# epoch and next number expected) and the sender forgets those (settle)
# before renumbering the rest. The same code runs on the board and on the
# host; the clock is injected (time.ticks_ms on the board).
from . import messages as m
from .frame import FLAG_RELIABLE, Deframer, build

WINDOW = 8
MIN_RTO_MS = 20
MAX_RTO_MS = 2000
MAX_QUEUE = 32

COUNTERS = ("frames_in", "frames_out", "bytes_in", "bytes_out", "crc_errors",
            "cobs_errors", "short_frames", "oversize", "version_errors",
            "unknown_types", "duplicates", "retransmits", "naks_sent",
            "naks_received", "queue_full", "stale_frames", "unsequenced", "rto_ms")


def _ticks_diff(a, b):
    # a - b for millisecond clocks that may wrap (MicroPython ticks_ms wraps)
    d = (a - b) & 0x3FFFFFFF
    return d - 0x40000000 if d & 0x20000000 else d


class Link:
    def __init__(self, write, now_ms, on_message, window=WINDOW, max_queue=MAX_QUEUE):
        # write(bytes) puts bytes on the wire; on_message(mtype, payload, version)
        # gets each delivered message (payload: bytes, in order, once).
        self._write = write
        self._now = now_ms
        self._on_message = on_message
        self.window = window
        self.max_queue = max_queue
        self._srtt = 50  # smoothed round trip in ms; a first guess until measured
        self.stats = dict.fromkeys(COUNTERS, 0)  # sized once: no table outgrown
        bad = {1: "cobs_errors", 2: "crc_errors", 3: "short_frames", 4: "oversize"}
        self._deframer = Deframer(self._frame, lambda why: self._count(bad[why]))
        self._queue = []  # [seq, mtype, payload, sent_at, resent] unacknowledged, oldest first
        self.epoch = 0
        self.last_version = m.PROTOCOL_VERSION  # of the last frame dropped for its version
        self._reset_state()

    def _reset_state(self):
        self._tx_seq = 0  # number of the next new reliable frame
        self._sent = 0  # how many of _queue are on the wire
        self._sent_at = 0  # when the oldest unacknowledged frame was (re)sent
        self._rx_expected = 0
        self._nak_for = -1
        self._out_of_order = 0
        self._held = {}  # seq -> (mtype, payload, version): arrived ahead of a gap
        self._ack_due = False
        self._backoff = 1
        self._took_any = False  # a reliable frame was delivered in this session
        self.stats["rto_ms"] = self._rto()

    def _rto(self):
        return min(MAX_RTO_MS, max(MIN_RTO_MS, 2 * self._srtt + 10) * self._backoff)

    def delivery_mark(self):
        # (epoch, next number expected) if this side took any reliable frame
        # in this session, else None: what the peer may forget (settle)
        return (self.epoch, self._rx_expected) if self._took_any else None

    def settle(self, epoch, next_seq):
        # The peer says it took our frames of session `epoch` up to next_seq - 1
        # (its ACK may have been lost): they are not sent again. Nothing to do
        # when we are in another session: the peer took none of its frames.
        if epoch == self.epoch:
            self._acked((next_seq - 1) & 0xFF)

    def reset(self, epoch, keep_pending=True, superseded=()):
        # Start session `epoch`; unacknowledged messages are renumbered and sent
        # again, or dropped (the host drops them: it resyncs the full state), and
        # so are those of the types in `superseded` (the board's census follows).
        old = [item for item in self._queue if item[1] not in superseded] if keep_pending else []
        self._queue = []
        self.epoch = epoch & 0x0F
        self._reset_state()
        for item in old:
            self._enqueue(item[1], item[2])
        self._pump()

    @property
    def pending(self):
        return len(self._queue)

    def _count(self, name, n=1):
        self.stats[name] += n

    # -- sending ----------------------------------------------------------
    def send(self, mtype, payload=b"", copies=1):
        # Queue or send one message; False if the queue is full (try later).
        # An unreliable one goes out at once, `copies` times (one frame built).
        if not m.CATALOGUE[mtype][1]:
            wire = build(m.PROTOCOL_VERSION, mtype, 0, 0, payload)
            for _ in range(copies):
                self._put(wire)
            return True
        if len(self._queue) >= self.max_queue:
            self._count("queue_full")
            return False
        self._enqueue(mtype, payload)
        self._pump()
        return True

    def _enqueue(self, mtype, payload):
        self._queue.append([self._tx_seq, mtype, payload, 0, False])
        self._tx_seq = (self._tx_seq + 1) & 0xFF

    def _put(self, wire):
        self._count("frames_out")
        self._count("bytes_out", len(wire))
        self._write(wire)

    def _pump(self):
        queue = self._queue
        while self._sent < len(queue) and self._sent < self.window:
            item = queue[self._sent]
            now = self._now()
            if self._sent == 0:
                self._sent_at = now
            if item[3]:
                item[4] = True  # resent: its ACK says nothing about the round trip
            item[3] = now
            self._sent += 1
            self._put(build(m.PROTOCOL_VERSION, item[1], item[0], FLAG_RELIABLE | (self.epoch << 4),
                            item[2]))

    def _resend_first(self):
        # the peer lacks only the oldest in flight (it holds what came after)
        if self._sent:
            item = self._queue[0]
            item[3] = self._now()
            item[4] = True
            self._sent_at = item[3]
            self._count("retransmits")
            self._put(build(m.PROTOCOL_VERSION, item[1], item[0], FLAG_RELIABLE | (self.epoch << 4),
                            item[2]))

    def _resend_all(self):
        self._count("retransmits", self._sent)
        self._sent = 0
        self._pump()

    def poll(self):
        # Call often: resends after a timeout.
        if self._sent and _ticks_diff(self._now(), self._sent_at) >= self.stats["rto_ms"]:
            self._backoff = min(4, self._backoff * 2)  # the link may be slower than measured
            self.stats["rto_ms"] = self._rto()
            self._resend_all()

    def _acked(self, seq):
        # everything up to seq (mod 256) has arrived at the other side
        queue = self._queue
        if not self._sent or ((seq - queue[0][0]) & 0xFF) >= self._sent:
            return False  # a stale or duplicate ACK: nothing new in flight
        done = ((seq - queue[0][0]) & 0xFF) + 1
        newest = queue[done - 1]
        now = self._now()
        if not newest[4]:
            self._srtt += (_ticks_diff(now, newest[3]) - self._srtt) // 8
        self._backoff = 1
        self.stats["rto_ms"] = self._rto()
        del queue[:done]
        self._sent -= done
        self._sent_at = now
        return True

    # -- receiving --------------------------------------------------------
    def feed(self, data):
        # Take bytes from the wire; delivers messages; sends one ACK per chunk.
        self._count("bytes_in", len(data))
        self._deframer.feed(data)
        if self._ack_due:
            self._ack_due = False
            self._control(m.ACK, self._rx_expected - 1)
        self._pump()

    def _frame(self, version, mtype, seq, flags, payload):
        self._count("frames_in")
        if version != m.PROTOCOL_VERSION and mtype not in (m.HELLO, m.HELLO_REQ):
            self._count("version_errors")
            self.last_version = version
            return
        if (mtype == m.ACK or mtype == m.NAK or flags & FLAG_RELIABLE) \
                and flags >> 4 != self.epoch:
            self._count("stale_frames")
            return
        if mtype == m.ACK or mtype == m.NAK:
            if len(payload) == 1:
                self._link_control(mtype, payload[0])
            return
        if flags & FLAG_RELIABLE:
            if not self._accept(seq, mtype, payload, version):
                return
            self._deliver(mtype, payload, version)
            self._deliver_held()
            return
        elif mtype in m.CATALOGUE and m.CATALOGUE[mtype][1]:
            self._count("unsequenced")  # no number: it could be a copy or out of order
            return
        self._deliver(mtype, payload, version)

    def _deliver(self, mtype, payload, version):
        if mtype not in m.CATALOGUE:
            self._count("unknown_types")  # still passed up: the application says so in words
        self._on_message(mtype, bytes(payload), version)

    def _deliver_held(self):
        # frames that came ahead of a gap the last one filled, in order
        held = self._held
        while self._rx_expected in held:
            mtype, payload, version = held.pop(self._rx_expected)
            self._rx_expected = (self._rx_expected + 1) & 0xFF
            self._deliver(mtype, payload, version)
        if held:  # another gap behind frames already here: ask for it at once
            self._nak(self._rx_expected)

    def _link_control(self, mtype, seq):
        if mtype == m.ACK:
            self._acked(seq)
        else:
            self._count("naks_received")
            self._acked((seq - 1) & 0xFF)
            self._resend_first()

    def _control(self, mtype, seq):
        self._put(build(m.PROTOCOL_VERSION, mtype, 0, self.epoch << 4, bytes((seq & 0xFF,))))

    def _accept(self, seq, mtype, payload, version):
        # True if this reliable frame is the next one to deliver; one ahead of a
        # gap is held (within the window) until the gap is filled.
        if seq == self._rx_expected:
            self._rx_expected = (seq + 1) & 0xFF
            self._ack_due = True
            self._took_any = True
            self._nak_for = -1
            self._out_of_order = 0
            return True
        if ((self._rx_expected - seq) & 0xFF) <= 128:
            self._count("duplicates")
            self._ack_due = True  # our ACK may have been lost
            return False
        ahead = (seq - self._rx_expected) & 0xFF
        if ahead < self.window and seq not in self._held:
            self._held[seq] = (mtype, bytes(payload), version)
        self._out_of_order += 1
        # NAK a gap once, and again if two more frames came since (the NAK
        # or the frame sent again was lost too)
        if self._nak_for != self._rx_expected or self._out_of_order >= 2:
            self._nak(self._rx_expected)
        return False

    def _nak(self, seq):
        self._nak_for = seq
        self._out_of_order = 0
        self._count("naks_sent")
        self._control(m.NAK, seq)
