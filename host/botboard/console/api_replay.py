"""Replay endpoints: any journaled game as a timeline the console steps through.

GET  /replay/G                        the viewer page (replay.html)
GET  /api/replay                      the journal's games, newest first
GET  /api/replay/G                    the game: title, seats, layout cells, palette, number of steps
GET  /api/replay/G/step/K             step K (0: the start): action, events, scores, picture
GET  /api/replay/G/step/K/seat/S      seat S's private view at step K: 403 until the game is over
POST /api/replay/G/show               {step}: light step K on the board (``botboard replay --on-board``)

The shared console's token guards them all (a seat key opens none). The
journal is only read (session/review.py); a game's replay is kept while its
journal has the same number of actions.
"""

from __future__ import annotations

from typing import Any, Callable

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..session.journal import Journal
from ..session.review import Review, ReviewError
from .common import ApiError, api, get_int, json_body

Show = Callable[[Review, int], None]  # lights a step on the board
KEPT = 4  # replays kept in memory: the few games a club looks back on at once


def routes(journal: Callable[[], Journal | None], static: Any, show: Show | None = None) -> list[BaseRoute]:
    """``journal``: the journal to read now (None: there is none); ``show``: the board to light."""
    kept: dict[int, tuple[int, Review]] = {}

    def opened() -> Journal:
        found = journal()
        if found is None:
            raise ApiError("no journal here: play a game first (or give `botboard replay` its --data-dir)",
                           status=409)
        return found

    def review(request: Request) -> Review:
        game_id = int(request.path_params["game"])
        source = opened()
        length = len(source.actions(game_id))
        if game_id in kept and kept[game_id][0] == length:
            return kept[game_id][1]
        try:
            found = Review.of(source, game_id)
        except ValueError as err:  # an unknown game, one that does not replay: words, not a 500
            raise ApiError(str(err), status=404) from err
        while len(kept) >= KEPT:
            kept.pop(next(iter(kept)))
        kept[game_id] = (length, found)
        return found

    def answer(make: Callable[[], dict[str, Any]]) -> Response:
        try:
            return JSONResponse(make())
        except ReviewError as err:
            raise ApiError(str(err), err.status) from err

    async def page(request: Request) -> Response:
        return FileResponse(static / "replay.html", headers={"cache-control": "no-store"})

    @api
    async def listing(request: Request) -> Response:
        # an unfinished game's seed would deal its hidden hands again: said once it is over
        return JSONResponse({"games": [{k: v for k, v in g.items() if k != "seed" or g["finished"]}
                                       for g in reversed(opened().games())]})

    @api
    async def game(request: Request) -> Response:
        return answer(lambda: {**review(request).summary(), "on_board": show is not None})

    @api
    async def step(request: Request) -> Response:
        return answer(lambda: review(request).step(int(request.path_params["k"])))

    @api
    async def seat(request: Request) -> Response:
        found, k, who = review(request), int(request.path_params["k"]), int(request.path_params["seat"])
        return answer(lambda: found.seat_step(k, who))

    @api
    async def light(request: Request) -> Response:
        if show is None:
            raise ApiError("this console does not show replays on the board: start it with "
                           "`botboard replay GAME --on-board`", status=409)
        found, k = review(request), get_int(await json_body(request), "step")
        try:
            show(found, k)
        except ReviewError as err:  # an unknown step: the same words as when viewed
            raise ApiError(str(err), err.status) from err
        return JSONResponse({"shown": k})

    return [
        Route("/replay/{game:int}", page),
        Route("/api/replay", listing),
        Route("/api/replay/{game:int}", game),
        Route("/api/replay/{game:int}/step/{k:int}", step),
        Route("/api/replay/{game:int}/step/{k:int}/seat/{seat:int}", seat),
        Route("/api/replay/{game:int}/show", light, methods=["POST"]),
    ]

