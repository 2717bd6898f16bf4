"""botboard's own run of the conformance suite's scenario-file checks over every installed game."""

from botboard.conformance.suite.check_scenario_files import *  # noqa: F401,F403
