"""Measure how soon the console hears what the board shows after the host changes a cell.

    .venv/bin/python -m tests.console.mirror_latency [--baud 115200] [--samples 30]

Host time, measured: from ``set_cells`` on the daemon's loop to the ``cells``
event the console receives, which is built from the board's own STATE reply
(SET_CELLS out, the mirror's GET_STATE, STATE back). Not a test: it prints figures.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bbshared import messages as m
from botboard.link.image import CellState

from ..patience import scaled
from .conftest import LiveDaemon


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baud", type=int, default=None, help="pace the simulated link like a UART")
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    live = LiveDaemon(Path(tempfile.mkdtemp(prefix="botboard-latency-")))
    live.daemon.config.sim_baud = args.baud
    live.start()
    daemon = live.daemon
    assert daemon.conn is not None and live.loop is not None
    conn = daemon.conn
    latencies = []
    try:
        for i in range(args.samples):
            cell = 40 + (i // 2) % 10
            want = CellState(2 + i % 5, m.NO_FACING, m.SOLID) if i % 2 == 0 else CellState()

            async def one() -> float:
                queue = daemon.subscribe()
                started = time.perf_counter()
                conn.set_cells({cell: want})
                try:
                    while True:
                        event = await queue.get()
                        if event["kind"] == "cells" and \
                                event["cells"][cell] == [want.palette, want.facing, want.effect]:
                            return (time.perf_counter() - started) * 1000
                finally:
                    daemon.unsubscribe(queue)

            latencies.append(asyncio.run_coroutine_threadsafe(one(), live.loop).result(scaled(10)))
            time.sleep(0.1)  # pace: one change at a time
    finally:
        live.stop()
    latencies.sort()
    print(f"link {'paced at %d baud' % args.baud if args.baud else 'unpaced (pty)'}, "
          f"{len(latencies)} samples: set_cells -> board STATE -> console event: median "
          f"{statistics.median(latencies):.1f} ms, p90 {latencies[int(0.9 * len(latencies))]:.1f} ms, "
          f"max {latencies[-1]:.1f} ms")


if __name__ == "__main__":
    main()
