"""``botboard replay GAME``: re-run a journaled game and print its final state hash."""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="re-run a journaled game and print its final state hash",
                       description="Replays the game's journaled actions from its seed, checking "
                       "every recorded state hash, and prints the final one. --json prints the "
                       "game's whole record (its export) with the replayed hash.")
    p.add_argument("game", type=int, help="the game's id (see `botboard games`)")
    p.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    p.add_argument("--json", action="store_true", help="print the game's record as one JSON object")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from ..session.journal import replay
    from . import opened_journal

    with opened_journal(args.data_dir) as journal:
        engine, state, _ = replay(journal, args.game)
        digest = engine.state_hash(state)
        if args.json:
            record = journal.export(args.game)
            record["replayed_hash"] = digest
            print(json.dumps(record))
        else:
            print(digest)
    return 0
