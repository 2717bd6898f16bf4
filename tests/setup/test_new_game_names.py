"""`botboard new-game` refuses names a game cannot have (botboard's own commands, taken from its
parser; the example game's; malformed ones, with the rule), makes no folder but the game's own (and
--dir itself, when its parent exists), and draws tile ids outside the published reserved list."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import pytest

from botboard.cli import build_parser
from botboard.games import registry
from botboard.games.tile_ids import published, reserved
from botboard.scaffold import ScaffoldError, check_name, free_tile_id

from .plugins import botboard


def _commands() -> set[str]:
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices)


def _one_line_refusal(tmp_path: Path, *args: str) -> str:
    done = botboard([], "new-game", *args)
    assert done.returncode == 2 and done.stdout == "", (args, done.stdout, done.stderr)
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    return done.stderr


def test_every_command_name_is_refused_with_the_rule(tmp_path: Path) -> None:
    commands = _commands()
    assert {"bench", "run", "docs", "games", "new-game"} <= commands
    for name in sorted(commands):
        if registry.resolve(name) is not None:
            continue  # a game that brings its own command: refused as that game's name
        with pytest.raises(ScaffoldError, match=f"`botboard {name}` is one of botboard's own commands"):
            check_name(name)
    said = _one_line_refusal(tmp_path, "bench", "--dir", str(tmp_path))
    assert "a game may not be named like a command" in said
    assert list(tmp_path.iterdir()) == []


def test_the_example_games_name_is_kept_for_it(tmp_path: Path) -> None:
    for example in published()["games"]:
        said = _one_line_refusal(tmp_path, example["game"], "--dir", str(tmp_path))
        assert f"are kept for {example['who']}" in said and "choose another name" in said, said
    assert list(tmp_path.iterdir()) == []


def test_a_name_starting_with_a_digit_says_the_rule(tmp_path: Path) -> None:
    said = _one_line_refusal(tmp_path, "9lives", "--dir", str(tmp_path))
    assert "a name starts with a lower-case letter" in said, said


def test_a_dir_whose_parent_is_missing_is_refused_and_nothing_is_made(tmp_path: Path) -> None:
    said = _one_line_refusal(tmp_path, "zap-bots", "--dir", str(tmp_path / "no" / "such"))
    assert f"its parent {tmp_path / 'no'} does not exist" in said, said
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "a-file").write_text("")
    said = _one_line_refusal(tmp_path, "zap-bots", "--dir", str(tmp_path / "a-file"))
    assert "not a folder" in said, said


def test_only_the_dir_and_the_games_own_folder_are_made(tmp_path: Path) -> None:
    done = botboard([], "new-game", "zap-bots", "--dir", str(tmp_path / "src"))
    assert done.returncode == 0, done.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["src"]
    assert [p.name for p in (tmp_path / "src").iterdir()] == ["zap-bots"]  # no draft left beside it
    assert (tmp_path / "src" / "zap-bots" / "pyproject.toml").is_file()


def test_new_game_never_draws_a_reserved_or_installed_id() -> None:
    kept = reserved() | {d.tile_id for d in registry.declarations().values()}
    assert {101} | set(range(1, 64)) <= reserved()  # the published list: the example's and botboard's
    drawn = {free_tile_id(random.Random(seed)) for seed in range(400)}
    assert drawn and not drawn & kept and all(64 <= i <= 254 for i in drawn)


def test_docs_tiles_publishes_the_reserved_list_new_game_reads() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "tiles.md").read_text()
    table = page.split("### Reserved ids", 1)[1].split("\n\n")[2]
    rows = [[cell.strip() for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    doc = published()
    expected = [(f"{r['first']}..{r['last']}" if r["first"] != r["last"] else str(r["first"]), "", r["who"])
                for r in doc["ranges"]] + [(str(g["id"]), f"`{g['game']}`", g["who"]) for g in doc["games"]]
    assert sorted((row[0], row[1], row[3]) for row in rows) == sorted(expected)
