"""Take the players' guides' screenshots: every game's shared screen (1400 px) and a phone (390 px),
at the start of a game and on its end screen.

Run: .venv/bin/python docs/make_screens.py [GAME...]
(writes docs/img/screens/<game>-<start|end>-<console|phone>.jpg; needs Debian's Chromium at
/usr/bin/chromium, as the browser tests do)

Each game is played by `botboard run` on the simulated board, exactly as at a table: the start is a
fresh 2-player game; the end is the same game played out by two computer seats. Games come from the
registry, so a new game gets its screenshots from this command with no change here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from botboard import games
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "img" / "screens"
BOTBOARD = str(Path(sys.executable).parent / "botboard")
SCREENS = {"console": (1400, 1000), "phone": (390, 844)}
END_WAIT_S = 300  # the longest a computer game is given to end


def _run(data: Path, *flags: str) -> tuple[subprocess.Popen[str], str]:
    """`botboard run` on the simulated board; (the process, the console's address)."""
    env = {**os.environ, "XDG_CONFIG_HOME": str(data)}  # no settings file: the defaults
    env.pop("BOTBOARD_CONFIG", None)
    proc = subprocess.Popen([BOTBOARD, "run", "--data-dir", str(data), "--console-port", "0",
                             "--players", "2", "--seed", "3", "--speed", "0", *flags],
                            stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("console: "):
            return proc, line.split(": ", 1)[1].strip()
    raise SystemExit(f"botboard run {' '.join(flags)} stopped before its console started")


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.load(reply)


def _shoot(page: Page, url: str, screen: str, path: Path, ready: str) -> None:
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(ready, state="visible", timeout=20000)
    page.wait_for_timeout(800)  # the arena's first picture
    page.screenshot(path=str(path), type="jpeg", quality=70)
    print(path.relative_to(ROOT))


def _screens(page: Page, base: str, name: str, step: str) -> None:
    seat = _get(base + "api/seats")["seats"][0]["url"]
    phone = base + seat.split("/", 3)[3] if seat.startswith("http") else seat
    ready = "#end-banner" if step == "end" else "#now-line"
    _shoot(page, base, "console", OUT / f"{name}-{step}-console.jpg", ready)
    _shoot(page, phone, "phone", OUT / f"{name}-{step}-phone.jpg", "#end-box" if step == "end" else "#your-message")


def _until_over(base: str) -> None:
    deadline = time.monotonic() + END_WAIT_S
    while not (_get(base + "api/game")["view"] or {}).get("over"):
        if time.monotonic() > deadline:
            raise SystemExit(f"{base}: the computers' game did not end in {END_WAIT_S} s")
        time.sleep(0.5)


def take(name: str, page: Page) -> None:
    for step, flags in (("start", ()), ("end", ("--computer", "1=greedy", "--computer", "2=greedy",
                                                "--think", "0.05"))):
        with tempfile.TemporaryDirectory() as data:
            proc, base = _run(Path(data), "--game", name, *flags)
            try:
                if step == "end":
                    _until_over(base)
                _screens(page, base, name, step)
            finally:
                proc.send_signal(signal.SIGTERM)
                proc.wait(10)


def main(names: list[str]) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page()
        for name in names or games.table_names():
            take(name, page)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1:])
