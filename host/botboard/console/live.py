"""The console's websocket: everything the daemon publishes, plus a status heartbeat.

Events are JSON objects with a ``kind``: ``status`` (every second and on
connect), ``frames`` (decoded frames both ways, batched), ``cells`` (what the
board reports it shows), ``slot``, ``button``, ``led_test``, ``plug`` and
``game`` (from the session). The daemon's own per-message ``trace`` events
are dropped here: ``frames`` carries the same messages and the outgoing ones. A
seat's private game events never go here, and in a game with secret slots
tags are hidden (redact.py).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import redact
from .api_board import full_status
from .common import until_stopping

if TYPE_CHECKING:
    from ..daemon import Daemon

STATUS_EVERY_S = 1.0


def routes(daemon: "Daemon") -> list[WebSocketRoute]:
    async def live(ws: WebSocket) -> None:
        await ws.accept()
        await until_stopping(daemon.stopping, ws, serve(ws))

    async def serve(ws: WebSocket) -> None:
        queue = daemon.subscribe()
        try:
            await ws.send_json({"kind": "status", "status": full_status(daemon)})
            await ws.send_json({"kind": "cells", **daemon.tools.cells_json()})
            next_status = time.monotonic() + STATUS_EVERY_S
            while True:
                wait = max(0.0, next_status - time.monotonic())
                try:
                    event = redact.event(await asyncio.wait_for(queue.get(), wait),
                                         redact.slots_secret(daemon))
                    if event is not None:
                        await ws.send_json(event)
                except asyncio.TimeoutError:
                    pass
                if time.monotonic() >= next_status:  # on time even when events never pause
                    next_status = time.monotonic() + STATUS_EVERY_S
                    await ws.send_json({"kind": "status", "status": full_status(daemon)})
        except (WebSocketDisconnect, RuntimeError):
            pass
        except asyncio.CancelledError:  # the daemon is stopping (SIGTERM, Ctrl-C): a quiet end
            pass
        finally:
            daemon.unsubscribe(queue)

    return [WebSocketRoute("/ws", live)]
