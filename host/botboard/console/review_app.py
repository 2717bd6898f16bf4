"""``botboard replay GAME --console-port P``: the replay viewer on its own, beside or without a table.

    await serve(journal, game_id, port=0, board_port=None, on_board=False)

Serves only the replay routes (api_replay) and the static assets, reading the
journal read-only, so a live table's game in the same journal is never
disturbed. With ``on_board`` the step being viewed is lit on a board: the one at
``board_port``, else a simulated board started for the review (a real board
in use by a running table cannot be shared: give its port only when it is free).
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp

from ..session.journal import Journal
from ..session.review import Review
from . import api_replay
from .app import STATIC
from .seats import SeatKeys
from .security import TokenGate


def create_app(journal: Journal, show: api_replay.Show | None, listen: str = "127.0.0.1") -> ASGIApp:
    routes: list[BaseRoute] = api_replay.routes(lambda: journal, STATIC, show)
    routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    return TokenGate(Starlette(routes=routes), None, SeatKeys(None), listen)


class ReviewBoard:
    """A board that shows the reviewed steps: the given port, or a simulated board."""

    def __init__(self, layout_id: str, palette: list[tuple[int, int, int]], port: str | None) -> None:
        from ..board.sim import SimBoard
        from ..link.connection import BoardConnection
        from ..link.image import BoardImage
        from ..board import layouts

        self.sim = None if port else SimBoard(layout_id)
        if self.sim is not None:
            self.sim.start()
            port = self.sim.port
        assert port is not None
        image = BoardImage.blank(len(layouts.load(layout_id).cells))
        image.palette = list(palette)  # sent with every full resync
        self.conn = BoardConnection(port, image, layout=layout_id)
        self.port = port

    def show(self, review: Review, k: int) -> None:
        self.conn.set_cells(dict(enumerate(review.board_cells(k))))  # every cell, LED order

    def close(self) -> None:
        self.conn.close()
        if self.sim is not None:
            self.sim.stop()


async def serve(journal: Journal, game_id: int, port: int = 0, board_port: str | None = None,
                on_board: bool = False, ready: Callable[[str], Any] | None = None) -> None:
    """Serve the viewer of ``game_id`` until cancelled; ``ready(address)`` once it listens."""
    import uvicorn

    board = None
    if on_board:
        review = Review.of(journal, game_id)
        board = ReviewBoard(review.layout.id, list(review.mapping.palette_for("standard")), board_port)
    server = uvicorn.Server(uvicorn.Config(create_app(journal, board.show if board else None),
                                           host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    tasks = [asyncio.create_task(server.serve())]
    if board is not None:
        tasks.append(asyncio.create_task(board.conn.run()))
    try:
        while not server.started and not tasks[0].done():
            await asyncio.sleep(0.05)
        if tasks[0].done():
            tasks[0].result()
            raise OSError(f"the replay viewer could not listen on 127.0.0.1:{port} (in use? try "
                          "--console-port 0)")
        bound = server.servers[0].sockets[0].getsockname()[1]
        address = f"http://127.0.0.1:{bound}/replay/{game_id}"
        (ready or (lambda text: print(text, file=sys.stdout, flush=True)))(address)
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        server.should_exit = True
        for task in tasks[1:]:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if board is not None:
            board.close()
