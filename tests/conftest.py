import sys
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the shared protocol package is importable as in the firmware
sys.path.insert(0, str(ROOT / "shared"))


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """pytest-timeout's limit (a hang guard: pyproject's timeout, or a test's own mark) stretched
    by the machine's load when the test starts, as every wait in the tests is (tests/patience.py)."""
    from botboard.patience import load_factor

    if item.config.pluginmanager.hasplugin("timeout"):
        marker = item.get_closest_marker("timeout")
        base = marker.args[0] if marker is not None and marker.args else item.config._env_timeout  # type: ignore[attr-defined]
        if base:
            item.add_marker(pytest.mark.timeout(base * load_factor()), append=False)
    yield
