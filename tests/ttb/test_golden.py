"""Golden playthroughs: recorded random games must replay to the same state."""

from pathlib import Path

import pytest

from botboard.games import scenario

FILES = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough(path):
    doc = scenario.load(path)
    problems = scenario.check(doc, scenario.run(doc))
    assert problems == [], ("behaviour changed; if intended, regenerate with "
                            "`.venv/bin/python -m tests.ttb.make_golden`")
