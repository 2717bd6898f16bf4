"""Remote room latency on loopback: a proposal at table a until table b applies its entry
(a -> broker -> host decides -> broker -> b), through a real mosquitto. A benchmark: it
prints figures (docs/benchmarks.md), nothing asserts them.

    .venv/bin/python -m tests.remote.latency [ROUNDS]
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

from botboard.remote.local_broker import Broker
from .helpers import three_tables


async def measure(broker: Broker, rounds: int) -> list[float]:
    async with three_tables(broker) as t:
        times = []
        for k in range(rounds):
            before = len(t.seen["b"].entries())
            start = time.perf_counter()
            answer = asyncio.ensure_future(t.a.propose(2, {"add": k}))
            while len(t.seen["b"].entries()) == before:
                await asyncio.sleep(0.0005)  # polling adds at most half a millisecond
            times.append((time.perf_counter() - start) * 1000)
            await answer
        return sorted(times)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    with tempfile.TemporaryDirectory() as directory:
        broker = Broker(Path(directory))
        broker.start()
        try:
            times = asyncio.run(measure(broker, rounds))
        finally:
            broker.stop()
    def quantile(q: float) -> float:
        return round(times[min(len(times) - 1, int(q * len(times)))], 2)

    print(json.dumps({"rounds": rounds, "propose_to_applied_ms": {
        "p50": quantile(0.5), "p99": quantile(0.99), "max": round(times[-1], 2)}}))


if __name__ == "__main__":
    main()
