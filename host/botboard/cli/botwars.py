"""``botboard botwars report|board``: the BotWars turn report and board renderings."""

from __future__ import annotations

import argparse
import json

from . import CliError


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg,unused-ignore]
    parser = sub.add_parser("botwars", help="BotWars turn reports and boards (docs/botwars.md)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    report = verbs.add_parser("report", help="print the GM-style turn report of a game or scenario")
    report.add_argument("source", metavar="GAME-OR-SCENARIO",
                        help="a BotWars scenario file (journaled game ids: not yet)")
    report.add_argument("--json", action="store_true", help="print the report as JSON")
    report.set_defaults(func=_report)
    board = verbs.add_parser("board", help="print a board as text")
    board.add_argument("name", help="a board name (see data/boards) or a board JSON file")
    board.set_defaults(func=_board)


def _report(args: argparse.Namespace) -> int:
    from .. import games, scenario
    from ..games.base import GameError
    from ..games.botwars import report

    from pathlib import Path

    if not Path(args.source).is_file():
        raise CliError(f"{args.source}: no such scenario file (reports of journaled games by id "
                       "are not available yet; give a scenario file)")
    try:
        doc = scenario.load(args.source)
        if doc["game"] != "botwars":
            raise CliError(f"{args.source}: a {doc['game']} scenario, not botwars")
        game = games.get("botwars")
        start = game.scenario_start(doc["players"], doc["options"], doc["seed"], doc.get("position"))
        data = report.build(start, doc["actions"])
    except GameError as err:
        raise CliError(f"{args.source}: {err}") from err
    print(json.dumps(data, indent=2) if args.json else report.to_text(data))
    return 0


def _board(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..games.base import GameError
    from ..games.botwars.board import board_from_json, load_board, render

    try:
        path = Path(args.name)
        board = board_from_json(json.loads(path.read_text())) if path.suffix == ".json" else load_board(args.name)
    except (GameError, OSError, json.JSONDecodeError) as err:
        raise CliError(str(err)) from err
    print(f"{board.title}\n{render(board)}")
    return 0
