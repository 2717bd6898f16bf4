"""A product child process given a limit (botboard.patience.run, used by `botboard bench firmware`):
its output comes back as subprocess.run's would, and one that overruns even the load-stretched limit
ends with a sentence (SlowChild), never subprocess.TimeoutExpired."""

from __future__ import annotations

import sys

import pytest

from botboard import patience


def test_a_child_within_its_time_gives_its_output_and_status() -> None:
    done = patience.run([sys.executable, "-c", "import sys; print(sys.stdin.read().upper()); sys.exit(3)"],
                        "an echo", 60, input="abc")
    assert (done.returncode, done.stdout.strip()) == (3, "ABC")


def test_a_child_that_overruns_says_so_in_a_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(patience.SlowChild, match="a sleeper did not finish .* this machine is too busy"):
        patience.run([sys.executable, "-c", "import time; time.sleep(600)"], "a sleeper", 0.2)
    assert "a sleeper: still running after" in capsys.readouterr().err  # said before giving up
