"""``botboard games``: the games in the journal, or one game's record (export)."""

from __future__ import annotations

import argparse
import json


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
            words = outcome_words(outcome) if outcome else "unfinished"
            print(f"{r['id']:>4}  {r['game']:<14} {r['players']:>2} {r['seed']:>6} "
                  f"{r['actions']:>7}  {r['started']:<24} {words}")
    return 0


def outcome_words(outcome: dict[str, object]) -> str:
    """``p2 won (12-9): the countdown ran out``: players as the notation names them (p1 is the
    first seat), the scores in seat order."""
    winners = [f"p{int(w) + 1}" for w in outcome.get("winners", [])]  # type: ignore[attr-defined]
    head = (" and ".join(winners) + (" won" if len(winners) == 1 else " shared the win")) if winners \
        else "nobody won"
    scores = outcome.get("scores") or []
    tally = f" ({'-'.join(str(s) for s in scores)})" if scores else ""  # type: ignore[attr-defined]
    return f"{head}{tally}: {outcome.get('reason', '')}"
