"""Tile payload format: same bytes from CPython and MicroPython, errors named."""

from __future__ import annotations

import pytest

from bbshared import tilepayload as tp
from tests.mpy import run_mpy


def test_encode_decode_round_trip_and_known_bytes() -> None:
    p = tp.encode(1, 7, 2, 1001)
    assert len(p) == 16 and p[:6] == bytes([0xBB, 1, 1, 7, 2, 0])
    assert p[6:10] == (1001).to_bytes(4, "big")
    assert tp.decode(p) == (1, 7, 2, 1001)
    assert run_mpy("from bbshared import tilepayload as tp\nprint(tp.encode(1, 7, 2, 1001).hex())").strip() == p.hex()


def test_check_names_blank_corrupt_and_newer_payloads() -> None:
    p = bytearray(tp.encode(2, 1, 0, 5))
    assert tp.check(bytes(16)) == tp.BLANK
    p[4] ^= 1
    assert tp.check(p) == tp.BAD_CRC
    q = bytearray(tp.encode(2, 1, 0, 5))
    q[1] = 9
    c = tp.crc_a(q, 14)
    q[14], q[15] = c & 0xFF, c >> 8
    assert tp.check(q) == tp.BAD_VERSION
    with pytest.raises(ValueError, match="CRC mismatch"):
        tp.decode(p)
    with pytest.raises(ValueError, match="kind 300 out of range"):
        tp.encode(1, 300, 0, 1)
