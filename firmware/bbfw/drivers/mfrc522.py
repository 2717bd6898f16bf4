# MFRC522 (NXP ISO/IEC 14443-A reader IC) over SPI: the chip.  What is said
# to the tags in its field (REQA, select, NTAG READ/WRITE...) is
# ntag_reader.NtagReader, a subclass: readers are made with that.
#
# API (hardware injected, nothing created at import time):
#   r = MFRC522(spi, cs)     spi: machine.SPI-like (write, write_readinto);
#                            cs: Pin-like chip select, active low (.value(v))
#   r.init() -> bool         soft reset, timer, gain and drive (MFRC522.rf),
#                            antenna on; False if no chip answers
#   r.version() -> int       VersionReg (0x91/0x92 genuine, 0x88 FM17522 clone;
#                            0x00 or 0xFF means nobody on the bus)
#   r.antenna(on)            RF field on/off (off also resets every tag)
#   r.overheated() -> bool   ErrorReg TempErr now: the chip switched its antenna
#                            drivers off (antenna(True) once it has cooled)
#   r._u, r._o               its state's buffer and offset: readers.SharedReaders
#                            points one object at each reader's in turn
#   MFRC522.errors           ErrorReg bits seen since the owner last cleared it
#                            (TempErr, CollErr; CRCErr for an answer whose
#                            CRC_A the protocol layer refused); 0 when all was clean
#   for the protocol layer: _transceive (one frame out, one answer back, with
#   the chip's no-answer timer in 25 us ticks), _transmit, _crc_error,
#   _coll_pos, _publish_uid and the reader's state _u[_o:]
#
# Results are small ints: OK, TIMEOUT (no tag answered before the chip's timer
# expired), COLLISION, CRC_ERROR, PROTOCOL_ERROR, NAK, CHIP_TIMEOUT (the chip
# itself never finished: reader missing, dead or MISO stuck), named by
# bbshared.messages.TAG_STATUS.
#
# Polling path (detect on an empty slot) allocates nothing: every SPI buffer and
# view is made once.  The SPI buffers and the results r.frame, r.answer, r.data,
# r.uid, r.rx_len, r.collided, r.sak, r.atqa are shared by all readers
# (attributes of this class, written here and by ntag_reader through the name
# MFRC522, never through the subclass, whose own attribute would hide them:
# readers are used one at a time), valid until the next operation on any
# reader; each reader keeps only its bus, chip select and a 16-byte state
# (its UID, the timer setting, its SELECT frames' CRC_A), so 36 readers cost
# about 36 small objects.  An empty slot costs 17 SPI bytes (14 us at
# 10 Mbit/s) plus the chip's 0.175 ms no-answer timer; see docs/benchmarks.md.
#
# CRC: the chip's TxCRCEn/RxCRCEn stay off so that the short frames (REQA,
# anticollision) and the CRC'd ones share one path; the protocol layer
# computes and checks CRC_A in software (ntag_reader.crc_a): a CalcCRC
# coprocessor run is seven SPI transactions, dearer in a Pico's interpreter
# than the whole CRC of an 18-byte answer.
from micropython import const
import time

OK = const(0)
TIMEOUT = const(1)
COLLISION = const(2)
CRC_ERROR = const(3)
PROTOCOL_ERROR = const(4)
NAK = const(5)
CHIP_TIMEOUT = const(6)

# Registers (MFRC522 datasheet, section 9)
_CommandReg = const(0x01)  # starts and stops command execution
_ComIrqReg = const(0x04)  # interrupt request bits
_ErrorReg = const(0x06)  # error bits of the last command
_FIFODataReg = const(0x09)  # input and output of the 64-byte FIFO
_FIFOLevelReg = const(0x0A)  # bytes stored in the FIFO; bit 7 flushes
_ControlReg = const(0x0C)  # RxLastBits in bits 2..0
_BitFramingReg = const(0x0D)  # StartSend, RxAlign, TxLastBits
_CollReg = const(0x0E)  # first bit collision detected
_TxModeReg = const(0x12)  # transmit framing and speed
_RxModeReg = const(0x13)  # receive framing and speed
_TxControlReg = const(0x14)  # antenna driver pins TX1/TX2
_TxASKReg = const(0x15)  # transmit modulation
_RFCfgReg = const(0x26)  # RxGain in bits 6..4 (18..48 dB, datasheet 9.3.3.6)
_CWGsPReg = const(0x28)  # p-driver conductance without modulation: the carrier's drive
_ModGsPReg = const(0x29)  # p-driver conductance during modulation
_TModeReg = const(0x2A)  # timer settings
_TPrescalerReg = const(0x2B)  # timer prescaler, low 8 bits
_TReloadRegH = const(0x2C)  # timer reload value, high byte
_TReloadRegL = const(0x2D)  # timer reload value, low byte
_VersionReg = const(0x37)  # chip version

