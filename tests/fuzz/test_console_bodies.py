"""The console's JSON bodies, damaged: a real `botboard run` (the simulated board) takes every
POST route's good body (BODIES) with one value anywhere of another kind, or bytes that are not
JSON at all. Each answer is a 2xx or a 4xx whose error is one line; never a 5xx, and the table
still answers afterwards."""

from __future__ import annotations

import json
import os
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ..patience import scaled
from ..simboard import BOTBOARD
from .damage import FUZZ, damaged_bytes, damaged_doc, dumps

TILE = {"kind": "F1", "colour": "red"}
# every POST route with a body it takes (the seat's routes for seat 0; {key} is seat 0's key)
BODIES: dict[str, dict[str, Any]] = {
    "api/sim/place": {"slot": 0, "game": 1, "kind": 1, "colour": 2, "serial": 5, "blank": False, "tile": TILE},
    "api/sim/remove": {"slot": 0}, "api/sim/button": {"button": 0, "action": "click"},
    "api/sim/touch": {"cell": 3}, "api/sim/plug": {"plugged": True},
    "api/game/new": {"players": 2, "seed": 1, "options": {}, "computers": {"2": "greedy"}},
    "api/game/resume": {"game": 1}, "api/game/undo": {"confirm": True}, "api/game/decide": {"choice": "x"},
    "api/game/speed": {"speed": 0.2}, "api/game/skip": {}, "api/game/hints": {"hints": True},
    "api/game/palette": {"palette": "colourblind"},
    "api/seat/0/press?key={key}": {"role": "next"}, "api/seat/0/decide?key={key}": {"choice": "x"},
    "api/seat/0/control?key={key}": {"name": "explain", "value": True}, "api/seat/0/hint?key={key}": {},
    "api/seat/0/explain?key={key}": {"on": False},
    "api/tiles/write": {"slot": 0, "tile": TILE, "serial": 1}, "api/tiles/enroll": {"slot": 0, "tile": TILE},
    "api/tools/led-test": {"step_ms": 60, "phase": "all"}, "api/tools/led-test/stop": {},
    "api/tools/config": {"brightness": 40, "power_ma": 2000}, "api/replay/1/show": {"step": 0},
    "api/bringup/answer": {"cell": 3},
}


@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    home = tmp_path_factory.mktemp("console")
    env = {k: v for k, v in os.environ.items() if k != "BOTBOARD_CONFIG"}
    env.update(XDG_CONFIG_HOME=str(home), XDG_STATE_HOME=str(home / "state"))
    proc = subprocess.Popen([BOTBOARD, "run", "--data-dir", str(home), "--console-port", "0", "--speed", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    lines = [proc.stdout.readline() for _ in range(2)]
    url = lines[1].split(": ", 1)[1].strip()
    with urllib.request.urlopen(url + "api/seats", timeout=scaled(10)) as reply:
        key = json.load(reply)["seats"][0]["url"].split("key=")[1]
    yield url, key
    proc.terminate()
    _, err = proc.communicate(timeout=scaled(30))
    assert "Traceback" not in err and "a bug in botboard" not in err, err


def _post(url: str, path: str, data: bytes) -> tuple[int, bytes]:
    request = urllib.request.Request(url + path, data=data, method="POST",
                                     headers={"Content-Type": "application/json", "Origin": url.rstrip("/")})
    try:
        with urllib.request.urlopen(request, timeout=scaled(20)) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


@FUZZ
@given(data=st.data())
def test_a_damaged_body_is_a_4xx_with_one_line(data: st.DataObject, console: tuple[str, str]) -> None:
    url, key = console
    route = data.draw(st.sampled_from(sorted(BODIES)))
    good = BODIES[route]
    if data.draw(st.integers(0, 3)):
        body = dumps(data.draw(damaged_doc(good))).encode("utf-8", "surrogatepass")
    else:
        body = data.draw(damaged_bytes(json.dumps(good).encode()))
    status, answer = _post(url, route.format(key=key), body)
    assert status < 500, (route, body[:200], status, answer[:300])
    if status >= 400:
        error = json.loads(answer)["error"]
        assert isinstance(error, str) and error and "\n" not in error, (route, answer[:300])
    with urllib.request.urlopen(url + "api/status", timeout=scaled(10)) as reply:
        assert reply.status == 200


def test_the_good_bodies_are_taken(console: tuple[str, str]) -> None:
    """The damage above is damage to bodies the console takes: the routes answer them 2xx
    (a few are refused for the table's state, not their body: no game to resume, no bring-up)."""
    url, key = console
    taken = {route for route, body in BODIES.items()
             if _post(url, route.format(key=key), json.dumps(body).encode())[0] < 300}
    assert {"api/sim/button", "api/game/speed", "api/game/palette", "api/tools/led-test/stop",
            "api/seat/0/explain?key={key}", "api/game/new"} <= taken, taken
