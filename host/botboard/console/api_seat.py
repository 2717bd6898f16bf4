"""A seat's private view: one player's phone, reached with that seat's key.

GET  /seat/N                 the seat page (phone-sized)
GET  /api/seat/N             {"seat", "view": session.seat_view(N)}  that player alone
POST /api/seat/N/press       {role: previous|next|confirm}  the station's buttons, from the phone
POST /api/seat/N/decide      {choice}                       this seat's pending decision
POST /api/seat/N/control     {name, value}                  a setting for the next program
POST /api/seat/N/hint        {}                             a hint for this seat's move, told to
                             this seat alone (session/hints.py); 400 with words when not now
POST /api/seat/N/explain     {on: bool}                     first-time explanations on this phone
WS   /ws/seat/N              the seat view again whenever the game or the seat's slots
                             change, and this seat's private messages; nothing else

GET  /api/seats              (shared console only) each seat's link and QR code, for the
                             seats played at this table only

The gate (security.py) lets a seat key through to its own seat's routes and
nowhere else, and no one to a seat played at another table (remote play); these
handlers never read another seat.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..daemon import is_loopback, reachable_host
from .api_game import NO_SESSION
from .common import ApiError, api, json_body, until_stopping
from .seats import SeatKeys, plays_here, seat_links

if TYPE_CHECKING:
    from ..daemon import Daemon

PING_EVERY_S = 15.0  # phones drop idle sockets; a small frame keeps the link and shows it alive


def concerns(event: dict[str, Any], seat: int, own_slots: list[int]) -> bool:
    """Does this published event change the seat's view? (It is never forwarded as is.)"""
    if event.get("kind") == "slot":
        return event.get("slot") in own_slots
    return event.get("kind") == "game" and (not event.get("private") or event.get("seat") == seat)


def _drained(queue: "asyncio.Queue[dict[str, Any]]") -> list[dict[str, Any]]:
    """The events already waiting in ``queue``, taken without waiting for more."""
    events = []
    while not queue.empty():
        events.append(queue.get_nowait())
    return events


