from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from botboard import games
from botboard.cli import main
from botboard.session.journal import Journal

from ..simboard import BOTBOARD

SCENARIOS = games.declaration("botwars").scenario_folder()


def test_board_command_prints_the_rendering(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["botwars", "board", "factory"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Factory floor (12x12, every element)")
    assert "r12 #W2" in out and "laser red at r12c9 firing S" in out


def test_report_command_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SCENARIOS / "teleporter.json")
    assert main(["botwars", "report", path]) == 0
    assert "teleport to r5c2" in capsys.readouterr().out
    assert main(["botwars", "report", path, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["turns"][0]["stages"][0]["rows"]["outcome"]["p1"][:2] == ["move to r2c2", "teleport to r5c2"]


def test_errors_are_clear(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["botwars", "board", "nowhere"]) == 2
    assert "unknown board 'nowhere'" in capsys.readouterr().err
    assert main(["botwars", "report", "game-42"]) == 2
    assert "game-42: no such scenario file, nor a game id" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "botwars", "position": {"robots": {"p9": {}}}, "actions": []}))
    assert main(["botwars", "report", str(bad)]) == 2
    assert "'p9' is not a player" in capsys.readouterr().err


def test_a_bad_board_file_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "size": [4, 4], "start": "r1c1", "flags": ["r4c4"], "squares": {
        "r2c2": {"type": "gear", "turn": "X"}, "r2c4": {"type": "conveyor", "colour": "purple", "dir": "Q"}}}))
    run = subprocess.run([BOTBOARD, "botwars", "board", str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stdout == ""
    assert "Traceback" not in run.stderr
    assert "board bad: 3 problems:" in run.stderr
    assert "squares.r2c4: conveyor dir 'Q' is not valid; expected N, E, S or W" in run.stderr
    assert "squares.r2c4: conveyor colour 'purple' is not valid; expected blue or yellow" in run.stderr
    bad.write_text("[1, 2]")
    run = subprocess.run([BOTBOARD, "botwars", "board", str(bad)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "board: expected a JSON object" in run.stderr and "Traceback" not in run.stderr


# -- journaled games: `scenario run --journal` writes them, `botwars report ID` reads them --------

GOLDEN = SCENARIOS / "golden-factory-3-turns.json"


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([BOTBOARD, *args], capture_output=True, text=True, timeout=120)


def _journal(path: Path, data_dir: Path) -> dict:
    run = _cli("scenario", "run", str(path), "--journal", "--data-dir", str(data_dir))
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert f"journaled as game {out['journaled']['id']} in {data_dir / 'botboard.sqlite'}" in run.stderr
    return out


def _report_json(*args: str) -> dict:
    run = _cli("botwars", "report", *args, "--json")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_report_of_a_journaled_game_is_the_scenario_report(tmp_path: Path) -> None:
    _journal(SCENARIOS / "start-turn2.json", tmp_path)  # a first game, so the id must be read
    out = _journal(GOLDEN, tmp_path)
    game_id = str(out["journaled"]["id"])
    assert game_id == "2" and out["journaled"]["actions"] == 10
    from_journal = _report_json(game_id, "--data-dir", str(tmp_path))
    assert from_journal == _report_json(str(GOLDEN))
    assert len(from_journal["turns"]) == 3 and from_journal["pending"] is None
    text = _cli("botwars", "report", game_id, "--data-dir", str(tmp_path))
    assert text.returncode == 0 and text.stdout == _cli("botwars", "report", str(GOLDEN)).stdout
    # the journal holds what the scenario played, each hash the engine's
    replay = _cli("replay", game_id, "--data-dir", str(tmp_path))
    assert replay.stdout.strip() == out["state_hash"] == "fc2c37eeb0e6e029"


def test_undone_actions_are_left_out_of_the_report(tmp_path: Path) -> None:
    game_id = _journal(GOLDEN, tmp_path)["journaled"]["id"]
    journal = Journal.in_dir(tmp_path)
    try:
        undone = [journal.undo_last(game_id) for _ in range(4)]  # p2 face N and turn 3's programs
    finally:
        journal.close()
    doc = json.loads(GOLDEN.read_text())
    assert undone == doc["actions"][:-5:-1]
    del doc["expect"]
    doc["actions"] = doc["actions"][:-4]
    shorter = tmp_path / "shorter.json"
    shorter.write_text(json.dumps(doc))
    report = _report_json(str(game_id), "--data-dir", str(tmp_path))
    assert report == _report_json(str(shorter))
    assert len(report["turns"]) == 2 and report["waiting_for"] == ["p1", "p2", "p3"]
    assert report != _report_json(str(GOLDEN))


def test_journaled_report_errors_are_clear(tmp_path: Path) -> None:
    missing = _cli("botwars", "report", "1", "--data-dir", str(tmp_path / "none"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert f"no journal in {tmp_path / 'none'}" in missing.stderr
    journal = Journal.in_dir(tmp_path)
    ttb = journal.create_game("twin-tin-bots", 2, {}, 1, "ttb-small")
    journal.close()
    unknown = _cli("botwars", "report", "7", "--data-dir", str(tmp_path))
    assert unknown.returncode == 2 and unknown.stdout == "" and "Traceback" not in unknown.stderr
    assert f"no game 7 in {tmp_path / 'botboard.sqlite'} (`botboard games` lists them)" in unknown.stderr
    other = _cli("botwars", "report", str(ttb), "--data-dir", str(tmp_path))
    assert other.returncode == 2 and other.stdout == "" and "Traceback" not in other.stderr
    assert f"game {ttb} in {tmp_path / 'botboard.sqlite'} is a twin-tin-bots game, not botwars" in other.stderr


def test_scenario_journal_works_for_any_game(tmp_path: Path) -> None:
    ttb = Path(__file__).parents[1] / "ttb" / "golden" / "6p-short.json"
    out = _journal(ttb, tmp_path)
    game_id = out["journaled"]["id"]
    journal = Journal.in_dir(tmp_path)
    try:
        record = journal.game(game_id)
        assert (record.game, record.players, record.seed) == ("twin-tin-bots", 6, 9)
        assert record.outcome == out["outcome"] and record.outcome["reason"] == "crystal attrition"
        assert record.final_hash == out["state_hash"]
        assert [a["action"] for a in journal.actions(game_id)] == json.loads(ttb.read_text())["actions"]
    finally:
        journal.close()
    assert _cli("replay", str(game_id), "--data-dir", str(tmp_path)).stdout.strip() == out["state_hash"]


def test_scenario_journal_keeps_the_accepted_actions_and_refuses_positions(tmp_path: Path) -> None:
    doc = json.loads(GOLDEN.read_text())
    doc["actions"] = doc["actions"][:2] + ["p3 program FWD9:999"] + doc["actions"][3:]
    del doc["expect"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    run = _cli("scenario", "run", str(bad), "--journal", "--data-dir", str(tmp_path))
    assert run.returncode == 1 and "Traceback" not in run.stderr
    out = json.loads(run.stdout)
    assert out["error"].startswith("actions[2]") and out["journaled"]["actions"] == 2
    journal = Journal.in_dir(tmp_path)
    try:
        assert [a["action"] for a in journal.actions(out["journaled"]["id"])] == doc["actions"][:2]
    finally:
        journal.close()
    placed = _cli("scenario", "run", str(SCENARIOS / "push-chain.json"), "--journal",
                  "--data-dir", str(tmp_path / "other"))
    assert placed.returncode == 2 and placed.stdout == "" and "Traceback" not in placed.stderr
    assert "a scenario with a position cannot be journaled" in placed.stderr
    assert not (tmp_path / "other" / "botboard.sqlite").exists()
