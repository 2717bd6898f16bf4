"""VOLT: a robot arena programmed with dice (docs/volt.md)."""
