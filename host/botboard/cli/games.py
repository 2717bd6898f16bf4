"""``botboard games``: the games in the journal, or one game's record (export)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("games", help="list journaled games, or export one as JSON",
                       description="Lists the games in the journal (id, game, players, seed, "
                       "actions, started, outcome). --export ID prints one game as one JSON record.")
    p.add_argument("--data-dir", default=None, help="journal directory (default: the settings file's data_dir, else var/; docs/journal.md)")
    p.add_argument("--export", type=int, metavar="ID", help="print this game's record as JSON")
    p.add_argument("--json", action="store_true", help="the list as JSON")
    p.add_argument("--playable", action="store_true",
                   help="the games that play at the table (players, default layout), not the journal")
    p.set_defaults(func=_run)


def playable() -> list[dict[str, Any]]:
    """Each game that plays at the table: its name for --game, title, players, default layout,
    and what its declaration says of it (aliases, tile id, package, short options)."""
    from .. import games

    out = []
    for name in games.table_names():
        try:
            info, mapping, declared = games.get(name).info, games.table(name), games.declaration(name)
        except games.GameError as err:  # a plugin whose parts do not load: said, the rest listed
            print(f"botboard games: {err}", file=sys.stderr)
            continue
        out.append({"game": name, "title": info.title, "aliases": list(declared.aliases),
                    "players": [info.min_players, _most_seats(name, info.min_players, info.max_players)],
                    "layout": mapping.default_layout(info.min_players), "tile_id": declared.tile_id,
                    "package": declared.package, "quick_options": dict(declared.quick_options)})
    return out


def _most_seats(name: str, low: int, high: int) -> int:
    """The most players the game's own boards seat (BotWars' rules take 8, its board 4)."""
    from .. import games
    from ..board import layouts
    from ..session.mapping import TableError

    mapping = games.table(name)()
    for players in range(high, low, -1):
        try:
            state = mapping.engine.new_game(players, {}, 0)
            mapping.seat_stations(layouts.load(mapping.default_layout(players)), state)
            return players
        except (TableError, games.GameError):
            continue
    return low


def _run(args: argparse.Namespace) -> int:
    from . import opened_journal

    if args.playable:
        from .. import games

        for problem in games.problems():  # plugins that could not be loaded, one line each
            print(f"botboard games: {problem}", file=sys.stderr)
        rows = playable()
        if args.json:
            print(json.dumps(rows))
            return 0
        for r in rows:
            low, high = r["players"]
            print(f"{r['game']:<14} {r['title']:<16} {low}-{high} players  layout {r['layout']}  "
                  f"(botboard run --game {r['game']})")
        return 0

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
            words = _row_words(journal, r)
            game, players, seed, started = (str(r[k]) for k in ("game", "players", "seed", "started"))
            print(f"{r['id']:>4}  {game:<14} {players:>2} {seed:>6} {r['actions']:>7}  {started:<24} {words}")
    return 0


def _row_words(journal: Any, row: dict[str, Any]) -> str:
    """A listed game's outcome in words; an edited or damaged row says so and lists on."""
    from ..session.journal import JournalError

    if not row["outcome"]:
        return "unfinished"
    try:
        return outcome_words(row["outcome"], *_table_words(journal.game(row["id"])))
    except (JournalError, TypeError, ValueError, AttributeError, IndexError):
        return f"cannot be read (`botboard replay {row['id']}` says why)"


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


ENGINE_SEAT = re.compile(r"\bp(\d)\b")  # how every engine names its players


def outcome_words(outcome: dict[str, object], names: list[str] | None = None,
                  words: Any = None) -> str:
    """``red won (12-9): the countdown ran out``: seats by their table names (``seat 2`` when the
    game has none; never the engine's ``p2``), the scores in seat order."""
    def name(seat: int) -> str:
        return names[seat] if names and seat < len(names) else f"seat {seat + 1}"
    winners = [name(int(w)) for w in outcome.get("winners", [])]  # type: ignore[attr-defined]
    head = (" and ".join(winners) + (" won" if len(winners) == 1 else " shared the win")) if winners \
        else "nobody won"
    scores = outcome.get("scores") or []
    tally = f" ({'-'.join(str(s) for s in scores)})" if scores else ""  # type: ignore[attr-defined]
    reason = str(outcome.get("reason", ""))
    reason = ENGINE_SEAT.sub(lambda m: name(int(m[1]) - 1), words(reason) if words else reason)
    return f"{head}{tally}: {reason}"
