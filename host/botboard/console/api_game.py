"""Game endpoints: the console's window on the game session (``daemon.session``).

GET  /api/games          the games the daemon knows, with player limits and options
GET  /api/game           {"session": bool, "view": session.view() or null, "at": when made}
POST /api/game/new       {players, options?, seed?, computers?}  computers: {"2": "search"} (seat from 1)
POST /api/game/undo      {confirm: true}     the session journals the undo
GET  /api/game/unfinished the journal's unfinished games of this engine, newest first
POST /api/game/resume    {game}              continue one of them (the running one stays unfinished)
POST /api/game/decide    {choice}            a pending decision, as the session names it
POST /api/game/speed     {speed}
POST /api/game/skip
GET  /api/game/palette   the LED legend: {palette, variants, legend: [{index, name, role, hex, meaning}]}
POST /api/game/palette   {palette}           light the board in another variant (standard, colourblind)
GET  /api/game/hints     {"hints": bool}     may seats ask their phones for a hint
POST /api/game/hints     {hints: bool}       allow or forbid hints at this table

The session is built by another part of the host (``botboard.session``); this
module only relies on its methods ``new_game(players, options, seed)``,
``unfinished()``, ``resume(game_id)``, ``undo()``, ``decide(choice)``, ``view()``,
``set_speed(speed)``, ``skip()``, ``use_palette(variant)``, ``palette``
(plain or async) and says "no game session" while there is none.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import games
from ..session.palette import VARIANTS
from .common import ApiError, api, get_int, json_body, maybe_await

if TYPE_CHECKING:
    from ..daemon import Daemon

NO_SESSION = "no game session in this daemon: start one with `botboard run` (it creates the session)"


def game_summary(daemon: "Daemon") -> dict[str, Any]:
    """A short, JSON-safe summary for `botboard status` and the header."""
    session = daemon.session
    if session is None:
        return {"session": False}
    try:
        view = session.view()
    except Exception as err:  # a summary must never take the status endpoint down
        return {"session": True, "error": f"{type(err).__name__}: {err}"}
    if not isinstance(view, dict):
        return {"session": True}
    keys = ("game", "game_id", "turn", "round", "phase", "current_player", "scores", "countdown",
            "outcome", "over", "pending")
    return {"session": True, **{k: view[k] for k in keys if k in view}}


def game_list() -> list[dict[str, Any]]:
    out = []
    for name in games.names():
        info = games.get(name).info
        out.append({"name": name, "title": info.title, "min_players": info.min_players,
                    "max_players": info.max_players, "options": dict(info.options)})
    return out


def routes(daemon: "Daemon") -> list[Route]:
    def session() -> Any:
        if daemon.session is None:
            raise ApiError(NO_SESSION, status=409)
        return daemon.session

    async def view_response() -> Response:
        view = await maybe_await(daemon.session.view()) if daemon.session else None
        # "at": when it was made; the console keeps the newest (a slow reply must not undo a push)
        return JSONResponse({"session": daemon.session is not None, "game": daemon.game_name,
                             "view": view, "at": time.monotonic_ns()})

    async def game_names(request: Request) -> Response:
        return JSONResponse({"current": daemon.game_name, "games": game_list()})

    @api
    async def game(request: Request) -> Response:
        return await view_response()

    @api
    async def new(request: Request) -> Response:
        body = await json_body(request)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ApiError("options must be a JSON object of option -> value")
        # no seed given: a fresh one (the journal records it, so the game can be replayed)
        seed = secrets.randbelow(1 << 31) if body.get("seed") in (None, "") else get_int(body, "seed")
        players = get_int(body, "players", None, 1, 8)
        computers = _computer_seats(body.get("computers"), players) if "computers" in body else None
        await maybe_await(session().new_game(players, options, seed))
        if computers is not None:  # seats switch between human and computer between games
            session().set_computers(computers, session().think_s)
        return await view_response()

    async def unfinished(request: Request) -> Response:
        games_ = await maybe_await(daemon.session.unfinished()) if daemon.session else []
        return JSONResponse({"games": games_})

    @api
    async def resume(request: Request) -> Response:
        body = await json_body(request)
        await maybe_await(session().resume(get_int(body, "game", None, 1, 1 << 31)))
        return await view_response()

    @api
    async def undo(request: Request) -> Response:
        if (await json_body(request)).get("confirm") is not True:
            raise ApiError("undo needs {\"confirm\": true}: it takes back the last action")
        await maybe_await(session().undo())
        return await view_response()

    @api
    async def decide(request: Request) -> Response:
        body = await json_body(request)
        if "choice" not in body:
            raise ApiError("missing field 'choice': one of the pending decision's choices")
        await maybe_await(session().decide(body["choice"]))
        return await view_response()

    @api
    async def speed(request: Request) -> Response:
        body = await json_body(request)
        if "speed" not in body:
            raise ApiError("missing field 'speed'")
        await maybe_await(session().set_speed(body["speed"]))
        return await view_response()

    @api
    async def skip(request: Request) -> Response:
        await maybe_await(session().skip())
        return await view_response()

    def palette_view() -> dict[str, Any]:
        # the palette file is public: every entry's colour and meaning, nothing of any seat
        variant = daemon.session.palette if daemon.session else daemon.config.palette
        return {"game": daemon.game_name, "palette": variant, "variants": list(VARIANTS),
                "legend": games.table(daemon.game_name).legend(variant)}

    @api
    async def palette(request: Request) -> Response:
        if request.method == "POST":
            body = await json_body(request)
            await maybe_await(session().use_palette(str(body.get("palette", ""))))  # PaletteError: 400
        return JSONResponse(palette_view())

    @api
    async def hints(request: Request) -> Response:
        desk = getattr(session(), "hints", None)
        if desk is None:
            raise ApiError("this table joined another's game: hints are the hosting table's to allow",
                           status=409)
        if request.method == "POST":
            allowed = (await json_body(request)).get("hints")
            if not isinstance(allowed, bool):
                raise ApiError("hints must be true (seats may ask) or false (they may not)")
            desk.allowed = allowed
            session()._publish_view()  # the phones show or hide their hint button
        return JSONResponse({"hints": desk.allowed})

    return [
        Route("/api/games", game_names),
        Route("/api/game/hints", hints, methods=["GET", "POST"]),
        Route("/api/game/palette", palette, methods=["GET", "POST"]),
        Route("/api/game", game),
        Route("/api/game/new", new, methods=["POST"]),
        Route("/api/game/undo", undo, methods=["POST"]),
        Route("/api/game/unfinished", unfinished),
        Route("/api/game/resume", resume, methods=["POST"]),
        Route("/api/game/decide", decide, methods=["POST"]),
        Route("/api/game/speed", speed, methods=["POST"]),
        Route("/api/game/skip", skip, methods=["POST"]),
    ]


def _computer_seats(value: Any, players: int) -> dict[int, str]:
    """{"2": "search"} (seats from 1) as {1: "search"}; ApiError saying what is wrong."""
    from ..players import LEVELS

    if not isinstance(value, dict):
        raise ApiError('computers must be an object of seat -> level, e.g. {"2": "search"}')
    seats: dict[int, str] = {}
    for seat, level in value.items():
        if not str(seat).isdigit() or not 1 <= int(seat) <= players:
            raise ApiError(f"computer seat {seat!r}: seats are 1 to {players}")
        if not isinstance(level, str) or level not in LEVELS:
            raise ApiError(f"computer level {level!r}: levels are {', '.join(LEVELS)}")
        seats[int(seat) - 1] = level
    return seats
