from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def _own_error_log(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A bug's traceback (cli/errors.py) goes to this run's folder, not the user's."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
        patch.delenv("BOTBOARD_CONFIG", raising=False)
        yield
