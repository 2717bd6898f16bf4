"""Refusals counted per topic, one log line a minute (tally.py)."""

from __future__ import annotations

import logging

import pytest

from botboard.remote.tally import MAX_TOPICS, OTHER, Tally


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_first_is_logged_the_rest_summed_once_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    clock = Clock()
    tally = Tally(logging.getLogger("tally-test"), "room club, table host", clock=clock)
    tally.count("t/zz", "not sealed")
    for k in range(1000):
        clock.now = k * 0.01
        tally.count("t/zz" if k % 4 else "t/yy", "not sealed")
    assert len(caplog.records) == 1  # the first, at once; the minute is not over
    clock.now = 61.0
    tally.count("t/zz", "bad")  # a minute on: the last minute's sum, this one counted for the next
    tally.flush()  # at close
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3, lines
    assert "refused 1000 more messages: 750 on t/zz (not sealed); 250 on t/yy (not sealed)" in lines[1]
    assert "refused 1 more message: 1 on t/zz (bad)" in lines[2]
    assert tally.total == 1002


def test_the_topics_named_in_a_line_are_bounded(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING)
    tally = Tally(logging.getLogger("tally-test"), "room club", clock=Clock())
    for k in range(MAX_TOPICS + 50):
        tally.count(f"t/{k}", "junk")
    tally.flush()
    summary = caplog.records[-1].getMessage()
    assert f"{81 - MAX_TOPICS} on {OTHER}" in summary and summary.count(" on t/") == MAX_TOPICS
