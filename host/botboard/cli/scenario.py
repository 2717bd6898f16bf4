"""``botboard scenario run|check``: run scenario files of any game."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from . import CliError

if TYPE_CHECKING:
    from ..games.base import Game
    from ..games.scenario import Step
    from ..session.journal import Journal


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("scenario", help="run or check scenario files (docs/scenarios.md)")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB", required=True)
    run_p = verbs.add_parser("run", help="print the resulting state and events as JSON")
    run_p.add_argument("file")
    run_p.add_argument("--journal", action="store_true",
                       help="also journal the game and its actions (a scenario without a "
                       "position); the JSON gets its id as journaled.id (docs/journal.md)")
    run_p.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    run_p.set_defaults(func=_run)
    check_p = verbs.add_parser("check", help="exit 0 only if every file's expect block holds")
    check_p.add_argument("files", nargs="+", metavar="FILE")
    check_p.set_defaults(func=_check)


def _run(args: argparse.Namespace) -> int:
    from ..games import scenario
    from ..games.base import GameError

    journaled: dict[str, Any] = {}
    try:
        doc = scenario.load(args.file)
        journal = _open_journal(args, doc) if args.journal else None
        try:
            result = scenario.run(doc, _journal_step(journal, doc, journaled) if journal else None)
        finally:
            if journal:
                journal.close()
    except GameError as err:
        raise CliError(_in_file(args.file, err)) from err
    out = result.to_json()
    if journaled:
        out["journaled"] = journaled
        print(f"journaled as game {journaled['id']} in {journaled['journal']} "
              f"({journaled['actions']} actions)", file=sys.stderr)
    print(json.dumps(out, indent=2))
    return 1 if result.error else 0


def _open_journal(args: argparse.Namespace, doc: dict[str, Any]) -> "Journal":
    from ..session.host import data_dir
    from ..session.journal import Journal

    if "position" in doc:
        # the journal rebuilds a game from its players, options and seed alone
        raise CliError(f"{args.file}: a scenario with a position cannot be journaled (a journaled "
                       "game is replayed from a new game); drop --journal or the position")
    return Journal.in_dir(data_dir(args.data_dir))


def _journal_step(journal: "Journal", doc: dict[str, Any], journaled: dict[str, Any]) -> "Step":
    """A scenario.run step that journals the game as it goes: the actions accepted
    before any error, each with its state hash, and the outcome with the one that ends it."""

    def step(game: "Game[Any, Any]", state: Any, action: str | None) -> None:
        if action is None:  # the start: created only once the engine accepted the setup
            journaled.update(id=journal.create_game(game.info.name, doc["players"], doc["options"],
                                                    doc["seed"], layout=""),
                             journal=str(journal.path), actions=0)
            return
        outcome = game.outcome(state)
        journal.append(journaled["id"], action, game.state_hash(state),
                       outcome.to_json() if outcome else None)
        journaled["actions"] += 1

    return step


def _check(args: argparse.Namespace) -> int:
    from ..games import scenario
    from ..games.base import GameError, ScenarioError

    failed = malformed = 0
    for path in args.files:
        try:
            doc = scenario.load(path)
            problems = scenario.check(doc, scenario.run(doc))
        except ScenarioError as err:
            malformed += 1
            problems = [_in_file(path, err)]
        except GameError as err:
            problems = [str(err)]
        if problems:
            failed += 1
            print(f"FAIL {path if path.isprintable() else repr(path)}", file=sys.stderr)
            for problem in problems:
                print(f"  {problem}", file=sys.stderr)
        else:
            print(f"ok   {path}")
    print(f"{len(args.files) - failed} passed, {failed} failed")
    return 2 if malformed else 1 if failed else 0


def _in_file(path: str, err: Exception) -> str:
    """The error's one line, naming the file (load's messages already do)."""
    text = " ".join(str(err).split("\n"))
    return text if text.startswith(str(path)) else f"{path if path.isprintable() else repr(path)}: {text}"
