# Register-level model of the MFRC522 for the simulated board.
#
#   m = MFRC522Model()
#   m.begin(slot); m.xfer(byte) -> byte ...; m.end(slot)   one SPI transaction (the bus
#                                        model calls these as chip select moves)
#   m.tags                               list of Ntag213 objects in the field
#   m.dead_miso                          -1, or what a reader that never
#                                        answers drives on MISO
#   m.remove_after                       -1, or frames until the tags leave
#   m.hot                                0; 1 overheated (ErrorReg TempErr, the
#                                        antenna drivers off, ErrIRq with every
#                                        frame); 2 cooled, the drivers still off
#                                        until TxControlReg switches them on
#   m.frames, m.tx_bits, m.rx_bits       frames and bits on the air, all chips
#                                        together (figures)
#
# Modelled (datasheet addresses): register file, 64-byte FIFO with level and
# flush, commands Idle / CalcCRC / Transmit / Transceive / SoftReset, the timer
# (TAuto: a frame nobody answers raises TimerIRq at once, and so does one
# whose timer runs out before an answer's 5th bit could stop it; an answer a tag
# gives late, a WRITE's ACK after programming, comes that many microseconds
# after the frame, unless the timer, TPrescaler and TReload as the data sheet
# counts them, runs out first), ComIrqReg / DivIrqReg with Set1/Set2 semantics, ErrorReg
# (CollErr, BufferOvfl), BitFramingReg (StartSend, RxAlign, TxLastBits),
# ControlReg RxLastBits, CollReg (first collision, ValuesAfterColl=0), the
# antenna switch, CRC_A with the ModeReg preset; ErrorReg ParityErr /
# ProtocolErr when an answering tag's `fault` says so (ntag.py).  Not modelled: hardware
# TxCRCEn/RxCRCEn, MIFARE crypto, other baud rates, analog settings.
# Sim-only code (unix port).
import time

from micropython import const
from bbfw.sim.ntag import crc_a, answer_buffer, FAULT_PARITY, FAULT_PROTOCOL

_CommandReg = const(0x01)
_ComIrqReg = const(0x04)
_DivIrqReg = const(0x05)
_ErrorReg = const(0x06)
_FIFODataReg = const(0x09)
_FIFOLevelReg = const(0x0A)
_ControlReg = const(0x0C)
_BitFramingReg = const(0x0D)
_CollReg = const(0x0E)
_ModeReg = const(0x11)
_TxControlReg = const(0x14)
_CRCResultRegH = const(0x21)
_CRCResultRegL = const(0x22)
_TModeReg = const(0x2A)
_TPrescalerReg = const(0x2B)
_TReloadRegH = const(0x2C)
_TReloadRegL = const(0x2D)
_VersionReg = const(0x37)

_IDLE = const(0x00)
_CALCCRC = const(0x03)
_TRANSMIT = const(0x04)
_TRANSCEIVE = const(0x0C)
_SOFTRESET = const(0x0F)

# reset values that matter (datasheet section 9.3)
_RESET = ((_CommandReg, 0x20), (_ComIrqReg, 0x14), (0x07, 0x21), (0x0B, 0x08),
          (_ControlReg, 0x10), (_CollReg, 0xA0), (_ModeReg, 0x3F),
          (_TxControlReg, 0x80), (0x16, 0x10), (0x17, 0x84), (0x18, 0x84),
          (0x19, 0x4D), (0x24, 0x26), (0x26, 0x48), (0x27, 0x88), (0x28, 0x20),
          (0x29, 0x20), (_VersionReg, 0x92))
_PRESETS = (0x0000, 0x6363, 0xA671, 0xFFFF)
_NO_TAGS = ()  # an empty field (the field object sets a list when tags come)
_FIFO = const(64)  # where the FIFO starts in regs
# When an answer stops the timer: a tag answers 1236/fc (91.2 us) after the
# frame at most (ISO/IEC 14443-3 6.2.1.1, n = 9), and TAuto stops the timer at
# the answer's 5th bit, a start bit and 4 data bits of 128/fc each (MFRC522
# data sheet 9.3.3.10, TModeReg TAuto): a shorter timer loses every answer
_FIRST_BITS_US = const(139)
_txf = None  # the frame being sent, copied out of the FIFO (shared: one send at a time)