# _start's first writes, (address << 1, value): CommandReg Idle, ComIrqReg
# every flag cleared, FIFOLevelReg flushed (a constant: no global, no object)
_SETUP = const(b"\x02\x00\x08\x7f\x14\x80")

# Commands (datasheet 10.3)
_CMD_IDLE = const(0x00)
_CMD_TRANSMIT = const(0x04)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFTRESET = const(0x0F)

# ComIrqReg bits
_IRQ_TX = const(0x40)
_IRQ_RX = const(0x20)
_IRQ_IDLE = const(0x10)
_IRQ_ERR = const(0x02)
_IRQ_TIMER = const(0x01)
_IRQ_ALL = const(0x7F)  # write with Set1=0: clears every flag
# ErrorReg bits (datasheet 9.3.1.7)
# (the reader bank reads them from MFRC522.errors: readers.py has the same values)
_ERR_TEMP = const(0x40)  # TempErr: overheating; the chip switches the antenna drivers off
_ERR_COLL = const(0x08)  # CollErr: a bit collision
_ERR_CRC = const(0x04)  # CRCErr (RxCRCEn is off here: set by the protocol layer's CRC check)
_ERR_FAULTS = const(0x13)  # BufferOvfl | ParityErr | ProtocolErr
# CollReg bits
_COLL_POS_NOT_VALID = const(0x20)

# Timer: TPrescaler 169 gives 13.56 MHz / 339 = 40 kHz, 25 us per tick; TAuto
# starts it at the end of each transmission and reception stops it.
_PRESCALER = const(169)
_TICKS_SHORT = const(20)  # 0.525 ms: READ, FAST_READ (FDT ~0.09 ms); the
# protocol layer names the other waits in ticks (ntag_reader.py)
_GUARD_US = const(3000)  # beyond the chip's own timer: the chip is not answering

STATE_BYTES = const(16)  # a reader's own state (see MFRC522.__init__)
_MAXTX = const(9)  # longest frame: SELECT + CRC
_MAXRX = const(24)  # longest answer: READ, 16 bytes + CRC


# SPI buffers and their fixed-length views, shared by every MFRC522 object
# (readers are used one at a time): 36 readers cost one set, not 36.  Made
# with the first reader, not at import.  Module globals rather than instance
# attributes: with 36 readers, each attribute costs a dict slot 36 times.
_b2 = None  # one register access: address, value
_stx = None  # ComIrqReg, ErrorReg, FIFOLevelReg, ControlReg read in one transaction
_st = None  # what they read, shifted by one (the address byte's answer first)
_tx = None  # FIFO write: address byte, then the frame
_txv = None  # views of _tx, one per length, each made when first needed
_rxa = None  # FIFO read: the read address repeated, then 0
_rxv = None  # views of the receive buffer, one per length, made when first needed
_rxav = None  # views of _rxa, likewise
_m = None  # memoryviews of _tx, the receive buffer and _rxa: the views are cut from them
_uidv = None  # views of the shared UID buffer: 4, 7 and 10 bytes


def _make_scratch():
    global _b2, _stx, _st, _tx, _txv, _rxa, _rxv, _rxav, _uidv, _m
    _b2 = bytearray(2)
    _stx = bytes((0x80 | (_ComIrqReg << 1), 0x80 | (_ErrorReg << 1),
                  0x80 | (_FIFOLevelReg << 1), 0x80 | (_ControlReg << 1), 0))
    _st = bytearray(5)
    _tx = bytearray(1 + _MAXTX)
    _tx[0] = (_FIFODataReg << 1) & 0x7E
    txm = memoryview(_tx)
    # a view a length, made the first time that length is sent or read: the
    # protocol uses a dozen of the 71 lengths (about 0.9 KB of views saved)
    _txv = [None] * (_MAXTX + 1)
    rx = bytearray(1 + _MAXRX)  # the answer, shifted by one (address byte)
    _rxa = bytearray(1 + _MAXRX)
    for i in range(_MAXRX):
        _rxa[i] = 0x80 | (_FIFODataReg << 1)
    rxm = memoryview(rx)
    _m = (txm, rxm, memoryview(_rxa))
    _rxv = [None] * (_MAXRX + 1)
    _rxav = [None] * (_MAXRX + 1)
    um = memoryview(bytearray(10))
    _uidv = (um[:4], um[:7], um[:10])
    c = MFRC522
    c.frame = txm[1:]
    c.answer = rxm[1:]
    c.data = rxm[1:17]
    c.uid = _uidv[0]


