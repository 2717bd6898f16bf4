"""Input that once ended in a traceback: a scenario with a 5,000-digit number, journals of
another schema, with options that are not JSON, with damaged pages, with a bad or missing
action row. Each is one line naming the file and what to do, exit 2, the file untouched."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from botboard.session.journal import JOURNAL_FILE, Journal

from ..patience import scaled
from ..simboard import BOTBOARD


def _botboard(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)


def _one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr and all(w in lines[0] for w in words), done.stderr


@pytest.mark.parametrize("command", ["run", "check"])
def test_a_scenario_with_a_5000_digit_number(tmp_path: Path, command: str) -> None:
    path = tmp_path / "long.json"
    path.write_text('{"game": "botwars", "players": 2, "seed": ' + "9" * 5000 + ', "actions": []}')
    done = _botboard("scenario", command, str(path))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"{path}: holds a number of more than 4,300 digits" in done.stderr


def _played(path: Path) -> None:
    """A journal with one short BotWars game in it."""
    journal = Journal(path)
    gid = journal.create_game("botwars", 2, {"max_turns": 1}, 1, "")
    journal.close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO actions VALUES (?, 0, 'pass', 'x', 'now', 0)", (gid,))
    db.commit()
    db.close()


def _edit(sql: str) -> Callable[[Path], None]:
    def spoil(path: Path) -> None:
        _played(path)
        db = sqlite3.connect(path)
        db.executescript(sql)
        db.close()
    return spoil


def _damaged_pages(path: Path) -> None:
    journal = Journal(path)
    gid = journal.create_game("botwars", 2, {}, 1, "")
    for n in range(400):
        journal.append(gid, f"action {n} " + "x" * 200, "hash")
    journal.close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for at in range(page * 4, len(data) - page, page * 3):  # a few of the actions' pages, not the first
        data[at + 8: at + 400] = b"\xff" * 392
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("spoil, words", [
    (_edit("ALTER TABLE games DROP COLUMN finished;"), "without the column(s) games.finished"),
    (_edit("UPDATE games SET options = '{max_turns: 1';"), "game 1's options are not JSON"),
    (_edit("UPDATE actions SET action = 'no such action';"), "action 0 ('no such action') cannot be applied"),
    (_edit("UPDATE actions SET n = 1;"), "game 1's action 0 is missing"),
    (_damaged_pages, "damaged"),
    (_edit("UPDATE games SET options = '[1,2]';"), "game 1's options are [1, 2], not a JSON object"),
    (_edit("UPDATE games SET players = 0;"), "game 1 cannot be set up again (BotWars takes"),
    (_edit("UPDATE games SET game = 'chess';"), "game 1 is a game of 'chess', which is not installed here: install the package"),
    (_edit("UPDATE games SET players = 'two';"), "game 1's players is 'two', not a whole number"),
    (_edit("UPDATE games SET options = '{\"max_turns\": " + "9" * 5000 + "}';"),
     "game 1's options are not JSON (a number too long to read)"),
])
def test_replay_of_a_spoiled_journal_is_one_line(tmp_path: Path, spoil: Callable[[Path], None], words: str) -> None:
    path = tmp_path / JOURNAL_FILE
    spoil(path)
    before = path.read_bytes()
    done = _botboard("replay", "1", "--data-dir", str(tmp_path))
    _one_line(done, str(path), words)
    assert path.read_bytes() == before


def test_games_lists_a_journal_whose_options_are_not_json_and_export_says_which(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    _edit("UPDATE games SET options = 'not json';")(path)
    listed = _botboard("games", "--data-dir", str(tmp_path))
    assert listed.returncode == 0 and "botwars" in listed.stdout
    done = _botboard("replay", "1", "--json", "--data-dir", str(tmp_path))
    _one_line(done, "options are not JSON")


def test_games_lists_a_game_whose_outcome_is_damaged_and_replay_says_why(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    _edit("UPDATE games SET outcome = '[\"won\"]', finished = 'now';")(path)
    listed = _botboard("games", "--data-dir", str(tmp_path))
    assert listed.returncode == 0 and "cannot be read (`botboard replay 1` says why)" in listed.stdout
    _one_line(_botboard("replay", "1", "--data-dir", str(tmp_path)), "outcome are [\"won\"], not a JSON object")


def test_run_with_a_journal_whose_options_are_a_list_starts_and_says_why_it_did_not_resume(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_FILE
    _edit("UPDATE games SET options = '[1,2]';")(path)
    proc = subprocess.Popen([BOTBOARD, "run", "--game", "botwars", "--data-dir", str(tmp_path), "--console-port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        assert proc.stdout.readline().startswith("botboard: ") and proc.stdout.readline().startswith("console: ")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=scaled(20))
    assert proc.returncode == 0 and "Traceback" not in err, err
    assert "game 1's options are [1, 2], not a JSON object" in err and len(err.strip().splitlines()) == 1, err


def test_a_bug_is_one_line_naming_the_error_log_where_its_traceback_went(tmp_path: Path) -> None:
    """The top level's last resort (cli/errors.py), shown with a command that fails as no
    command is meant to (an IndexError of its own)."""
    import os

    env = dict(os.environ, XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run([sys.executable, "-c", "import sys; from botboard.cli import main; "
                           "import botboard.cli.games as g; g._run = lambda args: [][0]; "
                           "sys.exit(main(['games', '--data-dir', sys.argv[1]]))", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=scaled(60))
    log = tmp_path / "state" / "botboard" / "errors.log"
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"the details are in {log}" in lines[0] and "unexpected error" in lines[0]
    assert "Traceback" in log.read_text() and log.stat().st_mode & 0o777 == 0o600
