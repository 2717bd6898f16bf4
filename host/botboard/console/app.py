"""The console's web app: static page, JSON API and a live websocket.

Every request and websocket must carry the daemon's token when it has one
(non-loopback listening); no endpoint runs code or touches files outside the
project's data directory.
"""

from __future__ import annotations

import asyncio
import hmac
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

if TYPE_CHECKING:
    from ..daemon import Daemon

STATIC = Path(__file__).parent / "static"
STATUS_EVERY_S = 1.0


class TokenGate:
    """Refuses HTTP requests (401) and websockets (close 1008) without the token."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.token and scope["type"] in ("http", "websocket") and not self._allowed(scope):
            if scope["type"] == "http":
                await JSONResponse({"error": "missing or wrong token: open the address the "
                                    "daemon printed at start (it carries ?token=...)"},
                                   status_code=401)(scope, receive, send)
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        await self.app(scope, receive, send)

    def _allowed(self, scope: Scope) -> bool:
        conn = HTTPConnection(scope)
        given = conn.query_params.get("token") or ""
        auth = conn.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            given = auth[7:]
        assert self.token is not None
        return hmac.compare_digest(given.encode(), self.token.encode())


def create_app(daemon: "Daemon") -> ASGIApp:
    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html")

    async def status(request: Request) -> Response:
        return JSONResponse(daemon.status())

    async def layout(request: Request) -> Response:
        return JSONResponse(daemon.layout.to_json())

    async def trace(request: Request) -> Response:
        messages = list(daemon.conn.trace) if daemon.conn else []
        return JSONResponse([msg.to_json() for msg in messages[-500:]])

    async def live(ws: WebSocket) -> None:
        await ws.accept()
        queue = daemon.subscribe()
        try:
            await ws.send_json({"kind": "status", "status": daemon.status()})
            while True:
                try:
                    event: dict[str, Any] = await asyncio.wait_for(queue.get(), STATUS_EVERY_S)
                except asyncio.TimeoutError:
                    event = {"kind": "status", "status": daemon.status()}
                await ws.send_json(event)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            daemon.unsubscribe(queue)

    app = Starlette(routes=[
        Route("/", index),
        Route("/api/status", status),
        Route("/api/layout", layout),
        Route("/api/trace", trace),
        WebSocketRoute("/ws", live),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ])
    return TokenGate(app, daemon.token)
