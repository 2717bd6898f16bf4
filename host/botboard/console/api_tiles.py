"""Tile endpoints: the tile catalogue, writing a tag and enrolling one.

GET  /api/tiles/catalogue   kinds and colours of the daemon's game, for pickers and labels
POST /api/tiles/write       {slot, kind: "F1", colour: "red"|null, serial?}
POST /api/tiles/enroll      {slot, kind, colour}     the tag now on that slot's reader

The tile format and the registry are the game session's (``botboard.games.twintinbots.table.tiles``,
the same code as ``botboard tiles``). Writing goes through the board
(WRITE_TAG): it writes the tag on the slot's reader, reads it back and
announces the tile, on the real board and the simulated one alike. Enrolling
records the uid of the tag on the slot in the session's registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .common import ApiError, api, get_int, json_body

if TYPE_CHECKING:
    from ..daemon import Daemon

TTB = ("twin-tin-bots", "ttb")


def catalogue(game: str) -> dict[str, Any]:
    """Kinds and colours a tile of ``game`` can carry (empty lists for games without tiles yet)."""
    if game not in TTB:
        return {"game": game, "game_id": None, "kinds": [], "colours": []}
    from ..games.twintinbots import content as C
    from ..games.twintinbots.table.tiles import GAME_ID, NEUTRAL

    kinds = [{"kind": i, "code": code, "name": C.TILE_NAMES[i], "special": i in C.SPECIALS}
             for i, code in enumerate(C.TILE_CODES) if i]
    colours = [{"colour": i, "name": name} for i, name in enumerate(C.COLOURS)]
    colours.append({"colour": NEUTRAL, "name": "special"})
    return {"game": game, "game_id": GAME_ID, "kinds": kinds, "colours": colours}


def routes(daemon: "Daemon") -> list[Route]:
    tools = daemon.tools

    def tile_from(body: dict[str, Any]) -> Any:
        if daemon.game_name not in TTB:
            raise ApiError(f"tiles of {daemon.game_name} are not defined yet", status=409)
        from ..games.twintinbots.table.tiles import TileError, make_tile

        colour = body.get("colour")
        try:
            return make_tile(str(body.get("kind", "")), None if colour in (None, "") else str(colour))
        except TileError as err:
            raise ApiError(str(err)) from err

    def slot_of(body: dict[str, Any]) -> int:
        return get_int(body, "slot", None, 0, len(tools.slots) - 1)

    async def tiles_catalogue(request: Request) -> Response:
        return JSONResponse(catalogue(daemon.game_name))

    @api
    async def write(request: Request) -> Response:
        from ..link.tags import TagWriteError, write_tag
        from ..games.twintinbots.table.tiles import payload

        body = await json_body(request)
        tile, slot = tile_from(body), slot_of(body)
        serial = get_int(body, "serial", 1, 0, 0xFFFF)
        conn = daemon.conn
        if conn is None or conn.state != "connected":
            raise ApiError("the board is not connected: plug it in, then write", status=409)
        data = payload(tile, serial)
        try:
            uid = await write_tag(conn, slot, data)
        except TagWriteError as err:
            raise ApiError(str(err), status=409) from err
        return JSONResponse({"slot": slot, "uid": uid.hex(), "tile": str(tile), "payload": data.hex()})

    @api
    async def enroll(request: Request) -> Response:
        body = await json_body(request)
        tile, slot = tile_from(body), slot_of(body)
        reading = tools.slots[slot]
        if not reading.present or not reading.uid:
            raise ApiError(f"no tag on slot {slot}'s reader: put the tag there first")
        registry = getattr(daemon.session, "registry", None)
        if registry is None:
            raise ApiError("no game session (and so no tile registry) in this daemon", status=409)
        registry.enroll(bytes.fromhex(reading.uid), tile)
        return JSONResponse({"slot": slot, "uid": reading.uid, "tile": str(tile),
                             "registry": str(registry.path) if registry.path else None})

    return [
        Route("/api/tiles/catalogue", tiles_catalogue),
        Route("/api/tiles/write", write, methods=["POST"]),
        Route("/api/tiles/enroll", enroll, methods=["POST"]),
    ]

