# CRC-32 (IEEE 802.3, as zlib), check value 0xCBF43926 for b"123456789".
# binascii.crc32 is built into CPython and most MicroPython ports; where a
# port lacks it, a table-driven version (1 KB, made once) takes over.
try:
    from binascii import crc32 as _builtin
except ImportError:
    _builtin = None  # type: ignore[assignment]


def _make_table():
    from array import array

    table = array("I", bytes(1024))
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table[i] = c
    return table


def _crc32_table(data, table):
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


if _builtin is not None:
    def crc32(data):
        return _builtin(data) & 0xFFFFFFFF
else:
    _TABLE = _make_table()

    def crc32(data):
        return _crc32_table(data, _TABLE)
