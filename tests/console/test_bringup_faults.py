"""`--fault` on the simulated board, one fault at a time: bringup names exactly that fault, once.

The maker here does only what a person at the console can: reads the lit cell off the
console's arena (/api/cells: the simulated board's LEDs where they physically are), lays the
one tile with the console's slot buttons (/api/sim/place, and /api/sim/remove on the slot the
console marks as holding the laid tile) and presses the asked button. A board with no fault
gives no finding.
"""

from __future__ import annotations

import time
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

import pytest

from botboard.board import layouts

from ..patience import Deadline, wait_for
from .conftest import LiveDaemon

REF = layouts.load("ttb-small")
NOT_HEARD_AFTER_S = 3.0  # a maker who hears nothing for this long presses "not heard"

FAULTS = {
    "none": ((), []),
    "swap": (("swap:0,1",), ["swapped-readers"]),
    "reverse": (("reverse:1",), ["reversed-chain"]),
    "dead": (("dead:7",), ["dead-reader"]),
    "cross": (("cross:9,10",), ["cross-reading"]),
    "sag": (("sag",), ["undersized-supply"]),
}


def lit_on_console(live: LiveDaemon) -> list[int]:
    """The cells the console's arena shows lit, by their place in the layout."""
    return [i for i, (palette, _, _) in enumerate(live.get("/api/cells")["cells"]) if palette]


def answer_cell(live: LiveDaemon, before: int | None) -> int:
    """Click the one cell the console shows lit (a new one: the last may still show a moment)."""
    lit: list[int] = []

    def one_new() -> bool:
        lit[:] = lit_on_console(live)
        return len(lit) == 1 and lit[0] != before

    wait_for(one_new, 10, "one cell lit in the console")
    live.post("/api/bringup/answer", {"cell": list(REF.cells[lit[0]])})
    return lit[0]


def lay_tile(live: LiveDaemon, ask: dict[str, Any]) -> None:
    """Take the tile off the slot the console shows it laid on, lay it on the slot asked; press
    Not heard when the board does not move on."""
    for slot, reading in enumerate(live.get("/api/slots")):
        if reading.get("placed"):
            live.post("/api/sim/remove", {"slot": slot})
    live.post("/api/sim/place", {"slot": REF.stations[ask["station"]].slots[ask["position"]],
                                 "game": 1, "kind": 0, "colour": 2, "serial": 1})
    heard = Deadline(NOT_HEARD_AFTER_S)  # scaled: a slow board is not a dead reader
    while live.get("/api/bringup")["ask"].get("n") == ask["n"]:
        if heard.passed():
            live.post("/api/bringup/answer", {"cell": None})
            return
        time.sleep(0.1)


def bring_up(live: LiveDaemon) -> dict[str, Any]:
    # as a maker does: start once the console shows the link up (a loaded machine may have
    # had it reconnect since the daemon started; the console refuses to start without it)
    wait_for(lambda: live.status()["link"]["connected"], 30, "the link to the board")
    live.post("/api/bringup/start", {})
    deadline, acted, last_cell = Deadline(240), None, None
    while not deadline.passed():
        flow = live.get("/api/bringup")
        if flow["state"] in ("done", "failed"):
            return flow  # type: ignore[no-any-return]
        ask = flow["ask"]
        if ask.get("n") not in (None, acted):  # each question answered once
            acted = ask["n"]
            if ask["kind"] == "cell":
                last_cell = answer_cell(live, last_cell)
            elif ask["kind"] == "slot":
                lay_tile(live, ask)
            elif ask["kind"] == "button":
                live.post("/api/sim/button", {"button": REF.stations[ask["station"]].buttons[ask["role"]]})
        time.sleep(0.05)
    raise AssertionError(f"bringup did not end in {deadline}")


def _brought_up(where: Path, fault: str) -> dict[str, Any]:
    live = LiveDaemon(where / fault / "data", layout="ttb-small", faults=FAULTS[fault][0],
                      bringup=str(where / fault / "ttb-small.json"))
    live.start()
    try:
        return bring_up(live)
    finally:
        live.stop()


@pytest.fixture(scope="module")
def brought_up(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Future[dict[str, Any]]]:
    """Every fault's bring-up, three at a time: each is a maker's pace of asks and settles
    (mostly waiting), each on its own daemon and simulated board, so they share the wait."""
    where = tmp_path_factory.mktemp("bringup")
    with ThreadPoolExecutor(3) as pool:  # three at a time: a machine's two cores stay usable
        done = {fault: pool.submit(_brought_up, where, fault) for fault in FAULTS}
        wait(done.values())
    return done


@pytest.mark.parametrize("fault", list(FAULTS))
def test_each_fault_is_named_exactly_once(brought_up: dict[str, Future[dict[str, Any]]], fault: str) -> None:
    flow = brought_up[fault].result()
    assert flow["state"] == "done", flow["prompt"]
    assert [f["fault"] for f in flow["findings"]] == FAULTS[fault][1], flow["findings"]
