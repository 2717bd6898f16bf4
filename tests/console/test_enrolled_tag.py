"""An enrolled tag (no tile payload, known by its uid) is shown as the tile it is, not as unknown."""

from __future__ import annotations

from ..simboard import wait_for
from .conftest import LiveDaemon


def test_an_enrolled_blank_tag_reads_as_its_tile(live: LiveDaemon) -> None:
    slot = 22
    live.post("/api/sim/place", {"slot": slot, "blank": True, "serial": 77})
    wait_for(lambda: live.get("/api/slots")[slot]["present"], what="blank tag read")
    assert live.get("/api/slots")[slot]["tile"] is None  # not enrolled yet: says why
    live.post("/api/tiles/enroll", {"slot": slot, "tile": {"kind": "U"}})
    live.post("/api/sim/remove", {"slot": slot})
    wait_for(lambda: not live.get("/api/slots")[slot]["present"], what="tag taken out")
    live.post("/api/sim/place", {"slot": slot, "blank": True, "serial": 77})  # the same tag, back
    wait_for(lambda: live.get("/api/slots")[slot]["present"], what="enrolled tag read")
    reading = live.get("/api/slots")[slot]
    assert reading["problem"] == "" and "not enrolled" not in str(reading)
    assert reading["tile"]["words"].endswith("(enrolled tag)") and "U-Turn" in reading["tile"]["words"]
    live.post("/api/sim/remove", {"slot": slot})
