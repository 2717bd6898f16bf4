"""How long a hint takes, per table game: the programs proposed to the search, and the whole hint
at the table's default budget, worked out in this process; then at a table, from the seat's ask
to the hint on its phone, through the hint's worker process (the first ask starts the worker,
the second finds it running). Prints figures, asserts nothing (docs/benchmarks.md, *Hints*).

    .venv/bin/python -m tests.session.hint_time
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from botboard import games, players
from botboard.board import layouts
from botboard.session.hints import _programs, work_out
from botboard.session.journal import Journal
from botboard.session.session import GameSession

from ..patience import Deadline
from .helpers import FakeBoard

BUDGET_S = 2.0  # the table's default hint budget (settings: hint_think)


def in_process(game: str) -> str:
    mapping = games.table(game)()
    state = mapping.engine.new_game(2, dict(games.declaration(game).quick_options), 2)
    decision = mapping.decision(state)
    seat = decision.player if decision else mapping.acting_seats(state)[0]
    start = time.perf_counter()
    proposed = 0 if decision else len(_programs(mapping, state, seat))
    proposing = time.perf_counter() - start
    start = time.perf_counter()
    work_out(mapping, state, seat, players.make("search", 1, budget_s=BUDGET_S), deadline=time.monotonic() + BUDGET_S)
    whole = time.perf_counter() - start
    what = "a decision" if decision else f"{proposed} programs proposed in {proposing * 1000:.0f} ms"
    return f"{what}; the hint in {whole:.2f} s"


async def at_a_table(game: str, data: Path) -> str:
    """Seconds from the ask to the hint, twice (a cold worker, then a warm one)."""
    layout = layouts.load(games.table(game).default_layout(2))
    session = GameSession(layout, Journal.in_dir(data), FakeBoard(), step_s=0, game=game)
    session.new_game(2, dict(games.declaration(game).quick_options), 2)
    seat = session.mapping.decision(session.state).player if session.mode == "decide" else session.acting()[0]
    took = []
    try:
        for _ in range(2):
            session.hints.given.clear()
            start = time.perf_counter()
            session.hints.ask(seat)
            deadline = Deadline(60)  # a hint never lost: it comes, or this says so
            while session.hints.hint(seat) is None:
                assert not deadline.passed(), f"no hint for {game} after {deadline}"
                await asyncio.sleep(0.01)
            took.append(time.perf_counter() - start)
    finally:
        session.stop_thinking()
        session.journal.close()
    return f"at a table in {took[0]:.2f} s (the worker starting), then {took[1]:.2f} s"


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="hint-time-") as tmp:
        for game in games.table_names():
            table = asyncio.run(at_a_table(game, Path(tmp) / game))
            print(f"{game}: {in_process(game)}; {table} (a {BUDGET_S:g} s budget)")


if __name__ == "__main__":
    main()
