"""Laser Tanks at the table: the session's questions (mapping.py) and the LEDs (leds.py)."""
