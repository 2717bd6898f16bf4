"""``botboard botwars report|board``: the BotWars turn report and board renderings."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ...cli import CliError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("botwars", help="BotWars turn reports and boards (docs/botwars.md)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    report = verbs.add_parser("report", help="print the GM-style turn report of a game or scenario")
    report.add_argument("source", metavar="GAME-OR-SCENARIO",
                        help="a journaled game's id (see `botboard games`) or a BotWars scenario file")
    report.add_argument("--json", action="store_true", help="print the report as JSON")
    report.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    report.set_defaults(func=_report)
    board = verbs.add_parser("board", help="print a board as text")
    board.add_argument("name", help="a board name (see data/boards) or a board JSON file")
    board.set_defaults(func=_board)


def _report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..base import GameError
    from . import report
    from ...session.journal import JournalError

    try:
        is_file = Path(args.source).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL in it
        is_file = False
    if is_file:
        try:
            data = _scenario_report(args.source)
        except GameError as err:
            raise CliError(f"{args.source}: {err}") from err
    elif args.source.isascii() and args.source.isdigit() and len(args.source) <= 18:
        try:
            data = _journal_report(int(args.source), args.data_dir)
        except (GameError, JournalError) as err:  # the journal's messages name the game and file
            raise CliError(str(err)) from err
    else:
        raise CliError(f"{args.source}: no such scenario file, nor a game id (a number: "
                       "`botboard games` lists the journaled games)")
    print(json.dumps(data, indent=2) if args.json else report.to_text(data))
    return 0


def _scenario_report(path: str) -> dict[str, Any]:
    from .. import scenario

    doc = scenario.load(path)
    if doc["game"] != "botwars":
        raise CliError(f"{path}: a {doc['game']} scenario, not botwars")
    return _build(doc["players"], doc["options"], doc["seed"], doc.get("position"), doc["actions"])


def _journal_report(game_id: int, where: str | None) -> dict[str, Any]:
    from ... import games
    from ...session.journal import replay
    from ...cli import opened_journal

    with opened_journal(where) as journal:
        record = journal.game(game_id)
        if games.get(record.game).info.name != "botwars":
            raise CliError(f"game {game_id} in {journal.path} is a {record.game} game, not "
                           f"botwars (`botboard replay {game_id}` replays any game)")
        _, _, done = replay(journal, game_id)  # the live actions, their state hashes checked
    return _build(record.players, record.options, record.seed, None, done)


def _build(players: int, options: dict[str, Any], seed: int, position: Any,
           actions: list[str]) -> dict[str, Any]:
    """The report of a game from its start, whether a scenario or the journal gave it."""
    from ... import games
    from . import report

    start = games.get("botwars").scenario_start(players, options, seed, position)
    return report.build(start, actions)


def _board(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..base import GameError
    from .board import board_from_json, load_board, render

    try:
        path = Path(args.name)
        board = board_from_json(json.loads(path.read_text())) if path.suffix == ".json" else load_board(args.name)
    except (GameError, OSError, json.JSONDecodeError) as err:
        raise CliError(str(err)) from err
    print(f"{board.title}\n{render(board)}")
    return 0
