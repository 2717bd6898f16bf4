"""Board endpoints: link status, layout, what the cells show, trace, simulated hands.

GET  /api/status            link, firmware, board tools summary, game summary
GET  /api/layout            the layout file as JSON (the arena is drawn from it)
GET  /api/cells             what the board last reported it shows, with the palette
GET  /api/trace?limit=N     the last decoded frames, oldest first
GET  /api/slots             per-slot readings (stations panel, reader test)
POST /api/sim/place         {slot, tile: {field: value...}, serial?}       a tile of the game in
                            (or raw payload bytes: {slot, game, kind, colour, serial, blank?})
POST /api/sim/remove        {slot}                                         and out
POST /api/sim/button        {button, action?: click|long|press|release}
POST /api/sim/touch         {cell}
POST /api/sim/plug          {plugged: true|false}                          the cable
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import games
from . import redact
from .api_tiles import tile_of
from .common import api, get_int, json_body
from .api_game import game_summary

if TYPE_CHECKING:
    from ..daemon import Daemon

TRACE_LIMIT = 2000


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
        return JSONResponse(await tools.press(get_int(body, "button"), str(body.get("action", "click"))))

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