class MFRC522Model:
    # air-time counters of all chips together (class attributes: one set)
    frames = 0
    tx_bits = 0  # bits sent into the field, for air-time figures
    rx_bits = 0  # bits answered by tags
    garble = 0  # coupling.GARBLED / CHECK_VALID: the answer of the tag _takes passed arrives damaged

    def __init__(self):
        # 36 of these share the firmware's heap in the simulated board: few
        # attributes (16 bytes each on the 64-bit unix port), one buffer
        global _txf
        if _txf is None:
            _txf = bytearray(64)
        self.regs = bytearray(128)  # registers 0..63, then the FIFO at _FIFO
        self.level = 0
        self.tags = _NO_TAGS
        self.dead_miso = -1  # -1: alive; else what a dead chip drives on MISO
        self.remove_after = -1
        self.hot = 0
        self._addr = -1
        self._sent_at = 0  # ticks_us of a frame whose answer comes late (0: none)
        self.reset()

    def reset(self):
        r = self.regs
        for i in range(64):
            r[i] = 0
        for reg, val in _RESET:
            r[reg] = val
        self.level = 0
        for t in self.tags:
            t.power_off()

    # --- SPI ----------------------------------------------------------------
    def begin(self, slot=0):
        self._addr = -1

    def end(self, slot=0):
        self._addr = -1

    def xfer(self, b):
        if self.dead_miso >= 0:
            return self.dead_miso
        a = self._addr
        if a < 0:  # address byte
            self._addr = b
            return 0
        if a & 0x80:  # read: answer for the previous address, b is the next
            self._addr = b
            return self._read((a >> 1) & 0x3F)
        self._write((a >> 1) & 0x3F, b)
        return 0

    def _read(self, reg):
        if reg == _ComIrqReg and self._sent_at:
            self._late_answer()
        if reg == _FIFODataReg:
            if self.level == 0:
                return 0
            f = self.regs
            v = f[_FIFO]
            self.level -= 1
            for i in range(_FIFO, _FIFO + self.level):
                f[i] = f[i + 1]
            return v
        if reg == _FIFOLevelReg:
            return self.level
        if reg == _ErrorReg and self.hot == 1:
            return self.regs[reg] | 0x40  # TempErr while it is hot
        return self.regs[reg]

    def _write(self, reg, v):
        r = self.regs
        if reg == _CommandReg:
            r[reg] = (r[reg] & 0xF0) | (v & 0x30)
            self._command(v & 0x0F)
        elif reg == _ComIrqReg or reg == _DivIrqReg:
            if v & 0x80:
                r[reg] |= v & 0x7F
            else:
                r[reg] &= ~v & 0x7F
        elif reg == _FIFOLevelReg:
            if v & 0x80:
                self.level = 0
                r[_ErrorReg] &= ~0x10
        elif reg == _FIFODataReg:
            if self.level < 64:
                r[_FIFO + self.level] = v
                self.level += 1
            else:
                r[_ErrorReg] |= 0x10  # BufferOvfl
        elif reg == _BitFramingReg:
            r[reg] = v & 0x7F
            if v & 0x80 and r[_CommandReg] & 0x0F == _TRANSCEIVE:
                self._send(True)
        elif reg == _TxControlReg:
            r[reg] = v
            if v & 0x03 == 0x03 and self.hot == 2:
                self.hot = 0  # cooled, and the driver switched the antenna on again
            self._field(v & 0x03 == 0x03)
        elif reg in (_ErrorReg, 0x07, 0x08, _VersionReg, _CRCResultRegH, _CRCResultRegL):
            pass  # read-only
        else:
            r[reg] = v

    def _field(self, on):
        # the carrier switched (FieldChip: per reader, and its guard time)
        if not on:
            for t in self.tags:
                t.power_off()  # field off: every tag loses its state

    def _takes(self, t):
        # whether tag t gets the frame about to be sent (FieldChip: guard
        # time after field-on, weak links); self.garble: how its answer arrives
        return True

    def _command(self, cmd):
        r = self.regs
        if cmd == _SOFTRESET:
            self.reset()
            r[_CommandReg] = 0x20  # reset done at once: PowerDown already clear
            return
        r[_CommandReg] = (r[_CommandReg] & 0xF0) | cmd
        if cmd == _CALCCRC:
            c = crc_a(r, self.level, _FIFO) if r[_ModeReg] & 3 == 1 else \
                self._crc(_PRESETS[r[_ModeReg] & 3])
            r[_CRCResultRegL] = c & 0xFF
            r[_CRCResultRegH] = c >> 8
            self.level = 0
            r[_DivIrqReg] |= 0x04  # CRCIRq
        elif cmd == _TRANSMIT:
            self._send(False)
            r[_CommandReg] &= 0xF0
            r[_ComIrqReg] |= 0x10  # IdleIRq: Transmit ends by itself

    def _crc(self, crc):
        for i in range(self.level):
            crc ^= self.regs[_FIFO + i]
            for _ in range(8):
                crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
        return crc

    # --- the RF side ----------------------------------------------------------
    def _send(self, receive):
        r = self.regs
        n = self.level
        last = r[_BitFramingReg] & 0x07
        nbits = (n - 1) * 8 + last if last and n else n * 8
        txf = _txf
        for i in range(n):
            txf[i] = r[_FIFO + i]
        self.level = 0
        r[_ErrorReg] = 0
        r[_ComIrqReg] |= 0x40  # TxIRq
        MFRC522Model.frames += 1
        MFRC522Model.tx_bits += nbits
        if self.remove_after == 0:
            self.tags = _NO_TAGS
            self.remove_after = -1
        elif self.remove_after > 0:
            self.remove_after -= 1
        answered = 0
        if self.hot == 1:
            r[_ErrorReg] |= 0x40  # TempErr
            r[_ComIrqReg] |= 0x02  # ErrIRq
        if r[_TxControlReg] & 0x03 == 0x03 and not self.hot:
            k = 0
            for t in self.tags:
                if not self._takes(t):
                    t.end = 0
                    continue
                t.out = answer_buffer(k)
                k += 1
                if t.receive(txf, nbits) > 0:
                    answered += 1
                    if self.garble:  # only with the coupling model: loaded then
                        from bbfw.sim.coupling import damage

                        damage(t.out, t.start, t.end, self.garble, crc_a)
        else:
            for t in self.tags:
                t.end = 0
        if not receive:
            return
        timed = r[_TModeReg] & 0x80 and (r[_TReloadRegH] or r[_TReloadRegL])
        if answered and timed and self._timer_us() < _FIRST_BITS_US:
            answered = 0  # the timer ran out before the answer's 5th bit could stop it
            for t in self.tags:
                t.end = 0
        if answered == 0:
            if timed:
                r[_ComIrqReg] |= 0x01  # TimerIRq: nobody answered in time
            return
        if self._delay_us():
            self._sent_at = time.ticks_us() | 1  # the answer is not there yet
            return
        self._receive(txf, nbits)

    def _delay_us(self):
        d = 0
        for t in self.tags:
            if t.end > 0 and t.delay_us > d:
                d = t.delay_us
        return d

    def _timer_us(self):
        # MFRC522 data sheet 8.5: f_timer = 13.56 MHz / (2 * TPrescaler + 1),
        # TAuto starts it at the end of the frame; it runs out after TReload + 1
        r = self.regs
        if not r[_TModeReg] & 0x80:
            return -1
        pre = ((r[_TModeReg] & 0x0F) << 8) | r[_TPrescalerReg]
        reload = (r[_TReloadRegH] << 8) | r[_TReloadRegL]
        return (reload + 1) * (2 * pre + 1) * 100 // 1356

    def _late_answer(self):
        waited = time.ticks_diff(time.ticks_us(), self._sent_at)
        timer = self._timer_us()
        r = self.regs
        if self.remove_after == 0:  # leaving after this frame: it goes while it programs
            for t in self.tags:
                t.power_off()  # out of the field: unpowered, it starts afresh when back
            self.tags = _NO_TAGS
            self.remove_after = -1
        if not self.tags:  # the tag left while it was programming: nothing comes
            if timer >= 0 and waited >= timer:
                self._sent_at = 0
                r[_ComIrqReg] |= 0x01
            return
        if timer >= 0 and waited >= timer and timer < self._delay_us():
            self._sent_at = 0
            r[_ComIrqReg] |= 0x01  # TimerIRq: the reader gave up before the answer
        elif waited >= self._delay_us():
            self._sent_at = 0
            self._receive(_txf, 0)

    def _receive(self, txf, nbits):
        # Merges the answers bit by bit into the FIFO at RxAlign; the first
        # bit where answers differ is a collision (CollErr, CollReg).
        r = self.regs
        align = (r[_BitFramingReg] >> 4) & 0x07
        start = 0
        end = 0
        for t in self.tags:
            if t.end > 0:
                start = t.start  # every answer to one frame starts at the same bit
                if t.end > end:
                    end = t.end
        count = end - start
        fifo = r
        nbytes = (align + count + 7) >> 3
        for i in range(nbytes):
            fifo[_FIFO + i] = 0
        coll = -1
        for i in range(count):
            src = start + i
            v = -1
            for t in self.tags:
                if t.end <= 0:
                    continue
                tv = (t.out[src >> 3] >> (src & 7)) & 1 if src < t.end else 2
                if v < 0:
                    v = tv
                elif tv != v:
                    v = 2
            if v == 2:
                coll = i
                break
            if v:
                d = align + i
                fifo[_FIFO + (d >> 3)] |= 1 << (d & 7)
        self.level = nbytes
        MFRC522Model.rx_bits += count
        r[_ControlReg] = (r[_ControlReg] & 0xF8) | ((align + count) & 7)
        for t in self.tags:  # injected faults (tests): a noisy field
            if t.end > 0 and (t.fault == FAULT_PARITY or t.fault == FAULT_PROTOCOL):
                r[_ErrorReg] |= 0x02 if t.fault == FAULT_PARITY else 0x01
                r[_ComIrqReg] |= 0x02  # ErrIRq
        if coll >= 0:
            pos = align + coll + 1
            r[_ErrorReg] |= 0x08  # CollErr
            r[_CollReg] = (pos & 0x1F) if pos <= 32 else 0x20
            r[_ComIrqReg] |= 0x02  # ErrIRq
        else:
            r[_CollReg] = 0x20  # CollPosNotValid: no collision
        r[_ComIrqReg] |= 0x20  # RxIRq
