"""No engine word reaches a person, in any game (tests/engine_words.py): a whole game of each,
every step's shared screen and phones (now line, log, decisions, notices, end screen), the
undo's words, `botboard selfplay`'s progress lines on stderr, and `botboard games`' outcome lines."""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path
from typing import Any

import pytest

from botboard import games
from botboard.board import layouts
from botboard.session import selfplay
from botboard.session.journal import Journal
from botboard.session.session import GameSession

from ..engine_words import PHONE, SHARED, broken, engine_words, shown
from ..simboard import BOTBOARD
from .helpers import Clock, FakeBoard

GAMES = games.table_names()


def _session(tmp: Path, game: str, stderr: io.StringIO | None = None) -> GameSession:
    """A session whose published events are printed as `botboard selfplay` prints them on
    its stderr (``selfplay.progress``), into ``stderr``."""
    def publish(event: dict[str, Any]) -> None:
        with contextlib.redirect_stderr(stderr or io.StringIO()):
            selfplay.progress(event)

    layout = layouts.load(games.table(game).default_layout(2))
    return GameSession(layout, Journal.in_dir(tmp), FakeBoard(), publish=publish, step_s=0, clock=Clock(),
                       game=game)


def test_the_rule_catches_what_it_should() -> None:
    assert engine_words("p2 face N") and engine_words("hit_points 3") and engine_words('{"a": 1}')
    assert engine_words("round limit 10 reached (the project's cap, not a rule)")
    assert not engine_words("blue: come back at r1c6 facing north; take the 3 tiles off: yard A 2")


@pytest.mark.parametrize("game", GAMES)
def test_every_screen_of_a_whole_game_is_in_peoples_words(tmp_path: Path, game: str) -> None:
    progress = io.StringIO()
    session = _session(tmp_path, game, progress)
    session.new_game(2, dict(games.declaration(game).quick_options), seed=3)
    session.set_computers({0: "greedy", 1: "greedy"}, 0.01)
    found: list[str] = []
    undone = False
    for _ in range(3000):
        found += broken(shown(session.view(), SHARED))
        found += broken(shown(session.seat_view(s), PHONE) for s in range(2))
        if session.mode == "over":
            break
        if not undone and len(session.journal.actions(session.game_id)) == 2:
            undone = True
            session.undo()  # the undo's words, then the game goes on
            found += broken(shown(session.view(), SHARED))
        session.computers_now(most=1)
    assert session.mode == "over"
    printed = progress.getvalue().splitlines()
    assert len(printed) >= len(session.journal.actions(session.game_id)), printed[:5]  # a line per action
    found += broken(printed)
    listed = subprocess.run([BOTBOARD, "games", "--data-dir", str(tmp_path)], capture_output=True, text=True,
                            timeout=120)
    assert listed.returncode == 0, listed.stderr
    found += broken(line.split(None, 6)[-1] for line in listed.stdout.splitlines()[1:])  # the outcome column
    assert not sorted(set(found)), "\n".join(sorted(set(found))[:30])
