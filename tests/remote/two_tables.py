"""Two whole daemons with their simulated boards in one room (the setup is the bench's)."""

from botboard.bench.remote import Tables, start, stop, table_daemon, two_tables, until

__all__ = ["Tables", "start", "stop", "table_daemon", "two_tables", "until"]
