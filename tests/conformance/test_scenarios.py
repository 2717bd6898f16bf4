"""botboard's own run of the conformance suite's scenarios checks over every installed game (the plugin
botboard.conformance; an author runs them with `pytest --botboard-game NAME`)."""

from botboard.conformance.suite.check_scenarios import *  # noqa: F401,F403