def routes(daemon: "Daemon", static: Any, seat_keys: SeatKeys) -> list[BaseRoute]:
    def session() -> Any:
        if daemon.session is None:
            raise ApiError(NO_SESSION, status=409)
        return daemon.session

    def seat_view(seat: int) -> dict[str, Any]:
        current = daemon.session
        if current is None or current.state is None:
            return {"seat": seat, "game": daemon.game_name, "view": None}
        try:  # "at": when it was made; a page keeps the newest (a slow reply must not undo a push)
            return {"seat": seat, "game": daemon.game_name, "view": current.seat_view(seat),
                    "at": time.monotonic_ns(), **_learning(current, seat)}
        except ValueError as err:  # no such seat in this game (yet)
            return {"seat": seat, "game": daemon.game_name, "view": None, "error": str(err)}

    def own_slots(seat: int) -> list[int]:
        seating = getattr(daemon.session, "seating", None)
        return list(seating.slots_of(seat)) if seating is not None and seat < seating.players else []

    async def page(request: Request) -> Response:
        return FileResponse(static / "seat.html", headers={"cache-control": "no-store"})

    @api
    async def view(request: Request) -> Response:
        return JSONResponse(seat_view(int(request.path_params["seat"])))

    @api
    async def press(request: Request) -> Response:
        seat = int(request.path_params["seat"])
        role = (await json_body(request)).get("role")
        if role not in ("previous", "next", "confirm"):
            raise ApiError("role must be previous, next or confirm (the station's buttons)")
        session().press(seat, role)
        return JSONResponse(seat_view(seat))

    @api
    async def decide(request: Request) -> Response:
        seat = int(request.path_params["seat"])
        body = await json_body(request)
        if not isinstance(body.get("choice"), str):
            raise ApiError("missing field 'choice': one of your pending decision's choices")
        session().decide(body["choice"], seat=seat)
        return JSONResponse(seat_view(seat))

    @api
    async def control(request: Request) -> Response:
        seat = int(request.path_params["seat"])
        body = await json_body(request)
        if not isinstance(body.get("name"), str) or "value" not in body:
            raise ApiError("a setting needs {\"name\": ..., \"value\": ...}")
        session().set_control(seat, body["name"], body["value"])
        return JSONResponse(seat_view(seat))

    @api
    async def hint(request: Request) -> Response:
        seat = int(request.path_params["seat"])
        said = session().hints.ask(seat)  # HintError (a ValueError): 400 with its words
        return JSONResponse({**seat_view(seat), "said": said})

    @api
    async def explain(request: Request) -> Response:
        seat = int(request.path_params["seat"])
        on = (await json_body(request)).get("on")
        if not isinstance(on, bool):
            raise ApiError("on must be true (explain tiles laid the first time) or false")
        session()._check_seat(seat)
        session().first_times.turn(seat, on)
        return JSONResponse(seat_view(seat))

    async def live(ws: WebSocket) -> None:
        await ws.accept()
        await until_stopping(daemon.stopping, ws, serve(ws))

    async def serve(ws: WebSocket) -> None:
        seat = int(ws.path_params["seat"])
        queue = daemon.subscribe()
        try:
            await ws.send_json({"kind": "seat", **seat_view(seat)})
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), PING_EVERY_S)
                except asyncio.TimeoutError:
                    await ws.send_json({"kind": "ping"})
                    continue
                if not plays_here(daemon.session, seat):  # the seat moved to another table
                    await ws.close(1008)
                    return
                slots = own_slots(seat)
                relevant = [e for e in [event, *_drained(queue)] if concerns(e, seat, slots)]
                if not relevant:
                    continue
                seen = seat_view(seat)
                for said in relevant:
                    if said.get("event") == "message" and said.get("seat") == seat \
                            and not _shown(seen.get("view"), said.get("text", "")):
                        await ws.send_json({"kind": "message", "text": said.get("text", "")})
                # one view for everything that queued up meanwhile: a busy game (a burst of
                # events) costs one view, and the phone never falls behind the table
                await ws.send_json({"kind": "seat", **seen})
        except (WebSocketDisconnect, RuntimeError):
            pass
        except asyncio.CancelledError:  # the daemon is stopping (SIGTERM, Ctrl-C): a quiet end
            pass
        finally:
            daemon.unsubscribe(queue)

    async def links(request: Request) -> Response:
        current = daemon.session
        seats = [seat for seat in (current.seats() if current is not None else [])
                 if plays_here(current, seat["seat"])]
        listen = daemon.config.listen
        base = f"http://{reachable_host(listen)}:{daemon.config.console_port}/"
        phones = not is_loopback(listen)
        return JSONResponse({"seats": seat_links(seat_keys, base, seats, phones),
                             "note": "" if phones else
                             "the console listens on this computer only: phones cannot open these "
                             "links. Restart with --listen 0.0.0.0 --token auto to reach it on the LAN"})

    return [
        Route("/seat/{seat:int}", page),
        Route("/api/seat/{seat:int}", view),
        Route("/api/seat/{seat:int}/press", press, methods=["POST"]),
        Route("/api/seat/{seat:int}/decide", decide, methods=["POST"]),
        Route("/api/seat/{seat:int}/control", control, methods=["POST"]),
        Route("/api/seat/{seat:int}/hint", hint, methods=["POST"]),
        Route("/api/seat/{seat:int}/explain", explain, methods=["POST"]),
        WebSocketRoute("/ws/seat/{seat:int}", live),
        Route("/api/seats", links),
    ]


def _learning(session: Any, seat: int) -> dict[str, Any]:
    """The seat's own learning aids (this seat alone): whether it may ask a hint, its hint, and
    the explanation of the kind of tile it last laid for the first time."""
    hints = getattr(session, "hints", None)
    if hints is None:  # a joined table's game: hints are the hosting table's
        return {}
    over = getattr(session, "mode", "") == "over"  # a game over has nothing left to hint at
    return {"hints": hints.allowed and not session.is_computer(seat) and not over,
            "hint": None if over else hints.hint(seat),
            "hint_thinking": not over and seat in hints.thinking,
            "explain": session.first_times.view(seat)}


def _shown(view: dict[str, Any] | None, text: str) -> bool:
    """Words the seat's page shows already, in its now line or its notice (a refusal, a
    prompt): said once, not flashed again above them."""
    if not view or not text:
        return False
    return text in view.get("now", {}).get("text", "") or text == view.get("notice")
