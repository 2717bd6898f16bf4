"""A journaled game looked back on, step by step: the console's replay viewer and ``--on-board``.

    review = Review.of(journal, game_id)     # re-run from its seed, every state hash checked
    review.step(k)                           # step k (0: the start) as the table may read it
    review.seat_step(k, seat)                # that seat's private view: only once the game is over
    review.board_cells(k)                    # the board's cells for step k, as the live table lit them

Each step's picture is the game's table mapping's ``picture(state)`` placed on
the layout the game was played on: the same call the live table makes once an
action's animation is over, so a review shows exactly what the LEDs showed.
Nothing here writes to the journal.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import games
from ..board import layouts
from ..link.image import CellState
from .boardmap import BoardMap
from .journal import Journal, Step, replay_steps
from .mapping import TableMapping
from .now import ENGINE_SEAT


class ReviewError(ValueError):
    """A step or view that cannot be shown; ``status`` is the HTTP status the console answers with."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Review:
    game_id: int
    record: dict[str, Any]  # the journal's games row (id, game, players, seed, layout, finished...)
    mapping: TableMapping[Any]
    layout: layouts.Layout
    steps: list[Step]

    @classmethod
    def of(cls, journal: Journal, game_id: int) -> "Review":
        """JournalError if the game is unknown or does not replay; GameError if its game is not
        a table game installed here."""
        record = journal.game(game_id).to_json()
        mapping = games.table(record["game"])()
        steps = [step for _, step in replay_steps(journal, game_id)]
        return cls(game_id, record, mapping, layouts.load(record["layout"]), steps)

    @property
    def over(self) -> bool:
        return self.mapping.engine.outcome(self.steps[-1].state) is not None

    def _step(self, k: int) -> Step:
        if not 0 <= k < len(self.steps):
            raise ReviewError(f"game {self.game_id} has steps 0 to {len(self.steps) - 1}, not {k}",
                              status=404)
        return self.steps[k]

    def summary(self) -> dict[str, Any]:
        engine = self.mapping.engine
        state = self.steps[0].state
        players = int(self.record["players"])
        return {"game_id": self.game_id, "game": self.record["game"], "title": engine.info.title,
                "players": players, "steps": len(self.steps), "over": self.over,
                "finished": self.record["finished"], "layout": self.layout.id, "grid": self.layout.grid,
                "seats": [self.mapping.seat_name(state, s) for s in range(players)],
                "cells": [list(c) for c in self.layout.cells],
                "palette": ["#%02x%02x%02x" % rgb for rgb in self.mapping.palette_for("standard")]}

    def step(self, k: int) -> dict[str, Any]:
        """Step ``k`` as the whole table may read it: the action, its events, the scores and the
        picture (board cell -> [palette, facing, effect])."""
        step = self._step(k)
        mapping, state = self.mapping, step.state
        public = mapping.public_view(state)
        outcome = mapping.engine.outcome(state)
        said = self._spoken(state)
        return {"step": k, "n": step.n, "state_hash": mapping.engine.state_hash(state),
                "action": said(mapping.public_action(step.before, step.action)) if step.action else None,
                "events": [said(e) for e in mapping.public_events(step.events)],
                "turn": said(mapping.turn_words(state)),
                "scores": public.get("scores") or (dict(enumerate(outcome.scores)) if outcome else None),
                "outcome": outcome.to_json() if outcome else None,
                "picture": [[c.palette, c.facing, c.effect] for c in self.board_cells(k)],
                **self._places(state), "floor": public.get("floor")}

    def _spoken(self, state: Any) -> Any:
        """The engine's words as the live table says them: p1, p2... by the seats' names."""
        players = int(self.record["players"])

        def said(text: str) -> str:
            text = self.mapping.engine_words(text)
            return ENGINE_SEAT.sub(lambda m: self.mapping.seat_name(state, int(m[1]) - 1)
                                   if 0 < int(m[1]) <= players else m[0], text)
        return said

    def _places(self, state: Any) -> dict[str, Any]:
        """The cells as the game names them and the pieces where they stand, by board cell (as
        the live console labels its arena)."""
        bmap = BoardMap(self.layout, list(self.mapping.coords(state)))
        engine_names = self.mapping.cell_names(state, self.layout.grid)
        names = [""] * bmap.board_cells
        for engine, board in enumerate(bmap.to_board):
            names[board] = engine_names[engine]
        pieces = self.mapping.pieces(state, int(self.record["players"]))
        return {"cell_names": names, "pieces": {bmap.to_board[c]: words for c, words in pieces.items()}}

    def seat_step(self, k: int, seat: int) -> dict[str, Any]:
        """What ``seat`` alone saw at step ``k``; refused while the game is unfinished."""
        if not self.over:
            raise ReviewError(f"game {self.game_id} is not over: each seat's private view is shown "
                              "only after the game has ended (the public steps are there now)", status=403)
        players = int(self.record["players"])
        if not 0 <= seat < players:
            raise ReviewError(f"game {self.game_id} has seats 1 to {players}, not {seat + 1}", status=404)
        state = self._step(k).state
        said = self._spoken(state)
        return {"step": k, "seat": seat, "name": self.mapping.seat_name(state, seat),
                "words": [[said(label), said(words)] for label, words in self.mapping.seat_words(state, seat)],
                "private": self.mapping.seat_view(state, seat)}

    def board_cells(self, k: int) -> list[CellState]:
        """Every board cell (LED order) at step ``k``."""
        state = self._step(k).state
        bmap = BoardMap(self.layout, list(self.mapping.coords(state)))
        cells = bmap.board(self.mapping.picture(state))
        return [cells.get(b, CellState()) for b in range(bmap.board_cells)]
