"""The console's web app: static page, JSON API and a live websocket.

Routes come from one module per area (api_board, api_bringup, api_game, api_replay,
api_tools, live); ``security.TokenGate`` wraps the whole app. No endpoint runs code or reads or
writes files: the only files served are the committed static assets.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from . import api_board, api_bringup, api_game, api_replay, api_room, api_seat, api_tiles, api_tools, live
from .seats import SeatKeys, plays_here
from .security import TokenGate

if TYPE_CHECKING:
    from ..daemon import Daemon

STATIC = Path(__file__).parent / "static"


def create_app(daemon: "Daemon") -> ASGIApp:
    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-store"})

    routes: list[BaseRoute] = [Route("/", index)]
    routes += api_board.routes(daemon) + api_game.routes(daemon) + api_tools.routes(daemon)
    routes += api_tiles.routes(daemon) + api_bringup.routes(daemon, STATIC) + api_room.routes(daemon)
    routes += api_replay.routes(lambda: getattr(daemon.session, "journal", None), STATIC)
    seat_keys = SeatKeys(daemon.token)  # one per seat, for the players' phones
    routes += live.routes(daemon) + api_seat.routes(daemon, STATIC, seat_keys)
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    return TokenGate(Starlette(routes=routes), daemon.token, seat_keys, daemon.config.listen,
                     seat_here=lambda seat: plays_here(daemon.session, seat))
