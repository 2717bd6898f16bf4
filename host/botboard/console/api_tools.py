"""Maker tool endpoints: LED test, reader test, brightness and power limit (tiles: api_tiles).

POST /api/tools/led-test        {step_ms?, phase?: all|leds|cells}   start
POST /api/tools/led-test/stop                                        stop (restores the cells)
GET  /api/tools/readers                                              live reads per slot
POST /api/tools/config          {brightness?, power_ma?}             SET_CONFIG
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from . import redact
from .common import ApiError, api, get_int, json_body

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
        return JSONResponse({"slots": redact.slots([s.to_json() for s in tools.slots], redact.slots_secret(daemon))})

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

    return [
        Route("/api/tools/led-test", led_test, methods=["POST"]),
        Route("/api/tools/led-test/stop", led_test_stop, methods=["POST"]),
        Route("/api/tools/readers", readers),
        Route("/api/tools/config", config, methods=["POST"]),
    ]
