# Consistent Overhead Byte Stuffing: removes every 0x00 from a frame so 0x00
# can delimit frames on the wire. A receiver that joins mid-stream, or that
# sees noise, resynchronises at the next 0x00. Overhead: 1 byte per 254.


def encoded_size(n):
    return n + n // 254 + 1


def encode_into(src, n, dst, start=0):
    # Encode src[start:start + n] into dst (at least encoded_size(n) long);
    # return length.  dst may be src with start 1 when n < 254: each byte is
    # then written where it was read, or before.
    code_at = 0
    out = 1
    code = 1
    for i in range(n):
        b = src[start + i]
        if b:
            dst[out] = b
            out += 1
            code += 1
        if not b or code == 0xFF:
            dst[code_at] = code
            code_at = out
            out += 1
            code = 1
            if b and i == n - 1:
                # a full 254-byte block ending the data needs no extra code byte
                return code_at
    dst[code_at] = code
    return out


def decode_into(src, n, dst):
    # Decode src[0:n] (no delimiter) into dst; return length, or -1 if malformed.
    # dst may be src itself, or a view of it: no byte is written before it is read.
    i = 0
    out = 0
    limit = len(dst)
    while i < n:
        code = src[i]
        if code == 0:
            return -1
        i += 1
        end = i + code - 1
        if end > n or out + code - 1 > limit:
            return -1
        for j in range(i, end):
            b = src[j]
            if b == 0:
                return -1
            dst[out] = b
            out += 1
        i = end
        if code != 0xFF and i < n:
            if out >= limit:
                return -1
            dst[out] = 0
            out += 1
    return out


def encode(data):
    buf = bytearray(encoded_size(len(data)))
    return bytes(buf[:encode_into(data, len(data), buf)])


def decode(data):
    buf = bytearray(len(data))
    n = decode_into(data, len(data), buf)
    if n < 0:
        raise ValueError("malformed COBS data")
    return bytes(buf[:n])
