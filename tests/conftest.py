import os
import resource
import sys
import time
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


# The longest modules (tests/README.md's budget) start first: two workers share the run, and a
# long test begun last would leave one worker alone at the end.
LONGEST_FIRST = [
    "tests/chip/test_chip_games.py",  # the emulated RP2040: a Pico at a fifth of real time
    "tests/chip/test_deploy.py",  # three deploys onto it with the real mpremote
    "tests/chip/test_chip_board.py",
    "tests/console/test_whole_games.py",
    "tests/remote/test_two_tables.py",
    "tests/remote/test_trust.py",
    "tests/session/test_selfplay.py",
    "tests/console/test_replay.py",
    "tests/host/test_link_over_pty.py",
    "tests/console/test_picker.py",
    "tests/host/test_run_stop.py",
    "tests/goblins/test_selfplay.py",
    "tests/console/test_bringup.py",
    "tests/console/test_watch_selfplay.py",
    "tests/conformance/test_table.py",
    "tests/conformance/test_breaks.py",  # the suite run once for each deliberate break
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: n for n, path in enumerate(LONGEST_FIRST)}
    where = lambda item: str(Path(item.fspath).relative_to(ROOT))  # noqa: E731
    items.sort(key=lambda item: rank.get(where(item), len(rank)))  # stable: the rest keep their order


# BOTBOARD_TEST_TIMES=FILE: each test's wall time and the CPU it used (this process and the
# children reaped meanwhile) appended to FILE as "wall cpu nodeid" lines, for issue 38's
# question of which tests compute and which wait (tests/README.md's budget).
_TIMES = os.environ.get("BOTBOARD_TEST_TIMES")


def _cpu_s() -> float:
    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


class _Times:
    """The plugin behind BOTBOARD_TEST_TIMES (registered in pytest_configure)."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
        wall, cpu = time.monotonic(), _cpu_s()
        yield
        with open(_TIMES or "", "a") as out:
            out.write(f"{time.monotonic() - wall:.2f} {_cpu_s() - cpu:.2f} {item.nodeid}\n")


def pytest_configure(config: pytest.Config) -> None:
    if _TIMES:
        config.pluginmanager.register(_Times(), "botboard-test-times")

