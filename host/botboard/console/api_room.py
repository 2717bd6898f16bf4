"""The room's link (remote play): what the other tables need to join, shown on the shared
console (behind its token), never written to a log: the link carries the room's key."""

from __future__ import annotations

from typing import TYPE_CHECKING

import segno
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

if TYPE_CHECKING:
    from ..daemon import Daemon


def routes(daemon: "Daemon") -> list[Route]:
    async def room(request: Request) -> Response:
        if daemon.remote_role != "host":  # a joined table got its link from the host
            return JSONResponse({"hosting": False, "role": daemon.remote_role})
        link = daemon.remote_url.link()
        return JSONResponse({"hosting": True, "role": "host", "room": daemon.remote_url.room,
                             "broker": f"{daemon.remote_url.host}:{daemon.remote_url.port}", "link": link,
                             "qr": segno.make(link, error="m").svg_data_uri(scale=4, dark="#000", light="#fff")})

    return [Route("/api/room", room)]
