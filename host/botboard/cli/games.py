"""``botboard games``: the games in the journal, or one game's record (export)."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list journaled games, or export one as JSON",
                       description="Lists the games in the journal (id, game, players, seed, "
                       "actions, started, outcome). --export ID prints one game as one JSON record.")
    p.add_argument("--data-dir", default=None, help="journal directory (default ./var)")
    p.add_argument("--export", type=int, metavar="ID", help="print this game's record as JSON")
    p.add_argument("--json", action="store_true", help="the list as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from . import opened_journal

    with opened_journal(args.data_dir) as journal:
        if args.export is not None:
            print(json.dumps(journal.export(args.export)))
            return 0
        rows = journal.games()
        if args.json:
            print(json.dumps(rows))
            return 0
        print(f"{'id':>4}  {'game':<14} {'pl':>2} {'seed':>6} {'actions':>7}  {'started':<24} outcome")
        for r in rows:
            outcome = r["outcome"]
            words = outcome_words(outcome, *_table_words(journal.game(r["id"]))) if outcome else "unfinished"
            print(f"{r['id']:>4}  {r['game']:<14} {r['players']:>2} {r['seed']:>6} "
                  f"{r['actions']:>7}  {r['started']:<24} {words}")
    return 0


def _table_words(record: Any) -> tuple[list[str] | None, Any]:
    """The seats' names as the table says them (red, blue...) and the table's way with the
    engine's words, for a game that plays at the table; (None, None) otherwise."""
    from .. import games

    try:
        mapping = games.table(record.game)()
        state = mapping.engine.new_game(record.players, record.options, record.seed)
        return [mapping.seat_name(state, s) for s in range(record.players)], mapping.engine_words
    except (games.GameError, ValueError, KeyError, IndexError):
        return None, None


def outcome_words(outcome: dict[str, object], names: list[str] | None = None,
                  words: Any = None) -> str:
    """``red won (12-9): the countdown ran out``: seats by their table names (``p2`` as the
    notation names them when the game has none), the scores in seat order."""
    def name(seat: int) -> str:
        return names[seat] if names and seat < len(names) else f"p{seat + 1}"
    winners = [name(int(w)) for w in outcome.get("winners", [])]  # type: ignore[attr-defined]
    head = (" and ".join(winners) + (" won" if len(winners) == 1 else " shared the win")) if winners \
        else "nobody won"
    scores = outcome.get("scores") or []
    tally = f" ({'-'.join(str(s) for s in scores)})" if scores else ""  # type: ignore[attr-defined]
    reason = str(outcome.get("reason", ""))
    return f"{head}{tally}: {words(reason) if words else reason}"
