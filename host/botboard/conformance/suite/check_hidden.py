"""Hidden information stays hidden, measured for every game whatever it declares
(botboard.conformance.hidden says how): a seat's view, the shared view, the shared screen's
words and the LEDs never change when only what another seat may not see changes."""

from __future__ import annotations

import pytest

from .. import hidden
from ..plugin import record


def test_nothing_a_seat_may_not_see_reaches_its_view_the_shared_screen_or_the_leds(
        botboard_game: str, request: pytest.FixtureRequest) -> None:
    found = hidden.measure(botboard_game)
    record(request.config, found.summary())
    assert not found.problems, "\n".join(found.problems)
    assert found.positions >= hidden.POSITIONS // hidden.GAMES, \
        f"{botboard_game}: random play gave only {found.positions} positions"
