"""What the end-to-end protection costs a message: the host seals an entry for a table, the
table opens it and checks its signature (seal.py). A benchmark: it prints figures
(docs/benchmarks.md), nothing asserts them.

    .venv/bin/python -m tests.remote.seal_cost [MESSAGES]
"""

from __future__ import annotations

import json
import sys
import time

from botboard.remote.seal import Identity, Seal, room_key


def measure(messages: int, size: int) -> dict[str, float]:
    started = time.perf_counter()
    key = room_key("club", "a passphrase read out at the table")
    derive_ms = (time.perf_counter() - started) * 1000
    host, table = Seal(key, Identity.fresh(), "host"), Seal(key, Identity.fresh(), "a")
    host.pin("a", table.identity.public)
    table.pin("host", host.identity.public)
    host.learn("a", table.ephemeral)
    table.learn("host", host.ephemeral)
    topic, body = "botboard/v2/club/0123456789abcdef01234567/to/a", json.dumps({"cells": [[1, 2, 3, 0]] * (size // 12)}).encode()
    seal_s = open_s = 0.0
    for _ in range(messages):
        t0 = time.perf_counter()
        data = host.seal(topic, "to", "a", body)
        t1 = time.perf_counter()
        signature, opened = table.open(topic, "to", "host", data)
        table.verify("host", topic, signature, opened)
        t2 = time.perf_counter()
        seal_s, open_s = seal_s + t1 - t0, open_s + t2 - t1
    return {"body_bytes": len(body), "seal_us": round(seal_s / messages * 1e6, 1),
            "open_and_verify_us": round(open_s / messages * 1e6, 1), "room_key_scrypt_ms": round(derive_ms, 1)}


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for size in (300, 3000, 30000):
        print(json.dumps(measure(count, size)))
