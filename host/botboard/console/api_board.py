"""Board endpoints: link status, layout, what the cells show, trace, simulated hands.

GET  /api/status            link, firmware, board tools summary, game summary
GET  /api/layout            the layout file as JSON (the arena is drawn from it)
GET  /api/cells             what the board last reported it shows, with the palette
GET  /api/trace?limit=N     the last decoded frames, oldest first
GET  /api/slots             per-slot readings (stations panel, reader test)
POST /api/sim/place         {slot, tile: {field: value...}, serial?}       a tile of the game in
                            (or raw payload bytes: {slot, game, kind, colour, serial, blank?})
POST /api/sim/remove        {slot}                                         and out
POST /api/sim/button        {button, action?: click|long|press|release}    a click is held as a
                            finger holds a key: until the board has reported it (see click)
POST /api/sim/touch         {cell}
POST /api/sim/plug          {plugged: true|false}                          the cable
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import games
from ..board.tools import BoardTools
from . import redact
from .api_tiles import tile_of
from .common import api, get_int, json_body
from .api_game import game_summary

if TYPE_CHECKING:
    from ..daemon import Daemon

TRACE_LIMIT = 2000
# A click from the console is held as a finger holds a key: at least CLICK_MIN_S and on until
# the board has reported the press (never up to its 800 ms long press), then let go until the
# board has reported the release, so that a second click is a second press. The simulated
# board's own click lasts 80 ms: a busy board (fifty slots' readers on a loaded machine)
# scans its buttons too seldom in that time, and the press was lost.
CLICK_MIN_S, CLICK_MAX_S = 0.08, 0.6


async def click(tools: BoardTools, button: int) -> dict[str, Any]:
    """Press ``button`` and release it, each held until the board reports it (or CLICK_MAX_S)."""
    for action in ("press", "release"):
        await tools.press(button, action)
        await _reported(tools, button, action)
    return {"button": button, "action": "click"}


async def _reported(tools: BoardTools, button: int, action: str) -> None:
    loop = asyncio.get_running_loop()
    until = loop.time() + CLICK_MAX_S
    await asyncio.sleep(CLICK_MIN_S)
    while tools.buttons.get(button) != action and loop.time() < until:
        await asyncio.sleep(0.01)


def full_status(daemon: "Daemon") -> dict[str, Any]:
    """The daemon's status plus what the console adds: tools and the game summary."""
    status = daemon.status()
    status["tools"] = daemon.tools.to_json()
    status["game"] = {**status.get("game", {}), **game_summary(daemon)}
    return redact.status(status, redact.slots_secret(daemon))


def routes(daemon: "Daemon") -> list[Route]:
    tools = daemon.tools

    async def status(request: Request) -> Response:
        return JSONResponse(full_status(daemon))

    async def layout(request: Request) -> Response:
        return JSONResponse(daemon.layout.to_json())

    async def cells(request: Request) -> Response:
        return JSONResponse(tools.cells_json())

    @api
    async def trace(request: Request) -> Response:
        limit = get_int(dict(request.query_params), "limit", 500, 1, TRACE_LIMIT)
        messages = list(daemon.conn.trace)[-limit:] if daemon.conn else []
        secret = redact.slots_secret(daemon)
        frames = [tools.frame_json(msg) for msg in messages]
        return JSONResponse([redact.tag(f) for f in frames] if secret else frames)

    async def slots(request: Request) -> Response:
        return JSONResponse(redact.slots([s.to_json() for s in tools.slots], redact.slots_secret(daemon)))

    @api
    async def place(request: Request) -> Response:
        body = await json_body(request)
        if "tile" in body:  # a tile of the game by its picker fields: the catalogue makes its tag
            catalogue = games.catalogue(daemon.game_name)
            tile, serial = tile_of(catalogue, body), get_int(body, "serial", 1, 0, 0xFFFF)
            uid, payload = catalogue.virtual_tag(tile, serial)
            return JSONResponse(await tools.place_tag(get_int(body, "slot"), uid, payload))
        return JSONResponse(await tools.place_tile(  # raw payload bytes (any game, or a blank tag)
            get_int(body, "slot"), game=get_int(body, "game", 1, 0, 255),
            kind=get_int(body, "kind", 0, 0, 255), colour=get_int(body, "colour", 2, 0, 255),
            serial=get_int(body, "serial", 1, 0, 0xFFFFFF), blank=bool(body.get("blank", False))))

    @api
    async def remove(request: Request) -> Response:
        return JSONResponse(await tools.remove_tile(get_int(await json_body(request), "slot")))

    @api
    async def button(request: Request) -> Response:
        body = await json_body(request)
        index, action = get_int(body, "button"), str(body.get("action", "click"))
        return JSONResponse(await (click(tools, index) if action == "click" else tools.press(index, action)))

    @api
    async def touch(request: Request) -> Response:
        return JSONResponse(await tools.touch(get_int(await json_body(request), "cell")))

    @api
    async def plug(request: Request) -> Response:
        body = await json_body(request)
        return JSONResponse(tools.plug(bool(body.get("plugged", True))))

    return [
        Route("/api/status", status),
        Route("/api/layout", layout),
        Route("/api/cells", cells),
        Route("/api/trace", trace),
        Route("/api/slots", slots),
        Route("/api/sim/place", place, methods=["POST"]),
        Route("/api/sim/remove", remove, methods=["POST"]),
        Route("/api/sim/button", button, methods=["POST"]),
        Route("/api/sim/touch", touch, methods=["POST"]),
        Route("/api/sim/plug", plug, methods=["POST"]),
    ]
