"""Maker tool endpoints: LED test, reader test, brightness and power limit, tiles.

POST /api/tools/led-test        {step_ms?, phase?: all|leds|cells}   start
POST /api/tools/led-test/stop                                        stop (restores the cells)
GET  /api/tools/readers                                              live reads per slot
POST /api/tools/config          {brightness?, power_ma?}             SET_CONFIG
GET  /api/tools/tiles                                                what tile tools exist
POST /api/tools/tiles/write     {slot, kind, colour, serial?}        write / enroll a tag

Tile writing and enrollment belong to the game session (``botboard tiles``);
these endpoints call its ``write_tile``/``enroll_tile`` when the session
offers them, and say so when it does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .common import ApiError, api, get_int, json_body, maybe_await

if TYPE_CHECKING:
    from ..daemon import Daemon


def routes(daemon: "Daemon") -> list[Route]:
    tools = daemon.tools

    @api
    async def led_test(request: Request) -> Response:
        body = await json_body(request)
        return JSONResponse(tools.start_led_test(get_int(body, "step_ms", 60, 5, 5000),
                                                 str(body.get("phase", "all"))))

    async def led_test_stop(request: Request) -> Response:
        return JSONResponse(tools.stop_led_test())

    async def readers(request: Request) -> Response:
        return JSONResponse({"slots": [s.to_json() for s in tools.slots]})

    @api
    async def config(request: Request) -> Response:
        body = await json_body(request)
        known = [k for k in ("brightness", "power_ma") if k in body]
        if not known:
            raise ApiError("give brightness (0..255) and/or power_ma (0..65535)")
        settings: dict[str, int] = {}
        for key in known:
            settings = tools.set_config(key, get_int(body, key, None, 0, 65535))
        return JSONResponse({"settings": settings})

    def tile_hooks() -> dict[str, bool]:
        session = daemon.session
        return {name: callable(getattr(session, name, None)) for name in ("write_tile", "enroll_tile")}

    async def tiles(request: Request) -> Response:
        return JSONResponse({"session": daemon.session is not None, **tile_hooks()})

    @api
    async def tiles_write(request: Request) -> Response:
        body = await json_body(request)
        slot = get_int(body, "slot", None, 0, len(tools.slots) - 1)
        mode = "enroll_tile" if body.get("enroll") else "write_tile"
        hook = getattr(daemon.session, mode, None)
        if not callable(hook):
            raise ApiError(f"tile {mode.split('_')[0]}ing needs a game session that offers it "
                           "(none is running, or it has no tile tools yet): use `botboard tiles`",
                           status=409)
        result = await maybe_await(hook(slot=slot, kind=get_int(body, "kind", None, 0, 255),
                                        colour=get_int(body, "colour", None, 0, 255),
                                        serial=body.get("serial")))
        return JSONResponse({"ok": True, "result": result})

    return [
        Route("/api/tools/led-test", led_test, methods=["POST"]),
        Route("/api/tools/led-test/stop", led_test_stop, methods=["POST"]),
        Route("/api/tools/readers", readers),
        Route("/api/tools/config", config, methods=["POST"]),
        Route("/api/tools/tiles", tiles),
        Route("/api/tools/tiles/write", tiles_write, methods=["POST"]),
    ]
