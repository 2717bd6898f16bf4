"""botboard host: daemon, rules engines, console and tools."""

__version__ = "0.1.0"