class MFRC522:
    # Results of the last operation on any reader (class attributes, shared:
    # read them before the next operation on another reader).
    frame = None  # where frames are built before sending
    answer = None  # bytes received by the last transceive
    data = None  # READ answer, 16 bytes
    uid = None  # UID selected or confirmed by the last detect/still_there
    rx_len = 0  # bytes received
    rx_bits = 0  # valid bits in the last received byte (8 = all)
    collided = False  # the last select had to tell several tags apart
    errors = 0  # ErrorReg bits seen since the owner cleared it (reader bank statistics)
    atqa = 0
    sak = 0
    # (RFCfgReg, CWGsPReg, ModGsPReg) init() writes, or None for the chip's
    # reset values: the range a slot needs (board.json "rf", from the layout's
    # pitch and the coupling model: host/botboard/board/fields.py)
    rf = None

    def __init__(self, spi, cs):
        if _b2 is None:
            _make_scratch()
        self._spi = spi
        self._cs = cs
        cs.value(1)
        # this reader's own state, _u[_o:_o + STATE_BYTES]: UID bytes 0..9,
        # UID level (0/1/2) at 10, the timer now in the chip at 11 (0
        # unknown, else its ticks' low byte), the CRC_A of its SELECT
        # frames at cascade levels 1 and 2 at 12..15 (kept for reselect).
        # readers.SharedReaders sets both to drive several readers in turn,
        # each state a part of one buffer (an offset, not a view per reader:
        # 36 views would cost about 0.7 KB of the heap)
        self._u = bytearray(STATE_BYTES)
        self._o = 0

    # --- register access -------------------------------------------------
    def _wreg(self, reg, val):
        b = _b2
        b[0] = reg << 1  # (registers are 6 bits: bit 7, read, stays 0)
        b[1] = val
        self._cs.value(0)
        self._spi.write(b)
        self._cs.value(1)

    def _rreg(self, reg):
        b = _b2
        b[0] = 0x80 | (reg << 1)
        b[1] = 0
        self._cs.value(0)
        self._spi.write_readinto(b, b)
        self._cs.value(1)
        return b[1]

    def _fifo_read(self, n):
        a = _rxa
        a[n] = 0
        self._cs.value(0)
        v = _rxv[n]
        if v is None:
            v = _rxv[n] = _m[1][: 1 + n]
            _rxav[n] = _m[2][: 1 + n]
        self._spi.write_readinto(_rxav[n], v)
        self._cs.value(1)
        a[n] = 0x80 | (_FIFODataReg << 1)

    def _timer(self, ticks):
        # the reload written, and kept in the reader's state: _transceive
        # writes it only when this reader's timer changes (the low byte
        # tells the driver's timers apart: 6, 20, 480 is 224)
        self._wreg(_TReloadRegH, ticks >> 8)
        self._wreg(_TReloadRegL, ticks & 0xFF)
        self._u[self._o + 11] = ticks & 0xFF

    # --- chip control ----------------------------------------------------
    def version(self):
        return self._rreg(_VersionReg)

    def init(self):
        v = self.version()
        if v == 0x00 or v == 0xFF:
            return False
        self._wreg(_CommandReg, _CMD_SOFTRESET)
        t0 = time.ticks_ms()
        while self._rreg(_CommandReg) & 0x10:  # PowerDown until the oscillator runs
            if time.ticks_diff(time.ticks_ms(), t0) > 50:
                return False
        self._wreg(_TModeReg, 0x80 | (_PRESCALER >> 8))  # TAuto
        self._wreg(_TPrescalerReg, _PRESCALER & 0xFF)
        self._u[self._o + 11] = 0  # the reset cleared the timer's reload
        self._wreg(_TxModeReg, 0x00)  # 106 kBd, no hardware CRC
        self._wreg(_RxModeReg, 0x00)
        self._wreg(_TxASKReg, 0x40)  # Force100ASK: ISO 14443-A modulation
        self._wreg(_CollReg, 0x00)  # ValuesAfterColl=0: bits after a collision read 0
        rf = MFRC522.rf
        if rf:
            self._wreg(_RFCfgReg, rf[0])
            self._wreg(_CWGsPReg, rf[1])
            self._wreg(_ModGsPReg, rf[2])
        self.antenna(True)
        return True

    def overheated(self):
        return self._rreg(_ErrorReg) & _ERR_TEMP != 0

    def antenna(self, on):
        # Tx1RFEn and Tx2RFEn over the reset value 0x80 (InvTx2RFOn), written
        # without reading first: the field groups switch fields every turn
        self._wreg(_TxControlReg, 0x83 if on else 0x80)

    def _crc_error(self):
        # an answer whose CRC_A is wrong: counted as the chip's CRCErr would be
        MFRC522.errors |= _ERR_CRC
        return CRC_ERROR

    # --- one frame out, one answer back -------------------------------------
    def _start(self, n, cmd, framing=0):
        # the command stopped, its IRQs cleared, the FIFO flushed and loaded
        # with frame[:n], then cmd, and for Transceive BitFramingReg (with
        # StartSend): six transactions in one call (each _wreg call costs a
        # Pico's interpreter more than its SPI bytes)
        b = _b2
        cs = self._cs
        spi = self._spi
        for i in range(0, 6, 2):
            b[0] = _SETUP[i]
            b[1] = _SETUP[i + 1]
            cs.value(0)
            spi.write(b)
            cs.value(1)
        v = _txv[n]
        if v is None:
            v = _txv[n] = _m[0][: 1 + n]
        cs.value(0)
        spi.write(v)
        cs.value(1)
        self._wreg(_CommandReg, cmd)
        if framing:
            self._wreg(_BitFramingReg, framing)

    def _transceive(self, n, last_bits=0, rx_align=0, ticks=_TICKS_SHORT):
        # Sends frame[:n] (last byte holds last_bits bits if non-zero) and
        # receives into answer[:rx_len]; returns a status.
        if ticks & 0xFF != self._u[self._o + 11]:  # tested here: no call when unchanged
            self._timer(ticks)
        self._start(n, _CMD_TRANSCEIVE, 0x80 | (rx_align << 4) | last_bits)
        MFRC522.rx_len = 0
        t0 = time.ticks_us()
        guard = ticks * 25 + _GUARD_US  # the chip's timer (25 us a tick) must run out first
        b = _st
        cs = self._cs
        while True:
            # the clock is read before the IRQs: a last look after the guard has
            # passed still sees a timer that ran out (the CPU may have been away).
            # The IRQs with ErrorReg, FIFOLevelReg and ControlReg, in one
            # transaction: when RxIRq is set the answer is complete, and they
            # describe it (three SPI bytes more a look, one transaction less
            # an answer)
            late = time.ticks_diff(time.ticks_us(), t0) > guard
            cs.value(0)
            self._spi.write_readinto(_stx, b)
            cs.value(1)
            irq = b[1]
            if irq == 0xFF:  # MISO floating high: no chip drives it
                return CHIP_TIMEOUT
            if irq & _IRQ_RX:
                break
            if irq & _IRQ_TIMER:
                if irq & _IRQ_ERR:
                    # ErrIRq: some ErrorReg bit is set (datasheet 9.3.1.5); TempErr
                    # shows here, the antenna off and nothing answering
                    MFRC522.errors |= b[2]
                return TIMEOUT
            if late:
                return CHIP_TIMEOUT
        err = b[2]
        if err:
            MFRC522.errors |= err
        level = b[3] & 0x7F
        bits = b[4] & 0x07
        if err & _ERR_FAULTS:
            return PROTOCOL_ERROR
        if level > _MAXRX:
            return PROTOCOL_ERROR
        if level:
            self._fifo_read(level)
        MFRC522.rx_len = level
        MFRC522.rx_bits = bits if bits else 8
        if err & _ERR_COLL:
            return COLLISION
        return OK

    def _transmit(self, n):
        # frame[:n] sent, no answer awaited (HLTA: the tag must not answer)
        self._start(n, _CMD_TRANSMIT)
        t0 = time.ticks_us()
        while not self._rreg(_ComIrqReg) & (_IRQ_IDLE | _IRQ_TX):
            if time.ticks_diff(time.ticks_us(), t0) > _GUARD_US:
                return CHIP_TIMEOUT
        return OK

    def _coll_pos(self):
        # the first colliding bit of the last answer, 1..32; 0: not known
        coll = self._rreg(_CollReg)
        if coll & _COLL_POS_NOT_VALID:
            return 0
        pos = coll & 0x1F
        return pos if pos else 32

    def _publish_uid(self):
        # this reader's UID into the shared view MFRC522.uid
        u = self._u
        o = self._o
        v = _uidv[u[o + 10]]
        for i in range(len(v)):
            v[i] = u[o + i]
        MFRC522.uid = v
