# A whole board in one MicroPython process, for tests and the benchmark: the
# real Board over the simulated HAL, with the serial line replaced by a host
# stand-in that frames messages, acknowledges the board's reliable frames and
# keeps what the board said.  Sim-only code (unix port).
#
#   box = Box(config_path, hardware_path=None, hal=None, board=True)
#                                      hal: another HAL with a .field (default
#                                      the simulated board's, hal_sim);
#                                      board=False: box.start_board() later
#   box.hello(epoch=1, seen=(0, 0))   HELLO_REQ, as a host opens a session
#   box.send(mtype, *fields)           one reliable message to the board
#   box.queue_hello(...), box.queue(mtype, *fields)   the same, without the step
#   box.steps(n, sleep_ms=0)           n rounds of link, input and render steps
#   box.said(mtype) -> [fields, ...]   decoded messages of that type, and
#   box.errors() -> [[code, ref, text]]   forget() clears them
#   box.field, box.hal, box.board      the tag field, HAL and Board
#   uid(i), PAYLOAD, animate(box, cells)   workload pieces for the benchmark
import time

from bbshared import messages as m
from bbshared import tilepayload as tp
from bbshared.frame import Deframer, build, FLAG_RELIABLE
from bbfw import app


class Box:
    def __init__(self, config_path, hardware_path=None, hal=None, board=True):
        # board=False: the host stand-in alone; start_board() makes the Board
        if hal is None:
            from bbfw import hal_sim

            hal = hal_sim.Hal(config_path, "0", hardware_path)
        hal.write = self._from_board  # before Board: its link writes through it
        hal.read_into = self._to_board
        self.hal = hal
        self.field = hal.field
        self.got = []  # (mtype, payload bytes) from the board
        self._inbox = bytearray()
        self._seq = 0
        self._df = Deframer(self._frame, self._bad)
        self.bad_frames = 0
        self.board = None
        if board:
            self.start_board()

    def start_board(self):
        self.board = app.Board(self.hal)
        return self.board

    # -- the line ---------------------------------------------------------
    def _from_board(self, data):
        self._df.feed(data)

    def _to_board(self, buf):
        if not self._inbox:
            return 0  # nothing allocated: the allocation benchmark runs through here
        n = min(len(buf), len(self._inbox))
        buf[:n] = memoryview(self._inbox)[:n]
        self._inbox[:n] = b""  # in place: slices would be new buffers, which fragment a small heap
        return n

    def _bad(self, reason):
        self.bad_frames += 1

    def _frame(self, version, mtype, seq, flags, payload):
        if mtype == m.ACK or mtype == m.NAK:
            return
        self.got.append((mtype, bytes(payload)))
        if flags & FLAG_RELIABLE:
            self._inbox += build(m.PROTOCOL_VERSION, m.ACK, 0, self.board.link.epoch << 4,
                                 bytes((seq,)))

    # -- host side ----------------------------------------------------------
    def hello(self, epoch=1, seen=(0, 0)):
        self.queue_hello(epoch, seen)
        self.steps(1)

    def send(self, mtype, *fields):
        self.queue(mtype, *fields)
        self.steps(1)

    def queue_hello(self, epoch=1, seen=(0, 0)):
        # HELLO_REQ on the line, for the board's next step to read
        self._seq = 0
        self._inbox += build(m.PROTOCOL_VERSION, m.HELLO_REQ, 0, epoch << 4,
                             m.encode(m.HELLO_REQ, m.PROTOCOL_VERSION, epoch, seen[0], seen[1], "box"))

    def queue(self, mtype, *fields):
        # one reliable message on the line, for the board's next step to read
        flags = FLAG_RELIABLE | (self.board.link.epoch << 4)
        self._inbox += build(m.PROTOCOL_VERSION, mtype, self._seq, flags, m.encode(mtype, *fields))
        self._seq = (self._seq + 1) & 0xFF

    def steps(self, n, sleep_ms=0):
        b = self.board
        for _ in range(n):
            now = time.ticks_ms()
            b.link_step(now)
            b.input_step(now)
            b.render_step(now)
            b.link_step(now)  # the ACKs of what the board just said
            if sleep_ms:
                time.sleep_ms(sleep_ms)

    # -- what the board said ------------------------------------------------
    def said(self, mtype):
        return [list(m.decode(t, p)) for t, p in self.got if t == mtype]

    def errors(self):
        return self.said(m.ERROR)

    def forget(self):
        self.got = []


UID = b"\x04\x10\x20\x30\x40\x50"
PAYLOAD = tp.encode(1, 3, 2, 77)


def uid(i):
    return UID + bytes((i,))


def animate(box, cells):
    # every cell animated: the renderer's heaviest steady state; messages of
    # 50 cells, as the host sends them
    for payload in animation(cells):
        box.send(m.SET_CELLS, payload)


_EFFECTS = (m.PULSE, m.SPIN, m.BLINK)  # made once: a tuple written in the loop is made per cell


def animation(cells):
    # the SET_CELLS payloads of animate()
    payload = bytearray(4 * cells)
    for i in range(cells):
        payload[4 * i] = i >> 8
        payload[4 * i + 1] = i & 0xFF
        payload[4 * i + 2] = 1 + i % 14
        payload[4 * i + 3] = m.look(i % 6, _EFFECTS[i % 3])
    return [bytes(payload[start:start + 200]) for start in range(0, 4 * cells, 200)]
