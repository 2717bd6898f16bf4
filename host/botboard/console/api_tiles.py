"""Tile endpoints: the game's tile catalogue, writing a tag and enrolling one.

GET  /api/tiles/catalogue   the game's picker fields (names, choices), from its declared catalogue
POST /api/tiles/write       {slot, tile: {field: value...}, serial?}   write that tile's tag
POST /api/tiles/enroll      {slot, tile: {field: value...}}            the tag now on that slot is that tile

Every game's tiles come from its catalogue (games/catalogue.py), the same code as
``botboard tiles``. Writing goes through the board (WRITE_TAG): it writes the tag
on the slot's reader, reads it back and announces the tile, on the real board and
the simulated one alike. Enrolling records the uid of the tag on the slot in the
session's registry of enrolled tags.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .. import games
from ..games.catalogue import TileCatalogue, TileError
from .common import ApiError, api, get_int, json_body

if TYPE_CHECKING:
    from ..daemon import Daemon


def catalogue_json(game: str) -> dict[str, Any]:
    """What a picker needs to build its form for ``game``'s tiles."""
    declaration, catalogue = games.declaration(game), games.catalogue(game)
    return {"game": declaration.name, "title": declaration.title, "game_id": declaration.tile_id,
            "fields": [f.to_json() for f in catalogue.fields()]}


def tile_of(catalogue: TileCatalogue[Any], body: Mapping[str, Any]) -> Any:
    """The tile a request's ``tile`` object describes; a 400 saying which field is wrong."""
    spec = body.get("tile")
    if not isinstance(spec, dict):
        raise ApiError("give the tile as \"tile\": {field: value} (GET /api/tiles/catalogue lists "
                       "the fields)")
    try:
        return catalogue.make(spec)
    except TileError as err:
        raise ApiError(str(err)) from err


def routes(daemon: "Daemon") -> list[Route]:
    tools = daemon.tools

    def slot_of(body: dict[str, Any]) -> int:
        return get_int(body, "slot", None, 0, len(tools.slots) - 1)

    async def tiles_catalogue(request: Request) -> Response:
        return JSONResponse(catalogue_json(daemon.game_name))

    @api
    async def write(request: Request) -> Response:
        from ..link.tags import TagWriteError, write_tag

        body = await json_body(request)
        catalogue = games.catalogue(daemon.game_name)
        tile, slot = tile_of(catalogue, body), slot_of(body)
        serial = get_int(body, "serial", 1, 0, 0xFFFF)
        conn = daemon.conn
        if conn is None or conn.state != "connected":
            raise ApiError("the board is not connected: plug it in, then write", status=409)
        data = catalogue.payload(tile, serial)
        try:
            uid = await write_tag(conn, slot, data)
        except TagWriteError as err:
            raise ApiError(str(err), status=409) from err
        return JSONResponse({"slot": slot, "uid": uid.hex(), "tile": catalogue.words(tile),
                             "payload": data.hex()})

    @api
    async def enroll(request: Request) -> Response:
        body = await json_body(request)
        catalogue = games.catalogue(daemon.game_name)
        tile, slot = tile_of(catalogue, body), slot_of(body)
        reading = tools.slots[slot]
        if not reading.present or not reading.uid:
            raise ApiError(f"no tag on slot {slot}'s reader: put the tag there first")
        registry = getattr(daemon.session, "registry", None)
        if registry is None:
            raise ApiError("no game session (and so no tile registry) in this daemon", status=409)
        registry.enroll(bytes.fromhex(reading.uid), tile)
        return JSONResponse({"slot": slot, "uid": reading.uid, "tile": catalogue.words(tile),
                             "registry": str(registry.path) if registry.path else None})

    return [
        Route("/api/tiles/catalogue", tiles_catalogue),
        Route("/api/tiles/write", write, methods=["POST"]),
        Route("/api/tiles/enroll", enroll, methods=["POST"]),
    ]
