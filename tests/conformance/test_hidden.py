"""botboard's own run of the conformance suite's hidden checks over every installed game (the plugin
botboard.conformance; an author runs them with `pytest --botboard-game NAME`)."""

from botboard.conformance.suite.check_hidden import *  # noqa: F401,F403
