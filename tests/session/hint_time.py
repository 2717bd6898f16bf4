"""How long a hint takes, per table game: the programs proposed to the search, and the whole hint
at the table's default budget. Prints figures, asserts nothing (docs/benchmarks.md, *Hints*).

    .venv/bin/python -m tests.session.hint_time
"""

from __future__ import annotations

import time

from botboard import games, players
from botboard.session.hints import _programs, work_out


def main() -> None:
    for game in games.table_names():
        mapping = games.table(game)()
        state = mapping.engine.new_game(2, dict(games.declaration(game).quick_options), 2)
        decision = mapping.decision(state)
        seat = decision.player if decision else mapping.acting_seats(state)[0]
        start = time.perf_counter()
        proposed = 0 if decision else len(_programs(mapping, state, seat))
        proposing = time.perf_counter() - start
        start = time.perf_counter()
        work_out(mapping, state, seat, players.make("search", 1, budget_s=2.0))
        whole = time.perf_counter() - start
        what = "a decision" if decision else f"{proposed} programs proposed in {proposing * 1000:.0f} ms"
        print(f"{game}: {what}; the hint at a 2 s budget in {whole:.2f} s")


if __name__ == "__main__":
    main()
