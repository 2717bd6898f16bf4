"""A stranger on the broker who floods a topic with junk, as fast as the broker takes it.

    python -m tests.remote.flooder PORT TOPIC SECONDS

Plain MQTT 3.1.1 over a socket (CONNECT, then QoS 0 PUBLISH packets written in batches):
nothing a client library would slow down, the way the issue's attacker sent 400,000 small
messages in 40 s. Prints how many it sent once the broker has read them all.
"""

from __future__ import annotations

import os
import socket
import sys
import time

BATCH = 500  # packets per write


def _length(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n % 128, n // 128
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _text(value: bytes) -> bytes:
    return len(value).to_bytes(2, "big") + value


def connect_packet(client_id: bytes) -> bytes:
    body = _text(b"MQTT") + bytes([4, 0x02]) + (60).to_bytes(2, "big") + _text(client_id)
    return b"\x10" + _length(len(body)) + body


def publish_packet(topic: bytes, payload: bytes) -> bytes:
    body = _text(topic) + payload
    return b"\x30" + _length(len(body)) + body


def flood(port: int, topic: str, seconds: float) -> int:
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(connect_packet(b"flood-" + os.urandom(4).hex().encode()))
        if sock.recv(4)[:1] != b"\x20":
            raise SystemExit("the broker did not accept the connection")
        batch = b"".join(publish_packet(topic.encode(), os.urandom(40)) for _ in range(BATCH))
        sent, end = 0, time.monotonic() + seconds
        while time.monotonic() < end:
            sock.sendall(batch)
            sent += BATCH
        sock.sendall(b"\xe0\x00")  # DISCONNECT
        # the flood ends when the broker has read it all, not when it left this process (the
        # kernel buffers megabytes of it): the broker closes the connection at the DISCONNECT
        while sock.recv(4096):
            pass
    return sent


if __name__ == "__main__":
    print(flood(int(sys.argv[1]), sys.argv[2], float(sys.argv[3])), flush=True)
