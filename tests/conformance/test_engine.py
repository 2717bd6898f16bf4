"""botboard's own run of the conformance suite's engine checks over every installed game (the plugin
botboard.conformance; an author runs them with `pytest --botboard-game NAME`)."""

from botboard.conformance.suite.check_engine import *  # noqa: F401,F403
