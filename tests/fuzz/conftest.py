from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from botboard.session.journal import Journal


@pytest.fixture(autouse=True, scope="session")
def _own_error_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A bug's traceback (cli/errors.py) goes to this run's folder, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        patch.delenv("BOTBOARD_CONFIG", raising=False)
        yield


@pytest.fixture(scope="session")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with a journal of one game, and an empty settings file."""
    folder = tmp_path_factory.mktemp("home")
    journal = Journal.in_dir(folder)
    journal.create_game("botwars", 2, {}, 1, "botwars")
    journal.close()
    (folder / "botboard.toml").write_text("")
    return folder
