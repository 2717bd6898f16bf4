from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from botboard.remote.local_broker import MOSQUITTO, Broker


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    if not Path(MOSQUITTO).exists():
        pytest.fail("mosquitto is missing: run bash .ci/setup --test")
    broker = Broker(tmp_path)
    broker.start()
    yield broker
    broker.stop()
