"""Selfplay watched live in the console: the virtual hands' game shows as it is played."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from ..simboard import BOTBOARD
from ..patience import scaled


def test_a_selfplay_game_can_be_watched_live_in_the_console(browser: Any, tmp_path: Path) -> None:
    proc = subprocess.Popen([BOTBOARD, "selfplay", "--game", "botwars", "--players", "2", "--seed", "4",
                             "--option", "max_turns=3", "--speed", "0.3", "--console-port", "0",
                             "--data-dir", str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert line.startswith("watch it: http://127.0.0.1:"), line
        page = browser.new_page()
        page.goto(line.split(": ", 1)[1].strip())
        expect(page.locator("#game-name")).to_have_text("botwars")
        expect(page.locator("#game-log li").first).to_be_visible(timeout=60000)  # actions as they play
        expect(page.locator("#game-view [data-key='settings']")).to_contain_text("2 players, seed")  # the seed itself is shown at the end
        banner = page.locator("#end-banner")
        expect(banner).to_be_visible(timeout=240000)  # the console stays up on the end screen
        expect(banner.locator(".end-headline")).to_contain_text("Game over: ")
        expect(banner.locator(".standings tbody tr")).to_have_count(2)
        said: list[str] = []
        while not said or not said[-1].startswith("game over: the console shows the end screen"):
            said.append(proc.stderr.readline())
            assert said[-1], "selfplay ended without lingering"
        assert proc.poll() is None  # it stays until Ctrl-C
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=scaled(30))
        err = "".join(said) + err
        assert proc.returncode == 0, err[-2000:]
        result = json.loads(out)
        assert result["game_name"] == "botwars" and result["turns"] == 3
        assert "action 1:" in err  # progress on stderr, as without the console
        page.close()
    finally:
        proc.kill()
