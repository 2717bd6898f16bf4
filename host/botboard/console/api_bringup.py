"""The bringup page and its API (``botboard bringup``: docs/first-hour.md).

GET  /bringup                 the page: the arena to click, the question, the faults, the diff
GET  /api/bringup             where the flow is: step, ask, prompt, findings, result
POST /api/bringup/start       {steps?: [leds, readers, buttons, supply]}    (default: all)
POST /api/bringup/answer      {cell: [q, r] | null}    the cell that lit; null: nothing lit,
                              not heard, no press (the slot or button is skipped)
POST /api/bringup/deploy      put the corrected layout on the (real) board
Only a daemon started by ``botboard bringup`` has a flow; the others answer 409.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from .common import ApiError, api, json_body

if TYPE_CHECKING:
    from ..daemon import Daemon


def routes(daemon: "Daemon", static: Path) -> list[Route]:
    def flow() -> Any:
        if daemon.bringup is None:
            raise ApiError("no bringup here: start the board's first hour with `botboard bringup`",
                           status=409)
        return daemon.bringup

    async def page(request: Request) -> Response:
        return FileResponse(static / "bringup.html", headers={"cache-control": "no-store"})

    @api
    async def state(request: Request) -> Response:
        return JSONResponse(flow().to_json())

    @api
    async def start(request: Request) -> Response:
        body = await json_body(request)
        steps = body.get("steps")
        if steps is not None and not (isinstance(steps, list) and all(isinstance(s, str) for s in steps)):
            raise ApiError("steps must be a list of step names, e.g. [\"supply\"]")
        return JSONResponse(flow().start(steps))

    @api
    async def answer(request: Request) -> Response:
        body = await json_body(request)
        if "cell" not in body:
            raise ApiError("give cell: [q, r] for the cell that lit, or null (nothing lit, not "
                           "heard, no press)")
        return JSONResponse(flow().answer(body["cell"]))

    @api
    async def deploy(request: Request) -> Response:
        return JSONResponse(flow().request_deploy())

    return [
        Route("/bringup", page),
        Route("/api/bringup", state),
        Route("/api/bringup/start", start, methods=["POST"]),
        Route("/api/bringup/answer", answer, methods=["POST"]),
        Route("/api/bringup/deploy", deploy, methods=["POST"]),
    ]
