"""Measure the console's clicks on the simulated board's buttons, game by game.

    .venv/bin/python -m tests.console.click_latency [--samples 20] [--game NAME]

For each table game in the registry (each on its own board), a daemon with the
simulated board; button 0 is clicked ``--samples`` times in two ways: the
simulated board's own 80 ms click (what the console sent before), and the
console's click (POST /api/sim/button, held until the board has reported the
press and the release). Printed: how many presses the board reported for each,
and how long the console's click took (host time, measured, HTTP round trip
included). Not a test: it prints figures (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from botboard import games

from ..patience import Deadline
from .conftest import LiveDaemon

GAP_S = 0.3  # between clicks: a person's fastest double click is slower than the board's debounce


def presses_heard(live: LiveDaemon, click: Any, samples: int) -> int:
    """How many of ``samples`` clicks the board reported as a press of button 0."""
    daemon = live.daemon
    queue = live.call(daemon.subscribe)
    try:
        for _ in range(samples):
            click()
            time.sleep(GAP_S)  # pace: a person's clicks
        events: list[dict[str, Any]] = []
        heard = lambda: sum(e["kind"] == "button" and e["button"] == 0  # noqa: E731
                            and e["action"] == "press" for e in events)
        late = Deadline(1.0)  # the last reports on their way; a click never heard ends the look
        while heard() < samples and not late.passed():
            events += live.call(lambda: [queue.get_nowait() for _ in range(queue.qsize())])
            time.sleep(0.02)
    finally:
        live.call(lambda: daemon.unsubscribe(queue))
    return heard()


def measure(game: str, samples: int) -> str:
    live = LiveDaemon(Path(tempfile.mkdtemp(prefix="botboard-click-")), game=game)
    live.start()
    try:  # a game going: the session lights and animates the board, as at a table
        live.post("/api/game/new", {"players": 2, "seed": 1,
                                    "options": dict(games.declaration(game).quick_options)})
        station = list(live.daemon.layout.stations[0].slots)  # scanned first, as while its seat programs
        live.call(lambda: live.daemon.session.board.set_priority(station))
        tools = live.daemon.tools
        board_click = lambda: live.call(lambda: asyncio.ensure_future(tools.press(0, "click")))  # noqa: E731
        old = presses_heard(live, board_click, samples)
        took: list[float] = []

        def console_click() -> None:
            started = time.perf_counter()
            live.post("/api/sim/button", {"button": 0, "action": "click"})
            took.append((time.perf_counter() - started) * 1000)

        new = presses_heard(live, console_click, samples)
    finally:
        live.stop()
    took.sort()
    return (f"{game} ({len(station)} priority slots): board's 80 ms click {old}/{samples} presses "
            f"reported; console click {new}/{samples}, took median {statistics.median(took):.0f} ms, "
            f"max {took[-1]:.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--game", action="append", help="only this game (again for more)")
    args = parser.parse_args()
    for game in args.game or games.table_names():
        print(measure(game, args.samples), flush=True)


if __name__ == "__main__":
    main()
