"""The wheel: built from this checkout, installed into a fresh venv, and `botboard run` started
outside any checkout plays on the simulated board from the firmware and layouts it carries; a game
author's package passes the conformance plugin against that wheel."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from ..patience import scaled

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv with only the wheel (and its pinned dependencies) installed."""
    where = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(where / "dist"),
                            str(ROOT)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    wheel = next((where / "dist").glob("botboard-*.whl"))
    subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True, timeout=120)
    done = subprocess.run([str(where / "venv/bin/pip"), "install", "-q", str(wheel)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return where


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _status(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=scaled(10)) as reply:
        return dict(json.loads(reply.read()))


def test_the_wheel_carries_the_firmware_and_layouts(installed: Path) -> None:
    python = installed / "venv/bin/python"
    out = subprocess.run([str(python), "-c", "from botboard import resources as r; import json; "
                          "print(json.dumps([str(r.ROOT), r.IN_CHECKOUT, str(r.DEFAULT_DATA_DIR)]))"],
                         capture_output=True, text=True, cwd=installed, timeout=60,
                         env={"HOME": str(installed), "PATH": "/usr/bin:/bin"})
    root, in_checkout, data = json.loads(out.stdout)
    assert not in_checkout and "site-packages/botboard/payload" in root
    assert data == str(installed / ".local/share/botboard")
    assert (Path(root) / "firmware/main.py").is_file() and (Path(root) / "shared/bbshared/link.py").is_file()
    assert (Path(root) / "hardware/layouts/ttb-big.json").is_file()
    listed = subprocess.run([str(installed / "venv/bin/botboard"), "games", "--playable"],
                            capture_output=True, text=True, timeout=60, cwd=installed,
                            env={"HOME": str(installed), "PATH": "/usr/bin:/bin"})
    assert listed.returncode == 0 and "ttb-small" in listed.stdout, listed.stderr
    scaffold = subprocess.run([str(installed / "venv/bin/botboard"), "new-game", "wheel-game"],
                              capture_output=True, text=True, timeout=60, cwd=installed,
                              env={"HOME": str(installed), "PATH": "/usr/bin:/bin"})
    assert scaffold.returncode == 0, scaffold.stderr  # the skeleton's templates are in the wheel
    assert (installed / "wheel-game/botboard_wheel_game/table/mapping.py").is_file()


def test_botboard_run_from_the_wheel_plays_on_the_simulated_board(installed: Path) -> None:
    port = _free_port()
    env = {"HOME": str(installed), "PATH": "/usr/bin:/bin", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([str(installed / "venv/bin/botboard"), "run", "--console-port", str(port),
                             "--players", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=installed, env=env)
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and not any(line.startswith("console:") for line in lines):
            lines.append(proc.stdout.readline())
            assert proc.poll() is None, "".join(lines) + proc.stderr.read() if proc.stderr else ""
        assert "simulated board" in lines[0]
        status = _status(port)
        while status["link"]["state"] != "connected" and time.monotonic() < deadline:
            time.sleep(0.2)  # the console answers before the handshake is done
            status = _status(port)
        board = status["link"]["board"]
        assert status["link"]["state"] == "connected" and board["layout"] == "ttb-small"
        assert status["game"]["scores"] == {"red": 0, "blue": 0} and status["game"]["phase"] == "program"
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=scaled(30)) == 0
    assert (installed / ".local/share/botboard/botboard.sqlite").is_file()  # the journal, outside a checkout
    assert not (installed / "var").exists() and os.path.isdir(installed / "venv")


def test_docs_for_a_game_of_another_package_need_no_checkout(installed: Path) -> None:
    """`botboard docs --game NAME` from the wheel writes the game's palette page into its folder;
    botboard's own docs are refused in one line there (they live in a checkout)."""
    run_env = {"HOME": str(installed), "PATH": "/usr/bin:/bin"}
    made = subprocess.run([str(installed / "venv/bin/botboard"), "new-game", "paged-game"],
                          capture_output=True, text=True, timeout=60, cwd=installed, env=run_env)
    assert made.returncode == 0, made.stderr
    meta = installed / "paged-meta" / "botboard_paged_game-0.1.0.dist-info"
    meta.mkdir(parents=True)
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: botboard-paged-game\nVersion: 0.1.0\n")
    (meta / "entry_points.txt").write_text("[botboard.games]\npaged-game = botboard_paged_game.declaration:GAME\n")
    with_game = {**run_env, "PYTHONPATH": f"{installed / 'paged-game'}:{meta.parent}"}
    done = subprocess.run([str(installed / "venv/bin/botboard"), "docs", "--game", "paged-game"],
                          capture_output=True, text=True, timeout=60, cwd=installed / "venv", env=with_game)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (installed / "paged-game/botboard_paged_game/docs/palette.md").is_file()
    for args in (["docs"], ["docs", "--check"], ["docs", "--game", "volt"]):
        refused = subprocess.run([str(installed / "venv/bin/botboard"), *args], capture_output=True, text=True,
                                 timeout=60, cwd=installed, env=with_game)
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, (args, refused.stderr)
        assert "source checkout" in refused.stderr, refused.stderr


def _shell_lines(doc: Path) -> list[str]:
    """The commands of a page's ```sh blocks, in order (comments and blank lines left out)."""
    lines, inside = [], False
    for line in doc.read_text().splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```sh"
            continue
        if inside and line.split("#")[0].strip():
            lines.append(line.split("  #")[0].strip())
    return lines


@pytest.mark.timeout(1200)
def test_adding_a_game_works_as_written_from_the_wheel(installed: Path, tmp_path: Path) -> None:
    """docs/adding-a-game.md followed literally: every command of its shell blocks, in order, in
    the wheel's fresh virtualenv (only the wheel and its dependencies: botboard comes from the
    wheel, not this checkout) with a new home folder (so ~/src is new), each must succeed. The
    author's kit works from an installed botboard: the new package passes the conformance plugin
    in its own folder. (A command the page repeats, the same suite from another folder, is run
    once: a second run shows nothing the first did not.)"""
    commands = _shell_lines(ROOT / "docs" / "adding-a-game.md")
    assert any(c.startswith("botboard new-game") for c in commands) and len(commands) >= 5
    env = {"HOME": str(tmp_path), "PATH": f"{installed / 'venv/bin'}:/usr/bin:/bin"}
    ran: dict[str, str] = {}
    for command in commands:
        same = command.split("&& ")[-1]
        if same in ran:
            continue
        done = subprocess.run(["bash", "-euc", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=scaled(600))
        assert done.returncode == 0, f"{command}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        ran[same] = done.stdout
    summary = ran["pytest --botboard-game my-game"].strip().splitlines()[-1]
    assert int(summary.split(" passed")[0].split()[-1]) >= 15 and "failed" not in summary, summary
    where = subprocess.run([str(installed / "venv/bin/python"), "-c", "import botboard; print(botboard.__file__)"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=scaled(60)).stdout
    assert where.startswith(str(installed / "venv")), f"botboard was imported from {where}, not the wheel"
