"""The table's settings file: flags over the file over defaults, sources named, bad files refused."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from botboard.cli import build_parser
from botboard.cli.run import table_settings
from botboard.settings import SETTINGS, SettingsError, file_text, load_file, resolve


def _args(*argv: str):
    return build_parser().parse_args(["run", *argv])


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "botboard.toml"
    path.write_text(text)
    return path


def test_flags_win_over_the_file_and_the_file_over_defaults(tmp_path: Path) -> None:
    path = _write(tmp_path, 'game = "botwars"\nplayers = 4\nlisten = "0.0.0.0"\ntoken = "t0ken-t0ken"\n'
                  'computer = ["3=greedy"]\n[options]\nmax_turns = 5\nruleset = "v1"\n')
    resolved = resolve(_args("--config", str(path), "--players", "3", "--option", "max_turns=9"))
    v, src = resolved.values, resolved.sources
    assert (v["game"], src["game"]) == ("botwars", str(path))
    assert (v["players"], src["players"]) == (3, "flag")
    assert (v["seed"], src["seed"]) == (0, "default")
    assert v["options"] == {"max_turns": 9, "ruleset": "v1"}
    assert src["options"] == f"{path} and flags"
    assert v["computer"] == ["3=greedy"] and v["listen"] == "0.0.0.0"


def test_the_file_is_found_through_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "console_port = 8800\nthink = 1\n")
    monkeypatch.setenv("BOTBOARD_CONFIG", str(path))
    values = table_settings(_args())
    assert values["console_port"] == 8800 and values["think"] == 1.0


@pytest.mark.parametrize("text, words", [
    ('gmae = "volt"\n', "unknown setting 'gmae' (did you mean 'game'?)"),
    ("players = \"four\"\n", "players = 'four': players is a whole number"),
    ("players = true\n", "players is a whole number"),
    ("computer = \"2\"\n", "computer is a list of strings"),
    ("game = \n", "not valid TOML"),
])
def test_a_bad_file_names_the_file_the_key_and_the_problem(tmp_path: Path, text: str, words: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(SettingsError) as err:
        load_file(path)
    assert str(path) in str(err.value) and words in str(err.value)


def test_a_named_file_that_is_missing_says_how_to_make_one(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="config --init"):
        resolve(_args("--config", str(tmp_path / "nope.toml")))


def test_a_new_file_is_valid_toml_with_every_setting_shown(tmp_path: Path) -> None:
    text = file_text({"game": "volt", "options": {"max_turns": 3}})
    assert tomllib.loads(text) == {"game": "volt", "options": {"max_turns": 3}}
    uncommented = "\n".join(line[2:] if line.startswith("# ") and " = " in line else line
                            for line in text.splitlines())
    assert set(tomllib.loads(uncommented)) == {s.key for s in SETTINGS}  # each example is valid


def _botboard(*argv: str, env_home: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "HOME": str(env_home), "XDG_CONFIG_HOME": str(env_home / "cfg")}
    return subprocess.run([sys.executable, "-m", "botboard", *argv], capture_output=True, text=True,
                          env=env, timeout=60)


def test_config_init_then_config_shows_values_and_their_sources(tmp_path: Path) -> None:
    made = _botboard("config", "--init", "--listen", "0.0.0.0", "--token", "auto", "--game", "goblins",
                     env_home=tmp_path)
    assert made.returncode == 0, made.stderr
    path = tmp_path / "cfg" / "botboard" / "botboard.toml"
    token = tomllib.loads(path.read_text())["token"]
    assert token != "auto" and len(token) >= 16  # a fixed token: phones' links survive restarts
    shown = _botboard("config", "--json", "--seed", "7", env_home=tmp_path)
    settings = json.loads(shown.stdout)["settings"]
    assert settings["game"] == {"value": "goblins", "from": str(path)}
    assert settings["seed"] == {"value": 7, "from": "flag"}
    assert settings["palette"] == {"value": "standard", "from": "default"}
    assert settings["token"]["value"] == token[:4] + "..."  # never printed whole
    assert path.stat().st_mode & 0o777 == 0o600  # the token derives every seat's key: the owner's only
    again = _botboard("config", "--init", env_home=tmp_path)
    assert again.returncode == 2 and "exists" in again.stderr


def test_config_masks_the_broker_password_and_the_room_key(tmp_path: Path) -> None:
    shown = _botboard("config", "--json", "--remote", "mqtt://kitchen:hunter2@broker/club#R00mKey-0f-the-club",
                      "--room-key", "tea at five", env_home=tmp_path)
    assert shown.returncode == 0, shown.stderr
    settings = json.loads(shown.stdout)["settings"]
    assert settings["remote"]["value"] == "mqtt://kitchen:...@broker/club#R00m..."
    assert settings["room_key"]["value"] == "..."
    assert "hunter2" not in shown.stdout and "tea at five" not in shown.stdout


@pytest.mark.parametrize("flags, complaint", [
    (["--console-port", "70000"], "--console-port 70000: a TCP port is a number from 1 to 65535"),
    (["--table", "a/b"], "--table 'a/b': a table's name is 1 to 64 of A-Z a-z 0-9 _ -"),
])
@pytest.mark.parametrize("command", ["run", "doctor", "config"])
def test_a_bad_port_or_table_name_is_one_line_and_exit_2(tmp_path: Path, command: str, flags: list[str],
                                                         complaint: str) -> None:
    done = _botboard(command, *flags, env_home=tmp_path)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and complaint in lines[0], done.stderr
