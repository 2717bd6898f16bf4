"""The web console, served by the daemon on localhost."""
