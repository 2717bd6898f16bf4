"""Small helpers shared by the console's API modules: JSON bodies and errors."""

from __future__ import annotations

import asyncio
import inspect
import json
from typing import Any, Awaitable, Callable, Coroutine

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..board.tools import ToolError

Handler = Callable[[Request], Awaitable[Response]]


class ApiError(ValueError):
    """A request the console cannot do; ``status`` is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


async def json_body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except ClientDisconnect:  # the gate cut a body past its size limit
        raise ApiError("the request body is too large", status=413) from None
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ApiError(f"the request body is not JSON: {err}") from err
    except RecursionError:
        raise ApiError("the request body is nested too deeply") from None
    if not isinstance(body, dict):
        raise ApiError("the request body must be a JSON object")
    return body


def get_int(body: dict[str, Any], key: str, default: int | None = None,
            lo: int = 0, hi: int = 1 << 31) -> int:
    value = body.get(key, default)
    if value is None:
        raise ApiError(f"missing field {key!r} (a whole number)")
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value), 0)
        except ValueError:
            raise ApiError(f"field {key!r} must be a whole number, not {value!r}") from None
    if not lo <= value <= hi:
        raise ApiError(f"field {key!r} must be {lo}..{hi}, not {value}")
    return int(value)


async def maybe_await(value: Any) -> Any:
    """The session's methods may be plain or async: accept both."""
    return await value if inspect.isawaitable(value) else value


def api(handler: Handler) -> Handler:
    """Turn ApiError/ToolError (and game errors, which are ValueErrors) into JSON errors."""

    async def wrapped(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as err:
            return JSONResponse({"error": str(err)}, status_code=err.status)
        except (ToolError, ValueError) as err:
            return JSONResponse({"error": str(err)}, status_code=400)

    wrapped.__name__ = handler.__name__
    return wrapped


async def until_stopping(stopping: asyncio.Event, ws: WebSocket, serve: Coroutine[Any, Any, None]) -> None:
    """Serve a websocket until ``serve`` ends or the daemon is stopping; then close it as "going
    away" at once. The server's own shutdown would wait for each open page, then cancel it with
    an error in the log: a stop with a console and phones open must be quick and quiet."""
    task = asyncio.ensure_future(serve)
    stop = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stop.cancel()
        while not task.done():  # asyncio.wait_for may swallow a cancel that meets its result: again
            task.cancel()
            await asyncio.wait({task}, timeout=0.05)
    if not task.cancelled():
        task.result()  # its error, if any, as the handler's own
    if stopping.is_set():
        try:
            await ws.close(1001)
        except (RuntimeError, WebSocketDisconnect):  # closed already, by the page or the server
            pass
